/* Node classes: many nodes probed one by one, identical ones described once
 * (sysdesc/cluster.h, docs/cluster.md).  A node is probed in a context of
 * its own; its spec without the host name is printed, and that text is the
 * class's identity: equal texts, one class.  Only a new class is parsed
 * into the caller's context, so memory grows with the classes. */
#define _GNU_SOURCE
#include "probe_private.h"
#include "sysdesc/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct cl_class {
    char *text; /* the node's system spec, printed, without host names */
    size_t len;
    uint64_t hash;
    const dlti_attr *spec; /* parsed in the builder's context */
} cl_class;

typedef struct cl_node {
    char *name;
    size_t cls;
} cl_node;

struct sysdesc_cluster {
    dlti_context *ctx;
    sysdesc_probe_options opts;
    cl_class *classes;
    size_t nclasses, capclasses;
    cl_node *nodes;
    size_t nnodes, capnodes;
    uint32_t *name_index; /* open addressing over nodes, 1-based; 0 empty */
    size_t index_cap;     /* a power of two, at least twice nnodes */
    size_t *rank_node;
    size_t nranks;
    bool has_ranks;
    /* hwloc loads its plugins (libxml2, OpenCL, X11...) when the first
     * topology of the process is created and unloads them when the last is
     * destroyed: an empty topology held for the builder's life keeps them
     * loaded from one node to the next (a third of the time per node). */
    hwloc_topology_t keep_plugins;
    bool have_keep;
};

/* Where the class's source.topology says its spec came from: the same for
 * every node of the class, so that neither file names nor ranks split it. */
static const char class_provenance[] = "of each node of the class";

sysdesc_cluster *sysdesc_cluster_new(dlti_context *ctx, const sysdesc_probe_options *opts,
                                     dlti_error_t *err)
{
    if (!ctx) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no context");
        return NULL;
    }
    sysdesc_cluster *cl = calloc(1, sizeof(*cl));
    if (!cl) {
        bs_nomem(err);
        return NULL;
    }
    cl->ctx = ctx;
    if (opts)
        cl->opts = *opts;
    else
        sysdesc_probe_options_init(&cl->opts);
    cl->opts.device_prefix = NULL;
    cl->have_keep = hwloc_topology_init(&cl->keep_plugins) == 0;
    return cl;
}

void sysdesc_cluster_free(sysdesc_cluster *cl)
{
    if (!cl)
        return;
    for (size_t i = 0; i < cl->nclasses; i++)
        free(cl->classes[i].text);
    for (size_t i = 0; i < cl->nnodes; i++)
        free(cl->nodes[i].name);
    free(cl->classes);
    free(cl->nodes);
    free(cl->name_index);
    free(cl->rank_node);
    if (cl->have_keep)
        hwloc_topology_destroy(cl->keep_plugins);
    free(cl);
}

/* ---- node names: unique, found in constant time ---- */

static size_t *name_slot(const sysdesc_cluster *cl, const char *name, size_t *slot)
{
    size_t mask = cl->index_cap - 1;
    for (size_t j = bs_hash_bytes(name, strlen(name)) & mask;; j = (j + 1) & mask) {
        uint32_t v = cl->name_index[j];
        *slot = j;
        if (!v || strcmp(cl->nodes[v - 1].name, name) == 0)
            return slot;
    }
}

static int grow_name_index(sysdesc_cluster *cl)
{
    if (cl->index_cap >= 2 * (cl->nnodes + 1))
        return 0;
    size_t cap = cl->index_cap ? cl->index_cap * 2 : 64;
    uint32_t *old = cl->name_index;
    cl->name_index = calloc(cap, sizeof(*old));
    if (!cl->name_index) {
        cl->name_index = old;
        return -1;
    }
    cl->index_cap = cap;
    for (size_t i = 0; i < cl->nnodes; i++) {
        size_t s;
        name_slot(cl, cl->nodes[i].name, &s);
        cl->name_index[s] = (uint32_t)(i + 1);
    }
    free(old);
    return 0;
}

/* Adds node `name` of class `cls`; -1 when the name is taken or memory runs out. */
static int add_node(sysdesc_cluster *cl, const char *name, size_t cls, const char *where,
                    dlti_error_t *err)
{
    if (cl->nnodes >= UINT32_MAX - 1 || grow_name_index(cl) != 0 ||
        bs_grow((void **)&cl->nodes, &cl->capnodes, cl->nnodes + 1, sizeof(cl_node)) != 0)
        return bs_nomem(err);
    size_t s;
    name_slot(cl, name, &s);
    if (cl->name_index[s]) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, where, 0, 0,
                        "a second node named '%s' (node %u of the cluster has that name; a "
                        "node's name is its HostName, else node<i>)",
                        name, cl->name_index[s] - 1);
        return -1;
    }
    char *copy = strdup(name);
    if (!copy)
        return bs_nomem(err);
    cl->nodes[cl->nnodes] = (cl_node){copy, cls};
    cl->name_index[s] = (uint32_t)++cl->nnodes;
    return 0;
}

