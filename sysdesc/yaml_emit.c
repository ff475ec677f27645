/* DLTI attributes -> YAML that loads back to the same attributes.
 *
 * The loader's rules decide every choice here: a value keeps its MLIR type
 * through a tag unless its plain reading already gives that type (i64, f64,
 * bool, string), and a string is quoted whenever its plain reading would be
 * something else. */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Plain style is used only for a conservative character set that means the
 * same in block and flow context. */
static bool plain_safe(const char *s, size_t len)
{
    if (len == 0 || !(is_alnum(s[0]) || s[0] == '_') || s[len - 1] == ' ')
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!(is_alnum(c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '+' ||
              c == '(' || c == ')' || c == ' ' || c == '@'))
            return false;
    }
    return sd_plain_classify(s, len) == SD_PLAIN_STRING;
}

static void put_single_quoted(bs_buf *b, const char *s, size_t len)
{
    bs_buf_put(b, "'", 1);
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\'') {
            bs_buf_put(b, s + start, i - start + 1);
            bs_buf_put(b, "'", 1);
            start = i + 1;
        }
    bs_buf_put(b, s + start, len - start);
    bs_buf_put(b, "'", 1);
}

static void put_double_quoted(bs_buf *b, const char *s, size_t len)
{
    sd_buf_put_quoted(b, s, len, "\\x%02X");
}

/* Single quotes keep MLIR text readable, but a YAML reader folds their line
 * breaks (and U+0085, U+2028, U+2029) into spaces and cannot take control
 * characters or U+FFFE/U+FFFF: such text goes in double quotes, escaped.
 * (Text that is not UTF-8 never gets here: sd_format_check refuses it.) */
static bool single_quote_safe(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || (c >= 0xC2 && sd_escaped_char(s + i, len - i)))
            return false;
    }
    return true;
}

static void put_mlir(bs_buf *b, const dlti_attr *a)
{
    size_t len;
    char *text = dlti_attr_print(a, &len);
    if (!text) {
        b->failed = true;
        return;
    }
    bs_buf_puts(b, "!mlir ");
    if (single_quote_safe(text, len))
        put_single_quoted(b, text, len);
    else
        put_double_quoted(b, text, len);
    free(text);
}

/* Writes a string scalar; false when YAML cannot hold it (invalid UTF-8). */
static bool put_string(bs_buf *b, const char *s, size_t len)
{
    if (!bs_utf8_valid(s, len))
        return false;
    if (plain_safe(s, len))
        bs_buf_put(b, s, len);
    else
        put_double_quoted(b, s, len);
    return true;
}

static void put_type_text(bs_buf *b, const dlti_type *t)
{
    const char *s = dlti_type_str(t);
    size_t len = strlen(s);
    bool plain = len && is_alnum(s[0]);
    for (size_t i = 0; i < len && plain; i++)
        plain = is_alnum(s[i]) || s[i] == '_' || s[i] == '<' || s[i] == '>' || s[i] == '.' ||
                s[i] == '?';
    if (plain)
        bs_buf_put(b, s, len);
    else
        put_double_quoted(b, s, len);
}

/* The value's digits: the printer's text up to " : TYPE". */
static void put_int_digits(bs_buf *b, const dlti_attr *a)
{
    size_t len;
    char *text = dlti_attr_print(a, &len);
    if (!text) {
        b->failed = true;
        return;
    }
    char *colon = strstr(text, " : ");
    bs_buf_put(b, text, colon ? (size_t)(colon - text) : len);
    free(text);
}

static void put_float(bs_buf *b, const dlti_attr *a)
{
    const dlti_type *t = dlti_attr_type(a);
    double v;
    bool f64 = strcmp(dlti_type_str(t), "f64") == 0;
    /* Formats wider than double, and NaN payloads, only survive as MLIR text. */
    if (dlti_type_float_width(t) > 64 || dlti_attr_get_double(a, &v, NULL) < 0 || isnan(v)) {
        put_mlir(b, a);
        return;
    }
    if (!f64)
        bs_buf_printf(b, "!%s ", dlti_type_str(t));
    if (isinf(v)) {
        bs_buf_puts(b, v < 0 ? "-.inf" : ".inf");
        return;
    }
    char text[64];
    sd_format_double(text, sizeof(text), v);
    bs_buf_puts(b, text);
    if (!strpbrk(text, ".e"))
        bs_buf_puts(b, ".0");
}

