/* ze_double.c - TEST DOUBLE of the Level Zero loader (built as
 * libze_loader.so.1 in this folder): only the entry points
 * probe/level_zero.c calls, one driver, answering from the configuration
 * (double_config.h, README).  It refuses a properties struct whose stype is
 * not the one the specification gives.  It proves nothing about a real
 * Level Zero driver.  Built a second time without
 * zeDevicePciGetPropertiesExt (DOUBLE_WITHOUT_PCI_EXT). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "double_config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ze_result_t values the double returns (ze_api.h). */
#define OK 0
#define UNINITIALIZED 0x78000001
#define INVALID_ARGUMENT 0x78000004

/* The layouts of ze_api.h (as probe/level_zero.c declares them). */
typedef struct driver_properties {
    int stype;
    void *pnext;
    unsigned char uuid[16];
    uint32_t driver_version;
} driver_properties;
typedef struct device_properties {
    int stype;
    void *pnext;
    int type;
    uint32_t vendor_id, device_id, flags, subdevice_id, core_clock_rate;
    uint64_t max_mem_alloc_size;
    uint32_t max_hardware_contexts, max_command_queue_priority;
    uint32_t num_threads_per_eu, physical_eu_simd_width, num_eus_per_subslice,
        num_subslices_per_slice, num_slices;
    uint64_t timer_resolution;
    uint32_t timestamp_valid_bits, kernel_timestamp_valid_bits;
    unsigned char uuid[16];
    char name[256];
} device_properties;
typedef struct compute_properties {
    int stype;
    void *pnext;
    uint32_t max_total_group_size, max_group_size[3], max_group_count[3], max_shared_local_memory,
        num_sub_group_sizes, sub_group_sizes[8];
} compute_properties;
typedef struct memory_properties {
    int stype;
    void *pnext;
    uint32_t flags, max_clock_rate, max_bus_width;
    uint64_t total_size;
    char name[256];
} memory_properties;
typedef struct cache_properties {
    int stype;
    void *pnext;
    uint32_t flags;
    size_t cache_size;
} cache_properties;
typedef struct pci_properties {
    int stype;
    void *pnext;
    uint32_t domain, bus, device, function;
    int32_t gen_version, width;
    int64_t max_bandwidth;
} pci_properties;

/* A device handle: a root device (sub < 0) or one of its sub-devices. */
typedef struct handle {
    int dev, sub;
} handle;
#define MAXDEV 64
#define MAXSUB 8
static handle handles[MAXDEV][MAXSUB + 1];
static int the_driver; /* its address is the driver handle */
static int initialised;

/* ZE_AFFINITY_MASK as the loader applies it (README, "Visibility
 * variables"): the devices it names in the driver's order, whatever the
 * mask's order; a device named as D.S shows only those sub-devices.
 * masked: a mask applies; shown[] the devices, subs[d] the sub-devices of
 * device d it names (none: all). */
static int masked, shown[MAXDEV], nshown, subs[MAXDEV][MAXSUB], nsubs[MAXDEV], whole[MAXDEV];

