/* dlti_layout: creation, type queries, scope-wide properties. */
#include "dlti_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name, *key, *fallback;
} props[DLTI_LAYOUT_NUM_PROPS] = {
    {"endianness", "dlti.endianness", "\"\""},
    {"default_memory_space", "dlti.default_memory_space", "0 : ui32"},
    {"alloca_memory_space", "dlti.alloca_memory_space", "0 : ui32"},
    {"program_memory_space", "dlti.program_memory_space", "0 : ui32"},
    {"global_memory_space", "dlti.global_memory_space", "0 : ui32"},
    {"stack_alignment", "dlti.stack_alignment", "0 : index"},
    {"mangling_mode", "dlti.mangling_mode", "\"\""},
    {"function_pointer_alignment", "dlti.function_pointer_alignment",
     "#dlti.function_pointer_alignment<0, function_dependent = false>"},
    {"legal_int_widths", "dlti.legal_int_widths", "array<i32>"},
};

const char *dlti_layout_prop_name(dlti_layout_prop prop)
{
    return (unsigned)prop < DLTI_LAYOUT_NUM_PROPS ? props[prop].name : NULL;
}

const char *dlti_layout_prop_key(dlti_layout_prop prop)
{
    return (unsigned)prop < DLTI_LAYOUT_NUM_PROPS ? props[prop].key : NULL;
}

static int bad_entry(const dlti_entry_rec *e, dlti_error_t *err)
{
    bs_buf b = {0};
    dlti_print_key(&b, e->key);
    bs_error_set(err, DLTI_ERROR_VERIFY, "unusable data layout entry for %s",
                 b.data ? b.data : "?");
    free(b.data);
    return -1;
}

static int cmp_int_entry(const void *a, const void *b)
{
    const dlti_int_entry *x = a, *y = b;
    return x->width < y->width ? -1 : x->width > y->width;
}

/* APInt::getZExtValue of an integer attribute of any width up to 64 bits. */
static bool zext_value(const dlti_attr *v, uint64_t *out)
{
    int64_t x;
    if (!v || v->kind != DLTI_ATTR_INTEGER || dlti_attr_get_int64(v, &x, NULL) != 0)
        return false;
    unsigned w = v->type && v->type->kind == DLTI_TYPE_INTEGER ? v->type->width : 64;
    *out = w >= 64 ? (uint64_t)x : (uint64_t)x & ((UINT64_C(1) << w) - 1);
    return true;
}

int dlti_layout_index_entries(dlti_layout *L, dlti_error_t *err)
{
    size_t ni = 0, np = 0;
    for (size_t i = 0; i < L->n; i++) {
        const dlti_type *t = L->entries[i].key->type;
        uint64_t as;
        ni += t && t->kind == DLTI_TYPE_INTEGER;
        np += t && dlti_llvm_ptr_space(t, &as);
    }
    L->ints = ni ? malloc(ni * sizeof(*L->ints)) : NULL;
    L->ptrs = np ? malloc(np * sizeof(*L->ptrs)) : NULL;
    if ((ni && !L->ints) || (np && !L->ptrs)) {
        bs_nomem(err);
        return -1;
    }
    L->index_bits = 64;
    for (size_t i = 0; i < L->n; i++) {
        const dlti_entry_rec *e = &L->entries[i];
        const dlti_type *t = e->key->type;
        if (!t) {
            for (int p = 0; p < DLTI_LAYOUT_NUM_PROPS; p++)
                if (!L->props[p] && e->key->len == strlen(props[p].key) &&
                    memcmp(e->key->str, props[p].key, e->key->len) == 0)
                    L->props[p] = e->value;
            continue;
        }
        uint64_t as, a, b, c, d;
        size_t len = dlti_dense_len(e->value);
        switch (t->kind) {
        case DLTI_TYPE_INTEGER:
            if (len < 1 || !dlti_dense_u64(e->value, 0, &a) || !dlti_dense_u64(e->value, len - 1, &b))
                return bad_entry(e, err);
            L->ints[L->num_ints++] = (dlti_int_entry){t->width, a, b};
            break;
        case DLTI_TYPE_INDEX:
            if (!L->has_index) {
                if (!zext_value(e->value, &L->index_bits))
                    return bad_entry(e, err);
                L->has_index = true;
            }
            break;
        case DLTI_TYPE_FLOAT:
            if (len < 1)
                return bad_entry(e, err);
            if (t->float_kind >= 0 && t->float_kind < DLTI_FLOAT_KIND_COUNT &&
                !L->floats[t->float_kind])
                L->floats[t->float_kind] = e->value;
            break;
        case DLTI_TYPE_DIALECT:
            /* getStructDataLayoutEntry: the first struct-keyed entry */
            if (!L->llvm_struct && strncmp(t->text, "!llvm.struct<", 13) == 0 && len >= 1)
                L->llvm_struct = e->value;
            if (!dlti_llvm_ptr_space(t, &as))
                break;
            if (len < 3 || !dlti_dense_u64(e->value, 0, &a) || !dlti_dense_u64(e->value, 1, &b) ||
                !dlti_dense_u64(e->value, 2, &c))
                return bad_entry(e, err);
            d = a;
            if (len > 3 && !dlti_dense_u64(e->value, 3, &d))
                return bad_entry(e, err);
            L->ptrs[L->num_ptrs++] = (dlti_ptr_entry){as, a, b, c, d};
            break;
        default:
            break;
        }
    }
    /* std::map::insert keeps the first entry of each width: a stable sort
     * followed by dropping later duplicates does the same. */
    for (size_t i = 1; i < L->num_ints; i++) {
        dlti_int_entry x = L->ints[i];
        size_t j = i;
        while (j > 0 && cmp_int_entry(&L->ints[j - 1], &x) > 0) {
            L->ints[j] = L->ints[j - 1];
            j--;
        }
        L->ints[j] = x;
    }
    size_t k = 0;
    for (size_t i = 0; i < L->num_ints; i++)
        if (k == 0 || L->ints[k - 1].width != L->ints[i].width)
            L->ints[k++] = L->ints[i];
    L->num_ints = k;
    return 0;
}

