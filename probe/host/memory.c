/* The memory of the CPU device: what this process may use (on this host
 * /proc/meminfo's MemTotal bounded by the cgroup limit; from an XML file the
 * NUMA nodes' sum, the only figure it carries), hwloc's NUMA nodes and page
 * sizes, and the OS's and the cgroup's own figures. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAGE_SIZES 64

/* MemTotal of /proc/meminfo in bytes, or -1. */
static int64_t meminfo_total(void)
{
    char buf[512];
    /* MemTotal is the first line of /proc/meminfo. */
    if (pb_read_file("/proc/meminfo", buf, sizeof(buf)) != 0)
        return -1;
    const char *p = strstr(buf, "MemTotal:");
    if (!p)
        return -1;
    char *end;
    long long kib = strtoll(p + 9, &end, 10);
    if (end == p + 9 || kib <= 0)
        return -1;
    return (int64_t)kib * 1024;
}

/* Reads a limit file: a number, or "max"/huge for none. */
static int64_t read_limit(const char *path)
{
    char buf[64];
    if (pb_read_file(path, buf, sizeof(buf)) != 0 || !isdigit((unsigned char)buf[0]))
        return -1;
    unsigned long long v = strtoull(buf, NULL, 10);
    /* cgroup v1 reports "unlimited" as a page-rounded LONG_MAX. */
    if (v == 0 || v >= (1ULL << 62))
        return -1;
    return (int64_t)v;
}

/* The cgroup memory limit of this process in bytes (v2 memory.max or v1
 * memory.limit_in_bytes, the smallest along the path), or -1 when none
 * applies; `source` gets the file read. */
static int64_t cgroup_memory_limit(char *source, size_t size)
{
    char buf[4096];
    if (pb_read_file("/proc/self/cgroup", buf, sizeof(buf)) != 0)
        return -1;
    int64_t best = -1;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        /* "0::/path" (v2) or "4:memory:/path" (v1) */
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        const char *controllers = c1 + 1;
        size_t clen = (size_t)(c2 - controllers);
        const char *cpath = c2 + 1;
        const char *mnt, *file;
        if (clen == 0 && line[0] == '0') {
            mnt = "/sys/fs/cgroup";
            file = "memory.max";
        } else if (clen == 6 && strncmp(controllers, "memory", 6) == 0) {
            mnt = "/sys/fs/cgroup/memory";
            file = "memory.limit_in_bytes";
        } else {
            continue;
        }
        /* Walk from the process's cgroup up to the root: the smallest limit
         * applies.  In a cgroup namespace the path may not exist under the
         * mount; the root of the mount is then our cgroup. */
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s", cpath);
        for (;;) {
            char path[1200];
            snprintf(path, sizeof(path), "%s%s/%s", mnt, strcmp(dir, "/") == 0 ? "" : dir, file);
            int64_t v = read_limit(path);
            if (v > 0 && (best < 0 || v < best)) {
                best = v;
                if (source)
                    snprintf(source, size, "%s", path);
            }
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir) {
                if (strcmp(dir, "/") == 0)
                    break;
                snprintf(dir, sizeof(dir), "/");
                continue;
            }
            *slash = '\0';
        }
    }
    return best;
}

/* `bytes` as a person reads them: "12.2 GiB" ("512.0 MiB" below a GiB). */
static void size_text(char *out, size_t size, int64_t bytes)
{
    const double mib = 1024.0 * 1024.0, gib = mib * 1024.0;
    if ((double)bytes >= gib)
        bs_snprintf(out, size, "%.1f GiB", (double)bytes / gib);
    else
        bs_snprintf(out, size, "%.1f MiB", (double)bytes / mib);
}

/* The OS's figures beside hwloc's.  hwloc's NUMA nodes can miss memory
 * (hidden nodes, a VM's nodes that grow while MemTotal does not): a gap is
 * flagged on the NUMA sum, not resolved. */
