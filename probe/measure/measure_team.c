/* A team of pinned threads timing one kernel: each thread allocates and
 * fills its own buffers (first touch: on its own NUMA node), the threads
 * start every sample together at a barrier, and a sample's rate is the work
 * of all threads over the time from the first start to the last end.  The
 * results are verified after the samples. */
#define _GNU_SOURCE
#include "measure_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* One pass of the FMA kernels: iterations; of the chase: loads. */
#define FMA_PASS 1024
#define CHASE_PASS 1024
/* The most passes a sample may take (a sample of an absurdly fast pass stays bounded). */
#define MAX_PASSES (UINT64_C(1) << 24)
/* The fewest samples a run's budget may leave it. */
#define MIN_SAMPLES 3

typedef struct team {
    mk_run *r;
    pthread_mutex_t lock;
    pthread_cond_t gate_cv;
    bool gate_open, abort;
    pthread_barrier_t bar;
    double *t0, *t1; /* [sample * nthreads + thread] */
    double *warm;    /* [thread]: one pass's time */
    uint64_t passes;
    int samples;     /* those run: r->samples, fewer where they would outlast r->budget_s */
    bool failed;     /* any thread, under lock (is_failed) */
    dlti_error_t err; /* the first failure, under lock */
} team;

typedef struct worker {
    team *tm;
    int id;
    pthread_t th;
    volatile uintptr_t sink; /* where the chase ended: kept, so the loads stay */
} worker;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fail(team *tm, dlti_error_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(team *tm, dlti_error_code code, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&tm->lock);
    if (!tm->failed)
        bs_error_set(&tm->err, code, "%s", text);
    tm->failed = true;
    pthread_mutex_unlock(&tm->lock);
}

static bool is_failed(team *tm)
{
    pthread_mutex_lock(&tm->lock);
    bool f = tm->failed;
    pthread_mutex_unlock(&tm->lock);
    return f;
}

static double *alloc_doubles(size_t n)
{
    if (n == 0 || n > SIZE_MAX / sizeof(double) - MK_ALIGN)
        return NULL;
    size_t size = (n * sizeof(double) + MK_ALIGN - 1) / MK_ALIGN * MK_ALIGN;
    double *a = aligned_alloc(MK_ALIGN, size);
#ifdef MADV_HUGEPAGE
    /* Large pages where the kernel gives them: a 2 MiB page is one fault
     * where 4 KiB pages are 512, and filling a memory-sized buffer costs
     * about as much as measuring it otherwise. */
    if (a)
        (void)madvise(a, size, MADV_HUGEPAGE);
#endif
    return a;
}

/* What the kernels' results must be, and values the compiler cannot know. */
static volatile double v_one = 1.0, v_d64 = 0x1p-24, v_scalar = 3.0;
static volatile float v_onef = 1.0f, v_d32 = 0x1p-10f;
/* The FMA chains' starting values: 1, 2, ..., 12, distinct so that no two
 * chains are the same computation. */
static double init64[MK_FMA_ACC] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static float init32[MK_FMA_ACC] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
#define INIT_SUM 78.0 /* 1 + 2 + ... + 12 */

static double fma_expected_f64(const mk_run *r, uint64_t iters)
{
    /* Chain j's lanes: j + 2 * iters * 2^-24, exactly (multiples of 2^-24
     * far below 2^28); all lanes summed, exactly. */
    double lanes = (double)mk_lanes(r->k, false);
    return lanes * (INIT_SUM + MK_FMA_ACC * 2.0 * (double)iters * 0x1p-24);
}

/* One thread's buffers and what their kernels must give. */
typedef struct bufs {
    double *a, *b, *c;
    size_t n, n_run; /* elements; those the triad writes (fewer under the test hook) */
    double expected_sum;
    void *p;         /* where the chase is */
} bufs;

/* `iters` passes of the FMA and chase kernels, one pass of the others;
 * a wrong result fails the team. */
