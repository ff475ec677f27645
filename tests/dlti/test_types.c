/* Types: parsing, canonical text, uniquing, accessors and limits. */
#include "test_util.h"

static const dlti_type *ty(dlti_context *ctx, const char *s)
{
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(ctx, s, strlen(s), &err);
    if (!t)
        print_error("type %s: %s\n", s, err.text);
    assert_non_null(t);
    return t;
}

static void integers(void **state)
{
    dlti_context *ctx = *state;
    const dlti_type *t = ty(ctx, "i32");
    assert_int_equal(dlti_type_get_kind(t), DLTI_TYPE_INTEGER);
    assert_int_equal(dlti_type_int_width(t), 32);
    assert_int_equal(dlti_type_int_signedness(t), DLTI_SIGNLESS);
    assert_int_equal(dlti_type_int_signedness(ty(ctx, "si8")), DLTI_SIGNED);
    assert_int_equal(dlti_type_int_signedness(ty(ctx, "ui64")), DLTI_UNSIGNED);
    assert_int_equal(dlti_type_int_width(ty(ctx, "i1")), 1);
    assert_int_equal(dlti_type_int_width(ty(ctx, "i128")), 128);
    assert_int_equal(dlti_type_int_width(ty(ctx, "i16777215")), 16777215);
    assert_int_equal(dlti_type_int_width(ty(ctx, "index")), 0);
    assert_int_equal(dlti_type_get_kind(ty(ctx, "index")), DLTI_TYPE_INDEX);
    assert_int_equal(dlti_type_float_format(t), -1);
    assert_int_equal(dlti_type_float_width(t), 0);
}

static void floats(void **state)
{
    dlti_context *ctx = *state;
    static const struct {
        const char *name;
        unsigned width;
    } f[] = {{"f16", 16}, {"bf16", 16}, {"f32", 32}, {"f64", 64}, {"f80", 80}, {"f128", 128},
             {"tf32", 19}, {"f8E4M3FN", 8}, {"f8E5M2", 8}};
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        const dlti_type *t = ty(ctx, f[i].name);
        assert_int_equal(dlti_type_get_kind(t), DLTI_TYPE_FLOAT);
        assert_int_equal(dlti_type_float_width(t), f[i].width);
        assert_true(dlti_type_float_format(t) >= 0);
        assert_string_equal(dlti_type_str(t), f[i].name);
    }
    assert_int_not_equal(dlti_type_float_format(ty(ctx, "f16")),
                         dlti_type_float_format(ty(ctx, "bf16")));
}

static void canonical_text(void **state)
{
    dlti_context *ctx = *state;
    static const char *const same[] = {
        "vector<4xf32>", "vector<[4]x8xf32>", "tensor<?x4xi32>", "tensor<*xf32>",
        "memref<4x?xf32>", "memref<*xf32>", "memref<4xf32, 1>", "complex<f64>", "complex<i8>",
        "tuple<i32, f32>", "tuple<>", "(i32) -> i64", "(i32, f32) -> (i64, i1)", "() -> ()",
        "none", "!llvm.ptr", "!llvm.ptr<270>", "!foo.bar<\"x\", 1>", "!x.y", "tensor<0xf32>"};
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
        assert_string_equal(dlti_type_str(ty(ctx, same[i])), same[i]);
    /* Spacing normalised, !llvm.ptr<0> is !llvm.ptr, single results unparenthesised. */
    assert_string_equal(dlti_type_str(ty(ctx, " vector< 4 x f32 > ")), "vector<4xf32>");
    assert_string_equal(dlti_type_str(ty(ctx, "!llvm.ptr<0>")), "!llvm.ptr");
    assert_string_equal(dlti_type_str(ty(ctx, "!llvm.ptr< 270 >")), "!llvm.ptr<270>");
    assert_string_equal(dlti_type_str(ty(ctx, "(i32) -> (i64)")), "(i32) -> i64");
    assert_string_equal(dlti_type_str(ty(ctx, "tuple<i32,f32>")), "tuple<i32, f32>");
}

static void uniquing(void **state)
{
    dlti_context *ctx = *state;
    assert_ptr_equal(ty(ctx, "i32"), ty(ctx, " i32 "));
    assert_ptr_equal(ty(ctx, "vector<4xf32>"), ty(ctx, "vector<4 x f32>"));
    assert_ptr_equal(ty(ctx, "!llvm.ptr<0>"), ty(ctx, "!llvm.ptr"));
    assert_ptr_not_equal(ty(ctx, "i32"), ty(ctx, "si32"));
    assert_ptr_not_equal(ty(ctx, "!llvm.ptr<1>"), ty(ctx, "!llvm.ptr"));
    assert_ptr_equal(dlti_type_integer(ctx, 32, DLTI_SIGNLESS), ty(ctx, "i32"));
    assert_ptr_equal(dlti_type_integer(ctx, 7, DLTI_UNSIGNED), ty(ctx, "ui7"));
    assert_ptr_equal(dlti_type_index(ctx), ty(ctx, "index"));
    assert_ptr_equal(dlti_type_f64(ctx), ty(ctx, "f64"));
    /* The type key is the type's own handle. */
    assert_ptr_equal(dlti_key_type(ctx, ty(ctx, "i8")), dlti_key_type(ctx, ty(ctx, "i8")));
    assert_ptr_equal(dlti_key_get_type(dlti_key_type(ctx, ty(ctx, "i8"))), ty(ctx, "i8"));
    assert_null(dlti_key_str(dlti_key_type(ctx, ty(ctx, "i8")), NULL));
}

