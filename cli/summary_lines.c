/* summary: the lines of one device, from the device schema
 * (sysdesc/schema.h): every key of the device whose schema entry has a
 * `summary` label, in schema order, its value formatted by the key's unit.
 * A new key with a label needs no code here.  The special cases are the
 * CPU counts (packages, cores and threads on one line), the wildcard levels
 * (cache.*: one line per cache level, size x instances) and maps with named
 * children (peak_ops_per_second: one line per data type). */
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMES " \xc3\x97 " /* " × " */

bool sum_add_line(sum_device *d, const char *label, const char *sub, size_t sub_len,
                     sum_buf *value, bool list)
{
    char *v = sum_buf_take(value), *s = NULL;
    if (v && sub) {
        sum_buf t = {0};
        sum_buf_clean(&t, sub, sub_len);
        s = sum_buf_take(&t);
    }
    if (v && (!sub || s) && d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 32;
        sum_line *l = realloc(d->lines, cap * sizeof(sum_line));
        if (l) {
            d->lines = l;
            d->cap = cap;
        }
    }
    if (!v || (sub && !s) || d->n == d->cap) {
        free(v);
        free(s);
        d->failed = true;
        return false;
    }
    d->lines[d->n++] = (sum_line){label, s, v, list, d->group, false};
    return true;
}

/* The entry `name` (`len` bytes) of map or spec `a`; NULL when absent. */
static const dlti_attr *get_n(const sum_device *d, const dlti_attr *a, const char *name,
                              size_t len)
{
    if (!a || !dlti_attr_is_queryable(a))
        return NULL;
    dlti_key k = dlti_key_find(d->ctx, name, len);
    return k ? dlti_attr_lookup(a, k) : NULL;
}

static const dlti_attr *get(const sum_device *d, const dlti_attr *a, const char *name)
{
    return get_n(d, a, name, strlen(name));
}

/* The entry at dotted `path` ("cache.L1") below `a`; NULL when absent. */
static const dlti_attr *get_path(const sum_device *d, const dlti_attr *a, const char *path)
{
    for (const char *p = path; a && *p;) {
        size_t n = strcspn(p, ".");
        a = get_n(d, a, p, n);
        p += n + (p[n] == '.');
    }
    return a;
}

const char *sum_get_str(const sum_device *d, const dlti_attr *a, const char *name)
{
    const char *s;
    size_t len;
    const dlti_attr *v = get(d, a, name);
    return v && dlti_attr_get_string(v, &s, &len, NULL) == 0 && strlen(s) == len ? s : NULL;
}

static bool get_i64(const sum_device *d, const dlti_attr *a, const char *name, int64_t *out)
{
    const dlti_attr *v = get(d, a, name);
    return v && dlti_attr_get_int64(v, out, NULL) == 0;
}

/* The key's label when the summary shows it for this device, else NULL. */
static const char *label_of(const sum_device *d, const char *path)
{
    const sysdesc_schema_key *k = sysdesc_schema_find(d->type, path);
    return k ? k->summary : NULL;
}

/* Beside a measured value (measured.<path>), its nominal twin when the
 * device has one: " (78% of 3.35 TB/s nominal)".  A GPU's clock compares
 * with max_clock_in_mhz. */
static void nominal_ratio(const sum_device *d, const char *path, const dlti_attr *v, sum_buf *b)
{
    if (strncmp(path, "measured.", 9) != 0)
        return;
    const char *twin = strcmp(path + 9, "frequency_mhz") == 0 ? "max_clock_in_mhz" : path + 9;
    const sysdesc_schema_key *k = sysdesc_schema_find(d->type, twin);
    const dlti_attr *n = k ? get_path(d, d->dev, twin) : NULL;
    double got, nominal;
    if (!n || dlti_attr_get_double(v, &got, NULL) != 0 ||
        dlti_attr_get_double(n, &nominal, NULL) != 0 || !(nominal > 0) || !(got >= 0))
        return;
    double pct = 100 * got / nominal;
    sum_buf_printf(b, pct >= 10 ? " (%.0f%% of " : " (%.2g%% of ", pct);
    sum_number(b, n, k->unit, strrchr(twin, '.') ? strrchr(twin, '.') + 1 : twin);
    sum_buf_str(b, " nominal)");
}

