/* sysdesc_measure_devices: which devices of a spec, through which runtime,
 * with which working sets; each runtime measurement in a bounded child of
 * its own (rt_child.c), one after the other; the answers read back and
 * attached with their provenance (docs/measure.md, "Devices"). */
#define _GNU_SOURCE
#include "measure_dev.h"
#include "measure_private.h"
#include "probe_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((uint64_t)1 << 20)

/* The row of a runtime sysdesc measures through (its `measure`); NULL
 * for another. */
static const pb_rt_source *measurable(const char *runtime, size_t len)
{
    const pb_rt_source *src = runtime ? pb_rt_find(runtime, len) : NULL;
    return src && src->measure ? src : NULL;
}

/* Per mode (sysdesc_measure_mode's order): the most one memory run's
 * working set and one transfer may take, and the child's default bound. */
static const struct {
    uint64_t memory, transfer;
    unsigned timeout_ms;
} bounds[] = {{1024 * MIB, 256 * MIB, 60000}, {256 * MIB, 64 * MIB, 30000},
              {4096 * MIB, 1024 * MIB, 180000}};

static const dlti_attr *at(dlti_context *ctx, const dlti_attr *a, const char *dotted)
{
    for (const char *p = dotted; a && *p;) {
        size_t n = strcspn(p, ".");
        dlti_attr_kind k = dlti_attr_get_kind(a);
        if (k != DLTI_ATTR_MAP && k != DLTI_ATTR_DEVICE_SPEC && k != DLTI_ATTR_SYSTEM_SPEC)
            return NULL;
        a = dlti_attr_lookup(a, dlti_key_string(ctx, p, n));
        p += n + (p[n] == '.');
    }
    return a;
}

static int64_t num(dlti_context *ctx, const dlti_attr *a, const char *dotted)
{
    int64_t v;
    a = at(ctx, a, dotted);
    return a && dlti_attr_get_int64(a, &v, NULL) == 0 && v > 0 ? v : 0;
}