static dlti_layout *layout_alloc(dlti_error_t *err)
{
    dlti_layout *L = calloc(1, sizeof(*L));
    if (!L) {
        bs_nomem(err);
        return NULL;
    }
    return L;
}

static dlti_layout *finish(dlti_layout *L, dlti_error_t *err)
{
    if (dlti_layout_index_entries(L, err) != 0) {
        dlti_layout_free(L);
        return NULL;
    }
    return L;
}

dlti_layout *dlti_layout_new(const dlti_scope *scope, dlti_error_t *err)
{
    if (!scope) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no scope given");
        return NULL;
    }
    dlti_layout *L = layout_alloc(err);
    const dlti_scope *bad;
    if (!L)
        return NULL;
    if (dlti_layout_combine(L, scope, &bad, err) != 0) {
        dlti_layout_free(L);
        return NULL;
    }
    return finish(L, err);
}

dlti_layout *dlti_layout_from_spec(const dlti_attr *spec, dlti_error_t *err)
{
    if (spec && spec->kind != DLTI_ATTR_DL_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "expected a #dlti.dl_spec, got a %s attribute",
                     dlti_attr_kind_name(spec->kind));
        return NULL;
    }
    dlti_layout *L = layout_alloc(err);
    if (!L)
        return NULL;
    if (spec && spec->n) {
        L->entries = malloc(spec->n * sizeof(*L->entries));
        if (!L->entries) {
            bs_nomem(err);
            dlti_layout_free(L);
            return NULL;
        }
        memcpy(L->entries, spec->u.c.entries, spec->n * sizeof(*L->entries));
        L->n = spec->n;
    }
    return finish(L, err);
}

void dlti_layout_free(dlti_layout *L)
{
    if (!L)
        return;
    free(L->entries);
    free(L->ints);
    free(L->ptrs);
    free(L);
}

size_t dlti_layout_num_entries(const dlti_layout *L)
{
    return L->n;
}

dlti_key dlti_layout_entry_key(const dlti_layout *L, size_t i)
{
    return i < L->n ? L->entries[i].key : NULL;
}

const dlti_attr *dlti_layout_entry_value(const dlti_layout *L, size_t i)
{
    return i < L->n ? L->entries[i].value : NULL;
}

/* ---- type queries ---- */

int dlti_layout_query(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out,
                      dlti_error_t *err)
{
    if (!L || !t || !out) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no layout, type or result given");
        return -1;
    }
    return dlti_layout_compute(L, t, out, err);
}

