/* The kernels of `sysdesc measure --device` (docs/measure.md, "Devices"),
 * in OpenCL C 1.2.  The OpenCL backend builds this text at run time;
 * scripts/gen-device-kernels.py embeds it in probe/measure/measure_dev_cl.c and
 * compiles it, once, with clang for nvptx64 into the PTX text the CUDA
 * backend hands to cuModuleLoadData (probe/measure/kernels/device.comp is the same
 * for Vulkan).  Every kernel has one signature, so that each backend sets
 * its arguments in one place:
 *   x, y, z: data buffers; r: one result per work-item; n: elements of x
 *   (vectors of SD_WV words: uint or float); reps: repetitions; c: work-items
 *   whose elements interleave (SPAN below);
 *   s, d, e: the FMA operands.
 * Every result is checked by the host (probe/measure/measure_dev.c): each kernel
 * leaves something that only the whole of its work produces.
 * Work-groups have MD_GROUP = 128 work-items. */
#ifdef __NVPTX__
/* The OpenCL work-item functions as PTX special registers. */
#define get_global_id(dim) (__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + \
                            __nvvm_read_ptx_sreg_tid_x())
#define get_global_size(dim) (__nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_ntid_x())
#define get_local_id(dim) __nvvm_read_ptx_sreg_tid_x()
#define barrier(flags) __syncthreads()
/* The SM's cycle counter and the global nanosecond timer (PTX special
 * registers), read where the asm stands. */
static inline ulong sd_clock(void)
{
    ulong v;
    __asm__ volatile("mov.u64 %0, %%clock64;" : "=l"(v)::"memory");
    return v;
}
static inline ulong sd_timer(void)
{
    ulong v;
    __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(v)::"memory");
    return v;
}
static inline float __attribute__((overloadable)) fma(float a, float b, float c)
{
    return __builtin_fmaf(a, b, c);
}
#endif

#ifdef SD_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifdef __NVPTX__
static inline double __attribute__((overloadable)) fma(double a, double b, double c)
{
    return __builtin_fma(a, b, c);
}
#endif
#endif
#ifdef SD_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifdef __NVPTX__
/* Contracted into one packed fma.rn.f16x2 (sm_53 and later). */
static inline half2 __attribute__((overloadable)) fma(half2 a, half2 b, half2 c)
{
#pragma OPENCL FP_CONTRACT ON
    return a * b + c;
}
#endif
#endif

#define KERNEL __kernel __attribute__((reqd_work_group_size(128, 1, 1))) void
/* Vector widths (the OpenCL backend passes the device's preferred ones;
 * these elsewhere): SD_W32 and SD_W64 lanes of the FMA chains, SD_WV
 * (4, 8 or 16) words of the bandwidth and local memory kernels' elements. */
#ifndef SD_W32
#define SD_W32 1
#endif
#ifndef SD_W64
#define SD_W64 1
#endif
#ifndef SD_WV
#define SD_WV 4
#endif
#define VEC_(T, w) T##w
#define VEC(T, w) VEC_(T, w)
typedef VEC(uint, SD_WV) uvec;
typedef VEC(float, SD_WV) fvec;
#if SD_WV == 16
#define IOTA (uvec)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#elif SD_WV == 8
#define IOTA (uvec)(0, 1, 2, 3, 4, 5, 6, 7)
#else
#define IOTA (uvec)(0, 1, 2, 3)
#endif

#define KERNEL __kernel __attribute__((reqd_work_group_size(128, 1, 1))) void
#define ARGS                                                                               \
    __global uvec *x, __global uvec *y, __global uvec *z, __global uint *r, uint n,        \
        uint reps, uint c, float s, float d, float e

/* The sum of the lanes of v (w of them). */
#define HSUM(T, v, w, out)                                                                 \
    do {                                                                                   \
        T *lane_ = (T *)&(v);                                                              \
        out = 0;                                                                           \
        for (int i_ = 0; i_ < (w); i_++)                                                   \
            out += lane_[i_];                                                              \
    } while (0)

/* The FMA kernels' eight chains (below). */
#define CHAINS(T, start)                                                                   \
    T c0 = start(0), c1 = start(1), c2 = start(2), c3 = start(3), c4 = start(4),            \
      c5 = start(5), c6 = start(6), c7 = start(7)
#define STEP(s, d)                                                                         \
    c0 = fma(c0, s, d); c1 = fma(c1, s, d); c2 = fma(c2, s, d); c3 = fma(c3, s, d);        \
    c4 = fma(c4, s, d); c5 = fma(c5, s, d); c6 = fma(c6, s, d); c7 = fma(c7, s, d)
#define SUM (((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7)))

/* The bandwidth kernels' elements.  The G work-items (G the global size)
 * are taken L at a time (L = c, 0 meaning G); each set of L interleaves
 * over a contiguous span of L * C elements (C = n / G, rounded up): work-item
 * gid reads elements base + i * L, i < its count, base = the span's start
 * + gid mod L.  L = G is a GPU's coalesced grid-stride loop; L = 1 gives
 * each work-item a contiguous share, for a CPU whose work-items run one
 * after the other; L = 8 a CPU runtime that runs 8 work-items in SIMD
 * lanes.  SPAN declares base, L and count (elements of this work-item). */
#define SPAN                                                                               \
    uint G = get_global_size(0), gid = get_global_id(0), L = c ? c : G;                    \
    uint C = n / G + (n % G != 0), base = gid / L * L * C + gid % L;                       \
    uint count = base < n ? (n - base + L - 1) / L : 0;                                    \
    count = count < C ? count : C

