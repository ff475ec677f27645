/* The one shape of a described system for probing and measuring too: a
 * sysdesc_system (sysdesc/system.h), as sysdesc_system_load() fills it, with
 * the data layout of the probed CPU's triple, so that layout queries on a
 * probed host answer its ABI (docs/layout.md, "This host's layout"). */
#include "probe_private.h"
#include "sysdesc/layout.h"
#include "sysdesc/measure.h"

#include <stdio.h>
#include <string.h>

int sysdesc_system_host_layout(dlti_context *ctx, sysdesc_system *sys, const char *device,
                               dlti_error_t *err)
{
    if (!ctx || !sys || !sys->spec || dlti_attr_get_kind(sys->spec) != DLTI_ATTR_SYSTEM_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "host layout: needs a context and a system with "
                                                 "a #dlti.target_system_spec");
        return -1;
    }
    if (!device)
        device = "CPU";
    const char *keys[] = {device, "triple"};
    const dlti_attr *triple = dlti_attr_query_strings(sys->spec, keys, 2, NULL);
    const char *text;
    size_t len;
    if (!triple || dlti_attr_get_string(triple, &text, &len, NULL) != 0 || memchr(text, 0, len))
        return 1;
    /* A triple the table lacks is not guessed (dlti_target_dl_find): the
     * system keeps MLIR's defaults rather than another target's ABI. */
    const dlti_target_dl *row = dlti_target_dl_find(text, NULL);
    if (!row)
        return 1;
    const dlti_attr *dl = dlti_llvm_dl_import(ctx, row->layout, strlen(row->layout), err);
    if (!dl)
        return -1;
    /* `data_layout:` as a YAML file would say it: the triple, which reads
     * back to this very dl_spec (sysdesc/yaml_layout.c). */
    sys->dl_spec = dl;
    sys->data_layout = text;
    return 0;
}

int sysdesc_system_probe(dlti_context *ctx, const sysdesc_probe_options *opts,
                         sysdesc_system *out, dlti_error_t *err)
{
    if (!out) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "probe: needs a system to fill");
        return -1;
    }
    const dlti_attr *spec = sysdesc_probe_host(ctx, opts, err);
    if (!spec)
        return -1;
    sysdesc_system sys = {.spec = spec};
    char cpu[256];
    snprintf(cpu, sizeof cpu, "%sCPU", opts && opts->device_prefix ? opts->device_prefix : "");
    if (sysdesc_system_host_layout(ctx, &sys, cpu, err) < 0)
        return -1;
    *out = sys;
    return 0;
}

int sysdesc_system_measure(dlti_context *ctx, sysdesc_system *sys, const char *const *device_ids,
                           size_t n, const sysdesc_measure_options *opts, size_t *failed,
                           dlti_error_t *err)
{
    if (failed)
        *failed = 0;
    if (!ctx || !sys || !sys->spec) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: needs a context and a probed system");
        return -1;
    }
    const dlti_attr *spec;
    if (n) {
        spec = sysdesc_measure_devices(ctx, sys->spec, device_ids, n, opts, failed, err);
    } else {
        const dlti_attr *cpu = dlti_attr_lookup_string(sys->spec, "CPU", 3);
        if (!cpu) {
            bs_error_set(err, DLTI_ERROR_ARGUMENT, "measure: the system has no \"CPU\" device");
            return -1;
        }
        const dlti_attr *measured = sysdesc_measure_host(ctx, cpu, opts, err);
        spec = measured ? sysdesc_measure_attach(ctx, sys->spec, "CPU", measured, err) : NULL;
    }
    if (!spec)
        return -1;
    sys->spec = spec;
    return 0;
}
