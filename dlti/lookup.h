/* The lookups of a key in a DLTI container (its entries, or the hash index
 * of a larger one): the hot steps inline, for query.c's walks; the index of
 * more than DLTI_INDEX_COMPACT entries (4-byte slots) out of line, in
 * lookup.c, with the lookups the other files call.  Private to dlti/. */
#ifndef SYSDESC_DLTI_LOOKUP_H
#define SYSDESC_DLTI_LOOKUP_H

#include "dlti_private.h"

#if defined(__GNUC__)
#define COLD __attribute__((noinline, cold))
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define COLD
#define HOT_INLINE inline
#endif

/* Cold at the call: the inline steps below stay small. */
COLD const dlti_attr *dlti_lookup_compact(const dlti_attr *a, dlti_key key);
COLD const dlti_attr *dlti_lookup_string_compact(const dlti_attr *a, const char *s, size_t len,
                                                 uint64_t hash);

/* Lookup in a container known to be one; the hot step of every query. */
static HOT_INLINE const dlti_attr *lookup_handle(const dlti_attr *a, dlti_key key)
{
    const dlti_entry_rec *e = a->u.c.entries;
    if (!a->u.c.index) {
        for (size_t i = 0, n = a->n; i < n; i++)
            if (e[i].key == key)
                return e[i].value;
        return NULL;
    }
    size_t mask = a->index_mask;
    if (!mask)
        return dlti_lookup_compact(a, key);
    const dlti_entry_rec *slots = a->u.c.index;
    for (size_t j = key->hash & mask;; j = (j + 1) & mask) {
        if (slots[j].key == key)
            return slots[j].value;
        if (!slots[j].key)
            return NULL;
    }
}

/* Whether string key `k` spells the C string `s`: one pass, no strlen. */
static inline bool key_is_cstring(dlti_key k, const char *s)
{
    size_t i = 0;
    while (i < k->len && s[i] != '\0' && s[i] == k->str[i])
        i++;
    return i == k->len && s[i] == '\0' && !k->type;
}

/* Whether interned key `k` is the string of `len` bytes at `s`, whose hash
 * is `hash`. */
static HOT_INLINE bool key_is(dlti_key k, const char *s, size_t len, uint64_t hash)
{
    return k->hash == hash && k->len == len && !k->type && dlti_same_bytes(k->str, s, len);
}

/* The string key of `len` bytes at `s`, of hash `hash`, in indexed map `a`. */
static HOT_INLINE const dlti_attr *lookup_hashed(const dlti_attr *a, const char *s, size_t len,
                                                 uint64_t hash)
{
    size_t mask = a->index_mask;
    if (!mask)
        return dlti_lookup_string_compact(a, s, len, hash);
    const dlti_entry_rec *slots = a->u.c.index;
    for (size_t j = hash & mask;; j = (j + 1) & mask) {
        dlti_key k = slots[j].key;
        if (!k)
            return NULL;
        if (key_is(k, s, len, hash))
            return slots[j].value;
    }
}

/* Lookup by the key's bytes: no interning, so it only reads; small maps
 * compare bytes instead of hashing. */
static HOT_INLINE const dlti_attr *lookup_string(const dlti_attr *a, const char *s)
{
    const dlti_entry_rec *e = a->u.c.entries;
    if (!a->u.c.index) {
        for (size_t i = 0, n = a->n; i < n; i++)
            if (key_is_cstring(e[i].key, s))
                return e[i].value;
        return NULL;
    }
    size_t len;
    uint64_t hash = dlti_hash_cstring(s, &len);
    return lookup_hashed(a, s, len, hash);
}

#endif
