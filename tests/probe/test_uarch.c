/* The microarchitecture table and recogniser (probe/uarch/uarch.h), without the
 * hardware: CPUs recorded on real machines against the names LLVM's
 * Host.cpp gives them, the table's consistency, archspec's ancestors and
 * compiler choices, and every LLVM name against llc-22 when it is there. */
#define _GNU_SOURCE /* popen */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uarch/uarch.h"

/* CPUs recorded by hwloc's own tests (github.com/open-mpi/hwloc, commit
 * 3b37b024a): tests/hwloc/x86/<file>.xml infos CPUVendor, CPUFamilyNumber,
 * CPUModelNumber, CPUStepping; tests/hwloc/linux/nvidia-dgx-gb10.xml and
 * 128arm-2pa2n8cluster4co.console CPUImplementer/CPUPart.  `llvm` is what
 * LLVM's Host.cpp (getIntelProcessorTypeAndSubtype,
 * getAMDProcessorTypeAndSubtype, getHostCPUNameForARMFromComponents) returns
 * for the tuple; NULL where our table makes no claim (LLVM's answer there
 * comes from features or is "generic"). */
static const struct {
    const char *file;
    const char *vendor;
    int family, model, stepping;
    const char *uarch, *llvm;
} x86[] = {
    {"AMD-15h-Bulldozer-4xOpteron-6272", "AuthenticAMD", 21, 1, 2, "bulldozer", "bdver1"},
    {"AMD-15h-Piledriver-4xOpteron-6348", "AuthenticAMD", 21, 2, 0, "piledriver", "bdver2"},
    {"AMD-17h-Zen-2xEpyc-7451", "AuthenticAMD", 23, 1, 2, "zen", "znver1"},
    {"AMD-19h-Zen3-2xEpyc-7763", "AuthenticAMD", 25, 1, 1, "zen3", "znver3"},
    {"AMD-19h-Zen4-2xEpyc-9654", "AuthenticAMD", 25, 17, 1, "zen4", "znver4"},
    {"AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370", "AuthenticAMD", 26, 36, 0, "zen5", "znver5"},
    {"AMD-K10-Istanbul-8xOpteron-8439SE", "AuthenticAMD", 16, 8, 0, "k10", "amdfam10"},
    {"AMD-K10-MagnyCours-2xOpteron-6164HE", "AuthenticAMD", 16, 9, 1, "k10", "amdfam10"},
    {"AMD-K8-SantaRosa-2xOpteron-2218", "AuthenticAMD", 15, 65, 2, NULL, NULL},
    {"Hygon-Dhyana-32cores", "HygonGenuine", 24, 0, 0, NULL, NULL},
    {"Intel-ArrowLake-CoreUltra5-225U", "GenuineIntel", 6, 181, 0, "arrowlake", "arrowlake"},
    {"Intel-Broadwell-2xXeon-E5-2650Lv4", "GenuineIntel", 6, 79, 1, "broadwell", "broadwell"},
    {"Intel-CPUID.1A-1p2co2t (i7-7600U)", "GenuineIntel", 6, 142, 9, "skylake", "skylake"},
    {"Intel-CPUID.1F-Qemu-2p3d3c2t", "GenuineIntel", 6, 6, 3, NULL, NULL},
    {"Intel-CascadeLake-2xXeon6230", "GenuineIntel", 6, 85, 7, "cascadelake", "cascadelake"},
    {"Intel-Core-2xXeon-E5345", "GenuineIntel", 6, 15, 7, "core2", "core2"},
    {"Intel-Haswell-2xXeon-E5-2680v3", "GenuineIntel", 6, 63, 2, "haswell", "haswell"},
    {"Intel-IvyBridge-12xXeon-E5-4620v2", "GenuineIntel", 6, 62, 4, "ivybridge", "ivybridge"},
    {"Intel-KnightsCorner-XeonPhi-SE10P", "GenuineIntel", 11, 1, 3, NULL, NULL},
    {"Intel-KnightsLanding-XeonPhi-7210", "GenuineIntel", 6, 87, 1, "mic_knl", "knl"},
    {"Intel-Nehalem-2xXeon-X5550", "GenuineIntel", 6, 26, 5, "nehalem", "nehalem"},
    {"Intel-Penryn-4xXeon-X7460", "GenuineIntel", 6, 29, 1, "core2", "penryn"},
    {"Intel-RaptorLake-Corei7-1370P", "GenuineIntel", 6, 186, 2, "alderlake", "raptorlake"},
    {"Intel-SandyBridge-2xXeon-E5-2650", "GenuineIntel", 6, 45, 7, "sandybridge", "sandybridge"},
    {"Intel-SapphireRapids-2xXeonMax9460", "GenuineIntel", 6, 143, 8, "sapphirerapids",
     "sapphirerapids"},
    {"Intel-Skylake-2xXeon6140", "GenuineIntel", 6, 85, 4, "skylake_avx512", "skylake-avx512"},
    {"Intel-Westmere-2xXeon-X5650", "GenuineIntel", 6, 44, 2, "westmere", "westmere"},
    {"Zhaoxin-2xCentaurHauls-KaiSheng-KH-40000", "CentaurHauls", 7, 91, 11, NULL, NULL},
};

