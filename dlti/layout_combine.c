/* Combining the data layout specs of nested scopes, as MLIR's
 * DataLayoutSpecAttr::combineWith does, with compatibility rules for the
 * builtin types where MLIR 22 has none (it crashes; see docs/layout.md). */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

/* MLIR buckets type entries by C++ type class: all integers share one class,
 * every float format is its own class, and so on. */
typedef struct type_class {
    int kind;           /* DLTI_TYPE_* of the key */
    int sub;            /* float format */
    const char *name;   /* dialect types: "!dialect.name" */
    size_t name_len;
} type_class;

typedef struct class_bucket {
    type_class cls;
    size_t n, cap;
    dlti_entry_rec *entries;
} class_bucket;

typedef struct combiner {
    size_t num_ids, cap_ids;
    dlti_entry_rec *ids;
    size_t num_classes, cap_classes;
    class_bucket *classes;
} combiner;

static type_class class_of(const dlti_type *t)
{
    type_class c = {(int)t->kind, 0, NULL, 0};
    if (t->kind == DLTI_TYPE_FLOAT)
        c.sub = t->float_kind;
    if (t->kind == DLTI_TYPE_DIALECT) {
        const char *lt = strchr(t->text, '<');
        c.name = t->text;
        c.name_len = lt ? (size_t)(lt - t->text) : t->text_len;
    }
    return c;
}

static bool same_class(const type_class *a, const type_class *b)
{
    return a->kind == b->kind && a->sub == b->sub && a->name_len == b->name_len &&
           (a->name_len == 0 || memcmp(a->name, b->name, a->name_len) == 0);
}

static int push_entry(dlti_entry_rec **v, size_t *n, size_t *cap, dlti_entry_rec e)
{
    if (*n == *cap && bs_grow((void **)v, cap, *n + 1, sizeof(**v)) != 0)
        return -1;
    (*v)[(*n)++] = e;
    return 0;
}

/* LLVMPointerType::areCompatible, including its quirks: when the old layout
 * has no entry for the space, the defaults are 64 bits and an alignment of
 * 8 that is compared with the new entry's alignment in bits (the fallback to
 * the default space's entry is computed and discarded upstream). */
static bool ptr_compatible(const class_bucket *old, const dlti_entry_rec *ne)
{
    uint64_t as, size = 64, abi = 8, new_size, new_abi;
    if (!dlti_llvm_ptr_space(ne->key->type, &as))
        return true;
    for (size_t i = 0; i < old->n; i++) {
        uint64_t oas;
        if (dlti_llvm_ptr_space(old->entries[i].key->type, &oas) && oas == as) {
            if (!dlti_dense_u64(old->entries[i].value, 0, &size) ||
                !dlti_dense_u64(old->entries[i].value, 1, &abi))
                return false;
            break;
        }
    }
    if (!dlti_dense_u64(ne->value, 0, &new_size) || !dlti_dense_u64(ne->value, 1, &new_abi))
        return false;
    return size == new_size && new_abi != 0 && abi >= new_abi && abi % new_abi == 0;
}

/* Builtin integer and float entries (MLIR 22 has no rule: it crashes).  We
 * apply the pointer rule to the entry of the same type: the ABI alignment may
 * only be relaxed to a divisor; the preferred alignment is free. */
static bool scalar_compatible(const class_bucket *old, const dlti_entry_rec *ne)
{
    for (size_t i = 0; i < old->n; i++) {
        if (old->entries[i].key != ne->key)
            continue;
        uint64_t abi, new_abi;
        if (!dlti_dense_u64(old->entries[i].value, 0, &abi) ||
            !dlti_dense_u64(ne->value, 0, &new_abi))
            return false;
        return (new_abi == 0 && abi == 0) ||
               (new_abi != 0 && abi >= new_abi && abi % new_abi == 0);
    }
    return true;
}

/* The index bitwidth is what memref lowering computes addresses with: it
 * must not change between nested scopes. */
static bool index_compatible(const class_bucket *old, const dlti_entry_rec *ne)
{
    for (size_t i = 0; i < old->n; i++)
        if (!dlti_attr_equal(old->entries[i].value, ne->value)) {
            int64_t a, b;
            if (dlti_attr_get_int64(old->entries[i].value, &a, NULL) != 0 ||
                dlti_attr_get_int64(ne->value, &b, NULL) != 0 || a != b)
                return false;
        }
    return true;
}

