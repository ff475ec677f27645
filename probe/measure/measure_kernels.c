/* The measurement kernels, one set per ISA, each compiled for its ISA with
 * a target attribute (the rest of the library stays baseline x86-64) and
 * chosen at run time by what the CPU and the OS support.  Intrinsics rather
 * than auto-vectorised loops: the instruction mix is then what the name says
 * (an FMA kernel is FMAs, a read kernel loads and adds), whatever -O level
 * or -ffp-contract the build uses. */
#include "measure_private.h"
#include "probe_private.h"

#include <math.h>
#include <string.h>

/* ---- portable C: the fallback everywhere ---- */

static double read_c(const double *a, size_t n)
{
    double s[8] = {0};
    for (size_t i = 0; i < n; i += 8)
        for (int j = 0; j < 8; j++)
            s[j] += a[i + (size_t)j];
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

static void triad_c(double *a, const double *b, const double *c, double s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}

/* The FMA kernels' shape, for any accumulator type T and fused step
 * FMA(acc, mul, add): MK_FMA_ACC independent chains, two dependent steps
 * per iteration, then every lane summed by REDUCE.  The chains start at
 * values the compiler cannot see (`init`): chains it could prove equal it
 * would compute once (GCC does). */
#define FMA_BODY(T, SET1, FMA, ADD, REDUCE, iters, init, one, d1, d2)                        \
    T x = SET1(one), p = SET1(d1), q = SET1(d2);                                            \
    T a0 = SET1(init[0]), a1 = SET1(init[1]), a2 = SET1(init[2]), a3 = SET1(init[3]);       \
    T a4 = SET1(init[4]), a5 = SET1(init[5]), a6 = SET1(init[6]), a7 = SET1(init[7]);       \
    T a8 = SET1(init[8]), a9 = SET1(init[9]), a10 = SET1(init[10]), a11 = SET1(init[11]);   \
    for (uint64_t it = 0; it < (iters); it++) {                                            \
        a0 = FMA(a0, x, p); a1 = FMA(a1, x, p); a2 = FMA(a2, x, p); a3 = FMA(a3, x, p);    \
        a4 = FMA(a4, x, p); a5 = FMA(a5, x, p); a6 = FMA(a6, x, p); a7 = FMA(a7, x, p);    \
        a8 = FMA(a8, x, p); a9 = FMA(a9, x, p); a10 = FMA(a10, x, p); a11 = FMA(a11, x, p);\
        a0 = FMA(a0, x, q); a1 = FMA(a1, x, q); a2 = FMA(a2, x, q); a3 = FMA(a3, x, q);    \
        a4 = FMA(a4, x, q); a5 = FMA(a5, x, q); a6 = FMA(a6, x, q); a7 = FMA(a7, x, q);    \
        a8 = FMA(a8, x, q); a9 = FMA(a9, x, q); a10 = FMA(a10, x, q); a11 = FMA(a11, x, q);\
    }                                                                                       \
    T s = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));                \
    s = ADD(s, ADD(ADD(a8, a9), ADD(a10, a11)));                                            \
    return REDUCE(s)

_Static_assert(MK_FMA_ACC == 12, "FMA_BODY writes out 12 accumulators");

#define ID(v) (v)
#define PLUS(a, b) ((a) + (b))
static double fma_c_f64(uint64_t iters, const double *init, double one, double d1, double d2)
{
    FMA_BODY(double, ID, fma, PLUS, ID, iters, init, one, d1, d2);
}
static float fma_c_f32(uint64_t iters, const float *init, float one, float d1, float d2)
{
    FMA_BODY(float, ID, fmaf, PLUS, ID, iters, init, one, d1, d2);
}

static const mk_kernels kernels_c = {"portable C", 64, read_c, triad_c, fma_c_f64, fma_c_f32};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* ---- AVX-512F: 512-bit vectors ---- */
#define T512 __attribute__((target("avx512f")))

