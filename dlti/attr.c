/* Attributes: construction, accessors, typed reads and equality (the
 * checked public builders and path edits are in container_edit.c). */
#include "dlti_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dlti_attr_kind dlti_attr_get_kind(const dlti_attr *attr)
{
    return attr->kind;
}

const char *dlti_attr_kind_name(dlti_attr_kind kind)
{
    static const char *const names[] = {
        "integer", "float", "bool", "string", "unit", "type", "array", "dense_array", "dense",
        "dictionary", "opaque", "map", "dl_spec", "target_device_spec", "target_system_spec",
        "dl_entry"};
    return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

bool dlti_attr_is_queryable(const dlti_attr *attr)
{
    return attr && dlti_attr_is_container(attr->kind);
}

const dlti_type *dlti_attr_type(const dlti_attr *attr)
{
    return attr->type;
}

size_t dlti_attr_size(const dlti_attr *attr)
{
    switch (attr->kind) {
    case DLTI_ATTR_ARRAY:
    case DLTI_ATTR_DENSE_ARRAY:
    case DLTI_ATTR_DENSE:
    case DLTI_ATTR_DICTIONARY:
    case DLTI_ATTR_MAP:
    case DLTI_ATTR_DL_SPEC:
    case DLTI_ATTR_DEVICE_SPEC:
    case DLTI_ATTR_SYSTEM_SPEC:
    case DLTI_ATTR_ENTRY:
        return attr->n;
    default:
        return 0;
    }
}

static bool has_entries(const dlti_attr *a)
{
    return dlti_attr_is_container(a->kind) || a->kind == DLTI_ATTR_DICTIONARY ||
           a->kind == DLTI_ATTR_ENTRY;
}

dlti_key dlti_attr_entry_key(const dlti_attr *attr, size_t i)
{
    return has_entries(attr) && i < attr->n ? attr->u.c.entries[i].key : NULL;
}

const dlti_attr *dlti_attr_entry_value(const dlti_attr *attr, size_t i)
{
    return has_entries(attr) && i < attr->n ? attr->u.c.entries[i].value : NULL;
}

const dlti_attr *dlti_attr_element(const dlti_attr *attr, size_t i)
{
    return (attr->kind == DLTI_ATTR_ARRAY && i < attr->n) ? attr->u.elems[i] : NULL;
}

/* ---- containers ---- */

/* The index of a map: its entries' positions + 1, Robin Hood insertion.
 * *dup (when not NULL) gets the position of the first key that repeats an
 * earlier one (SIZE_MAX: none): equal keys share a home slot, and the one
 * inserted later meets the earlier one before it takes any other key's slot
 * (Robin Hood keeps a cluster ordered by home). */
static uint32_t *build_index(dlti_context *ctx, const dlti_entry_rec *e, size_t n,
                             unsigned log2, size_t *dup)
{
    size_t cap = (size_t)1 << log2, mask = cap - 1;
    uint32_t *slots = bs_arena_alloc(&ctx->arena, cap * sizeof(*slots));
    if (!slots)
        return NULL;
    memset(slots, 0, cap * sizeof(*slots));
    for (size_t i = 0; i < n; i++) {
        uint32_t cur = (uint32_t)i + 1; /* n < UINT32_MAX / 4: container_make */
        bool original = true;
        size_t j = e[i].key->hash & mask, dist = 0;
        while (slots[j]) {
            dlti_key other = e[slots[j] - 1].key;
            if (original && other == e[i].key && dup && *dup == SIZE_MAX)
                *dup = i;
            size_t other_dist = (j - (other->hash & mask)) & mask;
            if (other_dist < dist) { /* Robin Hood: the poorer key stays */
                uint32_t t = slots[j];
                slots[j] = cur;
                cur = t;
                dist = other_dist;
                original = false;
            }
            j = (j + 1) & mask;
            dist++;
        }
        slots[j] = cur;
    }
    return slots;
}

/* A container of `n` entries, copied, with its index when it is big enough;
 * *dup as above (only looked for when there is an index). */
static const dlti_attr *container_make(dlti_context *ctx, dlti_attr_kind kind,
                                       const dlti_entry_rec *entries, size_t n, size_t *dup)
{
    if (n >= UINT32_MAX / 4)
        return NULL;
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, kind);
    if (!a)
        return NULL;
    a->n = (uint32_t)n;
    a->u.c.entries = bs_arena_memdup(&ctx->arena, entries, n * sizeof(*entries));
    if (n && !a->u.c.entries)
        return NULL;
    if (n > DLTI_INDEX_THRESHOLD && kind != DLTI_ATTR_DICTIONARY) {
        a->index_log2 = (uint16_t)dlti_index_log2(n);
        a->u.c.index = build_index(ctx, a->u.c.entries, n, a->index_log2, dup);
        if (!a->u.c.index)
            return NULL;
    }
    return a;
}

