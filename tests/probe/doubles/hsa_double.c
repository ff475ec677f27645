/* hsa_double.c - TEST DOUBLE of the ROCm HSA runtime (built as
 * libhsa-runtime64.so.1 in this folder): only the entry points probe/rocm.c
 * calls, answering from the configuration (double_config.h, README).  It
 * proves nothing about a real ROCm install.  Built a second time without
 * hsa_amd_agent_iterate_memory_pools (DOUBLE_WITHOUT_MEMORY_POOLS). */
#include "double_config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hsa_status_t values the double returns (hsa.h). */
#define OK 0
#define BREAK 0x1
#define ERROR 0x1000
#define INVALID_ARGUMENT 0x1001
#define NOT_INITIALIZED 0x100B

typedef struct handle64 {
    uint64_t handle;
} handle64;

static int initialised;

DBL_API int hsa_init(void)
{
    if (dbl_load() != 0)
        return ERROR;
    int r = (int)dbl_int(0, "hsa.init");
    initialised = r == OK;
    return r;
}

DBL_API int hsa_shut_down(void)
{
    if (!initialised)
        return NOT_INITIALIZED;
    initialised = 0;
    return OK;
}

DBL_API int hsa_status_string(int s, const char **text)
{
    switch (s) {
    case OK:
        *text = "HSA_STATUS_SUCCESS: The function has been executed successfully.";
        return OK;
    case 0x1008:
        *text = "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the "
                "necessary resources.";
        return OK;
    case NOT_INITIALIZED: *text = "HSA_STATUS_ERROR_NOT_INITIALIZED: The HSA runtime is not initialized."; return OK;
    default: return INVALID_ARGUMENT;
    }
}

DBL_API int hsa_system_get_info(int attribute, void *value)
{
    if (!initialised)
        return NOT_INITIALIZED;
    if (attribute != 0 && attribute != 1)
        return INVALID_ARGUMENT;
    uint16_t v = (uint16_t)dbl_int(1, attribute == 0 ? "hsa.version_major" : "hsa.version_minor");
    memcpy(value, &v, sizeof(v));
    return OK;
}

/* Agent handles are index + 1; CPU agents come first, as ROCr lists them.
 * ROCR_VISIBLE_DEVICES chooses and orders the GPU agents as ROCr applies it
 * (README, "Visibility variables"): indices among the GPU agents, or their
 * UUIDs (hsa.<i>.uuid, "GPU-..."). */
DBL_API int hsa_iterate_agents(int (*cb)(handle64, void *), void *data)
{
    if (!initialised)
        return NOT_INITIALIZED;
    long long n = dbl_int(0, "hsa.count");
    const char *list = getenv("ROCR_VISIBLE_DEVICES");
    enum { MAXGPU = 256 };
    long long gpus[MAXGPU];
    const char *uuids[MAXGPU];
    int ngpus = 0, picked[MAXGPU], npicked = 0;
    for (long long i = 0; i < n && i < 4096; i++) {
        if (dbl_int(1, "hsa.%lld.device", i) != 1 || !list) {
            int r = cb((handle64){(uint64_t)i + 1}, data);
            if (r != OK)
                return r;
        } else if (ngpus < MAXGPU) {
            uuids[ngpus] = dbl_str("hsa.%lld.uuid", i);
            gpus[ngpus++] = i;
        }
    }
    if (list)
        npicked = dbl_visible_list(list, ngpus, uuids, 1, picked, MAXGPU);
    for (int k = 0; k < npicked; k++) {
        int r = cb((handle64){(uint64_t)gpus[picked[k]] + 1}, data);
        if (r != OK)
            return r;
    }
    return OK;
}

/* Comma-separated numbers into an array of `width`-byte elements. */
static void numbers(const char *s, void *out, int width, int max)
{
    for (int i = 0; s && *s && i < max; i++) {
        char *end;
        unsigned long v = strtoul(s, &end, 0);
        if (end == s)
            return;
        if (width == 2) {
            uint16_t x = (uint16_t)v;
            memcpy((char *)out + 2 * i, &x, 2);
        } else {
            uint32_t x = (uint32_t)v;
            memcpy((char *)out + 4 * i, &x, 4);
        }
        s = *end == ',' ? end + 1 : end;
    }
}

static int text(const char *key_fmt, long long agent, void *value, unsigned long size)
{
    char key[64];
    snprintf(key, sizeof(key), key_fmt, agent);
    return dbl_copy_name(value, size, key) == 0 ? OK : INVALID_ARGUMENT;
}