static const struct {
    const char *file;
    int implementer, part;
    const char *uarch, *llvm;
} arm[] = {
    {"nvidia-dgx-gb10 (Cortex-X925 + A725)", 0x41, 0xd85, "cortex_x925", "cortex-x925"},
    {"128arm-2pa2n8cluster4co (HiSilicon)", 0x48, 0xd01, NULL, NULL}, /* LLVM: tsv110 */
    /* /proc/cpuinfo samples in LLVM's llvm/unittests/TargetParser/Host.cpp
     * (TEST(getLinuxHostCPUName, AArch64)) */
    {"LLVM Host test: neoverse-n1", 0x41, 0xd0c, "neoverse_n1", "neoverse-n1"},
    {"LLVM Host test: ThunderX2T99", 0x43, 0x0af, "thunderx2", "thunderx2t99"},
    {"LLVM Host test: ThunderX2T99 (Broadcom)", 0x42, 0x516, "thunderx2", "thunderx2t99"},
    {"LLVM Host test: A64FX", 0x46, 0x001, "a64fx", "a64fx"},
    {"LLVM Host test: Carmel", 0x4e, 0x004, NULL, NULL}, /* LLVM: carmel */
};

static void test_recorded_x86(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++) {
        pb_cpu_id id = {.arch = "x86_64", .vendor = x86[i].vendor, .family = x86[i].family,
                        .model = x86[i].model, .stepping = x86[i].stepping,
                        .implementer = -1, .part = -1};
        pb_uarch_match m;
        assert_int_equal(pb_uarch_identify(&id, &m), 0);
        if (!x86[i].uarch) {
            /* no claim: the generic row, not a family/model rule */
            if (strcmp(m.how, "arch") != 0)
                fail_msg("%s: claimed %s by %s", x86[i].file, m.uarch->name, m.how);
            assert_string_equal(m.uarch->name, "x86_64");
            continue;
        }
        if (strcmp(m.uarch->name, x86[i].uarch) != 0 || strcmp(m.llvm, x86[i].llvm) != 0)
            fail_msg("%s: got %s (%s), want %s (%s)", x86[i].file, m.uarch->name, m.llvm,
                     x86[i].uarch, x86[i].llvm);
    }
}

static void test_recorded_arm(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(arm) / sizeof(arm[0]); i++) {
        pb_cpu_id id = {.arch = "aarch64", .family = -1, .model = -1, .stepping = -1,
                        .implementer = arm[i].implementer, .part = arm[i].part};
        pb_uarch_match m;
        assert_int_equal(pb_uarch_identify(&id, &m), 0);
        const char *want = arm[i].uarch ? arm[i].uarch : "aarch64";
        if (strcmp(m.uarch->name, want) != 0)
            fail_msg("%s: got %s, want %s", arm[i].file, m.uarch->name, want);
        if (arm[i].llvm)
            assert_string_equal(m.llvm, arm[i].llvm);
    }
    /* tests/hwloc/linux/2arm-2c: a 32-bit Cortex-A9 (0x41, 0xc09): no row */
    pb_cpu_id v7 = {.arch = "armv7l", .family = -1, .model = -1, .stepping = -1,
                    .implementer = 0x41, .part = 0xc09};
    pb_uarch_match m;
    assert_int_equal(pb_uarch_identify(&v7, &m), -1);
}

