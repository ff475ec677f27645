/* sysdesc summary: a system at a glance, one block per device.
 *
 * What is shown comes from the device schema (sysdesc/schema.h): every key
 * of a device whose schema entry has a `summary` label, in schema order,
 * formatted by the key's unit.  A new key with a label needs no code here.
 * The special cases are the header (id, vendor and model, device type,
 * arch), the CPU counts (packages, cores and threads on one line) and the
 * CPU cache levels (one line per level, size x instances). */
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: sysdesc summary [--color[=WHEN]] [--no-check] SPEC\n"
    "       sysdesc summary [--color[=WHEN]] --host [--io|--no-io] [--quiet]\n"
    "                       [--no-catalog]\n"
    "\n"
    "Prints a system for people: one block per device, a header line (id,\n"
    "vendor and model, device type, arch), then the keys the device schema\n"
    "gives a summary label (docs/keys.md), in schema order, with their units\n"
    "(KiB/MiB/GiB, GHz, TB/s, TFLOP/s).  Every line fits 80 columns.\n"
    "  SPEC          a YAML or MLIR file (\"-\": standard input) or a catalog\n"
    "                name (nvidia/dgx-h100), checked against the device\n"
    "                schema first unless --no-check (sysdesc check)\n"
    "  --host        probe this machine instead; --io (default here), --no-io,\n"
    "                --quiet, --no-catalog as for sysdesc probe\n"
    "  --color=WHEN  auto (default: colour on a terminal unless NO_COLOR is\n"
    "                set or TERM is dumb), always or never; --color: always\n"
    "\n"
    "Exit status: 0 ok; 1 an MLIR file without a system spec; 2 bad input or\n"
    "usage; 3 unreadable file, failed probe or write.\n";

#define WIDTH 80
#define INDENT 2
#define LABEL_MAX 24 /* label column: at most this many columns */
#define SUB_MAX 20   /* sub-label column (cache level, peak data type) */

#define TIMES " \xc3\x97 " /* " × " */
#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

/* ---- lines of one device ---- */

typedef struct {
    const char *label; /* the schema's label; NULL on a continuation sub-line */
    char *sub;         /* sub-label (cache level, data type) or NULL */
    char *value;
    bool list;         /* wrap at ", " rather than cut */
    int group;         /* sub-lines of one key share a group: their numbers align */
} line;

typedef struct {
    const dlti_context *ctx;
    const dlti_attr *dev;
    const char *type; /* device_type, NULL when absent */
    line *lines;
    size_t n, cap;
    int group;
    bool failed;
} device;

static bool add_line(device *d, const char *label, const char *sub, size_t sub_len, sum_buf *value,
                     bool list)
{
    char *v = sum_buf_take(value), *s = NULL;
    if (v && sub) {
        sum_buf t = {0};
        sum_buf_clean(&t, sub, sub_len);
        s = sum_buf_take(&t);
    }
    if (v && (!sub || s) && d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 32;
        line *l = realloc(d->lines, cap * sizeof(line));
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
    d->lines[d->n++] = (line){label, s, v, list, d->group};
    return true;
}

/* The entry `name` (`len` bytes) of map or spec `a`; NULL when absent. */
static const dlti_attr *get_n(const device *d, const dlti_attr *a, const char *name, size_t len)
{
    if (!a || !dlti_attr_is_queryable(a))
        return NULL;
    dlti_key k = dlti_key_find(d->ctx, name, len);
    return k ? dlti_attr_lookup(a, k) : NULL;
}

static const dlti_attr *get(const device *d, const dlti_attr *a, const char *name)
{
    return get_n(d, a, name, strlen(name));
}

static const char *get_str(const device *d, const dlti_attr *a, const char *name)
{
    const char *s;
    size_t len;
    const dlti_attr *v = get(d, a, name);
    return v && dlti_attr_get_string(v, &s, &len, NULL) == 0 && strlen(s) == len ? s : NULL;
}

static bool get_i64(const device *d, const dlti_attr *a, const char *name, int64_t *out)
{
    const dlti_attr *v = get(d, a, name);
    return v && dlti_attr_get_int64(v, out, NULL) == 0;
}

/* The key's label when the summary shows it for this device, else NULL. */
static const char *label_of(const device *d, const char *path)
{
    const sysdesc_schema_key *k = sysdesc_schema_find(d->type, path);
    return k ? k->summary : NULL;
}

/* "1 package, 2 cores × 1 thread": the counts the schema labels, on one line. */
static bool counts_line(device *d)
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
    return add_line(d, label, NULL, 0, &b, false);
}

