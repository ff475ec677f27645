/* sysdesc dl-import / dl-export: LLVM data layout strings <-> #dlti.dl_spec. */
#include "cli.h"
#include "sysdesc/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char import_usage[] =
    "usage: sysdesc dl-import STRING\n"
    "       sysdesc dl-import --triple TRIPLE\n"
    "       sysdesc dl-import --list\n"
    "\n"
    "Prints the #dlti.dl_spec that mlir-translate-22 --import-llvm attaches for\n"
    "the LLVM data layout STRING (LLVM's defaults included).  --triple takes the\n"
    "string from sysdesc's table of targets: the row of the same architecture,\n"
    "system and environment (the vendor and an Apple system's version aside:\n"
    "x86_64-apple-darwin23 is x86_64-apple-macosx), as LLVM's layout depends on\n"
    "them; a triple no row answers is an error that lists the architecture's\n"
    "rows.  --list prints the table as TRIPLE<TAB>STRING<TAB>SOURCE.\n"
    "\n"
    "Exit status: 0 ok; 1 unknown triple; 2 malformed string or usage.\n";

static const char export_usage[] =
    "usage: sysdesc dl-export [--scope NAME/NAME] FILE\n"
    "\n"
    "Prints the LLVM data layout string of the #dlti.dl_spec of FILE (a bare\n"
    "spec, or the spec attached to the top module or to --scope's module; a\n"
    "YAML or typed JSON description's data_layout; a catalog name).\n"
    "\n"
    "Exit status: 0 ok; 1 no spec found; 2 bad input, usage or entries that an\n"
    "LLVM string cannot express; 3 the file could not be read.\n";

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

enum { OPT_LIST = 1, OPT_TRIPLE, OPT_SCOPE };
static const cli_opt import_options[] = {
    {"--list", NULL, OPT_LIST, 0},
    {"--triple", NULL, OPT_TRIPLE, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_dl_import(int argc, char **argv)
{
    const char *string = NULL, *triple = NULL;
    bool list = false;
    cli_args a;
    cli_args_init(&a, "dl-import", import_usage, (const cli_opt *const[]){import_options, NULL},
                  argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == OPT_LIST)
            list = true;
        else if (o == OPT_TRIPLE)
            triple = a.value;
        else if (string)
            return cli_operand_error(&a, "one STRING");
        else
            string = a.arg;
    }
    if (list + !!triple + !!string != 1)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "dl-import: expected one STRING, --triple TRIPLE "
                                                "or --list (see sysdesc dl-import --help)");
    if (list) {
        for (size_t i = 0; i < dlti_target_dl_count(); i++) {
            const dlti_target_dl *t = dlti_target_dl_get(i);
            printf("%s\t%s\t%s\n", t->triple, t->layout, t->source);
        }
        return cli_write_stdout("", 0);
    }
    if (triple) {
        dlti_error_t err;
        const dlti_target_dl *t = dlti_target_dl_find(triple, &err);
        if (!t)
            return cli_fail(cli_exit_code(err.code), "%s", err.text);
        return print_spec(t->layout);
    }
    return print_spec(string);
}

static const cli_opt export_options[] = {
    {"--scope", NULL, OPT_SCOPE, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_dl_export(int argc, char **argv)
{
    const char *scope_path = "", *path = NULL;
    cli_args a;
    cli_args_init(&a, "dl-export", export_usage, (const cli_opt *const[]){export_options, NULL},
                  argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == OPT_SCOPE)
            scope_path = a.value;
        else if (path)
            return cli_operand_error(&a, "one FILE");
        else
            path = a.arg;
    }
    if (!path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "dl-export: expected one FILE (see sysdesc dl-export --help)");
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    int rc = SYSDESC_EXIT_OK;
    /* Any description query reads (sysdesc_system_load: MLIR, YAML, typed
     * JSON, a catalog name). */
    sysdesc_yaml_options opts = {.flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE};
    sysdesc_system sys;
    bool loaded = sysdesc_system_load(ctx, path, &opts, &sys, &err) == 0;
    const dlti_scope *root = loaded ? sys.module : NULL;
    const dlti_scope *scope = root ? dlti_scope_find(root, scope_path, &err) : NULL;
    if (!loaded) {
        rc = cli_report(&err);
    } else if (!root && scope_path[0]) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "dl-export: --scope needs an MLIR module; %s is "
                      "one system spec", path);
    } else if (root && !scope) {
        rc = cli_fail(SYSDESC_EXIT_NOT_FOUND, "%s", err.text);
    } else {
        const dlti_attr *spec = root ? NULL : sys.dl_spec;
        for (size_t k = 0; scope && k < dlti_scope_num_attrs(scope) && !spec; k++)
            if (dlti_attr_get_kind(dlti_scope_attr_value(scope, k)) == DLTI_ATTR_DL_SPEC)
                spec = dlti_scope_attr_value(scope, k);
        char *s = spec ? dlti_llvm_dl_export(spec, &err) : NULL;
        if (!spec)
            rc = cli_fail(SYSDESC_EXIT_NOT_FOUND, "no #dlti.dl_spec in the scope");
        else if (!s)
            rc = cli_fail(cli_exit_code(err.code), "%s", err.text);
        else {
            rc = cli_write_stdout(s, strlen(s));
            if (rc == SYSDESC_EXIT_OK)
                rc = cli_write_stdout("\n", 1);
        }
        free(s);
    }
    dlti_context_free(ctx);
    return rc;
}
