/* The functions dlti_internal.h offers the layers above the core: what
 * they need of attributes without their layout. */
#include "dlti_private.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

/* A public entry is the core's entry record, field for field. */
static_assert(sizeof(dlti_entry) == sizeof(dlti_entry_rec) &&
                  offsetof(dlti_entry, key) == offsetof(dlti_entry_rec, key) &&
                  offsetof(dlti_entry, value) == offsetof(dlti_entry_rec, value),
              "dlti_entry and dlti_entry_rec differ");

const dlti_attr *dlti_container_build_entries(dlti_context *ctx, dlti_attr_kind kind,
                                              const dlti_entry *entries, size_t n,
                                              dlti_error_t *err, size_t *bad)
{
    return dlti_container_build(ctx, kind, (const dlti_entry_rec *)entries, n, err, bad);
}

double dlti_dense_float_at(const dlti_attr *a, size_t i)
{
    if (!a || a->kind != DLTI_ATTR_DENSE_ARRAY || !a->type || a->type->float_kind < 0 ||
        i >= a->n)
        return NAN;
    return dlti_float_to_double((dlti_float_kind)a->type->float_kind, a->u.floats[i]);
}

const char *dlti_type_float_loss(const dlti_type *type, double x)
{
    int kind = dlti_type_float_format(type);
    if (kind < 0)
        return "not a float type";
    return dlti_float_loss((dlti_float_kind)kind, x);
}

char *dlti_attrs_print(const char *const *names, const dlti_attr *const *values, size_t n,
                       bool bare, unsigned flags, size_t *len)
{
    dlti_named_attr *attrs = calloc(n ? n : 1, sizeof(*attrs));
    if (!attrs)
        return NULL;
    for (size_t i = 0; i < n; i++)
        attrs[i] = (dlti_named_attr){.name = names[i], .name_len = strlen(names[i]),
                                     .value = values[i]};
    dlti_scope s = {.ctx = NULL, .bare = bare, .num_attrs = n, .attrs = attrs};
    char *text = dlti_scope_print_flags(&s, flags, len);
    free(attrs);
    return text;
}
