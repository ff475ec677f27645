/* The child's work of `sysdesc measure --device`: one device through one
 * runtime (md_ops), run after run, each result checked against what its
 * kernel must leave (probe/measure/kernels/device.cl), and the `measured` map
 * printed as the child's answer (docs/measure.md, "Devices"). */
#define _GNU_SOURCE
#include "measure_dev.h"
#include "probe_private.h"
#include "sysdesc/version.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)

const char *const md_kernel_names[MD_NKERNELS] = {"sd_read",  "sd_copy",  "sd_triad", "sd_local",
                                                  "sd_fma32", "sd_fma64", "sd_fma16"};

int md_fail(md_dev *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(d->why, sizeof(d->why), fmt, ap);
    va_end(ap);
    return -1;
}

/* Samples a value, their length, and the most a run's samples may take
 * (at least 3 run), by mode: sysdesc_measure_mode's order. */
static const struct {
    const char *name;
    double sample_s;
    int samples;
    double budget_s;
} modes[] = {{"default", 0.002, 15, 0.4}, {"quick", 0.001, 5, 0.04}, {"full", 0.002, 101, 3.0}};

/* Chain steps a repetition adds in sd_fma32/64 (d = e = 2^-16): with at
 * most FMA_MAX_REPS repetitions every value stays exact in f32. */
#define FMA_STEP (1.0 / 65536)
#define FMA_MAX_REPS (1u << 18)
#define LOCAL_BYTES 4096 /* a work-group's uint4 l[256] */

typedef struct skip {
    const char *name;
    char why[240];
} skip;

