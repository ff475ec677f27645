/* sysdesc compose: several descriptions (and the probed host) -> one system. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "ITEM...",
    .description =
        "Builds one #dlti.target_system_spec from the devices of every ITEM.  A\n"
        "device id used twice is an error: rename one with ID=ITEM.  Every item\n"
        "is checked against the device schema (sysdesc check) unless --no-check:\n"
        "keys it does not know are warnings, errors with --strict.\n",
    .status = "Exit status: 0 ok; 1 an ITEM that is no file and no catalog entry (the\n"
              "nearest names suggested); 2 bad input or usage; 3 unreadable file,\n"
              "failed probe or write.\n",
};

typedef struct compose_args {
    cli_probe_args probe;
    sysdesc_format format;
    unsigned print_flags;
    const char *out;
    sysdesc_yaml_options load;
} compose_args;

#define AT(member) CLI_AT(compose_args, member)
static const cli_opt options[] = {
    {.kind = CLI_TEXT, .label = "ITEM",
     .help = "a YAML or MLIR file, or a catalog name (nvidia/h100-sxm)"},
    {.kind = CLI_TEXT, .label = "ID=ITEM",
     .help = "the item's device gets id ID (a system's ids get \"ID.\" in\n"
             "front)"},
    {.kind = CLI_TEXT, .label = "ITEM:N",
     .help = "N identical devices ID0..ID<N-1> (ID: the given one or the\n"
             "device's own), without N copies: GPU=nvidia/h100-sxm:8"},
    {"--host", .kind = CLI_FLAG, AT(probe.host),
     .help = "add this machine as the probe sees it; probed GPUs whose\n"
             "PCI ids match a catalog entry take the entry's keys they\n"
             "lack; PROBE OPTIONS as for sysdesc probe: --io (default\n"
             "here), --no-io, --quiet, --no-catalog, --runtimes=LIST,\n"
             "--no-cache, --refresh-cache, --runtime-timeout=MS,\n"
             "--gcc=NAME, --clang=NAME"},
    {"--format", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(format), .parse = cli_parse_format,
     .metavar = "F", .usage = "--format mlir|attr|yaml|json",
     .help = "mlir (default), attr, yaml or json"},
    {0},
};
#undef AT

static int add_host(sysdesc_compose *c, dlti_context *ctx, const cli_probe_args *pa)
{
    dlti_error_t err;
    sysdesc_system host = {0};
    host.spec = cli_probe(ctx, NULL, 0, pa, &err);
    if (!host.spec || sysdesc_compose_add(c, &host, NULL, 0, &err) < 0)
        return cli_report(&err);
    return SYSDESC_EXIT_OK;
}

/* The host (with --host) and the items composed, then printed. */
static int compose(sysdesc_compose *c, dlti_context *ctx, const compose_args *x,
                   const cli_list *items)
{
    dlti_error_t err;
    int rc = x->probe.host ? add_host(c, ctx, &x->probe) : SYSDESC_EXIT_OK;
    for (size_t i = 0; i < items->n && rc == SYSDESC_EXIT_OK; i++)
        if (sysdesc_compose_add_item(c, items->v[i], &x->load, &err) < 0)
            rc = err.source[0] ? cli_report(&err)
                               : cli_fail(cli_exit_code(err.code), "compose: %s", err.text);
    if (rc != SYSDESC_EXIT_OK)
        return rc;
    sysdesc_system result;
    if (sysdesc_compose_finish(c, &result, &err) < 0)
        return cli_fail(cli_exit_code(err.code), "compose: %s", err.text);
    return cli_output_system(&result, x->format, x->print_flags, x->out);
}

int cmd_compose(int argc, char **argv)
{
    compose_args x = {.format = SYSDESC_FORMAT_MLIR};
    cli_probe_args_init(&x.probe, SYSDESC_PROBE_IO_ON);
    cli_load_options_init(&x.load);
    cli_list items = {0};
    cli_args a;
    cli_args_init(&a, "compose", &help,
                  (const cli_group[]){{.opts = options, .base = &x},
                                      CLI_PROBE_GROUPS(x.probe),
                                      {.opts = cli_check_opts, .base = &x.load},
                                      {.opts = cli_print_opts, .base = &x.print_flags},
                                      {.opts = cli_output_opts, .base = &x.out},
                                      {0}}, argc, argv);
    int rc = cli_parse_all(&a, &items, CLI_ANY, NULL);
    if (rc < 0 && items.n == 0 && !x.probe.host)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "compose: nothing to compose (see sysdesc compose --help)");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    sysdesc_compose *c = ctx ? sysdesc_compose_new(ctx) : NULL;
    if (rc < 0 && !c)
        rc = cli_nomem();
    if (rc < 0 && (rc = cli_probe_args_check("compose", &x.probe, x.probe.host)) < 0)
        rc = compose(c, ctx, &x, &items);
    sysdesc_compose_free(c);
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
