/* nvml_double.c - TEST DOUBLE of NVML (built as libnvidia-ml.so.1 in this
 * folder): only the entry points probe/nvml.c calls, answering from the
 * configuration (double_config.h, README).  It proves nothing about a real
 * NVIDIA driver.  Built a second time without nvmlDeviceGetMigMode
 * (DOUBLE_WITHOUT_MIG_MODE): an optional entry point missing. */
#include "double_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nvmlReturn_t values the double returns (NVML API reference). */
enum {
    OK = 0,
    UNINITIALIZED = 1,
    INVALID_ARGUMENT = 2,
    NOT_SUPPORTED = 3,
    NOT_FOUND = 6,
    INSUFFICIENT_SIZE = 7,
};

#define MAXDEV 64
#define MAXMIG 64

/* A handle points at one of these: a GPU (mig < 0) or one of its MIG instances. */
typedef struct handle {
    int dev, mig;
} handle;
static handle handles[MAXDEV][MAXMIG + 1];
static int initialised;

/* The configuration prefix of a handle: "nvml.0" or "nvml.0.mig.2". */
static const char *prefix(const handle *h, char *buf, size_t size)
{
    if (h->mig < 0)
        snprintf(buf, size, "nvml.%d", h->dev);
    else
        snprintf(buf, size, "nvml.%d.mig.%d", h->dev, h->mig);
    return buf;
}

static int value(const handle *h, const char *key, unsigned long long *v)
{
    char p[64];
    if (!initialised)
        return UNINITIALIZED;
    if (!h || !v)
        return INVALID_ARGUMENT;
    const char *s = dbl_str("%s.%s", prefix(h, p, sizeof(p)), key);
    if (!s)
        return NOT_SUPPORTED;
    *v = (unsigned long long)dbl_int(0, "%s.%s", p, key);
    return OK;
}

static int uvalue(const handle *h, const char *key, unsigned *v)
{
    unsigned long long x = 0;
    int r = value(h, key, &x);
    if (r == OK)
        *v = (unsigned)x;
    return r;
}

DBL_API int nvmlInit_v2(void)
{
    if (dbl_load() != 0)
        return UNINITIALIZED;
    int r = (int)dbl_int(0, "nvml.init");
    initialised = r == OK;
    for (int i = 0; i < MAXDEV; i++)
        for (int j = 0; j <= MAXMIG; j++)
            handles[i][j] = (handle){i, j - 1};
    return r;
}

DBL_API int nvmlShutdown(void)
{
    if (!initialised)
        return UNINITIALIZED;
    initialised = 0;
    return OK;
}

