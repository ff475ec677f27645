/* The GPUs this process may use (docs/allocation.md): a source that runs
 * after the PCI devices and the runtimes have made the GPUs.
 *
 * The vendors' visibility variables choose the GPUs a process sees and the
 * order its runtime numbers them: CUDA_VISIBLE_DEVICES (NVIDIA),
 * ROCR_VISIBLE_DEVICES then HIP_VISIBLE_DEVICES (or CUDA_VISIBLE_DEVICES,
 * or GPU_DEVICE_ORDINAL: HIP reads the first one set) over what ROCr leaves
 * (AMD), ZE_AFFINITY_MASK (Intel).  A runtime that reads its variable
 * (the CUDA driver, ROCr's HSA, the Level Zero loader) has applied it to
 * what it answered: its devices are the visible ones, in its order.  For a
 * family whose runtime did not answer, the probe applies the variable
 * itself (visible_devices.c) to the GPUs hwloc, NVML, AMD SMI or Vulkan
 * reported (none of which read it), indices taken in PCI bus id order.
 *
 * A GPU a variable hides leaves the spec; the others are numbered GPU0,
 * GPU1, ... in their runtime's order (a family keeps the place of its
 * first GPU among the others) and get an "allocation" map: the variables
 * that applied, their runtime's index of the device, the partitions (MIG
 * instances, Level Zero sub-devices) the variable leaves.  Nothing changes
 * when no variable is set, for the whole node's view, or for another
 * machine's topology: the variables are this process's environment.
 *
 * Only run->gpus are GPUs here.  The accelerators that are no GPU (ACCEL0,
 * ... pci.c) are none of them: no vendor's variable names them (a Gaudi's
 * is HABANA_VISIBLE_MODULES, read by its own runtime), so they stay, under
 * their ids, where they were, with every other device (renumber). */
#define _GNU_SOURCE
#include "probe_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAM_OTHER, FAM_NVIDIA, FAM_AMD, FAM_INTEL, NFAM };
/* The runtime that applies each family's variables itself. */
static const char *const family_runtime[NFAM] = {NULL, "cuda", "rocm", "level_zero"};

#define MAX_PARTS 16

/* A GPU of the spec and what the variables make of it. */
typedef struct vgpu {
    size_t at;      /* its entry in run->devices */
    size_t g;       /* its record in run->gpus */
    int family;
    char bus[16];   /* normalised PCI bus id; "" unknown */
    char uuid[64];  /* the UUID a list may name ("GPU-..."); "" unknown */
    const char *mig[MAX_PARTS]; /* NVML's MIG instances' UUIDs */
    size_t nmig;
    int ordinal;    /* the lowest ordinal its family's runtime gave it; -1 none */
    const char *rt_parts[MAX_PARTS]; /* the partitions that runtime answered with (MIG-...) */
    size_t nrt_parts;
    /* the outcome */
    bool governed;  /* a variable applies to it */
    bool visible;
    long rank;      /* its place in its runtime's numbering */
    char parts[MAX_PARTS][64];
    size_t nparts;
    long order;     /* where it goes among the GPUs */
} vgpu;

typedef struct family_state {
    bool answered;     /* its runtime answered with devices: it applied the variable */
    char by[768];      /* "NAME=VALUE" of the variables that applied */
    char how[1024];    /* the source line */
} family_state;

/* The key to look `s` up or compare with: found, not interned (a key the
 * context never interned is in none of its attributes), so it cannot fail. */
static dlti_key key(const dlti_context *ctx, const char *s)
{
    return dlti_key_find(ctx, s, strlen(s));
}

/* a's value at the path of keys k[0..n-1] (NULL: absent) */
static const dlti_attr *at(dlti_context *ctx, const dlti_attr *a, const char *const *k, size_t n)
{
    for (size_t i = 0; a && i < n; i++) {
        dlti_attr_kind kind = dlti_attr_get_kind(a);
        if (kind != DLTI_ATTR_MAP && kind != DLTI_ATTR_DEVICE_SPEC)
            return NULL;
        a = dlti_attr_lookup(a, key(ctx, k[i]));
    }
    return a;
}

