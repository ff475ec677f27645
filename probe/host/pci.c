/* The PCI source: GPUs and accelerators from hwloc's PCI and OS devices
 * (present only when the topology was loaded with I/O), one device each,
 * "GPU0", "GPU1", ... in PCI bus id order, then the accelerators that are
 * no GPU, "ACCEL0", "ACCEL1", ... in PCI bus id order.  Which devices are
 * which: docs/keys.md, "Which devices are GPUs". */
#define _GNU_SOURCE
#include "probe_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough for every runtime's OS device of one GPU (CUDA, OpenCL, RSMI, NVML,
 * LevelZero, DRM nodes) several times over. */
#define MAX_OS_DEVICES 32

static bool osdev_is_gpu(hwloc_obj_t o)
{
#if HWLOC_API_VERSION >= 0x00030000
    return (o->attr->osdev.types & (HWLOC_OBJ_OSDEV_GPU | HWLOC_OBJ_OSDEV_COPROC)) != 0;
#else
    return o->attr->osdev.type == HWLOC_OBJ_OSDEV_GPU ||
           o->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC;
#endif
}

/* The normalised vendor of well-known PCI vendor ids, as the catalog writes
 * it (pci.ids names these ids "NVIDIA Corporation", "Advanced Micro Devices,
 * Inc. [AMD/ATI]", ...; a runtime's GPUVendor differs again). */
const char *pb_known_vendor(unsigned id)
{
    switch (id) {
    case 0x10de: return "NVIDIA";
    case 0x1002: return "AMD"; /* AMD/ATI: the GPUs */
    case 0x1022: return "AMD";
    case 0x8086: return "Intel";
    case 0x13b5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1da3: return "Intel"; /* Habana Labs, Intel's since 2019: the Gaudi entries' name */
    case 0x1d0f: return "AWS";   /* Amazon: Trainium, Inferentia (the catalog's name) */
    case 0x1e52: return "Tenstorrent";
    default: return NULL;
    }
}

/* A GPU/co-processor OS device of a compute runtime.  Not a DRM node
 * (card0, renderD128: no subtype, every display has one) nor an X display
 * (GL, subtype "Display"). */
static bool osdev_is_runtime(hwloc_obj_t o)
{
    static const char *const runtimes[] = {"CUDA", "OpenCL", "NVML", "RSMI", "LevelZero"};
    if (!osdev_is_gpu(o))
        return false;
    /* The subtype; hwloc 1.x XML files may carry only the Backend info. */
    const char *names[2] = {o->subtype, pb_info(o, "Backend")};
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; names[i] && j < sizeof(runtimes) / sizeof(runtimes[0]); j++)
            if (strcmp(names[i], runtimes[j]) == 0)
                return true;
    return false;
}

/* Display devices (class 0x03xx) are GPUs only from the GPU vendors: the
 * others are VGA emulators and BMC framebuffers (docs/keys.md lists them). */
static bool display_is_gpu(const struct hwloc_pcidev_attr_s *a)
{
    if (a->vendor_id == 0x1002 && a->device_id == 0x515e) /* ATI ES1000: server on-board VGA */
        return false;
    return a->vendor_id == 0x10de || a->vendor_id == 0x1002 || a->vendor_id == 0x8086;
}

/* Processing accelerators (class 0x12xx) are GPUs only from AMD/ATI, whose
 * Instinct MI200/MI300 report that class (1002:74a1 MI300X), and NVIDIA.
 * The others have no GPU's programming model: Habana's Gaudi, AWS's
 * Trainium, Tenstorrent, FPGA cards, and Intel's, which are its NPUs
 * (8086:7d1d Meteor Lake NPU, the intel_vpu driver of drivers/accel): no
 * Intel GPU reports that class (0x0300, 0x0380). */
static bool accelerator_is_gpu(const struct hwloc_pcidev_attr_s *a)
{
    return a->vendor_id == 0x1002 || a->vendor_id == 0x10de;
}

typedef enum { PCI_OTHER, PCI_GPU, PCI_ACCEL } pci_kind;

