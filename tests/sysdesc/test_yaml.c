/* The YAML loader: every tag and YAML corner, every error with its position,
 * limits, and exact round trips YAML -> MLIR -> YAML. */
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

/* The format's rules only: the device schema has its own tests
 * (test_check.c), so the loads here take what is written. */
static int raw_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                    const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err)
{
    sysdesc_yaml_options raw = {0};
    if (opts)
        raw = *opts;
    raw.flags |= SYSDESC_LOAD_NO_CHECK;
    return sysdesc_yaml_load(ctx, text, len, source, &raw, out, err);
}
#define sysdesc_yaml_load raw_load

/* Loads `yaml`, prints the system spec and compares with `mlir`. */
static void expect_spec(const char *yaml, const char *mlir)
{
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    int rc = sysdesc_yaml_load(ctx, yaml, strlen(yaml), "t.yaml", NULL, &sys, &err);
    if (rc != 0)
        fail_msg("load failed: %d:%d: %s\n%s", err.line, err.column, err.text, yaml);
    char *text = dlti_attr_print(sys.spec, NULL);
    if (strcmp(text, mlir) != 0)
        fail_msg("got:  %s\nwant: %s", text, mlir);
    free(text);
    dlti_context_free(ctx);
}

/* The value of key "k" of device "D" printed. */
static void value_is(const char *yaml_value, const char *mlir_value)
{
    char yaml[512], mlir[512];
    snprintf(yaml, sizeof(yaml), "D:\n  k: %s\n", yaml_value);
    snprintf(mlir, sizeof(mlir),
             "#dlti.target_system_spec<\"D\" = #dlti.target_device_spec<\"k\" = %s>>", mlir_value);
    expect_spec(yaml, mlir);
}

static void expect_error(const char *yaml, int line, int column, dlti_error_code code,
                         const char *fragment)
{
    if (!fragment[0]) /* "" would accept any message */
        fail_msg("expect_error needs the message to expect, for:\n%s", yaml);
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = {0};
    dlti_error_t err;
    int rc = sysdesc_yaml_load(ctx, yaml, strlen(yaml), "bad.yaml", NULL, &sys, &err);
    if (rc == 0)
        fail_msg("expected an error for:\n%s", yaml);
    assert_null(sys.spec);
    if (err.line != line || err.column != column || err.code != code ||
        !strstr(err.text, fragment))
        fail_msg("got %d:%d code %d '%s'\nwant %d:%d code %d '...%s...'\n%s", err.line,
                 err.column, err.code, err.text, line, column, code, fragment, yaml);
    assert_string_equal(err.source, "bad.yaml");
    dlti_context_free(ctx);
}

static void plain_scalars(void **state)
{
    (void)state;
    value_is("42", "42 : i64");
    value_is("-7", "-7 : i64");
    value_is("+7", "7 : i64");
    value_is("1.5", "1.500000e+00 : f64");
    value_is("true", "true");
    value_is("False", "false");
    value_is("hello world", "\"hello world\"");
    value_is("\"42\"", "\"42\"");
    value_is("'true'", "\"true\"");
    value_is("9223372036854775807", "9223372036854775807 : i64");
    value_is("-9223372036854775808", "-9223372036854775808 : i64");
    value_is(".inf", "0x7FF0000000000000 : f64");
    value_is("-.Inf", "0xFFF0000000000000 : f64");
    value_is(".nan", "0x7FF8000000000000 : f64");
}

/* YAML 1.1 spellings that YAML 1.2 (and sysdesc) read differently; docs/yaml.md. */
static void yaml11_surprises(void **state)
{
    (void)state;
    value_is("no", "\"no\"");
    value_is("yes", "\"yes\"");
    value_is("on", "\"on\"");
    value_is("off", "\"off\"");
    value_is("y", "\"y\"");
    value_is("0x1F", "31 : i64");
    value_is("0o17", "15 : i64");
    value_is("010", "10 : i64");
    value_is("1e3", "1.000000e+03 : f64");
    value_is("1_000", "\"1_000\"");
    value_is("0b101", "\"0b101\"");
    value_is("1:30", "\"1:30\"");
    value_is("2024-01-01", "\"2024-01-01\"");
    value_is("!!str 42", "\"42\"");
    value_is("!!int 0x10", "16 : i64");
    value_is("!!float 2", "2.000000e+00 : f64");
    value_is("!!bool true", "true");
}

