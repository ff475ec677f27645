/* The CPU identity keys of a microarchitecture by name (sysdesc/uarch.h),
 * through the public API only: known names give the table's flags and
 * version ranges, unknown names a NOT_FOUND error with a suggestion, and
 * the keys equal what the probe writes for a CPU it recognises as that row
 * (the XML fixtures of tests/data/xml; SRCDIR is set by meson). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysdesc/sysdesc.h"

/* The value at a path given as "gcc/fallback/flags"; NULL when absent. */
static const dlti_attr *at(dlti_context *ctx, const dlti_attr *a, const char *path)
{
    dlti_key keys[8];
    size_t n = 0;
    for (const char *s = path; *s && n < 8;) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        keys[n++] = dlti_key_string(ctx, s, len);
        s = e ? e + 1 : s + len;
    }
    return dlti_attr_query(a, keys, n, NULL);
}

static const char *str_at(dlti_context *ctx, const dlti_attr *a, const char *path)
{
    const dlti_attr *v = at(ctx, a, path);
    const char *s = NULL;
    size_t len;
    if (!v || dlti_attr_get_string(v, &s, &len, NULL) != 0)
        fail_msg("no string at %s", path);
    return s;
}

static void test_known_name(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    dlti_error_t err;
    const dlti_attr *c = sysdesc_uarch_compiler_map(ctx, "zen4", &err);
    assert_non_null(c);
    /* probe/uarch/uarch_table.c, row zen4: archspec's entries */
    assert_string_equal(str_at(ctx, c, "gcc/march"), "znver4");
    assert_string_equal(str_at(ctx, c, "gcc/mtune"), "znver4");
    assert_string_equal(str_at(ctx, c, "gcc/flags"), "-march=znver4 -mtune=znver4");
    assert_string_equal(str_at(ctx, c, "gcc/min_version"), "12.3");
    assert_null(at(ctx, c, "gcc/max_version")); /* open-ended */
    assert_string_equal(str_at(ctx, c, "gcc/fallback/march"), "znver3");
    assert_string_equal(str_at(ctx, c, "gcc/fallback/min_version"), "10.3");
    assert_string_equal(str_at(ctx, c, "gcc/fallback/max_version"), "12.2");
    assert_null(at(ctx, c, "gcc/fallback/uarch")); /* zen4's own older entry */
    assert_string_equal(str_at(ctx, c, "clang/min_version"), "16.0");
    assert_string_equal(str_at(ctx, c, "clang/fallback/max_version"), "15.9");
    assert_string_equal(str_at(ctx, c, "llvm/cpu"), "znver4");

    const dlti_attr *k = sysdesc_uarch_keys(ctx, "zen4", &err);
    assert_non_null(k);
    assert_int_equal(dlti_attr_size(k), 4);
    static const char *const order[] = {"uarch", "uarch_ancestors", "triple", "compiler"};
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(dlti_key_str(dlti_attr_entry_key(k, i), NULL), order[i]);
    assert_string_equal(str_at(ctx, k, "uarch"), "zen4");
    assert_string_equal(str_at(ctx, k, "triple"), "x86_64-unknown-linux-gnu");
    char *anc = dlti_attr_print(at(ctx, k, "uarch_ancestors"), NULL);
    assert_string_equal(anc, "[\"zen3\", \"x86_64_v4\", \"zen2\", \"zen\", \"x86_64_v3\", "
                             "\"x86_64_v2\", \"x86_64\"]");
    free(anc);
    assert_true(dlti_attr_equal(at(ctx, k, "compiler"), c));
    dlti_context_free(ctx);
}

/* A row with no parent has no uarch_ancestors; a row with no compiler entry
 * of its own gets the nearest ancestor's as the fallback, named. */
static void test_root_and_ancestor_fallback(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    dlti_error_t err;
    const dlti_attr *k = sysdesc_uarch_keys(ctx, "aarch64", &err);
    assert_non_null(k);
    assert_null(at(ctx, k, "uarch_ancestors"));
    assert_string_equal(str_at(ctx, k, "triple"), "aarch64-unknown-linux-gnu");
    assert_string_equal(str_at(ctx, k, "compiler/llvm/cpu"), "generic");

    const dlti_attr *c = sysdesc_uarch_compiler_map(ctx, "neoverse_v3", &err);
    assert_non_null(c);
    assert_null(at(ctx, c, "gcc/flags"));
    assert_string_equal(str_at(ctx, c, "gcc/fallback/uarch"), "neoverse_v2");
    assert_string_equal(str_at(ctx, c, "gcc/fallback/mcpu"), "neoverse-v2");
    assert_string_equal(str_at(ctx, c, "llvm/cpu"), "neoverse-v3");
    dlti_context_free(ctx);
}