/* "1 package, 2 cores × 1 thread": the counts the schema labels, on one line. */
static bool counts_line(sum_device *d)
{
    static const char *const keys[] = {"num_packages", "num_cores", "num_threads"};
    static const char *const nouns[] = {"package", "core", "thread"};
    int64_t v[3];
    bool have[3];
    const char *label = NULL;
    for (int i = 0; i < 3; i++) {
        const char *l = label_of(d, keys[i]);
        have[i] = l && get_i64(d, d->dev, keys[i], &v[i]);
        if (have[i] && (!label || i == 1))
            label = l;
    }
    if (!label)
        return true;
    sum_buf b = {0};
    for (int i = 0; i < 3; i++) {
        if (!have[i])
            continue;
        bool per_core = i == 2 && have[1] && v[1] > 0 && v[2] % v[1] == 0;
        int64_t n = per_core ? v[2] / v[1] : v[i];
        sum_buf_str(&b, per_core ? TIMES : b.len ? ", " : "");
        sum_buf_printf(&b, "%lld %s%s", (long long)n, nouns[i], n == 1 ? "" : "s");
    }
    return sum_add_line(d, label, NULL, 0, &b, false);
}

/* "L1d" for an L1 of type data, else the level's name. */
static void cache_level_name(const sum_device *d, const dlti_attr *level, const char *name,
                             sum_buf *out)
{
    sum_buf_str(out, name);
    const char *type = sum_get_str(d, level, "type");
    size_t len = strlen(name);
    if (type && strcmp(type, "data") == 0 && len && name[len - 1] != 'd')
        sum_buf_str(out, "d");
}

/* "48 KiB × 2": size of one instance × instances. */
static void cache_level_value(const sum_device *d, const dlti_attr *level,
                              const char *path_prefix, sum_buf *out)
{
    char path[192];
    const dlti_attr *size = get(d, level, "size_in_bytes");
    snprintf(path, sizeof(path), "%s.size_in_bytes", path_prefix);
    const sysdesc_schema_key *k = sysdesc_schema_find(d->type, path);
    if (!size || !sum_number(out, size, k ? k->unit : "bytes", NULL))
        sum_buf_str(out, "?");
    int64_t n;
    if (get_i64(d, level, "num_instances", &n))
        sum_buf_printf(out, TIMES "%lld", (long long)n);
}

/* The children of map `m` (entries with string keys) in the order the
 * parent's schema `names` gives, then the others in their own order.
 * Returns how many, SIZE_MAX when out of memory. */
static size_t ordered_children(const dlti_attr *m, const char *names, size_t *order, size_t max)
{
    size_t n = dlti_attr_size(m), k = 0;
    if (n > max)
        n = max;
    bool *used = calloc(n ? n : 1, sizeof(bool));
    if (!used)
        return SIZE_MAX;
    if (names && strcmp(names, "#") != 0) {
        for (const char *p = names; *p && k < n;) {
            size_t w = strcspn(p, " ");
            for (size_t i = 0; i < n; i++) {
                size_t len;
                const char *s = dlti_key_str(dlti_attr_entry_key(m, i), &len);
                if (!used[i] && s && len == w && memcmp(s, p, w) == 0) {
                    used[i] = true;
                    order[k++] = i;
                }
            }
            p += w;
            p += *p == ' ';
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!used[i] && dlti_key_str(dlti_attr_entry_key(m, i), NULL))
            order[k++] = i;
    free(used);
    return k;
}

/* A labelled map with named children (peak_ops_per_second): one sub-line
 * per child the schema knows, in schema order. */
static bool map_lines(sum_device *d, const sysdesc_schema_key *key, const dlti_attr *m)
{
    size_t plen = strlen(key->path);
    const char *label = key->summary;
    d->group++;
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *c = sysdesc_schema_key_at(i);
        const char *name = c->path + plen + 1;
        if (strncmp(c->path, key->path, plen) != 0 || c->path[plen] != '.' ||
            strchr(name, '.') || strcmp(name, "*") == 0 ||
            sysdesc_schema_find(d->type, c->path) != c)
            continue;
        const dlti_attr *v = get(d, m, name);
        if (!v)
            continue;
        sum_buf b = {0};
        bool list = false;
        sum_value(&b, v, c->unit, name, &list);
        nominal_ratio(d, c->path, v, &b);
        char sub[64];
        snprintf(sub, sizeof(sub), "%s", name);
        for (char *p = sub; *p; p++)
            if (*p == '_')
                *p = ' ';
        if (!sum_add_line(d, label, sub, strlen(sub), &b, list))
            return false;
        label = NULL;
    }
    return true;
}

