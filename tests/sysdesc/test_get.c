#define _POSIX_C_SOURCE 200809L /* mkstemp, strtok_r */
/* The typed getters (sysdesc/get.h), the host layout of a system
 * (sysdesc_system_host_layout) and the roofline's kernel points
 * (sysdesc_roofline_add_point*): each answer held to a peer read through
 * the lower-level API on the same spec (dlti_attr_query_strings and the
 * dlti_attr_get_* readers; dlti_target_dl_find and dlti_llvm_dl_import;
 * the ceilings sysdesc_roofline_collect found). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysdesc/sysdesc.h"

static const char spec_yaml[] =
    "CPU:\n"
    "  device_type: CPU\n"
    "  vendor: GenuineIntel\n"
    "  num_cores: 8\n"
    "  smt: !i32 2\n"
    "  lanes: !ui8 16\n"
    "  big: !i128 170141183460469231731687303715884105727\n"
    "  clock_in_hz: 3.5e9\n"
    "  half: !f16 0.5\n"
    "  has_avx512: true\n"
    "  odd: \"a\\0b\"\n"
    "  triple: aarch64-unknown-linux-gnu\n"
    "  sizes: [32, 64]\n"
    "  dims: !mlir 'array<i32: 1024, 768>'\n"
    "  ratios: !mlir 'array<f32: 0.5>'\n"
    "  cache:\n"
    "    L1:\n"
    "      size_in_bytes: 49152\n"
    "  source:\n"
    "    measured.levels: sysdesc measure\n"
    "    measured: other\n"
    "GPU0:\n"
    "  device_type: GPU\n"
    "  num_compute_units: 132\n";

static sysdesc_system load(dlti_context *ctx, const char *yaml)
{
    sysdesc_yaml_options o = {0};
    o.flags = SYSDESC_LOAD_NO_CHECK;
    sysdesc_system sys;
    dlti_error_t err;
    int rc = sysdesc_system_parse(ctx, yaml, strlen(yaml), "test.yaml", &o, &sys, &err);
    if (rc != 0)
        fail_msg("load: %s", err.text);
    return sys;
}

/* The peer: the path split at every '.', asked with the C string query. */
static const dlti_attr *peer(const sysdesc_system *sys, const char *path)
{
    char buf[256];
    const char *keys[16];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", path);
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k && n < 16;
         k = strtok_r(NULL, ".", &save))
        keys[n++] = k;
    return dlti_attr_query_strings(sys->spec, keys, n, NULL);
}