T512 static double read_avx512(const double *a, size_t n)
{
    __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0,
            s7 = s0;
    for (size_t i = 0; i < n; i += 64) {
        s0 = _mm512_add_pd(s0, _mm512_load_pd(a + i));
        s1 = _mm512_add_pd(s1, _mm512_load_pd(a + i + 8));
        s2 = _mm512_add_pd(s2, _mm512_load_pd(a + i + 16));
        s3 = _mm512_add_pd(s3, _mm512_load_pd(a + i + 24));
        s4 = _mm512_add_pd(s4, _mm512_load_pd(a + i + 32));
        s5 = _mm512_add_pd(s5, _mm512_load_pd(a + i + 40));
        s6 = _mm512_add_pd(s6, _mm512_load_pd(a + i + 48));
        s7 = _mm512_add_pd(s7, _mm512_load_pd(a + i + 56));
    }
    s0 = _mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3));
    s4 = _mm512_add_pd(_mm512_add_pd(s4, s5), _mm512_add_pd(s6, s7));
    return _mm512_reduce_add_pd(_mm512_add_pd(s0, s4));
}

T512 static void triad_avx512(double *a, const double *b, const double *c, double s, size_t n)
{
    const __m512d sv = _mm512_set1_pd(s);
    for (size_t i = 0; i < n; i += 16) {
        _mm512_store_pd(a + i, _mm512_fmadd_pd(sv, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
        _mm512_store_pd(a + i + 8,
                        _mm512_fmadd_pd(sv, _mm512_load_pd(c + i + 8), _mm512_load_pd(b + i + 8)));
    }
}

T512 static double fma_avx512_f64(uint64_t iters, const double *init, double one, double d1,
                                  double d2)
{
    FMA_BODY(__m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, _mm512_reduce_add_pd,
             iters, init, one, d1, d2);
}
T512 static float fma_avx512_f32(uint64_t iters, const float *init, float one, float d1,
                                 float d2)
{
    FMA_BODY(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_reduce_add_ps, iters,
             init, one, d1, d2);
}

static const mk_kernels kernels_avx512 = {"avx512f", 512, read_avx512, triad_avx512,
                                          fma_avx512_f64, fma_avx512_f32};

/* ---- AVX2 + FMA: 256-bit vectors ---- */
#define T256 __attribute__((target("avx2,fma")))

T256 static double hsum256d(__m256d v)
{
    __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
    lo = _mm_add_pd(lo, hi);
    return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
}
T256 static float hsum256s(__m256 v)
{
    __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
    lo = _mm_add_ps(lo, hi);
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    return _mm_cvtss_f32(_mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1)));
}

T256 static double read_avx2(const double *a, size_t n)
{
    __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0,
            s7 = s0;
    for (size_t i = 0; i < n; i += 32) {
        s0 = _mm256_add_pd(s0, _mm256_load_pd(a + i));
        s1 = _mm256_add_pd(s1, _mm256_load_pd(a + i + 4));
        s2 = _mm256_add_pd(s2, _mm256_load_pd(a + i + 8));
        s3 = _mm256_add_pd(s3, _mm256_load_pd(a + i + 12));
        s4 = _mm256_add_pd(s4, _mm256_load_pd(a + i + 16));
        s5 = _mm256_add_pd(s5, _mm256_load_pd(a + i + 20));
        s6 = _mm256_add_pd(s6, _mm256_load_pd(a + i + 24));
        s7 = _mm256_add_pd(s7, _mm256_load_pd(a + i + 28));
    }
    s0 = _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3));
    s4 = _mm256_add_pd(_mm256_add_pd(s4, s5), _mm256_add_pd(s6, s7));
    return hsum256d(_mm256_add_pd(s0, s4));
}

T256 static void triad_avx2(double *a, const double *b, const double *c, double s, size_t n)
{
    const __m256d sv = _mm256_set1_pd(s);
    for (size_t i = 0; i < n; i += 8) {
        _mm256_store_pd(a + i, _mm256_fmadd_pd(sv, _mm256_load_pd(c + i), _mm256_load_pd(b + i)));
        _mm256_store_pd(a + i + 4,
                        _mm256_fmadd_pd(sv, _mm256_load_pd(c + i + 4), _mm256_load_pd(b + i + 4)));
    }
}