static bool compatible(const class_bucket *old, const dlti_entry_rec *ne)
{
    switch (ne->key->type->kind) {
    case DLTI_TYPE_INDEX:
        return index_compatible(old, ne);
    case DLTI_TYPE_INTEGER:
    case DLTI_TYPE_FLOAT:
        return scalar_compatible(old, ne);
    case DLTI_TYPE_DIALECT:
        return ptr_compatible(old, ne); /* other dialects' rules are unknown: accepted */
    default:
        return true;
    }
}

static class_bucket *find_class(combiner *c, const type_class *cls)
{
    for (size_t i = 0; i < c->num_classes; i++)
        if (same_class(&c->classes[i].cls, cls))
            return &c->classes[i];
    return NULL;
}

static class_bucket *add_class(combiner *c, const type_class *cls)
{
    if (bs_grow((void **)&c->classes, &c->cap_classes, c->num_classes + 1,
                sizeof(*c->classes)) != 0)
        return NULL;
    class_bucket *b = &c->classes[c->num_classes++];
    memset(b, 0, sizeof(*b));
    b->cls = *cls;
    return b;
}

/* combineOneSpec: identifiers first, then type classes.  Returns 1 when the
 * spec does not combine, -1 when out of memory. */
static int combine_one(combiner *c, const dlti_attr *spec)
{
    for (size_t i = 0; i < spec->n; i++) {
        const dlti_entry_rec *e = &spec->u.c.entries[i];
        if (e->key->type)
            continue;
        size_t k = 0;
        while (k < c->num_ids && c->ids[k].key != e->key)
            k++;
        if (k == c->num_ids) {
            if (push_entry(&c->ids, &c->num_ids, &c->cap_ids, *e) != 0)
                return -1;
        } else if (!dlti_attr_equal(c->ids[k].value, e->value)) {
            return 1; /* DataLayoutDialectInterface::defaultCombine: equal only */
        }
    }
    /* Bucket the new type entries so that a class is checked against the old
     * entries only, not against entries of this same spec. */
    combiner fresh = {0};
    int rc = 0;
    for (size_t i = 0; i < spec->n && rc == 0; i++) {
        const dlti_entry_rec *e = &spec->u.c.entries[i];
        if (!e->key->type)
            continue;
        type_class cls = class_of(e->key->type);
        class_bucket *b = find_class(&fresh, &cls);
        if (!b)
            b = add_class(&fresh, &cls);
        if (!b || push_entry(&b->entries, &b->n, &b->cap, *e) != 0)
            rc = -1;
    }
    for (size_t i = 0; i < fresh.num_classes && rc == 0; i++) {
        class_bucket *nb = &fresh.classes[i];
        class_bucket *ob = find_class(c, &nb->cls);
        if (!ob) {
            ob = add_class(c, &nb->cls);
            if (!ob) {
                rc = -1;
                break;
            }
            ob->entries = nb->entries;
            ob->n = nb->n;
            ob->cap = nb->cap;
            nb->entries = NULL;
            continue;
        }
        for (size_t k = 0; k < nb->n && rc == 0; k++)
            if (!compatible(ob, &nb->entries[k]))
                rc = 1;
        /* overwriteDuplicateEntries: same key replaced in place, others appended. */
        size_t old_n = ob->n;
        for (size_t k = 0; k < nb->n && rc == 0; k++) {
            size_t j = 0;
            while (j < old_n && ob->entries[j].key != nb->entries[k].key)
                j++;
            if (j < old_n)
                ob->entries[j] = nb->entries[k];
            else if (push_entry(&ob->entries, &ob->n, &ob->cap, nb->entries[k]) != 0)
                rc = -1;
        }
    }
    for (size_t i = 0; i < fresh.num_classes; i++)
        free(fresh.classes[i].entries);
    free(fresh.classes);
    return rc;
}

static void combiner_free(combiner *c)
{
    for (size_t i = 0; i < c->num_classes; i++)
        free(c->classes[i].entries);
    free(c->classes);
    free(c->ids);
}

