/* Smoke tests of the DLTI core through the public API. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sysdesc/dlti.h"

static void parse_and_query(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const char *text = "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<"
                       "\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size_in_bytes\" = 32768>>>>";
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, text, strlen(text), "t", &err);
    assert_non_null(s);
    const char *keys[] = {"CPU", "cache", "L1", "size_in_bytes"};
    const dlti_attr *v = dlti_query_strings(s, keys, 4, &err);
    assert_non_null(v);
    int64_t x = 0;
    assert_int_equal(dlti_attr_get_int64(v, &x, &err), 0);
    assert_int_equal(x, 32768);
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_and_query),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
