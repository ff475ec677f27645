/* Level Zero (libze_loader.so.1): Intel GPUs.  Xe-cores are the compute
 * units (slices x sub-slices), EUs are not; sub-devices (stacks) become
 * partitions; the PCI bus id comes from the PCI properties extension. */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SONAME "libze_loader.so.1"

/* Level Zero specification, ze_api.h (v1.x core; cited values and layouts
 * only).  ze_result_t: ZE_RESULT_SUCCESS = 0, the errors below for their
 * names.  ze_structure_type_t: the stype of each properties struct.
 * ze_device_type_t ZE_DEVICE_TYPE_GPU = 1; ze_device_property_flag_t
 * INTEGRATED = bit 0, SUBDEVICE = bit 1, ECC = bit 2. */
typedef int ze_result;
typedef struct ze_handle_st *ze_driver;
typedef struct ze_handle_st *ze_device;

enum {
    ZE_STYPE_DRIVER_PROPERTIES = 0x1,
    ZE_STYPE_DEVICE_PROPERTIES = 0x3,
    ZE_STYPE_DEVICE_COMPUTE_PROPERTIES = 0x4,
    ZE_STYPE_DEVICE_MEMORY_PROPERTIES = 0x7,
    ZE_STYPE_DEVICE_CACHE_PROPERTIES = 0x9,
    ZE_STYPE_PCI_EXT_PROPERTIES = 0x10008,
};
enum { ZE_DEVICE_TYPE_GPU = 1 };
enum { ZE_FLAG_INTEGRATED = 1u << 0, ZE_FLAG_SUBDEVICE = 1u << 1, ZE_FLAG_ECC = 1u << 2 };

/* ze_driver_properties_t */
typedef struct ze_driver_properties {
    int stype;
    void *pnext;
    unsigned char uuid[16]; /* ze_driver_uuid_t, ZE_MAX_DRIVER_UUID_SIZE */
    uint32_t driver_version;
} ze_driver_properties;

/* ze_device_properties_t (ZE_MAX_DEVICE_UUID_SIZE 16, ZE_MAX_DEVICE_NAME 256) */
typedef struct ze_device_properties {
    int stype;
    void *pnext;
    int type;
    uint32_t vendor_id, device_id;
    uint32_t flags;
    uint32_t subdevice_id;
    uint32_t core_clock_rate; /* MHz */
    uint64_t max_mem_alloc_size;
    uint32_t max_hardware_contexts, max_command_queue_priority;
    uint32_t num_threads_per_eu, physical_eu_simd_width, num_eus_per_subslice,
        num_subslices_per_slice, num_slices;
    uint64_t timer_resolution;
    uint32_t timestamp_valid_bits, kernel_timestamp_valid_bits;
    unsigned char uuid[16];
    char name[256];
} ze_device_properties;

/* ze_device_compute_properties_t (ZE_SUBGROUPSIZE_COUNT 8) */
typedef struct ze_compute_properties {
    int stype;
    void *pnext;
    uint32_t max_total_group_size;
    uint32_t max_group_size[3];
    uint32_t max_group_count[3];
    uint32_t max_shared_local_memory;
    uint32_t num_sub_group_sizes;
    uint32_t sub_group_sizes[8];
} ze_compute_properties;

/* ze_device_memory_properties_t */
typedef struct ze_memory_properties {
    int stype;
    void *pnext;
    uint32_t flags;
    uint32_t max_clock_rate; /* MHz */
    uint32_t max_bus_width;  /* bits */
    uint64_t total_size;
    char name[256];
} ze_memory_properties;

/* ze_device_cache_properties_t */
typedef struct ze_cache_properties {
    int stype;
    void *pnext;
    uint32_t flags;
    size_t cache_size;
} ze_cache_properties;

/* ze_pci_ext_properties_t with ze_pci_address_ext_t and ze_pci_speed_ext_t */
typedef struct ze_pci_properties {
    int stype;
    void *pnext;
    uint32_t domain, bus, device, function;
    int32_t gen_version, width; /* -1: unknown */
    int64_t max_bandwidth;      /* bytes per second, -1: unknown */
} ze_pci_properties;

