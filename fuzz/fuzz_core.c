/* Fuzz targets for the DLTI core: the MLIR parser, the type parser, queries. */
#include "fuzz_targets.h"

#include "sysdesc/dlti.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sysdesc_fuzz_fail(const char *what)
{
    fprintf(stderr, "fuzz invariant broken: %s\n", what);
    abort();
}

/* Small limits so that deep or huge inputs hit them quickly. */
static dlti_context *fuzz_context(void)
{
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        sysdesc_fuzz_fail("context");
    dlti_limits l = {.max_depth = 200, .max_input_bytes = 1 << 20,
                     .max_string_bytes = 1 << 16, .max_entries = 1 << 16};
    dlti_context_set_limits(ctx, &l);
    return ctx;
}

/* A memory budget from 4 KiB to 260 KiB, picked by the input's bytes, so
 * that the fuzzer runs out of memory at every allocation site it reaches. */
size_t sysdesc_fuzz_budget(const uint8_t *data, size_t size)
{
    size_t h = 5381;
    for (size_t i = 0; i < size && i < 64; i++)
        h = h * 33 + data[i];
    return 4096 + (h % 64) * 4096;
}

/* The same parse under a small budget: it succeeds, or fails with an error
 * that says why (never DLTI_OK, never empty), and the context stays usable. */
static void parse_in_budget(const uint8_t *data, size_t size)
{
    dlti_context *ctx = fuzz_context();
    dlti_limits l = {.max_depth = 200, .max_input_bytes = 1 << 20,
                     .max_string_bytes = 1 << 16, .max_entries = 1 << 16,
                     .max_memory_bytes = sysdesc_fuzz_budget(data, size)};
    dlti_context_set_limits(ctx, &l);
    dlti_error_t err;
    if (!dlti_parse(ctx, (const char *)data, size, "fuzz", &err) &&
        (err.text[0] == '\0' || err.code == DLTI_OK))
        sysdesc_fuzz_fail("parse in a small budget failed without a reason");
    dlti_context_free(ctx);
}

int sysdesc_fuzz_mlir(const uint8_t *data, size_t size)
{
    parse_in_budget(data, size);
    dlti_context *ctx = fuzz_context();
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, (const char *)data, size, "fuzz", &err);
    if (!s) {
        if (err.text[0] == '\0' || err.code == DLTI_OK)
            sysdesc_fuzz_fail("parse failed without a message");
        if (err.line < 1 || err.column < 1 || err.position > size)
            sysdesc_fuzz_fail("parse error without a valid position");
    } else {
        size_t n1, n2;
        char *p1 = dlti_scope_print(s, &n1);
        if (!p1)
            sysdesc_fuzz_fail("print");
        const dlti_scope *s2 = dlti_parse(ctx, p1, n1, "reprint", &err);
        if (!s2) {
            fprintf(stderr, "%.*s\n%s\n", (int)(n1 > 2000 ? 2000 : n1), p1, err.text);
            sysdesc_fuzz_fail("printed text does not parse");
        }
        char *p2 = dlti_scope_print(s2, &n2);
        /* MLIR reads float literals through a double, so f80/f128 values
         * beyond a double's precision or range do not read back to the same
         * bits; sysdesc prints and reads them as MLIR does (byte-identical
         * output), so only those may change on a second round. */
        bool wide_float = strstr(p1, "f80") || strstr(p1, "f128");
        if (!p2 || (!wide_float && (n1 != n2 || memcmp(p1, p2, n1) != 0)))
            sysdesc_fuzz_fail("second print differs from the first");
        free(p1);
        free(p2);
    }
    dlti_context_free(ctx);
    return 0;
}

int sysdesc_fuzz_type(const uint8_t *data, size_t size)
{
    dlti_context *ctx = fuzz_context();
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(ctx, (const char *)data, size, &err);
    if (t) {
        const char *text = dlti_type_str(t);
        const dlti_type *t2 = dlti_type_parse(ctx, text, strlen(text), &err);
        if (t2 != t)
            sysdesc_fuzz_fail("re-parsed type is not the same type");
    }
    dlti_context_free(ctx);
    return 0;
}

int sysdesc_fuzz_query(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t spec_len = nul ? (size_t)(nul - text) : size;
    dlti_context *ctx = fuzz_context();
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, text, spec_len, "fuzz", &err);
    if (s && nul) {
        /* Keys: NUL-separated after the spec; copy so each is terminated. */
        size_t rest = size - spec_len - 1;
        char *keys_buf = malloc(rest + 1);
        const char *keys[16];
        dlti_key handles[16];
        size_t n = 0;
        memcpy(keys_buf, nul + 1, rest);
        keys_buf[rest] = '\0';
        for (char *k = keys_buf; n < 16 && k <= keys_buf + rest; k += strlen(k) + 1)
            keys[n++] = k;
        const dlti_attr *a = dlti_query_strings(s, keys, n, &err);
        for (size_t i = 0; i < n; i++)
            handles[i] = dlti_key_string(ctx, keys[i], strlen(keys[i]));
        const dlti_attr *b = dlti_query(s, handles, n, &err);
        if (a != b)
            sysdesc_fuzz_fail("string-key and handle queries disagree");
        free(keys_buf);
    }
    dlti_context_free(ctx);
    return 0;
}
