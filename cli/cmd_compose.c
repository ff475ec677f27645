/* sysdesc compose: several descriptions (and the probed host) -> one system. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc compose [--host [PROBE OPTIONS]]\n"
    "                       [--format mlir|attr|yaml|json] [--typed]\n"
    "                       [--no-check|--strict] [--pretty] [--inherent-dlti]\n"
    "                       [-o FILE] ITEM...\n"
    "\n"
    "Builds one #dlti.target_system_spec from the devices of every ITEM:\n"
    "  ITEM        a YAML or MLIR file, or a catalog name (nvidia/h100-sxm)\n"
    "  ID=ITEM     the item's device gets id ID (a system's ids get \"ID.\" in\n"
    "              front)\n"
    "  ITEM:N      N identical devices ID0..ID<N-1> (ID: the given one or the\n"
    "              device's own), without N copies: GPU=nvidia/h100-sxm:8\n"
    "  --host      add this machine as the probe sees it; probed GPUs whose PCI\n"
    "              ids match a catalog entry take the entry's keys they lack;\n"
    "              PROBE OPTIONS as for sysdesc probe: --io (default here),\n"
    "              --no-io, --quiet, --no-catalog, --runtimes=LIST, --no-cache,\n"
    "              --refresh-cache, --runtime-timeout=MS, --gcc=NAME, --clang=NAME\n"
    "A device id used twice is an error: rename one with ID=ITEM.  Every item\n"
    "is checked against the device schema (sysdesc check) unless --no-check:\n"
    "keys it does not know are warnings, errors with --strict.\n"
    "  --format F  mlir (default), attr, yaml or json (--typed: keep types)\n"
    "  --pretty    MLIR one DLTI entry a line, nested maps indented\n"
    "  --inherent-dlti  MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
    "              (MLIR 22 rejects it; sysdesc reads both forms)\n"
    "  -o FILE     write to FILE atomically\n"
    "\n"
    "Exit status: 0 ok; 1 an ITEM that is no file and no catalog entry (the\n"
    "nearest names suggested); 2 bad input or usage; 3 unreadable file,\n"
    "failed probe or write.\n";

static int add_host(sysdesc_compose *c, dlti_context *ctx, const cli_probe_args *pa)
{
    dlti_error_t err;
    sysdesc_system host = {0};
    host.spec = cli_probe(ctx, NULL, 0, pa, &err);
    if (!host.spec || sysdesc_compose_add(c, &host, NULL, 0, &err) < 0)
        return cli_report(&err);
    return SYSDESC_EXIT_OK;
}

enum { OPT_HOST = 1, OPT_FORMAT, OPT_OUT };
static const cli_opt options[] = {
    {"--host", NULL, OPT_HOST, 0},
    {"--format", NULL, OPT_FORMAT, CLI_VALUE},
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_compose(int argc, char **argv)
{
    cli_probe_args pa;
    cli_probe_args_init(&pa, SYSDESC_PROBE_IO_ON);
    unsigned flags = 0;
    sysdesc_format format = SYSDESC_FORMAT_MLIR;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    const char *out = NULL;
    int nitems = 0;
    const char **items = calloc((size_t)argc, sizeof(char *));
    if (!items)
        return cli_nomem();
    int rc = SYSDESC_EXIT_OK;
    cli_args a;
    cli_args_init(&a, "compose", usage,
                  (const cli_opt *const[]){options, cli_probe_opts, cli_check_opts,
                                           cli_print_opts, NULL},
                  argc, argv);
    for (int o; rc == SYSDESC_EXIT_OK && (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT) {
            free(items);
            return a.rc;
        } else if (o == CLI_OPERAND)
            items[nitems++] = a.arg;
        else if (o == OPT_HOST)
            pa.host = true;
        else if (o == OPT_OUT)
            out = a.value;
        else if (o == OPT_FORMAT) {
            if ((rc = cli_format_option("compose", a.value, &format)) < 0)
                rc = SYSDESC_EXIT_OK;
        } else if (!cli_probe_take(&pa, o, a.value))
            cli_description_take(o, &load_opts, &flags);
    }
    if (rc == SYSDESC_EXIT_OK && nitems == 0 && !pa.host)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "compose: nothing to compose (see sysdesc compose --help)");
    if (rc != SYSDESC_EXIT_OK) {
        free(items);
        return rc;
    }
    dlti_context *ctx = cli_context_new();
    sysdesc_compose *c = ctx ? sysdesc_compose_new(ctx) : NULL;
    if (!c) {
        dlti_context_free(ctx);
        free(items);
        return cli_nomem();
    }
    if (rc == SYSDESC_EXIT_OK && (rc = cli_probe_args_check("compose", &pa, pa.host)) < 0)
        rc = SYSDESC_EXIT_OK;
    if (rc == SYSDESC_EXIT_OK && pa.host)
        rc = add_host(c, ctx, &pa);
    dlti_error_t err;
    for (int i = 0; i < nitems && rc == SYSDESC_EXIT_OK; i++)
        if (sysdesc_compose_add_item(c, items[i], &load_opts, &err) < 0)
            rc = err.source[0] ? cli_report(&err)
                               : cli_fail(cli_exit_code(err.code), "compose: %s", err.text);
    sysdesc_system result;
    if (rc == SYSDESC_EXIT_OK) {
        if (sysdesc_compose_finish(c, &result, &err) < 0)
            rc = cli_fail(cli_exit_code(err.code), "compose: %s", err.text);
        else
            rc = cli_output_system(&result, format, flags, out);
    }
    sysdesc_compose_free(c);
    dlti_context_free(ctx);
    free(items);
    return rc;
}
