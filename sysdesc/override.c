/* Overrides of a system spec: one PATH=VALUE, a whole spec, a file (sysdesc/override.h). */
#define _GNU_SOURCE
#include "sysdesc_private.h"

#include "sysdesc/schema.h"

#include "sysdesc/override.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dlti_key skey(dlti_context *ctx, const char *s)
{
    return dlti_key_string(ctx, s, strlen(s));
}

/* Sets `keys` (n >= 1) in device spec `dev` (may be NULL: a new device). */
static const dlti_attr *dev_set(dlti_context *ctx, const dlti_attr *dev, const dlti_key *keys,
                                size_t n, const dlti_attr *value, dlti_error_t *err)
{
    if (dev)
        return dlti_container_set_path(ctx, dev, keys, n, value, err);
    const dlti_attr *v = value;
    for (size_t i = n; i-- > 1;) {
        dlti_entry e = {keys[i], v};
        v = dlti_container_new(ctx, DLTI_ATTR_MAP, &e, 1, err);
        if (!v)
            return NULL;
    }
    dlti_entry e = {keys[0], v};
    return dlti_container_new(ctx, DLTI_ATTR_DEVICE_SPEC, &e, 1, err);
}

/* Records "path" = "override" in the device's source map and drops path from "suspect". */
static const dlti_attr *note_override(dlti_context *ctx, const dlti_attr *dev, const char *path,
                                      dlti_error_t *err)
{
    dlti_key ksrc = skey(ctx, "source");
    const dlti_attr *src = dlti_attr_lookup(dev, ksrc);
    const dlti_attr *ov = dlti_string_new(ctx, "override", 8);
    dlti_key kp = skey(ctx, path);
    if (!ov || !kp || !ksrc) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    if (src && dlti_attr_get_kind(src) == DLTI_ATTR_MAP)
        src = dlti_container_set(ctx, src, kp, ov, err);
    else {
        dlti_entry e = {kp, ov};
        src = dlti_container_new(ctx, DLTI_ATTR_MAP, &e, 1, err);
    }
    if (!src || !(dev = dlti_container_set(ctx, dev, ksrc, src, err)))
        return NULL;
    dlti_key ksus = skey(ctx, "suspect");
    const dlti_attr *sus = dlti_attr_lookup(dev, ksus);
    if (sus && dlti_attr_get_kind(sus) == DLTI_ATTR_ARRAY) {
        size_t n = dlti_attr_size(sus), m = 0;
        const dlti_attr **keep = calloc(n ? n : 1, sizeof(*keep));
        if (!keep) {
            bs_nomem(err);
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            const dlti_attr *e = dlti_attr_element(sus, i);
            const char *s;
            size_t len;
            if (dlti_attr_get_string(e, &s, &len, NULL) == 0 && strcmp(s, path) == 0)
                continue;
            keep[m++] = e;
        }
        if (m != n) {
            /* no array (memory) must not read as "no suspect left" */
            const dlti_attr *a = m ? dlti_array_build(ctx, keep, m, err) : NULL;
            dev = m && !a ? NULL : dlti_container_set(ctx, dev, ksus, a, err);
        }
        free(keep);
    }
    return dev;
}

/* A number with a unit where the schema wants a number ("32MiB" for
 * cache.L3.size_in_bytes): the number to write, first, rather than the
 * parser's complaint and a suggestion to quote it.  The device type comes
 * from the device the path names (its device_type key), else any. */
static bool unit_value_hint(const dlti_attr *spec, const char *path, const char *vtext,
                            dlti_error_t *err)
{
    const char *type = NULL, *key = NULL;
    size_t idlen = 0;
    for (size_t i = 0; spec && i < dlti_attr_size(spec); i++) {
        size_t klen;
        const char *k = dlti_key_str(dlti_attr_entry_key(spec, i), &klen);
        if (k && klen > idlen && path[klen] == '.' && strncmp(path, k, klen) == 0) {
            const dlti_attr *dev = dlti_attr_entry_value(spec, i);
            idlen = klen;
            type = NULL;
            for (size_t j = 0; j < dlti_attr_size(dev); j++) {
                const char *dk = dlti_key_str(dlti_attr_entry_key(dev, j), NULL);
                if (dk && strcmp(dk, "device_type") == 0)
                    dlti_attr_get_string(dlti_attr_entry_value(dev, j), &type, NULL, NULL);
            }
        }
    }
    key = idlen ? path + idlen + 1 : strchr(path, '.') ? strchr(path, '.') + 1 : NULL;
    const sysdesc_schema_key *k = key ? sysdesc_schema_find(type, key) : NULL;
    char hint[128];
    if (!k || sd_unit_hint(k, vtext, strlen(vtext), hint, sizeof hint) != 0)
        return false;
    bs_error_set(err, DLTI_ERROR_TYPE, "%s: '%s' holds a number, and %s is not one in MLIR",
                 hint, path, vtext);
    return true;
}

