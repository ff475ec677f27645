/* `data_layout:` -> #dlti.dl_spec, through the data layout importer. */
#include "sysdesc_private.h"

#include "sysdesc/layout.h"

#include <string.h>

int sd_import_data_layout(dlti_context *ctx, const char *text, const dlti_attr **dl_spec,
                          dlti_error_t *err)
{
    /* A triple names its layout; anything the table does not know is read as
     * a layout string, whose importer then reports a precise error. */
    const dlti_target_dl *row = dlti_target_dl_find(text, NULL);
    const char *layout = row ? row->layout : text;
    const dlti_attr *spec = dlti_llvm_dl_import(ctx, layout, strlen(layout), err);
    if (!spec)
        return -1;
    *dl_spec = spec;
    return 0;
}
