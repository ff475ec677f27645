/* The OpenCL source: every device of every platform the ICD loader
 * (libOpenCL.so.1, opened at run time) lists, as runtimes.opencl, and for a
 * GPU the schema keys whose meaning OpenCL answers.  The entry points and
 * values are declared here from the Khronos OpenCL API specification and
 * its extension registry (cl_khr_pci_bus_info, cl_khr_device_uuid,
 * cl_intel_required_subgroup_size, cl_nv_device_attribute_query,
 * cl_amd_device_attribute_query); no OpenCL header is needed to build. */
#define _GNU_SOURCE
#include "cl_api.h"
#include "measure/measure_dev.h"
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 32
#define MAX_DEVICES 64
#define EXTENSIONS_SIZE 65536 /* CL_DEVICE_EXTENSIONS: a few kB in practice */

/* A string parameter into buf ("" when the device does not answer). */
static void dev_str(const cl_api *cl, cl_device_id d, cl_uint param, char *buf, size_t size)
{
    size_t got = 0;
    buf[0] = '\0';
    if (cl->get_device_info(d, param, size - 1, buf, &got) != CL_SUCCESS)
        buf[0] = '\0';
    buf[got < size ? got : size - 1] = '\0';
}

/* An unsigned parameter of any width (cl_uint, cl_ulong, size_t, cl_bool,
 * cl_bitfield); false when the device does not answer. */
static bool dev_num(const cl_api *cl, cl_device_id d, cl_uint param, uint64_t *out)
{
    size_t size = 0;
    unsigned char b[8] = {0};
    if (cl->get_device_info(d, param, 0, NULL, &size) != CL_SUCCESS ||
        (size != 4 && size != 8) || cl->get_device_info(d, param, size, b, NULL) != CL_SUCCESS)
        return false;
    if (size == 4) {
        uint32_t v;
        memcpy(&v, b, 4);
        *out = v;
    } else {
        memcpy(out, b, 8);
    }
    return true;
}

/* Adds the parameter as an i64 under key (nothing when it does not answer or
 * does not fit). */
static bool add_num(pb_run *run, pb_map *m, const char *key, const cl_api *cl, cl_device_id d,
                    cl_uint param, uint64_t *value)
{
    uint64_t v;
    if (!dev_num(cl, d, param, &v) || v > (uint64_t)INT64_MAX)
        return false;
    pb_i64(run->ctx, m, key, (int64_t)v);
    if (value)
        *value = v;
    return true;
}

/* An array of size_t (work-item sizes, sub-group sizes) into v; its length. */
static size_t dev_sizes(const cl_api *cl, cl_device_id d, cl_uint param, int64_t *v, size_t max)
{
    size_t got = 0, raw[64];
    if (cl->get_device_info(d, param, sizeof(raw), raw, &got) != CL_SUCCESS)
        return 0;
    size_t n = got / sizeof(size_t);
    n = n < max ? n : max;
    for (size_t i = 0; i < n; i++)
        v[i] = (int64_t)raw[i];
    return n;
}

/* CL_DEVICE_EXTENSIONS ("cl_khr_fp64 cl_khr_icd ...") as one string a name,
 * in the driver's order. */
static const dlti_attr *extension_list(dlti_context *ctx, const char *list)
{
    size_t n = 0;
    for (const char *p = list; *p;) {
        p += strspn(p, " \t\n");
        size_t len = strcspn(p, " \t\n");
        n += len > 0;
        p += len;
    }
    char **names = calloc(n ? n : 1, sizeof *names);
    const dlti_attr *a = NULL;
    size_t k = 0;
    for (const char *p = list; names && *p;) {
        p += strspn(p, " \t\n");
        size_t len = strcspn(p, " \t\n");
        if (len && !(names[k++] = strndup(p, len)))
            break;
        p += len;
    }
    if (names && k == n)
        a = pb_str_array(ctx, (const char *const *)names, n);
    for (size_t i = 0; names && i < k; i++)
        free(names[i]);
    free(names);
    return a;
}

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* The device's PCI bus id from whichever extension answers: cl_khr_pci_bus_info,
 * NVIDIA's bus/slot/domain ids, AMD's topology (no domain: 0). */
