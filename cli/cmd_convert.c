/* sysdesc convert: one description (MLIR, YAML, typed JSON) in another syntax. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "FILE",
    .description =
        "Reads FILE (MLIR, YAML or typed JSON, told by its content; \"-\" for\n"
        "standard input, or a catalog name such as nvidia/h100-sxm) and prints it as:\n"
        "  mlir  a module with dlti.target_system_spec (and dlti.dl_spec) (default)\n"
        "  attr  the bare #dlti.target_system_spec attribute\n"
        "  yaml  YAML that reads back to the identical spec (docs/yaml.md)\n"
        "  json  plain JSON, for jq (not read back: it loses MLIR's types); --typed\n"
        "        keeps them ({\"type\": T, \"value\": V}) and reads back identical\n",
    .status = "Exit status: 0 ok; 1 FILE is no file and no catalog entry (the nearest\n"
              "names suggested); 2 bad input or usage (FILE:LINE:COL: error: ...);\n"
              "3 unreadable file or failed write.\n",
};

typedef struct convert_args {
    sysdesc_format format;
    unsigned print_flags;
    const char *out;
    sysdesc_yaml_options load;
} convert_args;

#define AT(member) CLI_AT(convert_args, member)
static const cli_opt options[] = {
    {"--to", "--format", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(format),
     .parse = cli_parse_format, .usage = "--to mlir|attr|yaml|json"},
    {0},
};
#undef AT

int cmd_convert(int argc, char **argv)
{
    convert_args c = {.format = SYSDESC_FORMAT_MLIR};
    cli_load_options_init(&c.load);
    c.load.flags |= SYSDESC_LOAD_LENIENT; /* a transform: docs/checks.md */
    cli_list path = {0};
    cli_args a;
    cli_args_init(&a, "convert", &help,
                  (const cli_group[]){{.opts = options, .base = &c},
                                      {.opts = cli_transform_opts, .base = &c.load},
                                      {.opts = cli_print_opts, .base = &c.print_flags},
                                      {.opts = cli_output_opts, .base = &c.out},
                                      {0}}, argc, argv);
    int rc = cli_parse_all(&a, &path, 1, "one FILE");
    if (rc < 0 && !path.n)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: missing FILE (see sysdesc convert --help)");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    sysdesc_system sys;
    dlti_error_t err;
    if (rc < 0 && !ctx)
        rc = cli_nomem();
    if (rc < 0)
        rc = sysdesc_system_load(ctx, path.v[0], &c.load, &sys, &err) < 0
                 ? cli_report(&err)
                 : cli_output_system(&sys, c.format, c.print_flags, c.out);
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
