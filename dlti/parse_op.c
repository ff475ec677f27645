/* DLTI attributes on ops other than modules.
 *
 * MLIR 22's dlti::query (DLTI.cpp, getClosestQueryable) takes, on the op
 * queried and then on each ancestor, the first attribute of the op's
 * attribute dictionary, in name order, whose value is queryable: any name
 * (`test.dlti`, `dlti`, `dlti.map`), any op.  So an op whose dictionary
 * holds a DLTI attribute is a scope here, under the scope of the op or
 * module around it.  The skipper (skip_op.c) finds the ops with a `#dlti.`
 * inside; this file reads such an op again, where its syntax is known:
 *
 *   - the custom form of func.func, gpu.module, gpu.func and llvm.func:
 *     `@name`, the dictionary after the keyword `attributes`, one region;
 *   - any op in the generic form: `"x.y"(...) [succ] <{props}> ({...}, ...)
 *     {attr-dict} : (...) -> ...`; of the properties only `sym_name` and
 *     MLIR head's inherent `dlti` are read (mlir-opt-22 does not see the
 *     properties of unregistered ops in a query, and drops unknown ones).
 *
 * The regions are read as bodies (parse_module.c), so ops and modules with
 * DLTI nest.  A `#dlti.` anywhere else (a custom op sysdesc does not know,
 * an argument's attributes, a signature) fails the op as "unplaced":
 * parse_module.c then steps over the whole op and names it
 * (dlti_scope_unread_ops), never an attribute silently dropped. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

static const char *const custom_ops[] = {"func.func", "gpu.module", "gpu.func", "llvm.func"};

static bool at_dlti(const dlti_parser *p, size_t at)
{
    return p->len - at >= 6 && memcmp(p->text + at, "#dlti.", 6) == 0;
}

/* The op holds a DLTI attribute sysdesc cannot place: parse_module.c steps
 * over the op and names it with `why` (dlti_scope_unread_ops). */
static void *unplaced(dlti_parser *p, size_t at, const char *why)
{
    p->unplaced = why;
    return dlti_parser_fail(p, at, DLTI_ERROR_UNSUPPORTED, "%s", why);
}

static int fail_outside(dlti_parser *p, size_t at)
{
    unplaced(p, at, "a DLTI attribute outside its attribute dictionary");
    return -1;
}

static char closer_of(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
}

/* The bracket group at the cursor; `#dlti.` inside fails unless `allow`
 * (inside another attribute's value, where MLIR's query never looks). */
static int skip_group(dlti_parser *p, const char *opname, bool allow)
{
    size_t at = p->pos, cap = 0, depth = 0;
    char *stack = NULL;
    int rc = 0;
    do {
        if (p->pos >= p->len) {
            size_t d = depth;
            while (d > 1 && stack[d - 1] == '<')
                d--;
            dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX,
                             "operation '%s' is not closed: expected '%c' before the end of the "
                             "input", opname, closer_of(stack[d - 1]));
            rc = -1;
            break;
        }
        char c = p->text[p->pos];
        if (c == '"') {
            size_t len;
            if (!dlti_parse_string(p, &len)) {
                rc = -1;
                break;
            }
            continue;
        }
        if (c == '\0') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
            rc = -1;
            break;
        }
        if (c == '/' && p->pos + 1 < p->len && p->text[p->pos + 1] == '/') {
            while (p->pos < p->len && p->text[p->pos] != '\n')
                p->pos++;
            continue;
        }
        if (c == '#' && !allow && at_dlti(p, p->pos)) {
            rc = fail_outside(p, p->pos);
            break;
        }
        bool open = c == '(' || c == '[' || c == '{' ||
                    (c == '<' && !(p->pos + 1 < p->len && p->text[p->pos + 1] == '='));
        if (open) {
            if (depth >= p->ctx->limits.max_depth) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_LIMIT, "nesting deeper than the limit of %u",
                                 p->ctx->limits.max_depth);
                rc = -1;
                break;
            }
            if (bs_grow((void **)&stack, &cap, depth + 1, 1) != 0) {
                dlti_parser_nomem(p, p->pos);
                rc = -1;
                break;
            }
            stack[depth++] = c;
        } else if (c == '>') {
            if (!(p->pos > 0 && p->text[p->pos - 1] == '-') && depth && stack[depth - 1] == '<')
                depth--;
        } else if (c == ')' || c == ']' || c == '}') {
            size_t d = depth;
            while (d && stack[d - 1] == '<')
                d--;
            if (!d || closer_of(stack[d - 1]) != c) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unbalanced '%c' in operation '%s'",
                                 c, opname);
                rc = -1;
                break;
            }
            depth = d - 1;
        }
        p->pos++;
    } while (depth > 0);
    free(stack);
    return rc;
}