const dlti_attr *sysdesc_spec_override(dlti_context *ctx, const dlti_attr *spec,
                                       const char *assignment, dlti_error_t *err)
{
    bs_error_clear(err);
    if (!ctx || !assignment) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no override given");
        return NULL;
    }
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "override '%s' is not PATH=VALUE", assignment);
        return NULL;
    }
    if (spec && dlti_attr_get_kind(spec) != DLTI_ATTR_SYSTEM_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "overrides apply to a target_system_spec");
        return NULL;
    }
    size_t plen = (size_t)(eq - assignment);
    char *path = malloc(plen + 1);
    dlti_key *keys = calloc(plen + 2, sizeof(*keys));
    const dlti_attr *result = NULL;
    if (!path || !keys) {
        bs_nomem(err);
        goto out;
    }
    memcpy(path, assignment, plen);
    path[plen] = '\0';
    const char *vtext = eq + 1;
    const dlti_attr *value = dlti_attr_parse(ctx, vtext, strlen(vtext), "--set value", err);
    /* no hint about the value's spelling when memory is what failed */
    if (!value && err && (err->code == DLTI_ERROR_LIMIT || err->code == DLTI_ERROR_NOMEM))
        goto out;
    if (!value && err && unit_value_hint(spec, path, vtext, err))
        goto out;
    if (!value) {
        /* A bare word is the usual slip: the shell ate the quotes. */
        if (err && vtext[0] && strspn(vtext, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789_-+. ()") == strlen(vtext)) {
            size_t used = strlen(err->text);
            snprintf(err->text + used, sizeof(err->text) - used,
                     "; a string needs quotes inside the shell's: '%.*s=\"%s\"'", (int)plen,
                     assignment, vtext);
        }
        goto out;
    }

    /* The device id: the longest existing id that prefixes the path at a '.'. */
    size_t idlen = 0;
    const dlti_attr *dev = NULL;
    for (size_t i = 0; spec && i < dlti_attr_size(spec); i++) {
        size_t klen;
        const char *k = dlti_key_str(dlti_attr_entry_key(spec, i), &klen);
        if (k && klen > idlen && klen <= plen && strncmp(path, k, klen) == 0 &&
            (path[klen] == '.' || path[klen] == '\0')) {
            idlen = klen;
            dev = dlti_attr_entry_value(spec, i);
        }
    }
    if (!dev) {
        const char *dot = strchr(path, '.');
        idlen = dot ? (size_t)(dot - path) : plen;
    }
    if (idlen == 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "override '%s' has an empty device id",
                     assignment);
        goto out;
    }
    dlti_key devkey = dlti_key_string(ctx, path, idlen);
    if (!devkey) {
        dlti_context_nomem(ctx, err);
        goto out;
    }
    const char *rest = path[idlen] == '.' ? path + idlen + 1 : path + idlen;
    size_t n = 0;
    for (const char *s = rest; *rest;) {
        const char *dot = strchr(s, '.');
        size_t len = dot ? (size_t)(dot - s) : strlen(s);
        if (len == 0) {
            bs_error_set(err, DLTI_ERROR_ARGUMENT, "override '%s' has an empty key", assignment);
            goto out;
        }
        if (!(keys[n++] = dlti_key_string(ctx, s, len))) {
            dlti_context_nomem(ctx, err);
            goto out;
        }
        if (!dot)
            break;
        s = dot + 1;
    }
    if (n == 0) { /* the whole device */
        if (dlti_attr_get_kind(value) != DLTI_ATTR_DEVICE_SPEC) {
            bs_error_set(err, DLTI_ERROR_TYPE,
                         "override of device '%s' needs a #dlti.target_device_spec", path);
            goto out;
        }
        dev = value;
    } else {
        dev = dev_set(ctx, dev, keys, n, value, err);
        if (!dev)
            goto out;
        dev = note_override(ctx, dev, rest, err);
        /* Keep cache.L<k>.size_in_bytes and L<k>_cache_size_in_bytes in step. */
        char flat[64], nested[64];
        int k = 0;
        if (n == 3 && sscanf(rest, "cache.L%d.size_in_bytes", &k) == 1 && k >= 1 && k <= 3 &&
            strlen(rest) == strlen("cache.L1.size_in_bytes")) {
            snprintf(flat, sizeof(flat), "L%d_cache_size_in_bytes", k);
            dlti_key fk = skey(ctx, flat);
            if (dev && !fk)
                dev = NULL, dlti_context_nomem(ctx, err);
            if (dev)
                dev = dlti_container_set_path(ctx, dev, &fk, 1, value, err);
            if (dev)
                dev = note_override(ctx, dev, flat, err);
        } else if (n == 1 && sscanf(rest, "L%d_cache_size_in_bytes", &k) == 1 && k >= 1 &&
                   k <= 3 && strlen(rest) == strlen("L1_cache_size_in_bytes")) {
            snprintf(nested, sizeof(nested), "cache.L%d.size_in_bytes", k);
            char lvl[8];
            snprintf(lvl, sizeof(lvl), "L%d", k);
            dlti_key nk[3] = {skey(ctx, "cache"), skey(ctx, lvl), skey(ctx, "size_in_bytes")};
            if (dev && !(nk[0] && nk[1] && nk[2]))
                dev = NULL, dlti_context_nomem(ctx, err);
            if (dev)
                dev = dlti_container_set_path(ctx, dev, nk, 3, value, err);
            if (dev)
                dev = note_override(ctx, dev, nested, err);
        }
        if (!dev)
            goto out;
    }
    if (spec) {
        result = dlti_container_set(ctx, spec, devkey, dev, err);
    } else {
        dlti_entry e = {devkey, dev};
        result = dlti_container_new(ctx, DLTI_ATTR_SYSTEM_SPEC, &e, 1, err);
    }
