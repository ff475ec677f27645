/* Builtin and dialect types parsed into the context's uniqued objects
 * (type.c builds and reads them). */
#include "dlti_private.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const dlti_type *finish(dlti_parser *p, dlti_type *proto, bs_buf *text)
{
    if (text->failed) {
        free(text->data);
        return dlti_parser_nomem(p, p->pos);
    }
    const dlti_type *t = dlti_type_intern(p->ctx, proto, text->data, text->len);
    free(text->data);
    if (!t)
        return dlti_parser_nomem(p, p->pos);
    return t;
}

/* Simple types are spelled canonically already: intern the source bytes. */
static const dlti_type *finish_slice(dlti_parser *p, dlti_type *proto, const char *s, size_t n)
{
    const dlti_type *t = dlti_type_intern(p->ctx, proto, s, n);
    if (!t)
        return dlti_parser_nomem(p, p->pos);
    return t;
}

static void proto_init(dlti_type *proto, dlti_type_kind kind)
{
    memset(proto, 0, sizeof(*proto));
    proto->kind = kind;
    proto->float_kind = -1;
}

static bool parse_width(const char *s, size_t n, unsigned *width)
{
    if (n == 0 || n > 9)
        return false;
    unsigned w = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        w = w * 10 + (unsigned)(s[i] - '0');
    }
    *width = w;
    return true;
}

/* Recognises iN / siN / uiN; returns false for other identifiers. */
static bool int_type_name(const char *s, size_t n, dlti_signedness *sign, size_t *digits)
{
    if (n >= 2 && s[0] == 'i') {
        *sign = DLTI_SIGNLESS;
        *digits = 1;
    } else if (n >= 3 && s[0] == 's' && s[1] == 'i') {
        *sign = DLTI_SIGNED;
        *digits = 2;
    } else if (n >= 3 && s[0] == 'u' && s[1] == 'i') {
        *sign = DLTI_UNSIGNED;
        *digits = 2;
    } else {
        return false;
    }
    for (size_t i = *digits; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

bool dlti_is_type_keyword(const char *s, size_t n)
{
    dlti_signedness sign;
    size_t d;
    if (int_type_name(s, n, &sign, &d))
        return true;
    if (dlti_float_kind_lookup(s, n) >= 0)
        return true;
    static const char *const words[] = {"index", "none", "vector", "complex", "tensor",
                                        "memref", "tuple"};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
            return true;
    return false;
}

/* Copies balanced text up to the closing '>' of an already opened '<'
 * (strings, and nested brackets of every kind, respected). */
static int scan_balanced(dlti_parser *p, size_t *end)
{
    int depth = 1;
    char stack[256];
    stack[0] = '>';
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c == '\0') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
            return -1;
        }
        if (c == '"') {
            /* Strings are checked as everywhere else (escapes, NUL, UTF-8),
             * and their brackets do not count. */
            size_t slen;
            if (!dlti_parse_string(p, &slen))
                return -1;
            continue;
        }
        if (c == '-' && p->pos + 1 < p->len && p->text[p->pos + 1] == '>') {
            p->pos += 2; /* an arrow is not a closing bracket */
            continue;
        }
        char close = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : 0;
        if (close) {
            if (depth >= (int)sizeof(stack) || depth >= (int)p->ctx->limits.max_depth) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_LIMIT, "nesting deeper than the limit of %u",
                                 p->ctx->limits.max_depth);
                return -1;
            }
            stack[depth++] = close;
        } else if (c == '>' || c == ')' || c == ']' || c == '}') {
            if (c != stack[depth - 1]) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unbalanced '%c'", c);
                return -1;
            }
            if (--depth == 0) {
                *end = p->pos;
                p->pos++;
                return 0;
            }
        }
        p->pos++;
    }
    dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected end of input: expected '>'");
    return -1;
}

/* ---- the members of !llvm.struct and !llvm.array, for layouts ---- */

/* The LLVM dialect's types as it writes them inside its own: no `!llvm.`. */
static bool llvm_short_name(const char *s, size_t n)
{
    static const char *const names[] = {"struct", "array", "ptr", "vec", "void", "token",
                                        "label", "metadata", "func", "target", "x86_amx"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t k = strlen(names[i]);
        if (n >= k && memcmp(s, names[i], k) == 0 && (n == k || !dlti_is_id_char((unsigned char)s[k])))
            return true;
    }
    return false;
}

