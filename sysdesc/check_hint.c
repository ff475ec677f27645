/* What the checker suggests: the nearest known key for a typo, and the
 * number to write for a value given as text with a unit ("64KB"). */
#include "sysdesc_private.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The full path of entry `i` with no '*' in it, or NULL. */
static const char *plain_path(size_t i)
{
    const char *p = sysdesc_schema_key_at(i)->path;
    return strchr(p, '*') ? NULL : p;
}

static void quote_two(char *out, size_t size, const char *a, const char *b)
{
    if (b)
        snprintf(out, size, "'%s' or '%s'", a, b);
    else
        snprintf(out, size, "'%s'", a);
}

bool sd_schema_suggest_text(int parent, unsigned devices, const char *name, size_t len,
                            char *out, size_t size)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    /* A suggestion must be closer than a third of the word: "num_compute_unit"
     * finds "num_compute_units", "foo" finds nothing. */
    size_t limit = len / 3;
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        if (sd_schema_parent((int)i) != parent || !(k->devices & devices))
            continue;
        const char *n = sd_schema_name((int)i);
        size_t d = bs_edit_distance(name, len, n, strlen(n));
        if (d <= limit && d < best_d) {
            best = n;
            best_d = d;
        }
    }
    if (best) {
        quote_two(out, size, best, NULL);
        return true;
    }
    /* The same name one map off ("total_in_bytes" at the top of a CPU:
     * "memory.total_in_bytes"), at most two. */
    const char *found[3] = {NULL, NULL, NULL};
    size_t nfound = 0;
    for (size_t i = 0; i < sysdesc_schema_size() && nfound < 3; i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        const char *n = sd_schema_name((int)i);
        if (!(k->devices & devices) || sd_schema_parent((int)i) == parent || !plain_path(i) ||
            strlen(n) != len || memcmp(n, name, len) != 0)
            continue;
        found[nfound++] = k->path;
    }
    if (nfound == 0 && len >= 2) {
        /* The keys it begins: "fp32" -> fp32_vector, fp32_matrix. */
        for (size_t i = 0; i < sysdesc_schema_size() && nfound < 3; i++) {
            const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
            const char *n = sd_schema_name((int)i);
            if (sd_schema_parent((int)i) != parent || !(k->devices & devices) ||
                strlen(n) <= len || memcmp(n, name, len) != 0 || n[len] != '_')
                continue;
            found[nfound++] = n;
        }
    }
    if (nfound == 0 || nfound > 2)
        return false;
    quote_two(out, size, found[0], found[1]);
    return true;
}

bool sd_schema_name_nocase(const sysdesc_schema_key *map, const char *name, size_t len,
                           char *out, size_t size)
{
    if (!map->names || strcmp(map->names, "#") == 0)
        return false;
    for (const char *p = map->names; *p;) {
        size_t n = strcspn(p, " ");
        bool same = n == len;
        for (size_t i = 0; same && i < n; i++)
            same = tolower((unsigned char)p[i]) == tolower((unsigned char)name[i]);
        if (same) {
            snprintf(out, size, "%.*s", (int)n, p);
            return true;
        }
        p += n;
        p += *p == ' ';
    }
    return false;
}

const char *sd_schema_twin(const char *path, unsigned devices)
{
    /* GPU (and ACCEL) key, CPU key: the same fact under each type's name */
    static const char *const twins[][2] = {
        {"memory_size_in_bytes", "memory.total_in_bytes"},
        {"memory_size_in_bytes", "memory"},
        {"max_clock_in_mhz", "max_frequency_mhz"},
        {"base_clock_in_mhz", "base_frequency_mhz"},
        {"num_compute_units", "num_cores"},
    };
    int want = devices & (SYSDESC_DEVICE_GPU | SYSDESC_DEVICE_ACCEL) ? 0 : 1;
    for (size_t i = 0; i < sizeof(twins) / sizeof(twins[0]); i++)
        if (strcmp(twins[i][1 - want], path) == 0)
            return twins[i][want];
    return NULL;
}