static const char *str_at(dlti_context *ctx, const dlti_attr *a, const char *k1, const char *k2,
                          const char *k3)
{
    const char *const k[3] = {k1, k2, k3};
    const char *s = NULL;
    const dlti_attr *v = at(ctx, a, k, k3 ? 3 : k2 ? 2 : 1);
    if (v && dlti_attr_get_string(v, &s, NULL, NULL) != 0)
        s = NULL;
    return s;
}

static int family_of(dlti_context *ctx, const dlti_attr *spec)
{
    int64_t id = -1;
    const dlti_attr *v = dlti_attr_lookup(spec, key(ctx, "pci_vendor_id"));
    if (v)
        dlti_attr_get_int64(v, &id, NULL);
    const char *vendor = str_at(ctx, spec, "vendor", NULL, NULL);
    if (id == 0x10de || (id < 0 && vendor && strcmp(vendor, "NVIDIA") == 0))
        return FAM_NVIDIA;
    if (id == 0x1002 || (id < 0 && vendor && strcmp(vendor, "AMD") == 0))
        return FAM_AMD;
    if (id == 0x8086 || (id < 0 && vendor && strcmp(vendor, "Intel") == 0))
        return FAM_INTEL;
    /* neither says: the vendor's runtimes that saw it (AMD SMI gives no vendor) */
    static const struct { const char *runtime; int family; } seen[] = {
        {"cuda", FAM_NVIDIA}, {"nvml", FAM_NVIDIA}, {"rocm", FAM_AMD},
        {"amd_smi", FAM_AMD}, {"level_zero", FAM_INTEL}};
    const dlti_attr *views = dlti_attr_lookup(spec, key(ctx, "runtimes"));
    for (size_t i = 0; id < 0 && !vendor && views && i < sizeof(seen) / sizeof(seen[0]); i++)
        if (dlti_attr_get_kind(views) == DLTI_ATTR_MAP &&
            dlti_attr_lookup(views, key(ctx, seen[i].runtime)))
            return seen[i].family;
    return FAM_OTHER;
}

/* The GPU's identity as the lists name it: its bus id, its GPU UUID (NVML's,
 * else a runtime's "GPU-..."), its MIG instances' UUIDs (NVML's). */
static void identify(dlti_context *ctx, const dlti_attr *spec, vgpu *v)
{
    pb_rt_norm_bus_id(str_at(ctx, spec, "pci_bus_id", NULL, NULL), v->bus);
    static const char *const where[][2] = {
        {"runtimes", "nvml"}, {"runtimes", "cuda"}, {"runtimes", "rocm"}, {NULL, NULL}};
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]) && !v->uuid[0]; i++) {
        const char *u = where[i][0] ? str_at(ctx, spec, where[i][0], where[i][1], "uuid")
                                    : str_at(ctx, spec, "uuid", NULL, NULL);
        if (u && strncmp(u, "GPU-", 4) == 0)
            snprintf(v->uuid, sizeof(v->uuid), "%s", u);
    }
    const char *const k[3] = {"runtimes", "nvml", "partitions"};
    const dlti_attr *parts = at(ctx, spec, k, 3);
    for (size_t i = 0; parts && dlti_attr_get_kind(parts) == DLTI_ATTR_MAP &&
                       i < dlti_attr_size(parts) && v->nmig < MAX_PARTS;
         i++) {
        const char *u = str_at(ctx, dlti_attr_entry_value(parts, i), "uuid", NULL, NULL);
        if (u && strncmp(u, "MIG-", 4) == 0)
            v->mig[v->nmig++] = u;
    }
}

/* The GPU a runtime device is: by PCI bus id, else by UUID. */
static vgpu *gpu_of(vgpu *v, size_t n, const dlti_attr *d)
{
    char bus[16], uuid[33], other[33];
    pb_rt_norm_bus_id(pb_rt_text(d, "bus_id"), bus);
    pb_rt_norm_uuid(pb_rt_text(d, "uuid"), uuid);
    for (size_t i = 0; bus[0] && i < n; i++)
        if (strcmp(v[i].bus, bus) == 0)
            return &v[i];
    for (size_t i = 0; uuid[0] && i < n; i++) {
        pb_rt_norm_uuid(v[i].uuid, other);
        if (strcmp(other, uuid) == 0)
            return &v[i];
    }
    return NULL;
}

