/* summary: text for a terminal's columns: a growable string, UTF-8 cut to
 * a width, and description text made safe to print. */
#include "cli.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELLIPSIS "\xe2\x80\xa6"

void sum_buf_add(sum_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void sum_buf_str(sum_buf *b, const char *s)
{
    sum_buf_add(b, s, strlen(s));
}

void sum_buf_printf(sum_buf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n < 0)
        b->failed = true;
    else
        sum_buf_add(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

void sum_buf_spaces(sum_buf *b, size_t n)
{
    while (n--)
        sum_buf_add(b, " ", 1);
}

char *sum_buf_take(sum_buf *b)
{
    if (!b->failed && !b->p)
        sum_buf_add(b, "", 0);
    if (b->failed) {
        free(b->p);
        return NULL;
    }
    char *p = b->p;
    b->p = NULL;
    b->len = b->cap = 0;
    return p;
}

/* The UTF-8 sequence at s: its code point and length (1 for a byte that
 * begins none: the cleaned text has none such). */
static size_t decode(const unsigned char *s, uint32_t *cp)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
    *cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xc0) != 0x80) {
            *cp = c;
            return 1;
        }
        *cp = *cp << 6 | (s[k] & 0x3f);
    }
    return n;
}

/* The terminal columns of code point `cp`: 0 for combining marks and
 * zero-width characters, 2 for East Asian wide and fullwidth ones and
 * emoji (Unicode's EastAsianWidth W and F, in the blocks that hold them),
 * else 1.  Not wcwidth(): the CLI never calls setlocale, and in the "C"
 * locale wcwidth knows no character beyond ASCII. */
static unsigned cp_cols(uint32_t cp)
{
    static const uint32_t zero[][2] = {
        {0x0300, 0x036f}, {0x0483, 0x0489}, {0x0591, 0x05bd}, {0x0610, 0x061a},
        {0x064b, 0x065f}, {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, {0x200b, 0x200f},
        {0x20d0, 0x20ff}, {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f}, {0xe0100, 0xe01ef}};
    static const uint32_t wide[][2] = {
        {0x1100, 0x115f},   {0x231a, 0x231b},   {0x2329, 0x232a},   {0x23e9, 0x23ec},
        {0x25fd, 0x25fe},   {0x2614, 0x2615},   {0x2e80, 0x303e},   {0x3041, 0x33ff},
        {0x3400, 0x4dbf},   {0x4e00, 0x9fff},   {0xa000, 0xa4cf},   {0xa960, 0xa97f},
        {0xac00, 0xd7a3},   {0xf900, 0xfaff},   {0xfe10, 0xfe19},   {0xfe30, 0xfe6f},
        {0xff00, 0xff60},   {0xffe0, 0xffe6},   {0x16fe0, 0x18cff}, {0x1b000, 0x1b2ff},
        {0x1f004, 0x1f004}, {0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a},
        {0x1f200, 0x1f251}, {0x1f300, 0x1f64f}, {0x1f680, 0x1f6ff}, {0x1f7e0, 0x1f7eb},
        {0x1f90c, 0x1f9ff}, {0x1fa70, 0x1faff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd}};
    for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
        if (cp >= zero[i][0] && cp <= zero[i][1])
            return 0;
    for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
        if (cp >= wide[i][0] && cp <= wide[i][1])
            return 2;
    return 1;
}

size_t sum_cols(const char *s)
{
    size_t n = 0;
    uint32_t cp;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        p += decode(p, &cp);
        n += cp_cols(cp);
    }
    return n;
}

/* The bytes of the longest start of `s` that fits `n` columns. */
static size_t cols_bytes(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, c = 0;
    uint32_t cp;
    while (p[i]) {
        size_t len = decode(p + i, &cp);
        unsigned w = cp_cols(cp);
        if (c + w > n)
            break;
        c += w;
        i += len;
    }
    return i;
}

void sum_buf_fit(sum_buf *b, const char *s, size_t n)
{
    if (sum_cols(s) <= n) {
        sum_buf_str(b, s);
    } else if (n > 0) {
        size_t len = cols_bytes(s, n - 1);
        while (len > 0 && s[len - 1] == ' ')
            len--; /* "With…", not "With …" */
        sum_buf_add(b, s, len);
        sum_buf_str(b, ELLIPSIS);
    }
}

/* Text from a description, safe to print: control characters (C0, DEL,
 * C1), NUL and invalid UTF-8 become '?', so a spec cannot move the cursor
 * or colour the terminal. */
void sum_buf_clean(sum_buf *b, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                : (c & 0xf8) == 0xf0 ? 4 : 0;
        bool ok = n > 0 && i + n <= len;
        uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
        for (size_t k = 1; ok && k < n; k++) {
            ok = (u[i + k] & 0xc0) == 0x80;
            cp = cp << 6 | (u[i + k] & 0x3f);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        ok = ok && cp >= least[n] && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
        /* a control character is one '?', an invalid byte one '?' per byte */
        bool control = cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f);
        if (ok && !control)
            sum_buf_add(b, s + i, n);
        else
            sum_buf_add(b, "?", 1);
        i += ok ? n : 1;
    }
}
