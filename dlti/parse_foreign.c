/* Attributes of other dialects that mlir-opt-22 prints in a form of its own
 * and that DLTI files hold: the LLVM dialect's #llvm.target (what `sysdesc
 * probe --llvm-target` writes), #llvm.target_features and
 * #llvm.address_space, and the ptr dialect's #ptr.spec and memory spaces
 * (#ptr.generic_space, and the test dialect's #test.const_memory_space that
 * MLIR's own tests use).  Each is read with its assembly format's rules and
 * MLIR's errors, and kept as an opaque attribute holding the text mlir-opt-22
 * prints for it, so that `fmt` prints what mlir-opt-22 prints whatever the
 * input's order and spacing, and equal attributes have equal text. */
#include "dlti_private.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* #ptr.spec's `index` when the input has none (ptr::kOptionalSpecValue):
 * not printed. */
#define NO_INDEX UINT32_MAX

static bool name_is(const dlti_parser *p, size_t id, size_t n, const char *want)
{
    return strlen(want) == n && memcmp(p->text + id, want, n) == 0;
}

/* An opaque attribute holding the canonical text `b` (consumed). */
static const dlti_attr *text_attr(dlti_parser *p, bs_buf *b, size_t at)
{
    dlti_attr *a = b->failed ? NULL : (dlti_attr *)dlti_attr_alloc(p->ctx, DLTI_ATTR_OPAQUE);
    char *kept = a ? bs_arena_alloc(&p->ctx->arena, b->len + 1) : NULL;
    if (!kept) {
        free(b->data);
        return dlti_parser_nomem(p, at);
    }
    memcpy(kept, b->data, b->len);
    kept[b->len] = '\0';
    free(b->data);
    a->u.str.s = kept;
    a->u.str.len = b->len;
    return a;
}

/* An integer of an assembly format's uint32_t parameter, as MLIR's
 * parseInteger reads it: decimal or 0x hex, a '-' wrapping around. */
static int parse_u32(dlti_parser *p, uint32_t *v)
{
    dlti_skip_ws(p);
    size_t at = p->pos;
    bool neg = at < p->len && p->text[at] == '-';
    size_t digits = at + neg;
    if (digits >= p->len || !isdigit((unsigned char)p->text[digits])) {
        dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "expected integer value");
        return -1;
    }
    p->pos = digits;
    bool hex = p->len - p->pos > 2 && p->text[p->pos] == '0' && p->text[p->pos + 1] == 'x' &&
               isxdigit((unsigned char)p->text[p->pos + 2]);
    unsigned base = hex ? 16 : 10;
    if (hex)
        p->pos += 2;
    uint64_t x = 0;
    bool big = false;
    for (; p->pos < p->len && isxdigit((unsigned char)p->text[p->pos]); p->pos++) {
        int c = p->text[p->pos];
        unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
        if (d >= base)
            break;
        x = x * base + d;
        big = big || x > UINT32_MAX;
        if (big)
            x = UINT32_MAX + (uint64_t)1; /* no wrap past 64 bits while reading on */
    }
    if (!hex && p->pos < p->len && p->text[p->pos] == '.') {
        /* `8.0` is one float token to MLIR's lexer, no integer */
        dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "expected integer value");
        return -1;
    }
    if (big) {
        dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "integer value too large");
        return -1;
    }
    *v = neg ? (uint32_t)(0u - (uint32_t)x) : (uint32_t)x;
    return 0;
}

/* `#name<N>` with one integer, after the name: #llvm.address_space<N>
 * (`optional`: false) and #test.const_memory_space, whose <N> may be left
 * out and whose 0 MLIR prints without it. */
static const dlti_attr *one_integer(dlti_parser *p, size_t start, const char *name, bool optional)
{
    uint32_t v = 0;
    if (optional && (p->pos >= p->len || p->text[p->pos] != '<')) {
        /* nothing to read */
    } else if (dlti_expect(p, '<') != 0 || parse_u32(p, &v) != 0) {
        return NULL;
    } else if (!dlti_accept(p, '>')) {
        return dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '>'");
    }
    bs_buf b = {0};
    bs_buf_puts(&b, name);
    if (v != 0 || !optional)
        bs_buf_printf(&b, "<%u>", v);
    return text_attr(p, &b, start);
}

/* #llvm.target_features' body `<["+a", "-b"]>`, from its '<' at the cursor,
 * printed into `b` as MLIR prints it; each feature checked as
 * TargetFeaturesAttr::verify checks it (reported at the '<'). */
