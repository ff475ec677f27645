/* The probe's driver: loads one topology (this host or an XML file), runs
 * the sources over it and gathers their devices into a system spec.  The
 * keys are the sources' business; docs/keys.md is their contract. */
#define _GNU_SOURCE
#include "probe_private.h"
#include "sysdesc/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

void sysdesc_probe_options_init(sysdesc_probe_options *opts)
{
    memset(opts, 0, sizeof(*opts));
    opts->io = SYSDESC_PROBE_IO_AUTO;
}

void sysdesc_probe_setup_process(unsigned flags)
{
    char list[256] = "hwloc_opencl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero,hwloc_gl";
    if (!(flags & SYSDESC_PROBE_SETUP_XML))
        strcat(list, ",hwloc_xml_libxml");
    if (!(flags & SYSDESC_PROBE_SETUP_IO))
        strcat(list, ",hwloc_pci");
    setenv("HWLOC_PLUGINS_BLACKLIST", list, 0);
}

const char *sysdesc_probe_hwloc_version(void)
{
#ifdef HWLOC_VERSION
    return HWLOC_VERSION; /* the release (the API version of 2.9.0 is 2.8.0) */
#else
    static char buf[32];
    unsigned v = hwloc_get_api_version();
    snprintf(buf, sizeof(buf), "API %u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
    return buf;
#endif
}

/* The hwloc XML file hwloc would load for this host by itself: HWLOC_XMLFILE,
 * unless a variable hwloc looks at before it is set (HWLOC_FSROOT,
 * HWLOC_CPUID_PATH, HWLOC_SYNTHETIC: those stay hwloc's). */
static const char *env_xml_file(void)
{
    static const char *const before[] = {"HWLOC_FSROOT", "HWLOC_CPUID_PATH", "HWLOC_SYNTHETIC"};
    for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++)
        if (getenv(before[i]))
            return NULL;
    return getenv("HWLOC_XMLFILE");
}

int pb_topology_env_xml(hwloc_topology_t topo, char **text, dlti_error_t *err)
{
    *text = NULL;
    const char *path = env_xml_file();
    size_t len;
    if (!path)
        return 0;
    dlti_error_t why;
    if (!(*text = bs_read_file(path, SYSDESC_PROBE_MAX_XML_BYTES, &len, &why))) {
        /* exit 3 whatever the reason: the environment named the file */
        bs_error_set_at(err, why.code == DLTI_ERROR_NOMEM ? why.code : DLTI_ERROR_IO, path, 0,
                        0, "HWLOC_XMLFILE: %s", why.text);
        return -1;
    }
    if (hwloc_topology_set_xmlbuffer(topo, *text, (int)len + 1) != 0) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, path, 0, 0,
                        "not a valid hwloc XML topology (HWLOC_XMLFILE; "
                        "hwloc_topology_set_xmlbuffer: %s)",
                        strerror(errno));
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

/* The first entry of the CPU's provenance: where the topology came from. */
static void topology_provenance(pb_run *run)
{
    hwloc_obj_t root = hwloc_get_root_obj(run->topo);
    char b[1024];
    size_t l;
    const char *xml = run->xml.provenance ? run->xml.provenance : run->opts->xml_path;
    if (run->host)
        l = (size_t)snprintf(b, sizeof(b), "hwloc %s on this host", sysdesc_probe_hwloc_version());
    else if (xml)
        l = (size_t)snprintf(b, sizeof(b), "hwloc XML %s", xml);
    else if (env_xml_file())
        l = (size_t)snprintf(b, sizeof(b), "hwloc XML %s (HWLOC_XMLFILE), not this host",
                             env_xml_file());
    else
        l = (size_t)snprintf(b, sizeof(b), "hwloc %s, a topology that is not this host "
                             "(hwloc_topology_is_thissystem)", sysdesc_probe_hwloc_version());
    int nb = 0;
    for (unsigned i = 0; i < pb_info_count(root) && l < sizeof(b); i++) {
        const struct hwloc_info_s *in = pb_info_at(root, i);
        if (in->name && in->value && strcmp(in->name, "Backend") == 0)
            l += (size_t)snprintf(b + l, sizeof(b) - l, "%s%s", nb++ ? "," : " (backend ",
                                  in->value);
    }
    if (nb && l < sizeof(b))
        snprintf(b + l, sizeof(b) - l, ")");
    pb_provenance(run, "topology", b);
}

/* Loads this host's topology (with I/O objects only when asked: they cost
 * ~4x the load time) or an XML file's; 0, or -1 with err set. */
