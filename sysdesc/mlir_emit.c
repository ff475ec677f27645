/* A system as MLIR: a module with its attributes, or the bare system spec
 * (sysdesc/print.h). */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdlib.h>

char *sysdesc_mlir_print(const sysdesc_system *sys, bool bare, size_t *len)
{
    /* Everything goes straight into one buffer (dlti_print_attr, the
     * printer of the core's base): a big spec is not printed into a string
     * of its own and then copied. */
    dlti_buf b = {0};
    if (bare) {
        dlti_print_attr(&b, sys->spec, false);
        dlti_buf_putc(&b, '\n');
    } else {
        /* Attribute names sorted, as MLIR prints a module's dictionary. */
        dlti_buf_puts(&b, "module attributes {");
        if (sys->dl_spec) {
            dlti_buf_puts(&b, "dlti.dl_spec = ");
            dlti_print_attr(&b, sys->dl_spec, false);
            dlti_buf_puts(&b, ", ");
        }
        dlti_buf_puts(&b, "dlti.target_system_spec = ");
        dlti_print_attr(&b, sys->spec, false);
        if (sys->llvm_target) { /* "llvm.target" sorts after "dlti.*" */
            dlti_buf_puts(&b, ", llvm.target = ");
            dlti_print_attr(&b, sys->llvm_target, false);
        }
        dlti_buf_puts(&b, "} {\n}\n\n");  /* mlir-opt-22 ends a module with a blank line */
    }
    return sd_buf_finish(&b, len);
}
