/* The fingerprint of a system for tuner caches (sysdesc/tuner.h,
 * docs/fingerprint.md): the keys that count, one line each in a canonical
 * text, hashed with 64-bit FNV-1a.
 *
 * Which keys count is decided by the device schema's class of each key
 * (sysdesc/schema_keys.c), so that a key added later is judged by the class
 * its author gave it: facts, limits and peaks count, bookkeeping
 * (provenance, identities, positions, paths) does not.  The two short tables
 * below are the exceptions, each with its reason, and are what
 * `sysdesc fingerprint --explain` and docs/fingerprint.md show. */
#include "sysdesc_private.h"

#include "sysdesc/schema.h"
#include "sysdesc/tuner.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANY_TYPE SYSDESC_DEVICE_ALL

/* Facts that change while the machine stays the same: left out although
 * their class counts.  A path names the key and everything below it. */
typedef struct {
    const char *path;
    unsigned devices; /* SYSDESC_DEVICE_* bits of the devices it applies to */
    const char *why;
} volatile_key;

static const volatile_key volatile_keys[] = {
    {"measured", ANY_TYPE,
     "what one run of sysdesc measure delivered: it varies from run to run"},
    /* MemTotal follows the kernel's reservations and memory hotplug; the
     * allocation's limit is memory.cgroup_limit_in_bytes, which counts. */
    {"memory.total_in_bytes", SYSDESC_DEVICE_CPU,
     "MemTotal, or the cgroup limit, which counts as memory.cgroup_limit_in_bytes: MemTotal "
     "moves with the kernel's version and memory hotplug"},
    {"memory.os_total_in_bytes", SYSDESC_DEVICE_CPU,
     "MemTotal: moves with the kernel's version and memory hotplug"},
    /* On the VM this was written on, hwloc's node grew from 7.3 to 17.8 GB
     * while a process held 12 GiB. */
    {"memory.numa_total_in_bytes", SYSDESC_DEVICE_CPU,
     "hwloc's NUMA node sizes: on a VM they grow with the memory in use"},
    {"memory.numa_node_size_in_bytes", SYSDESC_DEVICE_CPU,
     "hwloc's NUMA node sizes: on a VM they grow with the memory in use"},
    /* pocl: 5.5 -> 15.7 GB and 2 -> 4 GiB on that VM with 12 GiB in use. */
    {"runtimes.opencl.global_memory_size_in_bytes", SYSDESC_DEVICE_CPU,
     "pocl sizes the host CPU's OpenCL memory by the free memory"},
    {"runtimes.opencl.max_memory_allocation_in_bytes", SYSDESC_DEVICE_CPU,
     "pocl sizes the host CPU's OpenCL allocations by the free memory"},
};

/* Bookkeeping that counts: the user's own keys, which sysdesc cannot judge
 * (a power mode, turbo off), and text that names the driver's version where
 * no key ending in "version" does. */
static const char *const counted_bookkeeping[] = {
    "extra",
    "runtimes.vulkan.driver_info", /* Mesa's drivers: "Mesa 22.3.6 (LLVM 15.0.6)" */
};

/* The "cluster" device (docs/cluster.md) is an index, not hardware: its
 * counts count, the node names do not. */
static const char *const cluster_names[] = {"nodes", "classes", "MPI:rank_nodes"};

typedef struct {
    bs_buf text;
    bool explain;        /* add "# PATH: left out (WHY)" lines */
    bool failed;         /* out of memory outside the buffers */
    const char *type;    /* the device's type for the schema ("CPU", "GPU", "ACCEL"), or NULL */
    unsigned bits;       /* its SYSDESC_DEVICE_* bit, 0 when unknown */
    bool cluster;        /* the "cluster" device */
    bs_buf path;       /* the key's dotted path inside the device, for the schema */
    bs_buf line;       /* the line's path: the device id, then the keys, as printed */
} walk;

/* ---- the canonical text ---- */

/* A key is printed as is when it is one of these characters only, else
 * quoted as MLIR quotes a string: no key can then hold the line's '.', " = "
 * or line end unquoted. */
