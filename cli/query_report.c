/* What `sysdesc query` says: the value (MLIR, JSON or raw), the reason and
 * a hint when there is none, the note where MLIR 22 answers otherwise, and
 * the probe's warnings about the value asked. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The probe's warnings, kept until the answer is known. */
void cli_keep_warning(void *user, const char *message)
{
    cli_kept_warnings *w = user;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 4;
        char **lines = realloc(w->lines, cap * sizeof *lines);
        if (!lines) {
            cli_warning(NULL, message); /* said now rather than lost */
            return;
        }
        w->lines = lines;
        w->cap = cap;
    }
    size_t len = strlen(message) + 1;
    if (!(w->lines[w->n] = malloc(len))) {
        cli_warning(NULL, message);
        return;
    }
    memcpy(w->lines[w->n++], message, len);
}

void cli_kept_warnings_free(cli_kept_warnings *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->lines[i]);
    free(w->lines);
    memset(w, 0, sizeof(*w));
}

/* A warning is about "DEVICE.PATH: ...".  The flat L<k>_cache_size_in_bytes
 * holds the value of cache.L<k>.size_in_bytes (the probe keeps them equal). */
static void warning_path(const char *line, char *out, size_t size)
{
    size_t len = strcspn(line, ":");
    snprintf(out, size, "%.*s", (int)len, line);
    char *flat = strstr(out, ".L");
    int k;
    char tail[32];
    if (flat && sscanf(flat, ".L%d%31s", &k, tail) == 2 && strcmp(tail, "_cache_size_in_bytes") == 0)
        snprintf(flat, size - (size_t)(flat - out), ".cache.L%d.size_in_bytes", k);
}

/* Says the warnings about the value answered: a path asked that is, lies
 * under or holds a suspect one (the rest are `probe`'s and `summary
 * --host`'s to say; `query --host CPU suspect` lists them). */
void cli_query_warnings(const cli_kept_warnings *w, char **keys, int nkeys)
{
    char asked[1024] = "";
    size_t used = 0;
    for (int k = 0; k < nkeys && used < sizeof asked; k++)
        used += (size_t)snprintf(asked + used, sizeof asked - used, "%s%s", k ? "." : "", keys[k]);
    char flat[1100];
    warning_path(asked, flat, sizeof flat); /* the query may ask the flat key */
    for (size_t i = 0; i < w->n; i++) {
        char path[1100];
        warning_path(w->lines[i], path, sizeof path);
        size_t lp = strlen(path), la = strlen(flat);
        size_t shorter = lp < la ? lp : la;
        if (strncmp(path, flat, shorter) == 0 && (path[shorter] == '\0' || path[shorter] == '.') &&
            (flat[shorter] == '\0' || flat[shorter] == '.'))
            cli_warning(NULL, w->lines[i]);
    }
}

/* Where sysdesc's documented rules (docs/queries.md) answer otherwise than
 * MLIR 22's dlti::query, a note says what MLIR 22 answers. */
void cli_query_note_mlir22(const dlti_scope *scope, const dlti_key *keys, size_t n,
                        const dlti_attr *ours, const dlti_error_t *our_err)
{
    dlti_error_t err;
    const dlti_attr *theirs = dlti_query_mlir22(scope, keys, n, &err);
    if (theirs == ours && (ours || strcmp(err.text, our_err->text) == 0))
        return;
    char *text = theirs ? dlti_attr_print(theirs, NULL) : NULL;
    if (!theirs)
        cli_cut_attr_dump(err.text);
    cli_diag("sysdesc: note: MLIR 22's dlti::query answers otherwise here: %s%s; sysdesc tries the "
             "first key on every DLTI attribute of the scope and of the scopes around it, and "
             "per-node ids through a cluster's classes (docs/queries.md)",
             theirs ? "" : "it fails: ", theirs ? (text ? text : "?") : err.text);
    free(text);
}

/* The value as `out` asks, on stdout: MLIR's text; JSON; raw, a string's
 * bytes as they are and everything else as JSON (jq -r's rule). */
int cli_query_print(const dlti_attr *value, cli_query_output out, char **keys, int nkeys)
{
    const char *s;
    size_t len;
    int rc;
    if (out == CLI_QUERY_RAW && dlti_attr_get_kind(value) == DLTI_ATTR_STRING &&
        dlti_attr_get_string(value, &s, &len, NULL) == 0) {
        rc = cli_write_stdout(s, len);
        return rc == SYSDESC_EXIT_OK ? cli_write_stdout("\n", 1) : rc;
    }
    char *text;
    if (out == CLI_QUERY_MLIR) {
        if (!(text = dlti_attr_print(value, &len)))
            return cli_nomem();
        text[len++] = '\n'; /* over the NUL: the text is written by length */
    } else {
        char where[256] = "";
        size_t used = 0;
        for (int k = 0; k < nkeys && used < sizeof where; k++)
            used += (size_t)snprintf(where + used, sizeof where - used, "%s%s", k ? "." : "",
                                     keys[k]);
        dlti_error_t err;
        if (!(text = sysdesc_value_json(value, where, &len, &err)))
            return err.code == DLTI_ERROR_NOMEM ? cli_nomem() : cli_fail(cli_exit_code(err.code),
                                                                         "query: %s", err.text);
    }
    rc = cli_write_stdout(text, len);
    free(text);
    return rc;
}

int cli_query_not_found(const dlti_scope *scope, const dlti_attr *spec, const dlti_key *keys,
                        size_t n, const dlti_error_t *err)
{
    /* MLIR's note whole, as mlir-opt-22 prints it (err->text is cut at 1 KiB) */
    char *note = err->code == DLTI_ERROR_NOT_FOUND ? dlti_query_note(scope, spec, keys, n) : NULL;
    int rc = cli_fail(cli_exit_code(err->code), "%s", note ? note : err->text);
    free(note);
    /* MLIR's message first (as transform.dlti.query words it), then a line
     * that says what is there. */
    char hint[512];
    if (err->code == DLTI_ERROR_NOT_FOUND && dlti_query_hint(scope, spec, keys, n, hint,
                                                             sizeof(hint)) == 0)
        cli_diag("sysdesc: hint: %s", hint);
    return rc;
}
