/* One device in an autotuner's field names (sysdesc/tuner.h, docs/export.md):
 * one table of fields, each read from one key of the device and converted
 * to the unit the tuner expects. */
#include "sysdesc_private.h"

#include "sysdesc/tuner.h"

#include <stdlib.h>
#include <string.h>

/* How a field's value is made from its source key. */
typedef enum {
    AS_IS,          /* the integer or string as it is */
    MHZ_TO_KHZ,     /* CUDA reports clock rates in kHz (CU_DEVICE_ATTRIBUTE_CLOCK_RATE) */
    ONE_SUBGROUP,   /* subgroup_sizes with exactly one size: that size */
    CC_INT,         /* compute_capability "9.0" -> 90 (major * 10 + minor) */
    CC_MAJOR,       /* compute_capability "9.0" -> 9 */
    PLUS_FEATURES,  /* features ["avx2", ...] -> ["+avx2", ...] (LLVM -mattr) */
    KIND            /* the tuner's kind of target, by device type and vendor */
} conversion;

typedef struct {
    sysdesc_tuner tuner;
    const char *device_type; /* "GPU", "CPU" */
    const char *vendor;      /* NULL: any */
    const char *field;
    const char *key;         /* the device's key, dotted inside maps; NULL for KIND */
    conversion how;
} field_row;

/* The order here is the order of the output and of docs/export.md. */
static const field_row fields[] = {
    /* TVM: src/target/target_kind.cc, TVM_REGISTER_TARGET_KIND("cuda" / "rocm" / "llvm") */
    {SYSDESC_TUNER_TVM, "GPU", NULL, "kind", NULL, KIND},
    {SYSDESC_TUNER_TVM, "GPU", "NVIDIA", "arch", "arch", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", "AMD", "mcpu", "arch", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "max_shared_memory_per_block", "shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "max_threads_per_block", "max_threads_per_block", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "thread_warp_size", "subgroup_sizes", ONE_SUBGROUP},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "registers_per_block", "registers_per_block", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "l2_cache_size_bytes", "L2_cache_size_in_bytes", AS_IS},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "kind", NULL, KIND},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "mtriple", "triple", AS_IS},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "mcpu", "compiler.llvm.cpu", AS_IS},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "mattr", "features", PLUS_FEATURES},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "num-cores", "num_cores", AS_IS},
    /* Triton: third_party/nvidia/backend/driver.c getDeviceProperties (CUDA
     * attributes); third_party/amd/backend/driver.c adds "arch" */
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "max_shared_mem", "max_shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "max_num_regs", "registers_per_block", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "multiprocessor_count", "num_compute_units", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "warpSize", "subgroup_sizes", ONE_SUBGROUP},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "sm_clock_rate", "max_clock_in_mhz", MHZ_TO_KHZ},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "mem_clock_rate", "memory_clock_in_mhz", MHZ_TO_KHZ},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "mem_bus_width", "memory_bus_width_in_bits", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "AMD", "arch", "arch", AS_IS},
    /* PyTorch Inductor: torch/_inductor/runtime/hints.py, DeviceProperties;
     * cc as torch/_dynamo/device_interface.py get_compute_capability */
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "type", NULL, KIND},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "cc", "compute_capability", CC_INT},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "AMD", "cc", "arch", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "major", "compute_capability", CC_MAJOR},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "regs_per_multiprocessor", "registers_per_compute_unit", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "max_threads_per_multi_processor", "max_threads_per_compute_unit", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "max_threads_per_block", "max_threads_per_block", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "multi_processor_count", "num_compute_units", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "warp_size", "subgroup_sizes", ONE_SUBGROUP},
};

/* The kind of target by tuner, device type and vendor (docs/export.md). */
typedef struct {
    sysdesc_tuner tuner;
    const char *device_type, *vendor, *kind;
} kind_row;

static const kind_row kinds[] = {
    {SYSDESC_TUNER_TVM, "GPU", "NVIDIA", "cuda"},
    {SYSDESC_TUNER_TVM, "GPU", "AMD", "rocm"},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "llvm"},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, NULL}, /* no kind field: any GPU */
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "cuda"},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "AMD", "hip"},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "xpu"},
};