/* Host.cpp's model 0x55 tests: features decide when they are known. */
static void test_features_decide(void **state)
{
    (void)state;
    static const char *const clx[] = {"avx512f", "avx512vnni"};
    static const char *const cpx[] = {"avx512f", "avx512vnni", "avx512bf16"};
    static const char *const skx[] = {"avx512f"};
    pb_cpu_id id = {.arch = "x86_64", .vendor = "GenuineIntel", .family = 6, .model = 0x55,
                    .stepping = 4, .implementer = -1, .part = -1};
    pb_uarch_match m;
    id.features = clx, id.nfeatures = 2;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "cascadelake");
    id.features = cpx, id.nfeatures = 3;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.llvm, "cooperlake");
    id.features = skx, id.nfeatures = 1, id.stepping = 7; /* features win over stepping */
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "skylake_avx512");
}

/* Unknown models fall back to the x86-64 psABI levels the features reach. */
static void test_feature_levels(void **state)
{
    (void)state;
    static const char *const v3[] = {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "cx16",
                                     "avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt",
                                     "movbe"};
    pb_cpu_id id = {.arch = "x86_64", .vendor = "GenuineIntel", .family = 6, .model = 0x06,
                    .stepping = 3, .implementer = -1, .part = -1, .features = v3,
                    .nfeatures = sizeof(v3) / sizeof(v3[0])};
    pb_uarch_match m;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "x86_64_v3");
    assert_string_equal(m.llvm, "x86-64-v3");
    id.nfeatures = 6; /* the v2 part only */
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "x86_64_v2");
    pb_cpu_id none = {.arch = "sparc64", .family = -1, .model = -1, .stepping = -1,
                      .implementer = -1, .part = -1};
    assert_int_equal(pb_uarch_identify(&none, &m), -1);
    assert_int_equal(pb_uarch_identify(NULL, &m), -1);
}

/* Every rule names a row of its architecture; every parent is a row;
 * names are unique. */
static void test_table_consistent(void **state)
{
    (void)state;
    for (size_t i = 0; i < pb_uarch_count; i++) {
        const pb_uarch *u = &pb_uarch_table[i];
        assert_ptr_equal(pb_uarch_find(u->name), u);
        assert_non_null(u->llvm);
        for (int p = 0; p < 2; p++)
            if (u->parents[p] && !pb_uarch_find(u->parents[p]))
                fail_msg("%s: parent %s is not a row", u->name, u->parents[p]);
    }
    for (size_t i = 0; i < pb_x86_rule_count; i++) {
        const pb_uarch *u = pb_uarch_find(pb_x86_rules[i].uarch);
        if (!u || strcmp(u->arch, "x86_64") != 0)
            fail_msg("x86 rule %zu names %s", i, pb_x86_rules[i].uarch);
    }
    for (size_t i = 0; i < pb_arm_rule_count; i++) {
        const pb_uarch *u = pb_uarch_find(pb_arm_rules[i].uarch);
        if (!u || strcmp(u->arch, "aarch64") != 0)
            fail_msg("arm rule %zu names %s", i, pb_arm_rules[i].uarch);
    }
}

/* archspec's ancestors (Microarchitecture.ancestors over
 * microarchitectures.json, commit 90b453f). */
