/* sysdesc uarch: the probe's microarchitecture table by name (sysdesc/uarch.h):
 * its names, or the CPU identity keys one implies, ready for a catalog entry. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc uarch [--format mlir|attr|yaml|json] [--gcc-version V]\n"
    "                     [--clang-version V] [NAME]\n"
    "\n"
    "The microarchitecture table the probe recognises CPUs with (archspec's\n"
    "names and compiler entries, LLVM's Host.cpp names, GCC release notes).\n"
    "Without NAME: its names, one a line.  With NAME (zen4, sapphirerapids,\n"
    "neoverse_v2): the CPU identity keys the probe writes for that\n"
    "microarchitecture, as a device \"CPU\": uarch, uarch_ancestors (nearest\n"
    "first), triple, and compiler: for gcc and clang the flags of the newest\n"
    "entry with its version range and the fallback for older compilers, and\n"
    "llvm.cpu.  A catalog CPU entry copies them (docs/catalog.md).\n"
    "  --format F  mlir, attr, yaml (default) or json; with NAME only\n"
    "  --gcc-version V, --clang-version V  the flags for that compiler version\n"
    "              instead of the newest: the first entry of the chain (the row's\n"
    "              own entries, then each ancestor's, down to the generic row)\n"
    "              whose range holds V, as the probe gives an installed\n"
    "              compiler of that version (which it also asks to compile them)\n"
    "\n"
    "Exit status: 0 ok; 1 unknown NAME (the nearest name suggested);\n"
    "2 bad usage; 3 failed write.\n";

static int list_names(void)
{
    for (size_t i = 0; i < sysdesc_uarch_count(); i++)
        printf("%s\n", sysdesc_uarch_name(i));
    return cli_write_stdout("", 0);
}

/* A system of one device "CPU" holding the map's entries, so that every
 * format prints it as a description does. */
static const dlti_attr *as_cpu_system(dlti_context *ctx, const dlti_attr *keys,
                                      dlti_error_t *err)
{
    dlti_entry e[8];
    size_t n = dlti_attr_size(keys);
    if (n > sizeof(e) / sizeof(e[0]))
        n = sizeof(e) / sizeof(e[0]); /* four keys: uarch, uarch_ancestors, triple, compiler */
    for (size_t i = 0; i < n; i++) {
        e[i].key = dlti_attr_entry_key(keys, i);
        e[i].value = dlti_attr_entry_value(keys, i);
    }
    const dlti_attr *dev = dlti_container_new(ctx, DLTI_ATTR_DEVICE_SPEC, e, n, err);
    if (!dev)
        return NULL;
    dlti_entry cpu = {dlti_key_string(ctx, "CPU", 3), dev};
    return cpu.key ? dlti_container_new(ctx, DLTI_ATTR_SYSTEM_SPEC, &cpu, 1, err) : NULL;
}

static int show_keys(const char *name, sysdesc_format format, const char *gcc,
                     const char *clang)
{
    dlti_context *ctx = cli_context_new();
    if (!ctx)
        return cli_nomem();
    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    err.code = DLTI_ERROR_NOMEM; /* a NULL that set no error: dlti_key_string */
    snprintf(err.text, sizeof(err.text), "out of memory");
    const dlti_attr *keys = sysdesc_uarch_keys_for(ctx, name, gcc, clang, &err);
    sysdesc_system sys = {0};
    sys.spec = keys ? as_cpu_system(ctx, keys, &err) : NULL;
    int rc = sys.spec ? cli_output_system(&sys, format, 0, NULL)
                      : cli_fail(cli_exit_code(err.code), "uarch: %s", err.text);
    dlti_context_free(ctx);
    return rc;
}

enum { OPT_FORMAT = 1, OPT_GCC_VERSION, OPT_CLANG_VERSION };
static const cli_opt options[] = {
    {"--format", NULL, OPT_FORMAT, CLI_VALUE},
    {"--gcc-version", NULL, OPT_GCC_VERSION, CLI_VALUE},
    {"--clang-version", NULL, OPT_CLANG_VERSION, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

int cmd_uarch(int argc, char **argv)
{
    const char *name = NULL;
    const char *format_name = NULL;
    const char *version[2] = {NULL, NULL}; /* gcc, clang */
    cli_args a;
    cli_args_init(&a, "uarch", usage, (const cli_opt *const[]){options, NULL}, argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == OPT_FORMAT) {
            format_name = a.value;
        } else if (o == OPT_GCC_VERSION || o == OPT_CLANG_VERSION) {
            const char *v = a.value;
            if (v[0] < '0' || v[0] > '9' || strspn(v, "0123456789.") != strlen(v))
                return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                                "uarch: %s: '%.100s' is not a version such as 12.2.0",
                                o == OPT_GCC_VERSION ? "--gcc-version" : "--clang-version", v);
            version[o == OPT_CLANG_VERSION] = v;
        } else if (name) {
            return cli_operand_error(&a, "at most one NAME");
        } else {
            name = a.arg;
        }
    }
    sysdesc_format format = SYSDESC_FORMAT_YAML;
    if (format_name) {
        int rc = cli_format_option("uarch", format_name, &format);
        if (rc >= 0)
            return rc;
        if (!name)
            return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                            "uarch: --format needs a NAME (the list is plain text)");
    }
    if (!name && (version[0] || version[1]))
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "uarch: --gcc-version and --clang-version need a NAME");
    return name ? show_keys(name, format, version[0], version[1]) : list_names();
}
