/* One physical device, one device spec (docs/runtimes.md, "Merging"):
 * the runtimes' devices into the system spec.
 *
 * - A runtime device that is the host CPU (pocl, lavapipe) gives the CPU
 *   its view, CPU.runtimes.<runtime>; its unified keys are not used (the
 *   CPU's keys are hwloc's).
 * - Every other runtime device is matched to a GPU by PCI bus id, else by
 *   UUID (any runtime's); one that matches no GPU starts a new one, numbered
 *   after the PCI source's GPUs in PCI bus id order, its PCI identity read
 *   from sysfs.
 * - Runtimes are applied by priority (each source's row) then ordinal:
 *   the first to give a top-level key sets it and is its source; a later
 *   different value goes under "disagreements".<key>.<runtime>.  Each
 *   runtime's whole view goes under "runtimes".<runtime>.
 * - Every device of the host gets a source line per runtime skipped, and
 *   one per runtime whose devices were not all read ("runtimes.<rt>.cut"). */
#define _GNU_SOURCE
#include "probe_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A PCI bus id as "dddd:bb:dd.f" (lower case, 4-digit domain); "" when it
 * is not one.  CUDA and NVML write "00000000:01:00.0". */
void pb_rt_norm_bus_id(const char *in, char out[16])
{
    unsigned dom, bus, dev, fn;
    char extra;
    out[0] = '\0';
    if (in && sscanf(in, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &extra) == 4 && dom <= 0xffff &&
        bus <= 0xff && dev <= 0x1f && fn <= 7)
        snprintf(out, 16, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
}

/* A UUID's 32 hex digits, lower case, without prefix ("GPU-") or dashes;
 * "" when it has not 32. */
void pb_rt_norm_uuid(const char *in, char out[33])
{
    size_t n = 0;
    out[0] = '\0';
    if (!in)
        return;
    const char *p = strncmp(in, "GPU-", 4) == 0 ? in + 4 : in;
    for (; *p && n < 33; p++) {
        if (*p == '-')
            continue;
        char c = *p >= 'A' && *p <= 'F' ? (char)(*p - 'A' + 'a') : *p;
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return;
        out[n++] = c;
    }
    if (n != 32 || *p) {
        out[0] = '\0';
        return;
    }
    out[32] = '\0';
}

static dlti_key skey(dlti_context *ctx, const char *s)
{
    return dlti_key_string(ctx, s, strlen(s));
}

/* ---- one device being merged ---- */

/* The device's keys as a list, its bookkeeping apart so that it stays last. */
typedef struct merged {
    pb_map keys;     /* the device's other keys, in their order */
    pb_map runtimes; /* runtime -> view */
    pb_map disagree; /* key -> #dlti.map<runtime = value> (built at the end) */
    pb_map source;   /* dotted path -> where from */
    const dlti_attr *suspect;
    dlti_key set[256]; /* top-level keys a runtime set here */
    size_t nset;
} merged;

/* Copies a map attribute's entries into `m`. */
static void map_entries(dlti_context *ctx, pb_map *m, const dlti_attr *a)
{
    for (size_t i = 0; a && i < dlti_attr_size(a); i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(a, i), NULL);
        if (k)
            pb_add(ctx, m, k, dlti_attr_entry_value(a, i));
    }
}

static void merged_init(dlti_context *ctx, merged *g, const dlti_attr *spec)
{
    memset(g, 0, sizeof(*g));
    pb_init(&g->keys);
    pb_init(&g->runtimes);
    pb_init(&g->disagree);
    pb_init(&g->source);
    for (size_t i = 0; spec && i < dlti_attr_size(spec); i++) {
        dlti_key k = dlti_attr_entry_key(spec, i);
        const char *name = dlti_key_str(k, NULL);
        const dlti_attr *v = dlti_attr_entry_value(spec, i);
        if (!name)
            continue;
        if (strcmp(name, "source") == 0)
            map_entries(ctx, &g->source, v);
        else if (strcmp(name, "runtimes") == 0)
            map_entries(ctx, &g->runtimes, v);
        else if (strcmp(name, "disagreements") == 0)
            map_entries(ctx, &g->disagree, v);
        else if (strcmp(name, "suspect") == 0)
            g->suspect = v;
        else
            pb_add(ctx, &g->keys, name, v);
    }
}

static void merged_free(merged *g)
{
    pb_free(&g->keys);
    pb_free(&g->runtimes);
    pb_free(&g->disagree);
    pb_free(&g->source);
}