typedef struct ze_api {
    ze_result (*init)(uint32_t flags);
    ze_result (*driver_get)(uint32_t *count, ze_driver *drivers);
    ze_result (*device_get)(ze_driver driver, uint32_t *count, ze_device *devices);
    ze_result (*device_get_properties)(ze_device dev, ze_device_properties *p);
    /* optional */
    ze_result (*driver_get_properties)(ze_driver driver, ze_driver_properties *p);
    ze_result (*driver_get_api_version)(ze_driver driver, uint32_t *version);
    ze_result (*device_get_compute_properties)(ze_device dev, ze_compute_properties *p);
    ze_result (*device_get_memory_properties)(ze_device dev, uint32_t *count,
                                              ze_memory_properties *p);
    ze_result (*device_get_cache_properties)(ze_device dev, uint32_t *count,
                                             ze_cache_properties *p);
    ze_result (*device_get_sub_devices)(ze_device dev, uint32_t *count, ze_device *subs);
    ze_result (*device_pci_get_properties_ext)(ze_device dev, ze_pci_properties *p);
} ze_api;

/* The names of the ze_result_t values a failing zeInit gives (ze_api.h). */
static const char *ze_result_name(ze_result r)
{
    switch ((unsigned)r) {
    case 0x70000001u: return "ZE_RESULT_ERROR_DEVICE_LOST";
    case 0x70000002u: return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
    case 0x70010000u: return "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS";
    case 0x70010001u: return "ZE_RESULT_ERROR_NOT_AVAILABLE";
    case 0x70020000u: return "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE";
    case 0x78000001u: return "ZE_RESULT_ERROR_UNINITIALIZED";
    case 0x78000002u: return "ZE_RESULT_ERROR_UNSUPPORTED_VERSION";
    case 0x78000003u: return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
    case 0x78000004u: return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
    case 0x7ffffffeu: return "ZE_RESULT_ERROR_UNKNOWN";
    default: return "error";
    }
}

static void ze_error_text(const char *call, ze_result r, char *out, size_t size)
{
    snprintf(out, size, "%s: %s (0x%x)", call, ze_result_name(r), (unsigned)r);
}

/* Clears the first min(n, max) handles of an array the runtime fills (a
 * slot it leaves is then NULL, not garbage) and returns that count. */
static uint32_t ze_handles(uint32_t n, ze_device *h, uint32_t max)
{
    if (n > max)
        n = max;
    memset(h, 0, n * sizeof(*h));
    return n;
}

static bool ze_properties(const ze_api *ze, ze_device dev, ze_device_properties *p)
{
    memset(p, 0, sizeof(*p));
    p->stype = ZE_STYPE_DEVICE_PROPERTIES;
    return ze->device_get_properties(dev, p) == 0;
}

/* Xe-cores and EUs from the geometry; 0 when a factor is missing or the
 * product is implausible (over 2^20). */
static int64_t ze_xe_cores(const ze_device_properties *p)
{
    uint64_t n = (uint64_t)p->num_slices * p->num_subslices_per_slice;
    return n > 0 && n <= (1u << 20) ? (int64_t)n : 0;
}

static int64_t ze_eus(const ze_device_properties *p)
{
    uint64_t n = (uint64_t)ze_xe_cores(p) * p->num_eus_per_subslice;
    return n > 0 && n <= (1u << 20) ? (int64_t)n : 0;
}

/* A UUID of zeros is a runtime that does not know it. */
static bool ze_uuid(const unsigned char b[16], char *out, size_t size)
{
    static const unsigned char zero[16];
    out[0] = '\0';
    if (memcmp(b, zero, 16) == 0)
        return false;
    pb_vendor_uuid(b, "", out, size);
    return true;
}

