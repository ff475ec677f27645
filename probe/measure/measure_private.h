/* measure_private.h - what the measurement files share (not installed).
 * measure_kernels.c: the kernels of each ISA; measure_chase.c: latency and
 * clock; measure_sweep.c: the latency curve over working sets; measure_steps.c:
 * the effective capacities read off it; measure_team.c: pinned threads timing a
 * kernel; measure_host.c: the plan and the `measured` map. */
#ifndef SYSDESC_MEASURE_PRIVATE_H
#define SYSDESC_MEASURE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysdesc/measure.h"
#include "base_private.h"

/* Every buffer is aligned to this and a whole number of these long, and
 * every kernel's element count is a multiple of MK_BLOCK (the widest
 * unrolled step: 8 AVX-512 vectors of 8 doubles). */
#define MK_ALIGN 4096
#define MK_BLOCK 64
/* The smallest working set a thread's run of a kernel holds: the read
 * kernel sums whole runs of 1024 doubles (its sums stay exact integers),
 * triad three arrays of a block each, the chase two lines of 64 bytes.
 * The plan leaves out a level whose working set is smaller, and
 * mk_team_run refuses such a run rather than measure more than was asked. */
#define MK_MIN_READ_BYTES ((size_t)1024 * sizeof(double))
#define MK_MIN_TRIAD_BYTES ((size_t)3 * MK_BLOCK * sizeof(double))
#define MK_MIN_CHASE_BYTES ((size_t)2 * 64)
/* A chase buffer of at least this size is aligned to it: a transparent
 * huge page (x86-64, aarch64 with 4 KiB pages), so that its lines lie in
 * pages of one size. */
#define MK_HUGE_PAGE ((size_t)2 << 20)

/* Accumulators of the FMA kernels: independent chains, enough to cover
 * FMA latency x FMA pipes (Zen 4: 4 x 2, Skylake-X: 4 x 2, Neoverse V1:
 * 4 x 4 at 128 bits), so the rate is throughput-bound. */
#define MK_FMA_ACC 12

/* The kernels of one ISA. */
typedef struct mk_kernels {
    const char *isa;  /* "avx512f", "avx2+fma", "neon", "portable C" */
    int vector_bits;  /* of the FMA kernel's vectors */
    /* Sum of a[0..n): n a multiple of MK_BLOCK, a aligned. */
    double (*read)(const double *a, size_t n);
    /* a[i] = b[i] + s * c[i] for i < n (fused multiply-add where the ISA has one). */
    void (*triad)(double *a, const double *b, const double *c, double s, size_t n);
    /* MK_FMA_ACC vectors of accumulators, vector j starting at init[j] in
     * every lane; each of `iters` iterations does acc = acc * one + d1, then
     * acc = acc * one + d2.  Returns the sum of every lane of every
     * accumulator. */
    double (*fma_f64)(uint64_t iters, const double *init, double one, double d1, double d2);
    float (*fma_f32)(uint64_t iters, const float *init, float one, float d1, float d2);
} mk_kernels;

/* The widest kernels this CPU and its OS support (CPUID + XGETBV through the
 * probe's ISA detection on x86; NEON on aarch64; portable C elsewhere). */
const mk_kernels *mk_select(void);
/* f64 (or f32) lanes of one FMA vector of `k`. */
static inline unsigned mk_lanes(const mk_kernels *k, bool f32)
{
    return (unsigned)(k->vector_bits / (f32 ? 32 : 64));
}

/* ---- measure_host.c ---- */

/* The test hook SYSDESC_MEASURE_BREAK_TRIAD (sysdesc/measure.h): whether
 * the triad of the CPU's own kernels (runtime NULL) or of a measurement
 * through `runtime` is to leave its last elements. */
bool mk_break_triad(const char *runtime);

/* Whether the probe listed `path` ("cache.L3.size_in_bytes") under the
 * device's "suspect": a value it kept but does not believe. */
bool mk_suspect(dlti_context *ctx, const dlti_attr *dev, const char *path);

/* What a value is over its samples (docs/measure.md, "Samples"): the
 * median (the middle sample; of an even count the faster of the two
 * middle ones), the best (highest rate, lowest latency) and the spread,
 * (max - min) / median of the value as reported (a latency's in ns). */
typedef struct mk_stat {
    double median, best, spread;
    int samples;
} mk_stat;

/* ---- measure_chase.c ---- */

