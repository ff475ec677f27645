/* The CPU identity keys one row of the microarchitecture table implies:
 * uarch, uarch_ancestors, triple and the compiler map.  The probe
 * (cpu_uarch.c, after recognising the CPU) and the public by-name functions
 * (uarch_lookup.c, sysdesc/uarch.h) both build them here, so a catalog entry
 * written from `sysdesc uarch NAME` and a probe of that CPU cannot differ. */
#include "probe_private.h"
#include "uarch.h"

#include <string.h>

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
 * flags, the versions, the row it targets when another. */
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
                         const pb_cc_installed *cc, dlti_error_t *err)
{
    pb_cc_choice c;
    if (cc && cc->accepted)
        pb_uarch_compiler_from(u, clang, cc->accepted, &c);
    else
        pb_uarch_compiler(u, clang, cc && cc->version[0] ? cc->version : NULL, &c);
    pb_map m;
    pb_init(&m);
    /* the row only when it is another one: an ancestor's target */
    if (c.best)
        add_entry(ctx, &m, c.best, c.best_from != u ? c.best_from->name : NULL);
    if (cc && c.best) {
        pb_str(ctx, &m, "version", cc->version[0] ? cc->version : NULL);
        pb_str(ctx, &m, "path", cc->path[0] ? cc->path : NULL);
    }
    if (c.fallback) {
        pb_map fb;
        pb_init(&fb);
        add_entry(ctx, &fb, c.fallback, c.fallback_from != u ? c.fallback_from->name : NULL);
        pb_add_map(ctx, &m, "fallback", &fb, err);
    }
    pb_add_map(ctx, compiler, clang ? "clang" : "gcc", &m, err);
}

const dlti_attr *pb_uarch_compiler_map(dlti_context *ctx, const pb_uarch *u, const char *llvm,
                                       const pb_cc_installed *gcc, const pb_cc_installed *clang,
                                       const pb_llvm_checked *llc, dlti_error_t *err)
{
    pb_map compiler;
    pb_init(&compiler);
    add_compiler(ctx, &compiler, u, false, gcc, err);
    add_compiler(ctx, &compiler, u, true, clang, err);
    pb_map cpu;
    pb_init(&cpu);
    if (llc && llc->cpu) { /* the name the installed LLVM knows, as gcc's flags */
        pb_str(ctx, &cpu, "cpu", llc->cpu);
        pb_str(ctx, &cpu, "uarch", llc->from && llc->from != u ? llc->from->name : NULL);
        pb_str(ctx, &cpu, "version", llc->version[0] ? llc->version : NULL);
        pb_str(ctx, &cpu, "path", llc->path[0] ? llc->path : NULL);
    } else {
        pb_str(ctx, &cpu, "cpu", llvm ? llvm : u->llvm);
    }
    pb_add_map(ctx, &compiler, "llvm", &cpu, err);
    /* never empty: every row has an LLVM name */
    return pb_finish(ctx, &compiler, DLTI_ATTR_MAP, err);
}

void pb_uarch_keys(dlti_context *ctx, pb_map *dev, const pb_uarch *u, const char *llvm,
                   const pb_cc_installed *gcc, const pb_cc_installed *clang,
                   const pb_llvm_checked *llc, dlti_error_t *err)
{
    pb_str(ctx, dev, "uarch", u->name);
    const char *anc[64];
    size_t n = pb_uarch_ancestors(u, anc, 64);
    if (n)
        pb_add(ctx, dev, "uarch_ancestors", pb_str_array(ctx, anc, n));
    pb_str(ctx, dev, "triple", pb_uarch_triple(u->arch));
    pb_add(ctx, dev, "compiler", pb_uarch_compiler_map(ctx, u, llvm, gcc, clang, llc, err));
}
