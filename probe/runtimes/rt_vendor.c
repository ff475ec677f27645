/* What the vendor-runtime probes (cuda.c, nvml.c, rocm.c, amd_smi.c, level_zero.c)
 * share: opening a library, normalising PCI bus ids and UUIDs, distrusting
 * the strings a runtime writes, recording the environment that changes
 * what a runtime shows. */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *pb_vendor_sym(void *lib, const char *name)
{
    return dlsym(lib, name);
}

void pb_vendor_lacks(pb_run *run, const char *runtime, void *lib, const char *soname,
                     const char *symbol)
{
    char msg[256];
    snprintf(msg, sizeof(msg), "%s lacks %s", soname, symbol);
    pb_rt_skipped(run, runtime, msg);
    dlclose(lib);
}

bool pb_vendor_bus_id_of(uint64_t domain, uint64_t bus, uint64_t device, uint64_t function,
                         char out[16])
{
    /* The PCI limits: 16-bit domains (what pci.c prints), 256 buses, 32
     * devices, 8 functions. */
    if (domain > 0xffff || bus > 0xff || device > 0x1f || function > 7) {
        out[0] = '\0';
        return false;
    }
    snprintf(out, 16, "%04x:%02x:%02x.%x", (unsigned)domain, (unsigned)bus, (unsigned)device,
             (unsigned)function);
    return true;
}

static bool hex_field(const char **p, char stop, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    size_t n = 0;
    for (; *s && *s != stop; s++, n++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            return false;
        if (n >= 8)
            return false;
        x = x * 16 + (uint64_t)d;
    }
    if (n == 0 || *s != stop)
        return false;
    *v = x;
    *p = s + (stop != '\0');
    return true;
}

bool pb_vendor_bus_id(const char *text, char out[16])
{
    uint64_t dom, bus, dev, fn;
    const char *p = text;
    out[0] = '\0';
    if (!p)
        return false;
    while (*p == ' ')
        p++;
    if (!hex_field(&p, ':', &dom) || !hex_field(&p, ':', &bus) || !hex_field(&p, '.', &dev) ||
        !hex_field(&p, '\0', &fn))
        return false;
    return pb_vendor_bus_id_of(dom, bus, dev, fn, out);
}

void pb_vendor_uuid(const unsigned char b[16], const char *prefix, char *out, size_t size)
{
    snprintf(out, size,
             "%s%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             prefix ? prefix : "", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
             b[10], b[11], b[12], b[13], b[14], b[15]);
}

bool pb_vendor_text(const char *buf, size_t size, char *out, size_t outsize)
{
    const char *end = memchr(buf, '\0', size);
    if (!end) {
        if (outsize)
            out[0] = '\0';
        return false;
    }
    snprintf(out, outsize, "%s", buf);
    return true;
}

void pb_vendor_env(dlti_context *ctx, pb_map *view, const char *key, const char *var)
{
    /* Set but empty is an answer too: CUDA_VISIBLE_DEVICES="" hides every device. */
    const char *v = getenv(var);
    if (v)
        pb_add(ctx, view, key, dlti_string_new(ctx, v, strlen(v)));
}
