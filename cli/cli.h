/* cli.h - the one private header of the sysdesc command-line tool. */
#ifndef SYSDESC_CLI_H
#define SYSDESC_CLI_H

#include "sysdesc/sysdesc.h"

#include <stdbool.h>
#include <stddef.h>

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
 * A command describes its options in one table: each option names the
 * field it fills, its kind (flag, a value to store, a string, a number in a
 * range, a list, a word a function parses) and its help.  The parser fills
 * the fields and reports what is wrong; the usage text (`--help`) is made
 * from the table, the command's one-line operands and its description:
 *
 *     typedef struct convert_args { const char *to; ... } convert_args;
 *     static const cli_opt opts[] = {
 *         {"--to", .kind = CLI_STRING, CLI_AT(convert_args, to), .metavar = "F", .help = "..."},
 *         {0}};
 *     convert_args c = {0};
 *     cli_args a;
 *     cli_args_init(&a, "convert", &help, (cli_group[]){{opts, &c}, {0}}, argc, argv);
 *     for (int o; (o = cli_next(&a)) != CLI_DONE;)
 *         switch (o) { case CLI_EXIT: return a.rc; case CLI_OPERAND: ... a.arg ...; }
 *     cli_args_free(&a);
 *
 * Shared options (the probe's, the description options, --override and
 * --set) are tables of their own, bound to their own structs: a command
 * lists them as more groups.  Every command so takes -h/--help (the usage on
 * stdout, exit 0), "--" (what follows is operands), NAME VALUE and
 * NAME=VALUE for an option with a value (an alias of one dash: only -o
 * VALUE), and reports an unknown option, a missing value, a value given to
 * a flag and a value out of range alike: "CMD: ..." and exit 2. */
enum {
    CLI_VALUE = 1u << 0,    /* takes a value */
    CLI_VALUE_EQ = 1u << 1, /* takes a value, only as NAME=VALUE (the next
                             * argument may be an operand that looks like one) */
    CLI_VALUE_OPT = 1u << 2, /* may take a value, as NAME=VALUE (NULL without) */
    CLI_COMMAS = 1u << 3,   /* CLI_LIST: a value is a comma-separated list of items */
    CLI_NEEDED = 1u << 4,   /* the command needs it: no brackets in the synopsis
                             * (the command says when it is missing) */
};
typedef enum cli_kind {
    CLI_ID = 0,   /* the command's: cli_next() returns `id` (value in a->value) */
    CLI_FLAG,     /* bool field = true */
    CLI_SET,      /* integer or enum field = `set`; with `clash`, a different
                   * value set before is an error ("CMD: CLASH") */
    CLI_BITS,     /* unsigned field |= `set` */
    CLI_STRING,   /* const char * field = the value (argv's) */
    CLI_NUMBER,   /* unsigned field = the value, a decimal number in [min, max];
                   * else "CMD: NAME: 'VALUE' is not WHAT from MIN to MAX" */
    CLI_LIST,     /* cli_list field: the value appended, tagged `set` */
    CLI_PARSE,    /* parse(value, field, msg): false reports "CMD: MSG" */
    CLI_TEXT,     /* no option: a row of the help only (label and help) */
} cli_kind;
typedef struct cli_opt {
    const char *name, *alias; /* as typed: "--output", "-o" */
    int id;                   /* CLI_ID: what cli_next() returns for it (> 0) */
    unsigned flags;           /* CLI_VALUE, CLI_VALUE_EQ, CLI_VALUE_OPT, CLI_COMMAS */
    cli_kind kind;
    size_t field;             /* CLI_AT(): the field's offset in the group's struct */
    unsigned char size;       /* and its size */
    long set;                 /* CLI_SET, CLI_BITS: the value; CLI_LIST: the tag */
    unsigned long min, max;   /* CLI_NUMBER: the range */
    const char *what;         /* CLI_NUMBER: "a number of milliseconds" */
    const char *clash;        /* CLI_SET: the error when another value was set */
    bool (*parse)(const char *value, void *field, char *msg, size_t size);
    unsigned given;           /* bits ORed into the group's *given when used */
    /* Help: the synopsis shows [NAME], [NAME METAVAR] or [NAME=METAVAR]
     * (`usage` instead when set; options of one field joined: [--io|--no-io]);
     * the list a row LABEL (default: NAME[ METAVAR][, ALIAS]) and HELP (lines
     * split at '\n'; a leading '\n' puts them under the label).  No help: not
     * in the list. */
    const char *metavar, *usage, *label, *help;
    /* Help made when the usage is (words of the library's tables): the
     * text into `out`, as `help` is written; rows only, with `label`. */
    void (*help_fn)(char *out, size_t size);
} cli_opt;
#define CLI_AT(type, member) .field = offsetof(type, member), .size = sizeof(((type *)0)->member)

