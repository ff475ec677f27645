/* ISA features: CPUID + XGETBV on x86, hwcaps + SVE vector length on aarch64,
 * nothing elsewhere.  Feature names are LLVM's target feature names (what
 * -mattr=+NAME takes), see docs/keys.md. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t xgetbv0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

#define ADD(name) (isa->features[isa->nfeatures++] = (name))
#define BIT(reg, n) (((reg) >> (n)) & 1u)

void pb_isa_detect(pb_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
    unsigned max = __get_cpuid_max(0, NULL);
    if (max < 1)
        return;
    unsigned l1[4], l7[4] = {0}, l71[4] = {0}, e1[4] = {0}, l24[4] = {0};
    cpuid(1, 0, l1);
    if (max >= 7) {
        cpuid(7, 0, l7);
        if (l7[0] >= 1)
            cpuid(7, 1, l71);
    }
    unsigned emax = __get_cpuid_max(0x80000000u, NULL);
    if (emax >= 0x80000001u)
        cpuid(0x80000001u, 0, e1);
    const unsigned ecx1 = l1[2], edx1 = l1[3];
    const unsigned ebx7 = l7[1], ecx7 = l7[2], edx7 = l7[3];
    uint64_t xcr0 = BIT(ecx1, 27) ? xgetbv0() : 0; /* OSXSAVE */
    const bool os_avx = (xcr0 & 0x6) == 0x6;             /* XMM | YMM state */
    const bool os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    const bool os_amx = (xcr0 & 0x60000) == 0x60000;     /* XTILECFG | XTILEDATA */

    if (BIT(edx1, 25)) ADD("sse");
    if (BIT(edx1, 26)) ADD("sse2");
    if (BIT(ecx1, 0)) ADD("sse3");
    if (BIT(ecx1, 9)) ADD("ssse3");
    if (BIT(ecx1, 19)) ADD("sse4.1");
    if (BIT(ecx1, 20)) ADD("sse4.2");
    if (BIT(e1[2], 6)) ADD("sse4a");
    if (BIT(ecx1, 23)) ADD("popcnt");
    if (BIT(e1[2], 5)) ADD("lzcnt");
    if (BIT(ecx1, 22)) ADD("movbe");
    if (BIT(ecx1, 13)) ADD("cx16");
    if (BIT(ecx1, 1)) ADD("pclmul");
    if (BIT(ecx1, 25)) ADD("aes");
    if (BIT(ecx1, 30)) ADD("rdrnd");
    if (BIT(ebx7, 18)) ADD("rdseed");
    if (BIT(ebx7, 19)) ADD("adx");
    if (BIT(ebx7, 3)) ADD("bmi");
    if (BIT(ebx7, 8)) ADD("bmi2");
    if (BIT(ebx7, 29)) ADD("sha");
    if (BIT(ecx7, 8)) ADD("gfni");
    if (os_avx) {
        if (BIT(ecx1, 28)) ADD("avx");
        if (BIT(ebx7, 5)) ADD("avx2");
        if (BIT(ecx1, 12)) ADD("fma");
        if (BIT(ecx1, 29)) ADD("f16c");
        if (BIT(ecx7, 9)) ADD("vaes");
        if (BIT(ecx7, 10)) ADD("vpclmulqdq");
        if (BIT(l71[0], 4)) ADD("avxvnni");
    }
    bool avx512f = false, avx10_512 = false;
    int avx10 = 0;
    if (os_avx512) {
        avx512f = BIT(ebx7, 16);
        if (avx512f) ADD("avx512f");
        if (BIT(ebx7, 17)) ADD("avx512dq");
        if (BIT(ebx7, 28)) ADD("avx512cd");
        if (BIT(ebx7, 30)) ADD("avx512bw");
        if (BIT(ebx7, 31)) ADD("avx512vl");
        if (BIT(ebx7, 21)) ADD("avx512ifma");
        if (BIT(ecx7, 1)) ADD("avx512vbmi");
        if (BIT(ecx7, 6)) ADD("avx512vbmi2");
        if (BIT(ecx7, 11)) ADD("avx512vnni");
        if (BIT(ecx7, 12)) ADD("avx512bitalg");
        if (BIT(ecx7, 14)) ADD("avx512vpopcntdq");
        if (BIT(edx7, 8)) ADD("avx512vp2intersect");
        if (BIT(edx7, 23)) ADD("avx512fp16");
        if (BIT(l71[0], 5)) ADD("avx512bf16");
    }
    if (os_avx && BIT(l71[3], 19) && max >= 0x24) { /* AVX10 */
        cpuid(0x24, 0, l24);
        avx10 = (int)(l24[1] & 0xff);
        avx10_512 = os_avx512 && BIT(l24[1], 18);
        if (avx10 >= 1) ADD("avx10.1");
        if (avx10 >= 2) ADD("avx10.2");
    }
    if (os_amx) {
        if (BIT(edx7, 24)) ADD("amx-tile");
        if (BIT(edx7, 25)) ADD("amx-int8");
        if (BIT(edx7, 22)) ADD("amx-bf16");
        if (BIT(l71[0], 21)) ADD("amx-fp16");
    }
    if (avx512f || avx10_512)
        isa->max_vector_op_width = 512;
    else if (os_avx && BIT(ecx1, 28))
        isa->max_vector_op_width = 256;
    else if (BIT(edx1, 25))
        isa->max_vector_op_width = 128;
    isa->source = BIT(ecx1, 27) ? "cpuid+xgetbv" : "cpuid";
}

