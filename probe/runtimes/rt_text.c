/* The one form of what the runtime sources saw: a #dlti.map, built by the
 * source as it adds each device (pb_rt_add), printed as a child's answer
 * and as the body of a cache entry, and, once parsed and checked, merged
 * as it is (docs/runtimes.md, "Answers"):
 *
 *   #dlti.map<"devices" = [#dlti.map<"runtime" = "opencl", "ordinal" = 0,
 *                "name" = "...", "driver" = "...", "bus_id" = "...",
 *                "uuid" = "...", "is_cpu" = true, "unified" = #dlti.map<...>,
 *                "view" = #dlti.map<...>, "partitions" = #dlti.map<...>>, ...],
 *             "skipped" = #dlti.map<"cuda" = "libcuda.so.1 not loaded: ...">,
 *             "cut" = #dlti.map<"opencl" = "the runtime reports 70 devices; ...">,
 *             "libraries" = #dlti.map<"/usr/lib/.../libOpenCL.so.1" = "ino:size:mtime">>
 *
 * Empty strings and maps are left out.  The check is strict: anything else
 * (an unknown runtime, a top-level key the device schema does not give a
 * runtime, a value of the wrong kind, an identity string too long) makes
 * the whole answer refused, and a cache entry is then ignored. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The entries of a pb_map as a #dlti.map, the pb_map left as it is. */
static void add_copy(dlti_context *ctx, pb_map *m, const char *k, const pb_map *sub)
{
    if (sub->failed)
        m->failed = true;
    else if (sub->n)
        pb_add(ctx, m, k, dlti_container_new(ctx, DLTI_ATTR_MAP, sub->e, sub->n, NULL));
}

/* A device's answer: the builder's fields in the answer's order. */
static const dlti_attr *device_attr(dlti_context *ctx, const pb_rt_device *d, dlti_error_t *err)
{
    pb_map m;
    pb_init(&m);
    pb_str(ctx, &m, "runtime", d->runtime);
    pb_i64(ctx, &m, "ordinal", d->ordinal);
    pb_str(ctx, &m, "name", d->name);
    pb_str(ctx, &m, "driver", d->driver);
    pb_str(ctx, &m, "bus_id", d->bus_id);
    pb_str(ctx, &m, "uuid", d->uuid);
    pb_bool(ctx, &m, "is_cpu", d->is_cpu);
    add_copy(ctx, &m, "unified", &d->unified);
    add_copy(ctx, &m, "view", &d->view);
    add_copy(ctx, &m, "partitions", &d->partitions);
    return pb_finish(ctx, &m, DLTI_ATTR_MAP, err);
}

/* Appends one device's answer to the run. */
static int append(pb_run *run, const dlti_attr *dev, dlti_error_t *err)
{
    if (!dev || bs_grow((void **)&run->rt, &run->caprt, run->nrt + 1, sizeof(*run->rt)) != 0) {
        if (err && err->code == DLTI_OK)
            bs_nomem(err);
        return -1;
    }
    run->rt[run->nrt++] = dev;
    return 0;
}

int pb_rt_add(pb_run *run, pb_rt_device *d, dlti_error_t *err)
{
    if (err)
        err->code = DLTI_OK;
    const dlti_attr *dev = device_attr(run->ctx, d, err);
    pb_rt_free_device(d);
    memset(d, 0, sizeof(*d));
    return append(run, dev, err);
}

char *pb_rt_print(pb_run *run, const dlti_attr *libraries, size_t *len)
{
    dlti_context *ctx = run->ctx;
    pb_map m;
    pb_init(&m);
    if (run->nrt)
        pb_add(ctx, &m, "devices", dlti_array_new(ctx, run->rt, run->nrt));
    add_copy(ctx, &m, "skipped", &run->rt_skipped);
    add_copy(ctx, &m, "cut", &run->rt_cut);
    if (libraries && dlti_attr_size(libraries))
        pb_add(ctx, &m, "libraries", libraries);
    /* An empty answer (no source ran) is an empty map. */
    const dlti_attr *a = pb_finish(ctx, &m, DLTI_ATTR_MAP, NULL);
    return a ? dlti_attr_print(a, len) : NULL;
}

/* ---- a device's fields ---- */

