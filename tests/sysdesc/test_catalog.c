/* Every catalog file against the device key schema, and the schema check itself. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysdesc/sysdesc.h"

#define CATALOG SRCDIR "/systems"

static int print_problem(void *user, const dlti_error_t *e)
{
    (void)user;
    char line[1400];
    dlti_error_format(e, line, sizeof(line));
    fprintf(stderr, "%s\n", line);
    return 0;
}

/* Every device of `spec` says which schema it follows: the current one. */
static void names_schema_version(const char *path, const dlti_attr *spec)
{
    for (size_t d = 0; d < dlti_attr_size(spec); d++) {
        const dlti_attr *dev = dlti_attr_entry_value(spec, d);
        const char *id = dlti_key_str(dlti_attr_entry_key(spec, d), NULL);
        int64_t v = -1;
        for (size_t i = 0; i < dlti_attr_size(dev); i++) {
            const char *k = dlti_key_str(dlti_attr_entry_key(dev, i), NULL);
            if (k && strcmp(k, "schema_version") == 0)
                dlti_attr_get_int64(dlti_attr_entry_value(dev, i), &v, NULL);
        }
        if (v != SYSDESC_SCHEMA_VERSION)
            fail_msg("%s: device %s does not say schema_version: %d", path, id ? id : "?",
                     SYSDESC_SCHEMA_VERSION);
    }
}

static void every_entry_passes(void **state)
{
    (void)state;
    sysdesc_catalog_entry *e;
    size_t n;
    dlti_error_t err;
    if (sysdesc_catalog_list(CATALOG, &e, &n, &err) < 0)
        fail_msg("%s:%d:%d: %s", err.source, err.line, err.column, err.text);
    size_t gpus = 0, systems = 0;
    for (size_t i = 0; i < n; i++) {
        dlti_context *ctx = dlti_context_new();
        sysdesc_yaml_options opts = {0};
        opts.search_path = CATALOG;
        sysdesc_system sys;
        /* The load checks against the device schema; check_file lists every problem.
         * An architecture base (VENDOR/arch/NAME, docs/catalog.md) is no product: it is
         * checked as a description, not as a complete one. */
        bool base = strstr(e[i].name, "/arch/") != NULL;
        long problems = sysdesc_check_file(ctx, e[i].path, &opts,
                                           base ? 0 : SYSDESC_CHECK_COMPLETE, print_problem, NULL);
        if (problems != 0)
            fail_msg("%s: %ld schema problems", e[i].path, problems);
        if (sysdesc_yaml_load_file(ctx, e[i].path, &opts, &sys, &err) < 0)
            fail_msg("%s:%d:%d: %s", err.source, err.line, err.column, err.text);
        names_schema_version(e[i].path, sys.spec);
        if (base)
            ;
        else if (dlti_attr_size(sys.spec) == 1)
            gpus++;
        else
            systems++;
        /* every file names its sources */
        FILE *f = fopen(e[i].path, "r");
        char buf[8192];
        size_t len = fread(buf, 1, sizeof(buf) - 1, f);
        buf[len] = '\0';
        fclose(f);
        if (!strstr(buf, "# Sources:"))
            fail_msg("%s has no '# Sources:' comment", e[i].path);
        dlti_context_free(ctx);
    }
    assert_true(gpus >= 12);
    assert_true(systems >= 1);
    sysdesc_catalog_list_free(e, n);
}

