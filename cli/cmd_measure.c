/* sysdesc measure: probe this host, measure what its CPU delivers, print the
 * system spec with the CPU's `measured` map (docs/measure.md). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: sysdesc measure [--quick|--full] [--threads N] [--override FILE]...\n"
    "                       [--set PATH=VALUE]... [--no-check]\n"
    "                       [--format mlir|attr|yaml|json] [-q] [-o FILE]\n"
    "\n"
    "Probes this host's CPU (as `sysdesc probe --no-io`), then measures what it\n"
    "delivers and adds it as the CPU's \"measured\" map: read and triad bandwidth\n"
    "of each cache level and of memory (one thread, and every allowed CPU),\n"
    "load-to-use latency per level (randomised pointer chase), peak f64 and f32\n"
    "FMA rate with the widest vector ISA (one thread, all threads), and the\n"
    "achieved clock.  Every kernel's result is verified.  The working sets come\n"
    "from the probed cache sizes: correct a wrong one with --set or --override\n"
    "first (a size the probe marks suspect is not measured).  Each run is\n"
    "bounded (docs/measure.md, \"Bounds\"): on an idle host the default takes\n"
    "1-3 s, --quick under a second; a level the bound changed or left out is\n"
    "said on stderr and in the output.  Progress goes to stderr.\n"
    "\n"
    "  --quick         under a second: fewer, shorter samples, working sets of at\n"
    "                  most 64 MiB a thread (noisier; memory may be left out)\n"
    "  --full          about 7x longer: 101 samples a value rather than 15\n"
    "  --threads N     use at most N of the allowed CPUs for the all-thread runs\n"
    "  --override FILE values from a YAML or MLIR system file replace the probed\n"
    "                  ones before measuring (as `sysdesc probe --override`)\n"
    "  --set P=V       one probed key, e.g. --set CPU.cache.L3.size_in_bytes=33554432\n"
    "  --no-check      apply --override and --set as written\n"
    "  --format F      mlir (default), attr, yaml or json\n"
    "  -q, --quiet     no progress and no warnings on stderr\n"
    "  -o FILE         write to FILE atomically (temporary file + rename)\n"
    "\n"
    "Exit status: 0 ok; 2 bad usage or override; 3 failed probe, measurement (a\n"
    "kernel's result was wrong, out of memory) or write.\n";

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

enum { OPT_QUICK = 1, OPT_FULL, OPT_QUIET, OPT_THREADS, OPT_FORMAT, OPT_OUT };
static const cli_opt options[] = {
    {"--quick", NULL, OPT_QUICK, 0},
    {"--full", NULL, OPT_FULL, 0},
    {"--quiet", "-q", OPT_QUIET, 0},
    {"--threads", NULL, OPT_THREADS, CLI_VALUE},
    {"--format", NULL, OPT_FORMAT, CLI_VALUE},
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

/* What the bound changed: the `skipped` map and each level's `bounded`. */
static void say_bounds(dlti_context *ctx, const dlti_attr *measured)
{
    const dlti_attr *sk = dlti_attr_lookup_string(measured, "skipped", 7);
    for (size_t i = 0; sk && i < dlti_attr_size(sk); i++) {
        const char *name, *why;
        size_t nlen, wlen;
        name = dlti_key_str(dlti_attr_entry_key(sk, i), &nlen);
        if (name && dlti_attr_get_string(dlti_attr_entry_value(sk, i), &why, &wlen, NULL) == 0)
            fprintf(stderr, "sysdesc: measure: %.*s not measured: %.*s\n", (int)nlen, name,
                    (int)wlen, why);
    }
    const dlti_attr *lv = dlti_attr_lookup_string(measured, "levels", 6);
    for (size_t i = 0; lv && i < dlti_attr_size(lv); i++) {
        const char *name, *why;
        size_t nlen, wlen;
        const dlti_attr *b = dlti_attr_lookup_string(dlti_attr_entry_value(lv, i), "bounded", 7);
        name = dlti_key_str(dlti_attr_entry_key(lv, i), &nlen);
        if (name && b && dlti_attr_get_string(b, &why, &wlen, NULL) == 0)
            fprintf(stderr, "sysdesc: measure: %.*s: %.*s\n", (int)nlen, name, (int)wlen, why);
    }
    (void)ctx;
}