/* ---- one node ---- */

/* Whether an hwloc info names one physical device, not its kind:
 * NVIDIAUUID, NVIDIASerial, AMDUUID, LevelZeroSerialNumber... */
static bool is_identity_info(const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((len - i >= 4 && strncasecmp(name + i, "uuid", 4) == 0) ||
            (len - i >= 6 && strncasecmp(name + i, "serial", 6) == 0))
            return true;
    return false;
}

/* `map` without its entries whose key `drop` names (may return map itself). */
static const dlti_attr *without(dlti_context *ctx, const dlti_attr *map,
                                bool (*drop)(const char *, size_t), dlti_error_t *err)
{
    for (size_t i = 0; map && i < dlti_attr_size(map);) {
        size_t n;
        dlti_key k = dlti_attr_entry_key(map, i);
        const char *name = dlti_key_str(k, &n);
        if (name && drop(name, n))
            map = dlti_container_set(ctx, map, k, NULL, err);
        else
            i++;
    }
    return map;
}

/* hwloc_info: OS device name -> its infos, each without identities; a map
 * left empty goes.  *empty: nothing is left (NULL returned, no error). */
static const dlti_attr *infos_without_identity(dlti_context *ctx, const dlti_attr *infos,
                                               bool *empty, dlti_error_t *err)
{
    size_t n = dlti_attr_size(infos), m = 0;
    bool changed = false;
    *empty = false;
    dlti_entry *e = malloc((n ? n : 1) * sizeof(*e));
    if (!e)
        return bs_nomem(err), NULL;
    for (size_t i = 0; i < n; i++) {
        const dlti_attr *os = dlti_attr_entry_value(infos, i), *kept = os;
        if (dlti_attr_get_kind(os) == DLTI_ATTR_MAP && !(kept = without(ctx, os, is_identity_info, err))) {
            free(e);
            return NULL;
        }
        changed = changed || kept != os;
        if (kept != os && dlti_attr_size(kept) == 0)
            continue;
        e[m++] = (dlti_entry){dlti_attr_entry_key(infos, i), kept};
    }
    const dlti_attr *r = !changed ? infos : m ? dlti_container_new(ctx, DLTI_ATTR_MAP, e, m, err) : NULL;
    *empty = changed && m == 0;
    free(e);
    return r;
}

/* A device's keys that name this node or this very device, not its kind. */
static bool is_identity_key(const char *name, size_t len)
{
    return (len == 8 && memcmp(name, "hostname", 8) == 0) ||
           (len == 4 && memcmp(name, "uuid", 4) == 0);
}

/* The node's spec without what differs between identical nodes: the host
 * name (it goes into *host, malloc'ed, or NULL when the topology names no
 * host) and per-device identities (docs/cluster.md). */
static const dlti_attr *without_identity(dlti_context *ctx, const dlti_attr *spec, char **host,
                                         dlti_error_t *err)
{
    *host = NULL;
    dlti_key hk = dlti_key_string(ctx, "hostname", strlen("hostname"));
    dlti_key ik = dlti_key_string(ctx, "hwloc_info", strlen("hwloc_info"));
    if (!hk || !ik)
        return dlti_context_nomem(ctx, err), NULL;
    for (size_t i = 0; spec && i < dlti_attr_size(spec); i++) {
        const dlti_attr *dev = dlti_attr_entry_value(spec, i), *orig = dev;
        const dlti_attr *h = dlti_attr_lookup(dev, hk);
        const char *s;
        size_t n;
        if (h && !*host && dlti_attr_get_string(h, &s, &n, NULL) == 0 && n &&
            !memchr(s, '\0', n) && !(*host = strndup(s, n)))
            return bs_nomem(err), NULL;
        dev = without(ctx, dev, is_identity_key, err);
        const dlti_attr *infos = dev ? dlti_attr_lookup(dev, ik) : NULL;
        bool empty = false;
        const dlti_attr *kept = infos ? infos_without_identity(ctx, infos, &empty, err) : NULL;
        if (infos && !kept && !empty)
            return NULL;
        if (dev && kept != infos)
            dev = dlti_container_set(ctx, dev, ik, kept, err);
        if (!dev)
            return NULL;
        if (dev != orig)
            spec = dlti_container_set(ctx, spec, dlti_attr_entry_key(spec, i), dev, err);
    }
    return spec;
}

