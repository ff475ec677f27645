/* Queries: one attribute, a path of keys, and scopes searched outward. */
#include "dlti_private.h"
#include "lookup.h"

#include <stdlib.h>
#include <string.h>

/* Keys arrive as handles (dlti_query) or as C strings (dlti_query_strings);
 * messages print either kind the same way. */
typedef struct key_list {
    const dlti_key *handles;
    const char *const *strings;
} key_list;

static void print_list_key(bs_buf *b, key_list keys, size_t i)
{
    if (keys.handles)
        dlti_print_key(b, keys.handles[i]);
    else
        dlti_print_string(b, keys.strings[i], strlen(keys.strings[i]));
}

/* MLIR's notes, with the attribute printed as MLIR prints it. */
static void fail_no_mapping(dlti_error_t *err, key_list keys, size_t i, const dlti_attr *attr)
{
    if (!err)
        return;
    bs_buf b = {0};
    bs_buf_puts(&b, "key ");
    print_list_key(&b, keys, i);
    bs_buf_puts(&b, " has no DLTI-mapping per attr: ");
    dlti_print_attr(&b, attr, false);
    bs_error_set(err, DLTI_ERROR_NOT_FOUND, "%s", b.failed ? "key has no DLTI-mapping" : b.data);
    free(b.data);
}

static void fail_not_queryable(dlti_error_t *err, key_list keys, size_t upto)
{
    if (!err)
        return;
    bs_buf b = {0};
    bs_buf_puts(&b, "got non-DLTI-queryable attribute upon looking up keys [");
    for (size_t i = 0; i < upto; i++) {
        if (i)
            bs_buf_putc(&b, ',');
        print_list_key(&b, keys, i);
    }
    bs_buf_puts(&b, "] at op");
    bs_error_set(err, DLTI_ERROR_NOT_FOUND, "%s", b.failed ? "non-DLTI-queryable" : b.data);
    free(b.data);
}

static bool no_keys(size_t n, dlti_error_t *err)
{
    if (n == 0)
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no keys provided to attempt query with");
    return n == 0;
}

static void fail_no_queryable_attrs(dlti_error_t *err)
{
    bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                 "no DLTI-queryable attrs on target op or any of its ancestors");
}

/* The steps of a path from keys[from] on, as MLIR's query takes them. */
static const dlti_attr *resolve_rest(const dlti_attr *cur, const dlti_key *keys, size_t n,
                                     size_t from, dlti_error_t *err)
{
    for (size_t i = from; i < n; i++) {
        if (!dlti_attr_is_container(cur->kind)) {
            fail_not_queryable(err, (key_list){keys, NULL}, i);
            return NULL;
        }
        const dlti_attr *next = lookup_handle(cur, keys[i]);
        if (!next) {
            fail_no_mapping(err, (key_list){keys, NULL}, i, cur);
            return NULL;
        }
        cur = next;
    }
    return cur;
}

/* dlti_cluster_device() for a key handle (a type key names no device). */
static const dlti_attr *cluster_device_key(const dlti_attr *spec, dlti_key key)
{
    return key && !key->type ? dlti_cluster_device(spec, key->str, key->len) : NULL;
}

const dlti_attr *dlti_attr_query(const dlti_attr *attr, const dlti_key *keys, size_t n,
                                 dlti_error_t *err)
{
    if (no_keys(n, err))
        return NULL;
    if (!attr || !dlti_attr_is_container(attr->kind)) {
        fail_no_queryable_attrs(err);
        return NULL;
    }
    if (attr->kind == DLTI_ATTR_SYSTEM_SPEC && !lookup_handle(attr, keys[0])) {
        const dlti_attr *dev = cluster_device_key(attr, keys[0]);
        if (dev)
            return resolve_rest(dev, keys, n, 1, err);
    }
    return resolve_rest(attr, keys, n, 0, err);
}

