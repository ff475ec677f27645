/* What a YAML scalar means: plain-scalar resolution (YAML 1.2 core schema)
 * and the local tags that pick an MLIR type.  docs/yaml.md is the contract. */
#include "sysdesc_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The value of digit `c` (0-9, a-z, A-Z), or 36 for anything else. */
static unsigned digit_value(char c)
{
    if (is_digit(c))
        return (unsigned)(c - '0');
    unsigned letter = (unsigned)((c | 0x20) - 'a');
    return letter < 26 ? letter + 10 : 36;
}

/* A non-empty run of digits of `base`: every plain scalar is tested, so no
 * per-character set lookup. */
static bool all_digits(const char *s, size_t len, unsigned base)
{
    if (!len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (digit_value(s[i]) >= base)
            return false;
    return true;
}

static bool equals(const char *s, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

static bool is_null_text(const char *s, size_t len)
{
    return len == 0 || equals(s, len, "~") || equals(s, len, "null") || equals(s, len, "Null") ||
           equals(s, len, "NULL");
}

static int bool_text(const char *s, size_t len)
{
    if (equals(s, len, "true") || equals(s, len, "True") || equals(s, len, "TRUE"))
        return 1;
    if (equals(s, len, "false") || equals(s, len, "False") || equals(s, len, "FALSE"))
        return 0;
    return -1;
}

/* [-+]?[0-9]+ | 0x[0-9a-fA-F]+ | 0o[0-7]+ */
static bool is_int_text(const char *s, size_t len)
{
    if (len > 2 && s[0] == '0' && s[1] == 'x')
        return all_digits(s + 2, len - 2, 16);
    if (len > 2 && s[0] == '0' && s[1] == 'o')
        return all_digits(s + 2, len - 2, 8);
    if (len && (s[0] == '-' || s[0] == '+'))
        s++, len--;
    return all_digits(s, len, 10);
}

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?  (not an integer) */
static bool is_float_number(const char *s, size_t len)
{
    size_t i = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        i++;
    size_t int_digits = 0, frac_digits = 0;
    while (i < len && is_digit(s[i]))
        i++, int_digits++;
    bool dot = false;
    if (i < len && s[i] == '.') {
        dot = true;
        i++;
        while (i < len && is_digit(s[i]))
            i++, frac_digits++;
    }
    if (int_digits == 0 && frac_digits == 0)
        return false;
    bool exp = false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '-' || s[i] == '+'))
            i++;
        size_t d = 0;
        while (i < len && is_digit(s[i]))
            i++, d++;
        if (!d)
            return false;
        exp = true;
    }
    return i == len && (dot || exp);
}

/* .inf, -.inf, .nan in their three spellings; returns 1/-1 for infinities, 2 for NaN. */
static int special_float(const char *s, size_t len)
{
    if (equals(s, len, ".nan") || equals(s, len, ".NaN") || equals(s, len, ".NAN"))
        return 2;
    int sign = 1;
    if (len && (s[0] == '-' || s[0] == '+')) {
        sign = s[0] == '-' ? -1 : 1;
        s++, len--;
    }
    if (equals(s, len, ".inf") || equals(s, len, ".Inf") || equals(s, len, ".INF"))
        return sign;
    return 0;
}

sd_plain_kind sd_plain_classify(const char *s, size_t len)
{
    /* Every null starts with ~ n N (or is empty), every boolean with t T f F,
     * every number with a digit, a sign or a dot: one look at the first
     * character rules the other kinds out (most plain scalars are words). */
    if (len == 0)
        return SD_PLAIN_NULL;
    char c = s[0];
    if (c == '~' || c == 'n' || c == 'N')
        return is_null_text(s, len) ? SD_PLAIN_NULL : SD_PLAIN_STRING;
    if (c == 't' || c == 'T' || c == 'f' || c == 'F')
        return bool_text(s, len) >= 0 ? SD_PLAIN_BOOL : SD_PLAIN_STRING;
    if (!is_digit(c) && c != '-' && c != '+' && c != '.')
        return SD_PLAIN_STRING;
    if (is_int_text(s, len))
        return SD_PLAIN_INT;
    if (is_float_number(s, len) || special_float(s, len))
        return SD_PLAIN_FLOAT;
    return SD_PLAIN_STRING;
}

