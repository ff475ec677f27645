/* DLTI systems -> JSON (docs/yaml.md, "JSON").
 *
 * Plain JSON is for jq and friends: numbers, strings and objects as a JSON
 * user expects them, MLIR's types dropped.  Typed JSON (SYSDESC_PRINT_TYPED)
 * keeps every type: it starts with the "$format" marker, and writes each
 * value its plain spelling cannot tell apart as {"type": T, "value": V},
 * so that json_load.c reads it back to the identical attributes; each
 * choice here is the inverse of one rule there. */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_json_string(bs_buf *b, const char *s, size_t len)
{
    sd_buf_put_quoted(b, s, len, "\\u%04X");
}

static void put_json_text(bs_buf *b, const char *s)
{
    put_json_string(b, s, strlen(s));
}

static void put_indent(bs_buf *b, int indent)
{
    bs_buf_puts(b, "\n");
    for (int i = 0; i < indent; i++)
        bs_buf_puts(b, " ");
}

static void put_mlir_text(bs_buf *b, const dlti_attr *a)
{
    size_t len;
    char *text = dlti_attr_print(a, &len);
    if (!text) {
        b->failed = true;
        return;
    }
    put_json_string(b, text, len);
    free(text);
}

static void put_typed(bs_buf *b, const char *type, const dlti_attr *a, const char *number)
{
    bs_buf_puts(b, "{\"type\": ");
    put_json_text(b, type);
    bs_buf_puts(b, ", \"value\": ");
    if (number)
        bs_buf_puts(b, number);
    else
        put_mlir_text(b, a);
    bs_buf_puts(b, "}");
}

/* The MLIR literal of a scalar or of each element of a dense array, as the
 * printer spells it ("0x7FC00000", "1.500000e+00"): the printed text up to
 * " : TYPE", or the elements of "array<T: e1, e2>" one by one. */
typedef struct literals {
    char *text;
    const char *next, *end;
} literals;

static bool literals_open(literals *l, const dlti_attr *a, bool dense)
{
    size_t len;
    l->text = dlti_attr_print(a, &len);
    if (!l->text)
        return false;
    const char *colon = strstr(l->text, dense ? ": " : " : ");
    if (dense) {
        l->next = colon ? colon + 2 : l->text + len - 1; /* "array<T>": none */
        l->end = l->text + len - 1;                       /* before the '>' */
    } else {
        l->next = l->text;
        l->end = colon ? colon : l->text + len;
    }
    return true;
}

/* The next literal as a JSON string, or (b NULL) stepped over. */
static void literals_put(bs_buf *b, literals *l)
{
    const char *comma = memchr(l->next, ',', (size_t)(l->end - l->next));
    const char *stop = comma ? comma : l->end;
    if (b)
        put_json_string(b, l->next, (size_t)(stop - l->next));
    l->next = comma ? comma + 2 : l->end;
}

/* Whether a float of type `t` with value `v` is a JSON number exactly:
 * finite, and of a type no wider than a double (every value of which is a
 * double). */
static bool float_is_number(const dlti_type *t, double v)
{
    return isfinite(v) && dlti_type_float_width(t) <= 64;
}

/* The value's digits: the printer's text up to " : TYPE". */
static char *int_digits(const dlti_attr *a)
{
    char *text = dlti_attr_print(a, NULL);
    if (text) {
        char *colon = strstr(text, " : ");
        if (colon)
            *colon = '\0';
    }
    return text;
}

/* A float as a JSON number: the shortest text that reads back to the same
 * double, with a ".0" so it stays a float; NaN and infinities as null. */
static void double_text(char text[static 64], double v)
{
    strcpy(text, "null");
    if (isfinite(v)) {
        sd_format_double(text, 64, v);
        if (!strpbrk(text, ".e"))
            strcat(text, ".0");
    }
}

/* A dense array (array<i64: 4096, 8192>) as a JSON array of numbers, for jq
 * and Python: integers as integers (i1 as true/false, unsigned types as
 * unsigned), floats as floats (NaN/inf: null).  --typed wraps it as
 * {"type": "array<i64>", "value": [...]}, since a plain [...] is an array of
 * attributes ([4096, 8192] in MLIR), another attribute. */