/* The device properties: identity, geometry, clock. */
static void ze_add_properties(dlti_context *ctx, const ze_device_properties *p, pb_rt_device *d)
{
    if (pb_vendor_text(p->name, sizeof(p->name), d->name, sizeof(d->name))) {
        pb_str(ctx, &d->view, "name", d->name);
        pb_str(ctx, &d->unified, "model", d->name);
    }
    if (ze_uuid(p->uuid, d->uuid, sizeof(d->uuid))) {
        pb_str(ctx, &d->view, "uuid", d->uuid);
        pb_str(ctx, &d->unified, "uuid", d->uuid);
    }
    pb_i64(ctx, &d->view, "vendor_id", p->vendor_id);
    pb_i64(ctx, &d->view, "device_id", p->device_id);
    if (p->vendor_id == 0x8086)
        pb_str(ctx, &d->unified, "vendor", "Intel");
    bool sub = (p->flags & ZE_FLAG_SUBDEVICE) != 0;
    pb_bool(ctx, &d->view, "integrated", (p->flags & ZE_FLAG_INTEGRATED) != 0);
    pb_bool(ctx, &d->view, "ecc_supported", (p->flags & ZE_FLAG_ECC) != 0);
    pb_bool(ctx, &d->unified, "is_partition", sub);
    if (p->core_clock_rate > 0 && p->core_clock_rate <= 10000) {
        pb_i64(ctx, &d->view, "core_clock_rate_in_mhz", p->core_clock_rate);
        pb_i64(ctx, &d->unified, "max_clock_in_mhz", p->core_clock_rate);
    }
    if (p->max_mem_alloc_size > 0 && p->max_mem_alloc_size <= (uint64_t)INT64_MAX)
        pb_i64(ctx, &d->view, "max_mem_alloc_size_in_bytes", (int64_t)p->max_mem_alloc_size);
    static const struct {
        size_t offset;
        const char *view;
    } geometry[] = {
        {offsetof(ze_device_properties, num_threads_per_eu), "num_threads_per_eu"},
        {offsetof(ze_device_properties, physical_eu_simd_width), "physical_eu_simd_width"},
        {offsetof(ze_device_properties, num_eus_per_subslice), "num_eus_per_subslice"},
        {offsetof(ze_device_properties, num_subslices_per_slice), "num_subslices_per_slice"},
        {offsetof(ze_device_properties, num_slices), "num_slices"},
    };
    for (size_t i = 0; i < sizeof(geometry) / sizeof(geometry[0]); i++) {
        uint32_t v;
        memcpy(&v, (const char *)p + geometry[i].offset, sizeof(v));
        if (v > 0)
            pb_i64(ctx, &d->view, geometry[i].view, v);
    }
    pb_str(ctx, &d->unified, "compute_unit_name", "Xe-core");
    if (ze_xe_cores(p))
        pb_i64(ctx, &d->unified, "num_compute_units", ze_xe_cores(p));
    if (ze_eus(p))
        pb_i64(ctx, &d->unified, "num_execution_units", ze_eus(p));
    if (p->num_threads_per_eu > 0)
        pb_i64(ctx, &d->unified, "threads_per_execution_unit", p->num_threads_per_eu);
    if (p->physical_eu_simd_width > 0)
        pb_i64(ctx, &d->unified, "execution_unit_simd_width", p->physical_eu_simd_width);
}

static void ze_add_compute(dlti_context *ctx, const ze_api *ze, ze_device dev, pb_rt_device *d)
{
    ze_compute_properties c;
    memset(&c, 0, sizeof(c));
    c.stype = ZE_STYPE_DEVICE_COMPUTE_PROPERTIES;
    if (!ze->device_get_compute_properties || ze->device_get_compute_properties(dev, &c) != 0)
        return;
    if (c.max_total_group_size > 0) {
        pb_i64(ctx, &d->view, "max_total_group_size", c.max_total_group_size);
        pb_i64(ctx, &d->unified, "max_threads_per_block", c.max_total_group_size);
    }
    int64_t size[3], count[3];
    bool have_size = true, have_count = true;
    for (int i = 0; i < 3; i++) {
        size[i] = c.max_group_size[i];
        count[i] = c.max_group_count[i];
        have_size = have_size && size[i] > 0;
        have_count = have_count && count[i] > 0;
    }
    if (have_size) {
        pb_add(ctx, &d->view, "max_group_size", pb_i64_array(ctx, size, 3));
        pb_add(ctx, &d->unified, "max_block_dims", pb_i64_array(ctx, size, 3));
    }
    if (have_count) {
        pb_add(ctx, &d->view, "max_group_count", pb_i64_array(ctx, count, 3));
        pb_add(ctx, &d->unified, "max_grid_dims", pb_i64_array(ctx, count, 3));
    }
    if (c.max_shared_local_memory > 0) {
        /* Level Zero has no opt-in: the limit is what every group may use. */
        pb_i64(ctx, &d->view, "max_shared_local_memory_in_bytes", c.max_shared_local_memory);
        pb_i64(ctx, &d->unified, "shared_memory_per_block_in_bytes", c.max_shared_local_memory);
        pb_i64(ctx, &d->unified, "max_shared_memory_per_block_in_bytes",
               c.max_shared_local_memory);
    }
    /* Only the sizes the count covers, each a plausible sub-group size. */
    int64_t sg[8];
    size_t n = 0;
    uint32_t m = c.num_sub_group_sizes < 8 ? c.num_sub_group_sizes : 8;
    for (uint32_t i = 0; i < m; i++)
        if (c.sub_group_sizes[i] >= 1 && c.sub_group_sizes[i] <= 1024)
            sg[n++] = c.sub_group_sizes[i];
    if (n) {
        pb_add(ctx, &d->view, "subgroup_sizes", pb_i64_array(ctx, sg, n));
        pb_add(ctx, &d->unified, "subgroup_sizes", pb_i64_array(ctx, sg, n));
    }
}

