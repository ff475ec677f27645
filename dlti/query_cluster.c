/* Per-node device ids in a cluster spec (docs/cluster.md): a target system
 * spec that describes nodes by class holds "class<k>.GPU3" and a "cluster"
 * device whose "nodes" map names each node's class; "cn017.GPU3" is then
 * the device "GPU3" of cn017's class.  Queries try this only when the id
 * itself is missing, so a spec without "cluster" costs nothing. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of s[0..n) in `small`, or malloc'ed when longer. */
static char *terminated(char *small, size_t cap, const char *s, size_t n)
{
    char *b = n < cap ? small : malloc(n + 1);
    if (b) {
        memcpy(b, s, n);
        b[n] = '\0';
    }
    return b;
}

const dlti_attr *dlti_cluster_device(const dlti_attr *spec, const char *id, size_t len)
{
    if (!spec || spec->kind != DLTI_ATTR_SYSTEM_SPEC || memchr(id, '\0', len))
        return NULL;
    const dlti_attr *cluster = dlti_lookup_cstring(spec, "cluster");
    const dlti_attr *nodes = cluster ? dlti_lookup_cstring(cluster, "nodes") : NULL;
    if (!nodes)
        return NULL;
    /* Host names may hold dots, device ids do not: split at the last one. */
    const char *dot = NULL;
    for (size_t i = len; i-- > 0;)
        if (id[i] == '.') {
            dot = id + i;
            break;
        }
    if (!dot || dot == id || dot + 1 == id + len)
        return NULL;
    char small[256];
    char *node = terminated(small, sizeof(small), id, (size_t)(dot - id));
    const dlti_attr *cls = node ? dlti_lookup_cstring(nodes, node) : NULL;
    if (node != small)
        free(node);
    if (!cls || cls->kind != DLTI_ATTR_STRING)
        return NULL;
    /* "<class>.<device>" */
    size_t clen = cls->u.str.len, dlen = (size_t)(id + len - dot);
    if (memchr(cls->u.str.s, '\0', clen))
        return NULL;
    char small2[256];
    char *key = clen + dlen < sizeof(small2) ? small2 : malloc(clen + dlen + 1);
    if (!key)
        return NULL;
    memcpy(key, cls->u.str.s, clen);
    memcpy(key + clen, dot, dlen);
    key[clen + dlen] = '\0';
    const dlti_attr *dev = dlti_lookup_cstring(spec, key);
    if (key != small2)
        free(key);
    return dev;
}
