/* Typed JSON -> a system: what `--format json --typed` writes, read back to
 * the identical attributes (docs/yaml.md, "JSON").
 *
 * The marker member "$format": "sysdesc typed JSON 1" says a file is typed
 * JSON.  JSON without it is refused with a hint: plain JSON is made for jq
 * and loses MLIR's types (every integer is a number, NaN a null, a type its
 * text), so no reader can tell what it held.
 *
 * The rules, each the inverse of one choice of json_emit.c:
 *   a number without '.' or exponent  i64 (one that does not fit: an error)
 *   any other number                  f64
 *   true / false, a string            bool, string
 *   an array                          array
 *   {"type": T, "value": V}           (exactly these two members, any order)
 *       T "map"                       #dlti.map of the object V (its members
 *                                     are entries, whatever their names)
 *       T "type"                      the type attribute of the text V
 *       T "mlir"                      the attribute of the MLIR text V
 *       T "array<E>"                  array<E: ...> of the elements of V
 *       T an integer or float type    V of that type: a number, or (floats)
 *                                     the MLIR literal as a string ("0x7FC00000")
 *   any other object                  #dlti.map
 *   null                              an error: typed JSON writes none
 * At the top: "data_layout" (an LLVM data layout string or target triple,
 * an object: a #dlti.dl_spec, or {"type": "mlir", ...}), every other member
 * a device, whose object is its #dlti.target_device_spec (or, a device with
 * a key no member name holds, {"type": "mlir", ...}). */
#include "sysdesc_private.h"

#include "sysdesc/layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jl {
    dlti_context *ctx;
    const char *source;
    dlti_error_t *err;
    sd_types types;
    sd_key_set keys;
} jl;

__attribute__((format(printf, 4, 5))) static const dlti_attr *
fail_at(jl *j, const sd_node *n, dlti_error_code code, const char *fmt, ...)
{
    char text[DLTI_ERROR_TEXT_LENGTH];
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    bs_error_set_at(j->err, code, j->source, n->line, n->column, "%s", text);
    return NULL;
}

static const dlti_attr *nomem(jl *j)
{
    sd_nomem(j->ctx, j->err, j->source);
    return NULL;
}

/* An attribute a builder made, or its error placed at `n`. */
static const dlti_attr *built(jl *j, const dlti_attr *a, const sd_node *n)
{
    if (!a) {
        if (j->err && j->err->code == DLTI_OK)
            sd_nomem(j->ctx, j->err, j->source);
        bs_error_place(j->err, j->source, n->line, n->column);
    }
    return a;
}

static bool is_string(const sd_node *n)
{
    return n->kind == SD_SCALAR && !n->plain;
}

/* A scalar's text is `w`, all its bytes (a string may hold a NUL). */
static bool text_is(const sd_node *n, const char *w)
{
    return n->kind == SD_SCALAR && n->len == strlen(w) && memcmp(n->u.text, w, n->len) == 0;
}

static bool is_word(const sd_node *n, const char *w)
{
    return n->plain && text_is(n, w);
}

static bool is_number(const sd_node *n)
{
    return n->kind == SD_SCALAR && n->plain && (n->u.text[0] == '-' ||
                                                (n->u.text[0] >= '0' && n->u.text[0] <= '9'));
}

static bool is_integer(const sd_node *n)
{
    return is_number(n) && !strpbrk(n->u.text, ".eE");
}

/* `text` parsed as MLIR, the error placed at `n` (the MLIR text's own
 * column in parentheses). */
static const dlti_attr *parse_mlir(jl *j, const char *text, size_t len, const sd_node *n)
{
    dlti_error_t inner;
    const dlti_attr *a = sd_parse_mlir_value(j->ctx, text, len, j->source, &inner);
    if (!a)
        bs_error_set_at(j->err, inner.code, j->source, n->line, n->column,
                        "in MLIR text (column %d of it): %s", inner.column, inner.text);
    return a;
}