/* The class of a printed node spec: an existing one, or a new one (which
 * takes `text`).  -1 with err when parsing or memory fails. */
static long find_class(sysdesc_cluster *cl, char **text, size_t len, dlti_error_t *err)
{
    uint64_t h = bs_hash_bytes(*text, len);
    for (size_t k = 0; k < cl->nclasses; k++) {
        const cl_class *c = &cl->classes[k];
        if (c->hash == h && c->len == len && memcmp(c->text, *text, len) == 0)
            return (long)k;
    }
    if (bs_grow((void **)&cl->classes, &cl->capclasses, cl->nclasses + 1, sizeof(cl_class)) != 0)
        return bs_nomem(err);
    const dlti_attr *spec = dlti_attr_parse(cl->ctx, *text, len, "node class", err);
    if (!spec)
        return -1;
    cl->classes[cl->nclasses] = (cl_class){*text, len, h, spec};
    *text = NULL;
    return (long)cl->nclasses++;
}

static int add_node_topology(sysdesc_cluster *cl, const pb_topology_source *src, const char *where,
                             dlti_error_t *err)
{
    if (!cl) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no cluster");
        return -1;
    }
    if (err)
        memset(err, 0, sizeof(*err));
    dlti_context *scratch = dlti_context_new();
    if (!scratch)
        return bs_nomem(err);
    dlti_limits limits = dlti_context_get_limits(cl->ctx);
    dlti_context_set_limits(scratch, &limits);
    int rc = -1;
    char *host = NULL, *text = NULL;
    size_t len = 0;
    const dlti_attr *spec = pb_probe_topology(scratch, &cl->opts, src, err);
    if (spec && (spec = without_identity(scratch, spec, &host, err))) {
        if (!(text = dlti_attr_print(spec, &len))) {
            bs_nomem(err);
        } else {
            long k = find_class(cl, &text, len, err);
            char fallback[32];
            snprintf(fallback, sizeof(fallback), "node%zu", cl->nnodes);
            if (k >= 0)
                rc = add_node(cl, host ? host : fallback, (size_t)k, where, err);
        }
    }
    free(text);
    free(host);
    dlti_context_free(scratch);
    return rc;
}

int sysdesc_cluster_add_xml_file(sysdesc_cluster *cl, const char *path, dlti_error_t *err)
{
    if (!path) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no XML file given");
        return -1;
    }
    if (cl)
        cl->opts.xml_path = path;
    pb_topology_source src = {.provenance = class_provenance};
    int rc = add_node_topology(cl, &src, path, err);
    if (cl)
        cl->opts.xml_path = NULL;
    return rc;
}

int sysdesc_cluster_add_xml_text(sysdesc_cluster *cl, const char *xml, size_t len,
                                 const char *label, dlti_error_t *err)
{
    if (!xml) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, label, 0, 0, "no XML text given");
        return -1;
    }
    pb_topology_source src = {xml, len, label ? label : "XML text", class_provenance};
    return add_node_topology(cl, &src, src.label, err);
}

int sysdesc_cluster_set_ranks(sysdesc_cluster *cl, const size_t *rank_node, size_t nranks,
                              dlti_error_t *err)
{
    if (!cl || (!rank_node && nranks) || nranks > INT32_MAX) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no cluster or no rank map");
        return -1;
    }
    for (size_t r = 0; r < nranks; r++)
        if (rank_node[r] >= cl->nnodes) {
            bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0,
                            "rank %zu ran on node %zu, but the cluster has %zu nodes", r,
                            rank_node[r], cl->nnodes);
            return -1;
        }
    size_t *copy = malloc((nranks ? nranks : 1) * sizeof(*copy));
    if (!copy)
        return bs_nomem(err);
    if (nranks)
        memcpy(copy, rank_node, nranks * sizeof(*copy));
    free(cl->rank_node);
    cl->rank_node = copy;
    cl->nranks = nranks;
    cl->has_ranks = true;
    return 0;
}

/* ---- the spec ---- */

static const dlti_attr *str_attr(dlti_context *ctx, const char *s)
{
    return dlti_string_new(ctx, s, strlen(s));
}

