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

size_t sum_cols(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* The bytes of the first `n` columns of `s`. */
static size_t cols_bytes(const char *s, size_t n)
{
    size_t i = 0;
    for (size_t c = 0; s[i]; c++) {
        if (c == n)
            break;
        i++;
        while (((unsigned char)s[i] & 0xc0) == 0x80)
            i++;
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