int dlti_skip_group(dlti_parser *p, const char *opname)
{
    return skip_group(p, opname, false);
}

/* An attribute value that is not a DLTI one: up to the `,` or `}` after it. */
static int skip_value(dlti_parser *p, const char *opname)
{
    for (;;) {
        int c = dlti_peek(p);
        if (p->failed)
            return -1;
        if (c == 0) {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected '}' in attribute dictionary");
            return -1;
        }
        if (c == ',' || c == '}')
            return 0;
        if (c == ')' || c == ']') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unbalanced '%c' in operation '%s'", c,
                             opname);
            return -1;
        }
        if (c == '"') {
            size_t len;
            if (!dlti_parse_string(p, &len))
                return -1;
        } else if (c == '(' || c == '[' || c == '{' || (c == '<' && p->pos + 1 < p->len &&
                                                         p->text[p->pos + 1] != '=')) {
            if (skip_group(p, opname, true) != 0)
                return -1;
        } else {
            p->pos++;
        }
    }
}

typedef struct op_state {
    const char *opname;
    size_t op_at;
    dlti_scope *scope;
    dlti_named_attr *attrs;
    size_t n, cap, nprops;
    dlti_scope **kids;
    size_t nkids, kcap;
    bool in_props; /* reading the properties <{...}> of a generic op */
} op_state;

