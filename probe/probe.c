/* The host probe: hwloc topology (+ ISA, /proc, cgroup facts) -> DLTI spec.
 * docs/keys.md is the contract for every key written here. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sysdesc_probe_options_init(sysdesc_probe_options *opts)
{
    memset(opts, 0, sizeof(*opts));
    opts->io = SYSDESC_PROBE_IO_AUTO;
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

static int64_t read_sysfs_num(const char *path)
{
    char buf[64];
    if (pb_read_file(path, buf, sizeof(buf)) != 0)
        return -1;
    char *end;
    long long v = strtoll(buf, &end, 10);
    return end == buf || v <= 0 ? -1 : (int64_t)v;
}

int pb_probe_cpu(pb_run *run, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    hwloc_topology_t t = run->topo;
    hwloc_obj_t root = hwloc_get_root_obj(t);
    pb_map dev;
    pb_init(&dev);

    /* Identity: the first usable package, then the first PU, then the root. */
    hwloc_obj_t pkg = NULL;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, NULL); o;
         o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, o))
        if (pb_usable(run, o)) {
            pkg = o;
            break;
        }
    hwloc_obj_t pu0 = hwloc_get_pu_obj_by_os_index(t, (unsigned)hwloc_bitmap_first(run->allowed));
    hwloc_obj_t idsrc[3] = {pkg, pu0, root};
#define ID(name)                                                                                   \
    (pb_info(idsrc[0], name) ? pb_info(idsrc[0], name)                                               \
                          : pb_info(idsrc[1], name) ? pb_info(idsrc[1], name) : pb_info(idsrc[2], name))
    pb_str(ctx, &dev, "vendor", ID("CPUVendor"));
    pb_str(ctx, &dev, "model", ID("CPUModel"));
    pb_str(ctx, &dev, "arch", pb_info(root, "Architecture"));
    static const struct { const char *info, *key; } nums[] = {
        {"CPUFamilyNumber", "cpu_family"}, {"CPUModelNumber", "cpu_model_number"},
        {"CPUStepping", "cpu_stepping"},   {"CPUImplementer", "cpu_implementer"},
        {"CPUVariant", "cpu_variant"},     {"CPUPartNumber", "cpu_part_number"},
        {"CPURevision", "cpu_revision"},
    };
    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        hwloc_obj_t holder = pb_info(idsrc[0], nums[i].info) ? idsrc[0]
                             : pb_info(idsrc[1], nums[i].info) ? idsrc[1] : idsrc[2];
        int64_t v = pb_info_num(holder, nums[i].info);
        if (v >= 0)
            pb_i64(ctx, &dev, nums[i].key, v);
    }
