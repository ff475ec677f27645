/* The ceilings of a device's roofline, from its spec: nominal (datasheet,
 * catalog) and measured (sysdesc measure) under the same key names. */
#include "sysdesc_private.h"
#include "sysdesc/roofline.h"

#include <stdio.h>
#include <stdlib.h>
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
        /* a key the context never interned is in none of its maps */
        a = dlti_attr_lookup(a, dlti_key_find(ctx, path[i], strlen(path[i])));
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
            bs_error_set(err, DLTI_ERROR_ARGUMENT,
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
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
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
            bs_snprintf(r->measured_by, sizeof(r->measured_by),
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
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
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

/* ---- kernels as points (sysdesc_roofline_add_point and its text forms) ---- */

/* The band of intensities a chart holds (FLOP/byte): twelve decades about
 * every real kernel's; rates share the ceilings' band. */
#define INTENSITY_MIN 1e-6
#define INTENSITY_MAX 1e6

/* The highest ceiling of one kind (compute or bandwidth), measured where
 * the device has a measured one of that kind: the roof the chart draws. */
static size_t roof_of(const sysdesc_roofline *r, bool compute)
{
    size_t best = SIZE_MAX;
    bool any_measured = false;
    for (size_t i = 0; i < r->n; i++)
        any_measured |= r->c[i].compute == compute && r->c[i].measured;
    for (size_t i = 0; i < r->n; i++)
        if (r->c[i].compute == compute && r->c[i].measured == any_measured &&
            (best == SIZE_MAX || r->c[i].value > r->c[best].value))
            best = i;
    return best;
}

int sysdesc_roofline_add_point(sysdesc_roofline *r, const char *name, double intensity,
                               double rate, dlti_error_t *err)
{
    if (!r || !name) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: a point needs a roofline and a name");
        return -1;
    }
    size_t len = strlen(name);
    bool printable = len > 0 && len < sizeof(r->p[0].name);
    for (size_t i = 0; printable && i < len; i++)
        printable = (unsigned char)name[i] >= 0x20 && name[i] != 0x7f;
    if (!printable) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: a point's name is 1 to %zu bytes "
                     "without control characters, not '%.64s'%s", sizeof(r->p[0].name) - 1,
                     name, len > 64 ? "..." : "");
        return -1;
    }
    if (!(intensity >= INTENSITY_MIN && intensity <= INTENSITY_MAX) ||
        !(rate >= CEILING_MIN && rate <= CEILING_MAX)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: point '%s': %s %g is outside %g to "
                     "%g %s", name, intensity >= INTENSITY_MIN && intensity <= INTENSITY_MAX
                                          ? "the rate" : "the intensity",
                     intensity >= INTENSITY_MIN && intensity <= INTENSITY_MAX ? rate : intensity,
                     intensity >= INTENSITY_MIN && intensity <= INTENSITY_MAX ? CEILING_MIN
                                                                                : INTENSITY_MIN,
                     intensity >= INTENSITY_MIN && intensity <= INTENSITY_MAX ? CEILING_MAX
                                                                                : INTENSITY_MAX,
                     intensity >= INTENSITY_MIN && intensity <= INTENSITY_MAX ? "FLOP/s"
                                                                                : "FLOP/byte");
        return -1;
    }
    size_t compute = roof_of(r, true), bandwidth = roof_of(r, false);
    if (compute == SIZE_MAX || bandwidth == SIZE_MAX) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: point '%s': the roofline has no "
                     "%s ceiling to place it under (sysdesc_roofline_collect first)", name,
                     compute == SIZE_MAX ? "compute" : "bandwidth");
        return -1;
    }
    if (r->npoints >= SYSDESC_ROOFLINE_MAX_POINTS) {
        bs_error_set(err, DLTI_ERROR_LIMIT, "roofline: point '%s': at most %d points", name,
                     SYSDESC_ROOFLINE_MAX_POINTS);
        return -1;
    }
    sysdesc_roofline_point *p = &r->p[r->npoints++];
    memset(p, 0, sizeof(*p));
    memcpy(p->name, name, len + 1);
    p->intensity = intensity;
    p->rate = rate;
    double by_bandwidth = r->c[bandwidth].value * intensity;
    bool memory_bound = by_bandwidth < r->c[compute].value;
    p->roof = memory_bound ? by_bandwidth : r->c[compute].value;
    p->roof_ceiling = memory_bound ? bandwidth : compute;
    p->fraction = rate / p->roof;
    p->above = -1;
    double lowest = 0;
    for (size_t i = 0; i < r->n; i++) {
        double at = r->c[i].compute ? r->c[i].value : r->c[i].value * intensity;
        if (at >= rate && (p->above < 0 || at < lowest)) {
            p->above = (int)i;
            lowest = at;
        }
    }
    return 0;
}

/* A number with an optional SI prefix, the whole of `s` (`len` bytes, blanks
 * around it allowed): true with *out. */
