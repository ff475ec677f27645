/* MLIR files: one bare attribute, or `module` ops nesting into scopes. */
#include "dlti_private.h"
#include "sysdesc/layout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_named(const void *a, const void *b)
{
    const dlti_named_attr *x = a, *y = b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    if (c)
        return c;
    return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

/* The attributes the DLTI dialect knows on an op, and what they hold; a
 * bare attribute file stands for the one of its kind. */
static const struct {
    const char *name;
    dlti_attr_kind kind;
} known[] = {{"dlti.dl_spec", DLTI_ATTR_DL_SPEC},
             {"dlti.target_system_spec", DLTI_ATTR_SYSTEM_SPEC},
             {"dlti.map", DLTI_ATTR_MAP}};

/* What MLIR's DLTI dialect checks on attributes attached to an op.  MLIR
 * reports these at the op, as the module verifier's own checks below. */
int dlti_verify_named(dlti_parser *p, const dlti_named_attr *a, size_t op_at)
{
    if (a->name_len < 5 || memcmp(a->name, "dlti.", 5) != 0)
        return 0;
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strlen(known[i].name) != a->name_len || memcmp(known[i].name, a->name, a->name_len))
            continue;
        if (a->value->kind != known[i].kind) {
            dlti_parser_fail(p, op_at, DLTI_ERROR_VERIFY, "'%s' is expected to be a #%s attribute",
                             known[i].name, known[i].name);
            return -1;
        }
        if (known[i].kind == DLTI_ATTR_DL_SPEC) {
            dlti_error_t local;
            if (!p->dialects_known && dlti_dl_spec_names_dialects(a->value)) {
                p->loaded_dialects = dlti_dialects_loaded(p->text, p->len);
                p->dialects_known = true;
            }
            if (dlti_dl_spec_check_loaded(a->value, p->loaded_dialects, &local) != 0) {
                dlti_parser_fail(p, op_at, local.code, "%s", local.text);
                return -1;
            }
        }
        return 0;
    }
    dlti_parser_fail(p, op_at, DLTI_ERROR_VERIFY, "attribute '%.*s' not supported by dialect",
                     (int)a->name_len, a->name);
    return -1;
}

/* MLIR's head (2026) moved DLTI to an inherent `dlti` attribute holding any
 * DLTI container (DLTIQueryOpInterface).  MLIR 22 rejects it on a module
 * (the check below); sysdesc reads it as the attribute of its kind, so that
 * files for both MLIRs load (docs/mlir-syntax.md). */
static bool is_inherent_dlti(const dlti_named_attr *a)
{
    return a->name_len == 4 && memcmp(a->name, "dlti", 4) == 0 &&
           dlti_attr_is_container(a->value->kind) && a->value->kind != DLTI_ATTR_DEVICE_SPEC;
}

/* ModuleOp::verify, after the dialects' checks: dialect-prefixed names only,
 * and at most one data layout spec. */
static int verify_module(dlti_parser *p, const dlti_named_attr *v, size_t n, size_t op_at)
{
    for (size_t i = 0; i < n; i++)
        if (!memchr(v[i].name, '.', v[i].name_len) && !is_inherent_dlti(&v[i])) {
            dlti_parser_fail(p, op_at, DLTI_ERROR_VERIFY,
                             "'builtin.module' op can only contain attributes with "
                             "dialect-prefixed names, found: '%.*s'",
                             (int)v[i].name_len, v[i].name);
            return -1;
        }
    size_t specs = 0;
    for (size_t i = 0; i < n; i++)
        specs += v[i].value->kind == DLTI_ATTR_DL_SPEC;
    if (specs > 1) {
        dlti_parser_fail(p, op_at, DLTI_ERROR_VERIFY,
                         "'builtin.module' op expects at most one data layout attribute");
        return -1;
    }
    return 0;
}