static bool has_key(dlti_context *ctx, const pb_map *m, const char *k)
{
    dlti_key key = skey(ctx, k);
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].key == key)
            return true;
    return false;
}

static const dlti_attr *map_value(dlti_context *ctx, const pb_map *m, const char *k)
{
    dlti_key key = skey(ctx, k);
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].key == key)
            return m->e[i].value;
    return NULL;
}

/* "disagreements".<k>.<runtime> = v */
static void disagree(dlti_context *ctx, merged *g, const char *k, const char *runtime,
                     const dlti_attr *v, dlti_error_t *err)
{
    pb_map d;
    pb_init(&d);
    map_entries(ctx, &d, map_value(ctx, &g->disagree, k));
    if (!has_key(ctx, &d, runtime))
        pb_add(ctx, &d, runtime, v);
    pb_add(ctx, &g->disagree, k, pb_finish(ctx, &d, DLTI_ATTR_MAP, err));
}

/* The runtime's provenance line: "opencl: Portable Computing Language, driver 3.1". */
static void provenance(const dlti_attr *d, char *out, size_t size)
{
    const char *driver = pb_rt_text(d, "driver");
    snprintf(out, size, "%s: %s", pb_rt_text(d, "runtime"), driver[0] ? driver : "driver unknown");
}

/* A runtime's view under "runtimes", with its partitions; a second device of
 * the same runtime on one physical device is only named in the source. */
static void add_view(dlti_context *ctx, merged *g, const dlti_attr *d, dlti_error_t *err)
{
    char path[64], prov[512];
    const char *runtime = pb_rt_text(d, "runtime");
    snprintf(path, sizeof(path), "runtimes.%s", runtime);
    provenance(d, prov, sizeof(prov));
    if (has_key(ctx, &g->runtimes, runtime)) {
        const dlti_attr *was = map_value(ctx, &g->source, path);
        const char *s = NULL;
        if (was)
            dlti_attr_get_string(was, &s, NULL, NULL);
        char line[1024];
        snprintf(line, sizeof(line), "%s; also its device %d (%s), not shown", s ? s : prov,
                 pb_rt_ordinal(d), pb_rt_text(d, "name"));
        pb_str(ctx, &g->source, path, line);
        return;
    }
    pb_map view;
    pb_init(&view);
    map_entries(ctx, &view, pb_rt_get(d, "view"));
    const dlti_attr *parts = pb_rt_get(d, "partitions");
    if (parts && dlti_attr_size(parts))
        pb_add(ctx, &view, "partitions", parts);
    if (view.n)
        pb_add(ctx, &g->runtimes, runtime, pb_finish(ctx, &view, DLTI_ATTR_MAP, err));
    else
        pb_free(&view);
    char line[1024];
    snprintf(line, sizeof(line), "%s (its device %d: %s)", prov, pb_rt_ordinal(d),
             pb_rt_text(d, "name"));
    pb_str(ctx, &g->source, path, line);
}

/* The runtime's top-level keys: the first runtime to give a key sets it. */
static void add_unified(dlti_context *ctx, merged *g, const dlti_attr *d, dlti_error_t *err)
{
    char prov[512];
    provenance(d, prov, sizeof(prov));
    const dlti_attr *unified = pb_rt_get(d, "unified");
    for (size_t i = 0; unified && i < dlti_attr_size(unified); i++) {
        dlti_key k = dlti_attr_entry_key(unified, i);
        const dlti_attr *v = dlti_attr_entry_value(unified, i);
        const char *name = dlti_key_str(k, NULL);
        size_t j = 0;
        while (j < g->nset && g->set[j] != k)
            j++;
        if (j < g->nset) {
            const dlti_attr *was = map_value(ctx, &g->keys, name);
            if (was && !dlti_attr_equal(was, v))
                disagree(ctx, g, name, pb_rt_text(d, "runtime"), v, err);
            continue;
        }
        if (g->nset < sizeof(g->set) / sizeof(g->set[0]))
            g->set[g->nset++] = k;
        pb_add(ctx, &g->keys, name, v);
        pb_str(ctx, &g->source, name, prov);
    }
}

