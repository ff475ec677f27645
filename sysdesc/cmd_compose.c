/* sysdesc compose: several descriptions (and the probed host) -> one system. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "sysdesc/catalog.h"
#include "sysdesc/probe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc compose [--host] [--format mlir|attr|yaml|json] [--typed]\n"
    "                       [-o FILE] ITEM...\n"
    "\n"
    "Builds one #dlti.target_system_spec from the devices of every ITEM:\n"
    "  ITEM        a YAML or MLIR file, or a catalog name (nvidia/h100-sxm)\n"
    "  ID=ITEM     the item's device gets id ID (a system's ids get \"ID.\" in\n"
    "              front)\n"
    "  ITEM:N      N identical devices ID0..ID<N-1> (ID: the given one or the\n"
    "              device's own), without N copies: GPU=nvidia/h100-sxm:8\n"
    "  --host      add this machine as the probe sees it; probed GPUs whose PCI\n"
    "              ids match a catalog entry take the entry's keys they lack\n"
    "A device id used twice is an error: rename one with ID=ITEM.\n"
    "  --format F  mlir (default), attr, yaml or json (--typed: keep types)\n"
    "  -o FILE     write to FILE atomically\n"
    "\n"
    "Exit status: 0 ok; 2 bad input or usage; 3 unreadable file, failed probe\n"
    "or write.\n";

/* Probe hook: a GPU whose PCI ids are in the catalog takes the keys it lacks. */
static int match_catalog(void *user, dlti_context *ctx, const sysdesc_pci_info *pci,
                         const dlti_attr **device_spec, dlti_error_t *err)
{
    (void)user;
    dlti_error_t inner;
    const dlti_attr *entry = sysdesc_catalog_match_pci(ctx, pci->vendor_id, pci->device_id, NULL,
                                                       NULL, &inner);
    if (!entry)
        return inner.code == DLTI_ERROR_NOT_FOUND ? 0 : (*err = inner, -1);
    const dlti_attr *filled = sysdesc_device_fill(ctx, *device_spec, entry, err);
    if (!filled)
        return -1;
    *device_spec = filled;
    return 0;
}

static int add_host(sysdesc_compose *c, dlti_context *ctx)
{
    sysdesc_probe_options opts;
    sysdesc_probe_options_init(&opts);
    opts.io = SYSDESC_PROBE_IO_ON;
    opts.pci_match = match_catalog;
    dlti_error_t err;
    sysdesc_system host = {0};
    host.spec = sysdesc_probe_host(ctx, &opts, &err);
    if (!host.spec || sysdesc_compose_add(c, &host, NULL, 1, &err) < 0)
        return cli_report(&err);
    return SYSDESC_EXIT_OK;
}

/* Splits "[ID=]ITEM[:N]"; the strings point into `arg` (modified). */
static int parse_item(char *arg, char **id, char **item, unsigned *count)
{
    *id = NULL;
    *count = 1;
    char *eq = strchr(arg, '=');
    if (eq && !memchr(arg, '/', (size_t)(eq - arg))) {
        *eq = '\0';
        *id = arg;
        arg = eq + 1;
        if (!**id)
            return -1;
    }
    char *colon = strrchr(arg, ':');
    if (colon && colon[1]) {
        char *end;
        unsigned long n = strtoul(colon + 1, &end, 10);
        if (*end == '\0' && isdigit((unsigned char)colon[1])) {
            if (n == 0 || n > 100000)
                return -1;
            *count = (unsigned)n;
            *colon = '\0';
        }
    }
    *item = arg;
    return **item ? 0 : -1;
}

int cmd_compose(int argc, char **argv)
{
    bool host = false, typed = false;
    int format = CLI_FORMAT_MLIR;
    const char *out = NULL;
    int nitems = 0;
    char **items = calloc((size_t)argc, sizeof(char *));
    if (!items)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    int rc = SYSDESC_EXIT_OK;
    for (int i = 1; i < argc && rc == SYSDESC_EXIT_OK; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            free(items);
            return cli_write_stdout(usage, sizeof(usage) - 1);
        }
        if (strcmp(a, "--host") == 0) {
            host = true;
        } else if (strcmp(a, "--typed") == 0) {
            typed = true;
        } else if (strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "compose: %s needs a value", a);
            } else if (strcmp(a, "-o") == 0) {
                out = argv[++i];
            } else if ((format = cli_format_parse(argv[++i])) < 0) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "compose: unknown format '%s'", argv[i]);
            }
        } else if (strncmp(a, "--format=", 9) == 0) {
            if ((format = cli_format_parse(a + 9)) < 0)
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "compose: unknown format '%s'", a + 9);
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                          "compose: unknown option '%s' (see sysdesc compose --help)", a);
        } else {
            items[nitems++] = argv[i];
        }
    }
    if (rc == SYSDESC_EXIT_OK && nitems == 0 && !host)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "compose: nothing to compose (see sysdesc compose --help)");
    if (rc != SYSDESC_EXIT_OK) {
        free(items);
        return rc;
    }
    dlti_context *ctx = dlti_context_new();
    sysdesc_compose *c = ctx ? sysdesc_compose_new(ctx) : NULL;
    if (!c) {
        dlti_context_free(ctx);
        free(items);
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    }
    if (host)
        rc = add_host(c, ctx);
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
        else if (sysdesc_system_load(ctx, item, NULL, &sys, &err) < 0)
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
            rc = cli_output_system(&result, format, typed, out);
    }
    sysdesc_compose_free(c);
    dlti_context_free(ctx);
    free(items);
    return rc;
}
