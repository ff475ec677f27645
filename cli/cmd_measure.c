/* sysdesc measure: probe this host, measure what its CPU (or, with
 * --device, each device through its runtime) delivers, print the system
 * spec with the `measured` maps (docs/measure.md). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: sysdesc measure [--quick|--full] [--threads N] [--override FILE]...\n"
    "                       [--set PATH=VALUE]... [--no-check]\n"
    "                       [--device ID|all]... [--device-timeout MS]\n"
    "                       [RUNTIME OPTIONS]\n"
    "                       [--format mlir|attr|yaml|json] [-q] [-o FILE]\n"
    "\n"
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
    "cannot be measured says why in its \"source\" map and on stderr.\n"
    "\n"
    "  --quick         about a second: fewer, shorter samples, working sets of at\n"
    "                  most 64 MiB a thread (noisier; memory may be left out)\n"
    "  --full          about 7x longer: 101 samples a value rather than 15\n"
    "  --threads N     use at most N of the allowed CPUs for the all-thread runs\n"
    "  --device ID     measure device ID (CPU, GPU0, ...; repeatable, or a comma-\n"
    "                  separated list), or every device: all; about 1-2 s a\n"
    "                  device with --quick, within 10 s by default\n"
    "  --device-timeout MS  kill a device's measurement after MS milliseconds\n"
    "                  (default: 30000 with --quick, 60000, 180000 with --full)\n"
    "  --runtimes=LIST, --no-cache, --refresh-cache, --runtime-timeout=MS,\n"
    "  --no-catalog    the probe's runtime options (sysdesc probe --help); with\n"
    "                  --device only\n"
    "  --override FILE values from a YAML or MLIR system file replace the probed\n"
    "                  ones before measuring (as `sysdesc probe --override`)\n"
    "  --set P=V       one probed key, e.g. --set CPU.cache.L3.size_in_bytes=33554432\n"
    "  --no-check      apply --override and --set as written\n"
    "  --format F      mlir (default), attr, yaml or json\n"
    "  -q, --quiet     no progress and no warnings on stderr\n"
    "  -o FILE         write to FILE atomically (temporary file + rename)\n"
    "\n"
    "Exit status: 0 ok; 2 bad usage or override; 3 failed probe, measurement (a\n"
    "kernel's result was wrong, out of memory; a device's crash, hang or wrong\n"
    "result, the output still written) or write.\n";

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

enum {
    OPT_QUICK = 1,
    OPT_FULL,
    OPT_QUIET,
    OPT_THREADS,
    OPT_FORMAT,
    OPT_OUT,
    OPT_DEVICE,
    OPT_DEVICE_TIMEOUT
};
static const cli_opt options[] = {
    {"--quick", NULL, OPT_QUICK, 0},
    {"--full", NULL, OPT_FULL, 0},
    {"--quiet", "-q", OPT_QUIET, 0},
    {"--threads", NULL, OPT_THREADS, CLI_VALUE},
    {"--format", NULL, OPT_FORMAT, CLI_VALUE},
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {"--device", NULL, OPT_DEVICE, CLI_VALUE},
    {"--device-timeout", NULL, OPT_DEVICE_TIMEOUT, CLI_VALUE},
    /* the probe's runtime options, for --device */
    {"--runtimes", NULL, CLI_PROBE_RUNTIMES, CLI_VALUE_EQ},
    {"--no-cache", NULL, CLI_PROBE_NO_CACHE, 0},
    {"--refresh-cache", NULL, CLI_PROBE_REFRESH_CACHE, 0},
    {"--runtime-timeout", NULL, CLI_PROBE_TIMEOUT, CLI_VALUE_EQ},
    {"--no-catalog", NULL, CLI_PROBE_NO_CATALOG, 0},
    {NULL, NULL, 0, 0},
};

/* Splits a --device value at its commas into ids (in a copy it keeps in
 * *copy); false when out of memory. */
static bool take_devices(const char *value, const char **ids, size_t *n, char **copy)
{
    if (!(*copy = strdup(value)))
        return false;
    for (char *p = *copy; p;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (*p)
            ids[(*n)++] = p;
        p = comma ? comma + 1 : NULL;
    }
    return true;
}

/* A device's measurements that did not happen, from its source lines
 * ("measured..." = "not measured..."): said on stderr. */
