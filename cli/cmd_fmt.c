/* sysdesc fmt: parse, verify and print canonical MLIR. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "[FILE|-]",
    .description = "Parses FILE (default: standard input) as MLIR text, a module with DLTI\n"
                   "attributes or one bare attribute, verifies it and prints it in the\n"
                   "canonical form that mlir-opt-22 prints.\n",
    .status = "Exit status: 0 printed; 2 bad input (FILE:LINE:COL: error: MESSAGE on\n"
              "stderr); 3 the file could not be read or the output written.\n",
};

typedef struct fmt_args {
    unsigned flags; /* DLTI_PRINT_* */
    bool skeleton;
} fmt_args;

#define AT(member) CLI_AT(fmt_args, member)
static const cli_opt options[] = {
    {"--pretty", .kind = CLI_BITS, AT(flags), .set = DLTI_PRINT_PRETTY,
     .help = "one DLTI entry a line, nested maps indented (mlir-opt-22\n"
             "reads it; fmt prints it back on one line)"},
    {"--inherent-dlti", .kind = CLI_BITS, AT(flags), .set = DLTI_PRINT_INHERENT,
     .help = "MLIR head's `dlti = ...` module attribute instead of\n"
             "MLIR 22's `dlti.target_system_spec = ...` (MLIR 22\n"
             "rejects it; both forms are read)"},
    {"--skeleton", .kind = CLI_FLAG, AT(skeleton),
     .help = "for a file holding operations sysdesc does not model\n"
             "(func.func, gpu.module, ...): print its modules and\n"
             "their attributes alone.  Without it such a file is an\n"
             "error: fmt cannot re-print those operations (use\n"
             "`sysdesc attach` to set a file's spec)"},
    {0},
};
#undef AT

/* FILE parsed and printed back, or the reason it is not. */
static int format_file(dlti_context *ctx, const char *path, const fmt_args *f)
{
    dlti_error_t err;
    int line, col;
    const char *first;
    const dlti_scope *root = dlti_parse_file(ctx, path, &err);
    if (!root)
        return cli_report(&err);
    if (!f->skeleton && dlti_scope_skipped_ops(root, &first, &line, &col))
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "fmt: %s holds operations sysdesc does not model (first: '%s' at line "
                        "%d, column %d); fmt prints only what it can print whole: use `sysdesc "
                        "query` or `layout` to read the file, `sysdesc attach` to set its spec, "
                        "or `fmt --skeleton` for its modules and their attributes alone",
                        strcmp(path, "-") ? path : "<stdin>", first, line, col);
    cli_warn_unread(path, root);
    size_t len;
    char *text = dlti_scope_print_flags(root, f->flags, &len);
    int rc = text ? cli_write_stdout(text, len) : cli_nomem();
    free(text);
    return rc;
}

int cmd_fmt(int argc, char **argv)
{
    fmt_args f = {0};
    cli_list files = {0};
    cli_args a;
    cli_args_init(&a, "fmt", &help, (const cli_group[]){{.opts = options, .base = &f}, {0}},
                  argc, argv);
    int rc = cli_parse_all(&a, &files, CLI_ANY, NULL);
    if (rc < 0 && files.n > 1)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "fmt: expected at most one FILE");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0)
        rc = ctx ? format_file(ctx, files.n ? files.v[0] : "-", &f) : cli_nomem();
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
