/* Canonical printing of attributes and types, byte for byte as mlir-opt-22
 * prints them (print_scope.c prints modules with them). */
#include "dlti_private.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Nonzero when one of the 8 bytes of `x` needs an escape: below 0x20, 0x7F
 * and above, '"' or '\\'.  Each test works within its byte (no carries
 * between bytes), so the answer is exact, not a hint. */
static uint64_t needs_escape8(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull,
                   low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t l = x & low7;
    uint64_t big = (l + ones) | x;          /* 0x7F, or bit 7 set */
    uint64_t ctl = ~(l + 0x6060606060606060ull); /* low 7 bits below 0x20 */
    uint64_t q = x ^ 0x2222222222222222ull, bs = x ^ 0x5C5C5C5C5C5C5C5Cull;
    uint64_t quote = ~(((q & low7) + low7) | q);   /* a zero byte: '"' */
    uint64_t slash = ~(((bs & low7) + low7) | bs); /* a zero byte: '\\' */
    return (big | ctl | quote | slash) & high;
}

/* True when no byte of s[0..len) needs an escape: words of 8, the last one
 * overlapping, a short string's bytes padded with spaces. */
bool dlti_string_unescaped(const char *s, size_t len)
{
    uint64_t x;
    if (len < 8) {
        x = 0x2020202020202020ull;
        for (size_t i = 0; i < len; i++)
            x = (x << 8) | (unsigned char)s[i];
        return !needs_escape8(x);
    }
    for (size_t i = 0; i + 8 < len; i += 8) {
        memcpy(&x, s + i, 8);
        if (needs_escape8(x))
            return false;
    }
    memcpy(&x, s + len - 8, 8);
    return !needs_escape8(x);
}

/* s[0..len) between quotes as it is (it needs no escape). */
static void put_quoted(bs_buf *b, const char *s, size_t len)
{
    if (len > SIZE_MAX - 2 || (b->cap - b->len <= len + 2 && !bs_buf_reserve(b, len + 2)))
        return;
    char *o = b->data + b->len;
    o[0] = '"';
    memcpy(o + 1, s, len);
    o[len + 1] = '"';
    o[len + 2] = '\0';
    b->len += len + 2;
}

/* `, "KEY" = ` (no comma before the first entry) in one reserve: a big
 * spec prints this for every entry, and KEY needs no escape. */
static void put_entry_key(bs_buf *b, bool comma, dlti_key k)
{
    size_t len = k->len, n = len + 7;
    if (len > SIZE_MAX - 8 || (b->cap - b->len <= n && !bs_buf_reserve(b, n)))
        return;
    char *o = b->data + b->len;
    if (comma) {
        *o++ = ',';
        *o++ = ' ';
    }
    *o++ = '"';
    memcpy(o, k->str, len);
    o += len;
    memcpy(o, "\" = ", 5); /* the NUL too */
    b->len = (size_t)(o + 4 - b->data);
}

void dlti_print_string(bs_buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    if (dlti_string_unescaped(s, len)) { /* nearly every key and string */
        put_quoted(b, s, len);
        return;
    }
    bs_buf_putc(b, '"');
    size_t run = 0; /* copy printable runs in one go */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\')
            continue;
        bs_buf_put(b, s + run, i - run);
        /* llvm::printEscapedString: a backslash doubles, the rest are \XX. */
        char esc[3] = {'\\', hex[c >> 4], hex[c & 15]};
        if (c == '\\')
            bs_buf_put(b, "\\\\", 2);
        else
            bs_buf_put(b, esc, 3);
        run = i + 1;
    }
    bs_buf_put(b, s + run, len - run);
    bs_buf_putc(b, '"');
}

static bool is_bare_identifier(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.'))
            return false;
    }
    return true;
}

/* Attribute names in dictionaries print bare when they are identifiers. */
void dlti_print_name(bs_buf *b, const char *s, size_t n)
{
    if (is_bare_identifier(s, n))
        bs_buf_put(b, s, n);
    else
        dlti_print_string(b, s, n);
}

void dlti_print_key(bs_buf *b, dlti_key key)
{
    if (key->type)
        bs_buf_put(b, key->str, key->len);
    else if (key->unescaped)
        put_quoted(b, key->str, key->len);
    else
        dlti_print_string(b, key->str, key->len);
}

