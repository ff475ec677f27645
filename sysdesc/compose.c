/* Composing descriptions into one system: ids, counts, data layouts. */
#define _GNU_SOURCE /* strdup */
#include "sysdesc_private.h"

#include "sysdesc/compose.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A composition holds at most this many devices, as one item's :N may
 * make (five items of :100000 made a 1.37 GB spec from a 90-byte command
 * line). */
#define COMPOSE_MAX_DEVICES 100000

struct sysdesc_compose {
    dlti_context *ctx;
    dlti_entry *devices;
    size_t n, cap;
    dlti_key *ids; /* the ids so far, open addressing on the (interned) key */
    size_t nslots;
    const dlti_attr *dl_spec;
    const char *data_layout;
};

sysdesc_compose *sysdesc_compose_new(dlti_context *ctx)
{
    sysdesc_compose *c = calloc(1, sizeof(*c));
    if (c)
        c->ctx = ctx;
    return c;
}

void sysdesc_compose_free(sysdesc_compose *c)
{
    if (c) {
        free(c->devices);
        free(c->ids);
    }
    free(c);
}

static size_t slot_of(dlti_key key, size_t nslots)
{
    uintptr_t h = (uintptr_t)key;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15u;
    return (size_t)(h ^ (h >> 29)) & (nslots - 1);
}

/* Whether `key` was added before, adding it when not; -1 out of memory.
 * A hash of the ids: linear in the devices (a scan of all before each made
 * 500,000 devices take minutes). */
static int seen(sysdesc_compose *c, dlti_key key)
{
    if (2 * (c->n + 1) > c->nslots) {
        size_t nslots = c->nslots ? 2 * c->nslots : 64;
        dlti_key *ids = calloc(nslots, sizeof(*ids));
        if (!ids)
            return -1;
        for (size_t i = 0; i < c->n; i++) {
            size_t s = slot_of(c->devices[i].key, nslots);
            while (ids[s])
                s = (s + 1) & (nslots - 1);
            ids[s] = c->devices[i].key;
        }
        free(c->ids);
        c->ids = ids;
        c->nslots = nslots;
    }
    size_t s = slot_of(key, c->nslots);
    for (; c->ids[s]; s = (s + 1) & (c->nslots - 1))
        if (c->ids[s] == key)
            return 1;
    c->ids[s] = key;
    return 0;
}

static int add_device(sysdesc_compose *c, const char *id, size_t len, const dlti_attr *dev,
                      dlti_error_t *err)
{
    if (c->n >= COMPOSE_MAX_DEVICES) {
        bs_error_set(err, DLTI_ERROR_LIMIT,
                     "a composition holds at most %d devices: '%.*s' would be one more",
                     COMPOSE_MAX_DEVICES, (int)len, id);
        return -1;
    }
    dlti_key key = dlti_key_string(c->ctx, id, len);
    if (!key)
        return dlti_context_nomem(c->ctx, err);
    /* room first: seen() adds the id, which must then be added */
    if (bs_grow((void **)&c->devices, &c->cap, c->n + 1, sizeof(*c->devices)))
        return bs_nomem(err);
    int was = seen(c, key);
    if (was < 0) {
        bs_nomem(err);
        return -1;
    }
    if (was) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "device id '%.*s' is used twice: rename one (ID=ITEM)", (int)len, id);
        return -1;
    }
    c->devices[c->n].key = key;
    c->devices[c->n].value = dev;
    c->n++;
    return 0;
}

static int add_layout(sysdesc_compose *c, const sysdesc_system *sys, dlti_error_t *err)
{
    if (!sys->dl_spec && !sys->data_layout)
        return 0;
    bool same = (c->dl_spec && sys->dl_spec && dlti_attr_equal(c->dl_spec, sys->dl_spec)) ||
                (!c->dl_spec && !sys->dl_spec && c->data_layout && sys->data_layout &&
                 strcmp(c->data_layout, sys->data_layout) == 0);
    if ((c->dl_spec || c->data_layout) && !same) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "two items name different data layouts: a system has one");
        return -1;
    }
    c->dl_spec = sys->dl_spec;
    c->data_layout = sys->data_layout;
    return 0;
}

