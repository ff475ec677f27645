/* Every format round-trips or is refused (issue 33): a property test over
 * generated specs.
 *
 * Each case is a random #dlti.target_system_spec (and, in some, a module's
 * #dlti.dl_spec), written as MLIR text and read with the core's parser: every
 * attribute kind (integers of widths 2..128, signed, unsigned and signless,
 * and index; floats of every type the core has, as raw bits, so NaN payloads,
 * infinities, -0.0 and subnormals come up; strings and keys of any bytes;
 * bools, arrays, dense arrays, maps, type keys, nested device specs, data
 * layout specs, types, and other attributes: unit, dense, dictionaries,
 * other dialects'), nested a few levels.  The spec is printed in every
 * format sysdesc writes and read back through sysdesc_system_parse(), the
 * reader of every command, told the format by the content alone (no file
 * name) and under each file name a user may give it:
 *   MLIR, YAML, typed JSON: read back identical (dlti_attr_equal: types,
 *     bits and order), or the print refused, naming the value and why
 *     (DLTI_ERROR_UNSUPPORTED: YAML and JSON cannot hold a key that is not
 *     UTF-8, ...); then each of those read back is printed in each format
 *     and read again: every ordered pair of formats, both ways, identical;
 *   plain JSON: never read (it loses types): refused with the hint.
 * Prints the table of formats x attribute kinds (cases that held the kind:
 * read back / refused at print), the cases and pairs run and the failures.
 * SYSDESC_ROUNDTRIP_CASES (default 3000, 300 under valgrind) and
 * SYSDESC_ROUNDTRIP_SEED change the run (the default seed is fixed, so a
 * failure repeats); SYSDESC_ROUNDTRIP_SHOW how many failures are shown. */
#include "sysdesc/sysdesc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable text ---- */

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            fprintf(stderr, "out of memory\n");
            exit(99);
        }
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

__attribute__((format(printf, 2, 3))) static void putf(text *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* ---- random numbers: splitmix64, a fixed seed ---- */

static uint64_t state;

static uint64_t rnd(void)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
    return (unsigned)(rnd() % n);
}

#define PICK(array) (array)[below(sizeof(array) / sizeof((array)[0]))]

/* ---- the kinds the table counts ---- */

enum kind {
    K_INT, K_INDEX, K_FLOAT, K_FLOAT_SPECIAL, K_STRING, K_STRING_ANY, K_BOOL, K_ARRAY, K_DENSE,
    K_MAP, K_MAP_TYPED_KEYS, K_TYPE_KEY, K_KEY_ANY, K_DEVICE_NESTED, K_DL_SPEC, K_TYPE, K_OTHER,
    K_ID_ODD, NKINDS
};
static const char *const kind_names[NKINDS] = {
    "integer (i/si/ui 2..128)", "index", "float (every type, bits)", "float NaN/inf/-0/subnormal",
    "string (UTF-8)", "string (any bytes)", "bool", "array", "dense array", "map",
    "map {type, value}", "type key", "key (any bytes)", "nested device/system spec",
    "data layout spec", "type", "other (unit, dense, dict, opaque)", "device id (dots, any bytes)",
};
static unsigned kinds; /* of the case being generated */

/* ---- strings of any bytes ---- */

static const char *const pieces[] = {
    "a", "Z", "0", " ", "_", "-", ".", "/", ":", ": ", "#", " #", "- ", "?", "&", "*", "!", "%",
    "@", "`", "'", "\"", "\\", "{", "}", "[", "]", ",", "|", ">", "<", "=", "~",
    "\t", "\n", "\r", "\x01", "\x1f", "\x7f", "\0",
    "\xc2\x80", "\xc2\x85", "\xc2\x9f", "\xc2\xa0", "\xc3\xbc", "\xe2\x80\xa8", "\xe2\x80\xa9",
    "\xef\xbb\xbf", "\xef\xbf\xbe", "\xef\xbf\xbf", "\xef\xbf\xbd", "\xf4\x8f\xbf\xbf",
    "\xf0\x9f\x98\x80", "\xed\x9f\xbf",
    "true", "null", "~", "1e3", "0x10", "-1", ".nan", "base", "data_layout", "type", "value",
    "$format", "module", "func.func @f(%a: i32)", "rack1.node-a", "v1.0 GPU", "#dlti.map<",
};
/* bytes that are not UTF-8 */
static const char *const broken[] = {
    "\xff", "\x80", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe0\x80\x80", "\xc3",
};

