/* The CUDA driver API (libcuda.so.1): every device attribute an autotuner
 * reads, one pb_rt_device per CUDA device (a MIG instance is one too, with
 * its own SM count).  cuInit is slow and is called once. */
#include "measure/measure_dev.h"
#include "cuda_api.h"
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SONAME "libcuda.so.1"

/* How one attribute goes into the maps: its key in the view, its schema key
 * (NULL: the view only), the smallest value believed, and whether it is a
 * flag or a clock in kHz (both keys then in MHz). */
typedef enum { CU_INT, CU_BOOL, CU_KHZ } cu_kind;
typedef struct cu_attr {
    int id;
    const char *view;
    const char *unified;
    int min;
    cu_kind kind;
} cu_attr;

static const cu_attr attrs[] = {
    {CU_ATTR_MULTIPROCESSOR_COUNT, "multiprocessor_count", "num_compute_units", 1, CU_INT},
    {CU_ATTR_WARP_SIZE, "warp_size", NULL, 1, CU_INT},
    {CU_ATTR_MAX_THREADS_PER_BLOCK, "max_threads_per_block", "max_threads_per_block", 1, CU_INT},
    {CU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR, "max_threads_per_multiprocessor",
     "max_threads_per_compute_unit", 1, CU_INT},
    {CU_ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR, "max_blocks_per_multiprocessor",
     "max_blocks_per_compute_unit", 1, CU_INT},
    {CU_ATTR_MAX_REGISTERS_PER_BLOCK, "max_registers_per_block", "registers_per_block", 1,
     CU_INT},
    {CU_ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR, "max_registers_per_multiprocessor",
     "registers_per_compute_unit", 1, CU_INT},
    {CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK, "max_shared_memory_per_block_in_bytes",
     "shared_memory_per_block_in_bytes", 1, CU_INT},
    {CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "max_shared_memory_per_block_optin_in_bytes",
     "max_shared_memory_per_block_in_bytes", 1, CU_INT},
    {CU_ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
     "max_shared_memory_per_multiprocessor_in_bytes", "shared_memory_per_compute_unit_in_bytes",
     1, CU_INT},
    {CU_ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK, "reserved_shared_memory_per_block_in_bytes",
     "reserved_shared_memory_per_block_in_bytes", 0, CU_INT},
    {CU_ATTR_TOTAL_CONSTANT_MEMORY, "total_constant_memory_in_bytes", NULL, 1, CU_INT},
    {CU_ATTR_L2_CACHE_SIZE, "l2_cache_size_in_bytes", "L2_cache_size_in_bytes", 1, CU_INT},
    {CU_ATTR_MAX_PERSISTING_L2_CACHE_SIZE, "max_persisting_l2_cache_size_in_bytes",
     "max_persisting_L2_cache_size_in_bytes", 0, CU_INT},
    /* the access-policy window (cudaAccessPolicyWindow.num_bytes' limit):
     * how much of the persisting L2 one stream or launch may name */
    {CU_ATTR_MAX_ACCESS_POLICY_WINDOW_SIZE, "max_access_policy_window_size_in_bytes", NULL, 0,
     CU_INT},
    {CU_ATTR_CLOCK_RATE, "clock_rate_in_mhz", "max_clock_in_mhz", 1, CU_KHZ},
    {CU_ATTR_MEMORY_CLOCK_RATE, "memory_clock_rate_in_mhz", "memory_clock_in_mhz", 1, CU_KHZ},
    {CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH, "global_memory_bus_width_in_bits",
     "memory_bus_width_in_bits", 1, CU_INT},
    {CU_ATTR_ASYNC_ENGINE_COUNT, "async_engine_count", NULL, 0, CU_INT},
    {CU_ATTR_ECC_ENABLED, "ecc_enabled", "ecc_enabled", 0, CU_BOOL},
    {CU_ATTR_CLUSTER_LAUNCH, "cluster_launch", NULL, 0, CU_BOOL},
    {CU_ATTR_COOPERATIVE_LAUNCH, "cooperative_launch", NULL, 0, CU_BOOL},
    {CU_ATTR_INTEGRATED, "integrated", NULL, 0, CU_BOOL},
    {CU_ATTR_CONCURRENT_KERNELS, "concurrent_kernels", NULL, 0, CU_BOOL},
    {CU_ATTR_MANAGED_MEMORY, "managed_memory", NULL, 0, CU_BOOL},
    {CU_ATTR_MULTI_GPU_BOARD, "multi_gpu_board", NULL, 0, CU_BOOL},
};

/* "CUDA_ERROR_NO_DEVICE (100)": the name from cuGetErrorName when the
 * library has it. */
static void cu_error_text(const cu_api *cu, const char *call, cu_result r, char *out,
                          size_t size)
{
    const char *name = NULL;
    if (!cu->get_error_name || cu->get_error_name(r, &name) != 0 || !name)
        name = "error";
    snprintf(out, size, "%s: %.64s (%d)", call, name, r);
}

/* Reads attribute `id`; false when the driver refuses it or the value is
 * below `min` (a negative count is not believed). */