static void pass(team *tm, bufs *st, uint64_t iters)
{
    const mk_run *r = tm->r;
    const mk_kernels *k = r->k;
    switch (r->kind) {
    case MK_READ: {
        double got = k->read(st->a, st->n);
        if (got != st->expected_sum)
            fail(tm, DLTI_ERROR_VERIFY, "the read kernel: sum %.17g, expected %.17g (%zu elements)",
                 got, st->expected_sum, st->n);
        break;
    }
    case MK_TRIAD:
        k->triad(st->a, st->b, st->c, v_scalar, st->n_run);
        break;
    case MK_FMA_F64: {
        double got = k->fma_f64(iters * FMA_PASS, init64, v_one, v_d64, v_d64);
        double want = fma_expected_f64(r, iters * FMA_PASS);
        if (got != want)
            fail(tm, DLTI_ERROR_VERIFY, "the f64 FMA kernel: sum %.17g, expected %.17g", got,
                 want);
        break;
    }
    case MK_FMA_F32: {
        float got = k->fma_f32(iters * FMA_PASS, init32, v_onef, v_d32, -v_d32);
        double want = (double)mk_lanes(k, true) * INIT_SUM;
        if ((double)got != want)
            fail(tm, DLTI_ERROR_VERIFY, "the f32 FMA kernel: sum %.9g, expected %.9g",
                 (double)got, want);
        break;
    }
    case MK_CHASE:
        st->p = mk_chase(st->p, iters * CHASE_PASS);
        break;
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    team *tm = w->tm;
    mk_run *r = tm->r;
    const int n_thr = r->nthreads;
    double *a = NULL, *b = NULL, *c = NULL;
    mk_chain chain = {0};
    size_t n = r->elements;
    double expected_sum = 0;

    pthread_mutex_lock(&tm->lock);
    while (!tm->gate_open)
        pthread_cond_wait(&tm->gate_cv, &tm->lock);
    bool aborted = tm->abort;
    pthread_mutex_unlock(&tm->lock);
    if (aborted)
        return NULL;

    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(r->cpus[w->id], &set);
    int pe = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    if (pe != 0)
        fail(tm, DLTI_ERROR_IO, "cannot pin a thread to CPU %d: %s", r->cpus[w->id],
             strerror(pe));

    /* Set up: buffers written by the thread that reads them. */
    switch (r->kind) {
    case MK_READ:
        if (!(a = alloc_doubles(n))) {
            fail(tm, DLTI_ERROR_NOMEM, "out of memory for the read buffer (%zu elements)", n);
            break;
        }
        for (size_t i = 0; i < n; i++)
            a[i] = (double)(i % 1024);
        /* n is a multiple of 1024: every partial sum is an integer below 2^53, exact. */
        expected_sum = (double)(n / 1024) * (1023.0 * 1024.0 / 2.0);
        break;
    case MK_TRIAD:
        if (!(a = alloc_doubles(n)) || !(b = alloc_doubles(n)) || !(c = alloc_doubles(n))) {
            fail(tm, DLTI_ERROR_NOMEM, "out of memory for the triad buffers (3 x %zu elements)", n);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            a[i] = 0;
            b[i] = (double)(i % 1024);
            c[i] = 2.0;
        }
        break;
    case MK_CHASE:
        if (mk_chain_build(&chain, r->bytes, 0x9e3779b97f4a7c15u + (uint64_t)w->id) != 0) {
            fail(tm, DLTI_ERROR_NOMEM, "out of memory for the latency chain (%zu lines)",
                 r->bytes / 64);
            break;
        }
        /* One cycle through every line: `lines` steps come back to the start.
         * Walked in full up to 16 MiB; a memory-sized chain would take longer
         * to walk than to measure (2M loads at DRAM latency), and Sattolo's
         * shuffle makes one cycle by construction: its end is checked to lie
         * on a line of the chain (mk_chain_holds) after the samples. */
        if (chain.lines <= ((size_t)1 << 18) &&
            mk_chase(chain.base, chain.lines) != (void *)chain.base)
            fail(tm, DLTI_ERROR_VERIFY, "the latency chain is not one cycle of %zu lines",
                 chain.lines);
        break;
    case MK_FMA_F64:
    case MK_FMA_F32:
        break;
    }

    bufs st = {.a = a, .b = b, .c = c, .n = n, .expected_sum = expected_sum, .p = chain.base,
               .n_run = r->break_triad && n > MK_BLOCK ? n - MK_BLOCK : n};
    /* Every thread must take the same way at every barrier, or the others
     * wait for ever: the setup's outcome is read between two barriers
     * (nothing fails in between), and once the samples have begun every
     * thread runs them all, a failure or not (they are bounded), and the
     * results are judged after the last. */
    pthread_barrier_wait(&tm->bar);
    bool setup_failed = is_failed(tm);
    pthread_barrier_wait(&tm->bar);
    if (setup_failed)
        goto out;
    /* Warm-up: one pass, timed, to size the samples. */
    double t = now_s();
    if (r->kind == MK_READ || r->kind == MK_TRIAD) {
        pass(tm, &st, 1);
        tm->warm[w->id] = now_s() - t;
    } else {
        pass(tm, &st, 64); /* one pass is microseconds: time 64 */
        tm->warm[w->id] = (now_s() - t) / 64;
    }
    pthread_barrier_wait(&tm->bar);
    if (w->id == 0) {
        double slow = 0;
        for (int i = 0; i < n_thr; i++)
            if (tm->warm[i] > slow)
                slow = tm->warm[i];
        double want = slow > 0 ? r->sample_s / slow : (double)MAX_PASSES;
        tm->passes = want < 1 ? 1 : want > (double)MAX_PASSES ? MAX_PASSES : (uint64_t)want;
        /* A sample of one long pass (a memory-sized working set) is already
         * a steady figure: fewer of them, within the run's budget, at least
         * MIN_SAMPLES. */
        double sample = slow * (double)tm->passes;
        tm->samples = r->samples;
        if (r->budget_s > 0 && sample * r->samples > r->budget_s) {
            int fit = (int)(r->budget_s / sample);
            tm->samples = fit < MIN_SAMPLES ? MIN_SAMPLES : fit;
            if (tm->samples > r->samples)
                tm->samples = r->samples;
        }
    }
    pthread_barrier_wait(&tm->bar);
    const uint64_t passes = tm->passes;
    const int samples = tm->samples;
    for (int smp = 0; smp < samples; smp++) {
        pthread_barrier_wait(&tm->bar);
        size_t slot = (size_t)smp * (size_t)n_thr + (size_t)w->id;
        tm->t0[slot] = now_s();
        if (r->kind == MK_READ || r->kind == MK_TRIAD) {
            for (uint64_t i = 0; i < passes; i++)
                pass(tm, &st, 1);
        } else {
            pass(tm, &st, passes);
        }
        tm->t1[slot] = now_s();
        pthread_barrier_wait(&tm->bar);
    }
    if (r->kind == MK_TRIAD && !is_failed(tm))
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i] + 6.0) {
                fail(tm, DLTI_ERROR_VERIFY,
                     "the triad kernel: a[%zu] = %.17g, expected %.17g (b + 3 * c)", i, a[i],
                     b[i] + 6.0);
                break;
            }
    if (r->kind == MK_CHASE && !is_failed(tm) && !mk_chain_holds(&chain, st.p))
        fail(tm, DLTI_ERROR_VERIFY, "the latency chase left its chain (%p)", st.p);
    w->sink = (uintptr_t)st.p;
