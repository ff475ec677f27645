/* sysdesc probe: describe this host (or hwloc XML topologies) as a target system spec. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

static const cli_help help = {
    .description =
        "Probes this machine with hwloc (caches, cores, NUMA, memory, ISA features)\n"
        "and its vendor runtimes (OpenCL, Vulkan, CUDA, ROCm, Level Zero) and prints\n"
        "a #dlti.target_system_spec with a \"CPU\" device and \"GPU0\", \"GPU1\", ...\n"
        "for the accelerators I/O discovery or a runtime finds (docs/keys.md lists\n"
        "every key, docs/runtimes.md how the runtimes' answers are merged).\n",
    .status = "Exit status: 0 ok; 2 bad usage, malformed XML or override; 3 unreadable\n"
              "file, failed probe or write.\n",
};

typedef struct probe_args {
    cli_list xmls;
    bool cluster, mpi, llvm_target;
    sysdesc_format format;
    unsigned print_flags;
    const char *out;
    cli_probe_args probe;
    cli_overrides ov;
} probe_args;

/* --runtimes' words, from the library's table of runtimes. */
static void runtimes_help(char *out, size_t size)
{
    char names[512];
    sysdesc_probe_runtime_names(names, sizeof names);
    snprintf(out, size, "the runtimes asked on this host: a comma-separated list of\n"
                        "%s; all (default); none", names);
}

#define AT(member) CLI_AT(probe_args, member)
static const cli_opt options[] = {
    {"--xml", .flags = CLI_VALUE, .kind = CLI_LIST, AT(xmls), .metavar = "FILE",
     .help = "probe a topology exported with `lstopo-no-graphics --of xml`;\n"
             "repeat for a cluster: identical nodes form a class, its\n"
             "devices \"class0.CPU\", ...; \"NODE.CPU\" queries reach them\n"
             "(the \"cluster\" device maps nodes to classes)"},
    {"--cluster", .kind = CLI_FLAG, AT(cluster),
     .help = "a cluster spec even from one --xml file"},
    {"--mpi", .kind = CLI_FLAG, AT(mpi),
     .help = "under mpirun/srun: one rank per node exports its topology,\n"
             "rank 0 writes the cluster spec with the ranks' nodes\n"
             "(needs sysdesc-mpi, built with OpenMPI; docs/cluster.md)"},
    {.kind = CLI_TEXT, .label = "--io, --no-io",
     .help = "PCI/GPU discovery (default: off for this host, where it\n"
             "costs ~4x the load time; on for XML files)"},
    {.kind = CLI_TEXT, .label = "--no-catalog",
     .help = "keep probed GPUs as found; by default a GPU whose PCI ids\n"
             "match a systems/ entry takes the entry's keys it lacks"},
    {.kind = CLI_TEXT, .label = "--runtimes=LIST", .help_fn = runtimes_help},
    {.kind = CLI_TEXT, .label = "--no-cache",
     .help = "ask the runtimes and compilers and neither read nor write\n"
             "their cache ($XDG_CACHE_HOME/sysdesc, else ~/.cache/sysdesc)"},
    {.kind = CLI_TEXT, .label = "--refresh-cache",
     .help = "ask them and write their answers to the cache"},
    {.kind = CLI_TEXT, .label = "--runtime-timeout=MS",
     .help = "the longest the runtimes may take (default 20000);\n"
             "a runtime still busy then is abandoned"},
    {.kind = CLI_TEXT, .label = "--gcc=NAME, --clang=NAME",
     .help = "the compilers CPU.compiler.gcc/.clang are for,\n"
             "on PATH or a path (default gcc, clang; empty: none)"},
    {.kind = CLI_TEXT, .label = "--llc=NAME",
     .help = "the LLVM CPU.compiler.llvm.cpu is checked against (default\n"
             "llc; empty: none, not checked)"},
    {.kind = CLI_TEXT, .label = "--whole-node",
     .help = "the node, not what this process may use (CPUs, memory,\n"
             "GPUs: docs/allocation.md)"},
    {"--format", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(format), .parse = cli_parse_format,
     .metavar = "F", .usage = "--format mlir|attr|yaml|json",
     .help = "mlir (default): module attributes {dlti.target_system_spec\n"
             "= ...} {}; attr: the bare attribute; yaml: a YAML system\n"
             "(docs/yaml.md) that `sysdesc convert` and base: read back;\n"
             "json: the same as JSON"},
    {.kind = CLI_TEXT, .label = "--override FILE",
     .help = "values from a YAML or MLIR system file replace the\n"
             "probed ones, key by key (applied before --set)"},
    {.kind = CLI_TEXT, .label = "--set P=V",
     .help = "override a key: P is DEVICE.KEY.KEY... (CPU.cache.L3.\n"
             "size_in_bytes), V an MLIR attribute (33554432, '\"text\"');\n"
             "repeatable, applied in order"},
    {.kind = CLI_TEXT, .label = "--no-check",
     .help = "apply --override and --set as written; by default the\n"
             "override files and the result of each --set are checked\n"
             "against the device schema (sysdesc check, docs/keys.md),\n"
             "strictly: a key it does not know is an error here"},
    {.kind = CLI_TEXT, .label = "--quiet, -q",
     .help = "do not print sanity warnings (still listed in \"suspect\")"},
    {"--llvm-target", .kind = CLI_FLAG, AT(llvm_target),
     .help = "add llvm.target = #llvm.target<triple, chip, features> (the\n"
             "CPU's) to the module (--format mlir), for mlir-opt"},
    {0},
};
#undef AT

