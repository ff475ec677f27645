/* The locality source: where the I/O devices sit, as hwloc reports it (with
 * I/O discovery: --io, --xml, --mpi).  Each GPU gets "numa_node", the NUMA
 * node of its PCI bus; the CPU gets "network", the network and OpenFabrics
 * OS devices by name with their NUMA node and PCI identity.  Addresses and
 * GUIDs are left out: they name one node, not its kind (docs/cluster.md). */
#include "probe_private.h"

#include <stdio.h>
#include <string.h>

/* The one NUMA node nearest to an I/O object (its non-I/O ancestor's
 * nodeset has exactly one node), or -1. */
static int64_t numa_of(hwloc_topology_t topo, hwloc_obj_t o)
{
    hwloc_obj_t a = o ? hwloc_get_non_io_ancestor_obj(topo, o) : NULL;
    if (!a || !a->nodeset || hwloc_bitmap_weight(a->nodeset) != 1)
        return -1;
    return hwloc_bitmap_first(a->nodeset);
}

static hwloc_obj_t pci_parent(hwloc_obj_t o)
{
    while (o && o->type != HWLOC_OBJ_PCI_DEVICE)
        o = o->parent;
    return o;
}

/* "numa_node" for every GPU whose pci_bus_id names a PCI device. */
static int gpus_numa(pb_run *run, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    dlti_key bus = dlti_key_string(ctx, "pci_bus_id", strlen("pci_bus_id"));
    dlti_key numa = dlti_key_string(ctx, "numa_node", strlen("numa_node"));
    dlti_key src = dlti_key_string(ctx, "source", strlen("source"));
    if (!bus || !numa || !src)
        return dlti_context_nomem(ctx, err);
    for (size_t i = 0; i < run->devices.n; i++) {
        const dlti_attr *dev = run->devices.e[i].value;
        const dlti_attr *b = dlti_attr_lookup(dev, bus);
        const char *s;
        size_t n;
        if (!b || dlti_attr_get_string(b, &s, &n, NULL) != 0 || n != strlen(s))
            continue;
        int64_t node = numa_of(run->topo, hwloc_get_pcidev_by_busidstring(run->topo, s));
        if (node < 0)
            continue;
        /* a NULL value would remove the key: a refused builder must fail */
        const dlti_attr *value = dlti_i64_new(ctx, node);
        if (!value)
            return dlti_context_nomem(ctx, err);
        dev = dlti_container_set(ctx, dev, numa, value, err);
        const dlti_attr *prov = dev ? dlti_attr_lookup(dev, src) : NULL;
        if (prov) {
            const dlti_attr *how = dlti_string_new(ctx, "hwloc PCI locality", 18);
            if (!how)
                return dlti_context_nomem(ctx, err);
            prov = dlti_container_set(ctx, prov, numa, how, err);
            dev = prov ? dlti_container_set(ctx, dev, src, prov, err) : NULL;
        }
        if (!dev)
            return -1;
        run->devices.e[i].value = dev;
    }
    return 0;
}

/* One network device: its kind, NUMA node and PCI identity. */
static void add_network(pb_run *run, pb_map *net, hwloc_obj_t os, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    pb_map m;
    pb_init(&m);
    pb_str(ctx, &m, "type", os->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS ? "openfabrics"
                                                                                 : "network");
    int64_t node = numa_of(run->topo, os);
    if (node >= 0)
        pb_i64(ctx, &m, "numa_node", node);
    hwloc_obj_t pci = pci_parent(os);
    if (pci) {
        char id[32];
        snprintf(id, sizeof(id), "%04x:%02x:%02x.%01x", pci->attr->pcidev.domain,
                 pci->attr->pcidev.bus, pci->attr->pcidev.dev, pci->attr->pcidev.func);
        pb_str(ctx, &m, "pci_bus_id", id);
        pb_i64(ctx, &m, "pci_vendor_id", pci->attr->pcidev.vendor_id);
        pb_i64(ctx, &m, "pci_device_id", pci->attr->pcidev.device_id);
        pb_str(ctx, &m, "model", pb_info(pci, "PCIDevice"));
    }
    pb_add(ctx, net, os->name, pb_finish(ctx, &m, DLTI_ATTR_MAP, err));
}

/* "network" in the CPU device, when there are network devices. */
static int cpu_network(pb_run *run, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    pb_map net;
    pb_init(&net);
    for (hwloc_obj_t os = hwloc_get_next_osdev(run->topo, NULL); os;
         os = hwloc_get_next_osdev(run->topo, os))
        if (os->name && (os->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK ||
                         os->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS))
            add_network(run, &net, os, err);
    if (!net.n) {
        pb_free(&net);
        return 0;
    }
    const dlti_attr *map = pb_finish(ctx, &net, DLTI_ATTR_MAP, err);
    char cpu_id[300];
    snprintf(cpu_id, sizeof(cpu_id), "%sCPU", run->prefix);
    for (size_t i = 0; map && i < run->devices.n; i++) {
        size_t n;
        const char *id = dlti_key_str(run->devices.e[i].key, &n);
        if (!id || n != strlen(cpu_id) || memcmp(id, cpu_id, n) != 0)
            continue;
        const dlti_attr *dev = run->devices.e[i].value;
        dlti_key k = dlti_key_string(ctx, "network", strlen("network"));
        dlti_key s = dlti_key_string(ctx, "source", strlen("source"));
        if (!k || !s)
            return dlti_context_nomem(ctx, err);
        const dlti_attr *prov = dlti_attr_lookup(dev, s);
        dev = dlti_container_set(ctx, dev, k, map, err);
        if (dev && prov) {
            const dlti_attr *how = dlti_string_new(ctx, "hwloc OS devices", 16);
            if (!how)
                return dlti_context_nomem(ctx, err);
            prov = dlti_container_set(ctx, prov, k, how, err);
            dev = prov ? dlti_container_set(ctx, dev, s, prov, err) : NULL;
        }
        if (!dev)
            return -1;
        run->devices.e[i].value = dev;
        return 0;
    }
    return map ? 0 : -1;
}

int pb_probe_locality(pb_run *run, dlti_error_t *err)
{
    if (!run->io)
        return 0;
    return gpus_numa(run, err) == 0 && cpu_network(run, err) == 0 ? 0 : -1;
}
