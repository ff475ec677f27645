/* The option parser of every command: a table of options, and the rules
 * every command shares (-h/--help, "--", NAME VALUE and NAME=VALUE, the
 * texts of the usage errors). */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_args_init(cli_args *a, const char *cmd, const char *usage, const cli_opt *const *tables,
                   int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    a->cmd = cmd;
    a->usage = usage;
    a->tables = tables;
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
}

/* The option `arg` names ("--to", "--to=json", "-o"): its table entry, and
 * in *eq the value after '=' (NULL without one). */
static const cli_opt *find(const cli_args *a, const char *arg, const char **eq)
{
    *eq = NULL;
    for (const cli_opt *const *t = a->tables; t && *t; t++)
        for (const cli_opt *o = *t; o->name; o++)
            for (int k = 0; k < 2; k++) {
                const char *n = k ? o->alias : o->name;
                if (!n)
                    continue;
                size_t len = strlen(n);
                if (strncmp(arg, n, len) != 0)
                    continue;
                if (arg[len] == '\0')
                    return o;
                /* NAME=VALUE: long names only (-o=x is no option of ours) */
                if (arg[len] == '=' && n[1] == '-') {
                    *eq = arg + len + 1;
                    return o;
                }
            }
    return NULL;
}

static int usage_error(cli_args *a, const char *fmt, const char *what)
{
    char text[512];
    snprintf(text, sizeof(text), fmt, what);
    a->rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: %s", a->cmd, text);
    return CLI_EXIT;
}

int cli_next(cli_args *a)
{
    a->value = NULL;
    while (a->i < a->argc) {
        const char *arg = a->arg = a->argv[a->i++];
        if (a->operands)
            return CLI_OPERAND;
        if (strcmp(arg, "--") == 0) {
            a->operands = true;
            continue;
        }
        if (cli_is_help(arg)) {
            a->rc = cli_write_stdout(a->usage, strlen(a->usage));
            return CLI_EXIT;
        }
        if (arg[0] != '-' || arg[1] == '\0') { /* "-" is standard input */
            if (a->posix)
                a->operands = true;
            return CLI_OPERAND;
        }
        const char *eq;
        const cli_opt *o = find(a, arg, &eq);
        if (!o) {
            char text[512];
            snprintf(text, sizeof(text), "unknown option '%s' (see sysdesc %s --help)", arg,
                     a->cmd);
            return usage_error(a, "%s", text);
        }
        if (o->flags & CLI_VALUE_OPT) {
            a->value = eq;
            return o->id;
        }
        if (!(o->flags & (CLI_VALUE | CLI_VALUE_EQ))) {
            if (eq)
                return usage_error(a, "%s takes no value", o->name);
            return o->id;
        }
        if (eq) {
            a->value = eq;
        } else if (o->flags & CLI_VALUE_EQ) {
            /* a value only after '=': the next argument is an operand (a key) */
            char text[256];
            snprintf(text, sizeof(text), "%s needs a value: %s=VALUE", o->name, o->name);
            return usage_error(a, "%s", text);
        } else if (a->i < a->argc) {
            a->value = a->argv[a->i++];
        } else {
            return usage_error(a, "%s needs a value", arg);
        }
        return o->id;
    }
    return CLI_DONE;
}

int cli_operand_error(cli_args *a, const char *what)
{
    char text[512];
    snprintf(text, sizeof(text), "unexpected argument '%s' (%s; see sysdesc %s --help)", a->arg,
             what, a->cmd);
    a->rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: %s", a->cmd, text);
    return a->rc;
}

/* ---- the options several commands share ---- */

const cli_opt cli_probe_opts[] = {
    {"--io", NULL, CLI_PROBE_IO, 0},
    {"--no-io", NULL, CLI_PROBE_NO_IO, 0},
    {"--quiet", "-q", CLI_PROBE_QUIET, 0},
    {"--no-catalog", NULL, CLI_PROBE_NO_CATALOG, 0},
    {"--runtimes", NULL, CLI_PROBE_RUNTIMES, CLI_VALUE_EQ},
    {"--no-cache", NULL, CLI_PROBE_NO_CACHE, 0},
    {"--refresh-cache", NULL, CLI_PROBE_REFRESH_CACHE, 0},
    {"--runtime-timeout", NULL, CLI_PROBE_TIMEOUT, CLI_VALUE_EQ},
    {"--gcc", NULL, CLI_PROBE_GCC, CLI_VALUE_EQ},
    {"--clang", NULL, CLI_PROBE_CLANG, CLI_VALUE_EQ},
    {"--llc", NULL, CLI_PROBE_LLC, CLI_VALUE_EQ},
    {"--whole-node", NULL, CLI_PROBE_WHOLE_NODE, 0},
    {NULL, NULL, 0, 0},
};

