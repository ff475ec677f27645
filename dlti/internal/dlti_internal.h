/*
 * dlti_internal.h - what the layers above the core (probe/, sysdesc/) may
 * use of the core beyond its public headers (not installed).
 *
 * Functions only: no struct layout of attributes, types or scopes is
 * visible here, so those stay the core's own (dlti/dlti_private.h, which
 * only dlti/ sees).  Each of these exists because a layer above must do
 * what the public API does not offer: print into its own buffer, build a
 * container without the public builders' copy, read float elements, report
 * a failed allocation against the context's memory budget.
 */
#ifndef DLTI_INTERNAL_H
#define DLTI_INTERNAL_H

#include "base_private.h"
#include "sysdesc/dlti.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- errors of the context's memory ---- */

/* The error of an allocation that failed while building in `ctx` (may be
 * NULL), set where it failed, no position: the memory budget's
 * DLTI_ERROR_LIMIT, naming the budget, when the context's budget (or one
 * input's share of it, dlti_input_budget) refused memory, else "out of
 * memory" (DLTI_ERROR_NOMEM); -1, for `return dlti_context_nomem(ctx, err);`.
 * A layer that builds in a context says this where a builder such as
 * dlti_string_new() returns NULL, and where its own malloc fails while it
 * builds, as the core's builders do. */
int dlti_context_nomem(const dlti_context *ctx, dlti_error_t *err);
/* What one input may make the context hold: DLTI_INPUT_MEMORY_BASE, or
 * DLTI_INPUT_MEMORY_PER_BYTE bytes for each byte of it when that is more,
 * within the context's budget (docs/reliability.md: "in proportion to its
 * size"; real descriptions use tens of bytes a byte).  While a reader
 * reads an input of `len` bytes, dlti_input_budget() narrows the context's
 * budget to that much more than it holds, and returns the budget to give
 * back with dlti_input_budget_end(); nested inputs narrow it further. */
#define DLTI_INPUT_MEMORY_BASE ((size_t)64 << 20)
#define DLTI_INPUT_MEMORY_PER_BYTE 256u
typedef struct dlti_input_budget_saved {
    size_t budget, input_len;
} dlti_input_budget_saved;
dlti_input_budget_saved dlti_input_budget(dlti_context *ctx, size_t len);
void dlti_input_budget_end(dlti_context *ctx, dlti_input_budget_saved saved);

/* ---- attributes ---- */

/* The four DLTI containers are consecutive in dlti_attr_kind. */
static inline bool dlti_attr_is_container(dlti_attr_kind kind)
{
    return (unsigned)kind - DLTI_ATTR_MAP <= (unsigned)(DLTI_ATTR_SYSTEM_SPEC - DLTI_ATTR_MAP);
}

/* The value of C-string key `s` in container `a` (NULL: none, or not a container). */
const dlti_attr *dlti_lookup_cstring(const dlti_attr *a, const char *s);

/* Verifies the entries and builds a container of `kind` as the parser
 * does (MLIR's rules for each entry, then repeated keys), without the
 * public builders' depth and limit checks; the entries are copied.  NULL
 * with err set (DLTI_ERROR_VERIFY, no position, or DLTI_ERROR_NOMEM);
 * `bad` (may be NULL) gets the index of the offending entry, SIZE_MAX when
 * the container as a whole is at fault. */
const dlti_attr *dlti_container_build_entries(dlti_context *ctx, dlti_attr_kind kind,
                                              const dlti_entry *entries, size_t n,
                                              dlti_error_t *err, size_t *bad);
/* dlti_array_new() with the reason of a failure in `err`: the depth
 * limit's DLTI_ERROR_LIMIT ("nesting deeper than the limit of 1000 (a value
 * of N levels in a module)", no position) or DLTI_ERROR_NOMEM, so that a
 * reader places the real cause at its node. */
const dlti_attr *dlti_array_build(dlti_context *ctx, const dlti_attr *const *elems, size_t n,
                                  dlti_error_t *err);
/* Element `i` of a dense array of floats as a double (as
 * dlti_attr_get_double converts a float attribute); NaN where `a` is not
 * one or `i` is past its end. */
double dlti_dense_float_at(const dlti_attr *a, size_t i);
/* NULL when `x` converts to the float type `type` as itself, up to
 * rounding to the nearest value of the type; else why not (no NaN, no
 * infinities, overflow or saturation, a lost sign, no zero): the rule of
 * every reader of typed floats that go through a double.  "not a float
 * type" for any other type. */
const char *dlti_type_float_loss(const dlti_type *type, double x);

/* ---- scopes ---- */

/* The name of the op a scope is (func.func, gpu.module, test.op), NULL for
 * a module (builtin.module, the implicit one): what a message names it by. */
const char *dlti_scope_op_name(const dlti_scope *scope);

/* ---- printing into a caller's buffer ---- */

/* Appends the canonical printing of `attr`; elide says whether an i64/f64
 * type may be left out (array elements). */
void dlti_print_attr(bs_buf *b, const dlti_attr *attr, bool elide);
/* Appends `len` bytes as an MLIR string literal: quoted, escaped as MLIR
 * escapes them. */
void dlti_print_string(bs_buf *b, const char *s, size_t len);
/* print_pretty.c: a DLTI container one entry a line, nested ones indented
 * `indent` levels (two spaces each) and more; other attributes as
 * dlti_print_attr prints them. */
void dlti_print_attr_pretty(bs_buf *b, const dlti_attr *attr, int indent);
/* The MLIR text of a module (or, `bare`, of its attributes alone) holding
 * the `n` attributes `values[i]` named `names[i]`, printed as
 * dlti_scope_print_flags() prints a scope with `flags`: malloc'ed, `*len`
 * bytes (may be NULL); NULL when out of memory. */
char *dlti_attrs_print(const char *const *names, const dlti_attr *const *values, size_t n,
                       bool bare, unsigned flags, size_t *len);

/* ---- MLIR identifiers ---- */

/* Character classes of MLIR identifiers, inline: the lexer's hottest test. */
static inline bool dlti_is_id_start(int c)
{
    return (unsigned)((c | 0x20) - 'a') < 26u || c == '_';
}

static inline bool dlti_is_id_char(int c)
{
    return dlti_is_id_start(c) || (unsigned)(c - '0') < 10u || c == '$' || c == '.';
}

#endif /* DLTI_INTERNAL_H */
