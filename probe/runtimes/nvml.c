/* NVML (libnvidia-ml.so.1): identity, memory, clocks, ECC, power and PCIe
 * of every NVIDIA GPU without a CUDA context, and its MIG instances as
 * partitions.  Cheaper than cuInit, and it sees GPUs CUDA hides. */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SONAME "libnvidia-ml.so.1"

/* NVML API reference (nvml.h): nvmlReturn_t (NVML_SUCCESS = 0,
 * NVML_ERROR_NOT_FOUND = 6), nvmlDevice_t (an opaque pointer). */
typedef int nvml_return;
typedef struct nvml_device_st *nvml_device;
enum { NVML_OK = 0 };

/* NVML reference, nvmlPciInfo_t (the _v3 query's layout). */
typedef struct nvml_pci_info {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci_info;

/* NVML reference, nvmlMemory_t (v1), bytes. */
typedef struct nvml_memory {
    unsigned long long total, free, used;
} nvml_memory;

/* NVML reference, nvmlDeviceAttributes_t as nvmlDeviceGetAttributes_v2
 * fills it (memorySizeMB in MiB). */
typedef struct nvml_attributes {
    unsigned multiprocessor_count, shared_copy_engine_count, shared_decoder_count,
        shared_encoder_count, shared_jpeg_count, shared_ofa_count, gpu_instance_slice_count,
        compute_instance_slice_count;
    unsigned long long memory_size_mb;
} nvml_attributes;

/* NVML reference, nvmlClockType_t; NVML_DEVICE_MIG_ENABLE = 1;
 * nvmlEnableState_t NVML_FEATURE_ENABLED = 1. */
enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };
enum { NVML_MIG_ENABLE = 1, NVML_FEATURE_ENABLED = 1 };

/* Buffer sizes the reference guarantees are enough (NVML_DEVICE_NAME_V2_BUFFER_SIZE,
 * NVML_DEVICE_UUID_V2_BUFFER_SIZE, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE). */
#define NVML_TEXT 96

typedef struct nvml_api {
    nvml_return (*init)(void);
    nvml_return (*shutdown)(void);
    nvml_return (*device_get_count)(unsigned *count);
    nvml_return (*device_get_handle_by_index)(unsigned index, nvml_device *dev);
    /* optional */
    const char *(*error_string)(nvml_return r);
    nvml_return (*system_get_driver_version)(char *version, unsigned length);
    nvml_return (*system_get_cuda_driver_version)(int *version);
    nvml_return (*device_get_name)(nvml_device dev, char *name, unsigned length);
    nvml_return (*device_get_uuid)(nvml_device dev, char *uuid, unsigned length);
    nvml_return (*device_get_pci_info)(nvml_device dev, nvml_pci_info *pci);
    nvml_return (*device_get_memory_info)(nvml_device dev, nvml_memory *mem);
    nvml_return (*device_get_max_clock_info)(nvml_device dev, int type, unsigned *mhz);
    nvml_return (*device_get_ecc_mode)(nvml_device dev, int *current, int *pending);
    nvml_return (*device_get_enforced_power_limit)(nvml_device dev, unsigned *milliwatts);
    nvml_return (*device_get_max_pcie_link_generation)(nvml_device dev, unsigned *gen);
    nvml_return (*device_get_max_pcie_link_width)(nvml_device dev, unsigned *width);
    nvml_return (*device_get_mig_mode)(nvml_device dev, unsigned *current, unsigned *pending);
    nvml_return (*device_get_max_mig_device_count)(nvml_device dev, unsigned *count);
    nvml_return (*device_get_mig_device_handle_by_index)(nvml_device dev, unsigned index,
                                                         nvml_device *mig);
    nvml_return (*device_get_gpu_instance_id)(nvml_device dev, unsigned *id);
    nvml_return (*device_get_compute_instance_id)(nvml_device dev, unsigned *id);
    nvml_return (*device_get_attributes)(nvml_device dev, nvml_attributes *attr);
    nvml_return (*device_get_power_limit_constraints)(nvml_device dev, unsigned *min_mw,
                                                      unsigned *max_mw);
    nvml_return (*device_get_supported_memory_clocks)(nvml_device dev, unsigned *count,
                                                      unsigned *mhz);
    nvml_return (*device_get_supported_graphics_clocks)(nvml_device dev, unsigned mem_mhz,
                                                        unsigned *count, unsigned *mhz);
} nvml_api;

