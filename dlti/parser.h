/* The hand-written recursive-descent reader shared by the type, attribute
 * and module parsers.  It works on characters directly: MLIR's dimension
 * lists (4x?xf32) do not tokenise cleanly anyway. */
#ifndef DLTI_PARSER_H
#define DLTI_PARSER_H

#include "internal.h"

typedef struct dlti_parser {
    dlti_context *ctx;
    const char *text;
    size_t len;
    size_t pos;
    const char *source;
    dlti_error_t *err;
    unsigned depth;
    bool failed;
    /* DLTI container bodies being parsed: only the outermost one is checked
     * for balance, and only when parsing it failed (see parse_hash). */
    unsigned pretty_depth;
} dlti_parser;

void dlti_parser_init(dlti_parser *p, dlti_context *ctx, const char *text, size_t len,
                      const char *source, dlti_error_t *err);
/* Records the first error only: later ones are consequences. Returns NULL. */
void *dlti_parser_fail(dlti_parser *p, size_t offset, dlti_error_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Skips blanks and // comments. */
void dlti_skip_ws(dlti_parser *p);
/* The next character after blanks, or 0 at the end (a NUL byte is an error). */
int dlti_peek_slow(dlti_parser *p);
static inline int dlti_peek(dlti_parser *p)
{
    /* Most tokens follow one another directly: no blank, comment or NUL. */
    if (p->pos < p->len) {
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c > ' ' && c != '/')
            return c;
    }
    return dlti_peek_slow(p);
}
bool dlti_accept(dlti_parser *p, char c);
bool dlti_accept_str(dlti_parser *p, const char *s);
int dlti_expect(dlti_parser *p, char c);
/* The offset MLIR reports an unexpected token at (see lexer.c). */
size_t dlti_wrong_token_at(dlti_parser *p);
/* A bare identifier [A-Za-z_][A-Za-z0-9_$.]* after blanks; 0 if none. */
size_t dlti_bare_id(dlti_parser *p, size_t *start);
/* Character classes of MLIR identifiers, inline: the lexer's hottest test. */
static inline bool dlti_is_id_start(int c)
{
    return (unsigned)((c | 0x20) - 'a') < 26u || c == '_';
}

static inline bool dlti_is_id_char(int c)
{
    return dlti_is_id_start(c) || (unsigned)(c - '0') < 10u || c == '$' || c == '.';
}
bool dlti_enter(dlti_parser *p);
void dlti_leave(dlti_parser *p);

/* Parses a type at the cursor. */
const dlti_type *dlti_parse_type(dlti_parser *p);
/* Whether the bare identifier names a builtin type. */
bool dlti_is_type_keyword(const char *s, size_t n);
/* Parses an attribute value at the cursor. */
const dlti_attr *dlti_parse_attr(dlti_parser *p);
/* Parses "string" at the cursor into arena memory. */
const char *dlti_parse_string(dlti_parser *p, size_t *len);

#endif