static void test_ancestors(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *want;
    } cases[] = {
        {"zen5", "zen4 zen3 x86_64_v4 zen2 zen x86_64_v3 x86_64_v2 x86_64"},
        {"haswell", "ivybridge x86_64_v3 sandybridge westmere nehalem core2 x86_64_v2 nocona x86_64"},
        {"neoverse_v2", "neoverse_n1 armv9.0a cortex_a72 armv8.2a aarch64 armv8.1a armv8.5a "
                        "armv8.4a armv8.3a"},
        {"x86_64", ""},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *out[64];
        size_t n = pb_uarch_ancestors(pb_uarch_find(cases[i].name), out, 64);
        char got[512] = "";
        for (size_t k = 0; k < n; k++) {
            if (k)
                strcat(got, " ");
            strcat(got, out[k]);
        }
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("%s: ancestors \"%s\", want \"%s\"", cases[i].name, got, cases[i].want);
    }
}

/* archspec's compiler entries: the newest and the one before. */
static void test_compiler_choice(void **state)
{
    (void)state;
    pb_cc_choice c;
    /* zen4: GCC 12.3+ znver4; 10.3-12.2 znver3 with AVX-512 flags */
    pb_uarch_compiler(pb_uarch_find("zen4"), false, NULL, &c);
    assert_string_equal(c.best->min, "12.3");
    assert_string_equal(c.best->flags, "-march=znver4 -mtune=znver4");
    assert_string_equal(c.fallback->max, "12.2");
    assert_ptr_equal(c.fallback_from, pb_uarch_find("zen4"));
    /* zen5 has one entry per compiler: the fallback is zen4's newest */
    pb_uarch_compiler(pb_uarch_find("zen5"), true, NULL, &c);
    assert_string_equal(c.best->min, "19.1");
    assert_string_equal(c.fallback->flags, "-march=znver4 -mtune=znver4");
    assert_ptr_equal(c.fallback_from, pb_uarch_find("zen4"));
    /* a row without entries: only the ancestor's */
    pb_uarch_compiler(pb_uarch_find("graniterapids"), true, NULL, &c);
    assert_null(c.best);
    assert_string_equal(c.fallback->flags, "-march=sapphirerapids -mtune=sapphirerapids");
    /* GCC 13 release notes: -march=graniterapids; older: Sapphire Rapids (11.0) */
    pb_uarch_compiler(pb_uarch_find("graniterapids"), false, NULL, &c);
    assert_string_equal(c.best->min, "13.1");
    assert_string_equal(c.fallback->min, "11.0");
    /* For an installed version: the first entry of the chain whose range
     * holds it, an ancestor's when the row's own are too new (Debian
     * bookworm's GCC 12.2 and Clang 14 on Zen 5: zen4's znver3 + AVX-512) */
    pb_uarch_compiler(pb_uarch_find("zen5"), false, "12.2.0", &c);
    assert_string_equal(c.best->min, "10.3");
    assert_string_equal(c.best->max, "12.2");
    assert_ptr_equal(c.best_from, pb_uarch_find("zen4"));
    assert_true(pb_version_cmp(c.fallback->min, "10.3") < 0);
    pb_uarch_compiler(pb_uarch_find("zen5"), true, "14.0.6", &c);
    assert_string_equal(c.best->max, "15.9");
    pb_uarch_compiler(pb_uarch_find("zen5"), false, "14.2.0", &c);
    assert_string_equal(c.best->flags, "-march=znver5 -mtune=znver5");
    assert_ptr_equal(c.best_from, pb_uarch_find("zen5"));
    pb_uarch_compiler(pb_uarch_find("zen4"), false, "12.3", &c);
    assert_string_equal(c.best->flags, "-march=znver4 -mtune=znver4");
    /* the chain ends in the generic row: a compiler as old as that row's
     * oldest entry gets it, whatever the row */
    for (size_t i = 0; i < pb_uarch_count; i++)
        for (int clang = 0; clang < 2; clang++) {
            const pb_uarch *root = &pb_uarch_table[i];
            while (root->parents[0])
                root = pb_uarch_find(root->parents[0]);
            const char *oldest = "999";
            for (const pb_cc *e = clang ? root->clang : root->gcc; e && e->flags; e++)
                if (pb_version_cmp(e->min, oldest) < 0)
                    oldest = e->min ? e->min : "0";
            pb_uarch_compiler(&pb_uarch_table[i], clang, oldest, &c);
            if (!c.best)
                fail_msg("%s: no %s entry for version %s", pb_uarch_table[i].name,
                         clang ? "clang" : "gcc", oldest);
        }
    assert_true(pb_version_cmp("12.3", "12.10") < 0);
    assert_true(pb_version_cmp("4.8.5", "4.8") > 0);
    assert_int_equal(pb_version_cmp("16.0", "16"), 0);
    assert_true(pb_version_cmp(NULL, "1") < 0);
}

