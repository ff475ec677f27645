/* sysdesc fingerprint: the key of a tuner's cache (sysdesc/tuner.h,
 * docs/fingerprint.md; the Python module's Spec.fingerprint() prints the
 * same). */
#include "cli.h"

#include <stdlib.h>

static const char usage[] =
    "usage: sysdesc fingerprint [--device ID] [--explain] [--no-check|--strict] SPEC\n"
    "       sysdesc fingerprint [--device ID] [--explain] [PROBE OPTIONS]\n"
    "\n"
    "Prints the fingerprint of a system, \"sd1-\" and 16 hex digits: a tuner's\n"
    "cache key that changes when the performance-relevant facts change (devices,\n"
    "counts, sizes, clocks, limits, drivers' and runtimes' versions, compilers,\n"
    "the allocation) and not otherwise (sources, suspects, host names, UUIDs,\n"
    "bus ids, paths, measurements, the memory figures the OS moves).  The same\n"
    "spec in MLIR, YAML or JSON, in any key order, has one fingerprint.\n"
    "docs/fingerprint.md has the rule and the text that is hashed.\n"
    "  SPEC          a YAML, MLIR or JSON file (\"-\": standard input) or a\n"
    "                catalog name, checked against the device schema first\n"
    "                unless --no-check (--strict: unknown keys are errors)\n"
    "  PROBE OPTIONS without SPEC this machine is probed as `sysdesc probe`\n"
    "                probes it, with its options and defaults (sysdesc probe\n"
    "                --help): `sysdesc probe -o F` then `sysdesc fingerprint F`\n"
    "                prints what `sysdesc fingerprint` prints\n"
    "  --device ID   that device alone, its id left out: identical GPUs at two\n"
    "                places have one fingerprint\n"
    "  --explain     first the fingerprint as a comment, then the lines it\n"
    "                hashes (64-bit FNV-1a of the lines that do not start with\n"
    "                '#'), and a '#' line for each key left out, with why\n"
    "\n"
    "Exit status: 0 ok; 1 no such device, an MLIR file without a system spec, or\n"
    "SPEC is no file and no catalog entry (the nearest names suggested); 2 bad\n"
    "input or usage; 3 unreadable file, failed probe or write.\n";

enum { OPT_DEVICE = 1, OPT_EXPLAIN };
static const cli_opt options[] = {
    {"--device", NULL, OPT_DEVICE, CLI_VALUE},
    {"--explain", NULL, OPT_EXPLAIN, 0},
    {NULL, NULL, 0, 0},
};

/* The fingerprint line, or with --explain the text it hashes after it. */
static int print_fingerprint(const dlti_attr *spec, const char *device, bool explain)
{
    dlti_error_t err;
    char fp[SYSDESC_FINGERPRINT_LENGTH + 1];
    if (!explain) {
        if (sysdesc_fingerprint(spec, device, fp, &err) < 0)
            return cli_fail(cli_exit_code(err.code), "fingerprint: %s", err.text);
        fp[SYSDESC_FINGERPRINT_LENGTH] = '\n';
        return cli_write_stdout(fp, sizeof fp);
    }
    size_t len;
    char *text = sysdesc_fingerprint_text(spec, device, SYSDESC_FINGERPRINT_EXPLAIN, &len, &err);
    if (!text)
        return cli_fail(cli_exit_code(err.code), "fingerprint: %s", err.text);
    int rc = cli_write_stdout(text, len);
    free(text);
    return rc;
}

int cmd_fingerprint(int argc, char **argv)
{
    cli_probe_args pa;
    cli_probe_args_init(&pa, SYSDESC_PROBE_IO_AUTO); /* as `sysdesc probe`, so that both agree */
    const char *path = NULL, *device = NULL;
    bool explain = false;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    cli_args a;
    cli_args_init(&a, "fingerprint", usage,
                  (const cli_opt *const[]){options, cli_probe_opts, cli_check_opts, NULL}, argc,
                  argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            if (path)
                return cli_operand_error(&a, "one SPEC");
            path = a.arg;
        } else if (o == OPT_DEVICE) {
            device = a.value;
        } else if (o == OPT_EXPLAIN) {
            explain = true;
        } else if (!cli_probe_take(&pa, o, a.value)) {
            cli_description_take(o, &load_opts, NULL);
        }
    }
    int need = cli_probe_args_check("fingerprint", &pa, path == NULL);
    if (need >= 0)
        return need;
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    sysdesc_system sys = {0};
    int rc = SYSDESC_EXIT_OK;
    if (!path) {
        sys.spec = cli_probe(ctx, NULL, 0, &pa, &err);
        if (!sys.spec)
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "fingerprint: probing this host: %s", err.text);
    } else if (sysdesc_system_load(ctx, path, &load_opts, &sys, &err) < 0) {
        rc = cli_report(&err);
    }
    if (rc == SYSDESC_EXIT_OK)
        rc = print_fingerprint(sys.spec, device, explain);
    dlti_context_free(ctx);
    return rc;
}
