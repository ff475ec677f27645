/* Queries: one attribute, a path of keys, and scopes searched outward. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const dlti_attr *dlti_attr_lookup(const dlti_attr *a, dlti_key key)
{
    if (!a || !key || !dlti_attr_is_container(a->kind))
        return NULL;
    const dlti_entry_rec *e = a->u.c.entries;
    if (!a->u.c.index) {
        for (size_t i = 0; i < a->n; i++)
            if (e[i].key == key)
                return e[i].value;
        return NULL;
    }
    const uint32_t *slots = a->u.c.index;
    uint32_t mask = a->u.c.index_mask;
    for (size_t j = key->hash & mask;; j = (j + 1) & mask) {
        uint32_t s = slots[j];
        if (!s)
            return NULL;
        if (e[s - 1].key == key)
            return e[s - 1].value;
    }
}

static void key_text(dlti_buf *b, dlti_key key)
{
    dlti_print_key(b, key);
}

/* MLIR's notes, with the attribute printed as MLIR prints it. */
static void fail_no_mapping(dlti_error_t *err, dlti_key key, const dlti_attr *attr)
{
    if (!err)
        return;
    dlti_buf b = {0};
    dlti_buf_puts(&b, "key ");
    key_text(&b, key);
    dlti_buf_puts(&b, " has no DLTI-mapping per attr: ");
    dlti_print_attr(&b, attr, false);
    dlti_error_set(err, DLTI_ERROR_NOT_FOUND, "%s", b.failed ? "key has no DLTI-mapping" : b.data);
    free(b.data);
}

static void fail_not_queryable(dlti_error_t *err, const dlti_key *keys, size_t upto)
{
    if (!err)
        return;
    dlti_buf b = {0};
    dlti_buf_puts(&b, "got non-DLTI-queryable attribute upon looking up keys [");
    for (size_t i = 0; i < upto; i++) {
        if (i)
            dlti_buf_putc(&b, ',');
        key_text(&b, keys[i]);
    }
    dlti_buf_puts(&b, "] at op");
    dlti_error_set(err, DLTI_ERROR_NOT_FOUND, "%s", b.failed ? "non-DLTI-queryable" : b.data);
    free(b.data);
}

static const dlti_attr *resolve_rest(const dlti_attr *cur, const dlti_key *keys, size_t n,
                                     size_t from, dlti_error_t *err)
{
    for (size_t i = from; i < n; i++) {
        if (!dlti_attr_is_container(cur->kind)) {
            fail_not_queryable(err, keys, i);
            return NULL;
        }
        const dlti_attr *next = dlti_attr_lookup(cur, keys[i]);
        if (!next) {
            fail_no_mapping(err, keys[i], cur);
            return NULL;
        }
        cur = next;
    }
    return cur;
}

const dlti_attr *dlti_attr_query(const dlti_attr *attr, const dlti_key *keys, size_t n,
                                 dlti_error_t *err)
{
    if (n == 0) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND, "no keys provided to attempt query with");
        return NULL;
    }
    if (!attr || !dlti_attr_is_container(attr->kind)) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND,
                       "no DLTI-queryable attrs on target op or any of its ancestors");
        return NULL;
    }
    return resolve_rest(attr, keys, n, 0, err);
}

const dlti_attr *dlti_query(const dlti_scope *scope, const dlti_key *keys, size_t n,
                            dlti_error_t *err)
{
    if (n == 0) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND, "no keys provided to attempt query with");
        return NULL;
    }
    const dlti_attr *nearest = NULL; /* the attribute whose miss MLIR would report */
    for (const dlti_scope *s = scope; s; s = s->parent) {
        for (size_t i = 0; i < s->num_attrs; i++) {
            const dlti_attr *a = s->attrs[i].value;
            if (!dlti_attr_is_container(a->kind))
                continue;
            if (!nearest)
                nearest = a;
            const dlti_attr *first = dlti_attr_lookup(a, keys[0]);
            if (first)
                return resolve_rest(first, keys, n, 1, err);
        }
    }
    if (!nearest) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND,
                       "no DLTI-queryable attrs on target op or any of its ancestors");
        return NULL;
    }
    fail_no_mapping(err, keys[0], nearest);
    return NULL;
}

const dlti_attr *dlti_query_strings(const dlti_scope *scope, const char *const *keys, size_t n,
                                    dlti_error_t *err)
{
    if (n == 0) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND, "no keys provided to attempt query with");
        return NULL;
    }
    /* A key the context has never interned cannot be in any of its attributes. */
    dlti_key small[16];
    dlti_key *handles = n <= 16 ? small : malloc(n * sizeof(dlti_key));
    if (!handles) {
        dlti_error_set(err, DLTI_ERROR_NOMEM, "out of memory");
        return NULL;
    }
    /* Unknown keys get a private node so the failure message can name them. */
    struct dlti_key_node unknown_small[16];
    struct dlti_key_node *unknown = n <= 16 ? unknown_small : malloc(n * sizeof(*unknown));
    if (!unknown) {
        if (handles != small)
            free(handles);
        dlti_error_set(err, DLTI_ERROR_NOMEM, "out of memory");
        return NULL;
    }
    const dlti_context *ctx = scope->ctx;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(keys[i]);
        handles[i] = dlti_key_find(ctx, keys[i], len);
        if (!handles[i]) {
            unknown[i] = (struct dlti_key_node){NULL, dlti_hash_bytes(keys[i], len), len, keys[i]};
            handles[i] = &unknown[i];
        }
    }
    const dlti_attr *r = dlti_query(scope, handles, n, err);
    if (handles != small)
        free(handles);
    if (unknown != unknown_small)
        free(unknown);
    return r;
}