static bool plain_key(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == ':' || c == '+'))
            return false;
    }
    return true;
}

static void put_key(bs_buf *b, dlti_key k)
{
    size_t len;
    const char *s = dlti_key_str(k, &len);
    if (s && plain_key(s, len)) {
        bs_buf_put(b, s, len);
    } else if (s) {
        dlti_print_string(b, s, len);
    } else { /* a type key: !"vector<4xf32>" */
        const char *t = dlti_type_str(dlti_key_get_type(k));
        bs_buf_putc(b, '!');
        dlti_print_string(b, t, strlen(t));
    }
}

/* Keys in byte order, string keys before type keys. */
static int key_order(dlti_key a, dlti_key b)
{
    size_t la, lb;
    const char *sa = dlti_key_str(a, &la), *sb = dlti_key_str(b, &lb);
    if (!sa || !sb) {
        if (sa || sb)
            return sa ? -1 : 1;
        sa = dlti_type_str(dlti_key_get_type(a));
        sb = dlti_type_str(dlti_key_get_type(b));
        la = strlen(sa);
        lb = strlen(sb);
    }
    int c = memcmp(sa, sb, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

/* qsort has no user pointer: the entries sorted are (key, index) pairs. */
typedef struct {
    dlti_key key;
    size_t index;
} sorted_entry;

static int sorted_entry_order(const void *a, const void *b)
{
    return key_order(((const sorted_entry *)a)->key, ((const sorted_entry *)b)->key);
}

/* The entries of container `a` in key order; NULL when out of memory. */
static sorted_entry *sorted_entries(const dlti_attr *a)
{
    size_t n = dlti_attr_size(a);
    sorted_entry *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        return NULL;
    for (size_t i = 0; i < n; i++)
        e[i] = (sorted_entry){dlti_attr_entry_key(a, i), i};
    qsort(e, n, sizeof *e, sorted_entry_order);
    return e;
}

/* Whether the value is a map whose entries become lines of their own. */
static bool expands(const dlti_attr *v)
{
    dlti_attr_kind k = dlti_attr_get_kind(v);
    return k == DLTI_ATTR_MAP || k == DLTI_ATTR_DICTIONARY;
}

static void put_double(bs_buf *b, double d)
{
    char num[40];
    sd_format_double(num, sizeof num, d);
    bs_buf_puts(b, num);
    if (!strpbrk(num, ".eEni")) /* a float never reads as an integer */
        bs_buf_puts(b, ".0");
}

/* A dense array as the array of the same values (array<i64: 1, 2> as
 * [1, 2], array<i1: true> as [true]); one whose integers do not fit i64 as
 * MLIR prints it. */
static void put_dense_array(bs_buf *b, const dlti_attr *v)
{
    const dlti_type *et = dlti_attr_type(v);
    bool is_float = dlti_type_get_kind(et) == DLTI_TYPE_FLOAT;
    bool is_bool = !is_float && dlti_type_int_width(et) == 1;
    int64_t x;
    for (size_t k = 0; !is_float && k < dlti_attr_size(v); k++)
        if (dlti_attr_dense_int64(v, k, &x, NULL) < 0) {
            dlti_print_attr(b, v, false);
            return;
        }
    bs_buf_putc(b, '[');
    for (size_t k = 0; k < dlti_attr_size(v); k++) {
        bs_buf_puts(b, k ? ", " : "");
        if (is_float) {
            put_double(b, dlti_dense_float_at(v, k));
        } else {
            dlti_attr_dense_int64(v, k, &x, NULL);
            if (is_bool)
                bs_buf_puts(b, x ? "true" : "false");
            else
                bs_buf_put_i64(b, x);
        }
    }
    bs_buf_putc(b, ']');
}

/* A value by what it means, not how a format wrote it: integers of every
 * type as their digits, dense arrays as arrays (JSON writes both alike),
 * floats as the shortest text that reads back, strings as MLIR quotes them,
 * maps inside arrays with their keys sorted; anything else as MLIR prints it. */
static void put_value(walk *w, bs_buf *b, const dlti_attr *v)
{
    int64_t i;
    uint64_t u;
    double d;
    bool t;
    const char *s;
    size_t len;
    switch (dlti_attr_get_kind(v)) {
    case DLTI_ATTR_INTEGER:
        if (dlti_attr_get_int64(v, &i, NULL) == 0)
            bs_buf_put_i64(b, i);
        else if (dlti_attr_get_uint64(v, &u, NULL) == 0)
            bs_buf_put_u64(b, u);
        else
            dlti_print_attr(b, v, false); /* wider than 64 bits: every digit, and the type */
        return;
    case DLTI_ATTR_FLOAT:
        if (dlti_attr_get_double(v, &d, NULL) == 0)
            put_double(b, d);
        return;
    case DLTI_ATTR_BOOL:
        dlti_attr_get_bool(v, &t, NULL);
        bs_buf_puts(b, t ? "true" : "false");
        return;
    case DLTI_ATTR_STRING:
        if (dlti_attr_get_string(v, &s, &len, NULL) == 0)
            dlti_print_string(b, s, len);
        return;
    case DLTI_ATTR_UNIT:
        bs_buf_puts(b, "unit");
        return;
    case DLTI_ATTR_ARRAY:
        bs_buf_putc(b, '[');
        for (size_t k = 0; k < dlti_attr_size(v); k++) {
            bs_buf_puts(b, k ? ", " : "");
            put_value(w, b, dlti_attr_element(v, k));
        }
        bs_buf_putc(b, ']');
        return;
    case DLTI_ATTR_DENSE_ARRAY:
        put_dense_array(b, v);
        return;
    case DLTI_ATTR_MAP:
    case DLTI_ATTR_DICTIONARY: {
        sorted_entry *e = sorted_entries(v);
        if (!e) {
            w->failed = true;
            return;
        }
        bs_buf_putc(b, '{');
        for (size_t k = 0; k < dlti_attr_size(v); k++) {
            bs_buf_puts(b, k ? ", " : "");
            put_key(b, e[k].key);
            bs_buf_puts(b, " = ");
            put_value(w, b, dlti_attr_entry_value(v, e[k].index));
        }
        bs_buf_putc(b, '}');
        free(e);
        return;
    }
    default: /* a type, dense elements, another dialect's attribute */
        dlti_print_attr(b, v, false);
        return;
    }
}

/* ---- which keys count ---- */

static bool applies(unsigned devices, unsigned bits)
{
    return bits == 0 || (devices & bits) != 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* Why the key at w->path, named `name` (NULL: a type key) at `depth` (1:
 * the device's own keys) is left out; NULL when it counts.  `*whole` is
 * set when its class decides for everything below it too (an open map),
 * `*bookkeeping` when the reason is its class (the text is then the
 * schema's meaning of the key). */
static const char *left_out(const walk *w, const char *name, int depth, const dlti_attr *v,
                            bool *whole, bool *bookkeeping)
{
    const char *path = w->path.data ? w->path.data : "";
    *whole = *bookkeeping = false;
    if (w->cluster) {
        for (size_t i = 0; depth == 1 && name && i < sizeof cluster_names / sizeof *cluster_names;
             i++)
            if (strcmp(name, cluster_names[i]) == 0)
                return "node names: which nodes, not what they are (num_nodes counts)";
        return NULL; /* not the device schema's keys */
    }
    for (size_t i = 0; i < sizeof volatile_keys / sizeof *volatile_keys; i++)
        if (applies(volatile_keys[i].devices, w->bits) && strcmp(path, volatile_keys[i].path) == 0)
            return volatile_keys[i].why;
    for (size_t i = 0; i < sizeof counted_bookkeeping / sizeof *counted_bookkeeping; i++)
        if (strcmp(path, counted_bookkeeping[i]) == 0) {
            *whole = true;
            return NULL;
        }
    const sysdesc_schema_key *k = name ? sysdesc_schema_find(w->type, path) : NULL;
    if (!k) /* a key the schema does not know: a pipeline's own key counts */
        return NULL;
    if (k->type == SYSDESC_VALUE_MAP && expands(v))
        return NULL; /* a map's keys are judged one by one (runtimes.cuda.*) */
    *whole = true;
    if (k->key_class != SYSDESC_KEY_BOOKKEEPING)
        return NULL;
    /* The versions of the drivers and runtimes that run the programs count;
     * the description's own format does not. */
    if (ends_with(name, "version") && strcmp(name, "schema_version") != 0)
        return NULL;
    *bookkeeping = true;
    return k->meaning; /* the schema says what it is: "the node's host name" */
}

/* ---- the walk ---- */

static void put_line_path(walk *w)
{
    bs_buf_put(&w->text, w->line.data ? w->line.data : "", w->line.len);
}

static void walk_map(walk *w, const dlti_attr *map, int depth, bool all_count);

/* One entry: its line, the lines of its keys, or why it is left out. */
static void walk_entry(walk *w, dlti_key key, const dlti_attr *v, int depth, bool all_count)
{
    size_t path_len = w->path.len, line_len = w->line.len;
    size_t nlen;
    const char *name = dlti_key_str(key, &nlen);
    if (name && strlen(name) != nlen)
        name = NULL; /* a key holding a NUL is no schema key */
    if (path_len)
        bs_buf_putc(&w->path, '.');
    if (name)
        bs_buf_put(&w->path, name, nlen);
    if (line_len)
        bs_buf_putc(&w->line, '.');
    put_key(&w->line, key);
    bool whole = all_count, bookkeeping = false;
    const char *why = all_count ? NULL : left_out(w, name, depth, v, &whole, &bookkeeping);
    if (why) {
        if (w->explain) {
            bs_buf_puts(&w->text, "# ");
            put_line_path(w);
            bs_buf_puts(&w->text, bookkeeping ? ": left out (bookkeeping: " : ": left out (");
            bs_buf_puts(&w->text, why);
            bs_buf_puts(&w->text, ")\n");
        }
    } else if (expands(v) && dlti_attr_size(v) > 0) {
        walk_map(w, v, depth + 1, whole);
    } else {
        put_line_path(w);
        bs_buf_puts(&w->text, " = ");
        if (expands(v))
            bs_buf_puts(&w->text, "{}");
        else
            put_value(w, &w->text, v);
        bs_buf_putc(&w->text, '\n');
    }
    w->path.len = path_len;
    if (w->path.data)
        w->path.data[path_len] = '\0';
    w->line.len = line_len;
    if (w->line.data)
        w->line.data[line_len] = '\0';
}

static void walk_map(walk *w, const dlti_attr *map, int depth, bool all_count)
{
    sorted_entry *e = sorted_entries(map);
    if (!e) {
        w->failed = true;
        return;
    }
    for (size_t i = 0; i < dlti_attr_size(map) && !w->failed; i++)
        walk_entry(w, e[i].key, dlti_attr_entry_value(map, e[i].index), depth, all_count);
    free(e);
}

/* The lines of device `dev` (id `id`): after a line "device ID" and each
 * starting with the id when `prefix` (its key) is given, as in a system's
 * text; without either for a device alone. */
static void walk_device(walk *w, const char *id, const dlti_attr *dev, dlti_key prefix)
{
    const char *type = NULL;
    const dlti_attr *t = dlti_lookup_cstring(dev, "device_type");
    size_t len;
    if (t && dlti_attr_get_string(t, &type, &len, NULL) == 0 && strlen(type) != len)
        type = NULL;
    w->cluster = (type && strcmp(type, "cluster") == 0) || (!type && strcmp(id, "cluster") == 0);
    w->bits = sysdesc_device_type_bits(id, dev);
    w->type = sysdesc_schema_device_type_name(w->bits);
    w->path.len = w->line.len = 0;
    if (w->path.data)
        w->path.data[0] = '\0';
    if (w->line.data)
        w->line.data[0] = '\0';
    if (prefix) { /* "device GPU2": a device counts even when none of its keys does */
        put_key(&w->line, prefix);
        bs_buf_puts(&w->text, "device ");
        put_line_path(w);
        bs_buf_putc(&w->text, '\n');
    }
    walk_map(w, dev, 1, false);
}

static void walk_free(walk *w)
{
    free(w->path.data);
    free(w->line.data);
}

/* The device `device_id` of `spec`, as queries find it (a cluster node's
 * "cn017.GPU3" too); NULL with err. */
static const dlti_attr *find_device(const dlti_attr *spec, const char *device_id,
                                    dlti_error_t *err)
{
    const dlti_attr *dev = dlti_attr_query_strings(spec, &device_id, 1, NULL);
    if (!dev || dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no device '%s' in the system", device_id);
        return NULL;
    }
    return dev;
}

/* 64-bit FNV-1a (Fowler, Noll, Vo; the offset basis and prime of
 * http://www.isthe.com/chongo/tech/comp/fnv/): no dependency, the same in
 * every language a cache is written in. */
#define FNV_OFFSET 0xcbf29ce484222325u
static uint64_t fnv1a64(uint64_t h, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3u;
    }
    return h;
}

/* The hash of the lines of `text` that do not start with '#'. */
static uint64_t hash_counted_lines(const char *text, size_t len)
{
    uint64_t h = FNV_OFFSET;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        if (text[i] != '#')
            h = fnv1a64(h, text + i, end - i);
        i = end;
    }
    return h;
}

static void put_fingerprint(char *out, uint64_t h)
{
    snprintf(out, SYSDESC_FINGERPRINT_LENGTH + 1, "sd1-%016" PRIx64, h);
}

/* --explain: the fingerprint first, as a comment that says how to check it. */
static char *explained(char *text, size_t *len)
{
    char fp[SYSDESC_FINGERPRINT_LENGTH + 1];
    put_fingerprint(fp, hash_counted_lines(text, *len));
    bs_buf b = {0};
    bs_buf_printf(&b, "# %s: 64-bit FNV-1a of the lines that do not start with '#'\n", fp);
    bs_buf_put(&b, text, *len);
    free(text);
    return sd_buf_finish(&b, len);
}

char *sysdesc_fingerprint_text(const dlti_attr *spec, const char *device_id, unsigned flags,
                               size_t *len, dlti_error_t *err)
{
    if (!spec || dlti_attr_get_kind(spec) != DLTI_ATTR_SYSTEM_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "a fingerprint needs a system spec");
        return NULL;
    }
    walk w = {.explain = (flags & SYSDESC_FINGERPRINT_EXPLAIN) != 0};
    if (device_id) {
        const dlti_attr *dev = find_device(spec, device_id, err);
        if (!dev)
            return NULL;
        walk_device(&w, device_id, dev, NULL);
    } else {
        /* Devices in id order as every map (the id is in each line: GPU0
         * and GPU1 swapped is another machine). */
        sorted_entry *e = sorted_entries(spec);
        w.failed = !e;
        for (size_t i = 0; e && i < dlti_attr_size(spec) && !w.failed; i++) {
            const char *id = dlti_key_str(e[i].key, NULL);
            walk_device(&w, id ? id : "", dlti_attr_entry_value(spec, e[i].index), e[i].key);
        }
        free(e);
    }
    bool failed = w.failed || w.path.failed || w.line.failed;
    walk_free(&w);
    if (failed) {
        free(w.text.data);
        bs_nomem(err);
        return NULL;
    }
    size_t n;
    char *text = sd_buf_finish(&w.text, &n);
    if (text && w.explain)
        text = explained(text, &n);
    if (!text)
        bs_nomem(err);
    else if (len)
        *len = n;
    return text;
}

int sysdesc_fingerprint(const dlti_attr *spec, const char *device_id, char *out,
                        dlti_error_t *err)
{
    if (!out) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "a fingerprint needs a buffer");
        return -1;
    }
    size_t len;
    char *text = sysdesc_fingerprint_text(spec, device_id, 0, &len, err);
    if (!text)
        return -1;
    put_fingerprint(out, fnv1a64(FNV_OFFSET, text, len));
    free(text);
    return 0;
}