static size_t gen_bytes(char *out, size_t cap, bool any_bytes)
{
    size_t n = 0;
    unsigned count = below(5);
    for (unsigned i = 0; i < count; i++) {
        const char *p = any_bytes && below(4) == 0 ? PICK(broken) : PICK(pieces);
        size_t len = p[0] ? strlen(p) : 1; /* "\0": one NUL byte */
        if (n + len >= cap)
            break;
        memcpy(out + n, p, len);
        n += len;
    }
    return n;
}

static void put_mlir_string(text *t, const char *s, size_t n)
{
    puts_(t, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            put(t, (const char *)&c, 1);
        else
            putf(t, "\\%02X", c);
    }
    puts_(t, "\"");
}

/* A key: non-empty (a device's and a map's keys must be), any bytes in some. */
static size_t gen_key(char *out, size_t cap)
{
    bool any = below(16) == 0;
    size_t n = gen_bytes(out, cap, any);
    if (n == 0)
        out[n++] = (char)('a' + below(26));
    if (any)
        kinds |= 1u << K_KEY_ANY;
    return n;
}

/* ---- values ---- */

__extension__ typedef unsigned __int128 u128;

static void u128_dec(text *t, u128 v)
{
    char buf[48];
    size_t i = sizeof buf;
    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + (unsigned)(v % 10));
        v /= 10;
    } while (v);
    puts_(t, buf + i);
}

static void gen_int(text *t)
{
    static const unsigned widths[] = {2, 7, 8, 16, 32, 63, 64, 65, 100, 127, 128};
    unsigned w = below(3) ? PICK(widths) : 2 + below(127);
    const char *sign = PICK(((const char *const[]){"i", "si", "ui"}));
    u128 bits = ((u128)rnd() << 64) | rnd();
    if (below(3) == 0)
        bits >>= below(128); /* small values too */
    u128 mask = w == 128 ? ~(u128)0 : (((u128)1 << w) - 1);
    bits &= mask;
    if (sign[0] == 'u') {
        u128_dec(t, bits);
    } else {
        if (bits >> (w - 1)) { /* negative: bits - 2^w */
            puts_(t, "-");
            u128_dec(t, (mask - bits) + 1);
        } else {
            u128_dec(t, bits);
        }
    }
    putf(t, " : %s%u", sign, w);
    kinds |= 1u << K_INT;
}

typedef struct float_type {
    const char *name;
    unsigned width, mantissa; /* bits of the format; explicit mantissa bits */
} float_type;
static const float_type float_types[] = {
    {"f16", 16, 10}, {"bf16", 16, 7}, {"f32", 32, 23}, {"f64", 64, 52}, {"tf32", 19, 10},
    {"f80", 80, 64}, {"f128", 128, 112}, {"f8E5M2", 8, 2}, {"f8E4M3", 8, 3},
    {"f8E4M3FN", 8, 3}, {"f8E5M2FNUZ", 8, 2}, {"f8E4M3FNUZ", 8, 3}, {"f8E4M3B11FNUZ", 8, 3},
    {"f8E3M4", 8, 4}, {"f8E8M0FNU", 8, 0}, {"f6E2M3FN", 6, 3}, {"f6E3M2FN", 6, 2},
    {"f4E2M1FN", 4, 1},
};

/* MLIR's parser reads a decimal literal through a double, and its printer
 * writes an f80 or f128 value that is not a NaN or an infinity in decimal
 * (mlir-opt-22 does both, and so does the core, byte for byte): such a
 * value reads back rounded to a double, in every format.  The generator
 * keeps to what reads back unless SYSDESC_ROUNDTRIP_WIDE_FLOATS is set:
 * then it writes any bits, which shows that (docs/yaml.md, "JSON"). */
static bool wide_floats;