static int load_topology(pb_run *run, dlti_error_t *err)
{
    const char *path = run->opts->xml_path;
    const char *xml = run->xml.label ? run->xml.label : path; /* names it in errors */
    /* Read by sysdesc, with the size limit every reader has (an
     * endless stream given as the file), then handed to hwloc as a buffer;
     * hwloc reads it during hwloc_topology_load.  A cluster node's text
     * (probe --mpi: cluster.c) takes the same limit and the same way. */
    char *text = NULL;
    size_t len = 0;
    if (run->xml.buffer) {
        if (run->xml.len > SYSDESC_PROBE_MAX_XML_BYTES) {
            bs_error_set_at(err, DLTI_ERROR_LIMIT, xml, 0, 0,
                            "hwloc XML text larger than the limit of %zu bytes",
                            SYSDESC_PROBE_MAX_XML_BYTES);
            return -1;
        }
        if (!(text = malloc(run->xml.len + 1))) {
            bs_nomem(err);
            return -1;
        }
        memcpy(text, run->xml.buffer, run->xml.len);
        text[len = run->xml.len] = '\0';
    } else if (!run->host && !(text = bs_read_file(path, SYSDESC_PROBE_MAX_XML_BYTES, &len, err))) {
        return -1;
    } else if (run->host) {
        /* hwloc would read HWLOC_XMLFILE itself, with no limit and a FIFO
         * hanging it: it gets the text, read the one way. */
        char *env_text;
        if (pb_topology_env_xml(run->topo, &env_text, err) != 0)
            return -1;
        text = env_text;
        len = 0;
        /* another machine's topology, most likely: its PCI devices cost
         * nothing to read from the text and are its GPUs, as for --xml */
        if (text && run->opts->io == SYSDESC_PROBE_IO_AUTO)
            run->io = true;
    }
    if (text && !run->host && hwloc_topology_set_xmlbuffer(run->topo, text, (int)len + 1) != 0) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, xml, 0, 0,
                        "not a valid hwloc XML topology (hwloc_topology_set_xmlbuffer: %s)",
                        strerror(errno));
        free(text);
        return -1;
    }
    /* hwloc's own runtime backends would open OpenCL (pocl), CUDA, NVML,
     * RSMI and Level Zero inside this process, without a time bound, for
     * OS devices that the runtime sources describe better: not on this host
     * (docs/runtimes.md, "hwloc's runtime backends").  XML files keep the
     * OS devices they were exported with. */
#if HWLOC_API_VERSION >= 0x00020100
    static const char *const runtime_components[] = {"opencl", "cuda", "nvml", "rsmi",
                                                     "levelzero"};
    for (size_t i = 0; run->host && i < sizeof(runtime_components) / sizeof(*runtime_components);
         i++)
        hwloc_topology_set_components(run->topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST,
                                      runtime_components[i]);
#endif
    hwloc_topology_set_icache_types_filter(run->topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (run->io)
        hwloc_topology_set_io_types_filter(run->topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    /* Disallowed PUs and nodes stay, so that the totals can be reported. */
    hwloc_topology_set_flags(run->topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    int loaded = hwloc_topology_load(run->topo);
    free(text);
    /* hwloc says whether what it loaded is the machine this runs on: a
     * topology from HWLOC_XMLFILE (or HWLOC_SYNTHETIC, ...) is another
     * machine's unless HWLOC_THISSYSTEM=1 says otherwise.  Then nothing is
     * read from this machine (CPUID, /proc, sysfs, its compilers, its
     * runtimes: run->host gates each). */
    if (loaded == 0 && run->host && !hwloc_topology_is_thissystem(run->topo))
        run->host = false;
    if (loaded != 0) {
        if (run->host)
            bs_error_set_at(err, DLTI_ERROR_IO, NULL, 0, 0,
                            "hwloc cannot load the topology of this host: %s",
                            errno ? strerror(errno) : "unknown error");
        else
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, xml, 0, 0,
                            "not a valid hwloc XML topology (hwloc_topology_load failed)");
        return -1;
    }
    return 0;
}

/* The PUs this process may use: the cgroup's (hwloc's allowed set) and, on
 * this host, the affinity's too (taskset, Slurm, MPI binding).  The counts
 * are of those, or of every PU for the whole node's view. */
static int find_allowed(pb_run *run, dlti_error_t *err)
{
    run->process_cpus = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(run->topo));
    if (!run->process_cpus) {
        bs_nomem(err);
        return -1;
    }
    if (run->host) {
        hwloc_bitmap_t bind = hwloc_bitmap_alloc();
        if (bind && hwloc_get_cpubind(run->topo, bind, HWLOC_CPUBIND_PROCESS) == 0 &&
            hwloc_bitmap_intersects(bind, run->process_cpus))
            hwloc_bitmap_and(run->process_cpus, run->process_cpus, bind);
        hwloc_bitmap_free(bind);
    }
    run->allowed = hwloc_bitmap_dup(pb_whole_node(run)
                                        ? hwloc_topology_get_topology_cpuset(run->topo)
                                        : run->process_cpus);
    if (!run->allowed) {
        bs_nomem(err);
        return -1;
    }
    return 0;
}

