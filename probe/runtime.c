/* The vendor runtimes of a host probe: the table of runtime sources, what
 * they saw (pb_rt_add), and the probe's runtime stage: the cache
 * (rt_cache.c), else every source asked at once in bounded time
 * (rt_child.c), their answers read back (rt_text.c) and merged into the
 * devices (rt_merge.c).  docs/runtimes.md describes the whole. */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime sources, one file each.  Each runs in a child of its own;
 * the order here is the order of their devices within one runtime key. */
static const pb_rt_source rt_sources[] = {
    {SYSDESC_RUNTIME_CUDA, "cuda", pb_probe_cuda},
    {SYSDESC_RUNTIME_CUDA, "nvml", pb_probe_nvml},
    {SYSDESC_RUNTIME_ROCM, "rocm", pb_probe_rocm},
    {SYSDESC_RUNTIME_ROCM, "amd_smi", pb_probe_amd_smi},
    {SYSDESC_RUNTIME_LEVEL_ZERO, "level_zero", pb_probe_level_zero},
    {SYSDESC_RUNTIME_OPENCL, "opencl", pb_probe_opencl},
    {SYSDESC_RUNTIME_VULKAN, "vulkan", pb_probe_vulkan},
};
#define NSOURCES (sizeof(rt_sources) / sizeof(rt_sources[0]))

/* The names the runtimes option takes (sysdesc_probe_runtimes_parse). */
static const struct {
    const char *name;
    unsigned bit;
} rt_options[] = {
    {"opencl", SYSDESC_RUNTIME_OPENCL}, {"vulkan", SYSDESC_RUNTIME_VULKAN},
    {"cuda", SYSDESC_RUNTIME_CUDA},     {"rocm", SYSDESC_RUNTIME_ROCM},
    {"level_zero", SYSDESC_RUNTIME_LEVEL_ZERO},
};

/* Every key under "runtimes", by priority: where two runtimes give the same
 * top-level key of one device, the one first here wins and the other's
 * value is recorded under "disagreements" (docs/runtimes.md). */
static const char *const rt_views[] = {"cuda",    "rocm",   "level_zero", "nvml",
                                       "amd_smi", "opencl", "vulkan"};

int pb_rt_rank(const char *runtime, size_t len)
{
    for (size_t i = 0; i < sizeof(rt_views) / sizeof(rt_views[0]); i++)
        if (strlen(rt_views[i]) == len && memcmp(rt_views[i], runtime, len) == 0)
            return (int)i;
    return -1;
}

const char *pb_rt_view_name(int rank)
{
    return rt_views[rank];
}

int sysdesc_probe_runtimes_parse(const char *list, unsigned *bits, dlti_error_t *err)
{
    unsigned b = 0;
    if (!list || !bits) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT, "no runtime list");
        return -1;
    }
    if (strcmp(list, "none") == 0) {
        *bits = SYSDESC_RUNTIME_NONE;
        return 0;
    }
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        bool known = false;
        if (n == 3 && memcmp(p, "all", 3) == 0) {
            b |= SYSDESC_RUNTIME_ALL;
            known = true;
        }
        for (size_t i = 0; !known && i < sizeof(rt_options) / sizeof(rt_options[0]); i++)
            if (strlen(rt_options[i].name) == n && memcmp(rt_options[i].name, p, n) == 0) {
                b |= rt_options[i].bit;
                known = true;
            }
        if (!known) {
            dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                           "unknown runtime '%.*s' (opencl, vulkan, cuda, rocm, level_zero; "
                           "all; none)",
                           (int)n, p);
            return -1;
        }
        if (!p[n])
            break;
        p += n + 1;
    }
    *bits = b;
    return 0;
}

void pb_rt_init(pb_rt_device *d, const char *runtime, int ordinal)
{
    memset(d, 0, sizeof(*d));
    d->runtime = runtime;
    d->ordinal = ordinal;
    pb_init(&d->unified);
    pb_init(&d->view);
    pb_init(&d->partitions);
}

void pb_rt_free_device(pb_rt_device *d)
{
    pb_free(&d->unified);
    pb_free(&d->view);
    pb_free(&d->partitions);
}

int pb_rt_add(pb_run *run, pb_rt_device *d, dlti_error_t *err)
{
    if (dlti_grow((void **)&run->rt, &run->caprt, run->nrt + 1, sizeof(*run->rt)) != 0) {
        pb_rt_free_device(d);
        memset(d, 0, sizeof(*d));
        dlti_nomem(err);
        return -1;
    }
    run->rt[run->nrt++] = *d;
    memset(d, 0, sizeof(*d));
    return 0;
}

void pb_rt_skipped(pb_run *run, const char *runtime, const char *why)
{
    pb_str(run->ctx, &run->rt_skipped, runtime, why);
}