static void nvml_error_text(const nvml_api *nv, const char *call, nvml_return r, char *out,
                            size_t size)
{
    const char *s = nv->error_string ? nv->error_string(r) : NULL;
    snprintf(out, size, "%s: %.80s (%d)", call, s ? s : "error", r);
}

/* A string query into a buffer the reference says is enough; "" when it
 * fails or the runtime leaves the buffer unterminated. */
static bool nvml_text(nvml_return r, const char *buf, char *out, size_t size)
{
    return r == NVML_OK && pb_vendor_text(buf, NVML_TEXT, out, size) && out[0];
}

/* The keys both a GPU and a MIG instance have: name and UUID. */
static void nvml_common(dlti_context *ctx, const nvml_api *nv, nvml_device dev, pb_map *view,
                        char *name, size_t name_size, char *uuid, size_t uuid_size)
{
    char buf[NVML_TEXT];
    memset(buf, 0, sizeof(buf));
    if (nv->device_get_name &&
        nvml_text(nv->device_get_name(dev, buf, sizeof(buf)), buf, name, name_size))
        pb_str(ctx, view, "name", name);
    memset(buf, 0, sizeof(buf));
    if (nv->device_get_uuid &&
        nvml_text(nv->device_get_uuid(dev, buf, sizeof(buf)), buf, uuid, uuid_size))
        pb_str(ctx, view, "uuid", uuid);
}

/* nvmlDeviceGetMemoryInfo's total (of a GPU or of a MIG instance); -1 when unknown. */
static int64_t nvml_memory_total(const nvml_api *nv, nvml_device dev)
{
    nvml_memory mem;
    if (nv->device_get_memory_info && nv->device_get_memory_info(dev, &mem) == NVML_OK &&
        mem.total > 0 && mem.total <= (unsigned long long)INT64_MAX)
        return (int64_t)mem.total;
    return -1;
}

/* One MIG instance as a partition map. */
static void nvml_mig(dlti_context *ctx, const nvml_api *nv, nvml_device mig, unsigned index,
                     pb_map *part)
{
    char name[128] = "", uuid[96] = "";
    pb_str(ctx, part, "kind", "MIG instance");
    pb_i64(ctx, part, "index", index);
    nvml_common(ctx, nv, mig, part, name, sizeof(name), uuid, sizeof(uuid));
    unsigned id;
    if (nv->device_get_gpu_instance_id && nv->device_get_gpu_instance_id(mig, &id) == NVML_OK)
        pb_i64(ctx, part, "gpu_instance_id", id);
    if (nv->device_get_compute_instance_id &&
        nv->device_get_compute_instance_id(mig, &id) == NVML_OK)
        pb_i64(ctx, part, "compute_instance_id", id);
    nvml_attributes a;
    memset(&a, 0, sizeof(a));
    if (nv->device_get_attributes && nv->device_get_attributes(mig, &a) == NVML_OK) {
        if (a.multiprocessor_count > 0)
            pb_i64(ctx, part, "num_compute_units", a.multiprocessor_count);
        if (a.gpu_instance_slice_count > 0)
            pb_i64(ctx, part, "gpu_instance_slice_count", a.gpu_instance_slice_count);
        if (a.compute_instance_slice_count > 0)
            pb_i64(ctx, part, "compute_instance_slice_count", a.compute_instance_slice_count);
    }
    /* The instance's memory: what nvmlDeviceGetMemoryInfo says of it, else
     * its attributes' memorySizeMB (MiB). */
    int64_t total = nvml_memory_total(nv, mig);
    if (total < 0 && a.memory_size_mb > 0 && a.memory_size_mb < (1ull << 40))
        total = (int64_t)(a.memory_size_mb << 20);
    if (total > 0)
        pb_i64(ctx, part, "memory_size_in_bytes", total);
}

