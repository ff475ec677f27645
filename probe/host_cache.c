/* The cache of a host probe's whole result (docs/runtimes.md, "The whole
 * result").
 *
 * A warm `query --host` spent most of its time loading hwloc's topology and
 * reading the runtimes' entry; this entry, DIR/host-HASH.mlir, holds
 *     #dlti.map<"key" = "...", "spec" = #dlti.target_system_spec<...>,
 *               "warnings" = [...], "libraries" = #dlti.map<...>>
 * so that a hit is one parse, as `query FILE` is.  The key is built without
 * hwloc: the runtimes' key (rt_cache.c), the options that change the
 * output, the pci_match hook's cache_salt, and the host state the CPU
 * device reports that can change without a reboot (the files below).  The
 * entry is stale, as the runtimes' one, when a library the runtimes loaded
 * changed.  Its warnings are replayed through the caller's sink, so that a
 * hit says what the probe that wrote it said. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/vfs.h>
#include <unistd.h>

/* hwloc's own settings (HWLOC_COMPONENTS, HWLOC_FSROOT, ...) change what it
 * reports.  HWLOC_PLUGINS_BLACKLIST is left out: the CLI sets it
 * (sysdesc_probe_setup_process) and Python's host() does not, for plugins
 * the probe never uses (the io option is in the key), and both must share
 * one entry. */
static const char *const hwloc_env[] = {"HWLOC_"};

/* Small files whose content the CPU device reports, directly or through
 * hwloc, and that change without a reboot (and /proc/self/cgroup, which
 * key_cgroup reads: which cgroup, whose files follow). */
static const char *const host_files[] = {
    "/sys/devices/system/cpu/online",
};

/* One read into a stack buffer through a kept descriptor (key_read.c):
 * these files are small, and a cached host() reads them every call. */
static void key_file(dlti_buf *key, const char *path)
{
    char text[8192];
    size_t len;
    if (pb_key_read(path, text, sizeof(text), &len) == 0)
        dlti_buf_printf(key, "file %s %016llx\n", path,
                        (unsigned long long)dlti_hash_bytes(text, len));
}

/* The line of `path` holding `word` (MemTotal of /proc/meminfo and of a
 * NUMA node's meminfo: the rest of those files changes all the time). */
static void key_line(dlti_buf *key, const char *path, const char *word)
{
    char text[8192];
    char *at = pb_key_read(path, text, sizeof(text), NULL) == 0 ? strstr(text, word) : NULL;
    if (at) {
        char *start = at, *end = strchr(at, '\n');
        while (start > text && start[-1] != '\n')
            start--;
        dlti_buf_printf(key, "line %s %.*s\n", path,
                        (int)(end ? end - start : (ptrdiff_t)strlen(start)), start);
    }
}

/* The cgroup files memory.c (the memory limit) and hwloc (the allowed
 * cpuset, find_allowed in probe.c) read, along the cgroup's path up to the
 * root, for v2 and v1 hierarchies. */