static void test_integers(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load(ctx, spec_yaml);
    static const char *const paths[] = {"CPU.num_cores", "CPU.smt", "CPU.lanes",
                                        "CPU.cache.L1.size_in_bytes", "GPU0.num_compute_units"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        int64_t got = -1, want = -2;
        assert_int_equal(sysdesc_get_i64(&sys, paths[i], &got), SYSDESC_FOUND);
        assert_int_equal(dlti_attr_get_int64(peer(&sys, paths[i]), &want, NULL), 0);
        assert_int_equal(got, want);
    }
    /* an integer of any width that does not fit int64_t, a float, a string */
    int64_t v = 42;
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.big", &v), SYSDESC_WRONG_TYPE);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.clock_in_hz", &v), SYSDESC_WRONG_TYPE);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.vendor", &v), SYSDESC_WRONG_TYPE);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.cache", &v), SYSDESC_WRONG_TYPE);
    /* absent, and `out` left as it was: the default idiom */
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.cache.L3.size_in_bytes", &v), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_i64(&sys, "GPU7.num_compute_units", &v), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.num_cores.x", &v), SYSDESC_ABSENT);
    assert_int_equal(v, 42);
    /* malformed paths and arguments: absent, never a crash */
    static const char *const bad[] = {"", ".", "CPU.", ".CPU", "CPU..num_cores", "CPU num_cores"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(sysdesc_get_i64(&sys, bad[i], &v), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_i64(NULL, "CPU.num_cores", &v), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_i64(&sys, NULL, &v), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.num_cores", NULL), SYSDESC_ABSENT);
    assert_int_equal(v, 42);
    dlti_context_free(ctx);
}

static void test_other_types(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load(ctx, spec_yaml);
    double d = 0, want = 1;
    assert_int_equal(sysdesc_get_f64(&sys, "CPU.clock_in_hz", &d), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_get_double(peer(&sys, "CPU.clock_in_hz"), &want, NULL), 0);
    assert_true(d == want);
    assert_int_equal(sysdesc_get_f64(&sys, "CPU.half", &d), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_get_double(peer(&sys, "CPU.half"), &want, NULL), 0);
    assert_true(d == want);
    /* an integer is a number too */
    assert_int_equal(sysdesc_get_f64(&sys, "CPU.num_cores", &d), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_get_double(peer(&sys, "CPU.num_cores"), &want, NULL), 0);
    assert_true(d == want);
    assert_int_equal(sysdesc_get_f64(&sys, "CPU.has_avx512", &d), SYSDESC_WRONG_TYPE);

    bool b = false, bwant = false;
    assert_int_equal(sysdesc_get_bool(&sys, "CPU.has_avx512", &b), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_get_bool(peer(&sys, "CPU.has_avx512"), &bwant, NULL), 0);
    assert_true(b == bwant);
    assert_int_equal(sysdesc_get_bool(&sys, "CPU.num_cores", &b), SYSDESC_WRONG_TYPE);

    const char *s = NULL, *swant = NULL;
    assert_int_equal(sysdesc_get_str(&sys, "CPU.vendor", &s), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_get_string(peer(&sys, "CPU.vendor"), &swant, NULL, NULL), 0);
    assert_string_equal(s, swant);
    /* a string holding NUL is no C string */
    assert_int_equal(sysdesc_get_str(&sys, "CPU.odd", &s), SYSDESC_WRONG_TYPE);
    assert_int_equal(sysdesc_get_str(&sys, "CPU.num_cores", &s), SYSDESC_WRONG_TYPE);
    assert_int_equal(sysdesc_get_str(&sys, "CPU.nothing", &s), SYSDESC_ABSENT);

    /* any value, and the rule from an attribute */
    assert_ptr_equal(sysdesc_get_attr(&sys, "CPU.cache"), peer(&sys, "CPU.cache"));
    const dlti_attr *cache = sysdesc_get_attr(&sys, "CPU.cache");
    assert_ptr_equal(sysdesc_attr_at(cache, "L1"), peer(&sys, "CPU.cache.L1"));
    assert_null(sysdesc_attr_at(peer(&sys, "CPU.vendor"), "x"));
    assert_string_equal(sysdesc_get_status_name(SYSDESC_WRONG_TYPE), "wrong type");

    /* elements: an array's by its attribute, a dense array's by its values */
    int64_t i = 0, iwant = -1;
    const dlti_attr *sizes = peer(&sys, "CPU.sizes");
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.sizes.1", &i), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_get_int64(dlti_attr_element(sizes, 1), &iwant, NULL), 0);
    assert_int_equal(i, iwant);
    assert_ptr_equal(sysdesc_get_attr(&sys, "CPU.sizes.0"), dlti_attr_element(sizes, 0));
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.sizes.2", &i), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.sizes.x", &i), SYSDESC_ABSENT);
    const dlti_attr *dims = peer(&sys, "CPU.dims");
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.dims.1", &i), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_dense_int64(dims, 1, &iwant, NULL), 0);
    assert_int_equal(i, iwant);
    assert_int_equal(sysdesc_get_f64(&sys, "CPU.dims.0", &d), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_dense_int64(dims, 0, &iwant, NULL), 0);
    assert_true(d == (double)iwant);
    assert_null(sysdesc_get_attr(&sys, "CPU.dims.0")); /* no attribute of its own */
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.dims.2", &i), SYSDESC_ABSENT);
    assert_int_equal(sysdesc_get_str(&sys, "CPU.dims.0", &s), SYSDESC_WRONG_TYPE);
    assert_int_equal(sysdesc_get_f64(&sys, "CPU.ratios.0", &d), SYSDESC_FOUND);
    assert_int_equal(dlti_attr_dense_double(peer(&sys, "CPU.ratios"), 0, &want, NULL), 0);
    assert_true(d == want);
    assert_int_equal(sysdesc_get_i64(&sys, "CPU.ratios.0", &i), SYSDESC_WRONG_TYPE);
    dlti_context_free(ctx);
}

/* Keys that hold a dot: shortest first, a longer key when the rest is not
 * under the shorter one; a cluster's per-node id through its class. */