/* MIG mode and, when it is on, every instance as partitions["<i>"], i its
 * MIG device index. */
static void nvml_migs(pb_run *run, const nvml_api *nv, nvml_device dev, pb_rt_device *d,
                      dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    unsigned current, pending, max;
    if (!nv->device_get_mig_mode || nv->device_get_mig_mode(dev, &current, &pending) != NVML_OK)
        return; /* not a MIG-capable GPU, or an NVML without MIG */
    pb_bool(ctx, &d->view, "mig_mode", current == NVML_MIG_ENABLE);
    pb_bool(ctx, &d->view, "mig_mode_pending", pending == NVML_MIG_ENABLE);
    if (current != NVML_MIG_ENABLE || !nv->device_get_max_mig_device_count ||
        !nv->device_get_mig_device_handle_by_index ||
        nv->device_get_max_mig_device_count(dev, &max) != NVML_OK)
        return;
    pb_i64(ctx, &d->view, "max_mig_device_count", max);
    char what[64];
    snprintf(what, sizeof(what), "MIG device slots on device %d", d->ordinal);
    max = (unsigned)pb_rt_cap(run, "nvml", what, max, PB_VENDOR_MAX_DEVICES);
    /* Indices without an instance answer NVML_ERROR_NOT_FOUND: skipped. */
    for (unsigned i = 0; i < max; i++) {
        nvml_device mig;
        if (nv->device_get_mig_device_handle_by_index(dev, i, &mig) != NVML_OK)
            continue;
        pb_map part;
        pb_init(&part);
        nvml_mig(ctx, nv, mig, i, &part);
        char key[32];
        snprintf(key, sizeof(key), "%u", i);
        pb_add_map(ctx, &d->partitions, key, &part, err);
    }
}

/* The lowest and highest of `n` clocks (MHz) no higher than `max`;
 * false when none is plausible (0 or above it). */
static bool clock_range(const unsigned *mhz, unsigned n, unsigned max, unsigned *lo, unsigned *hi)
{
    *lo = 0;
    *hi = 0;
    for (unsigned i = 0; i < n; i++) {
        if (mhz[i] == 0 || mhz[i] > max)
            continue;
        if (!*lo || mhz[i] < *lo)
            *lo = mhz[i];
        if (mhz[i] > *hi)
            *hi = mhz[i];
    }
    return *hi > 0;
}

/* What a tuner may set, not what is set: the range of the power limit
 * (nvmlDeviceGetPowerManagementLimitConstraints, mW) and the clocks the
 * application clocks may take (nvmlDeviceGetSupportedMemoryClocks; the
 * graphics clocks at the highest memory clock,
 * nvmlDeviceGetSupportedGraphicsClocks).  A query that answers more
 * clocks than NVML_MAX_CLOCKS (NVML_ERROR_INSUFFICIENT_SIZE) is not read. */
