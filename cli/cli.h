/* cli.h - the one private header of the sysdesc command-line tool. */
#ifndef SYSDESC_CLI_H
#define SYSDESC_CLI_H

#include "sysdesc/sysdesc.h"

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

/* `s` as one line a terminal shows as text: control bytes (line breaks
 * too: a newline in a value would forge a row), C1 controls and bytes that
 * are not UTF-8 as \xHH.  Malloc'ed; NULL when out of memory. */
char *cli_terminal_text(const char *s);
/* Prints "sysdesc: error: MESSAGE" and returns `code`. */
int cli_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory"). */
int cli_nomem(void);
/* Diagnostics reach a terminal and their text may come from an input (a
 * key, a value, a file name): written to stderr with control bytes (but
 * the line breaks and tabs of multi-line errors) and bytes that are not
 * UTF-8 as \xHH, one line in one write. */
void cli_diag(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Prints `err` as FILE:LINE:COL: error: TEXT and returns the matching exit
 * code: never 0 (a failure's error is never DLTI_OK; if it were, it is an
 * environment failure, exit 3). */
int cli_report(const dlti_error_t *err);
/* Names, as a warning, the ops of `root` whose DLTI attributes the parser
 * stepped over (dlti_scope_unread_ops); `path` is the file read. */
void cli_warn_unread(const char *path, const dlti_scope *root);
/* dlti_context_new() with the memory budget of SYSDESC_MAX_MEMORY, if set. */
dlti_context *cli_context_new(void);
/* Cuts the attribute that MLIR's "key ... has no DLTI-mapping per attr:
 * ATTR" prints whole (a device spec is a kilobyte), when longer than 100
 * characters, to its first key: `#dlti.map<"L1" = ...>`; the hint line says
 * which keys are there.  (The library's message stays MLIR's, whole.) */
void cli_cut_attr_dump(char *text);
/* The exit code of a failure with this error code: never 0. */
int cli_exit_code(dlti_error_code code);
/* True when argv[i] is -h or --help. */
int cli_is_help(const char *arg);
/* Writes `len` bytes and flushes stdout; reports closed pipes and full disks. */
int cli_write_stdout(const char *data, size_t len);

/* ---- the option parser (cli_args.c) ----
 *
 * A command lists its options in tables (its own, and the shared groups
 * below) and reads its arguments with cli_next():
 *
 *     static const cli_opt opts[] = {{"--to", "--format", OPT_TO, CLI_VALUE}, ...,
 *                                    {NULL, NULL, 0, 0}};
 *     cli_args a;
 *     cli_args_init(&a, "convert", usage, (const cli_opt *const[]){opts, NULL}, argc, argv);
 *     for (int o; (o = cli_next(&a)) != CLI_DONE;)
 *         switch (o) { case CLI_EXIT: return a.rc; case CLI_OPERAND: ... a.arg ...; }
 *
 * Every command so takes -h/--help (the usage on stdout, exit 0), "--"
 * (what follows is operands), NAME VALUE and NAME=VALUE for an option with
 * a value (an alias of one dash: only -o VALUE), and reports an unknown
 * option, a missing value and a value given to a flag alike: "CMD: ..."
 * and exit 2. */
enum {
    CLI_VALUE = 1u << 0,    /* takes a value */
    CLI_VALUE_EQ = 1u << 1, /* takes a value, only as NAME=VALUE (the next
                             * argument may be an operand that looks like one) */
    CLI_VALUE_OPT = 1u << 2, /* may take a value, as NAME=VALUE (NULL without) */
};
typedef struct cli_opt {
    const char *name, *alias; /* as typed: "--output", "-o" */
    int id;                   /* > 0: what cli_next() returns for it */
    unsigned flags;           /* CLI_VALUE, CLI_VALUE_EQ */
} cli_opt;
typedef struct cli_args {
    const char *cmd, *usage;
    const cli_opt *const *tables; /* NULL-terminated */
    bool posix;       /* options end at the first operand (keys, types, strings
                       * that may start with '-' follow it) */
    int argc;
    char **argv;
    int i;            /* the next argument */
    bool operands;    /* after "--", or (posix) the first operand */
    const char *arg;  /* the argument cli_next() just read */
    const char *value; /* its option's value */
    int rc;           /* the exit code, when cli_next() returns CLI_EXIT */
} cli_args;
enum { CLI_DONE = 0, CLI_OPERAND = -1, CLI_EXIT = -2 };
void cli_args_init(cli_args *a, const char *cmd, const char *usage, const cli_opt *const *tables,
                   int argc, char **argv);
/* The next option's id (its value in a->value), CLI_OPERAND (a->arg),
 * CLI_DONE, or CLI_EXIT (help printed, or a usage error reported: return
 * a->rc). */
int cli_next(cli_args *a);
/* Reports a->arg as one operand too many ("CMD: unexpected argument 'X'
 * (WHAT; ...)") and returns the exit code. */
int cli_operand_error(cli_args *a, const char *what);

/* The leading options of commands that read one scope of a file, up to the
 * first operand (keys and types may start with '-'): --scope NAME/NAME, and
 * --host with the probe's options when `host` is non-NULL.  `*first` gets
 * the index of the first operand (argc: none).  Returns -1 to go on, else
 * the exit code to return at once (help printed, a usage error reported). */
typedef struct cli_probe_args cli_probe_args;
int cli_scope_options(const char *cmd, const char *usage, int argc, char **argv,
                      const char **scope, cli_probe_args *host, int *first);

/* Shared groups: the probe's options (cli_probe_take() applies one) and the
 * description options (--no-check, --strict; --typed, --pretty,
 * --inherent-dlti: cli_description_take()).  Their ids are above every command's own. */
enum {
    CLI_PROBE_IO = 1000, CLI_PROBE_NO_IO, CLI_PROBE_QUIET, CLI_PROBE_NO_CATALOG,
    CLI_PROBE_RUNTIMES, CLI_PROBE_NO_CACHE, CLI_PROBE_REFRESH_CACHE, CLI_PROBE_TIMEOUT,
    CLI_PROBE_GCC, CLI_PROBE_CLANG, CLI_PROBE_LLC, CLI_PROBE_WHOLE_NODE,
    CLI_DESC_NO_CHECK = 1100, CLI_DESC_STRICT, CLI_DESC_TYPED, CLI_DESC_PRETTY, CLI_DESC_INHERENT,
};
extern const cli_opt cli_probe_opts[], cli_check_opts[], cli_print_opts[];
/* Applies probe option `id` (with its value); false for another id.  A bad
 * value is kept in p->bad for cli_probe_args_check(). */
bool cli_probe_take(cli_probe_args *p, int id, const char *value);
/* Applies description option `id` to `load` or `print_flags`; false for
 * another id. */
bool cli_description_take(int id, sysdesc_yaml_options *load, unsigned *print_flags);

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
int cmd_measure(int argc, char **argv);
int cmd_roofline(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_fingerprint(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_uarch(int argc, char **argv);

/* The roofline `r` as an SVG document (roofline_svg.c): malloc'ed, its length
 * in *len (may be NULL); NULL when out of memory or when `r` has no compute
 * or no bandwidth ceiling. */
char *cli_roofline_svg(const sysdesc_roofline *r, size_t *len);
/* A rate or bandwidth with an SI prefix, as the chart labels it: "234.6 GFLOP/s". */
void cli_roofline_si(char *out, size_t size, double v, const char *unit);

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

/* The probe's options, shared by probe, query --host, compose --host and
 * summary --host. */
struct cli_probe_args {
    bool host;          /* --host was given (query, compose, summary) */
    bool io_given;      /* --io or --no-io was given */
    sysdesc_probe_io io;
    bool quiet;         /* -q, --quiet */
    bool catalog;       /* false with --no-catalog */
    bool runtime_given; /* a runtime option below was given */
    unsigned runtimes;  /* --runtimes=LIST: SYSDESC_RUNTIME_* bits, 0 all */
    sysdesc_probe_cache cache; /* --no-cache, --refresh-cache */
    unsigned timeout_ms;       /* --runtime-timeout=MS, 0 the default */
    const char *gcc, *clang;   /* --gcc=NAME, --clang=NAME (argv's), NULL the default */
    const char *llc;           /* --llc=NAME (argv's), NULL the default */
    bool whole_node;           /* --whole-node: the node, not this process's allocation */
    sysdesc_warning_fn warning; /* NULL: cli_warning (printed) */
    void *warning_user;
    char bad[256];      /* a bad option value, reported by cli_probe_args_check */
};
void cli_probe_args_init(cli_probe_args *a, sysdesc_probe_io io);
/* -1 when the probe options are fine: no bad value, and given only where
 * this host is probed (`host`: --host, or probe without --xml); else
 * reports the problem and returns the exit code. */
int cli_probe_args_check(const char *cmd, const cli_probe_args *a, bool host);
/* --override FILE... (applied first) and --set PATH=VALUE... for a probed
 * spec, with the load options of --no-check; the arrays hold argc slots. */
typedef struct cli_overrides {
    const char **files, **sets;
    size_t nfiles, nsets;
    sysdesc_yaml_options load;
} cli_overrides;
/* --override FILE, --set P=V and --no-check (cli_check_opts) into `o`:
 * cli_override_take() is true when `id` is one of them. */
enum { CLI_OVERRIDE_FILE = 1200, CLI_OVERRIDE_SET };
extern const cli_opt cli_override_opts[];
bool cli_override_take(cli_overrides *o, int id, const char *value);
/* Applies `o` to *spec in order, each --set checked against the device
 * schema unless --no-check; SYSDESC_EXIT_OK, or the exit code after
 * reporting the first problem as "CMD: --set P=V: ...". */
int cli_apply_overrides(const char *cmd, dlti_context *ctx, const dlti_attr **spec,
                        const cli_overrides *o);
/* Load options as the commands start them: the defaults, and what the
 * schema does not know printed as `FILE:LINE:COL: warning: ...`. */
void cli_load_options_init(sysdesc_yaml_options *load);
/* Probes this host (nxml == 0) or the XML files as `a` says: probed GPUs are
 * filled from the catalog (sysdesc_catalog_pci_fill) unless --no-catalog;
 * warnings to a->warning, else printed (cli_warning), unless quiet. */
const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           const cli_probe_args *a, dlti_error_t *err);

/* The probe's warning callback: "sysdesc: warning: MESSAGE" on stderr (the
 * library prints nothing itself). */
void cli_warning(void *user, const char *message);

/* ---- probe --cluster and --mpi (probe_cluster.c, mpi_gather.c; docs/cluster.md) ---- */
/* The probe options that `a` says (catalog hook, I/O, quiet). */
void cli_probe_options(const cli_probe_args *a, sysdesc_probe_options *opts);
/* The XML files as node classes, even one file. */
const dlti_attr *cli_probe_cluster(dlti_context *ctx, const char *const *xmls, size_t nxml,
                                   const cli_probe_args *a, dlti_error_t *err);
/* The MPI job's probe: on rank 0 the cluster's spec (*writer true; NULL
 * with err on failure), on the other ranks NULL with *writer false. */
typedef const dlti_attr *(*cli_mpi_probe_fn)(dlti_context *ctx, const cli_probe_args *a,
                                             bool *writer, dlti_error_t *err);
/* NULL in sysdesc; cli_mpi_gather in sysdesc-mpi. */
extern cli_mpi_probe_fn cli_mpi_probe;
const dlti_attr *cli_mpi_gather(dlti_context *ctx, const cli_probe_args *a, bool *writer,
                                dlti_error_t *err);
/* Replaces this process with sysdesc-mpi, the same arguments ("probe ...");
 * returns the exit code when it cannot (built without MPI). */
int cli_probe_mpi_exec(int argc, char **argv);

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
/* An exclusive lock (flock) on the file `path` names, for a read-modify-write
 * of it by several processes at once (attach -o F ... F): a descriptor to
 * close when the new file is in place, or -1 with `msg` set.  Every writer
 * that locks first keeps the others' changes. */
int cli_lock_file(const char *path, char *msg, size_t msgsize);

/* ---- sysdesc summary: cmd_summary.c and its summary_*.c ----
 * One file a step: summary_text.c (text in columns), summary_units.c
 * (values by unit), summary_lines.c (a device's lines from the schema),
 * cmd_summary.c (options and printing).  What they share is here. */

/* A growable string: the library's dlti_buf is hidden from the CLI.  Out of
 * memory sets `failed` and later adds do nothing, so callers check once. */
typedef struct sum_buf {
    char *p;
    size_t len, cap;
    bool failed;
} sum_buf;
void sum_buf_add(sum_buf *b, const char *s, size_t n);
void sum_buf_str(sum_buf *b, const char *s);
/* At most 255 bytes a call: the summary's pieces are short. */
void sum_buf_printf(sum_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sum_buf_spaces(sum_buf *b, size_t n);
/* Hands the string over ("" when empty) and empties `b`; NULL when out of memory. */
char *sum_buf_take(sum_buf *b);
/* Terminal columns of UTF-8 text (wide characters 2, combining marks 0):
 * what the 80-column layout counts. */
size_t sum_cols(const char *s);
/* `s` in at most `n` columns: cut, with "…" as its last column. */
void sum_buf_fit(sum_buf *b, const char *s, size_t n);
/* Description text, safe for a terminal: controls and bad UTF-8 become '?'. */
void sum_buf_clean(sum_buf *b, const char *s, size_t len);

/* `a` as a number by the schema's `unit` (summary_units.c); false when it
 * is not a number.  `name` is the key's last component: integer data types'
 * peaks (int8_matrix) read TOPS, the others FLOP/s. */
bool sum_number(sum_buf *b, const dlti_attr *a, const char *unit, const char *name);
/* Any value: numbers by unit, strings cleaned, bools yes/no, arrays joined
 * with ", " (*is_list set: the printer wraps such a line at ", " rather
 * than cutting it), anything else as MLIR prints it. */
void sum_value(sum_buf *b, const dlti_attr *a, const char *unit, const char *name,
               bool *is_list);

/* One line of a device's block.  The lines are collected first, then
 * printed, because the label and number columns fit the widest of them. */
typedef struct sum_line {
    const char *label; /* the schema's label; NULL on a continuation sub-line */
    char *sub;         /* sub-label (cache level, data type) or NULL */
    char *value;
    bool list;         /* wrap at ", " rather than cut */
    int group;         /* sub-lines of one key share a group: their numbers align */
    bool label_owned;  /* `label` is malloc'ed (a key of the user's): freed with the line */
} sum_line;

typedef struct sum_device {
    const dlti_context *ctx;
    const dlti_attr *dev;
    const char *type; /* device_type, NULL when absent */
    sum_line *lines;
    size_t n, cap;
    int group;
    bool failed;
} sum_device;

/* Every labelled key of d->dev, in schema order, into d->lines
 * (summary_lines.c): d->ctx, dev and type set, the rest zero.  False when
 * out of memory; sum_device_free frees what was collected either way. */
bool sum_device_lines(sum_device *d);
void sum_device_free(sum_device *d);
/* Adds a line to `d` (taking `value`'s text, and a cleaned copy of `sub`,
 * `sub_len` bytes, when not NULL); false (d->failed) when out of memory. */
bool sum_add_line(sum_device *d, const char *label, const char *sub, size_t sub_len,
                  sum_buf *value, bool list);
/* summary_dlti.c: DLTI that is no system spec (a lenient load: `spec` NULL,
 * its op in `module`), one block per attribute: each block goes to `block`
 * with its title and lines (d->type the paren of its header), then is
 * freed.  False when out of memory. */
typedef void (*sum_block_fn)(void *user, const char *title, sum_device *d);
bool sum_dlti_blocks(const dlti_context *ctx, const sysdesc_system *sys, sum_block_fn block,
                     void *user);
/* The string entry `name` of map or spec `a`; NULL when absent, not a
 * string, or holding a NUL.  The header reads vendor, model and arch. */
const char *sum_get_str(const sum_device *d, const dlti_attr *a, const char *name);

#endif
