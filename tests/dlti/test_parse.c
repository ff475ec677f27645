/* Parsing: every attribute kind, legacy forms, comments, module nesting,
 * errors (code, source, line, column, offset, MLIR's message) and limits.
 * Error positions and texts are those mlir-opt-22 reports for the same input. */
#include "test_util.h"

#include <stdio.h>

static void kinds(void **state)
{
    dlti_context *ctx = *state;
    static const struct {
        const char *text;
        dlti_attr_kind kind;
    } k[] = {
        {"42 : i32", DLTI_ATTR_INTEGER},
        {"-7", DLTI_ATTR_INTEGER},
        {"123456789012345678901234567890 : i128", DLTI_ATTR_INTEGER},
        {"0x10 : index", DLTI_ATTR_INTEGER},
        {"1.5 : f32", DLTI_ATTR_FLOAT},
        {"1.5", DLTI_ATTR_FLOAT},
        {"0x7FC00000 : f32", DLTI_ATTR_FLOAT},
        {"0.5 : f8E4M3FN", DLTI_ATTR_FLOAT},
        {"true", DLTI_ATTR_BOOL},
        {"1 : i1", DLTI_ATTR_BOOL},
        {"\"s\"", DLTI_ATTR_STRING},
        {"unit", DLTI_ATTR_UNIT},
        {"vector<4xf32>", DLTI_ATTR_TYPE},
        {"!llvm.ptr<270>", DLTI_ATTR_TYPE},
        {"[1, \"a\"]", DLTI_ATTR_ARRAY},
        {"array<i32: 1, 2>", DLTI_ATTR_DENSE_ARRAY},
        {"array<f32>", DLTI_ATTR_DENSE_ARRAY},
        {"dense<[1, 2]> : vector<2xi64>", DLTI_ATTR_DENSE},
        {"{a = 1, b}", DLTI_ATTR_DICTIONARY},
        {"#foo.bar<1, [2]>", DLTI_ATTR_OPAQUE},
        {"#dlti.function_pointer_alignment<32, function_dependent = true>", DLTI_ATTR_OPAQUE},
        {"@sym", DLTI_ATTR_OPAQUE},
        {"#dlti.map<\"a\" = 1>", DLTI_ATTR_MAP},
        {"#dlti.dl_spec<>", DLTI_ATTR_DL_SPEC},
        {"#dlti.target_device_spec<\"a\" = 1>", DLTI_ATTR_DEVICE_SPEC},
        {"#dlti.target_system_spec<\"C\" = #dlti.target_device_spec<\"a\" = 1>>", DLTI_ATTR_SYSTEM_SPEC},
        {"#dlti.dl_entry<\"k\", 1>", DLTI_ATTR_ENTRY},
    };
    for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        const dlti_attr *a = attr_of(ctx, k[i].text);
        if (dlti_attr_get_kind(a) != k[i].kind)
            fail_msg("%s: kind %s", k[i].text, dlti_attr_kind_name(dlti_attr_get_kind(a)));
    }
    assert_string_equal(dlti_attr_kind_name(DLTI_ATTR_SYSTEM_SPEC), "target_system_spec");
    /* Untyped literals are i64 / f64. */
    assert_string_equal(dlti_type_str(dlti_attr_type(attr_of(ctx, "3"))), "i64");
    assert_string_equal(dlti_type_str(dlti_attr_type(attr_of(ctx, "3.0"))), "f64");
    /* A hex literal without a type is an integer. */
    assert_int_equal(dlti_attr_get_kind(attr_of(ctx, "0x7FF0000000000000")), DLTI_ATTR_INTEGER);
    /* Dense arrays report their element type. */
    assert_string_equal(dlti_type_str(dlti_attr_type(attr_of(ctx, "array<i16: 1>"))), "i16");
}

