/* The feature bits of x86 CPUID and of the aarch64 hwcaps, and what they
 * decode to (isa_bits.h).  Bits and OS-state rules: LLVM's
 * llvm/lib/TargetParser/Host.cpp, getHostCPUFeatures (the Intel SDM vol. 2A
 * CPUID tables and AMD's APM vol. 3 appendix E agree); the aarch64 bits:
 * Linux's uapi asm/hwcap.h. */
#include "isa_bits.h"

#include <stddef.h>
#include <string.h>

enum { EAX, EBX, ECX, EDX };
enum { L1, L7, L7S1, LD1, E1, E8 };

/* What the OS must save for a feature's registers (XCR0 bits). */
enum { STATE_NONE, STATE_AVX, STATE_AVX512, STATE_AMX };

typedef struct {
    const char *name;
    unsigned char leaf, reg, bit, state;
} x86_bit;

/* In the order `features` lists them (docs/keys.md): the general-purpose
 * and SSE-class features, then those that need the OS to save YMM state,
 * then AVX-512, then AMX; avx10.1/avx10.2 come from leaf 0x24 (below). */
static const x86_bit x86_bits[] = {
    {"mmx", L1, EDX, 23, STATE_NONE},
    {"sse", L1, EDX, 25, STATE_NONE},
    {"sse2", L1, EDX, 26, STATE_NONE},
    {"sse3", L1, ECX, 0, STATE_NONE},
    {"ssse3", L1, ECX, 9, STATE_NONE},
    {"sse4.1", L1, ECX, 19, STATE_NONE},
    {"sse4.2", L1, ECX, 20, STATE_NONE},
    {"sse4a", E1, ECX, 6, STATE_NONE},
    {"popcnt", L1, ECX, 23, STATE_NONE},
    {"lzcnt", E1, ECX, 5, STATE_NONE},
    {"movbe", L1, ECX, 22, STATE_NONE},
    {"cx16", L1, ECX, 13, STATE_NONE},
    {"sahf", E1, ECX, 0, STATE_NONE}, /* LAHF/SAHF in 64-bit mode */
    {"pclmul", L1, ECX, 1, STATE_NONE},
    {"aes", L1, ECX, 25, STATE_NONE},
    {"rdrnd", L1, ECX, 30, STATE_NONE},
    {"rdseed", L7, EBX, 18, STATE_NONE},
    {"adx", L7, EBX, 19, STATE_NONE},
    {"bmi", L7, EBX, 3, STATE_NONE},
    {"bmi2", L7, EBX, 8, STATE_NONE},
    {"tbm", E1, ECX, 21, STATE_NONE},
    {"sha", L7, EBX, 29, STATE_NONE},
    {"sha512", L7S1, EAX, 0, STATE_NONE},
    {"sm3", L7S1, EAX, 1, STATE_NONE},
    {"sm4", L7S1, EAX, 2, STATE_NONE},
    {"gfni", L7, ECX, 8, STATE_NONE},
    {"fsgsbase", L7, EBX, 0, STATE_NONE},
    {"clflushopt", L7, EBX, 23, STATE_NONE},
    {"clwb", L7, EBX, 24, STATE_NONE},
    {"clzero", E8, EBX, 0, STATE_NONE},
    {"rdpid", L7, ECX, 22, STATE_NONE},
    {"movdiri", L7, ECX, 27, STATE_NONE},
    {"movdir64b", L7, ECX, 28, STATE_NONE},
    {"serialize", L7, EDX, 14, STATE_NONE},
    {"waitpkg", L7, ECX, 5, STATE_NONE},
    {"cldemote", L7, ECX, 25, STATE_NONE},
    {"cmpccxadd", L7S1, EAX, 7, STATE_NONE},
    /* YMM state; XSAVE itself too, as Host.cpp has it */
    {"avx", L1, ECX, 28, STATE_AVX},
    {"avx2", L7, EBX, 5, STATE_AVX},
    {"fma", L1, ECX, 12, STATE_AVX},
    {"f16c", L1, ECX, 29, STATE_AVX},
    {"fma4", E1, ECX, 16, STATE_AVX},
    {"xop", E1, ECX, 11, STATE_AVX},
    {"xsave", L1, ECX, 26, STATE_AVX},
    {"xsaveopt", LD1, EAX, 0, STATE_AVX},
    {"xsavec", LD1, EAX, 1, STATE_AVX},
    {"vaes", L7, ECX, 9, STATE_AVX},
    {"vpclmulqdq", L7, ECX, 10, STATE_AVX},
    {"avxvnni", L7S1, EAX, 4, STATE_AVX},
    {"avxifma", L7S1, EAX, 23, STATE_AVX},
    {"avxneconvert", L7S1, EDX, 5, STATE_AVX},
    {"avxvnniint8", L7S1, EDX, 4, STATE_AVX},
    {"avxvnniint16", L7S1, EDX, 10, STATE_AVX},
    /* opmask and ZMM state as well */
    {"avx512f", L7, EBX, 16, STATE_AVX512},
    {"avx512dq", L7, EBX, 17, STATE_AVX512},
    {"avx512cd", L7, EBX, 28, STATE_AVX512},
    {"avx512bw", L7, EBX, 30, STATE_AVX512},
    {"avx512vl", L7, EBX, 31, STATE_AVX512},
    {"avx512ifma", L7, EBX, 21, STATE_AVX512},
    {"avx512vbmi", L7, ECX, 1, STATE_AVX512},
    {"avx512vbmi2", L7, ECX, 6, STATE_AVX512},
    {"avx512vnni", L7, ECX, 11, STATE_AVX512},
    {"avx512bitalg", L7, ECX, 12, STATE_AVX512},
    {"avx512vpopcntdq", L7, ECX, 14, STATE_AVX512},
    {"avx512vp2intersect", L7, EDX, 8, STATE_AVX512},
    {"avx512fp16", L7, EDX, 23, STATE_AVX512},
    {"avx512bf16", L7S1, EAX, 5, STATE_AVX512},
    /* tile state */
    {"amx-tile", L7, EDX, 24, STATE_AMX},
    {"amx-int8", L7, EDX, 25, STATE_AMX},
    {"amx-bf16", L7, EDX, 22, STATE_AMX},
    {"amx-fp16", L7S1, EAX, 21, STATE_AMX},
};
#define NX86 (sizeof(x86_bits) / sizeof(x86_bits[0]))

