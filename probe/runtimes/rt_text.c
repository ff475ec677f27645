/* What the runtime sources saw as DLTI text: a child's answer to its parent
 * and the body of a cache entry are one #dlti.map, read back with the core's
 * parser (docs/runtimes.md, "Answers"):
 *
 *   #dlti.map<"devices" = [#dlti.map<"runtime" = "opencl", "ordinal" = 0,
 *                "name" = "...", "driver" = "...", "bus_id" = "...",
 *                "uuid" = "...", "is_cpu" = true, "unified" = #dlti.map<...>,
 *                "view" = #dlti.map<...>, "partitions" = #dlti.map<...>>, ...],
 *             "skipped" = #dlti.map<"cuda" = "libcuda.so.1 not loaded: ...">,
 *             "cut" = #dlti.map<"opencl" = "the runtime reports 70 devices; ...">,
 *             "libraries" = #dlti.map<"/usr/lib/.../libOpenCL.so.1" = "ino:size:mtime">>
 *
 * Empty strings and maps are left out.  Reading is strict: anything else
 * (an unknown runtime, a field of the wrong kind, a string too long for its
 * field) makes the whole answer unreadable, and a cache entry is then
 * ignored. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static dlti_key key(dlti_context *ctx, const char *s)
{
    return dlti_key_string(ctx, s, strlen(s));
}

/* The entries of a pb_map as a #dlti.map, the pb_map left as it is. */
static void add_copy(dlti_context *ctx, pb_map *m, const char *k, const pb_map *sub)
{
    if (sub->failed)
        m->failed = true;
    else if (sub->n)
        pb_add(ctx, m, k, dlti_container_new(ctx, DLTI_ATTR_MAP, sub->e, sub->n, NULL));
}

static const dlti_attr *device_attr(dlti_context *ctx, const pb_rt_device *d)
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
    return pb_finish(ctx, &m, DLTI_ATTR_MAP, NULL);
}

char *pb_rt_print(pb_run *run, const dlti_attr *libraries, size_t *len)
{
    dlti_context *ctx = run->ctx;
    const dlti_attr **devs = calloc(run->nrt ? run->nrt : 1, sizeof(*devs));
    if (!devs)
        return NULL;
    bool ok = true;
    for (size_t i = 0; i < run->nrt && ok; i++)
        ok = (devs[i] = device_attr(ctx, &run->rt[i])) != NULL;
    pb_map m;
    pb_init(&m);
    if (ok && run->nrt)
        pb_add(ctx, &m, "devices", dlti_array_new(ctx, devs, run->nrt));
    free(devs);
    add_copy(ctx, &m, "skipped", &run->rt_skipped);
    add_copy(ctx, &m, "cut", &run->rt_cut);
    if (libraries && dlti_attr_size(libraries))
        pb_add(ctx, &m, "libraries", libraries);
    if (!ok)
        m.failed = true;
    /* An empty answer (no source ran) is an empty map. */
    const dlti_attr *a = pb_finish(ctx, &m, DLTI_ATTR_MAP, NULL);
    return a ? dlti_attr_print(a, len) : NULL;
}

/* The string at `k` of map `m` into out (size bytes): true when absent
 * (out = "") or a string that fits, false otherwise. */
static bool get_str(dlti_context *ctx, const dlti_attr *m, const char *k, char *out, size_t size)
{
    const dlti_attr *v = dlti_attr_lookup(m, key(ctx, k));
    const char *s;
    size_t len;
    out[0] = '\0';
    if (!v)
        return true;
    if (dlti_attr_get_string(v, &s, &len, NULL) != 0 || len >= size || memchr(s, '\0', len))
        return false;
    memcpy(out, s, len + 1);
    return true;
}

/* The top-level keys a runtime source may set (its "unified" map) and the
 * kind of each: every one is a device schema key of that type
 * (tests/probe/test_rt_merge.c holds the two together).  An answer, a
 * child's or a cache entry's, that sets another key or another kind is
 * refused whole: an edited cache entry cannot put a key or a value in a
 * device that no runtime source would. */
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

/* The map at `k` of `m` into a pb_map; true when absent or a map whose
 * entries are what a runtime source writes there. */
static bool get_map(dlti_context *ctx, const dlti_attr *m, const char *k, pb_map *out)
{
    const dlti_attr *v = dlti_attr_lookup(m, key(ctx, k));
    if (!v)
        return true;
    if (dlti_attr_get_kind(v) != DLTI_ATTR_MAP)
        return false;
    bool unified = strcmp(k, "unified") == 0;
    for (size_t i = 0; i < dlti_attr_size(v); i++) {
        const char *name = dlti_key_str(dlti_attr_entry_key(v, i), NULL);
        const dlti_attr *value = dlti_attr_entry_value(v, i);
        if (!name)
            return false; /* a type key */
        if (unified ? !unified_entry(name, value) : !view_value(value, 1))
            return false;
        pb_add(ctx, out, name, value);
    }
    return !out->failed;
}

