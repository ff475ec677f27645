/* Error reporting and output helpers for the CLI. */
#include "cli.h"

#include "utf8.h" /* the library's one UTF-8 check (base/) */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many bytes at p a terminal shows as they are: a printable ASCII
 * byte, a tab, a line break when `newlines`, a printable UTF-8 sequence;
 * 0 for a byte to write as \xHH. */
static size_t shown(const unsigned char *p, bool newlines)
{
    return (*p >= 0x20 && *p < 0x7F) || *p == '\t' || (*p == '\n' && newlines) ? 1
           : *p >= 0x80 ? bs_utf8_len(p, 4, BS_UTF8_NO_C1) /* the text ends in a NUL */
                        : 0;
}

/* Writes `prefix` and `text` escaped, and a newline when `line`: in as few
 * writes as the text allows (stderr is unbuffered: lines of processes
 * writing at once do not mix, and a long report costs few system calls). */
static void diag_write(const char *prefix, const char *text, bool line)
{
    char buf[8192];
    size_t o = 0;
    for (int part = 0; part < 2; part++) {
        const unsigned char *p = (const unsigned char *)(part ? text : prefix);
        while (*p) {
            if (o + 8 > sizeof(buf)) {
                fwrite(buf, 1, o, stderr);
                o = 0;
            }
            /* a line break stays: errors carry notes on lines of their own */
            size_t n = shown(p, true);
            if (n) {
                memcpy(buf + o, p, n);
                o += n;
                p += n;
            } else {
                o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\x%02X", *p++);
            }
        }
    }
    if (line)
        buf[o++] = '\n';
    fwrite(buf, 1, o, stderr);
}

char *cli_terminal_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    char *out = malloc(len * 4 + 1); /* \xHH: 4 bytes a byte at most */
    if (!out)
        return NULL;
    size_t o = 0;
    while (*p) {
        size_t n = shown(p, false);
        if (n) {
            memcpy(out + o, p, n);
            o += n;
            p += n;
        } else {
            o += (size_t)snprintf(out + o, 5, "\\x%02X", *p++);
        }
    }
    out[o] = '\0';
    return out;
}

/* Prints `prefix`, the formatted text (whole, however long), a newline. */
static void diag_line(const char *prefix, const char *fmt, va_list ap)
{
    char small[1024], *line = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    if (n >= (int)sizeof(small) && (line = malloc((size_t)n + 1)) != NULL)
        vsnprintf(line, (size_t)n + 1, fmt, again);
    va_end(again);
    diag_write(prefix, line ? line : small, true);
    if (line != small)
        free(line);
}

void cli_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_line("", fmt, ap);
    va_end(ap);
}

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_line("sysdesc: error: ", fmt, ap);
    va_end(ap);
    return code;
}

int cli_nomem(void)
{
    return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
}