/* Memory (every memory module summed; the first one's clock and width) and caches. */
static void ze_add_memory(dlti_context *ctx, const ze_api *ze, ze_device dev, pb_rt_device *d)
{
    ze_memory_properties mem[8];
    uint32_t n = 8;
    for (size_t i = 0; i < 8; i++) {
        memset(&mem[i], 0, sizeof(mem[i]));
        mem[i].stype = ZE_STYPE_DEVICE_MEMORY_PROPERTIES;
    }
    if (ze->device_get_memory_properties && ze->device_get_memory_properties(dev, &n, mem) == 0 &&
        n > 0) {
        if (n > 8)
            n = 8;
        uint64_t total = 0;
        for (uint32_t i = 0; i < n; i++)
            if (mem[i].total_size <= (uint64_t)INT64_MAX - total)
                total += mem[i].total_size;
        if (total > 0) {
            pb_i64(ctx, &d->view, "memory_total_size_in_bytes", (int64_t)total);
            pb_i64(ctx, &d->unified, "memory_size_in_bytes", (int64_t)total);
        }
        if (mem[0].max_clock_rate > 0 && mem[0].max_clock_rate <= 100000) {
            pb_i64(ctx, &d->view, "memory_max_clock_rate_in_mhz", mem[0].max_clock_rate);
            pb_i64(ctx, &d->unified, "memory_clock_in_mhz", mem[0].max_clock_rate);
        }
        if (mem[0].max_bus_width > 0) {
            pb_i64(ctx, &d->view, "memory_max_bus_width_in_bits", mem[0].max_bus_width);
            pb_i64(ctx, &d->unified, "memory_bus_width_in_bits", mem[0].max_bus_width);
        }
    }
    ze_cache_properties cache[8];
    n = 8;
    for (size_t i = 0; i < 8; i++) {
        memset(&cache[i], 0, sizeof(cache[i]));
        cache[i].stype = ZE_STYPE_DEVICE_CACHE_PROPERTIES;
    }
    if (ze->device_get_cache_properties && ze->device_get_cache_properties(dev, &n, cache) == 0 &&
        n > 0) {
        if (n > 8)
            n = 8;
        /* The properties do not say which level a cache is: the largest is
         * the last level. */
        int64_t sizes[8], largest = 0;
        size_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (cache[i].cache_size > 0 && cache[i].cache_size <= (size_t)INT64_MAX) {
                sizes[k++] = (int64_t)cache[i].cache_size;
                if (sizes[k - 1] > largest)
                    largest = sizes[k - 1];
            }
        if (k) {
            pb_add(ctx, &d->view, "cache_sizes_in_bytes", pb_i64_array(ctx, sizes, k));
            pb_i64(ctx, &d->unified, "last_level_cache_size_in_bytes", largest);
        }
    }
}

static void ze_add_pci(dlti_context *ctx, const ze_api *ze, ze_device dev, pb_rt_device *d)
{
    ze_pci_properties pci;
    memset(&pci, 0, sizeof(pci));
    pci.stype = ZE_STYPE_PCI_EXT_PROPERTIES;
    if (!ze->device_pci_get_properties_ext || ze->device_pci_get_properties_ext(dev, &pci) != 0)
        return;
    if (pb_vendor_bus_id_of(pci.domain, pci.bus, pci.device, pci.function, d->bus_id))
        pb_str(ctx, &d->view, "pci_bus_id", d->bus_id);
    if (pci.gen_version >= 1 && pci.gen_version <= 16) {
        pb_i64(ctx, &d->view, "pcie_max_generation", pci.gen_version);
        pb_i64(ctx, &d->unified, "pcie_generation", pci.gen_version);
    }
    if (pci.width >= 1 && pci.width <= 64) {
        pb_i64(ctx, &d->view, "pcie_max_width", pci.width);
        pb_i64(ctx, &d->unified, "pcie_link_width", pci.width);
    }
    if (pci.max_bandwidth > 0)
        pb_i64(ctx, &d->view, "pcie_max_bandwidth_in_bytes_per_second", pci.max_bandwidth);
}

