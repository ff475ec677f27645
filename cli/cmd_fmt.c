/* sysdesc fmt: parse, verify and print canonical MLIR. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc fmt [FILE|-]\n"
    "\n"
    "Parses FILE (default: standard input) as MLIR text, a module with DLTI\n"
    "attributes or one bare attribute, verifies it and prints it in the\n"
    "canonical form that mlir-opt-22 prints.\n"
    "\n"
    "Exit status: 0 printed; 2 bad input (FILE:LINE:COL: error: MESSAGE on\n"
    "stderr); 3 the file could not be read or the output written.\n";

int cmd_fmt(int argc, char **argv)
{
    const char *path = "-";
    int files = 0;
    bool operands = false; /* after "--" (every command: cli.h) */
    for (int i = 1; i < argc; i++) {
        if (!operands && cli_end_of_options(argv[i])) {
            operands = true;
            continue;
        }
        if (!operands && cli_is_help(argv[i])) {
            return cli_write_stdout(usage, sizeof(usage) - 1);
        }
        if (!operands && argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_fail(SYSDESC_EXIT_BAD_INPUT, "fmt: unknown option '%s' (see sysdesc fmt --help)", argv[i]);
        path = argv[i];
        files++;
    }
    if (files > 1)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "fmt: expected at most one FILE");
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    dlti_error_t err;
    int rc;
    const dlti_scope *root = dlti_parse_file(ctx, path, &err);
    if (!root) {
        rc = cli_report(&err);
    } else {
        size_t len;
        char *text = dlti_scope_print(root, &len);
        rc = text ? cli_write_stdout(text, len) : cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        free(text);
    }
    dlti_context_free(ctx);
    return rc;
}
