/* Probed GPUs filled from the catalog by PCI id: the one hook that the CLI's
 * probe and compose --host and C users share (sysdesc/catalog.h).
 *
 * The probe calls it last, once the runtimes' live values are in place, so
 * the catalog fills only what no driver reported (peaks, TDP, bandwidth):
 * a value the device has wins.  Each key the catalog fills is recorded in
 * the device's "source" map ("catalog nvidia/h100-sxm"); a measured value
 * (one with a "source" line of its own) that the entry gives differently is
 * recorded under "disagreements".<key>."catalog NAME" (docs/runtimes.md).
 *
 * Every claimant of the id is checked against what the device reports: the
 * siblings that share an id (the RX 7900 XT and XTX, the RX 9070 and 9070
 * XT), and the partition profiles declared as variants of a product (MIG
 * instances, MI300X CPX), which a device takes only when it is that
 * partition.  The one that fits fills the device, or nothing does, and
 * source.catalog says which and why: a sibling's or the whole product's
 * compute units and peaks would be a wrong description without a word. */
#include "sysdesc_private.h"

#include "sysdesc/catalog.h"
#include "sysdesc/compose.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */

static dlti_key skey(dlti_context *ctx, const char *s)
{
    return dlti_key_string(ctx, s, strlen(s));
}

/* The key to look `s` up with: NULL, found nowhere, when the context never
 * interned it.  Only reads, so a lookup cannot fail for memory. */
static dlti_key known(const dlti_context *ctx, const char *s)
{
    return dlti_key_find(ctx, s, strlen(s));
}

/* `m` (a map, or NULL for a new one) with `k` set to `v`. */
static const dlti_attr *map_set(dlti_context *ctx, const dlti_attr *m, const char *k,
                                const dlti_attr *v, dlti_error_t *err)
{
    dlti_key key = skey(ctx, k);
    if (!key || !v) { /* v: the caller's dlti_string_new() */
        dlti_context_nomem(ctx, err);
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
                   dlti_attr_lookup(n->source, known(n->ctx, sub))) {
            const dlti_attr *d =
                n->disagree ? dlti_attr_lookup(n->disagree, known(n->ctx, sub)) : NULL;
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
        bs_nomem(err);
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
        if (v && !k) {
            free(e);
            dlti_context_nomem(ctx, err);
            return NULL;
        }
        if (v)
            e[m++] = (dlti_entry){k, v};
    }
    const dlti_attr *out = dlti_container_new(ctx, DLTI_ATTR_DEVICE_SPEC, e, m, err);
    free(e);
    return out;
}

/* ---- telling siblings apart ---- */

static bool i64_key(dlti_context *ctx, const dlti_attr *dev, const char *key, int64_t *v)
{
    const dlti_attr *a = dlti_attr_lookup(dev, known(ctx, key));
    return a && dlti_attr_get_int64(a, v, NULL) == 0;
}

/* Whether the device's measured compute units and memory could be the
 * entry's: the same compute units (or EUs); memory not above the marketed size (the
 * nominal one, else the entry's) and not under 85% of the entry's (runtimes
 * report a few percent less than marketed: 23.6 of L4's 24 GiB). */
static bool could_be(dlti_context *ctx, const dlti_attr *dev, const dlti_attr *entry,
                     char *why, size_t size)
{
    int64_t mine, theirs, nominal;
    /* Intel's OpenCL counts EUs (num_execution_units), the others' units */
    static const char *const counts[] = {"num_compute_units", "num_execution_units"};
    for (size_t i = 0; i < 2; i++)
        if (i64_key(ctx, dev, counts[i], &mine) && i64_key(ctx, entry, counts[i], &theirs) &&
            mine != theirs) {
            snprintf(why, size, "%s %lld, not %lld", counts[i], (long long)mine,
                     (long long)theirs);
            return false;
        }
    if (i64_key(ctx, dev, "memory_size_in_bytes", &mine) &&
        i64_key(ctx, entry, "memory_size_in_bytes", &theirs)) {
        if (!i64_key(ctx, entry, "nominal_memory_size_in_bytes", &nominal) || nominal < theirs)
            nominal = theirs;
        if (mine > nominal || mine / 20 * 20 < theirs / 20 * 17) {
            snprintf(why, size, "memory_size_in_bytes %lld, not about %lld", (long long)mine,
                     (long long)theirs);
            return false;
        }
    }
    return true;
}

/* Whether `hay` holds `word` (case aside) with no letter or digit on either
 * side: "AMD Radeon RX 7900 XTX" holds "Radeon RX 7900 XTX", not
 * "Radeon RX 7900 XT". */