const dlti_attr *dlti_container_make(dlti_context *ctx, dlti_attr_kind kind,
                                     const dlti_entry_rec *entries, size_t n)
{
    return container_make(ctx, kind, entries, n, NULL);
}

static void print_key_text(char *out, size_t size, dlti_key key)
{
    if (key->type)
        snprintf(out, size, "%s", key->str);
    else {
        bs_buf b = {0};
        dlti_print_string(&b, key->str, key->len);
        snprintf(out, size, "%s", b.data ? b.data : "\"\"");
        free(b.data);
    }
}

static void repeated_key(dlti_attr_kind kind, dlti_key key, dlti_error_t *err)
{
    char text[512];
    print_key_text(text, sizeof(text), key);
    if (kind == DLTI_ATTR_SYSTEM_SPEC)
        bs_error_set(err, DLTI_ERROR_VERIFY, "repeated device ID in dlti.target_system_spec: %s",
                     text);
    else
        bs_error_set(err, DLTI_ERROR_VERIFY, "repeated DLTI key: %s", text);
}

const dlti_attr *dlti_container_build(dlti_context *ctx, dlti_attr_kind kind,
                                      const dlti_entry_rec *e, size_t n, dlti_error_t *err,
                                      size_t *bad)
{
    size_t dummy;
    if (!bad)
        bad = &dummy;
    *bad = SIZE_MAX;
    if (n == 0 && (kind == DLTI_ATTR_DEVICE_SPEC || kind == DLTI_ATTR_SYSTEM_SPEC)) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "no DLTI entries provided");
        return NULL;
    }
    char text[512];
    for (size_t i = 0; i < n; i++) {
        dlti_key k = e[i].key;
        *bad = i;
        /* device IDs and device keys are strings (mlir-opt-22: a type key
         * in either is "invalid kind of attribute specified") */
        if ((kind == DLTI_ATTR_DEVICE_SPEC || kind == DLTI_ATTR_SYSTEM_SPEC) && k->type) {
            bs_error_set(err, DLTI_ERROR_VERIFY, "invalid kind of attribute specified");
            return NULL;
        }
        /* mlir-opt-22 takes an empty device ID ("" in a target_system_spec),
         * only not an empty key inside a map or device spec */
        if (!k->type && k->len == 0 && kind != DLTI_ATTR_SYSTEM_SPEC) {
            bs_error_set(err, DLTI_ERROR_VERIFY, "empty string as DLTI key is not allowed");
            return NULL;
        }
        if (kind == DLTI_ATTR_SYSTEM_SPEC && e[i].value->kind != DLTI_ATTR_DEVICE_SPEC) {
            print_key_text(text, sizeof(text), k);
            bs_error_set(err, DLTI_ERROR_VERIFY,
                         "value associated with key %s is not a DLTI device spec", text);
            return NULL;
        }
    }
    *bad = SIZE_MAX;
    /* Repeated keys, the first in entry order: keys are interned, so equal
     * keys are equal handles; a big container finds them while building its
     * index, a small one compares its few handles. */
    if (n <= DLTI_INDEX_THRESHOLD) {
        for (size_t i = 1; i < n; i++) {
            for (size_t j = 0; j < i; j++) {
                if (e[i].key == e[j].key) {
                    *bad = i;
                    repeated_key(kind, e[i].key, err);
                    return NULL;
                }
            }
        }
    }
    size_t dup = SIZE_MAX;
    const dlti_attr *a = container_make(ctx, kind, e, n, &dup);
    if (!a) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    if (dup != SIZE_MAX) {
        *bad = dup;
        repeated_key(kind, e[dup].key, err);
        return NULL;
    }
    return a;
}