static bool str(dlti_context *ctx, const dlti_attr *a, const char *dotted, char *out, size_t size)
{
    const char *s;
    size_t len;
    a = at(ctx, a, dotted);
    if (!a || dlti_attr_get_kind(a) != DLTI_ATTR_STRING ||
        dlti_attr_get_string(a, &s, &len, NULL) != 0 || len >= size)
        return false;
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

/* Device `id` of the spec (an id may hold dots: "class0.CPU"). */
static const dlti_attr *device(const dlti_attr *spec, const char *id)
{
    return dlti_attr_lookup_string(spec, id, strlen(id));
}

/* One runtime measurement to make. */
typedef struct job {
    md_target t;
    char device[96];  /* its device's id in the spec */
    char where[64];   /* its map's path in the device: "measured", "measured.runtimes.opencl" */
    char label[128];  /* "GPU0 (cuda)" */
} job;

typedef struct state {
    dlti_context *ctx;
    const sysdesc_measure_options *opts;
    const dlti_attr *spec;
    int unit, nunits; /* progress: measurements done, in all */
    const char *label;
    size_t failed;
} state;

static void progress(state *st, const char *step, double done)
{
    if (!st->opts->progress)
        return;
    char line[224];
    snprintf(line, sizeof(line), "%s: %s", st->label, step);
    st->opts->progress(st->opts->progress_user, line, (st->unit + done) / st->nunits);
}

/* The host CPU's measurement reports "done" at its end: not the whole's. */
static void host_progress(void *user, const char *step, double done)
{
    if (strcmp(step, "done") != 0)
        progress(user, step, done);
}

/* A child's progress line: "FRACTION STEP". */
static void child_progress(void *user, size_t job, const char *line)
{
    char *end;
    double f = bs_strtod(line, &end);
    (void)job;
    if (end != line && *end == ' ' && f >= 0 && f <= 1)
        progress(user, end + 1, f);
}

/* Sets `value` at the dotted path `where` of device `id` (levels created). */
static const dlti_attr *set_at(state *st, const dlti_attr *spec, const char *id,
                               const char *where, const dlti_attr *value, dlti_error_t *err)
{
    dlti_key keys[8];
    size_t n = 0;
    keys[n++] = dlti_key_string(st->ctx, id, strlen(id));
    for (const char *p = where; *p && n < 8;) {
        size_t len = strcspn(p, ".");
        keys[n++] = dlti_key_string(st->ctx, p, len);
        p += len + (p[len] == '.');
    }
    for (size_t i = 0; i < n; i++)
        if (!keys[i]) {
            bs_nomem(err);
            return NULL;
        }
    return dlti_container_set_path(st->ctx, spec, keys, n, value, err);
}

/* device.source[where] = text */
static const dlti_attr *set_source(state *st, const dlti_attr *spec, const char *id,
                                   const char *where, const char *text, dlti_error_t *err)
{
    const dlti_attr *v = dlti_string_new(st->ctx, text, strlen(text));
    dlti_key keys[3] = {dlti_key_string(st->ctx, id, strlen(id)),
                        dlti_key_string(st->ctx, "source", 6),
                        dlti_key_string(st->ctx, where, strlen(where))};
    if (!v || !keys[0] || !keys[1] || !keys[2]) {
        bs_nomem(err);
        return NULL;
    }
    return dlti_container_set_path(st->ctx, spec, keys, 3, v, err);
}

/* The largest cache of the CPU one run of all its threads spreads over
 * (size x instances), of the levels the probe does not doubt. */
static uint64_t cpu_llc(dlti_context *ctx, const dlti_attr *cpu)
{
    static const char *const levels[] = {"L1", "L2", "L3", "L4"};
    uint64_t most = 0;
    for (size_t i = 0; i < 4; i++) {
        char path[40];
        snprintf(path, sizeof(path), "cache.%s.size_in_bytes", levels[i]);
        int64_t size = num(ctx, cpu, path), inst;
        if (size <= 0 || mk_suspect(ctx, cpu, path))
            continue;
        snprintf(path, sizeof(path), "cache.%s.num_instances", levels[i]);
        inst = num(ctx, cpu, path);
        uint64_t all = (uint64_t)size * (uint64_t)(inst > 0 ? inst : 1);
        most = all > most ? all : most;
    }
    return most;
}

/* The working sets and grid of one device (docs/measure.md, "Devices"). */
static void plan(state *st, const dlti_attr *dev, bool cpu, job *j)
{
    dlti_context *ctx = st->ctx;
    md_target *t = &j->t;
    int mode = st->opts->mode;
    uint64_t llc, l2, memory;
    int64_t units;
    if (cpu) {
        llc = cpu_llc(ctx, dev);
        int64_t size = num(ctx, dev, "cache.L2.size_in_bytes");
        int64_t inst = num(ctx, dev, "cache.L2.num_instances");
        units = num(ctx, dev, "num_threads");
        if (size > 0 && !mk_suspect(ctx, dev, "cache.L2.size_in_bytes"))
            l2 = (uint64_t)size * (uint64_t)(inst > 0 && inst < units ? inst : units > 0 ? units : 1);
        else
            l2 = 0;
        snprintf(t->l2_why, sizeof(t->l2_why), "the CPU's L2 size is %s",
                 size > 0 ? "marked suspect by the probe" : "not in the spec");
        memory = (uint64_t)num(ctx, dev, "memory.total_in_bytes");
        uint64_t limit = (uint64_t)num(ctx, dev, "memory.cgroup_limit_in_bytes");
        if (limit && (!memory || limit < memory))
            memory = limit;
    } else {
        l2 = (uint64_t)num(ctx, dev, "L2_cache_size_in_bytes");
        if (!l2)
            l2 = (uint64_t)num(ctx, dev, "runtimes.cuda.l2_cache_size_in_bytes");
        llc = (uint64_t)num(ctx, dev, "last_level_cache_size_in_bytes");
        if (llc < l2)
            llc = l2;
        if (!llc)
            llc = (uint64_t)num(ctx, dev, "runtimes.opencl.global_memory_cache_size_in_bytes");
        snprintf(t->l2_why, sizeof(t->l2_why),
                 "the spec gives no L2 size (L2_cache_size_in_bytes)");
        units = num(ctx, dev, "num_compute_units");
        if (!units)
            units = num(ctx, dev, "runtimes.opencl.max_compute_units");
        memory = (uint64_t)num(ctx, dev, "memory_size_in_bytes");
    }
    /* The bandwidth runs: enough work-groups to fill every compute unit
     * several times; the FMA runs: half that, each with 8 chains. */
    if (units <= 0)
        units = 64;
    t->groups = (unsigned)(units * 16 < 32 ? 32 : units * 16 > 65536 ? 65536 : units * 16);
    t->fma_groups = t->groups / 2;
    t->l2_bytes = (size_t)(l2 / 2);
    /* Memory: 4x the last-level cache, at least 64 MiB, within the mode's
     * bound and an eighth of the memory (three arrays and the rest). */
    uint64_t want = 4 * llc > 64 * MIB ? 4 * llc : 64 * MIB, ws = want;
    const char *cap = NULL;
    if (ws > bounds[mode].memory) {
        ws = bounds[mode].memory;
        cap = "the mode's bound";
    }
    if (memory && ws > memory / 8) {
        ws = memory / 8;
        cap = "an eighth of the memory";
    }
    t->memory_bytes = (size_t)ws;
    if (cap)
        snprintf(t->memory_bounded, sizeof(t->memory_bounded),
                 "working set capped at %s, %" PRIu64 " bytes (the plan wanted %" PRIu64
                 ", 4x the last-level cache)%s",
                 cap, ws, want, ws < 2 * llc ? ": less than twice that cache" : "");
    t->transfer_bytes = (size_t)bounds[mode].transfer;
    if (memory && t->transfer_bytes > memory / 8)
        t->transfer_bytes = (size_t)(memory / 8);
    t->mode = st->opts->mode;
    t->break_triad = mk_break_triad(t->runtime);
}

/* The device index and name the runtime's view gives; false when it lacks them. */
static bool locate(state *st, const dlti_attr *view, const md_ops *ops, md_target *t)
{
    dlti_context *ctx = st->ctx;
    t->platform = 0;
    if (ops->platform_key) {
        const dlti_attr *p = at(ctx, view, ops->platform_key);
        int64_t v;
        if (!p || dlti_attr_get_int64(p, &v, NULL) != 0 || v < 0 || v > INT32_MAX)
            return false;
        t->platform = (int)v;
    }
    const dlti_attr *ord = at(ctx, view, ops->index_key);
    int64_t v;
    if (!ord || dlti_attr_get_int64(ord, &v, NULL) != 0 || v < 0 || v > INT32_MAX)
        return false;
    t->ordinal = (int)v;
    return str(ctx, view, ops->name_key, t->name, sizeof(t->name));
}

/* Runs one job in its child and attaches the answer; the new spec. */
static const dlti_attr *run_job(state *st, const dlti_attr *spec, job *j, dlti_error_t *err)
{
    unsigned timeout = st->opts->device_timeout_ms ? st->opts->device_timeout_ms
                                                   : bounds[st->opts->mode].timeout_ms;
    char *text = NULL, why[1][PB_RT_WHY];
    void *arg = &j->t;
    st->label = j->label;
    progress(st, "starting", 0);
    if (pb_child_run(md_measure_child, &arg, 1, timeout, "its measurement", child_progress, st,
                     &text, why) != 0) {
        bs_nomem(err);
        return NULL;
    }
    st->unit++;
    char line[PB_RT_WHY + 128];
    const dlti_attr *measured = NULL;
    if (text) {
        dlti_error_t perr;
        const dlti_attr *a = dlti_attr_parse(st->ctx, text, strlen(text), "measurement", &perr);
        const dlti_attr *m = a && dlti_attr_get_kind(a) == DLTI_ATTR_MAP
                                 ? dlti_attr_lookup_string(a, "measured", 8)
                                 : NULL;
        char error[PB_RT_WHY];
        if (m && dlti_attr_get_kind(m) == DLTI_ATTR_MAP && dlti_attr_size(a) == 1) {
            measured = m;
        } else if (a && str(st->ctx, a, "error", error, sizeof(error))) {
            snprintf(why[0], PB_RT_WHY, "%s", error);
        } else {
            snprintf(why[0], PB_RT_WHY, "its answer could not be read back: %.200s",
                     a ? "not a measurement" : perr.text);
        }
        free(text);
    }
    if (measured) {
        char driver[160];
        if (!str(st->ctx, measured, "driver", driver, sizeof(driver)))
            snprintf(driver, sizeof(driver), "driver unknown");
        snprintf(line, sizeof(line), "sysdesc measure through %s: %s", j->t.runtime, driver);
        spec = set_at(st, spec, j->device, j->where, measured, err);
    } else {
        st->failed++;
        snprintf(line, sizeof(line), "not measured through %s: %s", j->t.runtime, why[0]);
    }
    return spec ? set_source(st, spec, j->device, j->where, line, err) : NULL;
}

/* The CPU itself, then each of its runtime views sysdesc measures through. */
static const dlti_attr *measure_cpu(state *st, const dlti_attr *spec, const char *id,
                                    dlti_error_t *err)
{
    const dlti_attr *cpu = device(spec, id);
    sysdesc_measure_options o = *st->opts;
    o.progress = st->opts->progress ? host_progress : NULL;
    o.progress_user = st;
    st->label = id;
    const dlti_attr *m = sysdesc_measure_host(st->ctx, cpu, &o, err);
    st->unit++;
    if (!m || !(spec = set_at(st, spec, id, "measured", m, err)))
        return NULL;
    const dlti_attr *views = at(st->ctx, device(spec, id), "runtimes");
    for (size_t i = 0; views && dlti_attr_get_kind(views) == DLTI_ATTR_MAP &&
                       i < dlti_attr_size(views);
         i++) {
        size_t len;
        const char *rt = dlti_key_str(dlti_attr_entry_key(views, i), &len);
        const pb_rt_source *src = measurable(rt, len);
        if (!src || !src->measure->host_cpu)
            continue;
        job j = {0};
        j.t.runtime = src->name;
        snprintf(j.device, sizeof(j.device), "%s", id);
        snprintf(j.t.id, sizeof(j.t.id), "%s", id);
        snprintf(j.where, sizeof(j.where), "measured.runtimes.%s", j.t.runtime);
        snprintf(j.label, sizeof(j.label), "%s (%s)", id, j.t.runtime);
        if (!locate(st, dlti_attr_entry_value(views, i), src->measure, &j.t)) {
            st->unit++;
            if (!(spec = set_source(st, spec, id, j.where,
                                    "not measured: the runtime's view lacks the device's "
                                    "index or name",
                                    err)))
                return NULL;
            continue;
        }
        plan(st, device(spec, id), true, &j);
        if (!(spec = run_job(st, spec, &j, err)))
            return NULL;
    }
    return spec;
}

/* A GPU: through the first of its runtimes, by priority, that sysdesc
 * measures through. */
static const dlti_attr *measure_gpu(state *st, const dlti_attr *spec, const char *id,
                                    dlti_error_t *err)
{
    const dlti_attr *dev = device(spec, id);
    const dlti_attr *views = at(st->ctx, dev, "runtimes");
    const pb_rt_source *best = NULL, *passed = NULL;
    size_t best_i = 0;
    for (size_t i = 0; views && dlti_attr_get_kind(views) == DLTI_ATTR_MAP &&
                       i < dlti_attr_size(views);
         i++) {
        size_t len;
        const char *rt = dlti_key_str(dlti_attr_entry_key(views, i), &len);
        const pb_rt_source *src = rt ? pb_rt_find(rt, len) : NULL;
        if (!src)
            continue;
        if (src->measure) {
            if (!best || src->priority < best->priority) {
                best = src;
                best_i = i;
            }
        } else if (!passed || src->priority < passed->priority) {
            passed = src;
        }
    }
    if (!best) {
        st->unit++;
        char line[256];
        snprintf(line, sizeof(line),
                 "not measured: no runtime sysdesc measures through (CUDA, OpenCL, Vulkan) sees "
                 "this device%s%s%s",
                 passed ? "; " : "", passed ? passed->name : "",
                 passed ? " does, and sysdesc does not measure through it yet" : "");
        return set_source(st, spec, id, "measured", line, err);
    }
    job j = {0};
    const char *rt = best->name;
    j.t.runtime = rt;
    snprintf(j.device, sizeof(j.device), "%s", id);
    snprintf(j.t.id, sizeof(j.t.id), "%s", id);
    snprintf(j.where, sizeof(j.where), "measured");
    snprintf(j.label, sizeof(j.label), "%s (%s)", id, rt);
    if (!locate(st, dlti_attr_entry_value(views, best_i), best->measure, &j.t)) {
        st->unit++;
        return set_source(st, spec, id, "measured",
                          "not measured: the runtime's view lacks the device's index or name",
                          err);
    }
    plan(st, dev, false, &j);
    return run_job(st, spec, &j, err);
}

static bool is_type(dlti_context *ctx, const dlti_attr *dev, const char *type)
{
    char t[8];
    return dev && dlti_attr_get_kind(dev) == DLTI_ATTR_DEVICE_SPEC &&
           str(ctx, dev, "device_type", t, sizeof(t)) && strcmp(t, type) == 0;
}

/* Measurements a device makes (progress units). */
static int units_of(state *st, const dlti_attr *dev)
{
    if (!is_type(st->ctx, dev, "CPU"))
        return 1;
    int n = 1;
    const dlti_attr *views = at(st->ctx, dev, "runtimes");
    for (size_t i = 0; views && dlti_attr_get_kind(views) == DLTI_ATTR_MAP &&
                       i < dlti_attr_size(views);
         i++) {
        size_t len;
        const char *rt = dlti_key_str(dlti_attr_entry_key(views, i), &len);
        const pb_rt_source *src = measurable(rt, len);
        n += src && src->measure->host_cpu;
    }
    return n;
}

const dlti_attr *sysdesc_measure_devices(dlti_context *ctx, const dlti_attr *system_spec,
                                         const char *const *device_ids, size_t n,
                                         const sysdesc_measure_options *opts, size_t *failed,
                                         dlti_error_t *err)
{
    sysdesc_measure_options defaults;
    sysdesc_measure_options_init(&defaults);
    if (!opts)
        opts = &defaults;
    if (failed)
        *failed = 0;
    if (!ctx || !system_spec || dlti_attr_get_kind(system_spec) != DLTI_ATTR_SYSTEM_SPEC ||
        (n && !device_ids) || opts->mode > SYSDESC_MEASURE_FULL) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "measure: needs a context, a #dlti.target_system_spec and a valid mode");
        return NULL;
    }
    /* The ids: "all", or each one the spec's device. */
    bool all = n == 1 && device_ids[0] && strcmp(device_ids[0], "all") == 0;
    size_t count = all ? dlti_attr_size(system_spec) : n;
    const char **ids = calloc(count ? count : 1, sizeof(*ids));
    if (!ids) {
        bs_nomem(err);
        return NULL;
    }
    state st = {.ctx = ctx, .opts = opts, .spec = system_spec};
    size_t nids = 0;
    for (size_t i = 0; i < count; i++) {
        const char *id = all ? dlti_key_str(dlti_attr_entry_key(system_spec, i), NULL)
                             : device_ids[i];
        const dlti_attr *dev = id ? device(system_spec, id) : NULL;
        bool known = is_type(ctx, dev, "CPU") || is_type(ctx, dev, "GPU");
        if (!known && all)
            continue;
        if (!known) {
            bs_error_set(err, DLTI_ERROR_ARGUMENT,
                         "measure: the system has no CPU or GPU device \"%s\"", id ? id : "");
            free(ids);
            return NULL;
        }
        ids[nids++] = id;
        st.nunits += units_of(&st, dev);
    }
    const dlti_attr *spec = system_spec;
    for (size_t i = 0; spec && i < nids; i++)
        spec = is_type(ctx, device(spec, ids[i]), "CPU") ? measure_cpu(&st, spec, ids[i], err)
                                                          : measure_gpu(&st, spec, ids[i], err);
    free(ids);
    if (spec && opts->progress)
        opts->progress(opts->progress_user, "done", 1.0);
    if (failed)
        *failed = st.failed;
    return spec;
}
