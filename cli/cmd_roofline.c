/* sysdesc roofline: a device's roofline as SVG, from a description (file or
 * catalog name) or, without one, from this host measured as `sysdesc
 * measure` does (docs/measure.md). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "[SPEC]",
    .description =
        "Draws the roofline of one device as SVG: arithmetic intensity (FLOP/byte)\n"
        "against GFLOP/s, log-log; a ceiling per compute rate and per bandwidth,\n"
        "measured (CPU.measured, from sysdesc measure) solid and nominal (datasheet,\n"
        "catalog: peak_ops_per_second, memory_bandwidth_in_bytes_per_second) dashed;\n"
        "a ridge point per bandwidth.  Which ceilings it found goes to stderr.\n",
    .status = "Exit status: 0 ok; 1 the device has no compute or no bandwidth ceiling,\n"
              "no such device, or SPEC is no file and no catalog entry; 2 bad usage or\n"
              "SPEC; 3 unreadable SPEC, failed measurement or write.\n",
};

typedef struct roofline_args {
    const char *spec, *device, *types, *out;
    cli_list points; /* tagged: 0 --point's text, 1 --points' file */
    bool quiet;
    sysdesc_measure_options mo;
    sysdesc_yaml_options load;
} roofline_args;

#define AT(member) CLI_AT(roofline_args, member)
static const cli_opt options[] = {
    {.kind = CLI_TEXT, .label = "SPEC",
     .help = "a system (MLIR or YAML file, or a catalog name such as\n"
             "nvidia/h100-sxm); without one, this host is probed and\n"
             "measured first (as sysdesc measure; --quick, --full)"},
    {"--device", .flags = CLI_VALUE, .kind = CLI_STRING, AT(device), .metavar = "ID",
     .help = "the device (default: CPU when there is one, else the first)"},
    {"--types", .flags = CLI_VALUE, .kind = CLI_STRING, AT(types), .metavar = "LIST",
     .help = "compute ceilings' data types, comma-separated (default:\n"
             "fp64_vector,fp64_matrix,fp32_vector,fp32_matrix; for a\n"
             "GPU also tf32_matrix,fp16_matrix,bf16_matrix,fp8_matrix)"},
    {"--point", .flags = CLI_VALUE, .kind = CLI_LIST, AT(points), .set = 0,
     .metavar = "NAME:INTENSITY:RATE",
     .help = "\na kernel as a point: its FLOP/byte and FLOP/s (an SI\n"
             "prefix may end each: gemm:12.5:850G); stderr says the\n"
             "fraction of the roof it reaches there, and its bound\n"
             "(at most 32 points)"},
    {"--points", .flags = CLI_VALUE, .kind = CLI_LIST, AT(points), .set = 1, .metavar = "FILE",
     .help = "the points of FILE, one NAME:INTENSITY:RATE or CSV\n"
             "NAME,INTENSITY,RATE a line (# comments; a header line)"},
    {.kind = CLI_TEXT, .label = "--no-check",
     .help = "take SPEC as written (default: checked against the schema)"},
    {.kind = CLI_TEXT, .label = "--strict",
     .help = "keys the schema does not know are errors, as in check"},
    {"--quiet", "-q", .kind = CLI_FLAG, AT(quiet), .label = "-q, --quiet",
     .help = "nothing on stderr but errors"},
    {"--output", "-o", .flags = CLI_VALUE, .kind = CLI_STRING, AT(out), .usage = "-o FILE",
     .label = "-o FILE", .help = "write to FILE atomically (default: standard output)"},
    {0},
};
#undef AT

/* This host: the CPU probed, then measured. */
static const dlti_attr *measure_host(dlti_context *ctx, roofline_args *r, dlti_error_t *err)
{
    sysdesc_probe_options po;
    sysdesc_probe_options_init(&po);
    po.io = SYSDESC_PROBE_IO_OFF;
    po.runtimes = SYSDESC_RUNTIME_NONE;
    po.quiet = r->quiet;
    po.warning = cli_warning;
    if (!r->quiet)
        r->mo.progress = cli_roofline_progress;
    sysdesc_system sys = {.spec = sysdesc_probe_host(ctx, &po, err)};
    if (sys.spec && sysdesc_system_measure(ctx, &sys, NULL, 0, &r->mo, NULL, err) != 0)
        return NULL;
    return sys.spec;
}