#define BIT(reg, n) (((reg) >> (n)) & 1u)

/* Where each leaf's registers are in pb_x86_cpuid. */
static const size_t leaf_offset[] = {
    [L1] = offsetof(pb_x86_cpuid, l1),     [L7] = offsetof(pb_x86_cpuid, l7),
    [L7S1] = offsetof(pb_x86_cpuid, l7s1), [LD1] = offsetof(pb_x86_cpuid, ld1),
    [E1] = offsetof(pb_x86_cpuid, e1),     [E8] = offsetof(pb_x86_cpuid, e8),
};

static uint32_t reg_of(const pb_x86_cpuid *r, const x86_bit *b)
{
    const uint32_t *regs = (const uint32_t *)(const void *)((const char *)r + leaf_offset[b->leaf]);
    return regs[b->reg];
}

static void add(pb_isa_features *out, const char *name)
{
    if (out->n < PB_ISA_MAX_FEATURES)
        out->names[out->n++] = name;
}

void pb_x86_decode(const pb_x86_cpuid *r, pb_isa_features *out)
{
    memset(out, 0, sizeof(*out));
    /* without OSXSAVE there is no XCR0 to read: no extended state at all */
    const uint64_t xcr0 = BIT(r->l1[ECX], 27) ? r->xcr0 : 0;
    const bool os_avx = (xcr0 & 0x6) == 0x6;                /* XMM | YMM */
    const bool os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    const bool os_amx = (xcr0 & 0x60000) == 0x60000;        /* XTILECFG | XTILEDATA */
    const bool allowed[] = {[STATE_NONE] = true, [STATE_AVX] = os_avx,
                            [STATE_AVX512] = os_avx512, [STATE_AMX] = os_amx};
    bool amx_started = false;
    for (size_t i = 0; i < NX86; i++) {
        const x86_bit *b = &x86_bits[i];
        if (b->state == STATE_AMX && !amx_started) {
            amx_started = true;
            /* AVX10 (leaf 7.1 EDX bit 19; its version in leaf 0x24 EBX),
             * listed between AVX-512 and AMX */
            int avx10 = os_avx && BIT(r->l7s1[EDX], 19) ? (int)(r->l24[EBX] & 0xff) : 0;
            if (avx10 >= 1)
                add(out, "avx10.1");
            if (avx10 >= 2)
                add(out, "avx10.2");
        }
        if (allowed[b->state] && BIT(reg_of(r, b), b->bit))
            add(out, b->name);
    }
    bool avx512f = os_avx512 && BIT(r->l7[EBX], 16);
    bool avx10_512 = os_avx512 && BIT(r->l7s1[EDX], 19) && BIT(r->l24[EBX], 18);
    if (avx512f || avx10_512)
        out->max_vector_op_width = 512;
    else if (os_avx && BIT(r->l1[ECX], 28))
        out->max_vector_op_width = 256;
    else if (BIT(r->l1[EDX], 25))
        out->max_vector_op_width = 128;
}

