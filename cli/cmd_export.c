/* sysdesc export: one device in an autotuner's field names, as JSON
 * (sysdesc/tuner.h; the Python module's Spec.export() prints the same). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "SPEC DEVICE",
    .description =
        "Prints device DEVICE of SPEC (a YAML or MLIR file, or a catalog name) as a\n"
        "JSON object in the autotuner's own field names:\n"
        "  tvm       a TVM target's attributes (kind cuda/rocm/llvm, arch,\n"
        "            max_shared_memory_per_block, thread_warp_size, ...)\n"
        "  triton    Triton's get_device_properties() (max_shared_mem, max_num_regs,\n"
        "            multiprocessor_count, warpSize, clock rates in kHz, ...)\n"
        "  inductor  PyTorch Inductor's DeviceProperties (type, cc, major,\n"
        "            multi_processor_count, warp_size, ...)\n"
        "A field whose source key the device lacks is left out.  docs/export.md\n"
        "lists every field, its source key and unit.\n",
    .status = "Exit status: 0 ok; 1 no such device, or SPEC is no file and no catalog\n"
              "entry (the nearest names suggested); 2 bad input, usage, or a device the\n"
              "tuner cannot describe; 3 unreadable file.\n",
};

static bool parse_tuner(const char *value, void *field, char *msg, size_t size)
{
    if (sysdesc_tuner_parse(value, field) == 0)
        return true;
    snprintf(msg, size, "unknown tuner '%s' (%s)", value, sysdesc_tuner_names());
    return false;
}

typedef struct export_args {
    sysdesc_tuner tuner;
    unsigned given;
    sysdesc_yaml_options load;
} export_args;

static const cli_opt options[] = {
    {"--to", .flags = CLI_VALUE | CLI_NEEDED, .kind = CLI_PARSE, CLI_AT(export_args, tuner),
     .parse = parse_tuner, .given = 1, .usage = "--to tvm|triton|inductor"},
    {0},
};

/* Device `device` of `spec` as the tuner's JSON, or what is wrong. */
static int export_device(dlti_context *ctx, const export_args *x, const char *spec_path,
                         const char *device)
{
    dlti_error_t err;
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, spec_path, &x->load, &sys, &err) < 0)
        return cli_report(&err);
    size_t len;
    char *text = sysdesc_tuner_export(sys.spec, device, x->tuner, &len, &err);
    if (text) {
        int rc = cli_write_stdout(text, len);
        free(text);
        return rc;
    }
    int rc = cli_fail(err.code == DLTI_ERROR_UNSUPPORTED ? SYSDESC_EXIT_BAD_INPUT
                                                         : cli_exit_code(err.code),
                      "export: %s", err.text);
    /* a device it lacks: the one meant ("GPU" for "GPU0"), and which there are */
    char hint[512];
    if (err.code == DLTI_ERROR_NOT_FOUND &&
        !dlti_attr_lookup_string(sys.spec, device, strlen(device)) &&
        sysdesc_device_hint(sys.spec, device, hint, sizeof hint) == 0)
        cli_diag("sysdesc: hint: %s", hint);
    return rc;
}

int cmd_export(int argc, char **argv)
{
    export_args x = {0};
    cli_load_options_init(&x.load);
    cli_list ops = {0};
    cli_args a;
    cli_args_init(&a, "export", &help,
                  (const cli_group[]){{.opts = options, .base = &x, .given = &x.given},
                                      {.opts = cli_check_opts, .base = &x.load},
                                      {0}}, argc, argv);
    int rc = cli_parse_all(&a, &ops, 2, "one SPEC and one DEVICE");
    if (rc < 0 && !x.given)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "export: --to %s is needed", "tvm|triton|inductor");
    if (rc < 0 && ops.n != 2)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "export: SPEC and DEVICE are needed (see sysdesc export --help)");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0)
        rc = ctx ? export_device(ctx, &x, ops.v[0], ops.v[1]) : cli_nomem();
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