static void pci_bus_id(const cl_api *cl, cl_device_id d, const char *ext, char *out, size_t size)
{
    uint32_t v[6] = {0};
    uint64_t bus, slot, domain = 0;
    if (has_extension(ext, "cl_khr_pci_bus_info") &&
        cl->get_device_info(d, CL_DEVICE_PCI_BUS_INFO_KHR, 16, v, NULL) == CL_SUCCESS) {
        snprintf(out, size, "%04x:%02x:%02x.%x", v[0] & 0xffffu, v[1] & 0xffu, v[2] & 0x1fu,
                 v[3] & 7u);
    } else if (has_extension(ext, "cl_nv_device_attribute_query") &&
               dev_num(cl, d, CL_DEVICE_PCI_BUS_ID_NV, &bus) &&
               dev_num(cl, d, CL_DEVICE_PCI_SLOT_ID_NV, &slot)) {
        dev_num(cl, d, CL_DEVICE_PCI_DOMAIN_ID_NV, &domain); /* newer drivers only */
        snprintf(out, size, "%04x:%02x:%02x.%x", (unsigned)(domain & 0xffffu),
                 (unsigned)(bus & 0xffu), (unsigned)((slot >> 3) & 0x1fu), (unsigned)(slot & 7u));
    } else if (has_extension(ext, "cl_amd_device_attribute_query") &&
               cl->get_device_info(d, CL_DEVICE_TOPOLOGY_AMD, 24, v, NULL) == CL_SUCCESS &&
               v[0] == CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD) {
        const unsigned char *b = (const unsigned char *)v;
        snprintf(out, size, "0000:%02x:%02x.%x", b[21], b[22] & 0x1fu, b[23] & 7u);
    }
}

static void uuid_text(const unsigned char *u, char *out, size_t size)
{
    snprintf(out, size,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
             u[15]);
}

/* The sub-group sizes the device supports: cl_intel_required_subgroup_size
 * lists them; NVIDIA's warp size and AMD's wavefront width are the one size
 * of their devices. */
static size_t subgroup_sizes(const cl_api *cl, cl_device_id d, const char *ext, int64_t *v,
                             size_t max)
{
    uint64_t w;
    if (has_extension(ext, "cl_intel_required_subgroup_size")) {
        size_t n = dev_sizes(cl, d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, v, max);
        if (n)
            return n;
    }
    if (has_extension(ext, "cl_nv_device_attribute_query") &&
        dev_num(cl, d, CL_DEVICE_WARP_SIZE_NV, &w) && w) {
        v[0] = (int64_t)w;
        return 1;
    }
    if (has_extension(ext, "cl_amd_device_attribute_query") &&
        dev_num(cl, d, CL_DEVICE_WAVEFRONT_WIDTH_AMD, &w) && w) {
        v[0] = (int64_t)w;
        return 1;
    }
    return 0;
}

static const char *const vector_types[] = {"char", "short", "int", "long", "float", "double"};

/* preferred_vector_width and native_vector_width: the six types whose
 * parameters follow each other, then half (its own parameter). */
static void vector_widths(pb_run *run, pb_map *view, const cl_api *cl, cl_device_id d,
                          const char *key, cl_uint first, cl_uint half, dlti_error_t *err)
{
    pb_map m;
    pb_init(&m);
    for (cl_uint i = 0; i < 6; i++)
        add_num(run, &m, vector_types[i], cl, d, first + i, NULL);
    add_num(run, &m, "half", cl, d, half, NULL);
    pb_add_map(run->ctx, view, key, &m, err);
}

static const char *device_type_name(uint64_t t)
{
    return t & CL_DEVICE_TYPE_GPU           ? "GPU"
           : t & CL_DEVICE_TYPE_CPU         ? "CPU"
           : t & CL_DEVICE_TYPE_ACCELERATOR ? "ACCELERATOR"
           : t & CL_DEVICE_TYPE_CUSTOM      ? "CUSTOM"
                                            : NULL;
}

/* Whether CL_DEVICE_MAX_COMPUTE_UNITS counts work-group processors: AMD's
 * own OpenCL (ROCm's platform) on gfx10 and later runs in WGP mode by
 * default and reports one unit per WGP, two CUs, half of what rocminfo
 * (HSA) and the product count (ROCm/hip issues 2687, 3198, 3767: "HIP and
 * OCL are language runtimes and they control WGP mode").  Mesa's drivers
 * count CUs. */