static void say_unmeasured(const dlti_attr *spec)
{
    for (size_t i = 0; i < dlti_attr_size(spec); i++) {
        size_t idlen;
        const char *id = dlti_key_str(dlti_attr_entry_key(spec, i), &idlen);
        const dlti_attr *src = dlti_attr_lookup_string(dlti_attr_entry_value(spec, i), "source", 6);
        for (size_t k = 0; id && src && k < dlti_attr_size(src); k++) {
            size_t klen, vlen;
            const char *key = dlti_key_str(dlti_attr_entry_key(src, k), &klen), *v;
            if (key && klen >= 8 && memcmp(key, "measured", 8) == 0 &&
                dlti_attr_get_string(dlti_attr_entry_value(src, k), &v, &vlen, NULL) == 0 &&
                vlen >= 4 && memcmp(v, "not ", 4) == 0)
                fprintf(stderr, "sysdesc: measure: %.*s (%.*s): %.*s\n", (int)idlen, id,
                        (int)klen, key, (int)vlen, v);
        }
    }
}

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
    cli_probe_args pa;
    cli_probe_args_init(&pa, SYSDESC_PROBE_IO_OFF);
    size_t ndev = 0, ncopies = 0;
    const char **devs = calloc((size_t)argc + 1, sizeof(char *));
    char **copies = calloc((size_t)argc + 1, sizeof(char *));
    int rc = SYSDESC_EXIT_OK;
    dlti_context *ctx = NULL;
    cli_overrides ov = {.files = calloc((size_t)argc, sizeof(char *)),
                        .sets = calloc((size_t)argc, sizeof(char *))};
    cli_load_options_init(&ov.load);
    if (!ov.files || !ov.sets || !devs || !copies) {
        rc = cli_nomem();
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
        } else if (o == OPT_DEVICE) {
            if (!take_devices(a.value, devs, &ndev, &copies[ncopies++])) {
                rc = cli_nomem();
                goto done;
            }
        } else if (o == OPT_DEVICE_TIMEOUT) {
            char *end;
            long ms = strtol(a.value, &end, 10);
            if (end == a.value || *end || ms < 1 || ms > 3600000) {
                rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                              "measure: --device-timeout takes milliseconds from 1 to 3600000, "
                              "not '%s'",
                              a.value);
                goto done;
            }
            mo.device_timeout_ms = (unsigned)ms;
        } else if (cli_probe_take(&pa, o, a.value)) {
            continue;
        } else {
            cli_override_take(&ov, o, a.value);
        }
    }
    bool runtime_opts = pa.runtime_given || !pa.catalog;
    if (!ndev && (runtime_opts || mo.device_timeout_ms)) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "measure: --runtimes, --no-cache, --refresh-cache, --runtime-timeout, "
                      "--no-catalog and --device-timeout go with --device");
        goto done;
    }
    if ((rc = cli_probe_args_check("measure", &pa, true)) >= 0)
        goto done;
    rc = SYSDESC_EXIT_OK;
    progress_state ps = {.tty = isatty(STDERR_FILENO) != 0, .last_pct = -1};
    if (!quiet) {
        mo.progress = on_progress;
        mo.progress_user = &ps;
    }
    ctx = cli_context_new();
    if (!ctx) {
        rc = cli_nomem();
        goto done;
    }
    /* Without --device the CPU only: the vendor runtimes are not asked. */
    if (!ndev)
        pa.runtimes = SYSDESC_RUNTIME_NONE;
    pa.quiet = quiet;
    dlti_error_t err;
    const dlti_attr *spec = cli_probe(ctx, NULL, 0, &pa, &err), *cpu = NULL, *measured = NULL;
    if (!spec) {
        rc = cli_report(&err);
        if (err.code == DLTI_ERROR_IO)
            rc = SYSDESC_EXIT_ENVIRONMENT;
        goto done;
    }
    if ((rc = cli_apply_overrides("measure", ctx, &spec, &ov)) != SYSDESC_EXIT_OK)
        goto done;
    if (ndev) {
        size_t failed = 0;
        const dlti_attr *m = sysdesc_measure_devices(ctx, spec, devs, ndev, &mo, &failed, &err);
        if (!m) {
            if (!quiet && ps.tty)
                fputs("\r\033[K", stderr);
            rc = cli_fail(err.code == DLTI_ERROR_ARGUMENT ? SYSDESC_EXIT_BAD_INPUT
                                                          : SYSDESC_EXIT_ENVIRONMENT,
                          "%s", err.text);
            goto done;
        }
        if (!quiet) {
            const dlti_attr *c = dlti_attr_lookup_string(m, "CPU", 3);
            const dlti_attr *cm = c ? dlti_attr_lookup_string(c, "measured", 8) : NULL;
            if (cm)
                say_bounds(ctx, cm);
        }
        say_unmeasured(m);
        sysdesc_system sys = {.spec = m};
        rc = cli_output_system(&sys, format, 0, out);
        /* A device's crash, hang or wrong result fails the run, after the
         * output that says so. */
        if (rc == SYSDESC_EXIT_OK && failed)
            rc = SYSDESC_EXIT_ENVIRONMENT;
        goto done;
    }
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
    free(devs);
    for (size_t i = 0; copies && i < ncopies; i++)
        free(copies[i]);
    free(copies);
    dlti_context_free(ctx);
    return rc;
}
