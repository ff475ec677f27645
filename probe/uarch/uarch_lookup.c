/* sysdesc/uarch.h: the microarchitecture table by name, for catalog entries
 * and `sysdesc uarch`.  The keys themselves come from uarch_keys.c, the
 * probe's own code; this file only finds the row, or says which name was
 * meant. */
#include "probe_private.h"
#include "sysdesc/uarch.h"
#include "uarch.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h> /* strcasecmp */

size_t sysdesc_uarch_count(void)
{
    return pb_uarch_count;
}

const char *sysdesc_uarch_name(size_t i)
{
    return i < pb_uarch_count ? pb_uarch_table[i].name : NULL;
}

/* `s` folded for comparison: lower case, '-' and ' ' as '_' ("Zen4",
 * "neoverse-v2" are typed as often as archspec's "zen4", "neoverse_v2"). */
static size_t fold(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        out[n++] = *s == '-' || *s == ' ' ? '_' : (char)tolower((unsigned char)*s);
    out[n] = '\0';
    return n;
}

/* The row whose LLVM name is `name` ("znver4" -> zen4), also the names of
 * the models a recognition rule gives (icelake-server -> icelake); NULL when
 * none. */
static const char *row_of_llvm_name(const char *name)
{
    for (size_t i = 0; i < pb_uarch_count; i++)
        if (strcmp(pb_uarch_table[i].llvm, "generic") != 0 &&
            strcasecmp(pb_uarch_table[i].llvm, name) == 0)
            return pb_uarch_table[i].name;
    for (size_t i = 0; i < pb_x86_rule_count; i++)
        if (pb_x86_rules[i].llvm && strcasecmp(pb_x86_rules[i].llvm, name) == 0)
            return pb_x86_rules[i].uarch;
    return NULL;
}

/* The nearest name within a third of the word's length (the checker's
 * measure: "foo" finds nothing); of equally near names the last, as the
 * table lists older before newer: "zen6" finds "zen5", not "zen". */
static const char *nearest_name(const char *name)
{
    char want[64], have[64];
    size_t lw = fold(name, want, sizeof(want));
    const char *best = NULL;
    size_t best_d = lw / 3 + 1;
    for (size_t i = 0; i < pb_uarch_count; i++) {
        size_t lh = fold(pb_uarch_table[i].name, have, sizeof(have));
        size_t d = bs_edit_distance(want, lw, have, lh);
        if (d < best_d || (best && d == best_d)) {
            best = pb_uarch_table[i].name;
            best_d = d;
        }
    }
    return best;
}

static const pb_uarch *find_row(dlti_context *ctx, const char *uarch, dlti_error_t *err)
{
    if (!ctx || !uarch) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "sysdesc_uarch: NULL %s",
                     ctx ? "microarchitecture name" : "context");
        return NULL;
    }
    const pb_uarch *u = pb_uarch_find(uarch);
    if (u)
        return u;
    const char *row = row_of_llvm_name(uarch);
    const char *near = row ? NULL : nearest_name(uarch);
    if (row)
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "unknown microarchitecture '%.100s'; did you mean '%s' (whose LLVM CPU "
                     "it is)?", uarch, row);
    else if (near)
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "unknown microarchitecture '%.100s'; did you mean '%s'?", uarch, near);
    else
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "unknown microarchitecture '%.100s': not one of the %zu names of the "
                     "table (archspec's names; `sysdesc uarch` lists them)",
                     uarch, pb_uarch_count);
    return NULL;
}

const dlti_attr *sysdesc_uarch_compiler_map(dlti_context *ctx, const char *uarch,
                                            dlti_error_t *err)
{
    const pb_uarch *u = find_row(ctx, uarch, err);
    return u ? pb_uarch_compiler_map(ctx, u, NULL, NULL, NULL, NULL, err) : NULL;
}

const dlti_attr *sysdesc_uarch_keys_for(dlti_context *ctx, const char *uarch,
                                        const char *gcc_version, const char *clang_version,
                                        dlti_error_t *err)
{
    const pb_uarch *u = find_row(ctx, uarch, err);
    if (!u)
        return NULL;
    pb_cc_installed gcc = {0}, clang = {0};
    if (gcc_version)
        snprintf(gcc.version, sizeof(gcc.version), "%s", gcc_version);
    if (clang_version)
        snprintf(clang.version, sizeof(clang.version), "%s", clang_version);
    pb_map keys;
    pb_init(&keys);
    pb_uarch_keys(ctx, &keys, u, NULL, gcc_version ? &gcc : NULL, clang_version ? &clang : NULL,
                  NULL, err);
    return pb_finish(ctx, &keys, DLTI_ATTR_MAP, err);
}

const dlti_attr *sysdesc_uarch_keys(dlti_context *ctx, const char *uarch, dlti_error_t *err)
{
    return sysdesc_uarch_keys_for(ctx, uarch, NULL, NULL, err);
}
