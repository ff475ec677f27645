/* The entry points of sysdesc/load.h: YAML text and files, and a
 * description in any syntax (MLIR, YAML, typed JSON) or by catalog name.
 * Every reader of a description of unknown syntax comes here: one rule
 * tells the syntax (sniff.c), and each syntax has one size limit, whatever
 * command reads it (MLIR the context's dlti_limits.max_input_bytes, YAML and
 * JSON sysdesc_yaml_options.max_input_bytes).
 *
 * This file sits above both the YAML loader (yaml_load.c), which knows no
 * catalog, and the catalog (catalog.c), which loads its entries through
 * that loader: it hands the loader the catalog's resolver for `base:`
 * names, so neither of the two calls the other back. */
#define _DEFAULT_SOURCE /* pread, AT_FDCWD */
#include "sysdesc_private.h"

#include "sysdesc/catalog.h"
#include "sysdesc/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the schema check every load ends with ---- */

/* 0 when `sys` passes the device schema (or the options skip the check);
 * else -1 with the first problem, located in `text`, as the error. */
static int check_loaded(const sysdesc_system *sys, const char *text, size_t len,
                        const char *source, const sysdesc_yaml_options *opts, dlti_error_t *err)
{
    if ((opts && (opts->flags & SYSDESC_LOAD_NO_CHECK)) || !sys->spec)
        return 0;
    long n = sd_check_first(sys, 0, text, len, source, opts, err);
    if (n < 0)
        return sd_nomem(NULL, err, source);
    if (n == 0)
        return 0;
    if (err)
        sd_more_problems(err, n);
    return -1;
}

void sd_more_problems(dlti_error_t *err, long n)
{
    if (n <= 1)
        return;
    size_t used = strlen(err->text);
    snprintf(err->text + used, sizeof(err->text) - used,
             " (and %ld more problem%s: `sysdesc check` lists them)", n - 1, n > 2 ? "s" : "");
}

int sysdesc_yaml_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                      const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    sd_resolver catalog = sd_catalog_resolver(opts ? opts->search_path : NULL);
    sysdesc_system sys;
    if (sd_yaml_load(ctx, text, len, source, opts, &catalog, &sys, err) < 0 ||
        check_loaded(&sys, text, len, source ? source : "<input>", opts, err) < 0)
        return -1;
    *out = sys;
    return 0;
}

int sysdesc_yaml_load_file(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                           sysdesc_system *out, dlti_error_t *err)
{
    size_t len;
    bs_error_clear(err);
    char *text = sd_read_input(path, opts, &len, err);
    if (!text)
        return -1;
    int rc = sysdesc_yaml_load(ctx, text, len, path, opts, out, err);
    free(text);
    return rc;
}

/* ---- any syntax ---- */

/* The size limit of a description in `format`. */
static size_t input_limit(const dlti_context *ctx, const sysdesc_yaml_options *filled,
                          sd_input_format format)
{
    return format == SD_INPUT_MLIR ? dlti_context_get_limits(ctx).max_input_bytes
                                   : filled->max_input_bytes;
}

static void too_large(dlti_error_t *err, const char *path, sd_input_format format, size_t max)
{
    bs_error_set_at(err, DLTI_ERROR_LIMIT, path, 0, 0,
                    "file is larger than the limit of %zu bytes for %s (%s)", max,
                    sd_input_format_name(format),
                    format == SD_INPUT_MLIR ? "dlti_limits.max_input_bytes"
                                              : "sysdesc_yaml_options.max_input_bytes");
}

/* Bytes of a file's start that sd_sniff() reads to pick its limit. */
#define SNIFF_HEAD ((size_t)64 << 10)

/* Reads the description `path` ("-": standard input) under the size limit
 * of its syntax, which *format gets.  A regular file's syntax is told from
 * its start before it is read, so that a file over its limit is refused
 * without reading it; the whole text then decides (a start that holds no
 * whole first line of content cannot). */
static char *read_description(dlti_context *ctx, const char *path,
                              const sysdesc_yaml_options *opts, size_t *len,
                              sd_input_format *format, dlti_error_t *err)
{
    sysdesc_yaml_options filled;
    sd_yaml_options_fill(&filled, opts);
    size_t mlir_max = input_limit(ctx, &filled, SD_INPUT_MLIR);
    size_t max = mlir_max > filled.max_input_bytes ? mlir_max : filled.max_input_bytes;
    int fd = bs_input_open(AT_FDCWD, path, 0, err);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fd != STDIN_FILENO && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        char *head = malloc(SNIFF_HEAD);
        ssize_t n = head ? pread(fd, head, SNIFF_HEAD, 0) : -1;
        if (n > 0 && (n == st.st_size || sd_sniff_decided(head, (size_t)n))) {
            sd_input_format f = sd_sniff(path, head, (size_t)n);
            size_t limit = input_limit(ctx, &filled, f);
            if ((uint64_t)st.st_size > limit) {
                free(head);
                close(fd);
                too_large(err, path, f, limit);
                return NULL;
            }
            max = limit;
        }
        free(head);
    }
    char *text = bs_input_read_all(fd, path, max, len, err);
    if (fd != STDIN_FILENO)
        close(fd);
    if (!text)
        return NULL;
    *format = sd_sniff(path, text, *len);
    size_t limit = input_limit(ctx, &filled, *format);
    if (*len > limit) {
        free(text);
        too_large(err, path, *format, limit);
        return NULL;
    }
    return text;
}