int cmd_measure(int argc, char **argv)
{
    sysdesc_measure_options mo;
    sysdesc_measure_options_init(&mo);
    sysdesc_format format = SYSDESC_FORMAT_MLIR;
    const char *out = NULL;
    bool quiet = false;
    int rc = SYSDESC_EXIT_OK;
    dlti_context *ctx = NULL;
    cli_overrides ov = {.files = calloc((size_t)argc, sizeof(char *)),
                        .sets = calloc((size_t)argc, sizeof(char *))};
    cli_load_options_init(&ov.load);
    if (!ov.files || !ov.sets) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        goto done;
    }
    cli_args a;
    cli_args_init(&a, "measure", usage,
                  (const cli_opt *const[]){options, cli_override_opts, cli_check_opts, NULL},
                  argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT) {
            rc = a.rc;
            goto done;
        }
        if (o == CLI_OPERAND) {
            rc = cli_operand_error(&a, "measure takes options only");
            goto done;
        }
        if (o == OPT_QUICK || o == OPT_FULL) {
            sysdesc_measure_mode m = o == OPT_QUICK ? SYSDESC_MEASURE_QUICK : SYSDESC_MEASURE_FULL;
            if (mo.mode != SYSDESC_MEASURE_DEFAULT && mo.mode != m) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                              "measure: --quick and --full exclude each other");
                goto done;
            }
            mo.mode = m;
        } else if (o == OPT_QUIET) {
            quiet = true;
        } else if (o == OPT_THREADS) {
            char *end;
            long n = strtol(a.value, &end, 10);
            if (end == a.value || *end || n < 1 || n > 4096) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                              "measure: --threads takes a number from 1 to 4096, not '%s'",
                              a.value);
                goto done;
            }
            mo.max_threads = (unsigned)n;
        } else if (o == OPT_FORMAT) {
            if ((rc = cli_format_option("measure", a.value, &format)) >= 0)
                goto done;
            rc = SYSDESC_EXIT_OK;
        } else if (o == OPT_OUT) {
            out = a.value;
        } else {
            cli_override_take(&ov, o, a.value);
        }
    }
    progress_state ps = {.tty = isatty(STDERR_FILENO) != 0, .last_pct = -1};
    if (!quiet) {
        mo.progress = on_progress;
        mo.progress_user = &ps;
    }
    ctx = cli_context_new();
    if (!ctx) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        goto done;
    }
    /* The CPU only: the GPUs and the vendor runtimes are not measured here. */
    sysdesc_probe_options po;
    sysdesc_probe_options_init(&po);
    po.io = SYSDESC_PROBE_IO_OFF;
    po.runtimes = SYSDESC_RUNTIME_NONE;
    po.quiet = quiet;
    po.warning = cli_warning;
    dlti_error_t err;
    const dlti_attr *spec = sysdesc_probe_host(ctx, &po, &err), *cpu = NULL, *measured = NULL;
    if (!spec) {
        rc = cli_report(&err);
        if (err.code == DLTI_ERROR_IO)
            rc = SYSDESC_EXIT_ENVIRONMENT;
        goto done;
    }
    if ((rc = cli_apply_overrides("measure", ctx, &spec, &ov)) != SYSDESC_EXIT_OK)
        goto done;
    cpu = dlti_attr_lookup_string(spec, "CPU", 3);
    if (!cpu) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "measure: the probe found no CPU device");
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
    if (!quiet)
        say_bounds(ctx, measured);
    sysdesc_system sys = {.spec = spec};
    rc = cli_output_system(&sys, format, 0, out);
done:
    free(ov.files);
    free(ov.sets);
    dlti_context_free(ctx);
    return rc;
}