static void structure(void **state)
{
    dlti_context *ctx = *state;
    const dlti_attr *a = attr_of(ctx, "[1, [2, 3], {b = 2, a}]");
    assert_int_equal(dlti_attr_size(a), 3);
    const dlti_attr *inner = dlti_attr_element(a, 1);
    assert_int_equal(dlti_attr_size(inner), 2);
    assert_null(dlti_attr_element(a, 3));
    /* Dictionaries are sorted by name; a bare name holds unit. */
    const dlti_attr *d = dlti_attr_element(a, 2);
    size_t len;
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(d, 0), &len), "a");
    assert_int_equal(len, 1);
    assert_int_equal(dlti_attr_get_kind(dlti_attr_entry_value(d, 0)), DLTI_ATTR_UNIT);
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(d, 1), NULL), "b");
    /* Containers keep source order. */
    const dlti_attr *m = attr_of(ctx, "#dlti.map<\"z\" = 1, i32 = 2, \"a\" = 3>");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(m, 0), NULL), "z");
    assert_string_equal(dlti_type_str(dlti_key_get_type(dlti_attr_entry_key(m, 1))), "i32");
    assert_null(dlti_attr_entry_key(m, 3));
    assert_true(dlti_attr_is_queryable(m));
    assert_false(dlti_attr_is_queryable(d));
    /* Strings may hold NUL bytes, escaped. */
    const char *s;
    assert_int_equal(dlti_attr_get_string(attr_of(ctx, "\"a\\00b\""), &s, &len, NULL), 0);
    assert_int_equal(len, 3);
    assert_memory_equal(s, "a\0b", 3);
    assert_int_equal(dlti_attr_get_string(attr_of(ctx, "\"\\41\\n\\t\\\\\\\"\""), &s, &len, NULL), 0);
    assert_string_equal(s, "A\n\t\\\"");
    /* UTF-8 is kept as bytes. */
    assert_int_equal(dlti_attr_get_string(attr_of(ctx, "\"\xC3\xA9\xF0\x9F\x98\x80\""), &s, &len, NULL), 0);
    assert_int_equal(len, 6);
}

static void legacy_forms(void **state)
{
    dlti_context *ctx = *state;
    const dlti_attr *a = attr_of(ctx, "#dlti.dl_spec<#dlti.dl_entry<\"k\", 1 : i32>, "
                                      "#dlti.dl_entry<i32, dense<32> : vector<2xi64>>>");
    assert_int_equal(dlti_attr_get_kind(a), DLTI_ATTR_DL_SPEC);
    assert_int_equal(dlti_attr_size(a), 2);
    assert_attr_prints(a, "#dlti.dl_spec<\"k\" = 1 : i32, i32 = dense<32> : vector<2xi64>>");
    /* The 2024 colon form of system specs (MLIR 22 rejects it) reads as `=`. */
    a = attr_of(ctx, "#dlti.target_system_spec<\"CPU\": #dlti.target_device_spec<\"x\" = 1>>");
    assert_attr_prints(a, "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"x\" = 1 : i64>>");
    a = attr_of(ctx, "#dlti.dl_entry<\"k\", 42>");
    assert_attr_prints(a, "#dlti.dl_entry<\"k\", 42 : i64>");
    assert_int_equal(dlti_attr_size(a), 1);
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(a, 0), NULL), "k");
}

static void comments_and_blanks(void **state)
{
    dlti_context *ctx = *state;
    assert_prints(ctx, "// c\nmodule // c\n attributes // c\n { x.a = 1 // c\n , x.b = \"//\" } { // c\n}\n// end",
                  "module attributes {x.a = 1 : i64, x.b = \"//\"} {\n}\n\n");
    assert_prints(ctx, "\xEF\xBB\xBFmodule {}", "module {\n}\n\n");
    assert_prints(ctx, "\r\n\t#dlti.map<>  // trailing\n", "#dlti.map<>\n");
}

