/* sysdesc convert: one description (MLIR, YAML, typed JSON) in another syntax. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc convert [--to mlir|attr|yaml|json] [--typed]\n"
    "                       [--no-check|--strict] [--pretty] [--inherent-dlti]\n"
    "                       [--scope OP] [-o FILE] FILE\n"
    "\n"
    "Reads FILE (MLIR, YAML or typed JSON, told by its content; \"-\" for\n"
    "standard input, or a catalog name such as nvidia/h100-sxm) and prints it as:\n"
    "  mlir  a module with dlti.target_system_spec (and dlti.dl_spec) (default)\n"
    "  attr  the bare #dlti.target_system_spec attribute\n"
    "  yaml  YAML that reads back to the identical spec (docs/yaml.md)\n"
    "  json  plain JSON, for jq (not read back: it loses MLIR's types); --typed\n"
    "        keeps them ({\"type\": T, \"value\": V}) and reads back identical\n"
    "  --no-check  convert what is written; by default FILE is checked against\n"
    "           the device schema first (sysdesc check lists every problem); keys\n"
    "           and device types it does not know, and values of another type\n"
    "           than the schema's (kept as written), are warnings\n"
    "  --strict    those are errors too, as in sysdesc check\n"
    "  --scope OP  the op of an MLIR FILE whose DLTI is converted, by symbol\n"
    "           (outer/inner; / the top module); default: the top module's\n"
    "           system spec, else the one op holding one (a warning names it),\n"
    "           else the DLTI there is (a #dlti.map, a data layout alone, arrays\n"
    "           of device specs: mlir, attr and plain json hold it)\n"
    "  --pretty MLIR one DLTI entry a line, nested maps indented\n"
    "  --inherent-dlti  MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
    "           (MLIR 22 rejects it; sysdesc reads both forms)\n"
    "  -o FILE  write to FILE atomically (temporary file + rename; \"-\" is\n"
    "           standard output; a device or FIFO is written in place)\n"
    "\n"
    "Exit status: 0 ok; 1 FILE is no file and no catalog entry (the nearest\n"
    "names suggested); 2 bad input or usage (FILE:LINE:COL: error: ...);\n"
    "3 unreadable file or failed write.\n";

enum { OPT_TO = 1, OPT_OUT, OPT_SCOPE };
static const cli_opt options[] = {
    {"--to", "--format", OPT_TO, CLI_VALUE},
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {"--scope", NULL, OPT_SCOPE, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_convert(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    sysdesc_format format = SYSDESC_FORMAT_MLIR;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    load_opts.flags |= SYSDESC_LOAD_LENIENT; /* a transform: docs/checks.md */
    unsigned flags = 0;
    cli_args a;
    cli_args_init(&a, "convert", usage,
                  (const cli_opt *const[]){options, cli_check_opts, cli_print_opts, NULL}, argc,
                  argv);
    for (int o, rc; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            if (path)
                return cli_operand_error(&a, "one FILE");
            path = a.arg;
        } else if (o == OPT_OUT) {
            out = a.value;
        } else if (o == OPT_SCOPE) {
            load_opts.scope = a.value;
        } else if (o == OPT_TO) {
            if ((rc = cli_format_option("convert", a.value, &format)) >= 0)
                return rc;
        } else {
            cli_description_take(o, &load_opts, &flags);
        }
    }
    if (!path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: missing FILE (see sysdesc convert --help)");
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    sysdesc_system sys;
    int rc = sysdesc_system_load(ctx, path, &load_opts, &sys, &err) < 0
                 ? cli_report(&err)
                 : cli_output_system(&sys, format, flags, out);
    dlti_context_free(ctx);
    return rc;
}
