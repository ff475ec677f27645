/* The microarchitecture table and recogniser (probe/uarch/uarch.h), without the
 * hardware: CPUs recorded on real machines against the names LLVM's
 * Host.cpp gives them, the table's consistency, archspec's ancestors and
 * compiler choices, every LLVM name against llc-22 when it is there, the
 * features each row requires (against its flags and LLVM 22's model of
 * its CPU), and recorded VMs that mask features, from their CPUID bits and
 * XCR0 to the flags chosen for them. */
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

#include "uarch/isa_bits.h"
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

/* A CPU of row `name` as the probe reports it: every feature the row
 * needs (pb_uarch_needs), plus `extra` (space-separated) and less `less`. */
typedef struct {
    const char *names[PB_UARCH_MAX_NEEDS + 16];
    size_t n;
    char buf[512];
} feature_set;

static void cpu_of(feature_set *fs, const char *name, const char *extra, const char *less)
{
    const char *needs[PB_UARCH_MAX_NEEDS];
    size_t n = pb_uarch_needs(pb_uarch_find(name), needs, PB_UARCH_MAX_NEEDS);
    fs->n = 0;
    for (size_t i = 0; i < n; i++) {
        char word[64];
        snprintf(word, sizeof(word), " %s ", needs[i]);
        char in[256];
        snprintf(in, sizeof(in), " %s ", less ? less : "");
        if (!strstr(in, word))
            fs->names[fs->n++] = needs[i];
    }
    snprintf(fs->buf, sizeof(fs->buf), "%s", extra ? extra : "");
    char *save = NULL;
    for (char *w = strtok_r(fs->buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        fs->names[fs->n++] = w;
}

/* Host.cpp's model 0x55 tests: features decide when they are known. */
static void test_features_decide(void **state)
{
    (void)state;
    feature_set clx, cpx, skx;
    cpu_of(&clx, "cascadelake", NULL, NULL);
    cpu_of(&cpx, "cascadelake", "avx512bf16", NULL);
    cpu_of(&skx, "skylake_avx512", NULL, NULL);
    pb_cpu_id id = {.arch = "x86_64", .vendor = "GenuineIntel", .family = 6, .model = 0x55,
                    .stepping = 4, .implementer = -1, .part = -1};
    pb_uarch_match m;
    id.features = clx.names, id.nfeatures = clx.n;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "cascadelake");
    assert_null(m.named);
    id.features = cpx.names, id.nfeatures = cpx.n;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.llvm, "cooperlake");
    id.features = skx.names, id.nfeatures = skx.n, id.stepping = 7; /* features win over stepping */
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "skylake_avx512");
}

/* Unknown models fall back to the x86-64 psABI levels the features reach. */
static void test_feature_levels(void **state)
{
    (void)state;
    feature_set v3, v2;
    cpu_of(&v3, "x86_64_v3", NULL, NULL);
    cpu_of(&v2, "x86_64_v2", NULL, NULL);
    pb_cpu_id id = {.arch = "x86_64", .vendor = "GenuineIntel", .family = 6, .model = 0x06,
                    .stepping = 3, .implementer = -1, .part = -1, .features = v3.names,
                    .nfeatures = v3.n};
    pb_uarch_match m;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "x86_64_v3");
    assert_string_equal(m.llvm, "x86-64-v3");
    id.features = v2.names, id.nfeatures = v2.n;
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "x86_64_v2");
    id.nfeatures = v2.n - 1; /* one short of v2: the generic row */
    assert_int_equal(pb_uarch_identify(&id, &m), 0);
    assert_string_equal(m.uarch->name, "x86_64");
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

/* ---- flags a CPU executes ---- */

static bool in_list(const char *const *list, size_t n, const char *f)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], f) == 0)
            return true;
    return false;
}

/* The row an -march/-mcpu value names: an Arm architecture version
 * ("armv8.2-a" -> armv8.2a, "armv9-a" -> armv9.0a, "armv8-a" -> aarch64),
 * else the row (or x86 rule) whose LLVM name it is; NULL: none ("corei7",
 * GCC's older names). */
