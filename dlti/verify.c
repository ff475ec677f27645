/* Data layout spec entries, checked as MLIR's data layout interfaces check them. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

static const char *const known_ids[] = {
    "dlti.endianness",          "dlti.default_memory_space", "dlti.alloca_memory_space",
    "dlti.program_memory_space", "dlti.global_memory_space", "dlti.stack_alignment",
    "dlti.mangling_mode",       "dlti.function_pointer_alignment", "dlti.legal_int_widths",
};

static bool key_is(dlti_key k, const char *s)
{
    return !k->type && k->len == strlen(s) && memcmp(k->str, s, k->len) == 0;
}

/* "#dlti.dl_entry<key, value>" as MLIR's messages print an entry. */
static char *entry_text(const dlti_entry_rec *e)
{
    bs_buf b = {0};
    bs_buf_puts(&b, "#dlti.dl_entry<");
    dlti_print_key(&b, e->key);
    bs_buf_puts(&b, ", ");
    dlti_print_attr(&b, e->value, false);
    bs_buf_putc(&b, '>');
    return b.data;
}

static int fail_entry(dlti_error_t *err, const char *fmt, const dlti_entry_rec *e)
{
    char *t = entry_text(e);
    bs_error_set(err, DLTI_ERROR_VERIFY, fmt, t ? t : "#dlti.dl_entry<...>");
    free(t);
    return -1;
}

/* Integer and float entries: dense<[abi(, preferred)]> : vector<Nxi64>. */
static int check_int_float_entry(const dlti_entry_rec *e, dlti_error_t *err)
{
    const dlti_attr *v = e->value;
    const dlti_type *t = v->type;
    if (v->kind != DLTI_ATTR_DENSE || !t->elem || t->elem->kind != DLTI_TYPE_INTEGER ||
        t->elem->width != 64 || t->elem->sign != DLTI_SIGNLESS)
        return fail_entry(err, "expected a dense i64 elements attribute in the data layout entry %s", e);
    size_t n = dlti_dense_num_elements(t);
    if (n != 1 && n != 2)
        return fail_entry(err, "expected 1 or 2 elements in the data layout entry %s", e);
    int64_t abi, pref;
    if (dlti_attr_dense_int64(v, 0, &abi, NULL) != 0 ||
        dlti_attr_dense_int64(v, n - 1, &pref, NULL) != 0)
        return fail_entry(err, "expected a dense i64 elements attribute in the data layout entry %s", e);
    if (pref < abi)
        return fail_entry(err,
                          "preferred alignment is expected to be greater than or equal to the abi "
                          "alignment in data layout entry %s",
                          e);
    return 0;
}

static bool text_is(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* The number of elements of a dense integer value; 0 for any other value. */
static size_t dense_ints(const dlti_attr *v)
{
    return v->kind == DLTI_ATTR_DENSE && v->type->elem->kind == DLTI_TYPE_INTEGER
               ? dlti_dense_num_elements(v->type)
               : 0;
}

/* The LLVM types' last check: element `abi` of `v` not above `pref`. */
static int check_pref_not_below_abi(const dlti_attr *v, size_t abi_at, size_t pref_at,
                                    dlti_error_t *err)
{
    int64_t abi, pref;
    if (dlti_attr_dense_int64(v, abi_at, &abi, NULL) == 0 &&
        dlti_attr_dense_int64(v, pref_at, &pref, NULL) == 0 && (uint64_t)abi > (uint64_t)pref) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "preferred alignment is expected to be at least as large as ABI alignment");
        return -1;
    }
    return 0;
}

/* LLVMPointerType::verifyEntries, in its order. */
static int check_llvm_ptr_entry(const dlti_type *t, const dlti_attr *v, dlti_error_t *err)
{
    size_t n = dense_ints(v);
    if (n != 3 && n != 4) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "expected layout attribute for '%s' to be a dense integer elements "
                     "attribute with 3 or 4 elements",
                     t->text);
        return -1;
    }
    if (v->type->elem->width != 64) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "expected i64 parameters for '%s'", t->text);
        return -1;
    }
    return check_pref_not_below_abi(v, 1, 2, err);
}

/* Whether a dialect type's text is `!llvm.struct<()>`, blanks aside: the
 * one struct type a layout entry may name (LLVMStructType::verifyEntries). */
static bool is_empty_literal_struct(const char *text)
{
    static const char want[] = "!llvm.struct<()>";
    size_t k = 0;
    for (const char *c = text; *c; c++) {
        if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
            continue;
        if (k >= sizeof(want) - 1 || *c != want[k++])
            return false;
    }
    return k == sizeof(want) - 1;
}

/* LLVMStructType::verifyEntries, in its order: the value's shape, its
 * element type, the key, then the alignments. */