/* ---- nesting (the invariant of dlti_private.h) ---- */

static unsigned type_nest(const dlti_type *t)
{
    return t ? t->nest : 0;
}

static unsigned max_u(unsigned a, unsigned b)
{
    return a > b ? a : b;
}

unsigned dlti_attr_height(const dlti_attr *a)
{
    if (a->height && a->height < 255)
        return a->height;
    unsigned h = 0;
    switch ((dlti_attr_kind)a->kind) {
    case DLTI_ATTR_ARRAY:
        for (size_t i = 0; i < a->n; i++)
            h = max_u(h, dlti_attr_height(a->u.elems[i]));
        return 1 + h;
    case DLTI_ATTR_DENSE: {
        /* dense<[[...]]> : tensor<...>: a level per bracket of the literal */
        int rank = a->type && a->type->rank > 0 ? a->type->rank : 0;
        return 1 + max_u((unsigned)rank + 1, type_nest(a->type));
    }
    case DLTI_ATTR_OPAQUE: {
        unsigned level = 0;
        for (size_t i = 0; i < a->u.str.len; i++) {
            char c = a->u.str.s[i];
            if (c == '<' || c == '(' || c == '[' || c == '{')
                h = max_u(h, ++level);
            else if ((c == '>' || c == ')' || c == ']' || c == '}') && level)
                level--;
        }
        return 1 + h;
    }
    case DLTI_ATTR_DICTIONARY:
    case DLTI_ATTR_MAP:
    case DLTI_ATTR_DL_SPEC:
    case DLTI_ATTR_DEVICE_SPEC:
    case DLTI_ATTR_SYSTEM_SPEC:
    case DLTI_ATTR_ENTRY:
        for (size_t i = 0; i < a->n; i++) {
            const dlti_entry_rec *e = &a->u.c.entries[i];
            h = max_u(h, dlti_attr_height(e->value));
            /* a type key is read at the container's own level */
            if (e->key->type && e->key->type->nest)
                h = max_u(h, e->key->type->nest - 1);
        }
        return 1 + h;
    default:
        /* a scalar: its type after the colon is read a level down, each
         * bracket of it a level (i64 none, vector<4xi32> one) */
        return 1 + type_nest(a->type);
    }
}

const dlti_attr *dlti_attr_within_depth(dlti_context *ctx, const dlti_attr *a, dlti_error_t *err)
{
    if (!a)
        return NULL;
    unsigned h = dlti_attr_height(a);
    if (h > dlti_max_height(ctx)) {
        bs_error_set(err, DLTI_ERROR_LIMIT,
                     "nesting deeper than the limit of %u (a value of %u levels in a module)",
                     ctx->limits.max_depth, h);
        return NULL;
    }
    ((dlti_attr *)a)->height = (uint8_t)(h < 255 ? h : 255);
    return a;
}

/* ---- scalars ---- */

static size_t words_for(unsigned width)
{
    return width <= 64 ? 1 : ((size_t)width + 63) / 64;
}

static unsigned type_width(const dlti_type *t)
{
    return t->kind == DLTI_TYPE_INDEX ? 64 : t->width;
}

const dlti_attr *dlti_int_from_words(dlti_context *ctx, const dlti_type *type,
                                     const uint64_t *words, size_t nwords)
{
    if (type->kind == DLTI_TYPE_INTEGER && type->width == 1 && type->sign == DLTI_SIGNLESS)
        return (words[0] & 1) ? ctx->true_attr : ctx->false_attr;
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_INTEGER);
    if (!a)
        return NULL;
    if (nwords > UINT32_MAX)
        return NULL;
    a->type = type;
    a->n = (uint32_t)nwords;
    a->u.i.small = words[0];
    a->u.i.words = &a->u.i.small;
    if (nwords > 1) {
        a->u.i.words = bs_arena_memdup(&ctx->arena, words, nwords * sizeof(uint64_t));
        if (!a->u.i.words)
            return NULL;
    }
    return a;
}

