/* The checker (sysdesc/schema.h): every device of a system against the
 * schema table and the rules of docs/keys.md ("Checks").  Every problem is
 * reported, not only the first; each names the device and key path, and is
 * located in the source text when the caller has it (check_locate.c). */
#include "sysdesc_private.h"

#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 16
#define MEMO_BITS 9
#define MEMO_SLOTS (1u << MEMO_BITS)
#define MEMO_PROBES 8 /* slots looked at; all taken: the home slot is replaced */

/* sd_schema_child() of a (parent entry, key handle): keys are interned, so a
 * handle stands for one name, and a system of many devices repeats the same
 * few dozen keys. */
typedef struct child_memo {
    dlti_key key;            /* NULL: empty */
    int parent;
    int child;
    const sysdesc_schema_key *k;   /* the child's entry; NULL when none */
} child_memo;

/* A hint found for an unknown key name under a parent: a system of many
 * devices repeats the same mistakes, and each hint scans the schema. */
typedef struct hint_memo {
    int parent;
    unsigned bits;
    size_t len;               /* 0: empty */
    char name[48];
    bool found;
    char near[208];
} hint_memo;
#define HINT_SLOTS 1024 /* a power of two */

typedef struct check_run {
    sysdesc_problem_fn report;
    void *user;
    const char *source;
    sd_locator *locator;     /* NULL: problems are not located */
    long count;
    bool stop;
    /* What is made of each problem: hints and locations cost only for what
     * is shown.  scan: each problem is located only, the first in the text
     * kept (best_*); else target < 0: every problem is reported whole, or
     * only problem number `target` is (the others are counted). */
    bool scan;
    long target;
    int best_line, best_column;
    long best;
    hint_memo *hints;        /* HINT_SLOTS, made with the first hint */
    /* A lenient load's options: what the schema does not know
     * (DLTI_ERROR_UNSUPPORTED) is not counted; the scan gives it, whole,
     * to lenient->warn. */
    const sysdesc_yaml_options *lenient;
    size_t warned;           /* the lenient warnings given */
    /* SYSDESC_LOAD_LENIENT (a transform's load): a value of another type
     * than the schema's (DLTI_ERROR_TYPE here, DLTI_ERROR_VERIFY in a
     * check) is kept as written and warned about as the unknown are. */
    bool keep_types;
    /* Containers found clean under a schema key and device types: a value
     * many devices share (a `base:`'s, an alias's) is walked once.
     * CLEAN_SLOTS open-addressed slots, made with the first; full: no more. */
    struct clean_slot { const dlti_attr *v; int child; unsigned bits; } *clean;
    size_t nclean;
    bool partial;            /* SYSDESC_CHECK_PARTIAL */
    bool complete;           /* SYSDESC_CHECK_COMPLETE */
    /* the device being checked */
    const dlti_attr *device;
    unsigned dev_bits;       /* SYSDESC_DEVICE_* it may hold keys of */
    bool probed;             /* it carries provenance: required keys are not asked */
    /* the path of the value being checked: device id, then keys */
    const char *key[MAX_DEPTH];
    size_t key_len[MAX_DEPTH];
    size_t depth;
    /* the device's values by top-level schema entry (its keys are unique),
     * for the rules between keys: filled once per device, not searched
     * per rule */
    const dlti_attr *top[SD_SCHEMA_MAX_KEYS];
    child_memo memo[MEMO_SLOTS];
    /* lookup()'s top-level entry of a rule's key name, by the name's
     * address (the rules name keys with string literals) */
    struct { const char *name; int entry; } names[64]; /* checked by name: a buffer may be reused */
    /* the entries r->top holds, to clear them for the next device (an
     * index of the schema: past 255 since the schema outgrew a byte, when a
     * byte here made the next device see the last one's values) */
    uint16_t filled[SD_SCHEMA_MAX_KEYS];
    size_t nfilled;
    /* the i64 and f64 types once seen (types are uniqued per context): a
     * value of that very type needs no further look at its type */
    const dlti_type *i64, *f64;
} check_run;

static const child_memo *memo_of(check_run *r, int parent, dlti_key key, const char *name,
                                 size_t len)
{
    /* the product's top bits, which depend on every bit of the handle; a
     * few slots probed past the home one, so that two of a device's few
     * dozen keys that share a home do not take it from each other at every
     * device (a direct-mapped memo missed two keys a device) */
    uint64_t h = ((uint64_t)(uintptr_t)key ^ (uint64_t)(parent + 1)) * 0x9E3779B97F4A7C15ull;
    size_t home = (size_t)(h >> (64 - MEMO_BITS));
    child_memo *m = &r->memo[home];
    for (size_t probe = 0; probe < MEMO_PROBES; probe++) {
        child_memo *c = &r->memo[(home + probe) & (MEMO_SLOTS - 1)];
        if ((c->key == key && c->parent == parent) || !c->key) {
            m = c;
            break;
        }
    }
    if (m->key != key || m->parent != parent) {
        m->key = key;
        m->parent = parent;
        m->child = sd_schema_child(parent, name, len);
        m->k = m->child >= 0 ? sysdesc_schema_key_at((size_t)m->child) : NULL;
    }
    return m;
}

static int child_of(check_run *r, int parent, dlti_key key, const char *name, size_t len)
{
    return memo_of(r, parent, key, name, len)->child;
}