static int features_body(dlti_parser *p, bs_buf *b)
{
    dlti_skip_ws(p);
    size_t lt = p->pos;
    if (dlti_expect(p, '<') != 0)
        return -1;
    if (!dlti_accept(p, '[')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '['");
        return -1;
    }
    const char *bad = NULL;
    bs_buf_puts(b, "<[");
    if (!dlti_accept(p, ']')) {
        for (size_t i = 0;; i++) {
            dlti_skip_ws(p);
            size_t at = p->pos;
            const dlti_attr *f = dlti_parse_attr(p);
            if (!f)
                return -1;
            if (f->kind != DLTI_ATTR_STRING) {
                dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "invalid kind of attribute specified");
                return -1;
            }
            const char *s = f->u.str.s;
            size_t n = f->u.str.len;
            if (!bad && (n == 0 || (s[0] != '+' && s[0] != '-')))
                bad = "target features must start with '+' or '-'";
            else if (!bad && memchr(s, ',', n))
                bad = "target features can not contain ','";
            bs_buf_puts(b, i ? ", " : "");
            dlti_print_string(b, s, n);
            if (dlti_accept(p, ']'))
                break;
            if (!dlti_accept(p, ',')) {
                dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected ']'");
                return -1;
            }
        }
    }
    if (!dlti_accept(p, '>')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '>'");
        return -1;
    }
    if (bad) {
        dlti_parser_fail(p, lt, DLTI_ERROR_VERIFY, "%s", bad);
        return -1;
    }
    bs_buf_puts(b, "]>");
    return 0;
}

/* The parameters of an assembly format's `struct(...)`: `name = value`
 * pairs in any order, separated by commas, each at most once. */
typedef struct struct_param {
    const char *name;
    bool required;
    bool seen;
} struct_param;

/* Reads `name =` and returns the parameter's index; -1 with MLIR's error. */
static int struct_name(dlti_parser *p, struct_param *params, size_t n)
{
    size_t id, len = dlti_bare_id(p, &id);
    if (len == 0) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected valid keyword");
        return -1;
    }
    if (!dlti_accept(p, '=')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '='");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (!params[i].seen && name_is(p, id, len, params[i].name)) {
            params[i].seen = true;
            return (int)i;
        }
    dlti_skip_ws(p);
    dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "duplicate or unknown struct parameter name: %.*s",
                     (int)(len > 60 ? 60 : len), p->text + id);
    return -1;
}

/* After the last pair: a required parameter left out is MLIR's error at
 * the token after it, then the closing '>'. */
static int struct_end(dlti_parser *p, const struct_param *params, size_t n)
{
    dlti_skip_ws(p);
    for (size_t i = 0; i < n; i++)
        if (params[i].required && !params[i].seen) {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "struct is missing required parameter: %s",
                             params[i].name);
            return -1;
        }
    if (!dlti_accept(p, '>')) {
        dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '>'");
        return -1;
    }
    return 0;
}

/* #ptr.spec<size = S, abi = A, preferred = P(, index = I)?>: uint32_t bit
 * counts, checked as SpecAttr::verify checks them (reported at the '<'). */
static const dlti_attr *ptr_spec(dlti_parser *p, size_t start)
{
    size_t lt = p->pos;
    struct_param params[] = {{"size", true, false},
                             {"abi", true, false},
                             {"preferred", true, false},
                             {"index", false, false}};
    uint32_t v[4] = {0, 0, 0, NO_INDEX};
    if (dlti_expect(p, '<') != 0)
        return NULL;
    do {
        int i = struct_name(p, params, 4);
        if (i < 0 || parse_u32(p, &v[i]) != 0)
            return NULL;
    } while (dlti_accept(p, ','));
    if (struct_end(p, params, 4) != 0)
        return NULL;
    static const char *const names[] = {"size", "abi", "preferred", "index"};
    for (size_t i = 0; i < 4; i++)
        if (v[i] % 8 != 0 && !(i == 3 && v[i] == NO_INDEX))
            return dlti_parser_fail(p, lt, DLTI_ERROR_VERIFY, "%s entry must be divisible by 8",
                                    names[i]);
    if (v[1] > v[2])
        return dlti_parser_fail(p, lt, DLTI_ERROR_VERIFY,
                                "preferred alignment is expected to be at least as large as ABI "
                                "alignment");
    bs_buf b = {0};
    bs_buf_printf(&b, "#ptr.spec<size = %u, abi = %u, preferred = %u", v[0], v[1], v[2]);
    if (v[3] != NO_INDEX)
        bs_buf_printf(&b, ", index = %u", v[3]);
    bs_buf_putc(&b, '>');
    return text_attr(p, &b, start);
}

/* A string parameter's value; -1 with MLIR's error for any other attribute. */
static int string_param(dlti_parser *p, bs_buf *b)
{
    dlti_skip_ws(p);
    size_t at = p->pos;
    const dlti_attr *s = dlti_parse_attr(p);
    if (!s)
        return -1;
    if (s->kind != DLTI_ATTR_STRING) {
        dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "invalid kind of attribute specified");
        return -1;
    }
    dlti_print_string(b, s->u.str.s, s->u.str.len);
    return 0;
}