/* The text of a float literal as MLIR spells it: digits with a '.' before
 * any exponent ("1e+300" -> "1.0e+300"), or hex bits ("0x7FC00000"); false
 * for anything else, so that no string becomes more than one literal. */
static bool mlir_float_literal(const char *s, size_t len, bs_buf *b)
{
    size_t i = s[0] == '-' ? 1 : 0;
    if (len > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        for (size_t k = i + 2; k < len; k++)
            if (!strchr("0123456789abcdefABCDEF", s[k]))
                return false;
        bs_buf_put(b, s, len);
        return true;
    }
    size_t digits = 0, k = i;
    for (; k < len && s[k] >= '0' && s[k] <= '9'; k++)
        digits++;
    if (!digits)
        return false;
    size_t int_end = k;
    if (k < len && s[k] == '.')
        for (k++; k < len && s[k] >= '0' && s[k] <= '9'; k++)
            ;
    size_t exp = k;
    if (k < len && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        if (k < len && (s[k] == '+' || s[k] == '-'))
            k++;
        size_t d = k;
        while (k < len && s[k] >= '0' && s[k] <= '9')
            k++;
        if (k == d)
            return false;
    }
    if (k != len)
        return false;
    bs_buf_put(b, s, exp);
    if (exp == int_end)
        bs_buf_puts(b, ".0");
    bs_buf_put(b, s + exp, len - exp);
    return true;
}

static const dlti_attr *value(jl *j, const sd_node *n);

/* {"type": INTEGER TYPE, "value": N}: the digits of N in that type. */
static const dlti_attr *typed_int(jl *j, const dlti_type *t, const char *tname, const sd_node *v)
{
    if (!is_integer(v))
        return fail_at(j, v, DLTI_ERROR_SYNTAX, "the value of an integer of type %s is an "
                       "integer number", tname);
    bs_buf b = {0};
    bs_buf_printf(&b, "%s : %s", v->u.text, tname);
    char *text = sd_buf_finish(&b, NULL);
    if (!text)
        return nomem(j);
    dlti_error_t inner;
    const dlti_attr *a = dlti_attr_parse(j->ctx, text, strlen(text), j->source, &inner);
    free(text);
    if (a && dlti_attr_type(a) != t && !(dlti_attr_get_kind(a) == DLTI_ATTR_BOOL &&
                                         dlti_type_int_width(t) == 1))
        a = NULL;
    if (!a && (inner.code == DLTI_ERROR_NOMEM || inner.code == DLTI_ERROR_LIMIT))
        return fail_at(j, v, inner.code, "%s", inner.text);
    if (!a)
        return fail_at(j, v, DLTI_ERROR_SYNTAX, "value %.60s does not fit %.100s", v->u.text,
                       tname);
    return a;
}

/* {"type": FLOAT TYPE, "value": X}: a number through a double (every float
 * of at most 64 bits is one), or the MLIR literal as a string. */
static const dlti_attr *typed_float(jl *j, const dlti_type *t, const char *tname,
                                    const sd_node *v)
{
    if (is_number(v)) {
        double x = bs_strtod(v->u.text, NULL);
        const char *why = isfinite(x) ? dlti_type_float_loss(t, x) : "it overflows a double";
        if (why)
            return fail_at(j, v, DLTI_ERROR_SYNTAX, "value %.60s does not fit %.100s: %s",
                           v->u.text, tname, why);
        return built(j, dlti_float_new(j->ctx, t, x, j->err), v);
    }
    bs_buf b = {0};
    if (!is_string(v) || !mlir_float_literal(v->u.text, v->len, &b)) {
        free(b.data);
        return fail_at(j, v, DLTI_ERROR_SYNTAX, "the value of a float of type %.100s is a "
                       "number or its MLIR literal as a string (\"0x7FC00000\")", tname);
    }
    bs_buf_printf(&b, " : %s", tname);
    size_t len;
    char *text = sd_buf_finish(&b, &len);
    if (!text)
        return nomem(j);
    const dlti_attr *a = parse_mlir(j, text, len, v);
    free(text);
    if (a && dlti_attr_type(a) != t)
        return fail_at(j, v, DLTI_ERROR_SYNTAX, "not a float of type %s", tname);
    return a;
}

