/* The CPU as hwloc sees it: identity, counts of what this process may use
 * (cgroup cpuset and affinity, through run->allowed), CPU kinds, and on this
 * host the clock from cpufreq. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hwloc_obj_t first_pu(const pb_run *run)
{
    return hwloc_get_pu_obj_by_os_index(run->topo, (unsigned)hwloc_bitmap_first(run->allowed));
}

static hwloc_obj_t first_package(const pb_run *run)
{
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(run->topo, HWLOC_OBJ_PACKAGE, NULL); o;
         o = hwloc_get_next_obj_by_type(run->topo, HWLOC_OBJ_PACKAGE, o))
        if (pb_usable(run, o))
            return o;
    return NULL;
}

/* Backends put the CPU's infos on different objects (Linux: the package;
 * some XML files and platforms: the PU or the root): the first of them that
 * has the info; the root when none has. */
static hwloc_obj_t holder(hwloc_obj_t const where[3], const char *name)
{
    return pb_info(where[0], name) ? where[0] : pb_info(where[1], name) ? where[1] : where[2];
}

void pb_cpu_identity(pb_run *run, pb_map *dev)
{
    dlti_context *ctx = run->ctx;
    hwloc_obj_t root = hwloc_get_root_obj(run->topo);
    hwloc_obj_t const where[3] = {first_package(run), first_pu(run), root};
    /* every device says what it is and which schema it follows (docs/keys.md) */
    pb_device_head(ctx, dev, "CPU");
    pb_str(ctx, dev, "vendor", pb_info(holder(where, "CPUVendor"), "CPUVendor"));
    pb_str(ctx, dev, "model", pb_info(holder(where, "CPUModel"), "CPUModel"));
    pb_str(ctx, dev, "arch", pb_info(root, "Architecture"));
    static const struct { const char *info, *key; } nums[] = {
        {"CPUFamilyNumber", "cpu_family"}, {"CPUModelNumber", "cpu_model_number"},
        {"CPUStepping", "cpu_stepping"},   {"CPUImplementer", "cpu_implementer"},
        {"CPUVariant", "cpu_variant"},     {"CPUPart", "cpu_part_number"}, /* hwloc's name */
        {"CPURevision", "cpu_revision"},
    };
    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        int64_t v = pb_info_num(holder(where, nums[i].info), nums[i].info);
        if (v >= 0)
            pb_i64(ctx, dev, nums[i].key, v);
    }
    pb_str(ctx, dev, "hostname", pb_info(root, "HostName"));
}

/* What this process may use, and the totals only where they differ. */
void pb_cpu_counts(pb_run *run, pb_map *dev)
{
    static const struct { hwloc_obj_type_t type; const char *key, *total; } counts[] = {
        {HWLOC_OBJ_PACKAGE, "num_packages", "total_num_packages"},
        {HWLOC_OBJ_CORE, "num_cores", "total_num_cores"},
        {HWLOC_OBJ_PU, "num_threads", "total_num_threads"},
        {HWLOC_OBJ_NUMANODE, "num_numa_nodes", "total_num_numa_nodes"},
    };
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        int64_t n = 0, total = 0;
        for (hwloc_obj_t o = hwloc_get_next_obj_by_type(run->topo, counts[i].type, NULL); o;
             o = hwloc_get_next_obj_by_type(run->topo, counts[i].type, o)) {
            total++;
            if (pb_usable(run, o))
                n++;
        }
        if (!total)
            continue; /* never invent: no such objects known */
        pb_i64(run->ctx, dev, counts[i].key, n);
        if (total != n)
            pb_i64(run->ctx, dev, counts[i].total, total);
    }
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

static void add_frequency(pb_run *run, pb_map *dev, hwloc_obj_t pu, const char *file,
                          const char *key)
{
    char f[160];
    snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%u/cpufreq/%s", pu->os_index, file);
    int64_t khz = read_sysfs_num(f);
    if (khz > 0) {
        pb_i64(run->ctx, dev, key, khz / 1000);
        pb_provenance(run, key, f);
    }
}

/* The clock of the first usable PU: hybrid CPUs have one per kind (cpu_kinds). */
void pb_cpu_frequency(pb_run *run, pb_map *dev)
{
    hwloc_obj_t pu = first_pu(run);
    if (!run->host || !pu)
        return;
    add_frequency(run, dev, pu, "cpuinfo_max_freq", "max_frequency_mhz");
    add_frequency(run, dev, pu, "base_frequency", "base_frequency_mhz");
}