/* The element of an aggregate's body from `*at` to the next ',' or ')' at
 * depth 0 (or to `end`): its type, interned; NULL when sysdesc cannot read
 * it (no error: the aggregate then has no layout here). */
static const dlti_type *llvm_member(dlti_parser *p, size_t *at, size_t end)
{
    size_t i = *at, depth = 0;
    while (i < end && (p->text[i] == ' ' || p->text[i] == '\t' || p->text[i] == '\n'))
        i++;
    size_t s = i;
    for (; i < end; i++) {
        char c = p->text[i];
        if (c == '"') {
            for (i++; i < end && p->text[i] != '"'; i++)
                i += p->text[i] == '\\';
        } else if (c == '-' && i + 1 < end && p->text[i + 1] == '>') {
            i++;
        } else if (c == '<' || c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == '>' || c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (c == ',' && depth == 0) {
            break;
        }
    }
    *at = i;
    size_t e = i;
    while (e > s && (p->text[e - 1] == ' ' || p->text[e - 1] == '\t' || p->text[e - 1] == '\n'))
        e--;
    if (e == s)
        return NULL;
    /* on the heap: a member may nest as deep as the type's brackets */
    char *buf = malloc(e - s + 7);
    if (!buf)
        return NULL;
    size_t n = 0;
    if (llvm_short_name(p->text + s, e - s)) {
        memcpy(buf, "!llvm.", 6);
        n = 6;
    }
    memcpy(buf + n, p->text + s, e - s);
    n += e - s;
    dlti_error_t local;
    dlti_parser sub;
    dlti_parser_init(&sub, p->ctx, buf, n, NULL, &local);
    sub.depth = p->depth;
    const dlti_type *t = dlti_parse_type(&sub);
    bool whole = t && !sub.failed && dlti_peek(&sub) == 0 && !sub.failed;
    free(buf);
    return whole ? t : NULL;
}

/* `[ "name" , ] [ packed ] ( T, ... )` or `N x T` between `body` and `end`:
 * the members into `proto`, as MLIR's LLVM types lay them out.  Anything
 * else (an opaque or forward-referenced struct, a member type sysdesc does
 * not read) leaves the aggregate without members: no layout, no error. */
static void llvm_aggregate(dlti_parser *p, bool is_struct, size_t body, size_t end,
                           dlti_type *proto)
{
    size_t i = body;
    while (i < end && p->text[i] == ' ')
        i++;
    if (!is_struct) {
        uint64_t len = 0;
        size_t digits = i;
        while (i < end && p->text[i] >= '0' && p->text[i] <= '9' && len <= UINT32_MAX)
            len = len * 10 + (uint64_t)(p->text[i++] - '0');
        while (i < end && p->text[i] == ' ')
            i++;
        if (i == digits || len > UINT32_MAX || i >= end || p->text[i] != 'x')
            return;
        i++;
        const dlti_type *t = llvm_member(p, &i, end);
        if (!t || i != end)
            return;
        proto->elem = t;
        proto->array_len = len;
        proto->llvm_aggregate = DLTI_LLVM_ARRAY;
        return;
    }
    if (i < end && p->text[i] == '"') { /* identified: its name, then its body */
        for (i++; i < end && p->text[i] != '"'; i++)
            i += p->text[i] == '\\';
        for (i++; i < end && p->text[i] == ' '; i++)
            ;
        if (i >= end || p->text[i] != ',')
            return;
        for (i++; i < end && p->text[i] == ' '; i++)
            ;
    }
    if (end - i >= 6 && memcmp(p->text + i, "packed", 6) == 0) {
        proto->packed = true;
        for (i += 6; i < end && p->text[i] == ' '; i++)
            ;
    }
    if (i >= end || p->text[i] != '(')
        return;
    i++;
    size_t cap = 0, n = 0;
    const dlti_type **members = NULL;
    while (i < end && p->text[i] != ')') {
        const dlti_type *t = llvm_member(p, &i, end);
        if (!t || bs_grow((void **)&members, &cap, n + 1, sizeof(*members)) != 0) {
            free(members);
            return;
        }
        members[n++] = t;
        if (i < end && p->text[i] == ',')
            i++;
    }
    while (++i < end && p->text[i] == ' ')
        ;
    const dlti_type **kept = n ? bs_arena_memdup(&p->ctx->arena, members, n * sizeof(*members))
                               : NULL;
    free(members);
    if (i != end || (n && !kept))
        return;
    proto->members = kept;
    proto->num_members = n;
    proto->llvm_aggregate = DLTI_LLVM_STRUCT;
}

/* !ptr.ptr<MEMORY-SPACE>, its body scanned (the cursor after it): the
 * memory space read as an attribute, printed as MLIR prints it
 * (`!ptr.ptr<#test.const_memory_space<0>>` is `!ptr.ptr<#test.const_memory_space>`),
 * so that equal pointer types are one type. */
static const dlti_type *ptr_dialect_pointer(dlti_parser *p, size_t start, dlti_type *proto,
                                            bs_buf *text)
{
    size_t end = p->pos;
    p->pos = start + 8; /* "!ptr.ptr" */
    if (dlti_expect(p, '<') != 0)
        return NULL;
    dlti_skip_ws(p);
    size_t at = p->pos;
    const dlti_attr *space = at < end ? dlti_parse_attr(p) : NULL;
    if (!space && !p->failed)
        return dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "expected attribute value");
    if (!space)
        return NULL;
    if (!dlti_is_memory_space(space))
        return dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "invalid kind of attribute specified");
    if (!dlti_accept(p, '>'))
        return dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '>'");
    bs_buf_puts(text, "!ptr.ptr<");
    bs_buf_puts(text, space->u.str.s);
    bs_buf_putc(text, '>');
    return finish(p, proto, text);
}

