/* sysdesc uarch: the probe's microarchitecture table by name (sysdesc/uarch.h):
 * its names, or the CPU identity keys one implies, ready for a catalog entry. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const cli_help help = {
    .operands = "[NAME]",
    .description =
        "The microarchitecture table the probe recognises CPUs with (archspec's\n"
        "names and compiler entries, LLVM's Host.cpp names, GCC release notes).\n"
        "Without NAME: its names, one a line.  With NAME (zen4, sapphirerapids,\n"
        "neoverse_v2): the CPU identity keys the probe writes for that\n"
        "microarchitecture, as a device \"CPU\": uarch, uarch_ancestors (nearest\n"
        "first), triple, and compiler: for gcc and clang the flags of the newest\n"
        "entry with its version range and the fallback for older compilers, and\n"
        "llvm.cpu.  A catalog CPU entry copies them (docs/catalog.md).\n",
    .status = "Exit status: 0 ok; 1 unknown NAME (the nearest name suggested);\n"
              "2 bad usage; 3 failed write.\n",
};

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

/* A compiler version as the table's ranges hold them: digits and dots. */
static bool parse_version(const char *option, const char *v, void *field, char *msg, size_t size)
{
    if (v[0] < '0' || v[0] > '9' || strspn(v, "0123456789.") != strlen(v)) {
        snprintf(msg, size, "%s: '%.100s' is not a version such as 12.2.0", option, v);
        return false;
    }
    *(const char **)field = v;
    return true;
}

static bool parse_gcc_version(const char *value, void *field, char *msg, size_t size)
{
    return parse_version("--gcc-version", value, field, msg, size);
}

static bool parse_clang_version(const char *value, void *field, char *msg, size_t size)
{
    return parse_version("--clang-version", value, field, msg, size);
}

typedef struct uarch_args {
    sysdesc_format format;
    const char *gcc, *clang; /* versions */
    unsigned given;
} uarch_args;

enum { GIVEN_FORMAT = 1 };
#define AT(member) CLI_AT(uarch_args, member)
static const cli_opt options[] = {
    {"--format", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(format), .parse = cli_parse_format,
     .given = GIVEN_FORMAT, .usage = "--format mlir|attr|yaml|json", .label = "--format F",
     .help = "mlir, attr, yaml (default) or json; with NAME only"},
    {"--gcc-version", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(gcc), .parse = parse_gcc_version,
     .metavar = "V", .label = "--gcc-version V, --clang-version V",
     .help = "\nthe flags for that compiler version instead of the newest:\n"
             "the first entry of the chain (the row's own entries, then\n"
             "each ancestor's, down to the generic row) whose range holds\n"
             "V, as the probe gives an installed compiler of that version\n"
             "(which it also asks to compile them)"},
    {"--clang-version", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(clang),
     .parse = parse_clang_version, .metavar = "V"},
    {0},
};
#undef AT

int cmd_uarch(int argc, char **argv)
{
    uarch_args u = {.format = SYSDESC_FORMAT_YAML};
    cli_list name = {0};
    cli_args a;
    cli_args_init(&a, "uarch", &help,
                  (const cli_group[]){{.opts = options, .base = &u, .given = &u.given}, {0}},
                  argc, argv);
    int rc = cli_parse_all(&a, &name, 1, "at most one NAME");
    if (rc < 0 && !name.n && (u.given & GIVEN_FORMAT))
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "uarch: --format needs a NAME (the list is plain text)");
    if (rc < 0 && !name.n && (u.gcc || u.clang))
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "uarch: --gcc-version and --clang-version need a NAME");
    if (rc < 0)
        rc = name.n ? show_keys(name.v[0], u.format, u.gcc, u.clang) : list_names();
    cli_args_free(&a);
    return rc;
}