/* attributes {name = value, ...} */
static dlti_named_attr *parse_attr_dict(dlti_parser *p, size_t *count, size_t op_at,
                                        dlti_scope *scope)
{
    size_t cap = 0, n = 0;
    dlti_named_attr *v = NULL;
    dlti_skip_ws(p);
    scope->dict_open = p->pos;
    if (dlti_expect(p, '{') != 0)
        return NULL;
    if (!dlti_accept(p, '}')) {
        do {
            size_t at = (dlti_skip_ws(p), p->pos);
            size_t len;
            const char *name = dlti_parse_attr_name(p, &len);
            if (!name)
                goto fail;
            const dlti_attr *val = p->ctx->unit;
            if (dlti_accept(p, '=')) {
                val = dlti_parse_attr(p);
                if (!val)
                    goto fail;
            }
            if (bs_grow((void **)&v, &cap, n + 1, sizeof(*v)) != 0) {
                dlti_parser_nomem(p, at);
                goto fail;
            }
            /* name may end the input: copy len bytes, then terminate */
            char *copy = bs_arena_alloc(&p->ctx->arena, len + 1);
            if (copy)
                memcpy(copy, name, len);
            if (!copy) {
                dlti_parser_nomem(p, at);
                goto fail;
            }
            copy[len] = '\0';
            for (size_t i = 0; i < n; i++)
                if (v[i].name_len == len && memcmp(v[i].name, copy, len) == 0) {
                    dlti_parser_fail(p, at, DLTI_ERROR_VERIFY,
                                     "duplicate key '%s' in dictionary attribute", copy);
                    goto fail;
                }
            v[n++] = (dlti_named_attr){copy, len, val, at, p->pos, false};
        } while (dlti_accept(p, ','));
        if (!dlti_accept(p, '}')) {
            dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                             "expected '}' in attribute dictionary");
            goto fail;
        }
    }
    scope->dict_close = p->pos;
    /* MLIR verifies in name order: sort first. */
    if (n > 1)
        qsort(v, n, sizeof(*v), cmp_named);
    for (size_t i = 0; i < n; i++)
        if (dlti_verify_named(p, &v[i], op_at) != 0)
            goto fail;
    if (verify_module(p, v, n, op_at) != 0)
        goto fail;
    *count = n;
    return v;
fail:
    free(v);
    return NULL;
}

static dlti_scope *parse_module_op(dlti_parser *p, const dlti_scope *parent);
static bool at_generic_module(const dlti_parser *p, size_t at);
static dlti_scope *parse_generic_module(dlti_parser *p, const dlti_scope *parent);

typedef struct named_kid {
    const char *name;
    size_t index;
} named_kid;

static int by_name_then_index(const void *a, const void *b)
{
    const named_kid *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* MLIR's symbol table: two sibling modules with one name are an error
 * ("redefinition of symbol named 'a'", at the later one, as mlir-opt-22
 * says).  Sorted, so that many siblings cost n log n. */
static int unique_symbols(dlti_parser *p, dlti_scope *const *kids, size_t n)
{
    size_t m = 0;
    named_kid *named = malloc((n ? n : 1) * sizeof(*named));
    if (!named) {
        dlti_parser_nomem(p, p->pos);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (kids[i]->name)
            named[m++] = (named_kid){kids[i]->name, i};
    qsort(named, m, sizeof(*named), by_name_then_index);
    size_t dup = SIZE_MAX;
    for (size_t i = 1; i < m; i++)
        if (strcmp(named[i].name, named[i - 1].name) == 0 && named[i].index < dup)
            dup = named[i].index;
    free(named);
    if (dup == SIZE_MAX)
        return 0;
    dlti_parser_fail(p, kids[dup]->offset, DLTI_ERROR_VERIFY, "redefinition of symbol named '%s'",
                     kids[dup]->name);
    return -1;
}

/* A trailing location, `loc(...)` after an operation: MLIR keeps it as
 * debug information and prints none of it; skipped (strings respected). */
int dlti_skip_loc(dlti_parser *p)
{
    if (dlti_peek(p) != 'l' || p->len - p->pos < 4 || memcmp(p->text + p->pos, "loc(", 4) != 0)
        return 0;
    size_t at = p->pos;
    p->pos += 4;
    if (dlti_peek(p) == '#') {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_UNSUPPORTED,
                         "location aliases (loc(#name)) are not supported");
        return -1;
    }
    int depth = 1;
    while (depth > 0) {
        if (p->pos >= p->len) {
            dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "expected ')' to end the location");
            return -1;
        }
        char c = p->text[p->pos];
        if (c == '"') {
            size_t n;
            if (!dlti_parse_string(p, &n))
                return -1;
            continue;
        }
        if (c == '\0') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
            return -1;
        }
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        p->pos++;
    }
    return 0;
}

/* Counts an op in `note`, keeping the first one's name and place for
 * messages (dlti_scope_skipped_ops, dlti_scope_unread_ops). */
static int note_op(dlti_parser *p, dlti_op_note *note, const dlti_skipped_op *op, const char *why)
{
    if (note->count++)
        return 0;
    char *name = bs_arena_alloc(&p->ctx->arena, op->name_len + 1);
    if (!name) {
        dlti_parser_nomem(p, op->offset);
        return -1;
    }
    memcpy(name, op->name, op->name_len);
    name[op->name_len] = '\0';
    note->name = name;
    note->why = why;
    dlti_error_t at;
    bs_error_locate(&at, NULL, p->text, p->len, op->offset);
    note->line = at.line;
    note->column = at.column;
    return 0;
}