static void print_type(bs_buf *b, const dlti_type *t)
{
    bs_buf_put(b, t->text, t->text_len);
}

/* True when the value printed as hex bits (NaN, Inf: "0x7FF8..."), told
 * from its own text: a streaming buffer may have handed it on already. */
static bool print_float_value(bs_buf *b, const dlti_type *t, dlti_float_bits bits)
{
    char tmp[256];
    size_t n = dlti_float_print((dlti_float_kind)t->float_kind, bits, tmp, sizeof(tmp));
    n = n < sizeof(tmp) ? n : sizeof(tmp) - 1;
    bs_buf_put(b, tmp, n);
    return n > 2 && memchr(tmp, 'x', n) != NULL;
}

static void print_int_value(bs_buf *b, const dlti_attr *a)
{
    const dlti_type *t = a->type;
    unsigned w = t->kind == DLTI_TYPE_INDEX ? 64 : t->width;
    bool is_signed = !(t->kind == DLTI_TYPE_INTEGER && t->sign == DLTI_UNSIGNED);
    dlti_print_words(b, a->u.i.words, a->n, w, is_signed);
}

/* An element inside dense<...>: the value without its type. */
static void print_element(bs_buf *b, const dlti_attr *e)
{
    if (e->kind == DLTI_ATTR_BOOL)
        bs_buf_puts(b, e->u.b ? "true" : "false");
    else if (e->kind == DLTI_ATTR_FLOAT)
        print_float_value(b, e->type, e->u.f);
    else
        print_int_value(b, e);
}

static void print_dense_level(bs_buf *b, const dlti_attr *a, int level, size_t *next)
{
    const dlti_type *t = a->type;
    if (level == t->rank) {
        print_element(b, a->u.elems[(*next)++]);
        return;
    }
    bs_buf_putc(b, '[');
    for (int64_t i = 0; i < t->dims[level]; i++) {
        if (i)
            bs_buf_puts(b, ", ");
        print_dense_level(b, a, level + 1, next);
    }
    bs_buf_putc(b, ']');
}

static void print_dense(bs_buf *b, const dlti_attr *a)
{
    bs_buf_puts(b, "dense<");
    /* What is stored decides, not the shape's element count: a splat of a
     * shape whose count does not fit 64 bits is one element, not dense<>. */
    if (a->n == 0) {
        /* nothing between the brackets */
    } else if (a->n == 1) {
        /* One stored element is a splat; MLIR also treats any one-element
         * literal (dense<[[1]]> : tensor<1x1xi32>) as a splat. */
        print_element(b, a->u.elems[0]);
    } else {
        size_t next = 0;
        print_dense_level(b, a, 0, &next);
    }
    bs_buf_puts(b, "> : ");
    print_type(b, a->type);
}

static void print_dense_array(bs_buf *b, const dlti_attr *a)
{
    bs_buf_puts(b, "array<");
    print_type(b, a->type);
    for (size_t i = 0; i < a->n; i++) {
        bs_buf_puts(b, i ? ", " : ": ");
        if (a->type->kind == DLTI_TYPE_FLOAT) {
            print_float_value(b, a->type, a->u.floats[i]);
        } else if (a->type->width == 1) {
            bs_buf_puts(b, a->u.ints[i] ? "true" : "false");
        } else if (a->type->sign == DLTI_UNSIGNED) {
            bs_buf_put_u64(b, (uint64_t)a->u.ints[i]);
        } else {
            bs_buf_put_i64(b, a->u.ints[i]);
        }
    }
    bs_buf_putc(b, '>');
}

/* Values a few entries ahead are fetched while this one prints: a big spec
 * does not fit the caches, and each value is a pointer to chase. */
#define PREFETCH_AHEAD 8
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

static void print_entries(bs_buf *b, const dlti_attr *a)
{
    const dlti_entry_rec *e = a->u.c.entries;
    size_t n = a->n;
    for (size_t i = 0; i < n && i < PREFETCH_AHEAD; i++)
        PREFETCH(e[i].value);
    for (size_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n) {
            PREFETCH(e[i + PREFETCH_AHEAD].value);
            PREFETCH(e[i + PREFETCH_AHEAD].key);
        }
        dlti_key k = e[i].key;
        if (!k->type && k->unescaped) { /* nearly every entry */
            put_entry_key(b, i != 0, k);
        } else {
            if (i)
                bs_buf_puts(b, ", ");
            dlti_print_key(b, k);
            bs_buf_puts(b, " = ");
        }
        dlti_print_attr(b, e[i].value, false);
    }
}

