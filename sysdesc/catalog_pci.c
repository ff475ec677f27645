/* Probed GPUs filled from the catalog by PCI id: the one hook that the CLI's
 * probe and compose --host and C users share (sysdesc/catalog.h).
 *
 * The probe calls it last, once the runtimes' live values are in place, so
 * the catalog fills only what no driver reported (peaks, TDP, bandwidth):
 * a value the device has wins.  Each key the catalog fills is recorded in
 * the device's "source" map ("catalog nvidia/h100-sxm"); a measured value
 * (one with a "source" line of its own) that the entry gives differently is
 * recorded under "disagreements".<key>."catalog NAME" (docs/runtimes.md). */
#include "sysdesc_private.h"

#include "sysdesc/catalog.h"
#include "sysdesc/compose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dlti_key skey(dlti_context *ctx, const char *s)
{
    return dlti_key_string(ctx, s, strlen(s));
}

/* `m` (a map, or NULL for a new one) with `k` set to `v`. */
static const dlti_attr *map_set(dlti_context *ctx, const dlti_attr *m, const char *k,
                                const dlti_attr *v, dlti_error_t *err)
{
    dlti_key key = skey(ctx, k);
    if (!key || !v) {
        dlti_error_set(err, DLTI_ERROR_NOMEM, "out of memory");
        return NULL;
    }
    if (m && dlti_attr_get_kind(m) == DLTI_ATTR_MAP)
        return dlti_container_set(ctx, m, key, v, err);
    dlti_entry e = {key, v};
    return dlti_container_new(ctx, DLTI_ATTR_MAP, &e, 1, err);
}

typedef struct note {
    dlti_context *ctx;
    const dlti_attr *source, *disagree; /* the device's maps, NULL when absent */
    const dlti_attr *from;              /* "catalog NAME" */
    const char *from_text;
    dlti_error_t *err;
    bool failed;
} note;

/* Records what entry `cat` adds to device map `mine` at `path` (dotted):
 * the keys it fills, and where a measured value differs. */
static void walk(note *n, const dlti_attr *mine, const dlti_attr *cat, const char *path)
{
    for (size_t i = 0; i < dlti_attr_size(cat) && !n->failed; i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(cat, i), NULL);
        const dlti_attr *cv = dlti_attr_entry_value(cat, i);
        if (!k)
            continue;
        char sub[1024];
        snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
        const dlti_attr *mv = mine ? dlti_attr_lookup(mine, dlti_attr_entry_key(cat, i)) : NULL;
        if (!mv) {
            n->source = map_set(n->ctx, n->source, sub, n->from, n->err);
            n->failed = !n->source;
        } else if (dlti_attr_get_kind(mv) == DLTI_ATTR_MAP &&
                   dlti_attr_get_kind(cv) == DLTI_ATTR_MAP) {
            walk(n, mv, cv, sub);
        } else if (!dlti_attr_equal(mv, cv) && n->source &&
                   dlti_attr_lookup(n->source, skey(n->ctx, sub))) {
            const dlti_attr *d =
                n->disagree ? dlti_attr_lookup(n->disagree, skey(n->ctx, sub)) : NULL;
            d = map_set(n->ctx, d, n->from_text, cv, n->err);
            n->disagree = d ? map_set(n->ctx, n->disagree, sub, d, n->err) : NULL;
            n->failed = !n->disagree;
        }
    }
}

/* The filled device with its bookkeeping last: the keys, then runtimes,
 * disagreements, source and suspect. */
static const dlti_attr *tidy(dlti_context *ctx, const dlti_attr *dev, const note *n,
                             dlti_error_t *err)
{
    static const char *const tail[] = {"runtimes", "disagreements", "source", "suspect"};
    size_t size = dlti_attr_size(dev);
    dlti_entry *e = calloc(size + 2, sizeof(*e));
    if (!e) {
        dlti_error_set(err, DLTI_ERROR_NOMEM, "out of memory");
        return NULL;
    }
    size_t m = 0;
    for (size_t i = 0; i < size; i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(dev, i), NULL);
        bool last = false;
        for (size_t t = 0; k && t < sizeof(tail) / sizeof(tail[0]); t++)
            last |= strcmp(k, tail[t]) == 0;
        if (!last)
            e[m++] = (dlti_entry){dlti_attr_entry_key(dev, i), dlti_attr_entry_value(dev, i)};
    }
    for (size_t t = 0; t < sizeof(tail) / sizeof(tail[0]); t++) {
        dlti_key k = skey(ctx, tail[t]);
        const dlti_attr *v = t == 1 ? n->disagree : t == 2 ? n->source : dlti_attr_lookup(dev, k);
        if (v)
            e[m++] = (dlti_entry){k, v};
    }
    const dlti_attr *out = dlti_container_new(ctx, DLTI_ATTR_DEVICE_SPEC, e, m, err);
    free(e);
    return out;
}

int sysdesc_catalog_pci_fill(void *search_path, dlti_context *ctx, const sysdesc_pci_info *pci,
                             const dlti_attr **device_spec, dlti_error_t *err)
{
    dlti_error_t inner;
    char *name = NULL;
    const dlti_attr *entry = sysdesc_catalog_match_pci(ctx, pci->vendor_id, pci->device_id,
                                                       (const char *)search_path, &name, &inner);
    if (!entry) {
        if (inner.code == DLTI_ERROR_NOT_FOUND)
            return 0; /* a device the catalog does not know keeps what the probe found */
        if (err)
            *err = inner;
        return -1;
    }
    char from[512];
    snprintf(from, sizeof(from), "catalog %s", name ? name : "?");
    free(name);
    const dlti_attr *dev = *device_spec;
    note n = {ctx, dlti_attr_lookup(dev, skey(ctx, "source")),
              dlti_attr_lookup(dev, skey(ctx, "disagreements")),
              dlti_string_new(ctx, from, strlen(from)), from, err, false};
    if (n.source && dlti_attr_get_kind(n.source) != DLTI_ATTR_MAP)
        n.source = NULL;
    if (n.disagree && dlti_attr_get_kind(n.disagree) != DLTI_ATTR_MAP)
        n.disagree = NULL;
    walk(&n, dev, entry, "");
    const dlti_attr *filled = n.failed ? NULL : sysdesc_device_fill(ctx, dev, entry, err);
    if (filled)
        filled = tidy(ctx, filled, &n, err);
    if (!filled)
        return -1;
    *device_spec = filled;
    return 0;
}

void sysdesc_catalog_probe_options(sysdesc_probe_options *opts, const char *search_path)
{
    opts->pci_match = sysdesc_catalog_pci_fill;
    opts->pci_match_user = (void *)search_path;
}