/* "L1d" for an L1 of type data, else the level's name. */
static void cache_level_name(const device *d, const dlti_attr *level, const char *name,
                             sum_buf *out)
{
    sum_buf_str(out, name);
    const char *type = get_str(d, level, "type");
    size_t len = strlen(name);
    if (type && strcmp(type, "data") == 0 && len && name[len - 1] != 'd')
        sum_buf_str(out, "d");
}

/* "48 KiB × 2": size of one instance × instances. */
static void cache_level_value(const device *d, const dlti_attr *level, const char *path_prefix,
                              sum_buf *out)
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
static bool map_lines(device *d, const sysdesc_schema_key *key, const dlti_attr *m)
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
        char sub[64];
        snprintf(sub, sizeof(sub), "%s", name);
        for (char *p = sub; *p; p++)
            if (*p == '_')
                *p = ' ';
        if (!add_line(d, label, sub, strlen(sub), &b, list))
            return false;
        label = NULL;
    }
    return true;
}

/* A labelled wildcard level (cache.*): one sub-line per child of the map
 * that the schema allows.  A cache level is "L1d  48 KiB × 2"; another map
 * lists its known entries, "name value, ...". */
static bool wildcard_lines(device *d, const sysdesc_schema_key *key)
{
    size_t plen = strlen(key->path) - 2; /* without ".*" */
    char parent_path[128];
    if (plen >= sizeof(parent_path))
        return true;
    memcpy(parent_path, key->path, plen);
    parent_path[plen] = '\0';
    /* the parent map in the device */
    const dlti_attr *m = d->dev;
    for (const char *p = parent_path; m && *p;) {
        size_t n = strcspn(p, ".");
        m = get_n(d, m, p, n);
        p += n + (p[n] == '.');
    }
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
        bool ok = s && add_line(d, label, s, strlen(s), &b, list);
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
static bool shows_cache_levels(const device *d)
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

/* Every labelled key of the device, in schema order. */
static bool collect(device *d)
{
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
        const dlti_attr *v = d->dev;
        for (const char *q = p; v && *q;) {
            size_t n = strcspn(q, ".");
            v = get_n(d, v, q, n);
            q += n + (q[n] == '.');
        }
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
        d->group++;
        if (!add_line(d, k->summary, NULL, 0, &b, list))
            return false;
    }
    return !d->failed;
}

/* ---- printing ---- */

typedef struct {
    sum_buf out;
    bool color;
} printer;

static void put_label(printer *pr, const char *text, size_t width)
{
    size_t c = sum_cols(text);
    if (pr->color && *text) {
        sum_buf_str(&pr->out, DIM);
        sum_buf_fit(&pr->out, text, width);
        sum_buf_str(&pr->out, RESET);
    } else {
        sum_buf_fit(&pr->out, text, width);
    }
    sum_buf_spaces(&pr->out, c < width ? width - c : 0);
}

/* The first word of `v` when it is a number ("48" of "48 KiB × 2"). */
static size_t number_cols(const char *v)
{
    if (!((*v >= '0' && *v <= '9') || (*v == '-' && v[1] >= '0' && v[1] <= '9')))
        return 0;
    size_t n = strcspn(v, " ");
    return v[n] == ' ' ? n : 0;
}

static void put_value(printer *pr, const line *l, size_t prefix, size_t num_w)
{
    size_t avail = WIDTH > prefix ? WIDTH - prefix : 1;
    const char *v = l->value;
    size_t nc = number_cols(v);
    if (num_w && nc && num_w > nc && sum_cols(v) + (num_w - nc) <= avail)
        sum_buf_spaces(&pr->out, num_w - nc);
    if (sum_cols(v) <= avail || !l->list) {
        sum_buf_fit(&pr->out, v, avail);
        sum_buf_str(&pr->out, "\n");
        return;
    }
    /* a list: items separated by ", ", wrapped under the value column */
    size_t used = 0;
    while (*v) {
        const char *sep = strstr(v, ", ");
        size_t n = sep ? (size_t)(sep - v) : strlen(v);
        char *item = malloc(n + 1);
        if (!item) {
            pr->out.failed = true;
            return;
        }
        memcpy(item, v, n);
        item[n] = '\0';
        size_t w = sum_cols(item) + (sep ? 1 : 0); /* the comma stays on this line */
        if (used && used + 1 + w > avail) {
            sum_buf_str(&pr->out, "\n");
            sum_buf_spaces(&pr->out, prefix);
            used = 0;
        } else if (used) {
            sum_buf_str(&pr->out, " ");
            used++;
        }
        size_t room = avail - used - (sep ? 1 : 0);
        sum_buf_fit(&pr->out, item, room ? room : 1);
        used += sum_cols(item) < room ? sum_cols(item) : room;
        if (sep) {
            sum_buf_str(&pr->out, ",");
            used++;
        }
        free(item);
        v = sep ? sep + 2 : v + n;
    }
    sum_buf_str(&pr->out, "\n");
}