/* {"type": "array<E>", "value": [...]}: array<E: ...>, each element as the
 * scalars above spell it, through MLIR's own parser. */
static const dlti_attr *typed_dense(jl *j, const char *tname, const sd_node *v)
{
    size_t tlen = strlen(tname);
    const dlti_type *e = sd_type_parse(j->ctx, &j->types, tname + 6, tlen - 7, j->err);
    if (!e)
        return fail_at(j, v, DLTI_ERROR_SYNTAX, "no element type in '%s'", tname);
    bool is_float = dlti_type_get_kind(e) == DLTI_TYPE_FLOAT;
    if (v->kind != SD_SEQUENCE)
        return fail_at(j, v, DLTI_ERROR_SYNTAX, "the value of a %s is an array", tname);
    bs_buf b = {0};
    bs_buf_printf(&b, "array<%s", dlti_type_str(e));
    for (size_t i = 0; i < v->len; i++) {
        const sd_node *x = v->u.items[i];
        bs_buf_puts(&b, i ? ", " : ": ");
        bool ok = is_float ? (is_number(x) || is_string(x)) &&
                                 mlir_float_literal(x->u.text, x->len, &b)
                           : is_integer(x) || is_word(x, "true") || is_word(x, "false");
        if (!ok) {
            free(b.data);
            return fail_at(j, x, DLTI_ERROR_SYNTAX, "not an element of a %s", tname);
        }
        if (!is_float)
            bs_buf_put(&b, x->u.text, x->len);
    }
    bs_buf_puts(&b, ">");
    size_t len;
    char *text = sd_buf_finish(&b, &len);
    if (!text)
        return nomem(j);
    const dlti_attr *a = parse_mlir(j, text, len, v);
    free(text);
    return a;
}

static const dlti_attr *map(jl *j, const sd_node *n, dlti_attr_kind kind, sd_level level);

/* {"type": T, "value": V}. */
static const dlti_attr *typed(jl *j, const sd_node *tn, const sd_node *v)
{
    const char *t = tn->u.text;
    if (text_is(tn, "map")) {
        if (v->kind != SD_MAPPING)
            return fail_at(j, v, DLTI_ERROR_SYNTAX, "the value of a %s is an object", "map");
        return map(j, v, DLTI_ATTR_MAP, SD_LEVEL_MAP);
    }
    if (text_is(tn, "type") || text_is(tn, "mlir")) {
        if (!is_string(v))
            return fail_at(j, v, DLTI_ERROR_SYNTAX, "the value of a %s is a string", t);
        if (t[0] == 'm')
            return parse_mlir(j, v->u.text, v->len, v);
        const dlti_type *ty = sd_type_parse(j->ctx, &j->types, v->u.text, v->len, j->err);
        return built(j, ty ? dlti_type_attr_new(j->ctx, ty) : NULL, v);
    }
    size_t tlen = tn->len;
    /* "\u0000" in the name: every step below reads it as a C string */
    if (memchr(t, '\0', tlen))
        return fail_at(j, tn, DLTI_ERROR_SYNTAX, "a \"type\" with a NUL character");
    if (tlen > 7 && strncmp(t, "array<", 6) == 0 && t[tlen - 1] == '>')
        return typed_dense(j, t, v);
    dlti_error_t inner;
    const dlti_type *ty = sd_type_parse(j->ctx, &j->types, t, tlen, &inner);
    dlti_type_kind k = ty ? dlti_type_get_kind(ty) : DLTI_TYPE_INTEGER;
    if (ty && (k == DLTI_TYPE_INTEGER || k == DLTI_TYPE_INDEX))
        return typed_int(j, ty, t, v);
    if (ty && k == DLTI_TYPE_FLOAT)
        return typed_float(j, ty, t, v);
    return fail_at(j, tn, DLTI_ERROR_SYNTAX,
                   "unknown \"type\" '%.200s': an object of exactly the members \"type\" and "
                   "\"value\" is a typed value (a map with these two keys is written "
                   "{\"type\": \"map\", \"value\": {...}})", t);
}

