/* The CPU's microarchitecture, LLVM triple and compiler targets (issue 12):
 * the identity hwloc recorded and the ISA go through the recogniser
 * (uarch.c); what it finds becomes the keys uarch, uarch_ancestors, triple
 * and the compiler map (docs/keys.md). */
#define _GNU_SOURCE
#include "probe_private.h"
#include "uarch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal or 0x-hex info value; -1 when absent or not a number. */
static int64_t info_num(const pb_run *run, const char *name)
{
    const char *s = pb_cpu_info(run, name);
    if (!s)
        return -1;
    char *end;
    long long v = strtoll(s, &end, 0);
    return end == s || v < 0 ? -1 : (int64_t)v;
}

/* The value of "-NAME=value" in flags, copied into buf; NULL when absent. */
static const char *flag_value(const char *flags, const char *name, char *buf, size_t size)
{
    size_t n = strlen(name);
    for (const char *p = flags; p && *p;) {
        while (*p == ' ')
            p++;
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > n + 1 && p[0] == '-' && memcmp(p + 1, name, n) == 0 && p[n + 1] == '=') {
            size_t v = len - n - 2;
            if (v >= size)
                return NULL;
            memcpy(buf, p + n + 2, v);
            buf[v] = '\0';
            return buf;
        }
        p += len;
    }
    return NULL;
}

/* One compiler entry as a map: the -march/-mtune/-mcpu values, the whole
 * flags, the versions. */
static void add_entry(dlti_context *ctx, pb_map *m, const pb_cc *e, const char *uarch)
{
    char buf[128];
    static const char *const opts[] = {"march", "mtune", "mcpu"};
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        pb_str(ctx, m, opts[i], flag_value(e->flags, opts[i], buf, sizeof(buf)));
    pb_str(ctx, m, "flags", e->flags);
    pb_str(ctx, m, "min_version", e->min);
    pb_str(ctx, m, "max_version", e->max);
    pb_str(ctx, m, "uarch", uarch);
}

static void add_compiler(dlti_context *ctx, pb_map *compiler, const pb_uarch *u, bool clang,
                         dlti_error_t *err)
{
    pb_cc_choice c;
    pb_uarch_compiler(u, clang, &c);
    pb_map m;
    pb_init(&m);
    if (c.best)
        add_entry(ctx, &m, c.best, NULL);
    if (c.fallback) {
        pb_map fb;
        pb_init(&fb);
        /* the row only when it is another one: the fallback is then an
         * ancestor's target */
        add_entry(ctx, &fb, c.fallback, c.fallback_from != u ? c.fallback_from->name : NULL);
        pb_add_map(ctx, &m, "fallback", &fb, err);
    }
    pb_add_map(ctx, compiler, clang ? "clang" : "gcc", &m, err);
}

void pb_cpu_uarch(pb_run *run, pb_map *dev, const pb_isa *isa, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    const char *arch = pb_info(hwloc_get_root_obj(run->topo), "Architecture");
    pb_cpu_id id = {
        .arch = arch,
        .vendor = pb_cpu_info(run, "CPUVendor"),
        .family = info_num(run, "CPUFamilyNumber"),
        .model = info_num(run, "CPUModelNumber"),
        .stepping = info_num(run, "CPUStepping"),
        .implementer = info_num(run, "CPUImplementer"),
        .part = info_num(run, "CPUPart"),
        .features = isa->source ? isa->features : NULL,
        .nfeatures = isa->source ? isa->nfeatures : 0,
    };
    const char *triple = pb_uarch_triple(arch);
    pb_uarch_match m;
    if (pb_uarch_identify(&id, &m) == 0) {
        pb_str(ctx, dev, "uarch", m.uarch->name);
        const char *anc[64];
        size_t n = pb_uarch_ancestors(m.uarch, anc, 64);
        if (n)
            pb_add(ctx, dev, "uarch_ancestors", pb_str_array(ctx, anc, n));
        char how[160];
        snprintf(how, sizeof(how), "%s (probe/uarch_table.c: LLVM Host.cpp, archspec)", m.how);
        pb_provenance(run, "uarch", how);
    }
    if (triple) {
        pb_str(ctx, dev, "triple", triple);
        pb_provenance(run, "triple", "hwloc Architecture, Linux with glibc");
    }
    if (m.uarch) {
        pb_map compiler;
        pb_init(&compiler);
        add_compiler(ctx, &compiler, m.uarch, false, err);
        add_compiler(ctx, &compiler, m.uarch, true, err);
        pb_map llvm;
        pb_init(&llvm);
        pb_str(ctx, &llvm, "cpu", m.llvm);
        pb_add_map(ctx, &compiler, "llvm", &llvm, err);
        pb_add_map(ctx, dev, "compiler", &compiler, err);
        pb_provenance(run, "compiler", "archspec microarchitectures.json, LLVM Host.cpp "
                                       "(probe/uarch_table.c)");
    }
}