/* ---- numbers ---- */

/* Parses an integer in any of the accepted spellings into sign and
 * magnitude; false when it does not fit 64 bits of magnitude. */
static bool parse_magnitude(const char *s, size_t len, bool *negative, uint64_t *mag)
{
    *negative = false;
    int base = 10;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
        base = s[1] == 'x' ? 16 : 8;
        s += 2, len -= 2;
    } else if (len && (s[0] == '-' || s[0] == '+')) {
        *negative = s[0] == '-';
        s++, len--;
    }
    /* v * base + d fits while v is below UINT64_MAX / base (or equal to it
     * with d at most the remainder): one division, not one per digit. */
    const uint64_t limit = UINT64_MAX / (uint64_t)base, last = UINT64_MAX % (uint64_t)base;
    uint64_t v = 0;
    if (base == 10 && len <= 19) { /* below 10^19 < 2^64: nothing to check */
        for (size_t i = 0; i < len; i++)
            v = v * 10 + (uint64_t)(s[i] - '0');
        *mag = v;
        return true;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned d = digit_value(s[i]);
        if (v > limit || (v == limit && d > last))
            return false;
        v = v * (uint64_t)base + d;
    }
    *mag = v;
    return true;
}

static const char *type_name(const dlti_type *t) { return dlti_type_str(t); }

/* What a builder that takes no error gave (dlti_bool_new and the like say
 * only NULL: memory): `a`, or NULL with the context's reason (its memory
 * budget, or out of memory) at the node. */
static const dlti_attr *built(dlti_context *ctx, const dlti_attr *a, const sd_node *n,
                              const char *source, dlti_error_t *err)
{
    if (!a && err && err->code == DLTI_OK) {
        dlti_context_nomem(ctx, err);
        bs_error_place(err, source, n->line, n->column);
    }
    return a;
}

const dlti_type *sd_type_parse(dlti_context *ctx, sd_types *tc, const char *text, size_t len,
                               dlti_error_t *err)
{
    if (!tc || len >= sizeof(tc->slot[0].text))
        return dlti_type_parse(ctx, text, len, err);
    for (size_t i = 0; i < sizeof(tc->slot) / sizeof(tc->slot[0]); i++)
        if (tc->slot[i].type && tc->slot[i].len == len && memcmp(tc->slot[i].text, text, len) == 0)
            return tc->slot[i].type;
    const dlti_type *t = dlti_type_parse(ctx, text, len, err);
    if (t) {
        unsigned i = tc->next++ % (unsigned)(sizeof(tc->slot) / sizeof(tc->slot[0]));
        memcpy(tc->slot[i].text, text, len);
        tc->slot[i].len = len;
        tc->slot[i].type = t;
    }
    return t;
}

const dlti_type *sd_type_scalar(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, dlti_error_t *err)
{
    dlti_error_t inner;
    const dlti_type *t = sd_type_parse(ctx, tc, n->u.text, n->len, &inner);
    if (!t)
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                        "'%s' is not an MLIR type for !type: %s", n->u.text, inner.text);
    return t;
}

static const dlti_type *type_f64(dlti_context *ctx, sd_types *tc)
{
    if (!tc)
        return dlti_type_f64(ctx);
    if (!tc->f64)
        tc->f64 = dlti_type_f64(ctx);
    return tc->f64;
}

/* dlti_i64_new() with the i64 type looked up once. */
static const dlti_attr *make_i64(dlti_context *ctx, sd_types *tc, int64_t v)
{
    if (!tc)
        return dlti_i64_new(ctx, v);
    if (!tc->i64)
        tc->i64 = dlti_type_integer(ctx, 64, DLTI_SIGNLESS);
    return tc->i64 ? dlti_int_new(ctx, tc->i64, v, NULL) : NULL;
}

