/* MLIR's failure note of a query with the attribute printed whole
 * (dlti_query_note in dlti.h): a dlti_error_t's text is cut at
 * DLTI_ERROR_TEXT_LENGTH, and a device or a system spec printed whole is
 * often longer; mlir-opt-22 prints it whole, and so does `sysdesc query`. */
#include "dlti_private.h"
#include "lookup.h"

#include <stdlib.h>

/* A container's value for the first key, a system spec's per-node cluster
 * ids included, as the queries of query.c look it up. */
static const dlti_attr *first_step(const dlti_attr *a, dlti_key key)
{
    const dlti_attr *next = lookup_handle(a, key);
    if (!next && a->kind == DLTI_ATTR_SYSTEM_SPEC && !key->type)
        next = dlti_cluster_device(a, key->str, key->len);
    return next;
}

/* The container that lacks keys[*at] on the path from `cur`, with *at set;
 * NULL when the path is there or stops at a value that is no container
 * (the notes of those fit in an error's text). */
static const dlti_attr *missing_at(const dlti_attr *cur, const dlti_key *keys, size_t n,
                                   size_t from, size_t *at)
{
    for (size_t i = from; i < n; i++) {
        if (!dlti_attr_is_container(cur->kind))
            return NULL;
        const dlti_attr *next = i == 0 ? first_step(cur, keys[i]) : lookup_handle(cur, keys[i]);
        if (!next) {
            *at = i;
            return cur;
        }
        cur = next;
    }
    return NULL;
}

/* Where dlti_query (scope) or dlti_attr_query (attr) reports a missing key. */
static const dlti_attr *find_missing(const dlti_scope *scope, const dlti_attr *attr,
                                     const dlti_key *keys, size_t n, size_t *at)
{
    if (!scope)
        return attr && dlti_attr_is_container(attr->kind) ? missing_at(attr, keys, n, 0, at)
                                                           : NULL;
    const dlti_attr *nearest = NULL;
    for (const dlti_scope *s = scope; s; s = s->parent) {
        for (size_t i = 0; i < s->num_attrs; i++) {
            const dlti_attr *a = s->attrs[i].value;
            if (!dlti_attr_is_container(a->kind))
                continue;
            if (!nearest)
                nearest = a;
            const dlti_attr *first = first_step(a, keys[0]);
            if (first)
                return missing_at(first, keys, n, 1, at);
        }
    }
    *at = 0;
    return nearest;
}

char *dlti_query_note(const dlti_scope *scope, const dlti_attr *attr, const dlti_key *keys,
                      size_t n)
{
    dlti_error_t err;
    const dlti_attr *found = scope ? dlti_query(scope, keys, n, &err)
                                   : dlti_attr_query(attr, keys, n, &err);
    if (found || err.code == DLTI_ERROR_NOMEM)
        return NULL;
    size_t at = 0;
    const dlti_attr *where = n ? find_missing(scope, attr, keys, n, &at) : NULL;
    bs_buf b = {0};
    if (where) {
        bs_buf_puts(&b, "key ");
        dlti_print_key(&b, keys[at]);
        bs_buf_puts(&b, " has no DLTI-mapping per attr: ");
        dlti_print_attr(&b, where, false);
    } else {
        bs_buf_puts(&b, err.text);
    }
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return b.data;
}
