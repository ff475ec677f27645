/* LLVM data layout string -> #dlti.dl_spec, as mlir-translate-22
 * --import-llvm does it (mlir/lib/Target/LLVMIR/DataLayoutImporter.cpp),
 * after the checks LLVM's own parser (llvm/lib/IR/DataLayout.cpp) applies
 * before MLIR ever sees the string. */
#include "dlti_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What LangRef says holds when a string does not: appended, and ignored for
 * every key the string sets itself. */
static const char default_layout[] = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:32:64-"
                                     "f16:16:16-f64:64:64-f128:128:128";

#define MAX_FIELDS 8
/* Type keys are as many as the string has entries (LLVM's widths and
 * address spaces take 24 bits: millions of distinct keys): a growable table
 * with a hash index, never a fixed size that drops entries. */
#define TYPE_KEY_LEN 32

typedef struct token {
    const char *s;
    size_t len, at;       /* `at`: offset in the user's string */
    bool user;            /* false for the appended defaults */
} token;

typedef struct importer {
    dlti_error_t *err;
    const token *tok;
    /* Keys already set: type keys as their MLIR text, identifiers by name. */
    char (*type_keys)[TYPE_KEY_LEN];
    size_t num_types, cap_types;
    uint32_t *slots; /* index + 1 into type_keys, 0: empty; a power of two */
    size_t num_slots;
    bool nomem;
    const char *id_keys[16];
    size_t num_ids;
    bs_buf types, ids;
} importer;

static int fail(importer *im, const char *fmt, const char *detail)
{
    char msg[256];
    snprintf(msg, sizeof(msg), fmt, detail ? detail : "");
    const token *t = im->tok;
    bs_error_set(im->err, DLTI_ERROR_SYNTAX, "invalid data layout token '%.*s' at offset %zu: %s",
                 (int)(t->len > 200 ? 200 : t->len), t->s, t->at, msg);
    if (im->err) {
        im->err->position = t->at;
        im->err->line = 1;
        im->err->column = (int)t->at + 1;
    }
    return -1;
}

/* Splits text at ':' into unsigned decimal fields; an empty field is kept as
 * `empty`.  Returns the number of fields or -1 when one is not a number. */
static int split_fields(const char *s, size_t len, uint64_t *v, bool *empty)
{
    int n = 0;
    size_t i = 0;
    for (;;) {
        if (n == MAX_FIELDS)
            return -1;
        size_t j = i;
        uint64_t x = 0;
        while (j < len && s[j] != ':') {
            if (s[j] < '0' || s[j] > '9' || x > (UINT64_MAX - 9) / 10)
                return -1;
            x = x * 10 + (uint64_t)(s[j] - '0');
            j++;
        }
        empty[n] = j == i;
        v[n++] = x;
        if (j == len)
            return n;
        i = j + 1;
    }
}

static bool pow2_bytes(uint64_t bits)
{
    return bits >= 8 && bits <= 0xFFFF && bits % 8 == 0 && ((bits / 8) & (bits / 8 - 1)) == 0;
}

/* LLVM's alignment rule and its words (DataLayout): `what` ("ABI",
 * "preferred") is non-zero (zero_ok: an aggregate's ABI alignment may be 0),
 * a 16-bit integer and a power of two times the byte width.  0, or -1
 * after fail(). */
static int alignment(importer *im, uint64_t bits, const char *what, bool zero_ok)
{
    char why[96];
    if (bits == 0 && zero_ok)
        return 0;
    snprintf(why, sizeof(why), "%s alignment must be %s", what,
             bits == 0        ? "non-zero"
             : bits > 0xFFFF ? "a 16-bit integer"
                             : "a power of two times the byte width");
    return bits == 0 || !pow2_bytes(bits) ? fail(im, "%s", why) : 0;
}

static size_t slot_of(const importer *im, const char *key)
{
    size_t mask = im->num_slots - 1;
    size_t j = (size_t)bs_hash_bytes(key, strlen(key)) & mask;
    while (im->slots[j] && strcmp(im->type_keys[im->slots[j] - 1], key) != 0)
        j = (j + 1) & mask;
    return j;
}

