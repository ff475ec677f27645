/* #dlti.dl_spec -> LLVM data layout string, written token for token as
 * mlir-translate-22 writes it (ModuleTranslation's translateDataLayout):
 * identifier tokens in spec order, then type tokens in spec order.  Every
 * entry the importer can produce maps back to the token it came from, so
 * import(export(import(s))) == import(s). */
#include "dlti_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool key_is(dlti_key k, const char *s)
{
    return !k->type && k->len == strlen(s) && memcmp(k->str, s, k->len) == 0;
}

static int unsupported(const dlti_entry_rec *e, const char *why, dlti_error_t *err)
{
    bs_buf b = {0};
    dlti_print_key(&b, e->key);
    bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                 "data layout entry for %s cannot be written as an LLVM data layout token: %s",
                 b.data ? b.data : "?", why);
    free(b.data);
    return -1;
}

/* mlir-translate-22's own words where it refuses an entry. */
static int refuse(const char *fmt, const dlti_entry_rec *e, dlti_error_t *err)
{
    bs_buf b = {0};
    dlti_print_key(&b, e->key);
    bs_error_set(err, DLTI_ERROR_UNSUPPORTED, fmt, b.data ? b.data : "?");
    free(b.data);
    return -1;
}

static int uint_value(const dlti_attr *v, uint64_t *out)
{
    int64_t x;
    if (!v || v->kind != DLTI_ATTR_INTEGER || dlti_attr_get_int64(v, &x, NULL) != 0 || x < 0)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

static int id_token(bs_buf *b, const dlti_entry_rec *e, dlti_error_t *err)
{
    const dlti_attr *v = e->value;
    uint64_t n;
    if (key_is(e->key, "dlti.endianness")) {
        bool big = v->kind == DLTI_ATTR_STRING && v->u.str.len == 3 && !memcmp(v->u.str.s, "big", 3);
        bool little = v->kind == DLTI_ATTR_STRING && v->u.str.len == 6 &&
                      !memcmp(v->u.str.s, "little", 6);
        if (!big && !little)
            return unsupported(e, "expected \"big\" or \"little\"", err);
        bs_buf_puts(b, big ? "E" : "e");
        return 0;
    }
    if (key_is(e->key, "dlti.mangling_mode")) {
        if (v->kind != DLTI_ATTR_STRING || v->u.str.len != 1 || !strchr("elowmxa", v->u.str.s[0]))
            return unsupported(e, "expected one of \"e\", \"l\", \"o\", \"w\", \"m\", \"x\", \"a\"", err);
        bs_buf_printf(b, "m:%c", v->u.str.s[0]);
        return 0;
    }
    static const struct {
        const char *key;
        char c;
    } spaces[] = {{"dlti.program_memory_space", 'P'},
                  {"dlti.global_memory_space", 'G'},
                  {"dlti.alloca_memory_space", 'A'},
                  {"dlti.stack_alignment", 'S'}};
    for (size_t i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++) {
        if (!key_is(e->key, spaces[i].key))
            continue;
        if (uint_value(v, &n) != 0)
            return unsupported(e, "expected a non-negative integer", err);
        if (n != 0) /* 0 is LLVM's default: mlir-translate-22 writes no token */
            bs_buf_printf(b, "%c%llu", spaces[i].c, (unsigned long long)n);
        return 0;
    }
    if (key_is(e->key, "dlti.legal_int_widths")) {
        if (v->kind != DLTI_ATTR_DENSE_ARRAY || v->n == 0 || !v->u.ints)
            return unsupported(e, "expected a non-empty array<i32: ...>", err);
        bs_buf_putc(b, 'n');
        for (size_t i = 0; i < v->n; i++)
            bs_buf_printf(b, "%s%lld", i ? ":" : "", (long long)v->u.ints[i]);
        return 0;
    }
    if (key_is(e->key, "dlti.function_pointer_alignment")) {
        /* #dlti.function_pointer_alignment<N, function_dependent = B> */
        char *text = dlti_attr_print(v, NULL);
        unsigned long long a;
        char dep[8] = "";
        int ok = text && sscanf(text, "#dlti.function_pointer_alignment<%llu, function_dependent = %5[a-z]>",
                                &a, dep) == 2;
        free(text);
        if (!ok)
            return unsupported(e, "expected #dlti.function_pointer_alignment<N, function_dependent = B>", err);
        if (a != 0) /* no function pointer alignment: no token, as above */
            bs_buf_printf(b, "F%c%llu", strcmp(dep, "true") == 0 ? 'n' : 'i', a);
        return 0;
    }
    /* No LLVM token sets it: mlir-translate-22's words. */
    bs_buf k = {0};
    dlti_print_key(&k, e->key);
    bs_error_set(err, DLTI_ERROR_UNSUPPORTED, "unsupported data layout key %s",
                 k.data ? k.data : "?");
    free(k.data);
    return -1;
}

/* An alignment as mlir-translate-22 writes it: MLIR's layout keeps it in
 * whole bytes (bits / 8), and the token gives those bytes in bits again. */
static uint64_t whole_bytes(uint64_t bits)
{
    return bits / 8 * 8;
}

static int type_token(bs_buf *b, const dlti_entry_rec *e, dlti_error_t *err)
{
    const dlti_type *t = e->key->type;
    const dlti_attr *v = e->value;
    size_t len = dlti_dense_len(v);
    uint64_t x[4], as;
    for (size_t i = 0; i < len && i < 4; i++)
        if (!dlti_dense_u64(v, i, &x[i]))
            return unsupported(e, "expected a dense i64 elements value", err);
    if (t->kind == DLTI_TYPE_INTEGER || t->kind == DLTI_TYPE_FLOAT) {
        if (t->kind == DLTI_TYPE_INTEGER && t->sign != DLTI_SIGNLESS)
            return refuse("unsupported data layout for non-signless integer '%s'", e, err);
        if (t->kind == DLTI_TYPE_FLOAT && t->float_kind != DLTI_FLOAT_F16 &&
            t->float_kind != DLTI_FLOAT_F32 && t->float_kind != DLTI_FLOAT_F64 &&
            t->float_kind != DLTI_FLOAT_F80 && t->float_kind != DLTI_FLOAT_F128)
            return refuse("unsupported type in data layout: '%s'", e, err);
        if (len != 1 && len != 2)
            return unsupported(e, "expected 1 or 2 alignments", err);
        unsigned bits = t->kind == DLTI_TYPE_INTEGER
                            ? t->width
                            : dlti_float_bit_width((dlti_float_kind)t->float_kind);
        uint64_t abi = whole_bytes(x[0]), pref = whole_bytes(x[len - 1]);
        bs_buf_printf(b, "%c%u:%llu", t->kind == DLTI_TYPE_INTEGER ? 'i' : 'f', bits,
                      (unsigned long long)abi);
        if (pref != abi)
            bs_buf_printf(b, ":%llu", (unsigned long long)pref);
        return 0;
    }
    if (dlti_llvm_ptr_space(t, &as)) {
        if (len != 3 && len != 4)
            return unsupported(e, "expected 3 or 4 values", err);
        /* Every field, the space 0 included: `p0:64:64:64:64`. */
        bs_buf_printf(b, "p%llu:%llu:%llu:%llu:%llu", (unsigned long long)as,
                      (unsigned long long)x[0], (unsigned long long)whole_bytes(x[1]),
                      (unsigned long long)whole_bytes(x[2]),
                      (unsigned long long)(len == 4 ? x[3] : x[0]));
        return 0;
    }
    if (t->kind == DLTI_TYPE_INDEX)
        return 0; /* LLVM has no index token: mlir-translate-22 leaves it out */
    return refuse("unsupported type in data layout: '%s'", e, err);
}

char *dlti_llvm_dl_export(const dlti_attr *spec, dlti_error_t *err)
{
    if (!spec || spec->kind != DLTI_ATTR_DL_SPEC) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "expected a #dlti.dl_spec attribute");
        return NULL;
    }
    bs_buf b = {0};
    /* Identifiers first, then types, each in spec order, as mlir-translate-22
     * writes them: the importer keeps each group's order, so this round-trips. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < spec->n; i++) {
            const dlti_entry_rec *e = &spec->u.c.entries[i];
            if ((pass == 0) != (e->key->type == NULL))
                continue;
            size_t before = b.len;
            if (b.len)
                bs_buf_putc(&b, '-');
            size_t start = b.len;
            int rc = pass == 0 ? id_token(&b, e, err) : type_token(&b, e, err);
            if (rc != 0) {
                free(b.data);
                return NULL;
            }
            if (b.len == start && b.data) /* nothing written (S0, index): drop the dash */
                b.data[b.len = before] = '\0';
        }
    }
    if (!b.data)
        bs_buf_puts(&b, "");
    if (b.failed || !b.data) {
        free(b.data);
        bs_nomem(err);
        return NULL;
    }
    b.data[b.len] = '\0';
    /* The one rule of dl-export: print only what LLVM reads.  MLIR's spec
     * takes values LLVM's parser refuses (alignments that are no power of
     * two or past 16 bits, sizes and address spaces past 24 bits, an index
     * wider than its pointer); the importer applies LLVM's parser's checks,
     * so the string is read back by it and refused with its reason. */
    dlti_context *check = dlti_context_new();
    if (!check) {
        free(b.data);
        bs_nomem(err);
        return NULL;
    }
    dlti_error_t why;
    if (!dlti_llvm_dl_import(check, b.data, b.len, &why)) {
        bs_error_set(err, why.code == DLTI_ERROR_NOMEM ? DLTI_ERROR_NOMEM : DLTI_ERROR_UNSUPPORTED,
                     "LLVM would not read the data layout string '%.*s%s': %s",
                     b.len > 120 ? 120 : (int)b.len, b.data, b.len > 120 ? "..." : "", why.text);
        free(b.data);
        dlti_context_free(check);
        return NULL;
    }
    dlti_context_free(check);
    return b.data;
}