/* The device again: its keys, then runtimes, disagreements, source, suspect. */
static const dlti_attr *merged_finish(dlti_context *ctx, merged *g, dlti_error_t *err)
{
    pb_map *m = &g->keys;
    if (g->runtimes.failed || g->disagree.failed || g->source.failed)
        m->failed = true; /* pb_finish reports it */
    if (g->runtimes.n)
        pb_add(ctx, m, "runtimes", dlti_container_new(ctx, DLTI_ATTR_MAP, g->runtimes.e,
                                                      g->runtimes.n, err));
    if (g->disagree.n)
        pb_add(ctx, m, "disagreements", dlti_container_new(ctx, DLTI_ATTR_MAP, g->disagree.e,
                                                           g->disagree.n, err));
    if (g->source.n)
        pb_add(ctx, m, "source",
               dlti_container_new(ctx, DLTI_ATTR_MAP, g->source.e, g->source.n, err));
    if (g->suspect)
        pb_add(ctx, m, "suspect", g->suspect);
    const dlti_attr *spec = pb_finish(ctx, m, DLTI_ATTR_DEVICE_SPEC, err);
    pb_init(&g->keys);
    return spec;
}

/* Every runtime skipped, in every device's source (a real line first). */
static void add_skipped(dlti_context *ctx, merged *g, const pb_map *skipped)
{
    for (size_t i = 0; i < skipped->n; i++) {
        char path[64];
        snprintf(path, sizeof(path), "runtimes.%s", dlti_key_str(skipped->e[i].key, NULL));
        if (!has_key(ctx, &g->source, path))
            pb_add(ctx, &g->source, path, skipped->e[i].value);
    }
}

/* What a runtime did not read of its devices (pb_rt_cap), in every
 * device's source: no device of the host may seem the whole when it is not. */
static void add_cuts(dlti_context *ctx, merged *g, const pb_map *cut)
{
    for (size_t i = 0; i < cut->n; i++) {
        char path[64];
        snprintf(path, sizeof(path), "runtimes.%s.cut", dlti_key_str(cut->e[i].key, NULL));
        if (!has_key(ctx, &g->source, path))
            pb_add(ctx, &g->source, path, cut->e[i].value);
    }
}

/* ---- physical devices ---- */

/* A runtime device's place in the merge: by priority (its runtime's rank,
 * then its ordinal, then the order the sources added it). */
typedef struct ranked {
    int rank, ordinal;
    size_t index;
} ranked;

static int by_priority(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->ordinal != b->ordinal)
        return a->ordinal < b->ordinal ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

typedef struct group {
    int gpu;            /* index in run->gpus; -1 for a new GPU */
    char bus_id[16];    /* "" when no member says */
    size_t *members;    /* indices in run->rt, by priority */
    size_t nmembers;
} group;

/* The group of runtime device d (the ranked[] entry `at`): by bus id, else
 * by the UUID of a device grouped before it, else a new one (or the PCI
 * source's GPU of that bus id).  gof[] holds the groups of the devices
 * before `at`. */
static group *find_group(pb_run *run, group *groups, size_t *ngroups, const ranked *order,
                         group **gof, size_t at)
{
    const dlti_attr *d = run->rt[order[at].index];
    char bus[16], uuid[33], other[33];
    pb_rt_norm_bus_id(pb_rt_text(d, "bus_id"), bus);
    pb_rt_norm_uuid(pb_rt_text(d, "uuid"), uuid);
    for (size_t i = 0; bus[0] && i < *ngroups; i++)
        if (strcmp(groups[i].bus_id, bus) == 0)
            return &groups[i];
    for (size_t j = 0; uuid[0] && j < at; j++) {
        pb_rt_norm_uuid(pb_rt_text(run->rt[order[j].index], "uuid"), other);
        if (gof[j] && strcmp(other, uuid) == 0) {
            if (!gof[j]->bus_id[0]) /* a bus id known now is the group's */
                snprintf(gof[j]->bus_id, sizeof(gof[j]->bus_id), "%s", bus);
            return gof[j];
        }
    }
    group *g = &groups[(*ngroups)++];
    memset(g, 0, sizeof(*g));
    g->gpu = -1;
    snprintf(g->bus_id, sizeof(g->bus_id), "%s", bus);
    for (size_t i = 0; bus[0] && i < run->ngpus; i++)
        if (run->gpus[i].has_pci && strcmp(run->gpus[i].pci.bus_id, bus) == 0)
            g->gpu = (int)i;
    return g;
}

