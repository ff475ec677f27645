/* The latency curve over growing working sets (docs/measure.md, "Effective
 * capacity"): one pointer chain, one line per 64 bytes, grown from the
 * smallest working set to the largest by inserting each new line after a
 * randomly chosen line of the chain.  Inserting after a uniformly chosen
 * element keeps a uniformly random single cycle, so every size is a chase
 * as random as Sattolo's shuffle gives (measure_chase.c), and growing the
 * chain costs one insertion a line over the whole sweep, where rebuilding
 * it at each size would cost several times the largest. */
#define _GNU_SOURCE
#include "measure_private.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define PER_LINE (LINE / sizeof(void *))
/* Working sets grow by 2^(1/4): four points a doubling. */
#define GROWTH 1.189207115002721
/* Up to this many lines, the warm-up walks the whole cycle and must come
 * back to the start (1 MiB: at most ~2 ms at memory's latency). */
#define WALK_WHOLE ((size_t)1 << 14)
/* Loads of the warm-up beyond that (the insertions have just touched the
 * new lines: a long warm-up at memory's latency cost more than the whole
 * sweep's samples), and of the run that sizes a sample. */
#define WARM_LOADS ((uint64_t)1 << 11)
#define PROBE_LOADS 256
/* The most samples of one working set, and passes over them all. */
#define MAX_SAMPLES 64
#define MAX_PASSES 9

typedef struct sweep_job {
    mk_sweep *s;
    double sample_s;
    int samples, passes;
    int rc;
    dlti_error_t err;
    volatile uintptr_t sink; /* where the chase ended: kept, so the loads stay */
} sweep_job;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static bool holds(void **base, size_t lines, const void *p)
{
    uintptr_t b = (uintptr_t)base, q = (uintptr_t)p;
    return q >= b && q < b + lines * LINE && (q - b) % LINE == 0;
}

/* The working sets: from `from` by GROWTH up to `to`, and `to` itself
 * (twice the largest cache: where the curve shows memory's latency), whole
 * lines, each larger than the one before. */
static size_t plan_sizes(mk_sweep *s, size_t from, size_t to)
{
    s->n = 0;
    double b = (double)from;
    while (s->n < MK_SWEEP_MAX && b <= (double)to) {
        size_t bytes = (size_t)b / LINE * LINE;
        if (bytes >= 2 * LINE && (s->n == 0 || bytes > s->bytes[s->n - 1]))
            s->bytes[s->n++] = bytes;
        b *= GROWTH;
    }
    size_t last = to / LINE * LINE;
    if (s->n < MK_SWEEP_MAX && last >= 2 * LINE && (s->n == 0 || last > s->bytes[s->n - 1]))
        s->bytes[s->n++] = last;
    return s->n;
}

/* One pass: the chain grown from one line to the largest working set,
 * each working set's median of j->samples samples into ns[]; 0, or -1
 * with j->err. */
static int one_pass(sweep_job *j, void **base, uint64_t seed, double *ns)
{
    mk_sweep *s = j->s;
    size_t lines = 1;
    base[0] = &base[0];
    void *p = &base[0];
    double v[MAX_SAMPLES];
    for (size_t i = 0; i < s->n; i++) {
        size_t want = s->bytes[i] / LINE;
        /* Insert each new line after a random line of the chain. */
        for (; lines < want; lines++) {
            size_t x = (size_t)(xorshift(&seed) % lines);
            base[lines * PER_LINE] = base[x * PER_LINE];
            base[x * PER_LINE] = &base[lines * PER_LINE];
        }
        /* Warm-up; a small chain walked whole must come back to the start. */
        if (lines <= WALK_WHOLE) {
            if (mk_chase(&base[0], lines) != (void *)&base[0]) {
                bs_error_set(&j->err, DLTI_ERROR_VERIFY,
                             "measure: the latency sweep's chain is not one cycle of %zu "
                             "lines",
                             lines);
                return -1;
            }
            p = &base[0];
        } else {
            p = mk_chase(p, WARM_LOADS);
        }
        /* A sample's loads: about sample_s seconds at this size's latency. */
        double t0 = now_s();
        p = mk_chase(p, PROBE_LOADS);
        double per = (now_s() - t0) / PROBE_LOADS;
        uint64_t loads = per > 0 ? (uint64_t)(j->sample_s / per) : 1u << 20;
        if (loads < PROBE_LOADS)
            loads = PROBE_LOADS;
        if (loads > (1u << 24))
            loads = 1u << 24;
        for (int k = 0; k < j->samples; k++) {
            t0 = now_s();
            p = mk_chase(p, loads);
            v[k] = (now_s() - t0) / (double)loads * 1e9;
        }
        qsort(v, (size_t)j->samples, sizeof(double), cmp_double);
        ns[i] = v[j->samples / 2];
        if (!holds(base, lines, p)) {
            bs_error_set(&j->err, DLTI_ERROR_VERIFY, "measure: the latency sweep left its chain");
            return -1;
        }
    }
    j->sink = (uintptr_t)p;
    return 0;
}

