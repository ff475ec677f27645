/* The entry points of sysdesc/load.h: YAML text and files, and a
 * description in either syntax or by catalog name.
 *
 * This file sits above both the YAML loader (yaml_load.c), which knows no
 * catalog, and the catalog (catalog.c), which loads its entries through
 * that loader: it hands the loader the catalog's resolver for `base:`
 * names, so neither of the two calls the other back. */
#include "sysdesc_private.h"

#include "sysdesc/catalog.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int sysdesc_yaml_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                      const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    sd_resolver catalog = sd_catalog_resolver(opts ? opts->search_path : NULL);
    return sd_yaml_load(ctx, text, len, source, opts, &catalog, out, err);
}

int sysdesc_yaml_load_file(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                           sysdesc_system *out, dlti_error_t *err)
{
    sd_resolver catalog = sd_catalog_resolver(opts ? opts->search_path : NULL);
    return sd_yaml_load_file(ctx, path, opts, &catalog, out, err);
}

/* ---- either syntax ---- */

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
    size_t len;
    char *text = sd_read_input(path, opts, &len, err);
    int rc = -1;
    if (text) {
        rc = looks_like_mlir(path, text, len)
                 ? load_mlir(ctx, text, len, path, out, err)
                 : sysdesc_yaml_load(ctx, text, len, path, opts, out, err);
        free(text);
    }
    free(found);
    return rc;
}
