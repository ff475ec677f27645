/* Error reporting and output helpers for the CLI. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    fputs("sysdesc: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

int cli_exit_code(dlti_error_code code)
{
    switch (code) {
    case DLTI_OK:
        return SYSDESC_EXIT_OK;
    case DLTI_ERROR_NOT_FOUND:
    case DLTI_ERROR_TYPE:
    case DLTI_ERROR_RANGE:
        return SYSDESC_EXIT_NOT_FOUND;
    case DLTI_ERROR_IO:
    case DLTI_ERROR_NOMEM:
        return SYSDESC_EXIT_ENVIRONMENT;
    default:
        return SYSDESC_EXIT_BAD_INPUT;
    }
}

int cli_report(const dlti_error_t *err)
{
    char line[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(err, line, sizeof(line));
    fprintf(stderr, "%s\n", line);
    return cli_exit_code(err->code);
}

void cli_warn_unread(const char *path, const dlti_scope *root)
{
    const char *name, *why;
    int line, col;
    size_t n = root ? dlti_scope_unread_ops(root, &name, &line, &col, &why) : 0;
    if (!n)
        return;
    fprintf(stderr,
            "sysdesc: warning: %s:%d:%d: operation '%s' holds DLTI attributes sysdesc cannot "
            "place (%s): a query at or inside it is answered by the scopes around it",
            strcmp(path, "-") ? path : "<stdin>", line, col, name, why);
    if (n > 1)
        fprintf(stderr, " (and %zu more such operation%s)", n - 1, n > 2 ? "s" : "");
    fputc('\n', stderr);
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int cli_write_stdout(const char *data, size_t len)
{
    /* ferror: an earlier printf (layout, list) may have failed already. */
    errno = 0;
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0 || ferror(stdout))
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "cannot write to standard output: %s",
                        errno ? strerror(errno) : "write error");
    return SYSDESC_EXIT_OK;
}

int cli_scope_options(const char *cmd, const char *usage, size_t usage_len, int argc,
                      char **argv, const char **scope, cli_probe_args *host, int *first)
{
    *scope = "";
    int i = 1;
    for (; i < argc; i++) {
        if (cli_is_help(argv[i]))
            return cli_write_stdout(usage, usage_len);
        if (strcmp(argv[i], "--scope") == 0) {
            if (++i >= argc)
                return cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: --scope needs a value", cmd);
            *scope = argv[i];
        } else if (strncmp(argv[i], "--scope=", 8) == 0) {
            *scope = argv[i] + 8;
        } else if (host && strcmp(argv[i], "--host") == 0) {
            host->host = true;
        } else if (host && cli_probe_option(argv[i], host)) {
            continue;
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: unknown option '%s' (see sysdesc %s --help)",
                            cmd, argv[i], cmd);
        } else {
            break;
        }
    }
    *first = i;
    return -1;
}

int cli_format_option(const char *cmd, const char *name, sysdesc_format *format)
{
    if (sysdesc_format_parse(name, format) == 0)
        return -1;
    return cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: unknown format '%s' (%s)", cmd, name,
                    sysdesc_format_names());
}

int cli_output(const char *text, size_t len, const char *out_path)
{
    if (!out_path || strcmp(out_path, "-") == 0)
        return cli_write_stdout(text, len);
    char msg[512];
    if (atomic_write_file(out_path, text, len, msg, sizeof(msg)) != 0)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", msg);
    return SYSDESC_EXIT_OK;
}

int cli_output_system(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                      const char *out_path)
{
    size_t len = 0;
    dlti_error_t err;
    char *text = sysdesc_system_print_checked(sys, format, flags, &len, &err);
    if (!text)
        return cli_fail(err.code == DLTI_ERROR_NOMEM ? SYSDESC_EXIT_ENVIRONMENT : SYSDESC_EXIT_BAD_INPUT,
                        "%s", err.text);
    int rc = cli_output(text, len, out_path);
    free(text);
    return rc;
}

void cli_probe_args_init(cli_probe_args *a, sysdesc_probe_io io)
{
    memset(a, 0, sizeof(*a));
    a->io = io;
    a->catalog = true;
}

bool cli_probe_option(const char *arg, cli_probe_args *a)
{
    if (strcmp(arg, "--io") == 0 || strcmp(arg, "--no-io") == 0) {
        a->io = arg[2] == 'i' ? SYSDESC_PROBE_IO_ON : SYSDESC_PROBE_IO_OFF;
        a->io_given = true;
    } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
        a->quiet = true;
    } else if (strcmp(arg, "--no-catalog") == 0) {
        a->catalog = false;
    } else if (strncmp(arg, "--runtimes=", 11) == 0) {
        dlti_error_t err;
        if (sysdesc_probe_runtimes_parse(arg + 11, &a->runtimes, &err) != 0)
            snprintf(a->bad, sizeof(a->bad), "--runtimes: %.200s", err.text);
        a->runtime_given = true;
    } else if (strcmp(arg, "--no-cache") == 0 || strcmp(arg, "--refresh-cache") == 0) {
        a->cache = arg[2] == 'n' ? SYSDESC_PROBE_CACHE_OFF : SYSDESC_PROBE_CACHE_REFRESH;
        a->runtime_given = true;
    } else if (strncmp(arg, "--runtime-timeout=", 18) == 0) {
        const char *v = arg + 18;
        char *end;
        errno = 0;
        unsigned long ms = strtoul(v, &end, 10);
        if (errno || end == v || *end || ms == 0 || ms > 3600000 || !isdigit((unsigned char)*v))
            snprintf(a->bad, sizeof(a->bad),
                     "--runtime-timeout: '%.100s' is not a number of milliseconds from 1 to "
                     "3600000",
                     v);
        a->timeout_ms = (unsigned)ms;
        a->runtime_given = true;
    } else if (strcmp(arg, "--runtimes") == 0 || strcmp(arg, "--runtime-timeout") == 0) {
        snprintf(a->bad, sizeof(a->bad), "%s needs a value: %s=VALUE", arg, arg);
    } else {
        return false;
    }
    return true;
}

