/* Files as compiler drivers hold them: modules whose bodies hold operations
 * sysdesc does not model (dlti/skip_op.c), MLIR's implicit top-level module,
 * MLIR head's inherent `dlti` attribute, and the printer's options. */
#include "test_util.h"

static const char real_file[] =
    "// a driver's file\r\n"
    "#map = affine_map<(d0) -> (d0 + 1)>\n"
    "module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<\"CPU\" = "
    "#dlti.target_device_spec<\"n\" = 4 : i32>>, gpu.container_module} {\n"
    "  func.func @f(%a: i32) -> i32 attributes {llvm.emit_c_interface} {\n"
    "    %s = \"test.str\"() {v = \"} { module @no {\\22 }\"} : () -> i32\n"
    "    %c = arith.cmpi slt, %a, %a : i32 // } comment {\n"
    "    return %a : i32\n"
    "  }\n"
    "  gpu.module @kernels {\n"
    "    gpu.func @k() kernel {\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  %0:2 = \"foo.bar\"() ({\n"
    "  ^bb0(%x: i32):\n"
    "    \"foo.yield\"(%x) : (i32) -> ()\n"
    "  }) {m = #map, s = affine_set<(d0) : (d0 - 1 >= 0)>, t = vector<4xi1>} : () -> (i32, i32)\n"
    "  module @inner attributes {dlti.map = #dlti.map<\"CPU\" = #dlti.map<\"n\" = 2 : i32>>} {\n"
    "    llvm.func @g()\n"
    "  }\n"
    "}\n";

static void skips_other_ops(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const dlti_scope *top = dlti_parse(ctx, real_file, strlen(real_file), "real", &err);
    if (!top)
        fail_msg("%d:%d: %s", err.line, err.column, err.text);
    assert_string_equal(dlti_scope_name(top), "top");
    assert_int_equal(dlti_scope_num_children(top), 1);
    const dlti_scope *inner = dlti_scope_child(top, 0);
    assert_string_equal(dlti_scope_name(inner), "inner");
    const char *name;
    int line, col;
    assert_int_equal(dlti_scope_skipped_ops(top, &name, &line, &col), 4);
    assert_string_equal(name, "func.func");
    assert_int_equal(line, 4);
    assert_int_equal(col, 3);
    assert_int_equal(dlti_scope_skipped_ops(inner, &name, &line, &col), 1);
    assert_string_equal(name, "llvm.func");
    assert_int_equal(line, 19);
    /* Queries: the first key walks outward (dlti_query semantics). */
    const char *keys[] = {"CPU", "n"};
    const dlti_attr *v = dlti_query_strings(top, keys, 2, &err);
    assert_non_null(v);
    assert_attr_prints(v, "4 : i32");
    v = dlti_query_strings(inner, keys, 2, &err);
    assert_non_null(v);
    assert_attr_prints(v, "2 : i32");
    /* The skeleton prints; the module's parts are located in the text. */
    dlti_scope_source src;
    assert_int_equal(dlti_scope_get_source(top, &src), 0);
    assert_false(src.implicit);
    assert_memory_equal(real_file + src.op, "module @top", 11);
    assert_int_equal(src.name_end, src.op + 11);
    assert_int_equal(real_file[src.dict_open], '{');
    assert_int_equal(real_file[src.dict_close - 1], '}');
    assert_int_equal(real_file[src.body_open], '{');
    assert_int_equal(real_file[src.body_close], '}');
    assert_int_equal(src.body_close, strlen(real_file) - 2);
    size_t a, e;
    assert_int_equal(dlti_scope_attr_source(top, 0, &a, &e), 0);
    assert_memory_equal(real_file + a, "dlti.target_system_spec = #dlti", 31);
    assert_memory_equal(real_file + e - 3, "2>>", 3);
    assert_int_equal(dlti_scope_attr_source(top, 2, &a, &e), -1);
}

