/* sysdesc check: descriptions against the device schema, every problem. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc check [--complete|--partial] FILE|NAME...\n"
    "\n"
    "Checks YAML and MLIR descriptions (\"-\" for standard input) and catalog\n"
    "names against the device schema (docs/keys.md): unknown keys (with the\n"
    "nearest known one), value types (with the number to write for \"64KB\"),\n"
    "ranges, device_type and the rules between keys.  Every problem is\n"
    "printed as FILE:LINE:COL: error: ..., in file order; a valid file prints\n"
    "FILE: ok.  --complete also asks for every key the schema marks required\n"
    "(as the catalog's entries give them); --partial checks a fragment (an\n"
    "override file): no device_type, no rules between keys.  Keys under a\n"
    "device's `extra` map are yours and not checked.\n"
    "\n"
    "Exit status: 0 every file valid; 1 a NAME that is neither a file nor a\n"
    "catalog entry; 2 a problem; 3 a missing or unreadable file.\n";

typedef struct problem {
    dlti_error_t e;
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
    c->v[c->n].e = *found;
    c->v[c->n].seq = c->n;
    c->n++;
    return 0;
}

/* File order: a problem without a line sorts first; problems at one place
 * (the keys a device misses) keep the checker's order. */
static int by_position(const void *a, const void *b)
{
    const problem *p = a, *q = b;
    const dlti_error_t *x = &p->e, *y = &q->e;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

enum { OPT_PARTIAL = 1, OPT_COMPLETE };
static const cli_opt options[] = {
    {"--partial", NULL, OPT_PARTIAL, 0},
    {"--complete", NULL, OPT_COMPLETE, 0},
    {NULL, NULL, 0, 0},
};

int cmd_check(int argc, char **argv)
{
    unsigned flags = 0;
    const char **files = calloc((size_t)argc, sizeof(*files));
    int nfiles = 0;
    if (!files)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    cli_args a;
    cli_args_init(&a, "check", usage, (const cli_opt *const[]){options, NULL}, argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT) {
            free(files);
            return a.rc;
        }
        if (o == CLI_OPERAND)
            files[nfiles++] = a.arg;
        else
            flags |= o == OPT_PARTIAL ? SYSDESC_CHECK_PARTIAL : SYSDESC_CHECK_COMPLETE;
    }
    if (nfiles == 0) {
        free(files);
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "check: missing FILE (see sysdesc check --help)");
    }
    int rc = SYSDESC_EXIT_OK;
    for (int i = 0; i < nfiles; i++) {
        dlti_context *ctx = cli_context_new();
        collected c = {0};
        long n = ctx ? sysdesc_check_file(ctx, files[i], NULL, flags, collect, &c) : -1;
        if (n < 0 || c.nomem) {
            free(c.v);
            dlti_context_free(ctx);
            free(files);
            return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        }
        if (c.n > 1) /* qsort(NULL, 0, ...) is undefined */
            qsort(c.v, c.n, sizeof(*c.v), by_position);
        for (size_t k = 0; k < c.n; k++) {
            /* The schema's problems are bad input whatever their code; no
             * such file or name (the checker never says not found) is what
             * every command says it is.  The worst exit wins: 3, 2, 1. */
            int code = cli_report(&c.v[k].e);
            if (c.v[k].e.code != DLTI_ERROR_NOT_FOUND && code != SYSDESC_EXIT_ENVIRONMENT)
                code = SYSDESC_EXIT_BAD_INPUT;
            if (code > rc)
                rc = code;
        }
        if (n == 0) {
            int w = printf("%s: ok\n", files[i]) < 0;
            (void)w;
        }
        free(c.v);
        dlti_context_free(ctx);
    }
    free(files);
    int w = cli_write_stdout("", 0);
    return w != SYSDESC_EXIT_OK ? w : rc;
}