static void modules(void **state)
{
    dlti_context *ctx = *state;
    const char *text = "module @top attributes {x.b = 2, x.a = 1} {\n"
                       "  module @inner attributes {dlti.map = #dlti.map<\"k\" = 1>} {\n"
                       "    module {}\n"
                       "  }\n"
                       "  module @\"odd name\" {}\n"
                       "  builtin.module @bm {}\n"
                       "}\n";
    dlti_error_t err;
    const dlti_scope *top = dlti_parse(ctx, text, strlen(text), "m", &err);
    assert_non_null(top);
    assert_false(dlti_scope_is_bare(top));
    assert_string_equal(dlti_scope_name(top), "top");
    assert_null(dlti_scope_parent(top));
    assert_int_equal(dlti_scope_num_attrs(top), 2);
    assert_string_equal(dlti_scope_attr_name(top, 0), "x.a"); /* sorted */
    assert_null(dlti_scope_attr_name(top, 2));
    assert_non_null(dlti_scope_get_attr(top, "x.b"));
    assert_null(dlti_scope_get_attr(top, "x.c"));
    assert_int_equal(dlti_scope_num_children(top), 3);
    const dlti_scope *inner = dlti_scope_child(top, 0);
    assert_ptr_equal(dlti_scope_parent(inner), top);
    assert_int_equal(dlti_scope_num_children(inner), 1);
    assert_null(dlti_scope_name(dlti_scope_child(inner, 0)));
    assert_string_equal(dlti_scope_name(dlti_scope_child(top, 1)), "odd name");
    assert_ptr_equal(dlti_scope_find(top, "inner", &err), inner);
    assert_ptr_equal(dlti_scope_find(top, "", &err), top);
    assert_ptr_equal(dlti_scope_find(top, "bm", &err), dlti_scope_child(top, 2));
    assert_null(dlti_scope_find(top, "inner/nope", &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    /* A bare attribute is a root scope named after its kind. */
    const dlti_scope *bare = dlti_parse(ctx, "#dlti.dl_spec<>", 15, "b", &err);
    assert_true(dlti_scope_is_bare(bare));
    assert_string_equal(dlti_scope_attr_name(bare, 0), "dlti.dl_spec");
    bare = dlti_parse(ctx, "#dlti.target_system_spec<\"a\" = #dlti.target_device_spec<\"b\" = 1>>", 65, "b", &err);
    assert_non_null(bare);
    assert_string_equal(dlti_scope_attr_name(bare, 0), "dlti.target_system_spec");
}

static void errors(void **state)
{
    dlti_context *ctx = *state;
    /* Syntax. */
    assert_parse_error(ctx, "module attributes {x.a = [1, 2} {}", DLTI_ERROR_SYNTAX, 1, 31,
                       "expected ',' or ']'");
    assert_parse_error(ctx, "module attributes {x.a = #dlti.map<\"a\"\n  // c\n  1>} {}",
                       DLTI_ERROR_SYNTAX, 1, 39, "expected '='");
    assert_parse_error(ctx, "module attributes {x.a = \"abc} {}", DLTI_ERROR_SYNTAX, 1, 34,
                       "expected '\"' in string literal");
    assert_parse_error(ctx, "module attributes {x.a = \"\\q\"} {}", DLTI_ERROR_SYNTAX, 1, 27,
                       "unknown escape in string literal");
    assert_parse_error(ctx, "module attributes {x.a = #dlti.map<\"a\" = [1>} {}", DLTI_ERROR_SYNTAX, 1,
                       36, "unbalanced '[' character in pretty dialect name");
    assert_parse_error(ctx, "module attributes {x.a = unknownword} {}", DLTI_ERROR_SYNTAX, 1, 25,
                       "expected attribute value");
    assert_parse_error(ctx, "module attributes {x.a = 1}", DLTI_ERROR_SYNTAX, 1, 27,
                       "expected '{' to begin a region");
    assert_parse_error(ctx, "module attributes {x.a = #dlti.map<\"a\" = 8e+10>} {}", DLTI_ERROR_SYNTAX,
                       1, 43, "expected '>'");
    /* Verification. */
    assert_parse_error(ctx, "module attributes {x.a = 300 : i8} {}", DLTI_ERROR_VERIFY, 1, 26,
                       "integer constant out of range for attribute");
    assert_parse_error(ctx, "module attributes {x.a = 1.5 : i32} {}", DLTI_ERROR_VERIFY, 1, 35,
                       "floating point value not valid for specified type");
    assert_parse_error(ctx, "module attributes {\n  dlti.map = #dlti.map<\"a\" = 1, \"a\" = 2>} {}",
                       DLTI_ERROR_VERIFY, 2, 20, "repeated DLTI key: \"a\"");
    assert_parse_error(ctx, "#dlti.map<i32 = 1, i32 = 2>", DLTI_ERROR_VERIFY, 1, 7,
                       "repeated DLTI key: i32");
    assert_parse_error(ctx, "#dlti.map<\"\" = 1>", DLTI_ERROR_VERIFY, 1, 7,
                       "empty string as DLTI key is not allowed");
    assert_parse_error(ctx, "#dlti.target_device_spec<i32 = 1>", DLTI_ERROR_VERIFY, 1, 26,
                       "invalid kind of attribute specified");
    assert_parse_error(ctx, "#dlti.target_system_spec<\"C\" = 1>", DLTI_ERROR_VERIFY, 1, 7,
                       "value associated with key \"C\" is not a DLTI device spec");
    assert_parse_error(ctx, "#dlti.target_system_spec<>", DLTI_ERROR_VERIFY, 1, 7,
                       "no DLTI entries provided");
    assert_parse_error(ctx,
                       "#dlti.target_system_spec<\"C\" = #dlti.target_device_spec<\"a\" = 1>, "
                       "\"C\" = #dlti.target_device_spec<\"a\" = 1>>",
                       DLTI_ERROR_VERIFY, 1, 7, "repeated device ID in dlti.target_system_spec: \"C\"");
    assert_parse_error(ctx, "module attributes {dlti.dl_spec = #dlti.map<>} {}", DLTI_ERROR_VERIFY, 1, 1,
                       "'dlti.dl_spec' is expected to be a #dlti.dl_spec attribute");
    assert_parse_error(ctx, "module {\n  module attributes {dlti.foo = 1} {}\n}", DLTI_ERROR_VERIFY, 2,
                       3, "attribute 'dlti.foo' not supported by dialect");
    assert_parse_error(ctx, "module attributes {a = 1} {}", DLTI_ERROR_VERIFY, 1, 1,
                       "'builtin.module' op can only contain attributes with dialect-prefixed "
                       "names, found: 'a'");
    assert_parse_error(ctx, "module attributes {x.a = #dlti.dl_spec<>, x.b = #dlti.dl_spec<>} {}",
                       DLTI_ERROR_VERIFY, 1, 1,
                       "'builtin.module' op expects at most one data layout attribute");
    /* Other operations are skipped (test_skip_op.c); one holding a DLTI
     * attribute in a syntax sysdesc does not know is counted, not read. */
    const char *unread = "module {\n  scf.execute_region {x.y = #dlti.map<>} {}\n}";
    const dlti_scope *u = dlti_parse(ctx, unread, strlen(unread), NULL, NULL);
    assert_non_null(u);
    assert_int_equal(dlti_scope_unread_ops(u, NULL, NULL, NULL, NULL), 1);
    /* An empty or comment-only input is an empty implicit module (mlir-opt
     * prints "module {\n}" for both). */
    static const char *const empty[] = {"", "// a comment only\n", "\n  \n", "\xEF\xBB\xBF"};
    for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
        const dlti_scope *e = dlti_parse(ctx, empty[i], strlen(empty[i]), NULL, NULL);
        assert_non_null(e);
        assert_int_equal(dlti_scope_num_attrs(e), 0);
        assert_int_equal(dlti_scope_num_children(e), 0);
    }
    /* Byte offset, and a NULL source (MLIR: 3:2, where an alias wants its =). */
    dlti_error_t err;
    const char *t = "module {\n}\n#x";
    assert_null(dlti_parse(ctx, t, strlen(t), NULL, &err));
    assert_int_equal(err.position, 12);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 2);
    char buf[256];
    int n = dlti_error_format(&err, buf, sizeof(buf));
    assert_int_equal(n, (int)strlen(buf));
    assert_non_null(strstr(buf, ":3:2: error: "));
    /* NULL err is fine. */
    assert_null(dlti_parse(ctx, "[", 1, "x", NULL));
    assert_null(dlti_attr_parse(ctx, "[", 1, "x", NULL));
}

