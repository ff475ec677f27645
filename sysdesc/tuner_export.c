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
    AMD_WAVE,       /* subgroup_sizes' smallest: the wave size HIP reports as warpSize
                     * (gfx9: 64; gfx10 and later compile wave32 by default: 32) */
    INT_LIST,       /* an array of integers as a JSON array (Intel's sub_group_sizes) */
    CC_INT,         /* compute_capability "9.0" -> 90 (major * 10 + minor) */
    CC_MAJOR,       /* compute_capability "9.0" -> 9 */
    PLUS_FEATURES,  /* features ["avx2", ...] -> ["+avx2", ...] (LLVM -mattr) */
    XPU_CAPABILITY, /* torch.xpu.get_device_capability(): an object of xpu_fields */
    KIND            /* the tuner's kind of target, by device type and vendor */
} conversion;

typedef struct {
    sysdesc_tuner tuner;
    const char *device_type; /* "GPU", "CPU" */
    const char *vendor;      /* NULL: any */
    const char *field;
    const char *key;         /* the device's key, dotted inside maps; "a|b": the first
                              * present; NULL for KIND and XPU_CAPABILITY */
    conversion how;
} field_row;

/* The order here is the order of the output and of docs/export.md.  Each
 * field is one the consumer registers or returns for that kind of device
 * (tests/data/consumers/ holds those registries with their sources, and
 * tests/python/test_export_registries.py checks every catalog device). */
static const field_row fields[] = {
    /* TVM: TVM_REGISTER_TARGET_KIND("cuda") in src/backend/cuda/codegen/target_kind.cc,
     * ("rocm") in src/backend/rocm/codegen/target_kind.cc, ("llvm") in
     * src/target/target_kind.cc; TVM refuses an attribute a kind does not register
     * (ConfigSchema::Resolve), and rocm registers neither registers_per_block nor
     * l2_cache_size_bytes */
    {SYSDESC_TUNER_TVM, "GPU", NULL, "kind", NULL, KIND},
    {SYSDESC_TUNER_TVM, "GPU", "NVIDIA", "arch", "arch", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", "AMD", "mcpu", "arch", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "max_shared_memory_per_block", "shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", NULL, "max_threads_per_block", "max_threads_per_block", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", "NVIDIA", "thread_warp_size", "subgroup_sizes", ONE_SUBGROUP},
    {SYSDESC_TUNER_TVM, "GPU", "AMD", "thread_warp_size", "subgroup_sizes", AMD_WAVE},
    {SYSDESC_TUNER_TVM, "GPU", "NVIDIA", "registers_per_block", "registers_per_block", AS_IS},
    {SYSDESC_TUNER_TVM, "GPU", "NVIDIA", "l2_cache_size_bytes", "L2_cache_size_in_bytes", AS_IS},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "kind", NULL, KIND},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "mtriple", "triple", AS_IS},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "mcpu", "compiler.llvm.cpu", AS_IS},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "mattr", "features", PLUS_FEATURES},
    {SYSDESC_TUNER_TVM, "CPU", NULL, "num-cores", "num_cores", AS_IS},
    /* Triton: get_device_properties() of third_party/nvidia/backend/driver.c (CUDA
     * attributes), third_party/amd/backend/driver.c (hipDeviceProp_t: max_shared_mem
     * is sharedMemPerBlock, arch is gcnArchName with its features), and Intel's
     * third_party/intel/backend/driver.c (Level Zero: no register or warp field) */
    {SYSDESC_TUNER_TRITON, "GPU", "NVIDIA", "max_shared_mem", "max_shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "AMD", "max_shared_mem", "shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "Intel", "max_shared_mem", "shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "NVIDIA", "max_num_regs", "registers_per_block", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "AMD", "max_num_regs", "registers_per_block", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "multiprocessor_count", "num_compute_units", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "NVIDIA", "warpSize", "subgroup_sizes", ONE_SUBGROUP},
    {SYSDESC_TUNER_TRITON, "GPU", "AMD", "warpSize", "subgroup_sizes", AMD_WAVE},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "sm_clock_rate", "max_clock_in_mhz", MHZ_TO_KHZ},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "mem_clock_rate", "memory_clock_in_mhz", MHZ_TO_KHZ},
    {SYSDESC_TUNER_TRITON, "GPU", NULL, "mem_bus_width", "memory_bus_width_in_bits", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "AMD", "arch", "runtimes.rocm.target_id|arch", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "Intel", "max_work_group_size", "max_threads_per_block", AS_IS},
    {SYSDESC_TUNER_TRITON, "GPU", "Intel", "sub_group_sizes", "subgroup_sizes", INT_LIST},
    /* PyTorch Inductor: torch/_inductor/runtime/hints.py, DeviceProperties.create;
     * cc as torch/_dynamo/device_interface.py get_compute_capability; an XPU's
     * properties have none of major, regs_per_multiprocessor,
     * max_threads_per_multi_processor, warp_size (Inductor leaves them None) */
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "type", NULL, KIND},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "cc", "compute_capability", CC_INT},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "AMD", "cc", "arch", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "cc", NULL, XPU_CAPABILITY},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "major", "compute_capability", CC_MAJOR},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "regs_per_multiprocessor", "registers_per_compute_unit", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "AMD", "regs_per_multiprocessor", "registers_per_compute_unit", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "max_threads_per_multi_processor", "max_threads_per_compute_unit", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "AMD", "max_threads_per_multi_processor", "max_threads_per_compute_unit", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "max_threads_per_block", "max_threads_per_block", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", NULL, "multi_processor_count", "num_compute_units", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "NVIDIA", "warp_size", "subgroup_sizes", ONE_SUBGROUP},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "AMD", "warp_size", "subgroup_sizes", AMD_WAVE},
};

