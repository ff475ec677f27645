/* summary: a value as people read it, by the schema's unit: bytes in
 * KiB/MiB/GiB, MHz in GHz, bytes/s in GB/s and TB/s, ops/s in TFLOP/s or
 * TOPS, any other unit after the number. */
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "80", "1.5", "3.35": `v` with at most `decimals` decimals, trailing zeros dropped. */
static void add_decimal(sum_buf *b, double v, int decimals)
{
    char t[64];
    snprintf(t, sizeof(t), "%.*f", decimals, v);
    char *dot = strchr(t, '.');
    if (dot) {
        char *e = t + strlen(t);
        while (e > dot + 1 && e[-1] == '0')
            *--e = '\0';
        if (e == dot + 1)
            *dot = '\0';
    }
    sum_buf_str(b, t);
}

/* Divides `v` by `step` while its text with `decimals` (1 or 2) decimals
 * would reach `step` ("1024.0 KiB" is "1 MiB"); returns the unit index. */
static size_t scale(double *v, double step, size_t nunits, int decimals)
{
    size_t k = 0;
    double limit = step - (decimals == 1 ? 0.05 : 0.005);
    while (k + 1 < nunits && (*v >= limit || *v <= -limit)) {
        *v /= step;
        k++;
    }
    return k;
}

static void fmt_bytes(sum_buf *b, double v, int64_t iv, bool is_int)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (is_int && iv >= 0 && iv < 1024) {
        sum_buf_printf(b, "%lld %s", (long long)iv, iv == 1 ? "byte" : "bytes");
        return;
    }
    size_t k = scale(&v, 1024, sizeof(units) / sizeof(units[0]), 1);
    add_decimal(b, v, 1);
    sum_buf_printf(b, " %s", units[k]);
}

static void fmt_mhz(sum_buf *b, double v, int64_t iv, bool is_int)
{
    if (is_int && iv >= 1000) {
        /* exact: MHz are whole, GHz have at most three decimals */
        sum_buf_printf(b, "%lld", (long long)(iv / 1000));
        char t[8];
        snprintf(t, sizeof(t), ".%03lld", (long long)(iv % 1000));
        for (size_t e = strlen(t); e > 1 && t[e - 1] == '0'; e--)
            t[e - 1] = '\0';
        if (t[1])
            sum_buf_str(b, t);
        sum_buf_str(b, " GHz");
    } else if (v >= 1000) {
        add_decimal(b, v / 1000, 3);
        sum_buf_str(b, " GHz");
    } else {
        add_decimal(b, v, 3);
        sum_buf_str(b, " MHz");
    }
}

static void fmt_rate(sum_buf *b, double v)
{
    static const char *const units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s", "EB/s"};
    size_t k = scale(&v, 1000, sizeof(units) / sizeof(units[0]), 2);
    add_decimal(b, v, 2);
    sum_buf_printf(b, " %s", units[k]);
}

/* Peaks stay in TFLOP/s (TOPS for integer data types) from 1e12 up, so that
 * the lines of one map compare at a glance. */
static void fmt_ops(sum_buf *b, double v, bool int_ops)
{
    if (v >= 1e12 || v <= -1e12) {
        add_decimal(b, v / 1e12, 2);
        sum_buf_str(b, int_ops ? " TOPS" : " TFLOP/s");
    } else if (v >= 1e9 || v <= -1e9) {
        add_decimal(b, v / 1e9, 2);
        sum_buf_str(b, int_ops ? " GOPS" : " GFLOP/s");
    } else {
        add_decimal(b, v, 2);
        sum_buf_str(b, int_ops ? " OPS" : " FLOP/s");
    }
}

/* A number with its unit.  `name` is the key's last component (int8_matrix: TOPS). */
static void fmt_num(sum_buf *b, double v, int64_t iv, bool is_int, const char *unit,
                    const char *name)
{
    if (!unit) {
        if (is_int)
            sum_buf_printf(b, "%lld", (long long)iv);
        else
            sum_buf_printf(b, "%g", v);
    } else if (strcmp(unit, "bytes") == 0) {
        fmt_bytes(b, v, iv, is_int);
    } else if (strcmp(unit, "MHz") == 0) {
        fmt_mhz(b, v, iv, is_int);
    } else if (strcmp(unit, "bytes/s") == 0) {
        fmt_rate(b, v);
    } else if (strcmp(unit, "ops/s") == 0) {
        fmt_ops(b, v, name && strncmp(name, "int", 3) == 0);
    } else {
        fmt_num(b, v, iv, is_int, NULL, name);
        sum_buf_printf(b, " %s", unit);
    }
}

bool sum_number(sum_buf *b, const dlti_attr *a, const char *unit, const char *name)
{
    int64_t iv = 0;
    double v;
    bool is_int = dlti_attr_get_kind(a) == DLTI_ATTR_INTEGER;
    if (is_int && dlti_attr_get_int64(a, &iv, NULL) == 0)
        v = (double)iv;
    else if (dlti_attr_get_double(a, &v, NULL) == 0)
        is_int = false;
    else
        return false;
    if (!is_int && v > -9e18 && v < 9e18 && v == (double)(int64_t)v) {
        iv = (int64_t)v; /* 700.0 W prints as 700 W */
        is_int = true;
    }
    fmt_num(b, v, iv, is_int, unit, name);
    return true;
}

void sum_value(sum_buf *b, const dlti_attr *a, const char *unit, const char *name,
                      bool *is_list)
{
    const char *s;
    size_t len;
    bool flag;
    switch (dlti_attr_get_kind(a)) {
    case DLTI_ATTR_STRING:
        dlti_attr_get_string(a, &s, &len, NULL);
        sum_buf_clean(b, s, len);
        return;
    case DLTI_ATTR_BOOL:
        dlti_attr_get_bool(a, &flag, NULL);
        sum_buf_str(b, flag ? "yes" : "no");
        return;
    case DLTI_ATTR_ARRAY:
        for (size_t i = 0; i < dlti_attr_size(a); i++) {
            if (i)
                sum_buf_str(b, ", ");
            sum_value(b, dlti_attr_element(a, i), unit, name, NULL);
        }
        if (is_list)
            *is_list = true;
        return;
    case DLTI_ATTR_DENSE_ARRAY:
    case DLTI_ATTR_DENSE:
        for (size_t i = 0; i < dlti_attr_size(a); i++) {
            int64_t v;
            if (i)
                sum_buf_str(b, ", ");
            if (dlti_attr_dense_int64(a, i, &v, NULL) == 0)
                fmt_num(b, (double)v, v, true, unit, name);
            else
                sum_buf_str(b, "?");
        }
        if (is_list)
            *is_list = true;
        return;
    default:
        if (sum_number(b, a, unit, name))
            return;
        char *text = dlti_attr_print(a, &len);
        if (!text) {
            b->failed = true;
            return;
        }
        sum_buf_clean(b, text, len);
        free(text);
    }
}
