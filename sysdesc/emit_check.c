/* The one rule of what the YAML and JSON emitters may print (no silent
 * data loss): a key or a value either reads back as itself or the
 * print is refused, naming it.  MLIR holds every value; YAML holds every
 * value (bytes that are not UTF-8 travel as !mlir text, and so does a map
 * with such a key) but not such a key of a device, or such a device id; typed JSON holds every value too (as MLIR text where JSON
 * cannot: a map or a device with such a key included), but not a device id
 * that is not UTF-8, nor a device named "data_layout" or "$format" (its own
 * members; YAML and plain JSON: "data_layout" beside a data layout); plain
 * JSON, which is not read back but must be JSON, holds
 * neither such a key nor such a string. */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdio.h>
#include <stdlib.h>

/* One of the rules, which json_emit.c follows when it prints: a map with a
 * type key or a key that is not UTF-8 is MLIR text in typed JSON. */
bool sd_json_map_as_mlir(const dlti_attr *a)
{
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        size_t len;
        const char *s = dlti_key_str(dlti_attr_entry_key(a, i), &len);
        if (!s || !bs_utf8_valid(s, len))
            return true;
    }
    return false;
}

typedef struct walk {
    sysdesc_format format;
    bool typed;      /* JSON with SYSDESC_PRINT_TYPED */
    bool has_layout; /* a "data_layout" member comes first */
    dlti_error_t *err;
    const char *path[DLTI_DEFAULT_MAX_DEPTH + 1];
    size_t path_len[DLTI_DEFAULT_MAX_DEPTH + 1];
} walk;

static void refuse(walk *w, unsigned depth, const char *what, const char *why)
{
    char path[256];
    size_t used = 0;
    path[0] = '\0';
    /* printable ASCII as is, other bytes as MLIR's \XX: the message itself
     * stays valid text */
    for (unsigned i = 0; i < depth && used + 8 < sizeof(path); i++) {
        if (i)
            path[used++] = '.';
        for (size_t k = 0; k < w->path_len[i] && k < 40 && used + 4 < sizeof(path); k++) {
            unsigned char c = (unsigned char)w->path[i][k];
            if (c >= 0x20 && c < 0x7f)
                path[used++] = (char)c;
            else
                used += (size_t)snprintf(path + used, 4, "\\%02X", c);
        }
        path[used] = '\0';
    }
    bs_error_set(w->err, DLTI_ERROR_UNSUPPORTED,
                 "%s cannot hold the %s at '%s' (%s); --format mlir holds every value",
                 w->format == SYSDESC_FORMAT_JSON ? "JSON" : "YAML", what, path, why);
}

/* Depth is bounded by the core's depth invariant (dlti_internal.h).
 * `as_mlir`: `a` is printed inside MLIR text, whose escapes hold any string
 * or key. */