#define ONE_FIELD(fn, field)                                                                  \
    int fn(const dlti_layout *L, const dlti_type *t, uint64_t *v, dlti_error_t *err)          \
    {                                                                                         \
        dlti_type_layout r;                                                                   \
        if (dlti_layout_query(L, t, &r, err) != 0)                                            \
            return -1;                                                                        \
        *v = r.field;                                                                         \
        return 0;                                                                             \
    }

ONE_FIELD(dlti_layout_type_size, size)
ONE_FIELD(dlti_layout_type_bitsize, bitsize)
ONE_FIELD(dlti_layout_abi_alignment, abi_alignment)
ONE_FIELD(dlti_layout_preferred_alignment, preferred_alignment)
ONE_FIELD(dlti_layout_index_bitwidth, index_bitwidth)

/* ---- scope-wide properties ---- */

const dlti_attr *dlti_layout_prop_value(const dlti_layout *L, dlti_layout_prop prop)
{
    return (unsigned)prop < DLTI_LAYOUT_NUM_PROPS ? L->props[prop] : NULL;
}

int dlti_layout_stack_alignment(const dlti_layout *L, uint64_t *bits, dlti_error_t *err)
{
    const dlti_attr *v = L->props[DLTI_LAYOUT_STACK_ALIGNMENT];
    *bits = 0;
    if (v && !zext_value(v, bits)) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "'dlti.stack_alignment' data layout entry is expected to be an integer");
        return -1;
    }
    return 0;
}

bool dlti_layout_is_big_endian(const dlti_layout *L)
{
    const dlti_attr *v = L->props[DLTI_LAYOUT_ENDIANNESS];
    return v && v->kind == DLTI_ATTR_STRING && v->u.str.len == 3 &&
           memcmp(v->u.str.s, "big", 3) == 0;
}

char *dlti_layout_prop_print(const dlti_layout *L, dlti_layout_prop prop, dlti_error_t *err)
{
    if ((unsigned)prop >= DLTI_LAYOUT_NUM_PROPS) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "unknown data layout property %d", (int)prop);
        return NULL;
    }
    bs_buf b = {0};
    const dlti_attr *v = L->props[prop];
    if (prop == DLTI_LAYOUT_STACK_ALIGNMENT) {
        uint64_t bits;
        if (dlti_layout_stack_alignment(L, &bits, err) != 0)
            return NULL;
        bs_buf_printf(&b, "%llu : index", (unsigned long long)bits);
    } else if (v) {
        dlti_print_attr(&b, v, false);
    } else {
        bs_buf_puts(&b, props[prop].fallback);
    }
    if (b.failed || !b.data) {
        free(b.data);
        bs_nomem(err);
        return NULL;
    }
    return b.data;
}

/* ---- verification of a whole tree ---- */

static void add_notes(dlti_error_t *err, const dlti_scope *bad, const char *source,
                      const char *text, size_t len)
{
    for (const dlti_scope *p = bad->parent; p; p = p->parent) {
        /* collectParentLayouts: a top-level module without a spec is skipped. */
        if ((!p->parent || p->op_name) && !dlti_scope_dl_spec(p, NULL))
            continue;
        dlti_error_t where;
        bs_error_locate(&where, source, text, len, p->offset);
        size_t used = strlen(err->text);
        snprintf(err->text + used, sizeof(err->text) - used,
                 "\n%s:%d:%d: note: enclosing op with data layout", source ? source : "",
                 where.line, where.column);
    }
}

static int verify_scope(const dlti_scope *s, const char *source, const char *text, size_t len,
                        dlti_error_t *err)
{
    if (dlti_scope_dl_spec(s, NULL)) {
        dlti_layout *L = layout_alloc(err);
        const dlti_scope *bad = NULL;
        if (!L)
            return -1;
        int rc = dlti_layout_combine(L, s, &bad, err);
        dlti_layout_free(L);
        if (rc != 0) {
            if (bad && text) {
                /* MLIR locates the diagnostic at the op holding the spec. */
                bs_error_locate(err, source, text, len, bad->offset);
                add_notes(err, bad, source, text, len);
            }
            return -1;
        }
    }
    for (size_t i = 0; i < s->num_children; i++)
        if (verify_scope(s->children[i], source, text, len, err) != 0)
            return -1;
    return 0;
}

int dlti_layout_verify_tree(const dlti_scope *root, const char *source, const char *text,
                            size_t len, dlti_error_t *err)
{
    dlti_error_t local;
    if (!err)
        err = &local;
    if (!root) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no scope given");
        return -1;
    }
    return verify_scope(root, source, text, len, err);
}