/* One measurement in the child. */
typedef struct md_run {
    md_dev d;
    const md_target *t;
    int progress_fd;
    int step, nsteps;
    int fewest;          /* the fewest samples any value had */
    md_buf *r;           /* one result a work-item (8 bytes each) */
    size_t rbytes;
    void *host;          /* a host copy of the largest buffer */
    /* results (0: not measured) */
    double read, copy, triad, l2, local, fma32, fma64, fma16, h2d, d2h, mhz;
    size_t mem_ws, l2_ws, tr_ws;
    char mem_bounded[240];
    skip sk[6];
    int nsk;
} md_run;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void add_skip(md_run *m, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_skip(md_run *m, const char *name, const char *fmt, ...)
{
    skip *s = &m->sk[m->nsk++];
    s->name = name;
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(s->why, sizeof(s->why), fmt, ap);
    va_end(ap);
}

static void progress(md_run *m, const char *what)
{
    if (m->progress_fd < 0)
        return;
    char line[128];
    int n = bs_snprintf(line, sizeof(line), "%.3f %s\n", (double)m->step / m->nsteps, what);
    if (n > 0 && write(m->progress_fd, line, (size_t)n) < 0) {
        /* the parent stopped listening: the answer still goes out */
    }
    m->step++;
}

/* The best time of up to the mode's samples of one launch, within its
 * budget (at least 3). */
static int timed(md_run *m, md_kernel k, md_buf *const b[4], const md_args *a, unsigned groups,
                 double *best)
{
    int mode = m->t->mode;
    double start = now_s();
    int taken = 0;
    *best = INFINITY;
    while (taken < modes[mode].samples) {
        double s;
        if (m->d.ops->launch(&m->d, k, b, a, groups, &s) != 0)
            return -1;
        taken++;
        if (s < *best)
            *best = s;
        if (taken >= 3 && now_s() - start > modes[mode].budget_s)
            break;
    }
    if (!(*best > 0))
        return md_fail(&m->d, "%s: the runtime's timer gave %g s", md_kernel_names[k], *best);
    if (m->fewest == 0 || taken < m->fewest)
        m->fewest = taken;
    return 0;
}

/* The repetitions (at most cap) that make one launch last about a sample. */
static int calibrate(md_run *m, md_kernel k, md_buf *const b[4], md_args *a, unsigned groups,
                     uint32_t cap)
{
    double want = modes[m->t->mode].sample_s, t = 0;
    a->reps = 1;
    /* The first launch builds or loads what the runtime builds lazily. */
    if (m->d.ops->launch(&m->d, k, b, a, groups, &t) != 0)
        return -1;
    for (;;) {
        if (m->d.ops->launch(&m->d, k, b, a, groups, &t) != 0)
            return -1;
        if (t >= want / 2 || a->reps >= cap)
            break;
        double f = t > 0 ? want / t : 64;
        f = f > 64 ? 64 : f < 2 ? 2 : f;
        a->reps = (uint32_t)fmin((double)cap, ceil(a->reps * f));
    }
    if (t > 0)
        a->reps = (uint32_t)fmax(1, fmin((double)cap, floor(a->reps * want / t)));
    return 0;
}

/* ---- the checks: what each kernel must leave ---- */

/* sum of k for k in [lo, hi) */
static uint64_t range_sum(uint64_t lo, uint64_t hi)
{
    return hi > lo ? (lo + hi - 1) * (hi - lo) / 2 : 0;
}

/* The elements of work-item g of G over n (device.cl, SPAN): `count` of
 * them, base, base + L, ...; L = d->lanes, 0 meaning G. */
static void span(const md_dev *d, uint64_t n, uint64_t G, uint64_t g, uint64_t *base,
                 uint64_t *count, uint64_t *L)
{
    uint64_t l = d->lanes ? d->lanes : G, c = (n + G - 1) / G;
    *L = l;
    *base = g / l * l * c + g % l;
    *count = *base < n ? (n - *base + l - 1) / l : 0;
    *count = *count < c ? *count : c;
}

/* sd_read over n elements by G work-items, reps times; element k holds
 * words w * k .. w * k + w - 1. */
static int check_read(md_run *m, const uint32_t *r, uint32_t G, uint64_t n, uint32_t reps,
                      const char *what)
{
    uint64_t w = m->d.wv;
    for (uint32_t g = 0; g < G; g++) {
        uint64_t base, count, L;
        span(&m->d, n, G, g, &base, &count, &L);
        uint64_t sum_k = count * base + L * (count * (count - 1) / 2); /* count 0: 0 */
        uint32_t want = (uint32_t)((w * w * sum_k + w * (w - 1) / 2 * count) * reps);
        if (r[g] != want)
            return md_fail(&m->d, "the %s kernel: work-item %" PRIu32 " summed %" PRIu32
                                  ", expected %" PRIu32 " (%" PRIu64 " elements, %" PRIu32
                                  " times)",
                           what, g, r[g], want, count, reps);
    }
    return 0;
}

/* sum over t < reps of ((a + t) mod e) */
static uint64_t wrapped_sum(uint64_t a, uint64_t reps, uint64_t e)
{
    uint64_t full = reps / e, p = reps % e, s = full * range_sum(0, e);
    if (a + p <= e)
        return s + range_sum(a, a + p);
    return s + range_sum(a, e) + range_sum(0, a + p - e);
}

/* sd_local with elements of w words, e = 1024 / w of them: work-item with
 * local id l reads, at repetition t, elements (l + t + u * e / 4) mod e,
 * u < 4; element i holds words w * i .. w * i + w - 1. */
static int check_local(md_run *m, const uint32_t *r, uint32_t items, uint32_t reps)
{
    uint64_t w = m->d.wv, e = 1024 / w;
    for (uint32_t g = 0; g < items; g++) {
        uint64_t l = g % MD_GROUP, want = 0;
        for (uint64_t u = 0; u < 4; u++)
            want += w * w * wrapped_sum((l + u * e / 4) % e, reps, e) +
                    w * (w - 1) / 2 * (uint64_t)reps;
        if (r[g] != (uint32_t)want)
            return md_fail(&m->d,
                           "the local memory kernel: work-item %" PRIu32 " summed %" PRIu32
                           ", expected %" PRIu32,
                           g, r[g], (uint32_t)want);
    }
    return 0;
}

/* Lanes of one chain of kernel k on d. */
static unsigned lanes(const md_dev *d, md_kernel k)
{
    return k == MD_FMA64 ? d->w64 : k == MD_FMA32 ? d->w32 : 2;
}

/* The FMA kernels' chains start at 1 .. 8 in every lane (36 a lane); f32
 * and f64 add 2 * reps * FMA_STEP to each, f16 adds d then takes it away. */
static int check_fma(md_run *m, md_kernel k, const void *r, uint32_t items, uint32_t reps)
{
    double want = lanes(&m->d, k) * (k == MD_FMA16 ? 36 : 36 + 8 * 2 * (double)reps * FMA_STEP);
    for (uint32_t g = 0; g < items; g++) {
        double got;
        if (k == MD_FMA64) {
            memcpy(&got, (const char *)r + 8 * (size_t)g, 8);
        } else {
            float f;
            memcpy(&f, (const char *)r + 4 * (size_t)g, 4);
            got = f;
        }
        if (got != want)
            return md_fail(&m->d, "the %s kernel: work-item %" PRIu32 " left %.17g, expected %.17g",
                           md_kernel_names[k], g, got, want);
    }
    return 0;
}

/* ---- the runs ---- */

static void fill_words(uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w[i] = (uint32_t)i;
}

/* Device memory: read, copy, triad, each over a footprint of ws bytes
 * (STREAM's counts: read loads each element, copy loads and stores it,
 * triad loads two and stores one). */
static int run_memory(md_run *m, unsigned groups)
{
    md_dev *d = &m->d;
    size_t ws = m->t->memory_bytes;
    snprintf(m->mem_bounded, sizeof(m->mem_bounded), "%s", m->t->memory_bounded);
    if (ws > d->max_buffer) {
        snprintf(m->mem_bounded, sizeof(m->mem_bounded),
                 "working set capped at the runtime's largest buffer, %" PRIu64
                 " bytes (the plan wanted %zu)",
                 d->max_buffer, ws);
        ws = (size_t)d->max_buffer;
    }
    size_t eb = 4 * (size_t)d->wv; /* bytes an element */
    ws -= ws % (6 * eb);          /* whole elements in each array of each run */
    uint64_t n_read = ws / eb, n_copy = ws / (2 * eb), n_triad = ws / (3 * eb);
    if (n_read > UINT32_MAX / 2)
        return md_fail(d, "a memory working set of %zu bytes is more than the kernels index", ws);
    m->mem_ws = ws;
    md_buf *x = d->ops->alloc(d, ws), *y = x ? d->ops->alloc(d, ws / 2) : NULL;
    md_buf *z = y ? d->ops->alloc(d, ws / 3) : NULL;
    int rc = -1;
    uint32_t *h = m->host, G = groups * MD_GROUP;
    if (!z)
        goto done;
    fill_words(h, ws / 4);
    if (d->ops->write(d, x, h, ws) != 0)
        goto done;

    md_args a = {.n = (uint32_t)n_read, .reps = 1, .c = d->lanes};
    md_buf *b[4] = {x, y, z, m->r};
    double t;
    progress(m, "memory read");
    if (timed(m, MD_READ, b, &a, groups, &t) != 0 || d->ops->read(d, m->r, h, 4 * (size_t)G) != 0 ||
        check_read(m, h, G, n_read, 1, "memory read") != 0)
        goto done;
    m->read = (double)n_read * eb / t;

    progress(m, "memory copy");
    a.n = (uint32_t)n_copy;
    if (timed(m, MD_COPY, b, &a, groups, &t) != 0 || d->ops->read(d, y, h, ws / 2) != 0)
        goto done;
    for (uint64_t i = 0; i < n_copy * d->wv; i++)
        if (h[i] != (uint32_t)i) {
            md_fail(d, "the copy kernel: y word %" PRIu64 " = %" PRIu32 ", expected %" PRIu32 " (x)",
                    i, h[i], (uint32_t)i);
            goto done;
        }
    m->copy = (double)n_copy * 2 * eb / t;

    progress(m, "memory triad");
    float *f = m->host;
    size_t words = (size_t)n_triad * d->wv;
    for (size_t i = 0; i < words; i++)
        f[i] = (float)(i & 0xffff);
    if (d->ops->write(d, y, f, words * 4) != 0)
        goto done;
    for (size_t i = 0; i < words; i++)
        f[i] = (float)((i >> 4) & 0xfff);
    if (d->ops->write(d, z, f, words * 4) != 0)
        goto done;
    a = (md_args){.n = (uint32_t)(n_triad - (m->t->break_triad ? 64 : 0)), .reps = 1,
                  .c = d->lanes, .s = 3};
    if (timed(m, MD_TRIAD, b, &a, groups, &t) != 0 || d->ops->read(d, x, f, words * 4) != 0)
        goto done;
    for (size_t i = 0; i < words; i++) {
        float want = (float)(i & 0xffff) + 3 * (float)((i >> 4) & 0xfff);
        if (f[i] != want) {
            md_fail(d, "the triad kernel: x word %zu = %g, expected %g (y + 3 * z)", i,
                    (double)f[i], (double)want);
            goto done;
        }
    }
    m->triad = (double)n_triad * 3 * eb / t;
    rc = 0;
done:
    if (z)
        d->ops->free(d, z);
    if (y)
        d->ops->free(d, y);
    if (x)
        d->ops->free(d, x);
    return rc;
}

/* A working set the L2 holds, read again and again. */
static int run_l2(md_run *m, unsigned groups)
{
    md_dev *d = &m->d;
    uint32_t G = groups * MD_GROUP;
    size_t ws = m->t->l2_bytes < d->max_buffer ? m->t->l2_bytes : (size_t)d->max_buffer;
    size_t eb = 4 * (size_t)d->wv;
    uint64_t n = ws / eb / G * G; /* as many elements for every work-item */
    progress(m, "L2 read");
    if (n == 0) {
        add_skip(m, "L2", "its working set (%zu bytes) is less than one element a work-item "
                          "(%" PRIu32 " work-items)",
                 ws, G);
        return 0;
    }
    m->l2_ws = n * eb;
    md_buf *x = d->ops->alloc(d, m->l2_ws);
    if (!x)
        return -1;
    fill_words(m->host, m->l2_ws / 4);
    md_args a = {.n = (uint32_t)n, .c = d->lanes};
    md_buf *b[4] = {x, x, x, m->r};
    double t;
    int rc = -1;
    if (d->ops->write(d, x, m->host, m->l2_ws) == 0 &&
        calibrate(m, MD_READ, b, &a, groups, 1u << 20) == 0 &&
        timed(m, MD_READ, b, &a, groups, &t) == 0 &&
        d->ops->read(d, m->r, m->host, 4 * (size_t)G) == 0 &&
        check_read(m, m->host, G, n, a.reps, "L2 read") == 0) {
        m->l2 = (double)n * eb * a.reps / t;
        rc = 0;
    }
    d->ops->free(d, x);
    return rc;
}

static int run_local(md_run *m, unsigned groups)
{
    md_dev *d = &m->d;
    md_args a = {0};
    md_buf *b[4] = {m->r, m->r, m->r, m->r};
    uint32_t items = groups * MD_GROUP;
    double t;
    progress(m, "local memory read");
    if (calibrate(m, MD_LOCAL, b, &a, groups, 1u << 24) != 0 ||
        timed(m, MD_LOCAL, b, &a, groups, &t) != 0 ||
        d->ops->read(d, m->r, m->host, 4 * (size_t)items) != 0 ||
        check_local(m, m->host, items, a.reps) != 0)
        return -1;
    m->local = (double)items * a.reps * 4 * 4 * d->wv / t;
    return 0;
}

/* The float whose bits are the half2 word (h, h): sd_fma16's multiplier
 * and addends travel so (probe/measure/kernels/device.cl says why). */
static float half2_word(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16 | h;
    float f;
    memcpy(&f, &w, sizeof(f));
    return f;
}

/* One FMA kernel; for sd_fma32 under CUDA also the clock (y: the SM's
 * cycles and the global timer's nanoseconds before and after). */
static int run_fma(md_run *m, md_kernel k, unsigned groups, double *rate)
{
    md_dev *d = &m->d;
    static const char *const what[] = {[MD_FMA32] = "FMA f32", [MD_FMA64] = "FMA f64",
                                       [MD_FMA16] = "FMA f16"};
    progress(m, what[k]);
    md_buf *clk = d->ops->alloc(d, 64);
    if (!clk)
        return -1;
    md_buf *b[4] = {clk, clk, clk, m->r};
    /* f16: the half2 words of 1, 2^-4 and -2^-4 (binary16 0x3c00, 0x2c00, 0xac00) */
    md_args a = k == MD_FMA16 ? (md_args){.s = half2_word(0x3c00), .d = half2_word(0x2c00),
                                          .e = half2_word(0xac00)}
                              : (md_args){.s = 1, .d = (float)FMA_STEP, .e = (float)FMA_STEP};
    uint32_t items = groups * MD_GROUP;
    double t;
    int rc = -1;
    if (calibrate(m, k, b, &a, groups, k == MD_FMA16 ? 1u << 24 : FMA_MAX_REPS) == 0 &&
        timed(m, k, b, &a, groups, &t) == 0 &&
        d->ops->read(d, m->r, m->host, (k == MD_FMA64 ? 8 : 4) * (size_t)items) == 0 &&
        check_fma(m, k, m->host, items, a.reps) == 0) {
        /* eight chains, two FMAs a repetition, 2 FLOP an FMA; f16: two lanes */
        *rate = (double)items * 8 * 2 * 2 * a.reps * lanes(d, k) / t;
        rc = 0;
    }
    uint64_t c[4];
    if (rc == 0 && k == MD_FMA32 && d->clock) {
        if (d->ops->read(d, clk, c, sizeof(c)) != 0) {
            rc = -1;
        } else if (c[1] > c[0] && c[3] > c[2]) {
            m->mhz = (double)(c[1] - c[0]) / (double)(c[3] - c[2]) * 1e3;
            if (m->mhz < 1 || m->mhz > 100000) {
                add_skip(m, "frequency_mhz",
                         "the SM clock and the global timer gave %.4g MHz, not believed", m->mhz);
                m->mhz = 0;
            }
        } else {
            add_skip(m, "frequency_mhz", "the SM clock or the global timer did not advance");
        }
    }
    d->ops->free(d, clk);
    return rc;
}

static int run_transfer(md_run *m)
{
    md_dev *d = &m->d;
    size_t bytes = m->t->transfer_bytes < d->max_buffer ? m->t->transfer_bytes
                                                        : (size_t)d->max_buffer;
    bytes &= ~(size_t)4095;
    md_host *hh;
    uint32_t *h = d->ops->host_alloc(d, bytes, &hh);
    if (!h)
        return -1;
    md_buf *b = d->ops->alloc(d, bytes);
    int rc = -1;
    double best[2] = {INFINITY, INFINITY};
    if (!b)
        goto done;
    fill_words(h, bytes / 4);
    for (int dir = 0; dir < 2; dir++) {
        progress(m, dir == 0 ? "host to device" : "device to host");
        if (dir == 1)
            memset(h, 0, bytes);
        double start = now_s();
        int taken = 0, mode = m->t->mode;
        while (taken < modes[mode].samples) {
            double s;
            if (d->ops->transfer(d, b, hh, bytes, dir == 0, &s) != 0)
                goto done;
            taken++;
            best[dir] = s < best[dir] ? s : best[dir];
            if (taken >= 3 && now_s() - start > modes[mode].budget_s)
                break;
        }
        if (m->fewest == 0 || taken < m->fewest)
            m->fewest = taken;
    }
    /* What came back is what went: both directions moved every byte. */
    for (size_t i = 0; i < bytes / 4; i++)
        if (h[i] != (uint32_t)i) {
            md_fail(d, "the transfers: word %zu came back as %" PRIu32 ", sent %" PRIu32, i, h[i],
                    (uint32_t)i);
            goto done;
        }
    if (!(best[0] > 0 && best[1] > 0)) {
        md_fail(d, "the transfers: the runtime's timer gave %g and %g s", best[0], best[1]);
        goto done;
    }
    m->tr_ws = bytes;
    m->h2d = (double)bytes / best[0];
    m->d2h = (double)bytes / best[1];
    rc = 0;
done:
    if (b)
        d->ops->free(d, b);
    d->ops->host_free(d, hh);
    return rc;
}

/* ---- the answer ---- */

static const dlti_attr *f64(dlti_context *ctx, double v)
{
    const dlti_type *t = dlti_type_f64(ctx);
    return t ? dlti_float_new(ctx, t, v, NULL) : NULL;
}

static void level(dlti_context *ctx, pb_map *levels, const char *name, size_t ws,
                  const char *ws_key, double read, double copy, double triad,
                  const char *bounded, dlti_error_t *err)
{
    if (read <= 0)
        return;
    pb_map l;
    pb_init(&l);
    pb_i64(ctx, &l, ws_key, (int64_t)ws);
    pb_i64(ctx, &l, "read_bandwidth_in_bytes_per_second", llround(read));
    if (copy > 0)
        pb_i64(ctx, &l, "copy_bandwidth_in_bytes_per_second", llround(copy));
    if (triad > 0)
        pb_i64(ctx, &l, "triad_bandwidth_in_bytes_per_second", llround(triad));
    if (bounded && *bounded)
        pb_str(ctx, &l, "bounded", bounded);
    pb_add_map(ctx, levels, name, &l, err);
}

static const dlti_attr *measured_map(dlti_context *ctx, md_run *m, double seconds,
                                     dlti_error_t *err)
{
    const md_target *t = m->t;
    char method[900], date[32];
    bs_snprintf(method, sizeof(method),
             "sysdesc measure --device (%s) through %s: each value the best of up to %d "
             "launches timed by the runtime (at least 3, fewer where they would take over %g "
             "ms), %u work-items a work-group; bandwidth = bytes the kernel loads and stores "
             "(elements of %u words: read loads each, copy loads and stores, triad x=y+s*z "
             "loads two and stores one, STREAM's count); "
             "L2: a working set of half the L2, read repeatedly; local: 4 KiB of local memory "
             "a work-group, read repeatedly; peak: 8 independent FMA chains a work-item "
             "(lanes a chain: f32 %u, f64 %u, f16 2); transfers: one buffer each way between page-locked host memory "
             "and the device; every result verified",
             modes[t->mode].name, t->runtime, modes[t->mode].samples,
             modes[t->mode].budget_s * 1e3, MD_GROUP, m->d.wv, m->d.w32, m->d.w64);
    time_t now = time(NULL);
    struct tm tmv;
    if (!gmtime_r(&now, &tmv) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tmv))
        snprintf(date, sizeof(date), "unknown");

    pb_map mm, peaks, levels, tr, sk;
    pb_init(&mm);
    pb_init(&peaks);
    pb_init(&levels);
    pb_init(&tr);
    pb_init(&sk);
    pb_str(ctx, &mm, "method", method);
    pb_str(ctx, &mm, "runtime", t->runtime);
    pb_str(ctx, &mm, "driver", m->d.driver);
    pb_str(ctx, &mm, "device_name", m->d.name);
    pb_str(ctx, &mm, "date", date);
    pb_str(ctx, &mm, "sysdesc_version", SYSDESC_VERSION_STRING);
    pb_str(ctx, &mm, "mode", modes[t->mode].name);
    pb_str(ctx, &mm, "statistic", "best");
    pb_i64(ctx, &mm, "work_group_size", MD_GROUP);
    pb_i64(ctx, &mm, "repeats", m->fewest);
    if (m->mhz > 0)
        pb_i64(ctx, &mm, "frequency_mhz", llround(m->mhz));
    if (m->fma64 > 0)
        pb_add(ctx, &peaks, "fp64_vector", f64(ctx, m->fma64));
    pb_add(ctx, &peaks, "fp32_vector", f64(ctx, m->fma32));
    if (m->fma16 > 0)
        pb_add(ctx, &peaks, "fp16_vector", f64(ctx, m->fma16));
    pb_add_map(ctx, &mm, "peak_ops_per_second", &peaks, err);
    pb_i64(ctx, &mm, "memory_bandwidth_in_bytes_per_second", llround(m->triad));
    level(ctx, &levels, "local", LOCAL_BYTES, "working_set_per_work_group_in_bytes", m->local, 0,
          0, NULL, err);
    level(ctx, &levels, "L2", m->l2_ws, "working_set_in_bytes", m->l2, 0, 0, NULL, err);
    level(ctx, &levels, "memory", m->mem_ws, "working_set_in_bytes", m->read, m->copy, m->triad,
          m->mem_bounded, err);
    pb_add_map(ctx, &mm, "levels", &levels, err);
    pb_i64(ctx, &tr, "working_set_in_bytes", (int64_t)m->tr_ws);
    pb_i64(ctx, &tr, "host_to_device_bandwidth_in_bytes_per_second", llround(m->h2d));
    pb_i64(ctx, &tr, "device_to_host_bandwidth_in_bytes_per_second", llround(m->d2h));
    pb_add_map(ctx, &mm, "transfer", &tr, err);
    for (int i = 0; i < m->nsk; i++)
        pb_str(ctx, &sk, m->sk[i].name, m->sk[i].why);
    pb_add_map(ctx, &mm, "skipped", &sk, err);
    pb_add(ctx, &mm, "duration_in_seconds", f64(ctx, seconds));
    return pb_finish(ctx, &mm, DLTI_ATTR_MAP, err);
}