/* !dialect.name<...>: kept as written, except the LLVM pointer whose
 * canonical form drops address space 0, and the ptr dialect's pointer. */
static const dlti_type *parse_dialect_type(dlti_parser *p)
{
    size_t start = p->pos;
    p->pos++; /* '!' */
    size_t id;
    size_t n = dlti_bare_id(p, &id);
    if (n == 0 || id != start + 1)
        return dlti_parser_fail(p, start, DLTI_ERROR_SYNTAX, "expected dialect type name");
    if (!memchr(p->text + id, '.', n) && !(p->pos < p->len && p->text[p->pos] == '<'))
        return dlti_alias_type(p, p->text + id, n);
    dlti_type proto;
    proto_init(&proto, DLTI_TYPE_DIALECT);
    bs_buf text = {0};
    bool is_ptr = n == 8 && memcmp(p->text + id, "llvm.ptr", 8) == 0;
    if (p->pos < p->len && p->text[p->pos] == '<') {
        p->pos++;
        size_t body = p->pos, end;
        if (scan_balanced(p, &end) != 0)
            return NULL;
        if (is_ptr) {
            /* Normalise the address space: digits only, blanks dropped. */
            size_t a = body, b = end;
            while (a < b && (p->text[a] == ' ' || p->text[a] == '\t'))
                a++;
            while (b > a && (p->text[b - 1] == ' ' || p->text[b - 1] == '\t'))
                b--;
            /* An unsigned 32-bit integer, as mlir-opt-22 reads it (its
             * error past that: "integer value too large"). */
            uint64_t as64 = 0;
            bool digits = a < b;
            for (size_t i = a; i < b && digits; i++) {
                digits = p->text[i] >= '0' && p->text[i] <= '9';
                if (digits && as64 <= UINT32_MAX)
                    as64 = as64 * 10 + (uint64_t)(p->text[i] - '0');
            }
            if (!digits)
                return dlti_parser_fail(p, body, DLTI_ERROR_SYNTAX,
                                        "expected an address space in !llvm.ptr<...>");
            if (as64 > UINT32_MAX)
                return dlti_parser_fail(p, a, DLTI_ERROR_SYNTAX, "integer value too large");
            unsigned as = (unsigned)as64;
            bs_buf_puts(&text, "!llvm.ptr");
            if (as != 0)
                bs_buf_printf(&text, "<%u>", as);
            proto.width = as; /* what dlti_llvm_ptr_space reads */
            return finish(p, &proto, &text);
        }
    }
    if (n == 7 && memcmp(p->text + id, "ptr.ptr", 7) == 0)
        return ptr_dialect_pointer(p, start, &proto, &text);
    bool has_body = p->text[p->pos - 1] == '>';
    if (has_body && n == 11 && memcmp(p->text + id, "llvm.struct", 11) == 0)
        llvm_aggregate(p, true, id + n + 1, p->pos - 1, &proto);
    else if (has_body && n == 10 && memcmp(p->text + id, "llvm.array", 10) == 0)
        llvm_aggregate(p, false, id + n + 1, p->pos - 1, &proto);
    bs_buf_put(&text, p->text + start, p->pos - start);
    return finish(p, &proto, &text);
}

