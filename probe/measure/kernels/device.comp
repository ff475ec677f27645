// The kernels of `sysdesc measure --device` for Vulkan, in GLSL: the same
// work and results as probe/measure/kernels/device.cl (read that file for what each
// kernel leaves for the host to check).  scripts/gen-device-kernels.py
// compiles this file once per kernel (-DSD_READ, -DSD_COPY, ...) with
// glslangValidator into the SPIR-V words of probe/measure/measure_dev_spirv.c.
// Every kernel: bindings 0-3 of set 0 are x, y, z and r; the push
// constants are n, reps, c, s, d and e; work-groups of 128 invocations;
// elements of 4 words (device.cl's SD_WV = 4) and scalar FMA chains
// (SD_W32 = SD_W64 = 1).
#version 450
#if defined(SD_FMA16)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

layout(local_size_x = 128) in;
layout(push_constant) uniform Args {
    uint n;
    uint reps;
    uint c;
    float s;
    float d;
    float e;
} p;

uint global_size() { return gl_NumWorkGroups.x * 128u; }

// The bandwidth kernels' elements (device.cl, SPAN): sets of L work-items
// (L = c, 0 meaning G) interleave over contiguous spans of L * C elements.
#define SPAN                                                                               \
    uint G = global_size(), gid = gl_GlobalInvocationID.x, L = p.c != 0u ? p.c : G;        \
    uint C = p.n / G + (p.n % G != 0u ? 1u : 0u), base = gid / L * L * C + gid % L;         \
    uint count = base < p.n ? (p.n - base + L - 1u) / L : 0u;                              \
    count = min(count, C)

#if defined(SD_READ)
layout(std430, set = 0, binding = 0) readonly buffer X { uvec4 x[]; };
layout(std430, set = 0, binding = 3) writeonly buffer R { uint r[]; };
void main()
{
    SPAN;
    uvec4 acc = uvec4(0u);
    for (uint rep = 0u; rep < p.reps; rep++) {
        uint first = count != 0u ? rep % count : 0u;
        for (uint i = first; i < count; i++)
            acc += x[base + i * L];
        for (uint i = 0u; i < first; i++)
            acc += x[base + i * L];
    }
    r[gid] = acc.x + acc.y + acc.z + acc.w;
}

#elif defined(SD_COPY)
layout(std430, set = 0, binding = 0) readonly buffer X { uvec4 x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Y { uvec4 y[]; };
void main()
{
    SPAN;
    for (uint i = 0u; i < count; i++)
        y[base + i * L] = x[base + i * L];
}

#elif defined(SD_TRIAD)
layout(std430, set = 0, binding = 0) writeonly buffer X { vec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { vec4 b[]; };
layout(std430, set = 0, binding = 2) readonly buffer Z { vec4 c[]; };
void main()
{
    SPAN;
    for (uint i = 0u; i < count; i++)
        a[base + i * L] = b[base + i * L] + p.s * c[base + i * L];
}

#elif defined(SD_LOCAL)
layout(std430, set = 0, binding = 3) writeonly buffer R { uint r[]; };
shared uvec4 l[256];
void main()
{
    uint lid = gl_LocalInvocationID.x, hi = lid + 128u;
    l[lid] = uvec4(4u * lid, 4u * lid + 1u, 4u * lid + 2u, 4u * lid + 3u);
    l[hi] = uvec4(4u * hi, 4u * hi + 1u, 4u * hi + 2u, 4u * hi + 3u);
    barrier();
    uvec4 a0 = uvec4(0u), a1 = uvec4(0u), a2 = uvec4(0u), a3 = uvec4(0u);
    for (uint rep = 0u; rep < p.reps; rep++) {
        uint i = lid + rep;
        a0 += l[i & 255u];
        a1 += l[(i + 64u) & 255u];
        a2 += l[(i + 128u) & 255u];
        a3 += l[(i + 192u) & 255u];
    }
    uvec4 a = a0 + a1 + a2 + a3;
    r[gl_GlobalInvocationID.x] = a.x + a.y + a.z + a.w;
}

#else // the FMA kernels: eight chains an invocation
#if defined(SD_FMA32)
#define T float
#define START(k) float(1u + ((gid + k) & 7u))
#define RESULT float
#elif defined(SD_FMA64)
#define T double
#define START(k) double(1u + ((gid + k) & 7u))
#define RESULT double
#elif defined(SD_FMA16)
#define T f16vec2
#define START(k) f16vec2(float16_t(1u + ((gid + k) & 7u)), float16_t(1u + ((gid + k + 4u) & 7u)))
#define RESULT float
#else
#error "define one of SD_READ, SD_COPY, SD_TRIAD, SD_LOCAL, SD_FMA32, SD_FMA64, SD_FMA16"
#endif
layout(std430, set = 0, binding = 3) writeonly buffer R { RESULT r[]; };
#define STEP(m, a)                                                                         \
    c0 = fma(c0, m, a); c1 = fma(c1, m, a); c2 = fma(c2, m, a); c3 = fma(c3, m, a);        \
    c4 = fma(c4, m, a); c5 = fma(c5, m, a); c6 = fma(c6, m, a); c7 = fma(c7, m, a)
void main()
{
    uint gid = gl_GlobalInvocationID.x;
#if defined(SD_FMA16)
    /* half2 words, packed by the host (device.cl's sd_fma16 says why) */
    T s = unpackFloat2x16(floatBitsToUint(p.s)), d = unpackFloat2x16(floatBitsToUint(p.d)),
      e = unpackFloat2x16(floatBitsToUint(p.e));
#else
    T s = T(p.s), d = T(p.d), e = T(p.e);
#endif
    T c0 = START(0u), c1 = START(1u), c2 = START(2u), c3 = START(3u), c4 = START(4u),
      c5 = START(5u), c6 = START(6u), c7 = START(7u);
    for (uint rep = 0u; rep < p.reps; rep++) {
        STEP(s, d);
        STEP(s, e);
    }
    T t = ((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7));
#if defined(SD_FMA16)
    r[gid] = float(t.x) + float(t.y);
#else
    r[gid] = t;
#endif
}
#endif
