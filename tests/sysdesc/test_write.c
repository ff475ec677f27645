/* sysdesc_system_write(): a system printed in pieces as it is printed, the
 * pieces joined being the text sysdesc_system_print_checked() prints whole
 * (the peer), in every format; a writer that refuses stops it; a format
 * that cannot hold the system writes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysdesc/sysdesc.h"

/* What a writer was given, joined; `refuse_at` > 0: the call that refuses. */
typedef struct pieces {
    char *text;
    size_t len, calls, largest;
    size_t refuse_at;
} pieces;

static int collect(void *user, const char *data, size_t len)
{
    pieces *p = user;
    if (++p->calls == p->refuse_at)
        return 1;
    p->text = realloc(p->text, p->len + len + 1);
    assert_non_null(p->text);
    memcpy(p->text + p->len, data, len);
    p->len += len;
    p->text[p->len] = '\0';
    if (len > p->largest)
        p->largest = len;
    return 0;
}

/* `n` devices, each with floats a MLIR array prints as hex bits (whose
 * ": f64" is not elided) at places that move against the pieces' edges. */
static char *many_devices(size_t n, size_t *len)
{
    size_t cap = n * 400 + 64, used = 0;
    char *yaml = malloc(cap);
    assert_non_null(yaml);
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(yaml + used, cap - used,
                                 "GPU%zu:\n  device_type: GPU\n  vendor: \"V\\u00e9ndor %zu\"\n"
                                 "  memory_size_in_bytes: %zu\n  peak: %zu.25e9\n"
                                 "  bits: !mlir '[0x7FF8000000000000 : f64, %zu.5, "
                                 "0x7FF0000000000000 : f64]'\n  pad: \"%.*s\"\n",
                                 i, i, (i + 1) * 1024, i + 1, i, (int)(i % 37), "-------------------------------------");
    assert_true(used < cap);
    *len = used;
    return yaml;
}

static void load(dlti_context *ctx, const char *text, size_t len, sysdesc_system *sys)
{
    sysdesc_yaml_options raw = {.flags = SYSDESC_LOAD_NO_CHECK};
    dlti_error_t err;
    if (sysdesc_system_parse(ctx, text, len, "t.yaml", &raw, sys, &err) != 0)
        fail_msg("%d:%d: %s", err.line, err.column, err.text);
}

static void pieces_are_the_whole_text(void **state)
{
    (void)state;
    static const struct {
        sysdesc_format format;
        unsigned flags;
    } forms[] = {
        {SYSDESC_FORMAT_MLIR, 0},
        {SYSDESC_FORMAT_ATTR, 0},
        {SYSDESC_FORMAT_YAML, 0},
        {SYSDESC_FORMAT_JSON, 0},
        {SYSDESC_FORMAT_JSON, SYSDESC_PRINT_TYPED},
        {SYSDESC_FORMAT_MLIR, SYSDESC_PRINT_PRETTY},
    };
    dlti_context *ctx = dlti_context_new();
    size_t len;
    char *yaml = many_devices(900, &len);
    sysdesc_system sys;
    load(ctx, yaml, len, &sys);
    for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
        dlti_error_t err;
        size_t n;
        char *whole = sysdesc_system_print_checked(&sys, forms[f].format, forms[f].flags, &n, &err);
        if (!whole)
            fail_msg("form %zu: %s", f, err.text);
        pieces p = {0};
        assert_int_equal(sysdesc_system_write(&sys, forms[f].format, forms[f].flags, collect, &p,
                                              &err),
                         0);
        assert_int_equal(p.len, n);
        assert_memory_equal(p.text, whole, n);
        /* MLIR is handed on as it is printed, a buffer's worth at a time */
        if (forms[f].format != SYSDESC_FORMAT_YAML && forms[f].format != SYSDESC_FORMAT_JSON &&
            !forms[f].flags) {
            assert_true(n > 2 * 65536);
            assert_true(p.calls >= n / 65536);
            assert_true(p.largest <= 65536);
        }
        free(p.text);
        free(whole);
    }
    free(yaml);
    dlti_context_free(ctx);
}

static void a_refusal_stops_the_write(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    size_t len;
    char *yaml = many_devices(900, &len);
    sysdesc_system sys;
    load(ctx, yaml, len, &sys);
    static const sysdesc_format formats[] = {SYSDESC_FORMAT_MLIR, SYSDESC_FORMAT_YAML};
    for (size_t f = 0; f < 2; f++) {
        pieces p = {.refuse_at = formats[f] == SYSDESC_FORMAT_MLIR ? 2 : 1};
        dlti_error_t err;
        assert_int_equal(sysdesc_system_write(&sys, formats[f], 0, collect, &p, &err), -1);
        assert_int_equal(err.code, DLTI_ERROR_IO);
        assert_int_equal(p.calls, p.refuse_at); /* nothing more after the refusal */
        free(p.text);
    }
    free(yaml);
    dlti_context_free(ctx);
}

static void a_format_that_cannot_hold_it_writes_nothing(void **state)
{
    (void)state;
    /* a device id that is no UTF-8: YAML and JSON cannot hold it, MLIR can */
    static const char mlir[] =
        "module attributes {dlti.target_system_spec = #dlti.target_system_spec<\"G\\FF\" = "
        "#dlti.target_device_spec<\"device_type\" = \"GPU\">>} {\n}\n";
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    load(ctx, mlir, sizeof(mlir) - 1, &sys);
    static const sysdesc_format formats[] = {SYSDESC_FORMAT_YAML, SYSDESC_FORMAT_JSON};
    for (size_t f = 0; f < 2; f++) {
        pieces p = {0};
        dlti_error_t err;
        assert_int_equal(sysdesc_system_write(&sys, formats[f], 0, collect, &p, &err), -1);
        assert_int_equal(err.code, DLTI_ERROR_UNSUPPORTED);
        assert_int_equal(p.calls, 0);
    }
    pieces p = {0};
    assert_int_equal(sysdesc_system_write(&sys, SYSDESC_FORMAT_MLIR, 0, collect, &p, NULL), 0);
    assert_non_null(strstr(p.text, "\"G\\FF\""));
    free(p.text);
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pieces_are_the_whole_text),
        cmocka_unit_test(a_refusal_stops_the_write),
        cmocka_unit_test(a_format_that_cannot_hold_it_writes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