static void implicit_module(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const char *t = "func.func private @f()\n\"foo.bar\"() : () -> ()\nmodule @m {\n}\n";
    const dlti_scope *s = dlti_parse(ctx, t, strlen(t), "t", &err);
    assert_non_null(s);
    dlti_scope_source src;
    assert_int_equal(dlti_scope_get_source(s, &src), 0);
    assert_true(src.implicit);
    assert_null(dlti_scope_name(s));
    assert_int_equal(dlti_scope_num_children(s), 1);
    assert_int_equal(dlti_scope_skipped_ops(s, NULL, NULL, NULL), 2);
    assert_prints(ctx, t, "module {\n  module @m {\n  }\n}\n\n");
    /* One module and alias definitions: that module is the top. */
    t = "#a = 1\n!t = i32\nmodule @m {\n}\n{-#\n  dialect_resources: {builtin: {}}\n#-}\n";
    s = dlti_parse(ctx, t, strlen(t), "t", &err);
    assert_non_null(s);
    assert_string_equal(dlti_scope_name(s), "m");
    assert_int_equal(dlti_scope_get_source(s, &src), 0);
    assert_false(src.implicit);
    /* Bare attributes still parse as attributes. */
    assert_prints(ctx, "\"text\"", "\"text\"\n");
    assert_prints(ctx, "dense<1> : vector<2xi32>", "dense<1> : vector<2xi32>\n");
}

static void skip_errors(void **state)
{
    dlti_context *ctx = *state;
    assert_parse_error(ctx, "module {\n  \"foo.bar\"() {s = \"open\n}\n", DLTI_ERROR_SYNTAX, 2, 20,
                       "expected '\"' in string literal");
    assert_parse_error(ctx, "module {\n  func.func @f() {\n", DLTI_ERROR_SYNTAX, 2, 3,
                       "operation 'func.func' is not closed: expected '}' before the end of the "
                       "input");
    assert_parse_error(ctx, "module {\n  foo.op ]\n}", DLTI_ERROR_SYNTAX, 2, 10,
                       "unbalanced ']' in operation 'foo.op'");
    assert_parse_error(ctx, "module {\n  %0 = foo.op {a = #dlti.map<>}\n}", DLTI_ERROR_UNSUPPORTED,
                       2, 20,
                       "a DLTI attribute inside operation 'foo.op', whose syntax sysdesc does not "
                       "know: sysdesc reads DLTI attributes on modules, on func.func, gpu.module, "
                       "gpu.func and llvm.func, and on ops in the generic form");
    assert_parse_error(ctx, "module {\n  42\n}", DLTI_ERROR_SYNTAX, 1, 9,
                       "expected operation name in quotes");
    assert_parse_error(ctx, "module {\n}\n#x 5\n", DLTI_ERROR_SYNTAX, 3, 3,
                       "expected '=' in attribute alias definition");
    /* Every prefix of the real file fails cleanly or parses (a prefix can
     * end after whole ops); none reads past its end (ASan). */
    size_t full = sizeof(real_file) - 1;
    for (size_t n = 0; n < full; n++) {
        char *buf = malloc(n ? n : 1);
        memcpy(buf, real_file, n);
        dlti_error_t err;
        memset(&err, 0, sizeof(err));
        const dlti_scope *s = dlti_parse(ctx, buf, n, "cut", &err);
        if (!s && (err.code == DLTI_OK || err.text[0] == '\0' || err.line < 1 || err.position > n))
            fail_msg("prefix %zu: bad error (%d) %s", n, err.code, err.text);
        free(buf);
    }
}