static pci_kind kind_of(hwloc_obj_t pci)
{
    for (hwloc_obj_t c = pci->io_first_child; c; c = c->next_sibling)
        if (c->type == HWLOC_OBJ_OS_DEVICE && osdev_is_runtime(c))
            return PCI_GPU;
    unsigned cls = pci->attr->pcidev.class_id >> 8;
    if (cls == 0x12) /* processing accelerator */
        return accelerator_is_gpu(&pci->attr->pcidev) ? PCI_GPU : PCI_ACCEL;
    return cls == 0x03 && display_is_gpu(&pci->attr->pcidev) ? PCI_GPU : PCI_OTHER;
}

/* Adds the keys one GPU/co-processor OS device (CUDA, OpenCL, RSMI, LevelZero)
 * knows, each with its provenance in `src` ("hwloc OS device cuda0 (CUDA)"). */
static void add_osdev_keys(dlti_context *ctx, pb_map *m, pb_map *src, hwloc_obj_t os)
{
    char from[160];
    snprintf(from, sizeof(from), "hwloc OS device %s%s%s%s", os->name ? os->name : "?",
             os->subtype ? " (" : "", os->subtype ? os->subtype : "", os->subtype ? ")" : "");
    pb_str(ctx, m, "vendor", pb_info(os, "GPUVendor"));
    pb_str(ctx, m, "model", pb_info(os, "GPUModel"));
    static const struct { const char *info, *key; int64_t scale; } nk[] = {
        /* hwloc 2.x: sizes in KiB as bare numbers */
        {"CUDAGlobalMemorySize", "memory_size_in_bytes", 1024},
        {"CUDAL2CacheSize", "L2_cache_size_in_bytes", 1024},
        /* Keys of the catalog schema (docs/keys.md, sysdesc/schema_keys.c),
         * so that a probed GPU filled from its catalog entry has one key per
         * meaning: hwloc's CUDASharedMemorySizePerMP is cudaDeviceProp's
         * sharedMemPerBlock (the default per-block limit, not the opt-in
         * maximum nor a per-SM figure). */
        {"CUDAMultiProcessors", "num_compute_units", 1},
        {"CUDACoresPerMP", "cores_per_compute_unit", 1},
        {"CUDASharedMemorySizePerMP", "shared_memory_per_block_in_bytes", 1024},
        {"OpenCLComputeUnits", "num_compute_units", 1},
        {"OpenCLGlobalMemorySize", "memory_size_in_bytes", 1024},
    };
    /* Intel's OpenCL counts EUs as compute units (compute-runtime: EUCount),
     * not Xe-cores: the key the probe's own OpenCL view uses (opencl.c). */
    bool intel = os->parent && os->parent->type == HWLOC_OBJ_PCI_DEVICE &&
                 os->parent->attr->pcidev.vendor_id == 0x8086;
    for (size_t i = 0; i < sizeof(nk) / sizeof(nk[0]); i++) {
        int64_t v = pb_info_num(os, nk[i].info);
        const char *key = intel && strcmp(nk[i].info, "OpenCLComputeUnits") == 0
                              ? "num_execution_units"
                              : nk[i].key;
        if (v >= 0) {
            pb_i64(ctx, m, key, v * nk[i].scale);
            pb_str(ctx, src, key, from);
        }
    }
    pb_str(ctx, m, "opencl_device_type", pb_info(os, "OpenCLDeviceType"));
    pb_str(ctx, m, "opencl_platform_name", pb_info(os, "OpenCLPlatformName"));
}

/* The raw info strings of an OS device, for keys not mapped yet. */
static const dlti_attr *osdev_infos(dlti_context *ctx, hwloc_obj_t os, dlti_error_t *err)
{
    pb_map m;
    pb_init(&m);
    for (unsigned i = 0; i < pb_info_count(os); i++) {
        const struct hwloc_info_s *in = pb_info_at(os, i);
        if (in->name && in->value && *in->name)
            pb_str(ctx, &m, in->name, in->value);
    }
    if (!m.n) {
        pb_free(&m);
        return NULL;
    }
    return pb_finish(ctx, &m, DLTI_ATTR_MAP, err);
}

/* One GPU: a PCI device and its GPU OS devices, or an OS device alone. */
typedef struct gpu {
    hwloc_obj_t pci; /* NULL for a lone OS device */
    hwloc_obj_t os[MAX_OS_DEVICES];
    const char *os_name[MAX_OS_DEVICES];
    size_t nos;
    char id[300];
} gpu;

