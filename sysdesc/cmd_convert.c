/* sysdesc convert: one description (YAML or MLIR) in another syntax; and the
 * output helper that compose, show (and probe) share. */
#include "atomic_write.h"
#include "cli.h"
#include "sysdesc/yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc convert [--to mlir|attr|yaml|json] [--typed] [-o FILE] FILE\n"
    "\n"
    "Reads FILE (YAML or MLIR, \"-\" for standard input, or a catalog name such\n"
    "as nvidia/h100-sxm) and prints it as:\n"
    "  mlir  a module with dlti.target_system_spec (and dlti.dl_spec) (default)\n"
    "  attr  the bare #dlti.target_system_spec attribute\n"
    "  yaml  YAML that reads back to the identical spec (docs/yaml.md)\n"
    "  json  plain JSON; --typed keeps MLIR types as {\"type\", \"value\"}\n"
    "  -o FILE  write to FILE atomically (temporary file + rename; \"-\" is\n"
    "           standard output; a device or FIFO is written in place)\n"
    "\n"
    "Exit status: 0 ok; 2 bad input or usage (FILE:LINE:COL: error: ...);\n"
    "3 unreadable file or failed write.\n";

int cli_format_parse(const char *name)
{
    static const char *const names[] = {"mlir", "attr", "yaml", "json"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

int cli_output_system(const sysdesc_system *sys, int format, bool typed, const char *out_path)
{
    size_t len = 0;
    char *text = NULL;
    switch (format) {
    case CLI_FORMAT_YAML:
        text = sysdesc_yaml_print(sys, &len);
        break;
    case CLI_FORMAT_JSON:
        text = sysdesc_json_print(sys, typed ? SYSDESC_JSON_TYPED : 0, &len);
        break;
    default:
        text = sysdesc_mlir_print(sys, format == CLI_FORMAT_ATTR, &len);
        break;
    }
    if (!text)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    int rc;
    if (out_path && strcmp(out_path, "-") != 0) { /* "-o -": standard output, as probe */
        char msg[512];
        rc = atomic_write_file(out_path, text, len, msg, sizeof(msg)) == 0
                 ? SYSDESC_EXIT_OK
                 : cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", msg);
    } else {
        rc = cli_write_stdout(text, len);
    }
    free(text);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    int format = CLI_FORMAT_MLIR;
    bool typed = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            return cli_write_stdout(usage, sizeof(usage) - 1);
        }
        if (strcmp(a, "--to") == 0 || strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT, "convert: %s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "-o") == 0) {
                out = v;
            } else if ((format = cli_format_parse(v)) < 0) {
                return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "convert: unknown format '%s' (mlir, attr, yaml, json)", v);
            }
        } else if (strncmp(a, "--to=", 5) == 0 || strncmp(a, "--format=", 9) == 0) {
            const char *v = strchr(a, '=') + 1;
            if ((format = cli_format_parse(v)) < 0)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "convert: unknown format '%s' (mlir, attr, yaml, json)", v);
        } else if (strcmp(a, "--typed") == 0) {
            typed = true;
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
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    dlti_error_t err;
    sysdesc_system sys;
    int rc = sysdesc_system_load(ctx, path, NULL, &sys, &err) < 0
                 ? cli_report(&err)
                 : cli_output_system(&sys, format, typed, out);
    dlti_context_free(ctx);
    return rc;
}