static bool counts_wgps(const char *platform_name, const char *device_name)
{
    return platform_name && strcmp(platform_name, "AMD Accelerated Parallel Processing") == 0 &&
           strncmp(device_name, "gfx1", 4) == 0;
}

/* The schema keys at a GPU's top level that OpenCL answers with their
 * meaning (docs/runtimes.md, "Unified keys"). */
static void unified_keys(pb_run *run, pb_rt_device *rd, const cl_api *cl, cl_device_id d,
                         uint64_t vendor_id, bool wgps, const int64_t *sg, size_t nsg,
                         const int64_t *wis, size_t nwis)
{
    uint64_t v;
    /* Intel's OpenCL counts EUs (vector engines) as compute units; AMD's
     * counts WGPs on RDNA, which is no schema key: its view keeps the
     * count, and HSA (rocm) gives the CUs. */
    if (!wgps)
        add_num(run, &rd->unified,
                vendor_id == 0x8086 ? "num_execution_units" : "num_compute_units", cl, d,
                CL_DEVICE_MAX_COMPUTE_UNITS, NULL);
    add_num(run, &rd->unified, "max_threads_per_block", cl, d, CL_DEVICE_MAX_WORK_GROUP_SIZE,
            NULL);
    if (nwis)
        pb_add(run->ctx, &rd->unified, "max_block_dims", pb_i64_array(run->ctx, wis, nwis));
    if (dev_num(cl, d, CL_DEVICE_LOCAL_MEM_TYPE, &v) && v == CL_LOCAL)
        add_num(run, &rd->unified, "shared_memory_per_block_in_bytes", cl, d,
                CL_DEVICE_LOCAL_MEM_SIZE, NULL);
    add_num(run, &rd->unified, "memory_size_in_bytes", cl, d, CL_DEVICE_GLOBAL_MEM_SIZE, NULL);
    add_num(run, &rd->unified, "max_clock_in_mhz", cl, d, CL_DEVICE_MAX_CLOCK_FREQUENCY, NULL);
    if (nsg)
        pb_add(run->ctx, &rd->unified, "subgroup_sizes", pb_i64_array(run->ctx, sg, nsg));
}