static void find_os_devices(gpu *g, hwloc_obj_t lone_os)
{
    g->nos = 0;
    if (!g->pci) {
        g->os[0] = lone_os;
        g->os_name[g->nos++] = lone_os->name ? lone_os->name : "?";
        return;
    }
    for (hwloc_obj_t c = g->pci->io_first_child; c && g->nos < MAX_OS_DEVICES;
         c = c->next_sibling)
        if (c->type == HWLOC_OBJ_OS_DEVICE && osdev_is_gpu(c)) {
            g->os[g->nos] = c;
            g->os_name[g->nos++] = c->name ? c->name : "?";
        }
}

/* The PCI identity as keys, and as the match hook sees it.  The vendor of a
 * well-known vendor id is its normalised name, whatever the OS devices or the
 * PCI ids database call it; for other ids the OS devices' name, else the
 * PCI one.  The OS devices' model, when they have one, is a better name than
 * the PCI ids database's.  The PCI vendor name as the system reports it is
 * kept as pci_vendor_name. */
static void add_pci_keys(dlti_context *ctx, pb_map *m, const gpu *g, sysdesc_pci_info *pi)
{
    const struct hwloc_pcidev_attr_s *a = &g->pci->attr->pcidev;
    pi->domain = a->domain;
    pi->bus = a->bus;
    pi->dev = a->dev;
    pi->func = a->func;
    pi->vendor_id = a->vendor_id;
    pi->device_id = a->device_id;
    pi->subvendor_id = a->subvendor_id;
    pi->subdevice_id = a->subdevice_id;
    pi->class_id = a->class_id;
    snprintf(pi->bus_id, sizeof(pi->bus_id), "%04x:%02x:%02x.%01x", a->domain & 0xffffu, a->bus,
             a->dev, a->func);
    bool has_vendor = false, has_model = false;
    for (size_t i = 0; i < m->n; i++) {
        /* found, not interned: a comparison cannot fail for memory */
        if (m->e[i].key == dlti_key_find(ctx, "vendor", 6))
            has_vendor = true;
        if (m->e[i].key == dlti_key_find(ctx, "model", 5))
            has_model = true;
    }
    const char *pci_vendor = pb_info(g->pci, "PCIVendor");
    const char *known = pb_known_vendor(a->vendor_id);
    if (known) /* replaces an OS device's name in its place */
        pb_str(ctx, m, "vendor", known);
    else if (!has_vendor)
        pb_str(ctx, m, "vendor", pci_vendor);
    /* Any OS device's GPUModel: the first one may be a DRM node (card0),
     * which has no infos. */
    if (!has_model)
        pb_str(ctx, m, "model", pb_info(g->pci, "PCIDevice"));
    pb_i64(ctx, m, "pci_vendor_id", a->vendor_id);
    pb_i64(ctx, m, "pci_device_id", a->device_id);
    pb_i64(ctx, m, "pci_subvendor_id", a->subvendor_id);
    pb_i64(ctx, m, "pci_subdevice_id", a->subdevice_id);
    pb_i64(ctx, m, "pci_class_id", a->class_id);
    pb_str(ctx, m, "pci_bus_id", pi->bus_id);
    pb_str(ctx, m, "pci_vendor_name", pci_vendor);
}

/* The OS devices' names, and their raw info strings for what no key maps yet. */
static void add_os_device_keys(dlti_context *ctx, pb_map *m, const gpu *g, dlti_error_t *err)
{
    if (!g->nos)
        return;
    pb_add(ctx, m, "os_devices", pb_str_array(ctx, g->os_name, g->nos));
    pb_map infos;
    pb_init(&infos);
    for (size_t i = 0; i < g->nos; i++) {
        const dlti_attr *a = osdev_infos(ctx, g->os[i], err);
        if (a)
            pb_add(ctx, &infos, g->os_name[i], a);
    }
    pb_add_map(ctx, m, "hwloc_info", &infos, err);
}

/* The source map: where the PCI identity and the OS devices came from,
 * then the OS devices' keys one by one (`keys`, emptied). */