static bool holds_words(const char *hay, const char *word, size_t wlen)
{
    size_t hlen = strlen(hay);
    for (size_t i = 0; wlen && i + wlen <= hlen; i++) {
        if (strncasecmp(hay + i, word, wlen) != 0)
            continue;
        bool before = i == 0 || !isalnum((unsigned char)hay[i - 1]);
        bool after = i + wlen == hlen || !isalnum((unsigned char)hay[i + wlen]);
        if (before && after)
            return true;
    }
    return false;
}

static bool name_holds(const dlti_attr *a, const char *model, size_t mlen)
{
    const char *s;
    size_t len;
    return a && dlti_attr_get_string(a, &s, &len, NULL) == 0 && strlen(s) == len &&
           holds_words(s, model, mlen);
}

/* Whether a name a runtime gave the device (hwloc's GPUModel of an OS
 * device, runtimes.<r>.name, product_name, device_name) holds the entry's
 * model, without a parenthesis ("Instinct MI250X (one GCD)").  The device's
 * own `model` is not asked: without a runtime it is the PCI ids database's
 * name, which lists the siblings ("Navi 31 [Radeon RX 7900 XT/7900 XTX/...]"). */
static bool named_by_runtime(dlti_context *ctx, const dlti_attr *dev, const dlti_attr *entry)
{
    const dlti_attr *m = dlti_attr_lookup(entry, known(ctx, "model"));
    const char *model;
    size_t len;
    if (!m || dlti_attr_get_string(m, &model, &len, NULL) != 0)
        return false;
    const char *paren = strchr(model, '(');
    len = paren ? (size_t)(paren - model) : strlen(model);
    while (len && model[len - 1] == ' ')
        len--;
    static const char *const views[] = {"hwloc_info", "runtimes"};
    static const char *const names[] = {"GPUModel", "name", "product_name", "device_name"};
    for (size_t v = 0; v < 2; v++) {
        const dlti_attr *map = dlti_attr_lookup(dev, known(ctx, views[v]));
        for (size_t i = 0; map && dlti_attr_get_kind(map) == DLTI_ATTR_MAP &&
                           i < dlti_attr_size(map); i++) {
            const dlti_attr *one = dlti_attr_entry_value(map, i);
            for (size_t k = 0; dlti_attr_get_kind(one) == DLTI_ATTR_MAP && k < 4; k++)
                if (name_holds(dlti_attr_lookup(one, known(ctx, names[k])), model, len))
                    return true;
        }
    }
    return false;
}

/* Whether map `m` has boolean `key`: 1 true, 0 false, -1 absent. */
static int bool_key(dlti_context *ctx, const dlti_attr *m, const char *key)
{
    const dlti_attr *a = dlti_attr_lookup(m, known(ctx, key));
    bool b;
    return a && dlti_attr_get_bool(a, &b, NULL) == 0 ? b : -1;
}

/* A partition profile: a declared variant, or an entry that says it is one. */
static bool is_profile(dlti_context *ctx, const sd_pci_candidate *c)
{
    return c->variant || bool_key(ctx, c->device, "is_partition") == 1;
}

/* Whether candidate `c` could be the device, and if not why: a whole
 * product is never a partition the runtime reports, and a partition profile
 * is taken only on evidence (the device is a partition, or at least reports
 * the compute units that the profile's differ from the product's by). */
static bool fits(dlti_context *ctx, const dlti_attr *dev, const sd_pci_candidate *c,
                 char *why, size_t size)
{
    int partition = bool_key(ctx, dev, "is_partition");
    int64_t cus;
    if (is_profile(ctx, c)) {
        if (partition == 0) {
            snprintf(why, size, "a partition profile, and the device is not a partition");
            return false;
        }
        if (!i64_key(ctx, dev, "num_compute_units", &cus)) {
            snprintf(why, size, "a partition profile, and the device reports no compute units");
            return false;
        }
    } else if (partition == 1) {
        snprintf(why, size, "the whole product, and the device is a partition");
        return false;
    }
    return could_be(ctx, dev, c->device, why, size);
}

/* The candidate the device's measured values name, its index; -1 when none
 * or several are left.  `how` says which and why, for the "source" map. */
