/* The ceilings of a device's roofline, from its spec: nominal (datasheet,
 * catalog) and measured (sysdesc measure) under the same key names. */
#include "sysdesc_private.h"
#include "sysdesc/roofline.h"

#include <stdio.h>
#include <string.h>

/* The data types of peak_ops_per_second (schema_keys.c's PEAK_KEYS). */
static const char *const all_types[] = {
    "fp64_vector", "fp64_matrix", "fp32_vector", "fp32_matrix", "tf32_matrix", "fp16_vector",
    "fp16_matrix", "bf16_vector", "bf16_matrix", "fp8_matrix", "int8_matrix", "int4_matrix"};
#define NTYPES (sizeof(all_types) / sizeof(all_types[0]))
/* A CPU's defaults are the types it computes in; a GPU's add the tensor
 * cores' types that GPU users tune against (ceilings a device lacks are
 * left out). */
static const char cpu_types[] = "fp64_vector,fp64_matrix,fp32_vector,fp32_matrix";
static const char gpu_types[] = "fp64_vector,fp64_matrix,fp32_vector,fp32_matrix,tf32_matrix,"
                                "fp16_matrix,bf16_matrix,fp8_matrix";

/* Levels a measured map may hold: a device's local (shared) memory, the
 * caches, then memory (measure_host.c's and measure_dev.c's order). */
static const char *const levels[] = {"local", "L1", "L2", "L3", "L4", "memory"};

static const dlti_attr *at(dlti_context *ctx, const dlti_attr *a, const char *const *path,
                           size_t n)
{
    for (size_t i = 0; a && i < n; i++) {
        dlti_attr_kind k = dlti_attr_get_kind(a);
        if (k != DLTI_ATTR_MAP && k != DLTI_ATTR_DEVICE_SPEC)
            return NULL;
        a = dlti_attr_lookup(a, dlti_key_string(ctx, path[i], strlen(path[i])));
    }
    return a;
}

/* A positive number (float or integer); 0 when absent or anything else. */
static double number(const dlti_attr *a)
{
    double d;
    int64_t i;
    if (!a)
        return 0;
    if (dlti_attr_get_kind(a) == DLTI_ATTR_FLOAT && dlti_attr_get_double(a, &d, NULL) == 0)
        return d > 0 ? d : 0;
    if (dlti_attr_get_kind(a) == DLTI_ATTR_INTEGER && dlti_attr_get_int64(a, &i, NULL) == 0)
        return i > 0 ? (double)i : 0;
    return 0;
}

static const char *string(const dlti_attr *a)
{
    const char *s;
    size_t len;
    if (!a || dlti_attr_get_kind(a) != DLTI_ATTR_STRING ||
        dlti_attr_get_string(a, &s, &len, NULL) != 0 || memchr(s, 0, len))
        return NULL;
    return s;
}

/* The rates a chart can hold: a denormal or infinite peak (a spec read with
 * --no-check) would stretch the axes over hundreds of decades, or put NaN
 * in the coordinates; no real device is outside this band. */
#define CEILING_MIN 1.0
#define CEILING_MAX 1e24

static void add(sysdesc_roofline *r, bool measured, bool compute, double v, const char *label,
                const char *key)
{
    if (!(v >= CEILING_MIN && v <= CEILING_MAX) || r->n >= SYSDESC_ROOFLINE_MAX)
        return;
    sysdesc_roofline_ceiling *c = &r->c[r->n++];
    c->measured = measured;
    c->compute = compute;
    c->value = v;
    snprintf(c->label, sizeof(c->label), "%s", label);
    snprintf(c->key, sizeof(c->key), "%s", key);
}

/* "fp64_vector" -> "FP64 vector". */
static void type_label(char *out, size_t size, const char *type)
{
    snprintf(out, size, "%s", type);
    for (char *p = out; *p && *p != '_'; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    char *u = strchr(out, '_');
    if (u)
        *u = ' ';
}

/* The types asked for, checked: false with err naming an unknown one. */
static bool parse_types(const char *types, bool want[NTYPES], dlti_error_t *err)
{
    memset(want, 0, NTYPES * sizeof(bool));
    for (const char *p = types; *p;) {
        size_t n = strcspn(p, ",");
        size_t i = 0;
        while (i < NTYPES && !(strlen(all_types[i]) == n && strncmp(all_types[i], p, n) == 0))
            i++;
        if (i == NTYPES) {
            dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                           "roofline: unknown data type '%.*s' (fp64_vector, fp64_matrix, "
                           "fp32_vector, fp32_matrix, tf32_matrix, fp16_vector, fp16_matrix, "
                           "bf16_vector, bf16_matrix, fp8_matrix, int8_matrix, int4_matrix)",
                           (int)(n > 64 ? 64 : n), p);
            return false;
        }
        want[i] = true;
        p += n + (p[n] == ',');
    }
    return true;
}