/* Dimensions of a shaped type up to the element type: "4x?x", "[4]x8x", "*x". */
static int parse_dims(dlti_parser *p, dlti_type *proto, bs_buf *text, bool allow_dynamic,
                      bool allow_scalable, int64_t **dims, bool **scalable)
{
    size_t cap = 0;
    proto->rank = 0;
    dlti_skip_ws(p);
    if (allow_dynamic && p->pos < p->len && p->text[p->pos] == '*') {
        p->pos++;
        dlti_skip_ws(p);
        if (p->pos >= p->len || p->text[p->pos] != 'x') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected 'x' in dimension list");
            return -1;
        }
        p->pos++;
        proto->rank = -1;
        bs_buf_puts(text, "*x");
        return 0;
    }
    for (;;) {
        dlti_skip_ws(p);
        size_t at = p->pos;
        bool sc = false;
        int64_t dim;
        if (allow_scalable && at < p->len && p->text[at] == '[') {
            sc = true;
            p->pos++;
        }
        if (p->pos < p->len && p->text[p->pos] == '?' && allow_dynamic) {
            p->pos++;
            dim = -1;
        } else if (p->pos < p->len && p->text[p->pos] >= '0' && p->text[p->pos] <= '9') {
            uint64_t v = 0;
            while (p->pos < p->len && p->text[p->pos] >= '0' && p->text[p->pos] <= '9') {
                /* up to INT64_MAX itself, as mlir-opt-22 reads it */
                uint64_t d = (uint64_t)(p->text[p->pos] - '0');
                if (v > ((uint64_t)INT64_MAX - d) / 10) {
                    dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "invalid dimension");
                    return -1;
                }
                v = v * 10 + d;
                p->pos++;
            }
            dim = (int64_t)v;
            /* "0x..." would lex as hex in MLIR; a literal like 4x is fine. */
        } else {
            if (sc) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected dimension size");
                return -1;
            }
            p->pos = at;
            return 0; /* element type follows */
        }
        if (sc) {
            if (p->pos >= p->len || p->text[p->pos] != ']') {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "missing ']' closing scalable dimension");
                return -1;
            }
            p->pos++;
        }
        dlti_skip_ws(p);
        if (p->pos >= p->len || p->text[p->pos] != 'x') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected 'x' in dimension list");
            return -1;
        }
        p->pos++;
        if ((size_t)proto->rank >= 1u << 20) {
            dlti_parser_fail(p, at, DLTI_ERROR_LIMIT, "too many dimensions");
            return -1;
        }
        if ((size_t)proto->rank == cap) {
            /* Two arrays of one length: each grows from the same capacity. */
            size_t need = cap + 1, scap = cap;
            if (bs_grow((void **)dims, &cap, need, sizeof(**dims)) != 0 ||
                bs_grow((void **)scalable, &scap, need, sizeof(**scalable)) != 0) {
                dlti_parser_nomem(p, at);
                return -1;
            }
        }
        (*dims)[proto->rank] = dim;
        (*scalable)[proto->rank] = sc;
        proto->rank++;
        if (sc)
            bs_buf_printf(text, "[%lld]x", (long long)dim);
        else if (dim < 0)
            bs_buf_puts(text, "?x");
        else
            bs_buf_printf(text, "%lldx", (long long)dim);
    }
}

/* The rest of a shaped type after its element: ", layout, space>" verbatim. */
static int parse_shaped_tail(dlti_parser *p, bs_buf *text)
{
    dlti_skip_ws(p);
    if (p->pos < p->len && p->text[p->pos] == ',') {
        p->pos++;
        size_t start = p->pos, end;
        if (scan_balanced(p, &end) != 0)
            return -1;
        while (start < end && (p->text[start] == ' ' || p->text[start] == '\t' ||
                               p->text[start] == '\n'))
            start++;
        size_t e = end;
        while (e > start && (p->text[e - 1] == ' ' || p->text[e - 1] == '\n'))
            e--;
        /* In MLIR a '-' starts a negative number or an arrow; anything else
         * would change meaning once the blanks are trimmed ("2,- >"). */
        for (size_t i = start; i < e; i++)
            if (p->text[i] == '-' && !(i + 1 < e && ((p->text[i + 1] >= '0' && p->text[i + 1] <= '9') ||
                                                    p->text[i + 1] == '>'))) {
                dlti_parser_fail(p, i, DLTI_ERROR_SYNTAX, "unexpected '-' in type parameters");
                return -1;
            }
        bs_buf_puts(text, ", ");
        bs_buf_put(text, p->text + start, e - start);
        bs_buf_putc(text, '>');
        return 0;
    }
    if (dlti_expect(p, '>') != 0)
        return -1;
    bs_buf_putc(text, '>');
    return 0;
}

