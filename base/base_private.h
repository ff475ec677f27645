/*
 * base_private.h - the base every layer stands on (not installed): error
 * values and their helpers, the growable buffer, the arena, file reading,
 * growable arrays, hashing and edit distance.  libc only, and nothing of
 * DLTI attributes, types or contexts: the core (dlti/) and the layers above
 * it (probe/, sysdesc/) include this header; the core's own insides stay in
 * dlti/dlti_private.h, which only dlti/ sees.
 */
#ifndef BASE_PRIVATE_H
#define BASE_PRIVATE_H

#include "sysdesc/dlti.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- arena ---- */

typedef struct dlti_arena_chunk dlti_arena_chunk;
typedef struct dlti_arena {
    dlti_arena_chunk *head;
    char *cur;   /* bump pointer inside head */
    char *end;
    dlti_arena_chunk *spare; /* standard chunks kept by a reset for reuse */
    /* The memory budget: bytes of chunks held, and the most it may hold
     * (0: no budget); a chunk past it is refused and over_budget set, so
     * that "out of memory" becomes the limit's error.  failed: an
     * allocation failed, for whatever reason (dlti_error_settle). */
    size_t held, budget;
    bool over_budget, failed;
    /* The budget of one input (dlti_input_budget): the input's size while
     * it is read, 0 otherwise; the size of the input whose share was
     * exceeded, for the error. */
    size_t input_len, over_input_len;
} dlti_arena;

/* Every allocation is 16-byte aligned (and a multiple of 16 bytes). */
#define DLTI_ARENA_ALIGN ((size_t)16)
/* The slow path of dlti_arena_alloc(): a new chunk, size 0, overflow. */
void *dlti_arena_alloc_slow(dlti_arena *arena, size_t size);
/* Bump allocation inline: a load makes one allocation per value. */
static inline void *dlti_arena_alloc(dlti_arena *arena, size_t size)
{
    size_t r = (size + DLTI_ARENA_ALIGN - 1) & ~(DLTI_ARENA_ALIGN - 1);
    /* r - 1 wraps for size 0 and on overflow: the slow path decides those */
    if (r - 1 < (size_t)(arena->end - arena->cur)) {
        void *p = arena->cur;
        arena->cur += r;
        return p;
    }
    return dlti_arena_alloc_slow(arena, size);
}
static inline void *dlti_arena_memdup(dlti_arena *arena, const void *src, size_t size)
{
    void *p = dlti_arena_alloc(arena, size);
    if (p && size)
        memcpy(p, src, size);
    return p;
}
void dlti_arena_release(dlti_arena *arena);
/* Frees every object but keeps standard-size chunks for the next allocations. */
void dlti_arena_reset(dlti_arena *arena);

/* ---- numbers as text, whatever the locale (base/number.c) ---- */

/* strtod() and vsnprintf()/snprintf() in the "C" locale, whatever the
 * calling thread's (a program that called setlocale(LC_ALL, "") under a
 * decimal-comma locale): the radix is always '.'.  Every number sysdesc
 * reads from or writes to text goes through these, and so do
 * dlti_buf_printf() and the error setters. */
double dlti_strtod(const char *s, char **end);
int dlti_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int dlti_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- hashing (base/hash.c) ---- */

/* memcmp(a, b, len) == 0, inline for keys of up to 16 bytes (nearly all of
 * them): two overlapping loads a side instead of a call, which showed in
 * the profiles of key interning and string-key queries. */
static inline bool dlti_same_bytes(const char *a, const char *b, size_t len)
{
    uint64_t x, y, u, v;
    if (len >= 8 && len <= 16) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        memcpy(&u, a + len - 8, 8);
        memcpy(&v, b + len - 8, 8);
        return ((x ^ y) | (u ^ v)) == 0;
    }
    if (len >= 4 && len < 8) {
        uint32_t p, q, r, s;
        memcpy(&p, a, 4);
        memcpy(&q, b, 4);
        memcpy(&r, a + len - 4, 4);
        memcpy(&s, b + len - 4, 4);
        return ((p ^ q) | (r ^ s)) == 0;
    }
    if (len < 4) {
        for (size_t i = 0; i < len; i++)
            if (a[i] != b[i])
                return false;
        return true;
    }
    return memcmp(a, b, len) == 0;
}

