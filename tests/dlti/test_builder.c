/* The builder API (MLIR's setDlti rules), container verification, scalar
 * constructors and the typed accessors with their range errors. */
#include "test_util.h"

static const dlti_type *ty(dlti_context *ctx, const char *s)
{
    const dlti_type *t = dlti_type_parse(ctx, s, strlen(s), NULL);
    assert_non_null(t);
    return t;
}

static void container_new(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    dlti_entry e[3] = {{skey(ctx, "b"), dlti_i64_new(ctx, 1)},
                       {tkey(ctx, "i32"), dlti_string_new(ctx, "x", 1)},
                       {skey(ctx, "a"), dlti_bool_new(ctx, true)}};
    const dlti_attr *m = dlti_container_new(ctx, DLTI_ATTR_MAP, e, 3, &err);
    assert_non_null(m);
    assert_attr_prints(m, "#dlti.map<\"b\" = 1 : i64, i32 = \"x\", \"a\" = true>");
    const dlti_attr *empty = dlti_container_new(ctx, DLTI_ATTR_DL_SPEC, NULL, 0, &err);
    assert_attr_prints(empty, "#dlti.dl_spec<>");
    const dlti_attr *dev = dlti_container_new(ctx, DLTI_ATTR_DEVICE_SPEC, e, 1, &err);
    dlti_entry sys = {skey(ctx, "CPU"), dev};
    assert_attr_prints(dlti_container_new(ctx, DLTI_ATTR_SYSTEM_SPEC, &sys, 1, &err),
                       "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"b\" = 1 : i64>>");
}

static void assert_new_fails(dlti_context *ctx, dlti_attr_kind kind, const dlti_entry *e, size_t n,
                             dlti_error_code code, const char *msg)
{
    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    assert_null(dlti_container_new(ctx, kind, e, n, &err));
    assert_int_equal(err.code, code);
    assert_string_equal(err.text, msg);
    assert_int_equal(err.line, 0);
}

static void container_errors(void **state)
{
    dlti_context *ctx = *state;
    const dlti_attr *one = dlti_i64_new(ctx, 1);
    dlti_entry dup[2] = {{skey(ctx, "k"), one}, {skey(ctx, "k"), one}};
    assert_new_fails(ctx, DLTI_ATTR_MAP, dup, 2, DLTI_ERROR_VERIFY, "repeated DLTI key: \"k\"");
    dlti_entry tdup[2] = {{tkey(ctx, "i8"), one}, {tkey(ctx, "i8"), one}};
    assert_new_fails(ctx, DLTI_ATTR_DL_SPEC, tdup, 2, DLTI_ERROR_VERIFY, "repeated DLTI key: i8");
    dlti_entry empty_key = {skey(ctx, ""), one};
    assert_new_fails(ctx, DLTI_ATTR_MAP, &empty_key, 1, DLTI_ERROR_VERIFY,
                     "empty string as DLTI key is not allowed");
    dlti_entry type_key = {tkey(ctx, "i32"), one};
    assert_new_fails(ctx, DLTI_ATTR_DEVICE_SPEC, &type_key, 1, DLTI_ERROR_VERIFY,
                     "invalid kind of attribute specified");
    assert_new_fails(ctx, DLTI_ATTR_DEVICE_SPEC, NULL, 0, DLTI_ERROR_VERIFY, "no DLTI entries provided");
    assert_new_fails(ctx, DLTI_ATTR_SYSTEM_SPEC, NULL, 0, DLTI_ERROR_VERIFY, "no DLTI entries provided");
    dlti_entry not_dev = {skey(ctx, "CPU"), one};
    assert_new_fails(ctx, DLTI_ATTR_SYSTEM_SPEC, &not_dev, 1, DLTI_ERROR_VERIFY,
                     "value associated with key \"CPU\" is not a DLTI device spec");
    dlti_entry devs[2];
    dlti_entry de = {skey(ctx, "a"), one};
    const dlti_attr *dev = dlti_container_new(ctx, DLTI_ATTR_DEVICE_SPEC, &de, 1, NULL);
    devs[0] = (dlti_entry){skey(ctx, "CPU"), dev};
    devs[1] = devs[0];
    assert_new_fails(ctx, DLTI_ATTR_SYSTEM_SPEC, devs, 2, DLTI_ERROR_VERIFY,
                     "repeated device ID in dlti.target_system_spec: \"CPU\"");
    dlti_entry bad_endian = {skey(ctx, "dlti.endianness"), dlti_string_new(ctx, "middle", 6)};
    assert_new_fails(ctx, DLTI_ATTR_DL_SPEC, &bad_endian, 1, DLTI_ERROR_VERIFY,
                     "'dlti.endianness' data layout entry is expected to be either 'big' or 'little'");
    assert_new_fails(ctx, DLTI_ATTR_ARRAY, NULL, 0, DLTI_ERROR_ARGUMENT,
                     "not a DLTI container kind: array");
    dlti_entry null_value = {skey(ctx, "k"), NULL};
    assert_new_fails(ctx, DLTI_ATTR_MAP, &null_value, 1, DLTI_ERROR_ARGUMENT,
                     "entry 0 has no key or no value");
    /* Duplicates among many entries (hashed check). */
    dlti_entry many[100];
    char name[16];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof(name), "k%d", i == 99 ? 3 : i);
        many[i] = (dlti_entry){skey(ctx, name), one};
    }
    assert_new_fails(ctx, DLTI_ATTR_MAP, many, 100, DLTI_ERROR_VERIFY, "repeated DLTI key: \"k3\"");
    assert_non_null(dlti_container_new(ctx, DLTI_ATTR_MAP, many, 99, NULL));
}

