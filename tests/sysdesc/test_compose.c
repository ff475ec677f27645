/* base: reuse (deep merge, null removal, cycles, missing bases) and composing
 * systems with rename and count. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysdesc/sysdesc.h"

#include <sys/stat.h>

#define CATALOG SRCDIR "/systems"

static char dir[] = "/tmp/sysdesc-compose-XXXXXX";

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static int load(dlti_context *ctx, const char *name, sysdesc_system *sys, dlti_error_t *err)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    return sysdesc_yaml_load_file(ctx, path, &opts, sys, err);
}

static const dlti_attr *get(const dlti_attr *a, const char *k)
{
    for (size_t i = 0; i < dlti_attr_size(a); i++) {
        const char *s = dlti_key_str(dlti_attr_entry_key(a, i), NULL);
        if (s && strcmp(s, k) == 0)
            return dlti_attr_entry_value(a, i);
    }
    return NULL;
}

static int64_t get_int(const dlti_attr *a, const char *k)
{
    int64_t v = -1;
    const dlti_attr *x = get(a, k);
    if (x)
        dlti_attr_get_int64(x, &v, NULL);
    return v;
}

static void base_deep_merge(void **state)
{
    (void)state;
    write_file("site.yaml",
               "GPU0:\n"
               "  base: nvidia/h100-pcie\n"
               "  memory_size_in_bytes: 1000\n"
               "  tdp_in_watts: ~\n"
               "  peak_ops_per_second: {fp64_vector: 1.0e12}\n"
               "  extra: {rack: 7}\n");
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    if (load(ctx, "site.yaml", &sys, &err) < 0)
        fail_msg("%s:%d:%d: %s", err.source, err.line, err.column, err.text);
    const dlti_attr *gpu = dlti_attr_entry_value(sys.spec, 0);
    assert_int_equal(get_int(gpu, "memory_size_in_bytes"), 1000);      /* override */
    assert_int_equal(get_int(gpu, "num_compute_units"), 114);          /* from h100-pcie */
    assert_int_equal(get_int(gpu, "max_threads_per_compute_unit"), 2048); /* from h100-sxm */
    assert_null(get(gpu, "tdp_in_watts"));                             /* removed */
    assert_null(get(gpu, "base"));
    const dlti_attr *peak = get(gpu, "peak_ops_per_second");
    double v;
    dlti_attr_get_double(get(peak, "fp64_vector"), &v, NULL);
    assert_true(v == 1.0e12);
    dlti_attr_get_double(get(peak, "fp8_matrix"), &v, NULL);            /* deep: kept */
    assert_true(v == 1513.0e12);
    assert_null(get(peak, "fp16_vector"));                              /* removed in h100-pcie */
    /* key order: inherited keys first, in the base's order; new keys appended */
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(gpu, 0), NULL), "device_type");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(gpu, dlti_attr_size(gpu) - 1), NULL), "extra");
    dlti_context_free(ctx);
}