/* The descriptors a host probe may hold at once: hwloc's reads of sysfs (a
 * directory and a file in it), the cache (a directory and an entry), the
 * runtimes' children (two pipes each, every source at once) or a
 * program's (compilers: programs.c), with room. */
#define PB_HOST_PROBE_FDS 32

/* A host probe that runs out of descriptors midway gets no error from
 * hwloc, only less (one page size where the node has three), and no
 * compiler's answer: so it starts only with enough free below the soft
 * limit, else fails with the cause (DLTI_ERROR_IO).  0, or -1 with err. */
static int enough_descriptors(dlti_error_t *err)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0)
        return 0;
    unsigned free_fds = 0;
    for (rlim_t fd = 0; fd < r.rlim_cur && fd <= INT_MAX && free_fds < PB_HOST_PROBE_FDS; fd++)
        if (fcntl((int)fd, F_GETFD) < 0 && errno == EBADF)
            free_fds++;
    if (free_fds >= PB_HOST_PROBE_FDS)
        return 0;
    bs_error_set(err, DLTI_ERROR_IO,
                 "probe: %u file descriptors free (RLIMIT_NOFILE, ulimit -n, is %llu), fewer "
                 "than the %d a host probe may hold at once (hwloc's reads of sysfs, the "
                 "pipes of the runtimes' and the compilers' children): %s",
                 free_fds, (unsigned long long)r.rlim_cur, PB_HOST_PROBE_FDS, strerror(EMFILE));
    return -1;
}

/* The sources, in the order of their devices in the system spec: the CPU,
 * the PCI devices, then (this host only) what the vendor runtimes saw,
 * merged into those devices or added after them; last, the caller's hook
 * fills the GPUs (from the catalog), live values already in place.  The
 * runtimes are asked first of all and answer while the CPU (and its
 * compilers) and the PCI devices are read. */
static const pb_probe_fn sources[] = {
    pb_probe_runtimes_start,
    pb_probe_cpu,
    pb_probe_pci,
    pb_probe_runtimes,
    pb_probe_gpu_allocation, /* the GPUs this process may use: after every source of GPUs */
    pb_fill_gpus,
    pb_probe_locality, /* last: it locates the devices the others made */
};

static int run_sources(pb_run *run, dlti_error_t *err)
{
    topology_provenance(run);
    for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
        if (sources[i](run, err) != 0)
            return -1;
    return 0;
}

const dlti_attr *sysdesc_probe_host(dlti_context *ctx, const sysdesc_probe_options *opts,
                                    dlti_error_t *err)
{
    return pb_probe_topology(ctx, opts, NULL, err);
}

const dlti_attr *pb_probe_topology(dlti_context *ctx, const sysdesc_probe_options *opts,
                                   const pb_topology_source *xml, dlti_error_t *err)
{
    sysdesc_probe_options defaults;
    if (!opts) {
        sysdesc_probe_options_init(&defaults);
        opts = &defaults;
    }
    if (!ctx) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no context");
        return NULL;
    }
    if (err)
        memset(err, 0, sizeof(*err));
    pb_run run;
    pb_run_init(&run, ctx, opts);
    if (xml) { /* a cluster's node (cluster.c): a text is not this host */
        run.xml = *xml;
        run.host = opts->xml_path == NULL && !xml->buffer;
        run.io = opts->io == SYSDESC_PROBE_IO_ON || (opts->io == SYSDESC_PROBE_IO_AUTO && !run.host);
    }
    const dlti_attr *result = NULL;
    if (hwloc_topology_init(&run.topo) != 0) {
        run.topo = NULL;
        bs_error_set_at(err, DLTI_ERROR_NOMEM, NULL, 0, 0, "hwloc_topology_init failed");
    } else if ((!run.host || enough_descriptors(err) == 0) && load_topology(&run, err) == 0 &&
               find_allowed(&run, err) == 0 && run_sources(&run, err) == 0)
        result = pb_finish(ctx, &run.devices, DLTI_ATTR_SYSTEM_SPEC, err);
    pb_probe_runtimes_end(&run); /* a probe that failed before the runtimes' answers */
    pb_run_free(&run);
    return result;
}