static int add_device(pb_run *run, const cl_api *cl, cl_device_id d, int ordinal, cl_uint pi,
                      cl_uint di, const char *pname, const char *pvendor, const char *pversion,
                      dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    pb_rt_device rd;
    pb_rt_init(&rd, "opencl", ordinal);
    pb_map *view = &rd.view;
    char s[1024];
    uint64_t type = 0, vendor_id = 0, v;
    char *ext = malloc(EXTENSIONS_SIZE);
    if (!ext) {
        pb_rt_free_device(&rd);
        bs_nomem(err);
        return -1;
    }
    dev_str(cl, d, CL_DEVICE_EXTENSIONS, ext, EXTENSIONS_SIZE);

    pb_i64(ctx, view, "platform_index", pi);
    pb_i64(ctx, view, "device_index", di);
    pb_str(ctx, view, "platform_name", pname);
    pb_str(ctx, view, "platform_vendor", pvendor);
    pb_str(ctx, view, "platform_version", pversion);
    dev_str(cl, d, CL_DEVICE_NAME, s, sizeof(s));
    pb_str(ctx, view, "device_name", s);
    pb_copy(rd.name, sizeof(rd.name), s);
    dev_str(cl, d, CL_DEVICE_VENDOR, s, sizeof(s));
    pb_str(ctx, view, "device_vendor", s);
    add_num(run, view, "vendor_id", cl, d, CL_DEVICE_VENDOR_ID, &vendor_id);
    if (dev_num(cl, d, CL_DEVICE_TYPE, &type))
        pb_str(ctx, view, "device_type", device_type_name(type));
    rd.is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    dev_str(cl, d, CL_DEVICE_VERSION, s, sizeof(s));
    pb_str(ctx, view, "device_version", s);
    dev_str(cl, d, CL_DRIVER_VERSION, s, sizeof(s));
    pb_str(ctx, view, "driver_version", s);
    snprintf(rd.driver, sizeof(rd.driver), "%.80s, driver %.70s", pname, *s ? s : "unknown");
    dev_str(cl, d, CL_DEVICE_OPENCL_C_VERSION, s, sizeof(s));
    pb_str(ctx, view, "opencl_c_version", s);

    add_num(run, view, "max_compute_units", cl, d, CL_DEVICE_MAX_COMPUTE_UNITS, NULL);
    add_num(run, view, "max_clock_frequency_in_mhz", cl, d, CL_DEVICE_MAX_CLOCK_FREQUENCY, NULL);
    add_num(run, view, "max_work_group_size", cl, d, CL_DEVICE_MAX_WORK_GROUP_SIZE, NULL);
    int64_t wis[16];
    size_t nwis = 0;
    if (dev_num(cl, d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, &v) && v >= 1 && v <= 16) {
        nwis = dev_sizes(cl, d, CL_DEVICE_MAX_WORK_ITEM_SIZES, wis, (size_t)v);
        if (nwis)
            pb_add(ctx, view, "max_work_item_sizes", pb_i64_array(ctx, wis, nwis));
    }
    int64_t sg[64];
    size_t nsg = subgroup_sizes(cl, d, ext, sg, 64);
    if (nsg)
        pb_add(ctx, view, "subgroup_sizes", pb_i64_array(ctx, sg, nsg));
    if (dev_num(cl, d, CL_DEVICE_MAX_NUM_SUB_GROUPS, &v) && v > 0)
        pb_i64(ctx, view, "max_num_subgroups", (int64_t)v);
    /* A device query from OpenCL 3.0 on (clinfo's "(device)" line); older
     * devices answer it only for a built kernel, which the probe does not
     * build. */
    if (dev_num(cl, d, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, &v) && v > 0 &&
        v <= (uint64_t)INT64_MAX)
        pb_i64(ctx, view, "preferred_work_group_size_multiple", (int64_t)v);

    add_num(run, view, "local_memory_size_in_bytes", cl, d, CL_DEVICE_LOCAL_MEM_SIZE, NULL);
    if (dev_num(cl, d, CL_DEVICE_LOCAL_MEM_TYPE, &v))
        pb_str(ctx, view, "local_memory_type",
               v == CL_LOCAL ? "local" : v == CL_GLOBAL ? "global" : "none");
    add_num(run, view, "global_memory_size_in_bytes", cl, d, CL_DEVICE_GLOBAL_MEM_SIZE, NULL);
    add_num(run, view, "max_memory_allocation_in_bytes", cl, d, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
            NULL);
    bool has_cache = true;
    if (dev_num(cl, d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, &v)) {
        pb_str(ctx, view, "global_memory_cache_type",
               v == CL_READ_WRITE_CACHE  ? "read_write"
               : v == CL_READ_ONLY_CACHE ? "read_only"
                                         : "none");
        has_cache = v == CL_READ_WRITE_CACHE || v == CL_READ_ONLY_CACHE;
    }
    /* A cache of type none has no size or line (pocl answers 0 for both;
     * clinfo prints neither: its dev_has_cache). */
    if (has_cache) {
        add_num(run, view, "global_memory_cache_size_in_bytes", cl, d,
                CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, NULL);
        add_num(run, view, "global_memory_cache_line_size_in_bytes", cl, d,
                CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, NULL);
    }
    add_num(run, view, "max_constant_buffer_size_in_bytes", cl, d,
            CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, NULL);
    vector_widths(run, view, cl, d, "preferred_vector_width",
                  CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
                  err);
    vector_widths(run, view, cl, d, "native_vector_width", CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
                  CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR + 6, err);
    if (dev_num(cl, d, CL_DEVICE_DOUBLE_FP_CONFIG, &v))
        pb_bool(ctx, view, "fp64", v != 0);
    pb_bool(ctx, view, "fp16", has_extension(ext, "cl_khr_fp16"));
    if (dev_num(cl, d, CL_DEVICE_ERROR_CORRECTION_SUPPORT, &v))
        pb_bool(ctx, view, "error_correction_support", v != 0);
    if (dev_num(cl, d, CL_DEVICE_HOST_UNIFIED_MEMORY, &v))
        pb_bool(ctx, view, "host_unified_memory", v != 0);
    add_num(run, view, "address_bits", cl, d, CL_DEVICE_ADDRESS_BITS, NULL);
    if (*ext)
        pb_add(ctx, view, "extensions", extension_list(ctx, ext));

    pci_bus_id(cl, d, ext, rd.bus_id, sizeof(rd.bus_id));
    pb_str(ctx, view, "pci_bus_id", rd.bus_id);
    unsigned char uuid[16];
    if (has_extension(ext, "cl_khr_device_uuid") &&
        cl->get_device_info(d, CL_DEVICE_UUID_KHR, 16, uuid, NULL) == CL_SUCCESS) {
        uuid_text(uuid, rd.uuid, sizeof(rd.uuid));
        pb_str(ctx, view, "uuid", rd.uuid);
    }
    if (!rd.is_cpu)
        unified_keys(run, &rd, cl, d, vendor_id, counts_wgps(pname, rd.name), sg, nsg, wis,
                     nwis);
    free(ext);
    return pb_rt_add(run, &rd, err);
}

