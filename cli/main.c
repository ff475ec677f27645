/* sysdesc: describe heterogeneous computers as MLIR DLTI target system specs. */
#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>


static const sysdesc_command commands[] = {
    {"fmt", "parse, verify and print canonical MLIR", cmd_fmt},
    {"query", "answer a key path (CPU cache L1 size_in_bytes) from a file", cmd_query},
    {"probe", "describe this host (or hwloc XML topologies) as a system spec", cmd_probe},
    {"layout", "type sizes and alignments in a scope (--test-data-layout-query)", cmd_layout},
    {"dl-import", "LLVM data layout string or target triple -> #dlti.dl_spec", cmd_dl_import},
    {"dl-export", "#dlti.dl_spec of a file -> LLVM data layout string", cmd_dl_export},
    {"convert", "print a YAML or MLIR description as mlir, attr, yaml or json", cmd_convert},
    {"compose", "compose descriptions (and the probed host) into one system", cmd_compose},
    /* A spec onto a real MLIR file */
    {"attach", "put a system's DLTI attributes on the module of an MLIR file", cmd_attach},
    {"list", "list the systems/ catalog (name, vendor, model)", cmd_list},
    {"show", "print one catalog entry", cmd_show},
    {"check", "check descriptions against the device schema, every problem", cmd_check},
    {"summary", "a system at a glance: one block per device, at 80 columns", cmd_summary},
    {"schema", "the device schema: every key, its type, unit and meaning", cmd_schema},
    /* Measure and roofline: docs/measure.md */
    {"measure", "measure this host: bandwidth, latency per level, peak FMA, clock", cmd_measure},
    {"roofline", "a device's roofline (measured and nominal ceilings) as SVG", cmd_roofline},
    /* autotuners' field names (sysdesc/tuner.h, docs/export.md) */
    {"export", "one device as TVM target, Triton or Inductor properties (JSON)", cmd_export},
    /* a key for tuner caches (sysdesc/tuner.h, docs/fingerprint.md) */
    {"fingerprint", "a key for tuner caches: changes with the facts tuning depends on", cmd_fingerprint},
    /* occupancy on any GPU a spec describes (sysdesc/occupancy.h, docs/occupancy.md) */
    {"occupancy", "resident blocks and warps of a kernel on a GPU; best block sizes", cmd_occupancy},
    /* The CPU identity keys a catalog entry copies */
    {"uarch", "the probe's microarchitectures: names, or one's CPU identity keys", cmd_uarch},
};

static void print_usage(FILE *out)
{
    fputs("usage: sysdesc COMMAND [OPTIONS] [ARGS]\n"
          "       sysdesc --help | --version | help [COMMAND]\n\ncommands:\n",
          out);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'sysdesc COMMAND --help' describes one command.\n"
          "Exit status: 0 ok, 1 not found, 2 bad input or usage, 3 environment\n"
          "(unreadable file, failed write, out of memory).\n",
          out);
}

int main(int argc, char **argv)
{
    /* A write past `ulimit -f` fails with EFBIG and is reported (exit 3),
     * instead of killing the process without a word (SIGXFSZ). */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        fputs("sysdesc: error: missing COMMAND\n", stderr);
        print_usage(stderr);
        return SYSDESC_EXIT_BAD_INPUT;
    }
    /* cli_write_stdout flushes and reports a closed or full stdout (exit 3). */
    if (cli_is_help(argv[1])) {
        print_usage(stdout);
        return cli_write_stdout("", 0);
    }
    if (strcmp(argv[1], "--version") == 0) {
        static const char version[] = "sysdesc " SYSDESC_VERSION_STRING "\n";
        return cli_write_stdout(version, sizeof(version) - 1);
    }
    /* `sysdesc help [COMMAND]`, as git and cargo take it: the list, or the
     * command's own --help. */
    if (strcmp(argv[1], "help") == 0) {
        if (argc == 2) {
            print_usage(stdout);
            return cli_write_stdout("", 0);
        }
        char help[] = "--help";
        char *again[] = {argv[2], help, NULL};
        argv = again;
        argc = 2;
        for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
            if (strcmp(argv[0], commands[i].name) == 0)
                return commands[i].run(argc, argv);
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "help: unknown command '%s' (see sysdesc help)",
                        argv[0]);
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    return cli_fail(SYSDESC_EXIT_BAD_INPUT, "unknown command '%s' (see sysdesc --help)", argv[1]);
}