const dlti_attr *dlti_int_new(dlti_context *ctx, const dlti_type *type, int64_t value,
                              dlti_error_t *err)
{
    if (!type || (type->kind != DLTI_TYPE_INTEGER && type->kind != DLTI_TYPE_INDEX)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "integer attributes need an integer or index type");
        return NULL;
    }
    unsigned w = type_width(type);
    if (w == 64) { /* i64, si64, index (ui64 below 0 does not fit): one word */
        if (type->sign == DLTI_UNSIGNED && value < 0) {
            bs_error_set(err, DLTI_ERROR_RANGE, "integer constant out of range for attribute");
            return NULL;
        }
        uint64_t word = (uint64_t)value;
        const dlti_attr *a = dlti_int_from_words(ctx, type, &word, 1);
        if (!a)
            dlti_context_nomem(ctx, err);
        return a;
    }
    bool fits;
    if (w >= 64)
        fits = type->sign != DLTI_UNSIGNED || value >= 0;
    else if (type->sign == DLTI_UNSIGNED)
        fits = value >= 0 && (uint64_t)value < ((uint64_t)1 << w);
    else {
        /* Bounds in uint64_t: 1 << 63 does not fit an int64_t (w = 63). */
        uint64_t half = (uint64_t)1 << (w > 0 ? w - 1 : 0);
        bool above_min = value >= 0 || (uint64_t)(-(value + 1)) < half;
        uint64_t limit = type->sign == DLTI_SIGNED ? half : (uint64_t)1 << w;
        /* signless: either reading fits, as MLIR's parser accepts */
        fits = w > 0 && above_min && (value < 0 || (uint64_t)value < limit);
    }
    if (!fits) {
        bs_error_set(err, DLTI_ERROR_RANGE, "integer constant out of range for attribute");
        return NULL;
    }
    size_t nw = words_for(w);
    uint64_t stack[4];
    uint64_t *words = nw <= 4 ? stack : calloc(nw, sizeof(uint64_t));
    if (!words) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    for (size_t i = 0; i < nw; i++)
        words[i] = i == 0 ? (uint64_t)value : (value < 0 ? UINT64_MAX : 0);
    if (w < 64)
        words[0] &= ((uint64_t)1 << w) - 1;
    else if (w % 64)
        words[nw - 1] &= ((uint64_t)1 << (w % 64)) - 1;
    const dlti_attr *a = dlti_int_from_words(ctx, type, words, nw);
    if (words != stack)
        free(words);
    if (!a)
        dlti_context_nomem(ctx, err);
    return a;
}

const dlti_attr *dlti_i64_new(dlti_context *ctx, int64_t value)
{
    const dlti_type *t = dlti_type_integer(ctx, 64, DLTI_SIGNLESS);
    return t ? dlti_int_new(ctx, t, value, NULL) : NULL;
}

const dlti_attr *dlti_float_new(dlti_context *ctx, const dlti_type *type, double value,
                                dlti_error_t *err)
{
    if (!type || type->kind != DLTI_TYPE_FLOAT) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "float attributes need a float type");
        return NULL;
    }
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_FLOAT);
    if (!a) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    a->type = type;
    a->u.f = dlti_float_from_double((dlti_float_kind)type->float_kind, value);
    return a;
}

const dlti_attr *dlti_bool_new(dlti_context *ctx, bool value)
{
    return value ? ctx->true_attr : ctx->false_attr;
}

const dlti_attr *dlti_unit_new(dlti_context *ctx)
{
    return ctx->unit;
}

const dlti_attr *dlti_string_new(dlti_context *ctx, const char *s, size_t len)
{
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_STRING);
    char *copy = bs_arena_alloc(&ctx->arena, len + 1);
    if (!a || !copy)
        return NULL;
    if (len)
        memcpy(copy, s, len);
    copy[len] = '\0';
    a->u.str.s = copy;
    a->u.str.len = len;
    return a;
}

const dlti_attr *dlti_type_attr_new(dlti_context *ctx, const dlti_type *type)
{
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_TYPE);
    if (a)
        a->type = type;
    return a;
}

