/* isa_bits.h - which CPU features the registers say a program may use: the
 * x86 CPUID bits with the state XCR0 says the OS saves, the aarch64 hwcaps.
 * libc only and pure, like the recogniser (uarch.h): probe/host/isa.c reads
 * the registers of this CPU and decodes them here, and the tests decode
 * registers recorded elsewhere (virtual machines that mask features) with
 * the same code.  Feature names are LLVM's (what -mattr=+NAME takes). */
#ifndef SYSDESC_PROBE_ISA_BITS_H
#define SYSDESC_PROBE_ISA_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The x86 CPUID leaves the features come from, each as EAX, EBX, ECX, EDX
 * (zeros for a leaf the CPU does not have), and XCR0. */
typedef struct pb_x86_cpuid {
    uint32_t l1[4];   /* leaf 1 */
    uint32_t l7[4];   /* leaf 7, subleaf 0 */
    uint32_t l7s1[4]; /* leaf 7, subleaf 1 */
    uint32_t ld1[4];  /* leaf 0xD, subleaf 1 (XSAVE extensions) */
    uint32_t l24[4];  /* leaf 0x24 (AVX10) */
    uint32_t e1[4];   /* leaf 0x80000001 */
    uint32_t e8[4];   /* leaf 0x80000008 */
    /* XGETBV(0): the state components the OS saves; read only when CPUID
     * says OSXSAVE (leaf 1 ECX bit 27), 0 otherwise */
    uint64_t xcr0;
} pb_x86_cpuid;

#define PB_ISA_MAX_FEATURES 128

/* What the registers decode to: the features (static strings, in the
 * order of docs/keys.md) and the widest vector a program may use. */
typedef struct pb_isa_features {
    const char *names[PB_ISA_MAX_FEATURES];
    size_t n;
    int64_t max_vector_op_width; /* bits, 0 when unknown */
} pb_isa_features;

/* The x86 features the registers show and the OS enables, as LLVM's
 * Host.cpp (getHostCPUFeatures) decides them: AVX-class features need XCR0
 * bits 1-2 (XMM, YMM), AVX-512 also bits 5-7 (opmask, ZMM_Hi256,
 * Hi16_ZMM), AMX bits 17-18 (XTILECFG, XTILEDATA). */
void pb_x86_decode(const pb_x86_cpuid *r, pb_isa_features *out);

/* Sets the CPUID bit of feature `name` in r (a test writing a recorded
 * CPU's registers); false when no bit of the table is that feature
 * (avx10.1, avx10.2 are a version number in leaf 0x24, not a bit). */
bool pb_x86_set_feature(pb_x86_cpuid *r, const char *name);

/* The aarch64 features of the auxiliary vector's AT_HWCAP and AT_HWCAP2
 * (Linux); max_vector_op_width 128 with Advanced SIMD (the SVE length is
 * the caller's: prctl). */
void pb_arm_decode(unsigned long hwcap, unsigned long hwcap2, pb_isa_features *out);

/* Whether the probe can report feature `name` on architecture `arch`
 * ("x86_64", "aarch64"): a name of the tables above.  A microarchitecture
 * may require only such features (uarch_table.c): one the probe cannot see
 * would make every CPU fail the test. */
bool pb_isa_feature_known(const char *arch, const char *name);

#endif