/* "GPU0.cache.L1" of the first `depth` components. */
static void path_text(const check_run *r, size_t depth, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < depth && used + 1 < size; i++) {
        int n = snprintf(out + used, size - used, "%s%.*s", i ? "." : "", (int)r->key_len[i],
                         r->key[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* A second place a problem may be shown at: the key path `base` components
 * of the current one, then `n` more keys.  A relation between two keys is
 * shown at the first unless only the second is written in the file (the
 * first inherited through `base:`). */
typedef struct other_key {
    size_t base;
    const char *key[3];
    size_t len[3];
    size_t n;
} other_key;

/* Whether the problem about to be reported is shown: its text (and hint)
 * is made. */
static bool shown(const check_run *r)
{
    return !r->scan && (r->target < 0 || r->count + 1 == r->target) && !r->stop && r->report;
}

/* The line and column of a problem (see place()); false when not found. */
static bool locate(check_run *r, size_t depth, const other_key *other, int *at_line,
                   int *at_column)
{
    int line = 0, column = 0;
    int m = sd_locate(r->locator, r->key, r->key_len, depth, &line, &column);
    if (other && (m < 0 || (size_t)m < depth) && other->base + other->n <= MAX_DEPTH) {
        const char *keys[MAX_DEPTH];
        size_t lens[MAX_DEPTH];
        size_t n = other->base + other->n;
        for (size_t i = 0; i < n; i++) {
            keys[i] = i < other->base ? r->key[i] : other->key[i - other->base];
            lens[i] = i < other->base ? r->key_len[i] : other->len[i - other->base];
        }
        int line2, column2;
        int m2 = sd_locate(r->locator, keys, lens, n, &line2, &column2);
        if (m2 > 0 && ((size_t)m2 == n || m2 > m)) {
            m = m2;
            line = line2;
            column = column2;
        }
    }
    *at_line = line;
    *at_column = column;
    return m > 0;
}

static void place(check_run *r, dlti_error_t *e, size_t depth, const other_key *other)
{
    int line, column;
    if (locate(r, depth, other, &line, &column))
        bs_error_place(e, r->source, line, column);
}

/* Reports one problem located at the first `depth` path components (or at
 * `other`, see other_key).  Nothing is counted once `report` asked to stop. */
static void vproblem(check_run *r, dlti_error_code code, size_t depth, const other_key *other,
                     const char *fmt, va_list ap)
{
    if (r->stop)
        return;
    if (code == DLTI_ERROR_TYPE && !r->keep_types)
        code = DLTI_ERROR_VERIFY; /* a mistake, as the check reports it */
    if ((code == DLTI_ERROR_UNSUPPORTED || code == DLTI_ERROR_TYPE) && r->lenient) {
        if (!r->scan || !r->lenient->warn)
            return;
        dlti_error_t e;
        bs_error_vset_at(&e, code, r->source, 0, 0, fmt, ap);
        if (code == DLTI_ERROR_TYPE) {
            size_t used = strlen(e.text);
            snprintf(e.text + used, sizeof(e.text) - used, " (kept as written)");
        }
        if (r->locator)
            place(r, &e, depth, other);
        r->warned++;
        if (r->lenient->warn(r->lenient->warn_user, &e) != 0)
            r->stop = true;
        return;
    }
    r->count++;
    if (r->scan) {
        /* the first in the text: one without a place first (as `sysdesc
         * check` sorts them), then by line and column, then the checker's order */
        int line = 0, column = 0;
        if (!r->locator || !locate(r, depth, other, &line, &column))
            line = column = 0;
        if (r->best == 0 || line < r->best_line ||
            (line == r->best_line && column < r->best_column)) {
            r->best = r->count;
            r->best_line = line;
            r->best_column = column;
        }
        return;
    }
    if (!r->report || (r->target >= 0 && r->count != r->target))
        return;
    dlti_error_t e;
    bs_error_vset_at(&e, code, r->source, 0, 0, fmt, ap);
    if (r->locator)
        place(r, &e, depth, other);
    if (r->report(r->user, &e) != 0)
        r->stop = true;
}

static void problem(check_run *r, dlti_error_code code, size_t depth, const char *fmt, ...)
    BS_PRINTF(4, 5);
static void problem(check_run *r, dlti_error_code code, size_t depth, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vproblem(r, code, depth, NULL, fmt, ap);
    va_end(ap);
}

static void problem_or(check_run *r, size_t depth, const other_key *other, const char *fmt, ...)
    BS_PRINTF(4, 5);
static void problem_or(check_run *r, size_t depth, const other_key *other, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vproblem(r, DLTI_ERROR_VERIFY, depth, other, fmt, ap);
    va_end(ap);
}

static const dlti_attr *get(const dlti_attr *map, const char *key)
{
    size_t len = strlen(key);
    for (size_t i = 0; map && i < dlti_attr_size(map); i++) {
        size_t kl;
        const char *k = dlti_key_str(dlti_attr_entry_key(map, i), &kl);
        if (k && kl == len && memcmp(k, key, len) == 0)
            return dlti_attr_entry_value(map, i);
    }
    return NULL;
}

static bool is_i64(const dlti_attr *v, int64_t *x)
{
    const dlti_type *ty = v ? dlti_attr_type(v) : NULL;
    return v && dlti_attr_get_kind(v) == DLTI_ATTR_INTEGER &&
           dlti_type_get_kind(ty) == DLTI_TYPE_INTEGER && dlti_type_int_width(ty) == 64 &&
           dlti_type_int_signedness(ty) == DLTI_SIGNLESS && dlti_attr_get_int64(v, x, NULL) == 0;
}

/* An integer of any width or signedness whose value fits int64_t: MLIR's
 * users write `4096 : i32` and `49152 : ui32` and read them with getInt(),
 * so the schema's integers take every integer type.  The i64 type, once
 * seen, is remembered: most values are of that very type. */
static bool run_is_i64(check_run *r, const dlti_attr *v, int64_t *x)
{
    if (!v || dlti_attr_get_kind(v) != DLTI_ATTR_INTEGER)
        return false;
    if (r->i64 && dlti_attr_type(v) == r->i64)
        return dlti_attr_get_int64(v, x, NULL) == 0;
    if (is_i64(v, x)) {
        r->i64 = dlti_attr_type(v);
        return true;
    }
    return dlti_attr_get_int64(v, x, NULL) == 0;
}

/* get(map, key), from the device's table when `map` is the device. */
static const dlti_attr *lookup(check_run *r, const dlti_attr *map, const char *key)
{
    if (map && map == r->device) {
        uintptr_t h = (uintptr_t)key * (uintptr_t)0x9E3779B97F4A7C15ull;
        size_t slot = (h >> 26) & 63;
        int i = r->names[slot].entry;
        if (r->names[slot].name != key || i < 0 || strcmp(sd_schema_name(i), key) != 0) {
            i = sd_schema_child(-1, key, strlen(key));
            r->names[slot].name = key;
            r->names[slot].entry = i;
        }
        if (i >= 0)
            return r->top[i];
    }
    return get(map, key);
}

static bool same_ascii_nocase(const char *a, size_t len, const char *b)
{
    if (strlen(b) != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = a[i] >= 'a' && a[i] <= 'z' ? (char)(a[i] - 32) : a[i];
        if (c != b[i])
            return false;
    }
    return true;
}

/* The device types of `bits` as "a GPU/ACCEL", "an ACCEL", in the schema's
 * order. */
static const char *types_text(unsigned bits, char *out, size_t size)
{
    const char *first = NULL;
    for (unsigned b = 1; b && b <= bits && !first; b <<= 1)
        first = bits & b ? sysdesc_schema_device_type_name(b) : NULL;
    size_t used = (size_t)snprintf(out, size, "%s", first && first[0] == 'A' ? "an " : "a ");
    size_t article = used;
    for (unsigned b = 1; b && b <= bits && used < size; b <<= 1) {
        const char *name = bits & b ? sysdesc_schema_device_type_name(b) : NULL;
        if (name)
            used += (size_t)snprintf(out + used, size - used, "%s%s", used > article ? "/" : "",
                                     name);
    }
    return out;
}

/* The device type a device_type of another spelling means: another case of
 * a known type, or a name the ecosystem gives a kind of accelerator (PyTorch's
 * "hpu" for Gaudi, Google's TPU, the NPUs of Linux's accel drivers), which
 * the schema describes as ACCEL. */
static const char *device_type_near(const char *t, size_t len)
{
    static const char *const known[] = {"CPU", "GPU", "ACCEL"};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (same_ascii_nocase(t, len, known[i]))
            return known[i];
    static const char *const accelerators[] = {"ACCELERATOR", "NPU", "TPU", "HPU"};
    for (size_t i = 0; i < sizeof(accelerators) / sizeof(accelerators[0]); i++)
        if (same_ascii_nocase(t, len, accelerators[i]))
            return "ACCEL";
    return NULL;
}

static bool get_i64(check_run *r, const dlti_attr *map, const char *key, int64_t *x)
{
    return run_is_i64(r, lookup(r, map, key), x);
}

/* ---- what a value is, in words ---- */

static const char *expected_text(const sysdesc_schema_key *k, char *buf, size_t size)
{
    switch (k->type) {
    case SYSDESC_VALUE_I64:
        if (k->unit)
            snprintf(buf, size, "an integer (i64) in %s", k->unit);
        else
            snprintf(buf, size, "an integer (i64)");
        return buf;
    case SYSDESC_VALUE_F64:
        snprintf(buf, size, "a float (f64)%s%s", k->unit ? " in " : "", k->unit ? k->unit : "");
        return buf;
    case SYSDESC_VALUE_BOOL:
        return "true or false";
    case SYSDESC_VALUE_STRING:
        return strcmp(k->path, "device_type") == 0 ? "\"CPU\", \"GPU\" or \"ACCEL\"" : "a string";
    case SYSDESC_VALUE_I64_ARRAY:
        return "a non-empty list of integers (i64)";
    case SYSDESC_VALUE_STRING_LIST:
        return "a list of strings";
    case SYSDESC_VALUE_MAP:
    case SYSDESC_VALUE_OPEN_MAP:
        return "a map";
    }
    return "?";
}

static const char *actual_text(const dlti_attr *v, char *buf, size_t size)
{
    int64_t x;
    double d;
    switch (dlti_attr_get_kind(v)) {
    case DLTI_ATTR_STRING: {
        const char *s;
        size_t len;
        dlti_attr_get_string(v, &s, &len, NULL);
        if (len > 40)
            snprintf(buf, size, "the string \"%.37s...\"", s);
        else
            snprintf(buf, size, "the string \"%.*s\"", (int)len, s);
        return buf;
    }
    case DLTI_ATTR_INTEGER:
        if (is_i64(v, &x)) {
            snprintf(buf, size, "%lld", (long long)x);
            return buf;
        }
        break;
    case DLTI_ATTR_FLOAT:
        if (strcmp(dlti_type_str(dlti_attr_type(v)), "f64") == 0 &&
            dlti_attr_get_double(v, &d, NULL) == 0) {
            sd_float_text(d, buf, size);
            return buf;
        }
        break;
    case DLTI_ATTR_BOOL: {
        bool b = false;
        dlti_attr_get_bool(v, &b, NULL);
        return b ? "true" : "false";
    }
    case DLTI_ATTR_ARRAY:
    case DLTI_ATTR_DENSE_ARRAY:
        if (dlti_attr_size(v) == 0)
            return "an empty list";
        if (dlti_attr_get_kind(v) == DLTI_ATTR_ARRAY)
            return "a list";
        break;
    case DLTI_ATTR_MAP:
        return "a map";
    default:
        break;
    }
    /* anything else in MLIR syntax: "1024 : i32", "array<i32: 1, 2>" */
    char *t = dlti_attr_print(v, NULL);
    if (t && strlen(t) > 40)
        snprintf(buf, size, "%.37s...", t);
    else
        snprintf(buf, size, "%s", t ? t : "another kind of attribute");
    free(t);
    return buf;
}

/* The number to write instead of `v`, when one is obvious ("write 65536
 * (bytes)"); `k` gives the type and unit wanted (an array's element: I64). */
static bool value_hint(const sysdesc_schema_key *k, const dlti_attr *v, char *out, size_t size)
{
    dlti_attr_kind kind = dlti_attr_get_kind(v);
    int64_t x;
    /* one value where a list is wanted */
    if (k->type == SYSDESC_VALUE_I64_ARRAY && is_i64(v, &x)) {
        snprintf(out, size, "write [%lld]", (long long)x);
        return true;
    }
    if (k->type == SYSDESC_VALUE_STRING_LIST && kind == DLTI_ATTR_STRING) {
        const char *s;
        size_t len;
        dlti_attr_get_string(v, &s, &len, NULL);
        if (len <= 40) {
            snprintf(out, size, "write [\"%.*s\"]", (int)len, s);
            return true;
        }
    }
    /* array<i32: 32> in MLIR: the same numbers as array<i64: ...> */
    if (k->type == SYSDESC_VALUE_I64_ARRAY && kind == DLTI_ATTR_DENSE_ARRAY &&
        dlti_type_get_kind(dlti_attr_type(v)) == DLTI_TYPE_INTEGER &&
        dlti_type_int_width(dlti_attr_type(v)) > 1 && dlti_attr_size(v) > 0) {
        char *t = dlti_attr_print(v, NULL);
        const char *colon = t ? strchr(t, ':') : NULL;
        bool ok = colon && strlen(colon) < 60;
        if (ok)
            snprintf(out, size, "write array<i64%s", colon);
        free(t);
        if (ok)
            return true;
    }
    if (kind == DLTI_ATTR_STRING) {
        const char *s;
        size_t len;
        dlti_attr_get_string(v, &s, &len, NULL);
        if (sd_unit_hint(k, s, len, out, size) == 0)
            return true;
        if (k->type == SYSDESC_VALUE_BOOL && len < 8) {
            /* YAML 1.1's words for booleans are strings in YAML 1.2 */
            static const char *const yes[] = {"yes", "Yes", "YES", "on", "On", "ON", "y", "Y"};
            static const char *const no[] = {"no", "No", "NO", "off", "Off", "OFF", "n", "N"};
            if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
                snprintf(out, size, "write %s without quotes", s);
                return true;
            }
            for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
                if (strcmp(s, yes[i]) == 0 || strcmp(s, no[i]) == 0) {
                    snprintf(out, size, "write %s", strcmp(s, yes[i]) == 0 ? "true" : "false");
                    return true;
                }
            }
        }
        return false;
    }
    /* a number or boolean where text is wanted (compute_capability: 9.0) */
    if (k->type == SYSDESC_VALUE_STRING && strcmp(k->path, "device_type") != 0 &&
        (kind == DLTI_ATTR_BOOL || (kind == DLTI_ATTR_INTEGER && is_i64(v, &(int64_t){0})) ||
         (kind == DLTI_ATTR_FLOAT && strcmp(dlti_type_str(dlti_attr_type(v)), "f64") == 0))) {
        char text[64];
        snprintf(out, size, "write \"%s\"", actual_text(v, text, sizeof(text)));
        return true;
    }
    double d;
    if (k->type == SYSDESC_VALUE_I64 && kind == DLTI_ATTR_FLOAT &&
        dlti_attr_get_double(v, &d, NULL) == 0) {
        if (d == floor(d) && fabs(d) < 9.2e18) {
            snprintf(out, size, "write %lld", (long long)d);
            return true;
        }
        if (k->unit && strcmp(k->unit, "MHz") == 0 && d > 0 && d < 100) {
            snprintf(out, size, "is it in GHz? then write %lld", (long long)llround(d * 1000));
            return true;
        }
        return false;
    }
    /* another integer type (1024 : i32, !i32 1024): a plain integer is an i64 */
    if (k->type == SYSDESC_VALUE_I64 && kind == DLTI_ATTR_INTEGER &&
        dlti_attr_get_int64(v, &x, NULL) == 0) {
        snprintf(out, size, "write %lld", (long long)x);
        return true;
    }
    if (k->type == SYSDESC_VALUE_F64 && kind == DLTI_ATTR_INTEGER &&
        dlti_attr_get_int64(v, &x, NULL) == 0) {
        char num[64];
        sd_float_text((double)x, num, sizeof(num));
        snprintf(out, size, "write %s", num);
        return true;
    }
    return false;
}

/* Whether the text of a value's wrong type is made: shown, or a lenient
 * load's warning (made whole while scanning, as unknown_key()'s). */
static bool type_worded(const check_run *r)
{
    return shown(r) || (r->scan && r->keep_types);
}

static void wrong_type(check_run *r, const sysdesc_schema_key *k, const dlti_attr *v)
{
    char path[512], want[96], got[96], hint[128];
    path_text(r, r->depth, path, sizeof(path));
    bool h = type_worded(r) && value_hint(k, v, hint, sizeof(hint));
    problem(r, DLTI_ERROR_TYPE, r->depth, "'%s' must be %s, not %s%s%s", path,
            expected_text(k, want, sizeof(want)), actual_text(v, got, sizeof(got)),
            h ? "; " : "", h ? hint : "");
}

/* A list whose element `i` (0-based) is `e`, not what `k` wants of one. */
static void wrong_element(check_run *r, const sysdesc_schema_key *k, size_t i, const dlti_attr *e)
{
    char path[512], want[96], got[96], hint[128];
    sysdesc_schema_key ek = *k;
    ek.type = k->type == SYSDESC_VALUE_I64_ARRAY ? SYSDESC_VALUE_I64 : SYSDESC_VALUE_STRING;
    path_text(r, r->depth, path, sizeof(path));
    bool h = type_worded(r) && value_hint(&ek, e, hint, sizeof(hint));
    problem(r, DLTI_ERROR_TYPE, r->depth, "'%s' must be %s, not a list with %s at position %zu%s%s",
            path, expected_text(k, want, sizeof(want)), actual_text(e, got, sizeof(got)), i + 1,
            h ? "; " : "", h ? hint : "");
}

/* " (is it in kHz? then write 1980)" for a clock above its range. */
static void clock_hint(const sysdesc_schema_key *k, int64_t x, char *out, size_t size)
{
    static const struct {
        const char *unit;
        int64_t scale;
    } scales[] = {{"kHz", 1000}, {"Hz", 1000000}};
    for (size_t i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
        int64_t v = (x + scales[i].scale / 2) / scales[i].scale;
        if (v >= k->min && v <= k->max) {
            snprintf(out, size, " (is it in %s? then write %lld)", scales[i].unit, (long long)v);
            return;
        }
    }
    snprintf(out, size, " (in MHz)");
}

static void check_range(check_run *r, const sysdesc_schema_key *k, int64_t x, const char *what)
{
    if (x >= k->min && x <= k->max && !(x == 0 && k->min < 0)) /* associativity 0: unknown */
        return;
    char path[512], hint[160] = "";
    path_text(r, r->depth, path, sizeof(path));
    if (x == 0 && k->min < 0) {
        problem(r, DLTI_ERROR_VERIFY, r->depth,
                "'%s' is 0: write -1 for fully associative, or leave the key out when unknown",
                path);
        return;
    }
    if (k->max == 0xffff && x > k->max) { /* PCI ids: as they are written, in hex */
        problem(r, DLTI_ERROR_VERIFY, r->depth,
                "'%s'%s must be at most 0xffff, not 0x%llx (a PCI id has 16 bits)", path, what,
                (unsigned long long)x);
        return;
    }
    if (x > k->max) {
        if (k->unit && strcmp(k->unit, "MHz") == 0)
            clock_hint(k, x, hint, sizeof(hint));
        problem(r, DLTI_ERROR_VERIFY, r->depth, "'%s'%s must be at most %lld, not %lld%s", path,
                what, (long long)k->max, (long long)x, hint);
        return;
    }
    if (k->unit && strcmp(k->unit, "bytes/s") == 0 && x > 0 && x < k->min &&
        x <= INT64_MAX / 1000000000)
        snprintf(hint, sizeof(hint), " (is it in GB/s? then write %lld)",
                 (long long)(x * 1000000000));
    problem(r, DLTI_ERROR_VERIFY, r->depth, "'%s'%s must be at least %lld, not %lld%s", path, what,
            (long long)k->min, (long long)x, hint);
}

static void walk_map(check_run *r, const dlti_attr *map, int parent);

/* A measured value (a key of a `measured` map) is what the device delivered:
 * a schema band bounds what a description may claim, not what a measurement
 * may find (a software device, a loaded host), so a measured value outside
 * the band is valid, and a lenient load says so as a warning. */
static bool measured_key(const sysdesc_schema_key *k)
{
    return strncmp(k->path, "measured.", 9) == 0;
}

static void check_value(check_run *r, int idx, const sysdesc_schema_key *k, const dlti_attr *v)
{
    dlti_attr_kind kind = dlti_attr_get_kind(v);
    int64_t x;
    switch (k->type) {
    case SYSDESC_VALUE_I64:
        if (!run_is_i64(r, v, &x))
            wrong_type(r, k, v);
        else
            check_range(r, k, x, "");
        return;
    case SYSDESC_VALUE_F64: {
        double d;
        bool f64 = kind == DLTI_ATTR_FLOAT &&
                   (dlti_attr_type(v) == r->f64 ||
                    strcmp(dlti_type_str(dlti_attr_type(v)), "f64") == 0);
        if (f64)
            r->f64 = dlti_attr_type(v);
        if (!f64 || dlti_attr_get_double(v, &d, NULL) < 0) {
            wrong_type(r, k, v);
        } else if (k->unit && strcmp(k->unit, "ops/s") == 0 && !(d >= 1e9 && d < 1e18)) {
            char path[512], got[64], hint[96] = "";
            path_text(r, r->depth, path, sizeof(path));
            sd_float_text(d, got, sizeof(got));
            if (measured_key(k) && d >= 0 && d < 1e18) {
                if (r->lenient) /* a lenient load's warning (vproblem); valid in a strict check */
                    problem(r, DLTI_ERROR_UNSUPPORTED, r->depth,
                            "'%s' measured %s ops per second, outside the plausible band of a "
                            "device (1e9 to 1e18): kept as measured", path, got);
                return;
            }
            if (d > 0 && d < 1e6) {
                char num[64];
                sd_float_text(d * 1e12, num, sizeof(num));
                snprintf(hint, sizeof(hint), " (is it in TFLOP/s? then write %s)", num);
            }
            problem(r, DLTI_ERROR_VERIFY, r->depth,
                    "'%s' must be in ops per second, from 1e9 to 1e18, not %s%s", path, got, hint);
        }
        return;
    }
    case SYSDESC_VALUE_BOOL:
        if (kind != DLTI_ATTR_BOOL)
            wrong_type(r, k, v);
        return;
    case SYSDESC_VALUE_STRING:
        if (kind != DLTI_ATTR_STRING)
            wrong_type(r, k, v);
        return;
    case SYSDESC_VALUE_I64_ARRAY: {
        if (kind == DLTI_ATTR_DENSE_ARRAY) { /* array<i64: ...>, as the probe writes */
            const dlti_type *et = dlti_attr_type(v);
            if (dlti_type_get_kind(et) != DLTI_TYPE_INTEGER || dlti_type_int_width(et) < 2 ||
                dlti_attr_size(v) == 0) {
                wrong_type(r, k, v);
                return;
            }
            for (size_t i = 0; i < dlti_attr_size(v); i++)
                if (dlti_attr_dense_int64(v, i, &x, NULL) == 0)
                    check_range(r, k, x, " element");
            return;
        }
        if (kind != DLTI_ATTR_ARRAY || dlti_attr_size(v) == 0) {
            wrong_type(r, k, v);
            return;
        }
        for (size_t i = 0; i < dlti_attr_size(v); i++) {
            if (!run_is_i64(r, dlti_attr_element(v, i), &x)) {
                wrong_element(r, k, i, dlti_attr_element(v, i));
                return;
            }
        }
        for (size_t i = 0; i < dlti_attr_size(v); i++) {
            run_is_i64(r, dlti_attr_element(v, i), &x);
            check_range(r, k, x, " element");
        }
        return;
    }
    case SYSDESC_VALUE_STRING_LIST:
        if (kind != DLTI_ATTR_ARRAY) {
            wrong_type(r, k, v);
            return;
        }
        for (size_t i = 0; i < dlti_attr_size(v); i++) {
            if (dlti_attr_get_kind(dlti_attr_element(v, i)) != DLTI_ATTR_STRING) {
                wrong_element(r, k, i, dlti_attr_element(v, i));
                return;
            }
        }
        return;
    case SYSDESC_VALUE_MAP:
        if (kind != DLTI_ATTR_MAP)
            wrong_type(r, k, v);
        else
            walk_map(r, v, idx);
        return;
    case SYSDESC_VALUE_OPEN_MAP:
        if (kind != DLTI_ATTR_MAP)
            wrong_type(r, k, v);
        return;
    }
}

/* sd_schema_suggest_text(), remembered by parent, device types and name. */
static bool suggest(check_run *r, int parent, const char *name, size_t len, char *near,
                    size_t size)
{
    if (!r->hints)
        r->hints = calloc(HINT_SLOTS, sizeof(*r->hints));
    if (!r->hints || len >= sizeof(r->hints[0].name))
        return sd_schema_suggest_text(parent, r->dev_bits, name, len, near, size);
    size_t h = (bs_hash_bytes(name, len) ^ (size_t)(parent + 1) * 31u ^ r->dev_bits) &
               (HINT_SLOTS - 1);
    hint_memo *m = &r->hints[h];
    if (m->len != len || m->parent != parent || m->bits != r->dev_bits ||
        memcmp(m->name, name, len) != 0) {
        m->found = sd_schema_suggest_text(parent, r->dev_bits, name, len, m->near,
                                          sizeof(m->near));
        m->parent = parent;
        m->bits = r->dev_bits;
        m->len = len;
        memcpy(m->name, name, len);
    }
    if (m->found)
        snprintf(near, size, "%s", m->near);
    return m->found;
}

/* A key the schema does not know (or a name a `names` map does not list):
 * DLTI_ERROR_UNSUPPORTED, which loads report and go on (docs/checks.md). */
static void unknown_key(check_run *r, int parent, const char *name, size_t len)
{
    char path[512], near[256];
    /* counted and located, no hint to look for; a lenient load's scan
     * warns with the whole text */
    if (!shown(r) && !(r->lenient && r->scan)) {
        problem(r, DLTI_ERROR_UNSUPPORTED, r->depth, "unknown key");
        return;
    }
    path_text(r, r->depth - 1, path, sizeof(path));
    const sysdesc_schema_key *pk = parent >= 0 ? sysdesc_schema_key_at((size_t)parent) : NULL;
    if (pk && pk->names && sd_schema_name_nocase(pk, name, len, near, sizeof(near))) {
        problem(r, DLTI_ERROR_UNSUPPORTED, r->depth, "unknown name '%.*s' in '%s'; did you mean '%s'?",
                (int)len, name, path, near);
        return;
    }
    if (pk && pk->names && sd_schema_child(parent, name, len) >= 0) {
        problem(r, DLTI_ERROR_UNSUPPORTED, r->depth, "unknown name '%.*s' in '%s' (%s%s)", (int)len,
                name, path, strcmp(pk->names, "#") == 0 ? "numbers: " : "one of ",
                strcmp(pk->names, "#") == 0 ? "0, 1, ..." : pk->names);
        return;
    }
    if (suggest(r, parent, name, len, near, sizeof(near))) {
        problem(r, DLTI_ERROR_UNSUPPORTED, r->depth, "unknown key '%.*s' in '%s'; did you mean %s?",
                (int)len, name, path, near);
        return;
    }
    problem(r, DLTI_ERROR_UNSUPPORTED, r->depth,
            "unknown key '%.*s' in '%s' (docs/keys.md lists the keys; put your own under "
            "'extra')",
            (int)len, name, path);
}

/* A key of the schema that the device's type does not carry: unknown for
 * that type, as unknown_key(). */
static void other_device_key(check_run *r, int child)
{
    const sysdesc_schema_key *k = sysdesc_schema_key_at((size_t)child);
    char path[512];
    path_text(r, r->depth, path, sizeof(path));
    const char *twin = sd_schema_twin(k->path, r->dev_bits);
    char owner[32], own[32];
    problem(r, DLTI_ERROR_UNSUPPORTED, r->depth, "'%s' is %s key, not %s key%s%s%s", path,
            types_text(k->devices, owner, sizeof(owner)),
            types_text(r->dev_bits, own, sizeof(own)), twin ? "; did you mean '" : "",
            twin ? twin : "", twin ? "'?" : "");
}

#define CLEAN_SLOTS 4096u

static struct clean_slot *clean_slot(check_run *r, const dlti_attr *v, int child)
{
    size_t h = (((uintptr_t)v >> 4) * (uintptr_t)0x9E3779B97F4A7C15ull ^ (size_t)child) &
               (CLEAN_SLOTS - 1);
    for (size_t probe = 0; probe < 16; probe++, h = (h + 1) & (CLEAN_SLOTS - 1)) {
        struct clean_slot *s = &r->clean[h];
        if (!s->v || (s->v == v && s->child == child && s->bits == r->dev_bits))
            return s;
    }
    return NULL;
}

static bool known_clean(check_run *r, const dlti_attr *v, int child)
{
    struct clean_slot *s = r->clean ? clean_slot(r, v, child) : NULL;
    return s && s->v == v;
}

static void remember_clean(check_run *r, const dlti_attr *v, int child)
{
    if (!r->clean && !(r->clean = calloc(CLEAN_SLOTS, sizeof(*r->clean))))
        return; /* remembering only saves time */
    struct clean_slot *s = r->nclean < CLEAN_SLOTS / 2 ? clean_slot(r, v, child) : NULL;
    if (s && !s->v) {
        *s = (struct clean_slot){v, child, r->dev_bits};
        r->nclean++;
    }
}

/* check_value(), a container only once per schema key and device types
 * when it was clean (no problem, no warning): a base's or an alias's value
 * is the same attribute in every device that takes it. */
static void check_value_once(check_run *r, int child, const sysdesc_schema_key *k,
                             const dlti_attr *v)
{
    dlti_attr_kind kind = dlti_attr_get_kind(v);
    if (kind != DLTI_ATTR_MAP && kind != DLTI_ATTR_ARRAY) {
        check_value(r, child, k, v);
        return;
    }
    if (known_clean(r, v, child))
        return;
    long count = r->count;
    size_t warned = r->warned;
    check_value(r, child, k, v);
    if (r->count == count && r->warned == warned && !r->stop)
        remember_clean(r, v, child);
}

static void walk_map(check_run *r, const dlti_attr *map, int parent)
{
    if (r->depth >= MAX_DEPTH)
        return;
    const sysdesc_schema_key *pk = parent >= 0 ? sysdesc_schema_key_at((size_t)parent) : NULL;
    size_t n = dlti_attr_size(map);
    for (size_t i = 0; i < n && !r->stop; i++) {
        size_t len;
        dlti_key key = dlti_attr_entry_key(map, i);
        const char *name = dlti_key_str(key, &len);
        if (!name) {
            char path[512];
            path_text(r, r->depth, path, sizeof(path));
            problem(r, DLTI_ERROR_VERIFY, r->depth,
                    "'%s' holds a type key (%s): device properties are named by strings", path,
                    dlti_type_str(dlti_key_get_type(key)));
            continue;
        }
        r->key[r->depth] = name;
        r->key_len[r->depth] = len;
        r->depth++;
        const child_memo *m = memo_of(r, parent, key, name, len);
        int child = m->child;
        const sysdesc_schema_key *k = m->k;
        if (!k || (pk && pk->names && !sd_schema_name_allowed(pk, name, len)))
            unknown_key(r, parent, name, len);
        else if (!(k->devices & r->dev_bits))
            other_device_key(r, child);
        else
            check_value_once(r, child, k, dlti_attr_entry_value(map, i));
        r->depth--;
    }
}

/* ---- rules between keys (docs/keys.md, "Checks") ---- */

/* Reports "'A' (a) is below 'B' (b)" at key A (or B, see other_key) when
 * both are i64 and a < b. */
static void at_least(check_run *r, const dlti_attr *map, const char *a, const char *b,
                     const char *why)
{
    int64_t x, y;
    if (!get_i64(r, map, a, &x) || !get_i64(r, map, b, &y) || x >= y)
        return;
    r->key[r->depth] = a;
    r->key_len[r->depth] = strlen(a);
    other_key other = {.base = r->depth, .key = {b}, .len = {strlen(b)}, .n = 1};
    char path[512];
    path_text(r, r->depth, path, sizeof(path));
    problem_or(r, r->depth + 1, &other, "'%s.%s' (%lld) is below '%s' (%lld): %s", path, a,
               (long long)x, b, (long long)y, why);
}

static bool is_suspect(check_run *r, const char *path)
{
    const dlti_attr *s = lookup(r, r->device, "suspect");
    for (size_t i = 0; s && dlti_attr_get_kind(s) == DLTI_ATTR_ARRAY && i < dlti_attr_size(s);
         i++) {
        const char *p;
        size_t len;
        if (dlti_attr_get_string(dlti_attr_element(s, i), &p, &len, NULL) == 0 &&
            strlen(path) == len && memcmp(p, path, len) == 0)
            return true;
    }
    return false;
}

static void cpu_rules(check_run *r, const dlti_attr *dev)
{
    at_least(r, dev, "num_cores", "num_packages", "a package has at least one core");
    at_least(r, dev, "num_threads", "num_cores", "a core has at least one thread");
    at_least(r, dev, "total_num_packages", "num_packages", "the total counts every package");
    at_least(r, dev, "total_num_cores", "num_cores", "the total counts every core");
    at_least(r, dev, "total_num_threads", "num_threads", "the total counts every thread");
    at_least(r, dev, "total_num_numa_nodes", "num_numa_nodes", "the total counts every node");
    const dlti_attr *cache = lookup(r, dev, "cache");
    if (!cache || dlti_attr_get_kind(cache) != DLTI_ATTR_MAP)
        return;
    static const char *const levels[] = {"L1", "L2", "L3"};
    static const char *const flat_keys[] = {"L1_cache_size_in_bytes", "L2_cache_size_in_bytes",
                                            "L3_cache_size_in_bytes"};
    for (int k = 0; k < 3; k++) {
        const dlti_attr *lvl = lookup(r, cache, levels[k]);
        int64_t nested, flat, below;
        char path[64];
        if (get_i64(r, lvl, "size_in_bytes", &nested) && get_i64(r, dev, flat_keys[k], &flat) &&
            nested != flat) {
            r->key[1] = flat_keys[k];
            r->key_len[1] = strlen(flat_keys[k]);
            other_key nested_key = {.base = 1,
                                    .key = {"cache", levels[k], "size_in_bytes"},
                                    .len = {5, 2, 13},
                                    .n = 3};
            problem_or(r, 2, &nested_key,
                       "'%.*s.%s' (%lld) differs from 'cache.%s.size_in_bytes' (%lld): the flat "
                       "key is a copy",
                       (int)r->key_len[0], r->key[0], flat_keys[k], (long long)flat, levels[k],
                       (long long)nested);
        }
        snprintf(path, sizeof(path), "cache.%s.size_in_bytes", levels[k]);
        if (k > 0 && get_i64(r, lvl, "size_in_bytes", &nested) &&
            get_i64(r, lookup(r, cache, levels[k - 1]), "size_in_bytes", &below) && nested < below &&
            !is_suspect(r, path)) {
            r->key[1] = "cache";
            r->key_len[1] = 5;
            r->key[2] = levels[k];
            r->key_len[2] = 2;
            r->key[3] = "size_in_bytes";
            r->key_len[3] = 13;
            other_key lower = {.base = 2,
                               .key = {levels[k - 1], "size_in_bytes"},
                               .len = {2, 13},
                               .n = 2};
            problem_or(r, 4, &lower,
                       "'%.*s.cache.%s.size_in_bytes' (%lld) is below the %s's (%lld): a level "
                       "holds at least the one below it",
                       (int)r->key_len[0], r->key[0], levels[k], (long long)nested,
                       levels[k - 1], (long long)below);
        }
    }
    for (size_t i = 0; i < dlti_attr_size(cache); i++) {
        const dlti_attr *lvl = dlti_attr_entry_value(cache, i);
        if (dlti_attr_get_kind(lvl) != DLTI_ATTR_MAP)
            continue;
        r->key[1] = "cache";
        r->key_len[1] = 5;
        r->key[2] = dlti_key_str(dlti_attr_entry_key(cache, i), &r->key_len[2]);
        if (!r->key[2])
            continue;
        r->depth = 3;
        at_least(r, lvl, "size_in_bytes", "min_size_in_bytes", "the smallest instance bounds it");
        at_least(r, lvl, "max_size_in_bytes", "size_in_bytes", "the largest instance bounds it");
        r->depth = 1;
    }
}

/* A GPU's or an accelerator's: one that is no PCI device has no PCI ids. */
static void pci_rules(check_run *r, const dlti_attr *dev)
{
    bool pci = true;
    const dlti_attr *isp = lookup(r, dev, "is_pci_device");
    if (isp && dlti_attr_get_bool(isp, &pci, NULL) == 0 && !pci) {
        static const char *const ids[] = {"pci_vendor_id", "pci_device_ids"};
        for (int i = 0; i < 2; i++) {
            if (!lookup(r, dev, ids[i]))
                continue;
            r->key[1] = ids[i];
            r->key_len[1] = strlen(ids[i]);
            problem(r, DLTI_ERROR_VERIFY, 2,
                    "device '%.*s' is no PCI device (is_pci_device: false): it has no '%s'",
                    (int)r->key_len[0], r->key[0], ids[i]);
        }
    }
}

static void gpu_rules(check_run *r, const dlti_attr *dev)
{
    at_least(r, dev, "max_shared_memory_per_block_in_bytes", "shared_memory_per_block_in_bytes",
             "the opt-in limit is at least the default");
    at_least(r, dev, "shared_memory_per_compute_unit_in_bytes",
             "max_shared_memory_per_block_in_bytes", "a block's shared memory fits a compute unit");
    at_least(r, dev, "max_threads_per_compute_unit", "max_threads_per_block",
             "a block runs on one compute unit");
    at_least(r, dev, "last_level_cache_size_in_bytes", "L2_cache_size_in_bytes",
             "the last level is the largest");
    bool part = false;
    const dlti_attr *p = lookup(r, dev, "is_partition");
    if (p && dlti_attr_get_bool(p, &part, NULL) == 0 && part &&
        !lookup(r, dev, "num_partitions_per_package")) {
        r->key[1] = "is_partition";
        r->key_len[1] = strlen("is_partition");
        other_key count = {.base = 1, .key = {"num_partitions_per_package"}, .len = {26}, .n = 1};
        problem_or(r, 2, &count,
                   "device '%.*s' is a partition: give 'num_partitions_per_package' too",
                   (int)r->key_len[0], r->key[0]);
    }
    pci_rules(r, dev);
    static const char *const dims[] = {"max_block_dims", "max_grid_dims"};
    for (int i = 0; i < 2; i++) {
        const dlti_attr *d = lookup(r, dev, dims[i]);
        dlti_attr_kind kind = d ? dlti_attr_get_kind(d) : DLTI_ATTR_STRING;
        size_t n = kind == DLTI_ATTR_ARRAY || kind == DLTI_ATTR_DENSE_ARRAY ? dlti_attr_size(d) : 0;
        if (n > 3) {
            r->key[1] = dims[i];
            r->key_len[1] = strlen(dims[i]);
            problem(r, DLTI_ERROR_VERIFY, 2, "'%.*s.%s' has %zu values: x, y, z at most",
                    (int)r->key_len[0], r->key[0], dims[i], n);
        }
    }
}

/* The length of the device type name and ": " that `p` starts with
 * ("GPU: "), 0 when it starts with none. */
static size_t type_part_prefix(const char *p)
{
    for (unsigned b = 1; b & SYSDESC_DEVICE_ALL; b <<= 1) {
        const char *name = sysdesc_schema_device_type_name(b);
        size_t n = name ? strlen(name) : 0;
        if (n && strncmp(p, name, n) == 0 && strncmp(p + n, ": ", 2) == 0)
            return n + 2;
    }
    return 0;
}

/* The part of a key's meaning for the device's type: the table says
 * "CPU: ...; GPU: ...; ACCEL: ..." for keys several types carry in their own
 * words; "(required)" goes without saying. */
static void meaning_for(const sysdesc_schema_key *k, unsigned dev_bits, char *out, size_t size)
{
    const char *m = k->meaning, *own = sysdesc_schema_device_type_name(dev_bits);
    size_t len = strlen(m);
    for (const char *p = m; own && type_part_prefix(m) && p;) {
        size_t n = type_part_prefix(p);
        const char *next = p + n;
        while ((next = strstr(next, "; ")) && !type_part_prefix(next + 2))
            next += 2;
        if (n == strlen(own) + 2 && strncmp(p, own, n - 2) == 0) {
            m = p + n;
            len = next ? (size_t)(next - m) : strlen(m);
            break;
        }
        p = next ? next + 2 : NULL;
    }
    if (len > 11 && memcmp(m + len - 11, " (required)", 11) == 0)
        len -= 11;
    snprintf(out, size, "%.*s", (int)len, m);
}

static void check_required(check_run *r, const dlti_attr *dev)
{
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        if (!(k->required & r->dev_bits) || sd_schema_parent((int)i) >= 0 ||
            lookup(r, dev, k->path))
            continue;
        bool on = true; /* required_if: waived where that key is false */
        const dlti_attr *cond = k->required_if ? lookup(r, dev, k->required_if) : NULL;
        if (cond && dlti_attr_get_bool(cond, &on, NULL) == 0 && !on)
            continue;
        char meaning[256];
        meaning_for(k, r->dev_bits, meaning, sizeof(meaning));
        problem(r, DLTI_ERROR_VERIFY, 1, "device '%.*s' misses the required key '%s' (%s)",
                (int)r->key_len[0], r->key[0], k->path, meaning);
    }
}