int pb_cpuid_cache(int level, int want_instruction, int64_t *size, int64_t *line, int64_t *ways,
                   int64_t *sharing)
{
    unsigned r[4];
    cpuid(0, 0, r);
    unsigned max = r[0];
    char vendor[13];
    memcpy(vendor, &r[1], 4);
    memcpy(vendor + 4, &r[3], 4);
    memcpy(vendor + 8, &r[2], 4);
    vendor[12] = '\0';
    unsigned leaf = 4;
    if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
        unsigned e[4] = {0};
        if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x8000001Du) /* int in clang, unsigned in gcc */
            return -1;
        cpuid(0x80000001u, 0, e);
        if (!BIT(e[2], 22)) /* TopologyExtensions */
            return -1;
        leaf = 0x8000001Du;
    } else if (max < 4) {
        return -1;
    }
    for (unsigned sub = 0; sub < 32; sub++) {
        cpuid(leaf, sub, r);
        unsigned type = r[0] & 0x1f;
        if (type == 0)
            break;
        unsigned lvl = (r[0] >> 5) & 7;
        if ((int)lvl != level)
            continue;
        if (want_instruction ? type != 2 : type == 2)
            continue;
        int64_t ln = (int64_t)(r[1] & 0xfff) + 1;
        int64_t parts = (int64_t)((r[1] >> 12) & 0x3ff) + 1;
        int64_t w = (int64_t)((r[1] >> 22) & 0x3ff) + 1;
        int64_t sets = (int64_t)r[2] + 1;
        *size = w * parts * ln * sets;
        *line = ln;
        *ways = BIT(r[0], 9) ? -1 : w;
        *sharing = (int64_t)((r[0] >> 14) & 0xfff) + 1;
        return 0;
    }
    return -1;
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>

#define ADD(name) (isa->features[isa->nfeatures++] = (name))

void pb_isa_detect(pb_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
    unsigned long hw = getauxval(AT_HWCAP);
    unsigned long hw2 = getauxval(AT_HWCAP2);
    static const struct { int word, bit; const char *name; } bits[] = {
        {1, 0, "fp-armv8"}, {1, 1, "neon"}, {1, 3, "aes"}, {1, 6, "sha2"}, {1, 7, "crc"},
        {1, 8, "lse"}, {1, 10, "fullfp16"}, {1, 12, "rdm"}, {1, 13, "jsconv"},
        {1, 14, "complxnum"}, {1, 15, "rcpc"}, {1, 17, "sha3"}, {1, 19, "sm4"},
        {1, 20, "dotprod"}, {1, 22, "sve"}, {1, 23, "fp16fml"}, {2, 1, "sve2"},
        {2, 13, "i8mm"}, {2, 14, "bf16"}, {2, 23, "sme"},
    };
    for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
        unsigned long w = bits[i].word == 1 ? hw : hw2;
        if ((w >> bits[i].bit) & 1ul)
            ADD(bits[i].name);
    }
    if ((hw >> 1) & 1ul)
        isa->max_vector_op_width = 128;
#ifdef PR_SVE_GET_VL
    if ((hw >> 22) & 1ul) {
        int vl = prctl(PR_SVE_GET_VL);
        if (vl > 0) {
            isa->sve_vector_length = (int64_t)(vl & PR_SVE_VL_LEN_MASK) * 8;
            if (isa->sve_vector_length > isa->max_vector_op_width)
                isa->max_vector_op_width = isa->sve_vector_length;
        }
    }
#endif
    isa->source = "hwcap";
}

int pb_cpuid_cache(int level, int want_instruction, int64_t *size, int64_t *line, int64_t *ways,
                   int64_t *sharing)
{
    (void)level, (void)want_instruction, (void)size, (void)line, (void)ways, (void)sharing;
    return -1;
}

#else

void pb_isa_detect(pb_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
}

int pb_cpuid_cache(int level, int want_instruction, int64_t *size, int64_t *line, int64_t *ways,
                   int64_t *sharing)
{
    (void)level, (void)want_instruction, (void)size, (void)line, (void)ways, (void)sharing;
    return -1;
}
#endif