/* An integer attribute of type `t` from text already known to be an integer. */
static const dlti_attr *make_int(dlti_context *ctx, const dlti_type *t, const sd_node *n,
                                 const char *source, dlti_error_t *err)
{
    bool neg;
    uint64_t mag;
    bool fits64 = parse_magnitude(n->u.text, n->len, &neg, &mag);
    if (fits64 && (neg ? mag <= (uint64_t)INT64_MAX + 1 : mag <= (uint64_t)INT64_MAX)) {
        int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
        const dlti_attr *a = dlti_int_new(ctx, t, v, err);
        if (!a && err && err->code == DLTI_ERROR_RANGE)
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                     "value %s does not fit !%s", n->u.text, type_name(t));
        else if (!a)
            bs_error_place(err, source, (n)->line, (n)->column);
        return a;
    }
    /* Wider than int64: the builder takes int64 only, so the core's literal
     * parser converts the (validated) digits. */
    char dec[64];
    const char *digits = n->u.text;
    if (fits64) {
        snprintf(dec, sizeof(dec), "%s%llu", neg ? "-" : "", (unsigned long long)mag);
        digits = dec;
    } else if (n->len > 2 && n->u.text[0] == '0' && (n->u.text[1] == 'x' || n->u.text[1] == 'o')) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                 "hex and octal values wider than 64 bits are not supported; write %s in decimal",
                 n->u.text);
        return NULL;
    }
    if (digits[0] == '+')
        digits++;
    bs_buf b = {0};
    bs_buf_printf(&b, "%s : %s", digits, type_name(t));
    char *text = sd_buf_finish(&b, NULL);
    if (!text) {
        sd_nomem(ctx, err, source);
        return NULL;
    }
    dlti_error_t inner;
    inner.code = DLTI_OK;
    const dlti_attr *a = dlti_attr_parse(ctx, text, strlen(text), source, &inner);
    free(text);
    if (!a && (inner.code == DLTI_ERROR_NOMEM || inner.code == DLTI_ERROR_LIMIT))
        bs_error_set_at(err, inner.code, source, n->line, n->column, "%s", inner.text);
    else if (!a)
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                 "value %s does not fit !%s", n->u.text, type_name(t));
    return a;
}

/* strtod() of a decimal that is_float_number() or is_int_text() accepted,
 * when one exact operation gives it: at most 15 significant digits (an exact
 * double) times or over a power of ten up to 10^22 (also exact), which IEEE
 * arithmetic rounds once, as strtod() does.  False: use strtod(). */
static bool decimal_fast(const char *s, size_t len, double *out)
{
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    bool negative = false;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        negative = s[i++] == '-';
    uint64_t m = 0;
    int digits = 0, scale = 0;
    for (; i < len && is_digit(s[i]); i++) {
        if (m || s[i] != '0')
            digits++;
        m = m * 10 + (uint64_t)(s[i] - '0');
        if (digits > 15)
            return false;
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && is_digit(s[i]); i++) {
            if (m || s[i] != '0')
                digits++;
            m = m * 10 + (uint64_t)(s[i] - '0');
            scale--;
            if (digits > 15)
                return false;
        }
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (s[i] == '-' || s[i] == '+'))
            eneg = s[i++] == '-';
        int e = 0;
        for (; i < len && is_digit(s[i]); i++) {
            if (e > 1000)
                return false;
            e = e * 10 + (s[i] - '0');
        }
        scale += eneg ? -e : e;
    }
    if (i != len || scale < -22 || scale > 22)
        return false;
    double v = scale >= 0 ? (double)m * p10[scale] : (double)m / p10[-scale];
    *out = negative ? -v : v;
    return true;
}

static const dlti_attr *make_float(dlti_context *ctx, const dlti_type *t, const sd_node *n,
                                   const char *source, dlti_error_t *err)
{
    const char *s = n->u.text;
    double v;
    if (!t)
        return built(ctx, NULL, n, source, err); /* f64 not made: out of memory */
    int special = special_float(s, n->len);
    if (special == 2) {
        v = NAN;
    } else if (special) {
        v = special * INFINITY;
    } else if (is_float_number(s, n->len) || (is_int_text(s, n->len) && !(n->len > 1 && s[1] == 'o') &&
                                            !(n->len > 1 && s[1] == 'x'))) {
        errno = 0;
        if (!decimal_fast(s, n->len, &v))
            v = bs_strtod(s, NULL);
        if (isinf(v)) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                     "value %s does not fit !%s", s, type_name(t));
            return NULL;
        }
    } else {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                 "'%s' is not a number for !%s", s, type_name(t));
        return NULL;
    }
    /* Arrives as itself or not at all (dlti_type_float_loss: NaN, infinities,
     * overflow and signs of the narrow formats). */
    const char *why = dlti_type_float_loss(t, v);
    if (why) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                        "value %s does not fit !%s (%s)", s, type_name(t), why);
        return NULL;
    }
    const dlti_attr *a = dlti_float_new(ctx, t, v, err);
    if (!a)
        bs_error_place(err, source, (n)->line, (n)->column);
    return a;
}

