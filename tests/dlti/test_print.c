/* Printing: golden strings.  Every expected string below was produced by
 * running mlir-opt-22 --allow-unregistered-dialect on the input beside it
 * (a module, since mlir-opt does not read a bare attribute). */
#include "test_util.h"

#include <stdio.h>

static const struct {
    const char *in, *out;
} goldens[] = {
    {"module attributes {x.a = 1.5 : f16, x.b = 0.1 : bf16, x.c = 1.0e-7 : f16, x.d = 0x7C00 : f16} {}",
     "module attributes {x.a = 1.500000e+00 : f16, x.b = 1.000980e-01 : bf16, x.c = 1.192090e-07 : f16, x.d = 0x7C00 : f16} {\n}\n\n"},
    {"module attributes {x.a = 3.14159 : f32, x.b = 123456.7 : f32, x.c = 16777217.0 : f32, x.d = 0x7FC00000 : f32, x.e = 0.1 : f32} {}",
     "module attributes {x.a = 3.141590e+00 : f32, x.b = 123456.703 : f32, x.c = 0x4B800000 : f32, x.d = 0x7FC00000 : f32, x.e = 1.000000e-01 : f32} {\n}\n\n"},
    {"module attributes {x.a = 1.5, x.b = 0.123456789, x.c = 1.0e-320, x.d = -0.0, x.e = 0x7FF0000000000000 : f64, x.f = 1.0e+300} {}",
     "module attributes {x.a = 1.500000e+00 : f64, x.b = 0.123456789 : f64, x.c = 9.999880e-321 : f64, x.d = -0.000000e+00 : f64, x.e = 0x7FF0000000000000 : f64, x.f = 1.000000e+300 : f64} {\n}\n\n"},
    {"module attributes {x.a = 1.0 : f80, x.b = 0.1 : f128, x.c = 1.5 : tf32, x.d = 0.5 : f8E4M3FN} {}",
     "module attributes {x.a = 1.000000e+00 : f80, x.b = 0.100000000000000005551115123125782702 : f128, x.c = 1.500000e+00 : tf32, x.d = 5.000000e-01 : f8E4M3FN} {\n}\n\n"},
    {"module attributes {x.a = \"a\\\"b\\n\\t\\\\\", x.b = \"\\00\\7F\\ff\", x.c = \"h\xC3\xA9\", x.d = \"\"} {}",
     "module attributes {x.a = \"a\\22b\\0A\\09\\\\\", x.b = \"\\00\\7F\\FF\", x.c = \"h\\C3\\A9\", x.d = \"\"} {\n}\n\n"},
    {"module attributes {x.a = 0x10, x.b = -0x10 : i32, x.c = 255 : i8, x.d = 1 : i1, x.e = 0 : i1, x.f = 18446744073709551615 : ui64, x.g = -170141183460469231731687303715884105728 : si128, x.h = 123456789012345678901234567890 : i128, x.i = 00012 : i32, x.j = 4 : index} {}",
     "module attributes {x.a = 16 : i64, x.b = -16 : i32, x.c = -1 : i8, x.d = true, x.e = false, x.f = 18446744073709551615 : ui64, x.g = -170141183460469231731687303715884105728 : si128, x.h = 123456789012345678901234567890 : i128, x.i = 12 : i32, x.j = 4 : index} {\n}\n\n"},
    {"module attributes {x.a = [1, 2 : i32, 3.0, 4.0 : f32, \"s\", unit, i32, true, [1]], x.b = [], x.c = {y = 1, x, \"a b\" = 2.0}} {}",
     "module attributes {x.a = [1, 2 : i32, 3.000000e+00, 4.000000e+00 : f32, \"s\", unit, i32, true, [1]], x.b = [], x.c = {\"a b\" = 2.000000e+00 : f64, x, y = 1 : i64}} {\n}\n\n"},
    {"module attributes {x.a = dense<[1, 1]> : vector<2xi64>, x.b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, x.c = dense<> : tensor<0xf32>, x.d = dense<[[7]]> : tensor<1x1xi8>, x.e = dense<[true, false]> : vector<2xi1>, x.f = dense<1.5> : vector<2xf16>} {}",
     "module attributes {x.a = dense<1> : vector<2xi64>, x.b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, x.c = dense<> : tensor<0xf32>, x.d = dense<7> : tensor<1x1xi8>, x.e = dense<[true, false]> : vector<2xi1>, x.f = dense<1.500000e+00> : vector<2xf16>} {\n}\n\n"},
    {"module attributes {x.a = array<i1: true, false>, x.b = array<i32>, x.c = array<f32: 1.5, 0.1>, x.d = array<ui8: 255>, x.e = array<i64: -9223372036854775808>} {}",
     "module attributes {x.a = array<i1: true, false>, x.b = array<i32>, x.c = array<f32: 1.500000e+00, 1.000000e-01>, x.d = array<ui8: 255>, x.e = array<i64: -9223372036854775808>} {\n}\n\n"},
    {"module attributes {x.a = !llvm.ptr<0>, x.b = !llvm.ptr<270>, x.c = vector<[4]x8xf32>, x.d = tensor<*xf32>, x.e = memref<4x?xf32, 1>, x.f = complex<f32>, x.g = (i32) -> (i64), x.h = tuple<i32,f32>} {}",
     "module attributes {x.a = !llvm.ptr, x.b = !llvm.ptr<270>, x.c = vector<[4]x8xf32>, x.d = tensor<*xf32>, x.e = memref<4x?xf32, 1>, x.f = complex<f32>, x.g = (i32) -> i64, x.h = tuple<i32, f32>} {\n}\n\n"},
    {"module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<\"k\", 1 : i32>, #dlti.dl_entry<i32, dense<32> : vector<2xi64>>>, x.e = #dlti.dl_entry<\"k\", 42>} {}",
     "module attributes {dlti.dl_spec = #dlti.dl_spec<\"k\" = 1 : i32, i32 = dense<32> : vector<2xi64>>, x.e = #dlti.dl_entry<\"k\", 42 : i64>} {\n}\n\n"},
    {"module attributes {dlti.target_system_spec = #dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size\" = 32768>>, \"n\" = 16 : ui32>, \"GPU\" = #dlti.target_device_spec<\"x\" = [1, \"a\"]>>} {}",
     "module attributes {dlti.target_system_spec = #dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size\" = 32768 : i64>>, \"n\" = 16 : ui32>, \"GPU\" = #dlti.target_device_spec<\"x\" = [1, \"a\"]>>} {\n}\n\n"},
    {"module attributes {dlti.map = #dlti.map<\"a\" = 1, i32 = 2, !llvm.ptr<1> = 3, \"b\" = #dlti.map<>, \"\\0A\" = #foo.bar<1 , 2>>} {}",
     "module attributes {dlti.map = #dlti.map<\"a\" = 1 : i64, i32 = 2 : i64, !llvm.ptr<1> = 3 : i64, \"b\" = #dlti.map<>, \"\\0A\" = #foo.bar<1 , 2>>} {\n}\n\n"},
    {"module @top attributes {z.b = 1, a.c = 2, dlti.map = #dlti.map<>, x.u} {\n module @\"in ner\" {\n module {}\n }\n builtin.module {}\n}",
     "module @top attributes {a.c = 2 : i64, dlti.map = #dlti.map<>, x.u, z.b = 1 : i64} {\n  module @\"in ner\" {\n    module {\n    }\n  }\n  module {\n  }\n}\n\n"},
    {"// c\nmodule {}",
     "module {\n}\n\n"},
};

