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
    mk_stat read_all, triad_all, read_one, triad_one, latency_ns;
    char bounded[320];         /* what the run bound changed, or "" (the `bounded` key) */
    /* A cache level: its probed size (one instance, what one thread
     * reaches), our threads on one instance, and its effective capacity
     * from the latency sweep. */
    size_t size;
    int64_t share;
    bool cache, has_capacity, below_reported, unmeasured;
    mk_capacity capacity;
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
    size_t quarter;   /* a quarter of the memory this process may use */
    double sweep_sample_s;
    int sweep_samples, sweep_passes;
    mk_sweep sweep;
    int step, nsteps;
    int fewest;       /* the fewest samples any value is taken over */
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
    const pb_rt_source *src = v ? pb_rt_find(v, strlen(v)) : NULL;
    bool named = src && src->measure;
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
    bs_vsnprintf(s->why, sizeof(s->why), fmt, ap);
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
        l->cache = true;
        l->size = cap_one;
        l->share = share;
        l->ws_all = below_all + (cap_all - below_all) / 2;
        l->ws_one = below_one + (cap_one - below_one) / 2;
        cap_level(p, l);
        below_all = cap_all;
        below_one = cap_one;
    }
    if (p->nlv == 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
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
    p->quarter = quarter;
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
        bs_error_set(err, DLTI_ERROR_IO, "measure: sched_getaffinity failed");
        return -1;
    }
    unsigned max = p->opts->max_threads;
    for (int c = 0; c < CPU_SETSIZE && p->ncpu < MAX_CPUS; c++)
        if (CPU_ISSET(c, &set) && (max == 0 || (unsigned)p->ncpu < max))
            p->cpus[p->ncpu++] = c;
    if (p->ncpu == 0) {
        bs_error_set(err, DLTI_ERROR_IO, "measure: no CPU is allowed");
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

/* One run: its median, best and spread into *out (a chase's as ns a
 * load, the rest as rates); 0, or -1 with err. */
static int run(plan *p, mk_kind kind, size_t bytes, int threads, const char *what,
               const char *name, mk_stat *out, dlti_error_t *err)
{
    progress(p, what, name, threads);
    mk_run r = {.kind = kind, .k = p->k, .bytes = bytes, .nthreads = threads, .cpus = p->cpus,
                .sample_s = p->sample_s, .samples = p->samples, .budget_s = p->budget_s,
                .break_triad = kind == MK_TRIAD && mk_break_triad(NULL)};
    p->step++;
    if (mk_team_run(&r, err) != 0)
        return -1;
    if (!(r.worst > 0)) {
        bs_error_set(err, DLTI_ERROR_IO, "measure: %s %s: the clock did not advance in a sample",
                     name, what);
        return -1;
    }
    if (kind == MK_CHASE) {
        out->median = 1e9 / r.median;
        out->best = 1e9 / r.best;
        out->spread = (1e9 / r.worst - out->best) / out->median;
    } else {
        out->median = r.median;
        out->best = r.best;
        out->spread = (r.best - r.worst) / r.median;
    }
    out->samples = r.samples_run;
    if (p->fewest == 0 || r.samples_run < p->fewest)
        p->fewest = r.samples_run;
    return 0;
}

/* Appends a sentence to a level's `bounded` note. */
static void note(level *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(level *l, const char *fmt, ...)
{
    size_t used = strlen(l->bounded);
    if (used && used + 2 < sizeof(l->bounded)) {
        memcpy(l->bounded + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(l->bounded + used, sizeof(l->bounded) - used, fmt, ap);
    va_end(ap);
}

/* A working set half-way between what the level below holds and what this
 * one does (`cap`), but never below what the kernels hold where `cap`
 * holds that much: half of a first level's capacity can fall below it when
 * the sweep finds the step early (a small L1, or a noisy run), and any size
 * up to the capacity is still this level's.  leave_out_small skips what
 * cannot hold it. */
static size_t halfway(size_t below, size_t cap)
{
    size_t ws = below + (cap - below) / 2;
    return ws < MK_MIN_READ_BYTES && cap >= MK_MIN_READ_BYTES && below < MK_MIN_READ_BYTES
               ? MK_MIN_READ_BYTES
               : ws;
}

/* Effective capacities (docs/measure.md, "Effective capacity"): a latency
 * sweep on one thread from well inside L1 to twice the largest cache one
 * thread reaches (within the mode's bound and a quarter of the memory),
 * each cache level's capacity read off it (measure_steps.c), and the
 * levels' working sets planned again inside what they deliver: level k's
 * half-way between level k-1's effective capacity and its own (never above
 * its probed size).  A level that delivers nothing beyond the level below
 * is not measured, and `skipped` says why.  Memory's working set stays
 * sized by the probed sizes: beyond them, it is beyond every cache. */
static int plan_capacities(plan *p, dlti_error_t *err)
{
    size_t reported[MAX_LEVELS], n = 0;
    level *caches[MAX_LEVELS];
    for (int i = 0; i < p->nlv; i++)
        if (p->lv[i].cache) {
            caches[n] = &p->lv[i];
            reported[n++] = p->lv[i].size;
        }
    if (n == 0)
        return 0;
    size_t from = reported[0] / 4 < 4096 ? reported[0] / 4 : 4096;
    size_t to = 2 * reported[n - 1];
    if (to > p->ws_cap)
        to = p->ws_cap;
    if (to > p->quarter)
        to = p->quarter;
    if (from < 128)
        from = 128;
    if (to < from)
        to = from;
    progress(p, "latency sweep", "caches", 1);
    if (mk_sweep_run(&p->sweep, from, to, p->cpus[0], p->sweep_sample_s, p->sweep_samples,
                     p->sweep_passes, err) != 0)
        return -1;
    p->step++;
    mk_capacity cap[MAX_LEVELS];
    mk_find_capacities(&p->sweep, reported, n, cap);
    size_t below_one = 0, below_all = 0;
    const char *below = "nothing";
    for (size_t k = 0; k < n; k++) {
        level *l = caches[k];
        l->capacity = cap[k];
        l->has_capacity = true;
        l->below_reported = cap[k].below_reported;
        size_t c = cap[k].bytes < l->size ? cap[k].bytes : l->size;
        if (cap[k].none || c <= below_one) {
            l->unmeasured = true;
            if (cap[k].none)
                add_skip(p, l->name,
                         "its own latency (%.3g ns, the latency sweep) is within %.1fx of "
                         "memory's (%.3g ns): it keeps nothing beyond %s for this process "
                         "(effective capacity %zu of %zu bytes)",
                         cap[k].hit_ns, MK_NOT_A_LEVEL, p->sweep.ns[p->sweep.n - 1], below,
                         below_one, l->size);
            else
                add_skip(p, l->name,
                         "its effective capacity (%zu bytes, the latency sweep) is no larger "
                         "than %s's: nothing of its own to measure",
                         cap[k].bytes, below);
            continue;
        }
        l->bounded[0] = '\0';
        l->ws_one = halfway(below_one, c);
        size_t c_all = c / (size_t)l->share;
        if (c_all > below_all) {
            l->ws_all = halfway(below_all, c_all);
        } else {
            l->ws_all = l->ws_one / (size_t)l->share;
            note(l,
                 "the all-thread working set is each thread's share of the single-thread one: "
                 "the effective capacity shared by %lld threads leaves none above %s's",
                 (long long)l->share, below);
        }
        if (cap[k].open && c < l->size)
            note(l,
                 "the latency sweep ended at %zu bytes (the %s bound, or a quarter of the "
                 "memory) before a step: the effective capacity is at least that, the working "
                 "sets sit below it",
                 c, mode_name(p->opts->mode));
        below_one = c;
        if (c_all > below_all)
            below_all = c_all;
        below = l->name;
    }
    return 0;
}

/* A cache level whose working set, a thread's, is below what the kernels
 * hold (MK_MIN_READ_BYTES, the read kernel's: the largest least) would be
 * measured as a larger one, or not at all: the level is left out, and
 * `skipped` says why (a tiny size given with --set, or a level shared by
 * many threads).  Memory's working sets are megabytes. */
static void leave_out_small(plan *p, bool multi)
{
    for (int i = 0; i < p->nlv; i++) {
        level *l = &p->lv[i];
        if (!l->cache || l->unmeasured)
            continue;
        bool one = l->ws_one && l->ws_one < MK_MIN_READ_BYTES;
        if (!one && !(multi && l->ws_all < MK_MIN_READ_BYTES))
            continue;
        l->unmeasured = true;
        add_skip(p, l->name,
                 "its %s working set (%zu bytes a thread, inside its size of %zu bytes) is "
                 "below the %zu bytes the kernels hold a thread (the read kernel's 1024 "
                 "doubles)",
                 one ? "single-thread" : "all-thread", one ? l->ws_one : l->ws_all, l->size,
                 MK_MIN_READ_BYTES);
    }
}

static const dlti_attr *f64(dlti_context *ctx, double v)
{
    const dlti_type *t = dlti_type_f64(ctx);
    return t ? dlti_float_new(ctx, t, v, NULL) : NULL;
}

/* The `measured` map and its three twins of the same shape (docs/measure.md,
 * "Samples"): the values (medians), `best`, `spread` and `samples`. */
typedef struct trees {
    pb_map v, best, spread, samples;
} trees;

static void trees_init(trees *t)
{
    pb_init(&t->v);
    pb_init(&t->best);
    pb_init(&t->spread);
    pb_init(&t->samples);
}

/* A value: its median into the values, its best, spread and count into the
 * twins; an integer (bytes/s, MHz) or an f64 (FLOP/s, ns). */
static void put_stat(dlti_context *ctx, trees *t, const char *key, const mk_stat *st,
                     bool integer)
{
    if (integer) {
        pb_i64(ctx, &t->v, key, llround(st->median));
        pb_i64(ctx, &t->best, key, llround(st->best));
    } else {
        pb_add(ctx, &t->v, key, f64(ctx, st->median));
        pb_add(ctx, &t->best, key, f64(ctx, st->best));
    }
    pb_add(ctx, &t->spread, key, f64(ctx, st->spread));
    pb_i64(ctx, &t->samples, key, st->samples);
}

/* `sub` under `key` in each tree (an empty one is left out); frees sub. */
static void trees_add_map(dlti_context *ctx, trees *t, const char *key, trees *sub,
                          dlti_error_t *err)
{
    pb_add_map(ctx, &t->v, key, &sub->v, err);
    pb_add_map(ctx, &t->best, key, &sub->best, err);
    pb_add_map(ctx, &t->spread, key, &sub->spread, err);
    pb_add_map(ctx, &t->samples, key, &sub->samples, err);
}

static void add_level(dlti_context *ctx, trees *levels, const level *l, bool multi,
                      dlti_error_t *err)
{
    trees m;
    trees_init(&m);
    if (!l->unmeasured) {
        if (l->ws_one)
            pb_i64(ctx, &m.v, "working_set_in_bytes", (int64_t)l->ws_one);
        if (multi)
            pb_i64(ctx, &m.v, "working_set_per_thread_in_bytes", (int64_t)l->ws_all);
        put_stat(ctx, &m, "read_bandwidth_in_bytes_per_second", &l->read_all, true);
        put_stat(ctx, &m, "triad_bandwidth_in_bytes_per_second", &l->triad_all, true);
        if (l->ws_one) {
            put_stat(ctx, &m, "read_bandwidth_single_thread_in_bytes_per_second", &l->read_one,
                     true);
            put_stat(ctx, &m, "triad_bandwidth_single_thread_in_bytes_per_second",
                     &l->triad_one, true);
            put_stat(ctx, &m, "latency_in_ns", &l->latency_ns, false);
        }
    }
    if (l->has_capacity) {
        pb_i64(ctx, &m.v, "effective_capacity_in_bytes", (int64_t)l->capacity.bytes);
        pb_bool(ctx, &m.v, "effective_capacity_below_reported", l->below_reported);
    }
    if (l->bounded[0])
        pb_str(ctx, &m.v, "bounded", l->bounded);
    trees_add_map(ctx, levels, l->name, &m, err);
}

static void add_peaks(dlti_context *ctx, trees *out, const char *key, const mk_stat *f64v,
                      const mk_stat *f32v, dlti_error_t *err)
{
    trees m;
    trees_init(&m);
    put_stat(ctx, &m, "fp64_vector", f64v, false);
    put_stat(ctx, &m, "fp32_vector", f32v, false);
    trees_add_map(ctx, out, key, &m, err);
}

/* The latency sweep's curve: working sets and their latencies (integer
 * picoseconds: the schema's arrays are of i64). */
static void add_sweep(dlti_context *ctx, pb_map *m, const mk_sweep *s, dlti_error_t *err)
{
    int64_t bytes[MK_SWEEP_MAX], ps[MK_SWEEP_MAX];
    for (size_t i = 0; i < s->n; i++) {
        bytes[i] = (int64_t)s->bytes[i];
        ps[i] = llround(s->ns[i] * 1e3);
    }
    pb_map sw;
    pb_init(&sw);
    pb_add(ctx, &sw, "working_sets_in_bytes", pb_i64_array(ctx, bytes, s->n));
    pb_add(ctx, &sw, "latencies_in_ps", pb_i64_array(ctx, ps, s->n));
    pb_add_map(ctx, m, "latency_sweep", &sw, err);
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
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "measure: needs a context, a CPU #dlti.target_device_spec and a valid mode");
        return NULL;
    }
    const char *other = other_machine(ctx, cpu_device);
    if (other) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "measure: the CPU device describes another machine (%.300s); measure "
                     "runs here, sized by this machine's caches: unset HWLOC_XMLFILE, or set "
                     "HWLOC_THISSYSTEM=1 if the file is this machine's own topology",
                     other);
        return NULL;
    }
    plan *p = calloc(1, sizeof(*p));
    if (!p) {
        bs_error_set(err, DLTI_ERROR_NOMEM, "measure: out of memory");
        return NULL;
    }
    p->opts = opts;
    p->k = mk_select();
    /* Samples: each value is the median of several (docs/measure.md,
     * "Samples"), with the best and the spread beside it: the best alone is
     * one lucky sample on a shared host, the median what a run typically
     * gets.  Short samples and many: a sample shorter than a scheduler time
     * slice has a fair chance of running undisturbed, which keeps the best
     * meaningful and the spread honest; --full takes more samples, not
     * longer ones (5 ms samples did worse on a loaded host). */
    static const double sample_s[] = {0.002, 0.001, 0.002};
    static const int samples[] = {15, 5, 101};
    /* The latency sweep's samples and passes (docs/measure.md, "Effective
     * capacity"): a latency needs fewer and shorter samples than a
     * bandwidth; passes, because a disturbance lasts longer than a sample. */
    static const double sweep_sample_s[] = {0.0002, 0.0001, 0.0003};
    static const int sweep_samples[] = {3, 3, 5};
    static const int sweep_passes[] = {3, 3, 5};
    /* The bounds (docs/measure.md, "Bounds"): what one run may allocate a
     * thread and how long its samples may take, so that a measurement's
     * time does not follow the sizes the probe reports. */
    static const size_t ws_cap[] = {256 * MIB, 64 * MIB, 1024 * MIB};
    static const double budget_s[] = {0.1, 0.03, 1.0};
    p->sample_s = sample_s[opts->mode];
    p->samples = samples[opts->mode];
    p->sweep_sample_s = sweep_sample_s[opts->mode];
    p->sweep_samples = sweep_samples[opts->mode];
    p->sweep_passes = sweep_passes[opts->mode];
    p->ws_cap = ws_cap[opts->mode];
    p->budget_s = budget_s[opts->mode];
    const dlti_attr *result = NULL;
    double t_start = now_s();
    if (plan_cpus(p, err) != 0 || plan_levels(p, ctx, cpu_device, err) != 0)
        goto done;
    const int all = p->ncpu;
    const bool multi = all > 1;
    const int per_level = multi ? 5 : 3;
    p->nsteps = p->nlv * per_level + (multi ? 4 : 2) + 2;
    if (plan_capacities(p, err) != 0)
        goto done;
    leave_out_small(p, multi);

    for (int i = 0; i < p->nlv; i++) {
        level *l = &p->lv[i];
        if (l->unmeasured) {
            p->step += per_level;
            continue;
        }
        if (l->ws_one) {
            if (run(p, MK_READ, l->ws_one, 1, "read", l->name, &l->read_one, err) != 0 ||
                run(p, MK_TRIAD, l->ws_one, 1, "triad", l->name, &l->triad_one, err) != 0 ||
                run(p, MK_CHASE, l->ws_one, 1, "latency", l->name, &l->latency_ns, err) != 0)
                goto done;
        } else {
            p->step += 3;
        }
        if (multi) {
            if (run(p, MK_READ, l->ws_all, all, "read", l->name, &l->read_all, err) != 0 ||
                run(p, MK_TRIAD, l->ws_all, all, "triad", l->name, &l->triad_all, err) != 0)
                goto done;
        } else {
            l->read_all = l->read_one;
            l->triad_all = l->triad_one;
        }
    }
    progress(p, "clock", "core", 1);
    mk_stat mhz = mk_clock_mhz(p->sample_s, p->samples * 3);
    p->step++;
    mk_stat f64_one, f32_one, f64_all, f32_all;
    if (run(p, MK_FMA_F64, 0, 1, "FMA f64", "peak", &f64_one, err) != 0 ||
        run(p, MK_FMA_F32, 0, 1, "FMA f32", "peak", &f32_one, err) != 0)
        goto done;
    f64_all = f64_one;
    f32_all = f32_one;
    if (multi && (run(p, MK_FMA_F64, 0, all, "FMA f64", "peak", &f64_all, err) != 0 ||
                  run(p, MK_FMA_F32, 0, all, "FMA f32", "peak", &f32_all, err) != 0))
        goto done;
    if (opts->progress)
        opts->progress(opts->progress_user, "done", 1.0);

    /* The map, provenance first. */
    char method[1200], date[32], version[32];
    bs_snprintf(method, sizeof(method),
             "sysdesc measure (%s): each value the median of up to %d samples of ~%g ms (at "
             "least 3, fewer where they would take over %g ms; working sets at most %zu MiB a "
             "thread), its best sample under best, (max - min) / median under spread, the "
             "count under samples; bandwidth = bytes the kernel loads and stores (read: 8, "
             "triad a=b+s*c: 24 a element, STREAM's count, no write-allocate) over the first "
             "thread's start to the last thread's end; latency: randomised pointer chase, one "
             "load per 64-byte line; each cache level's working sets inside its effective "
             "capacity, where a latency sweep (working sets x 2^(1/4), each the median over %d "
             "passes of medians of %d samples of ~%g ms) steps above twice the level's own "
             "latency; peak: %d independent %s FMA chains a thread; clock: a chain of dependent "
             "integer adds; every result verified",
             mode_name(opts->mode), p->samples, p->sample_s * 1e3, p->budget_s * 1e3,
             p->ws_cap / MIB, p->sweep_passes, p->sweep_samples, p->sweep_sample_s * 1e3,
             MK_FMA_ACC, p->k->isa);
    time_t now = time(NULL);
    struct tm tmv;
    if (!gmtime_r(&now, &tmv) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tmv))
        snprintf(date, sizeof(date), "unknown");
    snprintf(version, sizeof(version), "%s", SYSDESC_VERSION_STRING);
    int64_t cpus[MAX_CPUS];
    for (int i = 0; i < all; i++)
        cpus[i] = p->cpus[i];
    if (mhz.median > 0 && mhz.samples < p->fewest)
        p->fewest = mhz.samples;

    trees m, levels;
    trees_init(&m);
    trees_init(&levels);
    pb_str(ctx, &m.v, "method", method);
    pb_str(ctx, &m.v, "date", date);
    pb_str(ctx, &m.v, "sysdesc_version", version);
    pb_str(ctx, &m.v, "mode", mode_name(opts->mode));
    pb_str(ctx, &m.v, "statistic", "median");
    pb_i64(ctx, &m.v, "repeats", p->fewest);
    pb_str(ctx, &m.v, "kernel_isa", p->k->isa);
    pb_i64(ctx, &m.v, "vector_width_in_bits", p->k->vector_bits);
    pb_i64(ctx, &m.v, "num_threads", all);
    pb_add(ctx, &m.v, "cpus", pb_i64_array(ctx, cpus, (size_t)all));
    if (mhz.median > 0)
        put_stat(ctx, &m, "frequency_mhz", &mhz, true);
    add_peaks(ctx, &m, "peak_ops_per_second", &f64_all, &f32_all, err);
    add_peaks(ctx, &m, "peak_ops_per_second_single_thread", &f64_one, &f32_one, err);
    if (strcmp(p->lv[p->nlv - 1].name, "memory") == 0)
        put_stat(ctx, &m, "memory_bandwidth_in_bytes_per_second", &p->lv[p->nlv - 1].triad_all,
                 true);
    for (int i = 0; i < p->nlv; i++)
        add_level(ctx, &levels, &p->lv[i], multi, err);
    trees_add_map(ctx, &m, "levels", &levels, err);
    if (p->sweep.n)
        add_sweep(ctx, &m.v, &p->sweep, err);
    if (p->nsk) {
        pb_map sk;
        pb_init(&sk);
        for (int i = 0; i < p->nsk; i++)
            pb_str(ctx, &sk, p->sk[i].name, p->sk[i].why);
        pb_add_map(ctx, &m.v, "skipped", &sk, err);
    }
    pb_add_map(ctx, &m.v, "best", &m.best, err);
    pb_add_map(ctx, &m.v, "spread", &m.spread, err);
    pb_add_map(ctx, &m.v, "samples", &m.samples, err);
    pb_add(ctx, &m.v, "duration_in_seconds", f64(ctx, now_s() - t_start));
    result = pb_finish(ctx, &m.v, DLTI_ATTR_MAP, err);
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
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: needs a system spec, a device id and "
                                                 "a measured map");
        return NULL;
    }
    dlti_key id = dlti_key_string(ctx, device_id, strlen(device_id));
    dlti_key mk = dlti_key_string(ctx, "measured", 8);
    if (!id || !mk) {
        bs_nomem(err);
        return NULL;
    }
    const dlti_attr *dev = dlti_attr_lookup(system_spec, id);
    if (!dev || dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: the system has no device \"%s\"",
                     device_id);
        return NULL;
    }
    dev = dlti_container_set(ctx, dev, mk, measured, err);
    return dev ? dlti_container_set(ctx, system_spec, id, dev, err) : NULL;
}
