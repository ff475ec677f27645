/* DLTI that is no system spec, in the formats that hold it (print.h,
 * sysdesc_system_print_checked() of a system whose `spec` is NULL): what a
 * lenient load (SYSDESC_LOAD_LENIENT) takes of a file whose DLTI is a
 * #dlti.map under a name of its own (`mpi.dlti`), a data layout alone or
 * arrays of device specs.
 *
 * MLIR holds it as it is: a module with those attributes, or the one
 * attribute bare.  Plain JSON shows it (attribute name -> value).  YAML and
 * typed JSON are descriptions of systems, read back as system specs: they
 * refuse it, saying which formats hold it, rather than print what would
 * read back as something else. */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdlib.h>
#include <string.h>

/* The attributes printed: the op's DLTI, the data layout in force there
 * when the op has none of its own, its llvm.target (MLIR only); in name
 * order, as MLIR prints a dictionary. */
typedef struct attrs {
    const char **names;
    const dlti_attr **values;
    size_t n;
    size_t num_dlti; /* without llvm.target */
} attrs;

static void add(attrs *a, const char *name, const dlti_attr *value, bool dlti)
{
    size_t i = a->n++;
    /* insertion into name order: a handful of attributes */
    while (i > 0 && strcmp(a->names[i - 1], name) > 0) {
        a->names[i] = a->names[i - 1];
        a->values[i] = a->values[i - 1];
        i--;
    }
    a->names[i] = name;
    a->values[i] = value;
    a->num_dlti += dlti;
}

static int gather(const sysdesc_system *sys, bool mlir, attrs *a, dlti_error_t *err)
{
    size_t n = sys->module ? dlti_scope_num_attrs(sys->module) : 0;
    a->names = malloc((n + 2) * sizeof(*a->names));
    a->values = malloc((n + 2) * sizeof(*a->values));
    a->n = a->num_dlti = 0;
    if (!a->names || !a->values) {
        bs_nomem(err);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const dlti_attr *v = dlti_scope_attr_value(sys->module, i);
        if (sysdesc_is_dlti_value(v))
            add(a, dlti_scope_attr_name(sys->module, i), v, true);
    }
    /* the layout in force at an op that has none: its module's */
    if (sys->dl_spec && !dlti_scope_get_attr(sys->module, "dlti.dl_spec"))
        add(a, "dlti.dl_spec", sys->dl_spec, true);
    if (mlir && sys->llvm_target)
        add(a, "llvm.target", sys->llvm_target, false);
    if (a->num_dlti == 0) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "no #dlti.target_system_spec and no other DLTI attribute to print");
        return -1;
    }
    return 0;
}

/* A bare attribute that no module attribute name holds (a device spec or an
 * array read alone): no module is printed that MLIR would not read. */
static bool misfit(const attrs *a, dlti_error_t *err)
{
    for (size_t i = 0; i < a->n; i++) {
        if (sd_dlti_name_misfit(a->names[i], a->values[i])) {
            bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                         "the attribute alone has no name a module holds it under ('%s' holds "
                         "its own kind): --format attr prints it as it is",
                         a->names[i]);
            return true;
        }
    }
    return false;
}

static char *print_json(const attrs *a, size_t *len, dlti_error_t *err)
{
    bs_buf b = {0};
    bs_buf_puts(&b, "{");
    for (size_t i = 0; i < a->n; i++) {
        if (sd_value_json_check(a->values[i], a->names[i], err) != 0) {
            free(b.data);
            return NULL;
        }
        bs_buf_puts(&b, i ? ",\n  " : "\n  ");
        sd_json_put_named(&b, a->names[i], a->values[i], 2);
    }
    bs_buf_puts(&b, "\n}\n");
    char *text = sd_buf_finish(&b, len);
    if (!text)
        bs_nomem(err);
    return text;
}

char *sd_dlti_print(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                    size_t *len, dlti_error_t *err)
{
    bool mlir = format == SYSDESC_FORMAT_MLIR || format == SYSDESC_FORMAT_ATTR;
    if (format == SYSDESC_FORMAT_YAML ||
        (format == SYSDESC_FORMAT_JSON && (flags & SYSDESC_PRINT_TYPED))) {
        bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                     "%s describes a system (a #dlti.target_system_spec) and this DLTI is none: "
                     "--format mlir or attr holds it as it is, plain json shows it",
                     format == SYSDESC_FORMAT_YAML ? "YAML" : "typed JSON");
        return NULL;
    }
    attrs a;
    char *text = NULL;
    if (gather(sys, mlir, &a, err) == 0) {
        unsigned f = (flags & SYSDESC_PRINT_PRETTY ? DLTI_PRINT_PRETTY : 0) |
                     (flags & SYSDESC_PRINT_INHERENT ? DLTI_PRINT_INHERENT : 0);
        if (format == SYSDESC_FORMAT_JSON) {
            text = print_json(&a, len, err);
        } else if (format == SYSDESC_FORMAT_ATTR && a.num_dlti != 1) {
            bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                         "--format attr prints one attribute and the module holds %zu DLTI "
                         "attributes: --format mlir prints them all",
                         a.num_dlti);
        } else if (format == SYSDESC_FORMAT_ATTR) {
            size_t i = 0;
            while (!sysdesc_is_dlti_value(a.values[i])) /* past llvm.target */
                i++;
            text = dlti_attrs_print(&a.names[i], &a.values[i], 1, true, f, len);
            if (!text)
                bs_nomem(err);
        } else if (format == SYSDESC_FORMAT_MLIR && misfit(&a, err)) {
            /* the error says why */
        } else if (format == SYSDESC_FORMAT_MLIR) {
            text = dlti_attrs_print(a.names, a.values, a.n, false, f, len);
            if (!text)
                bs_nomem(err);
        } else {
            bs_error_set(err, DLTI_ERROR_ARGUMENT, "not a sysdesc_format: %d", (int)format);
        }
    }
    free(a.names);
    free(a.values);
    return text;
}