/* `start`: where the keyword `name` starts (MLIR's verifier points at it). */
static const dlti_type *parse_shaped(dlti_parser *p, dlti_type_kind kind, const char *name,
                                     size_t start)
{
    if (dlti_expect(p, '<') != 0)
        return NULL;
    dlti_type proto;
    proto_init(&proto, kind);
    bs_buf text = {0};
    bs_buf_printf(&text, "%s<", name);
    int64_t *dims = NULL;
    bool *scalable = NULL;
    const dlti_type *result = NULL;
    bool is_vector = kind == DLTI_TYPE_VECTOR;
    if (parse_dims(p, &proto, &text, !is_vector, is_vector, &dims, &scalable) != 0)
        goto out;
    const dlti_type *elem = dlti_parse_type(p);
    if (!elem)
        goto out;
    /* The LLVM pointer implements VectorElementTypeInterface in MLIR 22. */
    bool llvm_ptr = elem->kind == DLTI_TYPE_DIALECT && strncmp(elem->text, "!llvm.ptr", 9) == 0;
    if (is_vector && elem->kind != DLTI_TYPE_INTEGER && elem->kind != DLTI_TYPE_INDEX &&
        elem->kind != DLTI_TYPE_FLOAT && !llvm_ptr) {
        dlti_parser_fail(p, start, DLTI_ERROR_SYNTAX,
                         "failed to verify 'elementType': VectorElementTypeInterface instance");
        goto out;
    }
    for (int i = 0; is_vector && i < proto.rank; i++)
        if (dims[i] == 0) {
            dlti_parser_fail(p, start, DLTI_ERROR_SYNTAX,
                             "vector types must have positive constant sizes but got 0");
            goto out;
        }
    proto.elem = elem;
    proto.dims = dims;
    proto.scalable = scalable;
    bs_buf_put(&text, elem->text, elem->text_len);
    if (is_vector) {
        if (dlti_expect(p, '>') != 0)
            goto out;
        bs_buf_putc(&text, '>');
    } else if (parse_shaped_tail(p, &text) != 0) {
        goto out;
    }
    result = finish(p, &proto, &text);
    text.data = NULL;
out:
    free(text.data);
    free(dims);
    free(scalable);
    return result;
}

/* "(a, b) -> c" or "-> (c, d)" and tuple<...>: kept as the list of parsed types. */
static int parse_type_list(dlti_parser *p, bs_buf *text, char close)
{
    if (dlti_accept(p, close)) {
        bs_buf_putc(text, close);
        return 0;
    }
    for (;;) {
        const dlti_type *t = dlti_parse_type(p);
        if (!t)
            return -1;
        bs_buf_put(text, t->text, t->text_len);
        if (dlti_accept(p, ',')) {
            bs_buf_puts(text, ", ");
            continue;
        }
        if (dlti_expect(p, close) != 0)
            return -1;
        bs_buf_putc(text, close);
        return 0;
    }
}

static const dlti_type *parse_function(dlti_parser *p)
{
    dlti_type proto;
    proto_init(&proto, DLTI_TYPE_FUNCTION);
    bs_buf text = {0};
    p->pos++; /* '(' */
    bs_buf_putc(&text, '(');
    if (parse_type_list(p, &text, ')') != 0 || !dlti_accept_str(p, "->")) {
        free(text.data);
        return dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected '->' in function type");
    }
    bs_buf_puts(&text, " -> ");
    if (dlti_accept(p, '(')) {
        bs_buf_putc(&text, '(');
        /* A single non-function result prints without parentheses. */
        size_t mark = text.len;
        if (parse_type_list(p, &text, ')') != 0) {
            free(text.data);
            return NULL;
        }
        const char *inner = text.data + mark;
        size_t inner_len = text.len - mark - 1;
        bool single = inner_len > 0 && memchr(inner, ',', inner_len) == NULL && inner[0] != '(';
        if (single) {
            memmove(text.data + mark - 1, inner, inner_len);
            text.len = mark - 1 + inner_len;
            text.data[text.len] = '\0';
        }
    } else {
        const dlti_type *r = dlti_parse_type(p);
        if (!r) {
            free(text.data);
            return NULL;
        }
        bs_buf_put(&text, r->text, r->text_len);
    }
    return finish(p, &proto, &text);
}

