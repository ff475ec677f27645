/* sysdesc roofline: a device's roofline as SVG, from a description (file or
 * catalog name) or, without one, from this host measured as `sysdesc
 * measure` does (docs/measure.md). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc roofline [SPEC] [--device ID] [--types LIST] [--quick|--full]\n"
    "                        [--point NAME:INTENSITY:RATE]... [--points FILE]...\n"
    "                        [--no-check|--strict] [-q] [-o FILE]\n"
    "\n"
    "Draws the roofline of one device as SVG: arithmetic intensity (FLOP/byte)\n"
    "against GFLOP/s, log-log; a ceiling per compute rate and per bandwidth,\n"
    "measured (CPU.measured, from sysdesc measure) solid and nominal (datasheet,\n"
    "catalog: peak_ops_per_second, memory_bandwidth_in_bytes_per_second) dashed;\n"
    "a ridge point per bandwidth.  Which ceilings it found goes to stderr.\n"
    "\n"
    "  SPEC            a system (MLIR or YAML file, or a catalog name such as\n"
    "                  nvidia/h100-sxm); without one, this host is probed and\n"
    "                  measured first (as sysdesc measure; --quick, --full)\n"
    "  --device ID     the device (default: CPU when there is one, else the first)\n"
    "  --types LIST    compute ceilings' data types, comma-separated (default:\n"
    "                  fp64_vector,fp64_matrix,fp32_vector,fp32_matrix; for a\n"
    "                  GPU also tf32_matrix,fp16_matrix,bf16_matrix,fp8_matrix)\n"
    "  --point NAME:INTENSITY:RATE\n"
    "                  a kernel as a point: its FLOP/byte and FLOP/s (an SI\n"
    "                  prefix may end each: gemm:12.5:850G); stderr says the\n"
    "                  fraction of the roof it reaches there, and its bound\n"
    "                  (at most 32 points)\n"
    "  --points FILE   the points of FILE, one NAME:INTENSITY:RATE or CSV\n"
    "                  NAME,INTENSITY,RATE a line (# comments; a header line)\n"
    "  --no-check      take SPEC as written (default: checked against the schema)\n"
    "  --strict        keys the schema does not know are errors, as in check\n"
    "  -q, --quiet     nothing on stderr but errors\n"
    "  -o FILE         write to FILE atomically (default: standard output)\n"
    "\n"
    "Exit status: 0 ok; 1 the device has no compute or no bandwidth ceiling,\n"
    "no such device, or SPEC is no file and no catalog entry; 2 bad usage or\n"
    "SPEC; 3 unreadable SPEC, failed measurement or write.\n";

static void on_progress(void *user, const char *step, double done)
{
    (void)user;
    if (strcmp(step, "done") == 0)
        fprintf(stderr, "sysdesc: roofline: measured this host\n");
    else if (done == 0)
        fprintf(stderr, "sysdesc: roofline: measuring this host (%s)...\n", step);
}

/* Which ceilings there were, plainly, on stderr. */
static void report(const sysdesc_roofline *r)
{
    for (int m = 1; m >= 0; m--) {
        char line[4096];
        /* The measured ones with their provenance: which of its samples
         * each value is (median, best), and from which run. */
        size_t l = (size_t)snprintf(line, sizeof(line), "sysdesc: roofline: %s: %s ceilings%s%s%s:",
                                    r->device_id, m ? "measured" : "nominal",
                                    m && r->measured_by[0] ? " (" : "",
                                    m ? r->measured_by : "", m && r->measured_by[0] ? ")" : "");
        size_t n = 0;
        for (size_t i = 0; i < r->n && l < sizeof(line); i++)
            if (r->c[i].measured == (m == 1))
                l += (size_t)snprintf(line + l, sizeof(line) - l, "%s %s (%s)", n++ ? "," : "",
                                      r->c[i].label, r->c[i].key);
        if (!n && l < sizeof(line))
            snprintf(line + l, sizeof(line) - l, " none in this spec");
        cli_diag("%s", line);
    }
    /* Each kernel: how far below the roof, what bounds it there. */
    for (size_t i = 0; i < r->npoints; i++) {
        const sysdesc_roofline_point *p = &r->p[i];
        const sysdesc_roofline_ceiling *roof = &r->c[p->roof_ceiling];
        char rate[48], at_roof[48], next[96] = "";
        cli_roofline_si(rate, sizeof rate, p->rate, "FLOP/s");
        cli_roofline_si(at_roof, sizeof at_roof, p->roof, "FLOP/s");
        if (p->above < 0)
            snprintf(next, sizeof next, "; above every ceiling");
        else if ((size_t)p->above != p->roof_ceiling)
            snprintf(next, sizeof next, "; the next ceiling up: %s", r->c[p->above].label);
        cli_diag("sysdesc: roofline: point %s: %s at %.3g FLOP/byte, %.0f%% of the roof there "
                 "(%s: %s, under %s %s%s)", p->name, rate, p->intensity, 100 * p->fraction,
                 at_roof, roof->compute ? "compute-bound" : "memory-bound",
                 roof->measured ? "measured" : "nominal", roof->label, next);
    }
}

