/* Key lookups in DLTI containers: the hash index of a large map, and the
 * lookups by handle, by bytes and by C string that the rest of the library
 * calls (the hot steps are inline in lookup.h). */
#include "lookup.h"

/* lookup_handle() in a map of more than DLTI_INDEX_COMPACT entries (4-byte
 * slots), out of line: the common path stays small. */
COLD const dlti_attr *dlti_lookup_compact(const dlti_attr *a, dlti_key key)
{
    const dlti_entry_rec *e = a->u.c.entries;
    const uint32_t *slots = a->u.c.index;
    uint32_t mask = dlti_index_mask(a->n);
    unsigned bits = dlti_index_pos_bits(a->n);
    uint32_t tag = dlti_index_tag(key->hash, bits), pos = ((uint32_t)1 << bits) - 1;
    for (size_t j = key->hash & mask;; j = (j + 1) & mask) {
        uint32_t s = slots[j];
        if (!s)
            return NULL;
        if (s >> bits == tag && e[(s & pos) - 1].key == key)
            return e[(s & pos) - 1].value;
    }
}

/* lookup_string() in a map of more than DLTI_INDEX_COMPACT entries. */
COLD const dlti_attr *dlti_lookup_string_compact(const dlti_attr *a, const char *s, size_t len,
                                                   uint64_t hash)
{
    const dlti_entry_rec *e = a->u.c.entries;
    const uint32_t *slots = a->u.c.index;
    uint32_t mask = dlti_index_mask(a->n);
    unsigned bits = dlti_index_pos_bits(a->n);
    uint32_t tag = dlti_index_tag(hash, bits), pos = ((uint32_t)1 << bits) - 1;
    for (size_t j = hash & mask;; j = (j + 1) & mask) {
        uint32_t i = slots[j];
        if (!i)
            return NULL;
        if (i >> bits != tag)
            continue;
        if (key_is(e[(i & pos) - 1].key, s, len, hash))
            return e[(i & pos) - 1].value;
    }
}

const dlti_attr *dlti_attr_lookup(const dlti_attr *a, dlti_key key)
{
    if (!a || !key || !dlti_attr_is_container(a->kind))
        return NULL;
    return lookup_handle(a, key);
}

const dlti_attr *dlti_attr_lookup_string(const dlti_attr *a, const char *s, size_t len)
{
    if (!a || !s || !dlti_attr_is_container(a->kind))
        return NULL;
    const dlti_entry_rec *e = a->u.c.entries;
    if (!a->u.c.index) {
        for (size_t i = 0, n = a->n; i < n; i++) {
            dlti_key k = e[i].key;
            if (k->len == len && !k->type && dlti_same_bytes(k->str, s, len))
                return e[i].value;
        }
        return NULL;
    }
    return lookup_hashed(a, s, len, dlti_hash_inline(s, len));
}

const dlti_attr *dlti_lookup_cstring(const dlti_attr *a, const char *s)
{
    return a && dlti_attr_is_container(a->kind) ? lookup_string(a, s) : NULL;
}