/* Sub-devices (stacks) as partitions["<i>"], i their place in zeDeviceGetSubDevices. */
static void ze_add_sub_devices(pb_run *run, const ze_api *ze, ze_device dev, pb_rt_device *d,
                               dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    ze_device subs[PB_VENDOR_MAX_DEVICES];
    uint32_t n = 0;
    if (!ze->device_get_sub_devices || ze->device_get_sub_devices(dev, &n, NULL) != 0 || n == 0)
        return;
    char what[64];
    snprintf(what, sizeof(what), "sub-devices of device %d", d->ordinal);
    n = ze_handles((uint32_t)pb_rt_cap(run, "level_zero", what, n, PB_VENDOR_MAX_DEVICES), subs,
                   PB_VENDOR_MAX_DEVICES);
    uint32_t asked = n;
    if (ze->device_get_sub_devices(dev, &n, subs) != 0)
        return;
    if (n > asked)
        n = asked; /* a runtime claiming more than it could write */
    pb_i64(ctx, &d->view, "num_sub_devices", n);
    for (uint32_t i = 0; i < n; i++) {
        ze_device_properties p;
        if (!subs[i] || !ze_properties(ze, subs[i], &p))
            continue;
        pb_map part;
        pb_init(&part);
        char name[256] = "", uuid[48];
        pb_str(ctx, &part, "kind", "sub-device");
        pb_i64(ctx, &part, "index", i);
        pb_i64(ctx, &part, "subdevice_id", p.subdevice_id);
        if (pb_vendor_text(p.name, sizeof(p.name), name, sizeof(name)))
            pb_str(ctx, &part, "name", name);
        if (ze_uuid(p.uuid, uuid, sizeof(uuid)))
            pb_str(ctx, &part, "uuid", uuid);
        if (ze_xe_cores(&p))
            pb_i64(ctx, &part, "num_compute_units", ze_xe_cores(&p));
        if (ze_eus(&p))
            pb_i64(ctx, &part, "num_execution_units", ze_eus(&p));
        ze_memory_properties mem;
        uint32_t nm = 1;
        memset(&mem, 0, sizeof(mem));
        mem.stype = ZE_STYPE_DEVICE_MEMORY_PROPERTIES;
        if (ze->device_get_memory_properties &&
            ze->device_get_memory_properties(subs[i], &nm, &mem) == 0 && nm >= 1 &&
            mem.total_size > 0 && mem.total_size <= (uint64_t)INT64_MAX)
            pb_i64(ctx, &part, "memory_size_in_bytes", (int64_t)mem.total_size);
        char key[32];
        snprintf(key, sizeof(key), "%u", (unsigned)i);
        pb_add_map(ctx, &d->partitions, key, &part, err);
    }
}

