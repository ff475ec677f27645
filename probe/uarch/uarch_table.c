/* The microarchitecture table: the rows (names, parents, compiler flags
 * with the versions that take them) and how CPUs are recognised.
 *
 * Sources, facts copied, not code:
 * - Rows "x86_64" to "x60" below: archspec's cpu/microarchitectures.json
 *   (github.com/archspec/archspec-json, commit 90b453f): the name, "from"
 *   (parents), and the "gcc" / "clang" compiler entries, "{name}" expanded.
 *   The LLVM name is the CPU of archspec's newest clang entry (its -mcpu, or
 *   -march on x86) unless a comment names another source.
 * - Rows after "not in archspec": LLVM's names from
 *   llvm/lib/TargetParser/Host.cpp (getIntelProcessorTypeAndSubtype,
 *   getHostCPUNameForARMFromComponents) and `llc-22 -mcpu=help`; parents by
 *   the core they derive from (comment per row).  Their GCC entry starts at
 *   the first release (N.1) of the series whose release notes announce the
 *   name: gcc.gnu.org/gcc-N/changes.html (the gcc-wwwdocs repository as of
 *   2024-09-19; IA-32/x86-64 and AArch64 sections).  Cortex-X925 and
 *   Neoverse V3 are not in those notes, and no row here has a Clang entry
 *   (no per-version source at hand): for those the compiler map gives the
 *   nearest ancestor's flags as the fallback only.
 * - The recognition rules: LLVM's Host.cpp (x86 family/model ranges and the
 *   feature tests of model 0x55; Arm implementer/part switch), which is also
 *   what `llc-22 --version` prints as "Host CPU"; archspec's "cpupart" agrees
 *   where it has one.
 * - `needs`, the features a row requires on top of its parents' (a row is
 *   chosen only for a CPU that has them all: uarch.h), in LLVM's names:
 *   archspec's "features" (Linux's /proc/cpuinfo names: abm is lzcnt,
 *   lahf_lm sahf, pni sse3, pclmulqdq pclmul, sha_ni sha, rdrand rdrnd,
 *   bmi1 bmi, avx512_vnni avx512vnni, ...) less those its parents require.
 *   Left out are those the probe cannot see (probe/uarch/isa_bits.c: what
 *   CPUID, XCR0 and the hwcaps say): pku, which needs the OS to enable it
 *   and which hypervisors hide where every instruction a compiler emits is
 *   there (archspec-json#38, Azure's Milan; PR #84), flush_l1d and
 *   tsc_adjust (no instructions), 3dnow, avx512er and avx512pf (LLVM 22
 *   has no such features), and on aarch64 what the hwcaps the probe reads
 *   do not cover (pmull, sha1, sha512, dcpop, flagm, sb, paca, ...).
 *   archspec lists sse3 nowhere but nocona (its alias: "ssse3 is a
 *   superset of sse3"): x86_64_v2 requires it, as the x86-64 psABI does.
 *   archspec's armv8.Xa rows list no features: theirs are the features
 *   each architecture version makes mandatory, as GCC's -march=armv8.X-a
 *   enables them (gcc.gnu.org/onlinedocs/gcc/AArch64-Options.html) and
 *   clang-15's -march=armv8.X-a predefines them (__ARM_FEATURE_*).  Rows
 *   archspec lacks: LLVM's llvm/lib/Target/X86/X86.td and
 *   AArch64Processors.td (the processor's features beyond its parent's).
 *   test_uarch checks every row's needs against LLVM 22's own model of its
 *   CPU (mlir-opt-22 --llvm-target-to-target-features) and every -m and
 *   +ext flag of the compiler entries against the row's needs.
 * tests/probe/test_uarch.c checks the rules against CPUs recorded by hwloc's
 * own tests, every LLVM name against llc-22, and every compiler entry whose
 * range holds an installed GCC's or Clang's version against that compiler.
 * The ranges are archspec's: the versions it vouches for, not always the
 * first to know a name (Clang 14 already takes -mcpu=neoverse-n2 and
 * -mcpu=ampere1, which archspec gives from 16).
 * The ranges of the rows the catalog names (neoverse_v1, neoverse_v2, zen2,
 * zen3, zen4, sapphirerapids, m2, m3) and of their fallbacks were checked
 * against the compilers (issue 37): Debian's clang 13, 14, 15, 16 and 19
 * (--print-supported-cpus, -mcpu/-march accepted or refused) and GCC 11.3,
 * 12.2 (cc1, aarch64 and x86-64); GCC's release notes (gcc-wwwdocs
 * gcc-6/10/11/12/13 changes.html); archspec-json PRs 64 (zeus 10.2,
 * neoverse-v1 8.5/9.4/10.3) and 108 (neoverse-v2 11.4/12.3/13.1, from
 * Arm's GCC team).  Only m3's Clang entry was wrong (comment at its row). */
#include "uarch.h"

#define CC(...) ((const pb_cc[]){__VA_ARGS__, {NULL, NULL, NULL}})
#define F(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NONE NULL