static void apply_mask(void)
{
    const char *mask = getenv("ZE_AFFINITY_MASK");
    long long n = dbl_int(0, "ze.count");
    int real = n < 0 ? 0 : n > MAXDEV ? MAXDEV : (int)n;
    masked = mask && *mask;
    nshown = 0;
    memset(nsubs, 0, sizeof(nsubs));
    memset(whole, 0, sizeof(whole));
    if (!masked)
        return;
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", mask);
    int named[MAXDEV] = {0};
    char *save = NULL;
    for (char *e = strtok_r(buf, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        int d, sub;
        char extra;
        if (sscanf(e, " %d.%d %c", &d, &sub, &extra) == 2 && d >= 0 && d < real && sub >= 0 &&
            sub < MAXSUB) {
            named[d] = 1;
            int seen = 0;
            for (int j = 0; j < nsubs[d]; j++)
                seen = seen || subs[d][j] == sub;
            if (!seen)
                subs[d][nsubs[d]++] = sub;
        } else if (sscanf(e, " %d %c", &d, &extra) == 1 && d >= 0 && d < real) {
            named[d] = 1;
            whole[d] = 1;
        }
    }
    for (int d = 0; d < real; d++)
        if (named[d])
            shown[nshown++] = d;
    for (int d = 0; d < real; d++) /* sub-devices in their own order */
        for (int i = 1; i < nsubs[d]; i++)
            for (int j = i; j > 0 && subs[d][j - 1] > subs[d][j]; j--) {
                int t = subs[d][j - 1];
                subs[d][j - 1] = subs[d][j];
                subs[d][j] = t;
            }
}

static const char *prefix(const handle *h, char *buf, size_t size)
{
    if (h->sub < 0)
        snprintf(buf, size, "ze.%d", h->dev);
    else
        snprintf(buf, size, "ze.%d.sub.%d", h->dev, h->sub);
    return buf;
}

static long long get(const handle *h, const char *key, long long dflt)
{
    char p[64];
    return dbl_int(dflt, "%s.%s", prefix(h, p, sizeof(p)), key);
}

DBL_API int zeInit(uint32_t flags)
{
    (void)flags;
    if (dbl_load() != 0)
        return UNINITIALIZED;
    int r = (int)dbl_int(0, "ze.init");
    initialised = r == OK;
    for (int i = 0; i < MAXDEV; i++)
        for (int j = 0; j <= MAXSUB; j++)
            handles[i][j] = (handle){i, j - 1};
    apply_mask();
    return r;
}

DBL_API int zeDriverGet(uint32_t *count, void **drivers)
{
    if (!initialised)
        return UNINITIALIZED;
    if (!drivers) {
        *count = 1;
        return OK;
    }
    if (*count >= 1)
        drivers[0] = &the_driver;
    *count = 1;
    return OK;
}

DBL_API int zeDriverGetProperties(void *driver, driver_properties *p)
{
    if (driver != &the_driver || p->stype != 0x1)
        return INVALID_ARGUMENT;
    memset(p->uuid, 0, sizeof(p->uuid));
    p->driver_version = (uint32_t)dbl_int(0, "ze.driver_version");
    return OK;
}

DBL_API int zeDriverGetApiVersion(void *driver, uint32_t *version)
{
    if (driver != &the_driver)
        return INVALID_ARGUMENT;
    *version = (uint32_t)dbl_int(0x10000, "ze.api_version");
    return OK;
}

/* The count a "driver" claims, which may be bogus (larger than the array). */
static int list(uint32_t claimed, uint32_t real, uint32_t *count, handle **out, handle *first)
{
    if (!out) {
        *count = claimed;
        return OK;
    }
    uint32_t n = *count < real ? *count : real;
    for (uint32_t i = 0; i < n; i++)
        out[i] = first + i;
    *count = claimed;
    return OK;
}

DBL_API int zeDeviceGet(void *driver, uint32_t *count, handle **devices)
{
    if (!initialised || driver != &the_driver)
        return INVALID_ARGUMENT;
    long long n = dbl_int(0, "ze.count");
    uint32_t real = n < 0 ? 0 : n > MAXDEV ? MAXDEV : (uint32_t)n;
    if (masked) {
        if (devices)
            for (int i = 0; i < nshown && (uint32_t)i < *count; i++)
                devices[i] = &handles[shown[i]][0];
        *count = (uint32_t)nshown;
        return OK;
    }
    /* Root devices are handles[i][0], one row apart: hand them out one by one. */
    if (!devices) {
        *count = (uint32_t)n;
        return OK;
    }
    uint32_t m = *count < real ? *count : real;
    for (uint32_t i = 0; i < m; i++)
        devices[i] = &handles[i][0];
    *count = (uint32_t)n;
    return OK;
}

DBL_API int zeDeviceGetSubDevices(handle *h, uint32_t *count, handle **out)
{
    if (!initialised || !h || h->sub >= 0)
        return INVALID_ARGUMENT;
    long long n = get(h, "subdevices", 0);
    uint32_t real = n < 0 ? 0 : n > MAXSUB ? MAXSUB : (uint32_t)n;
    if (masked && !whole[h->dev] && nsubs[h->dev]) { /* only the sub-devices named */
        uint32_t k = 0;
        for (int j = 0; j < nsubs[h->dev]; j++)
            if ((uint32_t)subs[h->dev][j] < real) {
                if (out && k < *count)
                    out[k] = &handles[h->dev][1 + subs[h->dev][j]];
                k++;
            }
        *count = out && k > *count ? *count : k;
        return OK;
    }
    return list((uint32_t)n, real, count, out, &handles[h->dev][1]);
}

static void uuid_of(const handle *h, unsigned char out[16])
{
    char p[64];
    const char *s = dbl_str("%s.uuid", prefix(h, p, sizeof(p)));
    memset(out, 0, 16);
    for (int i = 0; s && strlen(s) == 32 && i < 16; i++) {
        unsigned b = 0;
        sscanf(s + 2 * i, "%2x", &b);
        out[i] = (unsigned char)b;
    }
}

DBL_API int zeDeviceGetProperties(handle *h, device_properties *p)
{
    if (!initialised || !h || p->stype != 0x3)
        return INVALID_ARGUMENT;
    char pre[64], key[96];
    p->type = (int)get(h, "type", 1);
    p->vendor_id = (uint32_t)get(h, "vendor_id", 0x8086);
    p->device_id = (uint32_t)get(h, "device_id", 0);
    p->flags = (uint32_t)get(h, "flags", h->sub >= 0 ? 2 : 0);
    p->subdevice_id = (uint32_t)get(h, "subdevice_id", h->sub >= 0 ? h->sub : 0);
    p->core_clock_rate = (uint32_t)get(h, "core_clock", 0);
    p->max_mem_alloc_size = (uint64_t)get(h, "max_mem_alloc", 0);
    p->num_threads_per_eu = (uint32_t)get(h, "threads_per_eu", 0);
    p->physical_eu_simd_width = (uint32_t)get(h, "simd_width", 0);
    p->num_eus_per_subslice = (uint32_t)get(h, "eus_per_subslice", 0);
    p->num_subslices_per_slice = (uint32_t)get(h, "subslices_per_slice", 0);
    p->num_slices = (uint32_t)get(h, "slices", 0);
    uuid_of(h, p->uuid);
    snprintf(key, sizeof(key), "%s.name", prefix(h, pre, sizeof(pre)));
    memset(p->name, 0, sizeof(p->name));
    dbl_copy_name(p->name, sizeof(p->name), key);
    return OK;
}

DBL_API int zeDeviceGetComputeProperties(handle *h, compute_properties *c)
{
    if (!initialised || !h || c->stype != 0x4)
        return INVALID_ARGUMENT;
    c->max_total_group_size = (uint32_t)get(h, "max_total_group_size", 0);
    static const char *const sizes[] = {"group_size_x", "group_size_y", "group_size_z"};
    static const char *const counts[] = {"group_count_x", "group_count_y", "group_count_z"};
    for (int i = 0; i < 3; i++) {
        c->max_group_size[i] = (uint32_t)get(h, sizes[i], 0);
        c->max_group_count[i] = (uint32_t)get(h, counts[i], 0);
    }
    c->max_shared_local_memory = (uint32_t)get(h, "slm", 0);
    c->num_sub_group_sizes = 0;
    char pre[64];
    const char *s = dbl_str("%s.subgroup_sizes", prefix(h, pre, sizeof(pre)));
    while (s && *s && c->num_sub_group_sizes < 8) {
        char *end;
        unsigned long v = strtoul(s, &end, 0);
        if (end == s)
            break;
        c->sub_group_sizes[c->num_sub_group_sizes++] = (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    /* A bogus count (beyond the 8 the array holds) when asked. */
    c->num_sub_group_sizes = (uint32_t)get(h, "num_subgroup_sizes", c->num_sub_group_sizes);
    return OK;
}

DBL_API int zeDeviceGetMemoryProperties(handle *h, uint32_t *count, memory_properties *m)
{
    if (!initialised || !h)
        return INVALID_ARGUMENT;
    uint32_t n = (uint32_t)get(h, "memory.count", 0);
    if (!m) {
        *count = n;
        return OK;
    }
    char pre[64];
    prefix(h, pre, sizeof(pre));
    for (uint32_t i = 0; i < *count && i < n; i++) {
        if (m[i].stype != 0x7)
            return INVALID_ARGUMENT;
        m[i].total_size = (uint64_t)dbl_int(0, "%s.memory.%u.size", pre, i);
        m[i].max_clock_rate = (uint32_t)dbl_int(0, "%s.memory.%u.clock", pre, i);
        m[i].max_bus_width = (uint32_t)dbl_int(0, "%s.memory.%u.bus_width", pre, i);
    }
    if (*count > n)
        *count = n;
    return OK;
}

DBL_API int zeDeviceGetCacheProperties(handle *h, uint32_t *count, cache_properties *c)
{
    if (!initialised || !h)
        return INVALID_ARGUMENT;
    uint32_t n = (uint32_t)get(h, "cache.count", 0);
    if (!c) {
        *count = n;
        return OK;
    }
    char pre[64];
    prefix(h, pre, sizeof(pre));
    for (uint32_t i = 0; i < *count && i < n; i++) {
        if (c[i].stype != 0x9)
            return INVALID_ARGUMENT;
        c[i].cache_size = (size_t)dbl_int(0, "%s.cache.%u.size", pre, i);
    }
    if (*count > n)
        *count = n;
    return OK;
}

#ifndef DOUBLE_WITHOUT_PCI_EXT
DBL_API int zeDevicePciGetPropertiesExt(handle *h, pci_properties *p)
{
    char pre[64];
    if (!initialised || !h || p->stype != 0x10008)
        return INVALID_ARGUMENT;
    const char *s = dbl_str("%s.pci", prefix(h, pre, sizeof(pre)));
    if (!s || sscanf(s, "%x:%x:%x.%x", &p->domain, &p->bus, &p->device, &p->function) != 4)
        return INVALID_ARGUMENT;
    p->gen_version = (int32_t)get(h, "pcie_gen", -1);
    p->width = (int32_t)get(h, "pcie_width", -1);
    p->max_bandwidth = get(h, "pcie_bandwidth", -1);
    return OK;
}
#endif
