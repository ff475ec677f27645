/* Growable output buffer: printers append, the caller takes the result.
 * The appends are inline (buf.h); this is their slow path. */
#include "buf.h"

#include "grow.h"
#include "number.h"

#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool bs_buf_reserve(bs_buf *b, size_t extra)
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
    if (b->sink && b->len) {
        int refused = b->sink(b->sink_user, b->data, b->len);
        b->len = 0;
        b->data[0] = '\0';
        if (refused) {
            b->failed = true;
            return false;
        }
        need = extra + 1;
        if (need <= b->cap)
            return true;
    }
    size_t least = b->sink ? BS_BUF_STREAM_CHUNK : 256;
    if (bs_grow((void **)&b->data, &b->cap, need < least ? least : need, 1) != 0) {
        b->failed = true;
        return false;
    }
    return true;
}

void bs_buf_stream(bs_buf *b, bs_buf_sink sink, void *user)
{
    *b = (bs_buf){.sink = sink, .sink_user = user};
}

bool bs_buf_stream_end(bs_buf *b)
{
    if (!b->failed && b->len && b->sink(b->sink_user, b->data, b->len))
        b->failed = true;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    return !b->failed;
}

/* Two digits at a time from a table: integers are most of a big spec's
 * text, and vsnprintf costs several times this. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static void put_digits(bs_buf *b, uint64_t v, bool minus)
{
    char tmp[24];
    char *p = tmp + sizeof(tmp);
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = digit_pairs[d + 1];
        *--p = digit_pairs[d];
    }
    if (v >= 10) {
        unsigned d = (unsigned)v * 2;
        *--p = digit_pairs[d + 1];
        *--p = digit_pairs[d];
    } else {
        *--p = (char)('0' + v);
    }
    if (minus)
        *--p = '-';
    bs_buf_put(b, p, (size_t)(tmp + sizeof(tmp) - p));
}

void bs_buf_put_u64(bs_buf *b, uint64_t v)
{
    put_digits(b, v, false);
}

void bs_buf_put_i64(bs_buf *b, int64_t v)
{
    put_digits(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void bs_buf_printf(bs_buf *b, const char *fmt, ...)
{
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = bs_vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        bs_buf_put(b, small, (size_t)n);
        return;
    }
    if (!bs_buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    bs_vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