static void add_provenance(dlti_context *ctx, pb_map *m, const gpu *g, pb_map *keys,
                           dlti_error_t *err)
{
    pb_map src;
    pb_init(&src);
    pb_str(ctx, &src, "pci", g->pci ? "hwloc PCI discovery" : NULL);
    if (g->nos) {
        char b[256] = "hwloc OS devices:";
        for (size_t i = 0; i < g->nos; i++) {
            size_t l = strlen(b);
            const char *sub = g->os[i]->subtype ? g->os[i]->subtype : g->os_name[i];
            snprintf(b + l, sizeof(b) - l, "%s%s", i ? "," : " ", sub);
        }
        pb_str(ctx, &src, "os_devices", b);
    }
    for (size_t i = 0; i < keys->n; i++)
        pb_add(ctx, &src, dlti_key_str(keys->e[i].key, NULL), keys->e[i].value);
    pb_free(keys);
    pb_add(ctx, m, "source", pb_finish(ctx, &src, DLTI_ATTR_MAP, err));
}

/* Appends a record of device `id` to a list (pci may be NULL). */
static pb_gpu *record_add(pb_gpu **list, size_t *n, size_t *cap, const char *id,
                          const sysdesc_pci_info *pci)
{
    if (bs_grow((void **)list, cap, *n + 1, sizeof(**list)) != 0)
        return NULL;
    pb_gpu *g = &(*list)[(*n)++];
    memset(g, 0, sizeof(*g));
    snprintf(g->id, sizeof(g->id), "%s", id);
    if (pci) {
        g->has_pci = true;
        g->pci = *pci;
    }
    return g;
}

/* An accelerator (kind PCI_ACCEL) is a device of type ACCEL: its PCI keys
 * only, as it has no runtime's OS device, and the OS devices' keys
 * (os_devices, hwloc_info) are no ACCEL's.  The catalog hook fills it
 * (pb_fill_gpus), but it is recorded in run->accels, none of run->gpus: no
 * visibility variable applies to it and a runtime's new GPU is numbered
 * after the GPUs only. */
static int add_gpu(pb_run *run, int index, hwloc_obj_t pci, hwloc_obj_t lone_os, pci_kind kind,
                   dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    bool accel = kind == PCI_ACCEL;
    gpu g = {.pci = pci};
    if (!accel)
        find_os_devices(&g, lone_os);
    snprintf(g.id, sizeof(g.id), "%s%s%d", run->prefix, accel ? "ACCEL" : "GPU", index);
    pb_map m, keysrc;
    pb_init(&m);
    pb_init(&keysrc);
    /* first, as on the CPU and in the catalog */
    pb_device_head(ctx, &m, accel ? "ACCEL" : "GPU");
    /* Backwards, so that the first OS device's value of a key wins: pb_add
     * replaces. */
    for (size_t i = g.nos; i-- > 0;)
        add_osdev_keys(ctx, &m, &keysrc, g.os[i]);
    sysdesc_pci_info pi;
    memset(&pi, 0, sizeof(pi));
    if (pci)
        add_pci_keys(ctx, &m, &g, &pi);
    add_os_device_keys(ctx, &m, &g, err);
    add_provenance(ctx, &m, &g, &keysrc, err);
    const dlti_attr *spec = pb_finish(ctx, &m, DLTI_ATTR_DEVICE_SPEC, err);
    if (!spec || !(accel ? record_add(&run->accels, &run->naccels, &run->capaccels, g.id, &pi)
                         : pb_gpu_add(run, g.id, pci ? &pi : NULL))) {
        if (spec)
            bs_nomem(err);
        return -1;
    }
    pb_add(ctx, &run->devices, g.id, spec);
    return 0;
}

pb_gpu *pb_gpu_add(pb_run *run, const char *id, const sysdesc_pci_info *pci)
{
    return record_add(&run->gpus, &run->ngpus, &run->capgpus, id, pci);
}

/* The hook over device `at` of run->devices, whose PCI identity is `pci`. */
static int fill_device(pb_run *run, size_t at, sysdesc_pci_info *pci, dlti_error_t *err)
{
    const char *id = dlti_key_str(run->devices.e[at].key, NULL);
    const dlti_attr *spec = run->devices.e[at].value;
    pci->device_id_str = id;
    if (run->opts->pci_match(run->opts->pci_match_user, run->ctx, pci, &spec, err) != 0)
        return -1;
    if (!spec || dlti_attr_get_kind(spec) != DLTI_ATTR_DEVICE_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "the PCI match hook returned no target_device_spec for %s", id);
        return -1;
    }
    run->devices.e[at].value = spec;
    return 0;
}