const cli_opt cli_check_opts[] = {
    {"--no-check", NULL, CLI_DESC_NO_CHECK, 0},
    {"--strict", NULL, CLI_DESC_STRICT, 0},
    {NULL, NULL, 0, 0},
};

const cli_opt cli_print_opts[] = {
    {"--typed", NULL, CLI_DESC_TYPED, 0},
    {"--pretty", NULL, CLI_DESC_PRETTY, 0},
    {"--inherent-dlti", NULL, CLI_DESC_INHERENT, 0},
    {NULL, NULL, 0, 0},
};

bool cli_probe_take(cli_probe_args *p, int id, const char *value)
{
    switch (id) {
    case CLI_PROBE_IO:
    case CLI_PROBE_NO_IO:
        p->io = id == CLI_PROBE_IO ? SYSDESC_PROBE_IO_ON : SYSDESC_PROBE_IO_OFF;
        p->io_given = true;
        return true;
    case CLI_PROBE_QUIET:
        p->quiet = true;
        return true;
    case CLI_PROBE_NO_CATALOG:
        p->catalog = false;
        return true;
    case CLI_PROBE_RUNTIMES: {
        dlti_error_t err;
        if (sysdesc_probe_runtimes_parse(value, &p->runtimes, &err) != 0)
            snprintf(p->bad, sizeof(p->bad), "--runtimes: %.200s", err.text);
        p->runtime_given = true;
        return true;
    }
    case CLI_PROBE_NO_CACHE:
    case CLI_PROBE_REFRESH_CACHE:
        p->cache = id == CLI_PROBE_NO_CACHE ? SYSDESC_PROBE_CACHE_OFF : SYSDESC_PROBE_CACHE_REFRESH;
        p->runtime_given = true;
        return true;
    case CLI_PROBE_TIMEOUT: {
        char *end;
        errno = 0;
        unsigned long ms = strtoul(value, &end, 10);
        if (errno || end == value || *end || ms == 0 || ms > 3600000 ||
            !isdigit((unsigned char)*value))
            snprintf(p->bad, sizeof(p->bad),
                     "--runtime-timeout: '%.100s' is not a number of milliseconds from 1 to "
                     "3600000",
                     value);
        p->timeout_ms = (unsigned)ms;
        p->runtime_given = true;
        return true;
    }
    case CLI_PROBE_GCC:
    case CLI_PROBE_CLANG:
        *(id == CLI_PROBE_GCC ? &p->gcc : &p->clang) = value;
        p->runtime_given = true; /* this host's compilers: as its runtimes, not with --xml */
        return true;
    case CLI_PROBE_LLC:
        p->llc = value;
        p->runtime_given = true;
        return true;
    case CLI_PROBE_WHOLE_NODE:
        p->whole_node = true; /* this host's node: not with --xml either */
        return true;
    default:
        return false;
    }
}

bool cli_description_take(int id, sysdesc_yaml_options *load, unsigned *print_flags)
{
    switch (id) {
    case CLI_DESC_NO_CHECK:
        load->flags |= SYSDESC_LOAD_NO_CHECK;
        return true;
    case CLI_DESC_STRICT:
        load->flags |= SYSDESC_LOAD_STRICT;
        return true;
    case CLI_DESC_TYPED:
    case CLI_DESC_PRETTY:
    case CLI_DESC_INHERENT:
        /* a command lists cli_print_opts only when it prints descriptions */
        *print_flags |= id == CLI_DESC_TYPED    ? SYSDESC_PRINT_TYPED
                        : id == CLI_DESC_PRETTY ? SYSDESC_PRINT_PRETTY
                                                : SYSDESC_PRINT_INHERENT;
        return true;
    default:
        return false;
    }
}

enum { OPT_SCOPE = 1, OPT_HOST };
static const cli_opt scope_opts[] = {
    {"--scope", NULL, OPT_SCOPE, CLI_VALUE},
    {NULL, NULL, 0, 0},
};
static const cli_opt host_opts[] = {
    {"--host", NULL, OPT_HOST, 0},
    {NULL, NULL, 0, 0},
};

int cli_scope_options(const char *cmd, const char *usage, int argc, char **argv,
                      const char **scope, cli_probe_args *host, int *first)
{
    *scope = "";
    cli_args a;
    cli_args_init(&a, cmd, usage,
                  host ? (const cli_opt *const[]){scope_opts, host_opts, cli_probe_opts, NULL}
                       : (const cli_opt *const[]){scope_opts, NULL},
                  argc, argv);
    a.posix = true;
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            *first = a.i - 1;
            return -1;
        }
        if (o == OPT_SCOPE)
            *scope = a.value;
        else if (o == OPT_HOST)
            host->host = true;
        else
            cli_probe_take(host, o, a.value);
    }
    *first = argc;
    return -1;
}
