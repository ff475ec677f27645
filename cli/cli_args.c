/* The option parser of every command: one table of options bound to the
 * fields they fill, the rules every command shares (-h/--help, "--", NAME
 * VALUE and NAME=VALUE, the texts of the usage errors), and the usage text
 * made from the table. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_args_init(cli_args *a, const char *cmd, const cli_help *help, const cli_group *groups,
                   int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    a->cmd = cmd;
    a->help = help;
    a->groups = groups;
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
}

void cli_args_free(cli_args *a)
{
    for (size_t i = 0; i < a->nlists; i++) {
        free(a->lists[i]->v);
        free(a->lists[i]->tag);
        memset(a->lists[i], 0, sizeof(*a->lists[i]));
    }
    a->nlists = 0;
    for (size_t i = 0; i < a->ncopies; i++)
        free(a->copies[i]);
    free(a->copies);
    a->copies = NULL;
    a->ncopies = 0;
}

/* The option `arg` names ("--to", "--to=json", "-o"): its table entry and
 * group, and in *eq the value after '=' (NULL without one). */
static const cli_opt *find(const cli_args *a, const char *arg, const char **eq,
                           const cli_group **group)
{
    *eq = NULL;
    for (const cli_group *g = a->groups; g && g->opts; g++)
        for (const cli_opt *o = g->opts; o->name || o->kind == CLI_TEXT; o++)
            for (int k = 0; k < 2 && o->name; k++) {
                const char *n = k ? o->alias : o->name;
                if (!n)
                    continue;
                size_t len = strlen(n);
                if (strncmp(arg, n, len) != 0)
                    continue;
                *group = g;
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

static int usage_error(cli_args *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int usage_error(cli_args *a, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    a->rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: %s", a->cmd, text);
    return CLI_EXIT;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: %s", cmd, text);
}

static long get_int(const void *field, size_t size)
{
    if (size == sizeof(long)) {
        long v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    if (size == sizeof(int)) {
        int v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    return *(const unsigned char *)field;
}

static void set_int(void *field, size_t size, long v)
{
    if (size == sizeof(long)) {
        memcpy(field, &v, sizeof v);
    } else if (size == sizeof(int)) {
        int i = (int)v;
        memcpy(field, &i, sizeof i);
    } else {
        *(unsigned char *)field = (unsigned char)v;
    }
}

/* Appends `value` to the list, which the parser then frees; false when
 * out of memory. */
static bool list_add(cli_args *a, cli_list *l, const char *value, long tag)
{
    if (l->n + 1 >= l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        const char **v = realloc(l->v, cap * sizeof(*v));
        if (v)
            l->v = v;
        long *t = v ? realloc(l->tag, cap * sizeof(*t)) : NULL;
        if (!t)
            return false;
        l->tag = t;
        if (!l->cap) {
            if (a->nlists == sizeof(a->lists) / sizeof(a->lists[0]))
                return false;
            a->lists[a->nlists++] = l;
        }
        l->cap = cap;
    }
    l->tag[l->n] = tag;
    l->v[l->n++] = value;
    l->v[l->n] = NULL;
    return true;
}

/* The items of a comma-separated value, each appended (a copy the parser
 * frees); empty items are skipped. */
static bool list_add_items(cli_args *a, cli_list *l, const char *value, long tag)
{
    char **copies = realloc(a->copies, (a->ncopies + 1) * sizeof(*copies));
    if (!copies)
        return false;
    a->copies = copies;
    char *copy = strdup(value);
    if (!copy)
        return false;
    a->copies[a->ncopies++] = copy;
    for (char *p = copy; p;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (*p && !list_add(a, l, p, tag))
            return false;
        p = comma ? comma + 1 : NULL;
    }
    return true;
}

/* Fills the field of option `o` (of group `g`) from `value`: CLI_EXIT
 * after reporting a bad value, else 0. */
static int fill(cli_args *a, const cli_group *g, const cli_opt *o, const char *value)
{
    if (o->kind == CLI_ID)
        return o->id;
    void *field = (char *)g->base + o->field;
    if (g->given)
        *g->given |= o->given;
    switch (o->kind) {
    case CLI_FLAG:
        *(bool *)field = true;
        return 0;
    case CLI_SET: {
        long now = get_int(field, o->size);
        if (o->clash && now != 0 && now != o->set)
            return usage_error(a, "%s", o->clash);
        set_int(field, o->size, o->set);
        return 0;
    }
    case CLI_BITS:
        *(unsigned *)field |= (unsigned)o->set;
        return 0;
    case CLI_STRING:
        *(const char **)field = value;
        return 0;
    case CLI_NUMBER: {
        char *end;
        errno = 0;
        unsigned long n = strtoul(value, &end, 10);
        if (errno || end == value || *end || n < o->min || n > o->max ||
            !isdigit((unsigned char)*value))
            return usage_error(a, "%s: '%.100s' is not %s from %lu to %lu", o->name, value,
                               o->what ? o->what : "a number", o->min, o->max);
        set_int(field, o->size, (long)n);
        return 0;
    }
    case CLI_LIST: {
        bool ok = o->flags & CLI_COMMAS ? list_add_items(a, field, value, o->set)
                                        : list_add(a, field, value, o->set);
        if (!ok) {
            a->rc = cli_nomem();
            return CLI_EXIT;
        }
        return 0;
    }
    case CLI_PARSE: {
        char msg[400];
        if (!o->parse(value, field, msg, sizeof msg))
            return usage_error(a, "%s", msg);
        return 0;
    }
    default:
        return o->id;
    }
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
            char *text = cli_usage(a->cmd, a->help, a->groups);
            a->rc = text ? cli_write_stdout(text, strlen(text)) : cli_nomem();
            free(text);
            return CLI_EXIT;
        }
        if (arg[0] != '-' || arg[1] == '\0') { /* "-" is standard input */
            if (a->posix)
                a->operands = true;
            return CLI_OPERAND;
        }
        const char *eq;
        const cli_group *g = NULL;
        const cli_opt *o = find(a, arg, &eq, &g);
        if (!o)
            return usage_error(a, "unknown option '%s' (see sysdesc %s --help)", arg, a->cmd);
        if (o->flags & CLI_VALUE_OPT) {
            a->value = eq;
        } else if (!(o->flags & (CLI_VALUE | CLI_VALUE_EQ))) {
            if (eq)
                return usage_error(a, "%s takes no value", o->name);
        } else if (eq) {
            a->value = eq;
        } else if (o->flags & CLI_VALUE_EQ) {
            /* a value only after '=': the next argument is an operand (a key) */
            return usage_error(a, "%s needs a value: %s=VALUE", o->name, o->name);
        } else if (a->i < a->argc) {
            a->value = a->argv[a->i++];
        } else {
            return usage_error(a, "%s needs a value", arg);
        }
        int id = fill(a, g, o, a->value);
        if (id != 0)
            return id;
    }
    return CLI_DONE;
}

int cli_parse_all(cli_args *a, cli_list *operands, size_t max, const char *what)
{
    for (int o; (o = cli_next(a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a->rc;
        if (operands->n == max)
            return cli_operand_error(a, what);
        if (!list_add(a, operands, a->arg, 0))
            return cli_nomem();
    }
    return -1;
}

int cli_operand_error(cli_args *a, const char *what)
{
    a->rc = cli_usage_error(a->cmd, "unexpected argument '%s' (%s; see sysdesc %s --help)",
                            a->arg, what, a->cmd);
    return a->rc;
}

/* ---- the options several commands share ---- */

static bool parse_runtimes(const char *value, void *field, char *msg, size_t size)
{
    dlti_error_t err;
    if (sysdesc_probe_runtimes_parse(value, field, &err) == 0)
        return true;
    snprintf(msg, size, "--runtimes: %.200s", err.text);
    return false;
}

bool cli_parse_format(const char *value, void *field, char *msg, size_t size)
{
    if (sysdesc_format_parse(value, field) == 0)
        return true;
    snprintf(msg, size, "unknown format '%s' (%s)", value, sysdesc_format_names());
    return false;
}

#define PROBE(member) CLI_AT(cli_probe_args, opts.member)
const cli_opt cli_io_opts[] = {
    {"--io", .kind = CLI_SET, PROBE(io), .set = SYSDESC_PROBE_IO_ON, .given = CLI_GIVEN_IO},
    {"--no-io", .kind = CLI_SET, PROBE(io), .set = SYSDESC_PROBE_IO_OFF, .given = CLI_GIVEN_IO},
    {0},
};

const cli_opt cli_runtime_opts[] = {
    {"--no-catalog", .kind = CLI_FLAG, CLI_AT(cli_probe_args, no_catalog)},
    {"--runtimes", .flags = CLI_VALUE_EQ, .kind = CLI_PARSE, PROBE(runtimes),
     .parse = parse_runtimes, .given = CLI_GIVEN_RUNTIME, .metavar = "LIST"},
    {"--no-cache", .kind = CLI_SET, PROBE(cache), .set = SYSDESC_PROBE_CACHE_OFF,
     .given = CLI_GIVEN_RUNTIME},
    {"--refresh-cache", .kind = CLI_SET, PROBE(cache), .set = SYSDESC_PROBE_CACHE_REFRESH,
     .given = CLI_GIVEN_RUNTIME},
    {"--runtime-timeout", .flags = CLI_VALUE_EQ, .kind = CLI_NUMBER, PROBE(runtime_timeout_ms),
     .min = 1, .max = 3600000, .what = "a number of milliseconds", .given = CLI_GIVEN_RUNTIME,
     .metavar = "MS"},
    {0},
};

/* this host's compilers and node: as its runtimes, not with --xml */
const cli_opt cli_host_opts[] = {
    {"--gcc", .flags = CLI_VALUE_EQ, .kind = CLI_STRING, PROBE(gcc), .given = CLI_GIVEN_RUNTIME,
     .metavar = "NAME"},
    {"--clang", .flags = CLI_VALUE_EQ, .kind = CLI_STRING, PROBE(clang),
     .given = CLI_GIVEN_RUNTIME, .metavar = "NAME"},
    {"--llc", .flags = CLI_VALUE_EQ, .kind = CLI_STRING, PROBE(llc), .given = CLI_GIVEN_RUNTIME,
     .metavar = "NAME"},
    {"--whole-node", .kind = CLI_FLAG, PROBE(whole_node)},
    {"--quiet", "-q", .kind = CLI_FLAG, PROBE(quiet)},
    {0},
};
#undef PROBE

/* bound to a sysdesc_format: its offset is 0 */
const cli_opt cli_format_opts[] = {
    {"--format", .flags = CLI_VALUE, .kind = CLI_PARSE, .size = sizeof(sysdesc_format),
     .parse = cli_parse_format, .metavar = "F", .usage = "--format mlir|attr|yaml|json"},
    {0},
};

/* how long sysdesc_measure_host() measures: measure and roofline */
const cli_opt cli_measure_mode_opts[] = {
    {"--quick", .kind = CLI_SET, CLI_AT(sysdesc_measure_options, mode),
     .set = SYSDESC_MEASURE_QUICK, .clash = "--quick and --full exclude each other",
     .help = "about a second: fewer, shorter samples, working sets of at\n"
             "most 64 MiB a thread (noisier; memory may be left out)"},
    {"--full", .kind = CLI_SET, CLI_AT(sysdesc_measure_options, mode),
     .set = SYSDESC_MEASURE_FULL, .clash = "--quick and --full exclude each other",
     .help = "about 7x longer: 101 samples a value rather than 15"},
    {0},
};

const cli_opt cli_check_opts[] = {
    {"--no-check", .kind = CLI_BITS, CLI_AT(sysdesc_yaml_options, flags),
     .set = SYSDESC_LOAD_NO_CHECK},
    {"--strict", .kind = CLI_BITS, CLI_AT(sysdesc_yaml_options, flags), .set = SYSDESC_LOAD_STRICT},
    {0},
};

/* The lenient transforms' (convert, attach, summary: docs/checks.md):
 * --no-check, --strict and --scope, with their help. */
const cli_opt cli_transform_opts[] = {
    {"--no-check", .kind = CLI_BITS, CLI_AT(sysdesc_yaml_options, flags),
     .set = SYSDESC_LOAD_NO_CHECK,
     .help = "take the input as written; by default it is checked against\n"
             "the device schema first (sysdesc check lists every problem);\n"
             "keys and device types it does not know, and values of\n"
             "another type than the schema's (kept as written), are\n"
             "warnings"},
    {"--strict", .kind = CLI_BITS, CLI_AT(sysdesc_yaml_options, flags),
     .set = SYSDESC_LOAD_STRICT, .help = "those are errors too, as in sysdesc check"},
    {"--scope", .flags = CLI_VALUE, .kind = CLI_STRING, CLI_AT(sysdesc_yaml_options, scope),
     .metavar = "OP",
     .help = "the op of an MLIR input whose DLTI is read, by symbol\n"
             "(outer/inner; / the top module); default: the top\n"
             "module's system spec, else the one op holding one, else\n"
             "the DLTI there is (a #dlti.map, a data layout alone,\n"
             "arrays of device specs), each attribute on its own"},
    {0},
};

/* bound to an unsigned of SYSDESC_PRINT_* bits: its offset is 0 */
const cli_opt cli_print_opts[] = {
    {"--typed", .kind = CLI_BITS, .size = sizeof(unsigned), .set = SYSDESC_PRINT_TYPED,
     .help = "json keeps MLIR's types ({\"type\": T, \"value\": V})"},
    {"--pretty", .kind = CLI_BITS, .size = sizeof(unsigned), .set = SYSDESC_PRINT_PRETTY,
     .help = "MLIR one DLTI entry a line, nested maps indented"},
    {"--inherent-dlti", .kind = CLI_BITS, .size = sizeof(unsigned), .set = SYSDESC_PRINT_INHERENT,
     .help = "MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
             "(MLIR 22 rejects it; sysdesc reads both forms)"},
    {0},
};

/* bound to a const char *: its offset is 0 */
const cli_opt cli_output_opts[] = {
    {"--output", "-o", .flags = CLI_VALUE, .kind = CLI_STRING, .size = sizeof(const char *),
     .usage = "-o FILE", .label = "-o FILE",
     .help = "write to FILE atomically (temporary file + rename; \"-\" is\n"
             "standard output; a device or FIFO is written in place)"},
    {0},
};
