/* AMD SMI (libamd_smi.so): the partition modes of AMD GPUs (compute:
 * SPX, DPX, QPX, CPX; memory: NPS1, NPS4), which HSA does not tell.  One
 * pb_rt_device per GPU processor, matched to the others by PCI bus id. */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SONAME "libamd_smi.so"

/* AMD SMI reference (amdsmi.h): amdsmi_status_t (AMDSMI_STATUS_SUCCESS =
 * 0), opaque socket and processor handles, amdsmi_init_flags_t
 * AMDSMI_INIT_AMD_GPUS = 1 << 1 (a uint64_t argument). */
typedef int smi_status;
typedef void *smi_socket;
typedef void *smi_processor;
enum { SMI_OK = 0 };
#define SMI_INIT_AMD_GPUS (UINT64_C(1) << 1)
/* amdsmi_bdf_t is a union of a uint64_t and the bit-fields function_number
 * : 3, device_number : 5, bus_number : 8, domain_number : 48, in that order
 * from the least significant bit (the x86-64 and AArch64 ABIs). */
#define SMI_BDF_FUNCTION(x) ((x) & 0x7u)
#define SMI_BDF_DEVICE(x) (((x) >> 3) & 0x1fu)
#define SMI_BDF_BUS(x) (((x) >> 8) & 0xffu)
#define SMI_BDF_DOMAIN(x) ((x) >> 16)

typedef struct smi_api {
    smi_status (*init)(uint64_t flags);
    smi_status (*shut_down)(void);
    smi_status (*get_socket_handles)(uint32_t *count, smi_socket *sockets);
    smi_status (*get_processor_handles)(smi_socket socket, uint32_t *count, smi_processor *p);
    /* optional */
    smi_status (*status_string)(smi_status s, const char **text);
    smi_status (*get_bdf)(smi_processor p, uint64_t *bdf);
    smi_status (*get_compute_partition)(smi_processor p, char *text, uint32_t len);
    smi_status (*get_memory_partition)(smi_processor p, char *text, uint32_t len);
} smi_api;

static void smi_error_text(const smi_api *s, const char *call, smi_status r, char *out,
                           size_t size)
{
    const char *text = NULL;
    if (!s->status_string || s->status_string(r, &text) != SMI_OK || !text)
        text = "error";
    snprintf(out, size, "%s: %.100s (%d)", call, text, r);
}

/* A partition mode into the view, when the library answers with a string. */
static void smi_mode(dlti_context *ctx, smi_status (*get)(smi_processor, char *, uint32_t),
                     smi_processor p, pb_map *view, const char *key)
{
    char buf[64], text[64];
    memset(buf, 0, sizeof(buf));
    if (get && get(p, buf, sizeof(buf)) == SMI_OK && pb_vendor_text(buf, sizeof(buf), text,
                                                                     sizeof(text)))
        pb_str(ctx, view, key, text);
}

