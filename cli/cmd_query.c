/* sysdesc query: answer a key path from a file, as transform.dlti.query does. */
#include "cli.h"

#include <stdlib.h>

static const cli_help help = {
    .operands = "[FILE|NAME] KEY...",
    .description =
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
        "print the value alone: no note about MLIR 22's answer.\n",
    .status =
        "Exit status: 0 found; 1 not found (MLIR's reason on stderr, the keys\n"
        "there as a hint), or NAME is no catalog entry (the nearest names\n"
        "suggested); 2 bad input or usage (no KEY); 3 the file could not be read.\n",
};

typedef struct query_args {
    const char *scope;
    cli_query_output out;
    cli_probe_args probe;
} query_args;

#define AT(member) CLI_AT(query_args, member)
static const cli_opt options[] = {
    {"--raw", .kind = CLI_SET, AT(out), .set = CLI_QUERY_RAW, .clash = "--raw or --json, not both"},
    {"--json", .kind = CLI_SET, AT(out), .set = CLI_QUERY_JSON,
     .clash = "--raw or --json, not both"},
    {"--scope", .flags = CLI_VALUE, .kind = CLI_STRING, AT(scope), .metavar = "NAME/NAME"},
    {"--host", .kind = CLI_FLAG, AT(probe.host)},
    {0},
};
#undef AT

/* The spec or module asked: probed (its warnings kept), or loaded. */
static int load(dlti_context *ctx, query_args *q, const char *path, cli_kept_warnings *kept,
                sysdesc_system *sys)
{
    dlti_error_t err;
    if (q->probe.host) {
        q->probe.opts.warning = cli_keep_warning;
        q->probe.opts.warning_user = kept;
        if (!(sys->spec = cli_probe(ctx, NULL, 0, &q->probe, &err)))
            return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "query --host: %s", err.text);
    } else {
        sysdesc_yaml_options opts = {.flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE};
        if (sysdesc_system_load(ctx, path, &opts, sys, &err) != 0)
            return cli_report(&err);
        cli_warn_unread(path, sys->module);
    }
    if (!sys->module && q->scope[0])
        return cli_usage_error("query", "--scope needs an MLIR module; %s is one system spec",
                               path ? path : "the probed host");
    return -1;
}

/* Answers KEY... (`words`) in what `sys` holds, and says it. */
static int answer(dlti_context *ctx, const query_args *q, const sysdesc_system *sys,
                  const cli_kept_warnings *kept, char **words, size_t nkeys)
{
    dlti_error_t err;
    const dlti_scope *scope = NULL;
    dlti_key *keys = calloc(nkeys, sizeof(dlti_key));
    int rc;
    if (!keys)
        rc = cli_nomem();
    else if (sys->module && !(scope = dlti_scope_find(sys->module, q->scope, &err)))
        rc = cli_fail(SYSDESC_EXIT_NOT_FOUND, "%s", err.text);
    else if (sysdesc_query_keys(ctx, (const char *const *)words, nkeys, keys, &err) != 0)
        rc = cli_fail(cli_exit_code(err.code), "%s", err.text);
    else {
        /* The probed spec is the only attribute of an implicit top scope. */
        const dlti_attr *spec = scope ? NULL : sys->spec;
        const dlti_attr *value = scope ? dlti_query(scope, keys, nkeys, &err)
                                       : dlti_attr_query(spec, keys, nkeys, &err);
        cli_query_warnings(kept, words, (int)nkeys);
        dlti_error_t whole = err; /* MLIR's message as MLIR words it, for the note */
        rc = value ? SYSDESC_EXIT_OK : cli_query_not_found(scope, spec, keys, nkeys, &err);
        if (scope && q->out == CLI_QUERY_MLIR) /* the script forms print the value alone */
            cli_query_note_mlir22(scope, keys, nkeys, value, &whole);
        if (value)
            rc = cli_query_print(value, q->out, words, (int)nkeys);
    }
    free(keys);
    return rc;
}

int cmd_query(int argc, char **argv)
{
    query_args q = {.scope = ""};
    cli_probe_args_init(&q.probe, SYSDESC_PROBE_IO_AUTO);
    cli_args a;
    cli_args_init(&a, "query", &help,
                  (const cli_group[]){{.opts = options, .base = &q}, CLI_PROBE_GROUPS(q.probe),
                                      {0}},
                  argc, argv);
    a.posix = true; /* keys may start with '-' */
    int i = argc, rc;
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        i = a.i - 1; /* FILE (or, with --host, the first KEY) */
        break;
    }
    if ((rc = cli_probe_args_check("query", &q.probe, q.probe.host)) >= 0)
        return rc;
    if (i >= argc && !q.probe.host)
        return cli_usage_error("query", "missing FILE (see sysdesc query --help)");
    const char *path = q.probe.host ? NULL : argv[i++];
    if (i >= argc)
        return cli_usage_error("query", "missing KEY: give the path to answer, e.g. CPU cache L1 "
                               "size_in_bytes (see sysdesc query --help)");
    dlti_context *ctx = cli_context_new();
    cli_kept_warnings kept = {0};
    sysdesc_system sys = {0};
    if (!ctx)
        rc = cli_nomem();
    else if ((rc = load(ctx, &q, path, &kept, &sys)) < 0)
        rc = answer(ctx, &q, &sys, &kept, argv + i, (size_t)(argc - i));
    cli_kept_warnings_free(&kept);
    dlti_context_free(ctx);
    return rc;
}
