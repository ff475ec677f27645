/* The strict JSON validator the fuzz targets judge sysdesc's JSON with: it
 * must accept JSON and reject each way of not being JSON, or the fuzz
 * invariant "JSON output is JSON" proves nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "json_strict.h"

static const char *check(const char *s)
{
    return sysdesc_json_strict_check(s, strlen(s), NULL);
}

static void accepts_json(void **state)
{
    (void)state;
    const char *ok[] = {
        "{}", "[]", "0", "-0.5e+3", " {\"a\": [1, 2.5, true, false, null]} ",
        "\"\\u00e9\\ud83d\\ude00\\n\\\"\"", "\"\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\"",
        "{\"a\": {\"a\": 1}, \"b\": 2}",
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        assert_null(check(ok[i]));
}

static void rejects_non_json(void **state)
{
    (void)state;
    const char *bad[] = {
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", ".5", "+1", "1e", "NaN", "Infinity", "tru",
        "\"\x01\"",             /* raw control character */
        "\"\xff\"",             /* not UTF-8 */
        "\"\xc0\x80\"",         /* overlong */
        "\"\xed\xa0\x80\"",     /* encoded surrogate */
        "\"\xf4\x90\x80\x80\"", /* above U+10FFFF */
        "\"\\ud800\"",          /* lone high surrogate escape */
        "\"\\udc00\"",          /* lone low surrogate escape */
        "\"\\x41\"",            /* not a JSON escape */
        "{\"a\": 1, \"a\": 2}", /* duplicate key */
        "1 2",                  /* text after the value */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_non_null(check(bad[i]));
    /* The NUL inside a length-delimited string is a control character. */
    assert_non_null(sysdesc_json_strict_check("\"a\0b\"", 5, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_json),
        cmocka_unit_test(rejects_non_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