static bool si_number(const char *s, size_t len, double *out)
{
    char text[64];
    while (len && (*s == ' ' || *s == '\t'))
        s++, len--;
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
        len--;
    if (len == 0 || len >= sizeof(text))
        return false;
    memcpy(text, s, len);
    text[len] = '\0';
    char *end;
    double v = bs_strtod(text, &end);
    if (end == text)
        return false;
    static const char prefixes[] = "kMGTPE";
    const char *k = *end ? strchr(prefixes, *end) : NULL;
    if (k) {
        for (ptrdiff_t i = 0; i <= k - prefixes; i++)
            v *= 1000;
        end++;
    }
    if (*end)
        return false;
    *out = v;
    return true;
}

/* Splits "NAME:INTENSITY:RATE" at its last two ':' or ','; the fields'
 * offsets in `text`.  False when there are fewer than two. */
static bool split_point(const char *text, size_t len, size_t *i_at, size_t *r_at)
{
    size_t seps[2], n = 0;
    for (size_t i = len; i-- > 0 && n < 2;)
        if (text[i] == ':' || text[i] == ',')
            seps[n++] = i;
    if (n < 2)
        return false;
    *r_at = seps[0] + 1;
    *i_at = seps[1] + 1;
    return true;
}

/* One point's text (`len` bytes), errors placed at `source`:`line` when
 * `source` is given.  `header`: a line whose numbers are no numbers is
 * skipped (1 returned). */
static int add_point_line(sysdesc_roofline *r, const char *text, size_t len, const char *source,
                          int line, bool header, dlti_error_t *err)
{
    size_t i_at = 0, r_at = 0;
    double intensity = 0, rate = 0;
    const char *what = NULL;
    size_t col = 0;
    bool split = split_point(text, len, &i_at, &r_at);
    if (!split) {
        what = "is not NAME:INTENSITY:RATE";
    } else if (!si_number(text + i_at, r_at - 1 - i_at, &intensity)) {
        what = "has no number as its INTENSITY (FLOP/byte)";
        col = i_at;
    } else if (!si_number(text + r_at, len - r_at, &rate)) {
        what = "has no number as its RATE (FLOP/s; 850G, 1.2e12)";
        col = r_at;
    }
    if (what && header && split)
        return 1;
    char name[80];
    size_t nlen = what ? 0 : i_at - 1;
    while (nlen && (text[nlen - 1] == ' ' || text[nlen - 1] == '\t'))
        nlen--;
    size_t start = 0;
    while (start < nlen && (text[start] == ' ' || text[start] == '\t'))
        start++;
    if (!what && nlen - start >= sizeof(name))
        what = "has a NAME longer than 63 bytes";
    if (!what) {
        memcpy(name, text + start, nlen - start);
        name[nlen - start] = '\0';
        dlti_error_t why;
        if (sysdesc_roofline_add_point(r, name, intensity, rate, &why) == 0)
            return 0;
        if (source)
            bs_error_set_at(err, why.code, source, line, (int)start + 1, "%s", why.text);
        else if (err)
            *err = why;
        return -1;
    }
    if (source)
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, line, (int)col + 1,
                        "roofline: the point '%.*s' %s", (int)(len > 80 ? 80 : len), text, what);
    else
        bs_error_set(err, DLTI_ERROR_SYNTAX, "roofline: the point '%.*s' %s (NAME:INTENSITY:"
                     "RATE, e.g. gemm:12.5:850G)", (int)(len > 80 ? 80 : len), text, what);
    return -1;
}

int sysdesc_roofline_add_point_text(sysdesc_roofline *r, const char *text, dlti_error_t *err)
{
    if (!r || !text) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: a point needs a roofline and text");
        return -1;
    }
    return add_point_line(r, text, strlen(text), NULL, 0, false, err);
}

/* The most a points file may hold: a few thousand lines of kernels. */
#define POINTS_FILE_MAX ((size_t)1 << 20)

int sysdesc_roofline_add_points_file(sysdesc_roofline *r, const char *path, dlti_error_t *err)
{
    if (!r || !path) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "roofline: points need a roofline and a file");
        return -1;
    }
    size_t len;
    char *text = bs_read_file(path, POINTS_FILE_MAX, &len, err);
    if (!text)
        return -1;
    int rc = 0, line = 0;
    bool first = true;
    for (size_t at = 0; at < len && rc == 0;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *s = text + at;
        size_t n = end - at;
        line++;
        at = end + 1;
        size_t lead = 0;
        while (lead < n && (s[lead] == ' ' || s[lead] == '\t' || s[lead] == '\r'))
            lead++;
        if (lead == n || s[lead] == '#')
            continue;
        if (memchr(s, '\0', n)) {
            bs_error_set_at(err, DLTI_ERROR_SYNTAX, path, line, 1,
                            "roofline: a NUL byte in a points file");
            rc = -1;
            break;
        }
        rc = add_point_line(r, s, n, path, line, first, err) < 0 ? -1 : 0;
        first = false;
    }
    free(text);
    return rc;
}
