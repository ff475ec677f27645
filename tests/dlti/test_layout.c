/* Data layout queries, combination and verification (sysdesc/layout.h).
 * Expected values are what mlir-opt-22 --test-data-layout-query prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "dlti_private.h"
#include "sysdesc/layout.h"

static dlti_context *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = dlti_context_new();
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    dlti_context_free(ctx);
    return 0;
}

static const dlti_scope *parse(const char *text)
{
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, text, strlen(text), "t.mlir", &err);
    if (!s)
        fprintf(stderr, "parse: %s\n", err.text);
    assert_non_null(s);
    return s;
}

static dlti_layout *layout_of(const char *spec_entries)
{
    char text[4096];
    snprintf(text, sizeof(text), "#dlti.dl_spec<%s>", spec_entries);
    dlti_error_t err;
    dlti_layout *L = dlti_layout_new(parse(text), &err);
    if (!L)
        fprintf(stderr, "layout: %s\n", err.text);
    assert_non_null(L);
    return L;
}

/* "size bitsize abi pref index" of `type` in `L`. */
static void expect(const dlti_layout *L, const char *type, uint64_t size, uint64_t bits,
                   uint64_t abi, uint64_t pref, uint64_t index)
{
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(ctx, type, strlen(type), &err);
    assert_non_null(t);
    dlti_type_layout r;
    if (dlti_layout_query(L, t, &r, &err) != 0)
        fail_msg("%s: %s", type, err.text);
    if (r.size != size || r.bitsize != bits || r.abi_alignment != abi ||
        r.preferred_alignment != pref || r.index_bitwidth != index)
        fail_msg("%s: got %llu %llu %llu %llu %llu", type, (unsigned long long)r.size,
                 (unsigned long long)r.bitsize, (unsigned long long)r.abi_alignment,
                 (unsigned long long)r.preferred_alignment, (unsigned long long)r.index_bitwidth);
}

static void expect_error(const dlti_layout *L, const char *type, dlti_error_code code,
                         const char *text)
{
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(ctx, type, strlen(type), &err);
    assert_non_null(t);
    dlti_type_layout r;
    assert_int_equal(dlti_layout_query(L, t, &r, &err), -1);
    assert_int_equal(err.code, code);
    if (!strstr(err.text, text))
        fail_msg("%s: '%s' lacks '%s'", type, err.text, text);
}

static void defaults(void **state)
{
    (void)state;
    dlti_layout *L = dlti_layout_from_spec(NULL, NULL);
    assert_non_null(L);
    expect(L, "i1", 1, 1, 1, 1, 0);
    expect(L, "i7", 1, 7, 1, 1, 0);
    expect(L, "i32", 4, 32, 4, 4, 0);
    expect(L, "ui32", 4, 32, 4, 4, 0);
    expect(L, "i64", 8, 64, 4, 8, 0);
    expect(L, "i128", 16, 128, 4, 16, 0);
    expect(L, "i0", 0, 0, 0, 0, 0);
    expect(L, "f16", 2, 16, 2, 2, 0);
    expect(L, "bf16", 2, 16, 2, 2, 0);
    expect(L, "f64", 8, 64, 8, 8, 0);
    expect(L, "f80", 10, 80, 16, 16, 0);
    expect(L, "f128", 16, 128, 16, 16, 0);
    expect(L, "tf32", 3, 19, 4, 4, 0);
    expect(L, "f8E4M3FN", 1, 8, 1, 1, 0);
    expect(L, "f4E2M1FN", 1, 4, 1, 1, 0);
    expect(L, "index", 8, 64, 4, 8, 64);
    expect(L, "vector<3xi32>", 16, 128, 16, 16, 0);
    expect(L, "vector<2x3xf32>", 32, 256, 32, 32, 0);
    expect(L, "vector<3x4xf32>", 48, 384, 64, 64, 0);
    expect(L, "vector<4xi1>", 4, 32, 4, 4, 0);
    expect(L, "complex<f32>", 8, 64, 4, 4, 0);
    expect(L, "complex<i6>", 2, 14, 1, 1, 0);
    expect(L, "complex<f80>", 26, 208, 16, 16, 0);
    expect(L, "!llvm.ptr", 8, 64, 8, 8, 64);
    expect(L, "!llvm.ptr<3>", 8, 64, 8, 8, 64);
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(ctx, "vector<2x[4]xf32>", 17, &err);
    dlti_type_layout r;
    assert_int_equal(dlti_layout_query(L, t, &r, &err), 0);
    assert_true(r.scalable);
    assert_int_equal(r.size, 32);
    dlti_layout_free(L);
}