/* #dlti.map<"measured" = M> or #dlti.map<"error" = "why">, as text. */
static char *answer(dlti_context *ctx, const dlti_attr *measured, const char *why, size_t *len)
{
    pb_map a;
    pb_init(&a);
    if (measured)
        pb_add(ctx, &a, "measured", measured);
    else
        pb_str(ctx, &a, "error", why && *why ? why : "failed (no reason given)");
    const dlti_attr *m = pb_finish(ctx, &a, DLTI_ATTR_MAP, NULL);
    char *text = m ? dlti_attr_print(m, len) : NULL;
    return text;
}

/* The measurement of a runtime's row; NULL when it has none. */
static const md_ops *ops_of(const char *runtime)
{
    const pb_rt_source *src = pb_rt_find(runtime, strlen(runtime));
    return src ? src->measure : NULL;
}

/* Every run, after the runtime is open. */
static int run_all(md_run *m)
{
    md_dev *d = &m->d;
    const md_target *t = m->t;
    size_t most = t->memory_bytes > t->l2_bytes ? t->memory_bytes : t->l2_bytes;
    most = most > t->transfer_bytes ? most : t->transfer_bytes;
    unsigned groups = t->groups > t->fma_groups ? t->groups : t->fma_groups;
    m->rbytes = (size_t)groups * MD_GROUP * 8;
    most = most > m->rbytes ? most : m->rbytes;
    if (!(m->host = malloc(most)))
        return md_fail(d, "out of memory (%zu bytes of host memory)", most);
    if (!(m->r = d->ops->alloc(d, m->rbytes)))
        return -1;
    if (run_memory(m, t->groups) != 0)
        return -1;
    if (t->l2_bytes) {
        if (run_l2(m, t->groups) != 0)
            return -1;
    } else {
        progress(m, "L2 read");
        add_skip(m, "L2", "%s", t->l2_why);
    }
    if (run_local(m, t->groups) != 0 || run_fma(m, MD_FMA32, t->fma_groups, &m->fma32) != 0)
        return -1;
    if (!d->clock)
        add_skip(m, "frequency_mhz", "%s exposes no clock counter to its kernels", t->runtime);
    if (d->fp64) {
        if (run_fma(m, MD_FMA64, t->fma_groups, &m->fma64) != 0)
            return -1;
    } else {
        progress(m, "FMA f64");
        add_skip(m, "fp64_vector", "%s", d->fp64_why);
    }
    if (d->fp16) {
        if (run_fma(m, MD_FMA16, t->fma_groups, &m->fma16) != 0)
            return -1;
    } else {
        progress(m, "FMA f16");
        add_skip(m, "fp16_vector", "%s", d->fp16_why);
    }
    return run_transfer(m);
}

char *md_measure_child(void *arg, int progress_fd, size_t *len)
{
    const md_target *t = arg;
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return NULL;
    md_run *m = calloc(1, sizeof(*m));
    char *text = NULL;
    if (!m)
        goto done;
    m->t = t;
    m->d.t = t;
    m->progress_fd = progress_fd;
    m->nsteps = 10;
    m->d.ops = ops_of(t->runtime);
    m->d.w32 = m->d.w64 = 1;
    m->d.wv = 4;
    const dlti_attr *measured = NULL;
    double start = 0;
    if (!m->d.ops) {
        md_fail(&m->d, "sysdesc does not measure through %s", t->runtime);
    } else if (m->d.ops->open(&m->d) == 0 && (start = now_s(), run_all(m) == 0)) {
        dlti_error_t err;
        measured = measured_map(ctx, m, now_s() - start, &err);
        if (!measured)
            md_fail(&m->d, "%s", err.text);
    }
    if (m->d.ops) {
        if (m->r)
            m->d.ops->free(&m->d, m->r);
        m->d.ops->close(&m->d);
    }
    text = answer(ctx, measured, m->d.why, len);
    free(m->host);
done:
    free(m);
    dlti_context_free(ctx);
    return text;
}
