/* sysdesc measure: probe this host, measure what its CPU (or, with
 * --device, each device through its runtime) delivers, print the system
 * spec with the `measured` maps (docs/measure.md). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <unistd.h>

static const cli_help help = {
    .description =
        "Probes this host's CPU (as `sysdesc probe --no-io`), then measures what it\n"
        "delivers and adds it as the CPU's \"measured\" map: read and triad bandwidth\n"
        "of each cache level and of memory (one thread, and every allowed CPU),\n"
        "load-to-use latency per level (randomised pointer chase), peak f64 and f32\n"
        "FMA rate with the widest vector ISA (one thread, all threads), and the\n"
        "achieved clock.  Every kernel's result is verified.  Each value is the\n"
        "median of its samples, with its best sample, spread and count under\n"
        "measured.best, .spread and .samples.  A latency sweep finds what each\n"
        "cache keeps for this process (levels.Lk.effective_capacity_in_bytes,\n"
        "flagged when under half the probed size); each level's working sets sit\n"
        "inside it.  The probed cache sizes bound the plan: correct a wrong one\n"
        "with --set or --override first (a size the probe marks suspect is not\n"
        "measured).  Each run is bounded (docs/measure.md, \"Bounds\"): on an idle\n"
        "host the default takes 1-3 s, --quick about a second; a level the bound\n"
        "changed or left out is said on stderr and in the output.  Progress goes\n"
        "to stderr.\n"
        "\n"
        "With --device, the vendor runtimes are asked too (as `sysdesc probe`) and\n"
        "each device named is measured through its runtime, in a child process\n"
        "of its own: device memory read, copy and triad, L2 and local memory\n"
        "read, host-device transfers both ways, peak FMA f32 (f64, f16 where the\n"
        "device has them) and, under CUDA, the SM clock, every result verified.\n"
        "A GPU goes into its \"measured\" map (through CUDA, else OpenCL, else\n"
        "Vulkan); the CPU is measured as above and then through each runtime\n"
        "that sees it (pocl, lavapipe), under measured.runtimes.  A device that\n"
        "cannot be measured says why in its \"source\" map and on stderr.\n",
    .status = "Exit status: 0 ok; 2 bad usage or override; 3 failed probe, measurement (a\n"
              "kernel's result was wrong, out of memory; a device's crash, hang or wrong\n"
              "result, the output still written) or write.\n",
};

typedef struct measure_args {
    sysdesc_measure_options mo;
    cli_list devices;
    sysdesc_format format;
    const char *out;
    cli_probe_args probe; /* the runtime options, for --device; -q */
    cli_overrides ov;
} measure_args;

#define AT(member) CLI_AT(measure_args, member)
static const cli_opt options[] = {
    {"--threads", .flags = CLI_VALUE, .kind = CLI_NUMBER, AT(mo.max_threads), .min = 1,
     .max = 4096, .what = "a number of CPUs", .metavar = "N",
     .help = "use at most N of the allowed CPUs for the all-thread runs"},
    {"--device", .flags = CLI_VALUE | CLI_COMMAS, .kind = CLI_LIST, AT(devices),
     .metavar = "ID|all",
     .label = "--device ID", .help = "measure device ID (CPU, GPU0, ...; repeatable, or a comma-\n"
                                     "separated list), or every device: all; about 1-2 s a\n"
                                     "device with --quick, within 10 s by default"},
    {"--device-timeout", .flags = CLI_VALUE, .kind = CLI_NUMBER, AT(mo.device_timeout_ms),
     .min = 1, .max = 3600000, .what = "a number of milliseconds", .metavar = "MS",
     .help = "kill a device's measurement after MS milliseconds\n"
             "(default: 30000 with --quick, 60000, 180000 with --full)"},
    {.kind = CLI_TEXT,
     .label = "--runtimes=LIST, --no-cache, --refresh-cache, --runtime-timeout=MS,\n--no-catalog",
     .help = "the probe's runtime options (sysdesc probe --help); with\n--device only"},
    {.kind = CLI_TEXT, .label = "--override FILE",
     .help = "values from a YAML or MLIR system file replace the probed\n"
             "ones before measuring (as `sysdesc probe --override`)"},
    {.kind = CLI_TEXT, .label = "--set P=V",
     .help = "one probed key, e.g. --set CPU.cache.L3.size_in_bytes=33554432"},
    {.kind = CLI_TEXT, .label = "--no-check", .help = "apply --override and --set as written"},
    {"--format", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(format), .parse = cli_parse_format,
     .metavar = "F", .usage = "--format mlir|attr|yaml|json",
     .help = "mlir (default), attr, yaml or json"},
    {"--quiet", "-q", .kind = CLI_FLAG, AT(probe.opts.quiet), .label = "-q, --quiet",
     .help = "no progress and no warnings on stderr"},
    {"--output", "-o", .flags = CLI_VALUE, .kind = CLI_STRING, AT(out), .usage = "-o FILE",
     .label = "-o FILE", .help = "write to FILE atomically (temporary file + rename)"},
    {0},
};
#undef AT