static void test_dotted_keys(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load(ctx, spec_yaml);
    const char *s = NULL;
    const char *keys[] = {"CPU", "source", "measured.levels"};
    const char *want = NULL;
    assert_int_equal(dlti_attr_get_string(dlti_attr_query_strings(sys.spec, keys, 3, NULL), &want,
                                          NULL, NULL), 0);
    assert_int_equal(sysdesc_get_str(&sys, "CPU.source.measured.levels", &s), SYSDESC_FOUND);
    assert_string_equal(s, want);
    keys[2] = "measured";
    assert_int_equal(dlti_attr_get_string(dlti_attr_query_strings(sys.spec, keys, 3, NULL), &want,
                                          NULL, NULL), 0);
    assert_int_equal(sysdesc_get_str(&sys, "CPU.source.measured", &s), SYSDESC_FOUND);
    assert_string_equal(s, want);

    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/query/cluster.mlir", SRCDIR);
    sysdesc_yaml_options o = {0};
    o.flags = SYSDESC_LOAD_NO_CHECK;
    sysdesc_system cl;
    assert_int_equal(sysdesc_system_load(ctx, path, &o, &cl, NULL), 0);
    const char *node_keys[] = {"cn2.site.org.GPU0", "num_compute_units"};
    int64_t got = 0, expect = -1;
    assert_int_equal(dlti_attr_get_int64(dlti_attr_query_strings(cl.spec, node_keys, 2, NULL),
                                         &expect, NULL), 0);
    assert_int_equal(sysdesc_get_i64(&cl, "cn2.site.org.GPU0.num_compute_units", &got),
                     SYSDESC_FOUND);
    assert_int_equal(got, expect);

    /* a dl_spec's dotted string keys */
    assert_int_equal(sysdesc_system_host_layout(ctx, &sys, NULL, NULL), 0);
    const dlti_attr *e = sysdesc_attr_at(sys.dl_spec, "dlti.endianness");
    assert_non_null(e);
    assert_ptr_equal(e, dlti_attr_lookup_string(sys.dl_spec, "dlti.endianness", 15));
    dlti_context_free(ctx);
}

