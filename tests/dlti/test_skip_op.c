/* Files as compiler drivers hold them: modules whose bodies hold operations
 * sysdesc does not model (dlti/skip_op.c), MLIR's implicit top-level module,
 * MLIR head's inherent `dlti` attribute, and the printer's options. */
#include "test_util.h"

#include "dlti_private.h"
#include "sysdesc/layout.h"

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

/* DLTI attributes on ops other than modules (dlti/parse_op.c). */
static const char ops_file[] =
    "module @top attributes {dlti.map = #dlti.map<\"CPU\" = 1 : i32, \"GPU\" = 2 : i32>} {\n"
    "  func.func @f(%a: i32 {llvm.signext}) -> (i32 {llvm.zeroext}) attributes {test.dlti = "
    "#dlti.map<\"CPU\" = 10 : i32>, dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<index, 16 : i64>>} {\n"
    "    %s = \"test.str\"() {v = \"} #dlti.map<> {\"} : () -> i32\n"
    "    cf.br ^bb1(%a : i32)\n"
    "  ^bb1(%x: i32):  // a block\n"
    "    %r:2 = \"test.op\"(%x) {sym_name = \"in_f\", zz = #dlti.map<\"CPU\" = 12 : i32>} : (i32) -> (i32, i32) loc(\"x\")\n"
    "    return %x : i32\n"
    "  }\n"
    "  func.func private @decl() attributes {dlti = #dlti.map<\"CPU\" = 20 : i32>}\n"
    "  gpu.module @kernels [#nvvm.target<chip = \"sm_90\">] attributes {dlti.dl_spec = "
    "#dlti.dl_spec<#dlti.dl_entry<index, 32 : i64>>} {\n"
    "    gpu.func @k(%m: memref<4xf32>) workgroup(%w : memref<32xf32, 3>) kernel attributes "
    "{known_block_size = array<i32: 128, 1, 1>, x.dlti = #dlti.map<\"K\" = 3 : i32>} {\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  \"test.gen\"() <{dlti = #dlti.map<\"P\" = 4 : i32>, other = #dlti.map<\"Q\" = 5 : i32>, sym_name = \"gen\"}> ({\n"
    "  ^bb0:\n"
    "    module @nested attributes {dlti.map = #dlti.map<\"N\" = 6 : i32>} {\n"
    "    }\n"
    "  }, {\n"
    "    \"test.one\"() ({ \"test.two\"() {sym_name = \"two\", a = #dlti.map<\"T\" = 7 : i32>} : () -> () }) : () -> ()\n"
    "  }) {test.arr = [#dlti.map<\"R\" = 8 : i32>]} : () -> !llvm.ptr<1>\n"
    "}\n";

static const dlti_scope *find(const dlti_scope *top, const char *path)
{
    dlti_error_t err;
    const dlti_scope *s = dlti_scope_find(top, path, &err);
    if (!s)
        fail_msg("%s: %s", path, err.text);
    return s;
}

static void assert_answer(const dlti_scope *s, const char *key, const char *want)
{
    dlti_error_t err;
    const char *keys[] = {key};
    const dlti_attr *v = dlti_query_strings(s, keys, 1, &err);
    if (!want) {
        assert_null(v);
        return;
    }
    if (!v)
        fail_msg("%s: %s", key, err.text);
    assert_attr_prints(v, want);
}

static uint64_t index_bits(const dlti_scope *s)
{
    dlti_error_t err;
    dlti_layout *L = dlti_layout_new(s, &err);
    assert_non_null(L);
    const dlti_type *t = dlti_type_parse((dlti_context *)s->ctx, "index", 5, &err);
    assert_non_null(t);
    uint64_t bits = 0;
    assert_int_equal(dlti_layout_type_bitsize(L, t, &bits, &err), 0);
    dlti_layout_free(L);
    return bits;
}