static const pb_uarch *row_of_value(const char *v)
{
    char name[32];
    int major = 0, minor = 0;
    char tail[8] = "";
    if (sscanf(v, "armv%d.%d-%7s", &major, &minor, tail) == 3 ||
        (minor = 0, sscanf(v, "armv%d-%7s", &major, tail) == 2)) {
        if (major == 8 && minor == 0)
            return pb_uarch_find("aarch64");
        snprintf(name, sizeof(name), "armv%d.%da", major, minor);
        return pb_uarch_find(name);
    }
    for (size_t i = 0; i < pb_uarch_count; i++)
        if (strcmp(pb_uarch_table[i].llvm, v) == 0 && strcmp(v, "generic") != 0)
            return &pb_uarch_table[i];
    for (size_t i = 0; i < pb_x86_rule_count; i++)
        if (pb_x86_rules[i].llvm && strcmp(pb_x86_rules[i].llvm, v) == 0)
            return pb_uarch_find(pb_x86_rules[i].uarch);
    return NULL;
}

/* GCC's and Clang's names of the +modifiers of -march/-mcpu where they
 * are not LLVM's feature names. */
static const char *const modifier_names[][2] = {
    {"fp16", "fullfp16"}, {"rdma", "rdm"}, {"crypto", "aes sha2"}, {"fp", "fp-armv8"},
    {"simd", "neon"},
};

/* The features the probe can see that `flags` let a compiler use on
 * `arch`: each -m<feature>, each +modifier of -march/-mcpu, and the needs
 * of the row an -march/-mcpu value names.  A -m<feature> the probe cannot
 * see is put in *unseen (the table must not suggest it); an Arm modifier it
 * cannot see (+rng, +sme2) is only noted. */
static size_t flag_features(const char *arch, const char *flags, const char **out, size_t max,
                            char *unseen, size_t usize)
{
    static char words[64][64]; /* the modifiers' names outlive the call */
    size_t nwords = 0, n = 0;
    char copy[1024];
    snprintf(copy, sizeof(copy), "%s", flags);
    unseen[0] = '\0';
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (strncmp(t, "-m", 2) != 0)
            continue; /* -fno-tree-vectorize */
        const char *v = strncmp(t, "-march=", 7) == 0 ? t + 7 : strncmp(t, "-mcpu=", 6) == 0 ? t + 6 : NULL;
        if (!v && strchr(t, '='))
            continue; /* -mtune=, -msve-vector-bits= */
        if (!v) {
            if (!pb_isa_feature_known(arch, t + 2))
                snprintf(unseen + strlen(unseen), usize - strlen(unseen), " %s", t);
            else if (n < max && !in_list(out, n, t + 2)) {
                snprintf(words[nwords % 64], 64, "%s", t + 2);
                out[n++] = words[nwords++ % 64];
            }
            continue;
        }
        char value[128];
        snprintf(value, sizeof(value), "%s", v);
        char *plus = strchr(value, '+');
        if (plus)
            *plus++ = '\0';
        const char *needs[PB_UARCH_MAX_NEEDS];
        size_t nn = pb_uarch_needs(row_of_value(value), needs, PB_UARCH_MAX_NEEDS);
        for (size_t i = 0; i < nn; i++)
            if (n < max && !in_list(out, n, needs[i]))
                out[n++] = needs[i];
        for (char *m = plus ? strtok(plus, "+") : NULL; m; m = strtok(NULL, "+")) {
            const char *as = m;
            for (size_t i = 0; i < sizeof(modifier_names) / sizeof(modifier_names[0]); i++)
                if (strcmp(m, modifier_names[i][0]) == 0)
                    as = modifier_names[i][1];
            char names[64];
            snprintf(names, sizeof(names), "%s", as);
            char *s2 = NULL;
            for (char *f = strtok_r(names, " ", &s2); f; f = strtok_r(NULL, " ", &s2)) {
                if (!pb_isa_feature_known(arch, f) || in_list(out, n, f) || n >= max)
                    continue;
                snprintf(words[nwords % 64], 64, "%s", f);
                out[n++] = words[nwords++ % 64];
            }
        }
    }
    return n;
}

