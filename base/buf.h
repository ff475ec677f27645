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
 * memory, overflow, a sink that refused) stays failed; what is appended
 * after that is dropped or kept, either way the caller throws the result
 * away.
 *
 * A streaming buffer (bs_buf_stream) holds only the text not yet handed on:
 * when an append does not fit, what the buffer holds goes to `sink` and the
 * buffer starts again empty, so a big text never sits in memory whole.  A
 * printer into one must not read or change bytes it appended before its
 * latest append (they may be gone). */
typedef int (*bs_buf_sink)(void *user, const char *data, size_t len);
typedef struct bs_buf {
    char *data;
    size_t len, cap;
    bool failed;
    bs_buf_sink sink;  /* NULL: the buffer grows and holds the whole text */
    void *sink_user;
} bs_buf;

/* Bytes a streaming buffer holds before it hands them on: a few system
 * calls a megabyte, and the pages stay the same ones. */
#define BS_BUF_STREAM_CHUNK ((size_t)64 * 1024)
/* An empty streaming buffer: `sink` gets the text in pieces, each call 0
 * or nonzero to refuse (the buffer then fails and appends nothing more). */
void bs_buf_stream(bs_buf *b, bs_buf_sink sink, void *user);
/* Hands what a streaming buffer still holds to its sink and frees it;
 * false when the buffer failed (then or before). */
bool bs_buf_stream_end(bs_buf *b);

/* Makes room for `extra` more bytes and the NUL (the slow path of the
 * appends below: the first buffer is 256 bytes at least, then doubling; a
 * streaming buffer first hands on what it holds); false when the buffer
 * has failed. */
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
