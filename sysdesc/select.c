/* Which op of a parsed MLIR file a description is loaded from
 * (sysdesc_yaml_options.scope, SYSDESC_LOAD_LENIENT; docs/checks.md,
 * "Lenient transforms").
 *
 * MLIR's users put their DLTI where their passes read it: a system spec on
 * the top module (MLIR's own tests), on a `func.func` (tpp-mlir), a
 * `#dlti.map` under a name of their own (`mpi.dlti`), a data layout alone,
 * arrays of device specs.  A strict load takes the top module's system spec
 * only; a lenient one finds the op that holds one, or else the op that
 * holds other DLTI, and says where it found it.  Two candidates are never
 * guessed between: the error names each with the --scope that chooses it. */
#include "sysdesc_private.h"

#include <stdio.h>
#include <string.h>

/* Ops named in the error that lists candidates; the rest are counted. */
#define LISTED 4

bool sysdesc_is_dlti_value(const dlti_attr *value)
{
    if (!value)
        return false;
    if (dlti_attr_is_container(dlti_attr_get_kind(value)))
        return true;
    /* arrays of device specs (and arrays of those): the core bounds the
     * nesting, so this recursion is bounded too */
    if (dlti_attr_get_kind(value) != DLTI_ATTR_ARRAY)
        return false;
    for (size_t i = 0; i < dlti_attr_size(value); i++)
        if (sysdesc_is_dlti_value(dlti_attr_element(value, i)))
            return true;
    return false;
}

const char *sd_dlti_name_misfit(const char *name, const dlti_attr *value)
{
    static const struct {
        const char *name;
        dlti_attr_kind kind;
    } fits[] = {{"dlti.map", DLTI_ATTR_MAP},
                {"dlti.dl_spec", DLTI_ATTR_DL_SPEC},
                {"dlti.target_system_spec", DLTI_ATTR_SYSTEM_SPEC}};
    if (strncmp(name, "dlti.", 5) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof(fits) / sizeof(fits[0]); i++)
        if (strcmp(name, fits[i].name) == 0)
            return dlti_attr_get_kind(value) == fits[i].kind ? NULL : name;
    return name;
}

/* The index of the scope's first system spec attribute, or SIZE_MAX. */
static size_t spec_index(const dlti_scope *s)
{
    for (size_t i = 0; i < dlti_scope_num_attrs(s); i++)
        if (dlti_attr_get_kind(dlti_scope_attr_value(s, i)) == DLTI_ATTR_SYSTEM_SPEC)
            return i;
    return SIZE_MAX;
}

/* The index of the scope's first DLTI attribute, or SIZE_MAX. */
static size_t dlti_index(const dlti_scope *s)
{
    for (size_t i = 0; i < dlti_scope_num_attrs(s); i++)
        if (sysdesc_is_dlti_value(dlti_scope_attr_value(s, i)))
            return i;
    return SIZE_MAX;
}

typedef struct found {
    size_t (*holds)(const dlti_scope *); /* spec_index or dlti_index */
    size_t count;
    const dlti_scope *first[LISTED];
} found;

/* Every scope below `s` (itself included) that holds what `f` looks for,
 * in the text's order. */
static void collect(const dlti_scope *s, found *f)
{
    if (f->holds(s) != SIZE_MAX) {
        if (f->count < LISTED)
            f->first[f->count] = s;
        f->count++;
    }
    for (size_t i = 0; i < dlti_scope_num_children(s); i++)
        collect(dlti_scope_child(s, i), f);
}

/* The --scope path of `s`: its named ancestors' symbols below the top
 * module, '/'-separated (unnamed ops are looked through, as
 * dlti_scope_find() does); "" for the top module. */