/* Each row requires only features the probe reports (else no CPU would
 * ever be that row); the RISC-V rows none (the probe reads no RISC-V ISA). */
static void test_needs_seen(void **state)
{
    (void)state;
    for (size_t i = 0; i < pb_uarch_count; i++) {
        const pb_uarch *u = &pb_uarch_table[i];
        for (const char *const *f = u->needs; f && *f; f++)
            if (!pb_isa_feature_known(u->arch, *f))
                fail_msg("%s needs %s, which the probe cannot see on %s", u->name, *f, u->arch);
    }
}

/* Every flag of every compiler entry, the fallbacks included, names only
 * features the row requires: a CPU the recogniser gives that row has them
 * (the flags of the ancestors' entries, the rest of the chain, are their
 * rows' and so within the row's needs too).  GCC 12's zen4 fallback adds
 * -mavx512f and nine more: zen4 requires them all. */
static void test_flags_within_needs(void **state)
{
    (void)state;
    /* archspec's m4 GCC entry: -march=armv9.2-a implies SVE, which the M4
     * lacks outside streaming mode; archspec turns the vectorizers off
     * (-fno-tree-vectorize) rather than name another architecture. */
    static const char *const known_gaps[][2] = {{"m4", "sve sve2"}};
    int checked = 0, failures = 0;
    for (size_t i = 0; i < pb_uarch_count; i++) {
        const pb_uarch *u = &pb_uarch_table[i];
        if (strcmp(u->arch, "riscv64") == 0)
            continue;
        const char *needs[PB_UARCH_MAX_NEEDS];
        size_t nn = pb_uarch_needs(u, needs, PB_UARCH_MAX_NEEDS);
        for (int clang = 0; clang < 2; clang++)
            for (const pb_cc *e = clang ? u->clang : u->gcc; e && e->flags; e++) {
                const char *implied[PB_UARCH_MAX_NEEDS];
                char unseen[256];
                size_t ni = flag_features(u->arch, e->flags, implied, PB_UARCH_MAX_NEEDS, unseen,
                                          sizeof(unseen));
                if (unseen[0])
                    fail_msg("%s's %s entry \"%s\": the probe cannot see%s", u->name,
                             clang ? "clang" : "gcc", e->flags, unseen);
                for (size_t k = 0; k < ni; k++) {
                    checked++;
                    if (in_list(needs, nn, implied[k]))
                        continue;
                    bool gap = false;
                    for (size_t g = 0; g < sizeof(known_gaps) / sizeof(known_gaps[0]); g++) {
                        char word[64];
                        snprintf(word, sizeof(word), " %s ", implied[k]);
                        char list[128];
                        snprintf(list, sizeof(list), " %s ", known_gaps[g][1]);
                        gap |= strcmp(u->name, known_gaps[g][0]) == 0 && strstr(list, word);
                    }
                    if (gap)
                        print_message("note: %s's \"%s\" implies %s, which %s does not require "
                                      "(see known_gaps)\n", u->name, e->flags, implied[k], u->name);
                    else {
                        print_message("%s's %s entry \"%s\" (%s:%s) lets the compiler use %s, "
                                      "which %s does not require\n", u->name,
                                      clang ? "clang" : "gcc", e->flags, e->min ? e->min : "",
                                      e->max ? e->max : "", implied[k], u->name);
                        failures++;
                    }
                }
            }
    }
    if (failures)
        fail_msg("%d flag features of the table are not required by their rows", failures);
    print_message("%d flag features checked against their rows' needs\n", checked);
}

