/* `data_layout:` written as a scalar: a target triple or an LLVM data layout
 * string (through the data layout importer, sysdesc/layout.h), or !mlir
 * '#dlti.dl_spec<...>'.  Both builders call this; a !dl_spec mapping is
 * built like any other mapping. */
#include "sysdesc_private.h"

#include "sysdesc/layout.h"

#include <string.h>

int sd_data_layout_value(dlti_context *ctx, sd_types *tc, const sd_node *v, const char *source,
                         sysdesc_system *out, dlti_error_t *err)
{
    if (v->kind == SD_SCALAR && sd_tag_is(v, "!mlir")) {
        bool null;
        const dlti_attr *a = sd_scalar_attr(ctx, tc, v, source, &null, err);
        if (!a)
            return -1;
        if (dlti_attr_get_kind(a) != DLTI_ATTR_DL_SPEC) {
            bs_error_set_at(err, DLTI_ERROR_VERIFY, source, v->line, v->column,
                            "data_layout: !mlir needs a #dlti.dl_spec, not a %s",
                            dlti_attr_kind_name(dlti_attr_get_kind(a)));
            return -1;
        }
        /* the module's layout: its rules apply (a nested one's do not) */
        out->dl_spec = sd_module_dl_spec(ctx, a, err);
        if (!out->dl_spec)
            bs_error_place(err, source, v->line, v->column);
        return out->dl_spec ? 0 : -1;
    }
    if (v->kind != SD_SCALAR || (v->tag && !sd_tag_is(v, SD_TAG_STR)) || v->len == 0) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, v->line, v->column,
                        "data_layout: needs an LLVM data layout string, a target triple, "
                        "a !dl_spec mapping or !mlir '#dlti.dl_spec<...>'");
        return -1;
    }
    const dlti_attr *text = dlti_string_new(ctx, v->u.text, v->len);
    if (!text)
        return sd_nomem(ctx, err, source);
    /* A triple names its layout; anything the table does not know is read as
     * a layout string, whose importer then reports a precise error. */
    const dlti_target_dl *row = dlti_target_dl_find(v->u.text, NULL);
    const char *layout = row ? row->layout : v->u.text;
    const dlti_attr *spec = dlti_llvm_dl_import(ctx, layout, strlen(layout), err);
    if (!spec) {
        bs_error_place(err, source, v->line, v->column);
        return -1;
    }
    dlti_attr_get_string(text, &out->data_layout, NULL, NULL);
    out->dl_spec = spec;
    return 0;
}