static bool has_type(importer *im, const char *key)
{
    return im->num_slots && im->slots[slot_of(im, key)] != 0;
}

static bool has_id(importer *im, const char *key)
{
    for (size_t i = 0; i < im->num_ids; i++)
        if (strcmp(im->id_keys[i], key) == 0)
            return true;
    return false;
}

static void add_type(importer *im, const char *key, const char *value)
{
    if ((im->num_types + 1) * 2 > im->num_slots) {
        size_t n = im->num_slots ? im->num_slots * 2 : 64;
        uint32_t *slots = n <= SIZE_MAX / sizeof(*slots) ? calloc(n, sizeof(*slots)) : NULL;
        if (!slots || n > UINT32_MAX) {
            free(slots);
            im->nomem = true;
            return;
        }
        free(im->slots);
        im->slots = slots;
        im->num_slots = n;
        for (size_t i = 0; i < im->num_types; i++)
            im->slots[slot_of(im, im->type_keys[i])] = (uint32_t)(i + 1);
    }
    void *keys = im->type_keys;
    if (bs_grow(&keys, &im->cap_types, im->num_types + 1, TYPE_KEY_LEN) != 0) {
        im->nomem = true;
        return;
    }
    im->type_keys = keys;
    snprintf(im->type_keys[im->num_types], TYPE_KEY_LEN, "%s", key);
    im->slots[slot_of(im, key)] = (uint32_t)(im->num_types + 1);
    im->num_types++;
    if (im->types.len)
        bs_buf_puts(&im->types, ", ");
    bs_buf_printf(&im->types, "%s = %s", key, value);
}

static void add_id(importer *im, const char *key, const char *value)
{
    im->id_keys[im->num_ids++] = key;
    if (im->ids.len)
        bs_buf_puts(&im->ids, ", ");
    bs_buf_printf(&im->ids, "\"%s\" = %s", key, value);
}

/* i, f, v, a: <size>:<abi>[:<pref>] (a: [0]:<abi>[:<pref>]). */
static int alignment_spec(importer *im, char kind, const char *rest, size_t len)
{
    uint64_t v[MAX_FIELDS];
    bool empty[MAX_FIELDS];
    int n = split_fields(rest, len, v, empty);
    char form[64];
    snprintf(form, sizeof(form), "%c<size>:<abi>[:<pref>]", kind);
    if (kind == 'a') {
        if (n < 2 || n > 3 || (!empty[0] && v[0] != 0))
            return fail(im, "malformed specification, must be of the form \"a:<abi>[:<pref>]\"", NULL);
    } else {
        if (n < 0 || n < 2 || n > 3) {
            if (n > 0 && empty[0])
                return fail(im, "size component cannot be empty", NULL);
            return fail(im, "malformed specification, must be of the form \"%s\"", form);
        }
        if (empty[0])
            return fail(im, "size component cannot be empty", NULL);
        if (v[0] == 0 || v[0] >= (1u << 24))
            return fail(im, "size must be a non-zero 24-bit integer", NULL);
    }
    if (empty[1])
        return fail(im, "ABI alignment component cannot be empty", NULL);
    if (alignment(im, v[1], "ABI", kind == 'a') != 0)
        return -1;
    uint64_t pref = n == 3 ? v[2] : v[1];
    if (n == 3) {
        if (empty[2])
            return fail(im, "preferred alignment component cannot be empty", NULL);
        /* an aggregate's ABI alignment may be 0, a preferred one given never */
        if (alignment(im, v[2], "preferred", false) != 0)
            return -1;
        if (pref < v[1])
            return fail(im, "preferred alignment cannot be less than the ABI alignment", NULL);
    }
    if (kind == 'i' && v[0] == 8 && v[1] != 8)
        return fail(im, "i8 must be 8-bit aligned", NULL);
    if (kind != 'i' && kind != 'f')
        return 0; /* vectors and aggregates have no MLIR entry */
    char key[32], value[96];
    if (kind == 'f') {
        static const unsigned widths[] = {16, 32, 64, 80, 128};
        bool known = false;
        for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
            known = known || v[0] == widths[i];
        if (!known) {
            /* mlir-translate-22 crashes here (no MLIR type for the width). */
            char w[24];
            snprintf(w, sizeof(w), "%llu", (unsigned long long)v[0]);
            fail(im, "no MLIR float type of %s bits", w);
            if (im->err)
                im->err->code = DLTI_ERROR_UNSUPPORTED;
            return -1;
        }
    }
    snprintf(key, sizeof(key), "%c%llu", kind, (unsigned long long)v[0]);
    if (has_type(im, key))
        return 0;
    snprintf(value, sizeof(value), "dense<[%llu, %llu]> : vector<2xi64>",
             (unsigned long long)v[1], (unsigned long long)pref);
    add_type(im, key, value);
    return 0;
}