out:
    free(a);
    free(b);
    free(c);
    mk_chain_free(&chain);
    return NULL;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Work of one pass of one thread: bytes (read, triad: STREAM's count, no
 * write-allocate traffic), FLOPs (FMA: 2 a lane), loads (chase). */
static double pass_work(const mk_run *r)
{
    switch (r->kind) {
    case MK_READ:
        return (double)r->elements * sizeof(double);
    case MK_TRIAD:
        return 3.0 * (double)r->elements * sizeof(double);
    case MK_FMA_F64:
    case MK_FMA_F32:
        return (double)FMA_PASS * MK_FMA_ACC * mk_lanes(r->k, r->kind == MK_FMA_F32) * 2 * 2;
    case MK_CHASE:
        return CHASE_PASS;
    }
    return 0;
}

int mk_team_run(mk_run *r, dlti_error_t *err)
{
    if (r->nthreads < 1 || r->nthreads > 4096 || r->samples < 1 || r->samples > 1000) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: bad thread or sample count");
        return -1;
    }
    /* A working set smaller than the kernel's least would be measured as
     * that least, or not at all (a chase of one line): refused by name. */
    size_t least = r->kind == MK_READ    ? MK_MIN_READ_BYTES
                   : r->kind == MK_TRIAD ? MK_MIN_TRIAD_BYTES
                   : r->kind == MK_CHASE ? MK_MIN_CHASE_BYTES
                                         : 0;
    if (r->bytes < least) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "measure: a working set of %zu bytes is below the %zu bytes the %s "
                     "kernel holds a thread",
                     r->bytes, least,
                     r->kind == MK_READ ? "read" : r->kind == MK_TRIAD ? "triad" : "latency");
        return -1;
    }
    /* Elements per thread: the working set over the arrays, a whole number of blocks. */
    size_t per = r->kind == MK_TRIAD ? r->bytes / 3 : r->bytes;
    size_t unit = r->kind == MK_READ ? 1024 : MK_BLOCK;
    r->elements = per / sizeof(double) / unit * unit;
    size_t nt = (size_t)r->nthreads, ns = (size_t)r->samples;
    team tm = {.r = r};
    worker *w = calloc(nt, sizeof(*w));
    tm.t0 = calloc(nt * ns, sizeof(double));
    tm.t1 = calloc(nt * ns, sizeof(double));
    tm.warm = calloc(nt, sizeof(double));
    double *rates = calloc(ns, sizeof(double));
    int rc = -1;
    if (!w || !tm.t0 || !tm.t1 || !tm.warm || !rates) {
        bs_error_set(err, DLTI_ERROR_NOMEM, "measure: out of memory");
        goto done;
    }
    pthread_mutex_init(&tm.lock, NULL);
    pthread_cond_init(&tm.gate_cv, NULL);
    /* Threads wait at a gate until all exist: a failed pthread_create then
     * sends the others home rather than leaving them at a barrier. */
    size_t made = 0;
    for (; made < nt; made++) {
        w[made].tm = &tm;
        w[made].id = (int)made;
        if (pthread_create(&w[made].th, NULL, work, &w[made]) != 0)
            break;
    }
    if (made == nt)
        pthread_barrier_init(&tm.bar, NULL, (unsigned)nt);
    pthread_mutex_lock(&tm.lock);
    tm.abort = made != nt;
    tm.gate_open = true;
    pthread_cond_broadcast(&tm.gate_cv);
    pthread_mutex_unlock(&tm.lock);
    for (size_t i = 0; i < made; i++)
        pthread_join(w[i].th, NULL);
    if (made != nt) {
        bs_error_set(err, DLTI_ERROR_IO, "measure: cannot start %zu threads", nt);
    } else if (tm.failed) {
        /* Keep the kernel's name first: "measure: the triad kernel: ...". */
        bs_error_set(err, tm.err.code, "measure: %s", tm.err.text);
    } else {
        double work_all = pass_work(r) * (double)nt * (double)tm.passes;
        ns = (size_t)tm.samples;
        r->samples_run = tm.samples;
        for (size_t s = 0; s < ns; s++) {
            double first = tm.t0[s * nt], last = tm.t1[s * nt];
            for (size_t i = 1; i < nt; i++) {
                if (tm.t0[s * nt + i] < first)
                    first = tm.t0[s * nt + i];
                if (tm.t1[s * nt + i] > last)
                    last = tm.t1[s * nt + i];
            }
            rates[s] = last > first ? work_all / (last - first) : 0;
        }
        qsort(rates, ns, sizeof(double), cmp_double);
        r->best = rates[ns - 1];
        r->median = rates[ns / 2]; /* of an even count, the faster middle one */
        r->worst = rates[0];
        rc = r->best > 0 ? 0 : -1;
        if (rc)
            bs_error_set(err, DLTI_ERROR_IO, "measure: the clock did not advance");
    }
    if (made == nt)
        pthread_barrier_destroy(&tm.bar);
    pthread_cond_destroy(&tm.gate_cv);
    pthread_mutex_destroy(&tm.lock);
done:
    free(w);
    free(tm.t0);
    free(tm.t1);
    free(tm.warm);
    free(rates);
    return rc;
}
