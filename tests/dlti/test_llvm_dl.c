/* LLVM data layout strings: import, export, the triple table.  Expected
 * specs are what mlir-translate-22 --import-llvm prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

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

static char *import_text(const char *s)
{
    dlti_error_t err;
    const dlti_attr *a = dlti_llvm_dl_import(ctx, s, strlen(s), &err);
    if (!a)
        fail_msg("%s: %s", s, err.text);
    return dlti_attr_print(a, NULL);
}

#define DEFAULTS                                                                                 \
    "i1 = dense<8> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i16 = dense<16> : "           \
    "vector<2xi64>, i32 = dense<32> : vector<2xi64>"

static void x86_64(void **state)
{
    (void)state;
    char *t = import_text("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128");
    assert_string_equal(
        t, "#dlti.dl_spec<!llvm.ptr<270> = dense<32> : vector<4xi64>, !llvm.ptr<271> = dense<32> : "
           "vector<4xi64>, !llvm.ptr<272> = dense<64> : vector<4xi64>, i64 = dense<64> : "
           "vector<2xi64>, i128 = dense<128> : vector<2xi64>, f80 = dense<128> : vector<2xi64>, "
           "!llvm.ptr = dense<64> : vector<4xi64>, " DEFAULTS ", f16 = dense<16> : vector<2xi64>, "
           "f64 = dense<64> : vector<2xi64>, f128 = dense<128> : vector<2xi64>, "
           "\"dlti.endianness\" = \"little\", \"dlti.mangling_mode\" = \"e\", "
           "\"dlti.legal_int_widths\" = array<i32: 8, 16, 32, 64>, \"dlti.stack_alignment\" = 128 : i64>");
    free(t);
}

static void rules(void **state)
{
    (void)state;
    char *t = import_text("");
    assert_string_equal(t, "#dlti.dl_spec<!llvm.ptr = dense<64> : vector<4xi64>, " DEFAULTS
                           ", i64 = dense<[32, 64]> : vector<2xi64>, f16 = dense<16> : vector<2xi64>, "
                           "f64 = dense<64> : vector<2xi64>, f128 = dense<128> : vector<2xi64>, "
                           "\"dlti.endianness\" = \"little\">");
    free(t);
    /* First occurrence wins; P0 stores nothing, so P1 is the first that does. */
    t = import_text("E-i64:64-i64:32-P0-P1-e-p1:32:32:64:16-p1:64:64-Fn16-n64:8");
    assert_non_null(strstr(t, "#dlti.dl_spec<i64 = dense<64> : vector<2xi64>, !llvm.ptr<1> = "
                              "dense<[32, 32, 64, 16]> : vector<4xi64>, !llvm.ptr = "));
    assert_non_null(strstr(t, "\"dlti.endianness\" = \"big\", \"dlti.program_memory_space\" = 1 : "
                              "ui64, \"dlti.function_pointer_alignment\" = "
                              "#dlti.function_pointer_alignment<16, function_dependent = true>, "
                              "\"dlti.legal_int_widths\" = array<i32: 64, 8>>"));
    free(t);
    /* Tokens MLIR does not model are checked, then skipped. */
    t = import_text("e-v128:64:128-a:0:32-ni:1:2");
    assert_null(strstr(t, "v128"));
    free(t);
}

static void malformed(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t offset;
        const char *message;
    } cases[] = {
        {"e-x", 2, "unknown specifier 'x'"},
        {"e-i32:24", 2, "ABI alignment must be a power of two times the byte width"},
        {"e--i32:32", 2, "empty specification is not allowed"},
        {"S0", 0, "stack natural alignment must be non-zero"},
        {"e-p:64:64:64:128", 2, "index size cannot be larger than the pointer size"},
        {"m:q", 0, "unknown mangling mode"},
        {"ni:0", 0, "address space 0 cannot be non-integral"},
        {"e-i8:16", 2, "i8 must be 8-bit aligned"},
        {"e-i32:64:32", 2, "preferred alignment cannot be less than the ABI alignment"},
        {"e-f24:32", 2, "no MLIR float type of 24 bits"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        dlti_error_t err;
        assert_null(dlti_llvm_dl_import(ctx, cases[i].s, strlen(cases[i].s), &err));
        assert_int_equal(err.position, cases[i].offset);
        assert_int_equal(err.column, (int)cases[i].offset + 1);
        if (!strstr(err.text, cases[i].message))
            fail_msg("%s: %s", cases[i].s, err.text);
    }
}

static void round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < dlti_target_dl_count(); i++) {
        const dlti_target_dl *row = dlti_target_dl_get(i);
        dlti_error_t err;
        const dlti_attr *a = dlti_llvm_dl_import(ctx, row->layout, strlen(row->layout), &err);
        if (!a)
            fail_msg("%s: %s", row->triple, err.text);
        char *s = dlti_llvm_dl_export(a, &err);
        assert_non_null(s);
        const dlti_attr *b = dlti_llvm_dl_import(ctx, s, strlen(s), &err);
        assert_non_null(b);
        if (!dlti_attr_equal(a, b))
            fail_msg("%s: %s does not round-trip", row->triple, s);
        free(s);
        /* Layouts made from the table answer queries. */
        dlti_layout *L = dlti_layout_from_spec(a, &err);
        assert_non_null(L);
        dlti_layout_free(L);
    }
}