int cli_probe_args_check(const char *cmd, const cli_probe_args *a, bool host)
{
    if (a->bad[0])
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: %s", cmd, a->bad);
    bool probe = strcmp(cmd, "probe") == 0;
    if (!host && a->runtime_given)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "%s: --runtimes, --no-cache, --refresh-cache and --runtime-timeout ask "
                        "this host's runtimes: %s",
                        cmd, probe ? "not with --xml" : "they go with --host");
    if (host || probe || !(a->io_given || a->quiet || !a->catalog))
        return -1;
    return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                    "%s: --io, --no-io, --quiet and --no-catalog go with --host", cmd);
}

/* A problem a load goes on with, printed as FILE:LINE:COL: warning: TEXT. */
static int warn_problem(void *user, const dlti_error_t *problem)
{
    (void)user;
    char line[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(problem, line, sizeof(line));
    char *at = strstr(line, ": error: ");
    if (at)
        fprintf(stderr, "%.*s: warning: %s\n", (int)(at - line), line, at + 9);
    else
        fprintf(stderr, "sysdesc: warning: %s\n", problem->text);
    return 0;
}

void cli_load_options_init(sysdesc_yaml_options *load)
{
    memset(load, 0, sizeof(*load));
    load->warn = warn_problem;
}

bool cli_description_option(const char *arg, sysdesc_yaml_options *load, unsigned *print_flags)
{
    if (load && strcmp(arg, "--no-check") == 0)
        load->flags |= SYSDESC_LOAD_NO_CHECK;
    else if (load && strcmp(arg, "--strict") == 0)
        load->flags |= SYSDESC_LOAD_STRICT;
    else if (print_flags && strcmp(arg, "--typed") == 0)
        *print_flags |= SYSDESC_PRINT_TYPED;
    /* issue 14: MLIR output one entry a line / in MLIR head's dlti form */
    else if (print_flags && strcmp(arg, "--pretty") == 0)
        *print_flags |= SYSDESC_PRINT_PRETTY;
    else if (print_flags && strcmp(arg, "--inherent-dlti") == 0)
        *print_flags |= SYSDESC_PRINT_INHERENT;
    else
        return false;
    return true;
}

void cli_probe_options(const cli_probe_args *a, sysdesc_probe_options *opts)
{
    sysdesc_probe_options_init(opts);
    opts->io = a->io;
    opts->quiet = a->quiet;
    opts->runtimes = a->runtimes;
    opts->cache = a->cache;
    opts->runtime_timeout_ms = a->timeout_ms;
    if (a->catalog)
        opts->pci_match = sysdesc_catalog_pci_fill;
}

const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           const cli_probe_args *a, dlti_error_t *err)
{
    sysdesc_probe_options opts;
    cli_probe_options(a, &opts);
    /* One probe a process: hwloc need not load the plugins it will not use. */
    bool io = a->io == SYSDESC_PROBE_IO_ON || (a->io == SYSDESC_PROBE_IO_AUTO && nxml);
    sysdesc_probe_setup_process((nxml ? SYSDESC_PROBE_SETUP_XML : 0) |
                                (io ? SYSDESC_PROBE_SETUP_IO : 0));
    if (nxml)
        return sysdesc_probe_xml_files(ctx, xmls, nxml, &opts, err);
    /* The catalog's state names what the hook does: an edited entry makes
     * a cached whole result stale (docs/runtimes.md, "The whole result").
     * Out of memory: NULL, and only the runtimes' answers are cached. */
    char *salt = opts.pci_match ? sysdesc_catalog_fingerprint(NULL) : NULL;
    opts.cache_salt = salt;
    const dlti_attr *spec = sysdesc_probe_host(ctx, &opts, err);
    free(salt);
    return spec;
}

dlti_context *cli_context_new(void)
{
    dlti_context *ctx = dlti_context_new();
    /* The memory budget of every reader (dlti_limits.max_memory_bytes):
     * SYSDESC_MAX_MEMORY=BYTES[K|M|G] raises or lowers it; a value that is
     * not one keeps the default (and says so). */
    const char *env = getenv("SYSDESC_MAX_MEMORY");
    if (ctx && env && *env) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
        if (shift)
            end++;
        if (errno || *end || v == 0 || env[0] == '-' || (shift && v > (SIZE_MAX >> shift))) {
            fprintf(stderr, "sysdesc: warning: SYSDESC_MAX_MEMORY='%s' is not BYTES[K|M|G]; "
                            "the default budget applies\n", env);
        } else {
            dlti_limits l = dlti_context_get_limits(ctx);
            l.max_memory_bytes = (size_t)v << shift;
            dlti_context_set_limits(ctx, &l);
        }
    }
    return ctx;
}