/* What each family's runtime answered: the ordinals it gave the GPUs. */
static void runtime_answers(const pb_run *run, vgpu *v, size_t n, family_state *fam)
{
    for (size_t i = 0; i < run->nrt; i++) {
        const dlti_attr *d = run->rt[i];
        int ordinal = pb_rt_ordinal(d);
        const char *uuid = pb_rt_text(d, "uuid");
        for (int f = FAM_NVIDIA; f < NFAM && !pb_rt_is_cpu(d); f++) {
            if (strcmp(pb_rt_text(d, "runtime"), family_runtime[f]) != 0)
                continue;
            fam[f].answered = true;
            vgpu *g = gpu_of(v, n, d);
            if (!g)
                continue;
            if (g->ordinal < 0 || ordinal < g->ordinal)
                g->ordinal = ordinal;
            if (strncmp(uuid, "MIG-", 4) == 0 && g->nrt_parts < MAX_PARTS)
                g->rt_parts[g->nrt_parts++] = uuid;
        }
    }
}

static void append(char *buf, size_t size, const char *sep, const char *name, const char *value)
{
    size_t l = strlen(buf);
    if (l < size)
        snprintf(buf + l, size - l, "%s%s=%s", l ? sep : "", name, value);
}

static void add_part(vgpu *g, const char *part)
{
    for (size_t i = 0; i < g->nparts; i++)
        if (strcmp(g->parts[i], part) == 0)
            return;
    if (g->nparts < MAX_PARTS)
        snprintf(g->parts[g->nparts++], sizeof(g->parts[0]), "%s", part);
}

/* The family's GPUs, ordered by PCI bus id (those without one last, in the
 * spec's order): the enumeration the probe assumes where no runtime
 * answered.  Returns their number. */
static size_t by_bus(vgpu *v, size_t n, int family, vgpu **out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].family == family)
            out[k++] = &v[i];
    for (size_t i = 1; i < k; i++) /* insertion sort: stable, and k is small */
        for (size_t j = i; j > 0; j--) {
            const char *a = out[j - 1]->bus, *b = out[j]->bus;
            if (!(b[0] && (!a[0] || strcmp(a, b) > 0)))
                break;
            vgpu *t = out[j - 1];
            out[j - 1] = out[j];
            out[j] = t;
        }
    return k;
}

/* The list `value` over `list` (n GPUs in the runtime's order): the GPUs it
 * leaves, in its order, into `out`; their number.  `nvidia`: CUDA's list
 * (MIG instances; one kind of entry), else a ROCm list (an index or a UUID
 * each). */
static size_t apply_list(const char *value, vgpu **list, size_t n, vgpu **out, bool nvidia)
{
    pb_vis_device *devs = calloc(n ? n : 1, sizeof(*devs));
    pb_vis_pick *picks = calloc(n * (MAX_PARTS + 1) + 1, sizeof(*picks));
    size_t k = 0;
    if (devs && picks) {
        for (size_t i = 0; i < n; i++)
            devs[i] = (pb_vis_device){list[i]->uuid[0] ? list[i]->uuid : NULL,
                                      nvidia ? list[i]->mig : NULL,
                                      nvidia ? list[i]->nmig : 0};
        size_t np = pb_vis_list(value, devs, n, !nvidia, picks, n * (MAX_PARTS + 1) + 1);
        for (size_t p = 0; p < np; p++) {
            vgpu *g = list[picks[p].device];
            if (picks[p].part >= 0)
                add_part(g, g->mig[picks[p].part]);
            bool seen = false;
            for (size_t j = 0; j < k && !seen; j++)
                seen = out[j] == g;
            if (!seen)
                out[k++] = g;
        }
    }
    free(devs);
    free(picks);
    return k;
}

/* Marks `list` (k GPUs, the runtime's order) visible and every other GPU of
 * the family hidden. */
static void settle(vgpu *v, size_t n, int family, vgpu **list, size_t k)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].family == family)
            v[i].governed = true;
    for (size_t i = 0; i < k; i++) {
        list[i]->visible = true;
        list[i]->rank = (long)i;
    }
}