static void export_errors(void **state)
{
    (void)state;
    /* mlir-translate-22's words for what LLVM strings cannot hold. */
    const char *text = "#dlti.dl_spec<si32 = dense<32> : vector<2xi64>>";
    dlti_error_t err;
    const dlti_attr *a = dlti_attr_parse(ctx, text, strlen(text), "t", &err);
    assert_non_null(a);
    assert_null(dlti_llvm_dl_export(a, &err));
    assert_int_equal(err.code, DLTI_ERROR_UNSUPPORTED);
    assert_string_equal(err.text, "unsupported data layout for non-signless integer 'si32'");
    text = "#dlti.dl_spec<bf16 = dense<16> : vector<2xi64>>";
    a = dlti_attr_parse(ctx, text, strlen(text), "t", &err);
    assert_null(dlti_llvm_dl_export(a, &err));
    assert_string_equal(err.text, "unsupported type in data layout: 'bf16'");
    text = "#dlti.dl_spec<\"vendor.flag\" = 1 : i32>";
    a = dlti_attr_parse(ctx, text, strlen(text), "t", &err);
    assert_null(dlti_llvm_dl_export(a, &err));
    assert_string_equal(err.text, "unsupported data layout key \"vendor.flag\"");
    /* An alignment LLVM refuses (0 after MLIR's whole bytes) is refused. */
    text = "#dlti.dl_spec<i32 = dense<[4, 8]> : vector<2xi64>>";
    a = dlti_attr_parse(ctx, text, strlen(text), "t", &err);
    assert_null(dlti_llvm_dl_export(a, &err));
    assert_int_equal(err.code, DLTI_ERROR_UNSUPPORTED);
    assert_null(dlti_llvm_dl_export(dlti_i64_new(ctx, 3), &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    text = "#dlti.dl_spec<>";
    a = dlti_attr_parse(ctx, text, strlen(text), "t", &err);
    char *s = dlti_llvm_dl_export(a, &err);
    assert_string_equal(s, "");
    free(s);
}

/* The strings mlir-translate-22 writes for these specs (interop_corpus.sh
 * compares more with mlir-translate-22 itself): identifier tokens then type
 * tokens in spec order, pointers with every field, no token for `index` or
 * for LLVM's zero defaults, alignments in MLIR's whole bytes. */
static void export_strings(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"#dlti.dl_spec<\"dlti.endianness\" = \"little\", \"dlti.alloca_memory_space\" = 0 : ui32, "
         "\"dlti.stack_alignment\" = 0 : i32, \"dlti.function_pointer_alignment\" = "
         "#dlti.function_pointer_alignment<64, function_dependent = false>>",
         "e-Fi64"},
        {"#dlti.dl_spec<index = 32, !llvm.ptr = dense<[64, 64, 64]> : vector<3xi64>, "
         "!llvm.ptr<3> = dense<[32, 32, 32, 16]> : vector<4xi64>, \"dlti.endianness\" = \"big\">",
         "E-p0:64:64:64:64-p3:32:32:32:16"},
        {"#dlti.dl_spec<i32 = dense<[12, 20]> : vector<2xi64>, f80 = dense<128> : vector<2xi64>, "
         "\"dlti.program_memory_space\" = 0 : ui32, \"dlti.global_memory_space\" = 1 : ui32, "
         "\"dlti.function_pointer_alignment\" = #dlti.function_pointer_alignment<0, "
         "function_dependent = true>>",
         "G1-i32:8:16-f80:128"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        dlti_error_t err;
        const dlti_attr *a = dlti_attr_parse(ctx, cases[i][0], strlen(cases[i][0]), "t", &err);
        if (!a)
            fail_msg("%s: %s", cases[i][0], err.text);
        char *s = dlti_llvm_dl_export(a, &err);
        if (!s)
            fail_msg("%s: %s", cases[i][0], err.text);
        assert_string_equal(s, cases[i][1]);
        free(s);
    }
}

static void triples(void **state)
{
    (void)state;
    dlti_error_t err;
    const dlti_target_dl *t = dlti_target_dl_find("x86_64-unknown-linux-gnu", &err);
    assert_non_null(t);
    assert_string_equal(t->source, "llvm/lib/TargetParser/TargetDataLayout.cpp");
    /* What LLVM ignores: the vendor, an Apple system's spelling and version,
     * arm64 for aarch64. */
    static const char *const same[][2] = {
        {"x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu"},
        {"x86_64-apple-darwin", "x86_64-apple-macosx"},
        {"x86_64-apple-darwin23.1.0", "x86_64-apple-macosx"},
        {"arm64-apple-macosx14.0", "aarch64-apple-darwin"},
        {"aarch64-unknown-darwin", "aarch64-apple-darwin"},
    };
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        t = dlti_target_dl_find(same[i][0], &err);
        if (!t)
            fail_msg("%s: %s", same[i][0], err.text);
        assert_string_equal(t->triple, same[i][1]);
    }
    /* What it does not: an architecture alone (ppc64's layout differs between
     * Linux and an unknown system), a system or environment no row has, a
     * triple without its vendor (LLVM reads "linux" there as the vendor). */
    static const char *const unknown[] = {"z80-unknown-none", "x86_64-unknown-linux-gnu-extra",
                                          "powerpc64", "riscv64-unknown-freebsd",
                                          "armv7-apple-ios", "powerpc64-linux-gnu", "x86_64"};
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        t = dlti_target_dl_find(unknown[i], &err);
        if (t)
            fail_msg("%s answered by the row %s", unknown[i], t->triple);
        assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    }
    assert_non_null(strstr(err.text, "rows for x86_64 are x86_64-unknown-linux-gnu, "));
    assert_null(dlti_target_dl_get(dlti_target_dl_count()));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(x86_64),     cmocka_unit_test(rules),        cmocka_unit_test(malformed),
        cmocka_unit_test(round_trip), cmocka_unit_test(export_errors), cmocka_unit_test(export_strings),
        cmocka_unit_test(triples),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
