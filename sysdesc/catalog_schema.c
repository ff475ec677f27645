/* The device key schema of docs/keys.md (GPU part), as a check. */
#include "sysdesc_private.h"

#include "sysdesc/catalog.h"

#include <math.h>
#include <string.h>

typedef enum value_kind { V_STRING, V_INT, V_BOOL, V_INT_ARRAY, V_PEAKS } value_kind;

typedef struct key_rule {
    const char *key;
    value_kind kind;
    bool required;
} key_rule;

/* Integers are positive counts or sizes whose unit is in the key's name. */
static const key_rule gpu_keys[] = {
    {"device_type", V_STRING, true},
    {"vendor", V_STRING, true},
    {"model", V_STRING, true},
    {"arch", V_STRING, true},
    {"compute_capability", V_STRING, false},
    {"form_factor", V_STRING, false},
    {"pci_vendor_id", V_INT, true},
    {"pci_device_ids", V_INT_ARRAY, true},
    {"is_partition", V_BOOL, true},
    {"num_partitions_per_package", V_INT, false},
    {"tdp_in_watts", V_INT, false},
    {"num_compute_units", V_INT, true},
    {"compute_unit_name", V_STRING, false},
    {"subgroup_sizes", V_INT_ARRAY, true},
    {"max_threads_per_block", V_INT, true},
    {"max_threads_per_compute_unit", V_INT, false},
    {"max_blocks_per_compute_unit", V_INT, false},
    {"max_block_dims", V_INT_ARRAY, false},
    {"max_grid_dims", V_INT_ARRAY, false},
    {"registers_per_compute_unit", V_INT, false},
    {"registers_per_block", V_INT, false},
    {"max_registers_per_thread", V_INT, false},
    {"shared_memory_per_block_in_bytes", V_INT, true},
    {"max_shared_memory_per_block_in_bytes", V_INT, true},
    {"shared_memory_per_compute_unit_in_bytes", V_INT, false},
    {"L1_cache_size_in_bytes", V_INT, false},
    {"L2_cache_size_in_bytes", V_INT, true},
    {"num_L2_caches", V_INT, false},
    {"last_level_cache_size_in_bytes", V_INT, false},
    {"memory_type", V_STRING, false},
    {"memory_size_in_bytes", V_INT, true},
    {"memory_bus_width_in_bits", V_INT, false},
    {"memory_bandwidth_in_bytes_per_second", V_INT, true},
    {"max_clock_in_mhz", V_INT, true},
    {"base_clock_in_mhz", V_INT, false},
    {"memory_clock_in_mhz", V_INT, false},
    {"peak_ops_per_second", V_PEAKS, true},
    {"peak_sparse_ops_per_second", V_PEAKS, false},
};

static const char *const peak_keys[] = {
    "fp64_vector", "fp64_matrix", "fp32_vector", "fp32_matrix", "tf32_matrix",
    "fp16_vector", "fp16_matrix", "bf16_vector", "bf16_matrix", "fp8_matrix",
    "int8_matrix", "int4_matrix",
};

/* CPU devices (whole machines in the catalog) follow the probe's keys; the
 * check covers the identity keys and the kinds of the common ones. */
static const key_rule cpu_keys[] = {
    {"device_type", V_STRING, true},
    {"vendor", V_STRING, true},
    {"model", V_STRING, true},
    {"arch", V_STRING, true},
    {"num_packages", V_INT, false},
    {"num_cores", V_INT, false},
    {"num_threads", V_INT, false},
    {"memory_size_in_bytes", V_INT, false},
};

static int fail(dlti_error_t *err, const char *id, const char *fmt, const char *a, const char *b)
{
    char problem[DLTI_ERROR_TEXT_LENGTH];
    snprintf(problem, sizeof(problem), fmt, a, b);
    dlti_error_set(err, DLTI_ERROR_VERIFY, "device '%s': %s", id, problem);
    return -1;
}

static bool positive_int(const dlti_attr *v)
{
    int64_t x;
    return dlti_attr_get_kind(v) == DLTI_ATTR_INTEGER &&
           strcmp(dlti_type_str(dlti_attr_type(v)), "i64") == 0 &&
           dlti_attr_get_int64(v, &x, NULL) == 0 && x > 0;
}

static int check_value(const char *id, const key_rule *r, const dlti_attr *v, dlti_error_t *err)
{
    dlti_attr_kind k = dlti_attr_get_kind(v);
    switch (r->kind) {
    case V_STRING:
        if (k != DLTI_ATTR_STRING)
            return fail(err, id, "'%s' must be a string%s", r->key, "");
        return 0;
    case V_BOOL:
        if (k != DLTI_ATTR_BOOL)
            return fail(err, id, "'%s' must be true or false%s", r->key, "");
        return 0;
    case V_INT:
        if (!positive_int(v))
            return fail(err, id, "'%s' must be a positive integer (i64)%s", r->key, "");
        return 0;
    case V_INT_ARRAY:
        if (k != DLTI_ATTR_ARRAY || dlti_attr_size(v) == 0)
            return fail(err, id, "'%s' must be a non-empty array of integers%s", r->key, "");
        for (size_t i = 0; i < dlti_attr_size(v); i++)
            if (!positive_int(dlti_attr_element(v, i)))
                return fail(err, id, "'%s' must hold positive integers (i64)%s", r->key, "");
        return 0;
    case V_PEAKS:
        if (k != DLTI_ATTR_MAP || dlti_attr_size(v) == 0)
            return fail(err, id, "'%s' must be a map from data type to ops per second%s", r->key, "");
        for (size_t i = 0; i < dlti_attr_size(v); i++) {
            const char *name = dlti_key_str(dlti_attr_entry_key(v, i), NULL);
            bool known = false;
            for (size_t j = 0; name && j < sizeof(peak_keys) / sizeof(peak_keys[0]); j++)
                known = known || strcmp(name, peak_keys[j]) == 0;
            if (!known)
                return fail(err, id, "'%s': unknown data type '%s'", r->key, name ? name : "?");
            const dlti_attr *x = dlti_attr_entry_value(v, i);
            double d;
            if (dlti_attr_get_kind(x) != DLTI_ATTR_FLOAT ||
                strcmp(dlti_type_str(dlti_attr_type(x)), "f64") != 0 ||
                dlti_attr_get_double(x, &d, NULL) < 0 || !(d >= 1e9 && d < 1e18))
                return fail(err, id, "'%s.%s' must be an f64 in ops per second (1e9..1e18)",
                            r->key, name);
        }
        return 0;
    }
    return 0;
}