static void inherent_dlti(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const char *t = "module attributes {dlti = #dlti.target_system_spec<\"CPU\" = "
                    "#dlti.target_device_spec<\"n\" = 1>>, x.y} {\n"
                    "  module @in attributes {dlti = #dlti.map<\"GPU\" = #dlti.map<\"n\" = 2>>} {\n"
                    "  }\n}\n";
    const dlti_scope *s = dlti_parse(ctx, t, strlen(t), "t", &err);
    assert_non_null(s);
    const char *k1[] = {"CPU", "n"}, *k2[] = {"GPU", "n"};
    const dlti_scope *in = dlti_scope_child(s, 0);
    const dlti_attr *v = dlti_query_strings(in, k1, 2, &err);
    assert_non_null(v);
    assert_attr_prints(v, "1 : i64");
    v = dlti_query_strings(in, k2, 2, &err);
    assert_non_null(v);
    assert_attr_prints(v, "2 : i64");
    /* Printed in MLIR 22's form by default, in the head's on request. */
    char *p = dlti_scope_print(s, NULL);
    assert_string_equal(p, "module attributes {dlti.target_system_spec = #dlti.target_system_spec<"
                           "\"CPU\" = #dlti.target_device_spec<\"n\" = 1 : i64>>, x.y} {\n"
                           "  module @in attributes {dlti.map = #dlti.map<\"GPU\" = #dlti.map<\"n\" = "
                           "2 : i64>>} {\n  }\n}\n\n");
    free(p);
    const dlti_scope *again = dlti_parse(ctx, t, strlen(t), "t", &err);
    p = dlti_scope_print_flags(again, DLTI_PRINT_INHERENT, NULL);
    assert_string_equal(p, "module attributes {dlti = #dlti.target_system_spec<"
                           "\"CPU\" = #dlti.target_device_spec<\"n\" = 1 : i64>>, x.y} {\n"
                           "  module @in attributes {dlti = #dlti.map<\"GPU\" = #dlti.map<\"n\" = "
                           "2 : i64>>} {\n  }\n}\n\n");
    free(p);
    /* MLIR head's generic form: `dlti` among the properties. */
    t = "\"builtin.module\"() <{dlti = #dlti.map<\"module\" = 1 : i32>, sym_name = \"m\"}> ({\n"
        "}) {x.y} : () -> ()";
    s = dlti_parse(ctx, t, strlen(t), "t", &err);
    assert_non_null(s);
    assert_string_equal(dlti_scope_name(s), "m");
    const char *k3[] = {"module"};
    v = dlti_query_strings(s, k3, 1, &err);
    assert_non_null(v);
    assert_attr_prints(v, "1 : i32");
    assert_parse_error(ctx, "\"builtin.module\"() <{dlti = #dlti.map<\"a\" = 1>}> ({\n}) "
                            "{dlti = #dlti.map<\"b\" = 1>} : () -> ()",
                       DLTI_ERROR_VERIFY, 1, 1,
                       "'dlti' is both a property and an attribute of the module");
    assert_parse_error(ctx, "\"builtin.module\"() <{dlti = 1}> ({\n}) : () -> ()", DLTI_ERROR_VERIFY,
                       1, 22,
                       "property 'dlti' holds no #dlti.map, #dlti.dl_spec or "
                       "#dlti.target_system_spec");
    /* Only DLTI containers may hide under the bare name. */
    assert_parse_error(ctx, "module attributes {dlti = 1} {}", DLTI_ERROR_VERIFY, 1, 1,
                       "'builtin.module' op can only contain attributes with dialect-prefixed "
                       "names, found: 'dlti'");
    /* Two data layouts, one of them inherent: MLIR's rule still holds. */
    assert_parse_error(ctx, "module attributes {dlti = #dlti.dl_spec<>, dlti.dl_spec = "
                            "#dlti.dl_spec<>} {}",
                       DLTI_ERROR_VERIFY, 1, 1,
                       "'builtin.module' op expects at most one data layout attribute");
}

static void pretty(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const char *t = "module @m attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<32> : "
                    "vector<2xi64>>, dlti.target_system_spec = #dlti.target_system_spec<\"CPU\" = "
                    "#dlti.target_device_spec<\"c\" = #dlti.map<\"L1\" = #dlti.map<>, \"L2\" = "
                    "[1, 2]>>>, x.u} {\n  module {\n  }\n}\n";
    const dlti_scope *s = dlti_parse(ctx, t, strlen(t), "t", &err);
    assert_non_null(s);
    size_t n;
    char *p = dlti_scope_print_flags(s, DLTI_PRINT_PRETTY, &n);
    assert_string_equal(p, "module @m attributes {\n"
                           "  dlti.dl_spec = #dlti.dl_spec<\n"
                           "    i32 = dense<32> : vector<2xi64>>,\n"
                           "  dlti.target_system_spec = #dlti.target_system_spec<\n"
                           "    \"CPU\" = #dlti.target_device_spec<\n"
                           "      \"c\" = #dlti.map<\n"
                           "        \"L1\" = #dlti.map<>,\n"
                           "        \"L2\" = [1, 2]>>>,\n"
                           "  x.u} {\n"
                           "  module {\n"
                           "  }\n"
                           "}\n\n");
    /* The pretty text reads back to the one-line form. */
    const dlti_scope *back = dlti_parse(ctx, p, n, "p", &err);
    assert_non_null(back);
    char *one = dlti_scope_print(back, NULL), *want = dlti_scope_print(s, NULL);
    assert_string_equal(one, want);
    free(p);
    free(one);
    free(want);
    /* A bare attribute prints pretty too. */
    const char *bare = "#dlti.map<\"a\" = #dlti.map<\"b\" = 1>>";
    s = dlti_parse(ctx, bare, strlen(bare), "b", &err);
    assert_non_null(s);
    p = dlti_scope_print_flags(s, DLTI_PRINT_PRETTY, NULL);
    assert_string_equal(p, "#dlti.map<\n  \"a\" = #dlti.map<\n    \"b\" = 1 : i64>>\n");
    free(p);
}

