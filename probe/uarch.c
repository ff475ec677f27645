/* The microarchitecture recogniser over the table of uarch_table.c: pure
 * functions of what identifies a CPU (uarch.h). */
#include "uarch.h"

#include <stdlib.h>
#include <string.h>

const pb_uarch *pb_uarch_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < pb_uarch_count; i++)
        if (strcmp(pb_uarch_table[i].name, name) == 0)
            return &pb_uarch_table[i];
    return NULL;
}

static bool has_feature(const pb_cpu_id *id, const char *f)
{
    for (size_t i = 0; id->features && i < id->nfeatures; i++)
        if (id->features[i] && strcmp(id->features[i], f) == 0)
            return true;
    return false;
}

static bool has_all(const pb_cpu_id *id, const char *const *fs)
{
    for (; *fs; fs++)
        if (!has_feature(id, *fs))
            return false;
    return true;
}

static int found(pb_uarch_match *m, const char *name, const char *llvm, const char *how)
{
    const pb_uarch *u = pb_uarch_find(name);
    if (!u)
        return -1; /* a rule naming no row: caught by the table test */
    m->uarch = u;
    m->llvm = llvm ? llvm : u->llvm;
    m->how = how;
    return 0;
}

static int by_family_model(const pb_cpu_id *id, pb_uarch_match *m)
{
    if (!id->vendor || id->family < 0 || id->model < 0)
        return -1;
    for (size_t i = 0; i < pb_x86_rule_count; i++) {
        const pb_x86_rule *r = &pb_x86_rules[i];
        if (strcmp(r->vendor, id->vendor) != 0 || r->family != id->family ||
            id->model < r->model_lo || id->model > r->model_hi)
            continue;
        if (r->needs && id->nfeatures && !has_feature(id, r->needs))
            continue;
        if (r->needs && !id->nfeatures) {
            if (id->stepping < r->stepping_lo || id->stepping > r->stepping_hi)
                continue;
            return found(m, r->uarch, r->llvm, "cpuid family/model/stepping");
        }
        return found(m, r->uarch, r->llvm, "cpuid family/model");
    }
    return -1;
}

static int by_midr(const pb_cpu_id *id, pb_uarch_match *m)
{
    if (id->implementer < 0 || id->part < 0)
        return -1;
    for (size_t i = 0; i < pb_arm_rule_count; i++)
        if (pb_arm_rules[i].implementer == id->implementer && pb_arm_rules[i].part == id->part)
            return found(m, pb_arm_rules[i].uarch, pb_arm_rules[i].llvm, "MIDR implementer/part");
    return -1;
}

/* The x86-64 psABI levels (x86-64-ABI, "Micro-architecture levels") in
 * LLVM's feature names, as probe/isa.c reports them.  CMPXCHG16B, LAHF and
 * XSAVE are not in the probe's list, so v2 and v3 are judged without them. */