static char *copy_text(dlti_parser *p, const char *s, size_t len, size_t at)
{
    char *c = bs_arena_alloc(&p->ctx->arena, len + 1);
    if (!c) {
        dlti_parser_nomem(p, at);
        return NULL;
    }
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

/* Keeps a DLTI attribute of the op: a name twice is MLIR's error. */
static int add_attr(dlti_parser *p, op_state *o, const char *name, size_t len,
                    const dlti_attr *v, size_t at)
{
    char *copy = copy_text(p, name, len, at);
    if (!copy)
        return -1;
    for (size_t i = 0; i < o->n; i++)
        if (o->attrs[i].name_len == len && memcmp(o->attrs[i].name, copy, len) == 0) {
            dlti_parser_fail(p, at, DLTI_ERROR_VERIFY,
                             i < o->nprops ? "'%s' is both a property and an attribute of "
                                             "the operation"
                                           : "duplicate key '%s' in dictionary attribute",
                             copy);
            return -1;
        }
    if (bs_grow((void **)&o->attrs, &o->cap, o->n + 1, sizeof(*o->attrs)) != 0) {
        dlti_parser_nomem(p, at);
        return -1;
    }
    o->attrs[o->n++] = (dlti_named_attr){copy, len, v, at, p->pos, o->in_props};
    return 0;
}

/* `{name = value, ...}` at the cursor: the attribute dictionary, or the
 * properties (`props`) of a generic op.  DLTI values are kept, and every
 * attribute named `dlti.*` whatever its value (the DLTI dialect verifies
 * those: dlti_verify_named); the symbol name noted, anything else stepped
 * over. */
static int parse_dict(dlti_parser *p, op_state *o, bool props)
{
    p->pos++; /* '{' */
    if (dlti_accept(p, '}'))
        return 0;
    do {
        size_t at = (dlti_skip_ws(p), p->pos);
        size_t len;
        const char *name = dlti_parse_attr_name(p, &len);
        if (!name)
            return -1;
        bool dialect_name = !props && len > 5 && memcmp(name, "dlti.", 5) == 0;
        if (!dlti_accept(p, '=')) { /* a unit attribute */
            if (dialect_name && add_attr(p, o, name, len, p->ctx->unit, at) != 0)
                return -1;
            continue;
        }
        dlti_skip_ws(p);
        if (len == 8 && memcmp(name, "sym_name", 8) == 0 && dlti_peek(p) == '"') {
            size_t sl;
            const char *sym = dlti_parse_string(p, &sl);
            if (!sym || !(o->scope->name = copy_text(p, sym, sl, at)))
                return -1;
            if (skip_value(p, o->opname) != 0) /* a type after the string */
                return -1;
            continue;
        }
        if (!at_dlti(p, p->pos) && !dialect_name) {
            if (skip_value(p, o->opname) != 0)
                return -1;
            continue;
        }
        const dlti_attr *v = dlti_parse_attr(p);
        if (!v)
            return -1;
        if (props && !(len == 4 && memcmp(name, "dlti", 4) == 0))
            continue; /* not an attribute of the op for MLIR 22's query */
        if (props && (!dlti_attr_is_container(v->kind) || v->kind == DLTI_ATTR_DEVICE_SPEC)) {
            dlti_parser_fail(p, at, DLTI_ERROR_VERIFY,
                             "property 'dlti' holds no #dlti.map, #dlti.dl_spec or "
                             "#dlti.target_system_spec");
            return -1;
        }
        if (add_attr(p, o, name, len, v, at) != 0)
            return -1;
    } while (dlti_accept(p, ','));
    if (!dlti_accept(p, '}')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                         "expected '}' in attribute dictionary");
        return -1;
    }
    return 0;
}

/* A trailing `loc(...)`; the cursor stays after the op when there is none. */
static int end_loc(dlti_parser *p)
{
    size_t save = p->pos;
    if (dlti_peek(p) == 'l' && p->len - p->pos >= 4 && memcmp(p->text + p->pos, "loc(", 4) == 0)
        return dlti_skip_loc(p);
    p->pos = save;
    return 0;
}

static int cmp_named(const void *a, const void *b)
{
    const dlti_named_attr *x = a, *y = b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    if (c)
        return c;
    return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

static int parse_symbol(dlti_parser *p, op_state *o)
{
    size_t at = p->pos++;
    size_t len;
    const char *name = dlti_parse_symbol_name(p, &len);
    return name && (o->scope->name = copy_text(p, name, len, at)) ? 0 : -1;
}

/* func.func, gpu.module, gpu.func, llvm.func: tokens up to the region (the
 * op's end) or, for a declaration, to the next op or the body's end. */
static int parse_custom(dlti_parser *p, op_state *o, bool top)
{
    size_t st;
    dlti_bare_id(p, &st);
    bool have_dict = false;
    for (;;) {
        size_t before = p->pos;
        dlti_skip_ws(p);
        bool newline = memchr(p->text + before, '\n', p->pos - before) != NULL;
        if (p->pos >= p->len || p->text[p->pos] == '}' ||
            (newline && dlti_op_starts(p, p->pos, top))) {
            p->pos = before; /* a declaration: it ends with its last token */
            return 0;
        }
        char c = p->text[p->pos];
        if (c == '\0') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
            return -1;
        }
        if (c == '@' && !o->scope->name) {
            if (parse_symbol(p, o) != 0)
                return -1;
            continue;
        }
        if (c == '{') {
            if (dlti_parse_region(p, o->scope, &o->kids, &o->nkids, &o->kcap) != 0)
                return -1;
            return end_loc(p);
        }
        if (dlti_is_id_start((unsigned char)c)) {
            size_t n = dlti_bare_id(p, &st);
            if (n == 10 && memcmp(p->text + st, "attributes", 10) == 0 && !have_dict &&
                dlti_peek(p) == '{') {
                have_dict = true;
                if (parse_dict(p, o, false) != 0)
                    return -1;
            }
            continue;
        }
        if (c == '"') {
            size_t len;
            if (!dlti_parse_string(p, &len))
                return -1;
            continue;
        }
        if (c == '#' && at_dlti(p, p->pos))
            return fail_outside(p, p->pos);
        if (c == '(' || c == '[' || (c == '<' && !(p->pos + 1 < p->len && p->text[p->pos + 1] == '='))) {
            if (skip_group(p, o->opname, false) != 0)
                return -1;
            continue;
        }
        if (c == ')' || c == ']') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unbalanced '%c' in operation '%s'", c,
                             o->opname);
            return -1;
        }
        p->pos++;
    }
}