static const char *const tuner_names[] = {"tvm", "triton", "inductor"};

int sysdesc_tuner_parse(const char *name, sysdesc_tuner *tuner)
{
    for (size_t i = 0; name && i < sizeof tuner_names / sizeof tuner_names[0]; i++) {
        if (strcmp(name, tuner_names[i]) == 0) {
            *tuner = (sysdesc_tuner)i;
            return 0;
        }
    }
    return -1;
}

const char *sysdesc_tuner_names(void)
{
    return "tvm, triton, inductor";
}

/* The entry `name` of a map or spec (a scan: no context to intern in, and a
 * device has a few dozen keys). */
static const dlti_attr *entry(const dlti_attr *map, const char *name)
{
    for (size_t i = 0; i < dlti_attr_size(map); i++) {
        size_t len;
        const char *k = dlti_key_str(dlti_attr_entry_key(map, i), &len);
        if (k && len == strlen(name) && memcmp(k, name, len) == 0)
            return dlti_attr_entry_value(map, i);
    }
    return NULL;
}

/* The value at a dotted path of maps ("compiler.llvm.cpu"). */
static const dlti_attr *entry_path(const dlti_attr *map, const char *path)
{
    char name[64];
    for (;;) {
        size_t n = strcspn(path, ".");
        if (!map || n >= sizeof(name))
            return NULL;
        memcpy(name, path, n);
        name[n] = '\0';
        map = entry(map, name);
        if (path[n] == '\0')
            return map;
        if (!map || dlti_attr_get_kind(map) != DLTI_ATTR_MAP)
            return NULL;
        path += n + 1;
    }
}

static const char *string_entry(const dlti_attr *map, const char *name)
{
    const dlti_attr *a = entry(map, name);
    const char *s;
    size_t len;
    if (!a || dlti_attr_get_string(a, &s, &len, NULL) < 0 || strlen(s) != len)
        return NULL;
    return s;
}

static bool matches(const char *want, const char *have)
{
    return !want || (have && strcmp(want, have) == 0);
}

/* The kind row for the device; NULL when the tuner cannot describe it. */
static const kind_row *find_kind(sysdesc_tuner t, const char *type, const char *vendor)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].tuner == t && matches(kinds[i].device_type, type) &&
            matches(kinds[i].vendor, vendor))
            return &kinds[i];
    return NULL;
}

/* "9.0" -> major 9, minor 0; false when not DIGITS.DIGITS. */
static bool compute_capability(const char *s, long *major, long *minor)
{
    char *end;
    if (!s || s[0] < '0' || s[0] > '9')
        return false;
    *major = strtol(s, &end, 10);
    if (*end != '.' || end[1] < '0' || end[1] > '9')
        return false;
    *minor = strtol(end + 1, &end, 10);
    return *end == '\0' && *major < 1000 && *minor < 10;
}

/* An integer of an integer attribute, or of element 0 of a one-element
 * array or dense array (subgroup_sizes). */
static bool int_of(const dlti_attr *a, int64_t *v)
{
    return a && dlti_attr_get_int64(a, v, NULL) == 0;
}

static bool one_subgroup(const dlti_attr *a, int64_t *v)
{
    if (!a || dlti_attr_size(a) != 1)
        return false;
    if (dlti_attr_get_kind(a) == DLTI_ATTR_ARRAY)
        return int_of(dlti_attr_element(a, 0), v);
    if (dlti_attr_get_kind(a) == DLTI_ATTR_DENSE_ARRAY)
        return dlti_attr_dense_int64(a, 0, v, NULL) == 0;
    return false;
}

/* Appends `"field": ` with the separator before it. */
static void put_field_name(dlti_buf *b, const char *field, int *n)
{
    dlti_buf_puts(b, (*n)++ ? ",\n  \"" : "{\n  \"");
    dlti_buf_puts(b, field);
    dlti_buf_puts(b, "\": ");
}

static void put_string(dlti_buf *b, const char *s)
{
    sd_buf_put_quoted(b, s, strlen(s), "\\u%04X");
}