/* Raw bits of a float type: random, or one of the special patterns. */
static void gen_float_bits(text *t, const float_type *ft)
{
    unsigned w = ft->width;
    if (w > 64 && !wide_floats) {
        /* zeros, infinities, NaNs with payloads (f80: the integer bit set) */
        u128 bits = below(3) ? ((u128)0x7FFF << (w - 16)) : 0;
        if (bits && below(2))
            bits |= (((u128)rnd() << 64) | rnd()) & (((u128)1 << (w - 16)) - 1);
        if (w == 80 && bits)
            bits |= (u128)1 << 63;
        if (below(2))
            bits |= (u128)1 << (w - 1);
        char buf[40];
        size_t i = (w + 3) / 4;
        buf[i] = '\0';
        for (; i > 0; i--, bits >>= 4)
            buf[i - 1] = "0123456789ABCDEF"[(unsigned)(bits & 15)];
        putf(t, "0x%s", buf);
        kinds |= 1u << K_FLOAT_SPECIAL;
        return;
    }
    u128 mask = w == 128 ? ~(u128)0 : (((u128)1 << w) - 1);
    u128 bits = (((u128)rnd() << 64) | rnd()) & mask;
    u128 sign = (u128)1 << (w - 1);
    u128 mant = ((u128)1 << ft->mantissa) - 1;
    switch (below(6)) {
    case 0: /* a zero of either sign */
        bits &= sign;
        break;
    case 1: /* all exponent bits: NaN with a payload, or an infinity */
        bits |= (mask >> 1) & ~mant;
        if (below(2))
            bits &= ~mant | 1;
        break;
    case 2: /* subnormal: no exponent bits */
        bits &= sign | mant;
        break;
    default:
        break;
    }
    if (below(3) < 2)
        kinds |= 1u << K_FLOAT_SPECIAL; /* counted loosely: the bits above */
    puts_(t, "0x");
    char buf[40];
    size_t digits = (w + 3) / 4, i = digits;
    buf[i] = '\0';
    for (; i > 0; i--, bits >>= 4)
        buf[i - 1] = "0123456789ABCDEF"[(unsigned)(bits & 15)];
    puts_(t, buf);
}

static void gen_float(text *t)
{
    const float_type *ft = &PICK(float_types);
    static const char *const decimals[] = {"1.5", "-0.0", "0.1", "1.0e+300", "4.9e-324", "65504.0"};
    if (below(4) == 0 && (strcmp(ft->name, "f64") == 0 || strcmp(ft->name, "f80") == 0 ||
                          strcmp(ft->name, "f128") == 0))
        puts_(t, PICK(decimals));
    else
        gen_float_bits(t, ft);
    putf(t, " : %s", ft->name);
    kinds |= 1u << K_FLOAT;
}

static void gen_dense(text *t)
{
    static const char *const ints[] = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui32", "ui64",
                                       "si8", "si64"};
    static const float_type floats[] = {{"f16", 16, 10}, {"bf16", 16, 7}, {"f32", 32, 23},
                                        {"f64", 64, 52}};
    bool is_float = below(2);
    const char *name = is_float ? PICK(floats).name : PICK(ints);
    putf(t, "array<%s", name);
    unsigned n = below(4);
    for (unsigned i = 0; i < n; i++) {
        puts_(t, i ? ", " : ": ");
        if (is_float) {
            const float_type *ft = NULL;
            for (size_t k = 0; k < 4; k++)
                if (strcmp(floats[k].name, name) == 0)
                    ft = &floats[k];
            gen_float_bits(t, ft);
        } else if (strcmp(name, "i1") == 0) {
            puts_(t, below(2) ? "true" : "false");
        } else {
            unsigned w = (unsigned)atoi(name + (name[0] == 'i' ? 1 : 2));
            uint64_t v = rnd() >> (64 - w);
            if (name[0] == 'u')
                putf(t, "%" PRIu64, v);
            else
                putf(t, "%" PRId64, (int64_t)(v << (64 - w)) >> (64 - w));
        }
    }
    puts_(t, ">");
    kinds |= 1u << K_DENSE;
}

static const char *const types[] = {
    "i32", "vector<4xf32>", "tuple<i32, f32>", "memref<2x?xf32>", "complex<f64>", "none",
    "index", "f8E4M3FN", "!llvm.ptr<1>", "tensor<*xi8>", "vector<[4]xi1>", "ui7",
};