T256 static double fma_avx2_f64(uint64_t iters, const double *init, double one, double d1,
                                double d2)
{
    FMA_BODY(__m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, hsum256d, iters, init, one,
             d1, d2);
}
T256 static float fma_avx2_f32(uint64_t iters, const float *init, float one, float d1, float d2)
{
    FMA_BODY(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, hsum256s, iters, init, one,
             d1, d2);
}

static const mk_kernels kernels_avx2 = {"avx2+fma", 256, read_avx2, triad_avx2, fma_avx2_f64,
                                        fma_avx2_f32};

static bool has_feature(const pb_isa *isa, const char *name)
{
    for (size_t i = 0; i < isa->nfeatures; i++)
        if (strcmp(isa->features[i], name) == 0)
            return true;
    return false;
}

const mk_kernels *mk_select(void)
{
    /* pb_isa_detect checks the OS state too (XGETBV): a CPU with AVX-512
     * under an OS that does not save ZMM registers gets the AVX2 kernels. */
    pb_isa isa;
    pb_isa_detect(&isa);
    if (has_feature(&isa, "avx512f"))
        return &kernels_avx512;
    if (has_feature(&isa, "avx2") && has_feature(&isa, "fma"))
        return &kernels_avx2;
    return &kernels_c;
}

#elif defined(__aarch64__)
#include <arm_neon.h>

/* ---- NEON (every aarch64 core): 128-bit vectors ---- */

static double read_neon(const double *a, size_t n)
{
    float64x2_t s0 = vdupq_n_f64(0), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0,
                s7 = s0;
    for (size_t i = 0; i < n; i += 16) {
        s0 = vaddq_f64(s0, vld1q_f64(a + i));
        s1 = vaddq_f64(s1, vld1q_f64(a + i + 2));
        s2 = vaddq_f64(s2, vld1q_f64(a + i + 4));
        s3 = vaddq_f64(s3, vld1q_f64(a + i + 6));
        s4 = vaddq_f64(s4, vld1q_f64(a + i + 8));
        s5 = vaddq_f64(s5, vld1q_f64(a + i + 10));
        s6 = vaddq_f64(s6, vld1q_f64(a + i + 12));
        s7 = vaddq_f64(s7, vld1q_f64(a + i + 14));
    }
    s0 = vaddq_f64(vaddq_f64(s0, s1), vaddq_f64(s2, s3));
    s4 = vaddq_f64(vaddq_f64(s4, s5), vaddq_f64(s6, s7));
    return vaddvq_f64(vaddq_f64(s0, s4));
}

static void triad_neon(double *a, const double *b, const double *c, double s, size_t n)
{
    const float64x2_t sv = vdupq_n_f64(s);
    for (size_t i = 0; i < n; i += 2)
        vst1q_f64(a + i, vfmaq_f64(vld1q_f64(b + i), sv, vld1q_f64(c + i)));
}

#define NFMA64(acc, m, add) vfmaq_f64(add, acc, m)
#define NFMA32(acc, m, add) vfmaq_f32(add, acc, m)
static double fma_neon_f64(uint64_t iters, const double *init, double one, double d1, double d2)
{
    FMA_BODY(float64x2_t, vdupq_n_f64, NFMA64, vaddq_f64, vaddvq_f64, iters, init, one, d1, d2);
}
static float fma_neon_f32(uint64_t iters, const float *init, float one, float d1, float d2)
{
    FMA_BODY(float32x4_t, vdupq_n_f32, NFMA32, vaddq_f32, vaddvq_f32, iters, init, one, d1, d2);
}

static const mk_kernels kernels_neon = {"neon", 128, read_neon, triad_neon, fma_neon_f64,
                                        fma_neon_f32};

const mk_kernels *mk_select(void)
{
    (void)&kernels_c; /* every aarch64 core has NEON: the fallback is unused */
    return &kernels_neon;
}

#else

const mk_kernels *mk_select(void)
{
    return &kernels_c;
}

#endif