static int pointer_spec(importer *im, const char *rest, size_t len)
{
    static const char form[] = "p[<n>]:<size>:<abi>[:<pref>[:<idx>]]";
    size_t i = 0;
    uint64_t as = 0;
    while (i < len && rest[i] >= '0' && rest[i] <= '9') {
        as = as * 10 + (uint64_t)(rest[i] - '0');
        if (as >= (1u << 24))
            return fail(im, "address space must be a 24-bit integer", NULL);
        i++;
    }
    if (i < len && rest[i] != ':') {
        char flag[2] = {rest[i], 0};
        return fail(im, "'%s' is not a valid pointer specification flag", flag);
    }
    uint64_t v[MAX_FIELDS];
    bool empty[MAX_FIELDS];
    int n = i < len ? split_fields(rest + i + 1, len - i - 1, v, empty) : 0;
    if (n < 2 || n > 4)
        return fail(im, "malformed specification, must be of the form \"%s\"", form);
    for (int k = 0; k < n; k++)
        if (empty[k])
            return fail(im, "malformed specification, must be of the form \"%s\"", form);
    if (v[0] == 0 || v[0] >= (1u << 24))
        return fail(im, "pointer size must be a non-zero 24-bit integer", NULL);
    if (alignment(im, v[1], "ABI", false) != 0)
        return -1;
    uint64_t pref = n >= 3 ? v[2] : v[1], idx = n >= 4 ? v[3] : v[0];
    if (n >= 3 && alignment(im, pref, "preferred", false) != 0)
        return -1;
    if (pref < v[1])
        return fail(im, "preferred alignment cannot be less than the ABI alignment", NULL);
    if (n >= 4 && (idx == 0 || idx >= (1u << 24)))
        return fail(im, "index size must be a non-zero 24-bit integer", NULL);
    if (idx > v[0])
        return fail(im, "index size cannot be larger than the pointer size", NULL);
    char key[32], value[128];
    if (as == 0)
        snprintf(key, sizeof(key), "!llvm.ptr");
    else
        snprintf(key, sizeof(key), "!llvm.ptr<%llu>", (unsigned long long)as);
    if (has_type(im, key))
        return 0;
    snprintf(value, sizeof(value), "dense<[%llu, %llu, %llu, %llu]> : vector<4xi64>",
             (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)pref,
             (unsigned long long)idx);
    add_type(im, key, value);
    return 0;
}

/* A number filling the whole of text: the forms `S<n>`, `P<n>`, ... */
static bool whole_number(const char *s, size_t len, uint64_t *v)
{
    bool empty[MAX_FIELDS];
    uint64_t f[MAX_FIELDS];
    if (len == 0 || split_fields(s, len, f, empty) != 1)
        return false;
    *v = f[0];
    return true;
}

static int address_space(importer *im, char c, const char *rest, size_t len, const char *key)
{
    uint64_t as;
    char form[48];
    snprintf(form, sizeof(form), "%c<address space>", c);
    if (!whole_number(rest, len, &as))
        return fail(im, "malformed specification, must be of the form \"%s\"", form);
    if (as >= (1u << 24))
        return fail(im, "invalid address space, must be a 24-bit integer", NULL);
    if (as == 0 || has_id(im, key))
        return 0; /* MLIR stores non-default spaces only */
    char value[48];
    snprintf(value, sizeof(value), "%llu : ui64", (unsigned long long)as);
    add_id(im, key, value);
    return 0;
}