/* A random cyclic chain of pointers, one per 64-byte line, over `bytes`. */
typedef struct mk_chain {
    void **base;
    size_t lines;
} mk_chain;
/* 0, or -1 when out of memory. `seed` makes the order reproducible. */
int mk_chain_build(mk_chain *c, size_t bytes, uint64_t seed);
void mk_chain_free(mk_chain *c);
/* Follows `steps` pointers from `start`; returns where it ended, so the
 * loads cannot be dropped (the caller checks and keeps it). */
void *mk_chase(void *start, uint64_t steps);
/* Whether p is the start of one of the chain's lines. */
bool mk_chain_holds(const mk_chain *c, const void *p);
/* The core clock in MHz from a chain of dependent integer adds (one cycle
 * each on every x86-64 and aarch64 core) over `samples` runs of about
 * `sample_s` seconds; a median of 0 where no such chain is written (other
 * ISAs). */
mk_stat mk_clock_mhz(double sample_s, int samples);

/* ---- measure_sweep.c ---- */

/* The most working sets one latency sweep visits. */
#define MK_SWEEP_MAX 128

/* A pointer-chase latency curve: the median ns a load at each working set,
 * working sets growing by 2^(1/4) (docs/measure.md, "Effective capacity"). */
typedef struct mk_sweep {
    size_t n;
    size_t bytes[MK_SWEEP_MAX];
    double ns[MK_SWEEP_MAX];
} mk_sweep;

/* Sweeps working sets from `from` to `to` bytes on one thread pinned to
 * `cpu`, `passes` times: each pass one chain, grown by inserting lines at
 * random places (a uniformly random single cycle at every size), each size
 * the median of `samples` samples of about `sample_s` seconds; each size's
 * latency the median over the passes.  0, or -1 with err: NOMEM, IO (the
 * thread), VERIFY (a chase that left its chain or did not come round). */
int mk_sweep_run(mk_sweep *s, size_t from, size_t to, int cpu, double sample_s, int samples,
                 int passes, dlti_error_t *err);

/* ---- measure_steps.c ---- */

/* One cache level's effective capacity, read off a latency sweep. */
typedef struct mk_capacity {
    size_t bytes;  /* the largest working set still at the level's latency */
    double hit_ns; /* the level's own latency: its plateau */
    bool open;     /* no step within the sweep: at least `bytes` */
    bool none;     /* no plateau of its own (its latency is memory's): `bytes` is the level
                      below's */
    bool below_reported; /* the step lies under half the reported size: even the first
                            working set past it is no more than half */
} mk_capacity;

/* A level ends where its latency passes MK_STEP times its own; a level
 * whose own latency is within MK_NOT_A_LEVEL of memory's keeps nothing for
 * this process (docs/measure.md, "Effective capacity"). */
#define MK_STEP 2.0
#define MK_NOT_A_LEVEL 1.5

/* The effective capacity of each of `nlevels` cache levels, smallest first,
 * whose probed sizes are `reported` (bytes one thread reaches), from the
 * sweep `s`: where its latency steps above MK_STEP times its own
 * (docs/measure.md, "Effective capacity").  Pure: the same curve gives the
 * same answer. */
void mk_find_capacities(const mk_sweep *s, const size_t *reported, size_t nlevels,
                        mk_capacity *out);

/* ---- measure_team.c ---- */

typedef enum mk_kind { MK_READ, MK_TRIAD, MK_FMA_F64, MK_FMA_F32, MK_CHASE } mk_kind;

/* One timed kernel on `nthreads` threads, thread t pinned to cpus[t]. */
typedef struct mk_run {
    mk_kind kind;
    const mk_kernels *k;
    size_t bytes;     /* per thread: the working set (READ, TRIAD, CHASE) */
    int nthreads;
    const int *cpus;
    double sample_s;  /* the length a sample aims at */
    int samples;
    double budget_s;  /* the most the samples may take together (0: no bound); at least 3 run */
    bool break_triad; /* the test hook: the triad skips its last MK_BLOCK elements */
    /* out: the best, median and worst sample's rate (bytes/s for READ and
     * TRIAD, FLOP/s for FMA, loads per second for CHASE) */
    double best, median, worst;
    size_t elements;  /* per thread, as run */
    int samples_run;  /* samples taken: `samples`, or fewer within `budget_s` */
} mk_run;

/* 0, or -1 with err: NOMEM, IO (threads), VERIFY (a wrong result). */
int mk_team_run(mk_run *r, dlti_error_t *err);

#endif