static void key_cgroup(dlti_buf *key)
{
    char buf[4096];
    size_t len;
    if (pb_key_read("/proc/self/cgroup", buf, sizeof(buf), &len) != 0)
        return;
    dlti_buf_printf(key, "file /proc/self/cgroup %016llx\n",
                    (unsigned long long)dlti_hash_bytes(buf, len));
    static const struct {
        const char *controller, *mnt, *files[4];
    } kinds[] = {
        {"", "/sys/fs/cgroup",
         {"memory.max", "cpuset.cpus.effective", "cpuset.mems.effective", NULL}},
        {"memory", "/sys/fs/cgroup/memory", {"memory.limit_in_bytes", NULL}},
        {"cpuset", "/sys/fs/cgroup/cpuset",
         {"cpuset.cpus", "cpuset.mems", "cpuset.effective_cpus", "cpuset.effective_mems"}},
    };
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            /* v1 lines list controllers joined by ','; matching the whole
             * field is enough for the two read here. */
            if (strcmp(c1 + 1, kinds[k].controller) != 0 &&
                !(k > 0 && strstr(c1 + 1, kinds[k].controller)))
                continue;
            char dir[1024];
            snprintf(dir, sizeof(dir), "%s", c2 + 1);
            for (;;) {
                for (size_t f = 0; f < 4 && kinds[k].files[f]; f++) {
                    char path[1200];
                    snprintf(path, sizeof(path), "%s%s/%s", kinds[k].mnt,
                             strcmp(dir, "/") == 0 ? "" : dir, kinds[k].files[f]);
                    key_file(key, path);
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
}

/* Directory listings the key walks, kept for the next key: huge page
 * sizes are fixed at boot, and the node directories change only when a
 * node goes on- or offline, which /sys/devices/system/node/online says
 * (the `check` a listing is kept under). */
#define LISTINGS 16
static pthread_mutex_t listing_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char *dir, *check, *names;
} listings[LISTINGS];
static size_t nlistings;

static pthread_once_t listing_fork_once = PTHREAD_ONCE_INIT;

/* In a forked child: still valid (the watch generation starts anew), or
 * half-changed by a thread of the parent and dropped. */
static void listing_after_fork(void)
{
    if (!dlti_lock_whole_after_fork(&listing_lock))
        nlistings = 0;
}

static void listing_register_fork(void)
{
    pthread_atfork(NULL, NULL, listing_after_fork);
}

/* The names in `dir` that start with `prefix`, each followed by '\n' (a
 * malloc'ed string; NULL when out of memory), from the kept listing when it
 * was made under the same `check`. */
static char *list_dir(const char *dir, const char *prefix, const char *check)
{
    pthread_once(&listing_fork_once, listing_register_fork);
    char *out = NULL;
    pthread_mutex_lock(&listing_lock);
    size_t i = 0;
    while (i < nlistings && strcmp(listings[i].dir, dir) != 0)
        i++;
    bool hit = i < nlistings && strcmp(listings[i].check, check) == 0;
    if (hit)
        out = strdup(listings[i].names);
    pthread_mutex_unlock(&listing_lock);
    if (hit)
        return out;
    dlti_buf names = {0};
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            dlti_buf_printf(&names, "%s\n", e->d_name);
    bool whole = d != NULL;
    if (d)
        closedir(d);
    if (names.failed || (!names.data && !(names.data = calloc(1, 1)))) { /* "": none */
        free(names.data);
        return NULL;
    }
    char *kd = whole ? strdup(dir) : NULL, *kc = kd ? strdup(check) : NULL;
    char *kn = kc ? strdup(names.data) : NULL;
    pthread_mutex_lock(&listing_lock);
    i = 0;
    while (i < nlistings && strcmp(listings[i].dir, dir) != 0)
        i++;
    if (kn && (i < nlistings || nlistings < LISTINGS)) {
        if (i == nlistings)
            nlistings++;
        else {
            free(listings[i].dir);
            free(listings[i].check);
            free(listings[i].names);
        }
        listings[i].dir = kd;
        listings[i].check = kc;
        listings[i].names = kn;
        kd = kc = kn = NULL;
    }
    pthread_mutex_unlock(&listing_lock);
    free(kd);
    free(kc);
    free(kn);
    return names.data;
}

/* Huge page counts (hwloc's page types), system-wide and per NUMA node, and
 * each node's MemTotal. */
static void key_pages(dlti_buf *key, const char *dir, bool node)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/hugepages", dir);
    char *names = list_dir(path, "hugepages-", "");
    if (!names)
        key->failed = true;
    char *save = NULL;
    for (char *name = names ? strtok_r(names, "\n", &save) : NULL; name;
         name = strtok_r(NULL, "\n", &save)) {
        char f[1400];
        snprintf(f, sizeof(f), "%s/%s/nr_hugepages", path, name);
        key_file(key, f);
    }
    free(names);
    if (node) {
        snprintf(path, sizeof(path), "%s/meminfo", dir);
        key_line(key, path, "MemTotal:");
    }
}

static void key_nodes(dlti_buf *key)
{
    char online[256];
    if (pb_key_read("/sys/devices/system/node/online", online, sizeof(online), NULL) != 0)
        online[0] = '\0';
    dlti_buf_printf(key, "nodes online %s", online);
    char *names = list_dir("/sys/devices/system/node", "node", online);
    if (!names)
        key->failed = true;
    char *save = NULL;
    for (char *name = names ? strtok_r(names, "\n", &save) : NULL; name;
         name = strtok_r(NULL, "\n", &save)) {
        if (name[4] < '0' || name[4] > '9')
            continue;
        char dir[512];
        snprintf(dir, sizeof(dir), "/sys/devices/system/node/%s", name);
        key_pages(key, dir, true);
    }
    free(names);
}

/* The clocks of the first CPU this process may use (pb_cpu_frequency
 * reports the first usable PU's). */
static void key_frequency(dlti_buf *key)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    int c = 0;
    while (c < CPU_SETSIZE && !CPU_ISSET(c, &set))
        c++;
    static const char *const files[] = {"cpuinfo_max_freq", "base_frequency", "scaling_max_freq"};
    char dir[128];
    snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cpufreq", c);
    struct stat st;
    if (c >= CPU_SETSIZE || stat(dir, &st) != 0) /* no cpufreq driver (a VM): one look, not three */
        return;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char f[160];
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", c, files[i]);
        key_file(key, f);
    }
}

