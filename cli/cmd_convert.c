/* sysdesc convert: one description (YAML or MLIR) in another syntax. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc convert [--to mlir|attr|yaml|json] [--typed] [--no-check|--strict] [--pretty]\n"
    "                       [--inherent-dlti] [-o FILE] FILE\n"
    "\n"
    "Reads FILE (YAML or MLIR, \"-\" for standard input, or a catalog name such\n"
    "as nvidia/h100-sxm) and prints it as:\n"
    "  mlir  a module with dlti.target_system_spec (and dlti.dl_spec) (default)\n"
    "  attr  the bare #dlti.target_system_spec attribute\n"
    "  yaml  YAML that reads back to the identical spec (docs/yaml.md)\n"
    "  json  plain JSON; --typed keeps MLIR types as {\"type\", \"value\"}\n"
    "  --no-check  convert what is written; by default FILE is checked against\n"
    "           the device schema first (sysdesc check lists every problem); keys\n"
    "           and device types it does not know are warnings\n"
    "  --strict    those are errors too, as in sysdesc check\n"
    "  --pretty MLIR one DLTI entry a line, nested maps indented\n"
    "  --inherent-dlti  MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
    "           (MLIR 22 rejects it; sysdesc reads both forms)\n"
    "  -o FILE  write to FILE atomically (temporary file + rename; \"-\" is\n"
    "           standard output; a device or FIFO is written in place)\n"
    "\n"
    "Exit status: 0 ok; 2 bad input or usage (FILE:LINE:COL: error: ...);\n"
    "3 unreadable file or failed write.\n";

int cmd_convert(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    sysdesc_format format = SYSDESC_FORMAT_MLIR;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    unsigned flags = 0;
    bool operands = false; /* after "--" (every command: cli.h) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!operands && cli_end_of_options(a)) {
            operands = true;
            continue;
        }
        if (operands) {
            if (path)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: expected one FILE");
            path = a;
            continue;
        }
        if (cli_is_help(a)) {
            return cli_write_stdout(usage, sizeof(usage) - 1);
        }
        if (strcmp(a, "--to") == 0 || strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: %s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "-o") == 0) {
                out = v;
            } else {
                int rc = cli_format_option("convert", v, &format);
                if (rc >= 0)
                    return rc;
            }
        } else if (strncmp(a, "--to=", 5) == 0 || strncmp(a, "--format=", 9) == 0) {
            const char *v = strchr(a, '=') + 1;
            int rc = cli_format_option("convert", v, &format);
            if (rc >= 0)
                return rc;
        } else if (cli_description_option(a, &load_opts, &flags)) {
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                            "convert: unknown option '%s' (see sysdesc convert --help)", a);
        } else if (path) {
            return cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: expected one FILE");
        } else {
            path = a;
        }
    }
    if (!path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: missing FILE (see sysdesc convert --help)");
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    dlti_error_t err;
    sysdesc_system sys;
    int rc = sysdesc_system_load(ctx, path, &load_opts, &sys, &err) < 0
                 ? cli_report(&err)
                 : cli_output_system(&sys, format, flags, out);
    dlti_context_free(ctx);
    return rc;
}