/* The passes, each over every working set with a chain of its own: a
 * disturbance of some milliseconds (another process on this core or its
 * sibling thread) then falls on some working sets in one pass, and the
 * median over the passes leaves it out. */
static void *sweep_thread(void *arg)
{
    sweep_job *j = arg;
    mk_sweep *s = j->s;
    size_t max_lines = s->bytes[s->n - 1] / LINE;
    /* Aligned to a large page: a buffer that starts 4 KiB before one (as
     * glibc's mmap'd chunks in a thread do) holds its first lines in a small
     * page and the rest in a large one, and on a VM that doubled and
     * tripled the L1 latency of 5-30 KiB chains (docs/measure.md). */
    size_t align = max_lines * LINE >= MK_HUGE_PAGE ? MK_HUGE_PAGE : MK_ALIGN;
    size_t size = (max_lines * LINE + align - 1) / align * align;
    void **base = aligned_alloc(align, size);
    double (*ns)[MK_SWEEP_MAX] = calloc((size_t)j->passes, sizeof(*ns));
    if (!base || !ns) {
        bs_error_set(&j->err, DLTI_ERROR_NOMEM,
                     "measure: out of memory for the latency sweep (%zu bytes)", size);
        goto out;
    }
#ifdef MADV_HUGEPAGE
    /* Large pages, as every chase: the curve then shows the caches and not
     * the page walks (docs/measure.md, "Latency"). */
    (void)madvise(base, size, MADV_HUGEPAGE);
#endif
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    for (int pass = 0; pass < j->passes; pass++)
        if (one_pass(j, base, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)pass, ns[pass]) != 0)
            goto out;
    double v[MAX_PASSES];
    for (size_t i = 0; i < s->n; i++) {
        for (int pass = 0; pass < j->passes; pass++)
            v[pass] = ns[pass][i];
        qsort(v, (size_t)j->passes, sizeof(double), cmp_double);
        s->ns[i] = v[j->passes / 2];
    }
    j->rc = 0;
out:
    free(base);
    free(ns);
    return NULL;
}

int mk_sweep_run(mk_sweep *s, size_t from, size_t to, int cpu, double sample_s, int samples,
                 int passes, dlti_error_t *err)
{
    if (from < 2 * LINE || to < from || samples < 1 || passes < 1 || !(sample_s > 0)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: a latency sweep from %zu to %zu bytes",
                     from, to);
        return -1;
    }
    if (samples > MAX_SAMPLES)
        samples = MAX_SAMPLES;
    if (passes > MAX_PASSES)
        passes = MAX_PASSES;
    if (plan_sizes(s, from, to) == 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: a latency sweep of no working set");
        return -1;
    }
    sweep_job j = {.s = s, .sample_s = sample_s, .samples = samples, .passes = passes, .rc = -1};
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        bs_error_set(err, DLTI_ERROR_IO, "measure: cannot start the latency sweep's thread");
        return -1;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_t th;
    int pe = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
    if (pe == 0)
        pe = pthread_create(&th, &attr, sweep_thread, &j);
    pthread_attr_destroy(&attr);
    if (pe != 0) {
        bs_error_set(err, DLTI_ERROR_IO,
                     "measure: cannot start the latency sweep's thread on CPU %d: %s", cpu,
                     strerror(pe));
        return -1;
    }
    pthread_join(th, NULL);
    if (j.rc != 0) {
        if (err)
            *err = j.err;
        return -1;
    }
    return 0;
}