/* A CLI_LIST field: the values in order, each with its option's tag. */
typedef struct cli_list {
    const char **v; /* n values and a NULL */
    long *tag;
    size_t n, cap;
} cli_list;

/* A table and the struct its options fill; `unlisted`: not in the help's
 * option list (the command words them in rows of its own); `given` (may
 * be NULL) collects the used options' `given` bits. */
typedef struct cli_group {
    const cli_opt *opts;
    void *base;
    bool unlisted;
    unsigned *given;
} cli_group;

/* The usage text, generated: "usage: sysdesc CMD [OPTIONS...] OPERANDS",
 * the description, the options' rows and the exit status. */
typedef struct cli_help {
    const char *operands, *description, *status;
} cli_help;

typedef struct cli_args {
    const char *cmd;
    const cli_help *help;
    const cli_group *groups; /* ended by one with opts NULL */
    bool posix;       /* options end at the first operand (keys, types, strings
                       * that may start with '-' follow it) */
    int argc;
    char **argv;
    int i;            /* the next argument */
    bool operands;    /* after "--", or (posix) the first operand */
    const char *arg;  /* the argument cli_next() just read */
    const char *value; /* its option's value */
    int rc;           /* the exit code, when cli_next() returns CLI_EXIT */
    cli_list *lists[16]; /* the lists filled, and the copies made, for cli_args_free */
    size_t nlists;
    char **copies;
    size_t ncopies;
} cli_args;
enum { CLI_DONE = 0, CLI_OPERAND = -1, CLI_EXIT = -2 };
void cli_args_init(cli_args *a, const char *cmd, const cli_help *help, const cli_group *groups,
                   int argc, char **argv);
/* Fills the next option's field, or returns its id (CLI_ID; its value in
 * a->value); CLI_OPERAND (a->arg), CLI_DONE, or CLI_EXIT (help printed, or
 * a usage error reported: return a->rc). */
int cli_next(cli_args *a);
/* Frees the lists' arrays and the copies the parser made. */
void cli_args_free(cli_args *a);
/* Parses every argument: options fill their fields, operands are appended
 * to *operands (freed by cli_args_free), at most `max` of them (CLI_ANY:
 * any number); one more is reported as "unexpected argument 'X' (WHAT; ...)".
 * -1 to go on, else the exit code to return (help printed, a usage error
 * reported).  For commands whose options are all bound to fields. */
#define CLI_ANY ((size_t)-1)
int cli_parse_all(cli_args *a, cli_list *operands, size_t max, const char *what);
/* The usage text (malloc'ed; NULL when out of memory). */
char *cli_usage(const char *cmd, const cli_help *help, const cli_group *groups);
/* Reports a->arg as one operand too many ("CMD: unexpected argument 'X'
 * (WHAT; ...)") and returns the exit code. */
int cli_operand_error(cli_args *a, const char *what);
/* A usage error: "CMD: TEXT" and exit 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

typedef struct cli_probe_args cli_probe_args;

/* Shared groups.  The probe's options, bound to a cli_probe_args: I/O
 * discovery (--io, --no-io), the runtimes (--no-catalog, --runtimes,
 * --no-cache, --refresh-cache, --runtime-timeout), this host's compilers
 * and node (--gcc, --clang, --llc, --whole-node) and --quiet.  The
 * description options, bound to a sysdesc_yaml_options (--no-check,
 * --strict) and to an unsigned of SYSDESC_PRINT_* bits (--typed, --pretty,
 * --inherent-dlti, with their help rows).  --format, bound to a sysdesc_format. */