#undef ID
    pb_str(ctx, &dev, "hostname", pb_info(root, "HostName"));

    /* Counts of what this process may use, and the totals where they differ. */
    static const struct { hwloc_obj_type_t type; const char *key, *total; } counts[] = {
        {HWLOC_OBJ_PACKAGE, "num_packages", "total_num_packages"},
        {HWLOC_OBJ_CORE, "num_cores", "total_num_cores"},
        {HWLOC_OBJ_PU, "num_threads", "total_num_threads"},
        {HWLOC_OBJ_NUMANODE, "num_numa_nodes", "total_num_numa_nodes"},
    };
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        int64_t n = 0, total = 0;
        for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, counts[i].type, NULL); o;
             o = hwloc_get_next_obj_by_type(t, counts[i].type, o)) {
            total++;
            if (pb_usable(run, o))
                n++;
        }
        if (!total)
            continue; /* never invent: no such objects known */
        pb_i64(ctx, &dev, counts[i].key, n);
        if (total != n)
            pb_i64(ctx, &dev, counts[i].total, total);
    }
    pb_memory mem;
    pb_memory_find(run, &mem);
    int64_t mem_total = mem.total;

    pb_cache caches[PB_NCACHES];
    pb_caches_find(run, caches);
    pb_caches_check(run, caches, mem_total);

    /* ISA (this host only: an XML file does not carry it). */
    pb_isa isa;
    memset(&isa, 0, sizeof(isa));
    if (run->host)
        pb_isa_detect(&isa);

    /* Flat keys read by downstream MLIR users. */
    pb_caches_flat_keys(ctx, &dev, caches);
    if (isa.max_vector_op_width > 0)
        pb_i64(ctx, &dev, "max_vector_op_width", isa.max_vector_op_width);

    pb_caches_add(run, &dev, caches, err);
    pb_memory_add(run, &dev, &mem, err);

    /* ISA. */
    if (isa.source) {
        pb_add(ctx, &dev, "features", pb_str_array(ctx, isa.features, isa.nfeatures));
        if (isa.sve_vector_length > 0)
            pb_i64(ctx, &dev, "sve_vector_length_in_bits", isa.sve_vector_length);
        pb_source(run, "features", isa.source);
        if (isa.max_vector_op_width > 0)
            pb_source(run, "max_vector_op_width", isa.source);
        if (isa.sve_vector_length > 0)
            pb_source(run, "sve_vector_length_in_bits", "prctl(PR_SVE_GET_VL)");
    }

    /* Frequency from cpufreq (this host). */
    if (run->host && pu0) {
        char f[160];
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%u/cpufreq/cpuinfo_max_freq",
                 pu0->os_index);
        int64_t khz = read_sysfs_num(f);
        if (khz > 0) {
            pb_i64(ctx, &dev, "max_frequency_mhz", khz / 1000);
            pb_source(run, "max_frequency_mhz", f);
        }
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%u/cpufreq/base_frequency",
                 pu0->os_index);
        khz = read_sysfs_num(f);
        if (khz > 0) {
            pb_i64(ctx, &dev, "base_frequency_mhz", khz / 1000);
            pb_source(run, "base_frequency_mhz", f);
        }
    }

    /* CPU kinds (hybrid CPUs), most energy-efficient first as hwloc sorts them. */
    int nkinds = hwloc_cpukinds_get_nr(t, 0);
    if (nkinds > 0) {
        pb_map kinds;
        pb_init(&kinds);
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        int64_t used = 0;
        for (int k = 0; set && k < nkinds; k++) {
            int eff = -1;
#if HWLOC_API_VERSION >= 0x00030000
            struct hwloc_infos_s *kinfos = NULL;
            if (hwloc_cpukinds_get_info(t, (unsigned)k, set, &eff, &kinfos, 0) != 0)
                continue;
            unsigned nki = kinfos ? kinfos->count : 0;
            const struct hwloc_info_s *ki = kinfos ? kinfos->array : NULL;
#else
            unsigned nki = 0;
            struct hwloc_info_s *ki = NULL;
            if (hwloc_cpukinds_get_info(t, (unsigned)k, set, &eff, &nki, &ki, 0) != 0)
                continue;
#endif
            hwloc_bitmap_and(set, set, run->allowed);
            int64_t threads = hwloc_bitmap_weight(set);
            if (threads <= 0)
                continue;
            int64_t cores = 0;
            for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, NULL); o;
                 o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, o))
                if (hwloc_bitmap_intersects(o->cpuset, set))
                    cores++;
            pb_map km;
            pb_init(&km);
            if (eff >= 0)
                pb_i64(ctx, &km, "efficiency_rank", eff);
            if (cores)
                pb_i64(ctx, &km, "num_cores", cores);
            pb_i64(ctx, &km, "num_threads", threads);
            static const struct { const char *info, *key; bool num; } kk[] = {
                {"CoreType", "core_type", false},
                {"FrequencyMaxMHz", "max_frequency_mhz", true},
                {"FrequencyBaseMHz", "base_frequency_mhz", true},
                {"LinuxCapacity", "linux_capacity", true},
            };
            for (size_t j = 0; j < sizeof(kk) / sizeof(kk[0]); j++)
                for (unsigned q = 0; q < nki; q++)
                    if (ki[q].name && ki[q].value && strcmp(ki[q].name, kk[j].info) == 0) {
                        if (kk[j].num) {
                            char *end;
                            long long v = strtoll(ki[q].value, &end, 10);
                            if (end != ki[q].value && v >= 0)
                                pb_i64(ctx, &km, kk[j].key, v);
                        } else {
                            pb_str(ctx, &km, kk[j].key, ki[q].value);
                        }
                        break;
                    }
            char key[32];
            snprintf(key, sizeof(key), "%" PRId64, used++);
            pb_add(ctx, &kinds, key, pb_finish(ctx, &km, DLTI_ATTR_MAP, err));
        }
        hwloc_bitmap_free(set);
        if (kinds.n) {
            pb_i64(ctx, &dev, "num_cpu_kinds", used);
            pb_add(ctx, &dev, "cpu_kinds", pb_finish(ctx, &kinds, DLTI_ATTR_MAP, err));
            pb_source(run, "cpu_kinds", "hwloc cpukinds");
        } else {
            pb_free(&kinds);
        }
    }

    /* Where values came from, and what failed a sanity check. */
    pb_add(ctx, &dev, "source", pb_finish(ctx, &run->source, DLTI_ATTR_MAP, err));
    if (run->warn.nsuspect)
        pb_add(ctx, &dev, "suspect",
               pb_str_array(ctx, (const char *const *)run->warn.suspect, run->warn.nsuspect));
    const dlti_attr *cpu = pb_finish(ctx, &dev, DLTI_ATTR_DEVICE_SPEC, err);
    if (!cpu)
        return -1;
    char id[300];
    snprintf(id, sizeof(id), "%sCPU", run->prefix);
    pb_add(ctx, &run->devices, id, cpu);
    return 0;
}