static void put_dense_array(bs_buf *b, const dlti_attr *a, bool typed)
{
    const dlti_type *t = dlti_attr_type(a);
    bool is_float = dlti_type_get_kind(t) == DLTI_TYPE_FLOAT;
    bool is_bool = !is_float && dlti_type_int_width(t) == 1;
    bool is_unsigned = !is_float && dlti_type_int_signedness(t) == DLTI_UNSIGNED;
    /* typed: a float that is no JSON number is its MLIR literal */
    literals lit = {0};
    if (typed && is_float && !literals_open(&lit, a, true)) {
        b->failed = true;
        return;
    }
    if (typed)
        bs_buf_printf(b, "{\"type\": \"array<%s>\", \"value\": ", dlti_type_str(t));
    bs_buf_puts(b, "[");
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        if (i)
            bs_buf_puts(b, ", ");
        if (is_float) {
            /* The core has no public accessor for float elements
             * (dlti_internal.h has one). */
            char text[64];
            double v = dlti_dense_float_at(a, i);
            if (typed && !float_is_number(t, v)) {
                literals_put(b, &lit);
                continue;
            }
            if (typed)
                literals_put(NULL, &lit);
            double_text(text, v);
            bs_buf_puts(b, text);
            continue;
        }
        int64_t x = 0;
        if (dlti_attr_dense_int64(a, i, &x, NULL) != 0) {
            b->failed = true;
            return;
        }
        if (is_bool)
            bs_buf_puts(b, x ? "true" : "false");
        else if (is_unsigned)
            bs_buf_printf(b, "%llu", (unsigned long long)(uint64_t)x);
        else
            bs_buf_printf(b, "%lld", (long long)x);
    }
    bs_buf_puts(b, "]");
    if (typed)
        bs_buf_puts(b, "}");
    free(lit.text);
}

static void put_json(bs_buf *b, const dlti_attr *a, unsigned flags, int indent);

static void put_object(bs_buf *b, const dlti_attr *a, unsigned flags, int indent)
{
    if (dlti_attr_size(a) == 0) {
        bs_buf_puts(b, "{}");
        return;
    }
    bs_buf_puts(b, "{");
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        if (i)
            bs_buf_puts(b, ",");
        put_indent(b, indent + 2);
        dlti_key k = dlti_attr_entry_key(a, i);
        size_t len;
        const char *s = dlti_key_str(k, &len);
        if (s)
            put_json_string(b, s, len);
        else
            put_json_text(b, dlti_type_str(dlti_key_get_type(k)));
        bs_buf_puts(b, ": ");
        put_json(b, dlti_attr_entry_value(a, i), flags, indent + 2);
    }
    put_indent(b, indent);
    bs_buf_puts(b, "}");
}

/* A map whose keys are exactly "type" and "value" would read as a typed
 * value: typed JSON says it is a map. */
static bool map_looks_typed(const dlti_attr *a)
{
    if (dlti_attr_size(a) != 2)
        return false;
    size_t n0, n1;
    const char *k0 = dlti_key_str(dlti_attr_entry_key(a, 0), &n0);
    const char *k1 = dlti_key_str(dlti_attr_entry_key(a, 1), &n1);
    if (!k0 || !k1)
        return false;
    bool type0 = n0 == 4 && memcmp(k0, "type", 4) == 0, type1 = n1 == 4 && memcmp(k1, "type", 4) == 0;
    bool value0 = n0 == 5 && memcmp(k0, "value", 5) == 0;
    bool value1 = n1 == 5 && memcmp(k1, "value", 5) == 0;
    return (type0 && value1) || (value0 && type1);
}

/* A float in typed JSON: f64 a plain number, another type {"type": T,
 * "value": NUMBER}; a value no JSON number holds exactly (NaN, infinities,
 * a type wider than a double) its MLIR literal as a string. */
static void put_typed_float(bs_buf *b, const dlti_attr *a)
{
    const dlti_type *t = dlti_attr_type(a);
    double v = NAN;
    dlti_attr_get_double(a, &v, NULL);
    bool f64 = strcmp(dlti_type_str(t), "f64") == 0;
    char text[64];
    if (float_is_number(t, v)) {
        double_text(text, v);
        if (f64)
            bs_buf_puts(b, text);
        else
            put_typed(b, dlti_type_str(t), a, text);
        return;
    }
    literals lit;
    if (!literals_open(&lit, a, false)) {
        b->failed = true;
        return;
    }
    bs_buf_puts(b, "{\"type\": ");
    put_json_text(b, dlti_type_str(t));
    bs_buf_puts(b, ", \"value\": ");
    literals_put(b, &lit);
    bs_buf_puts(b, "}");
    free(lit.text);
}

