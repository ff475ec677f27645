/* The cache of the runtimes' answers (docs/runtimes.md, "The cache").
 *
 * An entry is one file, DIR/runtimes-HASH.mlir, holding
 *     #dlti.map<"key" = "...", "answer" = #dlti.map<...>>
 * where the answer is what the runtime sources said (rt_text.c) and the key
 * says what it depends on: the sysdesc and schema versions, the boot, the
 * runtimes asked, the CPUs this process may use, the environment variables
 * the runtimes read, the PCI devices and their drivers, the kernel drivers'
 * versions, and the loader's configuration files (ld.so.cache, the OpenCL
 * and Vulkan ICD directories).  HASH is the key's 64-bit hash; the key
 * itself is compared in full.  An entry is also stale when one of the
 * shared libraries the runtimes loaded (its "libraries") is no longer the
 * same file.  The directory is used only when it is this user's alone
 * (owner, mode, not a link); entries are written atomically (a temporary
 * file renamed over the old one), read only when they are regular files of
 * this user (dlti_input_open: never a FIFO, never a link), and ignored when
 * they do not parse, do not match or are stale; an answer read from the
 * cache goes through the reader a fresh answer goes through (rt_text.c). */
#define _GNU_SOURCE
#include "probe_private.h"

#include "sysdesc/version.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_ENTRY_BYTES (PB_RT_MAX_ANSWER_BYTES + 64 * 1024) /* the answer and its key */
#define PRUNE_AFTER_SECONDS (7 * 24 * 3600) /* entries of past boots and settings */

/* The environment variables that change what a runtime reports: every one
 * with one of these prefixes (or exactly one of the names without '_' at
 * the end). */
static const char *const env_prefixes[] = {
    "CUDA_", "NVIDIA_", "__GL", "ROCR_", "HIP_", "HSA_", "GPU_DEVICE_ORDINAL", "AMD_", "ZE_",
    "OCL_ICD_", "OPENCL_", "POCL_", "VK_", "MESA_", "LP_", "RUSTICL_", "LD_LIBRARY_PATH",
    "LD_PRELOAD", "XDG_DATA_DIRS", "XDG_DATA_HOME", "XDG_CONFIG_DIRS", "XDG_CONFIG_HOME",
};

/* Files whose identity (inode, size, mtime) is part of the key: the loader's
 * library cache and the directories of the runtimes' ICD manifests. */
static const char *const key_files[] = {
    "/etc/ld.so.cache",
    "/etc/OpenCL/vendors",
    "/usr/share/vulkan/icd.d",
    "/usr/local/share/vulkan/icd.d",
    "/etc/vulkan/icd.d",
    "/usr/share/vulkan/implicit_layer.d",
    "/etc/vulkan/implicit_layer.d",
    "/dev/dri",
};

/* Small files whose content is part of the key: the PCI devices with their
 * drivers, and the kernel drivers' versions.  A driver's version files are
 * read only when that driver is bound to a PCI device (the last column of
 * /proc/bus/pci/devices), or when that list cannot be read: only then can
 * it change what a runtime sees, and a driver that binds or unbinds
 * changes the list. */
static const char *const pci_devices = "/proc/bus/pci/devices";
static const struct {
    const char *driver, *path;
} driver_versions[] = {
    {"nvidia", "/proc/driver/nvidia/version"},
    {"nvidia", "/sys/module/nvidia/version"},
    {"amdgpu", "/sys/module/amdgpu/version"},
    {"i915", "/sys/module/i915/version"},
    {"xe", "/sys/module/xe/version"},
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void pb_cache_key_env(dlti_buf *key, const char *const *prefixes, size_t nprefixes,
                      const char *skip)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    const char **sel = calloc(n ? n : 1, sizeof(*sel));
    if (!sel) {
        key->failed = true;
        return;
    }
    size_t k = 0;
    for (char **e = environ; e && *e; e++)
        for (size_t i = 0; i < nprefixes; i++)
            /* the first byte first: most variables match no prefix, and a
             * cached host() scans them all on every call */
            if (**e == prefixes[i][0] && strncmp(*e, prefixes[i], strlen(prefixes[i])) == 0 &&
                !(skip && strncmp(*e, skip, strlen(skip)) == 0)) {
                sel[k++] = *e;
                break;
            }
    qsort(sel, k, sizeof(*sel), cmp_str); /* the environment's order does not matter */
    for (size_t i = 0; i < k; i++)
        dlti_buf_printf(key, "env %s\n", sel[i]);
    free(sel);
}

/* The kernel file `path` (/proc, /sys: small) hashed into a "file" line. */
static void key_file(dlti_buf *key, const char *path, const char *text, size_t len)
{
    dlti_buf_printf(key, "file %s %016llx\n", path, (unsigned long long)dlti_hash_bytes(text, len));
}

