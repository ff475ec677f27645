/* The rules of the "cluster" device (docs/cluster.md): it is the index of
 * a cluster spec's node classes, not hardware, so its keys are not the
 * device schema's; check.c hands it here.  Every node names a class that
 * lists it, every class has devices ("class0.CPU"), the counts agree, and
 * the MPI rank map names nodes. */
#include "sysdesc_private.h"
#include "sysdesc/version.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct cl_check {
    const dlti_attr *spec;
    sd_cluster_problem_fn report;
    void *user;
} cl_check;

/* Reports a problem at the path cluster.k1[.k2] (k2 may be NULL). */
static void bad(cl_check *c, const char *k1, const char *k2, size_t k2len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void bad(cl_check *c, const char *k1, const char *k2, size_t k2len, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    c->report(c->user, k1, k2, k2 ? k2len : 0, msg);
}

static const dlti_attr *get(const dlti_attr *map, const char *key)
{
    return dlti_lookup_cstring(map, key);
}

static bool is_i64(const dlti_attr *v, int64_t *x)
{
    const dlti_type *t = v ? dlti_attr_type(v) : NULL;
    return v && dlti_attr_get_kind(v) == DLTI_ATTR_INTEGER && t && dlti_type_int_width(t) == 64 &&
           dlti_type_int_signedness(t) == DLTI_SIGNLESS && dlti_attr_get_int64(v, x, NULL) == 0;
}

static bool is_str(const dlti_attr *v, const char **s, size_t *n)
{
    return v && dlti_attr_get_kind(v) == DLTI_ATTR_STRING && dlti_attr_get_string(v, s, n, NULL) == 0;
}

/* An i64 key; false (reported) when missing or of another type. */
static bool want_i64(cl_check *c, const dlti_attr *dev, const char *key, int64_t min, int64_t *x)
{
    const dlti_attr *v = get(dev, key);
    if (!v) {
        bad(c, key, NULL, 0, "the cluster device misses '%s'", key);
        return false;
    }
    if (!is_i64(v, x) || *x < min) {
        bad(c, key, NULL, 0, "'cluster.%s' must be an integer (i64) of at least %lld", key,
            (long long)min);
        return false;
    }
    return true;
}

/* The prefixes "<cls>" of the spec's device ids "<cls>.<something>" (each
 * '.' of an id ends one), sorted: whether a class has devices is then one
 * binary search, not a walk of every device for every class (a spec of
 * 100,000 classes was quadratic). */
typedef struct prefix {
    const char *s;
    size_t n;
} prefix;

static int prefix_cmp(const void *a, const void *b)
{
    const prefix *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* NULL when out of memory (then every class is taken to have devices). */
static prefix *class_prefixes(const dlti_attr *spec, size_t *count)
{
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < dlti_attr_size(spec); i++) {
        size_t klen;
        const char *k = dlti_key_str(dlti_attr_entry_key(spec, i), &klen);
        for (size_t j = 0; k && j + 1 < klen; j++)
            cap += k[j] == '.';
    }
    prefix *p = malloc((cap ? cap : 1) * sizeof(*p));
    for (size_t i = 0; p && i < dlti_attr_size(spec); i++) {
        size_t klen;
        const char *k = dlti_key_str(dlti_attr_entry_key(spec, i), &klen);
        for (size_t j = 0; k && j + 1 < klen; j++)
            if (k[j] == '.')
                p[n++] = (prefix){k, j};
    }
    if (p)
        qsort(p, n, sizeof(*p), prefix_cmp);
    *count = n;
    return p;
}

static void check_classes(cl_check *c, const dlti_attr *nodes, const dlti_attr *classes)
{
    size_t np;
    prefix *have = class_prefixes(c->spec, &np);
    for (size_t i = 0; i < dlti_attr_size(classes); i++) {
        size_t n;
        const char *cls = dlti_key_str(dlti_attr_entry_key(classes, i), &n);
        const dlti_attr *list = dlti_attr_entry_value(classes, i);
        if (!cls)
            continue;
        prefix key = {cls, n};
        if (have && !bsearch(&key, have, np, sizeof(*have), prefix_cmp))
            bad(c, "classes", cls, n, "class '%.*s' has no devices ('%.*s.CPU', ...)", (int)n,
                cls, (int)n, cls);
        if (dlti_attr_get_kind(list) != DLTI_ATTR_ARRAY || dlti_attr_size(list) == 0) {
            bad(c, "classes", cls, n, "'cluster.classes.%.*s' must be a list of node names",
                (int)n, cls);
            continue;
        }
        for (size_t j = 0; j < dlti_attr_size(list); j++) {
            const char *node, *in;
            size_t nl, il;
            const dlti_attr *m = NULL;
            if (is_str(dlti_attr_element(list, j), &node, &nl) && !memchr(node, '\0', nl)) {
                char name[512];
                snprintf(name, sizeof(name), "%.*s", (int)nl, node);
                m = nl < sizeof(name) ? get(nodes, name) : NULL;
            }
            if (!m || !is_str(m, &in, &il) || il != n || memcmp(in, cls, n) != 0) {
                bad(c, "classes", cls, n,
                    "'cluster.classes.%.*s' lists a node that 'cluster.nodes' does not put in "
                    "that class (element %zu)",
                    (int)n, cls, j);
                free(have);
                return;
            }
        }
    }
    free(have);
}

static void check_nodes(cl_check *c, const dlti_attr *nodes, const dlti_attr *classes)
{
    for (size_t i = 0; i < dlti_attr_size(nodes); i++) {
        size_t n, cl;
        const char *node = dlti_key_str(dlti_attr_entry_key(nodes, i), &n), *cls;
        if (!node)
            continue;
        if (!is_str(dlti_attr_entry_value(nodes, i), &cls, &cl) || memchr(cls, '\0', cl)) {
            bad(c, "nodes", node, n, "'cluster.nodes.%.*s' must be a class name (a string)",
                (int)n, node);
            continue;
        }
        char name[512];
        snprintf(name, sizeof(name), "%.*s", (int)cl, cls);
        if (cl >= sizeof(name) || !get(classes, name))
            bad(c, "nodes", node, n, "node '%.*s' is in class '%.*s', which 'cluster.classes' lacks",
                (int)n, node, (int)cl, cls);
    }
}

static void check_mpi(cl_check *c, const dlti_attr *dev, const dlti_attr *nodes)
{
    const dlti_attr *ranks = get(dev, "MPI:rank_nodes");
    int64_t size = 0;
    if (!get(dev, "MPI:comm_world_size") && !ranks)
        return;
    if (!want_i64(c, dev, "MPI:comm_world_size", 1, &size))
        return;
    if (!ranks || dlti_attr_get_kind(ranks) != DLTI_ATTR_ARRAY ||
        dlti_attr_size(ranks) != (uint64_t)size) {
        bad(c, "MPI:rank_nodes", NULL, 0,
            "'cluster.MPI:rank_nodes' must list the node of each of the %lld ranks", (long long)size);
        return;
    }
    for (size_t r = 0; r < dlti_attr_size(ranks); r++) {
        const char *s;
        size_t n;
        char name[512];
        if (!is_str(dlti_attr_element(ranks, r), &s, &n) || memchr(s, '\0', n) ||
            n >= sizeof(name) || (snprintf(name, sizeof(name), "%.*s", (int)n, s), !get(nodes, name))) {
            bad(c, "MPI:rank_nodes", NULL, 0,
                "'cluster.MPI:rank_nodes': rank %zu ran on no node of 'cluster.nodes'", r);
            return;
        }
    }
}

static const char *const known_keys[] = {"device_type", "schema_version", "num_nodes",
                                         "num_classes", "nodes", "classes", "MPI:comm_world_size",
                                         "MPI:rank_nodes", "extra"};

void sd_check_cluster(const dlti_attr *spec, const char *id, size_t idlen, const dlti_attr *dev,
                      sd_cluster_problem_fn report, void *user)
{
    cl_check c = {spec, report, user};
    if (idlen != strlen("cluster") || memcmp(id, "cluster", idlen) != 0)
        bad(&c, NULL, NULL, 0, "a device of device_type 'cluster' must have the id \"cluster\"");
    for (size_t i = 0; i < dlti_attr_size(dev); i++) {
        size_t n;
        const char *k = dlti_key_str(dlti_attr_entry_key(dev, i), &n);
        bool known = false;
        for (size_t j = 0; k && j < sizeof(known_keys) / sizeof(known_keys[0]); j++)
            known = known || (strlen(known_keys[j]) == n && memcmp(known_keys[j], k, n) == 0);
        if (k && !known)
            bad(&c, NULL, k, n,
                "unknown key '%.*s' in the cluster device (docs/cluster.md lists its keys)",
                (int)n, k);
    }
    int64_t version, num;
    if (get(dev, "schema_version") && want_i64(&c, dev, "schema_version", 1, &version) &&
        version > SYSDESC_SCHEMA_VERSION)
        bad(&c, "schema_version", NULL, 0, "the cluster follows schema version %lld; this "
            "sysdesc knows version %d", (long long)version, SYSDESC_SCHEMA_VERSION);
    const dlti_attr *nodes = get(dev, "nodes"), *classes = get(dev, "classes");
    if (!nodes || dlti_attr_get_kind(nodes) != DLTI_ATTR_MAP) {
        bad(&c, "nodes", NULL, 0, "'cluster.nodes' must be a #dlti.map of node names to classes");
        return;
    }
    if (!classes || dlti_attr_get_kind(classes) != DLTI_ATTR_MAP) {
        bad(&c, "classes", NULL, 0,
            "'cluster.classes' must be a #dlti.map of class names to lists of nodes");
        return;
    }
    if (want_i64(&c, dev, "num_nodes", 1, &num) && (uint64_t)num != dlti_attr_size(nodes))
        bad(&c, "num_nodes", NULL, 0, "'cluster.num_nodes' is %lld, but 'cluster.nodes' has %zu",
            (long long)num, dlti_attr_size(nodes));
    if (want_i64(&c, dev, "num_classes", 1, &num) && (uint64_t)num != dlti_attr_size(classes))
        bad(&c, "num_classes", NULL, 0,
            "'cluster.num_classes' is %lld, but 'cluster.classes' has %zu", (long long)num,
            dlti_attr_size(classes));
    check_nodes(&c, nodes, classes);
    check_classes(&c, nodes, classes);
    check_mpi(&c, dev, nodes);
}