static void gen_value(text *t, unsigned depth);

static void gen_entries(text *t, unsigned depth, bool type_keys, bool nonempty)
{
    unsigned n = below(4) + (nonempty ? 1 : 0);
    char keys[8][64];
    size_t lens[8];
    unsigned made = 0;
    for (unsigned i = 0; i < n; i++) {
        char k[64];
        size_t len = gen_key(k, sizeof k);
        bool dup = false;
        for (unsigned j = 0; j < made; j++)
            dup |= lens[j] == len && memcmp(keys[j], k, len) == 0;
        if (dup)
            continue;
        memcpy(keys[made], k, len);
        lens[made++] = len;
    }
    bool first = true;
    for (unsigned i = 0; i < made; i++) {
        puts_(t, first ? "" : ", ");
        first = false;
        put_mlir_string(t, keys[i], lens[i]);
        puts_(t, " = ");
        gen_value(t, depth + 1);
    }
    if (type_keys && below(3) == 0) {
        putf(t, "%s%s = ", first ? "" : ", ", below(2) ? "i32" : "vector<2xf16>");
        gen_value(t, depth + 1);
        kinds |= 1u << K_TYPE_KEY;
    }
}

static void gen_value(text *t, unsigned depth)
{
    unsigned choice = below(depth > 3 ? 8 : 15);
    switch (choice) {
    case 0:
    case 1:
        gen_int(t);
        return;
    case 2:
        putf(t, "%" PRId64 " : index", (int64_t)rnd() >> below(64));
        kinds |= 1u << K_INDEX;
        return;
    case 3:
    case 4:
        gen_float(t);
        return;
    case 5: {
        char s[64];
        bool any = below(3) == 0;
        size_t n = gen_bytes(s, sizeof s, any);
        put_mlir_string(t, s, n);
        kinds |= 1u << (any ? K_STRING_ANY : K_STRING);
        return;
    }
    case 6:
        puts_(t, below(2) ? "true" : "false");
        kinds |= 1u << K_BOOL;
        return;
    case 7:
        puts_(t, PICK(types));
        kinds |= 1u << K_TYPE;
        return;
    case 8:
        gen_dense(t);
        return;
    case 9: {
        puts_(t, "[");
        unsigned n = below(4);
        for (unsigned i = 0; i < n; i++) {
            puts_(t, i ? ", " : "");
            gen_value(t, depth + 1);
        }
        puts_(t, "]");
        kinds |= 1u << K_ARRAY;
        return;
    }
    case 10:
    case 11:
        puts_(t, "#dlti.map<");
        if (below(5) == 0) { /* the two keys of a typed JSON value, either order */
            bool type_first = below(2);
            puts_(t, type_first ? "\"type\" = " : "\"value\" = ");
            if (type_first && below(2))
                puts_(t, "\"ui32\"");
            else
                gen_value(t, depth + 1);
            puts_(t, type_first ? ", \"value\" = " : ", \"type\" = ");
            gen_value(t, depth + 1);
            kinds |= 1u << K_MAP_TYPED_KEYS;
        } else {
            gen_entries(t, depth, true, false);
        }
        puts_(t, ">");
        kinds |= 1u << K_MAP;
        return;
    case 12:
        if (below(2)) {
            puts_(t, "#dlti.target_device_spec<");
            gen_entries(t, depth, false, true);
        } else {
            puts_(t, "#dlti.dl_spec<");
            gen_entries(t, depth, true, false);
            kinds |= 1u << K_DL_SPEC;
        }
        puts_(t, ">");
        kinds |= 1u << K_DEVICE_NESTED;
        return;
    default: {
        static const char *const other[] = {
            "unit", "dense<[1, 2]> : tensor<2xi32>", "dense<1.5> : vector<2xf32>",
            "{a = 1 : i32, b = \"x\"}", "#test.attr<1>", "affine_map<(d0) -> (d0)>",
            "#dlti.dl_entry<\"a\", 1>",
        };
        puts_(t, PICK(other));
        kinds |= 1u << K_OTHER;
        return;
    }
    }
}