#ifndef SD_FP16_ONLY
/* Reads x (n elements) `reps` times, each repetition starting one element
 * further into the work-item's own elements (so no load repeats a
 * repetition's address, and the sum is `reps` times one pass's).  r[gid]
 * = the sum of every word read (mod 2^32). */
KERNEL sd_read(ARGS)
{
    SPAN;
    uvec acc = (uvec)(0);
    for (uint rep = 0; rep < reps; rep++) {
        uint first = count ? rep % count : 0;
        for (uint i = first; i < count; i++)
            acc += x[base + i * L];
        for (uint i = 0; i < first; i++)
            acc += x[base + i * L];
    }
    uint sum;
    HSUM(uint, acc, SD_WV, sum);
    r[gid] = sum;
}

/* y = x, n elements. */
KERNEL sd_copy(ARGS)
{
    SPAN;
    for (uint i = 0; i < count; i++)
        y[base + i * L] = x[base + i * L];
}

/* x = y + s * z, n elements of floats (STREAM's triad). */
KERNEL sd_triad(ARGS)
{
    __global fvec *a = (__global fvec *)x;
    __global const fvec *b = (__global const fvec *)y, *cc = (__global const fvec *)z;
    SPAN;
    for (uint i = 0; i < count; i++)
        a[base + i * L] = b[base + i * L] + s * cc[base + i * L];
}

/* Local (shared) memory: each work-group fills 4 KiB, E elements (word i
 * holds i), then every work-item reads four elements per repetition, E / 4
 * apart, at indices that move with the repetition.  r[gid] = the sum of
 * every word read. */
#define E (1024 / SD_WV)
KERNEL sd_local(ARGS)
{
    __local uvec l[E];
    uint lid = get_local_id(0);
    for (uint i = lid; i < E; i += 128)
        l[i] = (uvec)(SD_WV * i) + IOTA;
    barrier(CLK_LOCAL_MEM_FENCE);
    uvec a0 = (uvec)(0), a1 = (uvec)(0), a2 = (uvec)(0), a3 = (uvec)(0);
    for (uint rep = 0; rep < reps; rep++) {
        uint i = lid + rep;
        a0 += l[i & (E - 1)];
        a1 += l[(i + E / 4) & (E - 1)];
        a2 += l[(i + E / 2) & (E - 1)];
        a3 += l[(i + 3 * E / 4) & (E - 1)];
    }
    uvec a = (a0 + a1) + (a2 + a3);
    uint sum;
    HSUM(uint, a, SD_WV, sum);
    r[get_global_id(0)] = sum;
}

/* Eight independent FMA chains a work-item, each SD_W32 lanes wide, chain
 * k starting at 1 + ((gid + k) & 7) in every lane; each repetition does
 * c = c * s + d, then c = c * s + e.  ((float *)r)[gid] = the sum of every
 * lane of every chain.  Under CUDA, work-item 0 also leaves the SM clock
 * and the global timer before and after its chains in y (ulong: cycles,
 * nanoseconds), for the clock. */
#if SD_W32 > 1
typedef VEC(float, SD_W32) f32v;
#else
typedef float f32v;
#endif
KERNEL sd_fma32(ARGS)
{
    uint gid = get_global_id(0);
#define START32(k) (f32v)(1 + ((gid + k) & 7))
    CHAINS(f32v, START32);
#ifdef __NVPTX__
    ulong clk0 = sd_clock(), ns0 = sd_timer();
#endif
    for (uint rep = 0; rep < reps; rep++) {
        STEP(s, d);
        STEP(s, e);
    }
#ifdef __NVPTX__
    ulong clk1 = sd_clock(), ns1 = sd_timer();
    if (gid == 0) {
        __global ulong *t = (__global ulong *)y;
        t[0] = clk0;
        t[1] = clk1;
        t[2] = ns0;
        t[3] = ns1;
    }
#endif
    f32v t = SUM;
    float sum;
    HSUM(float, t, SD_W32, sum);
    ((__global float *)r)[gid] = sum;
}

#ifdef SD_FP64
/* The same in f64 (SD_W64 lanes); ((double *)r)[gid] = the sum. */
#if SD_W64 > 1
typedef VEC(double, SD_W64) f64v;
#else
typedef double f64v;
#endif
KERNEL sd_fma64(ARGS)
{
    uint gid = get_global_id(0);
    f64v sd = (f64v)s, dd = (f64v)d, ed = (f64v)e;
#define START64(k) (f64v)(1 + ((gid + k) & 7))
    CHAINS(f64v, START64);
    for (uint rep = 0; rep < reps; rep++) {
        STEP(sd, dd);
        STEP(sd, ed);
    }
    f64v t = SUM;
    double sum;
    HSUM(double, t, SD_W64, sum);
    ((__global double *)r)[gid] = sum;
}
#endif
#endif /* SD_FP16_ONLY */

#ifdef SD_FP16
/* The same in f16, two lanes a chain (half2: the packed f16 FMA of GPUs);
 * ((float *)r)[gid] = the sum of every lane of every chain.  s, d and e
 * carry half2 words, packed by the host: a half2 splat made here from a
 * float became a lane-select operand in the H100's machine code, which
 * only one of its two f16 pipes takes (half the rate). */
KERNEL sd_fma16(ARGS)
{
    uint gid = get_global_id(0);
    half2 sh = as_half2(s), dh = as_half2(d), eh = as_half2(e);
#define START16(k) (half2)((half)(1 + ((gid + k) & 7)), (half)(1 + ((gid + k + 4) & 7)))
    CHAINS(half2, START16);
    for (uint rep = 0; rep < reps; rep++) {
        STEP(sh, dh);
        STEP(sh, eh);
    }
    half2 t = SUM;
    ((__global float *)r)[gid] = (float)t.x + (float)t.y;
}
#endif
