/* sysdesc fmt: parse, verify and print canonical MLIR. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc fmt [--pretty] [--inherent-dlti] [--skeleton] [FILE|-]\n"
    "\n"
    "Parses FILE (default: standard input) as MLIR text, a module with DLTI\n"
    "attributes or one bare attribute, verifies it and prints it in the\n"
    "canonical form that mlir-opt-22 prints.\n"
    "\n"
    "  --pretty         one DLTI entry a line, nested maps indented (mlir-opt-22\n"
    "                   reads it; fmt prints it back on one line)\n"
    "  --inherent-dlti  MLIR head's `dlti = ...` module attribute instead of\n"
    "                   MLIR 22's `dlti.target_system_spec = ...` (MLIR 22\n"
    "                   rejects it; both forms are read)\n"
    "  --skeleton       for a file holding operations sysdesc does not model\n"
    "                   (func.func, gpu.module, ...): print its modules and\n"
    "                   their attributes alone.  Without it such a file is an\n"
    "                   error: fmt cannot re-print those operations (use\n"
    "                   `sysdesc attach` to set a file's spec)\n"
    "\n"
    "Exit status: 0 printed; 2 bad input (FILE:LINE:COL: error: MESSAGE on\n"
    "stderr); 3 the file could not be read or the output written.\n";

enum { OPT_PRETTY = 1, OPT_INHERENT, OPT_SKELETON };
static const cli_opt options[] = {
    {"--pretty", NULL, OPT_PRETTY, 0},
    {"--inherent-dlti", NULL, OPT_INHERENT, 0},
    {"--skeleton", NULL, OPT_SKELETON, 0},
    {NULL, NULL, 0, 0},
};

int cmd_fmt(int argc, char **argv)
{
    const char *path = "-";
    int files = 0;
    unsigned flags = 0;
    bool skeleton = false;
    cli_args a;
    cli_args_init(&a, "fmt", usage, (const cli_opt *const[]){options, NULL}, argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            path = a.arg;
            files++;
        } else if (o == OPT_PRETTY) {
            flags |= DLTI_PRINT_PRETTY;
        } else if (o == OPT_INHERENT) {
            flags |= DLTI_PRINT_INHERENT;
        } else {
            skeleton = true;
        }
    }
    if (files > 1)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "fmt: expected at most one FILE");
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    int rc, line, col;
    const char *first;
    const dlti_scope *root = dlti_parse_file(ctx, path, &err);
    if (!root) {
        rc = cli_report(&err);
    } else if (!skeleton && dlti_scope_skipped_ops(root, &first, &line, &col)) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "fmt: %s holds operations sysdesc does not model (first: '%s' at line %d, "
                      "column %d); fmt prints only what it can print whole: use `sysdesc query` "
                      "or `layout` to read the file, `sysdesc attach` to set its spec, or "
                      "`fmt --skeleton` for its modules and their attributes alone",
                      strcmp(path, "-") ? path : "<stdin>", first, line, col);
    } else {
        cli_warn_unread(path, root);
        size_t len;
        char *text = dlti_scope_print_flags(root, flags, &len);
        rc = text ? cli_write_stdout(text, len) : cli_nomem();
        free(text);
    }
    dlti_context_free(ctx);
    return rc;
}