out:
    free(path);
    free(keys);
    return result;
}

/* Grows `*path` (capacity `*cap`) to hold `need` bytes. */
static int path_reserve(char **path, size_t *cap, size_t need, dlti_error_t *err)
{
    if (bs_grow((void **)path, cap, need, 1) == 0)
        return 0;
    bs_nomem(err);
    return -1;
}

/* Applies every leaf of `value` (a device spec or map) at `path` (`len`
 * bytes used) as one sysdesc_spec_override() each, so overrides from a file
 * get the same bookkeeping as --set (source map, suspect list, flat keys). */
static const dlti_attr *override_leaves(dlti_context *ctx, const dlti_attr *spec, char **path,
                                        size_t *cap, size_t len, const dlti_attr *value,
                                        dlti_error_t *err)
{
    dlti_attr_kind kind = dlti_attr_get_kind(value);
    if (kind != DLTI_ATTR_MAP && kind != DLTI_ATTR_DEVICE_SPEC) {
        size_t vlen;
        char *v = dlti_attr_print(value, &vlen);
        if (!v) {
            bs_nomem(err);
            return NULL;
        }
        if (path_reserve(path, cap, len + vlen + 2, err) < 0) {
            free(v);
            return NULL;
        }
        (*path)[len] = '=';
        memcpy(*path + len + 1, v, vlen + 1);
        free(v);
        return sysdesc_spec_override(ctx, spec, *path, err);
    }
    for (size_t i = 0; i < dlti_attr_size(value) && spec; i++) {
        size_t klen;
        const char *key = dlti_key_str(dlti_attr_entry_key(value, i), &klen);
        if (!key) {
            bs_error_set(err, DLTI_ERROR_VERIFY, "type keys cannot be overridden");
            return NULL;
        }
        if (path_reserve(path, cap, len + klen + 2, err) < 0)
            return NULL;
        (*path)[len] = '.';
        memcpy(*path + len + 1, key, klen);
        (*path)[len + 1 + klen] = '\0';
        spec = override_leaves(ctx, spec, path, cap, len + 1 + klen,
                               dlti_attr_entry_value(value, i), err);
    }
    return spec;
}

const dlti_attr *sysdesc_spec_override_spec(dlti_context *ctx, const dlti_attr *spec,
                                            const dlti_attr *overrides, dlti_error_t *err)
{
    bs_error_clear(err);
    if (!ctx || !overrides || dlti_attr_get_kind(overrides) != DLTI_ATTR_SYSTEM_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "overrides must be a target_system_spec");
        return NULL;
    }
    size_t cap = 0;
    char *path = NULL;
    for (size_t d = 0; d < dlti_attr_size(overrides); d++) {
        size_t idlen;
        const char *id = dlti_key_str(dlti_attr_entry_key(overrides, d), &idlen);
        if (path_reserve(&path, &cap, idlen + 1, err) < 0) {
            spec = NULL;
            break;
        }
        memcpy(path, id, idlen + 1);
        spec = override_leaves(ctx, spec, &path, &cap, idlen,
                               dlti_attr_entry_value(overrides, d), err);
        if (!spec)
            break;
    }
    free(path);
    return spec;
}

const dlti_attr *sysdesc_spec_override_file(dlti_context *ctx, const dlti_attr *spec,
                                            const char *path, const sysdesc_yaml_options *opts,
                                            dlti_error_t *err)
{
    bs_error_clear(err);
    sysdesc_yaml_options raw = {0};
    if (opts)
        raw = *opts;
    if (!(raw.flags & SYSDESC_LOAD_NO_CHECK)) {
        /* An override file is a fragment: its keys and values are checked,
         * located in it; what it lacks comes from the spec it overrides. */
        sd_first_problem f = {err, 0, opts};
        long n = sysdesc_check_file(ctx, path, opts, SYSDESC_CHECK_PARTIAL, sd_keep_first, &f);
        if (n > 0)
            n = f.n; /* the problems that fail the load */
        if (n != 0) {
            if (n < 0)
                dlti_context_nomem(ctx, err);
            else if (n > 1 && err)
                sd_more_problems(err, n);
            return NULL;
        }
    }
    raw.flags |= SYSDESC_LOAD_NO_CHECK;
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, path, &raw, &sys, err) != 0)
        return NULL;
    spec = sysdesc_spec_override_spec(ctx, spec, sys.spec, err);
    if (!spec && err)
        bs_error_place(err, path, err->line, err->column);
    return spec;
}