/* Appends one field when its source is there and has the expected form. */
static void put_field(dlti_buf *b, const field_row *f, const dlti_attr *dev, const char *kind,
                      int *n)
{
    const dlti_attr *a = f->key ? entry_path(dev, f->key) : NULL;
    int64_t v;
    long major, minor;
    switch (f->how) {
    case KIND:
        if (kind) {
            put_field_name(b, f->field, n);
            put_string(b, kind);
        }
        return;
    case AS_IS: {
        const char *s;
        size_t len;
        if (int_of(a, &v)) {
            put_field_name(b, f->field, n);
            dlti_buf_put_i64(b, v);
        } else if (a && dlti_attr_get_string(a, &s, &len, NULL) == 0 && strlen(s) == len) {
            put_field_name(b, f->field, n);
            put_string(b, s);
        }
        return;
    }
    case MHZ_TO_KHZ:
        if (int_of(a, &v) && v >= 0 && v <= INT64_MAX / 1000) {
            put_field_name(b, f->field, n);
            dlti_buf_put_i64(b, v * 1000);
        }
        return;
    case ONE_SUBGROUP:
        if (one_subgroup(a, &v)) {
            put_field_name(b, f->field, n);
            dlti_buf_put_i64(b, v);
        }
        return;
    case CC_INT:
    case CC_MAJOR:
        if (compute_capability(string_entry(dev, f->key), &major, &minor)) {
            put_field_name(b, f->field, n);
            dlti_buf_put_i64(b, f->how == CC_INT ? major * 10 + minor : major);
        }
        return;
    case PLUS_FEATURES:
        if (a && dlti_attr_get_kind(a) == DLTI_ATTR_ARRAY) {
            put_field_name(b, f->field, n);
            dlti_buf_putc(b, '[');
            int m = 0;
            for (size_t i = 0; i < dlti_attr_size(a); i++) {
                const char *s;
                size_t len;
                if (dlti_attr_get_string(dlti_attr_element(a, i), &s, &len, NULL) < 0 ||
                    strlen(s) != len)
                    continue;
                char *plus = malloc(len + 2);
                if (!plus) {
                    b->failed = true;
                    return;
                }
                plus[0] = '+';
                memcpy(plus + 1, s, len + 1);
                dlti_buf_puts(b, m++ ? ", " : "");
                sd_buf_put_quoted(b, plus, len + 1, "\\u%04X");
                free(plus);
            }
            dlti_buf_putc(b, ']');
        }
        return;
    }
}

char *sysdesc_tuner_export(const dlti_attr *spec, const char *device_id, sysdesc_tuner tuner,
                           size_t *len, dlti_error_t *err)
{
    if (!spec || dlti_attr_get_kind(spec) != DLTI_ATTR_SYSTEM_SPEC || !device_id ||
        (unsigned)tuner >= sizeof tuner_names / sizeof tuner_names[0]) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                       "export needs a system spec, a device id and a tuner (%s)",
                       sysdesc_tuner_names());
        return NULL;
    }
    const dlti_attr *dev = entry(spec, device_id);
    if (!dev) {
        dlti_error_set(err, DLTI_ERROR_NOT_FOUND, "no device '%s' in the system", device_id);
        return NULL;
    }
    const char *type = string_entry(dev, "device_type");
    if (!type) { /* the type the id names ("GPU3"), as the checker reads it */
        unsigned bits = sysdesc_device_type_bits(device_id, dev);
        type = bits == SYSDESC_DEVICE_CPU ? "CPU" : bits == SYSDESC_DEVICE_GPU ? "GPU" : NULL;
    }
    const char *vendor = string_entry(dev, "vendor");
    const kind_row *k = find_kind(tuner, type, vendor);
    if (!k) {
        dlti_error_set(err, DLTI_ERROR_UNSUPPORTED,
                       "%s has no fields for device '%s' (device_type %s, vendor %s)",
                       tuner_names[tuner], device_id, type ? type : "absent",
                       vendor ? vendor : "absent");
        return NULL;
    }
    dlti_buf b = {0};
    int n = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const field_row *f = &fields[i];
        if (f->tuner == tuner && matches(f->device_type, type) && matches(f->vendor, vendor))
            put_field(&b, f, dev, k->kind, &n);
    }
    dlti_buf_puts(&b, n ? "\n}\n" : "{}\n");
    if (b.failed) {
        free(b.data);
        dlti_nomem(err);
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.data;
}