/* New GPUs in PCI bus id order, those without one last. */
static int by_bus_id(const void *pa, const void *pb)
{
    const group *a = pa, *b = pb;
    if (!a->bus_id[0] || !b->bus_id[0])
        return (a->bus_id[0] ? 0 : 1) - (b->bus_id[0] ? 0 : 1);
    return strcmp(a->bus_id, b->bus_id);
}

/* A sysfs PCI attribute as a number; -1 when absent. */
static long sysfs_num(const char *bus_id, const char *attr)
{
    char path[128], buf[32];
    snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", bus_id, attr);
    if (pb_read_file(path, buf, sizeof(buf)) != 0 || !buf[0])
        return -1;
    char *end;
    long v = strtol(buf, &end, 0);
    return end == buf ? -1 : v;
}

/* The start of a GPU no hwloc PCI device stands for (I/O discovery off):
 * its PCI identity from sysfs, as pci.c writes it, else from the runtimes. */
static const dlti_attr *new_gpu(pb_run *run, const group *g, sysdesc_pci_info *pi, bool *has_pci,
                                dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    const dlti_attr *first = run->rt[g->members[0]];
    pb_map m, src;
    pb_init(&m);
    pb_init(&src);
    pb_device_head(ctx, &m, "GPU");
    long vendor = g->bus_id[0] ? sysfs_num(g->bus_id, "vendor") : -1;
    long device = g->bus_id[0] ? sysfs_num(g->bus_id, "device") : -1;
    *has_pci = vendor >= 0 && device >= 0;
    for (size_t i = 0; vendor < 0 && i < g->nmembers; i++) {
        int64_t v;
        const dlti_attr *view = pb_rt_get(run->rt[g->members[i]], "view");
        const dlti_attr *a = view ? pb_rt_get(view, "vendor_id") : NULL;
        if (a && dlti_attr_get_int64(a, &v, NULL) == 0 && v > 0 && v <= 0xffff)
            vendor = (long)v;
    }
    pb_str(ctx, &m, "vendor", vendor >= 0 ? pb_known_vendor((unsigned)vendor) : NULL);
    pb_str(ctx, &m, "model", pb_rt_text(first, "name"));
    if (*has_pci) {
        long sv = sysfs_num(g->bus_id, "subsystem_vendor");
        long sd = sysfs_num(g->bus_id, "subsystem_device");
        long cls = sysfs_num(g->bus_id, "class");
        memset(pi, 0, sizeof(*pi));
        sscanf(g->bus_id, "%x:%x:%x.%x", &pi->domain, &pi->bus, &pi->dev, &pi->func);
        pi->vendor_id = (unsigned)vendor;
        pi->device_id = (unsigned)device;
        pi->subvendor_id = sv >= 0 ? (unsigned)sv : 0;
        pi->subdevice_id = sd >= 0 ? (unsigned)sd : 0;
        pi->class_id = cls >= 0 ? (unsigned)cls >> 8 : 0;
        snprintf(pi->bus_id, sizeof(pi->bus_id), "%s", g->bus_id);
        pb_i64(ctx, &m, "pci_vendor_id", pi->vendor_id);
        pb_i64(ctx, &m, "pci_device_id", pi->device_id);
        if (sv >= 0)
            pb_i64(ctx, &m, "pci_subvendor_id", sv);
        if (sd >= 0)
            pb_i64(ctx, &m, "pci_subdevice_id", sd);
        if (cls >= 0)
            pb_i64(ctx, &m, "pci_class_id", cls >> 8);
        char b[160];
        snprintf(b, sizeof(b), "sysfs /sys/bus/pci/devices/%s", g->bus_id);
        pb_str(ctx, &src, "pci", b);
    } else if (vendor >= 0) {
        pb_i64(ctx, &m, "pci_vendor_id", vendor);
    }
    pb_str(ctx, &m, "pci_bus_id", g->bus_id);
    pb_add_map(ctx, &m, "source", &src, err);
    return pb_finish(ctx, &m, DLTI_ATTR_DEVICE_SPEC, err);
}

static const dlti_attr *device_of(pb_run *run, const char *id)
{
    dlti_key k = skey(run->ctx, id);
    for (size_t i = 0; i < run->devices.n; i++)
        if (run->devices.e[i].key == k)
            return run->devices.e[i].value;
    return NULL;
}

/* Merges one device: the runtimes' devices `members` (by priority) into
 * the spec of device `id` (NULL: new). */
