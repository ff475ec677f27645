/* Loading a description in either syntax, and printing a system as MLIR. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool looks_like_mlir(const char *path, const char *text, size_t len)
{
    size_t plen = strlen(path);
    if (plen > 5 && strcmp(path + plen - 5, ".mlir") == 0)
        return true;
    size_t i = 0;
    for (;;) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            i++;
        /* MLIR comments are "//"; YAML's "#" comments are skipped only when
         * they cannot be an attribute ("#dlti..."). */
        if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        break;
    }
    if (i < len && text[i] == '#' && i + 1 < len && text[i + 1] != ' ' && text[i + 1] != '\n' &&
        text[i + 1] != '#' && text[i + 1] != '!')
        return true;
    return len - i >= 6 && memcmp(text + i, "module", 6) == 0 &&
           (len - i == 6 || text[i + 6] == ' ' || text[i + 6] == '@' || text[i + 6] == '{' ||
            text[i + 6] == '\n');
}

static int load_mlir(dlti_context *ctx, const char *text, size_t len, const char *path,
                     sysdesc_system *out, dlti_error_t *err)
{
    const dlti_scope *root = dlti_parse(ctx, text, len, path, err);
    if (!root)
        return -1;
    sysdesc_system sys = {0};
    for (size_t i = 0; i < dlti_scope_num_attrs(root); i++) {
        const dlti_attr *a = dlti_scope_attr_value(root, i);
        if (dlti_attr_get_kind(a) == DLTI_ATTR_SYSTEM_SPEC && !sys.spec)
            sys.spec = a;
        else if (dlti_attr_get_kind(a) == DLTI_ATTR_DL_SPEC && !sys.dl_spec)
            sys.dl_spec = a;
    }
    if (!sys.spec) {
        dlti_error_set_at(err, DLTI_ERROR_NOT_FOUND, path, 0, 0,
                 "no #dlti.target_system_spec on the top module");
        return -1;
    }
    *out = sys;
    return 0;
}

int sysdesc_system_load(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                        sysdesc_system *out, dlti_error_t *err)
{
    struct stat st;
    char *found = NULL;
    if (strcmp(path, "-") != 0 && stat(path, &st) != 0) {
        dlti_error_t inner;
        found = sysdesc_catalog_find(path, opts ? opts->search_path : NULL, &inner);
        if (!found) {
            dlti_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "no such file or catalog entry (%s)",
                     inner.text);
            return -1;
        }
        path = found;
    }
    sysdesc_yaml_options filled;
    sd_yaml_options_fill(&filled, opts);
    size_t len;
    char *text = dlti_read_file(path, filled.max_input_bytes, &len, err);
    int rc = -1;
    if (text) {
        rc = looks_like_mlir(path, text, len) ? load_mlir(ctx, text, len, path, out, err)
                                              : sysdesc_yaml_load(ctx, text, len, path, opts, out, err);
        free(text);
    }
    free(found);
    return rc;
}

char *sysdesc_mlir_print(const sysdesc_system *sys, bool bare, size_t *len)
{
    dlti_buf b = {0};
    char *spec = dlti_attr_print(sys->spec, NULL);
    char *dl = sys->dl_spec && !bare ? dlti_attr_print(sys->dl_spec, NULL) : NULL;
    if (!spec || (sys->dl_spec && !bare && !dl)) {
        free(spec);
        free(dl);
        return NULL;
    }
    if (bare) {
        dlti_buf_puts(&b, spec);
        dlti_buf_puts(&b, "\n");
    } else {
        /* Attribute names sorted, as MLIR prints a module's dictionary. */
        dlti_buf_puts(&b, "module attributes {");
        if (dl) {
            dlti_buf_puts(&b, "dlti.dl_spec = ");
            dlti_buf_puts(&b, dl);
            dlti_buf_puts(&b, ", ");
        }
        dlti_buf_puts(&b, "dlti.target_system_spec = ");
        dlti_buf_puts(&b, spec);
        dlti_buf_puts(&b, "} {\n}\n\n");  /* mlir-opt-22 ends a module with a blank line */
    }
    free(spec);
    free(dl);
    return sd_buf_finish(&b, len);
}
