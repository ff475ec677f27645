/* The CPU's caches: hwloc's cache objects (CPUID where hwloc has none),
 * one entry per level and kind, described by the instance this process
 * runs on. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MiB ((int64_t)1024 * 1024)
/* A cache instance above both bounds is implausible: the largest shipped
 * instances are shared by many threads (Xeon 6980P: 504 MB for 256 threads,
 * about 2 MiB each), and none gives one thread 16 MiB of a cache over 256
 * MiB.  hwloc's CPUID fallback on some VMs reports a package's L3 as one
 * core's (508 MiB shared by 1 thread). */
#define PLAUSIBLE_CACHE_MAX (256 * MiB)
#define PLAUSIBLE_PER_THREAD (16 * MiB)

/* The order of the "cache" map. */
static const struct {
    const char *name;
    hwloc_obj_type_t type;
    int level;
    bool icache;
} levels[PB_NCACHES] = {
    {"L1", HWLOC_OBJ_L1CACHE, 1, false},  {"L1i", HWLOC_OBJ_L1ICACHE, 1, true},
    {"L2", HWLOC_OBJ_L2CACHE, 2, false},  {"L2i", HWLOC_OBJ_L2ICACHE, 2, true},
    {"L3", HWLOC_OBJ_L3CACHE, 3, false},  {"L3i", HWLOC_OBJ_L3ICACHE, 3, true},
    {"L4", HWLOC_OBJ_L4CACHE, 4, false},  {"L5", HWLOC_OBJ_L5CACHE, 5, false},
};

static bool holds_pu(hwloc_obj_t o, int pu)
{
    return pu >= 0 && hwloc_bitmap_isset(o->cpuset, (unsigned)pu);
}

/* Instances may differ (hybrid CPUs, uneven L3 slices): the one holding the
 * first usable PU describes the level, the others only widen min/max. */
static void collect_cache(pb_run *run, pb_cache *c)
{
    int first_pu = hwloc_bitmap_first(run->allowed);
    hwloc_obj_t rep = NULL;
    int depth = hwloc_topology_get_depth(run->topo);
    for (int d = 0; d < depth; d++) {
        if (hwloc_get_depth_type(run->topo, d) != c->type)
            continue;
        for (hwloc_obj_t o = hwloc_get_next_obj_by_depth(run->topo, d, NULL); o;
             o = hwloc_get_next_obj_by_depth(run->topo, d, o)) {
            if (!pb_usable(run, o))
                continue;
            int64_t size = (int64_t)o->attr->cache.size;
            if (!c->inst || size < c->min)
                c->min = size;
            if (!c->inst || size > c->max)
                c->max = size;
            c->inst++;
            if (!rep || (holds_pu(o, first_pu) && !holds_pu(rep, first_pu)))
                rep = o;
        }
    }
    if (!rep)
        return;
    c->present = true;
    c->source = "hwloc";
    c->size = (int64_t)rep->attr->cache.size;
    c->line = (int64_t)rep->attr->cache.linesize;
    c->assoc = rep->attr->cache.associativity; /* -1 full, 0 unknown */
    c->tpi = hwloc_bitmap_weight(rep->cpuset);
    c->ctype = (int)rep->attr->cache.type;
    const char *inc = pb_info(rep, "Inclusive");
    c->inclusive = inc ? (strcmp(inc, "1") == 0) : -1;
}

/* hwloc found no cache of a level this host's CPUID describes (some VMs,
 * old kernels): take CPUID's size, line and ways; its sharing count is not
 * reliable there, so no instances or threads. */
static void cpuid_fallback(pb_cache *c)
{
    if (c->level > 3 || (c->level != 1 && c->icache) ||
        pb_cpuid_cache(c->level, c->icache, &c->size, &c->line, &c->assoc, &c->tpi) != 0)
        return;
    c->present = true;
    c->source = "cpuid";
    c->inst = 0;
    c->tpi = 0;
    c->min = c->max = c->size;
}

void pb_caches_find(pb_run *run, pb_cache caches[PB_NCACHES])
{
    for (size_t i = 0; i < PB_NCACHES; i++) {
        pb_cache *c = &caches[i];
        *c = (pb_cache){.name = levels[i].name, .type = levels[i].type, .level = levels[i].level,
                        .icache = levels[i].icache, .ctype = -1, .inclusive = -1};
        collect_cache(run, c);
        if (!c->present && run->host)
            cpuid_fallback(c);
    }
}

