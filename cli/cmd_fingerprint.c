/* sysdesc fingerprint: the key of a tuner's cache (sysdesc/tuner.h,
 * docs/fingerprint.md; the Python module's Spec.fingerprint() prints the
 * same). */
#include "cli.h"

#include <stdlib.h>

static const cli_help help = {
    .operands = "[SPEC]",
    .description =
        "Prints the fingerprint of a system, \"sd1-\" and 16 hex digits: a tuner's\n"
        "cache key that changes when the performance-relevant facts change (devices,\n"
        "counts, sizes, clocks, limits, drivers' and runtimes' versions, compilers,\n"
        "the allocation) and not otherwise (sources, suspects, host names, UUIDs,\n"
        "bus ids, paths, measurements, the memory figures the OS moves).  The same\n"
        "spec in MLIR, YAML or JSON, in any key order, has one fingerprint.\n"
        "docs/fingerprint.md has the rule and the text that is hashed.\n",
    .status = "Exit status: 0 ok; 1 no such device, an MLIR file without a system spec, or\n"
              "SPEC is no file and no catalog entry (the nearest names suggested); 2 bad\n"
              "input or usage; 3 unreadable file, failed probe or write.\n",
};

typedef struct fingerprint_args {
    const char *device;
    bool explain;
    cli_probe_args probe;
    sysdesc_yaml_options load;
} fingerprint_args;

#define AT(member) CLI_AT(fingerprint_args, member)
static const cli_opt options[] = {
    {.kind = CLI_TEXT, .label = "SPEC",
     .help = "a YAML, MLIR or JSON file (\"-\": standard input) or a\n"
             "catalog name, checked against the device schema first\n"
             "unless --no-check (--strict: unknown keys are errors)"},
    {.kind = CLI_TEXT, .label = "PROBE OPTIONS",
     .help = "without SPEC this machine is probed as `sysdesc probe`\n"
             "probes it, with its options and defaults (sysdesc probe\n"
             "--help): `sysdesc probe -o F` then `sysdesc fingerprint F`\n"
             "prints what `sysdesc fingerprint` prints"},
    {"--device", .flags = CLI_VALUE, .kind = CLI_STRING, AT(device), .metavar = "ID",
     .help = "that device alone, its id left out: identical GPUs at two\n"
             "places have one fingerprint"},
    {"--explain", .kind = CLI_FLAG, AT(explain),
     .help = "first the fingerprint as a comment, then the lines it\n"
             "hashes (64-bit FNV-1a of the lines that do not start with\n"
             "'#'), and a '#' line for each key left out, with why"},
    {0},
};
#undef AT

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
    fingerprint_args f = {0};
    cli_probe_args_init(&f.probe, SYSDESC_PROBE_IO_AUTO); /* as `sysdesc probe`: both agree */
    cli_load_options_init(&f.load);
    cli_list spec = {0};
    cli_args a;
    cli_args_init(&a, "fingerprint", &help,
                  (const cli_group[]){{.opts = options, .base = &f},
                                      CLI_PROBE_GROUPS(f.probe),
                                      {.opts = cli_check_opts, .base = &f.load},
                                      {0}}, argc, argv);
    int rc = cli_parse_all(&a, &spec, 1, "one SPEC");
    const char *path = spec.n ? spec.v[0] : NULL;
    if (rc < 0)
        rc = cli_probe_args_check("fingerprint", &f.probe, path == NULL);
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    sysdesc_system sys;
    if (rc < 0 && !ctx)
        rc = cli_nomem();
    if (rc < 0 && (rc = cli_load_system(ctx, path, &f.load, &f.probe,
                                        "fingerprint: probing this host", &sys)) < 0)
        rc = print_fingerprint(sys.spec, f.device, f.explain);
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