static int smi_gpus(pb_run *run, const smi_api *s, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    char why[160];
    smi_socket sockets[PB_VENDOR_MAX_DEVICES];
    uint32_t nsockets = 0;
    smi_status r = s->get_socket_handles(&nsockets, NULL);
    if (r != SMI_OK) {
        smi_error_text(s, "amdsmi_get_socket_handles", r, why, sizeof(why));
        pb_rt_skipped(run, "amd_smi", why);
        return 0;
    }
    nsockets = (uint32_t)pb_rt_cap(run, "amd_smi", "sockets", nsockets, PB_VENDOR_MAX_DEVICES);
    memset(sockets, 0, sizeof(sockets));
    uint32_t asked = nsockets;
    if (nsockets == 0 || s->get_socket_handles(&nsockets, sockets) != SMI_OK) {
        pb_rt_skipped(run, "amd_smi", "no GPU");
        return 0;
    }
    if (nsockets > asked)
        nsockets = asked;
    int ordinal = 0;
    size_t left_out = 0; /* processors past the runtime's PB_VENDOR_MAX_DEVICES, said below */
    for (uint32_t k = 0; k < nsockets; k++) {
        smi_processor procs[PB_VENDOR_MAX_DEVICES];
        uint32_t n = 0;
        if (!sockets[k] || s->get_processor_handles(sockets[k], &n, NULL) != SMI_OK || n == 0)
            continue;
        char what[64];
        snprintf(what, sizeof(what), "processors on socket %u", k);
        n = (uint32_t)pb_rt_cap(run, "amd_smi", what, n, PB_VENDOR_MAX_DEVICES);
        if (ordinal + n > PB_VENDOR_MAX_DEVICES) {
            left_out += ordinal + n - PB_VENDOR_MAX_DEVICES;
            if (ordinal >= PB_VENDOR_MAX_DEVICES)
                continue;
        }
        memset(procs, 0, sizeof(procs));
        asked = n;
        if (s->get_processor_handles(sockets[k], &n, procs) != SMI_OK)
            continue;
        if (n > asked)
            n = asked;
        for (uint32_t i = 0; i < n && ordinal < PB_VENDOR_MAX_DEVICES; i++) {
            if (!procs[i])
                continue;
            pb_rt_device d;
            pb_rt_init(&d, "amd_smi", ordinal);
            snprintf(d.driver, sizeof(d.driver), "AMD SMI");
            pb_i64(ctx, &d.view, "index", ordinal);
            uint64_t bdf;
            if (s->get_bdf && s->get_bdf(procs[i], &bdf) == SMI_OK &&
                pb_vendor_bus_id_of(SMI_BDF_DOMAIN(bdf), SMI_BDF_BUS(bdf), SMI_BDF_DEVICE(bdf),
                                    SMI_BDF_FUNCTION(bdf), d.bus_id))
                pb_str(ctx, &d.view, "pci_bus_id", d.bus_id);
            smi_mode(ctx, s->get_compute_partition, procs[i], &d.view, "compute_partition");
            smi_mode(ctx, s->get_memory_partition, procs[i], &d.view, "memory_partition");
            if (pb_rt_add(run, &d, err) != 0)
                return -1;
            ordinal++;
        }
    }
    if (left_out)
        pb_rt_cap(run, "amd_smi", "processors in all", PB_VENDOR_MAX_DEVICES + left_out,
                  PB_VENDOR_MAX_DEVICES);
    if (ordinal == 0)
        pb_rt_skipped(run, "amd_smi", "no GPU");
    return 0;
}

static int probe_amd_smi(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "amd_smi", SONAME);
    if (!lib)
        return 0;
    smi_api s;
    memset(&s, 0, sizeof(s));
    static const char *const required[] = {"amdsmi_init", "amdsmi_shut_down",
                                           "amdsmi_get_socket_handles",
                                           "amdsmi_get_processor_handles"};
    void *fn[4];
    for (size_t i = 0; i < 4; i++)
        if (!(fn[i] = pb_vendor_sym(lib, required[i]))) {
            pb_vendor_lacks(run, "amd_smi", lib, SONAME, required[i]);
            return 0;
        }
    PB_VENDOR_FN(s.init, fn[0]);
    PB_VENDOR_FN(s.shut_down, fn[1]);
    PB_VENDOR_FN(s.get_socket_handles, fn[2]);
    PB_VENDOR_FN(s.get_processor_handles, fn[3]);
    PB_VENDOR_FN(s.status_string, pb_vendor_sym(lib, "amdsmi_status_code_to_string"));
    PB_VENDOR_FN(s.get_bdf, pb_vendor_sym(lib, "amdsmi_get_gpu_device_bdf"));
    PB_VENDOR_FN(s.get_compute_partition, pb_vendor_sym(lib, "amdsmi_get_gpu_compute_partition"));
    PB_VENDOR_FN(s.get_memory_partition, pb_vendor_sym(lib, "amdsmi_get_gpu_memory_partition"));
    int rc = 0;
    smi_status r = s.init(SMI_INIT_AMD_GPUS);
    if (r != SMI_OK) {
        char why[160];
        smi_error_text(&s, "amdsmi_init", r, why, sizeof(why));
        pb_rt_skipped(run, "amd_smi", why);
    } else {
        rc = smi_gpus(run, &s, err);
        s.shut_down();
    }
    dlclose(lib);
    return rc;
}

const pb_rt_source pb_rt_amd_smi = {
    .name = "amd_smi",
    .option = "rocm",
    .bit = SYSDESC_RUNTIME_ROCM,
    .priority = 11,
    .probe = probe_amd_smi,
};