static int tell_apart(dlti_context *ctx, const dlti_attr *dev, const sysdesc_pci_info *pci,
                      const sd_pci_candidate *c, size_t n, char *how, size_t size)
{
    bool left[SD_PCI_CANDIDATES_MAX];
    size_t nleft = 0, last = 0, products = 0;
    char why[SD_PCI_CANDIDATES_MAX][96];
    for (size_t i = 0; i < n; i++) {
        left[i] = fits(ctx, dev, &c[i], why[i], sizeof(why[i]));
        products += left[i] && !is_profile(ctx, &c[i]);
    }
    /* Unless the device says it is a partition, a whole product that fits
     * wins over a profile that fits as well (a 7g.80gb MIG instance has
     * the whole H100's SMs). */
    for (size_t i = 0; i < n; i++) {
        if (left[i] && products && is_profile(ctx, &c[i])) {
            left[i] = false;
            snprintf(why[i], sizeof(why[i]), "a partition profile, and the whole product fits");
        }
        if (left[i])
            nleft++, last = i;
    }
    size_t named = 0, which = 0;
    if (nleft > 1)
        for (size_t i = 0; i < n; i++)
            if (left[i] && named_by_runtime(ctx, dev, c[i].device))
                named++, which = i;
    int at = nleft == 1 ? (int)last : nleft > 1 && named == 1 ? (int)which : -1;
    int64_t cus, mem;
    bool evidence = i64_key(ctx, dev, "num_compute_units", &cus) ||
                    i64_key(ctx, dev, "memory_size_in_bytes", &mem);
    size_t used = (size_t)snprintf(how, size, "PCI id %04x:%04x is claimed by", pci->vendor_id,
                                   pci->device_id);
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(how + used, size - used, "%s %s", i ? "," : "", c[i].name);
    if (at >= 0 && used < size)
        used += (size_t)snprintf(
            how + used, size - used, ": the device is %s (%s)", c[at].name,
            nleft > 1     ? "a runtime names its model"
            : !evidence   ? "the device reports no compute units or memory to compare"
            : n == 1      ? "its compute units and memory are the device's"
                          : "its compute units and memory are the device's, the others' are not");
    else if (used < size)
        used += (size_t)snprintf(how + used, size - used, "%s",
                                 nleft ? ": nothing filled, the device's runtimes do not tell "
                                         "which"
                                 : n == 1 ? ": nothing filled, the device is not that product"
                                          : ": nothing filled, the device is none of them");
    for (size_t i = 0; i < n && used < size; i++)
        if (!left[i])
            used += (size_t)snprintf(how + used, size - used, "; not %s: %s", c[i].name, why[i]);
    return at;
}

int sysdesc_catalog_pci_fill(void *search_path, dlti_context *ctx, const sysdesc_pci_info *pci,
                             const dlti_attr **device_spec, dlti_error_t *err)
{
    sd_pci_candidate c[SD_PCI_CANDIDATES_MAX];
    size_t n;
    if (sd_catalog_pci_candidates(ctx, pci->vendor_id, pci->device_id, (const char *)search_path,
                                  c, SD_PCI_CANDIDATES_MAX, &n, err) < 0)
        return -1;
    const dlti_attr *dev = *device_spec;
    /* Only entries of the device's own type fill it: a GPU entry's keys
     * (threads, warps) are no accelerator's, an ACCEL entry's
     * (num_matrix_engines) no GPU's, and a device the probe typed otherwise
     * than its PCI id's entry (an XML file's) keeps what the probe found,
     * as one the catalog does not know. */
    unsigned type = sysdesc_device_type_bits(NULL, dev);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!type || sysdesc_device_type_bits(NULL, c[i].device) == type)
            c[kept++] = c[i];
    n = kept;
    if (n == 0)
        return 0; /* a device the catalog does not know keeps what the probe found */
    dlti_key ksource = skey(ctx, "source");
    if (!ksource)
        return dlti_context_nomem(ctx, err);
    const dlti_attr *source = dlti_attr_lookup(dev, ksource);
    if (source && dlti_attr_get_kind(source) != DLTI_ATTR_MAP)
        source = NULL;
    /* Every fill says which entry and why, one claimant or several: a
     * partition or a sibling filled from the whole product is a wrong
     * description without a word. */
    char how[2400];
    int at = tell_apart(ctx, dev, pci, c, n, how, sizeof(how));
    source = map_set(ctx, source, "catalog", dlti_string_new(ctx, how, strlen(how)), err);
    if (!source)
        return -1;
    if (at < 0) {
        const dlti_attr *d = dlti_container_set(ctx, dev, ksource, source, err);
        if (!d)
            return -1;
        *device_spec = d;
        return 0;
    }
    char from[512];
    snprintf(from, sizeof(from), "catalog %s", c[at].name);
    const dlti_attr *entry = c[at].device;
    note nt = {ctx, source, dlti_attr_lookup(dev, known(ctx, "disagreements")),
               dlti_string_new(ctx, from, strlen(from)), from, err, false};
    if (nt.disagree && dlti_attr_get_kind(nt.disagree) != DLTI_ATTR_MAP)
        nt.disagree = NULL;
    walk(&nt, dev, entry, "");
    const dlti_attr *filled = nt.failed ? NULL : sysdesc_device_fill(ctx, dev, entry, err);
    if (filled)
        filled = tidy(ctx, filled, &nt, err);
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