/* The roofline of `dev` with the points asked, drawn. */
static int draw(dlti_context *ctx, const roofline_args *r, const dlti_attr *dev, const char *id,
                sysdesc_roofline *roof)
{
    dlti_error_t err;
    if (sysdesc_roofline_collect(ctx, dev, id, r->types, roof, &err) != 0)
        return cli_fail(err.code == DLTI_ERROR_NOT_FOUND ? SYSDESC_EXIT_NOT_FOUND
                                                         : SYSDESC_EXIT_BAD_INPUT,
                        "%s", err.text);
    for (size_t i = 0; i < r->points.n; i++)
        if ((r->points.tag[i] ? sysdesc_roofline_add_points_file(roof, r->points.v[i], &err)
                              : sysdesc_roofline_add_point_text(roof, r->points.v[i], &err)) != 0)
            /* a file's error at its place; --point's is the text given */
            return err.source[0] ? cli_report(&err)
                                 : cli_fail(cli_exit_code(err.code), "%s", err.text);
    size_t len = 0;
    char *svg = cli_roofline_svg(roof, &len);
    if (!svg)
        return cli_nomem();
    if (!r->quiet)
        cli_roofline_report(roof);
    int rc = cli_output(svg, len, r->out);
    free(svg);
    return rc;
}

/* The devices there are, and how to pick one: after `asked` was not found,
 * or (`asked` NULL) the default device `id` had no roofline. */
static void hint_devices(const dlti_attr *spec, const char *asked, const char *id)
{
    char hint[512];
    size_t len, n = dlti_attr_size(spec);
    if (n < 2 || sysdesc_device_hint(spec, asked, hint, sizeof hint) != 0)
        return;
    if (asked) {
        cli_diag("sysdesc: hint: %s", hint);
        return;
    }
    /* another device, by name: the first that is not the default */
    const char *other = dlti_key_str(dlti_attr_entry_key(spec, 0), &len);
    if (other && len == strlen(id) && strncmp(other, id, len) == 0)
        other = dlti_key_str(dlti_attr_entry_key(spec, 1), &len);
    cli_diag("sysdesc: hint: %s: the default is %s; another with --device ID (--device %.*s)",
             hint, id, other ? (int)len : 0, other ? other : "");
}

int cmd_roofline(int argc, char **argv)
{
    roofline_args r = {0};
    cli_load_options_init(&r.load);
    sysdesc_measure_options_init(&r.mo);
    cli_args a;
    cli_args_init(&a, "roofline", &help,
                  (const cli_group[]){{.opts = options, .base = &r},
                                      {.opts = cli_measure_mode_opts, .base = &r.mo,
                                       .unlisted = true},
                                      {.opts = cli_check_opts, .base = &r.load, .unlisted = true},
                                      {0}},
                  argc, argv);
    int rc = -1;
    for (int o; rc < 0 && (o = cli_next(&a)) != CLI_DONE;)
        if (o == CLI_EXIT)
            rc = a.rc;
        else if (r.spec)
            rc = cli_usage_error("roofline", "one SPEC only ('%s' and '%s')", r.spec, a.arg);
        else
            r.spec = a.arg;
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0 && !ctx)
        rc = cli_nomem();
    dlti_error_t err;
    sysdesc_system sys = {0};
    sysdesc_roofline *roof = NULL;
    char id[64];
    const dlti_attr *dev = NULL;
    if (rc >= 0) {
        /* a usage error, reported */
    } else if (r.spec && sysdesc_system_load(ctx, r.spec, &r.load, &sys, &err) != 0) {
        rc = cli_report(&err);
    } else if (!r.spec && !(sys.spec = measure_host(ctx, &r, &err))) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "roofline: %s", err.text);
    } else if (!(dev = sysdesc_roofline_device(sys.spec, r.device, id, sizeof id, &err))) {
        rc = cli_fail(SYSDESC_EXIT_NOT_FOUND, "roofline: %s in %s", err.text,
                      r.spec ? r.spec : "this host's spec");
        hint_devices(sys.spec, r.device, id);
    } else if (!(roof = malloc(sizeof(*roof)))) {
        rc = cli_nomem();
    } else if ((rc = draw(ctx, &r, dev, id, roof)) == SYSDESC_EXIT_NOT_FOUND && !r.device) {
        hint_devices(sys.spec, NULL, id); /* the default device has no roofline */
    }
    free(roof);
    cli_args_free(&a);
    dlti_context_free(ctx);
    return rc;
}