static const char *const odd_ids[] = {
    "rack1.node-a", "v1.0 GPU", "cn017.GPU3", "a.b (x)", "func.func @f", "module", "#x",
    "data_layout", "$format", "- x", "? y", "{}", "[1]", "%0", "\"q\"", "x: y",
};

/* A system spec of 1-3 devices. */
static void gen_system(text *t)
{
    puts_(t, "#dlti.target_system_spec<");
    unsigned n = 1 + below(3);
    char ids[4][64];
    size_t lens[4];
    unsigned made = 0;
    for (unsigned i = 0; i < n; i++) {
        char id[64];
        size_t len;
        if (below(3) == 0) {
            const char *s = PICK(odd_ids);
            len = strlen(s);
            memcpy(id, s, len);
            kinds |= 1u << K_ID_ODD;
        } else if (below(6) == 0) {
            len = gen_key(id, sizeof id);
            kinds |= 1u << K_ID_ODD;
        } else {
            len = (size_t)snprintf(id, sizeof id, "%s%u", PICK(((const char *const[]){"CPU", "GPU", "NPU"})), i);
        }
        bool dup = false;
        for (unsigned j = 0; j < made; j++)
            dup |= lens[j] == len && memcmp(ids[j], id, len) == 0;
        if (dup)
            continue;
        memcpy(ids[made], id, len);
        lens[made] = len;
        puts_(t, made++ ? ", " : "");
        put_mlir_string(t, id, len);
        puts_(t, " = #dlti.target_device_spec<");
        gen_entries(t, 1, false, true);
        puts_(t, ">");
    }
    puts_(t, ">");
}

/* ---- the formats ---- */

enum fmt { F_MLIR, F_YAML, F_JSON_TYPED, F_JSON_PLAIN, NFMTS };
static const char *const fmt_names[NFMTS] = {"MLIR", "YAML", "typed JSON", "plain JSON"};
static const sysdesc_format fmt_format[NFMTS] = {SYSDESC_FORMAT_MLIR, SYSDESC_FORMAT_YAML,
                                                 SYSDESC_FORMAT_JSON, SYSDESC_FORMAT_JSON};
static const unsigned fmt_flags[NFMTS] = {0, 0, SYSDESC_PRINT_TYPED, 0};
/* The names a file of the format may have: the content decides, the
 * extension only breaks ties (sysdesc/sniff.c); sysdesc's own outputs are
 * told by their content alone. */
static const char *const fmt_sources[NFMTS][4] = {
    {NULL, "spec.mlir", "spec.yaml", "spec.json"},
    {NULL, "spec.yaml", "spec.mlir", "spec.json"},
    {NULL, "spec.json", "spec", NULL},
    {NULL, "spec.json", NULL, NULL},
};

static long ok_count[NFMTS][NKINDS], refused_count[NFMTS][NKINDS], failed_count[NFMTS][NKINDS];
/* the reasons of the refusals: "the key at" ... "(bytes that are not UTF-8)" */
static struct {
    char text[120];
    long n;
} reasons[32];
static long cases, pairs, reads, failures, skipped;

static bool same_system(const sysdesc_system *a, const sysdesc_system *b)
{
    if (!dlti_attr_equal(a->spec, b->spec))
        return false;
    if ((a->dl_spec != NULL) != (b->dl_spec != NULL))
        return false;
    return !a->dl_spec || dlti_attr_equal(a->dl_spec, b->dl_spec);
}

static void report(const char *what, const char *spec_text, const char *printed, size_t n,
                   const dlti_error_t *err)
{
    failures++;
    static long shown = -1;
    if (shown < 0) {
        const char *e = getenv("SYSDESC_ROUNDTRIP_SHOW");
        shown = e && *e ? atol(e) : 5;
    }
    if (failures > shown)
        return;
    fprintf(stderr, "FAIL (case %ld): %s\n  spec: %s\n", cases, what, spec_text);
    if (printed)
        fprintf(stderr, "  printed:\n%.*s\n", (int)(n > 3000 ? 3000 : n), printed);
    if (err)
        fprintf(stderr, "  error: %s:%d:%d: %s\n", err->source, err->line, err->column,
                err->text);
}