/* ---- entry points ---- */

/* True (err set, DLTI_ERROR_IO) when the XML file cannot be read: missing,
 * unreadable or a directory.  hwloc would report these as malformed XML (a
 * directory gets EISDIR from its parser), but they are the environment's
 * fault: exit 3, as for every other command (docs/reliability.md). */
static bool xml_unreadable(const char *path, dlti_error_t *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int e = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (fd >= 0)
        close(fd);
    if (e)
        dlti_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot read the hwloc XML topology: %s", strerror(e));
    return e != 0;
}

/* Where the topology came from; the CPU's cache and memory keys are hwloc's
 * unless a source says otherwise. */
static void topology_provenance(pb_run *run)
{
    hwloc_obj_t root = hwloc_get_root_obj(run->topo);
    char b[1024];
    size_t l;
    if (run->host)
        l = (size_t)snprintf(b, sizeof(b), "hwloc %s on this host", sysdesc_probe_hwloc_version());
    else
        l = (size_t)snprintf(b, sizeof(b), "hwloc XML %s", run->opts->xml_path);
    int nb = 0;
    for (unsigned i = 0; i < pb_info_count(root) && l < sizeof(b); i++) {
        const struct hwloc_info_s *in = pb_info_at(root, i);
        if (in->name && in->value && strcmp(in->name, "Backend") == 0)
            l += (size_t)snprintf(b + l, sizeof(b) - l, "%s%s", nb++ ? "," : " (backend ",
                                  in->value);
    }
    if (nb && l < sizeof(b))
        snprintf(b + l, sizeof(b) - l, ")");
    pb_source(run, "topology", b);
    pb_source(run, "cache", "hwloc");
    pb_source(run, "memory", "hwloc");
}

/* Loads this host's topology (with I/O objects only when asked: they cost
 * ~4x the load time) or an XML file's; 0, or -1 with err set. */