/* One device of an answer; false when it is not one. */
static bool read_device(dlti_context *ctx, const dlti_attr *m, pb_rt_device *d)
{
    char rt[32];
    const dlti_attr *ord = dlti_attr_lookup(m, key(ctx, "ordinal"));
    const dlti_attr *cpu = dlti_attr_lookup(m, key(ctx, "is_cpu"));
    int64_t ordinal;
    bool is_cpu;
    if (dlti_attr_get_kind(m) != DLTI_ATTR_MAP || !get_str(ctx, m, "runtime", rt, sizeof(rt)) ||
        !ord || dlti_attr_get_int64(ord, &ordinal, NULL) != 0 || ordinal < 0 ||
        ordinal > INT32_MAX || !cpu || dlti_attr_get_bool(cpu, &is_cpu, NULL) != 0)
        return false;
    const pb_rt_source *src = pb_rt_find(rt, strlen(rt));
    if (!src)
        return false;
    pb_rt_init(d, src->name, (int)ordinal);
    d->is_cpu = is_cpu;
    if (get_str(ctx, m, "name", d->name, sizeof(d->name)) &&
        get_str(ctx, m, "driver", d->driver, sizeof(d->driver)) &&
        get_str(ctx, m, "bus_id", d->bus_id, sizeof(d->bus_id)) &&
        get_str(ctx, m, "uuid", d->uuid, sizeof(d->uuid)) &&
        get_map(ctx, m, "unified", &d->unified) && get_map(ctx, m, "view", &d->view) &&
        get_map(ctx, m, "partitions", &d->partitions))
        return true;
    pb_rt_free_device(d);
    return false;
}

int pb_rt_load(pb_run *run, const dlti_attr *answer)
{
    dlti_context *ctx = run->ctx;
    if (!answer || dlti_attr_get_kind(answer) != DLTI_ATTR_MAP)
        return -1;
    const dlti_attr *devs = dlti_attr_lookup(answer, key(ctx, "devices"));
    const dlti_attr *skipped = dlti_attr_lookup(answer, key(ctx, "skipped"));
    const dlti_attr *cut = dlti_attr_lookup(answer, key(ctx, "cut"));
    if ((devs && dlti_attr_get_kind(devs) != DLTI_ATTR_ARRAY) ||
        (skipped && dlti_attr_get_kind(skipped) != DLTI_ATTR_MAP) ||
        (cut && dlti_attr_get_kind(cut) != DLTI_ATTR_MAP))
        return -1;
    size_t n = devs ? dlti_attr_size(devs) : 0;
    pb_rt_device *d = calloc(n ? n : 1, sizeof(*d));
    if (!d)
        return -1;
    size_t got = 0;
    while (got < n && read_device(ctx, dlti_attr_element(devs, got), &d[got]))
        got++;
    bool ok = got == n;
    for (size_t i = 0; ok && skipped && i < dlti_attr_size(skipped); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(skipped, i), NULL);
        const char *why;
        size_t len;
        ok = rt && pb_rt_find(rt, strlen(rt)) &&
             dlti_attr_get_string(dlti_attr_entry_value(skipped, i), &why, &len, NULL) == 0;
    }
    for (size_t i = 0; ok && cut && i < dlti_attr_size(cut); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(cut, i), NULL);
        const char *note;
        size_t len;
        ok = rt && pb_rt_find(rt, strlen(rt)) &&
             dlti_attr_get_string(dlti_attr_entry_value(cut, i), &note, &len, NULL) == 0;
    }
    dlti_error_t err;
    for (size_t i = 0; i < got; i++)
        if (!ok || pb_rt_add(run, &d[i], &err) != 0) {
            pb_rt_free_device(&d[i]);
            ok = false;
        }
    free(d);
    if (!ok)
        return -1;
    for (size_t i = 0; skipped && i < dlti_attr_size(skipped); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(skipped, i), NULL);
        const char *why;
        dlti_attr_get_string(dlti_attr_entry_value(skipped, i), &why, NULL, NULL);
        pb_rt_skipped(run, pb_rt_find(rt, strlen(rt))->name, why);
    }
    for (size_t i = 0; cut && i < dlti_attr_size(cut); i++) {
        const char *rt = dlti_key_str(dlti_attr_entry_key(cut, i), NULL);
        pb_add(ctx, &run->rt_cut, pb_rt_find(rt, strlen(rt))->name, dlti_attr_entry_value(cut, i));
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