/* Prints `sys` in format `f` and reads it back under each name a file of it
 * may have: 1 with *back set when every read gave `sys` again; 0 when the
 * format refused to print it (named) or, plain JSON, to read it; -1 after
 * a failure (reported). */
static int round_trip(dlti_context *ctx, const sysdesc_system *sys, enum fmt f,
                      const char *spec_text, sysdesc_system *back)
{
    size_t n;
    dlti_error_t err;
    memset(&err, 0, sizeof err);
    char *printed = sysdesc_system_print_checked(sys, fmt_format[f], fmt_flags[f], &n, &err);
    if (!printed) {
        if (f != F_MLIR && err.code == DLTI_ERROR_UNSUPPORTED && strstr(err.text, "cannot hold")) {
            /* "YAML cannot hold the key at 'D.x' (why); ...": format, what, why */
            char what[40] = "", why[80] = "";
            const char *the = strstr(err.text, "cannot hold the ");
            const char *at = strstr(err.text, " at '"), *open = strstr(err.text, "' (");
            const char *close = open ? strstr(open, ");") : NULL;
            if (the && at && at > the + 16)
                snprintf(what, sizeof what, "%.*s", (int)(at - the - 16), the + 16);
            if (open && close)
                snprintf(why, sizeof why, "%.*s", (int)(close - open - 3), open + 3);
            char reason[120];
            snprintf(reason, sizeof reason, "%s: the %s (%s)", fmt_names[f], what, why);
            for (size_t r = 0; r < sizeof reasons / sizeof reasons[0]; r++)
                if (!reasons[r].n || strcmp(reasons[r].text, reason) == 0) {
                    snprintf(reasons[r].text, sizeof reasons[r].text, "%s", reason);
                    reasons[r].n++;
                    break;
                }
            return 0;
        }
        report("printing failed without a named reason", spec_text, NULL, 0, &err);
        return -1;
    }
    sysdesc_yaml_options opts = {.flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE,
                                 .search_path = "/nonexistent"};
    int rc = 1;
    for (size_t s = 0; s < 4 && rc == 1; s++) {
        const char *source = fmt_sources[f][s];
        if (s > 0 && !source)
            break;
        reads++;
        sysdesc_system again;
        if (sysdesc_system_parse(ctx, printed, n, source, &opts, &again, &err) != 0) {
            if (f == F_JSON_PLAIN && err.code == DLTI_ERROR_UNSUPPORTED &&
                strstr(err.text, "plain JSON is not read")) {
                rc = 0;
                break;
            }
            char what[128];
            snprintf(what, sizeof what, "%s does not read back (as %s)", fmt_names[f],
                     source ? source : "text");
            report(what, spec_text, printed, n, &err);
            rc = -1;
        } else if (f == F_JSON_PLAIN) {
            report("plain JSON was read (it loses types: it must be refused)", spec_text, printed,
                   n, NULL);
            rc = -1;
        } else if (!same_system(sys, &again)) {
            char *got = dlti_attr_print(again.spec, NULL);
            char what[160];
            snprintf(what, sizeof what, "%s reads back changed (as %s): %.60s...", fmt_names[f],
                     source ? source : "text", got ? got : "?");
            free(got);
            report(what, spec_text, printed, n, NULL);
            rc = -1;
        } else {
            *back = again;
        }
    }
    free(printed);
    return rc;
}