/* The GPUs of a family its runtime answered with, in its order. */
static size_t answered_list(vgpu *v, size_t n, int family, vgpu **out)
{
    size_t k = 0;
    for (long o = 0; k < n && o < 4096; o++) /* ordinals are small: PB_VENDOR_MAX_DEVICES */
        for (size_t i = 0; i < n; i++)
            if (v[i].family == family && v[i].ordinal == o)
                out[k++] = &v[i];
    return k;
}

static void nvidia(vgpu *v, size_t n, family_state *fam, vgpu **a, vgpu **b)
{
    const char *value = getenv("CUDA_VISIBLE_DEVICES");
    if (!value)
        return;
    family_state *f = &fam[FAM_NVIDIA];
    append(f->by, sizeof(f->by), "; ", "CUDA_VISIBLE_DEVICES", value);
    size_t total = by_bus(v, n, FAM_NVIDIA, a), k;
    if (f->answered) {
        k = answered_list(v, n, FAM_NVIDIA, b);
        for (size_t i = 0; i < k; i++)
            for (size_t p = 0; p < b[i]->nrt_parts; p++)
                add_part(b[i], b[i]->rt_parts[p]);
        snprintf(f->how, sizeof(f->how), "%s: applied by the CUDA driver (the GPUs it "
                 "enumerated, in its order); %zu of the %zu NVIDIA GPUs the probe saw", f->by, k,
                 total);
    } else {
        const char *order = getenv("CUDA_DEVICE_ORDER");
        k = apply_list(value, a, total, b, true);
        snprintf(f->how, sizeof(f->how), "%s: applied by sysdesc (CUDA did not answer), indices "
                 "in PCI bus id order%s; %zu of the %zu NVIDIA GPUs the probe saw", f->by,
                 order && strcmp(order, "PCI_BUS_ID") == 0
                     ? " (CUDA_DEVICE_ORDER=PCI_BUS_ID)"
                     : " (CUDA's default FASTEST_FIRST order taken as the same)",
                 k, total);
    }
    settle(v, n, FAM_NVIDIA, b, k);
}

static void amd(vgpu *v, size_t n, family_state *fam, vgpu **a, vgpu **b)
{
    static const char *const hip_vars[] = {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                                           "GPU_DEVICE_ORDINAL"};
    const char *rocr = getenv("ROCR_VISIBLE_DEVICES"), *hip = NULL, *hip_name = NULL;
    for (size_t i = 0; i < 3 && !hip; i++)
        if ((hip = getenv(hip_vars[i])) != NULL)
            hip_name = hip_vars[i];
    if (!rocr && !hip)
        return;
    family_state *f = &fam[FAM_AMD];
    size_t total = by_bus(v, n, FAM_AMD, a), k;
    const char *base;
    if (rocr)
        append(f->by, sizeof(f->by), "; ", "ROCR_VISIBLE_DEVICES", rocr);
    if (f->answered) { /* HSA applied ROCR_VISIBLE_DEVICES; HIP numbers what it left */
        k = answered_list(v, n, FAM_AMD, b);
        base = rocr ? "ROCR_VISIBLE_DEVICES applied by the ROCm runtime (HSA, its order)"
                    : "the ROCm runtime's GPUs (HSA, its order)";
    } else if (rocr) {
        k = apply_list(rocr, a, total, b, false);
        base = "ROCR_VISIBLE_DEVICES applied by sysdesc (ROCm did not answer), indices in PCI "
               "bus id order";
    } else {
        memcpy(b, a, total * sizeof(*b));
        k = total;
        base = "the GPUs in PCI bus id order (ROCm did not answer)";
    }
    char hip_how[256] = "";
    if (hip) {
        append(f->by, sizeof(f->by), "; ", hip_name, hip);
        memcpy(a, b, k * sizeof(*a));
        k = apply_list(hip, a, k, b, false);
        snprintf(hip_how, sizeof(hip_how), ", then %s applied by sysdesc over them (HIP's "
                 "numbering)", hip_name);
    }
    snprintf(f->how, sizeof(f->how), "%s: %s%s; %zu of the %zu AMD GPUs the probe saw", f->by, base,
             hip_how, k, total);
    settle(v, n, FAM_AMD, b, k);
}