/* The caller's hook (the catalog, for the CLI) may fill or replace each
 * GPU's and each accelerator's spec, live values already in place; it must
 * leave a device spec.  (The catalog fills a device from entries of its own
 * device_type only.) */
int pb_fill_gpus(pb_run *run, dlti_error_t *err)
{
    if (!run->opts->pci_match)
        return 0;
    const struct {
        pb_gpu *list;
        size_t n;
    } lists[] = {{run->gpus, run->ngpus}, {run->accels, run->naccels}};
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l].n; i++) {
            pb_gpu *g = &lists[l].list[i];
            if (!g->has_pci)
                continue;
            dlti_key k = dlti_key_find(run->ctx, g->id, strlen(g->id)); /* NULL: none */
            size_t at = 0;
            while (at < run->devices.n && run->devices.e[at].key != k)
                at++;
            if (at < run->devices.n && fill_device(run, at, &g->pci, err) != 0)
                return -1;
        }
    return 0;
}

/* PCI bus id order: domain, bus, device, function; hwloc's order last. */
static int by_bus_id(const void *pa, const void *pb)
{
    hwloc_obj_t oa = *(const hwloc_obj_t *)pa, ob = *(const hwloc_obj_t *)pb;
    const struct hwloc_pcidev_attr_s *a = &oa->attr->pcidev, *b = &ob->attr->pcidev;
    const unsigned ka[5] = {a->domain, a->bus, a->dev, a->func, oa->logical_index};
    const unsigned kb[5] = {b->domain, b->bus, b->dev, b->func, ob->logical_index};
    for (int i = 0; i < 5; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

/* The PCI devices of `kind`, in PCI bus id order, as devices numbered from 0. */
static int add_pci_devices(pb_run *run, pci_kind kind, int *count, dlti_error_t *err)
{
    size_t n = 0;
    for (hwloc_obj_t o = hwloc_get_next_pcidev(run->topo, NULL); o;
         o = hwloc_get_next_pcidev(run->topo, o))
        n += kind_of(o) == kind;
    *count = 0;
    if (!n)
        return 0;
    hwloc_obj_t *pci = malloc(n * sizeof(*pci));
    if (!pci) {
        bs_nomem(err);
        return -1;
    }
    n = 0;
    for (hwloc_obj_t o = hwloc_get_next_pcidev(run->topo, NULL); o;
         o = hwloc_get_next_pcidev(run->topo, o))
        if (kind_of(o) == kind)
            pci[n++] = o;
    qsort(pci, n, sizeof(*pci), by_bus_id);
    for (size_t i = 0; i < n; i++)
        if (add_gpu(run, (*count)++, pci[i], NULL, kind, err) != 0) {
            free(pci);
            return -1;
        }
    free(pci);
    return 0;
}

/* GPU0, GPU1, ... follow the PCI bus ids, as CUDA_DEVICE_ORDER=PCI_BUS_ID
 * and ROCm number devices, whatever hwloc's order (the XML file's, or the
 * host bridges' by NUMA node); then the runtime OS devices without a PCI
 * parent, in hwloc's order; then ACCEL0, ACCEL1, ... in PCI bus id order,
 * counted apart from the GPUs (as Linux's /dev/accel/accelN are). */
int pb_probe_pci(pb_run *run, dlti_error_t *err)
{
    if (!run->io)
        return 0;
    int index;
    if (add_pci_devices(run, PCI_GPU, &index, err) != 0)
        return -1;
    /* Runtime OS devices without a PCI parent (some XML files, platform
     * devices); a DRM node alone is a platform display (simpledrm, an SoC's
     * display controller), not a GPU. */
    for (hwloc_obj_t o = hwloc_get_next_osdev(run->topo, NULL); o;
         o = hwloc_get_next_osdev(run->topo, o)) {
        if (!osdev_is_runtime(o) || (o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE))
            continue;
        if (add_gpu(run, index++, NULL, o, PCI_GPU, err) != 0)
            return -1;
    }
    int accels;
    return add_pci_devices(run, PCI_ACCEL, &accels, err);
}
