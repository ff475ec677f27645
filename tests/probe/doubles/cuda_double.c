/* cuda_double.c - TEST DOUBLE of the CUDA driver API (built as libcuda.so.1
 * in this folder): only the entry points probe/cuda.c calls, answering from
 * the configuration (double_config.h, README).  It proves nothing about a
 * real CUDA driver.  Built a second time without cuDeviceGetAttribute
 * (DOUBLE_WITHOUT_GET_ATTRIBUTE) for the "missing symbol" case. */
#include "double_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values of CUresult the double returns (CUDA Driver API reference). */
enum { SUCCESS = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, NO_DEVICE = 100, INVALID_DEVICE = 101 };

static int initialised;

/* The devices this process sees, as the real driver applies
 * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER (README, "Visibility
 * variables"): visible[ordinal] is the configuration's index.  A device
 * handle is that index, so that every key stays "cuda.<index>". */
#define MAXDEV 64
static int visible[MAXDEV], nvisible;

/* What cuDeviceGetCount says: without CUDA_VISIBLE_DEVICES the configured
 * count as it is, bogus values included (negative, huge). */
static int count(void)
{
    return getenv("CUDA_VISIBLE_DEVICES") ? nvisible : (int)dbl_int(0, "cuda.count");
}

static int check(int dev)
{
    if (!initialised)
        return NOT_INITIALIZED;
    for (int i = 0; i < nvisible; i++)
        if (visible[i] == dev)
            return SUCCESS;
    return INVALID_DEVICE;
}

/* "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6" from the configuration's 32 hex digits. */
static void printed_uuid(int i, char *out, size_t size)
{
    const char *s = dbl_str("cuda.%d.uuid", i);
    out[0] = '\0';
    if (s && strlen(s) == 32)
        snprintf(out, size, "GPU-%.8s-%.4s-%.4s-%.4s-%.12s", s, s + 8, s + 12, s + 16, s + 20);
}

static void find_visible(void)
{
    long long n = dbl_int(0, "cuda.count");
    int all = n < 0 ? 0 : n > MAXDEV ? MAXDEV : (int)n;
    /* The enumeration: the configuration's order ("fastest first"), or by
     * PCI bus id with CUDA_DEVICE_ORDER=PCI_BUS_ID. */
    int order[MAXDEV];
    for (int i = 0; i < all; i++)
        order[i] = i;
    const char *by = getenv("CUDA_DEVICE_ORDER");
    for (int i = 1; by && strcmp(by, "PCI_BUS_ID") == 0 && i < all; i++)
        for (int j = i; j > 0; j--) {
            const char *a = dbl_str("cuda.%d.pci_bus_id", order[j - 1]);
            const char *b = dbl_str("cuda.%d.pci_bus_id", order[j]);
            if (!a || !b || strcmp(a, b) <= 0)
                break;
            int t = order[j - 1];
            order[j - 1] = order[j];
            order[j] = t;
        }
    const char *list = getenv("CUDA_VISIBLE_DEVICES");
    if (!list) {
        memcpy(visible, order, (size_t)all * sizeof(*visible));
        nvisible = all;
        return;
    }
    static char uuids[MAXDEV][48];
    const char *u[MAXDEV];
    for (int i = 0; i < all; i++) {
        printed_uuid(order[i], uuids[i], sizeof(uuids[i]));
        u[i] = uuids[i][0] ? uuids[i] : NULL;
    }
    int picked[MAXDEV];
    nvisible = dbl_visible_list(list, all, u, 0, picked, MAXDEV);
    for (int i = 0; i < nvisible; i++)
        visible[i] = order[picked[i]];
}

DBL_API int cuInit(unsigned flags)
{
    if (flags != 0 || dbl_load() != 0)
        return INVALID_VALUE;
    /* Every call is logged when asked: the probe must call cuInit once. */
    const char *log = dbl_str("cuda.init_log");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fputs("cuInit\n", f);
        fclose(f);
    }
    int r = (int)dbl_int(0, "cuda.init");
    find_visible();
    /* the real driver: no visible device is CUDA_ERROR_NO_DEVICE */
    if (r == SUCCESS && nvisible == 0 && dbl_int(0, "cuda.count") > 0)
        r = NO_DEVICE;
    initialised = r == SUCCESS;
    return r;
}

DBL_API int cuDriverGetVersion(int *v)
{
    if (!v)
        return INVALID_VALUE;
    *v = (int)dbl_int(0, "cuda.driver_version");
    return SUCCESS;
}

DBL_API int cuDeviceGetCount(int *n)
{
    if (!initialised)
        return NOT_INITIALIZED;
    *n = count();
    return SUCCESS;
}

DBL_API int cuDeviceGet(int *dev, int ordinal)
{
    if (!initialised)
        return NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= nvisible)
        return INVALID_DEVICE;
    *dev = visible[ordinal];
    return SUCCESS;
}

DBL_API int cuDeviceGetName(char *name, int len, int dev)
{
    int r = check(dev);
    if (r != SUCCESS)
        return r;
    char key[64];
    snprintf(key, sizeof(key), "cuda.%d.name", dev);
    return len > 0 && dbl_copy_name(name, (unsigned long)len, key) == 0 ? SUCCESS : INVALID_VALUE;
}

#ifndef DOUBLE_WITHOUT_GET_ATTRIBUTE
DBL_API int cuDeviceGetAttribute(int *v, int attrib, int dev)
{
    int r = check(dev);
    if (r != SUCCESS)
        return r;
    const char *s = dbl_str("cuda.%d.attr.%d", dev, attrib);
    if (!s)
        return INVALID_VALUE; /* an attribute this "driver" does not know */
    *v = (int)strtol(s, NULL, 0);
    return SUCCESS;
}
#endif

DBL_API int cuDeviceTotalMem_v2(size_t *bytes, int dev)
{
    int r = check(dev);
    if (r != SUCCESS)
        return r;
    *bytes = (size_t)dbl_int(0, "cuda.%d.total_mem", dev);
    return SUCCESS;
}

DBL_API int cuDeviceGetUuid_v2(unsigned char uuid[16], int dev)
{
    int r = check(dev);
    if (r != SUCCESS)
        return r;
    const char *s = dbl_str("cuda.%d.uuid", dev);
    if (!s || strlen(s) != 32)
        return INVALID_VALUE;
    for (int i = 0; i < 16; i++) {
        unsigned b;
        if (sscanf(s + 2 * i, "%2x", &b) != 1)
            return INVALID_VALUE;
        uuid[i] = (unsigned char)b;
    }
    return SUCCESS;
}

DBL_API int cuDeviceGetPCIBusId(char *id, int len, int dev)
{
    int r = check(dev);
    if (r != SUCCESS)
        return r;
    const char *s = dbl_str("cuda.%d.pci_bus_id", dev);
    if (!s || len <= 0)
        return INVALID_VALUE;
    snprintf(id, (size_t)len, "%s", s);
    return SUCCESS;
}

DBL_API int cuGetErrorName(int error, const char **name)
{
    switch (error) {
    case SUCCESS: *name = "CUDA_SUCCESS"; return SUCCESS;
    case INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; return SUCCESS;
    case NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; return SUCCESS;
    case NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; return SUCCESS;
    case INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; return SUCCESS;
    default: *name = NULL; return INVALID_VALUE;
    }
}