/* A type after `->`: one type, or a parenthesized list. */
static int skip_type(dlti_parser *p, const char *opname)
{
    int c = dlti_peek(p);
    if (c == '(')
        return skip_group(p, opname, false);
    if (c == '!')
        p->pos++;
    size_t st;
    if (!dlti_bare_id(p, &st)) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected non-function type");
        return -1;
    }
    if (p->pos < p->len && p->text[p->pos] == '<')
        return skip_group(p, opname, false);
    return 0;
}

/* "x.y"(operands) [successors] <{properties}> (regions) {attr-dict} : type */
static int parse_generic(dlti_parser *p, op_state *o)
{
    if (p->text[p->pos] == '%') { /* results: up to the `=` */
        while (p->pos < p->len && p->text[p->pos] != '=' && p->text[p->pos] != '\n')
            p->pos++;
        if (dlti_expect(p, '=') != 0)
            return -1;
    }
    size_t len;
    if (dlti_peek(p) != '"' || !dlti_parse_string(p, &len)) {
        if (!p->failed)
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected operation name in quotes");
        return -1;
    }
    if (dlti_peek(p) != '(') {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '(' to start operand list");
        return -1;
    }
    if (skip_group(p, o->opname, false) != 0)
        return -1;
    if (dlti_peek(p) == '[' && skip_group(p, o->opname, false) != 0)
        return -1;
    if (dlti_peek(p) == '<') {
        p->pos++;
        if (dlti_peek(p) != '{') {
            dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '{' in properties");
            return -1;
        }
        o->in_props = true;
        int rc = parse_dict(p, o, true);
        o->in_props = false;
        if (rc != 0 || dlti_expect(p, '>') != 0)
            return -1;
        o->nprops = o->n;
    }
    if (dlti_accept(p, '(')) {
        do {
            if (dlti_peek(p) != '{') {
                dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                                 "expected '{' to begin a region");
                return -1;
            }
            if (dlti_parse_region(p, o->scope, &o->kids, &o->nkids, &o->kcap) != 0)
                return -1;
        } while (dlti_accept(p, ','));
        if (dlti_expect(p, ')') != 0)
            return -1;
    }
    if (dlti_peek(p) == '{' && parse_dict(p, o, false) != 0)
        return -1;
    if (!dlti_accept(p, ':')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                         "expected ':' followed by operation type");
        return -1;
    }
    if (dlti_peek(p) != '(') {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected function type");
        return -1;
    }
    if (skip_group(p, o->opname, false) != 0)
        return -1;
    if (!dlti_accept_str(p, "->")) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '->' in function type");
        return -1;
    }
    if (skip_type(p, o->opname) != 0)
        return -1;
    return end_loc(p);
}

