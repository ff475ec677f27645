/* A system as MLIR: a module with its attributes, or the bare system spec
 * (sysdesc/print.h). */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdlib.h>

char *sysdesc_mlir_print(const sysdesc_system *sys, bool bare, size_t *len)
{
    dlti_buf b = {0};
    char *spec = dlti_attr_print(sys->spec, NULL);
    char *dl = sys->dl_spec && !bare ? dlti_attr_print(sys->dl_spec, NULL) : NULL;
    if (!spec || (sys->dl_spec && !bare && !dl)) {
        free(spec);
        free(dl);
        return NULL;
    }
    if (bare) {
        dlti_buf_puts(&b, spec);
        dlti_buf_puts(&b, "\n");
    } else {
        /* Attribute names sorted, as MLIR prints a module's dictionary. */
        dlti_buf_puts(&b, "module attributes {");
        if (dl) {
            dlti_buf_puts(&b, "dlti.dl_spec = ");
            dlti_buf_puts(&b, dl);
            dlti_buf_puts(&b, ", ");
        }
        dlti_buf_puts(&b, "dlti.target_system_spec = ");
        dlti_buf_puts(&b, spec);
        dlti_buf_puts(&b, "} {\n}\n\n");  /* mlir-opt-22 ends a module with a blank line */
    }
    free(spec);
    free(dl);
    return sd_buf_finish(&b, len);
}