static void put_header(printer *pr, const char *id, const device *d)
{
    sum_buf name = {0}, paren = {0}, idb = {0};
    sum_buf_clean(&idb, id, strlen(id));
    const char *vendor = get_str(d, d->dev, "vendor"), *model = get_str(d, d->dev, "model");
    const char *arch = get_str(d, d->dev, "arch");
    if (vendor) {
        /* "NVIDIA Corporation" + "NVIDIA H100 80GB HBM3": the model alone */
        size_t w = strcspn(vendor, " ");
        if (!model || strncmp(model, vendor, w) != 0 || (model[w] != ' ' && model[w] != '\0'))
            sum_buf_clean(&name, vendor, strlen(vendor));
    }
    if (model) {
        sum_buf_str(&name, name.len ? " " : "");
        sum_buf_clean(&name, model, strlen(model));
    }
    if (d->type || arch) {
        sum_buf_str(&paren, "(");
        if (d->type)
            sum_buf_clean(&paren, d->type, strlen(d->type));
        sum_buf_str(&paren, d->type && arch ? ", " : "");
        if (arch)
            sum_buf_clean(&paren, arch, strlen(arch));
        sum_buf_str(&paren, ")");
    }
    char *i = sum_buf_take(&idb), *n = sum_buf_take(&name), *p = sum_buf_take(&paren);
    if (!i || !n || !p) {
        pr->out.failed = true;
    } else {
        sum_buf h = {0};
        size_t fixed = sum_cols(i) + (*p ? 2 + sum_cols(p) : 0);
        sum_buf_str(&h, i);
        if (*n && fixed + 3 < WIDTH) {
            sum_buf_str(&h, "  ");
            sum_buf_fit(&h, n, WIDTH - fixed - 2);
        }
        if (*p) {
            sum_buf_str(&h, "  ");
            sum_buf_str(&h, p);
        }
        char *hs = sum_buf_take(&h);
        if (!hs) {
            pr->out.failed = true;
        } else {
            sum_buf_str(&pr->out, pr->color ? BOLD : "");
            sum_buf_fit(&pr->out, hs, WIDTH);
            sum_buf_str(&pr->out, pr->color ? RESET "\n" : "\n");
        }
        free(hs);
    }
    free(i);
    free(n);
    free(p);
}

static void put_device(printer *pr, const char *id, device *d)
{
    put_header(pr, id, d);
    size_t lw = 0, sw = 0;
    for (size_t i = 0; i < d->n; i++) {
        const line *l = &d->lines[i];
        if (l->label && sum_cols(l->label) > lw)
            lw = sum_cols(l->label);
        if (l->sub && sum_cols(l->sub) > sw)
            sw = sum_cols(l->sub);
    }
    lw = lw > LABEL_MAX ? LABEL_MAX : lw;
    sw = sw > SUB_MAX ? SUB_MAX : sw;
    for (size_t i = 0; i < d->n; i++) {
        const line *l = &d->lines[i];
        /* the widest number of the group aligns the group's numbers */
        size_t num_w = 0;
        if (l->sub)
            for (size_t j = 0; j < d->n; j++)
                if (d->lines[j].group == l->group && d->lines[j].sub &&
                    number_cols(d->lines[j].value) > num_w)
                    num_w = number_cols(d->lines[j].value);
        sum_buf_spaces(&pr->out, INDENT);
        put_label(pr, l->label ? l->label : "", lw);
        sum_buf_str(&pr->out, "  ");
        size_t prefix = INDENT + lw + 2;
        if (l->sub) {
            size_t gw = 0; /* the group's sub-label width */
            for (size_t j = 0; j < d->n; j++)
                if (d->lines[j].group == l->group && d->lines[j].sub &&
                    sum_cols(d->lines[j].sub) > gw)
                    gw = sum_cols(d->lines[j].sub);
            gw = gw > sw ? sw : gw;
            put_label(pr, l->sub, gw);
            sum_buf_str(&pr->out, "  ");
            prefix += gw + 2;
        }
        put_value(pr, l, prefix, num_w);
    }
}