/* A labelled wildcard level (cache.*): one sub-line per child of the map
 * that the schema allows.  A cache level is "L1d  48 KiB × 2"; another map
 * lists its known entries, "name value, ...". */
static bool wildcard_lines(sum_device *d, const sysdesc_schema_key *key)
{
    size_t plen = strlen(key->path) - 2; /* without ".*" */
    char parent_path[128];
    if (plen >= sizeof(parent_path))
        return true;
    memcpy(parent_path, key->path, plen);
    parent_path[plen] = '\0';
    const dlti_attr *m = get_path(d, d->dev, parent_path);
    if (!m || dlti_attr_get_kind(m) != DLTI_ATTR_MAP)
        return true;
    const sysdesc_schema_key *pk = sysdesc_schema_find(d->type, parent_path);
    size_t max = dlti_attr_size(m);
    size_t *order = malloc((max ? max : 1) * sizeof(size_t));
    if (!order) {
        d->failed = true;
        return false;
    }
    size_t n = ordered_children(m, pk ? pk->names : NULL, order, max);
    if (n == SIZE_MAX) {
        free(order);
        d->failed = true;
        return false;
    }
    const char *label = key->summary;
    bool is_cache = strcmp(key->path, "cache.*") == 0;
    d->group++;
    for (size_t j = 0; j < n; j++) {
        size_t nlen;
        const char *name = dlti_key_str(dlti_attr_entry_key(m, order[j]), &nlen);
        const dlti_attr *v = dlti_attr_entry_value(m, order[j]);
        char path[160];
        if (nlen > 30 || memchr(name, '.', nlen))
            continue;
        snprintf(path, sizeof(path), "%s.%.*s", parent_path, (int)nlen, name);
        if (sysdesc_schema_find(d->type, path) != key)
            continue; /* a name the schema does not allow */
        sum_buf sub = {0}, b = {0};
        bool list = false;
        if (is_cache) {
            cache_level_name(d, v, name, &sub);
            cache_level_value(d, v, path, &b);
        } else {
            sum_buf_str(&sub, name);
            if (dlti_attr_get_kind(v) == DLTI_ATTR_MAP) {
                list = true;
                for (size_t i = 0; i < dlti_attr_size(v); i++) {
                    const char *cn = dlti_key_str(dlti_attr_entry_key(v, i), NULL);
                    char cpath[256];
                    if (!cn)
                        continue;
                    snprintf(cpath, sizeof(cpath), "%s.%s", path, cn);
                    const sysdesc_schema_key *ck = sysdesc_schema_find(d->type, cpath);
                    if (!ck || ck->key_class == SYSDESC_KEY_BOOKKEEPING)
                        continue;
                    sum_buf_str(&b, b.len ? ", " : "");
                    sum_buf_printf(&b, "%s ", cn);
                    sum_value(&b, dlti_attr_entry_value(v, i), ck->unit, cn, NULL);
                }
            } else {
                sum_value(&b, v, key->unit, name, &list);
            }
        }
        char *s = sum_buf_take(&sub);
        bool ok = s && sum_add_line(d, label, s, strlen(s), &b, list);
        free(s);
        if (!ok) {
            free(b.p);
            free(order);
            d->failed = true;
            return false;
        }
        label = NULL;
    }
    free(order);
    return true;
}

/* True when the device's cache map has a level the summary shows: then the
 * flat L<k>_cache_size_in_bytes keys (the same values) are not repeated. */
static bool shows_cache_levels(const sum_device *d)
{
    const dlti_attr *m = get(d, d->dev, "cache");
    if (!m || !label_of(d, "cache.L1") || dlti_attr_get_kind(m) != DLTI_ATTR_MAP)
        return false;
    for (size_t i = 0; i < dlti_attr_size(m); i++) {
        const char *name = dlti_key_str(dlti_attr_entry_key(m, i), NULL);
        char path[64];
        if (name && strlen(name) < 32) {
            snprintf(path, sizeof(path), "cache.%s", name);
            if (label_of(d, path))
                return true;
        }
    }
    return false;
}

static bool is_flat_cache_key(const char *path)
{
    return path[0] == 'L' && path[1] >= '1' && path[1] <= '9' &&
           strcmp(path + 2, "_cache_size_in_bytes") == 0;
}

/* ---- the "cluster" device of a cluster spec (docs/cluster.md): not in the
 * device schema, so its lines are its own: the counts, each class with its
 * first and last nodes, the MPI ranks ---- */
