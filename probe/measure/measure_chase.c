/* Load-to-use latency (a randomised pointer chase) and the achieved clock
 * (a chain of dependent integer adds). */
#define _GNU_SOURCE
#include "measure_private.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define PER_LINE (LINE / sizeof(void *))

static uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

int mk_chain_build(mk_chain *c, size_t bytes, uint64_t seed)
{
    memset(c, 0, sizeof(*c));
    size_t lines = bytes / LINE;
    if (lines < 2 || lines > SIZE_MAX / sizeof(size_t))
        return -1;
    size_t align = lines * LINE >= MK_HUGE_PAGE ? MK_HUGE_PAGE : MK_ALIGN;
    size_t size = (lines * LINE + align - 1) / align * align;
    void **base = aligned_alloc(align, size);
    size_t *order = malloc(lines * sizeof(size_t));
    if (!base || !order) {
        free(base);
        free(order);
        return -1;
    }
#ifdef MADV_HUGEPAGE
    /* Large pages where the kernel gives them: the chase then measures the
     * caches and DRAM more than the page walks (docs/measure.md). */
    (void)madvise(base, size, MADV_HUGEPAGE);
#endif
    /* Sattolo's shuffle: one cycle through every line, in random order, so
     * that neither the prefetchers nor the line's neighbours help. */
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    uint64_t s = seed | 1;
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j = (size_t)(xorshift(&s) % i);
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* Line order[i] points to line order[i+1]; the last back to the first. */
    for (size_t i = 0; i < lines; i++)
        base[order[i] * PER_LINE] = &base[order[(i + 1) % lines] * PER_LINE];
    free(order);
    c->base = base;
    c->lines = lines;
    return 0;
}

bool mk_chain_holds(const mk_chain *c, const void *p)
{
    uintptr_t b = (uintptr_t)c->base, q = (uintptr_t)p;
    return c->base && q >= b && q < b + c->lines * LINE && (q - b) % LINE == 0;
}

void mk_chain_free(mk_chain *c)
{
    free(c->base);
    memset(c, 0, sizeof(*c));
}

void *mk_chase(void *start, uint64_t steps)
{
    void **p = start;
    uint64_t n = steps / 8;
    for (uint64_t i = 0; i < n; i++) {
        p = *p; p = *p; p = *p; p = *p;
        p = *p; p = *p; p = *p; p = *p;
    }
    for (uint64_t i = 0; i < steps % 8; i++)
        p = *p;
    return p;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#if (defined(__x86_64__) || defined(__aarch64__)) && (defined(__GNUC__) || defined(__clang__))
/* 32 dependent adds an iteration: one cycle each, while the loop's own
 * counter and branch run beside them on the other ports. */
#if defined(__x86_64__)
#define ADD1 "add $1, %0\n\t"
#else
#define ADD1 "add %0, %0, #1\n\t"
#endif
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADDS_PER_ITER 32

static uint64_t add_chain(uint64_t iters)
{
    uint64_t x = 0;
    for (uint64_t i = 0; i < iters; i++)
        __asm__ volatile(ADD8 ADD8 ADD8 ADD8 : "+r"(x));
    return x;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

mk_stat mk_clock_mhz(double sample_s, int samples)
{
    mk_stat st = {0};
    uint64_t iters = 1000;
    double *mhz = samples > 0 ? malloc((size_t)samples * sizeof(double)) : NULL;
    if (!mhz)
        return st; /* no room for the samples: report no clock */
    /* Grow the run to the sample length first: the clock ramps up meanwhile. */
    for (;;) {
        double t0 = now_s();
        uint64_t x = add_chain(iters);
        double t = now_s() - t0;
        if (x != iters * ADDS_PER_ITER) {
            free(mhz);
            return st; /* cannot happen unless the asm is wrong: report no clock */
        }
        if (t >= sample_s || iters > (UINT64_C(1) << 40))
            break;
        iters = t > 1e-6 && sample_s / t < 64 ? (uint64_t)((double)iters * sample_s / t) + 1
                                              : iters * 64;
    }
    int n = 0;
    for (int s = 0; s < samples; s++) {
        double t0 = now_s();
        uint64_t x = add_chain(iters);
        double t = now_s() - t0;
        if (x == iters * ADDS_PER_ITER && t > 0)
            mhz[n++] = (double)iters * ADDS_PER_ITER / t / 1e6;
    }
    if (n > 0) {
        qsort(mhz, (size_t)n, sizeof(double), cmp_double);
        st.median = mhz[n / 2];
        st.best = mhz[n - 1];
        st.spread = (mhz[n - 1] - mhz[0]) / st.median;
        st.samples = n;
    }
    free(mhz);
    return st;
}
#else
mk_stat mk_clock_mhz(double sample_s, int samples)
{
    (void)sample_s;
    (void)samples;
    return (mk_stat){0};
}
#endif
