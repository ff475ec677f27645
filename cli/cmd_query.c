/* sysdesc query: answer a key path from a file, as transform.dlti.query does. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc query [--raw|--json] [--scope NAME/NAME] FILE|NAME KEY...\n"
    "       sysdesc query [--raw|--json] --host [--io|--no-io] [--quiet]\n"
    "                     [--no-catalog] [--runtimes=LIST]\n"
    "                     [--no-cache|--refresh-cache]\n"
    "                     [--runtime-timeout=MS] [--gcc=NAME] [--clang=NAME]\n"
    "                     [--llc=NAME] KEY...\n"
    "\n"
    "Looks up the path KEY... (e.g. CPU cache L1 size_in_bytes) in the DLTI\n"
    "attributes of FILE (MLIR or YAML, \"-\" for standard input) or of the\n"
    "catalog entry NAME (nvidia/h100-sxm) and prints the value in canonical\n"
    "MLIR.  A KEY is a string key; type:T makes it a type key\n"
    "(type:i32, type:!llvm.ptr).  --scope picks a nested named module, or an op\n"
    "with DLTI attributes by its symbol (func.func @f: f; default: the top).\n"
    "The first key is looked up in the scope's DLTI attributes, then\n"
    "in those of the enclosing scopes, outward; the rest in the value found.\n"
    "--host takes no FILE: the spec is probed from this machine as `sysdesc\n"
    "probe` makes it, with the probe's options; the runtimes' answers come\n"
    "from their cache when it is current (docs/runtimes.md), so a repeated\n"
    "query costs a topology load.  A sanity warning is said (on stderr,\n"
    "unless --quiet) only about the value answered: a key the probe doubts,\n"
    "or a map that holds one; `sysdesc probe` says them all, and\n"
    "`query --host CPU suspect` lists the keys.\n"
    "\n"
    "For scripts: --json prints the value as JSON (a number, a string, an\n"
    "object for a map, as `convert --to json` writes it); --raw as --json but\n"
    "a string's bytes unquoted (as jq -r): `query --raw FILE CPU cache L1\n"
    "size_in_bytes` prints 49152, `CPU vendor` prints GenuineIntel.  Both\n"
    "print the value alone: no note about MLIR 22's answer.\n"
    "\n"
    "Exit status: 0 found; 1 not found (MLIR's reason on stderr, the keys\n"
    "there as a hint), or NAME is no catalog entry (the nearest names\n"
    "suggested); 2 bad input or usage (no KEY); 3 the file could not be read.\n";

/* The probe's warnings, kept until the answer is known. */
typedef struct kept_warnings {
    char **lines;
    size_t n, cap;
} kept_warnings;