/* array<T: ...> as `!array:T [...]` (the elements as MLIR prints them);
 * arrays whose elements YAML numbers cannot spell (NaN, infinities, which
 * MLIR prints in hex, or floats wider than f64) stay MLIR text. */
static void put_dense_array(bs_buf *b, const dlti_attr *a)
{
    const dlti_type *t = dlti_attr_type(a);
    size_t len;
    char *text = dlti_attr_print(a, &len);
    if (!text) {
        b->failed = true;
        return;
    }
    const char *colon = strstr(text, ": ");
    const char *elems = colon ? colon + 2 : text + len - 1; /* "array<T>": none */
    size_t n = (size_t)(text + len - 1 - elems);
    bool plain = dlti_type_get_kind(t) == DLTI_TYPE_INTEGER ||
                 (dlti_type_float_width(t) <= 64 && !strstr(elems, "0x") &&
                  !strstr(elems, "nan") && !strstr(elems, "inf"));
    if (plain) {
        bs_buf_printf(b, "%s%s [", SD_TAG_DENSE, dlti_type_str(t));
        bs_buf_put(b, elems, n);
        bs_buf_puts(b, "]");
    } else {
        bs_buf_puts(b, "!mlir ");
        put_single_quoted(b, text, len);
    }
    free(text);
}

static bool is_scalar(const dlti_attr *a)
{
    switch (dlti_attr_get_kind(a)) {
    case DLTI_ATTR_MAP:
    case DLTI_ATTR_DL_SPEC:
    case DLTI_ATTR_ARRAY:
        return false;
    default:
        return true;
    }
}

static void put_scalar(bs_buf *b, const dlti_attr *a)
{
    switch (dlti_attr_get_kind(a)) {
    case DLTI_ATTR_INTEGER: {
        const dlti_type *t = dlti_attr_type(a);
        int64_t v;
        if (strcmp(dlti_type_str(t), "i64") == 0 && dlti_attr_get_int64(a, &v, NULL) == 0) {
            bs_buf_printf(b, "%lld", (long long)v);
        } else {
            bs_buf_printf(b, "!%s ", dlti_type_str(t));
            put_int_digits(b, a);
        }
        return;
    }
    case DLTI_ATTR_FLOAT:
        put_float(b, a);
        return;
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
        if (!put_string(b, s, len))
            put_mlir(b, a);
        return;
    }
    case DLTI_ATTR_DENSE_ARRAY:
        put_dense_array(b, a);
        return;
    case DLTI_ATTR_TYPE:
        bs_buf_puts(b, "!type ");
        put_type_text(b, dlti_attr_type(a));
        return;
    default:
        put_mlir(b, a);
        return;
    }
}

static void put_indent(bs_buf *b, int indent)
{
    static const char spaces[] = "                                                                ";
    while (indent > 0) {
        int n = indent > 64 ? 64 : indent;
        bs_buf_put(b, spaces, (size_t)n);
        indent -= n;
    }
}

/* `first`: the first line of the file, which must not look like MLIR
 * (sniff.c) in plain style. */
static void put_key(bs_buf *b, dlti_key key, bool first)
{
    size_t len;
    const char *s = dlti_key_str(key, &len);
    if (!s) {
        bs_buf_puts(b, "!type ");
        put_type_text(b, dlti_key_get_type(key));
        return;
    }
    /* Reserved words are keys of the format only when written plain. */
    if (!bs_utf8_valid(s, len) || strcmp(s, "base") == 0 || strcmp(s, "data_layout") == 0 ||
        (first && !sd_yaml_first_key_plain_ok(s, len)))
        put_double_quoted(b, s, len);
    else if (!put_string(b, s, len))
        put_double_quoted(b, s, len);
}

/* "KEY:" at `indent`.  libyaml forgets a simple key 1024 characters after
 * its start, so a longer key is written as an explicit one ("? KEY", then
 * ":" on the next line) and reads back whatever its length. */