static void entries(void **state)
{
    (void)state;
    dlti_layout *L = layout_of("i32 = dense<[64, 128]> : vector<2xi64>, f32 = dense<[64, 128]> : "
                               "vector<2xi64>, index = 16, i8 = dense<8> : vector<1xi64>");
    expect(L, "i32", 4, 32, 8, 16, 0);
    expect(L, "i16", 2, 16, 8, 16, 0);   /* closest entry above */
    expect(L, "i128", 16, 128, 8, 16, 0); /* none above: the widest */
    expect(L, "i4", 1, 4, 1, 1, 0);
    expect(L, "si32", 4, 32, 8, 16, 0);
    expect(L, "index", 2, 16, 8, 16, 16);
    expect(L, "f32", 4, 32, 8, 16, 0);
    expect(L, "complex<i32>", 8, 64, 4, 4, 0);   /* elements ignore integer entries */
    expect(L, "complex<f32>", 12, 96, 4, 8, 0);  /* but not the float ABI entry */
    expect(L, "vector<3xindex>", 8, 64, 8, 8, 0);
    expect(L, "vector<[4]xf32>", 16, 128, 16, 16, 0);
    dlti_layout_free(L);

    L = layout_of("!llvm.ptr = dense<[32, 64, 128, 16]> : vector<4xi64>, !llvm.ptr<5> = "
                  "dense<[64, 32, 64]> : vector<3xi64>");
    expect(L, "!llvm.ptr", 4, 32, 8, 16, 16);
    expect(L, "!llvm.ptr<5>", 8, 64, 4, 8, 64);
    expect(L, "!llvm.ptr<7>", 4, 32, 8, 16, 16); /* other spaces follow space 0 */
    dlti_layout_free(L);
}

/* The ptr dialect's pointer (MLIR 22's PtrType): its own #ptr.spec, else
 * the default memory space's pointer, else 64 bits aligned at 1 byte. */
static void ptr_dialect(void **state)
{
    (void)state;
    dlti_layout *L = layout_of(
        "!ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 32, preferred = 64>, "
        "!ptr.ptr<#test.const_memory_space<2>> = #ptr.spec<size = 32, abi = 64, preferred = 64, "
        "index = 16>, \"dlti.default_memory_space\" = #test.const_memory_space<9>");
    expect(L, "!ptr.ptr<#test.const_memory_space>", 4, 32, 4, 8, 32);
    expect(L, "!ptr.ptr<#test.const_memory_space<0>>", 4, 32, 4, 8, 32); /* the same type */
    expect(L, "!ptr.ptr<#test.const_memory_space<2>>", 4, 32, 8, 8, 16);
    expect(L, "!ptr.ptr<#test.const_memory_space<1>>", 8, 64, 1, 1, 64);
    expect(L, "!ptr.ptr<#llvm.address_space<0>>", 8, 64, 1, 1, 64); /* no address space number */
    dlti_layout_free(L);
    L = layout_of("!ptr.ptr<#llvm.address_space<1>> = #ptr.spec<size = 16, abi = 16, preferred "
                  "= 32>, \"dlti.default_memory_space\" = #llvm.address_space<1>");
    expect(L, "!ptr.ptr<#llvm.address_space<7>>", 2, 16, 2, 4, 16);
    expect(L, "!ptr.ptr<#ptr.generic_space>", 2, 16, 2, 4, 16);
    dlti_layout_free(L);
    /* A default that is no memory space, or none: the defaults. */
    L = layout_of("\"dlti.default_memory_space\" = 3 : ui32");
    expect(L, "!ptr.ptr<#test.const_memory_space<3>>", 8, 64, 1, 1, 64);
    dlti_layout_free(L);
}

