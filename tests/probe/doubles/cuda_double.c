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

static int count(void)
{
    return (int)dbl_int(0, "cuda.count");
}

static int check(int dev)
{
    if (!initialised)
        return NOT_INITIALIZED;
    return dev >= 0 && dev < count() ? SUCCESS : INVALID_DEVICE;
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
    int r = check(ordinal);
    if (r == SUCCESS)
        *dev = ordinal;
    return r;
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
