/* ISA features: CPUID + XGETBV on x86, hwcaps + SVE vector length on aarch64,
 * nothing elsewhere.  This file reads the registers; probe/uarch/isa_bits.c
 * decodes them (pure, so the tests decode recorded CPUs with the same
 * code).  Feature names are LLVM's target feature names (what -mattr=+NAME
 * takes), see docs/keys.md. */
#define _GNU_SOURCE
#include "probe_private.h"
#include "uarch/isa_bits.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__) || (defined(__aarch64__) && defined(__linux__))
/* The decoded features into the probe's record. */
static void take(pb_isa *isa, const pb_isa_features *f)
{
    const size_t room = sizeof(isa->features) / sizeof(isa->features[0]);
    for (size_t i = 0; i < f->n && isa->nfeatures < room; i++)
        isa->features[isa->nfeatures++] = f->names[i];
    isa->max_vector_op_width = f->max_vector_op_width;
}
#endif

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

#define BIT(reg, n) (((reg) >> (n)) & 1u)

void pb_isa_detect(pb_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
    unsigned max = __get_cpuid_max(0, NULL);
    if (max < 1)
        return;
    /* the leaves the decoder reads (isa_bits.c: which bit is which, and
     * what XCR0 must enable); a leaf the CPU lacks stays zero */
    pb_x86_cpuid r;
    memset(&r, 0, sizeof(r));
    cpuid(1, 0, r.l1);
    if (max >= 7) {
        cpuid(7, 0, r.l7);
        if (r.l7[0] >= 1) /* EAX: the last subleaf */
            cpuid(7, 1, r.l7s1);
    }
    if (max >= 0xd)
        cpuid(0xd, 1, r.ld1);
    if (max >= 0x24 && BIT(r.l7s1[3], 19)) /* AVX10 */
        cpuid(0x24, 0, r.l24);
    unsigned emax = __get_cpuid_max(0x80000000u, NULL);
    if (emax >= 0x80000001u)
        cpuid(0x80000001u, 0, r.e1);
    if (emax >= 0x80000008u)
        cpuid(0x80000008u, 0, r.e8);
    /* XGETBV faults unless the OS set CR4.OSXSAVE, which CPUID reports */
    r.xcr0 = BIT(r.l1[2], 27) ? xgetbv0() : 0;
    pb_isa_features f;
    pb_x86_decode(&r, &f);
    take(isa, &f);
    isa->source = BIT(r.l1[2], 27) ? "cpuid+xgetbv" : "cpuid";
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

void pb_isa_detect(pb_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
    unsigned long hw = getauxval(AT_HWCAP);
    pb_isa_features f;
    pb_arm_decode(hw, getauxval(AT_HWCAP2), &f); /* isa_bits.c: which bit is which */
    take(isa, &f);
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