static void check_size(pb_run *run, const pb_cache *c, const pb_cache *below, int64_t mem_total)
{
    char path[128];
    snprintf(path, sizeof(path), "cache.%s.size_in_bytes", c->name);
    if (c->size <= 0) {
        pb_warning(&run->warn, path, "%s reports a size of 0 (unknown); the key is left out",
                   c->source);
        return;
    }
    int64_t threads = c->tpi > 0 ? c->tpi : 1;
    if (c->size > PLAUSIBLE_CACHE_MAX && c->size / threads > PLAUSIBLE_PER_THREAD)
        pb_warning(&run->warn, path,
                   "%s reports %" PRId64 " bytes (%" PRId64 " MiB) per instance for %" PRId64
                   " thread%s, more than any shipped cache gives a thread; kept as measured, "
                   "override with --set CPU.%s=BYTES",
                   c->source, c->size, c->size / MiB, threads, threads == 1 ? "" : "s", path);
    if (mem_total > 0 && c->size > mem_total)
        pb_warning(&run->warn, path,
                   "%" PRId64 " bytes is larger than the memory (%" PRId64 " bytes)", c->size,
                   mem_total);
    if (!c->icache && below && below->size > 0 && c->size < below->size)
        pb_warning(&run->warn, path,
                   "%s (%" PRId64 " bytes) is smaller than %s (%" PRId64 " bytes)", c->name,
                   c->size, below->name, below->size);
}

void pb_caches_check(pb_run *run, const pb_cache caches[PB_NCACHES], int64_t mem_total)
{
    const pb_cache *below = NULL; /* the last data or unified level */
    for (size_t i = 0; i < PB_NCACHES; i++) {
        const pb_cache *c = &caches[i];
        if (!c->present)
            continue;
        check_size(run, c, below, mem_total);
        if (c->line <= 0) {
            char path[128];
            snprintf(path, sizeof(path), "cache.%s.line_size_in_bytes", c->name);
            pb_warning(&run->warn, path,
                       "%s reports a line size of 0 (unknown); the key is left out", c->source);
        }
        if (!c->icache)
            below = c;
    }
}

void pb_caches_flat_keys(dlti_context *ctx, pb_map *dev, const pb_cache caches[PB_NCACHES])
{
    for (size_t i = 0; i < PB_NCACHES; i++) {
        const pb_cache *c = &caches[i];
        if (c->present && !c->icache && c->level <= 3 && c->size > 0) {
            char key[64];
            snprintf(key, sizeof(key), "L%d_cache_size_in_bytes", c->level);
            pb_i64(ctx, dev, key, c->size);
        }
    }
}

/* Unknown values (0 from hwloc) are left out rather than written as 0. */
static const dlti_attr *cache_map(dlti_context *ctx, const pb_cache *c, dlti_error_t *err)
{
    pb_map m;
    pb_init(&m);
    if (c->size > 0)
        pb_i64(ctx, &m, "size_in_bytes", c->size);
    if (c->line > 0)
        pb_i64(ctx, &m, "line_size_in_bytes", c->line);
    if (c->assoc != 0)
        pb_i64(ctx, &m, "associativity", c->assoc < 0 ? -1 : c->assoc);
    if (c->inst > 0)
        pb_i64(ctx, &m, "num_instances", c->inst);
    if (c->tpi > 0)
        pb_i64(ctx, &m, "threads_per_instance", c->tpi);
    if (c->inclusive >= 0)
        pb_bool(ctx, &m, "inclusive", c->inclusive == 1);
    pb_str(ctx, &m, "type",
           c->ctype == HWLOC_OBJ_CACHE_INSTRUCTION ? "instruction"
           : c->ctype == HWLOC_OBJ_CACHE_DATA      ? "data"
           : c->ctype == HWLOC_OBJ_CACHE_UNIFIED   ? "unified"
                                                   : NULL);
    if (c->min != c->max && c->inst > 0) {
        pb_i64(ctx, &m, "min_size_in_bytes", c->min);
        pb_i64(ctx, &m, "max_size_in_bytes", c->max);
    }
    return pb_finish(ctx, &m, DLTI_ATTR_MAP, err);
}

void pb_caches_add(pb_run *run, pb_map *dev, const pb_cache caches[PB_NCACHES],
                   dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    pb_map cache;
    pb_init(&cache);
    for (size_t i = 0; i < PB_NCACHES; i++) {
        const pb_cache *c = &caches[i];
        if (!c->present)
            continue;
        pb_add(ctx, &cache, c->name, cache_map(ctx, c, err));
        if (strcmp(c->source, "hwloc") != 0) {
            char path[128];
            snprintf(path, sizeof(path), "cache.%s", c->name);
            pb_provenance(run, path, "cpuid (hwloc reported no such cache)");
        }
    }
    pb_add_map(ctx, dev, "cache", &cache, err);
}