static const char generic_file[] =
    "\"builtin.module\"() <{sym_name = \"top\"}> ({\n"
    "  \"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n"
    "  }) : () -> ()\n"
    "  \"builtin.module\"() ({\n"
    "  ^bb0:\n"
    "  }) : () -> ()\n"
    "  \"builtin.module\"() <{sym_name = \"in\"}> ({\n"
    "  ^bb0:\n"
    "  }) {dlti.map = #dlti.map<\"CPU\" = #dlti.map<\"n\" = 2 : i32>>} : () -> ()\n"
    "}) {x.y} : () -> ()\n";

static void generic_modules(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const dlti_scope *top = dlti_parse(ctx, generic_file, strlen(generic_file), "g", &err);
    if (!top)
        fail_msg("%d:%d: %s", err.line, err.column, err.text);
    assert_string_equal(dlti_scope_name(top), "top");
    assert_int_equal(dlti_scope_num_children(top), 2);
    assert_null(dlti_scope_name(dlti_scope_child(top, 0)));
    const dlti_scope *in = dlti_scope_child(top, 1);
    assert_string_equal(dlti_scope_name(in), "in");
    assert_int_equal(dlti_scope_skipped_ops(top, NULL, NULL, NULL), 1);
    const char *keys[] = {"CPU", "n"};
    const dlti_attr *v = dlti_query_strings(in, keys, 2, &err);
    assert_non_null(v);
    assert_attr_prints(v, "2 : i32");
    dlti_scope_source src;
    assert_int_equal(dlti_scope_get_source(top, &src), 0);
    assert_true(src.generic);
    assert_memory_equal(generic_file + src.name_end - 2, "})", 2);
    assert_int_equal(generic_file[src.dict_open], '{');
    char *p = dlti_scope_print(top, NULL);
    assert_string_equal(p, "module @top attributes {x.y} {\n  module {\n  }\n"
                           "  module @in attributes {dlti.map = #dlti.map<\"CPU\" = #dlti.map<\"n\" = "
                           "2 : i32>>} {\n  }\n}\n\n");
    free(p);
    assert_parse_error(ctx, "\"builtin.module\"() <{sym_visibility = \"private\"}> ({\n}) : () -> ()",
                       DLTI_ERROR_UNSUPPORTED, 1, 22,
                       "property 'sym_visibility' of a generic 'builtin.module' is not supported");
    assert_parse_error(ctx, "\"builtin.module\"() ({\n}) {x.y}", DLTI_ERROR_SYNTAX, 2, 8,
                       "expected ':' followed by operation type");
    size_t full = sizeof(generic_file) - 1;
    for (size_t n = 0; n < full; n++) {
        char *buf = malloc(n ? n : 1);
        memcpy(buf, generic_file, n);
        memset(&err, 0, sizeof(err));
        const dlti_scope *s = dlti_parse(ctx, buf, n, "cut", &err);
        if (!s && (err.code == DLTI_OK || err.text[0] == '\0' || err.line < 1 || err.position > n))
            fail_msg("prefix %zu: bad error (%d) %s", n, err.code, err.text);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(skips_other_ops, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(implicit_module, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(skip_errors, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(inherent_dlti, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(pretty, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(generic_modules, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
