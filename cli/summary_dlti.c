/* summary: DLTI that is no system spec, as a lenient load takes it
 * (docs/checks.md, "Lenient transforms"): one block per DLTI attribute of
 * the op.  A #dlti.map (`mpi.dlti`) shows its entries, nested maps as
 * sub-labels; a data layout its entries in words (the ABI and preferred
 * alignments of a type); a device spec, alone or in an array, is a device
 * block as a system's devices are, then the keys the schema does not know
 * (a system's devices show the schema's keys only: its own keys belong
 * under `extra`; DLTI that is no system is no description of the schema's). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TITLE 200

/* A key of the user's as a label: cleaned for the terminal, owned by the line. */
static bool add_keyed(sum_device *d, const char *key, size_t len, const char *sub,
                      size_t sub_len, sum_buf *value, bool list)
{
    char *label = NULL;
    if (key) {
        sum_buf t = {0};
        sum_buf_clean(&t, key, len);
        if (!(label = sum_buf_take(&t))) {
            free(sum_buf_take(value));
            d->failed = true;
            return false;
        }
    }
    if (!sum_add_line(d, label, sub, sub_len, value, list)) {
        free(label);
        return false;
    }
    d->lines[d->n - 1].label_owned = label != NULL;
    return true;
}

/* An entry's key as text: a string key, or a type key as MLIR prints it. */
static const char *key_text(const dlti_attr *c, size_t i, size_t *len)
{
    dlti_key k = dlti_attr_entry_key(c, i);
    const char *s = dlti_key_str(k, len);
    if (!s) {
        s = dlti_type_str(dlti_key_get_type(k));
        *len = strlen(s);
    }
    return s;
}

/* A data layout entry in words: `dense<[abi, preferred]>` of a type, the
 * four bit counts of a pointer; anything else as a value. */
static void layout_value(sum_buf *b, bool type_key, const dlti_attr *v)
{
    int64_t x[4];
    /* the vector's length: a splat (dense<64> : vector<2xi64>) holds one */
    const dlti_type *t = dlti_attr_type(v);
    int64_t n = dlti_attr_get_kind(v) == DLTI_ATTR_DENSE && dlti_type_rank(t) == 1
                    ? dlti_type_dim(t, 0)
                    : 0;
    bool ints = type_key && (n == 2 || n == 4);
    for (int64_t i = 0; ints && i < n; i++)
        ints = dlti_attr_dense_int64(v, (size_t)i, &x[i], NULL) == 0;
    if (ints && n == 2)
        sum_buf_printf(b, "ABI %lld bits, preferred %lld", (long long)x[0], (long long)x[1]);
    else if (ints)
        sum_buf_printf(b, "%lld bits, ABI %lld, preferred %lld, index %lld", (long long)x[0],
                       (long long)x[1], (long long)x[2], (long long)x[3]);
    else
        sum_value(b, v, NULL, "", NULL);
}

/* The entries of a map or a data layout, nested containers as sub-lines
 * ("cache  L1.size  32768"); `prefix` is the path of `c` below the
 * top-level entry `label` (NULL at the top). */
static bool entry_lines(sum_device *d, const dlti_attr *c, const char *label, size_t label_len,
                        const char *prefix, bool *first, unsigned depth)
{
    bool layout = dlti_attr_get_kind(c) == DLTI_ATTR_DL_SPEC;
    for (size_t i = 0; i < dlti_attr_size(c) && !d->failed; i++) {
        size_t len;
        const char *k = key_text(c, i, &len);
        const dlti_attr *v = dlti_attr_entry_value(c, i);
        bool nested = dlti_attr_get_kind(v) == DLTI_ATTR_MAP && dlti_attr_size(v) > 0 && depth < 8;
        if (!label) { /* a top-level entry: its own group */
            d->group++;
            bool head = true;
            if (nested) {
                if (!entry_lines(d, v, k, len, "", &head, depth + 1))
                    return false;
                continue;
            }
            sum_buf b = {0};
            bool list = false;
            if (layout)
                layout_value(&b, !dlti_key_str(dlti_attr_entry_key(c, i), NULL), v);
            else
                sum_value(&b, v, NULL, "", &list);
            if (!add_keyed(d, k, len, NULL, 0, &b, list))
                return false;
            continue;
        }
        sum_buf path = {0};
        sum_buf_str(&path, prefix);
        sum_buf_str(&path, *prefix ? "." : "");
        sum_buf_add(&path, k, len);
        char *p = sum_buf_take(&path);
        if (!p) {
            d->failed = true;
            return false;
        }
        bool ok;
        if (nested) {
            ok = entry_lines(d, v, label, label_len, p, first, depth + 1);
        } else {
            sum_buf b = {0};
            bool list = false;
            sum_value(&b, v, NULL, "", &list);
            ok = add_keyed(d, *first ? label : NULL, label_len, p, strlen(p), &b, list);
            *first = false;
        }
        free(p);
        if (!ok)
            return false;
    }
    return !d->failed;
}

