/* The printer's options: multi-line DLTI containers (--pretty) and the name
 * a module's DLTI attribute is printed under (MLIR 22's `dlti.*` names or
 * MLIR head's inherent `dlti`).  Both are text the parser reads back to the
 * same module, so `fmt` of either form prints the canonical one-line form. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

static void indent_to(bs_buf *b, int indent)
{
    bs_buf_putc(b, '\n');
    for (int i = 0; i < indent; i++)
        bs_buf_puts(b, "  ");
}

static const char *container_head(dlti_attr_kind kind)
{
    switch (kind) {
    case DLTI_ATTR_MAP:
        return "#dlti.map<";
    case DLTI_ATTR_DL_SPEC:
        return "#dlti.dl_spec<";
    case DLTI_ATTR_DEVICE_SPEC:
        return "#dlti.target_device_spec<";
    default:
        return "#dlti.target_system_spec<";
    }
}

/* A DLTI container with one entry a line, `indent` levels in; anything else
 * (and an empty container) as dlti_print_attr prints it.  The depth is the
 * parser's, bounded by dlti_limits.max_depth. */
void dlti_print_attr_pretty(bs_buf *b, const dlti_attr *a, int indent)
{
    if (!dlti_attr_is_container(a->kind) || a->n == 0) {
        dlti_print_attr(b, a, false);
        return;
    }
    bs_buf_puts(b, container_head(a->kind));
    for (size_t i = 0; i < a->n; i++) {
        if (i)
            bs_buf_putc(b, ',');
        indent_to(b, indent + 1);
        dlti_print_key(b, a->u.c.entries[i].key);
        bs_buf_puts(b, " = ");
        dlti_print_attr_pretty(b, a->u.c.entries[i].value, indent + 1);
    }
    bs_buf_putc(b, '>');
}

static const char *named_form(dlti_attr_kind kind)
{
    switch (kind) {
    case DLTI_ATTR_DL_SPEC:
        return "dlti.dl_spec";
    case DLTI_ATTR_MAP:
        return "dlti.map";
    case DLTI_ATTR_SYSTEM_SPEC:
        return "dlti.target_system_spec";
    default:
        return NULL;
    }
}

static bool name_is(const dlti_named_attr *a, const char *s)
{
    return a->name_len == strlen(s) && memcmp(a->name, s, a->name_len) == 0;
}

static bool has_name(const dlti_named_attr *v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (name_is(&v[i], s))
            return true;
    return false;
}

static int cmp_named(const void *x, const void *y)
{
    const dlti_named_attr *a = x, *b = y;
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    return c ? c : (a->name_len > b->name_len) - (a->name_len < b->name_len);
}

/* The attributes of a module under the names `flags` asks for, sorted as
 * MLIR prints a dictionary: malloc'ed copy of `n` entries (NULL when out of
 * memory).  MLIR 22 form: an inherent `dlti` becomes the `dlti.*` name of
 * its kind.  Head form: the one DLTI attribute (the system spec when there
 * are several: an op has one inherent `dlti`) becomes `dlti`.  A rename
 * that would repeat a name already there is not made. */
dlti_named_attr *dlti_module_attrs_for_print(const dlti_named_attr *attrs, size_t n, unsigned flags)
{
    dlti_named_attr *v = malloc((n ? n : 1) * sizeof(*v));
    if (!v)
        return NULL;
    memcpy(v, attrs, n * sizeof(*v));
    if (!(flags & DLTI_PRINT_INHERENT)) {
        for (size_t i = 0; i < n; i++) {
            const char *to = named_form(v[i].value->kind);
            if (name_is(&v[i], "dlti") && to && !has_name(v, n, to)) {
                v[i].name = to;
                v[i].name_len = strlen(to);
            }
        }
    } else if (!has_name(v, n, "dlti")) {
        static const char *const order[] = {"dlti.target_system_spec", "dlti.map", "dlti.dl_spec"};
        for (size_t k = 0; k < 3; k++) {
            size_t i = 0;
            while (i < n && !name_is(&v[i], order[k]))
                i++;
            if (i < n && named_form(v[i].value->kind)) {
                v[i].name = "dlti";
                v[i].name_len = 4;
                break;
            }
        }
    }
    if (n > 1)
        qsort(v, n, sizeof(*v), cmp_named);
    return v;
}
