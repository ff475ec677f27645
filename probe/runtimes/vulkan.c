/* The Vulkan source: every physical device the loader (libvulkan.so.1,
 * opened at run time) lists, as runtimes.vulkan, and for a GPU the schema
 * keys whose meaning Vulkan answers.  The structures, entry points and
 * values are declared here from the Vulkan specification (1.3); no Vulkan
 * header is needed to build.  Only structures the device's API version or
 * its extensions promise are chained into vkGetPhysicalDeviceProperties2. */
#define _GNU_SOURCE
#include "measure/measure_dev.h"
#include "probe_private.h"
#include "vk_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct VkPhysicalDeviceIDProperties {
    int32_t sType;
    void *pNext;
    uint8_t deviceUUID[16], driverUUID[16], deviceLUID[8];
    uint32_t deviceNodeMask;
    VkBool32 deviceLUIDValid;
} VkPhysicalDeviceIDProperties;

typedef struct VkPhysicalDeviceSubgroupProperties {
    int32_t sType;
    void *pNext;
    uint32_t subgroupSize;
    VkFlags supportedStages, supportedOperations;
    VkBool32 quadOperationsInAllStages;
} VkPhysicalDeviceSubgroupProperties;

typedef struct VkPhysicalDevicePCIBusInfoPropertiesEXT {
    int32_t sType;
    void *pNext;
    uint32_t pciDomain, pciBus, pciDevice, pciFunction;
} VkPhysicalDevicePCIBusInfoPropertiesEXT;

typedef struct VkPhysicalDeviceSubgroupSizeControlProperties {
    int32_t sType;
    void *pNext;
    uint32_t minSubgroupSize, maxSubgroupSize, maxComputeWorkgroupSubgroups;
    VkFlags requiredSubgroupSizeStages;
} VkPhysicalDeviceSubgroupSizeControlProperties;

typedef struct vk_api {
    PFN_vkVoidFunction (*get_instance_proc_addr)(VkInstance, const char *);
    VkResult (*enumerate_instance_version)(uint32_t *);
    VkResult (*create_instance)(const VkInstanceCreateInfo *, const void *, VkInstance *);
    void (*destroy_instance)(VkInstance, const void *);
    VkResult (*enumerate_physical_devices)(VkInstance, uint32_t *, VkPhysicalDevice *);
    void (*get_properties)(VkPhysicalDevice, VkPhysicalDeviceProperties *);
    void (*get_properties2)(VkPhysicalDevice, VkPhysicalDeviceProperties2 *);
    void (*get_memory_properties)(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *);
    VkResult (*enumerate_device_extensions)(VkPhysicalDevice, const char *, uint32_t *,
                                            VkExtensionProperties *);
} vk_api;

#define MAX_DEVICES 64
#define MAX_EXTENSIONS 1024

/* An instance-level entry point (NULL instance: a global one). */
#define VK_PROC(vk, inst, fp, name)                                                            \
    do {                                                                                       \
        PFN_vkVoidFunction f_ = (vk)->get_instance_proc_addr((inst), (name));                  \
        memcpy(&(fp), &f_, sizeof(f_));                                                        \
    } while (0)

/* The device's extensions' names, in the driver's order (vulkaninfo's
 * "Device Extensions"); NULL when it lists none. */
