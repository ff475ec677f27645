/* sysdesc check: descriptions against the device schema, every problem. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "FILE|NAME...",
    .description =
        "Checks YAML and MLIR descriptions (\"-\" for standard input) and catalog\n"
        "names against the device schema (docs/keys.md): unknown keys (with the\n"
        "nearest known one), value types (with the number to write for \"64KB\"),\n"
        "ranges, device_type and the rules between keys.  Every problem is\n"
        "printed as FILE:LINE:COL: error: ..., in file order; a valid file prints\n"
        "FILE: ok.  Keys under a device's `extra` map are yours and not checked.\n"
        "A device without device_type is of the type its id names (CPU, GPU3,\n"
        "class0.GPU3).\n"
        "\n"
        "check is strict: keys the schema does not know, and a device type it\n"
        "cannot tell, are errors here.  convert, summary, attach, compose and\n"
        "show report them as warnings and go on (MLIR's users write keys of\n"
        "their own), and convert, summary and attach values of another type\n"
        "than the schema's too (kept as written); pass them --strict to refuse\n"
        "them as check does.  An MLIR file's system spec is checked where those\n"
        "find it: on the top module, or on the one op that holds one.\n",
    .status = "Exit status: 0 every file valid; 1 a NAME that is neither a file nor a\n"
              "catalog entry; 2 a problem; 3 a missing or unreadable file.\n",
};

static const cli_opt options[] = {
    {"--complete", .kind = CLI_BITS, .size = sizeof(unsigned), .set = SYSDESC_CHECK_COMPLETE,
     .help = "also ask for every key the schema marks required (as\n"
             "the catalog's entries give them)"},
    {"--partial", .kind = CLI_BITS, .size = sizeof(unsigned), .set = SYSDESC_CHECK_PARTIAL,
     .help = "check a fragment (an override file): no device_type, no\n"
             "rules between keys"},
    {0},
};

/* A problem as it will be printed (its formatted line, not the whole
 * dlti_error_t: a file of 80,000 problems keeps 80,000 short lines). */
typedef struct problem {
    char *line;
    int at_line, at_column;
    dlti_error_code code;
    size_t seq; /* the order the checker found it in */
} problem;

typedef struct collected {
    problem *v;
    size_t n, cap;
    bool nomem;
} collected;

static int collect(void *user, const dlti_error_t *found)
{
    collected *c = user;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        problem *v = realloc(c->v, cap * sizeof(*v));
        if (!v) {
            c->nomem = true;
            return 1;
        }
        c->v = v;
        c->cap = cap;
    }
    char text[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(found, text, sizeof(text));
    problem *p = &c->v[c->n];
    if (!(p->line = strdup(text))) {
        c->nomem = true;
        return 1;
    }
    p->at_line = found->line;
    p->at_column = found->column;
    p->code = found->code;
    p->seq = c->n++;
    return 0;
}

/* File order: a problem without a line sorts first; problems at one place
 * (the keys a device misses) keep the checker's order. */
static int by_position(const void *a, const void *b)
{
    const problem *p = a, *q = b;
    if (p->at_line != q->at_line)
        return p->at_line < q->at_line ? -1 : 1;
    if (p->at_column != q->at_column)
        return p->at_column < q->at_column ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

static void free_problems(collected *c)
{
    for (size_t k = 0; k < c->n; k++)
        free(c->v[k].line);
    free(c->v);
}

/* Prints the problems of `c` in file order; returns the worst exit code
 * they mean (0 none) and counts in *unknown those the loads only warn
 * about. */
static int print_problems(collected *c, size_t *unknown)
{
    int rc = SYSDESC_EXIT_OK;
    if (c->n > 1) /* qsort(NULL, 0, ...) is undefined */
        qsort(c->v, c->n, sizeof(*c->v), by_position);
    for (size_t k = 0; k < c->n; k++) {
        *unknown += c->v[k].code == DLTI_ERROR_UNSUPPORTED;
        cli_diag("%s", c->v[k].line);
        /* The schema's problems are bad input whatever their code; no such
         * file or name (the checker never says not found) is what every
         * command says it is.  The worst exit wins: 3, 2, 1. */
        int code = cli_exit_code(c->v[k].code);
        if (c->v[k].code != DLTI_ERROR_NOT_FOUND && code != SYSDESC_EXIT_ENVIRONMENT)
            code = SYSDESC_EXIT_BAD_INPUT;
        if (code > rc)
            rc = code;
    }
    return rc;
}

/* Checks one file: its exit code, or -1 when out of memory. */
static int check_one(const char *path, unsigned flags, size_t *unknown)
{
    dlti_context *ctx = cli_context_new();
    collected c = {0};
    long n = ctx ? sysdesc_check_file(ctx, path, NULL, flags, collect, &c) : -1;
    int rc = -1;
    if (n >= 0 && !c.nomem) {
        rc = print_problems(&c, unknown);
        if (n == 0) {
            int w = printf("%s: ok\n", path) < 0;
            (void)w;
        }
    }
    free_problems(&c);
    dlti_context_free(ctx);
    return rc;
}

/* Checks every file, then gives the hint about warnings elsewhere. */
static int check_all(const char *const *files, size_t n, unsigned flags)
{
    int rc = SYSDESC_EXIT_OK;
    size_t unknown = 0; /* problems the loads only warn about */
    for (size_t i = 0; i < n; i++) {
        int one = check_one(files[i], flags, &unknown);
        if (one < 0)
            return cli_nomem();
        rc = one > rc ? one : rc;
    }
    if (unknown)
        fprintf(stderr, "sysdesc: hint: check is strict; convert, summary, attach, compose and "
                        "show report keys and device types the schema does not know as warnings "
                        "and go on, convert, summary and attach values of another type too "
                        "(--strict refuses them there too)\n");
    int w = cli_write_stdout("", 0);
    return w != SYSDESC_EXIT_OK ? w : rc;
}

int cmd_check(int argc, char **argv)
{
    unsigned flags = 0;
    cli_list files = {0};
    cli_args a;
    cli_args_init(&a, "check", &help,
                  (const cli_group[]){{.opts = options, .base = &flags}, {0}}, argc, argv);
    int rc = cli_parse_all(&a, &files, CLI_ANY, NULL);
    if (rc < 0)
        rc = files.n ? check_all(files.v, files.n, flags)
                     : cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "check: missing FILE (see sysdesc check --help)");
    cli_args_free(&a);
    return rc;
}
