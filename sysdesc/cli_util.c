/* Error reporting and output helpers for the CLI. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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
                      char **argv, const char **scope, bool *host, int *first)
{
    *scope = "";
    if (host)
        *host = false;
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
            *host = true;
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