/* Fills r->top: the value of each top-level schema key the device holds.
 * A device spec's keys are unique (the core rejects repeated keys), so this
 * is what get() would find. */
static void index_device(check_run *r, const dlti_attr *dev)
{
    for (size_t i = 0; i < r->nfilled; i++)
        r->top[r->filled[i]] = NULL;
    r->nfilled = 0;
    size_t n = dlti_attr_size(dev);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        dlti_key key = dlti_attr_entry_key(dev, i);
        const char *name = dlti_key_str(key, &len);
        const dlti_attr *v = dlti_attr_entry_value(dev, i);
#if defined(__GNUC__)
        /* walk_map() reads every value next: start fetching them now, many
         * at once, instead of one by one there */
        __builtin_prefetch(v);
#endif
        int child = name ? child_of(r, -1, key, name, len) : -1;
        if (child >= 0 && !r->top[child]) {
            r->top[child] = v;
            r->filled[r->nfilled++] = (uint16_t)child;
        }
    }
}

_Static_assert(SD_SCHEMA_MAX_KEYS <= 65536, "check_run.filled holds schema indices in 16 bits");

static void check_device(check_run *r, const dlti_attr *dev)
{
    r->device = dev;
    r->depth = 1;
    if (dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        problem(r, DLTI_ERROR_VERIFY, 1, "device '%.*s' is not a #dlti.target_device_spec",
                (int)r->key_len[0], r->key[0]);
        return;
    }
    index_device(r, dev);
    const dlti_attr *type = lookup(r, dev, "device_type");
    const char *t = NULL;
    size_t tlen = 0;
    r->dev_bits = SYSDESC_DEVICE_ALL;
    r->probed = lookup(r, dev, "source") != NULL;
    bool known = false;
    if (type && dlti_attr_get_string(type, &t, &tlen, NULL) == 0) {
        unsigned bits = tlen == strlen(t) ? sysdesc_schema_device_type(t) : 0;
        if (bits) {
            r->dev_bits = bits;
            known = true;
        } else {
            r->key[1] = "device_type";
            r->key_len[1] = strlen("device_type");
            const char *near = device_type_near(t, tlen);
            /* another case is a mistake; another type, one the schema does
             * not know (an accelerator's own name, as "TPU", is a type other
             * tools may use: it is named, and unknown as any other) */
            bool mistake = near && same_ascii_nocase(t, tlen, near);
            problem(r, mistake ? DLTI_ERROR_VERIFY : DLTI_ERROR_UNSUPPORTED, 2,
                    "device '%.*s': unknown device_type '%.*s'%s%s%s",
                    (int)r->key_len[0], r->key[0], (int)tlen, t,
                    near ? "; did you mean '" : " (CPU, GPU or ACCEL)",
                    near ? near : "",
                    !near ? "" : mistake ? "'?" : "'? (the type of every accelerator that is no GPU)");
        }
    } else if (!type && (r->dev_bits = sd_device_type_of_id(r->key[0], r->key_len[0])) != 0) {
        known = true; /* "CPU", "GPU3", "ACCEL0", "class0.GPU3": the id says it */
    } else if (!type) {
        r->dev_bits = SYSDESC_DEVICE_ALL;
        if (!r->partial)
            problem(r, DLTI_ERROR_UNSUPPORTED, 1,
                    "device '%.*s' has no 'device_type' (CPU, GPU or ACCEL) and its id does "
                    "not tell it: its keys are checked against every type",
                    (int)r->key_len[0], r->key[0]);
    }
    int64_t version;
    if (get_i64(r, dev, "schema_version", &version) && version > SYSDESC_SCHEMA_VERSION) {
        r->key[1] = "schema_version";
        r->key_len[1] = strlen("schema_version");
        problem(r, DLTI_ERROR_VERIFY, 2,
                "device '%.*s' follows schema version %lld; this sysdesc knows version %d",
                (int)r->key_len[0], r->key[0], (long long)version, SYSDESC_SCHEMA_VERSION);
    }
    walk_map(r, dev, -1);
    r->depth = 1;
    if (!known || r->partial)
        return;
    if (r->complete && !r->probed)
        check_required(r, dev);
    if (r->dev_bits & SYSDESC_DEVICE_CPU)
        cpu_rules(r, dev);
    else if (r->dev_bits & SYSDESC_DEVICE_GPU)
        gpu_rules(r, dev);
    else
        pci_rules(r, dev);
    r->depth = 1;
}