const dlti_attr *pb_rt_get(const dlti_attr *dev, const char *key)
{
    return dlti_attr_lookup_string(dev, key, strlen(key));
}

const char *pb_rt_text(const dlti_attr *dev, const char *key)
{
    const char *s = NULL;
    const dlti_attr *v = pb_rt_get(dev, key);
    if (!v || dlti_attr_get_string(v, &s, NULL, NULL) != 0)
        return "";
    return s;
}

int pb_rt_ordinal(const dlti_attr *dev)
{
    const dlti_attr *a = pb_rt_get(dev, "ordinal");
    int64_t v = 0;
    if (a)
        dlti_attr_get_int64(a, &v, NULL);
    return (int)v;
}

bool pb_rt_is_cpu(const dlti_attr *dev)
{
    const dlti_attr *a = pb_rt_get(dev, "is_cpu");
    bool v = false;
    if (a)
        dlti_attr_get_bool(a, &v, NULL);
    return v;
}

/* ---- the check of an answer ---- */

/* The top-level keys a runtime source may set (its "unified" map) and the
 * kind of each: every one is a device schema key of that type
 * (tests/probe/test_rt_merge.c holds the two together: the schema lives
 * above the probe, in sysdesc/).  An answer, a child's or a cache entry's,
 * that sets another key or another kind is refused whole: an edited cache
 * entry cannot put a key or a value in a device that no runtime source
 * would. */
static const pb_rt_unified_key unified_keys[] = {
    {"L1_cache_size_in_bytes", PB_RT_I64},
    {"L2_cache_size_in_bytes", PB_RT_I64},
    {"arch", PB_RT_STRING},
    {"compute_capability", PB_RT_STRING},
    {"compute_unit_name", PB_RT_STRING},
    {"driver_version", PB_RT_STRING},
    {"ecc_enabled", PB_RT_BOOL},
    {"execution_unit_simd_width", PB_RT_I64},
    {"is_partition", PB_RT_BOOL},
    {"last_level_cache_size_in_bytes", PB_RT_I64},
    {"max_block_dims", PB_RT_I64_ARRAY},
    {"max_blocks_per_compute_unit", PB_RT_I64},
    {"max_clock_in_mhz", PB_RT_I64},
    {"max_grid_dims", PB_RT_I64_ARRAY},
    {"max_persisting_L2_cache_size_in_bytes", PB_RT_I64},
    {"max_shared_memory_per_block_in_bytes", PB_RT_I64},
    {"max_threads_per_block", PB_RT_I64},
    {"max_threads_per_compute_unit", PB_RT_I64},
    {"memory_bus_width_in_bits", PB_RT_I64},
    {"memory_clock_in_mhz", PB_RT_I64},
    {"memory_size_in_bytes", PB_RT_I64},
    {"model", PB_RT_STRING},
    {"num_compute_units", PB_RT_I64},
    {"num_execution_units", PB_RT_I64},
    {"pcie_generation", PB_RT_I64},
    {"pcie_link_width", PB_RT_I64},
    {"power_limit_in_watts", PB_RT_I64},
    {"registers_per_block", PB_RT_I64},
    {"registers_per_compute_unit", PB_RT_I64},
    {"reserved_shared_memory_per_block_in_bytes", PB_RT_I64},
    {"shared_memory_per_block_in_bytes", PB_RT_I64},
    {"shared_memory_per_compute_unit_in_bytes", PB_RT_I64},
    {"subgroup_sizes", PB_RT_I64_ARRAY},
    {"threads_per_execution_unit", PB_RT_I64},
    {"uuid", PB_RT_STRING},
    {"vendor", PB_RT_STRING},
};

size_t pb_rt_unified_count(void)
{
    return sizeof(unified_keys) / sizeof(unified_keys[0]);
}

const pb_rt_unified_key *pb_rt_unified_at(size_t i)
{
    return &unified_keys[i];
}

static bool is_i64(const dlti_attr *v)
{
    const dlti_type *t = dlti_attr_type(v);
    return dlti_attr_get_kind(v) == DLTI_ATTR_INTEGER && t &&
           dlti_type_get_kind(t) == DLTI_TYPE_INTEGER && dlti_type_int_width(t) == 64;
}