static void device_free(device *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->lines[i].sub);
        free(d->lines[i].value);
    }
    free(d->lines);
}

/* The summary of every device of `spec`, into pr->out. */
static int summarize(printer *pr, const dlti_context *ctx, const dlti_attr *spec)
{
    for (size_t i = 0; i < dlti_attr_size(spec) && !pr->out.failed; i++) {
        const char *id = dlti_key_str(dlti_attr_entry_key(spec, i), NULL);
        const dlti_attr *dev = dlti_attr_entry_value(spec, i);
        device d = {ctx, dev, NULL, NULL, 0, 0, 0, false};
        if (dlti_attr_get_kind(dev) == DLTI_ATTR_DEVICE_SPEC) {
            d.type = get_str(&d, dev, "device_type");
            if (!collect(&d)) {
                device_free(&d);
                return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
            }
        }
        if (i)
            sum_buf_str(&pr->out, "\n");
        put_device(pr, id ? id : "?", &d);
        device_free(&d);
    }
    if (pr->out.failed)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    return SYSDESC_EXIT_OK;
}

static bool color_auto(void)
{
    const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

int cmd_summary(int argc, char **argv)
{
    cli_probe_args pa;
    cli_probe_args_init(&pa, SYSDESC_PROBE_IO_ON);
    const char *path = NULL;
    int color = -1; /* -1 auto, 0 never, 1 always */
    bool operands = false;
    sysdesc_yaml_options load_opts = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!operands && cli_is_help(a))
            return cli_write_stdout(usage, sizeof(usage) - 1);
        if (!operands && strcmp(a, "--host") == 0) {
            pa.host = true;
        } else if (!operands && cli_probe_option(a, &pa)) {
            continue;
        } else if (!operands && strcmp(a, "--no-check") == 0) {
            load_opts.flags |= SYSDESC_LOAD_NO_CHECK;
        } else if (!operands && (strcmp(a, "--color") == 0 || strncmp(a, "--color=", 8) == 0)) {
            const char *w = a[7] ? a + 8 : "always";
            if (strcmp(w, "always") == 0)
                color = 1;
            else if (strcmp(w, "never") == 0)
                color = 0;
            else if (strcmp(w, "auto") == 0)
                color = -1;
            else
                return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "summary: --color is auto, always or never, not '%s'", w);
        } else if (!operands && strcmp(a, "--") == 0) {
            operands = true;
        } else if (!operands && a[0] == '-' && a[1] != '\0') {
            return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                            "summary: unknown option '%s' (see sysdesc summary --help)", a);
        } else if (path) {
            return cli_fail(SYSDESC_EXIT_BAD_INPUT, "summary: one SPEC at a time ('%s', '%s')",
                            path, a);
        } else {
            path = a;
        }
    }
    if (pa.host && path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "summary: a SPEC or --host, not both");
    if (!pa.host && !path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "summary: missing SPEC: a file, a catalog name or --host for this "
                        "machine (see sysdesc summary --help)");
    if (!pa.host && (pa.io_given || pa.quiet || !pa.catalog))
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "summary: --io, --no-io, --quiet and --no-catalog go with --host");
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    dlti_error_t err;
    sysdesc_system sys = {0};
    int rc = SYSDESC_EXIT_OK;
    if (pa.host) {
        sys.spec = cli_probe(ctx, NULL, 0, &pa, &err);
        if (!sys.spec)
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "summary --host: %s", err.text);
    } else if (sysdesc_system_load(ctx, path, &load_opts, &sys, &err) < 0) {
        rc = cli_report(&err);
    }
    if (rc == SYSDESC_EXIT_OK) {
        printer pr = {{0}, color < 0 ? color_auto() : color == 1};
        rc = summarize(&pr, ctx, sys.spec);
        if (rc == SYSDESC_EXIT_OK)
            rc = cli_write_stdout(pr.out.p ? pr.out.p : "", pr.out.len);
        free(pr.out.p);
    }
    dlti_context_free(ctx);
    return rc;
}