static void put_json(bs_buf *b, const dlti_attr *a, unsigned flags, int indent)
{
    bool typed = flags & SYSDESC_PRINT_TYPED;
    const dlti_type *t = dlti_attr_type(a);
    switch (dlti_attr_get_kind(a)) {
    case DLTI_ATTR_MAP:
        if (typed && sd_json_map_as_mlir(a)) {
            put_typed(b, "mlir", a, NULL);
        } else if (typed && map_looks_typed(a)) {
            bs_buf_puts(b, "{\"type\": \"map\", \"value\": ");
            put_object(b, a, flags, indent);
            bs_buf_puts(b, "}");
        } else {
            put_object(b, a, flags, indent);
        }
        return;
    case DLTI_ATTR_DL_SPEC:
    case DLTI_ATTR_DEVICE_SPEC:
    case DLTI_ATTR_SYSTEM_SPEC:
        /* inside a map or an array, where an object is a map */
        if (typed)
            put_typed(b, "mlir", a, NULL);
        else
            put_object(b, a, flags, indent);
        return;
    case DLTI_ATTR_ARRAY:
        bs_buf_puts(b, "[");
        for (size_t i = 0; i < dlti_attr_size(a); i++) {
            if (i)
                bs_buf_puts(b, ", ");
            put_json(b, dlti_attr_element(a, i), flags, indent);
        }
        bs_buf_puts(b, "]");
        return;
    case DLTI_ATTR_INTEGER: {
        char *digits = int_digits(a);
        if (!digits) {
            b->failed = true;
            return;
        }
        if (typed && strcmp(dlti_type_str(t), "i64") != 0)
            put_typed(b, dlti_type_str(t), a, digits);
        else
            bs_buf_puts(b, digits);
        free(digits);
        return;
    }
    case DLTI_ATTR_FLOAT: {
        if (typed) {
            put_typed_float(b, a);
            return;
        }
        double v = 0;
        char text[64];
        double_text(text, dlti_attr_get_double(a, &v, NULL) == 0 ? v : NAN);
        bs_buf_puts(b, text);
        return;
    }
    case DLTI_ATTR_BOOL: {
        bool v = false;
        dlti_attr_get_bool(a, &v, NULL);
        bs_buf_puts(b, v ? "true" : "false");
        return;
    }
    case DLTI_ATTR_STRING: {
        const char *s;
        size_t len;
        dlti_attr_get_string(a, &s, &len, NULL);
        /* bytes that are not UTF-8: no JSON string holds them, MLIR's
         * escapes do (plain JSON refuses them: emit_check.c) */
        if (typed && !bs_utf8_valid(s, len))
            put_typed(b, "mlir", a, NULL);
        else
            put_json_string(b, s, len);
        return;
    }
    case DLTI_ATTR_DENSE_ARRAY:
        put_dense_array(b, a, typed);
        return;
    case DLTI_ATTR_TYPE:
        if (typed) {
            bs_buf_puts(b, "{\"type\": \"type\", \"value\": ");
            put_json_text(b, dlti_type_str(t));
            bs_buf_puts(b, "}");
        } else {
            put_json_text(b, dlti_type_str(t));
        }
        return;
    default:
        if (typed)
            put_typed(b, "mlir", a, NULL);
        else
            put_mlir_text(b, a);
        return;
    }
}

char *sysdesc_json_print(const sysdesc_system *sys, unsigned flags, size_t *len)
{
    bool typed = flags & SYSDESC_PRINT_TYPED;
    bs_buf b = {0};
    bs_buf_puts(&b, "{");
    bool first = true;
    if (typed) {
        put_indent(&b, 2);
        bs_buf_puts(&b, "\"" SD_JSON_FORMAT_KEY "\": \"" SD_JSON_FORMAT_TYPED "\"");
        first = false;
    }
    if (sys->data_layout || sys->dl_spec) {
        if (!first)
            bs_buf_puts(&b, ",");
        put_indent(&b, 2);
        bs_buf_puts(&b, "\"data_layout\": ");
        if (sys->data_layout)
            put_json_text(&b, sys->data_layout);
        else if (typed && (sd_json_map_as_mlir(sys->dl_spec) || map_looks_typed(sys->dl_spec)))
            put_typed(&b, "mlir", sys->dl_spec, NULL);
        else
            put_object(&b, sys->dl_spec, flags, 2);
        first = false;
    }
    for (size_t i = 0; i < dlti_attr_size(sys->spec); i++) {
        if (!first)
            bs_buf_puts(&b, ",");
        first = false;
        put_indent(&b, 2);
        size_t klen;
        const char *id = dlti_key_str(dlti_attr_entry_key(sys->spec, i), &klen);
        put_json_string(&b, id, klen);
        bs_buf_puts(&b, ": ");
        const dlti_attr *dev = dlti_attr_entry_value(sys->spec, i);
        if (typed && (sd_json_map_as_mlir(dev) || map_looks_typed(dev)))
            put_typed(&b, "mlir", dev, NULL);
        else
            put_object(&b, dev, flags, 2);
    }
    bs_buf_puts(&b, "\n}\n");
    return sd_buf_finish(&b, len);
}

char *sysdesc_value_json(const dlti_attr *value, const char *where, size_t *len,
                         dlti_error_t *err)
{
    if (!value) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "JSON: no value to print");
        return NULL;
    }
    if (sd_value_json_check(value, where, err) != 0)
        return NULL;
    bs_buf b = {0};
    put_json(&b, value, 0, 0);
    bs_buf_puts(&b, "\n");
    char *text = sd_buf_finish(&b, len);
    if (!text)
        bs_nomem(err);
    return text;
}

void sd_json_put_named(bs_buf *b, const char *name, const dlti_attr *value, int indent)
{
    put_json_string(b, name, strlen(name));
    bs_buf_puts(b, ": ");
    put_json(b, value, 0, indent);
}
