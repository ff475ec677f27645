/* sysdesc_measure_host: the plan (working sets from the probed caches, the
 * allowed CPUs, the steps), the runs, and the `measured` map
 * (docs/measure.md says what each value is and how it is measured). */
#define _GNU_SOURCE
#include "measure_private.h"
#include "probe_private.h"
#include "sysdesc/version.h"

#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LEVELS 5 /* L1..L4 and memory */
#define MIB ((size_t)1 << 20)
#define MAX_CPUS 4096

typedef struct level {
    char name[8];              /* "L1" ... "memory" */
    size_t ws_all, ws_one;     /* working set per thread: all threads, one thread */
    double read_all, triad_all, read_one, triad_one, latency_ns;
    char bounded[240];         /* what the run bound changed, or "" (the `bounded` key) */
} level;

/* A level the plan leaves out, and why (the `skipped` map). */
typedef struct skip {
    char name[8];
    char why[320];
} skip;

typedef struct plan {
    const sysdesc_measure_options *opts;
    const mk_kernels *k;
    int cpus[MAX_CPUS];
    int ncpu;
    double sample_s;
    int samples;
    size_t ws_cap;    /* the most one run's working set may take, per thread */
    double budget_s;  /* the most one run's samples may take */
    int step, nsteps;
    level lv[MAX_LEVELS];
    int nlv;
    skip sk[MAX_LEVELS];
    int nsk;
} plan;

static const char *mode_name(sysdesc_measure_mode m)
{
    return m == SYSDESC_MEASURE_QUICK ? "quick" : m == SYSDESC_MEASURE_FULL ? "full" : "default";
}

void sysdesc_measure_options_init(sysdesc_measure_options *opts)
{
    memset(opts, 0, sizeof(*opts));
}

/* The value at `path` under `a`, or NULL. */
static const dlti_attr *at(dlti_context *ctx, const dlti_attr *a, const char *const *path, size_t n)
{
    for (size_t i = 0; a && i < n; i++)
        a = dlti_attr_lookup(a, dlti_key_string(ctx, path[i], strlen(path[i])));
    return a;
}

static int64_t get_i64(dlti_context *ctx, const dlti_attr *a, const char *const *path, size_t n)
{
    a = at(ctx, a, path, n);
    int64_t v;
    if (!a || dlti_attr_get_int64(a, &v, NULL) != 0 || v <= 0)
        return -1;
    return v;
}

static int64_t cache_i64(dlti_context *ctx, const dlti_attr *dev, const char *lvl, const char *key)
{
    const char *path[] = {"cache", lvl, key};
    return get_i64(ctx, dev, path, 3);
}

bool mk_break_triad(const char *runtime)
{
    const char *v = getenv("SYSDESC_MEASURE_BREAK_TRIAD");
    bool named = v && (strcmp(v, "opencl") == 0 || strcmp(v, "vulkan") == 0 ||
                       strcmp(v, "cuda") == 0);
    return v && (named ? runtime && strcmp(v, runtime) == 0 : true);
}

bool mk_suspect(dlti_context *ctx, const dlti_attr *dev, const char *path)
{
    const dlti_attr *s = dlti_attr_lookup(dev, dlti_key_string(ctx, "suspect", 7));
    size_t n = s && dlti_attr_get_kind(s) == DLTI_ATTR_ARRAY ? dlti_attr_size(s) : 0;
    for (size_t i = 0; i < n; i++) {
        const char *t;
        size_t len;
        if (dlti_attr_get_string(dlti_attr_element(s, i), &t, &len, NULL) == 0 &&
            len == strlen(path) && memcmp(t, path, len) == 0)
            return true;
    }
    return false;
}

