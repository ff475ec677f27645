/* Which device a command means: the roofline's default device, and the
 * hint for an id a system does not hold (the nearest id and the ids
 * there), so that a user who asks for "GPU0" of a catalog GPU reads "GPU". */
#include "sysdesc_private.h"
#include "sysdesc/roofline.h"

#include <stdio.h>
#include <string.h>

/* Ids listed in a hint; the rest are counted. */
#define LISTED 16

static bool same_but_case(const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb)
        return false;
    for (size_t i = 0; i < la; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

int sysdesc_device_hint(const dlti_attr *system_spec, const char *id, char *out, size_t size)
{
    if (!system_spec || dlti_attr_get_kind(system_spec) != DLTI_ATTR_SYSTEM_SPEC || !out ||
        size == 0 || dlti_attr_size(system_spec) == 0)
        return -1;
    size_t n = dlti_attr_size(system_spec), want = id ? strlen(id) : 0;
    /* The nearest: the same but for case, else within a third of its length
     * ("GPU0" finds "GPU"; "L3" would find nothing). */
    const char *best = NULL;
    size_t best_len = 0, best_d = (size_t)-1, ties = 0;
    for (size_t i = 0; id && i < n; i++) {
        size_t len;
        const char *k = dlti_key_str(dlti_attr_entry_key(system_spec, i), &len);
        if (!k)
            continue;
        size_t d = same_but_case(id, want, k, len) ? 0 : bs_edit_distance(id, want, k, len);
        if (d <= want / 3 && d < best_d) {
            best = k;
            best_len = len;
            best_d = d;
            ties = 0;
        } else if (d == best_d) {
            ties++;
        }
    }
    size_t used = 0;
    /* Several as near ("GPU9" of GPU0..GPU7): the list says more than a guess. */
    if (best && !ties)
        used = (size_t)snprintf(out, size, "did you mean '%.*s'? ", (int)best_len, best);
    used += (size_t)snprintf(out + (used < size ? used : size), used < size ? size - used : 0,
                             "devices:");
    for (size_t i = 0, shown = 0; i < n && used < size; i++) {
        size_t len;
        const char *k = dlti_key_str(dlti_attr_entry_key(system_spec, i), &len);
        if (!k)
            continue;
        if (shown++ == LISTED) {
            snprintf(out + used, size - used, ", ... (%zu in all)", n);
            break;
        }
        used += (size_t)snprintf(out + used, size - used, "%s %.*s", shown > 1 ? "," : "",
                                 (int)len, k);
    }
    return 0;
}

const dlti_attr *sysdesc_roofline_device(const dlti_attr *system_spec, const char *device_id,
                                         char *id_out, size_t id_size, dlti_error_t *err)
{
    if (!system_spec || dlti_attr_get_kind(system_spec) != DLTI_ATTR_SYSTEM_SPEC || !id_out ||
        id_size == 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: needs a system spec and room for "
                                                 "the device's id");
        return NULL;
    }
    const dlti_attr *dev = NULL;
    id_out[0] = '\0';
    if (device_id) {
        dev = dlti_attr_lookup_string(system_spec, device_id, strlen(device_id));
        snprintf(id_out, id_size, "%s", device_id);
    } else if ((dev = dlti_attr_lookup_string(system_spec, "CPU", 3))) {
        snprintf(id_out, id_size, "CPU");
    } else if (dlti_attr_size(system_spec) > 0) {
        size_t n;
        const char *k = dlti_key_str(dlti_attr_entry_key(system_spec, 0), &n);
        dev = dlti_attr_entry_value(system_spec, 0);
        snprintf(id_out, id_size, "%.*s", (int)(n < 63 ? n : 63), k ? k : "");
    }
    if (!dev || dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no device \"%s\"", id_out);
        return NULL;
    }
    return dev;
}