/* An op holding a DLTI attribute that parse_op.c cannot place (custom
 * syntax it does not read, a DLTI attribute outside the op's dictionary):
 * the file is read on without it, the op named in the scope's notes.  The
 * DLTI attribute values inside are still parsed and verified, since MLIR
 * rejects a bad one wherever it is; their names are not known. */
static int step_over_unread(dlti_parser *p, dlti_scope *s, const dlti_skipped_op *op)
{
    const char *why = p->unplaced;
    p->unplaced = NULL;
    p->failed = false;
    if (p->err)
        memset(p->err, 0, sizeof(*p->err));
    if (note_op(p, &s->unread, op, why) != 0)
        return -1;
    size_t i = op->offset;
    while (i < op->end) {
        char c = p->text[i];
        if (c == '"') {
            p->pos = i;
            if (dlti_skip_string(p) != 0)
                return -1;
            i = p->pos;
        } else if (c == '/' && i + 1 < op->end && p->text[i + 1] == '/') {
            while (i < op->end && p->text[i] != '\n')
                i++;
        } else if (c == '#' && op->end - i >= 6 && memcmp(p->text + i, "#dlti.", 6) == 0) {
            p->pos = i;
            if (!dlti_parse_attr(p))
                return -1;
            i = p->pos;
        } else {
            i++;
        }
    }
    return 0;
}

/* What MLIR says where an op should start and something else does: an op
 * starts with a result (`%`), a generic name (`"`) or a name; at the top
 * of a file `#`/`!` start alias definitions. */
static int check_op_start(dlti_parser *p, bool top)
{
    const char *t = p->text;
    size_t at = p->pos;
    if (t[at] == '%' || t[at] == '"' || dlti_is_id_start((unsigned char)t[at]))
        return 0;
    if (top && (dlti_at_alias_def(p, at) || dlti_at_metadata(p, at)))
        return 0;
    if (top && (t[at] == '#' || t[at] == '!')) {
        size_t i = at + 1;
        while (i < p->len && dlti_is_id_char((unsigned char)t[i]))
            i++;
        p->pos = i;
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                         "expected '=' in %s alias definition",
                         t[at] == '#' ? "attribute" : "type");
        return -1;
    }
    dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                     "expected operation name in quotes");
    return -1;
}

/* The ops of a body: modules become nested scopes, any other op is skipped
 * (skip_op.c).  Stops before the `}` that closes the body, or at the end of
 * the input when `top` (the ops MLIR wraps in an implicit module). */
static int parse_ops(dlti_parser *p, dlti_scope *s, bool top, dlti_scope ***kids_out, size_t *n_out)
{
    size_t cap = 0, n = 0;
    dlti_scope **kids = NULL;
    /* At the top: the span of the ops (not alias definitions or metadata),
     * for attach to wrap them in an explicit module. */
    size_t first = SIZE_MAX, last = 0;
    bool item_after_op = false;
    for (;;) {
        int c = dlti_peek(p);
        if (p->failed)
            goto fail;
        if (c == '}' && !top)
            break;
        if (c == 0) {
            if (!top) {
                /* MLIR's words for a region cut short: it wanted another op. */
                dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                                 "expected operation name in quotes");
                goto fail;
            }
            break;
        }
        if (c == '^' && s->op_name) { /* a block label in an op's region */
            p->pos++;
            if (p->pos >= p->len || !dlti_is_id_char((unsigned char)p->text[p->pos])) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected block name");
                goto fail;
            }
            while (p->pos < p->len && (dlti_is_id_char((unsigned char)p->text[p->pos]) ||
                                       p->text[p->pos] == '-'))
                p->pos++;
            if (dlti_peek(p) == '(' && dlti_skip_group(p, s->op_name) != 0)
                goto fail;
            if (dlti_expect(p, ':') != 0)
                goto fail;
            continue;
        }
        if (top && dlti_at_alias_def(p, p->pos)) {
            if (dlti_alias_define(p) != 0)
                goto fail;
            item_after_op |= first != SIZE_MAX;
            continue;
        }
        bool generic = at_generic_module(p, p->pos);
        if (!generic && !dlti_at_module_op(p, p->pos)) {
            if (check_op_start(p, top) != 0)
                goto fail;
            dlti_skipped_op op;
            bool item = top && dlti_at_metadata(p, p->pos);
            if (dlti_skip_op(p, top, &op) != 0 ||
                (!item && note_op(p, &s->skipped, &op, NULL) != 0))
                goto fail;
            /* DLTI inside: the op is read again as a scope (parse_op.c) */
            size_t after = p->pos;
            dlti_scope *k = op.dlti_at != SIZE_MAX ? dlti_parse_op(p, s, &op) : NULL;
            if (op.dlti_at != SIZE_MAX && !k && p->unplaced) {
                if (step_over_unread(p, s, &op) != 0)
                    goto fail;
                p->pos = after;
            } else if (op.dlti_at != SIZE_MAX &&
                       (!k || bs_grow((void **)&kids, &cap, n + 1, sizeof(*kids)) != 0)) {
                if (k)
                    dlti_parser_nomem(p, p->pos);
                goto fail;
            }
            if (k)
                kids[n++] = k;
            if (item) {
                item_after_op |= first != SIZE_MAX;
            } else {
                s->interleaved |= item_after_op;
                first = first == SIZE_MAX ? op.offset : first;
                last = op.end;
            }
            continue;
        }
        size_t at = p->pos;
        dlti_scope *k = generic ? parse_generic_module(p, s) : parse_module_op(p, s);
        if (!k)
            goto fail;
        s->interleaved |= item_after_op;
        first = first == SIZE_MAX ? at : first;
        last = p->pos;
        if (bs_grow((void **)&kids, &cap, n + 1, sizeof(*kids)) != 0) {
            dlti_parser_nomem(p, p->pos);
            goto fail;
        }
        kids[n++] = k;
    }
    if (top) {
        s->body_open = first == SIZE_MAX ? p->pos : first;
        s->body_close = first == SIZE_MAX ? p->pos : last;
    }
    *kids_out = kids;
    *n_out = n;
    return 0;