const dlti_attr *dlti_array_new(dlti_context *ctx, const dlti_attr *const *elems, size_t n)
{
    /* NULL also for an array taller than the depth invariant allows */
    return dlti_attr_within_depth(ctx, dlti_array_make(ctx, elems, n), NULL);
}

const dlti_attr *dlti_array_build(dlti_context *ctx, const dlti_attr *const *elems, size_t n,
                                  dlti_error_t *err)
{
    if (n > UINT32_MAX) {
        bs_error_set(err, DLTI_ERROR_LIMIT, "more than %u elements in one array", UINT32_MAX);
        return NULL;
    }
    const dlti_attr *a = dlti_array_make(ctx, elems, n);
    if (!a) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    return dlti_attr_within_depth(ctx, a, err);
}

const dlti_attr *dlti_array_make(dlti_context *ctx, const dlti_attr *const *elems, size_t n)
{
    if (n > UINT32_MAX)
        return NULL;
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_ARRAY);
    if (!a)
        return NULL;
    a->n = (uint32_t)n;
    a->u.elems = bs_arena_memdup(&ctx->arena, elems, n * sizeof(*elems));
    return (n && !a->u.elems) ? NULL : a;
}

const dlti_attr *dlti_dense_array_new(dlti_context *ctx, const dlti_type *elem,
                                      const int64_t *values, size_t n, dlti_error_t *err)
{
    if (!elem || elem->kind != DLTI_TYPE_INTEGER || elem->width > 64) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "dense arrays need an integer type of at most 64 bits");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (!dlti_int_new(ctx, elem, values[i], err))
            return NULL;
    if (n > UINT32_MAX) {
        dlti_context_nomem(ctx, err);
        return NULL;
    }
    dlti_attr *a = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_DENSE_ARRAY);
    if (!a)
        return NULL;
    a->type = elem;
    a->n = (uint32_t)n;
    int64_t *ints = n ? bs_arena_memdup(&ctx->arena, values, n * sizeof(int64_t)) : NULL;
    if (n && !ints)
        return NULL;
    /* Store as the parser does, so that printing needs no width: i1 as 0/1,
     * unsigned masked, signless and signed sign-extended (i8 128 is -128). */
    unsigned w = elem->width;
    for (size_t i = 0; i < n && w < 64; i++) {
        uint64_t u = (uint64_t)ints[i] & (((uint64_t)1 << w) - 1);
        if (w > 1 && elem->sign != DLTI_UNSIGNED && ((u >> (w - 1)) & 1))
            u |= ~(((uint64_t)1 << w) - 1);
        ints[i] = (int64_t)u;
    }
    a->u.ints = ints;
    return a;
}

/* ---- typed reads ---- */

static int type_error(dlti_error_t *err, const dlti_attr *a, const char *want)
{
    bs_error_set(err, DLTI_ERROR_TYPE, "expected %s value, got %s", want,
                 dlti_attr_kind_name(a->kind));
    return -1;
}

/* Reads the integer as a signed 64-bit value when it fits. */
static int int_value(const dlti_attr *a, bool *negative, uint64_t *mag, bool *fits)
{
    const dlti_type *t = a->type;
    unsigned w = type_width(t);
    bool is_signed = t->sign != DLTI_UNSIGNED;
    const uint64_t *words = a->u.i.words;
    size_t nw = a->n;
    bool neg = false;
    if (is_signed && w > 0)
        neg = (words[(w - 1) / 64] >> ((w - 1) % 64)) & 1;
    /* Every word above the first must be pure sign extension. */
    uint64_t ext = neg ? UINT64_MAX : 0;
    *fits = true;
    for (size_t i = 1; i < nw; i++) {
        uint64_t wv = words[i];
        unsigned top = (unsigned)(w - 64 * i);
        if (top < 64 && neg)
            wv |= ~(((uint64_t)1 << top) - 1);
        if (wv != ext)
            *fits = false;
    }
    uint64_t v = words[0];
    if (neg && w < 64)
        v |= ~(((uint64_t)1 << w) - 1);
    *negative = neg;
    *mag = v;
    return 0;
}