static bool has_kind(const dlti_attr *v, pb_rt_kind kind)
{
    switch (kind) {
    case PB_RT_I64:
        return is_i64(v);
    case PB_RT_BOOL:
        return dlti_attr_get_kind(v) == DLTI_ATTR_BOOL;
    case PB_RT_STRING:
        return dlti_attr_get_kind(v) == DLTI_ATTR_STRING;
    case PB_RT_I64_ARRAY: {
        const dlti_type *t = dlti_attr_type(v);
        return dlti_attr_get_kind(v) == DLTI_ATTR_DENSE_ARRAY && t &&
               dlti_type_get_kind(t) == DLTI_TYPE_INTEGER && dlti_type_int_width(t) == 64;
    }
    }
    return false;
}

/* A value of a runtime's view: what the sources write (i64 integers,
 * booleans, strings, arrays of i64 or of strings, maps of those: the OpenCL
 * cache maps, partitions), nothing else. */
static bool view_value(const dlti_attr *v, int depth)
{
    switch (dlti_attr_get_kind(v)) {
    case DLTI_ATTR_INTEGER:
        return is_i64(v);
    case DLTI_ATTR_BOOL:
    case DLTI_ATTR_STRING:
        return true;
    case DLTI_ATTR_DENSE_ARRAY:
        return has_kind(v, PB_RT_I64_ARRAY);
    case DLTI_ATTR_ARRAY:
        for (size_t i = 0; i < dlti_attr_size(v); i++)
            if (dlti_attr_get_kind(dlti_attr_element(v, i)) != DLTI_ATTR_STRING)
                return false;
        return true;
    case DLTI_ATTR_MAP:
        if (depth >= 4)
            return false;
        for (size_t i = 0; i < dlti_attr_size(v); i++)
            if (!dlti_key_str(dlti_attr_entry_key(v, i), NULL) ||
                !view_value(dlti_attr_entry_value(v, i), depth + 1))
                return false;
        return true;
    default:
        return false;
    }
}

/* Whether `name` = `v` may be in a unified map. */
static bool unified_entry(const char *name, const dlti_attr *v)
{
    for (size_t i = 0; i < sizeof(unified_keys) / sizeof(unified_keys[0]); i++)
        if (strcmp(unified_keys[i].name, name) == 0)
            return has_kind(v, unified_keys[i].kind);
    return false;
}

/* The string at `k` of device `m`: absent, or a string of fewer than
 * `size` bytes without a NUL (what the merge's lines have room for). */
static bool text_ok(const dlti_attr *m, const char *k, size_t size)
{
    const dlti_attr *v = pb_rt_get(m, k);
    const char *s;
    size_t len;
    return !v || (dlti_attr_get_string(v, &s, &len, NULL) == 0 && len < size &&
                  !memchr(s, '\0', len));
}

/* The map at `k` of device `m`: absent, or a map of what a source writes there. */
static bool map_ok(const dlti_attr *m, const char *k)
{
    const dlti_attr *v = pb_rt_get(m, k);
    if (!v)
        return true;
    if (dlti_attr_get_kind(v) != DLTI_ATTR_MAP)
        return false;
    bool unified = strcmp(k, "unified") == 0;
    for (size_t i = 0; i < dlti_attr_size(v); i++) {
        const char *name = dlti_key_str(dlti_attr_entry_key(v, i), NULL);
        const dlti_attr *value = dlti_attr_entry_value(v, i);
        if (!name || (unified ? !unified_entry(name, value) : !view_value(value, 1)))
            return false;
    }
    return true;
}

/* Whether `m` is one device of an answer. */
static bool device_ok(const dlti_attr *m)
{
    const dlti_attr *rt = pb_rt_get(m, "runtime");
    const dlti_attr *ord = pb_rt_get(m, "ordinal");
    const dlti_attr *cpu = pb_rt_get(m, "is_cpu");
    const char *name;
    size_t len;
    int64_t ordinal;
    bool is_cpu;
    return dlti_attr_get_kind(m) == DLTI_ATTR_MAP && rt &&
           dlti_attr_get_string(rt, &name, &len, NULL) == 0 && pb_rt_find(name, len) &&
           ord && is_i64(ord) && dlti_attr_get_int64(ord, &ordinal, NULL) == 0 &&
           ordinal >= 0 && ordinal <= INT32_MAX &&
           cpu && dlti_attr_get_bool(cpu, &is_cpu, NULL) == 0 &&
           text_ok(m, "name", 128) && text_ok(m, "driver", 160) && text_ok(m, "bus_id", 24) &&
           text_ok(m, "uuid", 48) && map_ok(m, "unified") && map_ok(m, "view") &&
           map_ok(m, "partitions");
}

