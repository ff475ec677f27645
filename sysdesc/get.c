/* Typed getters (sysdesc/get.h): a dotted path from a system to a C value,
 * with a status instead of an error, for tuners that read a dozen keys. */
#include "sysdesc_private.h"
#include "sysdesc/get.h"

#include <stdint.h>
#include <string.h>

/* The most lookups one path may cost.  A path resolves in one lookup per
 * key unless keys holding dots make the shortest-first walk go back; this
 * bounds a walk over a map built to make it go back at every level. */
#define LOOKUP_BUDGET 4096u

/* The value of the `len` bytes at `s` in `a`.  On a system spec a key that
 * is no device id may be a cluster node's ("cn017.GPU3"), answered through
 * its class as every query answers it (docs/queries.md). */
static const dlti_attr *lookup(const dlti_attr *a, const char *s, size_t len)
{
    const dlti_attr *v = dlti_attr_lookup_string(a, s, len);
    if (v || dlti_attr_get_kind(a) != DLTI_ATTR_SYSTEM_SPEC || !memchr(s, '.', len))
        return v;
    char id[512];
    if (len >= sizeof id)
        return NULL;
    memcpy(id, s, len);
    id[len] = '\0';
    const char *key = id;
    return dlti_attr_query_strings(a, &key, 1, NULL);
}

/* An array index: one to nine decimal digits (no array holds more elements). */
static bool index_of(const char *s, size_t len, size_t *out)
{
    size_t v = 0;
    if (len == 0 || len > 9)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    *out = v;
    return true;
}

/* The value at `path` below `a`: the shortest key first, a longer one (up
 * to a later '.') when the rest is not found under it; below an array, a
 * key of digits is an element. */
static const dlti_attr *resolve(const dlti_attr *a, const char *path, unsigned *budget)
{
    size_t i;
    if (dlti_attr_get_kind(a) == DLTI_ATTR_ARRAY) {
        const char *end = strchr(path, '.');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (!index_of(path, len, &i) || i >= dlti_attr_size(a) || *budget == 0)
            return NULL;
        --*budget;
        const dlti_attr *v = dlti_attr_element(a, i);
        return end ? (end[1] ? resolve(v, end + 1, budget) : NULL) : v;
    }
    if (!dlti_attr_is_queryable(a))
        return NULL;
    for (const char *end = strchr(path, '.');; end = strchr(end + 1, '.')) {
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len == 0 || *budget == 0)
            return NULL;
        --*budget;
        const dlti_attr *v = lookup(a, path, len);
        if (v && !end)
            return v;
        if (v && end[1] != '\0') {
            const dlti_attr *found = resolve(v, end + 1, budget);
            if (found)
                return found;
        }
        if (!end)
            return NULL;
    }
}

const dlti_attr *sysdesc_attr_at(const dlti_attr *root, const char *path)
{
    unsigned budget = LOOKUP_BUDGET;
    return root && path && *path ? resolve(root, path, &budget) : NULL;
}

const dlti_attr *sysdesc_get_attr(const sysdesc_system *sys, const char *path)
{
    return sys ? sysdesc_attr_at(sys->spec, path) : NULL;
}

const char *sysdesc_get_status_name(sysdesc_get_status status)
{
    switch (status) {
    case SYSDESC_FOUND:
        return "found";
    case SYSDESC_ABSENT:
        return "absent";
    case SYSDESC_WRONG_TYPE:
        return "wrong type";
    }
    return "unknown status";
}

/* What a path names: an attribute, or an element of a dense array (which
 * has no attribute of its own: `dense` and `index`). */
typedef struct found {
    const dlti_attr *value;
    const dlti_attr *dense;
    size_t index;
} found;

/* The value at `path` when there is one and `out` can take it. */
static bool locate(const sysdesc_system *sys, const char *path, const void *out, found *f)
{
    f->dense = NULL;
    f->value = NULL;
    if (!out || !path)
        return false;
    if ((f->value = sysdesc_get_attr(sys, path)))
        return true;
    /* "GPU.max_work_sizes.0": the last key an index into a dense array */
    const char *dot = strrchr(path, '.');
    char parent[512];
    size_t plen = dot ? (size_t)(dot - path) : 0;
    if (!dot || plen >= sizeof parent || !index_of(dot + 1, strlen(dot + 1), &f->index))
        return false;
    memcpy(parent, path, plen);
    parent[plen] = '\0';
    const dlti_attr *d = sysdesc_get_attr(sys, parent);
    if (!d || dlti_attr_get_kind(d) != DLTI_ATTR_DENSE_ARRAY || f->index >= dlti_attr_size(d))
        return false;
    f->dense = d;
    return true;
}

sysdesc_get_status sysdesc_get_i64(const sysdesc_system *sys, const char *path, int64_t *out)
{
    found f;
    if (!locate(sys, path, out, &f))
        return SYSDESC_ABSENT;
    int64_t x;
    if (f.dense ? dlti_attr_dense_int64(f.dense, f.index, &x, NULL) != 0
                : dlti_attr_get_kind(f.value) != DLTI_ATTR_INTEGER ||
                      dlti_attr_get_int64(f.value, &x, NULL) != 0)
        return SYSDESC_WRONG_TYPE;
    *out = x;
    return SYSDESC_FOUND;
}

sysdesc_get_status sysdesc_get_f64(const sysdesc_system *sys, const char *path, double *out)
{
    found f;
    if (!locate(sys, path, out, &f))
        return SYSDESC_ABSENT;
    double x;
    int64_t i;
    if (f.dense) {
        /* integer elements as the typed reader converts integers */
        if (dlti_attr_dense_int64(f.dense, f.index, &i, NULL) == 0)
            x = (double)i;
        else if (dlti_attr_dense_double(f.dense, f.index, &x, NULL) != 0)
            return SYSDESC_WRONG_TYPE;
    } else {
        dlti_attr_kind kind = dlti_attr_get_kind(f.value);
        if ((kind != DLTI_ATTR_FLOAT && kind != DLTI_ATTR_INTEGER) ||
            dlti_attr_get_double(f.value, &x, NULL) != 0)
            return SYSDESC_WRONG_TYPE;
    }
    *out = x;
    return SYSDESC_FOUND;
}

sysdesc_get_status sysdesc_get_bool(const sysdesc_system *sys, const char *path, bool *out)
{
    found f;
    if (!locate(sys, path, out, &f))
        return SYSDESC_ABSENT;
    if (f.dense)
        return SYSDESC_WRONG_TYPE;
    const dlti_attr *v = f.value;
    bool x;
    if (dlti_attr_get_kind(v) != DLTI_ATTR_BOOL || dlti_attr_get_bool(v, &x, NULL) != 0)
        return SYSDESC_WRONG_TYPE;
    *out = x;
    return SYSDESC_FOUND;
}

sysdesc_get_status sysdesc_get_str(const sysdesc_system *sys, const char *path, const char **out)
{
    found f;
    if (!locate(sys, path, out, &f))
        return SYSDESC_ABSENT;
    if (f.dense)
        return SYSDESC_WRONG_TYPE;
    const dlti_attr *v = f.value;
    const char *s;
    size_t len;
    /* a string holding NUL would reach C cut short: not a C string */
    if (dlti_attr_get_kind(v) != DLTI_ATTR_STRING || dlti_attr_get_string(v, &s, &len, NULL) != 0 ||
        memchr(s, '\0', len))
        return SYSDESC_WRONG_TYPE;
    *out = s;
    return SYSDESC_FOUND;
}