static void base_errors(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    write_file("a.yaml", "A:\n  base: ./b.yaml\n  x: 1\n");
    write_file("b.yaml", "B:\n  x: 2\n  base: a.yaml\n");
    assert_int_equal(load(ctx, "a.yaml", &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_non_null(strstr(err.text, "cycle"));
    assert_non_null(strstr(err.source, "b.yaml"));
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 9);
    write_file("self.yaml", "S:\n  base: self.yaml\n");
    assert_int_equal(load(ctx, "self.yaml", &sys, &err), -1);
    assert_non_null(strstr(err.text, "cycle"));
    write_file("multi.yaml", "M:\n  base: nodes/dgx-h100\n");
    assert_int_equal(load(ctx, "multi.yaml", &sys, &err), -1);
    assert_non_null(strstr(err.text, "system of 9 devices"));
    write_file("missing.yaml", "M:\n  x: 1\n  base: amd/mi999\n");
    assert_int_equal(load(ctx, "missing.yaml", &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_int_equal(err.line, 3);
    /* Every base that cannot be used is located at its
     * base: line in the file that names it, and the code says why: a YAML
     * null, number or list is bad input (2), a file that is not there or is
     * a directory the environment's (3), a catalog name that is not there
     * not found (1, above) */
    static const struct { const char *value, *text; dlti_error_code code; } bad[] = {
        {"~", "not null", DLTI_ERROR_SYNTAX},
        {"null", "not null", DLTI_ERROR_SYNTAX},
        {"42", "not an integer", DLTI_ERROR_SYNTAX},
        {"true", "not a boolean", DLTI_ERROR_SYNTAX},
        {"[a]", "not a list", DLTI_ERROR_SYNTAX},
        {"./no-such-file.yaml", "no such file", DLTI_ERROR_IO},
        {"./dir.yaml", "Is a directory", DLTI_ERROR_IO},
        /* what base: may name: a catalog name or a .yaml/.yml file, nothing
         * else is opened (docs/yaml.md) */
        {"/", "not a YAML description", DLTI_ERROR_VERIFY},
        {"/etc/passwd", "not a YAML description", DLTI_ERROR_VERIFY},
        {"../../../../etc/passwd", "not a YAML description", DLTI_ERROR_VERIFY},
    };
    char sub[256];
    snprintf(sub, sizeof(sub), "%s/dir.yaml", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[128];
        snprintf(text, sizeof(text), "M:\n  x: 1\n  base: %s\n", bad[i].value);
        write_file("badvalue.yaml", text);
        assert_int_equal(load(ctx, "badvalue.yaml", &sys, &err), -1);
        if (err.code != bad[i].code || !strstr(err.text, bad[i].text) || err.line != 3 ||
            err.column != 9 || !strstr(err.source, "badvalue.yaml"))
            fail_msg("base: %s gave %s:%d:%d code %d '%s'", bad[i].value, err.source, err.line,
                     err.column, err.code, err.text);
    }
    write_file("badbase.yaml", "M:\n  base: ./broken.yaml\n");
    write_file("broken.yaml", "B:\n  x: [1\n");
    assert_int_equal(load(ctx, "badbase.yaml", &sys, &err), -1);
    assert_non_null(strstr(err.source, "broken.yaml"));   /* the error is where it is */
    dlti_context_free(ctx);
}

static void dgx_by_reference(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system dgx, h100;
    dlti_error_t err;
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    assert_int_equal(sysdesc_yaml_load_file(ctx, CATALOG "/nodes/dgx-h100.yaml", &opts, &dgx, &err), 0);
    assert_int_equal(sysdesc_yaml_load_file(ctx, CATALOG "/nvidia/h100-sxm.yaml", &opts, &h100, &err), 0);
    assert_int_equal(dlti_attr_size(dgx.spec), 9);
    for (size_t i = 1; i < 9; i++)
        assert_true(dlti_attr_equal(dlti_attr_entry_value(dgx.spec, i), dlti_attr_entry_value(h100.spec, 0)));
    dlti_context_free(ctx);
}

static void compose_ids(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system h100, a100, dgx, out;
    dlti_error_t err;
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    assert_int_equal(sysdesc_system_load(ctx, "nvidia/h100-sxm", &opts, &h100, &err), 0);
    assert_int_equal(sysdesc_system_load(ctx, "nvidia/a100-sxm-80gb", &opts, &a100, &err), 0);
    assert_int_equal(sysdesc_system_load(ctx, "nodes/dgx-h100", &opts, &dgx, &err), 0);

    sysdesc_compose *c = sysdesc_compose_new(ctx);
    assert_int_equal(sysdesc_compose_add(c, &h100, NULL, 8, &err), 0);   /* GPU0..GPU7 */
    assert_int_equal(sysdesc_compose_add(c, &a100, NULL, 0, &err), 0);   /* GPU */
    assert_int_equal(sysdesc_compose_add(c, &a100, NULL, 0, &err), -1);  /* GPU again */
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_non_null(strstr(err.text, "'GPU' is used twice"));
    assert_int_equal(sysdesc_compose_add(c, &a100, "ACC", 0, &err), 0);  /* renamed */
    assert_int_equal(sysdesc_compose_add(c, &dgx, "node1", 0, &err), 0); /* node1.CPU ... */
    assert_int_equal(sysdesc_compose_add(c, &dgx, NULL, 2, &err), -1);
    assert_int_equal(sysdesc_compose_add(c, &dgx, NULL, 1, &err), -1); /* a count numbers: one device only */
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_int_equal(sysdesc_compose_finish(c, &out, &err), 0);
    assert_int_equal(dlti_attr_size(out.spec), 8 + 1 + 1 + 9);
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 0), NULL), "GPU0");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 7), NULL), "GPU7");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 8), NULL), "GPU");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 9), NULL), "ACC");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 10), NULL), "node1.CPU");
    assert_true(dlti_attr_equal(dlti_attr_entry_value(out.spec, 3), dlti_attr_entry_value(h100.spec, 0)));
    sysdesc_compose_free(c);

    /* compose output reads back identically through YAML */
    char *yaml = sysdesc_yaml_print(&out, NULL);
    sysdesc_system back;
    assert_int_equal(sysdesc_yaml_load(ctx, yaml, strlen(yaml), "c.yaml", &opts, &back, &err), 0);
    assert_true(dlti_attr_equal(out.spec, back.spec));
    free(yaml);

    c = sysdesc_compose_new(ctx);
    assert_int_equal(sysdesc_compose_finish(c, &out, &err), -1);
    sysdesc_compose_free(c);
    dlti_context_free(ctx);
}