/* Probes, applies the overrides, measures, says what happened, prints. */
static int measure(dlti_context *ctx, measure_args *m)
{
    bool quiet = m->probe.opts.quiet;
    size_t ndev = m->devices.n, failed = 0;
    cli_progress ps = {.tty = isatty(STDERR_FILENO) != 0, .last_pct = -1};
    if (!quiet) {
        m->mo.progress = cli_measure_progress;
        m->mo.progress_user = &ps;
    }
    /* Without --device the CPU only: the vendor runtimes are not asked. */
    if (!ndev)
        m->probe.opts.runtimes = SYSDESC_RUNTIME_NONE;
    dlti_error_t err;
    sysdesc_system sys = {.spec = cli_probe(ctx, NULL, 0, &m->probe, &err)};
    if (!sys.spec) {
        int rc = cli_report(&err);
        return err.code == DLTI_ERROR_IO ? SYSDESC_EXIT_ENVIRONMENT : rc;
    }
    int rc = cli_apply_overrides("measure", ctx, &sys.spec, &m->ov);
    if (rc != SYSDESC_EXIT_OK)
        return rc;
    if (sysdesc_system_measure(ctx, &sys, m->devices.v, ndev, &m->mo, &failed, &err) != 0) {
        if (!quiet && ps.tty)
            fputs("\r\033[K", stderr);
        /* A wrong kernel result or a failed thread is the environment's fault. */
        return cli_fail(err.code == DLTI_ERROR_ARGUMENT ? SYSDESC_EXIT_BAD_INPUT
                                                        : SYSDESC_EXIT_ENVIRONMENT,
                        "%s", err.text);
    }
    cli_measure_report(sys.spec, quiet, ndev > 0);
    rc = cli_output_system(&sys, m->format, 0, m->out);
    /* A device's crash, hang or wrong result fails the run, after the output. */
    return rc == SYSDESC_EXIT_OK && failed ? SYSDESC_EXIT_ENVIRONMENT : rc;
}

int cmd_measure(int argc, char **argv)
{
    measure_args m = {.format = SYSDESC_FORMAT_MLIR};
    sysdesc_measure_options_init(&m.mo);
    cli_probe_args_init(&m.probe, SYSDESC_PROBE_IO_OFF);
    cli_load_options_init(&m.ov.load);
    cli_args a;
    cli_args_init(&a, "measure", &help,
                  (const cli_group[]){{.opts = cli_measure_mode_opts, .base = &m.mo},
                                      {.opts = options, .base = &m},
                                      {.opts = cli_override_opts, .base = &m.ov},
                                      {.opts = cli_check_opts, .base = &m.ov.load},
                                      CLI_PROBE_GROUP(cli_runtime_opts, m.probe), {0}},
                  argc, argv);
    int rc = -1;
    for (int o; rc < 0 && (o = cli_next(&a)) != CLI_DONE;)
        rc = o == CLI_EXIT ? a.rc : cli_operand_error(&a, "measure takes options only");
    if (rc < 0 && !m.devices.n && (m.probe.given || m.probe.no_catalog || m.mo.device_timeout_ms))
        rc = cli_usage_error("measure", "--runtimes, --no-cache, --refresh-cache, "
                                        "--runtime-timeout, --no-catalog and --device-timeout "
                                        "go with --device");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0)
        rc = ctx ? measure(ctx, &m) : cli_nomem();
    cli_args_free(&a);
    dlti_context_free(ctx);
    return rc;
}
