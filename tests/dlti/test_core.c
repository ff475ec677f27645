/* Smoke tests of the DLTI core through the public API. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sysdesc/dlti.h"
#include "dlti_private.h"

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

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The hash string keys are interned and looked up by: the C-string form
 * (measured while hashed, query.c) equals the counted one for every length,
 * and keys of up to 8 bytes of one length never collide (the mix is a
 * bijection of their bytes). */
static void key_hash(void **state)
{
    (void)state;
    char s[41];
    for (size_t len = 0; len <= 40; len++) {
        for (size_t i = 0; i < len; i++)
            s[i] = (char)('a' + (i * 7 + len) % 26);
        s[len] = '\0';
        size_t got = 99;
        assert_true(bs_hash_cstring(s, &got) == bs_hash_inline(s, len));
        assert_int_equal(got, len);
        assert_true(bs_hash_bytes(s, len) == bs_hash_inline(s, len));
    }
    /* Every 2-byte key over 0x01..0xff: all hashes distinct. */
    size_t n = 255 * 255;
    uint64_t *h = malloc(n * sizeof(*h));
    assert_non_null(h);
    size_t k = 0;
    for (int a = 1; a < 256; a++)
        for (int b = 1; b < 256; b++) {
            char two[2] = {(char)a, (char)b};
            h[k++] = bs_hash_inline(two, 2);
        }
    qsort(h, n, sizeof(*h), cmp_u64);
    for (size_t i = 1; i < n; i++)
        assert_true(h[i - 1] != h[i]);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_and_query),
        cmocka_unit_test(key_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
