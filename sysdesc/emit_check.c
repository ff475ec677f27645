/* The one rule of what the YAML and JSON emitters may print (no silent
 * data loss): a key or a value either reads back as itself or the
 * print is refused, naming it.  MLIR holds every value; YAML holds every
 * value (bytes that are not UTF-8 travel as !mlir text) but not a key that
 * is not UTF-8; JSON holds neither, nor a key longer than libyaml (its
 * reader) reads in a flow mapping. */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct walk {
    sysdesc_format format;
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
    dlti_error_set(w->err, DLTI_ERROR_UNSUPPORTED,
                   "%s cannot hold the %s at '%s' (%s); --format mlir holds every value",
                   w->format == SYSDESC_FORMAT_JSON ? "JSON" : "YAML", what, path, why);
}

/* Depth is bounded by the core's depth invariant (dlti_internal.h). */
static int check_attr(walk *w, const dlti_attr *a, unsigned depth)
{
    dlti_attr_kind kind = dlti_attr_get_kind(a);
    const char *s;
    size_t len;
    if (kind == DLTI_ATTR_STRING && w->format == SYSDESC_FORMAT_JSON &&
        dlti_attr_get_string(a, &s, &len, NULL) == 0 && !sd_utf8_valid(s, len)) {
        refuse(w, depth, "string", "bytes that are not UTF-8");
        return -1;
    }
    /* Opaque attributes, types and dictionaries are MLIR text kept
     * verbatim (a dialect's body may hold any byte): both formats print
     * that text as a string, which must be UTF-8. */
    if (kind == DLTI_ATTR_OPAQUE || kind == DLTI_ATTR_TYPE || kind == DLTI_ATTR_DICTIONARY) {
        char *text = dlti_attr_print(a, &len);
        if (!text) {
            dlti_nomem(w->err);
            return -1;
        }
        bool utf8 = sd_utf8_valid(text, len);
        free(text);
        if (!utf8) {
            refuse(w, depth, "value", "MLIR text with bytes that are not UTF-8");
            return -1;
        }
        return 0;
    }
    if (kind == DLTI_ATTR_ARRAY) {
        for (size_t i = 0; i < dlti_attr_size(a); i++)
            if (check_attr(w, dlti_attr_element(a, i), depth) != 0)
                return -1;
        return 0;
    }
    if (!dlti_attr_is_container(kind))
        return 0;
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        dlti_key k = dlti_attr_entry_key(a, i);
        const char *ks = dlti_key_str(k, &len);
        if (depth <= DLTI_DEFAULT_MAX_DEPTH) {
            w->path[depth] = ks ? ks : dlti_type_str(dlti_key_get_type(k));
            w->path_len[depth] = ks ? len : strlen(w->path[depth]);
        }
        if (ks && !sd_utf8_valid(ks, len)) {
            refuse(w, depth + 1, "key", "bytes that are not UTF-8");
            return -1;
        }
        /* libyaml forgets a simple key 1024 characters after its start, and
         * JSON has no other kind of key: measured as printed, escapes and
         * quotes included. */
        if (ks && w->format == SYSDESC_FORMAT_JSON && len + 2 > SD_JSON_KEY_MAX) {
            dlti_buf q = {0};
            sd_buf_put_quoted(&q, ks, len, "\\u%04X");
            bool long_key = q.failed || q.len > SD_JSON_KEY_MAX;
            free(q.data);
            if (long_key) {
                refuse(w, depth + 1, "key",
                       "longer than the " "1000 characters libyaml reads as a JSON key");
                return -1;
            }
        }
        if (check_attr(w, dlti_attr_entry_value(a, i), depth + 1) != 0)
            return -1;
    }
    return 0;
}

int sd_format_check(const sysdesc_system *sys, sysdesc_format format, dlti_error_t *err)
{
    if (format != SYSDESC_FORMAT_YAML && format != SYSDESC_FORMAT_JSON)
        return 0;
    walk *w = malloc(sizeof(*w));
    if (!w) {
        dlti_nomem(err);
        return -1;
    }
    w->format = format;
    w->err = err;
    int rc = 0;
    if (sys->data_layout && format == SYSDESC_FORMAT_JSON &&
        !sd_utf8_valid(sys->data_layout, strlen(sys->data_layout))) {
        w->path[0] = "data_layout";
        w->path_len[0] = 11;
        refuse(w, 1, "string", "bytes that are not UTF-8");
        rc = -1;
    }
    if (rc == 0 && sys->dl_spec) {
        w->path[0] = "data_layout";
        w->path_len[0] = 11;
        rc = check_attr(w, sys->dl_spec, 1);
    }
    if (rc == 0 && sys->spec)
        rc = check_attr(w, sys->spec, 0);
    free(w);
    return rc;
}