static bool is_generic(const dlti_parser *p, size_t at)
{
    if (p->text[at] == '"')
        return true;
    if (p->text[at] != '%')
        return false;
    while (at < p->len && p->text[at] != '=' && p->text[at] != '\n')
        at++;
    for (at++; at < p->len && (p->text[at] == ' ' || p->text[at] == '\t'); at++)
        ;
    return at < p->len && p->text[at] == '"';
}

static dlti_scope *read_op(dlti_parser *p, dlti_scope *parent, const dlti_skipped_op *op,
                           op_state *o)
{
    p->pos = op->offset;
    bool generic = is_generic(p, op->offset);
    if (!generic) {
        bool known = false;
        for (size_t i = 0; i < sizeof(custom_ops) / sizeof(custom_ops[0]); i++)
            known |= strlen(custom_ops[i]) == op->name_len &&
                     memcmp(custom_ops[i], op->name, op->name_len) == 0 &&
                     p->text[op->offset] != '%';
        if (!known)
            return unplaced(p, op->dlti_at, "custom syntax sysdesc does not read");
    }
    char *opname = copy_text(p, op->name, op->name_len, op->offset);
    dlti_scope *scope = bs_arena_alloc(&p->ctx->arena, sizeof(*scope));
    if (!opname || !scope)
        return dlti_parser_nomem(p, op->offset);
    memset(scope, 0, sizeof(*scope));
    scope->ctx = p->ctx;
    scope->parent = parent;
    scope->op_name = opname;
    scope->generic = generic;
    scope->offset = scope->name_end = scope->body_open = scope->body_close = op->offset;
    scope->dict_open = scope->dict_close = SIZE_MAX;
    o->opname = opname;
    o->op_at = op->offset;
    o->scope = scope;
    if ((generic ? parse_generic(p, o) : parse_custom(p, o, parent->implicit && !parent->parent)) != 0)
        return NULL;
    /* One op a line, as MLIR prints them: what follows on the line is
     * another op's, and a reading that stops there went wrong. */
    size_t i = p->pos;
    while (i < p->len && (p->text[i] == ' ' || p->text[i] == '\t'))
        i++;
    if (i < p->len && p->text[i] != '\n' && p->text[i] != '\r' && p->text[i] != '}' &&
        !(p->text[i] == '/' && i + 1 < p->len && p->text[i + 1] == '/'))
        return unplaced(p, i, "text after it on its line");
    if (o->n > 1)
        qsort(o->attrs, o->n, sizeof(*o->attrs), cmp_named);
    for (size_t k = 0; k < o->n; k++) {
        if (dlti_verify_named(p, &o->attrs[k], op->offset) != 0)
            return NULL;
        if (o->attrs[k].value->kind == DLTI_ATTR_DL_SPEC && strcmp(opname, "gpu.module") == 0 &&
            !(o->attrs[k].name_len == 12 && memcmp(o->attrs[k].name, "dlti.dl_spec", 12) == 0))
            return dlti_parser_fail(p, o->attrs[k].offset, DLTI_ERROR_UNSUPPORTED,
                                    "a data layout on 'gpu.module' under the name '%s': sysdesc "
                                    "reads a gpu.module's data layout as 'dlti.dl_spec' only",
                                    o->attrs[k].name);
    }
    scope->num_attrs = o->n;
    scope->attrs = o->n ? bs_arena_memdup(&p->ctx->arena, o->attrs, o->n * sizeof(*o->attrs))
                        : NULL;
    if (o->n && !scope->attrs)
        return dlti_parser_nomem(p, op->offset);
    dlti_scope **kids = o->kids;
    o->kids = NULL;
    if (dlti_set_children(p, scope, kids, o->nkids) != 0)
        return NULL;
    return scope;
}

dlti_scope *dlti_parse_op(dlti_parser *p, dlti_scope *parent, const dlti_skipped_op *op)
{
    if (!dlti_enter(p))
        return NULL;
    op_state o = {0};
    dlti_scope *s = read_op(p, parent, op, &o);
    free(o.attrs);
    free(o.kids);
    dlti_leave(p);
    return s;
}