/* hwloc 3 returns a kind's infos as a struct, 2.x as an array and a count. */
static int kind_info(hwloc_topology_t t, int k, hwloc_bitmap_t set, int *eff,
                     const struct hwloc_info_s **ki, unsigned *nki)
{
#if HWLOC_API_VERSION >= 0x00030000
    struct hwloc_infos_s *infos = NULL;
    if (hwloc_cpukinds_get_info(t, (unsigned)k, set, eff, &infos, 0) != 0)
        return -1;
    *nki = infos ? infos->count : 0;
    *ki = infos ? infos->array : NULL;
#else
    struct hwloc_info_s *a = NULL;
    unsigned n = 0;
    if (hwloc_cpukinds_get_info(t, (unsigned)k, set, eff, &n, &a, 0) != 0)
        return -1;
    *nki = n;
    *ki = a;
#endif
    return 0;
}

/* An identity info of the CPU, wherever this topology's backend put it.
 * Arm CPUs whose cores differ (big.LITTLE, NVIDIA GB10) have their CPUPart
 * on each CPU kind only: then the most powerful kind's, the core LLVM's
 * Host.cpp names such a CPU after (it reads the last "CPU part" of
 * /proc/cpuinfo, the big cores' on these machines). */
const char *pb_cpu_info(const pb_run *run, const char *name)
{
    hwloc_obj_t const where[3] = {first_package(run), first_pu(run),
                                  hwloc_get_root_obj(run->topo)};
    const char *v = pb_info(holder(where, name), name);
    int nkinds = hwloc_cpukinds_get_nr(run->topo, 0);
    for (int k = nkinds - 1; !v && k >= 0; k--) { /* hwloc: most efficient last */
        int eff;
        const struct hwloc_info_s *ki;
        unsigned nki;
        if (kind_info(run->topo, k, NULL, &eff, &ki, &nki) != 0)
            continue;
        for (unsigned q = 0; q < nki && !v; q++)
            if (ki[q].name && ki[q].value && strcmp(ki[q].name, name) == 0)
                v = ki[q].value;
    }
    return v;
}

static void add_kind_infos(dlti_context *ctx, pb_map *km, const struct hwloc_info_s *ki,
                           unsigned nki)
{
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
                        pb_i64(ctx, km, kk[j].key, v);
                } else {
                    pb_str(ctx, km, kk[j].key, ki[q].value);
                }
                break;
            }
}

/* One kind, its PUs restricted to the usable ones (`set`). */
static const dlti_attr *kind_map(pb_run *run, hwloc_const_bitmap_t set, int eff,
                                 const struct hwloc_info_s *ki, unsigned nki, dlti_error_t *err)
{
    int64_t cores = 0;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(run->topo, HWLOC_OBJ_CORE, NULL); o;
         o = hwloc_get_next_obj_by_type(run->topo, HWLOC_OBJ_CORE, o))
        if (hwloc_bitmap_intersects(o->cpuset, set))
            cores++;
    pb_map km;
    pb_init(&km);
    if (eff >= 0)
        pb_i64(run->ctx, &km, "efficiency_rank", eff);
    if (cores)
        pb_i64(run->ctx, &km, "num_cores", cores);
    pb_i64(run->ctx, &km, "num_threads", hwloc_bitmap_weight(set));
    add_kind_infos(run->ctx, &km, ki, nki);
    return pb_finish(run->ctx, &km, DLTI_ATTR_MAP, err);
}

/* Hybrid CPUs: the kinds this process may use, most energy-efficient first
 * as hwloc sorts them, numbered from 0 without gaps. */
void pb_cpu_kinds(pb_run *run, pb_map *dev, dlti_error_t *err)
{
    int nkinds = hwloc_cpukinds_get_nr(run->topo, 0);
    if (nkinds <= 0)
        return;
    pb_map kinds;
    pb_init(&kinds);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int64_t used = 0;
    for (int k = 0; set && k < nkinds; k++) {
        int eff = -1;
        const struct hwloc_info_s *ki;
        unsigned nki;
        if (kind_info(run->topo, k, set, &eff, &ki, &nki) != 0)
            continue;
        hwloc_bitmap_and(set, set, run->allowed);
        if (hwloc_bitmap_weight(set) <= 0)
            continue;
        char key[32];
        snprintf(key, sizeof(key), "%" PRId64, used++);
        pb_add(run->ctx, &kinds, key, kind_map(run, set, eff, ki, nki, err));
    }
    hwloc_bitmap_free(set);
    if (kinds.n) {
        pb_i64(run->ctx, dev, "num_cpu_kinds", used);
        pb_add(run->ctx, dev, "cpu_kinds", pb_finish(run->ctx, &kinds, DLTI_ATTR_MAP, err));
        pb_provenance(run, "cpu_kinds", "hwloc cpukinds");
    } else {
        pb_free(&kinds);
    }
}
