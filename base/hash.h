/*
 * hash.h - the hash and compare of string keys (hash.c): the core's intern
 * table and its string-key queries share one.  Inline, because a query
 * hashes and compares each key it looks up.
 */
#ifndef BASE_HASH_H
#define BASE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* memcmp(a, b, len) == 0, inline for keys of up to 16 bytes (nearly all of
 * them): two overlapping loads a side instead of a call, which showed in
 * the profiles of key interning and string-key queries. */
static inline bool bs_same_bytes(const char *a, const char *b, size_t len)
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

/* The last step of bs_hash_inline(): `h` so far, `w` the tail. */
static inline uint64_t bs_hash_finish(uint64_t h, uint64_t w)
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
static inline uint64_t bs_hash_inline(const void *data, size_t len)
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
     * bs_hash_cstring() forms them while it measures the string). */
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
    return bs_hash_finish(h, w);
}

/* bs_hash_inline() of the C string `s`, whose length it stores in `*len`:
 * a key of up to 7 bytes is measured and hashed in one pass (a query by
 * string keys did strlen() and then the hash). */
static inline uint64_t bs_hash_cstring(const char *s, size_t *len)
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
        return bs_hash_inline(s, *len);
    }
    *len = n;
    return bs_hash_finish(0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull), w);
}

/* bs_hash_inline(), out of line, for the callers off the hot paths. */
uint64_t bs_hash_bytes(const void *data, size_t len);

#endif /* BASE_HASH_H */