static bool other_keys(sum_device *d)
{
    for (size_t i = 0; i < dlti_attr_size(d->dev) && !d->failed; i++) {
        size_t len;
        const char *k = key_text(d->dev, i, &len);
        bool known = strlen(k) == len && sysdesc_schema_find(d->type, k);
        if (known)
            continue;
        const dlti_attr *v = dlti_attr_entry_value(d->dev, i);
        d->group++;
        if (dlti_attr_get_kind(v) == DLTI_ATTR_MAP && dlti_attr_size(v) > 0) {
            bool head = true;
            if (!entry_lines(d, v, k, len, "", &head, 1))
                return false;
            continue;
        }
        sum_buf b = {0};
        bool list = false;
        sum_value(&b, v, NULL, "", &list);
        if (!add_keyed(d, k, len, NULL, 0, &b, list))
            return false;
    }
    return !d->failed;
}

/* A device spec's block, as a system's device's. */
static bool device_lines(sum_device *d, const char *id)
{
    d->type = sum_get_str(d, d->dev, "device_type");
    if (!d->type) {
        unsigned bits = sysdesc_device_type_bits(id, d->dev);
        d->type = bits == SYSDESC_DEVICE_CPU ? "CPU" : bits == SYSDESC_DEVICE_GPU ? "GPU" : NULL;
    }
    return sum_device_lines(d) && other_keys(d);
}

typedef struct walker {
    const dlti_context *ctx;
    sum_block_fn block;
    void *user;
    bool failed;
} walker;

static void emit(walker *w, const char *title, sum_device *d)
{
    if (!d->failed)
        w->block(w->user, title, d);
    w->failed |= d->failed;
    sum_device_free(d);
}

/* The blocks of one value named `title`: a container is one block, an
 * array one per element (title[i]) and one for its other elements. */
static void value_blocks(walker *w, const char *title, const dlti_attr *v, unsigned depth)
{
    sum_device d = {w->ctx, v, NULL, NULL, 0, 0, 0, false};
    switch (dlti_attr_get_kind(v)) {
    case DLTI_ATTR_MAP: {
        bool head = true;
        d.type = "#dlti.map";
        entry_lines(&d, v, NULL, 0, NULL, &head, 0);
        emit(w, title, &d);
        return;
    }
    case DLTI_ATTR_DL_SPEC: {
        bool head = true;
        d.type = "data layout";
        entry_lines(&d, v, NULL, 0, NULL, &head, 0);
        emit(w, title, &d);
        return;
    }
    case DLTI_ATTR_DEVICE_SPEC:
        device_lines(&d, title);
        emit(w, title, &d);
        return;
    case DLTI_ATTR_ARRAY:
        break;
    default: /* a system spec is no DLTI the lenient load leaves to this */
        return;
    }
    d.type = "array";
    for (size_t i = 0; i < dlti_attr_size(v) && !w->failed; i++) {
        const dlti_attr *e = dlti_attr_element(v, i);
        char at[MAX_TITLE + 32];
        snprintf(at, sizeof(at), "%.*s[%zu]", MAX_TITLE, title, i);
        if (sysdesc_is_dlti_value(e) && depth < 8) {
            value_blocks(w, at, e, depth + 1);
        } else {
            sum_buf b = {0};
            bool list = false;
            sum_value(&b, e, NULL, "", &list);
            add_keyed(&d, at, strlen(at), NULL, 0, &b, list);
        }
    }
    if (d.n)
        emit(w, title, &d);
    else
        sum_device_free(&d);
}

bool sum_dlti_blocks(const dlti_context *ctx, const sysdesc_system *sys, sum_block_fn block,
                     void *user)
{
    walker w = {ctx, block, user, false};
    const dlti_scope *op = sys->module;
    bool own_layout = false;
    for (size_t i = 0; op && i < dlti_scope_num_attrs(op) && !w.failed; i++) {
        const dlti_attr *v = dlti_scope_attr_value(op, i);
        if (!sysdesc_is_dlti_value(v))
            continue;
        own_layout |= v == sys->dl_spec;
        char title[MAX_TITLE + 1];
        snprintf(title, sizeof(title), "%s", dlti_scope_attr_name(op, i));
        value_blocks(&w, title, v, 0);
    }
    /* the layout in force at an op that has none of its own: its module's */
    if (sys->dl_spec && !own_layout && !w.failed)
        value_blocks(&w, "dlti.dl_spec", sys->dl_spec, 0);
    return !w.failed;
}