static void intel(vgpu *v, size_t n, family_state *fam, vgpu **a, vgpu **b)
{
    const char *mask = getenv("ZE_AFFINITY_MASK");
    if (!mask || !*mask)
        return; /* not set, or empty: every device (the specification's default) */
    family_state *f = &fam[FAM_INTEL];
    append(f->by, sizeof(f->by), "; ", "ZE_AFFINITY_MASK", mask);
    size_t total = by_bus(v, n, FAM_INTEL, a), k = 0;
    /* The mask's sub-devices per device, in the driver's order: where Level
     * Zero answered, the k-th device it named is its k-th device. */
    size_t max = 4096;
    pb_vis_pick *picks = calloc(max, sizeof(*picks));
    if (!picks)
        return;
    size_t np = pb_vis_ze_mask(mask, f->answered ? max : total, picks, max);
    if (f->answered) {
        k = answered_list(v, n, FAM_INTEL, b);
        snprintf(f->how, sizeof(f->how), "%s: applied by the Level Zero loader (the devices it "
                 "enumerated, in its order); %zu of the %zu Intel GPUs the probe saw", f->by, k,
                 total);
    } else {
        snprintf(f->how, sizeof(f->how), "%s: applied by sysdesc (Level Zero did not answer), "
                 "devices in PCI bus id order (ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE read); ",
                 f->by);
    }
    /* picks come sorted by device: each new device is the next one of the
     * runtime's (answered) or the next visible one of the family */
    size_t rank = 0, devices = 0;
    for (size_t p = 0; p < np; p++) {
        if (p == 0 || picks[p].device != picks[p - 1].device) {
            rank = devices++;
            if (!f->answered)
                b[k++] = a[picks[p].device];
        }
        if (picks[p].part >= 0 && rank < k) {
            char s[32];
            snprintf(s, sizeof(s), "%d", picks[p].part);
            add_part(b[rank], s);
        }
    }
    if (!f->answered) {
        size_t l = strlen(f->how);
        snprintf(f->how + l, sizeof(f->how) - l, "%zu of the %zu Intel GPUs the probe saw", k,
                 total);
    }
    free(picks);
    settle(v, n, FAM_INTEL, b, k);
}

/* The GPU's spec with its "allocation" map (before the bookkeeping keys
 * runtimes, disagreements, source and suspect) and its source line. */
static const dlti_attr *with_allocation(pb_run *run, const dlti_attr *spec, const vgpu *g,
                                        const family_state *f, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    pb_map alloc, m, src;
    pb_init(&alloc);
    pb_init(&m);
    pb_init(&src);
    pb_str(ctx, &alloc, "visible_devices", f->by);
    pb_i64(ctx, &alloc, "runtime_index", g->rank);
    if (g->nparts) {
        const char *p[MAX_PARTS];
        for (size_t i = 0; i < g->nparts; i++)
            p[i] = g->parts[i];
        pb_add(ctx, &alloc, "partitions", pb_str_array(ctx, p, g->nparts));
    }
    static const char *const tail[] = {"runtimes", "disagreements", "source", "suspect"};
    bool placed = false, sourced = false;
    for (size_t i = 0; i < dlti_attr_size(spec); i++) {
        const char *name = dlti_key_str(dlti_attr_entry_key(spec, i), NULL);
        const dlti_attr *value = dlti_attr_entry_value(spec, i);
        if (!name)
            continue;
        bool bookkeeping = false;
        for (size_t t = 0; t < 4; t++)
            bookkeeping = bookkeeping || strcmp(name, tail[t]) == 0;
        if (bookkeeping && !placed) {
            pb_add_map(ctx, &m, "allocation", &alloc, err);
            placed = true;
        }
        if (strcmp(name, "source") == 0) {
            bool map = dlti_attr_get_kind(value) == DLTI_ATTR_MAP;
            for (size_t j = 0; map && j < dlti_attr_size(value); j++)
                pb_add(ctx, &src, dlti_key_str(dlti_attr_entry_key(value, j), NULL),
                       dlti_attr_entry_value(value, j));
            pb_str(ctx, &src, "allocation", f->how);
            pb_add(ctx, &m, "source", pb_finish(ctx, &src, DLTI_ATTR_MAP, err));
            sourced = true;
            continue;
        }
        pb_add(ctx, &m, name, value);
    }
    if (!placed)
        pb_add_map(ctx, &m, "allocation", &alloc, err);
    if (!sourced) { /* no source map met: one with the allocation's line */
        pb_str(ctx, &src, "allocation", f->how);
        pb_add(ctx, &m, "source", pb_finish(ctx, &src, DLTI_ATTR_MAP, err));
    }
    return pb_finish(ctx, &m, DLTI_ATTR_DEVICE_SPEC, err);
}