static void golden_modules(void **state)
{
    dlti_context *ctx = *state;
    for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++)
        assert_prints(ctx, goldens[i].in, goldens[i].out);
}

/* Printing is idempotent: the output parses and prints the same. */
static void reprint_is_stable(void **state)
{
    dlti_context *ctx = *state;
    for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++)
        assert_prints(ctx, goldens[i].out, goldens[i].out);
}

/* Bare attributes print as MLIR prints the same value inside a module. */
static void bare_attributes(void **state)
{
    dlti_context *ctx = *state;
    assert_attr_prints(attr_of(ctx, "#dlti.map<\"a\" = 1, i32 = 0x10 : i8>"),
                       "#dlti.map<\"a\" = 1 : i64, i32 = 16 : i8>");
    assert_attr_prints(attr_of(ctx, "#dlti.dl_entry<i32, dense<[32, 32]> : vector<2xi64>>"),
                       "#dlti.dl_entry<i32, dense<32> : vector<2xi64>>");
    assert_attr_prints(attr_of(ctx, "[1 : i64, 2.0 : f64, 3 : si64]"), "[1, 2.000000e+00, 3 : si64]");
    assert_attr_prints(attr_of(ctx, "{b = [1], a = {c = 1}}"), "{a = {c = 1 : i64}, b = [1]}");
    assert_attr_prints(attr_of(ctx, "#foo.bar< 1 ,  \"x\" >"), "#foo.bar< 1 ,  \"x\" >");
    assert_attr_prints(attr_of(ctx, "\"\\5C\""), "\"\\\\\"");
    assert_prints(ctx, "#dlti.dl_spec<\"a\" = 1>", "#dlti.dl_spec<\"a\" = 1 : i64>\n");
    size_t len;
    char *p = dlti_attr_print(attr_of(ctx, "\"a\\00b\""), &len);
    assert_int_equal(len, 7);
    assert_string_equal(p, "\"a\\00b\"");
    free(p);
}