/* An Intel GPU's Inductor `cc`: torch.xpu.get_device_capability() is the
 * device's _XpuDeviceProperties as a dict (torch/xpu/__init__.py); these are
 * the ones the device's keys give, under torch's names and units. */
static const field_row xpu_fields[] = {
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "max_compute_units", "num_execution_units", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "gpu_eu_count", "num_execution_units", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "gpu_subslice_count", "num_compute_units", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "max_work_group_size", "max_threads_per_block", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "sub_group_sizes", "subgroup_sizes", INT_LIST},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "local_mem_size", "shared_memory_per_block_in_bytes", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "memory_clock_rate", "memory_clock_in_mhz", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "memory_bus_width", "memory_bus_width_in_bits", AS_IS},
    {SYSDESC_TUNER_INDUCTOR, "GPU", "Intel", "last_level_cache_size", "last_level_cache_size_in_bytes", AS_IS},
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
    /* no kind field; the backends Triton has drivers for */
    {SYSDESC_TUNER_TRITON, "GPU", "NVIDIA", NULL},
    {SYSDESC_TUNER_TRITON, "GPU", "AMD", NULL},
    {SYSDESC_TUNER_TRITON, "GPU", "Intel", NULL},
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

/* The value at a dotted path of maps ("compiler.llvm.cpu"), which ends at
 * the path's end or at a '|'. */
static const dlti_attr *entry_path(const dlti_attr *map, const char *path)
{
    char name[64];
    for (;;) {
        size_t n = strcspn(path, ".|");
        if (!map || n >= sizeof(name))
            return NULL;
        memcpy(name, path, n);
        name[n] = '\0';
        map = entry(map, name);
        if (path[n] != '.')
            return map;
        if (!map || dlti_attr_get_kind(map) != DLTI_ATTR_MAP)
            return NULL;
        path += n + 1;
    }
}

