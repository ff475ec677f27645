/* amd_smi_double.c - TEST DOUBLE of AMD SMI (built as libamd_smi.so in this
 * folder): only the entry points probe/amd_smi.c calls, answering from the
 * configuration (double_config.h, README).  It proves nothing about a real
 * AMD SMI. */
#include "double_config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* amdsmi_status_t values the double returns (amdsmi.h). */
#define OK 0
#define INVAL 1
#define NOT_SUPPORTED 2
#define NOT_INIT 32

#define MAXSOCK 16
#define MAXPROC 16
/* A processor handle points at one of these; a socket handle at its row. */
typedef struct handle {
    int socket, proc;
} handle;
static handle handles[MAXSOCK][MAXPROC];
static int initialised;

DBL_API int amdsmi_init(uint64_t flags)
{
    if (flags != (UINT64_C(1) << 1) || dbl_load() != 0)
        return INVAL;
    int r = (int)dbl_int(0, "smi.init");
    initialised = r == OK;
    for (int s = 0; s < MAXSOCK; s++)
        for (int p = 0; p < MAXPROC; p++)
            handles[s][p] = (handle){s, p};
    return r;
}

DBL_API int amdsmi_shut_down(void)
{
    initialised = 0;
    return OK;
}

DBL_API int amdsmi_status_code_to_string(int status, const char **text)
{
    switch (status) {
    case NOT_INIT: *text = "AMDSMI_STATUS_NOT_INIT - Device not initialized"; return OK;
    case 34: *text = "AMDSMI_STATUS_DRIVER_NOT_LOADED - Driver not loaded"; return OK;
    default: return INVAL;
    }
}

DBL_API int amdsmi_get_socket_handles(uint32_t *count, handle **sockets)
{
    if (!initialised)
        return NOT_INIT;
    long long n = dbl_int(0, "smi.sockets");
    uint32_t real = n < 0 ? 0 : n > MAXSOCK ? MAXSOCK : (uint32_t)n;
    if (sockets)
        for (uint32_t i = 0; i < *count && i < real; i++)
            sockets[i] = &handles[i][0];
    *count = (uint32_t)n;
    return OK;
}

DBL_API int amdsmi_get_processor_handles(handle *socket, uint32_t *count, handle **procs)
{
    if (!initialised)
        return NOT_INIT;
    if (!socket)
        return INVAL;
    long long n = dbl_int(0, "smi.%d.count", socket->socket);
    uint32_t real = n < 0 ? 0 : n > MAXPROC ? MAXPROC : (uint32_t)n;
    if (procs)
        for (uint32_t i = 0; i < *count && i < real; i++)
            procs[i] = &handles[socket->socket][i];
    *count = (uint32_t)n;
    return OK;
}

DBL_API int amdsmi_get_gpu_device_bdf(handle *p, uint64_t *bdf)
{
    if (!initialised)
        return NOT_INIT;
    const char *s = dbl_str("smi.%d.%d.bdf", p->socket, p->proc);
    if (!s)
        return NOT_SUPPORTED;
    *bdf = (uint64_t)dbl_int(0, "smi.%d.%d.bdf", p->socket, p->proc);
    return OK;
}

static int text(handle *p, const char *what, char *buf, uint32_t len)
{
    char key[64];
    if (!initialised)
        return NOT_INIT;
    snprintf(key, sizeof(key), "smi.%d.%d.%s", p->socket, p->proc, what);
    return dbl_copy_name(buf, len, key) == 0 ? OK : NOT_SUPPORTED;
}

DBL_API int amdsmi_get_gpu_compute_partition(handle *p, char *buf, uint32_t len)
{
    return text(p, "compute_partition", buf, len);
}

DBL_API int amdsmi_get_gpu_memory_partition(handle *p, char *buf, uint32_t len)
{
    return text(p, "memory_partition", buf, len);
}