/* Each row's needs against LLVM 22's own model of its CPU (mlir-opt-22
 * --llvm-target-to-target-features: a chip's features): a row must not
 * require what LLVM says its CPU lacks, or real CPUs would be given an
 * ancestor.  The rows archspec has: their own needs (archspec's, read off
 * real CPUs) but for the differences below; the rows it lacks (the table's
 * second part, from cooperlake on, whose needs come from LLVM): all their
 * needs, but for the crypto features an Arm core may lack (LLVM leaves
 * them out of its models; archspec's cortex_a72, whose line they are of,
 * requires aes and sha2).  One mlir-opt-22 run, one nested module a chip. */
static const char *const llvm_differs[][2] = {
    {"westmere", "aes"},      /* LLVM's (and GCC 12's) Westmere to Broadwell leave AES out */
    {"k10", "mmx"},           /* LLVM 22's amdfam10 lost MMX with 3DNow! */
    {"neoverse_v2", "sha3"},  /* LLVM's Armv9 cores leave the optional crypto out */
    {"neoverse_n2", "sha3"},
    {"neoverse_v3ae", "sm4"},
    {"ampere1", "fp16fml"},   /* archspec's ampere1 /proc/cpuinfo has asimdfhm */
};

static bool differs(const pb_uarch *u, const char *f, bool own)
{
    if (!own)
        return strcmp(u->arch, "aarch64") == 0 &&
               (strcmp(f, "aes") == 0 || strcmp(f, "sha2") == 0 || strcmp(f, "sha3") == 0 ||
                strcmp(f, "sm4") == 0);
    for (size_t i = 0; i < sizeof(llvm_differs) / sizeof(llvm_differs[0]); i++)
        if (strcmp(u->name, llvm_differs[i][0]) == 0 && strcmp(f, llvm_differs[i][1]) == 0)
            return true;
    return false;
}

static void test_needs_in_llvm(void **state)
{
    (void)state;
    char path[] = "/tmp/sysdesc-test-uarch-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    const pb_uarch *rows[256];
    const char *chips[256];
    size_t n = 0;
    for (size_t i = 0; i < pb_uarch_count + pb_x86_rule_count && n < 256; i++) {
        const pb_uarch *u = i < pb_uarch_count ? &pb_uarch_table[i]
                                               : pb_uarch_find(pb_x86_rules[i - pb_uarch_count].uarch);
        const char *chip = i < pb_uarch_count ? u->llvm : pb_x86_rules[i - pb_uarch_count].llvm;
        if (!u || !chip || strcmp(chip, "generic") == 0 || strcmp(u->arch, "riscv64") == 0)
            continue;
        rows[n] = u;
        chips[n] = chip;
        fprintf(f, "module @r%zu attributes {llvm.target = #llvm.target<triple = \"%s\", chip = "
                "\"%s\">} {}\n", n, pb_uarch_triple(u->arch), chip);
        n++;
    }
    fclose(f);
    const pb_uarch *first_own = pb_uarch_find("cooperlake"); /* uarch_table.c: not in archspec */
    assert_non_null(first_own);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "mlir-opt-22 --pass-pipeline='builtin.module(builtin.module("
             "llvm-target-to-target-features))' %s 2>/dev/null", path);
    FILE *p = popen(cmd, "r");
    static char line[65536];
    size_t seen = 0;
    int failures = 0, differ = 0;
    while (p && fgets(line, sizeof(line), p)) {
        size_t r;
        char *at = strstr(line, "module @r");
        char *feats = strstr(line, "features = <[");
        if (!at || !feats || sscanf(at, "module @r%zu", &r) != 1 || r >= n)
            continue;
        seen++;
        const pb_uarch *u = rows[r];
        bool own = u < first_own;
        const char *needs[PB_UARCH_MAX_NEEDS];
        size_t nn = 0;
        if (own)
            for (const char *const *x = u->needs; x && *x; x++)
                needs[nn++] = *x;
        else
            nn = pb_uarch_needs(u, needs, PB_UARCH_MAX_NEEDS);
        for (size_t k = 0; k < nn; k++) {
            char want[80];
            snprintf(want, sizeof(want), "\"+%s\"", needs[k]);
            if (strstr(feats, want))
                continue;
            if (differs(u, needs[k], own)) {
                differ++;
                continue;
            }
            print_message("%s needs %s; LLVM 22's %s lacks it\n", u->name, needs[k], chips[r]);
            failures++;
        }
    }
    if (p)
        pclose(p);
    unlink(path);
    if (seen == 0)
        skip(); /* no mlir-opt-22 */
    assert_int_equal(seen, n);
    if (failures)
        fail_msg("%d required features are not in LLVM 22's model of their CPU", failures);
    print_message("%zu LLVM CPUs hold their rows' needs (%d known differences)\n", seen, differ);
}