static const char *element_str(const dlti_attr *list, size_t i)
{
    const char *s;
    size_t len;
    const dlti_attr *e = dlti_attr_element(list, i);
    return e && dlti_attr_get_string(e, &s, &len, NULL) == 0 && strlen(s) == len ? s : "?";
}

static bool cluster_lines(sum_device *d)
{
    int64_t nodes = 0, classes = 0, ranks = 0;
    sum_buf b = {0};
    get_i64(d, d->dev, "num_nodes", &nodes);
    get_i64(d, d->dev, "num_classes", &classes);
    sum_buf_printf(&b, "%lld in %lld class%s", (long long)nodes, (long long)classes,
                   classes == 1 ? "" : "es");
    d->group++;
    if (!sum_add_line(d, "nodes", NULL, 0, &b, false))
        return false;
    const dlti_attr *cls = get(d, d->dev, "classes");
    d->group++;
    for (size_t i = 0; cls && dlti_attr_get_kind(cls) == DLTI_ATTR_MAP && i < dlti_attr_size(cls);
         i++) {
        size_t klen;
        const char *k = dlti_key_str(dlti_attr_entry_key(cls, i), &klen);
        const dlti_attr *list = dlti_attr_entry_value(cls, i);
        size_t n = dlti_attr_get_kind(list) == DLTI_ATTR_ARRAY ? dlti_attr_size(list) : 0;
        if (!k || !n)
            continue;
        sum_buf_printf(&b, "%zu node%s: %s", n, n == 1 ? "" : "s", element_str(list, 0));
        if (n > 2)
            sum_buf_str(&b, " \xe2\x80\xa6"); /* " …" */
        if (n > 1)
            sum_buf_printf(&b, "%s%s", n > 2 ? " " : ", ", element_str(list, n - 1));
        if (!sum_add_line(d, i ? NULL : "classes", k, klen, &b, false))
            return false;
    }
    if (get_i64(d, d->dev, "MPI:comm_world_size", &ranks)) {
        sum_buf_printf(&b, "%lld", (long long)ranks);
        d->group++;
        if (!sum_add_line(d, "MPI ranks", NULL, 0, &b, false))
            return false;
    }
    return !d->failed;
}

bool sum_device_lines(sum_device *d)
{
    if (d->type && strcmp(d->type, "cluster") == 0)
        return cluster_lines(d);
    bool counts_done = false;
    bool cache_levels = shows_cache_levels(d);
    for (size_t i = 0; i < sysdesc_schema_size() && !d->failed; i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        const char *p = k->path;
        if (!k->summary)
            continue;
        /* the header's */
        if (strcmp(p, "device_type") == 0 || strcmp(p, "vendor") == 0 ||
            strcmp(p, "model") == 0 || strcmp(p, "arch") == 0)
            continue;
        if (strcmp(p, "num_packages") == 0 || strcmp(p, "num_cores") == 0 ||
            strcmp(p, "num_threads") == 0) {
            if (!counts_done && !counts_line(d))
                return false;
            counts_done = true;
            continue;
        }
        if (cache_levels && is_flat_cache_key(p))
            continue;
        size_t plen = strlen(p);
        if (plen > 2 && strcmp(p + plen - 2, ".*") == 0 && strchr(p, '*') == p + plen - 1) {
            if (!wildcard_lines(d, k))
                return false;
            continue;
        }
        if (strchr(p, '*'))
            continue; /* a label inside a wildcard level: not shown on its own */
        if (sysdesc_schema_find(d->type, p) != k)
            continue; /* not a key of this device type */
        const dlti_attr *v = get_path(d, d->dev, p);
        if (!v)
            continue;
        if (k->type == SYSDESC_VALUE_MAP && dlti_attr_get_kind(v) == DLTI_ATTR_MAP) {
            if (!map_lines(d, k, v))
                return false;
            continue;
        }
        sum_buf b = {0};
        bool list = false;
        sum_value(&b, v, k->unit, strrchr(p, '.') ? strrchr(p, '.') + 1 : p, &list);
        nominal_ratio(d, p, v, &b);
        d->group++;
        if (!sum_add_line(d, k->summary, NULL, 0, &b, list))
            return false;
    }
    return !d->failed;
}

void sum_device_free(sum_device *d)
{
    for (size_t i = 0; i < d->n; i++) {
        if (d->lines[i].label_owned)
            free((char *)d->lines[i].label);
        free(d->lines[i].sub);
        free(d->lines[i].value);
    }
    free(d->lines);
}