static int legal_widths(importer *im, const char *rest, size_t len)
{
    uint64_t v[MAX_FIELDS * 8];
    size_t n = 0, i = 0;
    if (len == 0)
        return fail(im, "size component cannot be empty", NULL);
    while (i <= len) {
        size_t j = i;
        uint64_t x = 0;
        while (j < len && rest[j] != ':') {
            if (rest[j] < '0' || rest[j] > '9' || x >= (1u << 24))
                return fail(im, "legal integer width must be a non-zero 24-bit integer", NULL);
            x = x * 10 + (uint64_t)(rest[j++] - '0');
        }
        if (j == i)
            return fail(im, "size component cannot be empty", NULL);
        if (x == 0 || x >= (1u << 24))
            return fail(im, "legal integer width must be a non-zero 24-bit integer", NULL);
        if (n < sizeof(v) / sizeof(v[0]))
            v[n++] = x;
        i = j + 1;
    }
    if (has_id(im, "dlti.legal_int_widths"))
        return 0;
    bs_buf b = {0};
    bs_buf_puts(&b, "array<i32: ");
    for (size_t k = 0; k < n; k++)
        bs_buf_printf(&b, "%s%llu", k ? ", " : "", (unsigned long long)v[k]);
    bs_buf_putc(&b, '>');
    if (b.data)
        add_id(im, "dlti.legal_int_widths", b.data);
    free(b.data);
    return 0;
}

static int one_token(importer *im, const token *t)
{
    im->tok = t;
    const char *s = t->s;
    size_t len = t->len;
    if (len == 0)
        return fail(im, "empty specification is not allowed", NULL);
    uint64_t v;
    switch (s[0]) {
    case 'e':
    case 'E':
        if (len != 1)
            return fail(im, "malformed specification, must be just 'e' or 'E'", NULL);
        if (!has_id(im, "dlti.endianness"))
            add_id(im, "dlti.endianness", s[0] == 'e' ? "\"little\"" : "\"big\"");
        return 0;
    case 'm': {
        if (len != 3 || s[1] != ':')
            return fail(im, "malformed specification, must be of the form \"m:<mangling>\"", NULL);
        if (!strchr("elowmxa", s[2]))
            return fail(im, "unknown mangling mode", NULL);
        if (!has_id(im, "dlti.mangling_mode")) {
            char value[8] = {'"', s[2], '"', 0};
            add_id(im, "dlti.mangling_mode", value);
        }
        return 0;
    }
    case 'n':
        if (len >= 2 && s[1] == 'i') {
            /* ni:<as>...: non-integral spaces, which MLIR does not model. */
            if (len < 3 || s[2] != ':')
                return fail(im, "malformed specification, must be of the form \"ni:<address space>[:<address space>]...\"", NULL);
            for (size_t i = 3; i <= len;) {
                size_t j = i;
                uint64_t as = 0;
                while (j < len && s[j] != ':') {
                    if (s[j] < '0' || s[j] > '9')
                        return fail(im, "invalid address space, must be a 24-bit integer", NULL);
                    as = as * 10 + (uint64_t)(s[j++] - '0');
                    /* checked after each digit: 16777216 is refused, as opt-22 does */
                    if (as >= (1u << 24))
                        return fail(im, "invalid address space, must be a 24-bit integer", NULL);
                }
                if (j == i)
                    return fail(im, "address space component cannot be empty", NULL);
                if (as == 0)
                    return fail(im, "address space 0 cannot be non-integral", NULL);
                i = j + 1;
            }
            return 0;
        }
        return legal_widths(im, s + 1, len - 1);
    case 'S':
        if (!whole_number(s + 1, len - 1, &v))
            return fail(im, "malformed specification, must be of the form \"S<size>\"", NULL);
        if (v == 0)
            return fail(im, "stack natural alignment must be non-zero", NULL);
        if (v > 0xFFFF)
            return fail(im, "stack natural alignment must be a 16-bit integer", NULL);
        if (!pow2_bytes(v))
            return fail(im, "stack natural alignment must be a power of two times the byte width", NULL);
        if (!has_id(im, "dlti.stack_alignment")) {
            char value[40];
            snprintf(value, sizeof(value), "%llu : i64", (unsigned long long)v);
            add_id(im, "dlti.stack_alignment", value);
        }
        return 0;
    case 'F': {
        if (len < 2 || (s[1] != 'i' && s[1] != 'n')) {
            char c[2] = {len < 2 ? '?' : s[1], 0};
            return fail(im, "unknown function pointer alignment type '%s'", c);
        }
        if (!whole_number(s + 2, len - 2, &v))
            return fail(im, "malformed specification, must be of the form \"F<type><abi>\"", NULL);
        if (alignment(im, v, "ABI", false) != 0) /* LLVM's words for F<type><abi> */
            return -1;
        if (!has_id(im, "dlti.function_pointer_alignment")) {
            char value[96];
            snprintf(value, sizeof(value),
                     "#dlti.function_pointer_alignment<%llu, function_dependent = %s>",
                     (unsigned long long)v, s[1] == 'n' ? "true" : "false");
            add_id(im, "dlti.function_pointer_alignment", value);
        }
        return 0;
    }
    case 'P':
        return address_space(im, 'P', s + 1, len - 1, "dlti.program_memory_space");
    case 'G':
        return address_space(im, 'G', s + 1, len - 1, "dlti.global_memory_space");
    case 'A':
        return address_space(im, 'A', s + 1, len - 1, "dlti.alloca_memory_space");
    case 'p':
        return pointer_spec(im, s + 1, len - 1);
    case 'i':
    case 'f':
    case 'v':
        return alignment_spec(im, s[0], s + 1, len - 1);
    case 'a':
    case 's': /* s: an obsolete stack alignment form LLVM still accepts and ignores */
        return alignment_spec(im, 'a', s + 1, len - 1);
    default: {
        char c[2] = {s[0], 0};
        return fail(im, "unknown specifier '%s'", c);
    }
    }
}