const dlti_type *dlti_parse_type(dlti_parser *p)
{
    int c = dlti_peek(p);
    if (c == '!') {
        return parse_dialect_type(p);
    }
    if (c == '(') {
        if (!dlti_enter(p))
            return NULL;
        const dlti_type *t = parse_function(p);
        dlti_leave(p);
        return t;
    }
    size_t start;
    size_t n = dlti_bare_id(p, &start);
    if (n == 0)
        return dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX,
                                "expected non-function type");
    const char *s = p->text + start;
    dlti_type proto;
    dlti_signedness sign;
    size_t digits;
    if (int_type_name(s, n, &sign, &digits)) {
        unsigned width;
        if (!parse_width(s + digits, n - digits, &width) || width > DLTI_MAX_INT_WIDTH)
            return dlti_parser_fail(p, start, DLTI_ERROR_SYNTAX,
                                    "integer bitwidth is limited to 16777215 bits");
        proto_init(&proto, DLTI_TYPE_INTEGER);
        proto.sign = sign;
        proto.width = width;
        return finish_slice(p, &proto, s, n);
    }
    int fk = dlti_float_kind_lookup(s, n);
    if (fk >= 0) {
        proto_init(&proto, DLTI_TYPE_FLOAT);
        proto.float_kind = fk;
        proto.width = dlti_float_bit_width((dlti_float_kind)fk);
        return finish_slice(p, &proto, s, n);
    }
#define IS(word) (n == sizeof(word) - 1 && memcmp(s, word, n) == 0)
    if (IS("index") || IS("none")) {
        proto_init(&proto, IS("index") ? DLTI_TYPE_INDEX : DLTI_TYPE_NONE);
        return finish_slice(p, &proto, s, n);
    }
    dlti_type_kind kind;
    if (IS("vector"))
        kind = DLTI_TYPE_VECTOR;
    else if (IS("tensor"))
        kind = DLTI_TYPE_TENSOR;
    else if (IS("memref"))
        kind = DLTI_TYPE_MEMREF;
    else if (IS("complex"))
        kind = DLTI_TYPE_COMPLEX;
    else if (IS("tuple"))
        kind = DLTI_TYPE_TUPLE;
    else
        return dlti_parser_fail(p, start, DLTI_ERROR_SYNTAX, "expected non-function type");
#undef IS
    if (!dlti_enter(p))
        return NULL;
    const dlti_type *t;
    if (kind == DLTI_TYPE_COMPLEX || kind == DLTI_TYPE_TUPLE) {
        proto_init(&proto, kind);
        bs_buf text = {0};
        bs_buf_put(&text, s, n);
        bs_buf_putc(&text, '<');
        t = NULL;
        if (dlti_expect(p, '<') == 0) {
            if (kind == DLTI_TYPE_COMPLEX) {
                size_t elem_at = (dlti_skip_ws(p), p->pos);
                const dlti_type *e = dlti_parse_type(p);
                if (e && (e->kind == DLTI_TYPE_INTEGER || e->kind == DLTI_TYPE_FLOAT) &&
                    dlti_expect(p, '>') == 0) {
                    proto.elem = e;
                    bs_buf_put(&text, e->text, e->text_len);
                    bs_buf_putc(&text, '>');
                    t = finish(p, &proto, &text);
                    text.data = NULL;
                } else if (e) {
                    dlti_parser_fail(p, elem_at, DLTI_ERROR_SYNTAX,
                                     "invalid element type for complex");
                }
            } else if (parse_type_list(p, &text, '>') == 0) {
                t = finish(p, &proto, &text);
                text.data = NULL;
            }
        }
        free(text.data);
    } else {
        t = parse_shaped(p, kind,
                         kind == DLTI_TYPE_VECTOR   ? "vector"
                         : kind == DLTI_TYPE_TENSOR ? "tensor"
                                                    : "memref",
                         start);
    }
    dlti_leave(p);
    return t;
}

const dlti_type *dlti_type_parse(dlti_context *ctx, const char *text, size_t len,
                                 dlti_error_t *err)
{
    dlti_parser p;
    bs_error_clear(err);
    dlti_parser_init(&p, ctx, text, len, "<type>", err);
    const dlti_type *t = dlti_parse_type(&p);
    if (t && dlti_peek(&p) != 0)
        return dlti_parser_fail(&p, p.pos, DLTI_ERROR_SYNTAX, "unexpected text after type");
    return p.failed ? NULL : t;
}