#define NVML_MAX_CLOCKS 512
static void nvml_ranges(dlti_context *ctx, const nvml_api *nv, nvml_device dev, pb_rt_device *d)
{
    unsigned lo, hi;
    if (nv->device_get_power_limit_constraints &&
        nv->device_get_power_limit_constraints(dev, &lo, &hi) == NVML_OK && lo >= 1000 &&
        hi >= lo && hi <= 100000000u) {
        pb_i64(ctx, &d->view, "min_power_limit_in_watts", lo / 1000);
        pb_i64(ctx, &d->view, "max_power_limit_in_watts", hi / 1000);
    }
    unsigned mhz[NVML_MAX_CLOCKS];
    unsigned n = NVML_MAX_CLOCKS, mem_hi;
    if (!nv->device_get_supported_memory_clocks ||
        nv->device_get_supported_memory_clocks(dev, &n, mhz) != NVML_OK ||
        !clock_range(mhz, n < NVML_MAX_CLOCKS ? n : NVML_MAX_CLOCKS, 100000, &lo, &mem_hi))
        return;
    pb_i64(ctx, &d->view, "min_supported_memory_clock_in_mhz", lo);
    pb_i64(ctx, &d->view, "max_supported_memory_clock_in_mhz", mem_hi);
    n = NVML_MAX_CLOCKS;
    if (nv->device_get_supported_graphics_clocks &&
        nv->device_get_supported_graphics_clocks(dev, mem_hi, &n, mhz) == NVML_OK &&
        clock_range(mhz, n < NVML_MAX_CLOCKS ? n : NVML_MAX_CLOCKS, 10000, &lo, &hi)) {
        pb_i64(ctx, &d->view, "min_supported_graphics_clock_in_mhz", lo);
        pb_i64(ctx, &d->view, "max_supported_graphics_clock_in_mhz", hi);
    }
}

static void nvml_device_keys(pb_run *run, const nvml_api *nv, nvml_device dev, pb_rt_device *d,
                             dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    nvml_common(ctx, nv, dev, &d->view, d->name, sizeof(d->name), d->uuid, sizeof(d->uuid));
    pb_str(ctx, &d->unified, "vendor", "NVIDIA");
    pb_str(ctx, &d->unified, "model", d->name);
    pb_str(ctx, &d->unified, "uuid", d->uuid);

    nvml_pci_info pci;
    memset(&pci, 0, sizeof(pci));
    if (nv->device_get_pci_info && nv->device_get_pci_info(dev, &pci) == NVML_OK &&
        memchr(pci.bus_id, '\0', sizeof(pci.bus_id)) && pb_vendor_bus_id(pci.bus_id, d->bus_id))
        pb_str(ctx, &d->view, "pci_bus_id", d->bus_id);

    int64_t total = nvml_memory_total(nv, dev);
    if (total > 0) {
        pb_i64(ctx, &d->view, "memory_total_in_bytes", total);
        pb_i64(ctx, &d->unified, "memory_size_in_bytes", total);
    }

    /* Clocks in MHz; an implausible one (0, or beyond the schema's 10 GHz
     * engine and 100 GHz memory) is not believed. */
    unsigned mhz;
    if (nv->device_get_max_clock_info) {
        if (nv->device_get_max_clock_info(dev, NVML_CLOCK_SM, &mhz) == NVML_OK && mhz > 0 &&
            mhz <= 10000) {
            pb_i64(ctx, &d->view, "max_sm_clock_in_mhz", mhz);
            pb_i64(ctx, &d->unified, "max_clock_in_mhz", mhz);
        }
        if (nv->device_get_max_clock_info(dev, NVML_CLOCK_GRAPHICS, &mhz) == NVML_OK && mhz > 0 &&
            mhz <= 10000)
            pb_i64(ctx, &d->view, "max_graphics_clock_in_mhz", mhz);
        if (nv->device_get_max_clock_info(dev, NVML_CLOCK_MEM, &mhz) == NVML_OK && mhz > 0 &&
            mhz <= 100000) {
            pb_i64(ctx, &d->view, "max_memory_clock_in_mhz", mhz);
            pb_i64(ctx, &d->unified, "memory_clock_in_mhz", mhz);
        }
    }
    int ecc, ecc_pending;
    if (nv->device_get_ecc_mode && nv->device_get_ecc_mode(dev, &ecc, &ecc_pending) == NVML_OK) {
        pb_bool(ctx, &d->view, "ecc_enabled", ecc == NVML_FEATURE_ENABLED);
        pb_bool(ctx, &d->view, "ecc_pending", ecc_pending == NVML_FEATURE_ENABLED);
        pb_bool(ctx, &d->unified, "ecc_enabled", ecc == NVML_FEATURE_ENABLED);
    }
    unsigned mw;
    if (nv->device_get_enforced_power_limit &&
        nv->device_get_enforced_power_limit(dev, &mw) == NVML_OK && mw >= 1000 &&
        mw <= 100000000u) {
        pb_i64(ctx, &d->view, "enforced_power_limit_in_watts", mw / 1000);
        pb_i64(ctx, &d->unified, "power_limit_in_watts", mw / 1000);
    }
    unsigned v;
    if (nv->device_get_max_pcie_link_generation &&
        nv->device_get_max_pcie_link_generation(dev, &v) == NVML_OK && v >= 1 && v <= 16) {
        pb_i64(ctx, &d->view, "max_pcie_link_generation", v);
        pb_i64(ctx, &d->unified, "pcie_generation", v);
    }
    if (nv->device_get_max_pcie_link_width &&
        nv->device_get_max_pcie_link_width(dev, &v) == NVML_OK && v >= 1 && v <= 64) {
        pb_i64(ctx, &d->view, "max_pcie_link_width", v);
        pb_i64(ctx, &d->unified, "pcie_link_width", v);
    }
    nvml_ranges(ctx, nv, dev, d);
    nvml_migs(run, nv, dev, d, err);
}

