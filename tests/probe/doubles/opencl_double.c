/* opencl_double.c - TEST DOUBLE of the OpenCL ICD loader (built as
 * libOpenCL.so.1 in this folder): only the four entry points
 * probe/runtimes/opencl.c calls (clGetPlatformIDs, clGetPlatformInfo,
 * clGetDeviceIDs, clGetDeviceInfo), answering platforms and devices from
 * the configuration (double_config.h, README "OpenCL").  The parameter
 * numbers and error codes are the Khronos OpenCL API specification's and
 * its extension registry's, as probe/runtimes/cl_api.h reads them: the
 * double proves nothing about a real ICD loader or driver.
 *
 * A process that puts this folder in LD_LIBRARY_PATH sees this loader, not
 * the host's: without `opencl.platforms` it lists no platform, as a loader
 * with no ICD does (tests/probe/fake/ has the older, hostile OpenCL
 * stand-in runtimes.py uses). */
#include "double_config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;

/* cl_int error codes (cl.h, cl_ext.h). */
#define CL_SUCCESS 0
#define CL_DEVICE_NOT_FOUND (-1)
#define CL_INVALID_VALUE (-30)
#define CL_INVALID_PLATFORM (-32)
#define CL_INVALID_DEVICE (-33)
#define CL_PLATFORM_NOT_FOUND_KHR (-1001)

#define CL_DEVICE_TYPE_GPU (1u << 2)

#define MAX_PLATFORMS 64
#define MAX_DEVICES 256
#define MAX_LIST 64

/* Handles: a platform is p + 1, a device (p + 1) << 16 | (d + 1), never NULL. */
static void *platform_handle(long long p)
{
    return (void *)(uintptr_t)(p + 1);
}

static void *device_handle(long long p, long long d)
{
    return (void *)(uintptr_t)((uint64_t)(p + 1) << 16 | (uint64_t)(d + 1));
}

static long long nplatforms(void)
{
    long long n = dbl_int(0, "opencl.platforms");
    return n < 0 ? 0 : n > MAX_PLATFORMS ? MAX_PLATFORMS : n;
}

static long long ndevices(long long p)
{
    long long n = dbl_int(0, "opencl.%lld.devices", p);
    return n < 0 ? 0 : n > MAX_DEVICES ? MAX_DEVICES : n;
}

static int platform_of(const void *h, long long *p)
{
    uintptr_t v = (uintptr_t)h;
    if (v == 0 || v > (uintptr_t)nplatforms())
        return -1;
    *p = (long long)v - 1;
    return 0;
}

static int device_of(const void *h, long long *p, long long *d)
{
    uintptr_t v = (uintptr_t)h;
    long long pp = (long long)(v >> 16) - 1, dd = (long long)(v & 0xffff) - 1;
    if (pp < 0 || pp >= nplatforms() || dd < 0 || dd >= ndevices(pp))
        return -1;
    *p = pp;
    *d = dd;
    return 0;
}

/* The OpenCL query contract: size_ret gets the size of the answer; value,
 * when not NULL, must hold it (else CL_INVALID_VALUE). */
static cl_int answer(const void *v, size_t len, size_t size, void *value, size_t *size_ret)
{
    if (value && size < len)
        return CL_INVALID_VALUE;
    if (value)
        memcpy(value, v, len);
    if (size_ret)
        *size_ret = len;
    return CL_SUCCESS;
}

/* A string key, NUL included; `<key>_unterminated = 1` fills the caller's
 * whole buffer with 'X' and no NUL (a bogus driver). */
static cl_int text(const char *key, size_t size, void *value, size_t *size_ret)
{
    const char *s = dbl_str("%s", key);
    if (!s)
        return CL_INVALID_VALUE;
    if (dbl_int(0, "%s_unterminated", key) == 1 && value && size) {
        memset(value, 'X', size);
        if (size_ret)
            *size_ret = size;
        return CL_SUCCESS;
    }
    return answer(s, strlen(s) + 1, size, value, size_ret);
}

