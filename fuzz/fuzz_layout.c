/* Fuzz targets for data layouts: LLVM data layout strings and layout queries. */
#include "fuzz_targets.h"

#include "sysdesc/dlti.h"
#include "sysdesc/layout.h"

#include <stdlib.h>
#include <string.h>

/* import(s) -> export -> import again: the two specs must print the same,
 * and a failed import must say where. */
int sysdesc_fuzz_dl(const uint8_t *data, size_t size)
{
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        sysdesc_fuzz_fail("context");
    dlti_error_t err;
    const dlti_attr *spec = dlti_llvm_dl_import(ctx, (const char *)data, size, &err);
    if (!spec) {
        if (err.text[0] == '\0' || err.position > size)
            sysdesc_fuzz_fail("import failed without a message or a valid offset");
    } else {
        char *s = dlti_llvm_dl_export(spec, &err);
        if (s) {
            const dlti_attr *again = dlti_llvm_dl_import(ctx, s, strlen(s), &err);
            if (!again || !dlti_attr_equal(spec, again))
                sysdesc_fuzz_fail("import(export(import(s))) != import(s)");
            free(s);
        }
    }
    dlti_context_free(ctx);
    return 0;
}

static bool same_layout(const dlti_type_layout *x, const dlti_type_layout *y)
{
    return x->size == y->size && x->bitsize == y->bitsize && x->abi_alignment == y->abi_alignment &&
           x->preferred_alignment == y->preferred_alignment &&
           x->index_bitwidth == y->index_bitwidth && x->scalable == y->scalable;
}

/* "SPEC\0TYPE\0TYPE...": every type's layout in the spec's top scope; a
 * second layout object must give the same answers (the cache changes none). */
int sysdesc_fuzz_layout(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t spec_len = nul ? (size_t)(nul - text) : size;
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        sysdesc_fuzz_fail("context");
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, text, spec_len, "fuzz", &err);
    dlti_layout *a = s ? dlti_layout_new(s, &err) : NULL;
    dlti_layout *b = s ? dlti_layout_new(s, &err) : NULL;
    if (a && b && nul) {
        const char *p = nul + 1, *end = text + size;
        while (p < end) {
            const char *q = memchr(p, '\0', (size_t)(end - p));
            size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
            const dlti_type *t = dlti_type_parse(ctx, p, n, &err);
            if (t) {
                dlti_type_layout r1, r2, r3;
                int rc1 = dlti_layout_query(a, t, &r1, &err);
                int rc2 = dlti_layout_query(a, t, &r2, &err); /* cached now */
                int rc3 = dlti_layout_query(b, t, &r3, &err);
                if (rc1 != rc2 || rc1 != rc3 ||
                    (rc1 == 0 && (!same_layout(&r1, &r2) || !same_layout(&r1, &r3))))
                    sysdesc_fuzz_fail("cached and uncached layout answers differ");
            }
            p += n + 1;
        }
    }
    dlti_layout_free(a);
    dlti_layout_free(b);
    dlti_context_free(ctx);
    return 0;
}