static bool cu_attr_get(const cu_api *cu, cu_device dev, int id, int min, int *v)
{
    return cu->device_get_attribute(v, id, dev) == 0 && *v >= min;
}

static void cu_add_attrs(dlti_context *ctx, const cu_api *cu, cu_device dev, pb_rt_device *d)
{
    for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
        const cu_attr *a = &attrs[i];
        int v;
        if (!cu_attr_get(cu, dev, a->id, a->min, &v))
            continue;
        if (a->kind == CU_BOOL) {
            if (v > 1)
                continue; /* a flag is 0 or 1 */
            pb_bool(ctx, &d->view, a->view, v != 0);
            if (a->unified)
                pb_bool(ctx, &d->unified, a->unified, v != 0);
            continue;
        }
        int64_t x = a->kind == CU_KHZ ? (int64_t)v / 1000 : (int64_t)v;
        if (a->kind == CU_KHZ && x < 1)
            continue;
        pb_i64(ctx, &d->view, a->view, x);
        if (a->unified)
            pb_i64(ctx, &d->unified, a->unified, x);
    }
    /* The warp size is the one subgroup size; the L2 the last level. */
    int warp, l2;
    if (cu_attr_get(cu, dev, CU_ATTR_WARP_SIZE, 1, &warp)) {
        int64_t w = warp;
        pb_add(ctx, &d->unified, "subgroup_sizes", pb_i64_array(ctx, &w, 1));
    }
    if (cu_attr_get(cu, dev, CU_ATTR_L2_CACHE_SIZE, 1, &l2))
        pb_i64(ctx, &d->unified, "last_level_cache_size_in_bytes", l2);

    static const int block[3] = {CU_ATTR_MAX_BLOCK_DIM_X, CU_ATTR_MAX_BLOCK_DIM_Y,
                                 CU_ATTR_MAX_BLOCK_DIM_Z};
    static const int grid[3] = {CU_ATTR_MAX_GRID_DIM_X, CU_ATTR_MAX_GRID_DIM_Y,
                                CU_ATTR_MAX_GRID_DIM_Z};
    int64_t b[3], g[3];
    bool have_b = true, have_g = true;
    for (int i = 0; i < 3; i++) {
        int v;
        have_b = have_b && cu_attr_get(cu, dev, block[i], 1, &v);
        b[i] = have_b ? v : 0;
        have_g = have_g && cu_attr_get(cu, dev, grid[i], 1, &v);
        g[i] = have_g ? v : 0;
    }
    if (have_b) {
        pb_add(ctx, &d->view, "max_block_dims", pb_i64_array(ctx, b, 3));
        pb_add(ctx, &d->unified, "max_block_dims", pb_i64_array(ctx, b, 3));
    }
    if (have_g) {
        pb_add(ctx, &d->view, "max_grid_dims", pb_i64_array(ctx, g, 3));
        pb_add(ctx, &d->unified, "max_grid_dims", pb_i64_array(ctx, g, 3));
    }

    int major, minor;
    if (cu_attr_get(cu, dev, CU_ATTR_COMPUTE_CAPABILITY_MAJOR, 1, &major) &&
        cu_attr_get(cu, dev, CU_ATTR_COMPUTE_CAPABILITY_MINOR, 0, &minor) && major < 100 &&
        minor < 10) {
        char cc[16], arch[16];
        snprintf(cc, sizeof(cc), "%d.%d", major, minor);
        snprintf(arch, sizeof(arch), "sm_%d%d", major, minor);
        pb_i64(ctx, &d->view, "compute_capability_major", major);
        pb_i64(ctx, &d->view, "compute_capability_minor", minor);
        pb_str(ctx, &d->unified, "compute_capability", cc);
        pb_str(ctx, &d->unified, "arch", arch);
    }
}

/* Name, memory, UUID and PCI bus id: the entry points beside the attributes. */
static void cu_add_identity(dlti_context *ctx, const cu_api *cu, cu_device dev, pb_rt_device *d)
{
    char buf[256];
    memset(buf, 0, sizeof(buf));
    if (cu->device_get_name(buf, (int)sizeof(buf), dev) == 0 &&
        pb_vendor_text(buf, sizeof(buf), d->name, sizeof(d->name))) {
        pb_str(ctx, &d->view, "name", d->name);
        pb_str(ctx, &d->unified, "model", d->name);
    }
    /* A MIG instance is a CUDA device of its own whose name ends in its
     * profile ("NVIDIA A100-SXM4-40GB MIG 1g.5gb"); its UUID is MIG-... */
    bool mig = strstr(d->name, " MIG ") != NULL;
    pb_bool(ctx, &d->view, "is_mig_instance", mig);
    pb_bool(ctx, &d->unified, "is_partition", mig);

    size_t mem;
    if (cu->device_total_mem && cu->device_total_mem(&mem, dev) == 0 && mem > 0 &&
        mem <= (size_t)INT64_MAX) {
        pb_i64(ctx, &d->view, "total_memory_in_bytes", (int64_t)mem);
        pb_i64(ctx, &d->unified, "memory_size_in_bytes", (int64_t)mem);
    }
    cu_uuid u;
    if (cu->device_get_uuid && cu->device_get_uuid(&u, dev) == 0) {
        pb_vendor_uuid(u.bytes, mig ? "MIG-" : "GPU-", d->uuid, sizeof(d->uuid));
        pb_str(ctx, &d->view, "uuid", d->uuid);
        pb_str(ctx, &d->unified, "uuid", d->uuid);
    }
    memset(buf, 0, sizeof(buf));
    if (cu->device_get_pci_bus_id && cu->device_get_pci_bus_id(buf, 64, dev) == 0 &&
        memchr(buf, '\0', 64) && pb_vendor_bus_id(buf, d->bus_id))
        pb_str(ctx, &d->view, "pci_bus_id", d->bus_id);
}