/* Attribute and type aliases resolve where they are used; affine_map values
 * are kept as written (docs/mlir-syntax.md). */
static void aliases_and_affine_maps(void **state)
{
    dlti_context *ctx = *state;
    assert_prints(ctx,
                  "#a = #dlti.map<\"k\" = 1 : i32>\n#b = [#a, 2]\n!t = !llvm.ptr<1>\n"
                  "module attributes {x.m = #dlti.map<\"b\" = #b, !t = #a>} {}\n",
                  "module attributes {x.m = #dlti.map<\"b\" = [#dlti.map<\"k\" = 1 : i32>, 2], "
                  "!llvm.ptr<1> = #dlti.map<\"k\" = 1 : i32>>} {\n}\n\n");
    /* A definition sysdesc does not model is no error until a DLTI value uses it. */
    assert_prints(ctx, "#loc = loc(\"f\":1:2)\nmodule attributes {x.a = 1} {}\n",
                  "module attributes {x.a = 1 : i64} {\n}\n\n");
    assert_parse_error(ctx, "#loc = loc(\"f\":1:2)\nmodule attributes {x.m = #dlti.map<\"a\" = #loc>} {}",
                       DLTI_ERROR_UNSUPPORTED, 2, 46,
                       "alias #loc is not supported: unsupported attribute 'loc'");
    assert_parse_error(ctx, "module attributes {x.m = #dlti.map<\"a\" = #later>} {}\n#later = 1\n",
                       DLTI_ERROR_SYNTAX, 1, 48, "undefined symbol alias id 'later'");
    assert_parse_error(ctx, "#a = 1\n#a = 1\n", DLTI_ERROR_SYNTAX, 2, 1,
                       "redefinition of attribute alias id 'a'");
    assert_prints(ctx, "module attributes {x.m = #dlti.map<\"m\" = affine_map<(d0)[s0] -> (d0 + s0)>>} {}",
                  "module attributes {x.m = #dlti.map<\"m\" = affine_map<(d0)[s0] -> (d0 + s0)>>} "
                  "{\n}\n\n");
    assert_parse_error(ctx, "module attributes {x.m = #dlti.map<\"m\" = affine_map<d0>>} {}",
                       DLTI_ERROR_SYNTAX, 1, 53, "expected '(' in dimensional identifier list");
    assert_parse_error(ctx, "module attributes {x.m = #dlti.map<\"m\" = affine_map<(d0)[s0]>>} {}",
                       DLTI_ERROR_SYNTAX, 1, 61, "expected '->' or ':'");
    assert_parse_error(ctx, "module attributes {x.m = #dlti.map<\"m\" = affine_map<(d0) -> (d0>>} {}",
                       DLTI_ERROR_SYNTAX, 1, 36, "unbalanced '(' character in pretty dialect name");
}