enum { CLI_GIVEN_IO = 1u << 0, CLI_GIVEN_RUNTIME = 1u << 1 };
extern const cli_opt cli_io_opts[], cli_runtime_opts[], cli_host_opts[];
extern const cli_opt cli_check_opts[], cli_print_opts[];
/* --quick and --full, bound to a sysdesc_measure_options (measure, roofline). */
extern const cli_opt cli_measure_mode_opts[];
/* The probe's three groups, unlisted, bound to `pa` (a cli_probe_args). */
#define CLI_PROBE_GROUP(table, pa) {.opts = (table), .base = &(pa), .unlisted = true, .given = &(pa).given}
#define CLI_PROBE_GROUPS(pa)                                                                   \
    CLI_PROBE_GROUP(cli_io_opts, pa), CLI_PROBE_GROUP(cli_runtime_opts, pa),                  \
        CLI_PROBE_GROUP(cli_host_opts, pa)
/* --no-check, --strict and --scope OP with their help, bound to the
 * sysdesc_yaml_options of a lenient transform (convert, attach, summary). */
extern const cli_opt cli_transform_opts[];
/* --format, bound to a sysdesc_format (show). */
extern const cli_opt cli_format_opts[];
/* -o FILE (--output), bound to a const char * (NULL: standard output). */
extern const cli_opt cli_output_opts[];
/* --format's parser: a sysdesc_format field; "unknown format 'NAME' (...)". */
bool cli_parse_format(const char *value, void *field, char *msg, size_t size);

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

/* ---- what measure says on stderr (measure_report.c) ---- */
typedef struct cli_progress {
    bool tty;     /* stderr is a terminal: one line rewritten in place */
    int last_pct; /* -1 at the start */
} cli_progress;
/* The progress callback of sysdesc_measure_options (user: a cli_progress). */
void cli_measure_progress(void *user, const char *step, double done);
/* After a measurement of `spec`: what the bound changed on the CPU (unless
 * `quiet`), and with `devices` the measurements that did not happen. */
void cli_measure_report(const dlti_attr *spec, bool quiet, bool devices);

/* ---- what roofline says on stderr (roofline_report.c) ---- */
/* The progress callback while this host is measured. */
void cli_roofline_progress(void *user, const char *step, double done);
/* Which ceilings `r` has, measured and nominal, and where each point is. */
void cli_roofline_report(const sysdesc_roofline *r);

/* ---- what query says (query_report.c) ---- */
/* The probe's warnings, kept until the answer is known (cli_keep_warning
 * is a sysdesc_warning_fn; user: a cli_kept_warnings). */
typedef struct cli_kept_warnings {
    char **lines;
    size_t n, cap;
} cli_kept_warnings;
void cli_keep_warning(void *user, const char *message);
void cli_kept_warnings_free(cli_kept_warnings *w);
/* Says the kept warnings about the value answered: a path asked that is,
 * lies under or holds a suspect one. */
void cli_query_warnings(const cli_kept_warnings *w, char **keys, int nkeys);
/* How the value is printed: MLIR's text, or for scripts JSON or raw. */
typedef enum cli_query_output { CLI_QUERY_MLIR, CLI_QUERY_JSON, CLI_QUERY_RAW } cli_query_output;
int cli_query_print(const dlti_attr *value, cli_query_output out, char **keys, int nkeys);
/* Where sysdesc's rules answer otherwise than MLIR 22's dlti::query, a note. */
void cli_query_note_mlir22(const dlti_scope *scope, const dlti_key *keys, size_t n,
                           const dlti_attr *ours, const dlti_error_t *our_err);
/* No value: MLIR's reason and a hint; returns the exit code. */
int cli_query_not_found(const dlti_scope *scope, const dlti_attr *spec, const dlti_key *keys,
                        size_t n, const dlti_error_t *err);

