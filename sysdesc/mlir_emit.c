/* A system as MLIR: a module with its attributes, or the bare system spec
 * (sysdesc/print.h). */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdlib.h>

/* The printer's options (--pretty, --inherent-dlti): the module is built
 * as a scope and printed by the core's scope printer, which owns both. */
static char *print_with_options(const sysdesc_system *sys, bool bare, unsigned flags, size_t *len)
{
    const char *names[2];
    const dlti_attr *values[2];
    size_t n = 0;
    if (!bare && sys->dl_spec) {
        names[n] = "dlti.dl_spec";
        values[n++] = sys->dl_spec;
    }
    names[n] = "dlti.target_system_spec";
    values[n++] = sys->spec;
    unsigned f = (flags & SYSDESC_PRINT_PRETTY ? DLTI_PRINT_PRETTY : 0) |
                 (flags & SYSDESC_PRINT_INHERENT ? DLTI_PRINT_INHERENT : 0);
    return dlti_attrs_print(names, values, n, bare, f, len);
}

char *sysdesc_mlir_print_flags(const sysdesc_system *sys, bool bare, unsigned flags, size_t *len)
{
    if (flags & (SYSDESC_PRINT_PRETTY | SYSDESC_PRINT_INHERENT))
        return print_with_options(sys, bare, flags, len);
    return sysdesc_mlir_print(sys, bare, len);
}

void sd_mlir_put(bs_buf *b, const sysdesc_system *sys, bool bare)
{
    /* Everything goes straight into the caller's buffer (dlti_print_attr,
     * the printer of the core's base): a big spec is not printed into a
     * string of its own and then copied, and a streaming buffer
     * (sysdesc_system_write) never holds it whole. */
    if (bare) {
        dlti_print_attr(b, sys->spec, false);
        bs_buf_putc(b, '\n');
        return;
    }
    /* Attribute names sorted, as MLIR prints a module's dictionary. */
    bs_buf_puts(b, "module attributes {");
    if (sys->dl_spec) {
        bs_buf_puts(b, "dlti.dl_spec = ");
        dlti_print_attr(b, sys->dl_spec, false);
        bs_buf_puts(b, ", ");
    }
    bs_buf_puts(b, "dlti.target_system_spec = ");
    dlti_print_attr(b, sys->spec, false);
    if (sys->llvm_target) { /* "llvm.target" sorts after "dlti.*" */
        bs_buf_puts(b, ", llvm.target = ");
        dlti_print_attr(b, sys->llvm_target, false);
    }
    bs_buf_puts(b, "} {\n}\n\n");  /* mlir-opt-22 ends a module with a blank line */
}

char *sysdesc_mlir_print(const sysdesc_system *sys, bool bare, size_t *len)
{
    bs_buf b = {0};
    sd_mlir_put(&b, sys, bare);
    return sd_buf_finish(&b, len);
}