static void scope_path(const dlti_scope *s, char *out, size_t size)
{
    const char *names[64];
    size_t n = 0;
    for (const dlti_scope *p = s; p && dlti_scope_parent(p) && n < 64; p = dlti_scope_parent(p))
        if (dlti_scope_name(p))
            names[n++] = dlti_scope_name(p);
    size_t used = 0;
    out[0] = '\0';
    while (n-- > 0 && used + 1 < size) {
        int w = snprintf(out + used, size - used, "%s%s", used ? "/" : "", names[n]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* "--scope kernels/k", or why no --scope names `s`. */
static void scope_option(const dlti_scope *s, char *out, size_t size)
{
    char path[256];
    scope_path(s, path, sizeof(path));
    if (!dlti_scope_parent(s))
        snprintf(out, size, "--scope /");
    else if (!dlti_scope_name(s))
        snprintf(out, size, "no --scope names it: it has no symbol");
    else
        snprintf(out, size, "--scope %s", path);
}

/* "func.func @entry", "module @inner", "the top module". */
static void op_text(const dlti_scope *s, char *out, size_t size)
{
    const char *op = dlti_scope_op_name(s), *name = dlti_scope_name(s);
    if (!dlti_scope_parent(s))
        snprintf(out, size, "the top module");
    else
        snprintf(out, size, "%s%s%.200s", op ? op : "module", name ? " @" : "", name ? name : "");
}

/* The line of scope `s` in the text (its first attribute that `holds`). */
static int line_of(const dlti_scope *s, size_t at, const char *text, size_t len)
{
    size_t start, end;
    dlti_scope_source src;
    size_t offset = dlti_scope_attr_source(s, at, &start, &end) == 0 ? start
                    : dlti_scope_get_source(s, &src) == 0          ? src.op
                                                                   : 0;
    dlti_error_t where;
    bs_error_clear(&where);
    bs_error_locate(&where, NULL, text, len, offset < len ? offset : len);
    return where.line;
}

/* "func.func @a (line 2, --scope a), func.func @b (line 5, --scope b)" */
static void list_text(const found *f, const char *text, size_t len, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < f->count && i < LISTED && used + 1 < size; i++) {
        char op[256], option[300];
        op_text(f->first[i], op, sizeof(op));
        scope_option(f->first[i], option, sizeof(option));
        int w = snprintf(out + used, size - used, "%s%s (line %d, %s)", i ? ", " : "", op,
                         line_of(f->first[i], f->holds(f->first[i]), text, len), option);
        if (w < 0)
            break;
        used += (size_t)w < size - used ? (size_t)w : size - used - 1;
    }
    if (f->count > LISTED && used + 1 < size)
        snprintf(out + used, size - used, " and %zu more", f->count - LISTED);
}

/* What a load of `at` holds: its system spec (or none), the data layout in
 * force there (its own `dlti.dl_spec`, else the nearest around it: the one
 * MLIR's DataLayout of the op uses), the nearest llvm.target. */
static void take(const dlti_scope *at, sysdesc_system *sys)
{
    size_t i = spec_index(at);
    *sys = (sysdesc_system){.module = at,
                            .spec = i != SIZE_MAX ? dlti_scope_attr_value(at, i) : NULL};
    for (const dlti_scope *s = at; s && (!sys->dl_spec || !sys->llvm_target);
         s = dlti_scope_parent(s)) {
        for (size_t k = 0; k < dlti_scope_num_attrs(s); k++) {
            const char *name = dlti_scope_attr_name(s, k);
            const dlti_attr *v = dlti_scope_attr_value(s, k);
            /* The data layout is a dlti.dl_spec only: MLIR verifies its
             * entries under that name (a "dlti.*" entry must be one it
             * knows), so a #dlti.dl_spec held under another name is not it
             * and printed as it would no longer read. */
            if (!sys->dl_spec && dlti_attr_get_kind(v) == DLTI_ATTR_DL_SPEC &&
                strcmp(name, "dlti.dl_spec") == 0)
                sys->dl_spec = v;
            else if (!sys->llvm_target && strcmp(name, "llvm.target") == 0)
                sys->llvm_target = v; /* kept and printed back (mlir_emit.c) */
        }
    }
}

/* Tells opts->warn where the description was found. */
static void tell(const sysdesc_yaml_options *opts, const dlti_scope *at, size_t index,
                 const char *what, const char *text, size_t len, const char *path)
{
    if (!opts || !opts->warn)
        return;
    char op[256], option[300];
    op_text(at, op, sizeof(op));
    scope_option(at, option, sizeof(option));
    dlti_error_t e;
    bs_error_set(&e, DLTI_ERROR_NOT_FOUND, "%s on %s (%s), not on the top module: loaded from there",
                 what, op, option);
    size_t start, end;
    if (dlti_scope_attr_source(at, index, &start, &end) == 0)
        bs_error_locate(&e, path, text, len, start);
    else
        bs_error_place(&e, path, 0, 0);
    opts->warn(opts->warn_user, &e);
}

size_t sd_spec_offset(const sysdesc_system *sys)
{
    size_t start, end;
    for (size_t i = 0; sys && sys->module && sys->spec && i < dlti_scope_num_attrs(sys->module); i++)
        if (dlti_scope_attr_value(sys->module, i) == sys->spec)
            return dlti_scope_attr_source(sys->module, i, &start, &end) == 0 ? start : 0;
    return 0;
}

int sd_mlir_select(const dlti_scope *root, const char *text, size_t len, const char *path,
                   const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    unsigned flags = opts ? opts->flags : 0;
    bool lenient = flags & SYSDESC_LOAD_LENIENT;
    const char *scope = opts ? opts->scope : NULL;
    if (scope) {
        const dlti_scope *at =
            *scope == '\0' || strcmp(scope, "/") == 0 ? root : dlti_scope_find(root, scope, err);
        if (!at) {
            bs_error_place(err, path, 0, 0);
            return -1;
        }
        take(at, out);
        if (out->spec || (lenient && dlti_index(at) != SIZE_MAX) ||
            (flags & SYSDESC_LOAD_ANY_MODULE))
            return 0;
        char op[256];
        op_text(at, op, sizeof(op));
        bs_error_set_at(err, DLTI_ERROR_NOT_FOUND, path, 0, 0, "no #dlti.target_system_spec%s on %s",
                        lenient ? " nor other DLTI attribute" : "", op);
        return -1;
    }
    take(root, out);
    if (out->spec || (flags & SYSDESC_LOAD_ANY_MODULE))
        return 0;
    if (!lenient) {
        bs_error_set_at(err, DLTI_ERROR_NOT_FOUND, path, 0, 0,
                        "no #dlti.target_system_spec on the top module");
        return -1;
    }
    char list[1400];
    found specs = {.holds = spec_index};
    collect(root, &specs);
    if (specs.count == 1) {
        take(specs.first[0], out);
        tell(opts, specs.first[0], spec_index(specs.first[0]), "the #dlti.target_system_spec is",
             text, len, path);
        return 0;
    }
    if (specs.count > 1) {
        list_text(&specs, text, len, list, sizeof(list));
        bs_error_set_at(err, DLTI_ERROR_NOT_FOUND, path, 0, 0,
                        "no #dlti.target_system_spec on the top module, and %zu ops hold one: "
                        "%s; choose one with --scope",
                        specs.count, list);
        return -1;
    }
    /* No system spec anywhere: the DLTI there is, where it is. */
    found other = {.holds = dlti_index};
    collect(root, &other);
    if (other.count == 1) {
        take(other.first[0], out);
        if (other.first[0] != root)
            tell(opts, other.first[0], dlti_index(other.first[0]), "the DLTI attributes are", text,
                 len, path);
        return 0;
    }
    if (other.count > 1) {
        list_text(&other, text, len, list, sizeof(list));
        bs_error_set_at(err, DLTI_ERROR_NOT_FOUND, path, 0, 0,
                        "no #dlti.target_system_spec in the file, and %zu ops hold other DLTI "
                        "attributes: %s; choose one with --scope",
                        other.count, list);
        return -1;
    }
    bs_error_set_at(err, DLTI_ERROR_NOT_FOUND, path, 0, 0,
                    "no #dlti.target_system_spec nor other DLTI attribute in the file");
    return -1;
}
