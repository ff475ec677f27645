/* sysdesc measure: probe this host, measure what its CPU delivers, print the
 * system spec with the CPU's `measured` map (docs/measure.md). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: sysdesc measure [--quick|--full] [--threads N] [--format mlir|attr|yaml|json]\n"
    "                       [-q] [-o FILE]\n"
    "\n"
    "Probes this host's CPU (as `sysdesc probe --no-io`), then measures what it\n"
    "delivers and adds it as the CPU's \"measured\" map: read and triad bandwidth\n"
    "of each cache level and of memory (one thread, and every allowed CPU),\n"
    "load-to-use latency per level (randomised pointer chase), peak f64 and f32\n"
    "FMA rate with the widest vector ISA (one thread, all threads), and the\n"
    "achieved clock.  Every kernel's result is verified.  Takes about 2-4 s;\n"
    "progress goes to stderr.  docs/measure.md says how each value is measured.\n"
    "\n"
    "  --quick         under a second: fewer, shorter samples (noisier)\n"
    "  --full          about 7x longer: 101 samples a value rather than 15\n"
    "  --threads N     use at most N of the allowed CPUs for the all-thread runs\n"
    "  --format F      mlir (default), attr, yaml or json\n"
    "  -q, --quiet     no progress on stderr\n"
    "  -o FILE         write to FILE atomically (temporary file + rename)\n"
    "\n"
    "Exit status: 0 ok; 2 bad usage; 3 failed probe, measurement (a kernel's\n"
    "result was wrong, out of memory) or write.\n";

typedef struct progress_state {
    bool tty;
    int last_pct;
} progress_state;

static void on_progress(void *user, const char *step, double done)
{
    progress_state *ps = user;
    int pct = (int)(done * 100 + 0.5);
    if (ps->tty) {
        /* One line, rewritten in place; cleared when done. */
        if (strcmp(step, "done") == 0)
            fputs("\r\033[K", stderr);
        else
            fprintf(stderr, "\r\033[Ksysdesc: measure: [%3d%%] %s", pct, step);
    } else if (pct / 25 != ps->last_pct / 25 || strcmp(step, "done") == 0) {
        /* Not a terminal (a log): a line at each quarter. */
        fprintf(stderr, "sysdesc: measure: [%3d%%] %s\n", pct, step);
    }
    ps->last_pct = pct;
    fflush(stderr);
}

int cmd_measure(int argc, char **argv)
{
    sysdesc_measure_options mo;
    sysdesc_measure_options_init(&mo);
    sysdesc_format format = SYSDESC_FORMAT_MLIR;
    const char *out = NULL;
    bool quiet = false;
    int rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        if (cli_is_help(a))
            return cli_write_stdout(usage, sizeof(usage) - 1);
        if (strcmp(a, "--quick") == 0 || strcmp(a, "--full") == 0) {
            sysdesc_measure_mode m = a[2] == 'q' ? SYSDESC_MEASURE_QUICK : SYSDESC_MEASURE_FULL;
            if (mo.mode != SYSDESC_MEASURE_DEFAULT && mo.mode != m)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "measure: --quick and --full exclude each other");
            mo.mode = m;
            continue;
        }
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = true;
            continue;
        }
        /* Options with a value: NAME VALUE or NAME=VALUE. */
        static const char *const valued[] = {"--threads", "--format", "-o", "--output"};
        size_t which = sizeof(valued) / sizeof(valued[0]);
        for (size_t k = 0; k < which; k++) {
            size_t n = strlen(valued[k]);
            if (strncmp(a, valued[k], n) == 0 && a[n] == '=' && k != 2) {
                v = a + n + 1;
                which = k;
            } else if (strcmp(a, valued[k]) == 0) {
                if (i + 1 >= argc)
                    return cli_fail(SYSDESC_EXIT_BAD_INPUT, "measure: %s needs a value", a);
                v = argv[++i];
                which = k;
            }
            if (v)
                break;
        }
        if (!v)
            return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                            "measure: unexpected argument '%s' (see sysdesc measure --help)", a);
        if (which == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (end == v || *end || n < 1 || n > 4096)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "measure: --threads takes a number from 1 to 4096, not '%s'", v);
            mo.max_threads = (unsigned)n;
        } else if (which == 1) {
            if ((rc = cli_format_option("measure", v, &format)) >= 0)
                return rc;
        } else {
            out = v;
        }
    }
    progress_state ps = {.tty = isatty(STDERR_FILENO) != 0, .last_pct = -1};
    if (!quiet) {
        mo.progress = on_progress;
        mo.progress_user = &ps;
    }
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    /* The CPU only: the GPUs and the vendor runtimes are not measured here. */
    sysdesc_probe_options po;
    sysdesc_probe_options_init(&po);
    po.io = SYSDESC_PROBE_IO_OFF;
    po.runtimes = SYSDESC_RUNTIME_NONE;
    po.quiet = quiet;
    dlti_error_t err;
    const dlti_attr *spec = sysdesc_probe_host(ctx, &po, &err), *cpu = NULL, *measured = NULL;
    if (spec)
        cpu = dlti_attr_lookup(spec, dlti_key_string(ctx, "CPU", 3));
    if (!spec || !cpu) {
        rc = spec ? cli_fail(SYSDESC_EXIT_ENVIRONMENT, "measure: the probe found no CPU device")
                  : cli_report(&err);
        if (!spec && err.code == DLTI_ERROR_IO)
            rc = SYSDESC_EXIT_ENVIRONMENT;
        goto done;
    }
    measured = sysdesc_measure_host(ctx, cpu, &mo, &err);
    if (measured)
        spec = sysdesc_measure_attach(ctx, spec, "CPU", measured, &err);
    if (!measured || !spec) {
        if (!quiet && ps.tty)
            fputs("\r\033[K", stderr);
        /* A wrong kernel result or a failed thread is the environment's fault, not the input's. */
        rc = cli_fail(err.code == DLTI_ERROR_ARGUMENT ? SYSDESC_EXIT_BAD_INPUT
                                                      : SYSDESC_EXIT_ENVIRONMENT,
                      "%s", err.text);
        goto done;
    }
    sysdesc_system sys = {.spec = spec};
    rc = cli_output_system(&sys, format, 0, out);
done:
    dlti_context_free(ctx);
    return rc;
}