static void shaped_accessors(void **state)
{
    dlti_context *ctx = *state;
    const dlti_type *v = ty(ctx, "vector<[4]x8xf32>");
    assert_int_equal(dlti_type_get_kind(v), DLTI_TYPE_VECTOR);
    assert_int_equal(dlti_type_rank(v), 2);
    assert_int_equal(dlti_type_dim(v, 0), 4);
    assert_int_equal(dlti_type_dim(v, 1), 8);
    assert_true(dlti_type_dim_scalable(v, 0));
    assert_false(dlti_type_dim_scalable(v, 1));
    assert_false(dlti_type_dim_scalable(v, 7));
    assert_int_equal(dlti_type_dim(v, 9), 0);
    assert_ptr_equal(dlti_type_element(v), ty(ctx, "f32"));
    const dlti_type *t = ty(ctx, "tensor<?x4xi32>");
    assert_int_equal(dlti_type_dim(t, 0), -1);
    assert_int_equal(dlti_type_rank(ty(ctx, "tensor<*xf32>")), -1);
    assert_int_equal(dlti_type_rank(ty(ctx, "memref<*xf32>")), -1);
    assert_int_equal(dlti_type_rank(ty(ctx, "tensor<i32>")), 0);
    assert_int_equal(dlti_type_get_kind(ty(ctx, "memref<4xf32, 1>")), DLTI_TYPE_MEMREF);
    const dlti_type *c = ty(ctx, "complex<f32>");
    assert_int_equal(dlti_type_get_kind(c), DLTI_TYPE_COMPLEX);
    assert_ptr_equal(dlti_type_element(c), ty(ctx, "f32"));
    assert_null(dlti_type_element(ty(ctx, "i32")));
    assert_int_equal(dlti_type_get_kind(ty(ctx, "tuple<i32>")), DLTI_TYPE_TUPLE);
    assert_int_equal(dlti_type_get_kind(ty(ctx, "(i32) -> i32")), DLTI_TYPE_FUNCTION);
    assert_int_equal(dlti_type_get_kind(ty(ctx, "none")), DLTI_TYPE_NONE);
    assert_int_equal(dlti_type_get_kind(ty(ctx, "!llvm.ptr<3>")), DLTI_TYPE_DIALECT);
}

static void assert_type_error(dlti_context *ctx, const char *text, const char *msg, int col)
{
    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    assert_null(dlti_type_parse(ctx, text, strlen(text), &err));
    assert_string_equal(err.text, msg);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, col);
    assert_int_equal(err.code, DLTI_ERROR_SYNTAX);
}

static void errors(void **state)
{
    dlti_context *ctx = *state;
    /* Messages and columns as mlir-opt-22 gives them for the same text. */
    assert_type_error(ctx, "i16777216", "integer bitwidth is limited to 16777215 bits", 1);
    assert_type_error(ctx, "vector<0xf32>", "vector types must have positive constant sizes but got 0", 1);
    assert_type_error(ctx, "vector<4x[0]xf32>", "vector types must have positive constant sizes but got 0", 1);
    assert_type_error(ctx, "complex<index>", "invalid element type for complex", 9);
    assert_type_error(ctx, "vector<4xmemref<i32>>",
                      "failed to verify 'elementType': VectorElementTypeInterface instance", 1);
    assert_type_error(ctx, "vector<4x", "expected non-function type", 9);
    assert_type_error(ctx, "", "expected non-function type", 1);
    assert_type_error(ctx, "i32 i32", "unexpected text after type", 5);
    assert_type_error(ctx, "foo", "expected non-function type", 1);
    assert_type_error(ctx, "!llvm.ptr<x>", "expected an address space in !llvm.ptr<...>", 11);
    dlti_error_t err;
    assert_null(dlti_type_parse(ctx, "!foo.bar<(>", 11, &err));
    assert_null(dlti_type_parse(ctx, "tensor<4xf32", 12, &err));
    assert_null(dlti_type_parse(ctx, "i32\0", 4, &err));
    /* NULL err is allowed. */
    assert_null(dlti_type_parse(ctx, "bogus", 5, NULL));
}

static void depth_limit(void **state)
{
    dlti_context *ctx = *state;
    /* 1001 nested tuples: an error, not a stack overflow. */
    size_t n = 1001;
    char *s = malloc(n * 7 + 4);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(s + k, "tuple<");
    k += (size_t)sprintf(s + k, "i32");
    for (size_t i = 0; i < n; i++)
        s[k++] = '>';
    dlti_error_t err;
    assert_null(dlti_type_parse(ctx, s, k, &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_string_equal(err.text, "nesting deeper than the limit of 1000");
    /* 999 levels are fine. */
    k = 0;
    for (size_t i = 0; i < 998; i++)
        k += (size_t)sprintf(s + k, "tuple<");
    k += (size_t)sprintf(s + k, "i32");
    for (size_t i = 0; i < 998; i++)
        s[k++] = '>';
    assert_non_null(dlti_type_parse(ctx, s, k, &err));
    free(s);
    /* A deep dialect type body is bounded too. */
    char deep[3000];
    k = (size_t)sprintf(deep, "!foo.bar<");
    for (int i = 0; i < 1200; i++)
        deep[k++] = '(';
    for (int i = 0; i < 1200; i++)
        deep[k++] = ')';
    deep[k++] = '>';
    assert_null(dlti_type_parse(ctx, deep, k, &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(integers, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(floats, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(canonical_text, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(uniquing, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(shaped_accessors, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(errors, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(depth_limit, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