/* ---- recorded CPUs that mask features: the whole pipeline ----
 * What CPUID reports (the bits, in LLVM's names: pb_x86_set_feature sets
 * each) and XCR0 go through the probe's own decoder (isa_bits.c: the XCR0
 * rules), the recogniser and the compiler choice for Debian bookworm's GCC
 * 12.2.0 and Clang 14.0.6, and the LLVM name through the CPU lists of the
 * llc-14 and llc-22 installed here.  Each case names where the CPU was
 * reported; the lists are written from the /proc/cpuinfo flags shown there
 * (Linux's names translated: pni sse3, lahf_lm sahf, abm lzcnt, pclmulqdq
 * pclmul, rdrand rdrnd, bmi1 bmi, sha_ni sha, avx512_vnni avx512vnni, ...),
 * or for the masked VMs from the unmasked CPU's, less what the hypervisor
 * hides. */
#define GENERAL "mmx sse sse2 sse3 ssse3 sse4.1 sse4.2 popcnt movbe cx16 sahf pclmul aes rdrnd " \
                "rdseed adx bmi bmi2 lzcnt fsgsbase clflushopt xsave xsaveopt xsavec avx avx2 fma " \
                "f16c"
/* AMD EPYC 9654 (Genoa, family 25 model 0x11), hwloc's AMD-19h-Zen4 */
#define ZEN4 GENERAL " sse4a sha clwb clzero rdpid vaes vpclmulqdq gfni"
#define ZEN4_AVX512 " avx512f avx512dq avx512cd avx512bw avx512vl avx512ifma avx512vbmi avx512vbmi2 " \
                    "avx512vnni avx512bitalg avx512vpopcntdq avx512bf16"
/* Intel Xeon Max 9460 (Sapphire Rapids, family 6 model 0x8f), hwloc's */
#define SPR GENERAL " sha clwb rdpid vaes vpclmulqdq gfni movdiri movdir64b serialize waitpkg " \
                    "cldemote avxvnni"
#define SPR_AVX512 ZEN4_AVX512 " avx512fp16"
#define SPR_AMX " amx-tile amx-int8 amx-bf16"
/* Intel Xeon Skylake-SP / Cascade Lake (family 6 model 0x55) */
#define SKX GENERAL " clwb avx512f avx512dq avx512cd avx512bw avx512vl"

#define XCR0_AVX 0x7ull      /* x87, SSE, AVX (YMM) */
#define XCR0_AVX512 0xe7ull  /* and opmask, ZMM_Hi256, Hi16_ZMM */
#define XCR0_AMX 0x600e7ull  /* and XTILECFG, XTILEDATA */

typedef struct {
    const char *what;
    const char *vendor;
    int family, model, stepping;
    const char *cpuid; /* the feature bits CPUID sets */
    bool osxsave;
    unsigned long long xcr0;
    const char *uarch, *gcc, *clang; /* for GCC 12.2.0 and Clang 14.0.6 */
    const char *llvm14, *llvm22;
} masked_cpu;