fail:
    free(kids);
    return -1;
}

int dlti_set_children(dlti_parser *p, dlti_scope *s, dlti_scope **kids, size_t n)
{
    /* symbol tables: modules and gpu.module (a function's body is none) */
    bool symtab = !s->op_name || strcmp(s->op_name, "gpu.module") == 0;
    if (n > 1 && symtab && unique_symbols(p, kids, n) != 0) {
        free(kids);
        return -1;
    }
    s->num_children = n;
    s->children = n ? bs_arena_memdup(&p->ctx->arena, kids, n * sizeof(*kids)) : NULL;
    free(kids);
    if (n && !s->children) {
        dlti_parser_nomem(p, p->pos);
        return -1;
    }
    return 0;
}

int dlti_parse_region(dlti_parser *p, dlti_scope *s, dlti_scope ***kids, size_t *n, size_t *cap)
{
    if (!dlti_accept(p, '{')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                         "expected '{' to begin a region");
        return -1;
    }
    dlti_scope **more = NULL;
    size_t m = 0;
    if (parse_ops(p, s, false, &more, &m) != 0)
        return -1;
    p->pos++; /* the '}' */
    if (m && bs_grow((void **)kids, cap, *n + m, sizeof(**kids)) != 0) {
        free(more);
        dlti_parser_nomem(p, p->pos);
        return -1;
    }
    if (m)
        memcpy(*kids + *n, more, m * sizeof(*more));
    *n += m;
    free(more);
    return 0;
}

/* The body { ... } of a module. */
static int parse_body(dlti_parser *p, dlti_scope *s)
{
    dlti_skip_ws(p);
    s->body_open = p->pos;
    if (!dlti_accept(p, '{')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                         "expected '{' to begin a region");
        return -1;
    }
    size_t n = 0;
    dlti_scope **kids = NULL;
    /* The generic form prints an empty body's block: `^bb0:`. */
    if (s->generic && dlti_accept(p, '^')) {
        size_t st;
        if (!dlti_bare_id(p, &st) || dlti_expect(p, ':') != 0) {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected a block label '^bb0:'");
            return -1;
        }
    }
    if (parse_ops(p, s, false, &kids, &n) != 0)
        return -1;
    s->body_close = p->pos;
    p->pos++; /* the '}' */
    return dlti_set_children(p, s, kids, n);
}