static const char *const v2[] = {"cx16", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3", NULL};
static const char *const v3[] = {"avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", NULL};
static const char *const v4[] = {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl", NULL};

static int by_features(const pb_cpu_id *id, pb_uarch_match *m)
{
    if (strcmp(id->arch, "x86_64") != 0 || !id->nfeatures)
        return -1;
    if (!has_all(id, v2))
        return -1;
    const char *name = !has_all(id, v3) ? "x86_64_v2" : !has_all(id, v4) ? "x86_64_v3" : "x86_64_v4";
    return found(m, name, NULL, "features");
}

int pb_uarch_identify(const pb_cpu_id *id, pb_uarch_match *m)
{
    memset(m, 0, sizeof(*m));
    if (!id || !id->arch)
        return -1;
    if (strcmp(id->arch, "x86_64") == 0 && by_family_model(id, m) == 0)
        return 0;
    if (strcmp(id->arch, "aarch64") == 0 && by_midr(id, m) == 0)
        return 0;
    if (by_features(id, m) == 0)
        return 0;
    /* the architecture's own generic row: x86_64, aarch64, riscv64 */
    const pb_uarch *u = pb_uarch_find(id->arch);
    if (!u || u->parents[0])
        return -1;
    return found(m, u->name, NULL, "arch");
}

size_t pb_uarch_ancestors(const pb_uarch *u, const char **out, size_t max)
{
    /* archspec's Microarchitecture.ancestors: parents first, then each
     * parent's ancestors not yet listed.  Depth is bounded by the table. */
    size_t n = 0;
    if (!u)
        return 0;
    for (int p = 0; p < 2 && u->parents[p]; p++) {
        bool dup = false;
        for (size_t k = 0; k < n; k++)
            dup |= strcmp(out[k], u->parents[p]) == 0;
        if (!dup && n < max)
            out[n++] = u->parents[p];
    }
    size_t nparents = n;
    for (size_t p = 0; p < nparents; p++) {
        const char *sub[64];
        size_t ns = pb_uarch_ancestors(pb_uarch_find(out[p]), sub, 64);
        for (size_t j = 0; j < ns; j++) {
            bool dup = false;
            for (size_t k = 0; k < n; k++)
                dup |= strcmp(out[k], sub[j]) == 0;
            if (!dup && n < max)
                out[n++] = sub[j];
        }
    }
    return n;
}

/* Skips one component: its digits, then one separator. */
static const char *next_part(const char *s, unsigned long *v)
{
    char *end;
    *v = strtoul(s, &end, 10);
    s = end;
    while (*s && *s != '.')
        s++; /* anything else in a component ("99a") ends it */
    return *s == '.' ? s + 1 : s;
}

int pb_version_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    while (*a || *b) {
        unsigned long x, y;
        a = next_part(a, &x);
        b = next_part(b, &y);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static const pb_cc *newest_open(const pb_cc *e)
{
    const pb_cc *best = NULL;
    for (; e && e->flags; e++)
        if (!e->max && (!best || pb_version_cmp(e->min, best->min) > 0))
            best = e;
    return best;
}

void pb_uarch_compiler(const pb_uarch *u, bool clang, pb_cc_choice *c)
{
    memset(c, 0, sizeof(*c));
    if (!u)
        return;
    const pb_cc *own = clang ? u->clang : u->gcc;
    c->best = newest_open(own);
    /* u's next older entry: the highest minimum below the best one */
    for (const pb_cc *e = own; e && e->flags; e++)
        if (e != c->best && (!c->fallback || pb_version_cmp(e->min, c->fallback->min) > 0))
            c->fallback = e;
    if (c->fallback) {
        c->fallback_from = u;
        return;
    }
    /* else the nearest ancestor whose newest entry an older compiler knows */
    const char *anc[64];
    size_t n = pb_uarch_ancestors(u, anc, 64);
    for (size_t i = 0; i < n; i++) {
        const pb_uarch *a = pb_uarch_find(anc[i]);
        const pb_cc *e = a ? newest_open(clang ? a->clang : a->gcc) : NULL;
        if (e && (!c->best || pb_version_cmp(e->min, c->best->min) < 0)) {
            c->fallback = e;
            c->fallback_from = a;
            return;
        }
    }
}

const char *pb_uarch_triple(const char *arch)
{
    /* LLVM's canonical form <arch>-<vendor>-<os>-<environment> with the
     * "unknown" vendor, as `clang -dumpmachine` prints on upstream builds
     * (Debian's own build says "pc" on x86_64; the data layout is the same). */
    static const char *const triples[][2] = {
        {"x86_64", "x86_64-unknown-linux-gnu"},
        {"aarch64", "aarch64-unknown-linux-gnu"},
        {"riscv64", "riscv64-unknown-linux-gnu"},
    };
    for (size_t i = 0; arch && i < sizeof(triples) / sizeof(triples[0]); i++)
        if (strcmp(arch, triples[i][0]) == 0)
            return triples[i][1];
    return NULL;
}
