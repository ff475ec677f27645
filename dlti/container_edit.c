/* The public container builders: arguments checked, DL specs verified
 * (verify.c), nesting bounded; a key or a key path set or removed, each
 * level rebuilt (the attributes are immutable). */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

const dlti_attr *dlti_container_new(dlti_context *ctx, dlti_attr_kind kind,
                                    const dlti_entry *entries, size_t n, dlti_error_t *err)
{
    if (!dlti_attr_is_container(kind)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "not a DLTI container kind: %s",
                     dlti_attr_kind_name(kind));
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!entries[i].key || !entries[i].value) {
            bs_error_set(err, DLTI_ERROR_ARGUMENT, "entry %zu has no key or no value", i);
            return NULL;
        }
    }
    /* dlti_entry and dlti_entry_rec have the same layout by construction. */
    const dlti_entry_rec *recs = (const dlti_entry_rec *)entries;
    const dlti_attr *a = dlti_container_build(ctx, kind, recs, n, err, NULL);
    if (a && kind == DLTI_ATTR_DL_SPEC && dlti_dl_spec_check(a, err) != 0)
        return NULL;
    return dlti_attr_within_depth(ctx, a, err);
}

const dlti_attr *dlti_container_set(dlti_context *ctx, const dlti_attr *c, dlti_key key,
                                    const dlti_attr *value, dlti_error_t *err)
{
    if (!c || !dlti_attr_is_container(c->kind) || !key) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "dlti_container_set needs a container and a key");
        return NULL;
    }
    size_t n = c->n;
    dlti_entry *e = malloc((n + 1) * sizeof(*e));
    if (!e) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    size_t m = 0;
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        if (c->u.c.entries[i].key == key) {
            found = true;
            if (!value)
                continue;
            e[m].key = key;
            e[m++].value = value;
        } else {
            e[m].key = c->u.c.entries[i].key;
            e[m++].value = c->u.c.entries[i].value;
        }
    }
    if (!found && value) {
        e[m].key = key;
        e[m++].value = value;
    }
    const dlti_attr *r = dlti_container_new(ctx, c->kind, e, m, err);
    free(e);
    return r;
}

const dlti_attr *dlti_container_set_path(dlti_context *ctx, const dlti_attr *c,
                                         const dlti_key *keys, size_t n, const dlti_attr *value,
                                         dlti_error_t *err)
{
    if (n == 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no keys provided");
        return NULL;
    }
    if (!c || !dlti_attr_is_container(c->kind)) {
        bs_error_set(err, DLTI_ERROR_TYPE, "cannot set a key inside a non-DLTI attribute");
        return NULL;
    }
    /* Each key is a level, and this recursion takes one frame per key. */
    if (n >= dlti_max_height(ctx)) {
        bs_error_set(err, DLTI_ERROR_LIMIT,
                     "a path of %zu keys nests deeper than the limit of %u", n,
                     ctx->limits.max_depth);
        return NULL;
    }
    if (n == 1)
        return dlti_container_set(ctx, c, keys[0], value, err);
    const dlti_attr *child = dlti_attr_lookup(c, keys[0]);
    if (!child) {
        if (!value)
            return c; /* removing below a missing level changes nothing */
        child = dlti_container_make(ctx, DLTI_ATTR_MAP, NULL, 0);
        if (!child) {
            dlti_context_nomem(ctx, err);
            return NULL;
        }
    }
    const dlti_attr *inner = dlti_container_set_path(ctx, child, keys + 1, n - 1, value, err);
    if (!inner)
        return NULL;
    return dlti_container_set(ctx, c, keys[0], inner, err);
}
