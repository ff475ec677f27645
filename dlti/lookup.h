/* The lookups of a key in a DLTI container (its entries, or the hash index
 * of a larger one), inline for query.c's walks; lookup.c has the ones the
 * other files call.  Private to dlti/. */
#ifndef SYSDESC_DLTI_LOOKUP_H
#define SYSDESC_DLTI_LOOKUP_H

#include "dlti_private.h"

/* Lookup in a container known to be one; the hot step of every query. */
static inline const dlti_attr *lookup_handle(const dlti_attr *a, dlti_key key)
{
    const dlti_entry_rec *e = a->u.c.entries;
    if (!a->u.c.index) {
        for (size_t i = 0, n = a->n; i < n; i++)
            if (e[i].key == key)
                return e[i].value;
        return NULL;
    }
    size_t mask = dlti_index_mask(a);
    const uint32_t *slots = a->u.c.index;
    for (size_t j = key->hash & mask;; j = (j + 1) & mask) {
        uint32_t pos = slots[j];
        if (!pos)
            return NULL;
        if (e[pos - 1].key == key)
            return e[pos - 1].value;
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
static inline bool key_is(dlti_key k, const char *s, size_t len, uint64_t hash)
{
    return k->hash == hash && k->len == len && !k->type && bs_same_bytes(k->str, s, len);
}

/* The string key of `len` bytes at `s`, of hash `hash`, in indexed map `a`. */
static inline const dlti_attr *lookup_hashed(const dlti_attr *a, const char *s, size_t len,
                                                 uint64_t hash)
{
    size_t mask = dlti_index_mask(a);
    const dlti_entry_rec *e = a->u.c.entries;
    const uint32_t *slots = a->u.c.index;
    for (size_t j = hash & mask;; j = (j + 1) & mask) {
        uint32_t pos = slots[j];
        if (!pos)
            return NULL;
        if (key_is(e[pos - 1].key, s, len, hash))
            return e[pos - 1].value;
    }
}

/* Lookup by the key's bytes: no interning, so it only reads; small maps
 * compare bytes instead of hashing. */
static inline const dlti_attr *lookup_string(const dlti_attr *a, const char *s)
{
    const dlti_entry_rec *e = a->u.c.entries;
    if (!a->u.c.index) {
        for (size_t i = 0, n = a->n; i < n; i++)
            if (key_is_cstring(e[i].key, s))
                return e[i].value;
        return NULL;
    }
    size_t len;
    uint64_t hash = bs_hash_cstring(s, &len);
    return lookup_hashed(a, s, len, hash);
}

#endif