static dlti_scope *parse_module_op(dlti_parser *p, const dlti_scope *parent)
{
    dlti_skip_ws(p);
    size_t op_at = p->pos;
    size_t s;
    size_t n = dlti_bare_id(p, &s);
    bool is_module = (n == 6 && memcmp(p->text + s, "module", 6) == 0) ||
                     (n == 14 && memcmp(p->text + s, "builtin.module", 14) == 0);
    if (!is_module) {
        int len = n ? (int)(n > 60 ? 60 : n) : 1;
        const char *what = n ? p->text + s : p->text + op_at;
        return dlti_parser_fail(p, op_at, DLTI_ERROR_UNSUPPORTED,
                                "operation '%.*s' is not supported: sysdesc reads 'module' ops "
                                "and their attributes only",
                                len, what);
    }
    if (!dlti_enter(p))
        return NULL;
    dlti_scope *scope = bs_arena_alloc(&p->ctx->arena, sizeof(*scope));
    if (!scope) {
        dlti_leave(p);
        return dlti_parser_nomem(p, op_at);
    }
    memset(scope, 0, sizeof(*scope));
    scope->ctx = p->ctx;
    scope->parent = parent;
    scope->offset = op_at;
    scope->dict_open = scope->dict_close = SIZE_MAX;
    if (dlti_accept(p, '@')) {
        const char *name;
        size_t len;
        name = dlti_parse_symbol_name(p, &len);
        char *copy = name ? bs_arena_alloc(&p->ctx->arena, len + 1) : NULL;
        if (!copy) {
            dlti_leave(p);
            return dlti_parser_nomem(p, op_at);
        }
        memcpy(copy, name, len);
        copy[len] = '\0';
        scope->name = copy;
    }
    scope->name_end = p->pos;
    size_t save = p->pos;
    size_t an = dlti_bare_id(p, &s);
    if (an == 10 && memcmp(p->text + s, "attributes", 10) == 0) {
        size_t count = 0;
        dlti_named_attr *attrs = parse_attr_dict(p, &count, op_at, scope);
        if (!attrs && p->failed) {
            dlti_leave(p);
            return NULL;
        }
        scope->num_attrs = count;
        scope->attrs = count ? bs_arena_memdup(&p->ctx->arena, attrs, count * sizeof(*attrs)) : NULL;
        free(attrs);
        if (count && !scope->attrs) {
            dlti_leave(p);
            return dlti_parser_nomem(p, op_at);
        }
    } else {
        p->pos = save;
    }
    int rc = parse_body(p, scope);
    if (rc == 0)
        rc = dlti_skip_loc(p);
    dlti_leave(p);
    return rc == 0 ? scope : NULL;
}

/* ---- the generic form of a module (mlir-opt --mlir-print-op-generic) ----
 * "builtin.module"() <{sym_name = "x"}> ({ ... }) {attributes} : () -> () */

static bool at_generic_module(const dlti_parser *p, size_t at)
{
    static const char w[] = "\"builtin.module\"";
    size_t i = at + sizeof(w) - 1;
    if (p->len - at < sizeof(w) - 1 || memcmp(p->text + at, w, sizeof(w) - 1) != 0)
        return false;
    while (i < p->len && (p->text[i] == ' ' || p->text[i] == '\t'))
        i++;
    return i < p->len && p->text[i] == '(';
}

/* <{sym_name = "x"}>: the name; and MLIR head's inherent `dlti` (printed
 * as a property in the generic form) into `*dlti`.  sym_visibility is
 * refused, as the custom form's `attributes {sym_visibility = ...}` is. */
static int parse_generic_props(dlti_parser *p, dlti_scope *scope, dlti_named_attr *dlti)
{
    do {
        size_t st, at = (dlti_skip_ws(p), p->pos);
        size_t n = dlti_bare_id(p, &st);
        bool is_name = n == 8 && memcmp(p->text + st, "sym_name", 8) == 0;
        if (n == 4 && memcmp(p->text + st, "dlti", 4) == 0) {
            const dlti_attr *v = dlti_expect(p, '=') == 0 ? dlti_parse_attr(p) : NULL;
            if (!v)
                return -1;
            *dlti = (dlti_named_attr){"dlti", 4, v, at, p->pos, true};
            if (!is_inherent_dlti(dlti)) {
                dlti_parser_fail(p, at, DLTI_ERROR_VERIFY,
                                 "property 'dlti' holds no #dlti.map, #dlti.dl_spec or "
                                 "#dlti.target_system_spec");
                return -1;
            }
            continue;
        }
        if (!is_name) {
            dlti_parser_fail(p, at, DLTI_ERROR_UNSUPPORTED,
                             "property '%.*s' of a generic 'builtin.module' is not supported",
                             (int)(n ? n : at < p->len), p->text + at);
            return -1;
        }
        size_t len;
        const char *v = dlti_expect(p, '=') == 0 && dlti_peek(p) == '"' ? dlti_parse_string(p, &len)
                                                                         : NULL;
        if (!v) {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected a string");
            return -1;
        }
        char *copy = bs_arena_alloc(&p->ctx->arena, len + 1);
        if (!copy) {
            dlti_parser_nomem(p, at);
            return -1;
        }
        memcpy(copy, v, len);
        copy[len] = '\0';
        scope->name = copy;
    } while (dlti_accept(p, ','));
    return dlti_expect(p, '}') != 0 || dlti_expect(p, '>') != 0 ? -1 : 0;
}