static void equality(void **state)
{
    dlti_context *ctx = *state;
    assert_true(dlti_attr_equal(attr_of(ctx, "0x10"), attr_of(ctx, "16 : i64")));
    assert_true(dlti_attr_equal(attr_of(ctx, "dense<[1, 1]> : vector<2xi8>"),
                                attr_of(ctx, "dense<1> : vector<2xi8>")));
    assert_false(dlti_attr_equal(attr_of(ctx, "1 : i32"), attr_of(ctx, "1 : i64")));
    assert_false(dlti_attr_equal(attr_of(ctx, "#dlti.map<\"a\" = 1, \"b\" = 2>"),
                                 attr_of(ctx, "#dlti.map<\"b\" = 2, \"a\" = 1>")));
    assert_true(dlti_attr_equal(NULL, NULL));
    assert_false(dlti_attr_equal(attr_of(ctx, "1"), NULL));
}

/* Equal exactly when the texts are: every pair of a varied set, parsed
 * in one context and in two (types and keys are interned per context). */
static void equality_is_printed_equality(void **state)
{
    dlti_context *ctx = *state;
    static const char *const texts[] = {
        "1", "1 : i32", "1 : ui32", "1 : si32", "-1 : i8", "255 : ui8", "0x10", "16 : i64",
        "123456789012345678901234567890 : i128", "123456789012345678901234567891 : i128",
        "1.5", "1.5 : f32", "1.5 : f16", "-0.0", "0.0", "0x7FC00000 : f32", "0x7FC00001 : f32",
        "true", "false", "unit", "\"a\"", "\"b\"", "\"a\\00b\"", "\"\"", "i32", "vector<4xf32>",
        "vector<[4]xf32>", "!llvm.ptr<270>", "[1, 2]", "[2, 1]", "[1, 2 : i32]", "[]", "[[1]]",
        "array<i32: 1, 2>", "array<i64: 1, 2>", "array<i32>", "array<f32: 1.0, 2.0>",
        "array<i1: true, false>", "dense<1> : vector<2xi8>", "dense<[1, 2]> : vector<2xi8>",
        "dense<[1, 2]> : vector<2xi16>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
        "dense<> : tensor<0xi32>", "{a = 1}", "{a = 1 : i32}", "{a}", "{a = unit}", "{b = 1}",
        "#foo.bar<1>", "#foo.bar< 1>", "#dlti.map<\"a\" = 1>", "#dlti.map<\"a\" = 1 : i32>",
        "#dlti.map<i32 = 1>", "#dlti.map<\"i32\" = 1>", "#dlti.map<>", "#dlti.dl_spec<>",
        "#dlti.dl_spec<\"a\" = 1>", "#dlti.dl_entry<\"a\", 1>", "#dlti.dl_entry<i32, 1>",
        "#dlti.map<\"a\" = #dlti.map<\"b\" = [1, \"c\"]>>",
        "#dlti.map<\"a\" = #dlti.map<\"b\" = [1, \"d\"]>>",
        "#dlti.target_device_spec<\"a\" = 1>", "#dlti.target_device_spec<\"a\" = 2>",
        "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"a\" = 1>>",
    };
    enum { N = sizeof(texts) / sizeof(texts[0]) };
    dlti_context *other = dlti_context_new();
    assert_non_null(other);
    const dlti_attr *a[N], *b[N];
    char *printed[N];
    for (size_t i = 0; i < N; i++) {
        a[i] = attr_of(ctx, texts[i]);
        b[i] = attr_of(other, texts[i]);
        printed[i] = dlti_attr_print(a[i], NULL);
        assert_non_null(printed[i]);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            bool same = strcmp(printed[i], printed[j]) == 0;
            if (dlti_attr_equal(a[i], a[j]) != same || dlti_attr_equal(a[i], b[j]) != same)
                fail_msg("equal(%s, %s) is not %d", texts[i], texts[j], same);
        }
    for (size_t i = 0; i < N; i++)
        free(printed[i]);
    dlti_context_free(other);
}

static void to_file(void **state)
{
    dlti_context *ctx = *state;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(dlti_attr_fprint(attr_of(ctx, "[1, true]"), f), 0);
    const char *text = "module @m {\n  module {}\n}";
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, text, strlen(text), "f", &err);
    assert_non_null(s);
    assert_int_equal(dlti_scope_fprint(s, f), 0);
    rewind(f);
    char buf[128] = {0};
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    assert_int_equal(n, strlen(buf));
    assert_string_equal(buf, "[1, true]module @m {\n  module {\n  }\n}\n\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(golden_modules, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(reprint_is_stable, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(bare_attributes, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(equality, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(equality_is_printed_equality, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(to_file, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
