/* The cache of the runtimes' answers (docs/runtimes.md, "The cache"), an
 * entry of the probe's cache (cache.c) of kind "runtimes":
 *     #dlti.map<"key" = "...", "answer" = #dlti.map<...>>
 * where the answer is what the runtime sources said (rt_text.c) and the key
 * says what it depends on: the sysdesc and schema versions, the boot, the
 * runtimes asked, the CPUs this process may use, the environment variables
 * the runtimes read, the PCI devices and their drivers, the kernel drivers'
 * versions, and the loader's configuration files (ld.so.cache, the OpenCL
 * and Vulkan ICD directories).  An entry is also stale when one of the
 * shared libraries the runtimes loaded (its "libraries") is no longer the
 * same file; an answer read from the cache goes through the check a fresh
 * answer goes through (rt_text.c). */
#define _GNU_SOURCE
#include "probe_private.h"

#include "sysdesc/version.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


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

/* The kernel file `path` (/proc, /sys: small) hashed into a "file" line. */
static void key_file(bs_buf *key, const char *path, const char *text, size_t len)
{
    bs_buf_printf(key, "file %s %016llx\n", path, (unsigned long long)bs_hash_bytes(text, len));
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
static void key_stats(bs_buf *key)
{
    for (size_t i = 0; i < sizeof(key_files) / sizeof(key_files[0]); i++) {
        struct stat st;
        if (stat(key_files[i], &st) == 0)
            bs_buf_printf(key, "stat %s %llu:%lld:%lld.%09ld\n", key_files[i],
                          (unsigned long long)st.st_ino, (long long)st.st_size,
                          (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    }
}

/* What the runtimes' views hold, counted up whenever a view gains or loses
 * a key: an entry written by a build whose views differ is not current,
 * though the sysdesc version be the same. */
#define RT_VIEWS_REVISION 3

void pb_rt_cache_key(pb_run *run, unsigned asked, bs_buf *key)
{
    bs_buf_printf(key, "sysdesc %s schema %d views %d runtimes 0x%x\n", SYSDESC_VERSION_STRING,
                  SYSDESC_SCHEMA_VERSION, RT_VIEWS_REVISION, asked);
    /* a whole-node probe's children run without the visibility variables */
    if (run->opts->whole_node && !run->opts->runtimes_in_process)
        bs_buf_puts(key, "whole-node\n");
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        bs_buf_puts(key, "cpus");
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                bs_buf_printf(key, " %d", c);
        bs_buf_putc(key, '\n');
    }
    pb_cache_key_env(key, env_prefixes, sizeof(env_prefixes) / sizeof(env_prefixes[0]), NULL);
    size_t len;
    char *boot = bs_read_file("/proc/sys/kernel/random/boot_id", 256, &len, NULL);
    if (boot)
        key_file(key, "boot_id", boot, len);
    free(boot);
    char *pci = bs_read_file(pci_devices, 1u << 20, &len, NULL);
    if (pci)
        key_file(key, pci_devices, pci, len);
    for (size_t i = 0; i < sizeof(driver_versions) / sizeof(driver_versions[0]); i++) {
        if (pci && !bound(pci, driver_versions[i].driver))
            continue;
        char *text = bs_read_file(driver_versions[i].path, 4096, &len, NULL);
        if (text)
            key_file(key, driver_versions[i].path, text, len);
        free(text);
    }
    free(pci);
    key_stats(key);
    (void)run;
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

void pb_rt_cache_write(pb_run *run, const char *key, const char *text, size_t len)
{
    bs_buf b = {0};
    bs_buf_puts(&b, "\"answer\" = ");
    bs_buf_put(&b, text, len);
    if (!b.failed)
        pb_cache_store(run, "runtimes", key, b.data, b.len);
    free(b.data);
}
