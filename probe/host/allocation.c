/* The CPU's "allocation" map: what this process may use on this host, as
 * opposed to what the node has (docs/allocation.md).  The counts and the
 * memory already follow it (cpu_topology.c through run->allowed, memory.c
 * through the cgroup limit); this map says what the allocation is and where
 * each part of it comes from: the CPUs and NUMA nodes (the cgroup's cpuset
 * as hwloc reads it, and this process's CPU binding: taskset, Slurm's
 * task/affinity, an MPI launcher's binding), the cgroup's CPU quota and
 * memory limit, the cgroup itself, and the Slurm job and step. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The os indices of a bitmap's bits as array<i64> (NULL when empty or out
 * of memory). */
static const dlti_attr *bitmap_indices(dlti_context *ctx, hwloc_const_bitmap_t set)
{
    int n = hwloc_bitmap_weight(set);
    if (n <= 0)
        return NULL;
    int64_t *v = malloc((size_t)n * sizeof(*v));
    if (!v)
        return NULL;
    size_t k = 0;
    for (int i = hwloc_bitmap_first(set); i >= 0 && k < (size_t)n; i = hwloc_bitmap_next(set, i))
        v[k++] = i;
    const dlti_attr *a = pb_i64_array(ctx, v, k);
    free(v);
    return a;
}

/* cgroup v2 cpu.max ("QUOTA PERIOD", or "max PERIOD"): QUOTA/PERIOD, or -1. */
static double read_cpu_max(const char *path)
{
    char buf[64];
    if (pb_read_file(path, buf, sizeof(buf)) != 0 || !isdigit((unsigned char)buf[0]))
        return -1;
    char *end;
    double quota = bs_strtod(buf, &end), period = bs_strtod(end, NULL);
    return quota > 0 && period > 0 ? quota / period : -1;
}

/* cgroup v1 cpu.cfs_quota_us over cpu.cfs_period_us (in the directory that
 * `path` names with "/cpu.cfs_quota_us"): -1 when the quota is -1 (none). */
static double read_cfs_quota(const char *path)
{
    char buf[64], period_path[1300];
    if (pb_read_file(path, buf, sizeof(buf)) != 0 || !isdigit((unsigned char)buf[0]))
        return -1;
    double quota = bs_strtod(buf, NULL);
    snprintf(period_path, sizeof(period_path), "%.*s/cpu.cfs_period_us",
             (int)(strrchr(path, '/') - path), path);
    if (pb_read_file(period_path, buf, sizeof(buf)) != 0)
        return -1;
    double period = bs_strtod(buf, NULL);
    return quota > 0 && period > 0 ? quota / period : -1;
}

/* The smallest CPU quota on the path from this process's cgroup up to the
 * root (a parent's quota bounds its children), as a number of CPUs; -1 when
 * none applies; `source` gets the file.  `cgroup` gets the cgroup v2 path
 * (the "0::" line of /proc/self/cgroup), "" when there is none. */
static double cgroup_cpu_quota(char *source, size_t size, char *cgroup, size_t csize)
{
    char buf[4096];
    cgroup[0] = '\0';
    if (pb_read_file("/proc/self/cgroup", buf, sizeof(buf)) != 0)
        return -1;
    double best = -1;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        /* "0::/path" (v2) or "3:cpu,cpuacct:/path" (v1) */
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *controllers = c1 + 1, *cpath = c2 + 1;
        static const char *const v1_mounts[] = {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"};
        bool v2 = !*controllers && line[0] == '0';
        bool v1 = false;
        for (const char *c = controllers; !v2 && *c;) {
            size_t n = strcspn(c, ",");
            v1 = v1 || (n == 3 && strncmp(c, "cpu", 3) == 0);
            c += n + (c[n] == ',');
        }
        if (v2)
            snprintf(cgroup, csize, "%s", cpath);
        for (size_t m = 0; (v2 && m == 0) || (v1 && m < 2); m++) {
            const char *mnt = v2 ? "/sys/fs/cgroup" : v1_mounts[m];
            char dir[1024];
            snprintf(dir, sizeof(dir), "%s", cpath);
            for (;;) {
                char path[1300];
                snprintf(path, sizeof(path), "%s%s/%s", mnt, strcmp(dir, "/") == 0 ? "" : dir,
                         v2 ? "cpu.max" : "cpu.cfs_quota_us");
                double q = v2 ? read_cpu_max(path) : read_cfs_quota(path);
                if (q > 0 && (best < 0 || q < best)) {
                    best = q;
                    snprintf(source, size, "%s", path);
                }
                char *slash = strrchr(dir, '/');
                if (!slash || strcmp(dir, "/") == 0)
                    break;
                if (slash == dir)
                    slash[1] = '\0';
                else
                    *slash = '\0';
            }
        }
    }
    return best;
}