/* The last step of dlti_hash_inline(): `h` so far, `w` the tail. */
static inline uint64_t dlti_hash_finish(uint64_t h, uint64_t w)
{
    /* One multiply, with the high half folded in before it and after it:
     * before, so that a change in the top bytes (a key's last characters)
     * reaches the product's high half; after, so that the index's home slot
     * (the low bits) and tag (the high bits) both depend on every byte.
     * For keys of up to 8 bytes of one length the hash is a bijection of
     * the bytes: no two collide. */
    h ^= w;
    h ^= h >> 32;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 32);
}

/* The hash of a string key (and of anything else hashed here): eight bytes
 * per step with a multiply-xorshift mix.  Inline, because a string-key query
 * hashes each key it looks up in an indexed map and the call showed in its
 * profile; a tail of 1..7 bytes is read with two overlapping loads, not a
 * byte loop (the bytes it forms, with `len` mixed in, still name the tail
 * exactly). */
static inline uint64_t dlti_hash_inline(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (len * 0xff51afd7ed558ccdull);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        len -= 8;
    }
    /* The tail's bytes, little-endian, zero above them (as
     * dlti_hash_cstring() forms them while it measures the string). */
    uint64_t w;
    if (len >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + len - 4, 4);
        w = (uint64_t)lo | (uint64_t)hi << (8 * (len - 4));
    } else if (len) {
        w = (uint64_t)p[0] | (uint64_t)p[len >> 1] << (8 * (len >> 1)) |
            (uint64_t)p[len - 1] << (8 * (len - 1));
    } else {
        w = 0;
    }
    return dlti_hash_finish(h, w);
}

/* dlti_hash_inline() of the C string `s`, whose length it stores in `*len`:
 * a key of up to 7 bytes is measured and hashed in one pass (a query by
 * string keys did strlen() and then the hash). */
static inline uint64_t dlti_hash_cstring(const char *s, size_t *len)
{
    uint64_t w = 0;
    size_t n = 0;
    for (; n < 8; n++) {
        unsigned char c = (unsigned char)s[n];
        if (!c)
            break;
        w |= (uint64_t)c << (8 * n);
    }
    if (n == 8) {
        *len = 8 + strlen(s + 8);
        return dlti_hash_inline(s, *len);
    }
    *len = n;
    return dlti_hash_finish(0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull), w);
}

/* dlti_hash_inline(), out of line, for the callers off the hot paths. */
uint64_t dlti_hash_bytes(const void *data, size_t len);

/* ---- errors: the one way every layer fills a dlti_error_t ---- */

#if defined(__GNUC__)
#define DLTI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DLTI_PRINTF(f, a)
#endif

/* Code and message, no position (line 0, no source); a message longer than
 * DLTI_ERROR_TEXT_LENGTH ends in "...".  `err` may be NULL. */
void dlti_error_set(dlti_error_t *err, dlti_error_code code, const char *fmt, ...)
    DLTI_PRINTF(3, 4);
/* "out of memory" (DLTI_ERROR_NOMEM), no position, into `err` (may be
 * NULL); -1, for `return dlti_nomem(err);`. */
int dlti_nomem(dlti_error_t *err);
/* Code, message and position (`source` may be NULL; line 0: none). */
void dlti_error_set_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                       int column, const char *fmt, ...) DLTI_PRINTF(6, 7);
void dlti_error_vset_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                        int column, const char *fmt, va_list ap);
/* The text of an error that was never set (tests look for it). */
#define DLTI_ERROR_UNSET_TEXT "failed without giving a reason (a bug in sysdesc: please report it)"
/* Clears `err` (may be NULL) where a public function starts: DLTI_OK, no
 * text, no position, so dlti_error_settle() can tell an error was set. */