int sysdesc_compose_add(sysdesc_compose *c, const sysdesc_system *sys, const char *id,
                        unsigned count, dlti_error_t *err)
{
    bs_error_clear(err);
    size_t ndev = dlti_attr_size(sys->spec);
    if (count >= 1 && ndev != 1) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "a count needs a single-device item; this one has %zu devices", ndev);
        return -1;
    }
    if (add_layout(c, sys, err) < 0)
        return -1;
    for (size_t i = 0; i < ndev; i++) {
        size_t olen;
        const char *own = dlti_key_str(dlti_attr_entry_key(sys->spec, i), &olen);
        const dlti_attr *dev = dlti_attr_entry_value(sys->spec, i);
        bs_buf name = {0};
        if (id && ndev == 1)
            bs_buf_puts(&name, id);
        else if (id)
            bs_buf_printf(&name, "%s.%.*s", id, (int)olen, own);
        else
            bs_buf_put(&name, own, olen);
        char *base = sd_buf_finish(&name, NULL);
        if (!base) {
            bs_nomem(err);
            return -1;
        }
        int rc = 0;
        if (count >= 1) {
            for (unsigned k = 0; k < count && rc == 0; k++) {
                char numbered[DLTI_ERROR_SOURCE_LENGTH + 16];
                int len = snprintf(numbered, sizeof(numbered), "%s%u", base, k);
                rc = add_device(c, numbered, (size_t)len, dev, err);
            }
        } else {
            rc = add_device(c, base, strlen(base), dev, err);
        }
        free(base);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Splits "[ID=]ITEM[:N]"; the strings point into `arg` (modified). */
static int split_item(char *arg, char **id, char **item, unsigned *count)
{
    *id = NULL;
    *count = 0; /* no :N: the ids as given */
    char *eq = strchr(arg, '=');
    if (eq && !memchr(arg, '/', (size_t)(eq - arg))) {
        *eq = '\0';
        *id = arg;
        arg = eq + 1;
        if (!**id)
            return -1;
    }
    /* F:0, F:-1, F:+1, F: and F:99999999999999999999 are all a bad count,
     * never a search for a file named "F:-1". */
    char *colon = strrchr(arg, ':');
    if (colon && strspn(colon + 1, "+- 0123456789") == strlen(colon + 1)) {
        const char *d = colon + 1;
        size_t nd = strlen(d);
        if (nd == 0 || nd > 6 || strspn(d, "0123456789") != nd)
            return -1;
        unsigned long n = strtoul(d, NULL, 10);
        if (n == 0 || n > 100000)
            return -1;
        *count = (unsigned)n;
        *colon = '\0';
    }
    *item = arg;
    return **item ? 0 : -1;
}

int sysdesc_compose_add_item(sysdesc_compose *c, const char *text,
                             const sysdesc_yaml_options *opts, dlti_error_t *err)
{
    bs_error_clear(err);
    if (!c || !text) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "compose: no composition or item");
        return -1;
    }
    char *copy = strdup(text), *id, *item;
    unsigned count;
    sysdesc_system sys;
    int rc = -1;
    if (!copy) {
        bs_nomem(err);
    } else if (split_item(copy, &id, &item, &count) < 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "'%s' is not [ID=]ITEM[:N] (N from 1 to 100000)", text);
    } else if (sysdesc_system_load(c->ctx, item, opts, &sys, err) == 0) {
        dlti_error_t add;
        rc = sysdesc_compose_add(c, &sys, id, count, &add);
        if (rc != 0)
            bs_error_set(err, add.code, "%s: %s", text, add.text);
    }
    free(copy);
    return rc;
}

int sysdesc_compose_finish(sysdesc_compose *c, sysdesc_system *out, dlti_error_t *err)
{
    bs_error_clear(err);
    if (c->n == 0) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "nothing to compose: no devices");
        return -1;
    }
    const dlti_attr *spec = dlti_container_new(c->ctx, DLTI_ATTR_SYSTEM_SPEC, c->devices, c->n, err);
    if (!spec)
        return -1;
    /* Every field, the ones added later (module, llvm_target) included: a
     * caller's uninitialised struct must not keep a stale pointer. */
    memset(out, 0, sizeof(*out));
    out->spec = spec;
    out->dl_spec = c->dl_spec;
    out->data_layout = c->data_layout;
    return 0;
}

const dlti_attr *sysdesc_device_fill(dlti_context *ctx, const dlti_attr *device,
                                     const dlti_attr *catalog_device, dlti_error_t *err)
{
    bs_error_clear(err);
    const dlti_attr *result = device;
    for (size_t i = 0; i < dlti_attr_size(catalog_device) && result; i++) {
        dlti_key k = dlti_attr_entry_key(catalog_device, i);
        const dlti_attr *cv = dlti_attr_entry_value(catalog_device, i);
        const dlti_attr *mine = dlti_attr_lookup(result, k);
        if (!mine) {
            result = dlti_container_set(ctx, result, k, cv, err);
        } else if (dlti_attr_get_kind(mine) == DLTI_ATTR_MAP &&
                   dlti_attr_get_kind(cv) == DLTI_ATTR_MAP) {
            const dlti_attr *merged = sysdesc_device_fill(ctx, mine, cv, err);
            result = merged ? dlti_container_set(ctx, result, k, merged, err) : NULL;
        }
    }
    return result;
}
