/* Cursor movement, blanks and comments, identifiers, string literals and
 * errors for the parsers. */
#include "dlti_private.h"

#include <stdio.h>
#include <string.h>

void dlti_parser_init(dlti_parser *p, dlti_context *ctx, const char *text, size_t len,
                      const char *source, dlti_error_t *err)
{
    *p = (dlti_parser){.ctx = ctx, .text = text, .len = len, .err = err,
                       .source = source ? source : "<input>"};
}

void *dlti_parser_fail(dlti_parser *p, size_t offset, dlti_error_code code, const char *fmt, ...)
{
    if (p->failed)
        return NULL;
    p->failed = true;
    if (p->err) {
        va_list ap;
        va_start(ap, fmt);
        bs_error_vset_at(p->err, code, NULL, 0, 0, fmt, ap);
        va_end(ap);
        bs_error_locate(p->err, p->source, p->text, p->len, offset);
    }
    return NULL;
}

void *dlti_parser_nomem(dlti_parser *p, size_t offset)
{
    if (p->failed)
        return NULL;
    p->failed = true;
    /* the context's reason (its memory budget, or out of memory), here */
    dlti_context_nomem(p->ctx, p->err);
    bs_error_locate(p->err, p->source, p->text, p->len, offset);
    return NULL;
}

void dlti_skip_ws(dlti_parser *p)
{
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            p->pos++;
        } else if (c == '/' && p->pos + 1 < p->len && p->text[p->pos + 1] == '/') {
            while (p->pos < p->len && p->text[p->pos] != '\n')
                p->pos++;
        } else {
            break;
        }
    }
}

int dlti_peek_slow(dlti_parser *p)
{
    dlti_skip_ws(p);
    if (p->pos >= p->len)
        return 0;
    unsigned char c = (unsigned char)p->text[p->pos];
    if (c == 0) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
        return 0;
    }
    return c;
}

bool dlti_accept(dlti_parser *p, char c)
{
    if (dlti_peek(p) == (unsigned char)c) {
        p->pos++;
        return true;
    }
    return false;
}

bool dlti_accept_str(dlti_parser *p, const char *s)
{
    dlti_skip_ws(p);
    size_t i = 0;
    while (s[i]) {
        if (p->pos + i >= p->len || p->text[p->pos + i] != s[i])
            return false;
        i++;
    }
    p->pos += i;
    return true;
}

/* Where MLIR's emitWrongTokenError points for the token at the cursor: just
 * after the previous token, backing over blanks, line ends and `//` comments
 * (at the end of input, from its last character). */
size_t dlti_wrong_token_at(dlti_parser *p)
{
    dlti_skip_ws(p);
    const char *t = p->text;
    size_t loc = p->pos;
    if (loc >= p->len)
        loc = p->len ? p->len - 1 : 0;
    size_t end = loc;
    for (;;) {
        while (end > 0 && (t[end - 1] == ' ' || t[end - 1] == '\t'))
            end--;
        if (end == 0)
            return loc;
        if (t[end - 1] != '\n' && t[end - 1] != '\r')
            return end;
        end--;
        /* A `//` on the previous line starts a comment: back up before it. */
        size_t ls = end;
        while (ls > 0 && t[ls - 1] != '\n' && t[ls - 1] != '\r')
            ls--;
        for (size_t i = ls; i + 1 < end; i++)
            if (t[i] == '/' && t[i + 1] == '/') {
                end = i;
                break;
            }
    }
}

int dlti_expect(dlti_parser *p, char c)
{
    if (dlti_accept(p, c))
        return 0;
    dlti_parser_fail(p, dlti_wrong_token_at(p), DLTI_ERROR_SYNTAX, "expected '%c'", c);
    return -1;
}

size_t dlti_bare_id(dlti_parser *p, size_t *start)
{
    dlti_skip_ws(p);
    if (p->pos >= p->len || !dlti_is_id_start((unsigned char)p->text[p->pos]))
        return 0;
    *start = p->pos;
    while (p->pos < p->len && dlti_is_id_char((unsigned char)p->text[p->pos]))
        p->pos++;
    return p->pos - *start;
}