DBL_API const char *nvmlErrorString(int r)
{
    switch (r) {
    case OK: return "Success";
    case UNINITIALIZED: return "Uninitialized";
    case NOT_SUPPORTED: return "Not Supported";
    case NOT_FOUND: return "Not Found";
    case 9: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}

DBL_API int nvmlSystemGetDriverVersion(char *buf, unsigned length)
{
    const char *s = dbl_str("nvml.driver_version");
    if (!initialised)
        return UNINITIALIZED;
    if (!s)
        return NOT_SUPPORTED;
    snprintf(buf, length, "%s", s);
    return OK;
}

DBL_API int nvmlSystemGetCudaDriverVersion(int *v)
{
    if (!initialised)
        return UNINITIALIZED;
    *v = (int)dbl_int(0, "nvml.cuda_driver_version");
    return OK;
}

DBL_API int nvmlDeviceGetCount_v2(unsigned *n)
{
    if (!initialised)
        return UNINITIALIZED;
    *n = (unsigned)dbl_int(0, "nvml.count");
    return OK;
}

DBL_API int nvmlDeviceGetHandleByIndex_v2(unsigned i, handle **h)
{
    if (!initialised)
        return UNINITIALIZED;
    if (i >= MAXDEV || i >= (unsigned)dbl_int(0, "nvml.count"))
        return INVALID_ARGUMENT;
    *h = &handles[i][0];
    return OK;
}

DBL_API int nvmlDeviceGetName(handle *h, char *buf, unsigned length)
{
    char p[64], key[96];
    if (!initialised)
        return UNINITIALIZED;
    snprintf(key, sizeof(key), "%s.name", prefix(h, p, sizeof(p)));
    return dbl_copy_name(buf, length, key) == 0 ? OK : NOT_SUPPORTED;
}

DBL_API int nvmlDeviceGetUUID(handle *h, char *buf, unsigned length)
{
    char p[64];
    if (!initialised)
        return UNINITIALIZED;
    const char *s = dbl_str("%s.uuid", prefix(h, p, sizeof(p)));
    if (!s)
        return NOT_SUPPORTED;
    snprintf(buf, length, "%s", s);
    return OK;
}

/* nvmlPciInfo_t (NVML API reference). */
typedef struct pci_info {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} pci_info;

DBL_API int nvmlDeviceGetPciInfo_v3(handle *h, pci_info *pci)
{
    char p[64];
    if (!initialised)
        return UNINITIALIZED;
    const char *s = dbl_str("%s.pci_bus_id", prefix(h, p, sizeof(p)));
    if (!s)
        return NOT_SUPPORTED;
    memset(pci, 0, sizeof(*pci));
    snprintf(pci->bus_id, sizeof(pci->bus_id), "%s", s);
    return OK;
}

typedef struct memory {
    unsigned long long total, free, used;
} memory;

DBL_API int nvmlDeviceGetMemoryInfo(handle *h, memory *m)
{
    unsigned long long total;
    int r = value(h, "memory_total", &total);
    if (r == OK) {
        m->total = total;
        m->free = total;
        m->used = 0;
    }
    return r;
}

DBL_API int nvmlDeviceGetMaxClockInfo(handle *h, int type, unsigned *mhz)
{
    static const char *const names[] = {"clock.graphics", "clock.sm", "clock.mem"};
    if (type < 0 || type > 2)
        return INVALID_ARGUMENT;
    return uvalue(h, names[type], mhz);
}

DBL_API int nvmlDeviceGetEccMode(handle *h, int *current, int *pending)
{
    unsigned c = 0, p = 0;
    int r = uvalue(h, "ecc", &c);
    if (r == OK) {
        if (uvalue(h, "ecc_pending", &p) != OK)
            p = c;
        *current = (int)c;
        *pending = (int)p;
    }
    return r;
}

DBL_API int nvmlDeviceGetEnforcedPowerLimit(handle *h, unsigned *mw)
{
    return uvalue(h, "power_limit_mw", mw);
}

/* NVML's "power management limit constraints": the range of the limit an
 * administrator may set, mW. */
DBL_API int nvmlDeviceGetPowerManagementLimitConstraints(handle *h, unsigned *min_mw,
                                                         unsigned *max_mw)
{
    unsigned lo = 0, hi = 0;
    int r = uvalue(h, "power_min_mw", &lo);
    if (r == OK)
        r = uvalue(h, "power_max_mw", &hi);
    if (r == OK) {
        *min_mw = lo;
        *max_mw = hi;
    }
    return r;
}

/* A comma-separated list of clocks (MHz) at `key` into clocks[*count], as
 * NVML answers a supported-clocks query: INSUFFICIENT_SIZE with the count
 * needed when the caller's array is too small. */
static int clock_list(const handle *h, const char *key, unsigned *count, unsigned *clocks)
{
    char p[64];
    if (!initialised)
        return UNINITIALIZED;
    if (!h || !count)
        return INVALID_ARGUMENT;
    const char *s = dbl_str("%s.%s", prefix(h, p, sizeof(p)), key);
    if (!s)
        return NOT_SUPPORTED;
    unsigned n = 0, room = *count;
    for (const char *q = s; *q;) {
        char *end;
        unsigned long v = strtoul(q, &end, 0);
        if (end == q)
            break;
        if (n < room && clocks)
            clocks[n] = (unsigned)v;
        n++;
        q = *end == ',' ? end + 1 : end;
    }
    *count = n;
    return n > room ? INSUFFICIENT_SIZE : OK;
}

DBL_API int nvmlDeviceGetSupportedMemoryClocks(handle *h, unsigned *count, unsigned *clocks)
{
    return clock_list(h, "supported_mem_clocks", count, clocks);
}

/* The graphics clocks at one memory clock: the double has one list, for
 * the highest memory clock; another memory clock has none. */
DBL_API int nvmlDeviceGetSupportedGraphicsClocks(handle *h, unsigned mem_mhz, unsigned *count,
                                                 unsigned *clocks)
{
    unsigned mems[64], n = 64;
    int r = clock_list(h, "supported_mem_clocks", &n, mems);
    if (r != OK)
        return r;
    unsigned top = 0;
    for (unsigned i = 0; i < n && i < 64; i++)
        top = mems[i] > top ? mems[i] : top;
    if (mem_mhz != top)
        return INVALID_ARGUMENT;
    return clock_list(h, "supported_graphics_clocks", count, clocks);
}

DBL_API int nvmlDeviceGetMaxPcieLinkGeneration(handle *h, unsigned *v)
{
    return uvalue(h, "pcie_gen", v);
}

DBL_API int nvmlDeviceGetMaxPcieLinkWidth(handle *h, unsigned *v)
{
    return uvalue(h, "pcie_width", v);
}

#ifndef DOUBLE_WITHOUT_MIG_MODE
DBL_API int nvmlDeviceGetMigMode(handle *h, unsigned *current, unsigned *pending)
{
    unsigned c = 0, p = 0;
    int r = uvalue(h, "mig", &c);
    if (r == OK) {
        if (uvalue(h, "mig_pending", &p) != OK)
            p = c;
        *current = c;
        *pending = p;
    }
    return r;
}
#endif

DBL_API int nvmlDeviceGetMaxMigDeviceCount(handle *h, unsigned *n)
{
    return uvalue(h, "mig_max", n);
}

DBL_API int nvmlDeviceGetMigDeviceHandleByIndex(handle *h, unsigned i, handle **mig)
{
    if (!initialised)
        return UNINITIALIZED;
    if (!h || h->mig >= 0 || i >= MAXMIG)
        return INVALID_ARGUMENT;
    if (!dbl_str("nvml.%d.mig.%u.uuid", h->dev, i))
        return NOT_FOUND;
    *mig = &handles[h->dev][i + 1];
    return OK;
}

DBL_API int nvmlDeviceGetGpuInstanceId(handle *h, unsigned *id)
{
    return h && h->mig >= 0 ? uvalue(h, "gi", id) : INVALID_ARGUMENT;
}

DBL_API int nvmlDeviceGetComputeInstanceId(handle *h, unsigned *id)
{
    return h && h->mig >= 0 ? uvalue(h, "ci", id) : INVALID_ARGUMENT;
}

/* nvmlDeviceAttributes_t (NVML API reference). */
typedef struct attributes {
    unsigned sm, ce, dec, enc, jpeg, ofa, gi_slices, ci_slices;
    unsigned long long memory_mb;
} attributes;

DBL_API int nvmlDeviceGetAttributes_v2(handle *h, attributes *a)
{
    if (!initialised)
        return UNINITIALIZED;
    if (!h || h->mig < 0)
        return NOT_SUPPORTED; /* as NVML: MIG device handles only */
    memset(a, 0, sizeof(*a));
    uvalue(h, "sm", &a->sm);
    uvalue(h, "gi_slices", &a->gi_slices);
    uvalue(h, "ci_slices", &a->ci_slices);
    value(h, "memory_mb", &a->memory_mb);
    return OK;
}
