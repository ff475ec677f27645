/* sysdesc attach: a system's DLTI attributes onto a real MLIR file. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const cli_help help = {
    .operands = "SPEC IN.mlir",
    .description =
        "Puts the system of SPEC (YAML, MLIR or a catalog name such as\n"
        "nvidia/h100-sxm) on the top-level module of IN.mlir (\"-\" for standard\n"
        "input), a file as compiler drivers hold it (func.func, gpu.module, ...):\n"
        "its dlti.target_system_spec, its dlti.dl_spec when it has one, and the\n"
        "llvm.target of SPEC's module when it has one; an MLIR SPEC without a\n"
        "system spec gives its other DLTI (a #dlti.map, arrays of device specs)\n"
        "under their names.  Nothing else of IN changes, byte for byte (comments,\n"
        "blank space, CRLF line ends).\n"
        "\n"
        "An attribute already there is replaced where it stands, with a warning;\n"
        "--merge merges the system spec instead, by MLIR's setDlti rules (a device\n"
        "already there is replaced where it stands, a new one is appended).  A\n"
        "file with no top-level module (MLIR wraps its operations in an implicit\n"
        "one) gets an explicit `module attributes {...} {` around them, with a\n"
        "warning.\n",
    .status = "Exit status: 0 written; 1 SPEC is no file and no catalog entry (the\n"
              "nearest names suggested); 2 bad input or usage (FILE:LINE:COL: error:\n"
              "...); 3 unreadable file or failed write.\n",
};

typedef struct attach_args {
    unsigned flags; /* SYSDESC_ATTACH_* */
    const char *out;
    sysdesc_yaml_options load;
} attach_args;

#define AT(member) CLI_AT(attach_args, member)
static const cli_opt options[] = {
    {"--merge", .kind = CLI_BITS, AT(flags), .set = SYSDESC_ATTACH_MERGE},
    {"--inherent-dlti", .kind = CLI_BITS, AT(flags), .set = SYSDESC_ATTACH_INHERENT,
     .help = "write MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
             "(MLIR 22 rejects it) instead of MLIR 22's\n"
             "`dlti.target_system_spec = ...`"},
    {"--pretty", .kind = CLI_BITS, AT(flags), .set = SYSDESC_ATTACH_PRETTY,
     .help = "one DLTI entry a line"},
    {"--output", "-o", .flags = CLI_VALUE, .kind = CLI_STRING, AT(out), .usage = "-o OUT",
     .label = "-o OUT",
     .help = "write OUT atomically (temporary file + rename; may be\n"
             "IN itself); default: standard output"},
    {0},
};
#undef AT

/* What sysdesc_attach_file() did that the user should hear of, by bit. */
static const struct {
    unsigned bit;
    const char *text; /* %s: IN */
} attach_warnings[] = {
    {SYSDESC_ATTACHED_REPLACED_SPEC,
     "replaced the dlti.target_system_spec of %s (--merge merges instead)"},
    {SYSDESC_ATTACHED_MERGED_SPEC, "merged into the target system spec of %s"},
    {SYSDESC_ATTACHED_REPLACED_DL_SPEC,
     "replaced the data layout spec of %s (MLIR's setDlti never edits a #dlti.dl_spec in "
     "place: it is replaced even with --merge)"},
    {SYSDESC_ATTACHED_REPLACED_TARGET, "replaced the llvm.target of %s"},
    {SYSDESC_ATTACHED_REPLACED_DLTI,
     "replaced DLTI attributes of %s of the names SPEC gives them (--merge merges a "
     "#dlti.map instead)"},
    {SYSDESC_ATTACHED_MERGED_DLTI, "merged into a #dlti.map of %s"},
    {SYSDESC_ATTACHED_WRAPPED,
     "%s has no top-level module: its operations were wrapped in an explicit `module "
     "attributes {...} {...}` (the module MLIR makes implicitly)"},
};

/* Says on stderr what `what` (SYSDESC_ATTACHED_* bits) did to `in`. */
static void warn_attached(unsigned what, const char *in)
{
    for (size_t i = 0; i < sizeof attach_warnings / sizeof attach_warnings[0]; i++) {
        if (!(what & attach_warnings[i].bit))
            continue;
        char line[2048];
        snprintf(line, sizeof(line), attach_warnings[i].text, in);
        cli_diag("sysdesc: warning: attach: %s", line);
    }
}

/* Whether the two paths name one existing file (links followed). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* SPEC loaded and put on IN, written to -o's file or stdout. */
static int attach(dlti_context *ctx, const attach_args *x, const char *spec, const char *in)
{
    dlti_error_t err;
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, spec, &x->load, &sys, &err) < 0)
        return cli_report(&err);
    unsigned what;
    size_t len;
    /* An MLIR SPEC's module may carry the target's llvm.target too. */
    char *text = sysdesc_attach_file(ctx, in, &sys, sys.llvm_target, x->flags, &what, &len, &err);
    if (!text)
        return cli_report(&err);
    warn_attached(what, in);
    int rc = cli_output(text, len, x->out);
    free(text);
    return rc;
}

/* The operands checked; -1 when fine. */
static int check_operands(const cli_list *ops)
{
    if (ops->n < 2)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "attach: missing %s (see sysdesc attach --help)",
                        ops->n ? "IN.mlir" : "SPEC");
    if (strcmp(ops->v[0], "-") == 0 && strcmp(ops->v[1], "-") == 0)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "attach: SPEC and IN.mlir cannot both be standard input");
    return -1;
}

int cmd_attach(int argc, char **argv)
{
    attach_args x = {0};
    cli_load_options_init(&x.load);
    x.load.flags |= SYSDESC_LOAD_LENIENT; /* a transform: docs/checks.md */
    cli_list ops = {0};
    cli_args a;
    cli_args_init(&a, "attach", &help,
                  (const cli_group[]){{.opts = options, .base = &x},
                                      {.opts = cli_transform_opts, .base = &x.load},
                                      {0}}, argc, argv);
    int rc = cli_parse_all(&a, &ops, 2, "SPEC and IN.mlir only");
    if (rc < 0)
        rc = check_operands(&ops);
    /* -o F with F an input too: a read-modify-write, which several attach
     * --merge runs may do at once; each holds F from its read to its write,
     * so none loses another's devices. */
    int lock = -1;
    char msg[600];
    if (rc < 0 && x.out && (same_file(x.out, ops.v[0]) || same_file(x.out, ops.v[1])) &&
        (lock = cli_lock_file(x.out, msg, sizeof(msg))) < 0)
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "attach: %s", msg);
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0)
        rc = ctx ? attach(ctx, &x, ops.v[0], ops.v[1]) : cli_nomem();
    dlti_context_free(ctx);
    if (lock >= 0)
        close(lock);
    cli_args_free(&a);
    return rc;
}