static int load_topology(pb_run *run, dlti_error_t *err)
{
    const char *xml = run->opts->xml_path;
    if (!run->host && xml_unreadable(xml, err))
        return -1;
    if (!run->host && hwloc_topology_set_xml(run->topo, xml) != 0) {
        dlti_error_set_at(err, DLTI_ERROR_SYNTAX, xml, 0, 0,
                          "not a valid hwloc XML topology (hwloc_topology_set_xml: %s)",
                          strerror(errno));
        return -1;
    }
    hwloc_topology_set_icache_types_filter(run->topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (run->io)
        hwloc_topology_set_io_types_filter(run->topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    /* Disallowed PUs and nodes stay, so that the totals can be reported. */
    hwloc_topology_set_flags(run->topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    if (hwloc_topology_load(run->topo) != 0) {
        if (run->host)
            dlti_error_set_at(err, DLTI_ERROR_IO, NULL, 0, 0,
                              "hwloc cannot load the topology of this host: %s",
                              errno ? strerror(errno) : "unknown error");
        else
            dlti_error_set_at(err, DLTI_ERROR_SYNTAX, xml, 0, 0,
                              "not a valid hwloc XML topology (hwloc_topology_load failed)");
        return -1;
    }
    return 0;
}

/* The PUs this process may use: the cgroup's (hwloc's allowed set) and, on
 * this host, the affinity's too (taskset, Slurm, MPI binding). */
static int find_allowed(pb_run *run, dlti_error_t *err)
{
    run->allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(run->topo));
    if (!run->allowed) {
        dlti_error_set_at(err, DLTI_ERROR_NOMEM, NULL, 0, 0, "out of memory");
        return -1;
    }
    if (run->host) {
        hwloc_bitmap_t bind = hwloc_bitmap_alloc();
        if (bind && hwloc_get_cpubind(run->topo, bind, HWLOC_CPUBIND_PROCESS) == 0 &&
            hwloc_bitmap_intersects(bind, run->allowed))
            hwloc_bitmap_and(run->allowed, run->allowed, bind);
        hwloc_bitmap_free(bind);
    }
    return 0;
}

/* The sources, in the order of their devices in the system spec. */
static const pb_source_fn sources[] = {
    pb_probe_cpu,
    pb_probe_pci,
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
    sysdesc_probe_options defaults;
    if (!opts) {
        sysdesc_probe_options_init(&defaults);
        opts = &defaults;
    }
    if (!ctx) {
        dlti_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no context");
        return NULL;
    }
    if (err)
        memset(err, 0, sizeof(*err));
    pb_run run;
    memset(&run, 0, sizeof(run));
    run.ctx = ctx;
    run.opts = opts;
    run.host = opts->xml_path == NULL;
    run.io = opts->io == SYSDESC_PROBE_IO_ON || (opts->io == SYSDESC_PROBE_IO_AUTO && !run.host);
    snprintf(run.prefix, sizeof(run.prefix), "%s", opts->device_prefix ? opts->device_prefix : "");
    run.warn.opts = opts;
    run.warn.prefix = run.prefix;
    pb_init(&run.source);
    pb_init(&run.devices);
    if (hwloc_topology_init(&run.topo) != 0) {
        dlti_error_set_at(err, DLTI_ERROR_NOMEM, NULL, 0, 0, "hwloc_topology_init failed");
        return NULL;
    }
    const dlti_attr *result = NULL;
    if (load_topology(&run, err) == 0 && find_allowed(&run, err) == 0 &&
        run_sources(&run, err) == 0)
        result = pb_finish(ctx, &run.devices, DLTI_ATTR_SYSTEM_SPEC, err);
    pb_free(&run.devices);
    pb_free(&run.source);
    pb_warn_free(&run.warn);
    if (run.allowed)
        hwloc_bitmap_free(run.allowed);
    hwloc_topology_destroy(run.topo);
    return result;
}

const dlti_attr *sysdesc_probe_xml_files(dlti_context *ctx, const char *const *paths, size_t n,
                                         const sysdesc_probe_options *opts, dlti_error_t *err)
{
    if (!ctx || !paths || n == 0) {
        dlti_error_set_at(err, DLTI_ERROR_ARGUMENT, NULL, 0, 0, "no XML files given");
        return NULL;
    }
    sysdesc_probe_options o;
    if (opts)
        o = *opts;
    else
        sysdesc_probe_options_init(&o);
    pb_map sys;
    pb_init(&sys);
    for (size_t i = 0; i < n; i++) {
        char prefix[32];
        snprintf(prefix, sizeof(prefix), "node%zu.", i);
        o.xml_path = paths[i];
        o.device_prefix = n > 1 ? prefix : NULL;
        const dlti_attr *spec = sysdesc_probe_host(ctx, &o, err);
        if (!spec) {
            pb_free(&sys);
            return NULL;
        }
        for (size_t j = 0; j < dlti_attr_size(spec); j++) {
            size_t klen;
            const char *k = dlti_attr_entry_key(spec, j) ? dlti_key_str(dlti_attr_entry_key(spec, j), &klen) : NULL;
            if (k)
                pb_add(ctx, &sys, k, dlti_attr_entry_value(spec, j));
        }
    }
    return pb_finish(ctx, &sys, DLTI_ATTR_SYSTEM_SPEC, err);
}