#define ZNVER3 "-march=znver3 -mtune=znver3"
static const masked_cpu masked[] = {
    /* the unmasked Genoa: GCC 12.2's zen4 entry is znver3 with ten -mavx512 flags */
    {"Zen 4, EPYC 9654, nothing masked", "AuthenticAMD", 25, 0x11, 1, ZEN4 ZEN4_AVX512, true,
     XCR0_AVX512, "zen4",
     ZNVER3 " -mavx512f -mavx512dq -mavx512ifma -mavx512cd -mavx512bw -mavx512vl -mavx512vbmi "
     "-mavx512vbmi2 -mavx512vnni -mavx512bitalg",
     ZNVER3 " -mavx512f -mavx512dq -mavx512ifma -mavx512cd -mavx512bw -mavx512vl -mavx512vbmi "
     "-mavx512vbmi2 -mavx512vnni -mavx512bitalg", "znver3", "znver4"},
    /* (a) a zen4 VM whose hypervisor hides AVX-512 (a CPU model without it,
     * with the host's family/model: QEMU before 9.1 has no EPYC-Genoa model,
     * github.com/vexxhost/atmosphere/issues/1933); the guest's XCR0 has no
     * AVX-512 state either */
    {"(a) Zen 4 VM, AVX-512 masked", "AuthenticAMD", 25, 0x11, 1, ZEN4, true, XCR0_AVX, "zen3",
     ZNVER3, ZNVER3, "znver3", "znver3"},
    /* (a') the AVX-512 bits shown, the OS not enabling their state */
    {"(a') Zen 4, AVX-512 not in XCR0", "AuthenticAMD", 25, 0x11, 1, ZEN4 ZEN4_AVX512, true,
     XCR0_AVX, "zen3", ZNVER3, ZNVER3, "znver3", "znver3"},
    /* (b) a Sapphire Rapids VM with AVX-512 masked and AMX off in XCR0 */
    {"(b) Sapphire Rapids VM, AVX-512 masked, AMX not in XCR0", "GenuineIntel", 6, 0x8f, 8,
     SPR SPR_AMX, true, XCR0_AVX, "skylake", "-march=skylake -mtune=skylake",
     "-march=skylake -mtune=skylake", "skylake", "skylake"},
    /* (b') AVX-512 there, AMX's state not enabled: Linux before 5.16 sets no
     * XCR0 bits 17-18 */
    {"(b') Sapphire Rapids, AMX not in XCR0 (Linux < 5.16)", "GenuineIntel", 6, 0x8f, 8,
     SPR SPR_AVX512 SPR_AMX, true, XCR0_AVX512, "icelake",
     "-march=icelake-client -mtune=icelake-client", "-march=icelake-client -mtune=icelake-client",
     "icelake-client", "icelake-client"},
    {"Sapphire Rapids, nothing masked", "GenuineIntel", 6, 0x8f, 8, SPR SPR_AVX512 SPR_AMX, true,
     XCR0_AMX, "sapphirerapids", "-march=sapphirerapids -mtune=sapphirerapids",
     "-march=sapphirerapids -mtune=sapphirerapids", "sapphirerapids", "sapphirerapids"},
    /* (c) AVX to AVX-512 in CPUID, OSXSAVE clear (no XCR0: no YMM state):
     * a Xeon Gold 6266C (Cascade Lake) VM whose AVX "is not supported in
     * practice", github.com/gentoo/cpuid2cpuflags/issues/28; AVX-512 code
     * died with SIGILL on such a host, github.com/samtools/htscodecs/pull/140 */
    {"(c) Cascade Lake VM, OSXSAVE clear", "GenuineIntel", 6, 0x55, 7, SKX " avx512vnni", false,
     0, "westmere", "-march=westmere -mtune=westmere", "-march=westmere -mtune=westmere",
     "westmere", "westmere"},
    /* (c') OSXSAVE set, XCR0 without YMM */
    {"(c') Cascade Lake, XCR0 x87|SSE only", "GenuineIntel", 6, 0x55, 7, SKX " avx512vnni", true,
     0x3, "westmere", "-march=westmere -mtune=westmere", "-march=westmere -mtune=westmere",
     "westmere", "westmere"},
    /* (d) Azure HB120rs v3, AMD EPYC 7V13 (Milan, family 25 model 1): no
     * pku (nor rdpid) in the guest, github.com/archspec/archspec-json/issues/38,
     * where archspec says zen2.  No instruction a compiler emits is missing:
     * zen3 (pku is not required: uarch_table.c) */
    {"(d) Azure Milan VM, pku hidden (archspec-json#38)", "AuthenticAMD", 25, 1, 1,
     GENERAL " sse4a sha clwb clzero vaes vpclmulqdq", true, XCR0_AVX, "zen3", ZNVER3, ZNVER3,
     "znver3", "znver3"},
    /* (e) a Xeon Gold 6140 (Skylake-SP) with AES off in the firmware,
     * github.com/archspec/archspec/issues/72: skylake-avx512 needs AES */
    {"(e) Skylake-SP, AES off (archspec#72)", "GenuineIntel", 6, 0x55, 4,
     "mmx sse sse2 sse3 ssse3 sse4.1 sse4.2 popcnt movbe cx16 sahf pclmul rdrnd rdseed adx bmi "
     "bmi2 lzcnt fsgsbase clflushopt xsave xsaveopt xsavec avx avx2 fma f16c clwb avx512f "
     "avx512dq avx512cd avx512bw avx512vl", true, XCR0_AVX512, "x86_64_v4",
     "-march=x86-64-v4 -mtune=generic", "-march=x86-64-v4 -mtune=generic", "x86-64-v4",
     "x86-64-v4"},
    /* (f) an AMD FX-6300 (Piledriver, family 21 model 2) guest that shows
     * nothing past SSSE3 (flags: mmx sse sse2 pni ssse3 lahf_lm),
     * github.com/pocl/pocl/issues/268: not even x86-64-v2 (no cx16) */
    {"(f) Piledriver VM, SSSE3 at most (pocl#268)", "AuthenticAMD", 21, 2, 0,
     "mmx sse sse2 sse3 ssse3 sahf", true, 0x3, "x86_64", "-march=x86-64 -mtune=generic",
     "-march=x86-64 -mtune=generic", "x86-64", "x86-64"},
};

