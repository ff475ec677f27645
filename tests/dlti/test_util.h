/* Helpers shared by the cmocka unit tests of the DLTI core. */
#ifndef SYSDESC_TEST_UTIL_H
#define SYSDESC_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sysdesc/dlti.h"

static inline int setup_ctx(void **state)
{
    *state = dlti_context_new();
    return *state ? 0 : -1;
}

static inline int teardown_ctx(void **state)
{
    dlti_context_free(*state);
    return 0;
}

/* Parses `text` (a module or bare attribute) and prints it back. */
static inline char *roundtrip(dlti_context *ctx, const char *text)
{
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, text, strlen(text), "t", &err);
    if (!s) {
        print_error("parse failed: %d:%d: %s\n", err.line, err.column, err.text);
        return NULL;
    }
    return dlti_scope_print(s, NULL);
}

/* Asserts that `text` prints exactly as `want`. */
#define assert_prints(ctx, input_, want)                                                          \
    do {                                                                                        \
        char *got_ = roundtrip((ctx), (input_));                                                  \
        assert_non_null(got_);                                                                  \
        assert_string_equal(got_, (want));                                                      \
        free(got_);                                                                             \
    } while (0)

/* Asserts that parsing `text` fails with `code` at LINE:COL and message `msg`. */
#define assert_parse_error(ctx, input_, code_, line_, col_, msg)                                  \
    do {                                                                                        \
        dlti_error_t e_;                                                                        \
        memset(&e_, 0, sizeof(e_));                                                             \
        const char *t_ = (input_);                                                                \
        assert_null(dlti_parse((ctx), t_, strlen(t_), "src.mlir", &e_));                        \
        assert_string_equal(e_.text, (msg));                                                    \
        assert_int_equal(e_.line, (line_));                                                     \
        assert_int_equal(e_.column, (col_));                                                    \
        assert_int_equal(e_.code, (code_));                                                     \
        assert_string_equal(e_.source, "src.mlir");                                             \
    } while (0)

/* A bare attribute, parsed or the test fails. */
static inline const dlti_attr *attr_of(dlti_context *ctx, const char *text)
{
    dlti_error_t err;
    const dlti_attr *a = dlti_attr_parse(ctx, text, strlen(text), "t", &err);
    if (!a)
        print_error("parse of %s failed: %d:%d: %s\n", text, err.line, err.column, err.text);
    assert_non_null(a);
    return a;
}

/* Prints an attribute into a static-free malloc'ed string compared then freed. */
#define assert_attr_prints(attr, want)                                                          \
    do {                                                                                        \
        char *p_ = dlti_attr_print((attr), NULL);                                               \
        assert_non_null(p_);                                                                    \
        assert_string_equal(p_, (want));                                                        \
        free(p_);                                                                               \
    } while (0)

static inline dlti_key skey(dlti_context *ctx, const char *s)
{
    return dlti_key_string(ctx, s, strlen(s));
}

static inline dlti_key tkey(dlti_context *ctx, const char *type)
{
    const dlti_type *t = dlti_type_parse(ctx, type, strlen(type), NULL);
    assert_non_null(t);
    return dlti_key_type(ctx, t);
}

#endif