static int nvml_devices(pb_run *run, const nvml_api *nv, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    char why[160], version[NVML_TEXT], text[128] = "";
    unsigned count = 0;
    nvml_return r;
    if ((r = nv->device_get_count(&count)) != NVML_OK) {
        nvml_error_text(nv, "nvmlDeviceGetCount_v2", r, why, sizeof(why));
        pb_rt_skipped(run, "nvml", why);
        return 0;
    }
    if (count == 0) {
        pb_rt_skipped(run, "nvml", "nvmlDeviceGetCount_v2: no device");
        return 0;
    }
    count = (unsigned)pb_rt_cap(run, "nvml", "devices", count, PB_VENDOR_MAX_DEVICES);
    char driver[64] = "";
    memset(version, 0, sizeof(version));
    if (nv->system_get_driver_version &&
        nvml_text(nv->system_get_driver_version(version, sizeof(version)), version, driver,
                  sizeof(driver)))
        snprintf(text, sizeof(text), "NVML, driver %s", driver);
    else
        snprintf(text, sizeof(text), "NVML");
    int cuda = 0;
    if (!nv->system_get_cuda_driver_version || nv->system_get_cuda_driver_version(&cuda) != NVML_OK)
        cuda = 0;
    for (unsigned i = 0; i < count; i++) {
        nvml_device dev;
        if (nv->device_get_handle_by_index(i, &dev) != NVML_OK)
            continue;
        pb_rt_device d;
        pb_rt_init(&d, "nvml", (int)i);
        snprintf(d.driver, sizeof(d.driver), "%s", text);
        pb_i64(ctx, &d.view, "index", i);
        pb_str(ctx, &d.view, "driver_version", driver);
        pb_str(ctx, &d.unified, "driver_version", driver);
        if (cuda > 0)
            pb_i64(ctx, &d.view, "cuda_driver_version", cuda);
        nvml_device_keys(run, nv, dev, &d, err);
        if (pb_rt_add(run, &d, err) != 0)
            return -1;
    }
    return 0;
}