void *pb_rt_dlopen(pb_run *run, const char *runtime, const char *lib)
{
    dlerror();
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        /* "No such file" is the common case, the runtime is not installed;
         * anything else (a broken or foreign library) is worth its text. */
        const char *e = dlerror();
        char why[PB_RT_WHY];
        if (!e || strstr(e, "No such file"))
            snprintf(why, sizeof(why), "%s not found", lib);
        else
            snprintf(why, sizeof(why), "%s not loaded: %.200s", lib, e);
        pb_rt_skipped(run, runtime, why);
    }
    return h;
}

void pb_rt_free_all(pb_run *run)
{
    for (size_t i = 0; i < run->nrt; i++)
        pb_rt_free_device(&run->rt[i]);
    free(run->rt);
    run->rt = NULL;
    run->nrt = run->caprt = 0;
    pb_free(&run->rt_skipped);
}

/* The runtimes the options ask, as SYSDESC_RUNTIME_* bits. */
unsigned pb_rt_asked_bits(const sysdesc_probe_options *o)
{
    if (o->runtimes & SYSDESC_RUNTIME_NONE)
        return 0;
    return o->runtimes ? o->runtimes & SYSDESC_RUNTIME_ALL : SYSDESC_RUNTIME_ALL;
}

/* Adds every entry of answer's "libraries" map to `libs`. */
static void collect_libraries(pb_run *run, pb_map *libs, const dlti_attr *answer)
{
    const dlti_attr *l = dlti_attr_lookup(answer, dlti_key_string(run->ctx, "libraries", 9));
    for (size_t i = 0; l && dlti_attr_get_kind(l) == DLTI_ATTR_MAP && i < dlti_attr_size(l); i++) {
        const char *path = dlti_key_str(dlti_attr_entry_key(l, i), NULL);
        if (path)
            pb_add(run->ctx, libs, path, dlti_attr_entry_value(l, i));
    }
}

/* Asks the sources, reads their answers into the run; true when every one
 * answered (the result may be cached).  -1 when out of memory. */
static int ask(pb_run *run, const pb_rt_source *const *src, size_t n, pb_map *libs)
{
    char *texts[NSOURCES];
    char whys[NSOURCES][PB_RT_WHY];
    if (pb_rt_ask(run, src, n, texts, whys) != 0)
        return -1;
    int complete = 1;
    for (size_t i = 0; i < n; i++) {
        if (!texts[i]) {
            pb_rt_skipped(run, src[i]->name, whys[i]);
            complete = 0;
            continue;
        }
        dlti_error_t perr;
        const dlti_attr *a = dlti_attr_parse(run->ctx, texts[i], strlen(texts[i]), src[i]->name,
                                             &perr);
        if (!a || pb_rt_load(run, a) != 0) {
            char why[PB_RT_WHY];
            snprintf(why, sizeof(why), "its answer could not be read back: %.200s",
                     a ? "not a runtime answer" : perr.text);
            pb_rt_skipped(run, src[i]->name, why);
            complete = 0;
        } else {
            collect_libraries(run, libs, a);
        }
        free(texts[i]);
    }
    return complete;
}

int pb_probe_runtimes(pb_run *run, dlti_error_t *err)
{
    if (!run->host)
        return 0;
    const sysdesc_probe_options *o = run->opts;
    unsigned bits = pb_rt_asked_bits(o);
    const pb_rt_source *src[NSOURCES];
    size_t n = 0;
    for (size_t i = 0; i < NSOURCES; i++) {
        if (bits & rt_sources[i].bit)
            src[n++] = &rt_sources[i];
        else
            pb_rt_skipped(run, rt_sources[i].name, "not asked (runtimes option)");
    }
    if (n) {
        dlti_buf key = {0};
        bool cache = o->cache != SYSDESC_PROBE_CACHE_OFF;
        if (cache) {
            pb_rt_cache_key(run, bits, &key);
            cache = key.data && !key.failed;
        }
        const dlti_attr *answer = NULL;
        if (cache && o->cache == SYSDESC_PROBE_CACHE_AUTO)
            answer = pb_rt_cache_read(run, key.data);
        if (answer && pb_rt_load(run, answer) == 0) {
            run->rt_origin = "their answers cached by an earlier probe (docs/runtimes.md)";
        } else {
            run->rt_origin = o->runtimes_in_process ? "asked by this probe, in this process"
                                                    : "asked by this probe, in child processes";
            pb_map libs;
            pb_init(&libs);
            int complete = ask(run, src, n, &libs);
            if (complete < 0) {
                pb_free(&libs);
                free(key.data);
                dlti_nomem(err);
                return -1;
            }
            if (complete && cache) {
                const dlti_attr *l = libs.n ? pb_finish(run->ctx, &libs, DLTI_ATTR_MAP, NULL)
                                            : NULL;
                size_t len;
                char *text = pb_rt_print(run, l, &len);
                if (text)
                    pb_rt_cache_write(run, key.data, text, len);
                free(text);
            }
            pb_free(&libs);
        }
        free(key.data);
    }
    return pb_rt_merge(run, err);
}
