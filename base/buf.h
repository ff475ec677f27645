/*
 * buf.h - the growable text of every printer (buf.c).
 */
#ifndef BASE_BUF_H
#define BASE_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The text is NUL-terminated after every append.  A failed buffer (out of
 * memory, overflow) stays failed; what is appended after that is dropped or
 * kept, either way the caller throws the result away. */
typedef struct bs_buf {
    char *data;
    size_t len, cap;
    bool failed;
} bs_buf;

/* Makes room for `extra` more bytes and the NUL (the slow path of the
 * appends below: the first buffer is 256 bytes at least, then doubling);
 * false when the buffer has failed. */
bool bs_buf_reserve(bs_buf *b, size_t extra);
/* Appends inline: printers append a few bytes at a time, millions of times
 * for a big spec, and the room is nearly always there. */
static inline void bs_buf_put(bs_buf *b, const char *s, size_t n)
{
    if (b->cap - b->len <= n && !bs_buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}
static inline void bs_buf_puts(bs_buf *b, const char *s)
{
    bs_buf_put(b, s, strlen(s));
}
static inline void bs_buf_putc(bs_buf *b, char c)
{
    if (b->cap - b->len <= 1 && !bs_buf_reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}
/* Appends the decimal digits of `v` (with a '-' when negative). */
void bs_buf_put_u64(bs_buf *b, uint64_t v);
void bs_buf_put_i64(bs_buf *b, int64_t v);
void bs_buf_printf(bs_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif /* BASE_BUF_H */