static int probe_nvml(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "nvml", SONAME);
    if (!lib)
        return 0;
    nvml_api nv;
    memset(&nv, 0, sizeof(nv));
    static const char *const required[] = {"nvmlInit_v2", "nvmlShutdown",
                                           "nvmlDeviceGetCount_v2",
                                           "nvmlDeviceGetHandleByIndex_v2"};
    void *fn[4];
    for (size_t i = 0; i < 4; i++)
        if (!(fn[i] = pb_vendor_sym(lib, required[i]))) {
            pb_vendor_lacks(run, "nvml", lib, SONAME, required[i]);
            return 0;
        }
    PB_VENDOR_FN(nv.init, fn[0]);
    PB_VENDOR_FN(nv.shutdown, fn[1]);
    PB_VENDOR_FN(nv.device_get_count, fn[2]);
    PB_VENDOR_FN(nv.device_get_handle_by_index, fn[3]);
    PB_VENDOR_FN(nv.error_string, pb_vendor_sym(lib, "nvmlErrorString"));
    PB_VENDOR_FN(nv.system_get_driver_version, pb_vendor_sym(lib, "nvmlSystemGetDriverVersion"));
    PB_VENDOR_FN(nv.system_get_cuda_driver_version,
                 pb_vendor_sym(lib, "nvmlSystemGetCudaDriverVersion"));
    PB_VENDOR_FN(nv.device_get_name, pb_vendor_sym(lib, "nvmlDeviceGetName"));
    PB_VENDOR_FN(nv.device_get_uuid, pb_vendor_sym(lib, "nvmlDeviceGetUUID"));
    PB_VENDOR_FN(nv.device_get_pci_info, pb_vendor_sym(lib, "nvmlDeviceGetPciInfo_v3"));
    PB_VENDOR_FN(nv.device_get_memory_info, pb_vendor_sym(lib, "nvmlDeviceGetMemoryInfo"));
    PB_VENDOR_FN(nv.device_get_max_clock_info, pb_vendor_sym(lib, "nvmlDeviceGetMaxClockInfo"));
    PB_VENDOR_FN(nv.device_get_ecc_mode, pb_vendor_sym(lib, "nvmlDeviceGetEccMode"));
    PB_VENDOR_FN(nv.device_get_enforced_power_limit,
                 pb_vendor_sym(lib, "nvmlDeviceGetEnforcedPowerLimit"));
    PB_VENDOR_FN(nv.device_get_max_pcie_link_generation,
                 pb_vendor_sym(lib, "nvmlDeviceGetMaxPcieLinkGeneration"));
    PB_VENDOR_FN(nv.device_get_max_pcie_link_width,
                 pb_vendor_sym(lib, "nvmlDeviceGetMaxPcieLinkWidth"));
    PB_VENDOR_FN(nv.device_get_mig_mode, pb_vendor_sym(lib, "nvmlDeviceGetMigMode"));
    PB_VENDOR_FN(nv.device_get_max_mig_device_count,
                 pb_vendor_sym(lib, "nvmlDeviceGetMaxMigDeviceCount"));
    PB_VENDOR_FN(nv.device_get_mig_device_handle_by_index,
                 pb_vendor_sym(lib, "nvmlDeviceGetMigDeviceHandleByIndex"));
    PB_VENDOR_FN(nv.device_get_gpu_instance_id, pb_vendor_sym(lib, "nvmlDeviceGetGpuInstanceId"));
    PB_VENDOR_FN(nv.device_get_compute_instance_id,
                 pb_vendor_sym(lib, "nvmlDeviceGetComputeInstanceId"));
    PB_VENDOR_FN(nv.device_get_attributes, pb_vendor_sym(lib, "nvmlDeviceGetAttributes_v2"));
    PB_VENDOR_FN(nv.device_get_power_limit_constraints,
                 pb_vendor_sym(lib, "nvmlDeviceGetPowerManagementLimitConstraints"));
    PB_VENDOR_FN(nv.device_get_supported_memory_clocks,
                 pb_vendor_sym(lib, "nvmlDeviceGetSupportedMemoryClocks"));
    PB_VENDOR_FN(nv.device_get_supported_graphics_clocks,
                 pb_vendor_sym(lib, "nvmlDeviceGetSupportedGraphicsClocks"));
    int rc = 0;
    nvml_return r = nv.init();
    if (r != NVML_OK) {
        char why[160];
        nvml_error_text(&nv, "nvmlInit_v2", r, why, sizeof(why));
        pb_rt_skipped(run, "nvml", why);
    } else {
        rc = nvml_devices(run, &nv, err);
        nv.shutdown();
    }
    dlclose(lib);
    return rc;
}

const pb_rt_source pb_rt_nvml = {
    .name = "nvml",
    .option = "cuda",
    .bit = SYSDESC_RUNTIME_CUDA,
    .priority = 10,
    .probe = probe_nvml,
};