static int run_tokens(importer *im, const char *s, size_t len, bool user)
{
    size_t i = 0;
    for (;;) {
        size_t j = i;
        while (j < len && s[j] != '-')
            j++;
        token t = {s + i, j - i, i, user};
        if (one_token(im, &t) != 0)
            return -1;
        if (j == len)
            return 0;
        i = j + 1;
    }
}

const dlti_attr *dlti_llvm_dl_import(dlti_context *ctx, const char *str, size_t len,
                                     dlti_error_t *err)
{
    if (!ctx || (!str && len)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no context or string given");
        return NULL;
    }
    importer *im = calloc(1, sizeof(*im));
    if (!im) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    im->err = err;
    const dlti_attr *result = NULL;
    if (memchr(str, '\0', len)) {
        bs_error_set(err, DLTI_ERROR_SYNTAX, "data layout string holds a NUL byte");
        goto out;
    }
    if ((len && run_tokens(im, str, len, true) != 0) ||
        run_tokens(im, default_layout, sizeof(default_layout) - 1, false) != 0)
        goto out;
    bs_buf text = {0};
    bs_buf_puts(&text, "#dlti.dl_spec<");
    if (im->types.data)
        bs_buf_puts(&text, im->types.data);
    if (im->types.len && im->ids.len)
        bs_buf_puts(&text, ", ");
    if (im->ids.data)
        bs_buf_puts(&text, im->ids.data);
    bs_buf_putc(&text, '>');
    if (text.failed || im->types.failed || im->ids.failed || im->nomem || !text.data)
        dlti_context_nomem(ctx, err);
    else
        result = dlti_attr_parse(ctx, text.data, text.len, "<llvm data layout>", err);
    free(text.data);
out:
    free(im->type_keys);
    free(im->slots);
    free(im->types.data);
    free(im->ids.data);
    free(im);
    return result;
}