/* "classes": class name -> [its nodes' names], in the order they came. */
static void add_classes(sysdesc_cluster *cl, pb_map *dev)
{
    dlti_context *ctx = cl->ctx;
    pb_map classes;
    pb_init(&classes);
    const dlti_attr **names = malloc((cl->nnodes ? cl->nnodes : 1) * sizeof(*names));
    if (!names)
        classes.failed = true;
    for (size_t k = 0; names && k < cl->nclasses; k++) {
        size_t n = 0;
        for (size_t i = 0; i < cl->nnodes; i++)
            if (cl->nodes[i].cls == k)
                names[n++] = str_attr(ctx, cl->nodes[i].name);
        bool ok = true;
        for (size_t i = 0; i < n; i++)
            ok = ok && names[i];
        char key[32];
        snprintf(key, sizeof(key), "class%zu", k);
        pb_add(ctx, &classes, key, ok ? dlti_array_new(ctx, names, n) : NULL);
    }
    free(names);
    pb_add(ctx, dev, "classes", classes.failed ? NULL : pb_finish(ctx, &classes, DLTI_ATTR_MAP, NULL));
    if (classes.failed)
        pb_free(&classes);
}

static const dlti_attr *cluster_device(sysdesc_cluster *cl, dlti_error_t *err)
{
    dlti_context *ctx = cl->ctx;
    pb_map dev, nodes;
    pb_init(&dev);
    pb_init(&nodes);
    pb_device_head(ctx, &dev, "cluster");
    pb_i64(ctx, &dev, "num_nodes", (int64_t)cl->nnodes);
    pb_i64(ctx, &dev, "num_classes", (int64_t)cl->nclasses);
    for (size_t i = 0; i < cl->nnodes; i++) {
        char cls[32];
        snprintf(cls, sizeof(cls), "class%zu", cl->nodes[i].cls);
        pb_add(ctx, &nodes, cl->nodes[i].name, str_attr(ctx, cls));
    }
    pb_add(ctx, &dev, "nodes", pb_finish(ctx, &nodes, DLTI_ATTR_MAP, err));
    add_classes(cl, &dev);
    if (cl->has_ranks) {
        pb_i64(ctx, &dev, "MPI:comm_world_size", (int64_t)cl->nranks);
        const char **names = malloc((cl->nranks ? cl->nranks : 1) * sizeof(*names));
        for (size_t r = 0; names && r < cl->nranks; r++)
            names[r] = cl->nodes[cl->rank_node[r]].name;
        pb_add(ctx, &dev, "MPI:rank_nodes", names ? pb_str_array(ctx, names, cl->nranks) : NULL);
        free(names);
    }
    return pb_finish(ctx, &dev, DLTI_ATTR_DEVICE_SPEC, err);
}

const dlti_attr *sysdesc_cluster_finish(sysdesc_cluster *cl, dlti_error_t *err)
{
    if (!cl || cl->nnodes == 0) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no nodes in the cluster");
        return NULL;
    }
    dlti_context *ctx = cl->ctx;
    pb_map sys;
    pb_init(&sys);
    for (size_t k = 0; k < cl->nclasses; k++) {
        const dlti_attr *spec = cl->classes[k].spec;
        for (size_t j = 0; j < dlti_attr_size(spec); j++) {
            size_t n;
            const char *id = dlti_key_str(dlti_attr_entry_key(spec, j), &n);
            char key[300];
            if (!id || n > 256) {
                sys.failed = true;
                break;
            }
            snprintf(key, sizeof(key), "class%zu.%.*s", k, (int)n, id);
            pb_add(ctx, &sys, key, dlti_attr_entry_value(spec, j));
        }
    }
    const dlti_attr *cluster = cluster_device(cl, err);
    if (!cluster) {
        pb_free(&sys);
        return NULL;
    }
    pb_add(ctx, &sys, "cluster", cluster);
    return pb_finish(ctx, &sys, DLTI_ATTR_SYSTEM_SPEC, err);
}

/* One XML file is one host's probe; several are a cluster's nodes. */
const dlti_attr *sysdesc_probe_xml_files(dlti_context *ctx, const char *const *paths, size_t n,
                                         const sysdesc_probe_options *opts, dlti_error_t *err)
{
    if (!ctx || !paths || n == 0) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no XML files given");
        return NULL;
    }
    sysdesc_probe_options o;
    if (opts)
        o = *opts;
    else
        sysdesc_probe_options_init(&o);
    o.device_prefix = NULL;
    if (n == 1) {
        o.xml_path = paths[0];
        return sysdesc_probe_host(ctx, &o, err);
    }
    /* Many nodes: node classes (cluster.c, docs/cluster.md). */
    o.xml_path = NULL;
    sysdesc_cluster *cl = sysdesc_cluster_new(ctx, &o, err);
    if (!cl)
        return NULL;
    const dlti_attr *spec = NULL;
    size_t i = 0;
    while (i < n && sysdesc_cluster_add_xml_file(cl, paths[i], err) == 0)
        i++;
    if (i == n)
        spec = sysdesc_cluster_finish(cl, err);
    sysdesc_cluster_free(cl);
    return spec;
}