int sysdesc_roofline_collect(dlti_context *ctx, const dlti_attr *dev, const char *device_id,
                             const char *types, sysdesc_roofline *r, dlti_error_t *err)
{
    if (!ctx || !dev || !r || dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                       "roofline: needs a context and a #dlti.target_device_spec");
        return -1;
    }
    memset(r, 0, sizeof(*r));
    bool want[NTYPES];
    const char *kind = string(at(ctx, dev, (const char *[]){"device_type"}, 1));
    if (!types)
        types = kind && strcmp(kind, "CPU") == 0 ? cpu_types : gpu_types;
    if (!parse_types(types, want, err))
        return -1;
    snprintf(r->device_id, sizeof(r->device_id), "%s", device_id ? device_id : "");
    const char *vendor = string(at(ctx, dev, (const char *[]){"vendor"}, 1));
    const char *model = string(at(ctx, dev, (const char *[]){"model"}, 1));
    snprintf(r->title, sizeof(r->title), "%s%s%s%s%s%s", vendor ? vendor : "",
             vendor && model ? " " : "", model ? model : "",
             vendor || model ? " (" : "", r->device_id, vendor || model ? ")" : "");

    const dlti_attr *meas = at(ctx, dev, (const char *[]){"measured"}, 1);
    char label[64], key[128];
    /* Compute: measured first, then nominal, type by type. */
    for (int m = 1; m >= 0; m--)
        for (size_t i = 0; i < NTYPES; i++) {
            if (!want[i])
                continue;
            const char *path[] = {"peak_ops_per_second", all_types[i]};
            double v = number(at(ctx, m ? meas : dev, path, 2));
            type_label(label, sizeof(label), all_types[i]);
            snprintf(key, sizeof(key), "%speak_ops_per_second.%s", m ? "measured." : "",
                     all_types[i]);
            add(r, m, true, v, label, key);
        }
    /* Bandwidth: each measured level (triad, all threads; a level a device
     * measured by reading only, as its L2 and local memory, by its read),
     * else the measured memory bandwidth; the nominal memory bandwidth. */
    size_t before = r->n;
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        const char *kind = "triad";
        const char *path[] = {"levels", levels[i], "triad_bandwidth_in_bytes_per_second"};
        double v = number(at(ctx, meas, path, 3));
        if (!(v > 0)) {
            kind = "read";
            path[2] = "read_bandwidth_in_bytes_per_second";
            v = number(at(ctx, meas, path, 3));
        }
        snprintf(label, sizeof(label), "%s %s", levels[i], kind);
        snprintf(key, sizeof(key), "measured.levels.%s.%s", levels[i], path[2]);
        add(r, true, false, v, label, key);
    }
    if (r->n == before) {
        const char *path[] = {"memory_bandwidth_in_bytes_per_second"};
        add(r, true, false, number(at(ctx, meas, path, 1)), "memory",
            "measured.memory_bandwidth_in_bytes_per_second");
    }
    add(r, false, false,
        number(at(ctx, dev, (const char *[]){"memory_bandwidth_in_bytes_per_second"}, 1)),
        "memory", "memory_bandwidth_in_bytes_per_second");

    if (meas) {
        const char *date = string(at(ctx, meas, (const char *[]){"date"}, 1));
        const char *isa = string(at(ctx, meas, (const char *[]){"kernel_isa"}, 1));
        const char *rt = string(at(ctx, meas, (const char *[]){"runtime"}, 1));
        const char *drv = string(at(ctx, meas, (const char *[]){"driver"}, 1));
        double nt = number(at(ctx, meas, (const char *[]){"num_threads"}, 1));
        /* Which of its samples each value is (docs/measure.md, "Samples"):
         * a map without `statistic` was written when every value was the
         * best sample. */
        const char *stat = string(at(ctx, meas, (const char *[]){"statistic"}, 1));
        if (!stat)
            stat = "best";
        /* The statistic before the driver's name, which may be long and is cut first. */
        if (rt)
            snprintf(r->measured_by, sizeof(r->measured_by),
                     "sysdesc measure %s, %s of samples, through %s, %s",
                     date ? date : "(no date)", stat, rt, drv ? drv : "no driver named");
        else
            dlti_snprintf(r->measured_by, sizeof(r->measured_by),
                          "sysdesc measure %s, %s of samples, %s, %.0f thread%s",
                          date ? date : "(no date)", stat, isa ? isa : "(no ISA)", nt,
                          nt == 1 ? "" : "s");
    }
    bool compute = false, bw = false;
    for (size_t i = 0; i < r->n; i++) {
        compute |= r->c[i].compute;
        bw |= !r->c[i].compute;
    }
    if (!compute || !bw) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND,
                       "roofline: device \"%s\" has no %s ceiling: looked for %s", r->device_id,
                       compute ? "bandwidth" : "compute",
                       compute ? "memory_bandwidth_in_bytes_per_second, measured.levels.*."
                                 "triad_bandwidth_in_bytes_per_second and measured.memory_"
                                 "bandwidth_in_bytes_per_second"
                               : "peak_ops_per_second.<type> and measured.peak_ops_per_second."
                                 "<type> of the types asked for");
        return -1;
    }
    return 0;
}