/* The roofline `r` as an SVG document (roofline_svg.c): malloc'ed, its length
 * in *len (may be NULL); NULL when out of memory or when `r` has no compute
 * or no bandwidth ceiling. */
char *cli_roofline_svg(const sysdesc_roofline *r, size_t *len);
/* A rate or bandwidth with an SI prefix, as the chart labels it: "234.6 GFLOP/s". */
void cli_roofline_si(char *out, size_t size, double v, const char *unit);

/* Prints `sys` (sysdesc_system_write: as it is printed, never whole in
 * memory) to stdout, or atomically to `out_path` when it is neither NULL
 * nor "-"; reports failures (a file half-written is removed). */
int cli_output_system(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                      const char *out_path);
/* Writes `len` bytes to stdout, or atomically to `out_path` when it is
 * neither NULL nor "-"; reports failures (exit 3). */
int cli_output(const char *text, size_t len, const char *out_path);

/* The probe's options, shared by probe, measure, query --host, compose
 * --host, fingerprint --host and summary --host: the options bind straight
 * to `opts`. */
struct cli_probe_args {
    sysdesc_probe_options opts; /* io, quiet, runtimes, cache, runtime_timeout_ms, gcc,
                                 * clang, llc, whole_node; warning NULL: cli_warning */
    bool host;       /* --host was given (query, compose, summary, fingerprint) */
    bool no_catalog; /* --no-catalog */
    unsigned given;  /* CLI_GIVEN_IO, CLI_GIVEN_RUNTIME: which were given */
};
void cli_probe_args_init(cli_probe_args *a, sysdesc_probe_io io);
/* -1 when the probe options are given only where this host is probed
 * (`host`: --host, or probe without --xml); else reports the problem and
 * returns the exit code. */
int cli_probe_args_check(const char *cmd, const cli_probe_args *a, bool host);
/* --override FILE... (applied first) and --set PATH=VALUE... for a probed
 * spec, with the load options of --no-check (cli_override_opts binds them). */
typedef struct cli_overrides {
    cli_list files, sets;
    sysdesc_yaml_options load;
} cli_overrides;
extern const cli_opt cli_override_opts[];
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
/* The system a command reads: SPEC `path` loaded with `load`, or, `path`
 * NULL, this host probed as `host` says.  -1 to go on, else the exit code
 * after reporting the failure (a failed probe as "WHAT: TEXT", exit 3). */
int cli_load_system(dlti_context *ctx, const char *path, const sysdesc_yaml_options *load,
                    const cli_probe_args *host, const char *what, sysdesc_system *sys);

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
/* The same in steps, for a text written as it is made: begin (the
 * temporary file made, or the target opened in place; NULL with `msg` set),
 * chunks, then commit (fsync and rename; the writer freed, 0 or -1 with
 * `msg`) or abort (the temporary file removed, the writer freed; NULL
 * does nothing).  A failed chunk leaves the writer to abort. */
typedef struct atomic_writer atomic_writer;
atomic_writer *atomic_write_begin(const char *path, char *msg, size_t msgsize);
int atomic_write_chunk(atomic_writer *w, const char *data, size_t len, char *msg,
                       size_t msgsize);
int atomic_write_commit(atomic_writer *w, char *msg, size_t msgsize);
void atomic_write_abort(atomic_writer *w);
/* An exclusive lock (flock) on the file `path` names, for a read-modify-write
 * of it by several processes at once (attach -o F ... F): a descriptor to
 * close when the new file is in place, or -1 with `msg` set.  Every writer
 * that locks first keeps the others' changes. */
int cli_lock_file(const char *path, char *msg, size_t msgsize);

/* ---- sysdesc summary: cmd_summary.c and its summary_*.c ----
 * One file a step: summary_text.c (text in columns), summary_units.c
 * (values by unit), summary_lines.c (a device's lines from the schema),
 * cmd_summary.c (options and printing).  What they share is here. */

/* A growable string: the library's bs_buf is hidden from the CLI.  Out of
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