enum { OPT_QUICK = 1, OPT_FULL, OPT_QUIET, OPT_DEVICE, OPT_TYPES, OPT_OUT, OPT_POINT, OPT_POINTS };
static const cli_opt options[] = {
    {"--point", NULL, OPT_POINT, CLI_VALUE},
    {"--points", NULL, OPT_POINTS, CLI_VALUE},
    {"--quick", NULL, OPT_QUICK, 0},
    {"--full", NULL, OPT_FULL, 0},
    {"--quiet", "-q", OPT_QUIET, 0},
    {"--device", NULL, OPT_DEVICE, CLI_VALUE},
    {"--types", NULL, OPT_TYPES, CLI_VALUE},
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_roofline(int argc, char **argv)
{
    const char *spec_path = NULL, *device = NULL, *types = NULL, *out = NULL;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    sysdesc_measure_options mo;
    sysdesc_measure_options_init(&mo);
    bool quiet = false;
    /* the points, in order: each --point's text or --points' file */
    const char **points = calloc((size_t)argc + 1, sizeof(*points));
    bool *from_file = calloc((size_t)argc + 1, sizeof(*from_file));
    size_t npoints = 0;
    if (!points || !from_file) {
        free(points);
        free(from_file);
        return cli_nomem();
    }
    cli_args a;
    cli_args_init(&a, "roofline", usage, (const cli_opt *const[]){options, cli_check_opts, NULL},
                  argc, argv);
    int rc = -1;
    for (int o; rc < 0 && (o = cli_next(&a)) != CLI_DONE;) {
        switch (o) {
        case CLI_EXIT:
            rc = a.rc;
            break;
        case CLI_OPERAND:
            if (spec_path)
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "roofline: one SPEC only ('%s' and '%s')",
                              spec_path, a.arg);
            spec_path = a.arg;
            break;
        case OPT_POINT:
        case OPT_POINTS:
            from_file[npoints] = o == OPT_POINTS;
            points[npoints++] = a.value;
            break;
        case OPT_QUICK:
        case OPT_FULL:
            mo.mode = o == OPT_QUICK ? SYSDESC_MEASURE_QUICK : SYSDESC_MEASURE_FULL;
            break;
        case OPT_QUIET:
            quiet = true;
            break;
        case OPT_DEVICE:
            device = a.value;
            break;
        case OPT_TYPES:
            types = a.value;
            break;
        case OPT_OUT:
            out = a.value;
            break;
        default:
            cli_description_take(o, &load_opts, NULL);
        }
    }
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc >= 0 || !ctx) {
        free(points);
        free(from_file);
        return rc >= 0 ? rc : cli_nomem();
    }
    dlti_error_t err;
    const dlti_attr *spec = NULL;
    if (spec_path) {
        sysdesc_system sys;
        if (sysdesc_system_load(ctx, spec_path, &load_opts, &sys, &err) != 0) {
            rc = cli_report(&err);
            goto done;
        }
        spec = sys.spec;
    } else {
        /* This host: the CPU probed, then measured. */
        sysdesc_probe_options po;
        sysdesc_probe_options_init(&po);
        po.io = SYSDESC_PROBE_IO_OFF;
        po.runtimes = SYSDESC_RUNTIME_NONE;
        po.quiet = quiet;
        po.warning = cli_warning;
        if (!quiet)
            mo.progress = on_progress;
        const dlti_attr *cpu = NULL, *measured = NULL;
        if ((spec = sysdesc_probe_host(ctx, &po, &err)))
            cpu = dlti_attr_lookup(spec, dlti_key_string(ctx, "CPU", 3));
        if (cpu && (measured = sysdesc_measure_host(ctx, cpu, &mo, &err)))
            spec = sysdesc_measure_attach(ctx, spec, "CPU", measured, &err);
        if (!cpu || !measured || !spec) {
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "roofline: %s",
                          cpu || !spec ? err.text : "the probe found no CPU");
            goto done;
        }
    }
    /* The device: as asked, else CPU, else the first. */
    const dlti_attr *dev = NULL;
    char id[64] = "";
    if (device) {
        dev = dlti_attr_lookup(spec, dlti_key_string(ctx, device, strlen(device)));
        snprintf(id, sizeof(id), "%s", device);
    } else if ((dev = dlti_attr_lookup(spec, dlti_key_string(ctx, "CPU", 3)))) {
        snprintf(id, sizeof(id), "CPU");
    } else if (dlti_attr_size(spec) > 0) {
        size_t n;
        const char *k = dlti_key_str(dlti_attr_entry_key(spec, 0), &n);
        dev = dlti_attr_entry_value(spec, 0);
        snprintf(id, sizeof(id), "%.*s", (int)(n < 63 ? n : 63), k ? k : "");
    }
    if (!dev || dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        rc = cli_fail(SYSDESC_EXIT_NOT_FOUND, "roofline: no device \"%s\" in %s", id,
                      spec_path ? spec_path : "this host's spec");
        goto done;
    }
    sysdesc_roofline *r = malloc(sizeof(*r));
    if (!r) {
        rc = cli_nomem();
        goto done;
    }
    char *svg = NULL;
    size_t len = 0;
    if (sysdesc_roofline_collect(ctx, dev, id, types, r, &err) != 0) {
        rc = cli_fail(err.code == DLTI_ERROR_NOT_FOUND ? SYSDESC_EXIT_NOT_FOUND
                                                       : SYSDESC_EXIT_BAD_INPUT,
                      "%s", err.text);
        free(r);
        goto done;
    }
    for (size_t i = 0; i < npoints; i++) {
        int added = from_file[i] ? sysdesc_roofline_add_points_file(r, points[i], &err)
                                 : sysdesc_roofline_add_point_text(r, points[i], &err);
        if (added != 0) {
            /* a file's error at its place; --point's is the text given */
            rc = err.source[0] ? cli_report(&err) : cli_fail(cli_exit_code(err.code), "%s", err.text);
            free(r);
            goto done;
        }
    }
    if (!(svg = cli_roofline_svg(r, &len))) {
        rc = cli_nomem();
        free(r);
        goto done;
    }
    if (!quiet)
        report(r);
    rc = cli_output(svg, len, out);
    free(svg);
    free(r);
done:
    free(points);
    free(from_file);
    dlti_context_free(ctx);
    return rc;
}