static void tags(void **state)
{
    (void)state;
    value_is("!i32 32", "32 : i32");
    value_is("!ui32 4096", "4096 : ui32");
    value_is("!si8 -128", "-128 : si8");
    value_is("!i8 0x7f", "127 : i8");
    value_is("!i1 1", "true");
    value_is("!index 64", "64 : index");
    value_is("!f32 1.5", "1.500000e+00 : f32");
    value_is("!f16 2", "2.000000e+00 : f16");
    value_is("!bf16 0.5", "5.000000e-01 : bf16");
    value_is("!ui64 18446744073709551615", "18446744073709551615 : ui64");
    value_is("!i128 -123456789012345678901234567890", "-123456789012345678901234567890 : i128");
    value_is("!type vector<4xf32>", "vector<4xf32>");
    value_is("!type '!llvm.ptr<270>'", "!llvm.ptr<270>");
    value_is("!mlir 'dense<[1, 2]> : vector<2xi64>'", "dense<[1, 2]> : vector<2xi64>");
    value_is("!mlir 'array<i32: 1, 2>'", "array<i32: 1, 2>");
    value_is("!array:i64 [1073741824, 1073741824]", "array<i64: 1073741824, 1073741824>");
    value_is("!array:i64 []", "array<i64>");
    value_is("!array:i1 [true, false, 1]", "array<i1: true, false, true>");
    value_is("!array:ui8 [255, 0x0F, 0o7]", "array<ui8: 255, 15, 7>");
    value_is("!array:si16\n    - -3\n    - 4", "array<si16: -3, 4>");
    value_is("!array:f32 [1.5, 1e3, -.inf]", "array<f32: 1.500000e+00, 1.000000e+03, 0xFF800000>");
    value_is("!array:bf16 [3]", "array<bf16: 3.000000e+00>");
    value_is("!mlir unit", "unit");
    value_is("!mlir '\"x\"'", "\"x\"");
    value_is("[1, !i32 2, x, [true]]", "[1, 2 : i32, \"x\", [true]]");
    value_is("[]", "[]");
    value_is("{}", "#dlti.map<>");
    value_is("{a: 1, !type i32: 2}", "#dlti.map<\"a\" = 1 : i64, i32 = 2 : i64>");
    value_is("!dl_spec {!type i32: !mlir 'dense<32> : vector<2xi64>'}",
                 "#dlti.dl_spec<i32 = dense<32> : vector<2xi64>>");
    value_is("!map {a: 1}", "#dlti.map<\"a\" = 1 : i64>");
}

static void structure(void **state)
{
    (void)state;
    expect_spec("CPU:\n  cache:\n    L1: {size_in_bytes: 32768}\nGPU: {n: 1}\n",
                "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"cache\" = "
                "#dlti.map<\"L1\" = #dlti.map<\"size_in_bytes\" = 32768 : i64>>>, "
                "\"GPU\" = #dlti.target_device_spec<\"n\" = 1 : i64>>");
    /* anchors and aliases share a value; a null leaves a key out */
    expect_spec("D:\n  a: &x [1, 2]\n  b: *x\n  c: ~\n  d:\n",
                "#dlti.target_system_spec<\"D\" = #dlti.target_device_spec<"
                "\"a\" = [1, 2], \"b\" = [1, 2]>>");
    /* quoted reserved words are ordinary keys */
    expect_spec("\"data_layout\":\n  \"base\": 1\n",
                "#dlti.target_system_spec<\"data_layout\" = #dlti.target_device_spec<"
                "\"base\" = 1 : i64>>");
    /* escapes in double-quoted strings */
    value_is("\"a\\\"b\\n\\x01\"", "\"a\\22b\\0A\\01\"");
    value_is("\"\\u00e9\"", "\"\\C3\\A9\"");
}

static void data_layout(void **state)
{
    (void)state;
    const char *y = "data_layout: !dl_spec {\"dlti.endianness\": big}\nD: {a: 1}\n";
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    assert_int_equal(sysdesc_yaml_load(ctx, y, strlen(y), "t", NULL, &sys, &err), 0);
    assert_non_null(sys.dl_spec);
    assert_null(sys.data_layout);
    char *t = dlti_attr_print(sys.dl_spec, NULL);
    assert_string_equal(t, "#dlti.dl_spec<\"dlti.endianness\" = \"big\">");
    free(t);
    const char *y2 = "data_layout: \"e-m:e-i64:64-n8:16:32:64-S128\"\nD: {a: 1}\n";
    assert_int_equal(sysdesc_yaml_load(ctx, y2, strlen(y2), "t", NULL, &sys, &err), 0);
    assert_string_equal(sys.data_layout, "e-m:e-i64:64-n8:16:32:64-S128");
    dlti_context_free(ctx);
}

