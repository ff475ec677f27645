/* sysdesc probe: describe this host (or hwloc XML topologies) as a target system spec. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc probe [--xml FILE]... [--cluster] [--mpi] [--io|--no-io]\n"
    "                     [--format mlir|attr|yaml|json]\n"
    "                     [--override FILE]... [--set PATH=VALUE]... [--no-catalog]\n"
    "                     [--runtimes=LIST] [--no-cache|--refresh-cache]\n"
    "                     [--runtime-timeout=MS] [--gcc=NAME] [--clang=NAME]\n"
    "                     [--llc=NAME] [--whole-node] [--no-check] [--quiet]\n"
    "                     [--llvm-target] [--pretty] [--inherent-dlti] [-o FILE]\n"
    "\n"
    "Probes this machine with hwloc (caches, cores, NUMA, memory, ISA features)\n"
    "and its vendor runtimes (OpenCL, Vulkan, CUDA, ROCm, Level Zero) and prints\n"
    "a #dlti.target_system_spec with a \"CPU\" device and \"GPU0\", \"GPU1\", ...\n"
    "for the accelerators I/O discovery or a runtime finds (docs/keys.md lists\n"
    "every key, docs/runtimes.md how the runtimes' answers are merged).\n"
    "\n"
    "  --xml FILE      probe a topology exported with `lstopo-no-graphics --of xml`;\n"
    "                  repeat for a cluster: identical nodes form a class, its\n"
    "                  devices \"class0.CPU\", ...; \"NODE.CPU\" queries reach them\n"
    "                  (the \"cluster\" device maps nodes to classes)\n"
    "  --cluster       a cluster spec even from one --xml file\n"
    "  --mpi           under mpirun/srun: one rank per node exports its topology,\n"
    "                  rank 0 writes the cluster spec with the ranks' nodes\n"
    "                  (needs sysdesc-mpi, built with OpenMPI; docs/cluster.md)\n"
    "  --io, --no-io   PCI/GPU discovery (default: off for this host, where it\n"
    "                  costs ~4x the load time; on for XML files)\n"
    "  --no-catalog    keep probed GPUs as found; by default a GPU whose PCI ids\n"
    "                  match a systems/ entry takes the entry's keys it lacks\n"
    "  --runtimes=LIST the runtimes asked on this host: a comma-separated list of\n"
    "                  opencl, vulkan, cuda, rocm, level_zero; all (default); none\n"
    "  --no-cache      ask the runtimes and compilers and neither read nor write\n"
    "                  their cache ($XDG_CACHE_HOME/sysdesc, else ~/.cache/sysdesc)\n"
    "  --refresh-cache ask them and write their answers to the cache\n"
    "  --runtime-timeout=MS  the longest the runtimes may take (default 20000);\n"
    "                  a runtime still busy then is abandoned\n"
    "  --gcc=NAME, --clang=NAME  the compilers CPU.compiler.gcc/.clang are for,\n"
    "                  on PATH or a path (default gcc, clang; empty: none)\n"
    "  --llc=NAME      the LLVM CPU.compiler.llvm.cpu is checked against (default\n"
    "                  llc; empty: none, not checked)\n"
    "  --whole-node    the node, not what this process may use (CPUs, memory,\n"
    "                  GPUs: docs/allocation.md)\n"
    "  --format F      mlir (default): module attributes {dlti.target_system_spec\n"
    "                  = ...} {}; attr: the bare attribute; yaml: a YAML system\n"
    "                  (docs/yaml.md) that `sysdesc convert` and base: read back;\n"
    "                  json: the same as JSON\n"
    "  --override FILE values from a YAML or MLIR system file replace the\n"
    "                  probed ones, key by key (applied before --set)\n"
    "  --set P=V       override a key: P is DEVICE.KEY.KEY... (CPU.cache.L3.\n"
    "                  size_in_bytes), V an MLIR attribute (33554432, '\"text\"');\n"
    "                  repeatable, applied in order\n"
    "  --no-check      apply --override and --set as written; by default the\n"
    "                  override files and the result of each --set are checked\n"
    "                  against the device schema (sysdesc check, docs/keys.md),\n"
    "                  strictly: a key it does not know is an error here\n"
    "  --quiet, -q     do not print sanity warnings (still listed in \"suspect\")\n"
    "  --llvm-target   add llvm.target = #llvm.target<triple, chip, features> (the\n"
    "                  CPU's) to the module (--format mlir), for mlir-opt\n"
    "  --pretty        MLIR one DLTI entry a line, nested maps indented\n"
    "  --inherent-dlti MLIR head's `dlti = #dlti.target_system_spec<...>`\n"
    "                  (MLIR 22 rejects it; sysdesc reads both forms)\n"
    "  -o FILE         write to FILE atomically (temporary file + rename)\n"
    "\n"
    "Exit status: 0 ok; 2 bad usage, malformed XML or override; 3 unreadable\n"
    "file, failed probe or write.\n";

enum { OPT_XML = 1, OPT_FORMAT, OPT_OUT, OPT_CLUSTER, OPT_MPI, OPT_LLVM_TARGET };
static const cli_opt options[] = {
    {"--xml", NULL, OPT_XML, CLI_VALUE},
    {"--format", NULL, OPT_FORMAT, CLI_VALUE},
    {"--output", "-o", OPT_OUT, CLI_VALUE},
    {"--cluster", NULL, OPT_CLUSTER, 0},
    {"--mpi", NULL, OPT_MPI, 0},
    {"--llvm-target", NULL, OPT_LLVM_TARGET, 0},
    {NULL, NULL, 0, 0},
};

int cmd_probe(int argc, char **argv)
{
    const char **xmls = calloc((size_t)argc, sizeof(char *));
    cli_overrides ov = {.files = calloc((size_t)argc, sizeof(char *)),
                        .sets = calloc((size_t)argc, sizeof(char *))};
    size_t nxml = 0;
    const char *out = NULL;
    bool cluster = false, mpi = false;
    sysdesc_format format = SYSDESC_FORMAT_MLIR;
    unsigned print_flags = 0;
    cli_probe_args pa;
    cli_probe_args_init(&pa, SYSDESC_PROBE_IO_AUTO);
    bool llvm_target = false;
    int rc = SYSDESC_EXIT_OK;
    dlti_context *ctx = NULL;
    cli_load_options_init(&ov.load);
    if (!xmls || !ov.files || !ov.sets) {
        rc = cli_nomem();
        goto done;
    }
    cli_args a;
    cli_args_init(&a, "probe", usage,
                  (const cli_opt *const[]){options, cli_probe_opts, cli_override_opts,
                                           cli_check_opts, cli_print_opts, NULL},
                  argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT) {
            rc = a.rc;
            goto done;
        }
        if (o == CLI_OPERAND) {
            rc = cli_operand_error(&a, "probe takes options only");
            goto done;
        }
        if (o == OPT_XML) {
            xmls[nxml++] = a.value;
        } else if (o == OPT_FORMAT) {
            if ((rc = cli_format_option("probe", a.value, &format)) >= 0)
                goto done;
            rc = SYSDESC_EXIT_OK;
        } else if (o == OPT_OUT) {
            out = a.value;
        } else if (o == OPT_CLUSTER) {
            cluster = true;
        } else if (o == OPT_MPI) {
            mpi = true;
        } else if (o == OPT_LLVM_TARGET) {
            llvm_target = true;
        } else if (!cli_probe_take(&pa, o, a.value) && !cli_override_take(&ov, o, a.value)) {
            cli_description_take(o, &ov.load, &print_flags);
        }
    }
    if ((rc = cli_probe_args_check("probe", &pa, nxml == 0 && !mpi)) >= 0)
        goto done;
    rc = SYSDESC_EXIT_OK;
    if (mpi && (nxml || cluster)) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "probe: --mpi probes the job's nodes: no --xml "
                                              "or --cluster with it");
        goto done;
    }
    if (llvm_target && (mpi || cluster || nxml > 1)) {
        /* one #llvm.target per module: a cluster's classes may differ */
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "probe: --llvm-target describes one node, not a "
                                              "cluster of node classes (docs/cluster.md)");
        goto done;
    }
    if (cluster && !nxml) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "probe: --cluster needs --xml files");
        goto done;
    }
    if (mpi && !cli_mpi_probe) {
        rc = cli_probe_mpi_exec(argc, argv); /* returns only when it cannot */
        goto done;
    }
    ctx = cli_context_new();
    if (!ctx) {
        rc = cli_nomem();
        goto done;
    }
    dlti_error_t err;
    bool writer = true;
    const dlti_attr *spec = mpi       ? cli_mpi_probe(ctx, &pa, &writer, &err)
                            : cluster ? cli_probe_cluster(ctx, xmls, nxml, &pa, &err)
                                      : cli_probe(ctx, xmls, nxml, &pa, &err);
    if (!writer)
        goto done; /* another rank writes */
    if (!spec) {
        rc = cli_report(&err);
        if (err.code == DLTI_ERROR_IO)
            rc = SYSDESC_EXIT_ENVIRONMENT;
        goto done;
    }
    if ((rc = cli_apply_overrides("probe", ctx, &spec, &ov)) != SYSDESC_EXIT_OK)
        goto done;
    sysdesc_system sys = {.spec = spec};
    /* One machine: its CPU's triple gives the module its data layout, so
     * that `layout` answers this host's ABI (a cluster's nodes may differ).
     * Not beside --llvm-target: mlir-opt-22's --llvm-target-to-data-layout
     * derives the same layout from it, and crashes on a module that
     * already holds that layout whole (docs/layout.md). */
    if (!mpi && !cluster && nxml <= 1 && !llvm_target &&
        sysdesc_system_host_layout(ctx, &sys, NULL, &err) < 0) {
        rc = cli_report(&err);
        goto done;
    }
    if (llvm_target && format != SYSDESC_FORMAT_MLIR) {
        /* YAML and JSON have no module: their CPU keys carry the same facts */
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "probe: --llvm-target needs --format mlir (the "
                      "CPU's triple, compiler.llvm.cpu and features carry it otherwise)");
        goto done;
    }
    if (llvm_target && !(sys.llvm_target = sysdesc_llvm_target_new(ctx, spec, "CPU", &err))) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "probe: --llvm-target: %s", err.text);
        goto done;
    }
    rc = cli_output_system(&sys, format, print_flags, out);
done:
    free(xmls);
    free(ov.sets);
    free(ov.files);
    dlti_context_free(ctx);
    return rc;
}