static void set_rules(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const dlti_attr *m = attr_of(ctx, "#dlti.map<\"a\" = 1, \"b\" = 2, \"c\" = 3>");
    /* Replacing keeps the position. */
    const dlti_attr *r = dlti_container_set(ctx, m, skey(ctx, "b"), dlti_i64_new(ctx, 20), &err);
    assert_attr_prints(r, "#dlti.map<\"a\" = 1 : i64, \"b\" = 20 : i64, \"c\" = 3 : i64>");
    /* A new key is appended. */
    r = dlti_container_set(ctx, m, tkey(ctx, "i32"), dlti_i64_new(ctx, 4), &err);
    assert_attr_prints(r, "#dlti.map<\"a\" = 1 : i64, \"b\" = 2 : i64, \"c\" = 3 : i64, i32 = 4 : i64>");
    /* NULL removes; removing a missing key changes nothing. */
    r = dlti_container_set(ctx, m, skey(ctx, "a"), NULL, &err);
    assert_attr_prints(r, "#dlti.map<\"b\" = 2 : i64, \"c\" = 3 : i64>");
    r = dlti_container_set(ctx, m, skey(ctx, "zz"), NULL, &err);
    assert_attr_prints(r, "#dlti.map<\"a\" = 1 : i64, \"b\" = 2 : i64, \"c\" = 3 : i64>");
    /* The input is unchanged (immutable). */
    assert_attr_prints(m, "#dlti.map<\"a\" = 1 : i64, \"b\" = 2 : i64, \"c\" = 3 : i64>");
    /* Set results are verified like any container. */
    const dlti_attr *dev = attr_of(ctx, "#dlti.target_device_spec<\"a\" = 1>");
    assert_null(dlti_container_set(ctx, dev, tkey(ctx, "i32"), dlti_i64_new(ctx, 1), &err));
    assert_string_equal(err.text, "invalid kind of attribute specified");
    assert_null(dlti_container_set(ctx, dev, skey(ctx, "a"), NULL, &err));
    assert_string_equal(err.text, "no DLTI entries provided");
    assert_null(dlti_container_set(ctx, m, skey(ctx, ""), dlti_i64_new(ctx, 1), &err));
    assert_string_equal(err.text, "empty string as DLTI key is not allowed");
    const dlti_attr *sys = attr_of(ctx, "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"a\" = 1>>");
    assert_null(dlti_container_set(ctx, sys, skey(ctx, "GPU"), dlti_i64_new(ctx, 1), &err));
    assert_string_equal(err.text, "value associated with key \"GPU\" is not a DLTI device spec");
    assert_non_null(dlti_container_set(ctx, sys, skey(ctx, "GPU"), dev, &err));
    assert_null(dlti_container_set(ctx, attr_of(ctx, "[1]"), skey(ctx, "a"), dev, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_null(dlti_container_set(ctx, m, NULL, dev, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    /* Big maps: set on an indexed map and look the new key up. */
    const dlti_attr *big = dlti_container_new(ctx, DLTI_ATTR_MAP, NULL, 0, NULL);
    char name[16];
    for (int i = 0; i < 30; i++) {
        snprintf(name, sizeof(name), "k%d", i);
        big = dlti_container_set(ctx, big, skey(ctx, name), dlti_i64_new(ctx, i), &err);
        assert_non_null(big);
    }
    big = dlti_container_set(ctx, big, skey(ctx, "k7"), dlti_i64_new(ctx, 700), &err);
    int64_t v;
    assert_int_equal(dlti_attr_get_int64(dlti_attr_lookup(big, skey(ctx, "k7")), &v, NULL), 0);
    assert_int_equal(v, 700);
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(big, 7), NULL), "k7");
    big = dlti_container_set(ctx, big, skey(ctx, "k7"), NULL, &err);
    assert_null(dlti_attr_lookup(big, skey(ctx, "k7")));
    assert_int_equal(dlti_attr_size(big), 29);
}

static void set_path(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const dlti_attr *dev = attr_of(ctx, "#dlti.target_device_spec<\"cache\" = #dlti.map<\"L2\" = 1>>");
    dlti_key path[3] = {skey(ctx, "cache"), skey(ctx, "L1"), skey(ctx, "size_in_bytes")};
    const dlti_attr *r = dlti_container_set_path(ctx, dev, path, 3, dlti_i64_new(ctx, 32768), &err);
    assert_attr_prints(r, "#dlti.target_device_spec<\"cache\" = #dlti.map<\"L2\" = 1 : i64, \"L1\" = "
                          "#dlti.map<\"size_in_bytes\" = 32768 : i64>>>");
    /* Replace deep, remove deep, remove below a missing level. */
    r = dlti_container_set_path(ctx, r, path, 3, dlti_i64_new(ctx, 1), &err);
    assert_attr_prints(dlti_attr_query(r, path, 3, &err), "1 : i64");
    r = dlti_container_set_path(ctx, r, path, 3, NULL, &err);
    assert_attr_prints(r, "#dlti.target_device_spec<\"cache\" = #dlti.map<\"L2\" = 1 : i64, \"L1\" = "
                          "#dlti.map<>>>");
    dlti_key missing[2] = {skey(ctx, "nope"), skey(ctx, "x")};
    assert_ptr_equal(dlti_container_set_path(ctx, r, missing, 2, NULL, &err), r);
    /* Every level must be a container. */
    dlti_key through[2] = {skey(ctx, "cache"), skey(ctx, "L2")};
    dlti_key deeper[3] = {skey(ctx, "cache"), skey(ctx, "L2"), skey(ctx, "x")};
    assert_non_null(dlti_container_set_path(ctx, r, through, 2, dlti_i64_new(ctx, 5), &err));
    assert_null(dlti_container_set_path(ctx, r, deeper, 3, dlti_i64_new(ctx, 5), &err));
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    assert_null(dlti_container_set_path(ctx, r, path, 0, dlti_i64_new(ctx, 5), &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
}

static void scalars(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "i8"), -128, &err), "-128 : i8");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "i8"), 255, &err), "-1 : i8");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "ui8"), 255, &err), "255 : ui8");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "si8"), -1, &err), "-1 : si8");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "i1"), 1, &err), "true");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "index"), -5, &err), "-5 : index");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "i128"), -2, &err), "-2 : i128");
    /* 63-bit bounds (found by fuzz_yaml: 1 << 63 overflowed an int64_t). */
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "i63"), INT64_MAX, &err), "-1 : i63");
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "i63"), -(INT64_C(1) << 62), &err),
                       "-4611686018427387904 : i63");
    assert_null(dlti_int_new(ctx, ty(ctx, "i63"), -(INT64_C(1) << 62) - 1, &err));
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "si63"), (INT64_C(1) << 62) - 1, &err),
                       "4611686018427387903 : si63");
    assert_null(dlti_int_new(ctx, ty(ctx, "si63"), INT64_C(1) << 62, &err));
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_attr_prints(dlti_int_new(ctx, ty(ctx, "ui128"), 7, &err), "7 : ui128");
    assert_null(dlti_int_new(ctx, ty(ctx, "i8"), 256, &err));
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_null(dlti_int_new(ctx, ty(ctx, "si8"), 128, &err));
    assert_null(dlti_int_new(ctx, ty(ctx, "ui8"), -1, &err));
    assert_null(dlti_int_new(ctx, ty(ctx, "ui64"), -1, &err));
    assert_null(dlti_int_new(ctx, ty(ctx, "f32"), 1, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_attr_prints(dlti_float_new(ctx, ty(ctx, "f32"), 0.1, &err), "1.000000e-01 : f32");
    assert_attr_prints(dlti_float_new(ctx, ty(ctx, "f16"), 65520.0, &err), "0x7C00 : f16");
    assert_null(dlti_float_new(ctx, ty(ctx, "i32"), 1.0, &err));
    assert_attr_prints(dlti_string_new(ctx, "a\"", 2), "\"a\\22\"");
    assert_attr_prints(dlti_unit_new(ctx), "unit");
    assert_attr_prints(dlti_type_attr_new(ctx, ty(ctx, "!llvm.ptr<1>")), "!llvm.ptr<1>");
    const dlti_attr *elems[3] = {dlti_i64_new(ctx, 1), dlti_bool_new(ctx, false), dlti_unit_new(ctx)};
    assert_attr_prints(dlti_array_new(ctx, elems, 3), "[1, false, unit]");
    assert_attr_prints(dlti_array_new(ctx, NULL, 0), "[]");
    int64_t vals[3] = {8, -1, 127};
    assert_attr_prints(dlti_dense_array_new(ctx, ty(ctx, "i8"), vals, 3, &err), "array<i8: 8, -1, 127>");
    vals[2] = 128; /* signless: either reading fits; printed as MLIR prints it */
    assert_attr_prints(dlti_dense_array_new(ctx, ty(ctx, "i8"), vals, 3, &err), "array<i8: 8, -1, -128>");
    int64_t bits[2] = {1, 0};
    assert_attr_prints(dlti_dense_array_new(ctx, ty(ctx, "i1"), bits, 2, &err), "array<i1: true, false>");
    int64_t big[1] = {255};
    assert_attr_prints(dlti_dense_array_new(ctx, ty(ctx, "ui8"), big, 1, &err), "array<ui8: 255>");
    vals[2] = 256;
    assert_null(dlti_dense_array_new(ctx, ty(ctx, "i8"), vals, 3, &err));
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_null(dlti_dense_array_new(ctx, ty(ctx, "i128"), vals, 3, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
}

static void typed_accessors(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    const char *s;
    size_t len;
    /* int64 from i32, ui32, index, si8, i128 that fits. */
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "-5 : i32"), &i, &err), 0);
    assert_int_equal(i, -5);
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "4294967295 : ui32"), &i, &err), 0);
    assert_int_equal(i, 4294967295);
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "-7 : index"), &i, &err), 0);
    assert_int_equal(i, -7);
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "255 : i8"), &i, &err), 0);
    assert_int_equal(i, -1); /* signless i8 255 is -1, as MLIR prints it */
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "-9223372036854775808 : i128"), &i, &err), 0);
    assert_int_equal(i, INT64_MIN);
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "true"), &i, &err), 0);
    assert_int_equal(i, 1);
    /* Range errors. */
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "9223372036854775808 : i128"), &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "18446744073709551615 : ui64"), &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "123456789012345678901234567890 : i128"), &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_get_uint64(attr_of(ctx, "18446744073709551615 : ui64"), &u, &err), 0);
    assert_true(u == UINT64_MAX);
    assert_int_equal(dlti_attr_get_uint64(attr_of(ctx, "18446744073709551615 : ui128"), &u, &err), 0);
    assert_true(u == UINT64_MAX);
    assert_int_equal(dlti_attr_get_uint64(attr_of(ctx, "18446744073709551616 : ui128"), &u, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_get_uint64(attr_of(ctx, "-1 : i64"), &u, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_get_uint64(attr_of(ctx, "-1 : i128"), &u, &err), -1);
    assert_int_equal(dlti_attr_get_uint64(attr_of(ctx, "255 : ui8"), &u, &err), 0);
    assert_true(u == 255);
    /* Type errors. */
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "1.5"), &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    assert_string_equal(err.text, "expected an integer value, got float");
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "\"1\""), &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    assert_int_equal(dlti_attr_get_bool(attr_of(ctx, "1"), &b, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    assert_int_equal(dlti_attr_get_string(attr_of(ctx, "1"), &s, &len, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    assert_int_equal(dlti_attr_get_double(attr_of(ctx, "\"x\""), &d, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    /* Doubles from floats of each width, and from integers. */
    assert_int_equal(dlti_attr_get_double(attr_of(ctx, "0.1 : f32"), &d, &err), 0);
    assert_true(d == (double)0.1f);
    assert_int_equal(dlti_attr_get_double(attr_of(ctx, "1.5 : f16"), &d, &err), 0);
    assert_true(d == 1.5);
    assert_int_equal(dlti_attr_get_double(attr_of(ctx, "0.1"), &d, &err), 0);
    assert_true(d == 0.1);
    assert_int_equal(dlti_attr_get_double(attr_of(ctx, "-3 : i8"), &d, &err), 0);
    assert_true(d == -3.0);
    assert_int_equal(dlti_attr_get_double(attr_of(ctx, "123456789012345678901234567890 : i128"), &d, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_get_bool(attr_of(ctx, "false"), &b, &err), 0);
    assert_false(b);
    assert_int_equal(dlti_attr_get_string(attr_of(ctx, "\"h\\C3\\A9\""), &s, &len, &err), 0);
    assert_int_equal(len, 3);
    assert_string_equal(s, "h\xC3\xA9");
    assert_int_equal(dlti_attr_get_string(attr_of(ctx, "\"x\""), &s, NULL, NULL), 0);
    /* Dense elements and dense arrays, element by element. */
    const dlti_attr *dense = attr_of(ctx, "dense<[32, 64]> : vector<2xi64>");
    assert_int_equal(dlti_attr_dense_int64(dense, 1, &i, &err), 0);
    assert_int_equal(i, 64);
    assert_int_equal(dlti_attr_dense_int64(dense, 2, &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    const dlti_attr *splat = attr_of(ctx, "dense<8> : vector<4xi64>");
    assert_int_equal(dlti_attr_dense_int64(splat, 3, &i, &err), 0);
    assert_int_equal(i, 8);
    assert_int_equal(dlti_attr_dense_int64(splat, 4, &i, &err), -1);
    const dlti_attr *arr = attr_of(ctx, "array<ui8: 255, 1>");
    assert_int_equal(dlti_attr_dense_int64(arr, 0, &i, &err), 0);
    assert_int_equal(i, 255);
    assert_int_equal(dlti_attr_size(arr), 2);
    assert_int_equal(dlti_attr_dense_int64(attr_of(ctx, "array<i8: -1>"), 0, &i, &err), 0);
    assert_int_equal(i, -1);
    assert_int_equal(dlti_attr_dense_int64(attr_of(ctx, "array<f32: 1.0>"), 0, &i, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    assert_int_equal(dlti_attr_dense_int64(attr_of(ctx, "1"), 0, &i, &err), -1);
    /* Float elements by value: an f32 array, a bf16 one, NaN written in hex,
     * a float splat; integers are not floats here. */
    const dlti_attr *fa = attr_of(ctx, "array<f32: 1.5, 0.1, 0x7FC00000>");
    assert_int_equal(dlti_attr_dense_double(fa, 0, &d, &err), 0);
    assert_true(d == 1.5);
    assert_int_equal(dlti_attr_dense_double(fa, 1, &d, &err), 0);
    assert_true(d == (double)0.1f);
    assert_int_equal(dlti_attr_dense_double(fa, 2, &d, &err), 0);
    assert_true(d != d);
    assert_int_equal(dlti_attr_dense_double(fa, 3, &d, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_RANGE);
    assert_int_equal(dlti_attr_dense_double(attr_of(ctx, "array<bf16: 3.0>"), 0, &d, &err), 0);
    assert_true(d == 3.0);
    assert_int_equal(dlti_attr_dense_double(attr_of(ctx, "dense<2.5> : vector<3xf64>"), 2, &d, &err), 0);
    assert_true(d == 2.5);
    assert_int_equal(dlti_attr_dense_double(arr, 0, &d, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_TYPE);
    /* NULL err everywhere. */
    assert_int_equal(dlti_attr_get_int64(attr_of(ctx, "1.5"), &i, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(container_new, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(container_errors, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(set_rules, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(set_path, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(scalars, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(typed_accessors, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