static void errors(void **state)
{
    (void)state;
    expect_error("D:\n  a: [1, 2\n", 3, 1, DLTI_ERROR_SYNTAX, "did not find expected");
    expect_error("D:\n  a: 1\n  a: 2\n", 3, 3, DLTI_ERROR_SYNTAX, "duplicate key 'a' (first at line 2, column 3)");
    expect_error("D: {a: 1}\nD: {b: 2}\n", 2, 1, DLTI_ERROR_SYNTAX, "duplicate key 'D'");
    expect_error("D:\n  a: !foo 1\n", 2, 6, DLTI_ERROR_SYNTAX, "unknown tag '!foo'");
    expect_error("D:\n  a: !i8 300\n", 2, 6, DLTI_ERROR_SYNTAX, "300 does not fit !i8");
    expect_error("D:\n  a: !ui8 -1\n", 2, 6, DLTI_ERROR_SYNTAX, "does not fit !ui8");
    expect_error("D:\n  a: !i32 1.5\n", 2, 6, DLTI_ERROR_SYNTAX, "not an integer");
    expect_error("D:\n  a: !f16 1e6\n", 2, 6, DLTI_ERROR_SYNTAX, "does not fit !f16");
    expect_error("D:\n  a: !array:i8 [1,\n    300]\n", 3, 5, DLTI_ERROR_SYNTAX, "300 does not fit !i8");
    expect_error("D:\n  a: !array:ui8 [-1]\n", 2, 18, DLTI_ERROR_SYNTAX, "does not fit !ui8");
    expect_error("D:\n  a: !array:i32 [1.5]\n", 2, 18, DLTI_ERROR_SYNTAX, "not an integer");
    expect_error("D:\n  a: !array:f16 [1e6]\n", 2, 18, DLTI_ERROR_SYNTAX, "does not fit !f16");
    expect_error("D:\n  a: !array:f32 [x]\n", 2, 18, DLTI_ERROR_SYNTAX, "not a number for !f32");
    expect_error("D:\n  a: !array:i8 [1, \"2\"]\n", 2, 20, DLTI_ERROR_SYNTAX, "is a plain number");
    expect_error("D:\n  a: !array:i8 [!i8 1]\n", 2, 17, DLTI_ERROR_SYNTAX, "is a plain number");
    expect_error("D:\n  a: !array:i8 [[1]]\n", 2, 17, DLTI_ERROR_SYNTAX, "is a plain number");
    expect_error("D:\n  a: !array:i8 [1, ~]\n", 2, 20, DLTI_ERROR_SYNTAX, "null in a sequence");
    expect_error("D:\n  a: !array:index [1]\n", 2, 6, DLTI_ERROR_SYNTAX, "unknown tag '!array:index'");
    expect_error("D:\n  a: !array:i128 [1]\n", 2, 6, DLTI_ERROR_SYNTAX, "unknown tag '!array:i128'");
    expect_error("D:\n  a: !array:i8 {a: 1}\n", 2, 6, DLTI_ERROR_SYNTAX, "unknown tag '!array:i8' on a mapping");
    expect_error("D:\n  a: !f32 abc\n", 2, 6, DLTI_ERROR_SYNTAX, "not a number");
    expect_error("D:\n  a: 99999999999999999999\n", 2, 6, DLTI_ERROR_SYNTAX, "does not fit i64");
    expect_error("D:\n  a: 1e999\n", 2, 6, DLTI_ERROR_SYNTAX, "does not fit");
    expect_error("D:\n  a: !type vector<0xf32>\n", 2, 6, DLTI_ERROR_SYNTAX, "not an MLIR type");
    expect_error("D:\n  a: !mlir '#dlti.map<'\n", 2, 6, DLTI_ERROR_SYNTAX, "in !mlir value");
    expect_error("D:\n  a: *nope\n", 2, 6, DLTI_ERROR_SYNTAX, "undefined alias '*nope'");
    expect_error("D: &a {b: *a}\n", 1, 11, DLTI_ERROR_SYNTAX, "contains it");
    expect_error("D:\n  a: [1, ~]\n", 2, 10, DLTI_ERROR_SYNTAX, "null in a sequence");
    expect_error("D:\n  ? [1]\n  : 2\n", 2, 5, DLTI_ERROR_SYNTAX, "a key must be a scalar");
    expect_error("D:\n  !type i32: 1\n", 2, 3, DLTI_ERROR_VERIFY, "type as DLTI key");
    expect_error("D:\n  \"\": 1\n", 2, 3, DLTI_ERROR_VERIFY, "empty string as DLTI key");
    expect_error("D: {}\n", 1, 4, DLTI_ERROR_VERIFY, "no DLTI entries provided");
    expect_error("D: 1\n", 1, 4, DLTI_ERROR_SYNTAX, "must be a mapping");
    expect_error("[1, 2]\n", 1, 1, DLTI_ERROR_SYNTAX, "a system is a mapping");
    expect_error("", 1, 1, DLTI_ERROR_SYNTAX, "empty document");
    expect_error("# only a comment\n", 1, 1, DLTI_ERROR_SYNTAX, "empty document");
    expect_error("D: {a: 1}\n---\nE: {a: 1}\n", 2, 1, DLTI_ERROR_SYNTAX, "second YAML document");
    expect_error("D:\n  <<: {a: 1}\n", 2, 3, DLTI_ERROR_SYNTAX, "merge keys");
    expect_error("D:\n  a: !map [1]\n", 2, 6, DLTI_ERROR_SYNTAX, "unknown tag '!map' on a sequence");
    expect_error("D:\n  a: !foo {b: 1}\n", 2, 6, DLTI_ERROR_SYNTAX, "unknown tag '!foo' on a mapping");
    expect_error("data_layout: [1]\nD: {a: 1}\n", 1, 14, DLTI_ERROR_SYNTAX, "data_layout: needs");
    /* (LLVM 22 says "ABI alignment must be a 16-bit integer" for i64:abc) */
    expect_error("data_layout: \"e-i64:abc\"\nD: {a: 1}\n", 1, 14, DLTI_ERROR_SYNTAX,
                 "invalid data layout token 'i64:abc' at offset 2: malformed specification, "
                 "must be of the form \"i<size>:<abi>[:<pref>]\"");
    expect_error("D:\n  base: nvidia/does-not-exist\n", 2, 9, DLTI_ERROR_NOT_FOUND, "no catalog entry");
    /* a base file that is not there: exit 3, as a FILE argument */
    expect_error("D:\n  base: ./missing.yaml\n", 2, 9, DLTI_ERROR_IO, "no such file");
    expect_error("D:\n\ta: 1\n", 2, 1, DLTI_ERROR_SYNTAX, "cannot start any token");
    /* libyaml's reader errors: a byte offset, no mark */
    expect_error("D:\n  a: \"x\001y\"\n", 2, 8, DLTI_ERROR_SYNTAX, "control characters");
    expect_error("D:\r\n  \xc3\xa9: \"\xff\"\r\n", 2, 7, DLTI_ERROR_SYNTAX, "invalid leading UTF-8");
    expect_error("\xef\xbb\xbf" "D: {a: \001}\n", 1, 8, DLTI_ERROR_SYNTAX, "control characters");
}