/* The value of the first of a row's keys ("a.b|c") that the device has. */
static const dlti_attr *lookup(const dlti_attr *dev, const char *key)
{
    for (const char *alt = key; alt; alt = strchr(alt, '|') ? strchr(alt, '|') + 1 : NULL) {
        const dlti_attr *a = entry_path(dev, alt);
        if (a)
            return a;
    }
    return NULL;
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

/* An integer of an integer attribute. */
static bool int_of(const dlti_attr *a, int64_t *v)
{
    return a && dlti_attr_get_int64(a, v, NULL) == 0;
}

/* Element `i` of an array or dense array of integers (subgroup_sizes). */
static bool int_at(const dlti_attr *a, size_t i, int64_t *v)
{
    if (!a || i >= dlti_attr_size(a))
        return false;
    if (dlti_attr_get_kind(a) == DLTI_ATTR_ARRAY)
        return int_of(dlti_attr_element(a, i), v);
    if (dlti_attr_get_kind(a) == DLTI_ATTR_DENSE_ARRAY)
        return dlti_attr_dense_int64(a, i, v, NULL) == 0;
    return false;
}

/* Whether `a` is a non-empty array of integers. */
static bool int_list(const dlti_attr *a)
{
    int64_t v;
    if (!a || dlti_attr_size(a) == 0)
        return false;
    for (size_t i = 0; i < dlti_attr_size(a); i++)
        if (!int_at(a, i, &v))
            return false;
    return true;
}

static bool one_subgroup(const dlti_attr *a, int64_t *v)
{
    return a && dlti_attr_size(a) == 1 && int_at(a, 0, v);
}

/* The smallest of the subgroup sizes: the wave size HIP reports (docs/export.md). */
static bool smallest_subgroup(const dlti_attr *a, int64_t *v)
{
    if (!int_list(a))
        return false;
    int_at(a, 0, v);
    for (size_t i = 1; i < dlti_attr_size(a); i++) {
        int64_t w;
        if (int_at(a, i, &w) && w < *v)
            *v = w;
    }
    return true;
}

static void put_string(bs_buf *b, const char *s)
{
    sd_buf_put_quoted(b, s, strlen(s), "\\u%04X");
}

static void put_fields(bs_buf *b, const field_row *rows, size_t n_rows, sysdesc_tuner t,
                       const char *type, const char *vendor, const dlti_attr *dev,
                       const char *kind, bool nested);

/* Appends the field's value when its source is there and has the expected
 * form; false (nothing appended) when not. */
static bool put_value(bs_buf *b, const field_row *f, const dlti_attr *dev, const char *kind)
{
    const dlti_attr *a = f->key ? lookup(dev, f->key) : NULL;
    int64_t v;
    long major, minor;
    const char *s;
    size_t len;
    switch (f->how) {
    case KIND:
        if (!kind)
            return false;
        put_string(b, kind);
        return true;
    case AS_IS:
        if (int_of(a, &v)) {
            bs_buf_put_i64(b, v);
            return true;
        }
        if (a && dlti_attr_get_string(a, &s, &len, NULL) == 0 && strlen(s) == len) {
            put_string(b, s);
            return true;
        }
        return false;
    case MHZ_TO_KHZ:
        if (!int_of(a, &v) || v < 0 || v > INT64_MAX / 1000)
            return false;
        bs_buf_put_i64(b, v * 1000);
        return true;
    case ONE_SUBGROUP:
    case AMD_WAVE:
        if (!(f->how == ONE_SUBGROUP ? one_subgroup(a, &v) : smallest_subgroup(a, &v)))
            return false;
        bs_buf_put_i64(b, v);
        return true;
    case INT_LIST:
        if (!int_list(a))
            return false;
        bs_buf_putc(b, '[');
        for (size_t i = 0; i < dlti_attr_size(a); i++) {
            int_at(a, i, &v);
            bs_buf_puts(b, i ? ", " : "");
            bs_buf_put_i64(b, v);
        }
        bs_buf_putc(b, ']');
        return true;
    case CC_INT:
    case CC_MAJOR:
        if (!compute_capability(string_entry(dev, f->key), &major, &minor))
            return false;
        bs_buf_put_i64(b, f->how == CC_INT ? major * 10 + minor : major);
        return true;
    case PLUS_FEATURES:
        if (!a || dlti_attr_get_kind(a) != DLTI_ATTR_ARRAY)
            return false;
        bs_buf_putc(b, '[');
        for (size_t i = 0, m = 0; i < dlti_attr_size(a); i++) {
            if (dlti_attr_get_string(dlti_attr_element(a, i), &s, &len, NULL) < 0 ||
                strlen(s) != len)
                continue;
            char *plus = malloc(len + 2);
            if (!plus) {
                b->failed = true;
                return false;
            }
            plus[0] = '+';
            memcpy(plus + 1, s, len + 1);
            bs_buf_puts(b, m++ ? ", " : "");
            put_string(b, plus);
            free(plus);
        }
        bs_buf_putc(b, ']');
        return true;
    case XPU_CAPABILITY:
        /* always there: Inductor's cc has no default; the object holds what the
         * device's keys give */
        put_fields(b, xpu_fields, sizeof xpu_fields / sizeof xpu_fields[0], f->tuner,
                   f->device_type, f->vendor, dev, kind, true);
        return true;
    }
    return false;
}

/* Appends the rows that apply to the device as a JSON object: two spaces of
 * indent and a line each at the top, on one line when `nested`. */
static void put_fields(bs_buf *b, const field_row *rows, size_t n_rows, sysdesc_tuner t,
                       const char *type, const char *vendor, const dlti_attr *dev,
                       const char *kind, bool nested)
{
    int n = 0;
    bs_buf value = {0};
    for (size_t i = 0; i < n_rows; i++) {
        const field_row *f = &rows[i];
        if (f->tuner != t || !matches(f->device_type, type) || !matches(f->vendor, vendor))
            continue;
        value.len = 0;
        if (!put_value(&value, f, dev, kind))
            continue;
        if (value.failed)
            break;
        if (nested)
            bs_buf_puts(b, n++ ? ", \"" : "{\"");
        else
            bs_buf_puts(b, n++ ? ",\n  \"" : "{\n  \"");
        bs_buf_puts(b, f->field);
        bs_buf_puts(b, "\": ");
        bs_buf_put(b, value.data, value.len);
    }
    if (value.failed)
        b->failed = true;
    free(value.data);
    bs_buf_puts(b, n ? (nested ? "}" : "\n}\n") : (nested ? "{}" : "{}\n"));
}

char *sysdesc_tuner_export(const dlti_attr *spec, const char *device_id, sysdesc_tuner tuner,
                           size_t *len, dlti_error_t *err)
{
    if (!spec || dlti_attr_get_kind(spec) != DLTI_ATTR_SYSTEM_SPEC || !device_id ||
        (unsigned)tuner >= sizeof tuner_names / sizeof tuner_names[0]) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "export needs a system spec, a device id and a tuner (%s)",
                     sysdesc_tuner_names());
        return NULL;
    }
    const dlti_attr *dev = entry(spec, device_id);
    if (!dev) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no device '%s' in the system", device_id);
        return NULL;
    }
    const char *type = string_entry(dev, "device_type");
    if (!type) { /* the type the id names ("GPU3"), as the checker reads it */
        type = sysdesc_schema_device_type_name(sysdesc_device_type_bits(device_id, dev));
    }
    const char *vendor = string_entry(dev, "vendor");
    const kind_row *k = find_kind(tuner, type, vendor);
    if (!k) {
        bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                     "%s has no fields for device '%s' (device_type %s, vendor %s)",
                     tuner_names[tuner], device_id, type ? type : "absent",
                     vendor ? vendor : "absent");
        return NULL;
    }
    bs_buf b = {0};
    put_fields(&b, fields, sizeof fields / sizeof fields[0], tuner, type, vendor, dev, k->kind,
               false);
    if (b.failed) {
        free(b.data);
        bs_nomem(err);
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.data;
}