int cli_exit_code(dlti_error_code code)
{
    switch (code) {
    case DLTI_OK: /* only failures come here: one without a reason is never a success */
        return SYSDESC_EXIT_ENVIRONMENT;
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

void cli_cut_attr_dump(char *text)
{
    static const char marker[] = " per attr: ";
    char *attr = strstr(text, marker);
    if (!attr)
        return;
    attr += sizeof marker - 1;
    if (strlen(attr) <= 100)
        return;
    /* `#dlti.map<"L1" = #dlti.map<...>, "L2" = ...>` -> `#dlti.map<"L1" = ...>` */
    char *open = strchr(attr, '<'), *eq = open ? strstr(open, " = ") : NULL;
    char *cut = eq && eq - attr < 200 ? eq : attr + 40;
    strcpy(cut, eq && eq == cut ? " = ...>" : "...");
}

int cli_report(const dlti_error_t *err)
{
    char line[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(err, line, sizeof(line));
    cli_diag("%s", line);
    return cli_exit_code(err->code);
}

void cli_warn_unread(const char *path, const dlti_scope *root)
{
    const char *name, *why;
    int line, col;
    size_t n = root ? dlti_scope_unread_ops(root, &name, &line, &col, &why) : 0;
    if (!n)
        return;
    char more[64] = "";
    if (n > 1)
        snprintf(more, sizeof(more), " (and %zu more such operation%s)", n - 1, n > 2 ? "s" : "");
    /* the op's name and the file's are the input's: cli_diag escapes them */
    cli_diag("sysdesc: warning: %s:%d:%d: operation '%s' holds DLTI attributes sysdesc cannot "
             "place (%s): a query at or inside it is answered by the scopes around it%s",
             strcmp(path, "-") ? path : "<stdin>", line, col, name, why, more);
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

int cli_output(const char *text, size_t len, const char *out_path)
{
    if (!out_path || strcmp(out_path, "-") == 0)
        return cli_write_stdout(text, len);
    char msg[512];
    if (atomic_write_file(out_path, text, len, msg, sizeof(msg)) != 0)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", msg);
    return SYSDESC_EXIT_OK;
}

/* Where cli_output_system's text goes as it is printed: standard output,
 * or the file `path` names, opened at the first piece (after the format's
 * check, whose error comes first) and renamed into place at the end. */
typedef struct output {
    const char *path;  /* NULL: standard output */
    atomic_writer *file;
    bool failed;       /* `msg` says why */
    char msg[512];
} output;

static int output_piece(void *user, const char *data, size_t len)
{
    output *o = user;
    if (o->failed)
        return -1;
    if (!o->path) {
        errno = 0;
        if (fwrite(data, 1, len, stdout) != len) {
            snprintf(o->msg, sizeof(o->msg), "cannot write to standard output: %s",
                     errno ? strerror(errno) : "write error");
            o->failed = true;
        }
    } else if ((!o->file && !(o->file = atomic_write_begin(o->path, o->msg, sizeof(o->msg)))) ||
               atomic_write_chunk(o->file, data, len, o->msg, sizeof(o->msg)) != 0) {
        o->failed = true;
    }
    return o->failed ? -1 : 0;
}

int cli_output_system(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                      const char *out_path)
{
    output o = {.path = out_path && strcmp(out_path, "-") ? out_path : NULL};
    dlti_error_t err;
    if (sysdesc_system_write(sys, format, flags, output_piece, &o, &err) != 0) {
        /* nothing half-written is left in place of the file */
        atomic_write_abort(o.file);
        if (o.failed)
            return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", o.msg);
        return cli_fail(err.code == DLTI_ERROR_NOMEM ? SYSDESC_EXIT_ENVIRONMENT : SYSDESC_EXIT_BAD_INPUT,
                        "%s", err.text);
    }
    if (!o.path)
        return cli_write_stdout("", 0); /* flushed, and any earlier failure seen */
    if (!o.file && output_piece(&o, "", 0) != 0) /* an empty text still makes the file */
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", o.msg);
    if (atomic_write_commit(o.file, o.msg, sizeof(o.msg)) != 0)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", o.msg);
    return SYSDESC_EXIT_OK;
}

void cli_probe_args_init(cli_probe_args *a, sysdesc_probe_io io)
{
    memset(a, 0, sizeof(*a));
    sysdesc_probe_options_init(&a->opts);
    a->opts.io = io;
}

int cli_probe_args_check(const char *cmd, const cli_probe_args *a, bool host)
{
    bool probe = strcmp(cmd, "probe") == 0;
    if (!host && (a->given & CLI_GIVEN_RUNTIME))
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "%s: --runtimes, --no-cache, --refresh-cache, --runtime-timeout, --gcc, "
                        "--clang and --llc ask this host's runtimes and compilers: %s",
                        cmd, probe ? "not with --xml" : "they go with --host");
    if (!host && a->opts.whole_node)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "%s: --whole-node describes this host's node instead of this process's "
                        "allocation: %s",
                        cmd, probe ? "not with --xml or --mpi" : "it goes with --host");
    if (host || probe || !((a->given & CLI_GIVEN_IO) || a->opts.quiet || a->no_catalog))
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
        cli_diag("%.*s: warning: %s", (int)(at - line), line, at + 9);
    else
        cli_diag("sysdesc: warning: %s", problem->text);
    return 0;
}

void cli_load_options_init(sysdesc_yaml_options *load)
{
    memset(load, 0, sizeof(*load));
    load->warn = warn_problem;
}

void cli_warning(void *user, const char *message)
{
    (void)user;
    cli_diag("sysdesc: warning: %s", message);
}

void cli_probe_options(const cli_probe_args *a, sysdesc_probe_options *opts)
{
    *opts = a->opts;
    if (!opts->warning)
        opts->warning = cli_warning;
    if (!a->no_catalog)
        sysdesc_catalog_probe_options(opts, NULL);
}

const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           const cli_probe_args *a, dlti_error_t *err)
{
    sysdesc_probe_options opts;
    cli_probe_options(a, &opts);
    /* One probe a process: hwloc need not load the plugins it will not use. */
    bool io = opts.io == SYSDESC_PROBE_IO_ON || (opts.io == SYSDESC_PROBE_IO_AUTO && nxml);
    sysdesc_probe_setup_process((nxml ? SYSDESC_PROBE_SETUP_XML : 0) |
                                (io ? SYSDESC_PROBE_SETUP_IO : 0));
    if (nxml)
        return sysdesc_probe_xml_files(ctx, xmls, nxml, &opts, err);
    return sysdesc_probe_host(ctx, &opts, err);
}

int cli_load_system(dlti_context *ctx, const char *path, const sysdesc_yaml_options *load,
                    const cli_probe_args *host, const char *what, sysdesc_system *sys)
{
    dlti_error_t err;
    memset(sys, 0, sizeof(*sys));
    if (path)
        return sysdesc_system_load(ctx, path, load, sys, &err) < 0 ? cli_report(&err) : -1;
    if ((sys->spec = cli_probe(ctx, NULL, 0, host, &err)) == NULL)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s: %s", what, err.text);
    return -1;
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