/* The two members of {"type": T, "value": V}, when `n` is one. */
static bool typed_members(const sd_node *n, const sd_node **t, const sd_node **v)
{
    if (n->kind != SD_MAPPING || n->len != 2)
        return false;
    const sd_node *k0 = n->u.items[0], *k1 = n->u.items[2];
    int ti = text_is(k0, "type") && text_is(k1, "value")   ? 0
             : text_is(k1, "type") && text_is(k0, "value") ? 1
                                                           : -1;
    if (ti < 0 || !is_string(n->u.items[2 * ti + 1]))
        return false;
    *t = n->u.items[2 * ti + 1];
    *v = n->u.items[2 * (1 - ti) + 1];
    return true;
}

static const dlti_attr *value(jl *j, const sd_node *n)
{
    if (n->kind == SD_MAPPING) {
        const sd_node *t, *v;
        if (typed_members(n, &t, &v))
            return typed(j, t, v);
        return map(j, n, DLTI_ATTR_MAP, SD_LEVEL_MAP);
    }
    if (n->kind == SD_SEQUENCE) {
        const dlti_attr **elems = malloc((n->len ? n->len : 1) * sizeof(*elems));
        if (!elems)
            return nomem(j);
        size_t i = 0;
        while (i < n->len && (elems[i] = value(j, n->u.items[i])))
            i++;
        const dlti_attr *a =
            i == n->len ? built(j, dlti_array_build(j->ctx, elems, n->len, j->err), n) : NULL;
        free(elems);
        return a;
    }
    if (is_string(n)) {
        if (sd_string_check(j->ctx, &j->types, n, j->source, j->err) < 0)
            return NULL;
        return built(j, dlti_string_new(j->ctx, n->u.text, n->len), n);
    }
    if (is_word(n, "true") || is_word(n, "false"))
        return built(j, dlti_bool_new(j->ctx, n->u.text[0] == 't'), n);
    if (is_word(n, "null"))
        return fail_at(j, n, DLTI_ERROR_SYNTAX, "null is no value: typed JSON writes NaN, "
                       "infinities and every other value in full");
    if (is_integer(n)) {
        /* i64: the digits fit, or the error names the way to write more */
        const char *s = n->u.text;
        bool neg = s[0] == '-';
        uint64_t mag = 0;
        bool over = false;
        for (const char *c = s + neg; *c; c++) {
            unsigned d = (unsigned)(*c - '0');
            over |= mag > (UINT64_MAX - d) / 10;
            mag = mag * 10 + d;
        }
        if (over || mag > (uint64_t)INT64_MAX + neg)
            return fail_at(j, n, DLTI_ERROR_SYNTAX, "integer %.60s does not fit i64 (a wider "
                           "integer is {\"type\": \"i128\", \"value\": ...})", s);
        return built(j, dlti_i64_new(j->ctx, neg ? (int64_t)(0 - mag) : (int64_t)mag), n);
    }
    double x = bs_strtod(n->u.text, NULL);
    if (!isfinite(x))
        return fail_at(j, n, DLTI_ERROR_SYNTAX, "number %.60s overflows f64", n->u.text);
    return built(j, dlti_float_new(j->ctx, dlti_type_f64(j->ctx), x, j->err), n);
}

/* The entries of object `n` as a container of `kind`; keys as the YAML
 * reader makes them (string limit, no empty key below the devices). */
