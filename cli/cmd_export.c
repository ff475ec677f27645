/* sysdesc export: one device in an autotuner's field names, as JSON
 * (sysdesc/tuner.h; the Python module's Spec.export() prints the same). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc export --to tvm|triton|inductor [--no-check|--strict] SPEC DEVICE\n"
    "\n"
    "Prints device DEVICE of SPEC (a YAML or MLIR file, or a catalog name) as a\n"
    "JSON object in the autotuner's own field names:\n"
    "  tvm       a TVM target's attributes (kind cuda/rocm/llvm, arch,\n"
    "            max_shared_memory_per_block, thread_warp_size, ...)\n"
    "  triton    Triton's get_device_properties() (max_shared_mem, max_num_regs,\n"
    "            multiprocessor_count, warpSize, clock rates in kHz, ...)\n"
    "  inductor  PyTorch Inductor's DeviceProperties (type, cc, major,\n"
    "            multi_processor_count, warp_size, ...)\n"
    "A field whose source key the device lacks is left out.  docs/export.md\n"
    "lists every field, its source key and unit.\n"
    "\n"
    "Exit status: 0 ok; 1 no such device, or SPEC is no file and no catalog\n"
    "entry (the nearest names suggested); 2 bad input, usage, or a device the\n"
    "tuner cannot describe; 3 unreadable file.\n";

enum { OPT_TO = 1 };
static const cli_opt options[] = {
    {"--to", NULL, OPT_TO, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_export(int argc, char **argv)
{
    const char *to = NULL;
    sysdesc_yaml_options opts;
    cli_load_options_init(&opts);
    const char *operands[2];
    int n = 0;
    cli_args a;
    cli_args_init(&a, "export", usage, (const cli_opt *const[]){options, cli_check_opts, NULL},
                  argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            if (n == 2)
                return cli_operand_error(&a, "one SPEC and one DEVICE");
            operands[n++] = a.arg;
        } else if (o == OPT_TO) {
            to = a.value;
        } else {
            cli_description_take(o, &opts, NULL);
        }
    }
    sysdesc_tuner tuner;
    if (!to)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "export: --to %s is needed",
                        "tvm|triton|inductor");
    if (sysdesc_tuner_parse(to, &tuner) < 0)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "export: unknown tuner '%s' (%s)", to,
                        sysdesc_tuner_names());
    if (n != 2)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "export: SPEC and DEVICE are needed (see sysdesc export --help)");
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    sysdesc_system sys;
    int rc;
    if (sysdesc_system_load(ctx, operands[0], &opts, &sys, &err) < 0) {
        rc = cli_report(&err);
    } else {
        size_t len;
        char *text = sysdesc_tuner_export(sys.spec, operands[1], tuner, &len, &err);
        if (!text) {
            rc = cli_fail(err.code == DLTI_ERROR_UNSUPPORTED ? SYSDESC_EXIT_BAD_INPUT
                                                             : cli_exit_code(err.code),
                          "export: %s", err.text);
        } else {
            rc = cli_write_stdout(text, len);
            free(text);
        }
    }
    dlti_context_free(ctx);
    return rc;
}