/* Every LLVM name the table gives is a CPU llc-22 knows for its triple. */
static void test_llvm_names(void **state)
{
    (void)state;
    static const char *const arches[] = {"x86_64", "aarch64", "riscv64"};
    static char known[3][16384];
    for (size_t a = 0; a < 3; a++) {
        char cmd[256];
        snprintf(cmd, sizeof(cmd),
                 "llc-22 -mtriple=%s-unknown-linux-gnu -mcpu=help 2>&1 | "
                 "sed -n '/Available CPUs/,/Available features/p' | awk '{print \" \" $1 \" \"}'",
                 arches[a]);
        FILE *f = popen(cmd, "r");
        size_t n = f ? fread(known[a], 1, sizeof(known[a]) - 1, f) : 0;
        known[a][n] = '\0';
        if (f)
            pclose(f);
        if (n < 100)
            skip(); /* no llc-22 */
    }
    for (size_t i = 0; i < pb_uarch_count + pb_x86_rule_count + pb_arm_rule_count; i++) {
        const char *name, *arch;
        if (i < pb_uarch_count) {
            name = pb_uarch_table[i].llvm, arch = pb_uarch_table[i].arch;
        } else if (i < pb_uarch_count + pb_x86_rule_count) {
            name = pb_x86_rules[i - pb_uarch_count].llvm, arch = "x86_64";
        } else {
            name = pb_arm_rules[i - pb_uarch_count - pb_x86_rule_count].llvm, arch = "aarch64";
        }
        if (!name)
            continue;
        size_t a = strcmp(arch, "x86_64") == 0 ? 0 : strcmp(arch, "aarch64") == 0 ? 1 : 2;
        char needle[80];
        snprintf(needle, sizeof(needle), " %s ", name);
        if (!strstr(known[a], needle))
            fail_msg("llc-22 does not know %s for %s", name, arch);
    }
}

/* archspec's version ranges against the compilers installed here, every
 * gcc, gcc-N, clang and clang-N on PATH (one per file): every entry whose
 * range holds a compiler's version must be compiled by it, and so the
 * entry the probe gives that version (pb_uarch_compiler with the version:
 * the first of the chain in range, which is one of them); the newest entry
 * of a row is noted when a compiler older than its min_version takes it.
 * Clang is asked for every architecture (--target), GCC for its own only. */
static bool compiles(const char *cc, const char *target, const char *flags)
{
    char cmd[2048];
    int n = snprintf(cmd, sizeof(cmd), "%s %s%s %s -x c -c /dev/null -o /dev/null >/dev/null 2>&1",
                     cc, target ? "--target=" : "", target ? target : "", flags);
    return n > 0 && (size_t)n < sizeof(cmd) && system(cmd) == 0;
}

typedef struct {
    char path[512], version[64];
    bool clang;
} installed_cc;

