/* sysdesc dl-import / dl-export: LLVM data layout strings <-> #dlti.dl_spec. */
#include "cli.h"
#include "sysdesc/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help import_help = {
    .operands = "[STRING]",
    .description =
        "Prints the #dlti.dl_spec that mlir-translate-22 --import-llvm attaches for\n"
        "the LLVM data layout STRING (LLVM's defaults included).  One of STRING,\n"
        "--triple or --list.\n",
    .status = "Exit status: 0 ok; 1 unknown triple; 2 malformed string or usage.\n",
};

static const cli_help export_help = {
    .operands = "FILE",
    .description =
        "Prints the LLVM data layout string of the #dlti.dl_spec of FILE (a bare\n"
        "spec, or the spec attached to the top module or to --scope's module; a\n"
        "YAML or typed JSON description's data_layout; a catalog name).\n",
    .status = "Exit status: 0 ok; 1 no spec found; 2 bad input, usage or entries that an\n"
              "LLVM string cannot express; 3 the file could not be read.\n",
};

static int print_spec(const char *str)
{
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    int rc;
    const dlti_attr *spec = dlti_llvm_dl_import(ctx, str, strlen(str), &err);
    if (!spec) {
        rc = cli_fail(cli_exit_code(err.code), "%s", err.text);
    } else {
        size_t len;
        char *text = dlti_attr_print(spec, &len);
        rc = text ? cli_write_stdout(text, len) : cli_nomem();
        if (rc == SYSDESC_EXIT_OK)
            rc = cli_write_stdout("\n", 1);
        free(text);
    }
    dlti_context_free(ctx);
    return rc;
}

typedef struct import_args {
    const char *triple;
    bool list;
} import_args;

static const cli_opt import_options[] = {
    {"--triple", .flags = CLI_VALUE, .kind = CLI_STRING, CLI_AT(import_args, triple),
     .metavar = "TRIPLE",
     .help = "the string of sysdesc's table of targets: the row of the\n"
             "same architecture, system and environment (the vendor and\n"
             "an Apple system's version aside: x86_64-apple-darwin23 is\n"
             "x86_64-apple-macosx), as LLVM's layout depends on them; a\n"
             "triple no row answers is an error that lists the\n"
             "architecture's rows"},
    {"--list", .kind = CLI_FLAG, CLI_AT(import_args, list),
     .help = "print the table as TRIPLE<TAB>STRING<TAB>SOURCE"},
    {0},
};

static int list_targets(void)
{
    for (size_t i = 0; i < dlti_target_dl_count(); i++) {
        const dlti_target_dl *t = dlti_target_dl_get(i);
        printf("%s\t%s\t%s\n", t->triple, t->layout, t->source);
    }
    return cli_write_stdout("", 0);
}

static int print_triple(const char *triple)
{
    dlti_error_t err;
    const dlti_target_dl *t = dlti_target_dl_find(triple, &err);
    if (!t)
        return cli_fail(cli_exit_code(err.code), "%s", err.text);
    return print_spec(t->layout);
}

int cmd_dl_import(int argc, char **argv)
{
    import_args d = {0};
    cli_list string = {0};
    cli_args a;
    cli_args_init(&a, "dl-import", &import_help,
                  (const cli_group[]){{.opts = import_options, .base = &d}, {0}}, argc, argv);
    int rc = cli_parse_all(&a, &string, 1, "one STRING");
    if (rc < 0 && d.list + !!d.triple + string.n != 1)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "dl-import: expected one STRING, --triple TRIPLE "
                                              "or --list (see sysdesc dl-import --help)");
    if (rc < 0)
        rc = d.list ? list_targets() : d.triple ? print_triple(d.triple) : print_spec(string.v[0]);
    cli_args_free(&a);
    return rc;
}

static const cli_opt export_options[] = {
    {"--scope", .flags = CLI_VALUE, .kind = CLI_STRING, .size = sizeof(const char *),
     .metavar = "NAME/NAME", .help = "the nested named module (or op) whose spec is printed"},
    {0},
};

/* The #dlti.dl_spec of the scope `scope_path` of `path`, or the exit code
 * after saying why there is none. */
static int find_dl_spec(dlti_context *ctx, const char *path, const char *scope_path,
                        const dlti_attr **spec)
{
    dlti_error_t err;
    /* Any description query reads (sysdesc_system_load: MLIR, YAML, typed
     * JSON, a catalog name). */
    sysdesc_yaml_options opts = {.flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE};
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, path, &opts, &sys, &err) != 0)
        return cli_report(&err);
    const dlti_scope *root = sys.module;
    const dlti_scope *scope = root ? dlti_scope_find(root, scope_path, &err) : NULL;
    if (!root && scope_path[0])
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "dl-export: --scope needs an MLIR module; %s is "
                        "one system spec", path);
    if (root && !scope)
        return cli_fail(SYSDESC_EXIT_NOT_FOUND, "%s", err.text);
    *spec = root ? NULL : sys.dl_spec;
    for (size_t k = 0; scope && k < dlti_scope_num_attrs(scope) && !*spec; k++)
        if (dlti_attr_get_kind(dlti_scope_attr_value(scope, k)) == DLTI_ATTR_DL_SPEC)
            *spec = dlti_scope_attr_value(scope, k);
    if (!*spec)
        return cli_fail(SYSDESC_EXIT_NOT_FOUND, "no #dlti.dl_spec in the scope");
    return -1;
}

static int print_dl_string(const dlti_attr *spec)
{
    dlti_error_t err;
    char *s = dlti_llvm_dl_export(spec, &err);
    if (!s)
        return cli_fail(cli_exit_code(err.code), "%s", err.text);
    int rc = cli_write_stdout(s, strlen(s));
    if (rc == SYSDESC_EXIT_OK)
        rc = cli_write_stdout("\n", 1);
    free(s);
    return rc;
}

int cmd_dl_export(int argc, char **argv)
{
    const char *scope_path = "";
    const dlti_attr *spec = NULL;
    cli_list path = {0};
    cli_args a;
    cli_args_init(&a, "dl-export", &export_help,
                  (const cli_group[]){{.opts = export_options, .base = &scope_path}, {0}},
                  argc, argv);
    int rc = cli_parse_all(&a, &path, 1, "one FILE");
    if (rc < 0 && !path.n)
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "dl-export: expected one FILE (see sysdesc dl-export --help)");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0 && !ctx)
        rc = cli_nomem();
    if (rc < 0 && (rc = find_dl_spec(ctx, path.v[0], scope_path, &spec)) < 0)
        rc = print_dl_string(spec);
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