static void add_os_memory(pb_run *run, pb_map *m, const pb_memory *mem)
{
    if (mem->os_total > 0) {
        pb_i64(run->ctx, m, "os_total_in_bytes", mem->os_total);
        pb_provenance(run, "memory.os_total_in_bytes", "/proc/meminfo MemTotal");
        int64_t numa = mem->numa_total, os = mem->os_total;
        /* A gap is this machine's (hidden nodes; a VM's nodes that lag its
         * memory): every probe here finds it again, and nothing a user
         * reads for "how much memory" depends on it (total_in_bytes follows
         * MemTotal).  A warning on every run would teach users to skip
         * warnings, so it is a note in the spec, said once: the path in
         * "suspect" and both figures, readably, in its "source". */
        if (numa > 0 && (numa < os / 10 * 9 || numa > os / 10 * 11)) {
            char n[32], o[32], note[256];
            size_text(n, sizeof n, numa);
            size_text(o, sizeof o, os);
            bs_snprintf(note, sizeof note,
                        "hwloc's NUMA nodes: %s, %s /proc/meminfo MemTotal's %s "
                        "(os_total_in_bytes), which total_in_bytes follows",
                        n, numa < os ? "less than" : "more than", o);
            pb_provenance(run, "memory.numa_total_in_bytes", note);
            pb_suspect(&run->warn, "memory.numa_total_in_bytes");
        }
    }
    if (mem->cgroup_limit > 0) {
        pb_i64(run->ctx, m, "cgroup_limit_in_bytes", mem->cgroup_limit);
        pb_provenance(run, "memory.cgroup_limit_in_bytes", mem->cgroup_source);
    }
}

void pb_memory_find(const pb_run *run, pb_memory *mem)
{
    bool known = false;
    mem->numa_total = 0;
    mem->nnode = 0;
    mem->pages = NULL;
    mem->npages = 0;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(run->topo, HWLOC_OBJ_NUMANODE, NULL); o;
         o = hwloc_get_next_obj_by_type(run->topo, HWLOC_OBJ_NUMANODE, o)) {
        if (!pb_usable(run, o))
            continue;
        int64_t m = (int64_t)o->attr->numanode.local_memory;
        if (m > 0) {
            known = true;
            mem->numa_total += m;
        }
        if (mem->nnode < sizeof(mem->node) / sizeof(mem->node[0]))
            mem->node[mem->nnode++] = m;
        if (!mem->pages && o->attr->numanode.page_types_len) {
            mem->pages = o->attr->numanode.page_types;
            mem->npages = o->attr->numanode.page_types_len;
        }
    }
    if (!known)
        mem->numa_total = -1;
    mem->os_total = mem->cgroup_limit = -1;
    mem->cgroup_source[0] = '\0';
    if (run->host) {
        mem->os_total = meminfo_total();
        mem->cgroup_limit = cgroup_memory_limit(mem->cgroup_source, sizeof(mem->cgroup_source));
    }
    /* "How much can I use": the OS's figure, not hwloc's NUMA nodes (which
     * miss memory: hidden nodes, a VM whose nodes grow while MemTotal does
     * not), bounded by the cgroup (unless the whole node's view is asked). */
    mem->total = mem->os_total > 0 ? mem->os_total : mem->numa_total;
    if (mem->cgroup_limit > 0 && !pb_whole_node(run) &&
        (mem->total <= 0 || mem->cgroup_limit < mem->total))
        mem->total = mem->cgroup_limit;
}



/* The first NUMA node's page sizes in hwloc's order; the smallest is the
 * base page size. */
static void add_page_sizes(dlti_context *ctx, pb_map *m, const pb_memory *mem)
{
    int64_t sizes[MAX_PAGE_SIZES];
    size_t ns = 0;
    int64_t smallest = 0;
    for (unsigned i = 0; i < mem->npages && ns < MAX_PAGE_SIZES; i++)
        if (mem->pages[i].size) {
            sizes[ns++] = (int64_t)mem->pages[i].size;
            if (!smallest || (int64_t)mem->pages[i].size < smallest)
                smallest = (int64_t)mem->pages[i].size;
        }
    if (ns) {
        pb_i64(ctx, m, "page_size_in_bytes", smallest);
        pb_add(ctx, m, "page_sizes_in_bytes", pb_i64_array(ctx, sizes, ns));
    }
}

void pb_memory_add(pb_run *run, pb_map *dev, const pb_memory *mem, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    pb_map m;
    pb_init(&m);
    if (mem->total > 0) {
        pb_i64(ctx, &m, "total_in_bytes", mem->total);
        if (mem->total == mem->cgroup_limit)
            pb_provenance(run, "memory.total_in_bytes", mem->cgroup_source);
        else if (mem->total == mem->os_total)
            pb_provenance(run, "memory.total_in_bytes", "/proc/meminfo MemTotal");
        /* else the NUMA nodes' sum: "memory" = "hwloc" says so */
    }
    if (mem->numa_total > 0) {
        pb_i64(ctx, &m, "numa_total_in_bytes", mem->numa_total);
        if (mem->nnode)
            pb_add(ctx, &m, "numa_node_size_in_bytes", pb_i64_array(ctx, mem->node, mem->nnode));
    }
    add_os_memory(run, &m, mem);
    add_page_sizes(ctx, &m, mem);
    pb_add_map(ctx, dev, "memory", &m, err);
}