static void expect_unknown(dlti_context *ctx, const char *name, const char *text)
{
    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    assert_null(sysdesc_uarch_compiler_map(ctx, name, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    if (!strstr(err.text, text))
        fail_msg("%s: '%s' lacks '%s'", name, err.text, text);
    memset(&err, 0, sizeof(err));
    assert_null(sysdesc_uarch_keys(ctx, name, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
}

static void test_unknown_name(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    expect_unknown(ctx, "zen6", "unknown microarchitecture 'zen6'; did you mean 'zen5'?");
    expect_unknown(ctx, "Zen4", "did you mean 'zen4'?");
    expect_unknown(ctx, "Neoverse_V2", "did you mean 'neoverse_v2'?");
    expect_unknown(ctx, "neoverse-v3ae", "did you mean 'neoverse_v3ae'");
    expect_unknown(ctx, "sapphire_rapids", "did you mean 'sapphirerapids'?");
    /* LLVM's names lead to their row, a model's name (Host.cpp) too */
    expect_unknown(ctx, "znver4", "did you mean 'zen4' (whose LLVM CPU it is)?");
    expect_unknown(ctx, "icelake-server", "did you mean 'icelake' (whose LLVM CPU it is)?");
    expect_unknown(ctx, "pentium", "unknown microarchitecture 'pentium': not one of the");
    expect_unknown(ctx, "", "unknown microarchitecture ''");

    dlti_error_t err;
    assert_null(sysdesc_uarch_keys(ctx, NULL, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_null(sysdesc_uarch_compiler_map(NULL, "zen4", &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_null(sysdesc_uarch_keys(ctx, "zen6", NULL)); /* err may be NULL */
    dlti_context_free(ctx);
}

/* Every listed name gives its keys, names are unique, the list ends. */
static void test_every_name(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    size_t n = sysdesc_uarch_count();
    assert_true(n > 50);
    assert_null(sysdesc_uarch_name(n));
    for (size_t i = 0; i < n; i++) {
        const char *name = sysdesc_uarch_name(i);
        assert_non_null(name);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(sysdesc_uarch_name(j), name);
        dlti_error_t err;
        const dlti_attr *k = sysdesc_uarch_keys(ctx, name, &err);
        if (!k)
            fail_msg("%s: %s", name, err.text);
        assert_string_equal(str_at(ctx, k, "uarch"), name);
        assert_non_null(at(ctx, k, "compiler/llvm/cpu"));
    }
    dlti_context_free(ctx);
}

/* The probe and the by-name function are one code path: for a CPU the
 * probe recognises, its CPU keys are the function's, entry for entry. */
static void test_same_as_probe(void **state)
{
    (void)state;
    static const char *const fixtures[] = {"one_socket.xml", "arm_hybrid.xml",
                                           "two_socket_numa.xml"};
    for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
        dlti_context *ctx = dlti_context_new();
        char path[4096];
        snprintf(path, sizeof(path), "%s/tests/data/xml/%s",
                 getenv("SRCDIR") ? getenv("SRCDIR") : ".", fixtures[f]);
        sysdesc_probe_options o;
        sysdesc_probe_options_init(&o);
        o.quiet = true;
        o.xml_path = path;
        dlti_error_t err;
        const dlti_attr *spec = sysdesc_probe_host(ctx, &o, &err);
        if (!spec)
            fail_msg("probe of %s: %s", fixtures[f], err.text);
        const char *uarch = str_at(ctx, spec, "CPU/uarch");
        const dlti_attr *k = sysdesc_uarch_keys(ctx, uarch, &err);
        assert_non_null(k);
        for (size_t i = 0; i < dlti_attr_size(k); i++) {
            const char *key = dlti_key_str(dlti_attr_entry_key(k, i), NULL);
            char p[64];
            snprintf(p, sizeof(p), "CPU/%s", key);
            const dlti_attr *probed = at(ctx, spec, p);
            if (!probed || !dlti_attr_equal(probed, dlti_attr_entry_value(k, i)))
                fail_msg("%s (%s): the probe's %s differs from sysdesc_uarch_keys()",
                         fixtures[f], uarch, key);
        }
        dlti_context_free(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_name), cmocka_unit_test(test_root_and_ancestor_fallback),
        cmocka_unit_test(test_unknown_name), cmocka_unit_test(test_every_name),
        cmocka_unit_test(test_same_as_probe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