/* ---- the "cluster" device: its own rules (check_cluster.c) ---- */
static bool is_cluster_device(const dlti_attr *dev)
{
    const dlti_attr *t = get(dev, "device_type");
    const char *s;
    size_t n;
    return dlti_attr_get_kind(dev) == DLTI_ATTR_DEVICE_SPEC && t &&
           dlti_attr_get_string(t, &s, &n, NULL) == 0 && n == 7 && memcmp(s, "cluster", 7) == 0;
}

static void cluster_problem(void *user, const char *k1, const char *k2, size_t k2len,
                            const char *message)
{
    check_run *r = user;
    size_t depth = 1;
    if (k1) {
        r->key[depth] = k1;
        r->key_len[depth++] = strlen(k1);
    }
    if (k2) {
        r->key[depth] = k2;
        r->key_len[depth++] = k2len;
    }
    if (!r->stop)
        problem(r, DLTI_ERROR_VERIFY, depth, "%s", message);
}

static long check_run_all(check_run *r, const sysdesc_system *sys);

static long check(const sysdesc_system *sys, unsigned flags, sd_locator *locator,
                  const char *source, sysdesc_problem_fn report, void *user)
{
    check_run *r = calloc(1, sizeof(*r)); /* its memos are big for a stack */
    if (!r)
        return -1;
    *r = (check_run){.report = report, .user = user, .source = source, .locator = locator,
                     .partial = flags & SYSDESC_CHECK_PARTIAL,
                     .complete = flags & SYSDESC_CHECK_COMPLETE, .target = -1};
    long n = check_run_all(r, sys);
    free(r->hints);
    free(r->clean);
    free(r);
    return n;
}