const dlti_attr *dlti_query(const dlti_scope *scope, const dlti_key *keys, size_t n,
                            dlti_error_t *err)
{
    if (no_keys(n, err))
        return NULL;
    const dlti_attr *nearest = NULL; /* the attribute whose miss MLIR would report */
    for (const dlti_scope *s = scope; s; s = s->parent) {
        for (size_t i = 0; i < s->num_attrs; i++) {
            const dlti_attr *a = s->attrs[i].value;
            if (!dlti_attr_is_container(a->kind))
                continue;
            if (!nearest)
                nearest = a;
            const dlti_attr *first = lookup_handle(a, keys[0]);
            if (!first && a->kind == DLTI_ATTR_SYSTEM_SPEC)
                first = cluster_device_key(a, keys[0]);
            if (first)
                return resolve_rest(first, keys, n, 1, err);
        }
    }
    if (!nearest)
        fail_no_queryable_attrs(err);
    else
        fail_no_mapping(err, (key_list){keys, NULL}, 0, nearest);
    return NULL;
}

const dlti_attr *dlti_query_mlir22(const dlti_scope *scope, const dlti_key *keys, size_t n,
                                   dlti_error_t *err)
{
    if (no_keys(n, err))
        return NULL;
    for (const dlti_scope *s = scope; s; s = s->parent)
        for (size_t i = 0; i < s->num_attrs; i++)
            if (dlti_attr_is_container(s->attrs[i].value->kind) && !s->attrs[i].property)
                return resolve_rest(s->attrs[i].value, keys, n, 0, err);
    fail_no_queryable_attrs(err);
    return NULL;
}

/* The keys after the first, looked up by their bytes from `cur`. */
static const dlti_attr *walk_strings(const dlti_attr *cur, key_list list, size_t n,
                                     dlti_error_t *err)
{
    for (size_t i = 1; i < n; i++) {
        if (!dlti_attr_is_container(cur->kind)) {
            fail_not_queryable(err, list, i);
            return NULL;
        }
        const dlti_attr *next = lookup_string(cur, list.strings[i]);
        if (!next) {
            fail_no_mapping(err, list, i, cur);
            return NULL;
        }
        cur = next;
    }
    return cur;
}

const dlti_attr *dlti_query_strings(const dlti_scope *scope, const char *const *keys, size_t n,
                                    dlti_error_t *err)
{
    if (no_keys(n, err))
        return NULL;
    key_list list = {NULL, keys};
    const dlti_attr *nearest = NULL, *cur = NULL;
    for (const dlti_scope *s = scope; s && !cur; s = s->parent) {
        for (size_t i = 0; i < s->num_attrs && !cur; i++) {
            const dlti_attr *a = s->attrs[i].value;
            if (!dlti_attr_is_container(a->kind))
                continue;
            if (!nearest)
                nearest = a;
            cur = lookup_string(a, keys[0]);
            if (!cur && a->kind == DLTI_ATTR_SYSTEM_SPEC)
                cur = dlti_cluster_device(a, keys[0], strlen(keys[0]));
        }
    }
    if (!cur) {
        if (!nearest)
            fail_no_queryable_attrs(err);
        else
            fail_no_mapping(err, list, 0, nearest);
        return NULL;
    }
    return walk_strings(cur, list, n, err);
}

const dlti_attr *dlti_attr_query_strings(const dlti_attr *attr, const char *const *keys, size_t n,
                                         dlti_error_t *err)
{
    if (no_keys(n, err))
        return NULL;
    if (!attr || !dlti_attr_is_container(attr->kind)) {
        fail_no_queryable_attrs(err);
        return NULL;
    }
    key_list list = {NULL, keys};
    const dlti_attr *cur = lookup_string(attr, keys[0]);
    if (!cur && attr->kind == DLTI_ATTR_SYSTEM_SPEC)
        cur = dlti_cluster_device(attr, keys[0], strlen(keys[0]));
    if (!cur) {
        fail_no_mapping(err, list, 0, attr);
        return NULL;
    }
    return walk_strings(cur, list, n, err);
}