void dlti_print_attr(bs_buf *b, const dlti_attr *a, bool elide)
{
    switch (a->kind) {
    case DLTI_ATTR_INTEGER:
        print_int_value(b, a);
        if (elide && a->type->kind == DLTI_TYPE_INTEGER && a->type->width == 64 &&
            a->type->sign == DLTI_SIGNLESS)
            return;
        bs_buf_puts(b, " : ");
        print_type(b, a->type);
        return;
    case DLTI_ATTR_FLOAT: {
        /* In arrays MLIR elides ": f64", but not after a value printed as
         * hex bits (NaN, Inf), which would read back as an i64. */
        bool hex = print_float_value(b, a->type, a->u.f);
        if (elide && a->type->float_kind == DLTI_FLOAT_F64 && !hex)
            return;
        bs_buf_puts(b, " : ");
        print_type(b, a->type);
        return;
    }
    case DLTI_ATTR_BOOL:
        bs_buf_puts(b, a->u.b ? "true" : "false");
        return;
    case DLTI_ATTR_STRING:
        dlti_print_string(b, a->u.str.s, a->u.str.len);
        return;
    case DLTI_ATTR_UNIT:
        bs_buf_puts(b, "unit");
        return;
    case DLTI_ATTR_TYPE:
        print_type(b, a->type);
        return;
    case DLTI_ATTR_ARRAY:
        bs_buf_putc(b, '[');
        for (size_t i = 0; i < a->n; i++) {
            if (i)
                bs_buf_puts(b, ", ");
            dlti_print_attr(b, a->u.elems[i], true);
        }
        bs_buf_putc(b, ']');
        return;
    case DLTI_ATTR_DENSE_ARRAY:
        print_dense_array(b, a);
        return;
    case DLTI_ATTR_DENSE:
        print_dense(b, a);
        return;
    case DLTI_ATTR_DICTIONARY:
        bs_buf_putc(b, '{');
        for (size_t i = 0; i < a->n; i++) {
            const dlti_entry_rec *e = &a->u.c.entries[i];
            if (i)
                bs_buf_puts(b, ", ");
            dlti_print_name(b, e->key->str, e->key->len);
            if (e->value->kind != DLTI_ATTR_UNIT) {
                bs_buf_puts(b, " = ");
                dlti_print_attr(b, e->value, false);
            }
        }
        bs_buf_putc(b, '}');
        return;
    case DLTI_ATTR_OPAQUE:
        bs_buf_put(b, a->u.str.s, a->u.str.len);
        return;
    case DLTI_ATTR_MAP:
        bs_buf_puts(b, "#dlti.map<");
        break;
    case DLTI_ATTR_DL_SPEC:
        bs_buf_puts(b, "#dlti.dl_spec<");
        break;
    case DLTI_ATTR_DEVICE_SPEC:
        bs_buf_puts(b, "#dlti.target_device_spec<");
        break;
    case DLTI_ATTR_SYSTEM_SPEC:
        bs_buf_puts(b, "#dlti.target_system_spec<");
        break;
    case DLTI_ATTR_ENTRY:
        bs_buf_puts(b, "#dlti.dl_entry<");
        dlti_print_key(b, a->u.c.entries[0].key);
        bs_buf_puts(b, ", ");
        dlti_print_attr(b, a->u.c.entries[0].value, false);
        bs_buf_putc(b, '>');
        return;
    }
    print_entries(b, a);
    bs_buf_putc(b, '>');
}

char *dlti_attr_print(const dlti_attr *attr, size_t *len)
{
    bs_buf b = {0};
    dlti_print_attr(&b, attr, false);
    if (b.failed || !b.data) {
        free(b.data);
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.data;
}

int dlti_attr_fprint(const dlti_attr *attr, FILE *out)
{
    size_t len;
    char *s = dlti_attr_print(attr, &len);
    if (!s)
        return -1;
    int rc = fwrite(s, 1, len, out) == len ? 0 : -1;
    free(s);
    return rc;
}