bool dlti_enter(dlti_parser *p)
{
    if (++p->depth > p->ctx->limits.max_depth) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_LIMIT, "nesting deeper than the limit of %u",
                         p->ctx->limits.max_depth);
        return false;
    }
    return true;
}

void dlti_leave(dlti_parser *p)
{
    p->depth--;
}

const char *dlti_parse_attr_name(dlti_parser *p, size_t *len)
{
    if (dlti_peek(p) == '"')
        return dlti_parse_string(p, len);
    size_t start;
    *len = dlti_bare_id(p, &start);
    if (!*len) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected attribute name");
        return NULL;
    }
    return p->text + start;
}

const char *dlti_parse_symbol_name(dlti_parser *p, size_t *len)
{
    if (p->pos < p->len && p->text[p->pos] == '"')
        return dlti_parse_string(p, len);
    size_t start = p->pos;
    *len = 0;
    if (p->pos < p->len && dlti_is_id_start((unsigned char)p->text[p->pos]))
        *len = dlti_bare_id(p, &start);
    if (!*len) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX,
                         "@ identifier expected to start with letter or '_'");
        return NULL;
    }
    return p->text + start;
}

/* String literals: MLIR's escapes, valid UTF-8, the size limit. */

const char *dlti_parse_string(dlti_parser *p, size_t *out_len)
{
    size_t start = p->pos;
    p->pos++; /* opening quote */
    /* Escapes only shrink the text, so the raw length bounds the result. */
    size_t end = p->pos;
    while (end < p->len && p->text[end] != '"' && p->text[end] != '\n' &&
           p->text[end] != '\v' && p->text[end] != '\f') {
        if (p->text[end] == '\\' && end + 1 < p->len)
            end++;
        end++;
    }
    /* MLIR's lexer points at the line end (or the end of input) it ran into. */
    if (end >= p->len || p->text[end] != '"')
        return dlti_parser_fail(p, end, DLTI_ERROR_SYNTAX, "expected '\"' in string literal");
    if (end - p->pos > p->ctx->limits.max_string_bytes)
        return dlti_parser_fail(p, start, DLTI_ERROR_LIMIT,
                                "string literal longer than the limit of %zu bytes",
                                p->ctx->limits.max_string_bytes);
    char *out = bs_arena_alloc(&p->ctx->arena, end - p->pos + 1);
    if (!out)
        return dlti_parser_nomem(p, start);
    size_t n = 0;
    while (p->pos < end) {
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c == '\\') {
            char e = p->text[p->pos + 1];
            if (e == '"' || e == '\\') {
                out[n++] = e;
                p->pos += 2;
            } else if (e == 'n') {
                out[n++] = '\n';
                p->pos += 2;
            } else if (e == 't') {
                out[n++] = '\t';
                p->pos += 2;
            } else if (p->pos + 2 < end && dlti_hexval(e) >= 0 && dlti_hexval(p->text[p->pos + 2]) >= 0) {
                out[n++] = (char)(dlti_hexval(e) * 16 + dlti_hexval(p->text[p->pos + 2]));
                p->pos += 3;
            } else {
                return dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX,
                                        "unknown escape in string literal");
            }
        } else if (c == 0) {
            return dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX,
                                    "NUL byte in string literal (write it as \\00)");
        } else if (c >= 0x80) {
            size_t l = bs_utf8_len((const unsigned char *)p->text + p->pos, end - p->pos, 0);
            if (l == 0)
                return dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX,
                                        "invalid UTF-8 in string literal");
            memcpy(out + n, p->text + p->pos, l);
            n += l;
            p->pos += l;
        } else {
            out[n++] = (char)c;
            p->pos++;
        }
    }
    p->pos = end + 1;
    out[n] = '\0';
    *out_len = n;
    return out;
}
