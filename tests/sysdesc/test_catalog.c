/* Every catalog file against the device key schema, and the schema check itself. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysdesc/sysdesc.h"

#define CATALOG SRCDIR "/systems"

static int print_problem(void *user, const dlti_error_t *problem)
{
    fprintf(stderr, "%s: %s\n", (const char *)user, problem->text);
    return 0;
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
        if (sysdesc_yaml_load_file(ctx, e[i].path, &opts, &sys, &err) < 0)
            fail_msg("%s:%d:%d: %s", err.source, err.line, err.column, err.text);
        for (size_t d = 0; d < dlti_attr_size(sys.spec); d++) {
            const char *id = dlti_key_str(dlti_attr_entry_key(sys.spec, d), NULL);
            char name[256];
            snprintf(name, sizeof(name), "%s:%s", e[i].name, id);
            if (sysdesc_device_check(dlti_attr_entry_value(sys.spec, d), name, &err) < 0)
                fail_msg("%s", err.text);
        }
        /* and against the device schema (sysdesc/schema.h): no problem at all */
        if (sysdesc_system_check(&sys, e[i].path, print_problem, e[i].path) != 0)
            fail_msg("%s fails sysdesc_system_check()", e[i].path);
        if (dlti_attr_size(sys.spec) == 1)
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
    dlti_context_free(ctx);
}

/* The check rejects what a typo would produce. */
static void expect_rejected(const char *change, const char *fragment)
{
    dlti_context *ctx = dlti_context_new();
    char yaml[1024];
    snprintf(yaml, sizeof(yaml), "GPU:\n  base: nvidia/l4\n%s\n", change);
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    sysdesc_system sys;
    dlti_error_t err;
    if (sysdesc_yaml_load(ctx, yaml, strlen(yaml), SRCDIR "/tests/sysdesc/x.yaml", &opts, &sys, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(sysdesc_device_check(dlti_attr_entry_value(sys.spec, 0), "GPU", &err), -1);
    if (!strstr(err.text, fragment))
        fail_msg("'%s' lacks '%s'", err.text, fragment);
    dlti_context_free(ctx);
}

static void schema_rejects(void **state)
{
    (void)state;
    expect_rejected("  l2_cache_size_in_bytes: 1", "unknown key 'l2_cache_size_in_bytes'");
    expect_rejected("  num_compute_units: \"58\"", "'num_compute_units' must be a positive integer");
    expect_rejected("  num_compute_units: !i32 58", "'num_compute_units' must be a positive integer");
    expect_rejected("  num_compute_units: -1", "positive");
    expect_rejected("  is_partition: no", "'is_partition' must be true or false");
    expect_rejected("  subgroup_sizes: 32", "non-empty array");
    expect_rejected("  model: ~", "missing required key 'model'");
    expect_rejected("  peak_ops_per_second: {fp32_vector: 30}", "must be an f64");
    expect_rejected("  peak_ops_per_second: {fp32_vector: 30.3}", "1e9..1e18");
    expect_rejected("  peak_ops_per_second: {fp33: 1.0e12}", "unknown data type 'fp33'");
    expect_rejected("  max_clock_in_mhz: 2040000000", "not in MHz");
    expect_rejected("  memory_bandwidth_in_bytes_per_second: 300", "not in bytes per second");
    expect_rejected("  max_shared_memory_per_block_in_bytes: 1024", "is below");
    expect_rejected("  is_partition: true", "num_partitions_per_package");
    expect_rejected("  device_type: TPU", "neither GPU nor CPU");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_entry_passes),
        cmocka_unit_test(find_and_match),
        cmocka_unit_test(schema_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