static void put_key_at(bs_buf *b, dlti_key key, int indent)
{
    put_indent(b, indent);
    size_t at = b->len;
    put_key(b, key, at == 0);
    if (!b->failed && b->len - at > SD_YAML_SIMPLE_KEY_MAX) {
        size_t klen = b->len - at;
        char *text = malloc(klen);
        if (!text) {
            b->failed = true;
            return;
        }
        memcpy(text, b->data + at, klen);
        b->len = at;
        bs_buf_puts(b, "? ");
        bs_buf_put(b, text, klen);
        free(text);
        bs_buf_putc(b, '\n');
        put_indent(b, indent);
    }
    bs_buf_puts(b, ":");
}

static void put_value(bs_buf *b, const dlti_attr *a, int indent);

static void put_entries(bs_buf *b, const dlti_attr *a, int indent)
{
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        put_key_at(b, dlti_attr_entry_key(a, i), indent);
        put_value(b, dlti_attr_entry_value(a, i), indent + 2);
    }
}

/* Flow style for arrays of scalars: short and readable ([32, 64]). */
static bool flow_array(const dlti_attr *a)
{
    for (size_t i = 0; i < dlti_attr_size(a); i++)
        if (!is_scalar(dlti_attr_element(a, i)))
            return false;
    return true;
}

static void put_array_inline(bs_buf *b, const dlti_attr *a)
{
    bs_buf_puts(b, "[");
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        if (i)
            bs_buf_puts(b, ", ");
        put_scalar(b, dlti_attr_element(a, i));
    }
    bs_buf_puts(b, "]");
}

/* Writes " value\n" after a "key:" or "-", or a nested block at `indent`. */
/* Whether a map has a key that is not UTF-8, which no YAML key holds: it
 * travels as !mlir text, whose escapes hold any byte. */
static bool keys_need_mlir(const dlti_attr *a)
{
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        size_t len;
        const char *s = dlti_key_str(dlti_attr_entry_key(a, i), &len);
        if (s && !bs_utf8_valid(s, len))
            return true;
    }
    return false;
}

static void put_value(bs_buf *b, const dlti_attr *a, int indent)
{
    dlti_attr_kind k = dlti_attr_get_kind(a);
    if ((k == DLTI_ATTR_MAP || k == DLTI_ATTR_DL_SPEC) && keys_need_mlir(a)) {
        bs_buf_puts(b, " ");
        put_mlir(b, a);
        bs_buf_puts(b, "\n");
        return;
    }
    if (k == DLTI_ATTR_MAP || k == DLTI_ATTR_DL_SPEC) {
        const char *tag = k == DLTI_ATTR_DL_SPEC ? " !dl_spec" : "";
        if (dlti_attr_size(a) == 0) {
            bs_buf_printf(b, "%s {}\n", tag);
            return;
        }
        bs_buf_printf(b, "%s\n", tag);
        put_entries(b, a, indent);
        return;
    }
    if (k == DLTI_ATTR_ARRAY) {
        if (flow_array(a)) {
            bs_buf_puts(b, " ");
            put_array_inline(b, a);
            bs_buf_puts(b, "\n");
            return;
        }
        bs_buf_puts(b, "\n");
        for (size_t i = 0; i < dlti_attr_size(a); i++) {
            put_indent(b, indent);
            bs_buf_puts(b, "-");
            put_value(b, dlti_attr_element(a, i), indent + 2);
        }
        return;
    }
    bs_buf_puts(b, " ");
    put_scalar(b, a);
    bs_buf_puts(b, "\n");
}

char *sysdesc_yaml_print(const sysdesc_system *sys, size_t *len)
{
    bs_buf b = {0};
    if (sys->data_layout) {
        bs_buf_puts(&b, "data_layout: ");
        if (!put_string(&b, sys->data_layout, strlen(sys->data_layout)))
            put_double_quoted(&b, sys->data_layout, strlen(sys->data_layout));
        bs_buf_puts(&b, "\n");
    } else if (sys->dl_spec) {
        bs_buf_puts(&b, "data_layout:");
        put_value(&b, sys->dl_spec, 2);
    }
    for (size_t i = 0; i < dlti_attr_size(sys->spec); i++) {
        put_key_at(&b, dlti_attr_entry_key(sys->spec, i), 0);
        bs_buf_puts(&b, "\n");
        put_entries(&b, dlti_attr_entry_value(sys->spec, i), 2);
    }
    return sd_buf_finish(&b, len);
}
