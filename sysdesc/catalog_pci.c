/* Probed GPUs filled from the catalog by PCI id: the one hook that the CLI's
 * probe and compose --host and C users share (sysdesc/catalog.h). */
#include "sysdesc_private.h"

#include "sysdesc/catalog.h"
#include "sysdesc/compose.h"

int sysdesc_catalog_pci_fill(void *search_path, dlti_context *ctx, const sysdesc_pci_info *pci,
                             const dlti_attr **device_spec, dlti_error_t *err)
{
    dlti_error_t inner;
    const dlti_attr *entry = sysdesc_catalog_match_pci(ctx, pci->vendor_id, pci->device_id,
                                                       (const char *)search_path, NULL, &inner);
    if (!entry) {
        if (inner.code == DLTI_ERROR_NOT_FOUND)
            return 0; /* a device the catalog does not know keeps what the probe found */
        if (err)
            *err = inner;
        return -1;
    }
    const dlti_attr *filled = sysdesc_device_fill(ctx, *device_spec, entry, err);
    if (!filled)
        return -1;
    *device_spec = filled;
    return 0;
}
