/* Cursor movement, blanks and comments, identifiers and errors for the parsers. */
#include "dlti_private.h"

#include <stdio.h>

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
        dlti_error_vset_at(p->err, code, NULL, 0, 0, fmt, ap);
        va_end(ap);
        dlti_error_locate(p->err, p->source, p->text, p->len, offset);
        dlti_error_settle(p->ctx, p->err, p->source);
    }
    return NULL;
}

void *dlti_parser_nomem(dlti_parser *p, size_t offset)
{
    return dlti_parser_fail(p, offset, DLTI_ERROR_NOMEM, "out of memory");
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
