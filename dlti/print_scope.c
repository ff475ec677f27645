/* Printing a module's scopes: nested modules and ops with their DLTI
 * attributes, as mlir-opt-22 prints them, in the canonical form or the
 * options of print_pretty.c. */
#include "dlti_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_indent(bs_buf *b, int indent)
{
    for (int i = 0; i < indent; i++)
        bs_buf_puts(b, "  ");
}

static void print_scope(bs_buf *b, const dlti_scope *s, int indent, unsigned flags)
{
    put_indent(b, indent);
    bs_buf_puts(b, "module");
    if (s->name) {
        bs_buf_puts(b, " @");
        dlti_print_name(b, s->name, strlen(s->name));
    }
    if (s->num_attrs) {
        bool pretty = flags & DLTI_PRINT_PRETTY;
        dlti_named_attr *v = dlti_module_attrs_for_print(s->attrs, s->num_attrs, flags);
        if (!v) {
            b->failed = true;
            return;
        }
        bs_buf_puts(b, " attributes {");
        for (size_t i = 0; i < s->num_attrs; i++) {
            if (i)
                bs_buf_puts(b, pretty ? "," : ", ");
            if (pretty) {
                bs_buf_putc(b, '\n');
                put_indent(b, indent + 1);
            }
            dlti_print_name(b, v[i].name, v[i].name_len);
            if (v[i].value->kind != DLTI_ATTR_UNIT) {
                bs_buf_puts(b, " = ");
                if (pretty)
                    dlti_print_attr_pretty(b, v[i].value, indent + 1);
                else
                    dlti_print_attr(b, v[i].value, false);
            }
        }
        free(v);
        bs_buf_putc(b, '}');
    }
    bs_buf_puts(b, " {\n");
    for (size_t i = 0; i < s->num_children; i++)
        if (!s->children[i]->op_name) /* other ops (and what they hold) are left out */
            print_scope(b, s->children[i], indent + 1, flags);
    put_indent(b, indent);
    bs_buf_puts(b, "}\n");
}

char *dlti_scope_print_flags(const dlti_scope *scope, unsigned flags, size_t *len)
{
    bs_buf b = {0};
    if (scope->bare) {
        if (flags & DLTI_PRINT_PRETTY)
            dlti_print_attr_pretty(&b, scope->attrs[0].value, 0);
        else
            dlti_print_attr(&b, scope->attrs[0].value, false);
        bs_buf_putc(&b, '\n');
    } else {
        print_scope(&b, scope, 0, flags);
        bs_buf_putc(&b, '\n'); /* mlir-opt ends its output with a blank line */
    }
    if (b.failed || !b.data) {
        free(b.data);
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.data;
}

char *dlti_scope_print(const dlti_scope *scope, size_t *len)
{
    return dlti_scope_print_flags(scope, 0, len);
}

int dlti_scope_fprint(const dlti_scope *scope, FILE *out)
{
    size_t len;
    char *s = dlti_scope_print(scope, &len);
    if (!s)
        return -1;
    int rc = fwrite(s, 1, len, out) == len ? 0 : -1;
    free(s);
    return rc;
}