const pb_uarch pb_uarch_table[] = {
    /* ---- archspec ---- */
    {"x86_64", {NULL, NULL}, "x86_64", "x86-64", NONE,
     CC({"4.2.0", NULL, "-march=x86-64 -mtune=generic"}, {NULL, "4.1.2", "-march=x86-64 -mtune=x86-64"}),
     CC({NULL, NULL, "-march=x86-64 -mtune=generic"})},
    {"x86_64_v2", {"x86_64", NULL}, "x86_64", "x86-64-v2",
     F("cx16", "mmx", "popcnt", "sahf", "sse", "sse2", "sse3", "sse4.1", "sse4.2", "ssse3"),
     CC({"11.1", NULL, "-march=x86-64-v2 -mtune=generic"}, {"4.6", "11.0", "-march=x86-64 -mtune=generic -mcx16 -msahf -mpopcnt -msse3 -msse4.1 -msse4.2 -mssse3"}),
     CC({"12.0", NULL, "-march=x86-64-v2 -mtune=generic"}, {"3.9", "11.1", "-march=x86-64 -mtune=generic -mcx16 -msahf -mpopcnt -msse3 -msse4.1 -msse4.2 -mssse3"})},
    {"x86_64_v3", {"x86_64_v2", NULL}, "x86_64", "x86-64-v3",
     F("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"),
     CC({"11.1", NULL, "-march=x86-64-v3 -mtune=generic"}, {"4.8", "11.0", "-march=x86-64 -mtune=generic -mcx16 -msahf -mpopcnt -msse3 -msse4.1 -msse4.2 -mssse3 -mavx -mavx2 -mbmi -mbmi2 -mf16c -mfma -mlzcnt -mmovbe -mxsave"}),
     CC({"12.0", NULL, "-march=x86-64-v3 -mtune=generic"}, {"3.9", "11.1", "-march=x86-64 -mtune=generic -mcx16 -msahf -mpopcnt -msse3 -msse4.1 -msse4.2 -mssse3 -mavx -mavx2 -mbmi -mbmi2 -mf16c -mfma -mlzcnt -mmovbe -mxsave"})},
    {"x86_64_v4", {"x86_64_v3", NULL}, "x86_64", "x86-64-v4",
     F("avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"),
     CC({"11.1", NULL, "-march=x86-64-v4 -mtune=generic"}, {"6.0", "11.0", "-march=x86-64 -mtune=generic -mcx16 -msahf -mpopcnt -msse3 -msse4.1 -msse4.2 -mssse3 -mavx -mavx2 -mbmi -mbmi2 -mf16c -mfma -mlzcnt -mmovbe -mxsave -mavx512f -mavx512bw -mavx512cd -mavx512dq -mavx512vl"}),
     CC({"12.0", NULL, "-march=x86-64-v4 -mtune=generic"}, {"3.9", "11.1", "-march=x86-64 -mtune=generic -mcx16 -msahf -mpopcnt -msse3 -msse4.1 -msse4.2 -mssse3 -mavx -mavx2 -mbmi -mbmi2 -mf16c -mfma -mlzcnt -mmovbe -mxsave -mavx512f -mavx512bw -mavx512cd -mavx512dq -mavx512vl"})},
    {"nocona", {"x86_64", NULL}, "x86_64", "nocona", F("mmx", "sse", "sse2", "sse3"),
     CC({"4.0.4", NULL, "-march=nocona -mtune=nocona"}),
     CC({"3.9", NULL, "-march=nocona -mtune=nocona"})},
    {"core2", {"nocona", NULL}, "x86_64", "core2", F("ssse3"),
     CC({"4.3.0", NULL, "-march=core2 -mtune=core2"}),
     CC({"3.9", NULL, "-march=core2 -mtune=core2"})},
    {"nehalem", {"core2", "x86_64_v2"}, "x86_64", "nehalem", NONE,
     CC({"4.9", NULL, "-march=nehalem -mtune=nehalem"}, {"4.6", "4.8.5", "-march=corei7 -mtune=corei7"}),
     CC({"3.9", NULL, "-march=nehalem -mtune=nehalem"})},
    {"westmere", {"nehalem", NULL}, "x86_64", "westmere", F("aes", "pclmul"),
     CC({"4.9", NULL, "-march=westmere -mtune=westmere"}),
     CC({"3.9", NULL, "-march=westmere -mtune=westmere"})},
    {"sandybridge", {"westmere", NULL}, "x86_64", "sandybridge", F("avx"),
     CC({"4.9", NULL, "-march=sandybridge -mtune=sandybridge"}, {"4.6", "4.8.5", "-march=corei7-avx -mtune=corei7-avx"}),
     CC({"3.9", NULL, "-march=sandybridge -mtune=sandybridge"})},
    {"ivybridge", {"sandybridge", NULL}, "x86_64", "ivybridge", F("f16c", "rdrnd"),
     CC({"4.9", NULL, "-march=ivybridge -mtune=ivybridge"}, {"4.6", "4.8.5", "-march=core-avx-i -mtune=core-avx-i"}),
     CC({"3.9", NULL, "-march=ivybridge -mtune=ivybridge"})},
    {"haswell", {"ivybridge", "x86_64_v3"}, "x86_64", "haswell", NONE,
     CC({"4.9", NULL, "-march=haswell -mtune=haswell"}, {"4.8", "4.8.5", "-march=core-avx2 -mtune=core-avx2"}),
     CC({"3.9", NULL, "-march=haswell -mtune=haswell"})},
    {"broadwell", {"haswell", NULL}, "x86_64", "broadwell", F("adx", "rdseed"),
     CC({"4.9", NULL, "-march=broadwell -mtune=broadwell"}),
     CC({"3.9", NULL, "-march=broadwell -mtune=broadwell"})},
    {"skylake", {"broadwell", NULL}, "x86_64", "skylake", F("clflushopt", "xsavec", "xsaveopt"),
     CC({"6.0", NULL, "-march=skylake -mtune=skylake"}),
     CC({"3.9", NULL, "-march=skylake -mtune=skylake"})},
    {"mic_knl", {"broadwell", NULL}, "x86_64", "knl", F("avx512cd", "avx512f"),
     CC({"5.1", NULL, "-march=knl -mtune=knl"}),
     CC({"3.9", NULL, "-march=knl -mtune=knl"})},
    {"skylake_avx512", {"skylake", "x86_64_v4"}, "x86_64", "skylake-avx512", F("clwb"),
     CC({"6.0", NULL, "-march=skylake-avx512 -mtune=skylake-avx512"}),
     CC({"3.9", NULL, "-march=skylake-avx512 -mtune=skylake-avx512"})},
    {"cannonlake", {"skylake", "x86_64_v4"}, "x86_64", "cannonlake",
     F("avx512ifma", "avx512vbmi", "sha"),
     CC({"8.0", NULL, "-march=cannonlake -mtune=cannonlake"}),
     CC({"3.9", NULL, "-march=cannonlake -mtune=cannonlake"})},
    {"cascadelake", {"skylake_avx512", NULL}, "x86_64", "cascadelake", F("avx512vnni"),
     CC({"9.0", NULL, "-march=cascadelake -mtune=cascadelake"}),
     CC({"8.0", NULL, "-march=cascadelake -mtune=cascadelake"})},
    {"icelake", {"cascadelake", "cannonlake"}, "x86_64", "icelake-client",
     F("avx512bitalg", "avx512vbmi2", "avx512vpopcntdq", "gfni", "rdpid", "vaes", "vpclmulqdq"),
     CC({"8.0", NULL, "-march=icelake-client -mtune=icelake-client"}),
     CC({"7.0", NULL, "-march=icelake-client -mtune=icelake-client"}, {"6.0", "6.9", "-march=icelake -mtune=icelake"})},
    {"sapphirerapids", {"icelake", NULL}, "x86_64", "sapphirerapids",
     F("amx-bf16", "amx-int8", "amx-tile", "avx512bf16", "cldemote", "movdir64b", "movdiri",
       "serialize", "waitpkg"),
     CC({"11.0", NULL, "-march=sapphirerapids -mtune=sapphirerapids"}),
     CC({"12.0", NULL, "-march=sapphirerapids -mtune=sapphirerapids"})},
    {"alderlake", {"skylake", NULL}, "x86_64", "alderlake",
     F("avxvnni", "clwb", "gfni", "movdir64b", "movdiri", "rdpid", "serialize", "sha", "vaes",
       "vpclmulqdq", "waitpkg"),
     CC({"11.0", NULL, "-march=alderlake -mtune=alderlake"}),
     CC({"12.0", NULL, "-march=alderlake -mtune=alderlake"})},
    {"arrowlake", {"alderlake", NULL}, "x86_64", "arrowlake",
     F("avxifma", "avxneconvert", "avxvnniint8", "cmpccxadd"),
     CC({"14.0", NULL, "-march=arrowlake -mtune=arrowlake"}),
     CC({"18.0", NULL, "-march=arrowlake -mtune=arrowlake"})},
    {"arrowlake_s", {"arrowlake", NULL}, "x86_64", "arrowlake-s",
     F("avxvnniint16", "sha512", "sm3", "sm4"),
     CC({"14.0", NULL, "-march=arrowlake-s -mtune=arrowlake-s"}),
     CC({"18.0", NULL, "-march=arrowlake-s -mtune=arrowlake-s"})},
    {"k10", {"x86_64", NULL}, "x86_64", "amdfam10",
     F("cx16", "lzcnt", "mmx", "sse", "sse2", "sse4a"),
     CC({"4.3", NULL, "-march=amdfam10 -mtune=amdfam10"}),
     CC({"3.9", NULL, "-march=amdfam10 -mtune=amdfam10"})},
    {"bulldozer", {"x86_64_v2", NULL}, "x86_64", "bdver1",
     F("aes", "avx", "fma4", "lzcnt", "pclmul", "sse4a", "xop", "xsave"),
     CC({"4.7", NULL, "-march=bdver1 -mtune=bdver1"}),
     CC({"3.9", NULL, "-march=bdver1 -mtune=bdver1"})},
    {"piledriver", {"bulldozer", NULL}, "x86_64", "bdver2", F("bmi", "f16c", "fma", "tbm"),
     CC({"4.7", NULL, "-march=bdver2 -mtune=bdver2"}),
     CC({"3.9", NULL, "-march=bdver2 -mtune=bdver2"})},
    {"steamroller", {"piledriver", NULL}, "x86_64", "bdver3", F("fsgsbase"),
     CC({"4.8", NULL, "-march=bdver3 -mtune=bdver3"}),
     CC({"3.9", NULL, "-march=bdver3 -mtune=bdver3"})},
    {"excavator", {"steamroller", "x86_64_v3"}, "x86_64", "bdver4", NONE,
     CC({"4.9", NULL, "-march=bdver4 -mtune=bdver4"}),
     CC({"3.9", NULL, "-march=bdver4 -mtune=bdver4"})},
    {"zen", {"x86_64_v3", NULL}, "x86_64", "znver1",
     F("aes", "clflushopt", "clzero", "fsgsbase", "pclmul", "rdseed", "sse4a", "xsavec",
       "xsaveopt"),
     CC({"6.0", NULL, "-march=znver1 -mtune=znver1"}),
     CC({"4.0", NULL, "-march=znver1 -mtune=znver1"})},
    {"zen2", {"zen", NULL}, "x86_64", "znver2", F("clwb"),
     CC({"9.0", NULL, "-march=znver2 -mtune=znver2"}),
     CC({"9.0", NULL, "-march=znver2 -mtune=znver2"})},
    {"zen3", {"zen2", NULL}, "x86_64", "znver3", F("vaes", "vpclmulqdq"),
     CC({"10.3", NULL, "-march=znver3 -mtune=znver3"}),
     CC({"12.0", NULL, "-march=znver3 -mtune=znver3"})},
    {"zen4", {"zen3", "x86_64_v4"}, "x86_64", "znver4",
     F("avx512bf16", "avx512bitalg", "avx512ifma", "avx512vbmi", "avx512vbmi2", "avx512vnni",
       "avx512vpopcntdq", "gfni"),
     CC({"10.3", "12.2", "-march=znver3 -mtune=znver3 -mavx512f -mavx512dq -mavx512ifma -mavx512cd -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mavx512vnni -mavx512bitalg"}, {"12.3", NULL, "-march=znver4 -mtune=znver4"}),
     CC({"12.0", "15.9", "-march=znver3 -mtune=znver3 -mavx512f -mavx512dq -mavx512ifma -mavx512cd -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mavx512vnni -mavx512bitalg"}, {"16.0", NULL, "-march=znver4 -mtune=znver4"})},
    {"zen5", {"zen4", NULL}, "x86_64", "znver5",
     F("avx512vp2intersect", "avxvnni", "movdir64b", "movdiri"),
     CC({"14.1", NULL, "-march=znver5 -mtune=znver5"}),
     CC({"19.1", NULL, "-march=znver5 -mtune=znver5"})},
    {"aarch64", {NULL, NULL}, "aarch64", "generic", NONE,
     CC({"4.8.0", NULL, "-march=armv8-a -mtune=generic"}),
     CC({NULL, NULL, "-march=armv8-a -mtune=generic"})},
    {"armv8.1a", {"aarch64", NULL}, "aarch64", "generic", F("crc", "lse", "rdm"),
     CC({"5", NULL, "-march=armv8.1-a -mtune=generic"}),
     CC({NULL, NULL, "-march=armv8.1-a -mtune=generic"})},
    {"armv8.2a", {"armv8.1a", NULL}, "aarch64", "generic", NONE,
     CC({"6", NULL, "-march=armv8.2-a -mtune=generic"}),
     CC({NULL, NULL, "-march=armv8.2-a -mtune=generic"})},
    {"armv8.3a", {"armv8.2a", NULL}, "aarch64", "generic", F("complxnum", "jsconv", "rcpc"),
     CC({"6", NULL, "-march=armv8.3-a -mtune=generic"}),
     CC({"6", NULL, "-march=armv8.3-a -mtune=generic"})},
    {"armv8.4a", {"armv8.3a", NULL}, "aarch64", "generic", F("dotprod"),
     CC({"8", NULL, "-march=armv8.4-a -mtune=generic"}),
     CC({"8", NULL, "-march=armv8.4-a -mtune=generic"})},
    {"armv8.5a", {"armv8.4a", NULL}, "aarch64", "generic", NONE,
     CC({"9", NULL, "-march=armv8.5-a -mtune=generic"}),
     CC({"11", NULL, "-march=armv8.5-a -mtune=generic"})},
    {"armv8.6a", {"armv8.5a", NULL}, "aarch64", "generic", F("bf16", "i8mm"),
     CC({"10.1", NULL, "-march=armv8.6-a -mtune=generic"}),
     CC({"11", NULL, "-march=armv8.6-a -mtune=generic"})},
    {"armv9.0a", {"armv8.5a", NULL}, "aarch64", "generic", F("fullfp16", "sve", "sve2"),
     CC({"12", NULL, "-march=armv9-a -mtune=generic"}),
     CC({"14", NULL, "-march=armv9-a -mtune=generic"})},
    {"armv9.2a", {"armv9.0a", "armv8.6a"}, "aarch64", "generic", NONE,
     CC({"13", NULL, "-march=armv9.2-a -mtune=generic"}),
     CC({"14", NULL, "-march=armv9.2-a -mtune=generic"})},
    {"thunderx2", {"armv8.1a", NULL}, "aarch64", "thunderx2t99",
     F("aes", "fp-armv8", "neon", "sha2"),
     CC({"4.8", "4.8.9", "-march=armv8-a"}, {"4.9", "5.9", "-march=armv8-a+crc+crypto"}, {"6", "6.9", "-march=armv8.1-a+crc+crypto"}, {"7", NULL, "-mcpu=thunderx2t99"}),
     CC({"3.9", "4.9", "-march=armv8.1-a+crc+crypto"}, {"5", NULL, "-mcpu=thunderx2t99"})},
    /* archspec's GCC 4.9-7 entries add +crypto, which is AES too, and the
     * A64FX has no AES (archspec's features: sha1, sha2, no aes): +crc
     * alone here (GCC before 8 has no +sha2 without +aes) */
    {"a64fx", {"armv8.2a", NULL}, "aarch64", "a64fx",
     F("complxnum", "fp-armv8", "fullfp16", "neon", "sha2", "sve"),
     CC({"4.8", "4.8.9", "-march=armv8-a"}, {"4.9", "5.9", "-march=armv8-a+crc"}, {"6", "6.9", "-march=armv8.1-a+crc"}, {"7", "7.9", "-march=armv8.2-a+crc+fp16"}, {"8", "10.2", "-march=armv8.2-a+crc+sha2+fp16+sve -msve-vector-bits=512"}, {"10.3", NULL, "-mcpu=a64fx -msve-vector-bits=512"}),
     CC({"3.9", "4.9", "-march=armv8.2-a+crc+sha2+fp16"}, {"5", "10", "-march=armv8.2-a+crc+sha2+fp16+sve"}, {"11", NULL, "-mcpu=a64fx"})},
    {"cortex_a72", {"aarch64", NULL}, "aarch64", "cortex-a72",
     F("aes", "crc", "fp-armv8", "neon", "sha2"),
     CC({"4.8", "4.8.9", "-march=armv8-a"}, {"4.9", "5.9", "-march=armv8-a+crc+crypto"}, {"6", NULL, "-mcpu=cortex-a72"}),
     CC({"3.9", NULL, "-mcpu=cortex-a72"})},
    {"neoverse_n1", {"cortex_a72", "armv8.2a"}, "aarch64", "neoverse-n1",
     F("dotprod", "fullfp16", "rcpc"),
     CC({"4.8", "4.8.9", "-march=armv8-a"}, {"4.9", "5.9", "-march=armv8-a+crc+crypto"}, {"6", "6.9", "-march=armv8.1-a"}, {"7", "7.9", "-march=armv8.2-a+fp16 -mtune=cortex-a72"}, {"8.0", "8.0", "-march=armv8.2-a+fp16+dotprod+crypto -mtune=cortex-a72"}, {"8.1", "8.9", "-march=armv8.2-a+fp16+rcpc+dotprod+crypto -mtune=cortex-a72"}, {"9.0", NULL, "-mcpu=neoverse-n1"}),
     CC({"3.9", "4.9", "-march=armv8.2-a+fp16+crc+crypto"}, {"5", NULL, "-march=armv8.2-a+fp16+rcpc+dotprod+crypto"}, {"10", NULL, "-mcpu=neoverse-n1"})},
    {"neoverse_v1", {"neoverse_n1", "armv8.4a"}, "aarch64", "neoverse-v1",
     F("bf16", "fp16fml", "i8mm", "sha3", "sve"),
     CC({"4.8", "4.8.9", "-march=armv8-a"}, {"4.9", "5.9", "-march=armv8-a+crc+crypto"}, {"6", "6.9", "-march=armv8.1-a"}, {"7", "7.9", "-march=armv8.2-a+crypto+fp16 -mtune=cortex-a72"}, {"8.0", "8.4", "-march=armv8.2-a+fp16+dotprod+crypto -mtune=cortex-a72"}, {"8.5", "8.9", "-mcpu=neoverse-v1"}, {"9.0", "9.3", "-march=armv8.2-a+fp16+dotprod+crypto -mtune=cortex-a72"}, {"9.4", "9.9", "-mcpu=neoverse-v1"}, {"10.0", "10.1", "-march=armv8.2-a+fp16+dotprod+crypto -mtune=cortex-a72"}, {"10.2", "10.2.99", "-mcpu=zeus"}, {"10.3", NULL, "-mcpu=neoverse-v1"}),
     CC({"3.9", "4.9", "-march=armv8.2-a+fp16+crc+crypto"}, {"5", "10", "-march=armv8.2-a+fp16+rcpc+dotprod+crypto"}, {"11", NULL, "-march=armv8.4-a+sve+fp16+bf16+crypto+i8mm+rng"}, {"12", NULL, "-mcpu=neoverse-v1"})},
    {"neoverse_v2", {"neoverse_n1", "armv9.0a"}, "aarch64", "neoverse-v2",
     F("bf16", "fp16fml", "i8mm", "sha3"),
     CC({"4.8", "5.99", "-march=armv8-a"}, {"6", "6.99", "-march=armv8.1-a"}, {"7.0", "7.99", "-march=armv8.2-a -mtune=cortex-a72"}, {"8.0", "8.99", "-march=armv8.4-a+sve -mtune=cortex-a72"}, {"9.0", "9.99", "-march=armv8.5-a+sve -mtune=cortex-a76"}, {"10.0", "11.3.99", "-march=armv8.5-a+sve+sve2+i8mm+bf16 -mtune=cortex-a77"}, {"11.4", "11.99", "-mcpu=neoverse-v2"}, {"12.0", "12.2.99", "-march=armv9-a+i8mm+bf16 -mtune=cortex-a710"}, {"12.3", NULL, "-mcpu=neoverse-v2"}),
     CC({"9.0", "10.99", "-march=armv8.5-a+sve"}, {"11.0", "13.99", "-march=armv8.5-a+sve+sve2+i8mm+bf16"}, {"14.0", "15.99", "-march=armv9-a+i8mm+bf16"}, {"16.0", NULL, "-mcpu=neoverse-v2"})},
    {"neoverse_n2", {"neoverse_n1", "armv9.0a"}, "aarch64", "neoverse-n2",
     F("bf16", "fp16fml", "i8mm", "sha3"),
     CC({"4.8", "5.99", "-march=armv8-a"}, {"6", "6.99", "-march=armv8.1-a"}, {"7.0", "7.99", "-march=armv8.2-a -mtune=cortex-a72"}, {"8.0", "8.99", "-march=armv8.4-a+sve -mtune=cortex-a72"}, {"9.0", "9.99", "-march=armv8.5-a+sve -mtune=cortex-a76"}, {"10.0", "10.99", "-march=armv8.5-a+sve+sve2+i8mm+bf16 -mtune=cortex-a77"}, {"11.0", NULL, "-mcpu=neoverse-n2"}),
     CC({"9.0", "10.99", "-march=armv8.5-a+sve"}, {"11.0", "13.99", "-march=armv8.5-a+sve+sve2+i8mm+bf16"}, {"14.0", "15.99", "-march=armv9-a+i8mm+bf16"}, {"16.0", NULL, "-mcpu=neoverse-n2"})},
    {"ampere1", {"neoverse_n1", "armv8.6a"}, "aarch64", "ampere1", F("fp16fml", "sha3"),
     CC({"9.0", "10.4.99", "-mcpu=neoverse-n1"}, {"10.5", "10.99", "-mcpu=ampere1"}, {"11.0", "11.2.99", "-mcpu=neoverse-n1"}, {"11.3", "11.99", "-mcpu=ampere1"}, {"12.0", "12.0.99", "-mcpu=neoverse-n1"}, {"12.1", "12.99", "-mcpu=ampere1"}, {"13", NULL, "-mcpu=ampere1"}),
     CC({"10", NULL, "-mcpu=neoverse-n1"}, {"16", NULL, "-mcpu=ampere1"})},
    {"ampere1a", {"ampere1", NULL}, "aarch64", "ampere1a", /* llvm: Host.cpp (archspec's clang flag says ampere1) */
     F("sm4"),
     CC({"9.0", "10.4.99", "-mcpu=neoverse-n1"}, {"10.5", "10.99", "-mcpu=ampere1a"}, {"11.0", "11.3.99", "-mcpu=neoverse-n1"}, {"11.4", "11.99", "-mcpu=ampere1a"}, {"12.0", "12.2.99", "-mcpu=neoverse-n1"}, {"12.3", "12.99", "-mcpu=ampere1a"}, {"13", NULL, "-mcpu=ampere1a"}),
     CC({"10", NULL, "-mcpu=neoverse-n1"}, {"16", NULL, "-mcpu=ampere1"})},
    {"neoverse_v3ae", {"neoverse_v2", "armv9.2a"}, "aarch64", "neoverse-v3ae", F("sm4"),
     CC({"15.0", NULL, "-mcpu=neoverse-v3ae"}),
     CC({"19.0", NULL, "-mcpu=neoverse-v3ae"})},
    {"m1", {"armv8.4a", NULL}, "aarch64", "apple-m1",
     F("aes", "fp-armv8", "fp16fml", "fullfp16", "neon", "sha2", "sha3"),
     CC({"8.0", NULL, "-march=armv8.4-a -mtune=generic"}, {"15.1", NULL, "-mcpu=apple-m1"}),
     CC({"9.0", "12.0", "-march=armv8.4-a"}, {"13.0", NULL, "-mcpu=apple-m1"})},
    {"m2", {"m1", "armv8.5a"}, "aarch64", "apple-m2", F("bf16", "i8mm"),
     CC({"10.1", NULL, "-march=armv8.6-a -mtune=generic"}, {"15.1", NULL, "-mcpu=apple-m2"}),
     CC({"9.0", "12.0", "-march=armv8.5-a"}, {"13.0", NULL, "-mcpu=apple-m1"}, {"16.0", NULL, "-mcpu=apple-m2"})},
    /* clang: -mcpu=apple-m3 from LLVM 18 (llvm-project PR 73499, merged 2023-11-29
     * after release/17.x branched: "add support for currently released Apple CPUs",
     * A17 and M3, per PR 73497), not 16.0 as archspec 90b453f says; apple-m2
     * before it. */
    {"m3", {"m2", "armv8.6a"}, "aarch64", "apple-m3", NONE,
     CC({"10.1", NULL, "-march=armv8.6-a -mtune=generic"}, {"15.1", NULL, "-mcpu=apple-m3"}),
     CC({"9.0", "12.0", "-march=armv8.5-a"}, {"13.0", NULL, "-mcpu=apple-m1"}, {"16.0", "17.99", "-mcpu=apple-m2"}, {"18.0", NULL, "-mcpu=apple-m3"})},
    {"m4", {"m3", "armv8.6a"}, "aarch64", "apple-m4", F("sme"),
     CC({"14.1", NULL, "-march=armv9.2-a+sme2 -fno-tree-vectorize -fno-tree-slp-vectorize -mtune=generic"}),
     CC({"9.0", "12.0", "-march=armv8.5-a"}, {"13.0", NULL, "-mcpu=apple-m1"}, {"16.0", "17.99", "-mcpu=apple-m2"}, {"18.0", "18", "-mcpu=apple-m3"}, {"19", NULL, "-mcpu=apple-m4"})},
    {"riscv64", {NULL, NULL}, "riscv64", "generic-rv64", NONE,
     CC({"7.1", NULL, "-march=rv64gc"}),
     CC({"9.0", NULL, "-march=rv64gc"})},
    {"u74mc", {"riscv64", NULL}, "riscv64", "sifive-u74", NONE, /* llvm: Host.cpp */
     CC({"10.2", NULL, "-march=rv64gc -mtune=sifive-7-series"}),
     CC({"12.0", NULL, "-march=rv64gc -mtune=sifive-7-series"})},
    {"x60", {"riscv64", NULL}, "riscv64", "spacemit-x60", NONE, /* llvm: llc-22 -mcpu=help */
     CC({"14", NULL, "-march=rv64imafdcv_zicbom_zicboz_zicntr_zicond_zicsr_zifencei_zihintpause_zihpm_zfh_zfhmin_zca_zcd_zba_zbb_zbc_zbs_zkt_zve32f_zve32x_zve64d_zve64f_zve64x_zvfh_zvfhmin_zvkt_sscofpmf_sstc_svinval_svnapot_svpbmt"}),
     CC({"21.0", NULL, "-march=rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0_zca1p0_zcd1p0"})},

    /* ---- not in archspec (see the header) ---- */
    /* Cooper Lake: Cascade Lake + AVX512_BF16 (Host.cpp model 0x55 test) */
    {"cooperlake", {"cascadelake", NULL}, "x86_64", "cooperlake", F("avx512bf16"),
     CC({"10.1", NULL, "-march=cooperlake -mtune=cooperlake"}), NONE},
    /* Tiger Lake: Ice Lake's successor core (Willow Cove) */
    {"tigerlake", {"icelake", NULL}, "x86_64", "tigerlake",
     F("avx512vp2intersect", "movdir64b", "movdiri"),
     CC({"10.1", NULL, "-march=tigerlake -mtune=tigerlake"}), NONE},
    /* Rocket Lake: client Ice Lake's core (Cypress Cove), which has no CLWB
     * (GCC's -march=rocketlake and LLVM's rocketlake leave it out), so not
     * below archspec's icelake (which requires CLWB, and whose
     * -march=icelake-client enables it) but Cannon Lake with Ice Lake's
     * additions */
    {"rocketlake", {"cannonlake", NULL}, "x86_64", "rocketlake",
     F("avx512bitalg", "avx512vbmi2", "avx512vnni", "avx512vpopcntdq", "gfni", "rdpid", "vaes",
       "vpclmulqdq"),
     CC({"11.1", NULL, "-march=rocketlake -mtune=rocketlake"}), NONE},
    /* Granite Rapids: Sapphire Rapids' successor (Redwood Cove) */
    {"graniterapids", {"sapphirerapids", NULL}, "x86_64", "graniterapids", F("amx-fp16"),
     CC({"13.1", NULL, "-march=graniterapids -mtune=graniterapids"}), NONE},
    /* Cortex-A76: Armv8.2-A; Neoverse N1 derives from it */
    {"cortex_a76", {"cortex_a72", "armv8.2a"}, "aarch64", "cortex-a76",
     F("dotprod", "fullfp16", "rcpc"),
     CC({"9.1", NULL, "-mcpu=cortex-a76"}), NONE},
    /* Cortex-X: X1 Armv8.2-A, X2 and X3 Armv9.0-A, X4 and X925 Armv9.2-A */
    {"cortex_x1", {"cortex_a76", NULL}, "aarch64", "cortex-x1", NONE,
     CC({"11.1", NULL, "-mcpu=cortex-x1"}), NONE},
    {"cortex_x2", {"cortex_x1", "armv9.0a"}, "aarch64", "cortex-x2", F("bf16", "i8mm"),
     CC({"12.1", NULL, "-mcpu=cortex-x2"}), NONE},
    {"cortex_x3", {"cortex_x2", NULL}, "aarch64", "cortex-x3", NONE,
     CC({"13.1", NULL, "-mcpu=cortex-x3"}), NONE},
    {"cortex_x4", {"cortex_x3", "armv9.2a"}, "aarch64", "cortex-x4", NONE,
     CC({"14.1", NULL, "-mcpu=cortex-x4"}), NONE},
    {"cortex_x925", {"cortex_x4", NULL}, "aarch64", "cortex-x925", NONE, NONE, NONE},
    /* Neoverse V3: V3AE's sibling core (archspec has only V3AE) */
    {"neoverse_v3", {"neoverse_v2", "armv9.2a"}, "aarch64", "neoverse-v3", NONE, NONE, NONE},
};
const size_t pb_uarch_count = sizeof(pb_uarch_table) / sizeof(pb_uarch_table[0]);