static const dlti_attr *map(jl *j, const sd_node *n, dlti_attr_kind kind, sd_level level)
{
    dlti_entry *entries = malloc((n->len ? n->len : 1) * sizeof(*entries));
    if (!entries)
        return nomem(j);
    const dlti_attr *result = NULL;
    size_t i = 0;
    for (; i < n->len; i++) {
        entries[i].key = sd_key(j->ctx, &j->types, n->u.items[2 * i], level, j->source, j->err);
        if (!entries[i].key)
            goto out;
    }
    size_t dup, first;
    int r = sd_key_repeat(entries, n->len, &j->keys, &dup, &first);
    if (r != 0) {
        const sd_node *k = n->u.items[2 * dup], *k0 = n->u.items[2 * first];
        if (r < 0)
            nomem(j);
        else
            bs_error_set_at(j->err, DLTI_ERROR_SYNTAX, j->source, k->line, k->column,
                            "duplicate key '%.200s' (first at line %d, column %d)", k->u.text,
                            k0->line, k0->column);
        goto out;
    }
    for (i = 0; i < n->len; i++)
        if (!(entries[i].value = value(j, n->u.items[2 * i + 1])))
            goto out;
    result = built(j, dlti_container_new(j->ctx, kind, entries, n->len, j->err), n);
out:
    free(entries);
    return result;
}

/* "data_layout": a string (sysdesc_system.data_layout, imported), an
 * object (a #dlti.dl_spec) or {"type": "mlir", "value": "#dlti.dl_spec<...>"}. */
static int data_layout(jl *j, const sd_node *v, sysdesc_system *out)
{
    if (is_string(v))
        return sd_data_layout_value(j->ctx, &j->types, v, j->source, out, j->err);
    const sd_node *t, *tv;
    const dlti_attr *a = NULL;
    if (v->kind != SD_MAPPING) {
        fail_at(j, v, DLTI_ERROR_SYNTAX, "data_layout: needs an LLVM data layout string, a "
                "target triple, an object (a #dlti.dl_spec) or {\"type\": \"mlir\", ...}");
        return -1;
    }
    if (typed_members(v, &t, &tv))
        a = typed(j, t, tv);
    else
        a = map(j, v, DLTI_ATTR_DL_SPEC, SD_LEVEL_MAP);
    if (!a)
        return -1;
    if (dlti_attr_get_kind(a) != DLTI_ATTR_DL_SPEC) {
        fail_at(j, v, DLTI_ERROR_VERIFY, "data_layout: needs a #dlti.dl_spec, not a %s",
                dlti_attr_kind_name(dlti_attr_get_kind(a)));
        return -1;
    }
    out->dl_spec = sd_module_dl_spec(j->ctx, a, j->err); /* a module's layout rules */
    return built(j, out->dl_spec, v) ? 0 : -1;
}

static int refuse_plain(jl *j, const sd_node *root)
{
    bs_error_set_at(j->err, DLTI_ERROR_UNSUPPORTED, j->source, root->line, root->column,
                    "plain JSON is not read: it loses MLIR's types (every integer is a "
                    "number, NaN a null, a type its text), so it cannot be read back as it "
                    "was; write --format json --typed (read back exactly), or yaml or mlir "
                    "(a JSON file written by hand reads by YAML's rules when its name ends "
                    "in .yaml)");
    return -1;
}