/* `llc -mcpu=help`'s CPU list of the llc named, or "" without it. */
static const char *llc_cpus(const char *llc, char *buf, size_t size)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "%s -mtriple=x86_64-unknown-linux-gnu -mcpu=help 2>&1 | "
             "sed -n '/Available CPUs/,/Available features/p'", llc);
    FILE *f = popen(cmd, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        pclose(f);
    return buf;
}

static void test_masked_cpus(void **state)
{
    (void)state;
    static char cpus14[65536], cpus22[65536];
    llc_cpus("llc-14", cpus14, sizeof(cpus14));
    llc_cpus("llc-22", cpus22, sizeof(cpus22));
    print_message("| recorded CPU | uarch chosen | GCC 12.2 flags | Clang 14 flags | LLVM 14 / 22 cpu |\n"
                  "|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(masked) / sizeof(masked[0]); i++) {
        const masked_cpu *c = &masked[i];
        pb_x86_cpuid r;
        memset(&r, 0, sizeof(r));
        char bits[1024];
        snprintf(bits, sizeof(bits), "%s", c->cpuid);
        char *save = NULL;
        for (char *w = strtok_r(bits, " ", &save); w; w = strtok_r(NULL, " ", &save))
            if (!pb_x86_set_feature(&r, w))
                fail_msg("%s: %s is no CPUID bit", c->what, w);
        if (c->osxsave)
            r.l1[2] |= 1u << 27; /* CPUID.1:ECX.OSXSAVE */
        r.xcr0 = c->xcr0;
        pb_isa_features f;
        pb_x86_decode(&r, &f);
        pb_cpu_id id = {.arch = "x86_64", .vendor = c->vendor, .family = c->family,
                        .model = c->model, .stepping = c->stepping, .implementer = -1,
                        .part = -1, .features = f.names, .nfeatures = f.n};
        pb_uarch_match m;
        assert_int_equal(pb_uarch_identify(&id, &m), 0);
        if (strcmp(m.uarch->name, c->uarch) != 0)
            fail_msg("%s: uarch %s, want %s", c->what, m.uarch->name, c->uarch);
        /* a row given way to says which and why */
        if (m.named && (!m.nmissing || strcmp(m.how, "features") != 0))
            fail_msg("%s: %s given way to without the features it lacks", c->what, m.named->name);
        pb_cc_choice gcc, clang;
        pb_uarch_compiler(m.uarch, false, "12.2.0", &gcc);
        pb_uarch_compiler(m.uarch, true, "14.0.6", &clang);
        assert_non_null(gcc.best);
        assert_non_null(clang.best);
        if (strcmp(gcc.best->flags, c->gcc) != 0 || strcmp(clang.best->flags, c->clang) != 0)
            fail_msg("%s: gcc \"%s\", clang \"%s\"; want \"%s\", \"%s\"", c->what,
                     gcc.best->flags, clang.best->flags, c->gcc, c->clang);
        /* no flag, the fallbacks' included, names a feature this CPU lacks */
        const pb_cc *entries[] = {gcc.best, gcc.fallback, clang.best, clang.fallback};
        for (size_t e = 0; e < 4; e++) {
            const char *implied[PB_UARCH_MAX_NEEDS];
            char unseen[256];
            size_t ni = entries[e] ? flag_features("x86_64", entries[e]->flags, implied,
                                                   PB_UARCH_MAX_NEEDS, unseen, sizeof(unseen))
                                   : 0;
            for (size_t k = 0; k < ni; k++)
                if (!in_list(f.names, f.n, implied[k]))
                    fail_msg("%s: \"%s\" uses %s, which this CPU lacks", c->what,
                             entries[e]->flags, implied[k]);
        }
        const char *l14 = pb_uarch_llvm_known(m.uarch, m.llvm, cpus14, NULL);
        const char *l22 = pb_uarch_llvm_known(m.uarch, m.llvm, cpus22, NULL);
        if (cpus14[0] && (!l14 || strcmp(l14, c->llvm14) != 0))
            fail_msg("%s: llc-14 gives %s, want %s", c->what, l14 ? l14 : "none", c->llvm14);
        if (cpus22[0] && (!l22 || strcmp(l22, c->llvm22) != 0))
            fail_msg("%s: llc-22 gives %s, want %s", c->what, l22 ? l22 : "none", c->llvm22);
        char lacks[512] = "";
        for (size_t k = 0; k < m.nmissing && strlen(lacks) < 400; k++)
            snprintf(lacks + strlen(lacks), sizeof(lacks) - strlen(lacks), "%s%s", k ? " " : "",
                     m.missing[k]);
        print_message("| %s | %s%s%s%s%s%s | `%s` | `%s` | %s / %s |\n", c->what,
                      m.uarch->name, m.named ? " (not " : "", m.named ? m.named->name : "",
                      m.named ? ": lacks " : "", m.named ? lacks : "", m.named ? ")" : "",
                      gcc.best->flags, clang.best->flags,
                      cpus14[0] ? l14 : "(no llc-14)", cpus22[0] ? l22 : "(no llc-22)");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorded_x86),    cmocka_unit_test(test_recorded_arm),
        cmocka_unit_test(test_features_decide), cmocka_unit_test(test_feature_levels),
        cmocka_unit_test(test_table_consistent), cmocka_unit_test(test_ancestors),
        cmocka_unit_test(test_compiler_choice), cmocka_unit_test(test_llvm_names),
        cmocka_unit_test(test_installed_compilers), cmocka_unit_test(test_needs_seen),
        cmocka_unit_test(test_flags_within_needs), cmocka_unit_test(test_needs_in_llvm),
        cmocka_unit_test(test_masked_cpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