/* The options that exclude each other: -1 when they are fine. */
static int check_combination(const probe_args *p)
{
    size_t nxml = p->xmls.n;
    int rc = cli_probe_args_check("probe", &p->probe, nxml == 0 && !p->mpi);
    if (rc >= 0)
        return rc;
    if (p->mpi && (nxml || p->cluster))
        return cli_usage_error("probe", "--mpi probes the job's nodes: no --xml or --cluster "
                               "with it");
    if (p->llvm_target && (p->mpi || p->cluster || nxml > 1)) /* one #llvm.target a module */
        return cli_usage_error("probe", "--llvm-target describes one node, not a cluster of "
                               "node classes (docs/cluster.md)");
    if (p->cluster && !nxml)
        return cli_usage_error("probe", "--cluster needs --xml files");
    return -1;
}

/* The spec of this host, the XML files or the MPI job: NULL with *rc set
 * when there is none (another rank's to write: SYSDESC_EXIT_OK). */
static const dlti_attr *probe_spec(dlti_context *ctx, const probe_args *p, int *rc)
{
    dlti_error_t err;
    bool writer = true;
    const dlti_attr *spec =
        p->mpi       ? cli_mpi_probe(ctx, &p->probe, &writer, &err)
        : p->cluster ? cli_probe_cluster(ctx, p->xmls.v, p->xmls.n, &p->probe, &err)
                     : cli_probe(ctx, p->xmls.v, p->xmls.n, &p->probe, &err);
    if (!writer) {
        *rc = SYSDESC_EXIT_OK; /* another rank writes */
    } else if (!spec) {
        *rc = cli_report(&err);
        if (err.code == DLTI_ERROR_IO)
            *rc = SYSDESC_EXIT_ENVIRONMENT;
    }
    return writer ? spec : NULL;
}

/* One machine's module: the layout of its CPU's triple, so that `layout`
 * answers this host's ABI (a cluster's nodes may differ), or its
 * #llvm.target (mlir-opt-22's --llvm-target-to-data-layout derives the
 * same layout from it, and crashes on a module that holds that layout
 * whole: never both; docs/layout.md). */
static int finish_module(dlti_context *ctx, const probe_args *p, sysdesc_system *sys)
{
    dlti_error_t err;
    if (!p->llvm_target)
        return p->mpi || p->cluster || p->xmls.n > 1 ||
                       sysdesc_system_host_layout(ctx, sys, NULL, &err) >= 0
                   ? SYSDESC_EXIT_OK
                   : cli_report(&err);
    if (p->format != SYSDESC_FORMAT_MLIR) /* YAML and JSON carry it in the CPU's keys */
        return cli_usage_error("probe", "--llvm-target needs --format mlir (the CPU's triple, "
                               "compiler.llvm.cpu and features carry it otherwise)");
    if (!(sys->llvm_target = sysdesc_llvm_target_new(ctx, sys->spec, "CPU", &err)))
        return cli_usage_error("probe", "--llvm-target: %s", err.text);
    return SYSDESC_EXIT_OK;
}

int cmd_probe(int argc, char **argv)
{
    probe_args p = {.format = SYSDESC_FORMAT_MLIR};
    cli_probe_args_init(&p.probe, SYSDESC_PROBE_IO_AUTO);
    cli_load_options_init(&p.ov.load);
    cli_args a;
    cli_args_init(&a, "probe", &help,
                  (const cli_group[]){{.opts = options, .base = &p}, CLI_PROBE_GROUPS(p.probe),
                                      {.opts = cli_override_opts, .base = &p.ov, .unlisted = true},
                                      {.opts = cli_check_opts, .base = &p.ov.load,
                                       .unlisted = true},
                                      {.opts = cli_print_opts, .base = &p.print_flags},
                                      {.opts = cli_output_opts, .base = &p.out},
                                      {0}},
                  argc, argv);
    int rc = -1;
    for (int o; rc < 0 && (o = cli_next(&a)) != CLI_DONE;)
        rc = o == CLI_EXIT ? a.rc : cli_operand_error(&a, "probe takes options only");
    if (rc < 0)
        rc = check_combination(&p);
    if (rc < 0 && p.mpi && !cli_mpi_probe)
        rc = cli_probe_mpi_exec(argc, argv); /* returns only when it cannot */
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0 && !ctx)
        rc = cli_nomem();
    sysdesc_system sys = {0};
    if (rc < 0 && (sys.spec = probe_spec(ctx, &p, &rc)) &&
        (rc = cli_apply_overrides("probe", ctx, &sys.spec, &p.ov)) == SYSDESC_EXIT_OK &&
        (rc = finish_module(ctx, &p, &sys)) == SYSDESC_EXIT_OK)
        rc = cli_output_system(&sys, p.format, p.print_flags, p.out);
    cli_args_free(&a);
    dlti_context_free(ctx);
    return rc;
}