static int load_root(jl *j, const sd_node *root, sysdesc_system *out)
{
    if (root->kind != SD_MAPPING) {
        fail_at(j, root, DLTI_ERROR_SYNTAX, "a system is a JSON object");
        return -1;
    }
    const sd_node *marker = NULL;
    for (size_t i = 0; i < root->len; i++)
        if (text_is(root->u.items[2 * i], SD_JSON_FORMAT_KEY))
            marker = root->u.items[2 * i + 1];
    if (!marker || !is_string(marker)) /* plain JSON, a device named "$format" in it */
        return refuse_plain(j, root);
    if (!text_is(marker, SD_JSON_FORMAT_TYPED)) {
        fail_at(j, marker, DLTI_ERROR_UNSUPPORTED, "\"" SD_JSON_FORMAT_KEY "\" is not \""
                SD_JSON_FORMAT_TYPED "\", the only JSON this sysdesc reads");
        return -1;
    }
    sysdesc_system sys = {0};
    dlti_entry *devices = malloc((root->len ? root->len : 1) * sizeof(*devices));
    if (!devices)
        return sd_nomem(j->ctx, j->err, j->source);
    int rc = -1;
    size_t n = 0;
    const sd_node *layout = NULL;
    for (size_t i = 0; i < root->len; i++) {
        const sd_node *k = root->u.items[2 * i], *v = root->u.items[2 * i + 1];
        if (v == marker && text_is(k, SD_JSON_FORMAT_KEY))
            continue;
        if (text_is(k, "data_layout")) {
            if (layout) {
                fail_at(j, k, DLTI_ERROR_SYNTAX, "duplicate key '%s'", "data_layout");
                goto out;
            }
            layout = v;
            if (data_layout(j, v, &sys) < 0)
                goto out;
            continue;
        }
        devices[n].key = sd_key(j->ctx, &j->types, k, SD_LEVEL_SYSTEM, j->source, j->err);
        if (!devices[n].key)
            goto out;
        if (v->kind != SD_MAPPING) {
            fail_at(j, v, DLTI_ERROR_SYNTAX, "device '%.200s' is not a JSON object", k->u.text);
            goto out;
        }
        /* {"type": "mlir", ...}: a device whose keys no member name holds,
         * or that looks like a typed value */
        const sd_node *t, *tv;
        devices[n].value = typed_members(v, &t, &tv) ? typed(j, t, tv)
                                                     : map(j, v, DLTI_ATTR_DEVICE_SPEC,
                                                           SD_LEVEL_DEVICE);
        if (!devices[n].value)
            goto out;
        if (dlti_attr_get_kind(devices[n].value) != DLTI_ATTR_DEVICE_SPEC) {
            fail_at(j, v, DLTI_ERROR_VERIFY, "device '%.200s' needs a "
                    "#dlti.target_device_spec, not a %s", k->u.text,
                    dlti_attr_kind_name(dlti_attr_get_kind(devices[n].value)));
            goto out;
        }
        n++;
    }
    size_t dup, first;
    int r = sd_key_repeat(devices, n, &j->keys, &dup, &first);
    if (r != 0) {
        if (r < 0)
            sd_nomem(j->ctx, j->err, j->source);
        else
            fail_at(j, root, DLTI_ERROR_SYNTAX, "duplicate device id '%.200s'",
                    dlti_key_str(devices[dup].key, NULL));
        goto out;
    }
    sys.spec = built(j, dlti_container_new(j->ctx, DLTI_ATTR_SYSTEM_SPEC, devices, n, j->err),
                     root);
    if (sys.spec) {
        *out = sys;
        rc = 0;
    }
out:
    free(devices);
    return rc;
}

int sd_json_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    sysdesc_yaml_options filled;
    sd_yaml_options_fill(&filled, opts);
    bs_error_clear(err);
    if (!source)
        source = "<input>";
    if (len > filled.max_input_bytes) {
        bs_error_set_at(err, DLTI_ERROR_LIMIT, source, 0, 0,
                        "JSON input is larger than the limit of %zu bytes "
                        "(sysdesc_yaml_options.max_input_bytes)", filled.max_input_bytes);
        return -1;
    }
    dlti_input_budget_saved saved = dlti_input_budget(ctx, len);
    jl j = {.ctx = ctx, .source = source, .err = err};
    sd_doc doc;
    /* A typed value wraps one level of the attribute in an object of its
     * own: twice the attribute's depth, and the system's two levels. */
    int rc = sd_json_parse(&doc, text, len, source, 2 * filled.max_depth + 2, err);
    if (rc == 0) {
        rc = load_root(&j, doc.root, out);
        sd_doc_free(&doc);
    }
    free(j.keys.slots);
    dlti_input_budget_end(ctx, saved);
    return rc;
}