static void find_and_match(void **state)
{
    (void)state;
    dlti_error_t err;
    char *p = sysdesc_catalog_find("nvidia/h100-sxm", CATALOG, &err);
    assert_non_null(p);
    assert_non_null(strstr(p, "systems/nvidia/h100-sxm.yaml"));
    free(p);
    assert_null(sysdesc_catalog_find("nvidia/none", CATALOG, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_null(sysdesc_catalog_find("../etc/passwd", CATALOG, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    dlti_context *ctx = dlti_context_new();
    char *name = NULL;
    const dlti_attr *dev = sysdesc_catalog_match_pci(ctx, 0x10de, 0x2331, CATALOG, &name, &err);
    assert_non_null(dev);
    assert_string_equal(name, "nvidia/h100-pcie");
    free(name);
    assert_null(sysdesc_catalog_match_pci(ctx, 0x10de, 0xffff, CATALOG, NULL, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    /* Siblings sharing an id: the id alone names none of them. */
    assert_null(sysdesc_catalog_match_pci(ctx, 0x1002, 0x744c, CATALOG, NULL, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_non_null(strstr(err.text, "amd/rx-7900-xt, amd/rx-7900-xtx"));
    /* A MIG profile shares its GPU's id and is never the answer. */
    char *mig = NULL;
    assert_non_null(sysdesc_catalog_match_pci(ctx, 0x10de, 0x2330, CATALOG, &mig, &err));
    assert_string_equal(mig, "nvidia/h100-sxm");
    free(mig);
    dlti_context_free(ctx);
}

/* The load rejects what a typo would produce, with the checker's message at
 * the key (the checker's own cases are in test_check.c). */
static void expect_rejected(const char *change, int line, const char *message)
{
    dlti_context *ctx = dlti_context_new();
    char yaml[1024];
    snprintf(yaml, sizeof(yaml), "GPU:\n  base: nvidia/l4\n%s\n", change);
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    /* a key or device type the schema does not know fails only a strict load */
    if (strncmp(message, "unknown ", 8) == 0 || strstr(message, "unknown device_type")) {
        sysdesc_system ok;
        if (sysdesc_yaml_load(ctx, yaml, strlen(yaml), "x.yaml", &opts, &ok, NULL) != 0)
            fail_msg("refused without --strict: %s", change);
        opts.flags = SYSDESC_LOAD_STRICT;
    }
    sysdesc_system sys;
    dlti_error_t err;
    if (sysdesc_yaml_load(ctx, yaml, strlen(yaml), "x.yaml", &opts, &sys, &err) == 0)
        fail_msg("accepted: %s", change);
    if (strcmp(err.text, message) != 0 || err.line != line)
        fail_msg("%s:\n got %d: %s\nwant %d: %s", change, err.line, err.text, line, message);
    dlti_context_free(ctx);
}

static void schema_rejects(void **state)
{
    (void)state;
    expect_rejected("  l2_cache_size_in_bytes: 1", 3,
                    "unknown key 'l2_cache_size_in_bytes' in 'GPU'; did you mean "
                    "'L2_cache_size_in_bytes'?");
    expect_rejected("  num_compute_units: \"58\"", 3,
                    "'GPU.num_compute_units' must be an integer (i64), not the string \"58\"; "
                    "write 58 without quotes");
    expect_rejected("  num_compute_units: -1", 3,
                    "'GPU.num_compute_units' must be at least 1, not -1");
    expect_rejected("  is_partition: no", 3,
                    "'GPU.is_partition' must be true or false, not the string \"no\"; "
                    "write false");
    expect_rejected("  subgroup_sizes: 32", 3,
                    "'GPU.subgroup_sizes' must be a non-empty list of integers (i64), not 32; "
                    "write [32]");
    expect_rejected("  peak_ops_per_second: {fp32_vector: 30}", 3,
                    "'GPU.peak_ops_per_second.fp32_vector' must be a float (f64) in ops/s, not "
                    "30; write 30.0");
    expect_rejected("  peak_ops_per_second: {fp32_vector: 30.3}", 3,
                    "'GPU.peak_ops_per_second.fp32_vector' must be in ops per second, from 1e9 "
                    "to 1e18, not 30.3 (is it in TFLOP/s? then write 30.3e12)");
    expect_rejected("  peak_ops_per_second: {fp33: 1.0e12}", 3,
                    "unknown key 'fp33' in 'GPU.peak_ops_per_second' (docs/keys.md lists the "
                    "keys; put your own under 'extra')");
    expect_rejected("  max_clock_in_mhz: 2040000000", 3,
                    "'GPU.max_clock_in_mhz' must be at most 10000, not 2040000000 (is it in Hz? "
                    "then write 2040)");
    expect_rejected("  memory_bandwidth_in_bytes_per_second: 300", 3,
                    "'GPU.memory_bandwidth_in_bytes_per_second' must be at least 1000000000, not "
                    "300 (is it in GB/s? then write 300000000000)");
    expect_rejected("  max_shared_memory_per_block_in_bytes: 1024", 3,
                    "'GPU.max_shared_memory_per_block_in_bytes' (1024) is below "
                    "'shared_memory_per_block_in_bytes' (49152): the opt-in limit is at least "
                    "the default");
    expect_rejected("  is_partition: true", 3,
                    "device 'GPU' is a partition: give 'num_partitions_per_package' too");
    expect_rejected("  device_type: TPU", 3,
                    "device 'GPU': unknown device_type 'TPU'; did you mean 'ACCEL'? (the type "
                    "of every accelerator that is no GPU)");
    expect_rejected("  device_type: FPGA", 3,
                    "device 'GPU': unknown device_type 'FPGA' (CPU, GPU or ACCEL)");
}

/* The value of `key` as the file writes it on a line "  KEY: VALUE" (the
 * entry's own text: the peer a query of the loaded entry must agree with). */
static long long written_value(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot read", path);
    char line[512], want[128];
    snprintf(want, sizeof(want), "  %s: ", key);
    long long v = -1;
    while (v < 0 && fgets(line, sizeof(line), f))
        if (strncmp(line, want, strlen(want)) == 0)
            v = strtoll(line + strlen(want), NULL, 0);
    fclose(f);
    if (v < 0)
        fail_msg("%s: no line '%s'", path, want);
    return v;
}

/* Accelerators that are no GPU (device_type ACCEL): found by name and by PCI
 * id, queried by their id, composed as ACCEL0.. like GPUs. */
static void accelerator_entries(void **state)
{
    (void)state;
    static const char *const names[] = {"intel/gaudi2", "intel/gaudi3", "aws/trainium",
                                        "aws/trainium2", "aws/inferentia2"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        dlti_context *ctx = dlti_context_new();
        dlti_error_t err;
        char *path = sysdesc_catalog_find(names[i], CATALOG, &err);
        if (!path)
            fail_msg("%s: %s", names[i], err.text);
        sysdesc_yaml_options opts = {0};
        opts.search_path = CATALOG;
        sysdesc_system sys;
        if (sysdesc_yaml_load_file(ctx, path, &opts, &sys, &err) < 0)
            fail_msg("%s:%d:%d: %s", err.source, err.line, err.column, err.text);
        /* one device, the accelerator's id, its type */
        assert_int_equal(dlti_attr_size(sys.spec), 1);
        const char *type = NULL;
        assert_int_equal(sysdesc_get_str(&sys, "ACCEL.device_type", &type), SYSDESC_FOUND);
        assert_string_equal(type, "ACCEL");
        /* a query reads what the file writes */
        int64_t units = 0, vendor = 0, id = -1;
        assert_int_equal(sysdesc_get_i64(&sys, "ACCEL.num_compute_units", &units),
                         SYSDESC_FOUND);
        assert_int_equal(units, written_value(path, "num_compute_units"));
        assert_int_equal(sysdesc_get_i64(&sys, "ACCEL.pci_vendor_id", &vendor), SYSDESC_FOUND);
        assert_int_equal(vendor, written_value(path, "pci_vendor_id"));
        const dlti_attr *ids = sysdesc_get_attr(&sys, "ACCEL.pci_device_ids");
        assert_non_null(ids);
        assert_int_equal(dlti_attr_get_int64(dlti_attr_element(ids, 0), &id, NULL), 0);
        /* the PCI id names the entry, as a GPU's does */
        char *found = NULL;
        assert_non_null(sysdesc_catalog_match_pci(ctx, (unsigned)vendor, (unsigned)id, CATALOG,
                                                  &found, &err));
        assert_string_equal(found, names[i]);
        free(found);
        free(path);
        dlti_context_free(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_entry_passes),
        cmocka_unit_test(find_and_match),
        cmocka_unit_test(schema_rejects),
        cmocka_unit_test(accelerator_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