void sd_float_text(double d, char *out, size_t size)
{
    char num[32]; /* "%.17g" takes 24 at most: "-1.2345678901234567e-308" */
    const char *exp = "";
    if (fabs(d) >= 1e12 && fabs(d) < 1e18) {
        d /= 1e12;
        exp = "e12";
    }
    sd_format_double(num, sizeof(num), d);
    snprintf(out, size, "%s%s%s", num, strpbrk(num, ".eEni") ? "" : ".0", exp);
}

typedef struct unit_scale {
    const char *suffix;
    double scale;
} unit_scale;

/* Memory sizes are binary (JEDEC: a KB of memory is 1024 bytes); rates are
 * decimal, as vendors quote them. */
static const unit_scale bytes_units[] = {
    {"B", 1},          {"KB", 1024.0},  {"KiB", 1024.0},        {"K", 1024.0},
    {"kB", 1024.0},    {"MB", 1048576.0}, {"MiB", 1048576.0},   {"M", 1048576.0},
    {"GB", 1073741824.0}, {"GiB", 1073741824.0}, {"G", 1073741824.0},
    {"TB", 1099511627776.0}, {"TiB", 1099511627776.0}, {"T", 1099511627776.0}, {NULL, 0}};
static const unit_scale rate_units[] = {
    {"B/s", 1},  {"KB/s", 1e3},  {"kB/s", 1e3},  {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12},
    {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0},
    {"TiB/s", 1099511627776.0}, {NULL, 0}};
static const unit_scale mhz_units[] = {
    {"Hz", 1e-6}, {"kHz", 1e-3}, {"KHz", 1e-3}, {"MHz", 1}, {"GHz", 1e3}, {NULL, 0}};
static const unit_scale watt_units[] = {{"W", 1}, {"kW", 1e3}, {NULL, 0}};
static const unit_scale bit_units[] = {{"b", 1}, {"bit", 1}, {"bits", 1}, {NULL, 0}};
static const unit_scale ops_units[] = {
    {"ops/s", 1},   {"OPS", 1},      {"FLOPS", 1},     {"GOPS", 1e9},   {"GFLOPS", 1e9},
    {"TOPS", 1e12}, {"TFLOPS", 1e12}, {"POPS", 1e15},  {"PFLOPS", 1e15}, {NULL, 0}};

static const unit_scale *units_for(const char *unit)
{
    if (!unit)
        return NULL;
    if (strcmp(unit, "bytes") == 0)
        return bytes_units;
    if (strcmp(unit, "bytes/s") == 0)
        return rate_units;
    if (strcmp(unit, "MHz") == 0)
        return mhz_units;
    if (strcmp(unit, "W") == 0)
        return watt_units;
    if (strcmp(unit, "bits") == 0)
        return bit_units;
    if (strcmp(unit, "ops/s") == 0)
        return ops_units;
    return NULL;
}

int sd_unit_hint(const sysdesc_schema_key *key, const char *text, size_t len, char *out,
                 size_t size)
{
    char buf[128];
    if (len == 0 || len >= sizeof(buf))
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end;
    double v = bs_strtod(buf, &end);
    if (end == buf || !isfinite(v))
        return -1;
    while (*end == ' ')
        end++;
    double scale = 0;
    const char *unit_name = NULL;
    if (*end == '\0') {
        scale = 1; /* a bare number in quotes */
    } else {
        const unit_scale *u = units_for(key->unit);
        for (; u && u->suffix; u++) {
            if (strcmp(end, u->suffix) == 0) {
                scale = u->scale;
                unit_name = u->suffix;
                break;
            }
        }
    }
    if (scale == 0)
        return -1;
    double x = v * scale;
    if (key->type == SYSDESC_VALUE_I64) {
        if (x != floor(x) || fabs(x) > 9.2e18)
            return -1;
        if (unit_name)
            snprintf(out, size, "write %lld (%s)", (long long)x, key->unit);
        else
            snprintf(out, size, "write %lld without quotes", (long long)x);
        return 0;
    }
    if (key->type == SYSDESC_VALUE_F64) {
        char num[64];
        sd_float_text(x, num, sizeof(num));
        if (unit_name)
            snprintf(out, size, "write %s (%s)", num, key->unit);
        else
            snprintf(out, size, "write %s without quotes", num);
        return 0;
    }
    return -1;
}