/* ---- strings ---- */

int sd_string_check(dlti_context *ctx, sd_types *tc, const sd_node *n, const char *source,
                    dlti_error_t *err)
{
    size_t max = tc ? tc->max_string : 0;
    if (!max) {
        max = dlti_context_get_limits(ctx).max_string_bytes;
        if (tc)
            tc->max_string = max;
    }
    size_t len = n->len;
    /* dlti_print_string(): printable ASCII as is, a backslash doubled, any
     * other byte as \XX; at most 3 bytes each, so short texts need no scan. */
    if (len > max / 3)
        for (size_t i = 0; i < n->len && len <= max; i++) {
            unsigned char c = (unsigned char)n->u.text[i];
            len += c == '\\' ? 1 : c < 0x20 || c >= 0x7F ? 2 : 0;
        }
    if (len <= max)
        return 0;
    bs_error_set_at(err, DLTI_ERROR_LIMIT, source, n->line, n->column,
             "string longer than the limit of %zu bytes (as an MLIR string literal, escapes "
             "included)", max);
    return -1;
}

static const dlti_attr *string_attr(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                    const char *source, dlti_error_t *err)
{
    if (sd_string_check(ctx, tc, n, source, err) < 0)
        return NULL;
    return built(ctx, dlti_string_new(ctx, n->u.text, n->len), n, source, err);
}

/* ---- tags ---- */

static const dlti_attr *resolve_plain(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                      const char *source, bool *is_null, dlti_error_t *err)
{
    switch (sd_plain_classify(n->u.text, n->len)) {
    case SD_PLAIN_NULL:
        *is_null = true;
        return NULL;
    case SD_PLAIN_BOOL:
        return built(ctx, dlti_bool_new(ctx, bool_text(n->u.text, n->len) == 1), n, source, err);
    case SD_PLAIN_INT: {
        bool neg;
        uint64_t mag;
        if (!parse_magnitude(n->u.text, n->len, &neg, &mag) ||
            (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                     "integer %s does not fit i64: tag it (!ui64, !i128) or quote it", n->u.text);
            return NULL;
        }
        return built(ctx, make_i64(ctx, tc, neg ? (int64_t)(0 - mag) : (int64_t)mag), n, source, err);
    }
    case SD_PLAIN_FLOAT:
        return make_float(ctx, type_f64(ctx, tc), n, source, err);
    case SD_PLAIN_STRING:
        break;
    }
    return string_attr(ctx, tc, n, source, err);
}

const dlti_attr *sd_parse_mlir_value(dlti_context *ctx, const char *text, size_t len,
                                     const char *source, dlti_error_t *err)
{
    /* Read as the element of "[TEXT]": a value, not a module's bare
     * attribute, so that a nested #dlti.dl_spec is read as MLIR's parser
     * reads it inside a module (the module's layout rules are not its). */
    char *wrapped = malloc(len + 3);
    if (!wrapped) {
        sd_nomem(ctx, err, source);
        return NULL;
    }
    wrapped[0] = '[';
    memcpy(wrapped + 1, text, len);
    wrapped[len + 1] = ']';
    wrapped[len + 2] = '\0';
    const dlti_attr *a = dlti_attr_parse(ctx, wrapped, len + 2, source, err);
    free(wrapped);
    if (a && (dlti_attr_get_kind(a) != DLTI_ATTR_ARRAY || dlti_attr_size(a) != 1)) {
        bs_error_set(err, DLTI_ERROR_SYNTAX, "expected one attribute");
        return NULL;
    }
    if (!a && err && err->line == 1 && err->column > 1)
        err->column--; /* the column in TEXT */
    return a ? dlti_attr_element(a, 0) : NULL;
}