static void attr_parse_errors(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    assert_null(dlti_attr_parse(ctx, "1 2", 3, "a", &err));
    assert_string_equal(err.text, "unexpected text after attribute");
    assert_int_equal(err.column, 3);
    assert_null(dlti_attr_parse(ctx, "#dlti.dl_spec<\"dlti.endianness\" = \"middle\">", 43, "a", &err));
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_string_equal(err.text,
                        "'dlti.endianness' data layout entry is expected to be either 'big' or 'little'");
    assert_string_equal(err.source, "a");
}

static void nul_and_utf8(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    static const char in_string[] = "module attributes {x.a = \"a\0b\"} {}";
    assert_null(dlti_parse(ctx, in_string, sizeof(in_string) - 1, "n", &err));
    assert_int_equal(err.code, DLTI_ERROR_SYNTAX);
    assert_int_equal(err.position, 27);
    static const char outside[] = "module attributes {x.a = 1\0} {}";
    assert_null(dlti_parse(ctx, outside, sizeof(outside) - 1, "n", &err));
    assert_int_equal(err.position, 26);
    assert_string_equal(err.text, "unexpected NUL byte in input");
    static const char in_opaque[] = "#foo.bar<a\0>";
    assert_null(dlti_parse(ctx, in_opaque, sizeof(in_opaque) - 1, "n", &err));
    assert_int_equal(err.position, 10);
    static const char *const bad_utf8[] = {
        "\"\xFF\"", "\"\xC0\x80\"", "\"\xE0\x80\x80\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"",
        "\"\xC3\"", "\"\xE2\x82\"", "\"a\x80\""};
    for (size_t i = 0; i < sizeof(bad_utf8) / sizeof(bad_utf8[0]); i++) {
        assert_null(dlti_attr_parse(ctx, bad_utf8[i], strlen(bad_utf8[i]), "u", &err));
        assert_string_equal(err.text, "invalid UTF-8 in string literal");
    }
    assert_non_null(dlti_attr_parse(ctx, "\"\xF4\x8F\xBF\xBF\"", 6, "u", &err));
}