static int check_attr(walk *w, const dlti_attr *a, unsigned depth, bool as_mlir)
{
    dlti_attr_kind kind = dlti_attr_get_kind(a);
    const char *s;
    size_t len;
    if (kind == DLTI_ATTR_STRING && w->format == SYSDESC_FORMAT_JSON && !w->typed &&
        dlti_attr_get_string(a, &s, &len, NULL) == 0 && !bs_utf8_valid(s, len)) {
        refuse(w, depth, "string", "bytes that are not UTF-8");
        return -1;
    }
    /* Opaque attributes, types and dictionaries are MLIR text kept
     * verbatim (a dialect's body may hold any byte): both formats print
     * that text as a string, which must be UTF-8. */
    if (kind == DLTI_ATTR_OPAQUE || kind == DLTI_ATTR_TYPE || kind == DLTI_ATTR_DICTIONARY) {
        char *text = dlti_attr_print(a, &len);
        if (!text) {
            bs_nomem(w->err);
            return -1;
        }
        bool utf8 = bs_utf8_valid(text, len);
        free(text);
        if (!utf8) {
            refuse(w, depth, "value", "MLIR text with bytes that are not UTF-8");
            return -1;
        }
        return 0;
    }
    if (kind == DLTI_ATTR_ARRAY) {
        for (size_t i = 0; i < dlti_attr_size(a); i++)
            if (check_attr(w, dlti_attr_element(a, i), depth, as_mlir) != 0)
                return -1;
        return 0;
    }
    if (!dlti_attr_is_container(kind))
        return 0;
    /* Typed JSON writes these as MLIR text (json_emit.c): a map or a
     * device whose keys no JSON member name holds, any other container
     * below a device. */
    if (w->typed && depth > 0 && (sd_json_map_as_mlir(a) || (depth > 1 && kind != DLTI_ATTR_MAP)))
        as_mlir = true;
    /* YAML: a map below a device (or the data layout) with such a key as
     * !mlir text (yaml_emit.c); other containers there are !mlir anyway */
    if (w->format == SYSDESC_FORMAT_YAML && depth > 1 &&
        (kind != DLTI_ATTR_MAP || sd_json_map_as_mlir(a)))
        as_mlir = true;
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        dlti_key k = dlti_attr_entry_key(a, i);
        const char *ks = dlti_key_str(k, &len);
        const char *name = ks ? ks : dlti_type_str(dlti_key_get_type(k));
        if (!ks)
            len = strlen(name);
        if (depth <= DLTI_DEFAULT_MAX_DEPTH) {
            w->path[depth] = name;
            w->path_len[depth] = len;
        }
        /* a type key is its text in every format, MLIR's verbatim
         * included; a string key in MLIR text is escaped */
        if ((!ks || !as_mlir) && !bs_utf8_valid(name, len)) {
            refuse(w, depth + 1, "key", "bytes that are not UTF-8");
            return -1;
        }
        /* the top level's own keys: a device of that name would be one
         * (JSON), or repeat it (YAML, whose keys are their text) */
        if (depth == 0 &&
            ((w->typed && len == strlen(SD_JSON_FORMAT_KEY) &&
              memcmp(name, SD_JSON_FORMAT_KEY, len) == 0) ||
             (len == 11 && memcmp(name, "data_layout", 11) == 0 &&
              (w->typed || w->has_layout)))) {
            refuse(w, depth + 1, "device id", w->format == SYSDESC_FORMAT_JSON
                                                  ? "the name of a member JSON keeps for itself"
                                                  : "the key of the data layout beside it");
            return -1;
        }
        if (check_attr(w, dlti_attr_entry_value(a, i), depth + 1, as_mlir) != 0)
            return -1;
    }
    return 0;
}

int sd_format_check(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                    dlti_error_t *err)
{
    if (format != SYSDESC_FORMAT_YAML && format != SYSDESC_FORMAT_JSON)
        return 0;
    walk *w = malloc(sizeof(*w));
    if (!w) {
        bs_nomem(err);
        return -1;
    }
    w->format = format;
    w->typed = format == SYSDESC_FORMAT_JSON && (flags & SYSDESC_PRINT_TYPED);
    w->has_layout = sys->data_layout || sys->dl_spec;
    w->err = err;
    int rc = 0;
    if (sys->data_layout && format == SYSDESC_FORMAT_JSON &&
        !bs_utf8_valid(sys->data_layout, strlen(sys->data_layout))) {
        w->path[0] = "data_layout";
        w->path_len[0] = 11;
        refuse(w, 1, "string", "bytes that are not UTF-8");
        rc = -1;
    }
    if (rc == 0 && sys->dl_spec) {
        w->path[0] = "data_layout";
        w->path_len[0] = 11;
        /* YAML and typed JSON: a mapping unless its keys need MLIR text */
        rc = check_attr(w, sys->dl_spec, 1,
                        (w->typed || format == SYSDESC_FORMAT_YAML) &&
                            sd_json_map_as_mlir(sys->dl_spec));
    }
    if (rc == 0 && sys->spec)
        rc = check_attr(w, sys->spec, 0, false);
    free(w);
    return rc;
}

int sd_value_json_check(const dlti_attr *value, const char *where, dlti_error_t *err)
{
    walk *w = malloc(sizeof(*w));
    if (!w) {
        bs_nomem(err);
        return -1;
    }
    w->format = SYSDESC_FORMAT_JSON;
    w->typed = false;
    w->has_layout = false;
    w->err = err;
    w->path[0] = where ? where : "value";
    w->path_len[0] = strlen(w->path[0]);
    /* depth 1: below the top level, whose device-id rules are not a value's */
    int rc = check_attr(w, value, 1, false);
    free(w);
    return rc;
}