int dlti_attr_get_int64(const dlti_attr *a, int64_t *out, dlti_error_t *err)
{
    if (a->kind == DLTI_ATTR_BOOL) {
        *out = a->u.b;
        return 0;
    }
    if (a->kind != DLTI_ATTR_INTEGER)
        return type_error(err, a, "an integer");
    bool neg, fits;
    uint64_t v;
    int_value(a, &neg, &v, &fits);
    if (!fits || (!neg && v > INT64_MAX) || (neg && (int64_t)v >= 0)) {
        bs_error_set(err, DLTI_ERROR_RANGE, "integer value does not fit in int64_t");
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

int dlti_attr_get_uint64(const dlti_attr *a, uint64_t *out, dlti_error_t *err)
{
    if (a->kind == DLTI_ATTR_BOOL) {
        *out = a->u.b;
        return 0;
    }
    if (a->kind != DLTI_ATTR_INTEGER)
        return type_error(err, a, "an integer");
    bool neg, fits;
    uint64_t v;
    int_value(a, &neg, &v, &fits);
    if (!fits || neg) {
        bs_error_set(err, DLTI_ERROR_RANGE, "integer value does not fit in uint64_t");
        return -1;
    }
    *out = v;
    return 0;
}

int dlti_attr_get_double(const dlti_attr *a, double *out, dlti_error_t *err)
{
    if (a->kind == DLTI_ATTR_FLOAT) {
        *out = dlti_float_to_double((dlti_float_kind)a->type->float_kind, a->u.f);
        return 0;
    }
    if (a->kind == DLTI_ATTR_INTEGER) {
        bool neg, fits;
        uint64_t v;
        int_value(a, &neg, &v, &fits);
        if (!fits) {
            bs_error_set(err, DLTI_ERROR_RANGE, "integer value does not fit in a double");
            return -1;
        }
        *out = neg ? (double)(int64_t)v : (double)v;
        return 0;
    }
    return type_error(err, a, "a float");
}

int dlti_attr_get_bool(const dlti_attr *a, bool *out, dlti_error_t *err)
{
    if (a->kind != DLTI_ATTR_BOOL)
        return type_error(err, a, "a bool");
    *out = a->u.b;
    return 0;
}

int dlti_attr_get_string(const dlti_attr *a, const char **out, size_t *len, dlti_error_t *err)
{
    if (a->kind != DLTI_ATTR_STRING)
        return type_error(err, a, "a string");
    *out = a->u.str.s;
    if (len)
        *len = a->u.str.len;
    return 0;
}

/* Element `i` of a dense array (raw storage, `a->n` elements: 0 on success)
 * or of dense elements (`*elem` set; a splat answers every index): the index
 * rule both typed readers below share.  -1 with err when out of range. */
static int dense_index(const dlti_attr *a, size_t i, const dlti_attr **elem, dlti_error_t *err)
{
    if (a->kind == DLTI_ATTR_DENSE && a->n == 1 && i < dlti_dense_num_elements(a->type))
        i = 0; /* a splat */
    if (i >= a->n) {
        bs_error_set(err, DLTI_ERROR_RANGE, "element %zu out of range", i);
        return -1;
    }
    *elem = a->kind == DLTI_ATTR_DENSE ? a->u.elems[i] : NULL;
    return 0;
}

int dlti_attr_dense_int64(const dlti_attr *a, size_t i, int64_t *out, dlti_error_t *err)
{
    const dlti_attr *e;
    if (a->kind == DLTI_ATTR_DENSE_ARRAY && a->type->kind == DLTI_TYPE_INTEGER) {
        if (dense_index(a, i, &e, err) < 0)
            return -1;
        *out = a->u.ints[i];
        return 0;
    }
    if (a->kind == DLTI_ATTR_DENSE)
        return dense_index(a, i, &e, err) < 0 ? -1 : dlti_attr_get_int64(e, out, err);
    return type_error(err, a, "a dense integer");
}

int dlti_attr_dense_double(const dlti_attr *a, size_t i, double *out, dlti_error_t *err)
{
    const dlti_attr *e;
    if (a->kind == DLTI_ATTR_DENSE_ARRAY && a->type->float_kind >= 0) {
        if (dense_index(a, i, &e, err) < 0)
            return -1;
        *out = dlti_float_to_double((dlti_float_kind)a->type->float_kind, a->u.floats[i]);
        return 0;
    }
    if (a->kind == DLTI_ATTR_DENSE)
        return dense_index(a, i, &e, err) < 0 ? -1 : dlti_attr_get_double(e, out, err);
    return type_error(err, a, "a dense float");
}

bool dlti_dense_u64(const dlti_attr *v, size_t i, uint64_t *out)
{
    int64_t x;
    if (!v || v->kind != DLTI_ATTR_DENSE || dlti_attr_dense_int64(v, i, &x, NULL) != 0)
        return false;
    *out = (uint64_t)x; /* MLIR reads getValues<uint64_t>() */
    return true;
}

size_t dlti_dense_len(const dlti_attr *v)
{
    return v && v->kind == DLTI_ATTR_DENSE ? dlti_dense_num_elements(v->type) : 0;
}

/* Types of one context are interned (one pointer a type); across contexts
 * the canonical spelling decides. */
static bool same_type(const dlti_type *a, const dlti_type *b)
{
    return a == b || (a && b && a->text_len == b->text_len &&
                      memcmp(a->text, b->text, a->text_len) == 0);
}

static bool same_key(dlti_key a, dlti_key b)
{
    return a == b || (a && b && !a->type == !b->type && a->len == b->len &&
                      memcmp(a->str, b->str, a->len) == 0);
}

/* Equal exactly when the two print alike: what is stored decides the text
 * (a dense literal of one element is its splat, of n elements prints n), so
 * the comparison walks what is stored. */
bool dlti_attr_equal(const dlti_attr *a, const dlti_attr *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || a->n != b->n)
        return false;
    switch ((dlti_attr_kind)a->kind) {
    case DLTI_ATTR_INTEGER:
        return same_type(a->type, b->type) &&
               memcmp(a->u.i.words, b->u.i.words, a->n * sizeof(uint64_t)) == 0;
    case DLTI_ATTR_FLOAT:
        return same_type(a->type, b->type) && a->u.f.lo == b->u.f.lo && a->u.f.hi == b->u.f.hi;
    case DLTI_ATTR_BOOL:
        return a->u.b == b->u.b;
    case DLTI_ATTR_UNIT:
        return true;
    case DLTI_ATTR_STRING:
    case DLTI_ATTR_OPAQUE:
        return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case DLTI_ATTR_TYPE:
        return same_type(a->type, b->type);
    case DLTI_ATTR_DENSE:
    case DLTI_ATTR_ARRAY:
        if (a->kind == DLTI_ATTR_DENSE && !same_type(a->type, b->type))
            return false;
        for (size_t i = 0; i < a->n; i++)
            if (!dlti_attr_equal(a->u.elems[i], b->u.elems[i]))
                return false;
        return true;
    case DLTI_ATTR_DENSE_ARRAY:
        if (!same_type(a->type, b->type))
            return false;
        if (a->n == 0) /* memcmp of no bytes still wants pointers, and empty arrays have none */
            return true;
        return a->type->kind == DLTI_TYPE_FLOAT
                   ? memcmp(a->u.floats, b->u.floats, a->n * sizeof(*a->u.floats)) == 0
                   : memcmp(a->u.ints, b->u.ints, a->n * sizeof(*a->u.ints)) == 0;
    case DLTI_ATTR_DICTIONARY:
    case DLTI_ATTR_MAP:
    case DLTI_ATTR_DL_SPEC:
    case DLTI_ATTR_DEVICE_SPEC:
    case DLTI_ATTR_SYSTEM_SPEC:
    case DLTI_ATTR_ENTRY:
        for (size_t i = 0; i < a->n; i++)
            if (!same_key(a->u.c.entries[i].key, b->u.c.entries[i].key) ||
                !dlti_attr_equal(a->u.c.entries[i].value, b->u.c.entries[i].value))
                return false;
        return true;
    }
    return false;
}