/* A Slurm id from the environment (a decimal number), or -1. */
static int64_t slurm_id(const char *name)
{
    const char *v = getenv(name);
    if (!v || !isdigit((unsigned char)*v))
        return -1;
    char *end;
    long long n = strtoll(v, &end, 10);
    return *end || n < 0 ? -1 : (int64_t)n;
}

void pb_cpu_allocation(pb_run *run, pb_map *dev, const pb_memory *mem, dlti_error_t *err)
{
    if (!run->host)
        return; /* another machine's topology: this process is not on it */
    dlti_context *ctx = run->ctx;
    pb_map m;
    pb_init(&m);
    const dlti_attr *cpus = bitmap_indices(ctx, run->process_cpus);
    if (cpus) {
        pb_add(ctx, &m, "cpus", cpus);
        pb_provenance(run, "allocation.cpus",
                      "hwloc's allowed cpuset (cgroup cpuset.cpus) and this process's CPU "
                      "binding (sched_getaffinity)");
    }
    const dlti_attr *nodes = bitmap_indices(ctx, hwloc_topology_get_allowed_nodeset(run->topo));
    if (nodes) {
        pb_add(ctx, &m, "numa_nodes", nodes);
        pb_provenance(run, "allocation.numa_nodes", "hwloc's allowed nodeset (cgroup cpuset.mems)");
    }
    char source[1300] = "", cgroup[1024];
    double quota = cgroup_cpu_quota(source, sizeof(source), cgroup, sizeof(cgroup));
    if (quota > 0) {
        pb_add(ctx, &m, "cpu_quota", dlti_float_new(ctx, dlti_type_f64(ctx), quota, NULL));
        pb_provenance(run, "allocation.cpu_quota", source);
    }
    if (mem->cgroup_limit > 0) {
        pb_i64(ctx, &m, "memory_limit_in_bytes", mem->cgroup_limit);
        pb_provenance(run, "allocation.memory_limit_in_bytes", mem->cgroup_source);
    }
    if (cgroup[0]) {
        pb_str(ctx, &m, "cgroup", cgroup);
        pb_provenance(run, "allocation.cgroup", "/proc/self/cgroup (cgroup v2)");
    }
    static const struct { const char *var, *key; } slurm[] = {
        {"SLURM_JOB_ID", "slurm_job_id"},
        {"SLURM_STEP_ID", "slurm_step_id"},
    };
    for (size_t i = 0; i < sizeof(slurm) / sizeof(slurm[0]); i++) {
        int64_t id = slurm_id(slurm[i].var);
        if (id < 0)
            continue;
        char path[64], from[64];
        pb_i64(ctx, &m, slurm[i].key, id);
        snprintf(path, sizeof(path), "allocation.%s", slurm[i].key);
        snprintf(from, sizeof(from), "environment %s", slurm[i].var);
        pb_provenance(run, path, from);
    }
    if (pb_whole_node(run))
        pb_provenance(run, "allocation",
                      "this process's; the counts, the memory and the GPUs are the whole "
                      "node's (whole_node, probe --whole-node)");
    pb_add_map(ctx, dev, "allocation", &m, err);
}