static void add_skip(plan *p, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_skip(plan *p, const char *name, const char *fmt, ...)
{
    skip *s = &p->sk[p->nsk++];
    snprintf(s->name, sizeof(s->name), "%s", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof(s->why), fmt, ap);
    va_end(ap);
}

/* Caps a level's working sets at the run bound; says so when it does. */
static void cap_level(plan *p, level *l)
{
    size_t want = l->ws_one > l->ws_all ? l->ws_one : l->ws_all;
    if (want <= p->ws_cap)
        return;
    if (l->ws_one > p->ws_cap)
        l->ws_one = p->ws_cap;
    if (l->ws_all > p->ws_cap)
        l->ws_all = p->ws_cap;
    snprintf(l->bounded, sizeof(l->bounded),
             "working sets capped at the %s bound of %zu bytes a thread (the plan wanted %zu)",
             mode_name(p->opts->mode), p->ws_cap, want);
}

/* Working sets.  Level k's run holds half-way between what level k-1 and
 * level k hold for one thread (an L3 shared by T of our threads holds
 * size/T for each), so it misses k-1 and hits k.  Memory's is 4x the
 * largest cache one thread reaches (one instance; for the all-thread run
 * its share of one), at least 64 MiB in all, at most a quarter of the
 * memory this process may use.  Every run's working set is at most
 * p->ws_cap a thread (docs/measure.md, "Bounds"): a level above it is
 * measured at the cap, a size the probe marked suspect is not measured,
 * and memory is left out where the cap cannot exceed the caches. */
static int plan_levels(plan *p, dlti_context *ctx, const dlti_attr *dev, dlti_error_t *err)
{
    static const char *const names[] = {"L1", "L2", "L3", "L4"};
    size_t below_all = 0, below_one = 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        int64_t size = cache_i64(ctx, dev, names[i], "size_in_bytes");
        if (size <= 0)
            continue;
        char path[40];
        snprintf(path, sizeof(path), "cache.%s.size_in_bytes", names[i]);
        if (mk_suspect(ctx, dev, path)) {
            add_skip(p, names[i],
                     "its size (%" PRId64 " bytes) is marked suspect by the probe: not "
                     "measured, and memory's working set is sized without it; give the real "
                     "size with --set CPU.%s=BYTES",
                     size, path);
            continue;
        }
        int64_t inst = cache_i64(ctx, dev, names[i], "num_instances");
        if (inst <= 0)
            inst = 1;
        int64_t share = (p->ncpu + inst - 1) / inst; /* our threads on one instance */
        if (share < 1)
            share = 1;
        size_t cap_all = (size_t)(size / share), cap_one = (size_t)size;
        if (cap_all <= below_all || cap_one <= below_one)
            continue; /* not larger than the level below for a thread: nothing to see */
        if (below_one >= p->ws_cap) {
            add_skip(p, names[i],
                     "a working set between %zu and %zu bytes is above the %s bound of %zu "
                     "bytes a run",
                     below_one, cap_one, mode_name(p->opts->mode), p->ws_cap);
            continue;
        }
        level *l = &p->lv[p->nlv++];
        snprintf(l->name, sizeof(l->name), "%s", names[i]);
        l->ws_all = below_all + (cap_all - below_all) / 2;
        l->ws_one = below_one + (cap_one - below_one) / 2;
        cap_level(p, l);
        below_all = cap_all;
        below_one = cap_one;
    }
    if (p->nlv == 0) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                       "measure: the CPU device has no cache size to measure "
                       "(cache.L1.size_in_bytes ...)%s%s",
                       p->nsk ? ": " : "", p->nsk ? p->sk[0].why : "");
        return -1;
    }
    size_t one = 4 * below_one, all = 4 * below_all;
    if (one < 64 * MIB)
        one = 64 * MIB;
    if (all * (size_t)p->ncpu < 64 * MIB)
        all = 64 * MIB / (size_t)p->ncpu;
    /* The smallest figure of the memory there is: what the process may use
     * (total_in_bytes, already bounded by the cgroup), the cgroup limit of a
     * spec written before that bound, and the NUMA nodes' sum, which on a VM
     * can lag MemTotal (docs/keys.md, "memory"). */
    const char *total_path[] = {"memory", "total_in_bytes"};
    const char *limit_path[] = {"memory", "cgroup_limit_in_bytes"};
    const char *numa_path[] = {"memory", "numa_total_in_bytes"};
    int64_t total = get_i64(ctx, dev, total_path, 2), limit = get_i64(ctx, dev, limit_path, 2);
    int64_t numa = get_i64(ctx, dev, numa_path, 2);
    if (limit > 0 && (total <= 0 || limit < total))
        total = limit;
    if (numa > 0 && (total <= 0 || numa < total))
        total = numa;
    size_t quarter = total > 0 ? (size_t)total / 4 : SIZE_MAX;
    if (one > quarter)
        one = quarter;
    if (all > quarter / (size_t)p->ncpu)
        all = quarter / (size_t)p->ncpu;
    level *l = &p->lv[p->nlv];
    memset(l, 0, sizeof(*l));
    snprintf(l->name, sizeof(l->name), "memory");
    const char *mode = mode_name(p->opts->mode);
    /* Twice the caches at least: a stream through twice what an LRU cache
     * holds finds none of its lines there. */
    if (all > p->ws_cap)
        all = p->ws_cap;
    if (all < 2 * below_all || (p->ncpu == 1 && one > p->ws_cap && p->ws_cap < 2 * below_one)) {
        add_skip(p, "memory",
                 "a working set beyond the caches (%zu bytes a thread) is above the %s bound "
                 "of %zu bytes a run, or above a quarter of the memory%s",
                 2 * (p->ncpu == 1 ? below_one : below_all), mode, p->ws_cap,
                 p->opts->mode == SYSDESC_MEASURE_QUICK ? "; measure without --quick" : "");
        return 0;
    }
    l->ws_all = all;
    if (one <= p->ws_cap) {
        l->ws_one = one;
    } else if (p->ws_cap >= 2 * below_one) {
        l->ws_one = p->ws_cap;
        snprintf(l->bounded, sizeof(l->bounded),
                 "the single-thread working set capped at the %s bound of %zu bytes (the plan "
                 "wanted %zu)",
                 mode, p->ws_cap, one);
    } else {
        /* One thread reaches a cache larger than half the bound (one large
         * shared last level): its runs are left out, the all-thread ones
         * (each thread's share) still fit. */
        snprintf(l->bounded, sizeof(l->bounded),
                 "the single-thread runs left out: beyond the caches one thread reaches (%zu "
                 "bytes) is above the %s bound of %zu bytes a run",
                 2 * below_one, mode, p->ws_cap);
    }
    p->nlv++;
    return 0;
}

