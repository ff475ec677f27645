/* Growable output buffer: printers append, the caller takes the result. */
#include "dlti_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool buf_reserve(dlti_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    /* The text, `extra` more bytes and the NUL; the first buffer is 256 bytes at least. */
    if (extra > SIZE_MAX - b->len - 1) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return true;
    if (dlti_grow((void **)&b->data, &b->cap, need < 256 ? 256 : need, 1) != 0) {
        b->failed = true;
        return false;
    }
    return true;
}

void dlti_buf_put(dlti_buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void dlti_buf_puts(dlti_buf *b, const char *s)
{
    dlti_buf_put(b, s, strlen(s));
}

void dlti_buf_putc(dlti_buf *b, char c)
{
    if (!buf_reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void dlti_buf_printf(dlti_buf *b, const char *fmt, ...)
{
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        dlti_buf_put(b, small, (size_t)n);
        return;
    }
    if (!buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