/* x86: LLVM Host.cpp's getIntelProcessorTypeAndSubtype (family 6) and
 * getAMDProcessorTypeAndSubtype, in its order.  `llvm` is Host.cpp's name
 * where a generation's model has a name of its own that archspec folds into
 * one row (Ice Lake server, Raptor/Meteor Lake, Emerald Rapids).  Atom cores,
 * Knights Mill, Pantherlake, Diamond Rapids and AMD's Bobcat/Jaguar have no
 * row: they are left to the feature fallback.  Model 0x55 without features
 * (hwloc XML): steppings 5-7 Cascade Lake, 10-11 Cooper Lake, as Intel's
 * Xeon Scalable specification updates list them (doubtful: not from LLVM). */
#define INTEL "GenuineIntel"
#define AMD "AuthenticAMD"
const pb_x86_rule pb_x86_rules[] = {
    {INTEL, 6, 0x0f, 0x0f, NULL, 0, 0, "core2", NULL},
    {INTEL, 6, 0x16, 0x16, NULL, 0, 0, "core2", NULL},
    {INTEL, 6, 0x17, 0x17, NULL, 0, 0, "core2", "penryn"}, /* 45 nm Core 2: archspec's core2 */
    {INTEL, 6, 0x1d, 0x1d, NULL, 0, 0, "core2", "penryn"},
    {INTEL, 6, 0x1a, 0x1a, NULL, 0, 0, "nehalem", NULL},
    {INTEL, 6, 0x1e, 0x1f, NULL, 0, 0, "nehalem", NULL},
    {INTEL, 6, 0x2e, 0x2e, NULL, 0, 0, "nehalem", NULL},
    {INTEL, 6, 0x25, 0x25, NULL, 0, 0, "westmere", NULL},
    {INTEL, 6, 0x2c, 0x2c, NULL, 0, 0, "westmere", NULL},
    {INTEL, 6, 0x2f, 0x2f, NULL, 0, 0, "westmere", NULL},
    {INTEL, 6, 0x2a, 0x2a, NULL, 0, 0, "sandybridge", NULL},
    {INTEL, 6, 0x2d, 0x2d, NULL, 0, 0, "sandybridge", NULL},
    {INTEL, 6, 0x3a, 0x3a, NULL, 0, 0, "ivybridge", NULL},
    {INTEL, 6, 0x3e, 0x3e, NULL, 0, 0, "ivybridge", NULL},
    {INTEL, 6, 0x3c, 0x3c, NULL, 0, 0, "haswell", NULL},
    {INTEL, 6, 0x3f, 0x3f, NULL, 0, 0, "haswell", NULL},
    {INTEL, 6, 0x45, 0x46, NULL, 0, 0, "haswell", NULL},
    {INTEL, 6, 0x3d, 0x3d, NULL, 0, 0, "broadwell", NULL},
    {INTEL, 6, 0x47, 0x47, NULL, 0, 0, "broadwell", NULL},
    {INTEL, 6, 0x4f, 0x4f, NULL, 0, 0, "broadwell", NULL},
    {INTEL, 6, 0x56, 0x56, NULL, 0, 0, "broadwell", NULL},
    {INTEL, 6, 0x4e, 0x4e, NULL, 0, 0, "skylake", NULL},
    {INTEL, 6, 0x5e, 0x5e, NULL, 0, 0, "skylake", NULL},
    {INTEL, 6, 0x8e, 0x8e, NULL, 0, 0, "skylake", NULL}, /* Kaby Lake */
    {INTEL, 6, 0x9e, 0x9e, NULL, 0, 0, "skylake", NULL},
    {INTEL, 6, 0xa5, 0xa6, NULL, 0, 0, "skylake", NULL}, /* Comet Lake */
    {INTEL, 6, 0xa7, 0xa7, NULL, 0, 0, "rocketlake", NULL},
    {INTEL, 6, 0x55, 0x55, "avx512bf16", 10, 11, "cooperlake", NULL},
    {INTEL, 6, 0x55, 0x55, "avx512vnni", 5, 7, "cascadelake", NULL},
    {INTEL, 6, 0x55, 0x55, NULL, 0, 0, "skylake_avx512", NULL},
    {INTEL, 6, 0x66, 0x66, NULL, 0, 0, "cannonlake", NULL},
    {INTEL, 6, 0x7d, 0x7e, NULL, 0, 0, "icelake", NULL},
    {INTEL, 6, 0x8c, 0x8d, NULL, 0, 0, "tigerlake", NULL},
    {INTEL, 6, 0x97, 0x97, NULL, 0, 0, "alderlake", NULL},
    {INTEL, 6, 0x9a, 0x9a, NULL, 0, 0, "alderlake", NULL},
    {INTEL, 6, 0xb7, 0xb7, NULL, 0, 0, "alderlake", "raptorlake"},
    {INTEL, 6, 0xba, 0xba, NULL, 0, 0, "alderlake", "raptorlake"},
    {INTEL, 6, 0xbf, 0xbf, NULL, 0, 0, "alderlake", "raptorlake"},
    {INTEL, 6, 0xaa, 0xaa, NULL, 0, 0, "alderlake", "meteorlake"},
    {INTEL, 6, 0xac, 0xac, NULL, 0, 0, "alderlake", "meteorlake"},
    {INTEL, 6, 0xc5, 0xc5, NULL, 0, 0, "arrowlake", NULL},
    {INTEL, 6, 0xb5, 0xb5, NULL, 0, 0, "arrowlake", NULL}, /* Arrow Lake U */
    {INTEL, 6, 0xc6, 0xc6, NULL, 0, 0, "arrowlake_s", NULL},
    {INTEL, 6, 0xbd, 0xbd, NULL, 0, 0, "arrowlake_s", "lunarlake"},
    {INTEL, 6, 0xad, 0xad, NULL, 0, 0, "graniterapids", NULL},
    {INTEL, 6, 0xae, 0xae, NULL, 0, 0, "graniterapids", "graniterapids-d"},
    {INTEL, 6, 0x6a, 0x6a, NULL, 0, 0, "icelake", "icelake-server"},
    {INTEL, 6, 0x6c, 0x6c, NULL, 0, 0, "icelake", "icelake-server"},
    {INTEL, 6, 0xcf, 0xcf, NULL, 0, 0, "sapphirerapids", "emeraldrapids"},
    {INTEL, 6, 0x8f, 0x8f, NULL, 0, 0, "sapphirerapids", NULL},
    {INTEL, 6, 0x57, 0x57, NULL, 0, 0, "mic_knl", NULL},

    {AMD, 16, 0x00, 0xff, NULL, 0, 0, "k10", NULL},
    {AMD, 18, 0x00, 0xff, NULL, 0, 0, "k10", NULL},
    {AMD, 21, 0x60, 0x7f, NULL, 0, 0, "excavator", NULL},
    {AMD, 21, 0x30, 0x3f, NULL, 0, 0, "steamroller", NULL},
    {AMD, 21, 0x02, 0x02, NULL, 0, 0, "piledriver", NULL},
    {AMD, 21, 0x10, 0x1f, NULL, 0, 0, "piledriver", NULL},
    {AMD, 21, 0x00, 0xff, NULL, 0, 0, "bulldozer", NULL}, /* Host.cpp: family 15h is bdver1 otherwise */
    {AMD, 23, 0x30, 0x3f, NULL, 0, 0, "zen2", NULL},
    {AMD, 23, 0x47, 0x47, NULL, 0, 0, "zen2", NULL},
    {AMD, 23, 0x60, 0x7f, NULL, 0, 0, "zen2", NULL},
    {AMD, 23, 0x84, 0x87, NULL, 0, 0, "zen2", NULL},
    {AMD, 23, 0x90, 0xaf, NULL, 0, 0, "zen2", NULL},
    {AMD, 23, 0x00, 0xff, NULL, 0, 0, "zen", NULL}, /* family 17h is znver1 otherwise */
    {AMD, 25, 0x10, 0x1f, NULL, 0, 0, "zen4", NULL},
    {AMD, 25, 0x60, 0x7f, NULL, 0, 0, "zen4", NULL},
    {AMD, 25, 0xa0, 0xaf, NULL, 0, 0, "zen4", NULL},
    {AMD, 25, 0x00, 0xff, NULL, 0, 0, "zen3", NULL}, /* family 19h is znver3 otherwise */
    {AMD, 26, 0x00, 0xff, NULL, 0, 0, "zen5", NULL}, /* family 1Ah: znver5 */
};
const size_t pb_x86_rule_count = sizeof(pb_x86_rules) / sizeof(pb_x86_rules[0]);

