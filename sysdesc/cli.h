/* Shared pieces of the sysdesc command-line tool. */
#ifndef SYSDESC_CLI_H
#define SYSDESC_CLI_H

#include "sysdesc/dlti.h"

#include <stdbool.h>

/* Exit codes (documented in the README and `sysdesc --help`). */
enum {
    SYSDESC_EXIT_OK = 0,
    SYSDESC_EXIT_NOT_FOUND = 1,
    SYSDESC_EXIT_BAD_INPUT = 2,   /* malformed input or bad usage */
    SYSDESC_EXIT_ENVIRONMENT = 3  /* unreadable files, failed writes, no memory */
};

typedef struct sysdesc_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} sysdesc_command;

/* Prints "sysdesc: error: MESSAGE" and returns `code`. */
int cli_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints `err` as FILE:LINE:COL: error: TEXT and returns the matching exit code. */
int cli_report(const dlti_error_t *err);
/* The exit code for an error code. */
int cli_exit_code(dlti_error_code code);
/* True when argv[i] is -h or --help. */
int cli_is_help(const char *arg);
/* Writes `len` bytes and flushes stdout; reports closed pipes and full disks. */
int cli_write_stdout(const char *data, size_t len);

/* The leading options of commands that read one scope of a file:
 * -h/--help, --scope NAME/NAME, --scope=NAME/NAME, --host when `host` is
 * non-NULL, and "--".  `*first` gets the index of the first operand.
 * Returns -1 to go on, else the exit code to return at once (help printed,
 * or a usage error reported for command `cmd`). */
int cli_scope_options(const char *cmd, const char *usage, size_t usage_len, int argc,
                      char **argv, const char **scope, bool *host, int *first);

int cmd_fmt(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_dl_import(int argc, char **argv);
int cmd_dl_export(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_compose(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);

#include "sysdesc/yaml.h"
/* Output formats of convert/compose/show (and probe's --format). */
enum { CLI_FORMAT_MLIR, CLI_FORMAT_ATTR, CLI_FORMAT_YAML, CLI_FORMAT_JSON };
/* The CLI_FORMAT_ of "mlir", "attr", "yaml", "json"; -1 for anything else. */
int cli_format_parse(const char *name);
/* Prints `sys` in `format` to stdout, or atomically to `out_path` when non-NULL. */
int cli_output_system(const sysdesc_system *sys, int format, bool typed, const char *out_path);

#include "sysdesc/probe.h"
/* Probes this host (nxml == 0) or the XML files; warnings on stderr unless quiet. */
const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           sysdesc_probe_io io, bool quiet, dlti_error_t *err);

#endif