DBL_API int hsa_agent_get_info(handle64 agent, int attribute, void *value)
{
    if (!initialised)
        return NOT_INITIALIZED;
    long long i = (long long)agent.handle - 1;
    if (i < 0 || i >= dbl_int(0, "hsa.count"))
        return INVALID_ARGUMENT;
    /* The sizes the reference gives each attribute's type. */
    switch (attribute) {
    case 0: return text("hsa.%lld.name", i, value, 64);
    case 1: return text("hsa.%lld.vendor", i, value, 64);
    case 0xA009: return text("hsa.%lld.product", i, value, 64);
    case 0xA011: return text("hsa.%lld.uuid", i, value, 21);
    case 17: {
        uint32_t v = (uint32_t)dbl_int(1, "hsa.%lld.device", i);
        memcpy(value, &v, 4);
        return OK;
    }
    case 7:
        memset(value, 0, 6);
        numbers(dbl_str("hsa.%lld.workgroup_max_dim", i), value, 2, 3);
        return OK;
    case 9:
        memset(value, 0, 12);
        numbers(dbl_str("hsa.%lld.grid_max_dim", i), value, 4, 3);
        return OK;
    case 18:
        memset(value, 0, 16);
        numbers(dbl_str("hsa.%lld.cache", i), value, 4, 4);
        return OK;
    default: {
        /* Every other attribute is a uint32_t: hsa.<i>.attr.<hex number>. */
        const char *s = dbl_str("hsa.%lld.attr.0x%x", i, (unsigned)attribute);
        if (!s)
            return INVALID_ARGUMENT;
        uint32_t v = (uint32_t)strtoul(s, NULL, 0);
        memcpy(value, &v, 4);
        return OK;
    }
    }
}

DBL_API int hsa_agent_iterate_isas(handle64 agent, int (*cb)(handle64, void *), void *data)
{
    if (!initialised)
        return NOT_INITIALIZED;
    long long i = (long long)agent.handle - 1;
    if (!dbl_str("hsa.%lld.isa", i))
        return OK;
    int r = cb((handle64){agent.handle}, data); /* the ISA handle is the agent's */
    return r == BREAK ? OK : r;
}

DBL_API int hsa_isa_get_info_alt(handle64 isa, int attribute, void *value)
{
    const char *s = dbl_str("hsa.%lld.isa", (long long)isa.handle - 1);
    if (!initialised)
        return NOT_INITIALIZED;
    if (!s)
        return INVALID_ARGUMENT;
    if (attribute == 0) {
        uint32_t len = (uint32_t)strlen(s) + 1;
        memcpy(value, &len, 4);
        return OK;
    }
    if (attribute == 1) {
        memcpy(value, s, strlen(s) + 1);
        return OK;
    }
    return INVALID_ARGUMENT;
}

/* Pool handles: agent << 16 | pool index. */
#ifndef DOUBLE_WITHOUT_MEMORY_POOLS
DBL_API int hsa_amd_agent_iterate_memory_pools(handle64 agent, int (*cb)(handle64, void *),
                                               void *data)
{
    if (!initialised)
        return NOT_INITIALIZED;
    long long n = dbl_int(0, "hsa.%lld.pool.count", (long long)agent.handle - 1);
    for (long long k = 0; k < n && k < 100000; k++) {
        int r = cb((handle64){agent.handle << 16 | (uint64_t)k}, data);
        if (r == BREAK)
            return OK;
        if (r != OK)
            return r;
    }
    return OK;
}
#endif

DBL_API int hsa_amd_memory_pool_get_info(handle64 pool, int attribute, void *value)
{
    if (!initialised)
        return NOT_INITIALIZED;
    long long agent = (long long)(pool.handle >> 16) - 1, k = (long long)(pool.handle & 0xffff);
    switch (attribute) {
    case 0: {
        uint32_t v = (uint32_t)dbl_int(0, "hsa.%lld.pool.%lld.segment", agent, k);
        memcpy(value, &v, 4);
        return OK;
    }
    case 1: {
        uint32_t v = (uint32_t)dbl_int(0, "hsa.%lld.pool.%lld.flags", agent, k);
        memcpy(value, &v, 4);
        return OK;
    }
    case 2: {
        size_t v = (size_t)dbl_int(0, "hsa.%lld.pool.%lld.size", agent, k);
        memcpy(value, &v, sizeof(v));
        return OK;
    }
    default: return INVALID_ARGUMENT;
    }
}