bool pb_host_cache_key(pb_run *run, dlti_buf *key)
{
    const sysdesc_probe_options *o = run->opts;
    if (!run->host || (o->pci_match && !o->cache_salt))
        return false;
    dlti_buf_puts(key, "host result 1\n");
    dlti_buf_printf(key, "io %d in_process %d timeout %u prefix ", (int)o->io,
                    (int)o->runtimes_in_process, o->runtime_timeout_ms);
    dlti_print_string(key, run->prefix, strlen(run->prefix));
    dlti_buf_puts(key, "\nhook ");
    if (o->pci_match)
        dlti_print_string(key, o->cache_salt, strlen(o->cache_salt));
    else
        dlti_buf_puts(key, "none");
    dlti_buf_putc(key, '\n');
    pb_rt_cache_key(run, pb_rt_asked_bits(o), key);
    char host[256] = "";
    if (gethostname(host, sizeof(host) - 1) == 0)
        dlti_buf_printf(key, "hostname %s\n", host);
    pb_cache_key_env(key, hwloc_env, sizeof(hwloc_env) / sizeof(hwloc_env[0]),
                     "HWLOC_PLUGINS_BLACKLIST=");
    for (size_t i = 0; i < sizeof(host_files) / sizeof(host_files[0]); i++)
        key_file(key, host_files[i]);
    key_cgroup(key);
    /* /proc/meminfo's MemTotal (what probe/memory.c reports), as sysinfo(2)
     * gives it when the file is the kernel's (the same count of pages,
     * without formatting the whole file); a /proc/meminfo of LXCFS (a FUSE
     * file showing a container's limit) is read. */
    struct statfs fs;
    struct sysinfo si;
    if (statfs("/proc/meminfo", &fs) == 0 && (unsigned long)fs.f_type == 0x9FA0UL &&
        sysinfo(&si) == 0)
        dlti_buf_printf(key, "memtotal %llu\n",
                        (unsigned long long)si.totalram * (unsigned long long)si.mem_unit);
    else
        key_line(key, "/proc/meminfo", "MemTotal:");
    key_pages(key, "/sys/kernel/mm", false);
    key_nodes(key);
    key_frequency(key);
    pb_compilers_key(run, key);
    return key->data && !key->failed;
}

const dlti_attr *pb_host_cache_read(pb_run *run, const char *key)
{
    dlti_context *ctx = run->ctx;
    const dlti_attr *entry = pb_cache_lookup(run, "host", key);
    const dlti_attr *spec = entry ? dlti_attr_lookup(entry, dlti_key_string(ctx, "spec", 4)) : NULL;
    if (!spec || dlti_attr_get_kind(spec) != DLTI_ATTR_SYSTEM_SPEC)
        return NULL;
    const dlti_attr *libs = dlti_attr_lookup(entry, dlti_key_string(ctx, "libraries", 9));
    if (libs && (dlti_attr_get_kind(libs) != DLTI_ATTR_MAP || !pb_rt_libraries_unchanged(libs)))
        return NULL;
    const dlti_attr *warnings = dlti_attr_lookup(entry, dlti_key_string(ctx, "warnings", 8));
    if (warnings && dlti_attr_get_kind(warnings) != DLTI_ATTR_ARRAY)
        return NULL;
    size_t n = warnings ? dlti_attr_size(warnings) : 0;
    for (size_t i = 0; i < n; i++) { /* all strings, checked before any is said */
        const char *s;
        size_t len;
        if (dlti_attr_get_string(dlti_attr_element(warnings, i), &s, &len, NULL) != 0)
            return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const char *s;
        size_t len;
        dlti_attr_get_string(dlti_attr_element(warnings, i), &s, &len, NULL);
        pb_warning_emit(run->opts, s);
    }
    return spec;
}

void pb_host_cache_write(pb_run *run, const char *key, const dlti_attr *spec)
{
    if (!run->rt_cacheable) /* a runtime failed or timed out: ask again next time */
        return;
    size_t len = 0;
    char *text = dlti_attr_print(spec, &len);
    if (!text)
        return;
    dlti_buf b = {0};
    dlti_buf_puts(&b, "\"spec\" = ");
    dlti_buf_put(&b, text, len);
    free(text);
    if (run->warn.nlines) {
        dlti_buf_puts(&b, ", \"warnings\" = [");
        for (size_t i = 0; i < run->warn.nlines; i++) {
            if (i)
                dlti_buf_puts(&b, ", ");
            dlti_print_string(&b, run->warn.lines[i], strlen(run->warn.lines[i]));
        }
        dlti_buf_putc(&b, ']');
    }
    if (run->rt_libraries && dlti_attr_size(run->rt_libraries)) {
        char *l = dlti_attr_print(run->rt_libraries, &len);
        if (!l)
            b.failed = true;
        else {
            dlti_buf_puts(&b, ", \"libraries\" = ");
            dlti_buf_put(&b, l, len);
        }
        free(l);
    }
    if (!b.failed)
        pb_cache_store(run, "host", key, b.data, b.len);
    free(b.data);
}