/* The first problem in the file, for a load's error (sd_first_problem). */
int sd_keep_first(void *user, const dlti_error_t *problem)
{
    sd_first_problem *f = user;
    if (problem->code == DLTI_ERROR_UNSUPPORTED && f->opts &&
        !(f->opts->flags & SYSDESC_LOAD_STRICT))
        return f->opts->warn ? f->opts->warn(f->opts->warn_user, problem) : 0;
    /* first in the file, as `sysdesc check` lists them (a problem without a
     * line first; the checker's order at one place): the checker finds a
     * device's keys in the order base: left them, not the file's */
    bool before = f->n == 0 ||
                  (f->err && (problem->line < f->err->line ||
                              (problem->line == f->err->line && problem->column < f->err->column)));
    f->n++;
    if (before && f->err) {
        *f->err = *problem;
        /* strict: an unknown key fails the load as a mistake does */
        if (f->opts && f->err->code == DLTI_ERROR_UNSUPPORTED)
            f->err->code = DLTI_ERROR_VERIFY;
    }
    return 0;
}

long sd_check_first(const sysdesc_system *sys, unsigned flags, const char *text, size_t len,
                    const char *source, const sysdesc_yaml_options *opts, dlti_error_t *first)
{
    sd_locator *loc = text ? sd_locator_new(text, len, source) : NULL;
    sd_locator_from(loc, sd_spec_offset(sys)); /* a spec taken from an op */
    check_run *r = calloc(1, sizeof(*r));
    if ((text && !loc) || !r) {
        sd_locator_free(loc);
        free(r);
        return -1;
    }
    /* Counted and located, no text; then the first one in the text again,
     * made whole. */
    *r = (check_run){.source = source, .locator = loc, .partial = flags & SYSDESC_CHECK_PARTIAL,
                     .complete = flags & SYSDESC_CHECK_COMPLETE, .scan = true, .target = -1};
    if (opts && !(opts->flags & SYSDESC_LOAD_STRICT)) {
        r->lenient = opts;
        r->keep_types = opts->flags & SYSDESC_LOAD_LENIENT;
    }
    long n = check_run_all(r, sys);
    if (n > 0) {
        long best = r->best;
        sd_first_problem keep = {first, 0, opts};
        const sysdesc_yaml_options *lenient = r->lenient;
        bool keep_types = r->keep_types;
        free(r->hints);
        free(r->clean);
        *r = (check_run){.report = sd_keep_first, .user = &keep, .source = source, .locator = loc,
                         .partial = flags & SYSDESC_CHECK_PARTIAL,
                         .complete = flags & SYSDESC_CHECK_COMPLETE, .target = best,
                         .lenient = lenient, .keep_types = keep_types};
        check_run_all(r, sys);
    }
    sd_locator_free(loc);
    free(r->hints);
    free(r->clean);
    free(r);
    return n;
}