/* gcc, gcc-N, clang, clang-N along PATH, first of each name, one per file. */
static size_t installed_compilers(installed_cc *out, size_t max)
{
    size_t n = 0;
    const char *path = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof(dirs), "%s", path ? path : "/usr/bin");
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d && n < max; d = strtok_r(NULL, ":", &save)) {
        DIR *dir = opendir(d);
        struct dirent *e;
        while (dir && (e = readdir(dir)) != NULL && n < max) {
            const char *name = e->d_name;
            bool clang = strncmp(name, "clang", 5) == 0;
            const char *rest = clang ? name + 5 : strncmp(name, "gcc", 3) == 0 ? name + 3 : NULL;
            if (!rest || (*rest && (rest[0] != '-' || !rest[1] ||
                                    strspn(rest + 1, "0123456789") != strlen(rest + 1))))
                continue;
            char full[512], real[PATH_MAX];
            if (snprintf(full, sizeof(full), "%s/%s", d, name) >= (int)sizeof(full))
                continue;
            if (access(full, X_OK) != 0 || !realpath(full, real))
                continue;
            bool seen = false;
            for (size_t i = 0; i < n; i++) {
                char other[PATH_MAX];
                seen |= realpath(out[i].path, other) && strcmp(other, real) == 0;
            }
            if (seen)
                continue;
            char cmd[1024];
            snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", full,
                     clang ? "--version | sed -n 's/.*clang version \\([0-9.]*\\).*/\\1/p'"
                           : "-dumpfullversion");
            FILE *f = popen(cmd, "r");
            char v[64] = "";
            if (f) {
                if (!fgets(v, sizeof(v), f))
                    v[0] = '\0';
                pclose(f);
            }
            v[strcspn(v, "\n")] = '\0';
            if (v[0] < '0' || v[0] > '9')
                continue;
            snprintf(out[n].path, sizeof(out[n].path), "%s", full);
            snprintf(out[n].version, sizeof(out[n].version), "%s", v);
            out[n++].clang = clang;
        }
        if (dir)
            closedir(dir);
    }
    return n;
}

static void test_installed_compilers(void **state)
{
    (void)state;
    installed_cc ccs[32];
    size_t nccs = installed_compilers(ccs, 32);
    char host[64] = "";
    FILE *f = popen("uname -m", "r");
    if (f) {
        if (!fgets(host, sizeof(host), f))
            host[0] = '\0';
        host[strcspn(host, "\n")] = '\0';
        pclose(f);
    }
    int asked = 0;
    for (size_t c = 0; c < nccs; c++) {
        const char *version = ccs[c].version;
        print_message("%s %s\n", ccs[c].path, version);
        for (size_t i = 0; i < pb_uarch_count; i++) {
            const pb_uarch *u = &pb_uarch_table[i];
            char target[64];
            snprintf(target, sizeof(target), "%s-linux-gnu", u->arch);
            if (!ccs[c].clang && strcmp(u->arch, host) != 0)
                continue;
            const char *t = ccs[c].clang ? target : NULL;
            for (const pb_cc *e = ccs[c].clang ? u->clang : u->gcc; e && e->flags; e++)
                if (pb_cc_in_range(e, version)) {
                    asked++;
                    if (!compiles(ccs[c].path, t, e->flags))
                        fail_msg("%s %s refuses %s's %s (range %s:%s)", ccs[c].path, version,
                                 u->name, e->flags, e->min ? e->min : "", e->max ? e->max : "");
                }
            pb_cc_choice ch;
            pb_uarch_compiler(u, ccs[c].clang, version, &ch);
            if (!ch.best || !pb_cc_in_range(ch.best, version))
                fail_msg("%s %s: no entry of %s's chain for its version", ccs[c].path, version,
                         u->name);
            pb_uarch_compiler(u, ccs[c].clang, NULL, &ch);
            if (ch.best && pb_version_cmp(version, ch.best->min) < 0 && ch.fallback) {
                asked++;
                if (compiles(ccs[c].path, t, ch.best->flags))
                    print_message("note: %s %s already takes %s's %s (min_version %s)\n",
                                  ccs[c].path, version, u->name, ch.best->flags, ch.best->min);
            }
        }
    }
    if (!asked)
        skip();
    print_message("%d compiler checks with %zu compilers\n", asked, nccs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorded_x86),    cmocka_unit_test(test_recorded_arm),
        cmocka_unit_test(test_features_decide), cmocka_unit_test(test_feature_levels),
        cmocka_unit_test(test_table_consistent), cmocka_unit_test(test_ancestors),
        cmocka_unit_test(test_compiler_choice), cmocka_unit_test(test_llvm_names),
        cmocka_unit_test(test_installed_compilers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