static void limits(void **state)
{
    (void)state;
    /* billion laughs: 9 levels of 10 aliases */
    char lol[4096];
    size_t n = (size_t)snprintf(lol, sizeof(lol), "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; i++)
        n += (size_t)snprintf(lol + n, sizeof(lol) - n,
                              "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n",
                              i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    assert_int_equal(sysdesc_yaml_load(ctx, lol, n, "lol.yaml", NULL, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_non_null(strstr(err.text, "aliases expand to more than"));
    assert_int_equal(err.line, 6);

    /* nesting */
    char deep[1024] = "D:\n  a: ";
    for (int i = 0; i < 100; i++)
        strcat(deep, "[");
    for (int i = 0; i < 100; i++)
        strcat(deep, "]");
    strcat(deep, "\n");
    /* the default is the core's depth limit (1000): 100 levels load */
    assert_int_equal(sysdesc_yaml_load(ctx, deep, strlen(deep), "deep.yaml", NULL, &sys, &err), 0);
    sysdesc_yaml_options opts = {0};
    opts.max_depth = 64;
    assert_int_equal(sysdesc_yaml_load(ctx, deep, strlen(deep), "deep.yaml", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 6 + 62);
    opts.max_depth = 200;
    assert_int_equal(sysdesc_yaml_load(ctx, deep, strlen(deep), "deep.yaml", &opts, &sys, &err), 0);

    /* input size */
    opts.max_input_bytes = 8;
    const char *y = "D: {a: 1}\n";
    assert_int_equal(sysdesc_yaml_load(ctx, y, strlen(y), "big.yaml", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);

    /* small alias limit */
    opts.max_input_bytes = 0;
    opts.max_alias_nodes = 3;
    const char *al = "D:\n  a: &x [1, 2, 3]\n  b: *x\n";
    assert_int_equal(sysdesc_yaml_load(ctx, al, strlen(al), "al.yaml", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 6);
    opts.max_alias_nodes = 4;
    assert_int_equal(sysdesc_yaml_load(ctx, al, strlen(al), "al.yaml", &opts, &sys, &err), 0);
    dlti_context_free(ctx);

    /* the core's string limit, counted as the MLIR literal prints (a
     * backslash doubles, other bytes outside printable ASCII are \XX) */
    static const struct {
        const char *yaml;
        int line, column;   /* 0: loads */
    } strings[] = {
        {"D:\n  a: abcdefgh\n", 0, 0},
        {"D:\n  a: abcdefghi\n", 2, 6},
        {"D:\n  a: 'abcdefghi'\n", 2, 6},
        {"D:\n  a: !!str abcdefghi\n", 2, 6},
        {"D:\n  a: \"abc\\\\def\"\n", 0, 0},      /* 8 bytes as abc\\def */
        {"D:\n  a: \"abc\\\\defg\"\n", 2, 6},
        {"D:\n  a: \"ab\\ncde\"\n", 0, 0},          /* ab\0Acde */
        {"D:\n  a: \"ab\\ncdef\"\n", 2, 6},
        {"D:\n  a: \"\xc3\xa9\"\n", 0, 0},          /* \C3\A9: 6 bytes */
        {"D:\n  a: \"\xc3\xa9\xc3\xa9\"\n", 2, 6},
        {"D:\n  a: [x, abcdefghi]\n", 2, 10},
        {"D:\n  abcdefgh: 1\n", 0, 0},
        {"D:\n  abcdefghi: 1\n", 2, 3},               /* keys too */
        {"abcdefghi:\n  a: 1\n", 1, 1},               /* and device ids */
        {"D:\n  a: {abcdefghi: 1}\n", 2, 7},
    };
    ctx = dlti_context_new();
    dlti_limits lim = {0};
    lim.max_string_bytes = 8;
    dlti_context_set_limits(ctx, &lim);
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
        const char *y = strings[i].yaml;
        int rc = sysdesc_yaml_load(ctx, y, strlen(y), "s.yaml", NULL, &sys, &err);
        if (strings[i].line == 0 && rc != 0)
            fail_msg("load failed: %d:%d: %s\n%s", err.line, err.column, err.text, y);
        if (strings[i].line == 0)
            continue;
        if (rc == 0 || err.code != DLTI_ERROR_LIMIT || err.line != strings[i].line ||
            err.column != strings[i].column ||
            !strstr(err.text, "string longer than the limit of 8 bytes"))
            fail_msg("got rc %d, %d:%d code %d '%s'\nwant %d:%d, the string limit\n%s", rc,
                     err.line, err.column, err.code, err.text, strings[i].line,
                     strings[i].column, y);
    }
    dlti_context_free(ctx);
}

/* YAML -> spec -> YAML -> spec: the spec is identical; -> MLIR -> spec too. */
static void round_trip_text(const char *yaml)
{
    dlti_context *ctx = dlti_context_new();
    sysdesc_system a, b;
    dlti_error_t err;
    if (sysdesc_yaml_load(ctx, yaml, strlen(yaml), "rt.yaml", NULL, &a, &err) != 0)
        fail_msg("load: %d:%d: %s", err.line, err.column, err.text);
    size_t len;
    char *out = sysdesc_yaml_print(&a, &len);
    assert_non_null(out);
    if (sysdesc_yaml_load(ctx, out, len, "printed.yaml", NULL, &b, &err) != 0)
        fail_msg("reload: %d:%d: %s\n%s", err.line, err.column, err.text, out);
    if (!dlti_attr_equal(a.spec, b.spec))
        fail_msg("round trip differs:\n%s", out);
    assert_true((a.dl_spec == NULL) == (b.dl_spec == NULL));
    if (a.dl_spec)
        assert_true(dlti_attr_equal(a.dl_spec, b.dl_spec));
    /* through MLIR text */
    char *mlir = sysdesc_mlir_print(&a, true, NULL);
    const dlti_attr *parsed = dlti_attr_parse(ctx, mlir, strlen(mlir), "m", &err);
    assert_non_null(parsed);
    sysdesc_system c = {.spec = parsed};
    char *again = sysdesc_yaml_print(&c, NULL);
    sysdesc_system d;
    assert_int_equal(sysdesc_yaml_load(ctx, again, strlen(again), "again.yaml", NULL, &d, &err), 0);
    assert_true(dlti_attr_equal(a.spec, d.spec));
    free(again);
    free(mlir);
    free(out);
    dlti_context_free(ctx);
}

static void round_trips(void **state)
{
    (void)state;
    round_trip_text(
        "CPU:\n"
        "  s: [\"42\", \"true\", \"~\", \"\", \" pad \", \"a: b\", \"#x\", \"- y\", \"no\", \"0x1F\", \"1e3\"]\n"
        "  q: \"quote\\\" back\\\\ nl\\n tab\\t nul\\0 del\\x7f é\"\n"
        "  i: [0, -1, 9223372036854775807, !i32 -5, !ui16 65535, !index 8, !si64 -3, !i128 1]\n"
        "  f: [0.1, -0.0, 1.0e300, 5e-324, !f32 0.1, !f16 65504, !bf16 3.0, !f80 1.5, !f32 .inf]\n"
        "  inf: .inf\n"
        "  ninf: -.inf\n"
        "  n: .nan\n"
        "  b: [true, false]\n"
        "  t: [!type i32, !type 'vector<[4]x8xf32>', !type '!llvm.ptr<270>', !type 'tuple<i32, f32>']\n"
        "  m: {!type i32: 1, \"sp ace\": {deep: {deeper: []}}, e: {}}\n"
        "  x: !mlir 'dense<[1, 2]> : vector<2xi64>'\n"
        "  u: !mlir unit\n"
        "  d: !mlir '{a = 1 : i64, b}'\n"
        "  o: !mlir '#llvm.foo<bar>'\n"
        "  da: !mlir 'array<i16: 1, 2>'\n"
        "  bad_utf8: !mlir '\"\\FF\\FE\"'\n"
        "  base_is_a_key_here: {\"base\": 1, \"data_layout\": 2, \"<<\": 3}\n"
        "  nested: [[1, [2]], {a: 1}, []]\n"
        "\"data_layout\": {x: 1}\n"
        "\"with space\": {k: v}\n");
    round_trip_text("data_layout: !dl_spec {!type i64: !mlir 'dense<64> : vector<2xi64>', "
                    "\"dlti.endianness\": little}\nD: {a: 1}\n");
    round_trip_text("data_layout: \"e-m:e-i64:64-n8:16:32:64-S128\"\nD: {a: 1}\n");
    /* Dense arrays, as the probe writes memory.numa_node_size_in_bytes: a
     * plain YAML sequence would read back as an array of i64 ([1, 2]),
     * another attribute; written as !mlir text here, printed as !array:T. */
    round_trip_text(
        "CPU:\n"
        "  device_type: CPU\n"
        "  memory:\n"
        "    numa_node_size_in_bytes: !mlir 'array<i64: 1073741824, 2147483648>'\n"
        "    page_sizes_in_bytes: !mlir 'array<i64: 4096>'\n"
        "  extra:\n"
        "    empty: !mlir 'array<i64>'\n"
        "    bools: !mlir 'array<i1: true, false>'\n"
        "    u: !mlir 'array<ui64: 18446744073709551615>'\n"
        "    f: !mlir 'array<f32: 1.5, 0x7FC00000, 0xFF800000, -0.0>'\n"
        "    d: !mlir 'array<f64: 0.1, 1.0e300>'\n"
        "    list: [1, 2]\n");
    /* The same as tagged sequences (what the printer writes). */
    round_trip_text(
        "CPU:\n"
        "  a: !array:i64 [1073741824, 2147483648]\n"
        "  e: !array:i64 []\n"
        "  b: !array:i1 [true, false, 1]\n"
        "  u: !array:ui64 [18446744073709551615, 0x10]\n"
        "  s: !array:si8\n"
        "    - -128\n"
        "    - 127\n"
        "  f: !array:f32 [1.5, 1e3, 0.1, -0.0, 3]\n"
        "  h: !array:f16 [65504.0]\n"
        "  d: !array:f64 [0.1, 1.0e300, 5e-324]\n"
        "  n: [!array:i32 [1], 2]\n");
}

/* The system of `yaml` printed, or NULL with the error in `err`. */
static char *spec_text(const char *yaml, dlti_error_t *err)
{
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    char *text = NULL;
    if (sysdesc_yaml_load(ctx, yaml, strlen(yaml), "t.yaml", NULL, &sys, err) == 0)
        text = dlti_attr_print(sys.spec, NULL);
    dlti_context_free(ctx);
    return text;
}

static void same_spec(const char *yaml, const char *peer)
{
    dlti_error_t e1, e2;
    char *a = spec_text(yaml, &e1), *b = spec_text(peer, &e2);
    if (!a || !b || strcmp(a, b) != 0)
        fail_msg("differ:\n%s-> %s\n%s-> %s", yaml, a ? a : e1.text, peer, b ? b : e2.text);
    free(a);
    free(b);
}

/* `base:` is merged in place, wherever it stands in the device: the device
 * is the base with each own key set as the core's setDlti sets it (a null
 * removes, a new key is appended, an untagged mapping merges into the
 * base's mapping), the base read from the same catalog entry. */
static void base_in_place(void **state)
{
    (void)state;
    static const char *const own[] = {"  vendor: X\n", "  arch: ~\n", "  new_key: 1\n",
                                      "  matrix_instruction_shapes: {fp64: [\"8x8x4\"], x: ~}\n"};
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    const char *just = "GPU:\n  base: nvidia/arch/sm_90\n";
    assert_int_equal(sysdesc_yaml_load(ctx, just, strlen(just), "t.yaml", NULL, &sys, &err), 0);
    const dlti_attr *dev = dlti_attr_entry_value(sys.spec, 0);
    dlti_key shapes = dlti_key_string(ctx, "matrix_instruction_shapes", 25);
    const dlti_attr *m = dlti_attr_lookup(dev, shapes);
    assert_non_null(m);
    const dlti_attr *fp64 = dlti_string_new(ctx, "8x8x4", 5);
    m = dlti_container_set(ctx, m, dlti_key_string(ctx, "fp64", 4),
                           dlti_array_new(ctx, &fp64, 1), &err);
    dev = dlti_container_set(ctx, dev, dlti_key_string(ctx, "vendor", 6),
                             dlti_string_new(ctx, "X", 1), &err);
    dev = dlti_container_set(ctx, dev, dlti_key_string(ctx, "arch", 4), NULL, &err);
    dev = dlti_container_set(ctx, dev, dlti_key_string(ctx, "new_key", 7),
                             dlti_i64_new(ctx, 1), &err);
    dev = dlti_container_set(ctx, dev, shapes, m, &err);
    assert_non_null(dev);
    dlti_entry e = {dlti_key_string(ctx, "GPU", 3), dev};
    char *want = dlti_attr_print(dlti_container_new(ctx, DLTI_ATTR_SYSTEM_SPEC, &e, 1, &err), NULL);
    /* the base first, in the middle, last */
    for (int at = 0; at <= 4; at += 2) {
        char yaml[1024] = "GPU:\n";
        for (int i = 0; i <= 4; i++) {
            if (i == at)
                strcat(yaml, "  base: nvidia/arch/sm_90\n");
            if (i < 4)
                strcat(yaml, own[i]);
        }
        dlti_error_t e2;
        char *got = spec_text(yaml, &e2);
        if (!got || strcmp(got, want) != 0)
            fail_msg("%s->\n%s\nwant\n%s", yaml, got ? got : e2.text, want);
        free(got);
    }
    free(want);
    dlti_context_free(ctx);
    /* an alias repeats a device, its base included; a dense array too */
    same_spec("GPU0: &g\n  base: nvidia/arch/sm_90\n  vendor: Y\nGPU1: *g\n",
              "GPU0:\n  base: nvidia/arch/sm_90\n  vendor: Y\n"
              "GPU1:\n  base: nvidia/arch/sm_90\n  vendor: Y\n");
    same_spec("GPU0: &g\n  vendor: Y\n  base: nvidia/arch/sm_90\nGPU1: *g\n",
              "GPU0:\n  base: nvidia/arch/sm_90\n  vendor: Y\n"
              "GPU1:\n  base: nvidia/arch/sm_90\n  vendor: Y\n");
    same_spec("D:\n  a: &a {x: !array:i32 [1, 2], y: [3]}\n  b: *a\n",
              "D:\n  a: {x: !array:i32 [1, 2], y: [3]}\n  b: {x: !array:i32 [1, 2], y: [3]}\n");
}

/* Errors come as if the file were read whole first (docs/yaml.md, "Errors"):
 * syntax and limits over meaning; in a mapping its base, then its keys (the
 * first bad one, then the first repeat), then its values in order. */
static void error_order(void **state)
{
    (void)state;
    expect_error("D:\n  a: !foo 1\n  \"\": 2\n", 3, 3, DLTI_ERROR_VERIFY, "empty string");
    expect_error("D:\n  a: !foo 1\n  a: 2\n", 3, 3, DLTI_ERROR_SYNTAX, "duplicate key 'a'");
    expect_error("D:\n  a: 1\n  a: 2\n  \"\": 3\n", 4, 3, DLTI_ERROR_VERIFY, "empty string");
    expect_error("D:\n  m:\n    x: !foo 1\n  !type i32: 1\n", 4, 3, DLTI_ERROR_VERIFY,
                 "type as DLTI key");
    expect_error("D:\n  m: {x: !foo 1}\nD: {a: 1}\n", 3, 1, DLTI_ERROR_SYNTAX, "duplicate key 'D'");
    expect_error("D:\n  m: {x: !foo 1}\n  n: {\"\": 1}\n", 2, 10, DLTI_ERROR_SYNTAX, "unknown tag");
    expect_error("D:\n  a: !foo 1\n  b: [1,\n", 4, 1, DLTI_ERROR_SYNTAX, "did not find expected");
    expect_error("D:\n  a: !foo 1\n  b: *nope\n", 3, 6, DLTI_ERROR_SYNTAX, "undefined alias");
    expect_error("D:\n  a: !foo 1\n---\nE: {a: 1}\n", 3, 1, DLTI_ERROR_SYNTAX, "second YAML");
    /* a base, even after other keys, before the device's keys */
    expect_error("D:\n  !type i32: 1\n  base: nope/x\n", 3, 9, DLTI_ERROR_NOT_FOUND,
                 "no catalog entry");
    expect_error("D:\n  base: nope/x\n  !type i32: 1\n", 2, 9, DLTI_ERROR_NOT_FOUND,
                 "no catalog entry");
    expect_error("D:\n  base: [a]\n", 2, 9, DLTI_ERROR_SYNTAX, "not a list");
    expect_error("D:\n  base: nvidia/arch/sm_90\n  a: 1\n  a: 2\n", 4, 3, DLTI_ERROR_SYNTAX,
                 "duplicate key 'a'");
    expect_error("D:\n  base: nvidia/arch/sm_90\n  a: ~\n  a: 2\n", 4, 3, DLTI_ERROR_SYNTAX,
                 "duplicate key 'a'");
    expect_error("D:\n  n: &n ~\n  s: [1, *n]\n", 2, 6, DLTI_ERROR_SYNTAX, "null in a sequence");
    expect_error("D: &d {\"\": 1}\nE: *d\n", 1, 8, DLTI_ERROR_VERIFY, "empty string");
}

/* Devices whose scalars at the same places differ only a little from the
 * device before (the loader takes a key or value again when it is written
 * as the one at its place in the device before): each device of the system
 * prints as the same device loaded alone, in a system of its own. */
static void devices_alike(void **state)
{
    (void)state;
    static const char *const devices[] = {
        "  a: 700\n  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: \"700\"\n  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n", /* quoted: a string */
        "  a: !i32 700\n  b: 'x'\n  c: [1, 3]\n  m: {k: 1.50, l: yes}\n", /* a tag; 1.50 */
        "  b: 700\n  a: x\n  c: [2, 1]\n  m: {l: 1.5, k: true}\n", /* keys swapped */
        "  a: 700\n  700: a\n  c: []\n  m: {k: ~, l: true}\n",
        "  a: {700: a}\n  c: []\n  m: {k: ~, l: true}\n", /* a key where a value was */
        "  a: abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz1\n"
        "  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz2\n" /* long */
        "  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop1\n" /* just too long */
        "  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop2\n"
        "  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmn1\n" /* the longest kept */
        "  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmn2\n"
        "  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
        "  a: 0x2BC\n  b: \"x\"\n  c: [1, 2]\n  m: {k: 1.5, l: \"true\"}\n",
        "  a: 700\n  b: x\n  c: [1, 2]\n  m: {k: 1.5, l: true}\n",
    };
    size_t n = sizeof(devices) / sizeof(devices[0]);
    char all[8192], one[1024];
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(all + used, sizeof(all) - used, "D%zu:\n%s", i, devices[i]);
    assert_true(used < sizeof(all));
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    dlti_error_t err;
    if (sysdesc_yaml_load(ctx, all, used, "all.yaml", NULL, &sys, &err) != 0)
        fail_msg("%d:%d: %s", err.line, err.column, err.text);
    assert_int_equal(dlti_attr_size(sys.spec), n);
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(one, sizeof(one), "D%zu:\n%s", i, devices[i]);
        sysdesc_system alone;
        if (sysdesc_yaml_load(ctx, one, (size_t)len, "one.yaml", NULL, &alone, &err) != 0)
            fail_msg("%d:%d: %s", err.line, err.column, err.text);
        char *want = dlti_attr_print(dlti_attr_entry_value(alone.spec, 0), NULL);
        char *got = dlti_attr_print(dlti_attr_entry_value(sys.spec, i), NULL);
        if (strcmp(got, want) != 0)
            fail_msg("device %zu: got %s, alone %s", i, got, want);
        free(want);
        free(got);
    }
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_scalars), cmocka_unit_test(yaml11_surprises),
        cmocka_unit_test(tags),          cmocka_unit_test(structure),
        cmocka_unit_test(data_layout),   cmocka_unit_test(errors),
        cmocka_unit_test(limits),        cmocka_unit_test(round_trips),
        cmocka_unit_test(base_in_place), cmocka_unit_test(error_order),
        cmocka_unit_test(devices_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