static cl_int number(const char *key, size_t width, size_t size, void *value, size_t *size_ret)
{
    const char *s = dbl_str("%s", key);
    if (!s)
        return CL_INVALID_VALUE;
    uint64_t v = strtoull(s, NULL, 0);
    if (width == 4) {
        uint32_t w = (uint32_t)v;
        return answer(&w, 4, size, value, size_ret);
    }
    return answer(&v, 8, size, value, size_ret);
}

/* "1024,1024,64" into out[max]; the count. */
static size_t list(const char *s, uint64_t *out, size_t max)
{
    size_t n = 0;
    while (s && *s && n < max) {
        char *end;
        uint64_t v = strtoull(s, &end, 0);
        if (end == s)
            break;
        out[n++] = v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static cl_int size_list(const char *key, size_t size, void *value, size_t *size_ret)
{
    uint64_t v[MAX_LIST];
    size_t out[MAX_LIST];
    const char *s = dbl_str("%s", key);
    if (!s)
        return CL_INVALID_VALUE;
    size_t n = list(s, v, MAX_LIST);
    for (size_t i = 0; i < n; i++)
        out[i] = (size_t)v[i];
    return answer(out, n * sizeof(size_t), size, value, size_ret);
}

DBL_API cl_int clGetPlatformIDs(cl_uint num_entries, void **platforms, cl_uint *num_platforms)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    if (num_platforms)
        *num_platforms = 0;
    /* The configuration is re-read here, the loader's first call. */
    if (dbl_load() != 0)
        return CL_PLATFORM_NOT_FOUND_KHR;
    cl_int r = (cl_int)dbl_int(0, "opencl.init");
    if (r != CL_SUCCESS)
        return r;
    long long n = nplatforms();
    if (n == 0)
        return CL_PLATFORM_NOT_FOUND_KHR; /* the Khronos loader with no ICD */
    for (long long p = 0; platforms && p < n && p < (long long)num_entries; p++)
        platforms[p] = platform_handle(p);
    if (num_platforms)
        *num_platforms = (cl_uint)n;
    return CL_SUCCESS;
}

DBL_API cl_int clGetPlatformInfo(void *platform, cl_uint param, size_t size, void *value,
                                 size_t *size_ret)
{
    long long p;
    if (platform_of(platform, &p) != 0)
        return CL_INVALID_PLATFORM;
    const char *what = param == 0x0900   ? "profile"
                       : param == 0x0901 ? "version"
                       : param == 0x0902 ? "name"
                       : param == 0x0903 ? "vendor"
                       : param == 0x0904 ? "extensions"
                                         : NULL;
    if (!what)
        return CL_INVALID_VALUE;
    char key[64];
    snprintf(key, sizeof(key), "opencl.%lld.%s", p, what);
    return text(key, size, value, size_ret);
}

static uint64_t device_type(long long p, long long d)
{
    return (uint64_t)dbl_int(CL_DEVICE_TYPE_GPU, "opencl.%lld.%lld.type", p, d);
}

DBL_API cl_int clGetDeviceIDs(void *platform, uint64_t type, cl_uint num_entries, void **devices,
                              cl_uint *num_devices)
{
    long long p;
    if (platform_of(platform, &p) != 0)
        return CL_INVALID_PLATFORM;
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
        return CL_INVALID_VALUE;
    cl_uint k = 0;
    for (long long d = 0; d < ndevices(p); d++)
        if (device_type(p, d) & type) {
            if (devices && k < num_entries)
                devices[k] = device_handle(p, d);
            k++;
        }
    if (num_devices)
        *num_devices = k;
    return k ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

/* The parameters the double knows by name: CL_DEVICE_*, the key under
 * opencl.<p>.<d>. and its kind ('s' string, 'u' cl_uint, 'l' cl_ulong or
 * size_t on LP64, 'z' a list of size_t). */
static const struct {
    cl_uint param;
    const char *key;
    char kind;
} params[] = {
    {0x1001, "vendor_id", 'u'},        {0x1002, "compute_units", 'u'},
    {0x1004, "work_group_size", 'l'},  {0x1005, "work_item_sizes", 'z'},
    {0x100C, "clock_mhz", 'u'},        {0x1010, "max_alloc", 'l'},
    {0x101F, "global_mem", 'l'},       {0x1022, "local_mem_type", 'u'},
    {0x1023, "local_mem", 'l'},        {0x102B, "name", 's'},
    {0x102C, "vendor", 's'},           {0x102D, "driver_version", 's'},
    {0x102F, "version", 's'},          {0x1030, "extensions", 's'},
    {0x103D, "opencl_c_version", 's'}, {0x4003, "warp_size_nv", 'u'},
    {0x4043, "wavefront_width_amd", 'u'}, {0x4108, "subgroup_sizes_intel", 'z'},
};

DBL_API cl_int clGetDeviceInfo(void *device, cl_uint param, size_t size, void *value,
                               size_t *size_ret)
{
    long long p, d;
    if (device_of(device, &p, &d) != 0)
        return CL_INVALID_DEVICE;
    char key[96];
    if (param == 0x1000) { /* CL_DEVICE_TYPE: a cl_bitfield */
        uint64_t t = device_type(p, d);
        return answer(&t, 8, size, value, size_ret);
    }
    if (param == 0x1003) { /* CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: the sizes' count */
        uint64_t v[MAX_LIST];
        cl_uint n = (cl_uint)list(dbl_str("opencl.%lld.%lld.work_item_sizes", p, d), v, MAX_LIST);
        return n ? answer(&n, 4, size, value, size_ret) : CL_INVALID_VALUE;
    }
    if (param == 0x410F) { /* CL_DEVICE_PCI_BUS_INFO_KHR: domain, bus, device, function */
        unsigned dom, bus, dev, fn;
        const char *s = dbl_str("opencl.%lld.%lld.pci_bus_info", p, d);
        if (!s || sscanf(s, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
            return CL_INVALID_VALUE;
        cl_uint v[4] = {dom, bus, dev, fn};
        return answer(v, sizeof(v), size, value, size_ret);
    }
    if (param == 0x106A) { /* CL_DEVICE_UUID_KHR: 16 bytes from 32 hex digits */
        const char *s = dbl_str("opencl.%lld.%lld.uuid", p, d);
        unsigned char u[16];
        for (int i = 0; i < 16; i++) {
            unsigned b;
            if (!s || sscanf(s + 2 * i, "%2x", &b) != 1)
                return CL_INVALID_VALUE;
            u[i] = (unsigned char)b;
        }
        return answer(u, 16, size, value, size_ret);
    }
    for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
        if (params[i].param != param)
            continue;
        snprintf(key, sizeof(key), "opencl.%lld.%lld.%s", p, d, params[i].key);
        switch (params[i].kind) {
        case 's': return text(key, size, value, size_ret);
        case 'u': return number(key, 4, size, value, size_ret);
        case 'l': return number(key, 8, size, value, size_ret);
        default: return size_list(key, size, value, size_ret);
        }
    }
    /* Any other parameter by number: opencl.<p>.<d>.uint.0x<n> (cl_uint,
     * cl_bool) or .ulong.0x<n> (cl_ulong, cl_bitfield, size_t). */
    snprintf(key, sizeof(key), "opencl.%lld.%lld.uint.0x%x", p, d, (unsigned)param);
    if (dbl_str("%s", key))
        return number(key, 4, size, value, size_ret);
    snprintf(key, sizeof(key), "opencl.%lld.%lld.ulong.0x%x", p, d, (unsigned)param);
    if (dbl_str("%s", key))
        return number(key, 8, size, value, size_ret);
    return CL_INVALID_VALUE;
}