static void errors(void **state)
{
    (void)state;
    dlti_layout *L = dlti_layout_from_spec(NULL, NULL);
    expect_error(L, "memref<4xi32>", DLTI_ERROR_UNSUPPORTED,
                 "neither the scoping op nor the type class provide data layout information for "
                 "memref<4xi32>");
    expect_error(L, "tensor<4xf32>", DLTI_ERROR_UNSUPPORTED, "tensor<4xf32>");
    expect_error(L, "none", DLTI_ERROR_UNSUPPORTED, "none");
    expect_error(L, "!test.foo", DLTI_ERROR_UNSUPPORTED, "!test.foo");
    expect_error(L, "vector<f32>", DLTI_ERROR_UNSUPPORTED, "0-d vector");
    expect_error(L, "vector<2305843009213693952xi64>", DLTI_ERROR_RANGE, "does not fit");
    expect_error(L, "vector<4294967296x4294967296xi64>", DLTI_ERROR_RANGE, "does not fit");
    expect(L, "vector<4294967296xi64>", UINT64_C(34359738368), UINT64_C(274877906944),
           UINT64_C(34359738368), UINT64_C(34359738368), 0);
    dlti_layout_free(L);
    dlti_error_t err;
    assert_null(dlti_layout_from_spec(dlti_i64_new(ctx, 1), &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
}

static void props(void **state)
{
    (void)state;
    dlti_layout *L = dlti_layout_from_spec(NULL, NULL);
    static const char *const want[] = {
        "\"\"", "0 : ui32", "0 : ui32", "0 : ui32", "0 : ui32", "0 : index", "\"\"",
        "#dlti.function_pointer_alignment<0, function_dependent = false>", "array<i32>"};
    for (int p = 0; p < DLTI_LAYOUT_NUM_PROPS; p++) {
        char *v = dlti_layout_prop_print(L, (dlti_layout_prop)p, NULL);
        assert_string_equal(v, want[p]);
        free(v);
    }
    assert_false(dlti_layout_is_big_endian(L));
    dlti_layout_free(L);
    L = layout_of("\"dlti.endianness\" = \"big\", \"dlti.stack_alignment\" = 128 : i32, "
                  "\"dlti.alloca_memory_space\" = 5 : ui64, \"dlti.legal_int_widths\" = "
                  "array<i32: 8, 16>, \"dlti.mangling_mode\" = \"e\"");
    assert_true(dlti_layout_is_big_endian(L));
    char *v = dlti_layout_prop_print(L, DLTI_LAYOUT_STACK_ALIGNMENT, NULL);
    assert_string_equal(v, "128 : index");
    free(v);
    v = dlti_layout_prop_print(L, DLTI_LAYOUT_ALLOCA_MEMORY_SPACE, NULL);
    assert_string_equal(v, "5 : ui64");
    free(v);
    v = dlti_layout_prop_print(L, DLTI_LAYOUT_LEGAL_INT_WIDTHS, NULL);
    assert_string_equal(v, "array<i32: 8, 16>");
    free(v);
    assert_string_equal(dlti_layout_prop_name(DLTI_LAYOUT_MANGLING_MODE), "mangling_mode");
    assert_null(dlti_layout_prop_name(DLTI_LAYOUT_NUM_PROPS));
    dlti_layout_free(L);
    L = layout_of("\"dlti.stack_alignment\" = \"x\"");
    dlti_error_t err;
    assert_null(dlti_layout_prop_print(L, DLTI_LAYOUT_STACK_ALIGNMENT, &err));
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    dlti_layout_free(L);
}

/* outer entries / inner entries / whether they combine. */
static void nested(const char *outer, const char *inner, bool ok)
{
    char text[4096];
    snprintf(text, sizeof(text),
             "module attributes {dlti.dl_spec = #dlti.dl_spec<%s>} {\n"
             "  module @inner attributes {dlti.dl_spec = #dlti.dl_spec<%s>} {\n  }\n}\n",
             outer, inner);
    dlti_error_t err;
    const dlti_scope *root = dlti_parse(ctx, text, strlen(text), "t.mlir", &err);
    if (!ok) {
        /* The parser rejects specs that do not combine, as MLIR's verifier
         * does, at the inner module, with a note for the enclosing one. */
        if (root)
            fail_msg("%s || %s: expected failure", outer, inner);
        assert_int_equal(err.code, DLTI_ERROR_VERIFY);
        assert_string_equal(err.text, "data layout does not combine with layouts of enclosing ops\n"
                                      "t.mlir:1:1: note: enclosing op with data layout");
        assert_int_equal(err.line, 2);
        assert_int_equal(err.column, 3);
        return;
    }
    if (!root)
        fail_msg("%s || %s: expected success (%s)", outer, inner, err.text);
    const dlti_scope *in = dlti_scope_find(root, "inner", NULL);
    assert_non_null(in);
    dlti_layout *L = dlti_layout_new(in, &err);
    assert_non_null(L);
    assert_int_equal(dlti_layout_verify_tree(root, "t.mlir", text, strlen(text), &err), 0);
    dlti_layout_free(L);
}

static void combination(void **state)
{
    (void)state;
    nested("\"dlti.endianness\" = \"big\"", "\"dlti.endianness\" = \"little\"", false);
    nested("\"dlti.endianness\" = \"big\"", "\"dlti.endianness\" = \"big\"", true);
    nested("\"foo.bar\" = 1", "\"foo.bar\" = 2", false);
    nested("\"dlti.stack_alignment\" = 64", "\"dlti.alloca_memory_space\" = 5 : ui32", true);
    nested("index = 64", "index = 32", false);
    nested("index = 32", "index = 32", true);
    nested("i32 = dense<64> : vector<2xi64>", "i32 = dense<32> : vector<2xi64>", true);
    nested("i32 = dense<32> : vector<2xi64>", "i32 = dense<64> : vector<2xi64>", false);
    nested("i32 = dense<64> : vector<2xi64>", "i16 = dense<32> : vector<2xi64>", true);
    nested("f32 = dense<64> : vector<2xi64>", "f32 = dense<[32, 128]> : vector<2xi64>", true);
    nested("i32 = dense<32> : vector<2xi64>", "f32 = dense<64> : vector<2xi64>", true);
    /* LLVMPointerType::areCompatible, quirks included. */
    nested("!llvm.ptr = dense<64> : vector<4xi64>", "!llvm.ptr = dense<[64, 32, 64, 64]> : vector<4xi64>", true);
    nested("!llvm.ptr = dense<64> : vector<4xi64>", "!llvm.ptr = dense<32> : vector<4xi64>", false);
    nested("!llvm.ptr = dense<64> : vector<4xi64>", "!llvm.ptr<1> = dense<[64, 32, 64, 64]> : vector<4xi64>", false);
    nested("!llvm.ptr = dense<64> : vector<4xi64>", "!llvm.ptr<1> = dense<[64, 8, 64, 64]> : vector<4xi64>", true);

    /* Inner entries win, outer ones stay visible. */
    const char *text = "module attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<64> : vector<2xi64>, "
                       "\"dlti.endianness\" = \"big\", f64 = dense<128> : vector<2xi64>>} {\n"
                       "  module @m {\n"
                       "    module @inner attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<[32, 64]> : "
                       "vector<2xi64>, i8 = dense<8> : vector<2xi64>>} {}\n  }\n}\n";
    const dlti_scope *root = parse(text);
    dlti_layout *L = dlti_layout_new(dlti_scope_find(root, "m/inner", NULL), NULL);
    assert_non_null(L);
    expect(L, "i32", 4, 32, 4, 8, 0);
    expect(L, "f64", 8, 64, 16, 16, 0);
    assert_true(dlti_layout_is_big_endian(L));
    /* MLIR's order: identifiers, then type classes in first-seen order. */
    assert_int_equal(dlti_layout_num_entries(L), 4);
    assert_string_equal(dlti_key_str(dlti_layout_entry_key(L, 0), NULL), "dlti.endianness");
    assert_string_equal(dlti_type_str(dlti_key_get_type(dlti_layout_entry_key(L, 1))), "i32");
    assert_string_equal(dlti_type_str(dlti_key_get_type(dlti_layout_entry_key(L, 2))), "i8");
    assert_string_equal(dlti_type_str(dlti_key_get_type(dlti_layout_entry_key(L, 3))), "f64");
    dlti_layout_free(L);
    /* A scope without any spec gets the defaults. */
    L = dlti_layout_new(parse("module {\n}\n"), NULL);
    expect(L, "i64", 8, 64, 4, 8, 0);
    dlti_layout_free(L);
}

static void verification(void **state)
{
    (void)state;
    static const struct {
        const char *entries, *message;
    } cases[] = {
        {"!llvm.ptr = dense<[64, 64]> : vector<2xi64>",
         "expected layout attribute for '!llvm.ptr' to be a dense integer elements attribute with 3 or 4 elements"},
        {"!llvm.ptr = dense<[64, 64, 32]> : vector<3xi64>",
         "preferred alignment is expected to be at least as large as ABI alignment"},
        {"!llvm.ptr = dense<[64, 64, 64]> : vector<3xi32>", "expected i64 parameters for '!llvm.ptr'"},
        {"i32 = dense<[64, 32]> : vector<2xi64>",
         "preferred alignment is expected to be greater than or equal to the abi alignment in data "
         "layout entry #dlti.dl_entry<i32, dense<[64, 32]> : vector<2xi64>>"},
        {"i32 = dense<[64, 32, 2]> : vector<3xi64>",
         "expected 1 or 2 elements in the data layout entry #dlti.dl_entry<i32, dense<[64, 32, 2]> : vector<3xi64>>"},
        {"f32 = 5", "expected a dense i64 elements attribute in the data layout entry #dlti.dl_entry<f32, 5 : i64>"},
        {"index = \"x\"", "expected integer attribute in the data layout entry for 'index'"},
        {"vector<2xi32> = 5", "unexpected data layout for a built-in type"},
        {"\"dlti.foo\" = 5", "unknown data layout entry name: dlti.foo"},
        {"\"builtin.x\" = 5", "the 'builtin' dialect does not support identifier data layout entries"},
        /* type entries are checked before identifiers, as MLIR does */
        {"\"dlti.foo\" = 5, vector<2xi32> = 5", "unexpected data layout for a built-in type"},
        {"!ptr.ptr<#ptr.generic_space> = 5",
         "expected layout attribute for '!ptr.ptr<#ptr.generic_space>' to be a #ptr.spec attribute"},
        {"\"dlti.endianness\" = \"middle\"",
         "'dlti.endianness' data layout entry is expected to be either 'big' or 'little'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[1024];
        snprintf(text, sizeof(text), "#dlti.dl_spec<%s>", cases[i].entries);
        dlti_error_t err;
        assert_null(dlti_parse(ctx, text, strlen(text), "t", &err));
        if (strcmp(err.text, cases[i].message) != 0)
            fail_msg("%s: got '%s'", cases[i].entries, err.text);
    }
}

typedef struct worker {
    const dlti_layout *L;
    const dlti_type **types;
    size_t n;
    dlti_type_layout *want;
    int bad;
} worker;

static int run_worker(void *arg)
{
    worker *w = arg;
    for (int round = 0; round < 200; round++)
        for (size_t i = 0; i < w->n; i++) {
            dlti_type_layout r;
            if (dlti_layout_query(w->L, w->types[i], &r, NULL) != 0 ||
                memcmp(&r, &w->want[i], sizeof(r)) != 0)
                w->bad++;
        }
    return 0;
}

static void concurrent_readers(void **state)
{
    (void)state;
    enum { NTYPES = 300, NTHREADS = 8 };
    static const dlti_type *types[NTYPES];
    static dlti_type_layout want[NTYPES];
    dlti_layout *L = layout_of("i32 = dense<[32, 64]> : vector<2xi64>, index = 32");
    for (int i = 0; i < NTYPES; i++) {
        char name[64];
        snprintf(name, sizeof(name), i % 3 ? "vector<%dxi%d>" : "i%d%.0d", i % 17 + 1, i + 1);
        types[i] = dlti_type_parse(ctx, name, strlen(name), NULL);
        assert_non_null(types[i]);
        assert_int_equal(dlti_layout_compute(L, types[i], &want[i], NULL), 0);
    }
    thrd_t th[NTHREADS];
    worker w[NTHREADS];
    for (int k = 0; k < NTHREADS; k++) {
        w[k] = (worker){L, types, NTYPES, want, 0};
        assert_int_equal(thrd_create(&th[k], run_worker, &w[k]), thrd_success);
    }
    for (int k = 0; k < NTHREADS; k++) {
        thrd_join(th[k], NULL);
        assert_int_equal(w[k].bad, 0);
    }
    dlti_layout_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),       cmocka_unit_test(entries),
        cmocka_unit_test(ptr_dialect),
        cmocka_unit_test(errors),         cmocka_unit_test(props),
        cmocka_unit_test(combination),    cmocka_unit_test(verification),
        cmocka_unit_test(concurrent_readers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