/* The `dlti` property joins the attributes, sorted, under MLIR's rules. */
static int add_inherent(dlti_parser *p, dlti_scope *scope, const dlti_named_attr *a, size_t op_at)
{
    size_t n = scope->num_attrs;
    dlti_named_attr *all = bs_arena_alloc(&p->ctx->arena, (n + 1) * sizeof(*all));
    if (!all) {
        dlti_parser_nomem(p, op_at);
        return -1;
    }
    if (n)
        memcpy(all, scope->attrs, n * sizeof(*all));
    all[n] = *a;
    qsort(all, n + 1, sizeof(*all), cmp_named);
    for (size_t i = 1; i <= n; i++)
        if (!cmp_named(&all[i - 1], &all[i])) {
            dlti_parser_fail(p, op_at, DLTI_ERROR_VERIFY,
                             "'dlti' is both a property and an attribute of the module");
            return -1;
        }
    if (verify_module(p, all, n + 1, op_at) != 0)
        return -1;
    scope->attrs = all;
    scope->num_attrs = n + 1;
    return 0;
}

static dlti_scope *parse_generic_module(dlti_parser *p, const dlti_scope *parent)
{
    dlti_skip_ws(p);
    size_t op_at = p->pos;
    if (!dlti_enter(p))
        return NULL;
    dlti_scope *scope = bs_arena_alloc(&p->ctx->arena, sizeof(*scope));
    if (!scope) {
        dlti_leave(p);
        return dlti_parser_nomem(p, op_at);
    }
    memset(scope, 0, sizeof(*scope));
    scope->ctx = p->ctx;
    scope->parent = parent;
    scope->offset = op_at;
    scope->generic = true;
    scope->dict_open = scope->dict_close = SIZE_MAX;
    p->pos += strlen("\"builtin.module\"");
    int rc = dlti_expect(p, '(') == 0 && dlti_expect(p, ')') == 0 ? 0 : -1;
    dlti_named_attr inherent = {0};
    if (rc == 0 && dlti_accept_str(p, "<{"))
        rc = parse_generic_props(p, scope, &inherent);
    if (rc == 0)
        rc = dlti_expect(p, '(') == 0 && parse_body(p, scope) == 0 && dlti_expect(p, ')') == 0
                 ? 0 : -1;
    scope->name_end = p->pos; /* where a new {attributes} goes */
    if (rc == 0 && dlti_peek(p) == '{') {
        size_t count = 0;
        dlti_named_attr *attrs = parse_attr_dict(p, &count, op_at, scope);
        rc = attrs || !p->failed ? 0 : -1;
        scope->num_attrs = count;
        scope->attrs = count ? bs_arena_memdup(&p->ctx->arena, attrs, count * sizeof(*attrs)) : NULL;
        free(attrs);
        if (count && !scope->attrs)
            rc = -1, dlti_parser_nomem(p, op_at);
    }
    if (rc == 0 && inherent.name && add_inherent(p, scope, &inherent, op_at) != 0)
        rc = -1;
    /* : () -> () */
    if (rc == 0 && !dlti_accept(p, ':')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                         "expected ':' followed by operation type");
        rc = -1;
    }
    if (rc == 0 && (dlti_expect(p, '(') != 0 ||
                    dlti_expect(p, ')') != 0 || !dlti_accept_str(p, "->") ||
                    dlti_expect(p, '(') != 0 || dlti_expect(p, ')') != 0)) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected ': () -> ()' after a generic module");
        rc = -1;
    }
    dlti_leave(p);
    return rc == 0 ? scope : NULL;
}

/* A file of operations: MLIR wraps them in an implicit module, unless the
 * file holds one `module` and nothing else (alias definitions and `{-#`
 * metadata aside). */
static dlti_scope *parse_op_file(dlti_parser *p)
{
    dlti_scope *top = bs_arena_alloc(&p->ctx->arena, sizeof(*top));
    if (!top)
        return dlti_parser_nomem(p, p->pos);
    memset(top, 0, sizeof(*top));
    top->ctx = p->ctx;
    top->implicit = true;
    top->offset = top->name_end = top->body_open = p->pos;
    top->dict_open = top->dict_close = SIZE_MAX;
    dlti_scope **kids = NULL;
    size_t n = 0;
    if (parse_ops(p, top, true, &kids, &n) != 0)
        return NULL;
    if (n == 1 && !top->skipped.count) {
        dlti_scope *only = kids[0];
        free(kids);
        only->parent = NULL;
        return only;
    }
    return dlti_set_children(p, top, kids, n) == 0 ? top : NULL;
}

