/* sysdesc compose: several descriptions (and the probed host) -> one system. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc compose [--host [PROBE OPTIONS]]\n"
    "                       [--format mlir|attr|yaml|json] [--typed] [--no-check|--strict]\n"
    "                       [--pretty] [--inherent-dlti] [-o FILE] ITEM...\n"
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
    "              --refresh-cache, --runtime-timeout=MS\n"
    "A device id used twice is an error: rename one with ID=ITEM.  Every item\n"
    "is checked against the device schema (sysdesc check) unless --no-check:\n"
    "keys it does not know are warnings, errors with --strict.\n"
    "  --format F  mlir (default), attr, yaml or json (--typed: keep types)\n"
    "  --pretty    MLIR one DLTI entry a line, nested maps indented\n"
    "  --inherent-dlti  MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
    "              (MLIR 22 rejects it; sysdesc reads both forms)\n"
    "  -o FILE     write to FILE atomically\n"
    "\n"
    "Exit status: 0 ok; 2 bad input or usage; 3 unreadable file, failed probe\n"
    "or write.\n";

static int add_host(sysdesc_compose *c, dlti_context *ctx, const cli_probe_args *pa)
{
    dlti_error_t err;
    sysdesc_system host = {0};
    host.spec = cli_probe(ctx, NULL, 0, pa, &err);
    if (!host.spec || sysdesc_compose_add(c, &host, NULL, 0, &err) < 0)
        return cli_report(&err);
    return SYSDESC_EXIT_OK;
}

/* Splits "[ID=]ITEM[:N]"; the strings point into `arg` (modified). */
static int parse_item(char *arg, char **id, char **item, unsigned *count)
{
    *id = NULL;
    *count = 0; /* no :N: the id as given */
    char *eq = strchr(arg, '=');
    if (eq && !memchr(arg, '/', (size_t)(eq - arg))) {
        *eq = '\0';
        *id = arg;
        arg = eq + 1;
        if (!**id)
            return -1;
    }
    /* Whatever follows the last ':' that looks like a count (a sign, blanks
     * and digits, or nothing) is one, and must be 1..100000: F:0, F:-1,
     * F:+1, F: and F:99999999999999999999 get the same error (issue 13),
     * never a search for a file named "F:-1". */
    char *colon = strrchr(arg, ':');
    if (colon && strspn(colon + 1, "+- 0123456789") == strlen(colon + 1)) {
        const char *d = colon + 1;
        size_t nd = strlen(d);
        if (nd == 0 || nd > 6 || strspn(d, "0123456789") != nd)
            return -1;
        unsigned long n = strtoul(d, NULL, 10);
        if (n == 0 || n > 100000)
            return -1;
        *count = (unsigned)n;
        *colon = '\0';
    }
    *item = arg;
    return **item ? 0 : -1;
}

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
    char **items = calloc((size_t)argc, sizeof(char *));
    if (!items)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    int rc = SYSDESC_EXIT_OK;
    bool operands = false; /* after "--" (every command: cli.h) */
    for (int i = 1; i < argc && rc == SYSDESC_EXIT_OK; i++) {
        const char *a = argv[i];
        if (!operands && cli_end_of_options(a)) {
            operands = true;
            continue;
        }
        if (operands) {
            items[nitems++] = argv[i];
            continue;
        }
        if (cli_is_help(a)) {
            free(items);
            return cli_write_stdout(usage, sizeof(usage) - 1);
        }
        if (strcmp(a, "--host") == 0) {
            pa.host = true;
        } else if (cli_probe_option(a, &pa)) {
            continue;
        } else if (cli_description_option(a, &load_opts, &flags)) {
            continue;
        } else if (strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "compose: %s needs a value", a);
            } else if (strcmp(a, "-o") == 0) {
                out = argv[++i];
            } else if ((rc = cli_format_option("compose", argv[++i], &format)) < 0) {
                rc = SYSDESC_EXIT_OK;
            }
        } else if (strncmp(a, "--format=", 9) == 0) {
            if ((rc = cli_format_option("compose", a + 9, &format)) < 0)
                rc = SYSDESC_EXIT_OK;
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                          "compose: unknown option '%s' (see sysdesc compose --help)", a);
        } else {
            items[nitems++] = argv[i];
        }
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
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    }
    if (rc == SYSDESC_EXIT_OK && (rc = cli_probe_args_check("compose", &pa, pa.host)) < 0)
        rc = SYSDESC_EXIT_OK;
    if (rc == SYSDESC_EXIT_OK && pa.host)
        rc = add_host(c, ctx, &pa);
    dlti_error_t err;
    for (int i = 0; i < nitems && rc == SYSDESC_EXIT_OK; i++) {
        char *copy = strdup(items[i]), *id, *item;
        unsigned count;
        sysdesc_system sys;
        if (!copy)
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        else if (parse_item(copy, &id, &item, &count) < 0)
            rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                          "compose: '%s' is not [ID=]ITEM[:N] (N from 1 to 100000)", items[i]);
        else if (sysdesc_system_load(ctx, item, &load_opts, &sys, &err) < 0)
            rc = cli_report(&err);
        else if (sysdesc_compose_add(c, &sys, id, count, &err) < 0)
            rc = cli_fail(cli_exit_code(err.code), "compose: %s: %s", items[i], err.text);
        free(copy);
    }
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