static const dlti_attr *extension_list(dlti_context *ctx, const vk_api *vk, VkPhysicalDevice pd)
{
    uint32_t n = 0;
    if (!vk->enumerate_device_extensions ||
        vk->enumerate_device_extensions(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return NULL;
    n = n < MAX_EXTENSIONS ? n : MAX_EXTENSIONS;
    VkExtensionProperties *e = calloc(n, sizeof(*e));
    const char **names = calloc(n, sizeof(*names));
    const dlti_attr *a = NULL;
    VkResult r = e && names ? vk->enumerate_device_extensions(pd, NULL, &n, e) : VK_INCOMPLETE;
    if (e && names && (r == VK_SUCCESS || r == VK_INCOMPLETE)) {
        for (uint32_t i = 0; i < n; i++) {
            e[i].extensionName[sizeof(e[i].extensionName) - 1] = '\0';
            names[i] = e[i].extensionName;
        }
        a = pb_str_array(ctx, names, n);
    }
    free(names);
    free(e);
    return a;
}

static bool has_device_extension(const vk_api *vk, VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (!vk->enumerate_device_extensions ||
        vk->enumerate_device_extensions(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    n = n < MAX_EXTENSIONS ? n : MAX_EXTENSIONS;
    VkExtensionProperties *e = calloc(n, sizeof(*e));
    if (!e)
        return false;
    bool found = false;
    VkResult r = vk->enumerate_device_extensions(pd, NULL, &n, e);
    if (r == VK_SUCCESS || r == VK_INCOMPLETE)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strncmp(e[i].extensionName, name, sizeof(e[i].extensionName)) == 0;
    free(e);
    return found;
}

static const char *device_type_name(int32_t t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated_gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete_gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual_gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

/* driverVersion is vendor-encoded: NVIDIA packs 10.8.8.6 bits; the others
 * (Mesa, AMD, Intel on Linux) use VK_MAKE_API_VERSION's 10.10.12 less the
 * variant bits, as vulkaninfo prints them. */
static void driver_version_text(uint32_t vendor, uint32_t v, char *out, size_t size)
{
    if (vendor == 0x10de)
        snprintf(out, size, "%u.%u.%u.%u", v >> 22 & 0x3ffu, v >> 14 & 0xffu, v >> 6 & 0xffu,
                 v & 0x3fu);
    else
        snprintf(out, size, "%u.%u.%u", VK_VERSION_MAJOR(v), VK_VERSION_MINOR(v),
                 VK_VERSION_PATCH(v));
}

/* What the device's version and extensions let vkGetPhysicalDeviceProperties2 answer. */
typedef struct vk_props {
    VkPhysicalDeviceProperties2 p2;
    VkPhysicalDeviceIDProperties id;
    VkPhysicalDeviceSubgroupProperties sub;
    VkPhysicalDeviceDriverProperties drv;
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci;
    VkPhysicalDeviceSubgroupSizeControlProperties size;
    bool has_id, has_sub, has_drv, has_pci, has_size;
} vk_props;

static void query_props(const vk_api *vk, VkPhysicalDevice pd, uint32_t instance_version,
                        vk_props *p)
{
    memset(p, 0, sizeof(*p));
    vk->get_properties(pd, &p->p2.properties);
    uint32_t dv = p->p2.properties.apiVersion;
    if (!vk->get_properties2 || instance_version < VK_API_VERSION_1_1 || dv < VK_API_VERSION_1_1)
        return;
    p->p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    void **next = &p->p2.pNext;
#define CHAIN(field, type)                                                                     \
    do {                                                                                       \
        p->field.sType = (type);                                                               \
        *next = &p->field;                                                                     \
        next = &p->field.pNext;                                                                \
    } while (0)
    p->has_id = p->has_sub = true;
    CHAIN(id, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
    CHAIN(sub, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    if ((p->has_drv = dv >= VK_API_VERSION_1_2 ||
                      has_device_extension(vk, pd, "VK_KHR_driver_properties")))
        CHAIN(drv, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
    if ((p->has_size = dv >= VK_API_VERSION_1_3 ||
                       has_device_extension(vk, pd, "VK_EXT_subgroup_size_control")))
        CHAIN(size, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
    if ((p->has_pci = has_device_extension(vk, pd, "VK_EXT_pci_bus_info")))
        CHAIN(pci, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT);
#undef CHAIN
    vk->get_properties2(pd, &p->p2);
}

static void add_u32s(pb_run *run, pb_map *m, const char *key, const uint32_t *v, size_t n)
{
    int64_t w[3];
    for (size_t i = 0; i < n; i++)
        w[i] = v[i];
    pb_add(run->ctx, m, key, pb_i64_array(run->ctx, w, n));
}

/* The memory heaps: every heap's size, the device-local ones', and the
 * largest device-local heap (the unified memory_size_in_bytes). */
static int64_t add_heaps(pb_run *run, pb_map *view, const vk_api *vk, VkPhysicalDevice pd)
{
    VkPhysicalDeviceMemoryProperties mp;
    memset(&mp, 0, sizeof(mp));
    vk->get_memory_properties(pd, &mp);
    int64_t all[16], local[16], largest = 0;
    size_t nall = 0, nlocal = 0;
    for (uint32_t i = 0; i < mp.memoryHeapCount && i < 16; i++) {
        int64_t size = (int64_t)mp.memoryHeaps[i].size;
        all[nall++] = size;
        if (mp.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
            local[nlocal++] = size;
            largest = size > largest ? size : largest;
        }
    }
    if (nall)
        pb_add(run->ctx, view, "memory_heap_sizes_in_bytes", pb_i64_array(run->ctx, all, nall));
    if (nlocal)
        pb_add(run->ctx, view, "device_local_heap_sizes_in_bytes",
               pb_i64_array(run->ctx, local, nlocal));
    return largest;
}

/* The sizes a compute shader's subgroups may have: every power of two from
 * minSubgroupSize to maxSubgroupSize where the device lets a pipeline pick
 * one, else the one subgroupSize. */
static size_t subgroup_sizes(const vk_props *p, int64_t *v)
{
    size_t n = 0;
    if (p->has_size && p->size.minSubgroupSize && p->size.maxSubgroupSize <= 1024)
        for (uint32_t s = p->size.minSubgroupSize; s && s <= p->size.maxSubgroupSize; s *= 2)
            v[n++] = s;
    if (!n && p->has_sub && p->sub.subgroupSize)
        v[n++] = p->sub.subgroupSize;
    return n;
}

static int add_device(pb_run *run, const vk_api *vk, VkPhysicalDevice pd, int ordinal,
                      uint32_t instance_version, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    vk_props p;
    query_props(vk, pd, instance_version, &p);
    const VkPhysicalDeviceProperties *pr = &p.p2.properties;
    const VkPhysicalDeviceLimits *lim = &pr->limits;
    pb_rt_device rd;
    pb_rt_init(&rd, "vulkan", ordinal);
    pb_map *view = &rd.view;
    char s[64];

    pb_i64(ctx, view, "device_index", ordinal);
    char name[257];
    snprintf(name, sizeof(name), "%.*s", (int)sizeof(pr->deviceName), pr->deviceName);
    pb_str(ctx, view, "device_name", name);
    pb_copy(rd.name, sizeof(rd.name), name);
    pb_str(ctx, view, "device_type", device_type_name(pr->deviceType));
    rd.is_cpu = pr->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    snprintf(s, sizeof(s), "%u.%u.%u", VK_VERSION_MAJOR(pr->apiVersion),
             VK_VERSION_MINOR(pr->apiVersion), VK_VERSION_PATCH(pr->apiVersion));
    pb_str(ctx, view, "api_version", s);
    char version[64];
    driver_version_text(pr->vendorID, pr->driverVersion, version, sizeof(version));
    pb_str(ctx, view, "driver_version", version);
    pb_i64(ctx, view, "vendor_id", pr->vendorID);
    pb_i64(ctx, view, "device_id", pr->deviceID);
    if (p.has_drv) {
        char dname[257], dinfo[257];
        snprintf(dname, sizeof(dname), "%.*s", (int)sizeof(p.drv.driverName), p.drv.driverName);
        snprintf(dinfo, sizeof(dinfo), "%.*s", (int)sizeof(p.drv.driverInfo), p.drv.driverInfo);
        pb_str(ctx, view, "driver_name", dname);
        pb_str(ctx, view, "driver_info", dinfo);
        const uint8_t *cv = p.drv.conformanceVersion;
        snprintf(s, sizeof(s), "%u.%u.%u.%u", cv[0], cv[1], cv[2], cv[3]);
        pb_str(ctx, view, "conformance_version", s);
        snprintf(rd.driver, sizeof(rd.driver), "%.60s, %.90s", dname, *dinfo ? dinfo : version);
    } else {
        snprintf(rd.driver, sizeof(rd.driver), "driver %s", version);
    }

    pb_i64(ctx, view, "max_compute_work_group_invocations", lim->maxComputeWorkGroupInvocations);
    add_u32s(run, view, "max_compute_work_group_size", lim->maxComputeWorkGroupSize, 3);
    add_u32s(run, view, "max_compute_work_group_count", lim->maxComputeWorkGroupCount, 3);
    pb_i64(ctx, view, "max_compute_shared_memory_size_in_bytes", lim->maxComputeSharedMemorySize);
    if (p.has_sub && p.sub.subgroupSize)
        pb_i64(ctx, view, "subgroup_size", p.sub.subgroupSize);
    if (p.has_size) {
        pb_i64(ctx, view, "min_subgroup_size", p.size.minSubgroupSize);
        pb_i64(ctx, view, "max_subgroup_size", p.size.maxSubgroupSize);
        pb_i64(ctx, view, "max_compute_workgroup_subgroups",
               p.size.maxComputeWorkgroupSubgroups);
    }
    int64_t local = add_heaps(run, view, vk, pd);
    const dlti_attr *ext = extension_list(ctx, vk, pd);
    if (ext)
        pb_add(ctx, view, "extensions", ext);
    if (p.has_pci)
        snprintf(rd.bus_id, sizeof(rd.bus_id), "%04x:%02x:%02x.%x", p.pci.pciDomain & 0xffffu,
                 p.pci.pciBus & 0xffu, p.pci.pciDevice & 0x1fu, p.pci.pciFunction & 7u);
    pb_str(ctx, view, "pci_bus_id", rd.bus_id);
    if (p.has_id) {
        const uint8_t *u = p.id.deviceUUID;
        snprintf(rd.uuid, sizeof(rd.uuid),
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                 u[14], u[15]);
        pb_str(ctx, view, "device_uuid", rd.uuid);
    }

    if (!rd.is_cpu) {
        int64_t sg[16];
        size_t nsg = subgroup_sizes(&p, sg);
        pb_i64(ctx, &rd.unified, "max_threads_per_block", lim->maxComputeWorkGroupInvocations);
        add_u32s(run, &rd.unified, "max_block_dims", lim->maxComputeWorkGroupSize, 3);
        pb_i64(ctx, &rd.unified, "shared_memory_per_block_in_bytes",
               lim->maxComputeSharedMemorySize);
        if (nsg)
            pb_add(ctx, &rd.unified, "subgroup_sizes", pb_i64_array(ctx, sg, nsg));
        if (local > 0)
            pb_i64(ctx, &rd.unified, "memory_size_in_bytes", local);
    }
    return pb_rt_add(run, &rd, err);
}

static int enumerate(pb_run *run, const vk_api *vk, VkInstance inst, uint32_t version,
                     dlti_error_t *err)
{
    VkPhysicalDevice pds[MAX_DEVICES];
    /* how many there are first: a cut is said (pb_rt_cap) */
    uint32_t all = 0;
    VkResult r = vk->enumerate_physical_devices(inst, &all, NULL);
    uint32_t n = r == VK_SUCCESS ? (uint32_t)pb_rt_cap(run, "vulkan", "devices", all, MAX_DEVICES)
                                 : 0;
    if (n)
        r = vk->enumerate_physical_devices(inst, &n, pds);
    char why[PB_RT_WHY];
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        snprintf(why, sizeof(why), "no Vulkan device (vkEnumeratePhysicalDevices: %d)", (int)r);
        pb_rt_skipped(run, "vulkan", why);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        if (add_device(run, vk, pds[i], (int)i, version, err) != 0)
            return -1;
    return 0;
}

static int probe_vulkan(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "vulkan", "libvulkan.so.1");
    char why[PB_RT_WHY];
    if (!lib)
        return 0;
    vk_api vk;
    memset(&vk, 0, sizeof(vk));
    PB_VENDOR_FN(vk.get_instance_proc_addr, pb_vendor_sym(lib, "vkGetInstanceProcAddr"));
    if (!vk.get_instance_proc_addr) {
        pb_rt_skipped(run, "vulkan", "libvulkan.so.1 lacks vkGetInstanceProcAddr");
        return 0;
    }
    VK_PROC(&vk, NULL, vk.enumerate_instance_version, "vkEnumerateInstanceVersion");
    VK_PROC(&vk, NULL, vk.create_instance, "vkCreateInstance");
    uint32_t version = VK_MAKE_API_VERSION(1, 0, 0);
    if (vk.enumerate_instance_version && vk.enumerate_instance_version(&version) != VK_SUCCESS)
        version = VK_MAKE_API_VERSION(1, 0, 0);
    if (version > VK_API_VERSION_1_3)
        version = VK_API_VERSION_1_3; /* the structures declared here */
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "sysdesc", 1, "sysdesc", 1,
                             version};
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0,
                               NULL};
    VkInstance inst = NULL;
    VkResult r = vk.create_instance ? vk.create_instance(&ci, NULL, &inst) : -1;
    if (r != VK_SUCCESS) {
        snprintf(why, sizeof(why), "no Vulkan driver (vkCreateInstance: %d)", (int)r);
        pb_rt_skipped(run, "vulkan", why);
        return 0;
    }
    VK_PROC(&vk, inst, vk.destroy_instance, "vkDestroyInstance");
    VK_PROC(&vk, inst, vk.enumerate_physical_devices, "vkEnumeratePhysicalDevices");
    VK_PROC(&vk, inst, vk.get_properties, "vkGetPhysicalDeviceProperties");
    VK_PROC(&vk, inst, vk.get_memory_properties, "vkGetPhysicalDeviceMemoryProperties");
    VK_PROC(&vk, inst, vk.enumerate_device_extensions, "vkEnumerateDeviceExtensionProperties");
    if (version >= VK_API_VERSION_1_1)
        VK_PROC(&vk, inst, vk.get_properties2, "vkGetPhysicalDeviceProperties2");
    int rc = 0;
    if (!vk.enumerate_physical_devices || !vk.get_properties || !vk.get_memory_properties)
        pb_rt_skipped(run, "vulkan", "the Vulkan loader lacks the 1.0 entry points");
    else
        rc = enumerate(run, &vk, inst, version, err);
    if (vk.destroy_instance)
        vk.destroy_instance(inst, NULL);
    return rc;
}

const pb_rt_source pb_rt_vulkan = {
    .name = "vulkan",
    .option = "vulkan",
    .bit = SYSDESC_RUNTIME_VULKAN,
    .priority = 21,
    .probe = probe_vulkan,
    .measure = &md_vulkan_ops,
};