static int ze_devices(pb_run *run, const ze_api *ze, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    char why[160];
    ze_result r = ze->init(0);
    if (r != 0) {
        ze_error_text("zeInit", r, why, sizeof(why));
        pb_rt_skipped(run, "level_zero", why);
        return 0;
    }
    ze_driver drivers[16] = {NULL};
    uint32_t ndrivers = 0;
    if ((r = ze->driver_get(&ndrivers, NULL)) != 0 || ndrivers == 0) {
        if (r != 0)
            ze_error_text("zeDriverGet", r, why, sizeof(why));
        else
            snprintf(why, sizeof(why), "zeDriverGet: no driver");
        pb_rt_skipped(run, "level_zero", why);
        return 0;
    }
    ndrivers = (uint32_t)pb_rt_cap(run, "level_zero", "drivers", ndrivers, 16);
    uint32_t asked = ndrivers;
    if (ze->driver_get(&ndrivers, drivers) != 0)
        return 0;
    if (ndrivers > asked)
        ndrivers = asked;
    int ordinal = 0;
    for (uint32_t k = 0; k < ndrivers; k++) {
        if (!drivers[k])
            continue;
        char driver[160] = "Level Zero";
        int64_t driver_version = -1;
        uint32_t api = 0;
        ze_driver_properties dp;
        memset(&dp, 0, sizeof(dp));
        dp.stype = ZE_STYPE_DRIVER_PROPERTIES;
        if (ze->driver_get_properties && ze->driver_get_properties(drivers[k], &dp) == 0)
            driver_version = dp.driver_version;
        if (!ze->driver_get_api_version || ze->driver_get_api_version(drivers[k], &api) != 0)
            api = 0;
        /* ZE_MAKE_VERSION: major << 16 | minor. */
        size_t len = api ? (size_t)snprintf(driver, sizeof(driver), "Level Zero %u.%u",
                                            api >> 16, api & 0xffffu)
                         : strlen(driver);
        if (driver_version >= 0 && len < sizeof(driver))
            snprintf(driver + len, sizeof(driver) - len, ", driver %lld",
                     (long long)driver_version);
        ze_device devs[PB_VENDOR_MAX_DEVICES];
        uint32_t n = 0;
        if (ze->device_get(drivers[k], &n, NULL) != 0 || n == 0)
            continue;
        char what[64];
        snprintf(what, sizeof(what), "devices of driver %u", k);
        n = ze_handles((uint32_t)pb_rt_cap(run, "level_zero", what, n, PB_VENDOR_MAX_DEVICES),
                       devs, PB_VENDOR_MAX_DEVICES);
        uint32_t asked = n;
        if (ze->device_get(drivers[k], &n, devs) != 0)
            continue;
        if (n > asked)
            n = asked;
        for (uint32_t i = 0; i < n; i++) {
            ze_device_properties p;
            if (!devs[i] || !ze_properties(ze, devs[i], &p) || p.type != ZE_DEVICE_TYPE_GPU)
                continue; /* Level Zero also shows NPUs and the like */
            pb_rt_device d;
            pb_rt_init(&d, "level_zero", ordinal);
            snprintf(d.driver, sizeof(d.driver), "%s", driver);
            pb_i64(ctx, &d.view, "driver_index", k);
            pb_i64(ctx, &d.view, "device_index", i);
            if (driver_version >= 0)
                pb_i64(ctx, &d.view, "driver_version", driver_version);
            if (api)
                pb_i64(ctx, &d.view, "api_version", api);
            ze_add_properties(ctx, &p, &d);
            ze_add_compute(ctx, ze, devs[i], &d);
            ze_add_memory(ctx, ze, devs[i], &d);
            ze_add_pci(ctx, ze, devs[i], &d);
            ze_add_sub_devices(run, ze, devs[i], &d, err);
            pb_vendor_env(ctx, &d.view, "affinity_mask", "ZE_AFFINITY_MASK");
            if (pb_rt_add(run, &d, err) != 0)
                return -1;
            ordinal++;
        }
    }
    if (ordinal == 0)
        pb_rt_skipped(run, "level_zero", "no GPU device");
    return 0;
}

static int probe_level_zero(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "level_zero", SONAME);
    if (!lib)
        return 0;
    ze_api ze;
    memset(&ze, 0, sizeof(ze));
    static const char *const required[] = {"zeInit", "zeDriverGet", "zeDeviceGet",
                                           "zeDeviceGetProperties"};
    void *fn[4];
    for (size_t i = 0; i < 4; i++)
        if (!(fn[i] = pb_vendor_sym(lib, required[i]))) {
            pb_vendor_lacks(run, "level_zero", lib, SONAME, required[i]);
            return 0;
        }
    PB_VENDOR_FN(ze.init, fn[0]);
    PB_VENDOR_FN(ze.driver_get, fn[1]);
    PB_VENDOR_FN(ze.device_get, fn[2]);
    PB_VENDOR_FN(ze.device_get_properties, fn[3]);
    PB_VENDOR_FN(ze.driver_get_properties, pb_vendor_sym(lib, "zeDriverGetProperties"));
    PB_VENDOR_FN(ze.driver_get_api_version, pb_vendor_sym(lib, "zeDriverGetApiVersion"));
    PB_VENDOR_FN(ze.device_get_compute_properties,
                 pb_vendor_sym(lib, "zeDeviceGetComputeProperties"));
    PB_VENDOR_FN(ze.device_get_memory_properties,
                 pb_vendor_sym(lib, "zeDeviceGetMemoryProperties"));
    PB_VENDOR_FN(ze.device_get_cache_properties, pb_vendor_sym(lib, "zeDeviceGetCacheProperties"));
    PB_VENDOR_FN(ze.device_get_sub_devices, pb_vendor_sym(lib, "zeDeviceGetSubDevices"));
    PB_VENDOR_FN(ze.device_pci_get_properties_ext,
                 pb_vendor_sym(lib, "zeDevicePciGetPropertiesExt"));
    int rc = ze_devices(run, &ze, err);
    dlclose(lib);
    return rc;
}

const pb_rt_source pb_rt_level_zero = {
    .name = "level_zero",
    .option = "level_zero",
    .bit = SYSDESC_RUNTIME_LEVEL_ZERO,
    .priority = 2,
    .probe = probe_level_zero,
};