static void platform_str(const cl_api *cl, cl_platform_id p, cl_uint param, char *buf,
                         size_t size)
{
    size_t got = 0;
    if (cl->get_platform_info(p, param, size - 1, buf, &got) != CL_SUCCESS)
        got = 0;
    buf[got < size ? got : size - 1] = '\0';
}

static int probe_opencl(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "opencl", "libOpenCL.so.1");
    char why[PB_RT_WHY];
    if (!lib)
        return 0;
    cl_api cl;
    PB_VENDOR_FN(cl.get_platform_ids, pb_vendor_sym(lib, "clGetPlatformIDs"));
    PB_VENDOR_FN(cl.get_platform_info, pb_vendor_sym(lib, "clGetPlatformInfo"));
    PB_VENDOR_FN(cl.get_device_ids, pb_vendor_sym(lib, "clGetDeviceIDs"));
    PB_VENDOR_FN(cl.get_device_info, pb_vendor_sym(lib, "clGetDeviceInfo"));
    if (!cl.get_platform_ids || !cl.get_platform_info || !cl.get_device_ids ||
        !cl.get_device_info) {
        pb_rt_skipped(run, "opencl", "libOpenCL.so.1 lacks the OpenCL 1.0 entry points");
        return 0;
    }
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    cl_int rc = cl.get_platform_ids(MAX_PLATFORMS, plats, &np);
    if (rc != CL_SUCCESS || np == 0) {
        snprintf(why, sizeof(why), "no OpenCL platform (clGetPlatformIDs: %d%s)", (int)rc,
                 rc == CL_PLATFORM_NOT_FOUND_KHR ? ", no ICD found" : "");
        pb_rt_skipped(run, "opencl", why);
        return 0;
    }
    np = (cl_uint)pb_rt_cap(run, "opencl", "platforms", np, MAX_PLATFORMS);
    int ordinal = 0;
    for (cl_uint pi = 0; pi < np; pi++) {
        char pname[256], pvendor[256], pversion[512];
        platform_str(&cl, plats[pi], CL_PLATFORM_NAME, pname, sizeof(pname));
        platform_str(&cl, plats[pi], CL_PLATFORM_VENDOR, pvendor, sizeof(pvendor));
        platform_str(&cl, plats[pi], CL_PLATFORM_VERSION, pversion, sizeof(pversion));
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (cl.get_device_ids(plats[pi], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) !=
            CL_SUCCESS)
            continue; /* CL_DEVICE_NOT_FOUND: a platform without devices */
        char what[64];
        snprintf(what, sizeof(what), "devices on platform %u", (unsigned)pi);
        nd = (cl_uint)pb_rt_cap(run, "opencl", what, nd, MAX_DEVICES);
        for (cl_uint di = 0; di < nd; di++)
            if (add_device(run, &cl, devs[di], ordinal++, pi, di, pname, pvendor, pversion,
                           err) != 0)
                return -1;
    }
    if (ordinal == 0)
        pb_rt_skipped(run, "opencl", "no OpenCL device");
    return 0;
}

const pb_rt_source pb_rt_opencl = {
    .name = "opencl",
    .option = "opencl",
    .bit = SYSDESC_RUNTIME_OPENCL,
    .priority = 20,
    .probe = probe_opencl,
    .measure = &md_opencl_ops,
};