static void run_case(dlti_context *ctx)
{
    kinds = 0;
    text spec = {0};
    gen_system(&spec);
    sysdesc_system sys = {0};
    dlti_error_t err;
    sys.spec = dlti_attr_parse(ctx, spec.s, spec.len, "generated", &err);
    if (sys.spec && below(4) == 0) {
        static const char *const layouts[] = {
            "#dlti.dl_spec<\"dlti.endianness\" = \"little\", i64 = dense<64> : vector<2xi64>>",
            "#dlti.dl_spec<\"dlti.stack_alignment\" = 128 : i64>",
            "#dlti.dl_spec<\"type\" = \"little\", \"value\" = 1 : i32>",
        };
        const char *l = PICK(layouts);
        sys.dl_spec = dlti_attr_parse(ctx, l, strlen(l), "layout", &err);
        kinds |= 1u << K_DL_SPEC;
    }
    if (!sys.spec) {
        /* the generator wrote what MLIR does not accept (a dl_spec entry
         * MLIR's rules refuse, ...): not a case */
        skipped++;
        free(spec.s);
        return;
    }
    cases++;
    sysdesc_system back[NFMTS];
    int rc[NFMTS];
    for (int f = 0; f < NFMTS; f++) {
        long before = failures;
        rc[f] = round_trip(ctx, &sys, (enum fmt)f, spec.s, &back[f]);
        for (int k = 0; k < NKINDS; k++)
            if (kinds & (1u << k)) {
                if (failures > before)
                    failed_count[f][k]++;
                else if (rc[f] == 1 || (f == F_JSON_PLAIN && rc[f] == 0))
                    ok_count[f][k]++;
                else
                    refused_count[f][k]++;
            }
    }
    /* every ordered pair: what one format read back, through another */
    for (int f = 0; f < F_JSON_PLAIN; f++) {
        if (rc[f] != 1)
            continue;
        for (int g = 0; g < F_JSON_PLAIN; g++) {
            sysdesc_system again;
            pairs++;
            int r = round_trip(ctx, &back[f], (enum fmt)g, spec.s, &again);
            if (r == 1 && !same_system(&sys, &again))
                report("a pair of formats changed the spec", spec.s, NULL, 0, NULL);
            if (r != rc[g] && r >= 0) {
                char what[128];
                snprintf(what, sizeof what, "%s then %s: %s", fmt_names[f], fmt_names[g],
                         r ? "read back, directly refused" : "refused, directly read back");
                report(what, spec.s, NULL, 0, NULL);
            }
        }
    }
    free(spec.s);
}

int main(void)
{
    const char *env = getenv("SYSDESC_ROUNDTRIP_CASES");
    /* memcheck (scripts/test-all runs the unit tests under it: its preload
     * is in LD_PRELOAD) makes a case ~30 times slower: a tenth of them */
    const char *preload = getenv("LD_PRELOAD");
    bool memcheck = preload && strstr(preload, "vgpreload");
    long want = env && *env ? atol(env) : memcheck ? 300 : 3000;
    wide_floats = getenv("SYSDESC_ROUNDTRIP_WIDE_FLOATS") != NULL;
    env = getenv("SYSDESC_ROUNDTRIP_SEED");
    state = env && *env ? strtoull(env, NULL, 0) : 20240533u;
    uint64_t seed = state;
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return 99;
    while (cases < want && skipped < want) {
        run_case(ctx);
        if ((cases + skipped) % 64 == 0)
            dlti_context_reset(ctx); /* memory stays small */
    }
    dlti_context_free(ctx);

    printf("round trips of %ld generated specs (seed %" PRIu64 "; %ld not MLIR, skipped): "
           "%ld reads, %ld pairs of formats\n", cases, seed, skipped, reads, pairs);
    printf("cases holding each kind: read back identical / refused at print (named)\n");
    printf("%-34s", "kind");
    for (int f = 0; f < NFMTS; f++)
        printf(" | %-16s", fmt_names[f]);
    printf("\n");
    for (int k = 0; k < NKINDS; k++) {
        printf("%-34s", kind_names[k]);
        for (int f = 0; f < NFMTS; f++) {
            char cell[40];
            if (f == F_JSON_PLAIN)
                snprintf(cell, sizeof cell, "refused read %ld", ok_count[f][k]);
            else
                snprintf(cell, sizeof cell, "%ld / %ld", ok_count[f][k], refused_count[f][k]);
            if (failed_count[f][k])
                snprintf(cell + strlen(cell), sizeof cell - strlen(cell), " FAIL %ld",
                         failed_count[f][k]);
            printf(" | %-16s", cell);
        }
        printf("\n");
    }
    printf("refusals at print, by reason (direct prints and pairs):\n");
    for (size_t r = 0; r < sizeof reasons / sizeof reasons[0] && reasons[r].n; r++)
        printf("  %6ld  %s\n", reasons[r].n, reasons[r].text);
    printf("%ld failures\n", failures);
    return failures ? 1 : 0;
}