static inline void dlti_error_clear(dlti_error_t *err)
{
    if (err) {
        err->code = DLTI_OK;
        err->line = err->column = 0;
        err->source[0] = err->text[0] = '\0';
    }
}
/* Moves an error (from a layer that knew no position) to source:line:column. */
void dlti_error_place(dlti_error_t *err, const char *source, int line, int column);
/* Places an error at a byte offset into `text` (line, column, position, source). */
void dlti_error_locate(dlti_error_t *err, const char *source, const char *text, size_t len,
                       size_t offset);

/* ---- files and growable arrays ---- */

/* The one way to open a file to read (base/file.c has the rules): "-" is
 * standard input; anything else a regular file, opened non-blocking and
 * close-on-exec, looked at before the open and checked again after it.
 * `dirfd`: AT_FDCWD, or the directory a relative `path` is in.  The
 * descriptor, or -1 with DLTI_ERROR_IO (the error's source `path`). */
#define DLTI_INPUT_NOFOLLOW 1u /* a symbolic link is refused */
#define DLTI_INPUT_PRIVATE 2u  /* only a file of this user (euid) that others cannot write */
int dlti_input_open(int dirfd, const char *path, unsigned flags, dlti_error_t *err);
/* read() until `size` bytes or the end of the file: 0, or the errno of a
 * failed read (EAGAIN: the file would block); `*got` bytes read either way. */
int dlti_input_read(int fd, char *buf, size_t size, size_t *got);
/* The rest of `fd`, at most `max` bytes: malloc'ed and NUL-terminated,
 * `*len` bytes; NULL with DLTI_ERROR_IO (the OS's reason), DLTI_ERROR_LIMIT
 * or DLTI_ERROR_NOMEM, the error's source `path`. */
char *dlti_input_read_all(int fd, const char *path, size_t max, size_t *len, dlti_error_t *err);
/* dlti_input_open() and dlti_input_read_all(): a whole file. */
char *dlti_read_file_at(int dirfd, const char *path, unsigned flags, size_t max, size_t *len,
                        dlti_error_t *err);
/* A directory to read or to open files in (O_DIRECTORY, close-on-exec;
 * the flags as above): its descriptor, or -1 with DLTI_ERROR_IO. */
int dlti_dir_open(int dirfd, const char *path, unsigned flags, dlti_error_t *err);
/* dlti_read_file_at(AT_FDCWD, path, 0, ...). */
char *dlti_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err);

/* Makes room for `need` elements of `elem` bytes in the malloc'ed array
 * `*data` of capacity `*cap` (doubling); 0, or -1 on overflow or out of
 * memory with the array unchanged. */
int dlti_grow(void **data, size_t *cap, size_t need, size_t elem);

/* ---- words ---- */

/* Optimal string alignment distance of two short strings (SIZE_MAX past 64
 * bytes): how the layers find the key a typo meant. */
size_t dlti_edit_distance(const char *a, size_t la, const char *b, size_t lb);

/* ---- growable string for printers ---- */

/* The text is NUL-terminated after every append.  A failed buffer (out of
 * memory, overflow) stays failed; what is appended after that is dropped or
 * kept, either way the caller throws the result away. */
typedef struct dlti_buf {
    char *data;
    size_t len, cap;
    bool failed;
} dlti_buf;

/* Makes room for `extra` more bytes and the NUL (the slow path of the
 * appends below: the first buffer is 256 bytes at least, then doubling);
 * false when the buffer has failed. */
bool dlti_buf_reserve(dlti_buf *b, size_t extra);
/* Appends inline: printers append a few bytes at a time, millions of times
 * for a big spec, and the room is nearly always there. */
static inline void dlti_buf_put(dlti_buf *b, const char *s, size_t n)
{
    if (b->cap - b->len <= n && !dlti_buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}
static inline void dlti_buf_puts(dlti_buf *b, const char *s)
{
    dlti_buf_put(b, s, strlen(s));
}
static inline void dlti_buf_putc(dlti_buf *b, char c)
{
    if (b->cap - b->len <= 1 && !dlti_buf_reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}
/* Appends the decimal digits of `v` (with a '-' when negative). */
void dlti_buf_put_u64(dlti_buf *b, uint64_t v);
void dlti_buf_put_i64(dlti_buf *b, int64_t v);
void dlti_buf_printf(dlti_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif /* BASE_PRIVATE_H */