static void keep_warning(void *user, const char *message)
{
    kept_warnings *w = user;
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
static void say_warnings(const kept_warnings *w, char **keys, int nkeys)
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
static void note_mlir22(const dlti_scope *scope, const dlti_key *keys, size_t n,
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

/* How the value is printed: MLIR's text, or for scripts JSON or raw. */
typedef enum output { OUT_MLIR, OUT_JSON, OUT_RAW } output;

/* The value as `out` asks, on stdout: MLIR's text; JSON; raw, a string's
 * bytes as they are and everything else as JSON (jq -r's rule). */
static int print_value(const dlti_attr *value, output out, char **keys, int nkeys)
{
    const char *s;
    size_t len;
    int rc;
    if (out == OUT_RAW && dlti_attr_get_kind(value) == DLTI_ATTR_STRING &&
        dlti_attr_get_string(value, &s, &len, NULL) == 0) {
        rc = cli_write_stdout(s, len);
        return rc == SYSDESC_EXIT_OK ? cli_write_stdout("\n", 1) : rc;
    }
    char *text;
    if (out == OUT_MLIR) {
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

enum { OPT_SCOPE = 1, OPT_HOST, OPT_JSON, OPT_RAW };
static const cli_opt options[] = {
    {"--scope", NULL, OPT_SCOPE, CLI_VALUE},
    {"--host", NULL, OPT_HOST, 0},
    {"--json", NULL, OPT_JSON, 0},
    {"--raw", NULL, OPT_RAW, 0},
    {NULL, NULL, 0, 0},
};

int cmd_query(int argc, char **argv)
{
    const char *scope_path = "";
    cli_probe_args pa;
    cli_probe_args_init(&pa, SYSDESC_PROBE_IO_AUTO);
    output out = OUT_MLIR;
    int i = argc;
    cli_args a;
    cli_args_init(&a, "query", usage, (const cli_opt *const[]){options, cli_probe_opts, NULL},
                  argc, argv);
    a.posix = true; /* keys may start with '-' */
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            i = a.i - 1; /* FILE (or, with --host, the first KEY) */
            break;
        }
        if (o == OPT_SCOPE)
            scope_path = a.value;
        else if (o == OPT_HOST)
            pa.host = true;
        else if (o == OPT_JSON || o == OPT_RAW) {
            output want = o == OPT_JSON ? OUT_JSON : OUT_RAW;
            if (out != OUT_MLIR && out != want)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT, "query: --raw or --json, not both");
            out = want;
        } else
            cli_probe_take(&pa, o, a.value);
    }
    int done;
    bool host = pa.host;
    if ((done = cli_probe_args_check("query", &pa, pa.host)) >= 0)
        return done;
    if (i >= argc && !host)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "query: missing FILE (see sysdesc query --help)");
    const char *path = host ? NULL : argv[i++];
    if (i >= argc)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "query: missing KEY: give the path to answer, "
                        "e.g. CPU cache L1 size_in_bytes (see sysdesc query --help)");
    int nkeys = argc - i;
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    int rc = SYSDESC_EXIT_OK;
    dlti_key *keys = calloc((size_t)(nkeys ? nkeys : 1), sizeof(dlti_key));
    /* A YAML description or a catalog entry is one system spec (no scopes);
     * an MLIR file is a module whose scopes the query walks. */
    const dlti_attr *spec = NULL;
    const dlti_scope *root = NULL;
    kept_warnings kept = {0};
    if (keys && host) {
        pa.warning = keep_warning;
        pa.warning_user = &kept;
        spec = cli_probe(ctx, NULL, 0, &pa, &err);
    } else if (keys) {
        sysdesc_yaml_options opts = {0};
        opts.flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE;
        sysdesc_system sys;
        if (sysdesc_system_load(ctx, path, &opts, &sys, &err) == 0) {
            root = sys.module;
            spec = root ? NULL : sys.spec;
            cli_warn_unread(path, root);
        }
    }
    if (!keys) {
        rc = cli_nomem();
        goto out;
    }
    if (!root && !spec) {
        rc = host ? cli_fail(SYSDESC_EXIT_ENVIRONMENT, "query --host: %s", err.text)
                  : cli_report(&err);
        goto out;
    }
    if (!root && scope_path[0]) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "query: --scope needs an MLIR module; %s is one "
                      "system spec", path ? path : "the probed host");
        goto out;
    }
    const dlti_scope *scope = root ? dlti_scope_find(root, scope_path, &err) : NULL;
    if (root && !scope) {
        rc = cli_fail(SYSDESC_EXIT_NOT_FOUND, "%s", err.text);
        goto out;
    }
    for (int k = 0; k < nkeys; k++) {
        const char *arg = argv[i + k];
        if (strncmp(arg, "type:", 5) == 0) {
            const dlti_type *t = dlti_type_parse(ctx, arg + 5, strlen(arg + 5), &err);
            if (!t) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "invalid type key '%s': %s", arg, err.text);
                goto out;
            }
            keys[k] = dlti_key_type(ctx, t);
        } else {
            keys[k] = dlti_key_string(ctx, arg, strlen(arg));
        }
        if (!keys[k]) {
            rc = cli_nomem();
            goto out;
        }
    }
    /* The probed spec is the only attribute of an implicit top scope. */
    const dlti_attr *value = scope ? dlti_query(scope, keys, (size_t)nkeys, &err)
                                   : dlti_attr_query(spec, keys, (size_t)nkeys, &err);
    say_warnings(&kept, argv + i, nkeys);
    dlti_error_t whole = err; /* MLIR's message as MLIR words it, for the note */
    if (!value) {
        /* MLIR's note whole, as mlir-opt-22 prints it (err.text is cut at 1 KiB) */
        char *note = err.code == DLTI_ERROR_NOT_FOUND
                         ? dlti_query_note(scope, scope ? NULL : spec, keys, (size_t)nkeys)
                         : NULL;
        rc = cli_fail(cli_exit_code(err.code), "%s", note ? note : err.text);
        free(note);
        /* MLIR's message first (as transform.dlti.query words it), then a line
         * that says what is there. */
        char hint[512];
        if (err.code == DLTI_ERROR_NOT_FOUND &&
            dlti_query_hint(scope, scope ? NULL : spec, keys, (size_t)nkeys, hint,
                            sizeof(hint)) == 0)
            cli_diag("sysdesc: hint: %s", hint);
    }
    /* the script forms print the value alone */
    if (scope && out == OUT_MLIR)
        note_mlir22(scope, keys, (size_t)nkeys, value, &whole);
    if (value)
        rc = print_value(value, out, argv + i, nkeys);
out:
    for (size_t w = 0; w < kept.n; w++)
        free(kept.lines[w]);
    free(kept.lines);
    free(keys);
    dlti_context_free(ctx);
    return rc;
}