const dlti_attr *sd_module_dl_spec(dlti_context *ctx, const dlti_attr *a, dlti_error_t *err)
{
    size_t n = dlti_attr_size(a);
    dlti_entry *entries = malloc((n ? n : 1) * sizeof(*entries));
    if (!entries) {
        bs_nomem(err);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        entries[i].key = dlti_attr_entry_key(a, i);
        entries[i].value = dlti_attr_entry_value(a, i);
    }
    /* the public builder applies the rules of a module's layout */
    const dlti_attr *checked = dlti_container_new(ctx, DLTI_ATTR_DL_SPEC, entries, n, err);
    free(entries);
    return checked;
}

static const dlti_attr *parse_mlir(dlti_context *ctx, const sd_node *n, const char *source,
                                   dlti_error_t *err)
{
    dlti_error_t inner;
    const dlti_attr *a = sd_parse_mlir_value(ctx, n->u.text, n->len, source, &inner);
    if (!a)
        bs_error_set_at(err, inner.code, source, n->line, n->column,
                 "in !mlir value (column %d of the value): %s", inner.column, inner.text);
    return a;
}

const dlti_attr *sd_scalar_attr(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, bool *is_null, dlti_error_t *err)
{
    *is_null = false;
    const char *tag = n->tag;
    if (!tag)
        return n->plain ? resolve_plain(ctx, tc, n, source, is_null, err)
                        : string_attr(ctx, tc, n, source, err);
    if (strcmp(tag, SD_TAG_STR) == 0)
        return string_attr(ctx, tc, n, source, err);
    if (strcmp(tag, SD_TAG_NULL) == 0) {
        if (!is_null_text(n->u.text, n->len)) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                     "'%s' is not a null for !!null", n->u.text);
            return NULL;
        }
        *is_null = true;
        return NULL;
    }
    if (strcmp(tag, SD_TAG_BOOL) == 0) {
        int v = bool_text(n->u.text, n->len);
        if (v < 0) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                     "'%s' is not a boolean for !!bool (true or false)", n->u.text);
            return NULL;
        }
        return built(ctx, dlti_bool_new(ctx, v == 1), n, source, err);
    }
    if (strcmp(tag, SD_TAG_INT) == 0) {
        if (!is_int_text(n->u.text, n->len)) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                     "'%s' is not an integer for !!int", n->u.text);
            return NULL;
        }
        sd_node plain = *n;
        plain.tag = NULL;
        plain.plain = true;
        return resolve_plain(ctx, tc, &plain, source, is_null, err);
    }
    if (strcmp(tag, SD_TAG_FLOAT) == 0)
        return make_float(ctx, type_f64(ctx, tc), n, source, err);
    if (strcmp(tag, "!mlir") == 0)
        return parse_mlir(ctx, n, source, err);
    if (strcmp(tag, "!type") == 0) {
        const dlti_type *t = sd_type_scalar(ctx, tc, n, source, err);
        return t ? built(ctx, dlti_type_attr_new(ctx, t), n, source, err) : NULL;
    }
    if (tag[0] == '!' && tag[1] != '\0' && tag[1] != '!') {
        /* A local tag that names an integer, index or float type. */
        dlti_error_t terr;
        terr.code = DLTI_OK;
        const dlti_type *t = sd_type_parse(ctx, tc, tag + 1, strlen(tag + 1), &terr);
        if (!t && (terr.code == DLTI_ERROR_NOMEM || terr.code == DLTI_ERROR_LIMIT)) {
            bs_error_set_at(err, terr.code, source, n->line, n->column, "%s", terr.text);
            return NULL;
        }
        dlti_type_kind k = t ? dlti_type_get_kind(t) : DLTI_TYPE_NONE;
        if (t && (k == DLTI_TYPE_INTEGER || k == DLTI_TYPE_INDEX)) {
            if (!is_int_text(n->u.text, n->len)) {
                bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                         "'%s' is not an integer for %s", n->u.text, tag);
                return NULL;
            }
            return make_int(ctx, t, n, source, err);
        }
        if (t && k == DLTI_TYPE_FLOAT)
            return make_float(ctx, t, n, source, err);
    }
    bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
             "unknown tag '%s' (see docs/yaml.md for the tags sysdesc knows)", tag);
    return NULL;
}

/* ---- dense arrays: !array:T [...] ---- */

bool sd_is_dense_tag(const char *tag)
{
    return tag && strncmp(tag, SD_TAG_DENSE, sizeof(SD_TAG_DENSE) - 1) == 0;
}