/* The ops besides builtin.module that implement DataLayoutOpInterface in
 * mlir-opt-22: gpu.module, and the test dialect's op that mlir-opt's own
 * DLTI tests use.  Their `dlti.dl_spec` is a data layout, combined with
 * the enclosing ones and read by layout queries; on any other op it is
 * verified only (MLIR 22's DataLayout does not read it). */
bool dlti_layout_op(const char *op_name)
{
    return strcmp(op_name, "gpu.module") == 0 || strcmp(op_name, "test.op_with_data_layout") == 0;
}

const dlti_attr *dlti_scope_dl_spec(const dlti_scope *scope, size_t *offset)
{
    if (scope->op_name) {
        if (!dlti_layout_op(scope->op_name))
            return NULL;
        for (size_t i = 0; i < scope->num_attrs; i++)
            if (scope->attrs[i].value->kind == DLTI_ATTR_DL_SPEC &&
                strcmp(scope->attrs[i].name, "dlti.dl_spec") == 0) {
                if (offset)
                    *offset = scope->attrs[i].offset;
                return scope->attrs[i].value;
            }
        return NULL;
    }
    /* ModuleOp::getDataLayoutSpec: the first attribute holding a spec. */
    for (size_t i = 0; i < scope->num_attrs; i++)
        if (scope->attrs[i].value->kind == DLTI_ATTR_DL_SPEC) {
            if (offset)
                *offset = scope->attrs[i].offset;
            return scope->attrs[i].value;
        }
    return NULL;
}

static int copy_spec(dlti_layout *layout, const dlti_attr *spec)
{
    layout->n = spec ? spec->n : 0;
    if (!layout->n)
        return 0;
    layout->entries = malloc(layout->n * sizeof(*layout->entries));
    if (!layout->entries)
        return -1;
    memcpy(layout->entries, spec->u.c.entries, layout->n * sizeof(*layout->entries));
    return 0;
}

int dlti_layout_combine(dlti_layout *layout, const dlti_scope *scope, const dlti_scope **bad,
                        dlti_error_t *err)
{
    *bad = NULL;
    /* collectParentLayouts skips a top-level module without a spec; with no
     * other ancestor, MLIR takes the scope's spec as it is (no regrouping). */
    const dlti_scope *p = scope->parent;
    bool alone = !p || (!p->parent && !dlti_scope_dl_spec(p, NULL));
    if (alone) {
        if (copy_spec(layout, dlti_scope_dl_spec(scope, NULL)) != 0)
            goto nomem;
        return 0;
    }
    size_t depth = 0;
    for (const dlti_scope *s = scope; s; s = s->parent)
        depth++;
    const dlti_scope **chain = malloc(depth * sizeof(*chain));
    if (!chain)
        goto nomem;
    size_t k = depth;
    for (const dlti_scope *s = scope; s; s = s->parent)
        chain[--k] = s;
    combiner c = {0};
    int rc = 0;
    for (size_t i = 0; i < depth && rc == 0; i++) {
        const dlti_attr *spec = dlti_scope_dl_spec(chain[i], NULL);
        if (!spec)
            continue;
        rc = combine_one(&c, spec);
        if (rc > 0)
            *bad = chain[i];
    }
    free(chain);
    if (rc == 0) {
        size_t total = c.num_ids;
        for (size_t i = 0; i < c.num_classes; i++)
            total += c.classes[i].n;
        layout->entries = malloc((total ? total : 1) * sizeof(*layout->entries));
        if (!layout->entries) {
            rc = -1;
        } else {
            if (c.num_ids) /* c.ids is NULL when empty: memcpy(d, NULL, 0) is undefined */
                memcpy(layout->entries, c.ids, c.num_ids * sizeof(*c.ids));
            layout->n = c.num_ids;
            for (size_t i = 0; i < c.num_classes; i++) {
                memcpy(layout->entries + layout->n, c.classes[i].entries,
                       c.classes[i].n * sizeof(*c.classes[i].entries));
                layout->n += c.classes[i].n;
            }
        }
    }
    combiner_free(&c);
    if (rc > 0) {
        size_t at = 0;
        dlti_scope_dl_spec(*bad, &at);
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "data layout does not combine with layouts of enclosing ops");
        if (err)
            err->position = at;
        return -1;
    }
    if (rc < 0)
        goto nomem;
    return 0;
nomem:
    bs_nomem(err);
    return -1;
}