static int load_mlir(dlti_context *ctx, const char *text, size_t len, const char *path,
                     const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    const dlti_scope *root = dlti_parse(ctx, text, len, path, err);
    if (!root)
        return -1;
    /* the op the description is on: the top module's, or where a lenient
     * load finds it (select.c) */
    sysdesc_system sys;
    if (sd_mlir_select(root, text, len, path, opts, &sys, err) < 0)
        return -1;
    if (check_loaded(&sys, text, len, path, opts, err) < 0)
        return -1;
    *out = sys;
    return 0;
}

/* The file `path` names: itself, or the catalog entry of that name. */
static char *resolve(const char *path, const sysdesc_yaml_options *opts, char **found,
                     dlti_error_t *err)
{
    struct stat st;
    *found = NULL;
    size_t n = strlen(path);
    /* A path that cannot be a catalog name fails as the file it names. */
    bool file_only = path[0] == '/' || path[0] == '.' || (n > 5 && strcmp(path + n - 5, ".mlir") == 0);
    if (strcmp(path, "-") == 0 || stat(path, &st) == 0 || file_only)
        return (char *)path;
    dlti_error_t inner;
    *found = sysdesc_catalog_find(path, opts ? opts->search_path : NULL, &inner);
    if (*found)
        return *found;
    /* No such name is not found (as a key is); a file name (.yaml) that
     * names nothing is the missing file it looks like. */
    static const char *const file_ext[] = {".yaml", ".yml", ".json", ".xml"};
    bool file = false;
    for (size_t i = 0; i < sizeof file_ext / sizeof file_ext[0]; i++) {
        size_t e = strlen(file_ext[i]);
        file |= n > e && strcmp(path + n - e, file_ext[i]) == 0;
    }
    if (inner.code == DLTI_ERROR_NOT_FOUND)
        bs_error_set_at(err, file ? DLTI_ERROR_IO : DLTI_ERROR_NOT_FOUND, path, 0, 0,
                        "no such file, and %s", inner.text);
    else if (err)
        *err = inner;
    return NULL;
}

static int load_json(dlti_context *ctx, const char *text, size_t len, const char *path,
                     const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    sysdesc_system sys;
    if (sd_json_load(ctx, text, len, path, opts, &sys, err) < 0 ||
        check_loaded(&sys, text, len, path ? path : "<input>", opts, err) < 0)
        return -1;
    *out = sys;
    return 0;
}

static int load_text(dlti_context *ctx, const char *text, size_t len, const char *path,
                     sd_input_format format, const sysdesc_yaml_options *opts,
                     sysdesc_system *out, dlti_error_t *err)
{
    if (opts && opts->scope && format != SD_INPUT_MLIR) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, path, 0, 0,
                        "a scope names an op of an MLIR file; this is %s, which has none",
                        sd_input_format_name(format));
        return -1;
    }
    switch (format) {
    case SD_INPUT_MLIR:
        return load_mlir(ctx, text, len, path, opts, out, err);
    case SD_INPUT_JSON:
        return load_json(ctx, text, len, path, opts, out, err);
    default:
        return sysdesc_yaml_load(ctx, text, len, path, opts, out, err);
    }
}

int sysdesc_system_parse(dlti_context *ctx, const char *text, size_t len, const char *source,
                         const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    bs_error_clear(err);
    if (!text && len) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no text");
        return -1;
    }
    text = text ? text : "";
    return load_text(ctx, text, len, source, sd_sniff(source, text, len), opts, out, err);
}

int sysdesc_system_load(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                        sysdesc_system *out, dlti_error_t *err)
{
    char *found;
    bs_error_clear(err);
    path = resolve(path, opts, &found, err);
    if (!path)
        return -1;
    size_t len;
    sd_input_format format;
    char *text = read_description(ctx, path, opts, &len, &format, err);
    int rc = text ? load_text(ctx, text, len, path, format, opts, out, err) : -1;
    free(text);
    free(found);
    return rc;
}

long sysdesc_check_file(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                        unsigned flags, sysdesc_problem_fn report, void *user)
{
    sysdesc_yaml_options raw;
    sd_yaml_options_fill(&raw, opts);
    /* strict, but the spec is found where a lenient load finds it (on an
     * op of its own); the check's problems are this function's to report */
    raw.flags = (raw.flags & ~(unsigned)SYSDESC_LOAD_ANY_MODULE) | SYSDESC_LOAD_NO_CHECK |
                SYSDESC_LOAD_LENIENT;
    raw.warn = NULL;
    dlti_error_t err;
    bs_error_clear(&err);
    char *found;
    const char *file = resolve(path, opts, &found, &err);
    size_t len = 0;
    sd_input_format format;
    char *text = file ? read_description(ctx, file, &raw, &len, &format, &err) : NULL;
    sysdesc_system sys;
    long n = 1;
    if (text && load_text(ctx, text, len, file, format, &raw, &sys, &err) == 0) {
        if (sys.spec) {
            n = sysdesc_system_check_located(&sys, flags, text, len, file, report, user);
        } else {
            /* DLTI that is no system spec: the transforms take it, the
             * device schema has nothing to check in it */
            char names[300] = "";
            size_t used = 0;
            for (size_t i = 0; i < dlti_scope_num_attrs(sys.module) && used + 1 < sizeof(names); i++) {
                if (!sysdesc_is_dlti_value(dlti_scope_attr_value(sys.module, i)))
                    continue;
                int w = snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "",
                                 dlti_scope_attr_name(sys.module, i));
                used = w < 0 ? used : used + (size_t)w;
            }
            bs_error_set_at(&err, DLTI_ERROR_NOT_FOUND, file, 0, 0,
                            "no #dlti.target_system_spec in the file (its DLTI is %s): nothing "
                            "for the device schema to check",
                            names);
            if (report)
                report(user, &err);
        }
    } else if (report) {
        report(user, &err);
    }
    free(text);
    free(found);
    return n;
}