/* Builds TOKEN x n + CORE + CLOSE x n. */
static char *nest(const char *open, const char *core, const char *close, size_t n, size_t *len)
{
    size_t lo = strlen(open), lc = strlen(close), lk = strlen(core);
    char *s = malloc(n * (lo + lc) + lk + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++, k += lo)
        memcpy(s + k, open, lo);
    memcpy(s + k, core, lk);
    k += lk;
    for (size_t i = 0; i < n; i++, k += lc)
        memcpy(s + k, close, lc);
    s[k] = '\0';
    *len = k;
    return s;
}

static void depth_limits(void **state)
{
    dlti_context *ctx = *state;
    static const struct {
        const char *open, *core, *close;
    } shapes[] = {
        {"[", "1", "]"},
        {"{a = ", "1", "}"},
        {"#dlti.map<\"a\" = ", "1", ">"},
        {"dense<[", "1", "]> : tensor<1xi32>"},
        {"#foo.bar<", "1", ">"},
        {"module {", "", "}"},
        {"tuple<", "i32", ">"},
    };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        size_t len;
        /* Far deeper than any stack could take with recursion: an error, never a crash. */
        char *s = nest(shapes[i].open, shapes[i].core, shapes[i].close, 100000, &len);
        dlti_error_t err;
        assert_null(dlti_parse(ctx, s, len, "deep", &err));
        if (err.code != DLTI_ERROR_LIMIT && err.code != DLTI_ERROR_VERIFY &&
            err.code != DLTI_ERROR_SYNTAX)
            fail_msg("shape %zu: code %d %s", i, err.code, err.text);
        free(s);
        s = nest(shapes[i].open, shapes[i].core, shapes[i].close, 1001, &len);
        assert_null(dlti_parse(ctx, s, len, "deep", &err));
        free(s);
    }
    size_t len;
    char *s = nest("[", "1", "]", 1001, &len);
    dlti_error_t err;
    assert_null(dlti_parse(ctx, s, len, "deep", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_string_equal(err.text, "nesting deeper than the limit of 1000");
    free(s);
    /* A bare attribute counts as if a module held it (the depth invariant
     * of dlti_private.h): 998 brackets and the value are 1000 levels. */
    s = nest("[", "1", "]", 998, &len);
    assert_non_null(dlti_parse(ctx, s, len, "ok", &err));
    free(s);
    s = nest("[", "1", "]", 999, &len);
    assert_null(dlti_parse(ctx, s, len, "deep", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    free(s);
    /* max_depth can be lowered, never raised above the default */
    dlti_limits high = {.max_depth = 5000};
    dlti_context_set_limits(ctx, &high);
    assert_int_equal(dlti_context_get_limits(ctx).max_depth, DLTI_DEFAULT_MAX_DEPTH);
    /* The limit is configurable. */
    dlti_limits lim = {.max_depth = 10};
    dlti_context_set_limits(ctx, &lim);
    assert_int_equal(dlti_context_get_limits(ctx).max_depth, 10);
    assert_int_equal(dlti_context_get_limits(ctx).max_entries, (size_t)16 << 20);
    s = nest("[", "1", "]", 20, &len);
    assert_null(dlti_parse(ctx, s, len, "deep", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    free(s);
    lim = (dlti_limits){.max_string_bytes = 4, .max_entries = 3, .max_input_bytes = 100};
    dlti_context_set_limits(ctx, &lim);
    assert_null(dlti_attr_parse(ctx, "\"12345\"", 7, "s", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_null(dlti_attr_parse(ctx, "[1, 2, 3, 4]", 12, "s", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    char big[200];
    memset(big, ' ', sizeof(big));
    big[0] = '1';
    assert_null(dlti_parse(ctx, big, sizeof(big), "s", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    /* The memory budget: 2 MB integers past 1 MiB are the budget's error,
     * not "out of memory" */
    lim = (dlti_limits){.max_memory_bytes = 1 << 20};
    dlti_context_set_limits(ctx, &lim);
    const char *wide = "[1 : i16777215, 2 : i16777215]";
    assert_null(dlti_attr_parse(ctx, wide, strlen(wide), "w", &err));
    assert_int_equal(err.code, DLTI_ERROR_LIMIT);
    assert_non_null(strstr(err.text, "memory budget of 1048576 bytes exceeded"));
    dlti_context_set_limits(ctx, NULL);
    assert_int_equal(dlti_context_get_limits(ctx).max_depth, DLTI_DEFAULT_MAX_DEPTH);
    assert_int_equal(dlti_context_get_limits(ctx).max_memory_bytes, (size_t)4 << 30);
}

/* Every prefix of a rich input fails cleanly (and never crashes). */
static void truncated_prefixes(void **state)
{
    dlti_context *ctx = *state;
    static const char rich[] =
        "// rich\nmodule @top attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<[32, 64]> : "
        "vector<2xi64>, \"dlti.endianness\" = \"little\", #dlti.dl_entry<index, 32>>, "
        "dlti.target_system_spec = #dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<"
        "\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size\" = 32768 : i32>>, \"s\" = \"a\\22\\0A\xC3\xA9\", "
        "\"f\" = 1.5 : f16, \"h\" = 0x7FC00000 : f32, \"w\" = 123456789012345678901234567890 : i128, "
        "\"arr\" = [1, \"x\", 2.0, true, unit, i32], \"da\" = array<i8: 1, -2>, \"fa\" = array<f32: 1.5>, "
        "\"d\" = {b = 1, a}, \"t\" = !llvm.ptr<270>, \"v\" = vector<[4]x8xf32>, \"m\" = memref<4x?xf32>, "
        "\"c\" = complex<f32>, \"fn\" = (i32) -> i64, \"o\" = #foo.bar<(x) -> [y]>, \"sym\" = @s>>, "
        "x.y} {\n  module @inner attributes {dlti.map = #dlti.map<\"k\" = 1>} {\n  }\n}\n";
    size_t full = sizeof(rich) - 1;
    dlti_error_t err;
    assert_non_null(dlti_parse(ctx, rich, full, "rich", &err));
    /* Past the leading comment: an empty or comment-only input is an empty
     * module (modules above). */
    for (size_t n = strlen("// rich\n") + 1; n < full - 1; n++) {
        /* A heap copy of exactly n bytes, so ASan sees any read past the end. */
        char *buf = malloc(n ? n : 1);
        memcpy(buf, rich, n);
        memset(&err, 0, sizeof(err));
        const dlti_scope *s = dlti_parse(ctx, buf, n, "cut", &err);
        if (s)
            fail_msg("prefix of %zu bytes parsed", n);
        if (err.code == DLTI_OK || err.text[0] == '\0' || err.line < 1 || err.position > n)
            fail_msg("prefix %zu: bad error (%d) %s", n, err.code, err.text);
        free(buf);
    }
}

/* Attributes of other dialects mlir-opt-22 prints its own way: read with
 * their checks and printed as mlir-opt-22 prints them (interop_corpus.sh
 * compares many more with mlir-opt-22 itself). */
static void foreign_attributes(void **state)
{
    dlti_context *ctx = *state;
    assert_attr_prints(attr_of(ctx, "#llvm.target<chip=\"znver4\",\n  triple=\"x86_64\">"),
                       "#llvm.target<triple = \"x86_64\", chip = \"znver4\">");
    assert_attr_prints(attr_of(ctx, "#llvm.target<triple = \"t\", chip = \"c\", features = "
                                    "#llvm.target_features<[ \"+a\" ,\"-b\"]>>"),
                       "#llvm.target<triple = \"t\", chip = \"c\", features = <[\"+a\", \"-b\"]>>");
    assert_attr_prints(attr_of(ctx, "#llvm.address_space< 0x10 >"), "#llvm.address_space<16>");
    assert_attr_prints(attr_of(ctx, "#test.const_memory_space<0>"), "#test.const_memory_space");
    assert_attr_prints(attr_of(ctx, "#ptr.generic_space<>"), "#ptr.generic_space");
    assert_attr_prints(attr_of(ctx, "#ptr.spec<preferred=64,size=64,abi=32,index=4294967295>"),
                       "#ptr.spec<size = 64, abi = 32, preferred = 64>");
    assert_attr_prints(attr_of(ctx, "!ptr.ptr< #test.const_memory_space<0> >"),
                       "!ptr.ptr<#test.const_memory_space>");
    assert_parse_error(ctx, "#llvm.target<triple = \"t\">", DLTI_ERROR_SYNTAX, 1, 26,
                       "struct is missing required parameter: chip");
    assert_parse_error(ctx, "#llvm.target<triple = \"t\", chip = \"c\", features = <[\"avx\"]>>",
                       DLTI_ERROR_VERIFY, 1, 51, "target features must start with '+' or '-'");
    assert_parse_error(ctx, "#ptr.spec<size = 33, abi = 32, preferred = 32>", DLTI_ERROR_VERIFY, 1,
                       10, "size entry must be divisible by 8");
    assert_parse_error(ctx, "#ptr.spec<size = 32, abi = 64, preferred = 32>", DLTI_ERROR_VERIFY, 1,
                       10, "preferred alignment is expected to be at least as large as ABI alignment");
    assert_parse_error(ctx, "#ptr.spec<size = 8.0, abi = 8, preferred = 8>", DLTI_ERROR_SYNTAX, 1, 18,
                       "expected integer value");
    assert_parse_error(ctx, "[!ptr.ptr<1>]", DLTI_ERROR_SYNTAX, 1, 11,
                       "invalid kind of attribute specified");
}

/* An identifier entry of a dialect the file loads is refused (no dialect but
 * DLTI has identifier entries); one of a dialect it does not load is not. */
static void identifier_entries(void **state)
{
    dlti_context *ctx = *state;
    assert_parse_error(ctx,
                       "\"test.op_with_data_layout\"() {dlti.dl_spec = #dlti.dl_spec<\"test.k\" = 1>}"
                       " : () -> ()",
                       DLTI_ERROR_VERIFY, 1, 1,
                       "the 'test' dialect does not support identifier data layout entries");
    /* gpu loads arith with it */
    assert_parse_error(ctx,
                       "module attributes {dlti.dl_spec = #dlti.dl_spec<\"arith.k\" = 1>} {\n"
                       "  gpu.module @g {\n  }\n}",
                       DLTI_ERROR_VERIFY, 1, 1,
                       "the 'arith' dialect does not support identifier data layout entries");
    assert_parse_error(ctx,
                       "module attributes {dlti.dl_spec = #dlti.dl_spec<\"llvm.k\" = 1>, "
                       "test.t = !llvm.ptr} {}",
                       DLTI_ERROR_VERIFY, 1, 1,
                       "the 'llvm' dialect does not support identifier data layout entries");
    /* named only in strings and symbols, or not a registered dialect: accepted */
    assert_prints(ctx,
                  "module attributes {dlti.dl_spec = #dlti.dl_spec<\"gpu.k\" = 1, \"vendor.k\" = 2>, "
                  "test.s = \"func.func\", test.r = @gpu.module} {}",
                  "module attributes {dlti.dl_spec = #dlti.dl_spec<\"gpu.k\" = 1 : i64, \"vendor.k\" = "
                  "2 : i64>, test.r = @gpu.module, test.s = \"func.func\"} {\n}\n\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(foreign_attributes, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(identifier_entries, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(kinds, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(structure, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(legacy_forms, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(comments_and_blanks, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(modules, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(errors, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(aliases_and_affine_maps, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(attr_parse_errors, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(nul_and_utf8, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(depth_limits, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(truncated_prefixes, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