static long check_run_all(check_run *r, const sysdesc_system *sys)
{
    const dlti_attr *spec = sys ? sys->spec : NULL;
    if (!spec || dlti_attr_get_kind(spec) != DLTI_ATTR_SYSTEM_SPEC) {
        r->depth = 0;
        problem(r, DLTI_ERROR_VERIFY, 0, "not a #dlti.target_system_spec");
        return r->count;
    }
    for (size_t i = 0; i < dlti_attr_size(spec) && !r->stop; i++) {
        r->key[0] = dlti_key_str(dlti_attr_entry_key(spec, i), &r->key_len[0]);
        if (!r->key[0])
            continue; /* the core rejects type keys in a system spec */
        const dlti_attr *dev = dlti_attr_entry_value(spec, i);
        if (is_cluster_device(dev)) {
            r->device = dev;
            sd_check_cluster(spec, r->key[0], r->key_len[0], dev, cluster_problem, r);
            continue;
        }
        check_device(r, dev);
    }
    return r->count;
}

long sysdesc_system_check(const sysdesc_system *sys, unsigned flags, const char *source,
                          sysdesc_problem_fn report, void *user)
{
    return check(sys, flags, NULL, source, report, user);
}

long sysdesc_system_check_located(const sysdesc_system *sys, unsigned flags, const char *text,
                                  size_t len, const char *source, sysdesc_problem_fn report,
                                  void *user)
{
    sd_locator *loc = text ? sd_locator_new(text, len, source) : NULL;
    if (text && !loc)
        return -1;
    sd_locator_from(loc, sd_spec_offset(sys));
    long n = check(sys, flags, loc, source, report, user);
    sd_locator_free(loc);
    return n;
}