/* Arm: Host.cpp's getHostCPUNameForARMFromComponents (implementer, part).
 * Graviton2 is a Neoverse N1, Graviton3 a V1, Graviton4 and NVIDIA Grace V2:
 * they report Arm's part numbers. */
const pb_arm_rule pb_arm_rules[] = {
    {0x41, 0xd08, "cortex_a72", NULL},
    {0x41, 0xd0b, "cortex_a76", NULL},
    {0x41, 0xd44, "cortex_x1", NULL},
    {0x41, 0xd48, "cortex_x2", NULL},
    {0x41, 0xd4e, "cortex_x3", NULL},
    {0x41, 0xd82, "cortex_x4", NULL},
    {0x41, 0xd85, "cortex_x925", NULL},
    {0x41, 0xd0c, "neoverse_n1", NULL},
    {0x41, 0xd49, "neoverse_n2", NULL},
    {0x41, 0xd40, "neoverse_v1", NULL},
    {0x41, 0xd4f, "neoverse_v2", NULL},
    {0x41, 0xd84, "neoverse_v3", NULL},
    {0x41, 0xd83, "neoverse_v3ae", NULL},
    /* Broadcom (0x42) and Cavium (0x43) alike, as Host.cpp */
    {0x42, 0x516, "thunderx2", NULL}, {0x42, 0x0af, "thunderx2", NULL},
    {0x43, 0x516, "thunderx2", NULL}, {0x43, 0x0af, "thunderx2", NULL},
    {0x46, 0x001, "a64fx", NULL},
    {0x6d, 0xd49, "neoverse_n2", NULL}, /* Microsoft Cobalt 100 */
    {0x61, 0x020, "m1", NULL}, {0x61, 0x021, "m1", NULL}, {0x61, 0x022, "m1", NULL},
    {0x61, 0x023, "m1", NULL}, {0x61, 0x024, "m1", NULL}, {0x61, 0x025, "m1", NULL},
    {0x61, 0x028, "m1", NULL}, {0x61, 0x029, "m1", NULL},
    {0x61, 0x030, "m2", NULL}, {0x61, 0x031, "m2", NULL}, {0x61, 0x032, "m2", NULL},
    {0x61, 0x033, "m2", NULL}, {0x61, 0x034, "m2", NULL}, {0x61, 0x035, "m2", NULL},
    {0x61, 0x038, "m2", NULL}, {0x61, 0x039, "m2", NULL},
    {0x61, 0x048, "m3", NULL}, {0x61, 0x049, "m3", NULL},
    {0xc0, 0xac3, "ampere1", NULL},
    {0xc0, 0xac4, "ampere1a", NULL},
};
const size_t pb_arm_rule_count = sizeof(pb_arm_rules) / sizeof(pb_arm_rules[0]);