static const dlti_attr *get(const dlti_attr *dev, const char *key)
{
    for (size_t i = 0; i < dlti_attr_size(dev); i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(dev, i), NULL);
        if (k && strcmp(k, key) == 0)
            return dlti_attr_entry_value(dev, i);
    }
    return NULL;
}

static int64_t get_int(const dlti_attr *dev, const char *key)
{
    int64_t v = 0;
    const dlti_attr *a = get(dev, key);
    if (a)
        dlti_attr_get_int64(a, &v, NULL);
    return v;
}

/* Relations between keys that a typo would break. */
static int check_relations(const dlti_attr *dev, const char *id, dlti_error_t *err)
{
    if (get_int(dev, "max_shared_memory_per_block_in_bytes") <
        get_int(dev, "shared_memory_per_block_in_bytes"))
        return fail(err, id, "%s is below %s", "max_shared_memory_per_block_in_bytes",
                    "shared_memory_per_block_in_bytes");
    if (get(dev, "shared_memory_per_compute_unit_in_bytes") &&
        get_int(dev, "shared_memory_per_compute_unit_in_bytes") <
            get_int(dev, "max_shared_memory_per_block_in_bytes"))
        return fail(err, id, "%s is below %s", "shared_memory_per_compute_unit_in_bytes",
                    "max_shared_memory_per_block_in_bytes");
    if (get(dev, "max_threads_per_compute_unit") &&
        get_int(dev, "max_threads_per_compute_unit") < get_int(dev, "max_threads_per_block"))
        return fail(err, id, "%s is below %s", "max_threads_per_compute_unit",
                    "max_threads_per_block");
    const dlti_attr *part = get(dev, "is_partition");
    bool is_part = false;
    if (part)
        dlti_attr_get_bool(part, &is_part, NULL);
    if (is_part && !get(dev, "num_partitions_per_package"))
        return fail(err, id, "a partition needs %s%s", "num_partitions_per_package", "");
    int64_t vendor = get_int(dev, "pci_vendor_id");
    if (vendor > 0xffff)
        return fail(err, id, "%s is not a 16-bit PCI id%s", "pci_vendor_id", "");
    if (get_int(dev, "memory_bandwidth_in_bytes_per_second") < 1000000000)
        return fail(err, id, "%s looks like it is not in bytes per second%s",
                    "memory_bandwidth_in_bytes_per_second", "");
    if (get_int(dev, "max_clock_in_mhz") > 10000)
        return fail(err, id, "%s looks like it is not in MHz%s", "max_clock_in_mhz", "");
    return 0;
}

int sysdesc_device_check(const dlti_attr *dev, const char *id, dlti_error_t *err)
{
    if (dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC)
        return fail(err, id, "not a device spec%s%s", "", "");
    const dlti_attr *type = get(dev, "device_type");
    const char *t = NULL;
    if (!type || dlti_attr_get_string(type, &t, NULL, NULL) < 0)
        return fail(err, id, "missing required key '%s'%s", "device_type", "");
    bool gpu = strcmp(t, "GPU") == 0;
    if (!gpu && strcmp(t, "CPU") != 0)
        return fail(err, id, "device_type '%s' is neither GPU nor CPU%s", t, "");
    const key_rule *rules = gpu ? gpu_keys : cpu_keys;
    size_t nrules = gpu ? sizeof(gpu_keys) / sizeof(gpu_keys[0]) : sizeof(cpu_keys) / sizeof(cpu_keys[0]);
    for (size_t i = 0; i < dlti_attr_size(dev); i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(dev, i), NULL);
        const key_rule *r = NULL;
        for (size_t j = 0; j < nrules && !r; j++)
            if (strcmp(rules[j].key, k) == 0)
                r = &rules[j];
        if (!r) {
            if (gpu)
                return fail(err, id, "unknown key '%s' (not in docs/keys.md)%s", k, "");
            continue;
        }
        if (check_value(id, r, dlti_attr_entry_value(dev, i), err) < 0)
            return -1;
    }
    for (size_t j = 0; j < nrules; j++)
        if (rules[j].required && !get(dev, rules[j].key))
            return fail(err, id, "missing required key '%s'%s", rules[j].key, "");
    return gpu ? check_relations(dev, id, err) : 0;
}