static int check_llvm_struct_entry(const dlti_type *t, const dlti_attr *v, dlti_error_t *err)
{
    size_t n = dense_ints(v);
    if (n != 1 && n != 2) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "expected layout attribute for '%s' to be a dense integer elements "
                     "attribute of 1 or 2 elements",
                     t->text);
        return -1;
    }
    if (v->type->elem->width != 64 || v->type->elem->sign != DLTI_SIGNLESS) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "expected i64 entries for '%s'", t->text);
        return -1;
    }
    if (!is_empty_literal_struct(t->text)) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "unexpected layout attribute for struct '%s'",
                     t->text);
        return -1;
    }
    return check_pref_not_below_abi(v, 0, n - 1, err);
}

static int check_dialect_type_entry(const dlti_entry_rec *e, dlti_error_t *err)
{
    const dlti_type *t = e->key->type;
    const dlti_attr *v = e->value;
    if (text_is(t->text, "!llvm.ptr"))
        return check_llvm_ptr_entry(t, v, err);
    if (text_is(t->text, "!llvm.struct<"))
        return check_llvm_struct_entry(t, v, err);
    if (text_is(t->text, "!llvm.array<"))
        return 0;
    if (text_is(t->text, "!ptr.ptr")) {
        if (v->kind == DLTI_ATTR_OPAQUE && text_is(v->u.str.s, "#ptr.spec<"))
            return 0;
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "expected layout attribute for '%s' to be a #ptr.spec attribute", t->text);
        return -1;
    }
    bs_error_set(err, DLTI_ERROR_VERIFY,
                 "data layout specified for a type that does not support it");
    return -1;
}

static int check_type_entry(const dlti_entry_rec *e, dlti_error_t *err)
{
    const dlti_type *t = e->key->type;
    switch (t->kind) {
    case DLTI_TYPE_INDEX:
        if (e->value->kind != DLTI_ATTR_INTEGER) {
            bs_error_set(err, DLTI_ERROR_VERIFY,
                         "expected integer attribute in the data layout entry for 'index'");
            return -1;
        }
        return 0;
    case DLTI_TYPE_INTEGER:
    case DLTI_TYPE_FLOAT:
        return check_int_float_entry(e, err);
    case DLTI_TYPE_DIALECT:
        return check_dialect_type_entry(e, err);
    default:
        bs_error_set(err, DLTI_ERROR_VERIFY, "unexpected data layout for a built-in type");
        return -1;
    }
}

/* An identifier entry: its dialect's rule, then DLTI's own entries. */
static int check_id_entry(const dlti_entry_rec *e, uint64_t loaded, dlti_error_t *err)
{
    const char *owner = dlti_dialect_refusing_ids(loaded, e->key->str, e->key->len);
    if (owner) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "the '%s' dialect does not support identifier data layout entries", owner);
        return -1;
    }
    if (e->key->len < 5 || memcmp(e->key->str, "dlti.", 5) != 0)
        return 0; /* a dialect not loaded: MLIR cannot ask it */
    bool known = false;
    for (size_t k = 0; k < sizeof(known_ids) / sizeof(known_ids[0]); k++)
        known = known || key_is(e->key, known_ids[k]);
    if (!known) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "unknown data layout entry name: %s", e->key->str);
        return -1;
    }
    if (key_is(e->key, "dlti.endianness")) {
        const dlti_attr *v = e->value;
        bool ok = v->kind == DLTI_ATTR_STRING &&
                  ((v->u.str.len == 3 && memcmp(v->u.str.s, "big", 3) == 0) ||
                   (v->u.str.len == 6 && memcmp(v->u.str.s, "little", 6) == 0));
        if (!ok) {
            bs_error_set(err, DLTI_ERROR_VERIFY,
                         "'dlti.endianness' data layout entry is expected to be either "
                         "'big' or 'little'");
            return -1;
        }
    }
    return 0;
}

int dlti_dl_spec_check_loaded(const dlti_attr *spec, uint64_t loaded, dlti_error_t *err)
{
    loaded |= dlti_dialects_loaded("", 0); /* builtin and DLTI: always */
    /* MLIR's order: the type entries, then the identifiers. */
    for (size_t i = 0; i < spec->n; i++) {
        const dlti_entry_rec *e = &spec->u.c.entries[i];
        if (e->key->type && check_type_entry(e, err) != 0)
            return -1;
    }
    for (size_t i = 0; i < spec->n; i++) {
        const dlti_entry_rec *e = &spec->u.c.entries[i];
        if (!e->key->type && check_id_entry(e, loaded, err) != 0)
            return -1;
    }
    return 0;
}

int dlti_dl_spec_check(const dlti_attr *spec, dlti_error_t *err)
{
    /* Outside a file, only the dialects every context loads. */
    return dlti_dl_spec_check_loaded(spec, 0, err);
}
