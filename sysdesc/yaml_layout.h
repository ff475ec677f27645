/* The `data_layout:` key: an LLVM data layout string or a target triple
 * becomes a #dlti.dl_spec through the layout importer (sysdesc/layout.h). */
#ifndef SYSDESC_YAML_LAYOUT_H
#define SYSDESC_YAML_LAYOUT_H

#include "sysdesc/dlti.h"

/* Sets *dl_spec from `text` (NUL-terminated): a triple of the built-in table
 * (exact or same architecture) or else an LLVM data layout string.  Returns
 * 0, or -1 with `err` filled (no position) when the string is malformed. */
int sd_import_data_layout(dlti_context *ctx, const char *text, const dlti_attr **dl_spec,
                          dlti_error_t *err);

#endif