static int plan_cpus(plan *p, dlti_error_t *err)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        dlti_error_set(err, DLTI_ERROR_IO, "measure: sched_getaffinity failed");
        return -1;
    }
    unsigned max = p->opts->max_threads;
    for (int c = 0; c < CPU_SETSIZE && p->ncpu < MAX_CPUS; c++)
        if (CPU_ISSET(c, &set) && (max == 0 || (unsigned)p->ncpu < max))
            p->cpus[p->ncpu++] = c;
    if (p->ncpu == 0) {
        dlti_error_set(err, DLTI_ERROR_IO, "measure: no CPU is allowed");
        return -1;
    }
    return 0;
}

static void progress(plan *p, const char *what, const char *name, int threads)
{
    if (!p->opts->progress)
        return;
    char line[96];
    snprintf(line, sizeof(line), "%s %s, %d thread%s", name, what, threads,
             threads == 1 ? "" : "s");
    p->opts->progress(p->opts->progress_user, line, (double)p->step / p->nsteps);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One run; the rate (best sample), or -1 with err. */
static double run(plan *p, mk_kind kind, size_t bytes, int threads, const char *what,
                  const char *name, dlti_error_t *err)
{
    progress(p, what, name, threads);
    mk_run r = {.kind = kind, .k = p->k, .bytes = bytes, .nthreads = threads, .cpus = p->cpus,
                .sample_s = p->sample_s, .samples = p->samples, .budget_s = p->budget_s,
                .break_triad = kind == MK_TRIAD && mk_break_triad(NULL)};
    p->step++;
    return mk_team_run(&r, err) == 0 ? r.best : -1;
}

static const dlti_attr *f64(dlti_context *ctx, double v)
{
    const dlti_type *t = dlti_type_f64(ctx);
    return t ? dlti_float_new(ctx, t, v, NULL) : NULL;
}

static void add_level(dlti_context *ctx, pb_map *levels, const level *l, bool multi,
                      dlti_error_t *err)
{
    pb_map m;
    pb_init(&m);
    if (l->ws_one)
        pb_i64(ctx, &m, "working_set_in_bytes", (int64_t)l->ws_one);
    if (multi)
        pb_i64(ctx, &m, "working_set_per_thread_in_bytes", (int64_t)l->ws_all);
    pb_i64(ctx, &m, "read_bandwidth_in_bytes_per_second", llround(l->read_all));
    pb_i64(ctx, &m, "triad_bandwidth_in_bytes_per_second", llround(l->triad_all));
    if (l->ws_one) {
        pb_i64(ctx, &m, "read_bandwidth_single_thread_in_bytes_per_second",
               llround(l->read_one));
        pb_i64(ctx, &m, "triad_bandwidth_single_thread_in_bytes_per_second",
               llround(l->triad_one));
        pb_add(ctx, &m, "latency_in_ns", f64(ctx, l->latency_ns));
    }
    if (l->bounded[0])
        pb_str(ctx, &m, "bounded", l->bounded);
    pb_add_map(ctx, levels, l->name, &m, err);
}

static void add_peaks(dlti_context *ctx, pb_map *out, const char *key, double f64v, double f32v,
                      dlti_error_t *err)
{
    pb_map m;
    pb_init(&m);
    pb_add(ctx, &m, "fp64_vector", f64(ctx, f64v));
    pb_add(ctx, &m, "fp32_vector", f64(ctx, f32v));
    pb_add_map(ctx, out, key, &m, err);
}


/* The probe's provenance of a topology it did not load from this machine
 * ("hwloc XML ...": --xml, a cluster's nodes, HWLOC_XMLFILE): its caches are
 * another machine's, and this machine's kernels would be sized by them. */
static const char *other_machine(dlti_context *ctx, const dlti_attr *dev)
{
    const char *path[] = {"source", "topology"};
    const dlti_attr *a = at(ctx, dev, path, 2);
    const char *s;
    size_t n;
    if (!a || dlti_attr_get_string(a, &s, &n, NULL) != 0 || n < 9 || memcmp(s, "hwloc XML", 9) != 0)
        return NULL;
    return s;
}

const dlti_attr *sysdesc_measure_host(dlti_context *ctx, const dlti_attr *cpu_device,
                                      const sysdesc_measure_options *opts, dlti_error_t *err)
{
    sysdesc_measure_options defaults;
    sysdesc_measure_options_init(&defaults);
    if (!opts)
        opts = &defaults;
    if (!ctx || !cpu_device || dlti_attr_get_kind(cpu_device) != DLTI_ATTR_DEVICE_SPEC ||
        opts->mode > SYSDESC_MEASURE_FULL) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                       "measure: needs a context, a CPU #dlti.target_device_spec and a valid mode");
        return NULL;
    }
    const char *other = other_machine(ctx, cpu_device);
    if (other) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                       "measure: the CPU device describes another machine (%.300s); measure "
                       "runs here, sized by this machine's caches: unset HWLOC_XMLFILE, or set "
                       "HWLOC_THISSYSTEM=1 if the file is this machine's own topology",
                       other);
        return NULL;
    }
    plan *p = calloc(1, sizeof(*p));
    if (!p) {
        dlti_error_set(err, DLTI_ERROR_NOMEM, "measure: out of memory");
        return NULL;
    }
    p->opts = opts;
    p->k = mk_select();
    /* Samples: STREAM's convention, the best of several, each long enough
     * for the clock's resolution; the median of a noisy host is lower. */
    /* Short samples and many: on a shared host the best sample is one that
     * no other process interrupted, and a sample shorter than a scheduler
     * time slice has a fair chance of being one.  So --full takes more
     * samples, not longer ones (5 ms samples did worse on a loaded host). */
    static const double sample_s[] = {0.002, 0.001, 0.002};
    static const int samples[] = {15, 5, 101};
    /* The bounds (docs/measure.md, "Bounds"): what one run may allocate a
     * thread and how long its samples may take, so that a measurement's
     * time does not follow the sizes the probe reports. */
    static const size_t ws_cap[] = {256 * MIB, 64 * MIB, 1024 * MIB};
    static const double budget_s[] = {0.1, 0.03, 1.0};
    p->sample_s = sample_s[opts->mode];
    p->samples = samples[opts->mode];
    p->ws_cap = ws_cap[opts->mode];
    p->budget_s = budget_s[opts->mode];
    const dlti_attr *result = NULL;
    double t_start = now_s();
    if (plan_cpus(p, err) != 0 || plan_levels(p, ctx, cpu_device, err) != 0)
        goto done;
    const int all = p->ncpu;
    const bool multi = all > 1;
    p->nsteps = p->nlv * (multi ? 5 : 3) + (multi ? 4 : 2) + 1;

    for (int i = 0; i < p->nlv; i++) {
        level *l = &p->lv[i];
        if (l->ws_one) {
            if ((l->read_one = run(p, MK_READ, l->ws_one, 1, "read", l->name, err)) < 0 ||
                (l->triad_one = run(p, MK_TRIAD, l->ws_one, 1, "triad", l->name, err)) < 0)
                goto done;
            double loads = run(p, MK_CHASE, l->ws_one, 1, "latency", l->name, err);
            if (loads <= 0)
                goto done;
            l->latency_ns = 1e9 / loads;
        } else {
            p->step += 3;
        }
        if (multi) {
            if ((l->read_all = run(p, MK_READ, l->ws_all, all, "read", l->name, err)) < 0 ||
                (l->triad_all = run(p, MK_TRIAD, l->ws_all, all, "triad", l->name, err)) < 0)
                goto done;
        } else {
            l->read_all = l->read_one;
            l->triad_all = l->triad_one;
        }
    }
    progress(p, "clock", "core", 1);
    double mhz = mk_clock_mhz(p->sample_s, p->samples * 3);
    p->step++;
    double f64_one, f32_one, f64_all, f32_all;
    if ((f64_one = run(p, MK_FMA_F64, 0, 1, "FMA f64", "peak", err)) < 0 ||
        (f32_one = run(p, MK_FMA_F32, 0, 1, "FMA f32", "peak", err)) < 0)
        goto done;
    f64_all = f64_one;
    f32_all = f32_one;
    if (multi && ((f64_all = run(p, MK_FMA_F64, 0, all, "FMA f64", "peak", err)) < 0 ||
                  (f32_all = run(p, MK_FMA_F32, 0, all, "FMA f32", "peak", err)) < 0))
        goto done;
    if (opts->progress)
        opts->progress(opts->progress_user, "done", 1.0);

    /* The map, provenance first. */
    char method[800], date[32], version[32];
    dlti_snprintf(method, sizeof(method),
             "sysdesc measure (%s): best of %d samples of ~%g ms (at least 3, fewer where "
             "they would take over %g ms; working sets at most %zu MiB a thread); bandwidth = bytes the kernel "
             "loads and stores (read: 8, triad a=b+s*c: 24 a element, STREAM's count, no "
             "write-allocate) over the first thread's start to the last thread's end; latency: "
             "randomised pointer chase, one load per 64-byte line; peak: %d independent %s FMA "
             "chains a thread; clock: a chain of dependent integer adds; every result verified",
             mode_name(opts->mode), p->samples, p->sample_s * 1e3, p->budget_s * 1e3,
             p->ws_cap / MIB, MK_FMA_ACC, p->k->isa);
    time_t now = time(NULL);
    struct tm tmv;
    if (!gmtime_r(&now, &tmv) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tmv))
        snprintf(date, sizeof(date), "unknown");
    snprintf(version, sizeof(version), "%s", SYSDESC_VERSION_STRING);
    int64_t cpus[MAX_CPUS];
    for (int i = 0; i < all; i++)
        cpus[i] = p->cpus[i];

    pb_map m, levels;
    pb_init(&m);
    pb_init(&levels);
    pb_str(ctx, &m, "method", method);
    pb_str(ctx, &m, "date", date);
    pb_str(ctx, &m, "sysdesc_version", version);
    pb_str(ctx, &m, "mode", mode_name(opts->mode));
    pb_str(ctx, &m, "kernel_isa", p->k->isa);
    pb_i64(ctx, &m, "vector_width_in_bits", p->k->vector_bits);
    pb_i64(ctx, &m, "num_threads", all);
    pb_add(ctx, &m, "cpus", pb_i64_array(ctx, cpus, (size_t)all));
    if (mhz > 0)
        pb_i64(ctx, &m, "frequency_mhz", llround(mhz));
    add_peaks(ctx, &m, "peak_ops_per_second", f64_all, f32_all, err);
    add_peaks(ctx, &m, "peak_ops_per_second_single_thread", f64_one, f32_one, err);
    if (strcmp(p->lv[p->nlv - 1].name, "memory") == 0)
        pb_i64(ctx, &m, "memory_bandwidth_in_bytes_per_second",
               llround(p->lv[p->nlv - 1].triad_all));
    for (int i = 0; i < p->nlv; i++)
        add_level(ctx, &levels, &p->lv[i], multi, err);
    pb_add_map(ctx, &m, "levels", &levels, err);
    if (p->nsk) {
        pb_map sk;
        pb_init(&sk);
        for (int i = 0; i < p->nsk; i++)
            pb_str(ctx, &sk, p->sk[i].name, p->sk[i].why);
        pb_add_map(ctx, &m, "skipped", &sk, err);
    }
    pb_add(ctx, &m, "duration_in_seconds", f64(ctx, now_s() - t_start));
    result = pb_finish(ctx, &m, DLTI_ATTR_MAP, err);
done:
    free(p);
    return result;
}

const dlti_attr *sysdesc_measure_attach(dlti_context *ctx, const dlti_attr *system_spec,
                                        const char *device_id, const dlti_attr *measured,
                                        dlti_error_t *err)
{
    if (!ctx || !system_spec || !device_id || !measured ||
        dlti_attr_get_kind(system_spec) != DLTI_ATTR_SYSTEM_SPEC) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT, "measure: needs a system spec, a device id and "
                                                 "a measured map");
        return NULL;
    }
    dlti_key id = dlti_key_string(ctx, device_id, strlen(device_id));
    dlti_key mk = dlti_key_string(ctx, "measured", 8);
    if (!id || !mk) {
        dlti_nomem(err);
        return NULL;
    }
    const dlti_attr *dev = dlti_attr_lookup(system_spec, id);
    if (!dev || dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT, "measure: the system has no device \"%s\"",
                       device_id);
        return NULL;
    }
    dev = dlti_container_set(ctx, dev, mk, measured, err);
    return dev ? dlti_container_set(ctx, system_spec, id, dev, err) : NULL;
}
