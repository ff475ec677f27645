/* sysdesc attach: a system's DLTI attributes onto a real MLIR file. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "usage: sysdesc attach [--merge] [--inherent-dlti] [--pretty]\n"
    "                      [--no-check|--strict] [--scope OP] [-o OUT] SPEC IN.mlir\n"
    "\n"
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
    "warning.\n"
    "\n"
    "  --inherent-dlti  write MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
    "                   (MLIR 22 rejects it) instead of MLIR 22's\n"
    "                   `dlti.target_system_spec = ...`\n"
    "  --pretty         one DLTI entry a line\n"
    "  --no-check       attach SPEC as written (default: checked against the\n"
    "                   device schema first; keys it does not know and values\n"
    "                   of another type, kept as written, are warnings)\n"
    "  --strict         those are errors, as in check\n"
    "  --scope OP       the op of an MLIR SPEC whose DLTI is attached (outer/inner;\n"
    "                   / the top module); default: the top module's system\n"
    "                   spec, else the one op holding one, else the DLTI there\n"
    "                   is (a #dlti.map, a data layout alone, arrays of device\n"
    "                   specs), each attribute under its own name\n"
    "  -o OUT           write OUT atomically (temporary file + rename; may be\n"
    "                   IN itself); default: standard output\n"
    "\n"
    "Exit status: 0 written; 1 SPEC is no file and no catalog entry (the\n"
    "nearest names suggested); 2 bad input or usage (FILE:LINE:COL: error:\n"
    "...); 3 unreadable file or failed write.\n";

static void warn(const char *fmt, const char *in)
{
    char line[2048];
    snprintf(line, sizeof(line), fmt, in);
    cli_diag("sysdesc: warning: attach: %s", line);
}

enum { OPT_OUT = 1, OPT_MERGE, OPT_INHERENT, OPT_PRETTY, OPT_SCOPE };
static const cli_opt options[] = {
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {"--scope", NULL, OPT_SCOPE, CLI_VALUE},
    {"--merge", NULL, OPT_MERGE, 0},
    {"--inherent-dlti", NULL, OPT_INHERENT, 0},
    {"--pretty", NULL, OPT_PRETTY, 0},
    {NULL, NULL, 0, 0},
};

/* Whether the two paths name one existing file (links followed). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cmd_attach(int argc, char **argv)
{
    const char *operands[2] = {NULL, NULL}, *out = NULL;
    int nops = 0;
    unsigned flags = 0;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    load_opts.flags |= SYSDESC_LOAD_LENIENT; /* a transform: docs/checks.md */
    cli_args a;
    cli_args_init(&a, "attach", usage, (const cli_opt *const[]){options, cli_check_opts, NULL},
                  argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (o == CLI_OPERAND) {
            if (nops == 2)
                return cli_operand_error(&a, "SPEC and IN.mlir only");
            operands[nops++] = a.arg;
        } else if (o == OPT_OUT) {
            out = a.value;
        } else if (o == OPT_SCOPE) {
            load_opts.scope = a.value;
        } else if (o == OPT_MERGE) {
            flags |= SYSDESC_ATTACH_MERGE;
        } else if (o == OPT_INHERENT) {
            flags |= SYSDESC_ATTACH_INHERENT;
        } else if (o == OPT_PRETTY) {
            flags |= SYSDESC_ATTACH_PRETTY;
        } else {
            cli_description_take(o, &load_opts, NULL);
        }
    }
    if (nops < 2)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "attach: missing %s (see sysdesc attach --help)", nops ? "IN.mlir" : "SPEC");
    if (strcmp(operands[0], "-") == 0 && strcmp(operands[1], "-") == 0)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "attach: SPEC and IN.mlir cannot both be standard input");
    /* -o F with F an input too: a read-modify-write, which several attach
     * --merge runs may do at once; each holds F from its read to its write,
     * so none loses another's devices. */
    int lock = -1;
    if (out && (same_file(out, operands[0]) || same_file(out, operands[1]))) {
        char msg[600];
        if ((lock = cli_lock_file(out, msg, sizeof(msg))) < 0)
            return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "attach: %s", msg);
    }
    dlti_context *ctx = cli_context_new();
    if (!ctx) {
        if (lock >= 0)
            close(lock);
        return cli_nomem();
    }
    dlti_error_t err;
    sysdesc_system sys;
    int rc;
    if (sysdesc_system_load(ctx, operands[0], &load_opts, &sys, &err) < 0) {
        rc = cli_report(&err);
    } else {
        /* An MLIR SPEC's module may carry the target's llvm.target too. */
        const dlti_attr *target = sys.llvm_target;
        unsigned what;
        size_t len;
        char *text = sysdesc_attach_file(ctx, operands[1], &sys, target, flags, &what, &len, &err);
        if (!text) {
            rc = cli_report(&err);
        } else {
            const char *in = operands[1];
            if (what & SYSDESC_ATTACHED_REPLACED_SPEC)
                warn("replaced the dlti.target_system_spec of %s (--merge merges instead)", in);
            if (what & SYSDESC_ATTACHED_MERGED_SPEC)
                warn("merged into the target system spec of %s", in);
            if (what & SYSDESC_ATTACHED_REPLACED_DL_SPEC)
                warn("replaced the data layout spec of %s (MLIR's setDlti never edits a "
                     "#dlti.dl_spec in place: it is replaced even with --merge)", in);
            if (what & SYSDESC_ATTACHED_REPLACED_TARGET)
                warn("replaced the llvm.target of %s", in);
            if (what & SYSDESC_ATTACHED_REPLACED_DLTI)
                warn("replaced DLTI attributes of %s of the names SPEC gives them (--merge "
                     "merges a #dlti.map instead)", in);
            if (what & SYSDESC_ATTACHED_MERGED_DLTI)
                warn("merged into a #dlti.map of %s", in);
            if (what & SYSDESC_ATTACHED_WRAPPED)
                warn("%s has no top-level module: its operations were wrapped in an explicit "
                     "`module attributes {...} {...}` (the module MLIR makes implicitly)", in);
            rc = cli_output(text, len, out);
            free(text);
        }
    }
    dlti_context_free(ctx);
    if (lock >= 0)
        close(lock);
    return rc;
}