static int cu_devices(pb_run *run, const cu_api *cu, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    char why[160];
    cu_result r = cu->init(0);
    if (r != 0) {
        cu_error_text(cu, "cuInit", r, why, sizeof(why));
        pb_rt_skipped(run, "cuda", why);
        return 0;
    }
    int version = 0, count = 0;
    char driver[64] = "CUDA";
    if (cu->driver_get_version(&version) == 0 && version > 0)
        snprintf(driver, sizeof(driver), "CUDA %d.%d", version / 1000, version % 1000 / 10);
    if ((r = cu->device_get_count(&count)) != 0) {
        cu_error_text(cu, "cuDeviceGetCount", r, why, sizeof(why));
        pb_rt_skipped(run, "cuda", why);
        return 0;
    }
    if (count <= 0) {
        pb_rt_skipped(run, "cuda", "cuDeviceGetCount: no device");
        return 0;
    }
    count = (int)pb_rt_cap(run, "cuda", "devices", (size_t)count, PB_VENDOR_MAX_DEVICES);
    for (int i = 0; i < count; i++) {
        cu_device dev;
        if (cu->device_get(&dev, i) != 0)
            continue;
        pb_rt_device d;
        pb_rt_init(&d, "cuda", i);
        snprintf(d.driver, sizeof(d.driver), "%s", driver);
        pb_i64(ctx, &d.view, "ordinal", i);
        if (version > 0)
            pb_i64(ctx, &d.view, "driver_api_version", version);
        pb_str(ctx, &d.unified, "vendor", "NVIDIA");
        pb_str(ctx, &d.unified, "compute_unit_name", "SM");
        cu_add_identity(ctx, cu, dev, &d);
        cu_add_attrs(ctx, cu, dev, &d);
        /* The driver applies these to what it shows; the view says so. */
        pb_vendor_env(ctx, &d.view, "visible_devices", "CUDA_VISIBLE_DEVICES");
        pb_vendor_env(ctx, &d.view, "device_order", "CUDA_DEVICE_ORDER");
        if (pb_rt_add(run, &d, err) != 0)
            return -1;
    }
    return 0;
}

static int probe_cuda(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "cuda", SONAME);
    if (!lib)
        return 0;
    cu_api cu;
    memset(&cu, 0, sizeof(cu));
    static const char *const required[] = {"cuInit", "cuDriverGetVersion", "cuDeviceGetCount",
                                           "cuDeviceGet", "cuDeviceGetName",
                                           "cuDeviceGetAttribute"};
    void *fn[6];
    for (size_t i = 0; i < 6; i++)
        if (!(fn[i] = pb_vendor_sym(lib, required[i]))) {
            pb_vendor_lacks(run, "cuda", lib, SONAME, required[i]);
            return 0;
        }
    PB_VENDOR_FN(cu.init, fn[0]);
    PB_VENDOR_FN(cu.driver_get_version, fn[1]);
    PB_VENDOR_FN(cu.device_get_count, fn[2]);
    PB_VENDOR_FN(cu.device_get, fn[3]);
    PB_VENDOR_FN(cu.device_get_name, fn[4]);
    PB_VENDOR_FN(cu.device_get_attribute, fn[5]);
    /* _v2: the 64-bit size (CUDA 3.2 on) and the UUID of MIG instances
     * (CUDA 11.4 on); the unversioned ones are older fallbacks. */
    PB_VENDOR_FN(cu.device_total_mem, pb_vendor_sym(lib, "cuDeviceTotalMem_v2"));
    void *uuid_v2 = pb_vendor_sym(lib, "cuDeviceGetUuid_v2");
    PB_VENDOR_FN(cu.device_get_uuid, uuid_v2 ? uuid_v2 : pb_vendor_sym(lib, "cuDeviceGetUuid"));
    PB_VENDOR_FN(cu.device_get_pci_bus_id, pb_vendor_sym(lib, "cuDeviceGetPCIBusId"));
    PB_VENDOR_FN(cu.get_error_name, pb_vendor_sym(lib, "cuGetErrorName"));
    int rc = cu_devices(run, &cu, err);
    dlclose(lib);
    return rc;
}

const pb_rt_source pb_rt_cuda = {
    .name = "cuda",
    .option = "cuda",
    .bit = SYSDESC_RUNTIME_CUDA,
    .priority = 0,
    .probe = probe_cuda,
    .measure = &md_cuda_ops,
};