/* Whether the text at the cursor is operations (else one attribute). */
static bool at_op_file(dlti_parser *p)
{
    size_t at = p->pos;
    const char *t = p->text;
    if (dlti_at_module_op(p, at) || dlti_at_alias_def(p, at) || dlti_at_metadata(p, at) ||
        t[at] == '%')
        return true;
    if (t[at] == '"') { /* "foo.bar"(...): a generic op; "text": a string */
        size_t i = at + 1;
        while (i < p->len && t[i] != '"' && t[i] != '\n')
            i += t[i] == '\\' ? 2 : 1;
        for (i++; i < p->len && (t[i] == ' ' || t[i] == '\t'); i++)
            ;
        return i < p->len && t[i] == '(';
    }
    if (!dlti_is_id_start((unsigned char)t[at]))
        return false;
    while (at < p->len && dlti_is_id_char((unsigned char)t[at]))
        if (t[at++] == '.')
            return true; /* func.func: attribute keywords have no dot */
    return false;
}

static const char *bare_attr_name(dlti_attr_kind kind)
{
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (known[i].kind == kind)
            return known[i].name;
    return "dlti.map"; /* any other attribute */
}

static const dlti_scope *parse_text(dlti_parser *p, dlti_context *ctx, const char *text,
                                    size_t len, dlti_error_t *err);

static const dlti_scope *parse_scope(dlti_context *ctx, const char *text, size_t len,
                                     const char *source, dlti_error_t *err)
{
    dlti_parser p;
    dlti_parser_init(&p, ctx, text, len, source, err);
    const dlti_scope *root = parse_text(&p, ctx, text, len, err);
    dlti_alias_free(&p);
    return root;
}

static const dlti_scope *parse_text(dlti_parser *p, dlti_context *ctx, const char *text,
                                    size_t len, dlti_error_t *err)
{
    if (len > ctx->limits.max_input_bytes)
        return dlti_parser_fail(p, 0, DLTI_ERROR_LIMIT, "input larger than the limit of %zu bytes",
                                ctx->limits.max_input_bytes);
    /* A UTF-8 byte-order mark is skipped, as editors on some systems write one. */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p->pos = 3;
    int c = dlti_peek(p);
    if (p->failed)
        return NULL;
    dlti_scope *root;
    /* An empty or comment-only input is an empty implicit module, as
     * mlir-opt reads it (it prints "module {\n}"). */
    if (c == 0 || at_op_file(p)) {
        root = parse_op_file(p);
        if (!root)
            return NULL;
        /* MLIR's verifier rejects nested data layout specs that do not
         * combine; so does the parser, with MLIR's message and notes. */
        if (dlti_layout_verify_tree(root, p->source, text, len, err) != 0)
            return NULL;
    } else {
        size_t at = p->pos;
        /* Counted as if a module held it (the depth invariant of
         * dlti_private.h): what sysdesc prints in a module reads back. */
        p->depth = 1;
        const dlti_attr *a = dlti_parse_attr(p);
        if (!a)
            return NULL;
        if (dlti_peek(p) != 0)
            return dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected text after attribute");
        if (p->failed) /* a NUL byte after the attribute */
            return NULL;
        if (a->kind == DLTI_ATTR_DL_SPEC) {
            dlti_error_t local;
            if (dlti_dl_spec_check(a, &local) != 0)
                return dlti_parser_fail(p, at, local.code, "%s", local.text);
        }
        root = bs_arena_alloc(&ctx->arena, sizeof(*root));
        dlti_named_attr *na = bs_arena_alloc(&ctx->arena, sizeof(*na));
        if (!root || !na)
            return dlti_parser_nomem(p, 0);
        memset(root, 0, sizeof(*root));
        memset(na, 0, sizeof(*na));
        root->ctx = ctx;
        na->name = bare_attr_name(a->kind);
        na->name_len = strlen(na->name);
        na->value = a;
        na->offset = at;
        root->bare = true;
        root->offset = at;
        root->num_attrs = 1;
        root->attrs = na;
    }
    return root;
}

const dlti_scope *dlti_parse(dlti_context *ctx, const char *text, size_t len, const char *source,
                             dlti_error_t *err)
{
    bs_error_clear(err);
    dlti_input_budget_saved saved = dlti_input_budget(ctx, len);
    const dlti_scope *s = parse_scope(ctx, text, len, source, err);
    dlti_input_budget_end(ctx, saved);
    return s;
}

const dlti_scope *dlti_parse_file(dlti_context *ctx, const char *path, dlti_error_t *err)
{
    size_t len;
    char *data = bs_read_file(path, ctx->limits.max_input_bytes, &len, err);
    if (!data)
        return NULL;
    const dlti_scope *s = dlti_parse(ctx, data, len, path, err);
    free(data);
    return s;
}

