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
    size_t size = (lines * LINE + MK_ALIGN - 1) / MK_ALIGN * MK_ALIGN;
    void **base = aligned_alloc(MK_ALIGN, size);
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

double mk_clock_mhz(double sample_s, int samples)
{
    uint64_t iters = 1000;
    double best = 0;
    /* Grow the run to the sample length first: the clock ramps up meanwhile. */
    for (;;) {
        double t0 = now_s();
        uint64_t x = add_chain(iters);
        double t = now_s() - t0;
        if (x != iters * ADDS_PER_ITER)
            return 0; /* cannot happen unless the asm is wrong: report no clock */
        if (t >= sample_s || iters > (UINT64_C(1) << 40))
            break;
        iters = t > 1e-6 && sample_s / t < 64 ? (uint64_t)((double)iters * sample_s / t) + 1
                                              : iters * 64;
    }
    for (int s = 0; s < samples; s++) {
        double t0 = now_s();
        uint64_t x = add_chain(iters);
        double t = now_s() - t0;
        if (x == iters * ADDS_PER_ITER && t > 0) {
            double mhz = (double)iters * ADDS_PER_ITER / t / 1e6;
            if (mhz > best)
                best = mhz;
        }
    }
    return best;
}
#else
double mk_clock_mhz(double sample_s, int samples)
{
    (void)sample_s;
    (void)samples;
    return 0;
}
#endif