/* Whether `driver` is the driver of a device of /proc/bus/pci/devices
 * (`list`): the last field of a line, after a tab. */
static bool bound(const char *list, const char *driver)
{
    size_t n = strlen(driver);
    for (const char *p = list; (p = strstr(p, driver)) != NULL; p += n)
        if (p > list && p[-1] == '\t' && (p[n] == '\n' || p[n] == '\0'))
            return true;
    return false;
}

/* The identity of each of key_files. */
static void key_stats(dlti_buf *key)
{
    for (size_t i = 0; i < sizeof(key_files) / sizeof(key_files[0]); i++) {
        struct stat st;
        if (stat(key_files[i], &st) == 0)
            dlti_buf_printf(key, "stat %s %llu:%lld:%lld.%09ld\n", key_files[i],
                            (unsigned long long)st.st_ino, (long long)st.st_size,
                            (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    }
}

/* What the runtimes' views hold, counted up whenever a view gains or loses
 * a key: an entry written by a build whose views differ is not current,
 * though the sysdesc version be the same. */
#define RT_VIEWS_REVISION 2

void pb_rt_cache_key(pb_run *run, unsigned asked, dlti_buf *key)
{
    dlti_buf_printf(key, "sysdesc %s schema %d views %d runtimes 0x%x\n", SYSDESC_VERSION_STRING,
                    SYSDESC_SCHEMA_VERSION, RT_VIEWS_REVISION, asked);
    /* a whole-node probe's children run without the visibility variables */
    if (run->opts->whole_node && !run->opts->runtimes_in_process)
        dlti_buf_puts(key, "whole-node\n");
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        dlti_buf_puts(key, "cpus");
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                dlti_buf_printf(key, " %d", c);
        dlti_buf_putc(key, '\n');
    }
    pb_cache_key_env(key, env_prefixes, sizeof(env_prefixes) / sizeof(env_prefixes[0]), NULL);
    size_t len;
    char *boot = dlti_read_file("/proc/sys/kernel/random/boot_id", 256, &len, NULL);
    if (boot)
        key_file(key, "boot_id", boot, len);
    free(boot);
    char *pci = dlti_read_file(pci_devices, 1u << 20, &len, NULL);
    if (pci)
        key_file(key, pci_devices, pci, len);
    for (size_t i = 0; i < sizeof(driver_versions) / sizeof(driver_versions[0]); i++) {
        if (pci && !bound(pci, driver_versions[i].driver))
            continue;
        char *text = dlti_read_file(driver_versions[i].path, 4096, &len, NULL);
        if (text)
            key_file(key, driver_versions[i].path, text, len);
        free(text);
    }
    free(pci);
    key_stats(key);
    (void)run;
}

/* The cache directory into `out`; false when there is none (no
 * $XDG_CACHE_HOME, no $HOME). */
static bool cache_dir(const pb_run *run, char *out, size_t size)
{
    const char *dir = run->opts->cache_dir;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (dir && *dir)
        n = snprintf(out, size, "%s", dir);
    else if (xdg && xdg[0] == '/') /* relative values are invalid (XDG base directories) */
        n = snprintf(out, size, "%s/sysdesc", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.cache/sysdesc", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

/* The entry's file name in the cache directory. */
static bool entry_name(const char *kind, const char *key, char *out, size_t size)
{
    int n = snprintf(out, size, "%s-%016llx.mlir", kind,
                     (unsigned long long)dlti_hash_bytes(key, strlen(key)));
    return n > 0 && (size_t)n < size;
}

/* mkdir -p with mode 0700 for what it creates; true when `dir` is there. */
static bool make_dirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            *p = '/';
            return false;
        }
        *p = '/';
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

/* The cache directory, opened: -1 when there is none, or when it is not
 * this user's alone (docs/runtimes.md, "Who may write the cache"): owned by
 * another user, writable by its group or others, or a symbolic link.  Such a
 * directory is never read or written, and the first probe of the process
 * that meets it says so.  `create`: make it (0700) when it is missing. */
static int open_cache_dir(pb_run *run, bool create)
{
    static atomic_bool warned;
    char dir[4096];
    if (!cache_dir(run, dir, sizeof(dir)))
        return -1;
    dlti_error_t why;
    int fd = dlti_dir_open(AT_FDCWD, dir, DLTI_INPUT_NOFOLLOW | DLTI_INPUT_PRIVATE, &why);
    if (fd < 0 && create && errno == ENOENT && make_dirs(dir))
        fd = dlti_dir_open(AT_FDCWD, dir, DLTI_INPUT_NOFOLLOW | DLTI_INPUT_PRIVATE, &why);
    /* A missing directory is the normal first run; anything else is said. */
    if (fd < 0 && errno != ENOENT && !atomic_exchange(&warned, true))
        pb_warning(&run->warn, NULL,
                   "the runtimes' cache directory %s is not used (%s): the runtimes are "
                   "asked every time (docs/runtimes.md, \"The cache\")",
                   dir, why.text);
    return fd;
}

/* The entry when it is a regular file of this user that others cannot
 * write, not a link, under the size limit (dlti_input_open). */
static char *read_entry(int dirfd, const char *name, size_t *len)
{
    return dlti_read_file_at(dirfd, name, DLTI_INPUT_NOFOLLOW | DLTI_INPUT_PRIVATE,
                             MAX_ENTRY_BYTES, len, NULL);
}

const dlti_attr *pb_cache_lookup(pb_run *run, const char *kind, const char *key)
{
    char name[128];
    size_t len = 0;
    if (!entry_name(kind, key, name, sizeof(name)))
        return NULL;
    int dirfd = open_cache_dir(run, false);
    if (dirfd < 0)
        return NULL;
    char *text = read_entry(dirfd, name, &len);
    close(dirfd);
    if (!text)
        return NULL;
    dlti_context *ctx = run->ctx;
    const dlti_attr *entry = dlti_attr_parse(ctx, text, len, name, NULL);
    free(text);
    const dlti_attr *k = entry && dlti_attr_get_kind(entry) == DLTI_ATTR_MAP
                             ? dlti_attr_lookup(entry, dlti_key_string(ctx, "key", 3))
                             : NULL;
    const char *was;
    size_t wlen;
    if (!k || dlti_attr_get_string(k, &was, &wlen, NULL) != 0 || wlen != strlen(key) ||
        memcmp(was, key, wlen) != 0)
        return NULL;
    return entry;
}

const dlti_attr *pb_rt_cache_read(pb_run *run, const char *key)
{
    const dlti_attr *entry = pb_cache_lookup(run, "runtimes", key);
    dlti_context *ctx = run->ctx;
    const dlti_attr *answer =
        entry ? dlti_attr_lookup(entry, dlti_key_string(ctx, "answer", 6)) : NULL;
    if (!answer || dlti_attr_get_kind(answer) != DLTI_ATTR_MAP)
        return NULL;
    const dlti_attr *libs = dlti_attr_lookup(answer, dlti_key_string(ctx, "libraries", 9));
    if (libs && (dlti_attr_get_kind(libs) != DLTI_ATTR_MAP || !pb_rt_libraries_unchanged(libs)))
        return NULL;
    return answer;
}

/* Removes the entries (and temporary files left by a crash) that nobody
 * wrote for a week: those of earlier boots, drivers and settings. */
static void prune(int dirfd)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name + (e->d_name[0] == '.');
        if (strncmp(n, "runtimes-", 9) != 0 && strncmp(n, "compiler-", 9) != 0 &&
            strncmp(n, "host-", 5) != 0) /* host-: an older sysdesc's */
            continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() && now - st.st_mtime > PRUNE_AFTER_SECONDS)
            unlinkat(dirfd, e->d_name, 0);
    }
    closedir(d);
}