int sysdesc_schema_check_path(const char *device_type, const char *device_id, const char *path,
                              dlti_error_t *err)
{
    unsigned bits = device_type ? sysdesc_schema_device_type(device_type) : 0;
    if (!bits)
        bits = SYSDESC_DEVICE_ALL;
    if (!path) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no key path");
        return -1;
    }
    int at = -1;
    size_t used = 0;
    for (const char *p = path;;) {
        size_t n = strcspn(p, ".");
        int child = sd_schema_child(at, p, n);
        const sysdesc_schema_key *pk = at >= 0 ? sysdesc_schema_key_at((size_t)at) : NULL;
        const sysdesc_schema_key *k = child >= 0 ? sysdesc_schema_key_at((size_t)child) : NULL;
        /* the map it is in: "GPU0.cache", "cache" without a device id, "GPU0" */
        char where[512];
        const char *id = device_id && *device_id ? device_id : NULL;
        if (id || used)
            snprintf(where, sizeof(where), "%s%s%.*s", id ? id : "", id && used ? "." : "",
                     (int)(used ? used - 1 : 0), path);
        else
            snprintf(where, sizeof(where), "%s", device_type ? device_type : "the device");
        char near[256];
        if (pk && pk->names && k && !sd_schema_name_allowed(pk, p, n) &&
            sd_schema_name_nocase(pk, p, n, near, sizeof(near))) {
            bs_error_set(err, DLTI_ERROR_VERIFY, "unknown name '%.*s' in '%s'; did you mean '%s'?",
                         (int)n, p, where, near);
            return -1;
        }
        if (pk && pk->names && k && !sd_schema_name_allowed(pk, p, n)) {
            bool numbers = strcmp(pk->names, "#") == 0;
            bs_error_set(err, DLTI_ERROR_VERIFY, "unknown name '%.*s' in '%s' (%s%s)", (int)n, p,
                         where, numbers ? "numbers: " : "one of ",
                         numbers ? "0, 1, ..." : pk->names);
            return -1;
        }
        if (k && !(k->devices & bits)) {
            const char *twin = sd_schema_twin(k->path, bits);
            char owner[32], own[32];
            bs_error_set(err, DLTI_ERROR_VERIFY, "'%s%s%.*s' is %s key, not %s key%s%s%s",
                         id ? id : "", id ? "." : "", (int)(used + n), path,
                         types_text(k->devices, owner, sizeof(owner)),
                         types_text(bits, own, sizeof(own)), twin ? "; did you mean '" : "",
                         twin ? twin : "", twin ? "'?" : "");
            return -1;
        }
        if (!k) {
            if (sd_schema_suggest_text(at, bits, p, n, near, sizeof(near)))
                bs_error_set(err, DLTI_ERROR_VERIFY, "unknown key '%.*s' in '%s'; did you mean %s?",
                             (int)n, p, where, near);
            else
                bs_error_set(err, DLTI_ERROR_VERIFY,
                             "unknown key '%.*s' in '%s' (docs/keys.md lists the keys; put your "
                             "own under 'extra')",
                             (int)n, p, where);
            return -1;
        }
        if (p[n] == '\0' || k->type == SYSDESC_VALUE_OPEN_MAP)
            return 0;
        at = child;
        used += n + 1;
        p += n + 1;
    }
}