static int by_order(const void *pa, const void *pb)
{
    const vgpu *a = *(const vgpu *const *)pa, *b = *(const vgpu *const *)pb;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->g < b->g ? -1 : a->g > b->g;
}

/* The devices again: the GPUs in their new order and names, the hidden ones
 * left out, every other device where it was. */
static int renumber(pb_run *run, vgpu *v, size_t n, const family_state *fam, vgpu **list,
                    dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    long first[NFAM];
    for (int f = 0; f < NFAM; f++)
        first[f] = -1;
    for (size_t i = 0; i < n; i++)
        if (v[i].governed && first[v[i].family] < 0)
            first[v[i].family] = (long)i;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].governed && !v[i].visible)
            continue;
        v[i].order = v[i].governed ? first[v[i].family] : (long)i;
        if (!v[i].governed)
            v[i].rank = 0;
        list[k++] = &v[i];
    }
    qsort(list, k, sizeof(*list), by_order);

    pb_gpu *gpus = calloc(k ? k : 1, sizeof(*gpus));
    pb_map devices;
    pb_init(&devices);
    if (!gpus) {
        bs_nomem(err);
        return -1;
    }
    bool emitted = false;
    for (size_t e = 0; e < run->devices.n; e++) {
        bool is_gpu = false;
        for (size_t i = 0; i < n && !is_gpu; i++)
            is_gpu = v[i].at == e;
        if (!is_gpu) {
            pb_add(ctx, &devices, dlti_key_str(run->devices.e[e].key, NULL),
                   run->devices.e[e].value);
            continue;
        }
        for (size_t j = 0; !emitted && j < k; j++) {
            const vgpu *g = list[j];
            const dlti_attr *spec = run->devices.e[g->at].value;
            if (g->governed && !(spec = with_allocation(run, spec, g, &fam[g->family], err)))
                break;
            gpus[j] = run->gpus[g->g];
            snprintf(gpus[j].id, sizeof(gpus[j].id), "%sGPU%zu", run->prefix, j);
            pb_add(ctx, &devices, gpus[j].id, spec);
        }
        emitted = true;
    }
    if (devices.failed || (err && err->code != DLTI_OK)) {
        pb_free(&devices);
        free(gpus);
        if (err && err->code == DLTI_OK)
            dlti_context_nomem(ctx, err); /* the list's key or its room */
        return -1;
    }
    pb_free(&run->devices);
    run->devices = devices;
    free(run->gpus);
    run->gpus = gpus;
    run->ngpus = run->capgpus = k;
    return 0;
}

int pb_probe_gpu_allocation(pb_run *run, dlti_error_t *err)
{
    if (!run->host || pb_whole_node(run) || !run->ngpus)
        return 0;
    dlti_context *ctx = run->ctx;
    size_t n = run->ngpus;
    vgpu *v = calloc(n, sizeof(*v));
    vgpu **a = calloc(n, sizeof(*a)), **b = calloc(n, sizeof(*b));
    family_state *fam = calloc(NFAM, sizeof(*fam));
    int rc = -1;
    if (!v || !a || !b || !fam) {
        bs_nomem(err);
        goto out;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        dlti_key id = key(ctx, run->gpus[i].id);
        for (size_t e = 0; e < run->devices.n; e++)
            if (run->devices.e[e].key == id) {
                vgpu *g = &v[k++];
                g->at = e;
                g->g = i;
                g->ordinal = -1;
                g->family = family_of(ctx, run->devices.e[e].value);
                identify(ctx, run->devices.e[e].value, g);
                break;
            }
    }
    n = k;
    runtime_answers(run, v, n, fam);
    nvidia(v, n, fam, a, b);
    amd(v, n, fam, a, b);
    intel(v, n, fam, a, b);
    bool governed = false;
    for (size_t i = 0; i < n; i++)
        governed = governed || v[i].governed;
    rc = governed ? renumber(run, v, n, fam, a, err) : 0;
out:
    free(v);
    free(a);
    free(b);
    free(fam);
    return rc;
}
