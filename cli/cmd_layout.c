/* sysdesc layout: data layout queries, as mlir-opt's --test-data-layout-query. */
#include "cli.h"
#include "sysdesc/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "FILE [TYPE...]",
    .description =
        "Answers data layout queries in the scope of FILE (\"-\" for standard input;\n"
        "MLIR, YAML, typed JSON or a catalog name, as query reads them; --scope\n"
        "picks a nested named module of an MLIR file, or an op with DLTI attributes\n"
        "by its symbol; a YAML or JSON description's scope is its data_layout).\n"
        "The scope's #dlti.dl_spec is combined with those of the enclosing modules\n"
        "(and gpu.modules), as MLIR does.  For each TYPE prints\n"
        "  TYPE: size = S, bitsize = B, alignment = A, preferred = P, index = I\n"
        "(bytes, bits, ABI and preferred alignment in bytes, index bitwidth or 0),\n"
        "with \"vscale x N\" sizes for scalable vectors.  Without TYPEs, prints the\n"
        "scope-wide properties (endianness, memory spaces, stack alignment, ...) one\n"
        "per line as `name = value` in canonical MLIR.\n"
        "\n"
        "Every TYPE is answered or gets its own error line.\n",
    .status = "Exit status: 0 ok; 1 a value out of range; 2 bad input, usage, or a type\n"
              "without a data layout; 3 the file could not be read (the first failing\n"
              "TYPE's status when some are not answered).\n",
};

static const cli_opt options[] = {
    {"--scope", .flags = CLI_VALUE, .kind = CLI_STRING, .size = sizeof(const char *),
     .metavar = "NAME/NAME"},
    {0},
};

static int print_type(const dlti_layout *L, dlti_context *ctx, const char *arg)
{
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(ctx, arg, strlen(arg), &err);
    if (!t)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "invalid type '%s': %s", arg, err.text);
    dlti_type_layout r;
    if (dlti_layout_query(L, t, &r, &err) != 0)
        return cli_fail(cli_exit_code(err.code), "%s", err.text);
    const char *v = r.scalable ? "vscale x " : "";
    /* Write errors surface in the final flush (cli_write_stdout). */
    printf("%s: size = %s%llu, bitsize = %s%llu, alignment = %llu, preferred = %llu, index = %llu\n",
           dlti_type_str(t), v, (unsigned long long)r.size, v, (unsigned long long)r.bitsize,
           (unsigned long long)r.abi_alignment, (unsigned long long)r.preferred_alignment,
           (unsigned long long)r.index_bitwidth);
    return SYSDESC_EXIT_OK;
}

static int print_props(const dlti_layout *L)
{
    for (int p = 0; p < DLTI_LAYOUT_NUM_PROPS; p++) {
        dlti_error_t err;
        char *v = dlti_layout_prop_print(L, (dlti_layout_prop)p, &err);
        if (!v)
            return cli_fail(cli_exit_code(err.code), "%s", err.text);
        printf("%s = %s\n", dlti_layout_prop_name((dlti_layout_prop)p), v);
        free(v);
    }
    return SYSDESC_EXIT_OK;
}

/* The layout of scope `scope_path` of `path` into *L, or the exit code
 * after saying why there is none. */
static int load_layout(dlti_context *ctx, const char *path, const char *scope_path,
                       dlti_layout **L)
{
    dlti_error_t err;
    /* Any description query reads (MLIR, YAML, typed JSON, a catalog
     * name).  The parser already rejects nested specs that do not combine,
     * with MLIR's message and notes at the right lines. */
    sysdesc_yaml_options opts = {.flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE};
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, path, &opts, &sys, &err) < 0)
        return cli_report(&err);
    const dlti_scope *root = sys.module;
    cli_warn_unread(path, root);
    if (!root && scope_path[0])
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "layout: --scope needs an MLIR module; %s is "
                        "one system spec", path);
    const dlti_scope *scope = root ? dlti_scope_find(root, scope_path, &err) : NULL;
    if (root && !scope)
        return cli_fail(SYSDESC_EXIT_NOT_FOUND, "%s", err.text);
    /* A description's data_layout is its one scope's layout. */
    *L = scope ? dlti_layout_new(scope, &err) : dlti_layout_from_spec(sys.dl_spec, &err);
    return *L ? -1 : cli_report(&err);
}

/* Every TYPE is answered or gets its own error line (the first failure
 * used to skip the rest silently); the exit status is the first failure's,
 * and a last line says how many were not answered. */
static int print_types(const dlti_layout *L, dlti_context *ctx, char **types, int n)
{
    int rc = SYSDESC_EXIT_OK, failed = 0;
    for (int i = 0; i < n; i++) {
        int r = print_type(L, ctx, types[i]);
        if (r != SYSDESC_EXIT_OK && failed++ == 0)
            rc = r;
    }
    if (failed && n > 1)
        cli_fail(rc, "layout: %d of %d types not answered (each error above names its type)",
                 failed, n);
    return rc;
}

int cmd_layout(int argc, char **argv)
{
    const char *scope_path = "";
    cli_args a;
    cli_args_init(&a, "layout", &help,
                  (const cli_group[]){{.opts = options, .base = &scope_path}, {0}}, argc, argv);
    a.posix = true; /* types may start with '-' */
    int o = cli_next(&a), i = a.i - 1; /* FILE */
    if (o == CLI_EXIT)
        return a.rc;
    if (o == CLI_DONE)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "layout: missing FILE (see sysdesc layout --help)");
    dlti_context *ctx = cli_context_new();
    dlti_layout *L = NULL;
    if (!ctx)
        return cli_nomem();
    int rc = load_layout(ctx, argv[i], scope_path, &L);
    if (rc < 0) {
        rc = i + 1 < argc ? print_types(L, ctx, argv + i + 1, argc - i - 1) : print_props(L);
        int out_rc = cli_write_stdout("", 0);
        rc = rc == SYSDESC_EXIT_OK ? out_rc : rc;
    }
    dlti_layout_free(L);
    dlti_context_free(ctx);
    return rc;
}