static int merge_device(pb_run *run, const char *id, const dlti_attr *spec, const size_t *members,
                        size_t nmembers, bool cpu, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    merged g;
    merged_init(ctx, &g, spec);
    for (size_t i = 0; i < nmembers; i++) {
        const dlti_attr *d = run->rt[members[i]];
        if (!cpu)
            add_unified(ctx, &g, d, err);
        add_view(ctx, &g, d, err);
    }
    if (cpu && run->rt_origin)
        pb_str(ctx, &g.source, "runtimes", run->rt_origin);
    add_skipped(ctx, &g, &run->rt_skipped);
    add_cuts(ctx, &g, &run->rt_cut);
    const dlti_attr *out = merged_finish(ctx, &g, err);
    merged_free(&g);
    if (!out)
        return -1;
    pb_add(ctx, &run->devices, id, out);
    return run->devices.failed ? -1 : 0;
}

int pb_rt_merge(pb_run *run, dlti_error_t *err)
{
    size_t n = run->nrt;
    ranked *order = calloc(n ? n : 1, sizeof(*order));
    size_t *cpu = calloc(n ? n : 1, sizeof(*cpu));
    size_t *pool = calloc(n ? n : 1, sizeof(*pool));
    group **gof = calloc(n ? n : 1, sizeof(*gof));
    group *groups = calloc(n ? n : 1, sizeof(*groups));
    int rc = -1;
    if (!order || !cpu || !pool || !gof || !groups)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const char *runtime = pb_rt_text(run->rt[i], "runtime");
        const pb_rt_source *src = pb_rt_find(runtime, strlen(runtime));
        order[i] = (ranked){src ? src->priority : -1, pb_rt_ordinal(run->rt[i]), i};
    }
    qsort(order, n, sizeof(*order), by_priority);

    /* Group the devices: the CPU's, and one group per physical GPU whose
     * members (their slice of `pool`) keep the priority order. */
    size_t ncpu = 0, ngroups = 0;
    for (size_t i = 0; i < n; i++) {
        if (pb_rt_is_cpu(run->rt[order[i].index]))
            cpu[ncpu++] = order[i].index;
        else
            gof[i] = find_group(run, groups, &ngroups, order, gof, i);
    }
    size_t used = 0;
    for (size_t k = 0; k < ngroups; k++) {
        groups[k].members = pool + used;
        for (size_t i = 0; i < n; i++)
            if (gof[i] == &groups[k])
                groups[k].members[groups[k].nmembers++] = order[i].index;
        used += groups[k].nmembers;
    }

    /* The host CPU. */
    char id[300];
    snprintf(id, sizeof(id), "%sCPU", run->prefix);
    const dlti_attr *spec = device_of(run, id);
    if (spec && merge_device(run, id, spec, cpu, ncpu, true, err) != 0)
        goto out;

    /* The PCI source's GPUs, seen by a runtime or not (each gets the
     * skipped lines too), then the new ones in PCI bus id order. */
    size_t nold = run->ngpus;
    for (size_t i = 0; i < nold; i++) {
        const group *g = NULL;
        for (size_t k = 0; k < ngroups && !g; k++)
            if (groups[k].gpu == (int)i)
                g = &groups[k];
        const char *gid = run->gpus[i].id;
        if (merge_device(run, gid, device_of(run, gid), g ? g->members : NULL,
                         g ? g->nmembers : 0, false, err) != 0)
            goto out;
    }
    size_t nnew = 0;
    for (size_t k = 0; k < ngroups; k++)
        if (groups[k].gpu < 0)
            groups[nnew++] = groups[k];
    qsort(groups, nnew, sizeof(*groups), by_bus_id);
    for (size_t k = 0; k < nnew; k++) {
        sysdesc_pci_info pi;
        bool has_pci;
        char gid[300];
        snprintf(gid, sizeof(gid), "%sGPU%zu", run->prefix, run->ngpus);
        const dlti_attr *base = new_gpu(run, &groups[k], &pi, &has_pci, err);
        if (!base || !pb_gpu_add(run, gid, has_pci ? &pi : NULL) ||
            merge_device(run, gid, base, groups[k].members, groups[k].nmembers, false, err) != 0)
            goto out;
    }
    rc = 0;
out:
    if (rc != 0 && err && err->code == DLTI_OK)
        bs_nomem(err);
    free(order);
    free(cpu);
    free(pool);
    free(gof);
    free(groups);
    return rc;
}