/* Whether `m` (NULL: absent) maps runtimes a row names to strings. */
static bool notes_ok(const dlti_attr *m)
{
    if (!m)
        return true;
    if (dlti_attr_get_kind(m) != DLTI_ATTR_MAP)
        return false;
    for (size_t i = 0; i < dlti_attr_size(m); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(m, i), NULL);
        if (!rt || !pb_rt_find(rt, strlen(rt)) ||
            dlti_attr_get_kind(dlti_attr_entry_value(m, i)) != DLTI_ATTR_STRING)
            return false;
    }
    return true;
}

int pb_rt_accept(pb_run *run, const dlti_attr *answer)
{
    if (!answer || dlti_attr_get_kind(answer) != DLTI_ATTR_MAP)
        return -1;
    const dlti_attr *devs = pb_rt_get(answer, "devices");
    const dlti_attr *skipped = pb_rt_get(answer, "skipped");
    const dlti_attr *cut = pb_rt_get(answer, "cut");
    if ((devs && dlti_attr_get_kind(devs) != DLTI_ATTR_ARRAY) || !notes_ok(skipped) ||
        !notes_ok(cut))
        return -1;
    size_t n = devs ? dlti_attr_size(devs) : 0;
    for (size_t i = 0; i < n; i++)
        if (!device_ok(dlti_attr_element(devs, i)))
            return -1;
    if (bs_grow((void **)&run->rt, &run->caprt, run->nrt + n, sizeof(*run->rt)) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        run->rt[run->nrt++] = dlti_attr_element(devs, i);
    /* a runtime's name as its row spells it: a static string */
    for (size_t i = 0; skipped && i < dlti_attr_size(skipped); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(skipped, i), NULL);
        const char *why;
        dlti_attr_get_string(dlti_attr_entry_value(skipped, i), &why, NULL, NULL);
        pb_rt_skipped(run, pb_rt_find(rt, strlen(rt))->name, why);
    }
    for (size_t i = 0; cut && i < dlti_attr_size(cut); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(cut, i), NULL);
        pb_add(run->ctx, &run->rt_cut, pb_rt_find(rt, strlen(rt))->name,
               dlti_attr_entry_value(cut, i));
    }
    return 0;
}

/* ---- the libraries a runtime loaded ---- */

/* A file's identity: "inode:size:mtime", "" when it cannot be stat()ed. */
static void file_identity(const char *path, char *out, size_t size)
{
    struct stat st;
    out[0] = '\0';
    if (stat(path, &st) == 0)
        snprintf(out, size, "%llu:%lld:%lld.%09ld", (unsigned long long)st.st_ino,
                 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

typedef struct lib_walk {
    dlti_context *ctx;
    pb_map m;
} lib_walk;

static int one_library(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    lib_walk *w = user;
    const char *path = info->dlpi_name;
    char id[96];
    if (!path || path[0] != '/') /* the program itself, the vDSO */
        return 0;
    file_identity(path, id, sizeof(id));
    pb_str(w->ctx, &w->m, path, id);
    return 0;
}

const dlti_attr *pb_rt_libraries(dlti_context *ctx)
{
    lib_walk w = {ctx, {0}};
    pb_init(&w.m);
    dl_iterate_phdr(one_library, &w);
    return pb_finish(ctx, &w.m, DLTI_ATTR_MAP, NULL);
}

bool pb_rt_libraries_unchanged(const dlti_attr *libraries)
{
    for (size_t i = 0; i < dlti_attr_size(libraries); i++) {
        const char *path = dlti_key_str(dlti_attr_entry_key(libraries, i), NULL);
        const char *was;
        char now[96];
        if (!path ||
            dlti_attr_get_string(dlti_attr_entry_value(libraries, i), &was, NULL, NULL) != 0)
            return false;
        file_identity(path, now, sizeof(now));
        if (strcmp(was, now) != 0)
            return false;
    }
    return true;
}