static void test_host_layout(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load(ctx, spec_yaml);
    assert_null(sys.dl_spec);
    assert_int_equal(sysdesc_system_host_layout(ctx, &sys, NULL, NULL), 0);
    const char *triple = NULL;
    assert_int_equal(sysdesc_get_str(&sys, "CPU.triple", &triple), SYSDESC_FOUND);
    assert_string_equal(sys.data_layout, triple);
    const dlti_target_dl *row = dlti_target_dl_find(triple, NULL);
    assert_non_null(row);
    const dlti_attr *want = dlti_llvm_dl_import(ctx, row->layout, strlen(row->layout), NULL);
    assert_true(dlti_attr_equal(sys.dl_spec, want));
    /* what a YAML `data_layout: TRIPLE` loads to */
    char yaml[128];
    snprintf(yaml, sizeof yaml, "data_layout: %s\nX:\n  a: 1\n", triple);
    sysdesc_system from_yaml = load(ctx, yaml);
    assert_true(dlti_attr_equal(sys.dl_spec, from_yaml.dl_spec));

    /* no triple, a triple the table lacks: nothing set, 1 */
    sysdesc_system none = load(ctx, "GPU0:\n  device_type: GPU\n");
    assert_int_equal(sysdesc_system_host_layout(ctx, &none, NULL, NULL), 1);
    assert_null(none.dl_spec);
    sysdesc_system odd = load(ctx, "CPU:\n  triple: frob-unknown-plan9\n");
    assert_int_equal(sysdesc_system_host_layout(ctx, &odd, NULL, NULL), 1);
    assert_null(odd.dl_spec);
    assert_null(odd.data_layout);
    assert_int_equal(sysdesc_system_host_layout(ctx, &sys, "GPU0", NULL), 1);
    dlti_error_t err;
    sysdesc_system empty = {0};
    assert_int_equal(sysdesc_system_host_layout(ctx, &empty, NULL, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    dlti_context_free(ctx);
}

static const char roof_yaml[] =
    "GPU:\n"
    "  device_type: GPU\n"
    "  memory_bandwidth_in_bytes_per_second: 2.0e12\n"
    "  peak_ops_per_second:\n"
    "    fp64_vector: 5.0e13\n"
    "    fp32_vector: 1.0e14\n";

static void collect(dlti_context *ctx, sysdesc_roofline *r)
{
    sysdesc_system sys = load(ctx, roof_yaml);
    dlti_error_t err;
    if (sysdesc_roofline_collect(ctx, sysdesc_get_attr(&sys, "GPU"), "GPU", NULL, r, &err) != 0)
        fail_msg("collect: %s", err.text);
}

/* The roof at an intensity from the ceilings the roofline holds. */
static double roof_at(const sysdesc_roofline *r, double intensity, bool *memory_bound)
{
    double compute = 0, bandwidth = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->c[i].compute && r->c[i].value > compute)
            compute = r->c[i].value;
        else if (!r->c[i].compute && r->c[i].value > bandwidth)
            bandwidth = r->c[i].value;
    *memory_bound = bandwidth * intensity < compute;
    return *memory_bound ? bandwidth * intensity : compute;
}

static void test_roofline_points(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_roofline *r = malloc(sizeof *r);
    collect(ctx, r);
    assert_int_equal(r->npoints, 0);
    dlti_error_t err;
    static const double intensities[] = {0.25, 10, 1000};
    for (size_t i = 0; i < 3; i++) {
        bool memory_bound;
        double roof = roof_at(r, intensities[i], &memory_bound);
        assert_int_equal(sysdesc_roofline_add_point(r, "k", intensities[i], roof / 2, &err), 0);
        const sysdesc_roofline_point *p = &r->p[r->npoints - 1];
        assert_true(p->roof == roof);
        assert_true(p->fraction == 0.5);
        assert_int_equal(r->c[p->roof_ceiling].compute, !memory_bound);
        assert_true(p->above >= 0);
        const sysdesc_roofline_ceiling *up = &r->c[p->above];
        double at = up->compute ? up->value : up->value * p->intensity;
        assert_true(at >= p->rate);
        for (size_t c = 0; c < r->n; c++) { /* no ceiling lower and still above */
            double other = r->c[c].compute ? r->c[c].value : r->c[c].value * p->intensity;
            assert_false(other >= p->rate && other < at);
        }
    }
    /* above every ceiling */
    assert_int_equal(sysdesc_roofline_add_point(r, "fast", 10, 1e15, &err), 0);
    assert_int_equal(r->p[r->npoints - 1].above, -1);
    assert_true(r->p[r->npoints - 1].fraction > 1);

    /* text: SI prefixes, ',' or ':', a name holding either */
    size_t before = r->npoints;
    assert_int_equal(sysdesc_roofline_add_point_text(r, "a:b:12.5:850G", &err), 0);
    assert_string_equal(r->p[before].name, "a:b");
    assert_true(r->p[before].intensity == 12.5 && r->p[before].rate == 850e9);
    assert_int_equal(sysdesc_roofline_add_point_text(r, "gemm, 64,1.5T", &err), 0);
    assert_string_equal(r->p[before + 1].name, "gemm");
    assert_true(r->p[before + 1].rate == 1.5e12);
    static const char *const bad[] = {"gemm", "gemm:1", "gemm:x:1G", "gemm:1:1Q", ":1:1G",
                                      "gemm:0:1G", "gemm:1:0.5", "gemm:1e9:1G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(sysdesc_roofline_add_point_text(r, bad[i], &err), -1);
        assert_true(err.code == DLTI_ERROR_SYNTAX || err.code == DLTI_ERROR_ARGUMENT);
    }
    assert_int_equal(r->npoints, before + 2);
    /* the limit */
    while (r->npoints < SYSDESC_ROOFLINE_MAX_POINTS)
        assert_int_equal(sysdesc_roofline_add_point(r, "k", 1, 1e9, &err), 0);
    assert_int_equal(sysdesc_roofline_add_point(r, "k", 1, 1e9, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    free(r);
    dlti_context_free(ctx);
}

static void test_roofline_points_file(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_roofline *r = malloc(sizeof *r);
    collect(ctx, r);
    char path[] = "/tmp/sysdesc-points.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[] = "name,intensity,rate\n# a comment\n\n"
                               "triad,0.083,150G\r\ngemm:40:20T\n  bad line,1,xx\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    dlti_error_t err;
    assert_int_equal(sysdesc_roofline_add_points_file(r, path, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_SYNTAX);
    assert_int_equal(err.line, 6);
    assert_int_equal(err.column, (int)strlen("  bad line,1,") + 1);
    assert_string_equal(err.source, path);
    assert_int_equal(r->npoints, 2); /* those before the bad line */
    assert_string_equal(r->p[0].name, "triad");
    assert_string_equal(r->p[1].name, "gemm");
    assert_true(r->p[1].rate == 20e12);
    unlink(path);
    assert_int_equal(sysdesc_roofline_add_points_file(r, path, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_IO);
    free(r);
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_other_types),
        cmocka_unit_test(test_dotted_keys),
        cmocka_unit_test(test_host_layout),
        cmocka_unit_test(test_roofline_points),
        cmocka_unit_test(test_roofline_points_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