/* A new file in the cache directory, for writing only: the temporary file
 * an entry is written to before it is renamed over the entry. */
static int create_temporary(int dirfd, const char *kind, char *name, size_t size)
{
    static atomic_uint serial;
    for (int tries = 0; tries < 16; tries++) {
        snprintf(name, size, ".%s-%ld-%u", kind, (long)getpid(), atomic_fetch_add(&serial, 1));
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

void pb_cache_store(pb_run *run, const char *kind, const char *key, const char *fields,
                    size_t len)
{
    char name[128], tmp[128];
    if (!entry_name(kind, key, name, sizeof(name)))
        return;
    int dirfd = open_cache_dir(run, true);
    if (dirfd < 0)
        return;
    dlti_buf b = {0};
    dlti_buf_puts(&b, "#dlti.map<\"key\" = ");
    dlti_print_string(&b, key, strlen(key));
    dlti_buf_puts(&b, ", ");
    dlti_buf_put(&b, fields, len);
    dlti_buf_puts(&b, ">\n");
    int fd = b.failed ? -1 : create_temporary(dirfd, kind, tmp, sizeof(tmp));
    if (fd >= 0) {
        size_t done = 0;
        while (done < b.len) {
            ssize_t w = write(fd, b.data + done, b.len - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        bool ok = done == b.len;
        if (close(fd) != 0 || !ok || renameat(dirfd, tmp, dirfd, name) != 0)
            unlinkat(dirfd, tmp, 0);
        prune(dirfd);
    }
    close(dirfd);
    free(b.data);
}

void pb_rt_cache_write(pb_run *run, const char *key, const char *text, size_t len)
{
    dlti_buf b = {0};
    dlti_buf_puts(&b, "\"answer\" = ");
    dlti_buf_put(&b, text, len);
    if (!b.failed)
        pb_cache_store(run, "runtimes", key, b.data, b.len);
    free(b.data);
}
