/* cli.h - the one private header of the sysdesc command-line tool. */
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
typedef struct cli_probe_args cli_probe_args;
int cli_scope_options(const char *cmd, const char *usage, size_t usage_len, int argc,
                      char **argv, const char **scope, cli_probe_args *host, int *first);

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
int cmd_summary(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_schema(int argc, char **argv);

#include "sysdesc/sysdesc.h"

/* The format named `name` into `*format`: -1 to go on, else the exit code
 * after reporting "CMD: unknown format 'NAME' (mlir, attr, yaml, json)". */
int cli_format_option(const char *cmd, const char *name, sysdesc_format *format);
/* Prints `sys` (sysdesc_system_print) to stdout, or atomically to
 * `out_path` when it is neither NULL nor "-". */
int cli_output_system(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                      const char *out_path);
/* Writes `len` bytes to stdout, or atomically to `out_path` when it is
 * neither NULL nor "-"; reports failures (exit 3). */
int cli_output(const char *text, size_t len, const char *out_path);

/* The probe's options, shared by probe, query --host and compose --host. */
struct cli_probe_args {
    bool host;          /* --host was given (query, compose) */
    bool io_given;      /* --io or --no-io was given */
    sysdesc_probe_io io;
    bool quiet;         /* -q, --quiet */
    bool catalog;       /* false with --no-catalog */
};
void cli_probe_args_init(cli_probe_args *a, sysdesc_probe_io io);
/* Takes `arg` when it is a probe option (--io, --no-io, -q, --quiet,
 * --no-catalog); false otherwise. */
bool cli_probe_option(const char *arg, cli_probe_args *a);
/* Probes this host (nxml == 0) or the XML files as `a` says: probed GPUs are
 * filled from the catalog (sysdesc_catalog_pci_fill) unless --no-catalog;
 * warnings on stderr unless quiet. */
const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           const cli_probe_args *a, dlti_error_t *err);

/*
 * Writes `len` bytes to `path` atomically: a temporary file in the same
 * directory is written, fsync'ed and renamed over `path`, so readers see the
 * old file or the new one, never a truncated one.  A new file gets mode
 * 0666 & ~umask; an existing file keeps its mode.  On failure the temporary
 * file is removed, the old file is left as it was, and -1 is returned with a
 * message in `msg` (`msgsize` bytes).  Returns 0 on success.
 *
 * A symbolic link to a regular file stays a link: the file it points to is
 * replaced.  A target that exists and is not a regular file (/dev/null,
 * /dev/full, /dev/stdout, a FIFO) is opened and written in place, never
 * renamed over; a directory is an error (EISDIR).
 */
int atomic_write_file(const char *path, const char *data, size_t len, char *msg, size_t msgsize);

#endif