bool pb_x86_set_feature(pb_x86_cpuid *r, const char *name)
{
    for (size_t i = 0; i < NX86; i++)
        if (strcmp(x86_bits[i].name, name) == 0) {
            uint32_t *regs = (uint32_t *)(void *)((char *)r + leaf_offset[x86_bits[i].leaf]);
            regs[x86_bits[i].reg] |= 1u << x86_bits[i].bit;
            return true;
        }
    return false;
}

/* Linux's AT_HWCAP (word 1) and AT_HWCAP2 (word 2) bits. */
static const struct {
    int word, bit;
    const char *name;
} arm_bits[] = {
    {1, 0, "fp-armv8"}, {1, 1, "neon"}, {1, 3, "aes"}, {1, 6, "sha2"}, {1, 7, "crc"},
    {1, 8, "lse"}, {1, 10, "fullfp16"}, {1, 12, "rdm"}, {1, 13, "jsconv"},
    {1, 14, "complxnum"}, {1, 15, "rcpc"}, {1, 17, "sha3"}, {1, 19, "sm4"},
    {1, 20, "dotprod"}, {1, 22, "sve"}, {1, 23, "fp16fml"}, {2, 1, "sve2"},
    {2, 13, "i8mm"}, {2, 14, "bf16"}, {2, 23, "sme"},
};
#define NARM (sizeof(arm_bits) / sizeof(arm_bits[0]))

void pb_arm_decode(unsigned long hwcap, unsigned long hwcap2, pb_isa_features *out)
{
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < NARM; i++) {
        unsigned long w = arm_bits[i].word == 1 ? hwcap : hwcap2;
        if ((w >> arm_bits[i].bit) & 1ul)
            add(out, arm_bits[i].name);
    }
    if ((hwcap >> 1) & 1ul)
        out->max_vector_op_width = 128;
}

bool pb_isa_feature_known(const char *arch, const char *name)
{
    if (!arch || !name)
        return false;
    if (strcmp(arch, "x86_64") == 0) {
        for (size_t i = 0; i < NX86; i++)
            if (strcmp(x86_bits[i].name, name) == 0)
                return true;
        return strcmp(name, "avx10.1") == 0 || strcmp(name, "avx10.2") == 0;
    }
    if (strcmp(arch, "aarch64") == 0)
        for (size_t i = 0; i < NARM; i++)
            if (strcmp(arm_bits[i].name, name) == 0)
                return true;
    return false;
}
