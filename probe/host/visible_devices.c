/* The GPU visibility variables of this process's environment, parsed as the
 * runtimes parse them, for the GPUs a runtime that ignores them reports
 * (hwloc's PCI devices, NVML, AMD SMI, Vulkan) or that no runtime answered
 * for (gpu_allocation.c applies the result; docs/allocation.md).
 *
 * CUDA_VISIBLE_DEVICES (CUDA C Programming Guide, "CUDA Environment
 * Variables"): a comma-separated list of indices into CUDA's enumeration,
 * or of GPU UUIDs as nvidia-smi prints them ("GPU-8932f937-d72c-...", any
 * prefix that names one GPU alone), or of MIG instances ("MIG-<uuid>");
 * the devices are enumerated in the list's order; "If an invalid index is
 * encountered, only devices with indices that appear before the invalid
 * index in the list are visible"; set but empty: no device.  What the guide
 * leaves open follows PyTorch's emulation of the driver
 * (torch/cuda/__init__.py, _parse_visible_devices and
 * _transform_uuid_to_ordinals): an index is read as strtoul reads it, after
 * blanks ("1gpu" is 1), a negative or missing number ends the list, a list
 * that starts with "GPU-" (or "MIG-") holds UUIDs only and ends at the
 * first entry that does not, a UUID prefix that names no GPU or several
 * ends the list, and a device named twice leaves no device at all.
 *
 * ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL (ROCm, "GPU
 * isolation techniques"): "a list of device indices or UUIDs", the two
 * mixed in one list ("0,GPU-DEADBEEFDEADBEEF", the guide's example); the
 * ROCm documentation says no more, and HIP mirrors CUDA (HIP's environment
 * variables: "HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES"), so CUDA's rules
 * read the rest, each entry an index or a UUID as it looks (`mixed`).
 *
 * ZE_AFFINITY_MASK (Level Zero specification, Programming Guide, "Affinity
 * Mask"): "a comma-separated list of device and/or subdevice ordinals"
 * (D or D.S) in the driver's order; "The order of the devices reported by
 * zeDeviceGet is implementation-specific and not affected by the order of
 * devices in the affinity mask"; not set: every device.  Entries that name
 * no device are ignored (the specification defines none). */
#include "probe_private.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The lists that hide GPUs (not CUDA_DEVICE_ORDER: it only numbers them). */
const char *const pb_vis_variables[] = {
    "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL",   "ZE_AFFINITY_MASK",     NULL,
};

/* The next entry of a comma-separated list: [*s, end) and *s past its comma;
 * false after the last. */
static bool next_entry(const char **s, const char **begin, const char **end, bool *more)
{
    if (!*more)
        return false;
    *begin = *s;
    const char *comma = strchr(*s, ',');
    *end = comma ? comma : *s + strlen(*s);
    *more = comma != NULL;
    *s = comma ? comma + 1 : *end;
    return true;
}

/* An index as strtoul reads one after blanks: -1 when the entry does not
 * start with a number or the number is negative or huge. */
static long entry_index(const char *b, const char *e)
{
    while (b < e && isspace((unsigned char)*b))
        b++;
    bool minus = b < e && *b == '-';
    if (b < e && (*b == '+' || *b == '-'))
        b++;
    if (b == e || !isdigit((unsigned char)*b))
        return -1;
    long v = 0;
    for (; b < e && isdigit((unsigned char)*b); b++) {
        if (v > 1000000)
            return -1;
        v = v * 10 + (*b - '0');
    }
    return minus && v ? -1 : v;
}

static bool starts_with(const char *s, const char *b, const char *e)
{
    size_t n = (size_t)(e - b);
    return s && strlen(s) >= n && strncmp(s, b, n) == 0;
}

/* The one device (or partition) whose UUID starts with [b, e): false when
 * none or several do. */
static bool find_uuid(const pb_vis_device *devs, size_t n, bool mig, const char *b, const char *e,
                      pb_vis_pick *pick)
{
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (!mig && starts_with(devs[i].uuid, b, e)) {
            *pick = (pb_vis_pick){i, -1};
            found++;
        }
        for (size_t p = 0; mig && p < devs[i].nparts; p++)
            if (starts_with(devs[i].parts[p], b, e)) {
                *pick = (pb_vis_pick){i, (int)p};
                found++;
            }
    }
    return found == 1;
}

size_t pb_vis_list(const char *value, const pb_vis_device *devs, size_t n, bool mixed,
                   pb_vis_pick *out, size_t max)
{
    const char *kind = strncmp(value, "GPU-", 4) == 0   ? "GPU-"
                       : strncmp(value, "MIG-", 4) == 0 ? "MIG-"
                                                        : NULL;
    const char *s = value, *b, *e;
    bool more = true;
    size_t k = 0;
    while (k < max && next_entry(&s, &b, &e, &more)) {
        pb_vis_pick pick;
        if (mixed) /* each entry is what it looks like */
            kind = (size_t)(e - b) >= 4 && strncmp(b, "GPU-", 4) == 0 ? "GPU-" : NULL;
        if (kind) {
            if ((size_t)(e - b) < 4 || strncmp(b, kind, 4) != 0 ||
                !find_uuid(devs, n, kind[0] == 'M', b, e, &pick))
                break;
        } else {
            long i = entry_index(b, e);
            if (i < 0 || (size_t)i >= n)
                break;
            pick = (pb_vis_pick){(size_t)i, -1};
        }
        for (size_t j = 0; j < k; j++)
            if (out[j].device == pick.device && out[j].part == pick.part)
                return 0; /* named twice: no device at all */
        out[k++] = pick;
    }
    return k;
}

static int by_device(const void *pa, const void *pb)
{
    const pb_vis_pick *a = pa, *b = pb;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    return (a->part > b->part) - (a->part < b->part);
}

size_t pb_vis_ze_mask(const char *value, size_t n, pb_vis_pick *out, size_t max)
{
    size_t k = 0;
    if (!*value) {
        for (; k < n && k < max; k++)
            out[k] = (pb_vis_pick){k, -1};
        return k;
    }
    const char *s = value, *b, *e;
    bool more = true;
    while (k < max && next_entry(&s, &b, &e, &more)) {
        while (b < e && isspace((unsigned char)*b))
            b++;
        while (e > b && isspace((unsigned char)e[-1]))
            e--;
        const char *dot = memchr(b, '.', (size_t)(e - b));
        long d = entry_index(b, dot ? dot : e), sub = dot ? entry_index(dot + 1, e) : -1;
        /* digits only: "1x" names no device */
        bool digits = b < e;
        for (const char *p = b; p < e; p++)
            digits = digits && (isdigit((unsigned char)*p) || p == dot);
        if (!digits || d < 0 || (size_t)d >= n || (dot && sub < 0))
            continue;
        pb_vis_pick pick = {(size_t)d, dot ? (int)sub : -1};
        bool seen = false;
        for (size_t j = 0; j < k && !seen; j++)
            seen = out[j].device == pick.device && out[j].part == pick.part;
        if (!seen)
            out[k++] = pick;
    }
    qsort(out, k, sizeof(*out), by_device);
    /* a whole device named with its sub-devices too: the whole device */
    size_t w = 0;
    for (size_t i = 0; i < k; i++) {
        bool whole = false;
        for (size_t j = 0; j < k; j++)
            whole = whole || (out[j].device == out[i].device && out[j].part < 0);
        if (whole && out[i].part >= 0)
            continue;
        out[w++] = out[i];
    }
    return w;
}