/* ---- accessors ---- */

bool dlti_scope_is_bare(const dlti_scope *s)
{
    return s->bare;
}

const char *dlti_scope_name(const dlti_scope *s)
{
    return s->name;
}

const char *dlti_scope_op_name(const dlti_scope *s)
{
    return s->op_name;
}

const dlti_scope *dlti_scope_parent(const dlti_scope *s)
{
    return s->parent;
}

size_t dlti_scope_num_children(const dlti_scope *s)
{
    return s->num_children;
}

const dlti_scope *dlti_scope_child(const dlti_scope *s, size_t i)
{
    return i < s->num_children ? s->children[i] : NULL;
}

size_t dlti_scope_num_attrs(const dlti_scope *s)
{
    return s->num_attrs;
}

const char *dlti_scope_attr_name(const dlti_scope *s, size_t i)
{
    return i < s->num_attrs ? s->attrs[i].name : NULL;
}

const dlti_attr *dlti_scope_attr_value(const dlti_scope *s, size_t i)
{
    return i < s->num_attrs ? s->attrs[i].value : NULL;
}

/* The notes of `s` and of the scopes nested in it: the sum, the first in
 * the text. */
static dlti_op_note sum_notes(const dlti_scope *s, bool unread)
{
    dlti_op_note all = unread ? s->unread : s->skipped;
    for (size_t i = 0; i < s->num_children; i++) {
        dlti_op_note k = sum_notes(s->children[i], unread);
        if (k.count && (!all.count || k.line < all.line ||
                        (k.line == all.line && k.column < all.column))) {
            size_t n = all.count;
            all = k;
            all.count += n;
        } else {
            all.count += k.count;
        }
    }
    return all;
}

static size_t give_note(dlti_op_note n, const char **first_name, int *line, int *column,
                        const char **why)
{
    if (n.count) {
        if (first_name)
            *first_name = n.name;
        if (line)
            *line = n.line;
        if (column)
            *column = n.column;
        if (why)
            *why = n.why;
    }
    return n.count;
}

size_t dlti_scope_skipped_ops(const dlti_scope *s, const char **first_name, int *line,
                              int *column)
{
    return give_note(sum_notes(s, false), first_name, line, column, NULL);
}

size_t dlti_scope_unread_ops(const dlti_scope *s, const char **first_name, int *line, int *column,
                             const char **why)
{
    return give_note(sum_notes(s, true), first_name, line, column, why);
}

int dlti_scope_get_source(const dlti_scope *s, dlti_scope_source *out)
{
    if (s->bare)
        return -1;
    *out = (dlti_scope_source){s->implicit, s->interleaved, s->generic, s->offset, s->name_end,
                               s->dict_open, s->dict_close, s->body_open, s->body_close};
    return 0;
}

int dlti_scope_attr_source(const dlti_scope *s, size_t i, size_t *start, size_t *end)
{
    if (s->bare || i >= s->num_attrs)
        return -1;
    *start = s->attrs[i].offset;
    *end = s->attrs[i].end;
    return 0;
}

const dlti_attr *dlti_scope_get_attr(const dlti_scope *s, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < s->num_attrs; i++)
        if (s->attrs[i].name_len == n && memcmp(s->attrs[i].name, name, n) == 0)
            return s->attrs[i].value;
    return NULL;
}

/* The children of `s` named `name`; unnamed op scopes (an op without a
 * symbol holding one with DLTI) are looked through. */
static void find_named(const dlti_scope *s, const char *name, size_t n, const dlti_scope **found,
                       size_t *count)
{
    for (size_t i = 0; i < s->num_children; i++) {
        const dlti_scope *k = s->children[i];
        if (k->name && strlen(k->name) == n && memcmp(k->name, name, n) == 0) {
            *found = k;
            ++*count;
        } else if (!k->name && k->op_name) {
            find_named(k, name, n, found, count);
        }
    }
}

const dlti_scope *dlti_scope_find(const dlti_scope *scope, const char *path, dlti_error_t *err)
{
    const dlti_scope *cur = scope;
    const char *p = path;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        const dlti_scope *found = NULL;
        size_t count = 0;
        find_named(cur, p, n, &found, &count);
        if (count > 1) {
            bs_error_set(err, DLTI_ERROR_NOT_FOUND, "scope name '%.*s' is ambiguous", (int)n, p);
            return NULL;
        }
        if (!found) {
            bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no module or op named '@%.*s' in scope '%s'",
                         (int)n, p, cur->name ? cur->name : "(top)");
            return NULL;
        }
        cur = found;
        p = slash ? slash + 1 : p + n;
    }
    return cur;
}
