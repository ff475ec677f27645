/* Key lookups in DLTI containers by handle, by bytes and by C string, as
 * the rest of the library calls them (the steps are inline in lookup.h). */
#include "lookup.h"

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
            if (k->len == len && !k->type && bs_same_bytes(k->str, s, len))
                return e[i].value;
        }
        return NULL;
    }
    return lookup_hashed(a, s, len, bs_hash_inline(s, len));
}

const dlti_attr *dlti_lookup_cstring(const dlti_attr *a, const char *s)
{
    return a && dlti_attr_is_container(a->kind) ? lookup_string(a, s) : NULL;
}