/* A float element MLIR reads as it is: [-]digits.digits[e[+-]digits]. */
static bool mlir_float_text(const char *s, size_t len)
{
    size_t i = s[0] == '-' ? 1 : 0, d = i;
    while (i < len && is_digit(s[i]))
        i++;
    if (i == d || i >= len || s[i] != '.')
        return false;
    for (i++; i < len && is_digit(s[i]); i++)
        ;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '-' || s[i] == '+'))
            i++;
        if (i >= len || !is_digit(s[i]))
            return false;
        while (i < len && is_digit(s[i]))
            i++;
    }
    return i == len;
}

/* Each element is converted as `!T element` would be (its errors are that
 * tag's, at the element), then the whole goes through the core's parser as
 * `array<T: ...>`, so the result is what MLIR makes of that text. */
const dlti_attr *sd_dense_array(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, dlti_error_t *err)
{
    const char *tname = n->tag + sizeof(SD_TAG_DENSE) - 1;
    dlti_error_t terr;
    terr.code = DLTI_OK;
    const dlti_type *t = sd_type_parse(ctx, tc, tname, strlen(tname), &terr);
    if (!t && (terr.code == DLTI_ERROR_NOMEM || terr.code == DLTI_ERROR_LIMIT)) {
        bs_error_set_at(err, terr.code, source, n->line, n->column, "%s", terr.text);
        return NULL;
    }
    dlti_type_kind k = t ? dlti_type_get_kind(t) : DLTI_TYPE_NONE;
    if (!t || !((k == DLTI_TYPE_INTEGER && dlti_type_int_width(t) <= 64) ||
                (k == DLTI_TYPE_FLOAT && dlti_type_float_width(t) <= 64))) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                        "unknown tag '%s' on a sequence (%sT [...] needs an integer type of at "
                        "most 64 bits or a float type up to f64)",
                        n->tag, SD_TAG_DENSE);
        return NULL;
    }
    char elem_tag[48];
    snprintf(elem_tag, sizeof(elem_tag), "!%s", tname);
    bool i1 = k == DLTI_TYPE_INTEGER && dlti_type_int_width(t) == 1;
    bs_buf b = {0};
    bs_buf_printf(&b, "array<%s", tname);
    for (size_t i = 0; i < n->len; i++) {
        const sd_node *e = n->u.items[i];
        if (e->kind != SD_SCALAR || e->tag || !e->plain) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, e->line, e->column,
                            "an element of %s is a plain number%s", n->tag,
                            i1 ? " or true/false" : "");
            goto fail;
        }
        bs_buf_puts(&b, i ? ", " : ": ");
        if (i1 && (bool_text(e->u.text, e->len) >= 0)) {
            bs_buf_puts(&b, bool_text(e->u.text, e->len) ? "true" : "false");
            continue;
        }
        if (is_null_text(e->u.text, e->len)) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, e->line, e->column,
                            "null in a sequence: an array element needs a value");
            goto fail;
        }
        sd_node tagged = *e;
        tagged.tag = elem_tag;
        bool null;
        const dlti_attr *a = sd_scalar_attr(ctx, tc, &tagged, source, &null, err);
        if (!a)
            goto fail;
        if (k == DLTI_TYPE_FLOAT && mlir_float_text(e->u.text, e->len)) {
            bs_buf_put(&b, e->u.text, e->len);
            continue;
        }
        size_t len;
        char *text = dlti_attr_print(a, &len);
        if (!text)
            goto nomem;
        char *colon = strstr(text, " : ");
        bs_buf_put(&b, text, colon ? (size_t)(colon - text) : len);
        free(text);
    }
    bs_buf_puts(&b, ">");
    char *text = sd_buf_finish(&b, NULL);
    if (!text) {
        sd_nomem(ctx, err, source);
        return NULL;
    }
    dlti_error_t inner;
    const dlti_attr *a = dlti_attr_parse(ctx, text, strlen(text), source, &inner);
    free(text);
    if (!a)
        bs_error_set_at(err, inner.code, source, n->line, n->column, "%s: %s", n->tag,
                        inner.text);
    return a;
nomem:
    sd_nomem(ctx, err, source);
fail:
    free(sd_buf_finish(&b, NULL));
    return NULL;
}
