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

size_t pb_uarch_needs(const pb_uarch *u, const char **out, size_t max)
{
    if (!u)
        return 0;
    const char *rows[65];
    rows[0] = u->name;
    size_t nrows = 1 + pb_uarch_ancestors(u, rows + 1, 64);
    size_t n = 0;
    for (size_t r = 0; r < nrows; r++) {
        const pb_uarch *a = pb_uarch_find(rows[r]);
        for (const char *const *f = a ? a->needs : NULL; f && *f; f++) {
            bool dup = false;
            for (size_t k = 0; k < n && !dup; k++)
                dup = strcmp(out[k], *f) == 0;
            if (!dup && n < max)
                out[n++] = *f;
        }
    }
    return n;
}

size_t pb_uarch_missing(const pb_uarch *u, const pb_cpu_id *id, const char **out, size_t max)
{
    const char *needs[PB_UARCH_MAX_NEEDS];
    size_t n = pb_uarch_needs(u, needs, PB_UARCH_MAX_NEEDS), k = 0;
    for (size_t i = 0; i < n; i++)
        if (!has_feature(id, needs[i])) {
            if (out && k < max)
                out[k] = needs[i];
            k++;
        }
    return out && k > max ? max : k;
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

/* The x86-64 psABI levels (x86-64-ABI, "Micro-architecture levels"), most
 * specific first: their rows' needs are the levels' features. */
static int by_features(const pb_cpu_id *id, pb_uarch_match *m)
{
    static const char *const levels[] = {"x86_64_v4", "x86_64_v3", "x86_64_v2"};
    if (strcmp(id->arch, "x86_64") != 0 || !id->nfeatures)
        return -1;
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
        if (pb_uarch_missing(pb_uarch_find(levels[i]), id, NULL, 0) == 0)
            return found(m, levels[i], NULL, "features");
    return -1;
}

/* The row the identity named, checked against the features when they are
 * known: one the CPU lacks a required feature of (a hypervisor that masks
 * AVX-512, an OS that does not enable its state) gives way to its nearest
 * ancestor whose needs the CPU meets.  archspec's ancestors end in the
 * architecture's generic row, which needs nothing, so one always does. */
static void checked(const pb_cpu_id *id, pb_uarch_match *m)
{
    if (!id->nfeatures)
        return; /* unknown (an hwloc XML file): the identity alone */
    size_t n = pb_uarch_missing(m->uarch, id, m->missing, PB_UARCH_MAX_NEEDS);
    if (n == 0)
        return;
    m->nmissing = n;
    m->named = m->uarch;
    m->named_how = m->how;
    const char *anc[64];
    size_t na = pb_uarch_ancestors(m->uarch, anc, 64);
    for (size_t i = 0; i < na; i++) {
        const pb_uarch *a = pb_uarch_find(anc[i]);
        if (a && pb_uarch_missing(a, id, NULL, 0) == 0) {
            m->uarch = a;
            m->llvm = a->llvm;
            m->how = "features";
            return;
        }
    }
}

int pb_uarch_identify(const pb_cpu_id *id, pb_uarch_match *m)
{
    memset(m, 0, sizeof(*m));
    if (!id || !id->arch)
        return -1;
    if ((strcmp(id->arch, "x86_64") == 0 && by_family_model(id, m) == 0) ||
        (strcmp(id->arch, "aarch64") == 0 && by_midr(id, m) == 0)) {
        checked(id, m);
        return 0;
    }
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

bool pb_cc_in_range(const pb_cc *e, const char *version)
{
    return pb_version_cmp(e->min, version) <= 0 && (!e->max || pb_version_cmp(version, e->max) <= 0);
}

/* One row's entries into the chain, newest (highest minimum) first. */
static size_t add_row(const pb_uarch *u, bool clang, const pb_cc **entries,
                      const pb_uarch **rows, size_t n, size_t max)
{
    const pb_cc *own = clang ? u->clang : u->gcc;
    size_t first = n;
    for (const pb_cc *e = own; e && e->flags && n < max; e++) {
        size_t at = n++;
        /* insertion by descending minimum; equal minimums keep the table's order */
        while (at > first && pb_version_cmp(entries[at - 1]->min, e->min) < 0) {
            entries[at] = entries[at - 1];
            at--;
        }
        entries[at] = e;
    }
    for (size_t i = first; i < n; i++)
        rows[i] = u;
    return n;
}

size_t pb_uarch_compiler_chain(const pb_uarch *u, bool clang, const pb_cc **entries,
                               const pb_uarch **rows, size_t max)
{
    if (!u)
        return 0;
    size_t n = add_row(u, clang, entries, rows, 0, max);
    const char *anc[64];
    size_t na = pb_uarch_ancestors(u, anc, 64);
    for (size_t i = 0; i < na; i++) {
        const pb_uarch *a = pb_uarch_find(anc[i]);
        if (a)
            n = add_row(a, clang, entries, rows, n, max);
    }
    return n;
}

void pb_uarch_compiler_from(const pb_uarch *u, bool clang, const pb_cc *best, pb_cc_choice *c)
{
    memset(c, 0, sizeof(*c));
    const pb_cc *chain[256];
    const pb_uarch *rows[256];
    size_t n = pb_uarch_compiler_chain(u, clang, chain, rows, 256);
    size_t at = 0;
    while (best && at < n && chain[at] != best)
        at++;
    if (best && at < n) {
        c->best = best;
        c->best_from = rows[at];
    } else {
        at = n; /* no best: the fallback is the chain's first entry */
    }
    /* the fallback: the next entry an older compiler takes */
    for (size_t i = at < n ? at + 1 : 0; i < n; i++)
        if (!c->best || pb_version_cmp(chain[i]->min, c->best->min) < 0) {
            c->fallback = chain[i];
            c->fallback_from = rows[i];
            return;
        }
}

void pb_uarch_compiler(const pb_uarch *u, bool clang, const char *version, pb_cc_choice *c)
{
    const pb_cc *best = NULL;
    if (version) {
        const pb_cc *chain[256];
        const pb_uarch *rows[256];
        size_t n = pb_uarch_compiler_chain(u, clang, chain, rows, 256);
        for (size_t i = 0; i < n && !best; i++)
            if (pb_cc_in_range(chain[i], version))
                best = chain[i];
    } else if (u) {
        best = newest_open(clang ? u->clang : u->gcc);
    }
    pb_uarch_compiler_from(u, clang, best, c);
}

size_t pb_uarch_llvm_chain(const pb_uarch *u, const char *llvm, const char **names,
                           const pb_uarch **rows, size_t max)
{
    if (!u)
        return 0;
    const char *anc[64];
    size_t na = pb_uarch_ancestors(u, anc, 64), n = 0;
    for (size_t i = 0; i < na + 2; i++) {
        const pb_uarch *r = i < 2 ? u : pb_uarch_find(anc[i - 2]);
        const char *name = i == 0 ? (llvm ? llvm : u->llvm) : r ? r->llvm : NULL;
        bool dup = !name;
        for (size_t k = 0; k < n && !dup; k++)
            dup = strcmp(names[k], name) == 0;
        if (!dup && n < max) {
            names[n] = name;
            rows[n++] = r;
        }
    }
    return n;
}

/* Whether `name` is the first word of a line of `list`. */
static bool listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, name, len) == 0 && (p[len] == ' ' || p[len] == '\t' || p[len] == '\n' ||
                                            p[len] == '\0'))
            return true;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return false;
}

const char *pb_uarch_llvm_known(const pb_uarch *u, const char *llvm, const char *known,
                                const pb_uarch **from)
{
    const char *names[80];
    const pb_uarch *rows[80];
    size_t n = pb_uarch_llvm_chain(u, llvm, names, rows, 80);
    for (size_t i = 0; i < n; i++)
        if (listed(known, names[i])) {
            if (from)
                *from = rows[i];
            return names[i];
        }
    return NULL;
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