static void fill_from_catalog(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    dlti_error_t err;
    const char *probed = "#dlti.target_device_spec<\"model\" = \"probed\", \"pci_device_id\" = 9008 : i64, "
                         "\"peak_ops_per_second\" = #dlti.map<\"fp32_vector\" = 1.0e12>>";
    const dlti_attr *dev = dlti_attr_parse(ctx, probed, strlen(probed), "p", &err);
    const dlti_attr *cat = sysdesc_catalog_match_pci(ctx, 0x10de, 0x2330, CATALOG, NULL, &err);
    assert_non_null(cat);
    const dlti_attr *filled = sysdesc_device_fill(ctx, dev, cat, &err);
    assert_non_null(filled);
    const char *model;
    dlti_attr_get_string(get(filled, "model"), &model, NULL, NULL);
    assert_string_equal(model, "probed");                       /* probe wins */
    assert_int_equal(get_int(filled, "num_compute_units"), 132); /* catalog fills */
    double v;
    dlti_attr_get_double(get(get(filled, "peak_ops_per_second"), "fp32_vector"), &v, NULL);
    assert_true(v == 1.0e12);
    assert_non_null(get(get(filled, "peak_ops_per_second"), "fp8_matrix"));
    dlti_context_free(ctx);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A count always numbers: GPU=ITEM:1 gives GPU0, as `compose --help` says. */
static void count_one_numbers(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system h100, out;
    dlti_error_t err;
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    assert_int_equal(sysdesc_system_load(ctx, "nvidia/h100-sxm", &opts, &h100, &err), 0);
    sysdesc_compose *c = sysdesc_compose_new(ctx);
    assert_int_equal(sysdesc_compose_add(c, &h100, "GPU", 1, &err), 0);
    assert_int_equal(sysdesc_compose_add(c, &h100, "ACC", 0, &err), 0);
    assert_int_equal(sysdesc_compose_finish(c, &out, &err), 0);
    assert_int_equal(dlti_attr_size(out.spec), 2);
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 0), NULL), "GPU0");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 1), NULL), "ACC");
    sysdesc_compose_free(c);
    dlti_context_free(ctx);
}

/* A composition is bounded: 100,000 devices at most, whatever the items'
 * counts; every id is still checked against all before it (the hash of the
 * ids grows as they come: a duplicate of the first is found after many). */
static void compose_bounded(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system h100, out;
    dlti_error_t err;
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    assert_int_equal(sysdesc_system_load(ctx, "nvidia/h100-sxm", &opts, &h100, &err), 0);
    sysdesc_compose *c = sysdesc_compose_new(ctx);
    assert_int_equal(sysdesc_compose_add(c, &h100, "A", 60000, &err), 0);
    assert_int_equal(sysdesc_compose_add(c, &h100, "A1", 0, &err), -1); /* A1 of the 60000 */
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_non_null(strstr(err.text, "'A1' is used twice"));
    assert_int_equal(sysdesc_compose_add(c, &h100, "B", 40000, &err), 0);
    assert_int_equal(sysdesc_compose_add(c, &h100, "C", 1, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_non_null(strstr(err.text, "at most 100000 devices"));
    assert_int_equal(sysdesc_compose_finish(c, &out, &err), 0);
    assert_int_equal(dlti_attr_size(out.spec), 100000);
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(out.spec, 99999), NULL), "B39999");
    sysdesc_compose_free(c);
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base_deep_merge), cmocka_unit_test(base_errors),
        cmocka_unit_test(dgx_by_reference), cmocka_unit_test(compose_ids),
        cmocka_unit_test(count_one_numbers), cmocka_unit_test(compose_bounded),
        cmocka_unit_test(fill_from_catalog),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
