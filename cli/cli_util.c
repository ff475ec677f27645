/* Error reporting and output helpers for the CLI. */
#include "cli.h"

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
    char *text = sysdesc_system_print(sys, format, flags, &len);
    if (!text)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
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
    } else {
        return false;
    }
    return true;
}

int cli_probe_args_need_host(const char *cmd, const cli_probe_args *a)
{
    if (a->host || !(a->io_given || a->quiet || !a->catalog))
        return -1;
    return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                    "%s: --io, --no-io, --quiet and --no-catalog go with --host", cmd);
}

bool cli_description_option(const char *arg, sysdesc_yaml_options *load, unsigned *print_flags)
{
    if (load && strcmp(arg, "--no-check") == 0)
        load->flags |= SYSDESC_LOAD_NO_CHECK;
    else if (print_flags && strcmp(arg, "--typed") == 0)
        *print_flags |= SYSDESC_PRINT_TYPED;
    else
        return false;
    return true;
}

void cli_probe_options(const cli_probe_args *a, sysdesc_probe_options *opts)
{
    sysdesc_probe_options_init(opts);
    opts->io = a->io;
    opts->quiet = a->quiet;
    if (a->catalog)
        opts->pci_match = sysdesc_catalog_pci_fill;
}

const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           const cli_probe_args *a, dlti_error_t *err)
{
    sysdesc_probe_options opts;
    cli_probe_options(a, &opts);
    if (nxml)
        return sysdesc_probe_xml_files(ctx, xmls, nxml, &opts, err);
    return sysdesc_probe_host(ctx, &opts, err);
}