/* #llvm.target<triple = "...", chip = "..."(, features = <[...]>)?>: the
 * parameters in any order; MLIR prints them in this one, the features as
 * the body of #llvm.target_features (either spelling reads). */
static const dlti_attr *llvm_target(dlti_parser *p, size_t start)
{
    struct_param params[] = {{"triple", true, false},
                             {"chip", true, false},
                             {"features", false, false}};
    bs_buf part[3] = {{0}, {0}, {0}}, b = {0};
    const dlti_attr *a = NULL;
    if (dlti_expect(p, '<') != 0)
        goto out;
    do {
        int i = struct_name(p, params, 3);
        if (i < 0)
            goto out;
        if (i < 2) {
            if (string_param(p, &part[i]) != 0)
                goto out;
            continue;
        }
        dlti_skip_ws(p);
        if (p->pos < p->len && p->text[p->pos] == '#') {
            size_t at = p->pos;
            const dlti_attr *f = dlti_parse_attr(p);
            if (!f)
                goto out;
            static const char mnemonic[] = "#llvm.target_features";
            if (f->kind != DLTI_ATTR_OPAQUE || strncmp(f->u.str.s, mnemonic, sizeof(mnemonic) - 1) ||
                f->u.str.s[sizeof(mnemonic) - 1] != '<') {
                dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "invalid kind of attribute specified");
                goto out;
            }
            bs_buf_puts(&part[2], f->u.str.s + sizeof(mnemonic) - 1);
        } else if (features_body(p, &part[2]) != 0) {
            goto out;
        }
    } while (dlti_accept(p, ','));
    if (struct_end(p, params, 3) != 0)
        goto out;
    bs_buf_puts(&b, "#llvm.target<triple = ");
    bs_buf_put(&b, part[0].data, part[0].len);
    bs_buf_puts(&b, ", chip = ");
    bs_buf_put(&b, part[1].data, part[1].len);
    if (params[2].seen) {
        bs_buf_puts(&b, ", features = ");
        bs_buf_put(&b, part[2].data, part[2].len);
    }
    bs_buf_putc(&b, '>');
    b.failed = b.failed || part[0].failed || part[1].failed || part[2].failed;
    a = text_attr(p, &b, start);
out:
    for (size_t i = 0; i < 3; i++)
        free(part[i].data);
    return a;
}

int dlti_parse_foreign_attr(dlti_parser *p, size_t start, size_t id, size_t n, size_t body_end,
                            const dlti_attr **out)
{
    *out = NULL;
    if (name_is(p, id, n, "llvm.target")) {
        *out = llvm_target(p, start);
    } else if (name_is(p, id, n, "llvm.target_features")) {
        bs_buf b = {0};
        bs_buf_puts(&b, "#llvm.target_features");
        if (features_body(p, &b) != 0) {
            free(b.data);
            return 1;
        }
        *out = text_attr(p, &b, start);
    } else if (name_is(p, id, n, "llvm.address_space")) {
        *out = one_integer(p, start, "#llvm.address_space", false);
    } else if (name_is(p, id, n, "test.const_memory_space")) {
        *out = one_integer(p, start, "#test.const_memory_space", true);
    } else if (name_is(p, id, n, "ptr.spec")) {
        *out = ptr_spec(p, start);
    } else if (name_is(p, id, n, "ptr.generic_space")) {
        /* MLIR reads a body and drops it: `#ptr.generic_space<1>` prints bare. */
        p->pos = body_end;
        bs_buf b = {0};
        bs_buf_puts(&b, "#ptr.generic_space");
        *out = text_attr(p, &b, start);
    } else {
        return 0;
    }
    return 1;
}

bool dlti_is_memory_space(const dlti_attr *a)
{
    if (!a || a->kind != DLTI_ATTR_OPAQUE)
        return false;
    const char *s = a->u.str.s;
    return strcmp(s, "#ptr.generic_space") == 0 ||
           strncmp(s, "#llvm.address_space<", 20) == 0 ||
           strncmp(s, "#test.const_memory_space", 24) == 0;
}

bool dlti_ptr_spec_values(const dlti_attr *a, uint32_t v[4])
{
    if (!a || a->kind != DLTI_ATTR_OPAQUE || strncmp(a->u.str.s, "#ptr.spec<", 10) != 0)
        return false;
    /* The text ptr_spec() wrote. */
    unsigned long long x[4] = {0, 0, 0, NO_INDEX};
    int got = sscanf(a->u.str.s, "#ptr.spec<size = %llu, abi = %llu, preferred = %llu, index = %llu>",
                     &x[0], &x[1], &x[2], &x[3]);
    if (got < 3)
        return false;
    for (size_t i = 0; i < 4; i++)
        v[i] = (uint32_t)x[i];
    return true;
}