static void op_scopes(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const dlti_scope *top = dlti_parse(ctx, ops_file, strlen(ops_file), "ops", &err);
    if (!top)
        fail_msg("%d:%d: %s", err.line, err.column, err.text);
    assert_int_equal(dlti_scope_num_children(top), 4);
    const dlti_scope *f = find(top, "f"), *in_f = find(top, "f/in_f"), *decl = find(top, "decl");
    const dlti_scope *kernels = find(top, "kernels"), *k = find(top, "kernels/k");
    const dlti_scope *gen = find(top, "gen"), *nested = find(top, "gen/nested");
    const dlti_scope *two = find(top, "gen/two");
    assert_string_equal(f->op_name, "func.func");
    assert_string_equal(in_f->op_name, "test.op");
    assert_string_equal(k->op_name, "gpu.func");
    assert_string_equal(gen->op_name, "test.gen");
    assert_null(nested->op_name);
    /* "test.one" holds an op with DLTI: an unnamed scope between */
    assert_int_equal(dlti_scope_num_children(gen), 2);
    assert_string_equal(dlti_scope_child(gen, 1)->op_name, "test.one");
    assert_ptr_equal(dlti_scope_parent(two), dlti_scope_child(gen, 1));
    /* only the DLTI attributes are kept, sorted; `other` (a property) and
     * the array are not queryable */
    assert_int_equal(dlti_scope_num_attrs(f), 2);
    assert_string_equal(dlti_scope_attr_name(f, 0), "dlti.dl_spec");
    assert_string_equal(dlti_scope_attr_name(f, 1), "test.dlti");
    assert_int_equal(dlti_scope_num_attrs(gen), 1);
    assert_string_equal(dlti_scope_attr_name(gen, 0), "dlti");
    assert_answer(f, "CPU", "10 : i32");
    assert_answer(f, "GPU", "2 : i32");
    assert_answer(in_f, "CPU", "12 : i32");
    assert_answer(decl, "CPU", "20 : i32");
    assert_answer(k, "K", "3 : i32");
    assert_answer(gen, "P", "4 : i32");
    assert_answer(gen, "Q", NULL);
    assert_answer(gen, "R", NULL);
    assert_answer(nested, "P", "4 : i32");
    assert_answer(two, "T", "7 : i32");
    /* layouts: MLIR 22's DataLayout reads gpu.module's dlti.dl_spec, not a
     * function's */
    assert_int_equal(index_bits(f), 64);
    assert_int_equal(index_bits(in_f), 64);
    assert_int_equal(index_bits(kernels), 32);
    assert_int_equal(index_bits(k), 32);
    /* every op counts as skipped (fmt refuses); the skeleton leaves ops,
     * and what they hold, out */
    assert_int_equal(dlti_scope_skipped_ops(top, NULL, NULL, NULL), 12);
    assert_prints(ctx, ops_file,
                  "module @top attributes {dlti.map = #dlti.map<\"CPU\" = 1 : i32, \"GPU\" = 2 : "
                  "i32>} {\n}\n\n");
    /* every prefix fails cleanly or parses; none reads past its end */
    size_t full = sizeof(ops_file) - 1;
    for (size_t n = 0; n < full; n++) {
        char *buf = malloc(n ? n : 1);
        memcpy(buf, ops_file, n);
        memset(&err, 0, sizeof(err));
        const dlti_scope *s = dlti_parse(ctx, buf, n, "cut", &err);
        if (!s && (err.code == DLTI_OK || err.text[0] == '\0' || err.line < 1 || err.position > n))
            fail_msg("prefix %zu: bad error (%d) %s", n, err.code, err.text);
        free(buf);
    }
}

static void op_scope_errors(void **state)
{
    dlti_context *ctx = *state;
    const char *unknown = "whose syntax sysdesc does not know: sysdesc reads DLTI attributes on "
                          "modules, on func.func, gpu.module, gpu.func and llvm.func, and on ops "
                          "in the generic form";
    char want[400];
    snprintf(want, sizeof(want), "a DLTI attribute inside operation 'scf.for', %s", unknown);
    assert_parse_error(ctx,
                       "func.func @f() {\n  scf.for %i = %a to %b step %c {\n    \"x.y\"() "
                       "{a = #dlti.map<>} : () -> ()\n  }\n  return\n}\n",
                       DLTI_ERROR_UNSUPPORTED, 3, 18, want);
    assert_parse_error(ctx, "func.func private @f(i32 {x.y = #dlti.map<>})\n", DLTI_ERROR_UNSUPPORTED,
                       1, 33,
                       "a DLTI attribute outside the attribute dictionary of operation "
                       "'func.func': sysdesc reads the DLTI attributes of an op's attribute "
                       "dictionary only");
    assert_parse_error(ctx, "\"x.y\"() {a = #dlti.map<>} : () -> () \"x.z\"() : () -> ()\n",
                       DLTI_ERROR_UNSUPPORTED, 1, 38,
                       "unexpected text after operation 'x.y', which holds a DLTI attribute: "
                       "sysdesc reads such an op when it ends its line");
    assert_parse_error(ctx, "func.func private @f() attributes {dlti.foo = #dlti.map<>}\n",
                       DLTI_ERROR_VERIFY, 1, 1, "attribute 'dlti.foo' not supported by dialect");
    assert_parse_error(ctx, "\"x.y\"() {a = #dlti.map<>, a = #dlti.map<>} : () -> ()\n",
                       DLTI_ERROR_VERIFY, 1, 27, "duplicate key 'a' in dictionary attribute");
    assert_parse_error(ctx, "\"x.y\"() <{dlti = #dlti.map<>}> {dlti = #dlti.map<>} : () -> ()\n",
                       DLTI_ERROR_VERIFY, 1, 33,
                       "'dlti' is both a property and an attribute of the operation");
    assert_parse_error(ctx, "\"x.y\"() <{dlti = #dlti.target_device_spec<\"a\" = 1>}> : () -> ()\n",
                       DLTI_ERROR_VERIFY, 1, 11,
                       "property 'dlti' holds no #dlti.map, #dlti.dl_spec or "
                       "#dlti.target_system_spec");
    assert_parse_error(ctx, "\"x.y\"() ({\n  \"a.b\"() {x = #dlti.map<>} : () -> ()\n",
                       DLTI_ERROR_SYNTAX, 1, 1,
                       "operation 'x.y' is not closed: expected '}' before the end of the input");
    assert_parse_error(ctx, "gpu.module @g attributes {x.y = #dlti.dl_spec<>} {\n}\n",
                       DLTI_ERROR_UNSUPPORTED, 1, 27,
                       "a data layout on 'gpu.module' under the name 'x.y': sysdesc reads a "
                       "gpu.module's data layout as 'dlti.dl_spec' only");
    assert_parse_error(ctx, "module {\n  func.func @a() attributes {x.y = #dlti.map<>} {\n  }\n"
                       "  func.func @a() attributes {x.y = #dlti.map<>} {\n  }\n}\n",
                       DLTI_ERROR_VERIFY, 4, 3, "redefinition of symbol named 'a'");
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
        cmocka_unit_test_setup_teardown(op_scopes, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(op_scope_errors, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
