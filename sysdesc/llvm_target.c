/* #llvm.target from a device's keys: what MLIR's LLVM dialect
 * derives a data layout and target features from, filled from the probe's
 * triple, compiler.llvm.cpu and features (sysdesc/system.h). */
#include "sysdesc_private.h"

#include "sysdesc/system.h"

#include <stdlib.h>
#include <string.h>

/* The value at device.k0.k1... in spec, or NULL.  Only reads: a key the
 * context never interned is in no attribute of it, so nothing is interned
 * (which could fail) to look. */
static const dlti_attr *at(dlti_context *ctx, const dlti_attr *spec, const char *device,
                           const char *const *path, size_t n)
{
    dlti_key keys[4];
    keys[0] = dlti_key_find(ctx, device, strlen(device));
    for (size_t i = 0; i < n && i < 3; i++)
        keys[i + 1] = dlti_key_find(ctx, path[i], strlen(path[i]));
    for (size_t i = 0; i <= n && i < 4; i++)
        if (!keys[i])
            return NULL;
    return dlti_attr_query(spec, keys, n + 1, NULL);
}

/* Appends the MLIR string literal of prefix + s (quoted, escaped as
 * mlir-opt-22 does); -1 when out of memory. */
static int put_string(bs_buf *b, const char *prefix, const char *s, size_t len)
{
    size_t plen = strlen(prefix);
    char *raw = malloc(plen + len + 1);
    if (!raw)
        return -1;
    memcpy(raw, prefix, plen);
    memcpy(raw + plen, s, len);
    dlti_print_string(b, raw, plen + len);
    free(raw);
    return 0;
}

static int string_at(dlti_context *ctx, const dlti_attr *spec, const char *device,
                     const char *const *path, size_t n, const char **s, size_t *len,
                     dlti_error_t *err)
{
    const dlti_attr *a = at(ctx, spec, device, path, n);
    *s = NULL;
    if (!a)
        return 0;
    if (dlti_attr_get_string(a, s, len, NULL) != 0) {
        bs_error_set(err, DLTI_ERROR_TYPE, "%s.%s%s%s%s%s is not a string", device, path[0],
                     n > 1 ? "." : "", n > 1 ? path[1] : "", n > 2 ? "." : "",
                     n > 2 ? path[2] : "");
        return -1;
    }
    return 0;
}

const dlti_attr *sysdesc_llvm_target_new(dlti_context *ctx, const dlti_attr *spec,
                                         const char *device, dlti_error_t *err)
{
    bs_error_clear(err);
    if (!device)
        device = "CPU";
    static const char *const triple_key[] = {"triple"};
    static const char *const chip_key[] = {"compiler", "llvm", "cpu"};
    static const char *const features_key[] = {"features"};
    const char *triple, *chip;
    size_t tlen, clen;
    if (!ctx || !spec) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no system spec");
        return NULL;
    }
    if (string_at(ctx, spec, device, triple_key, 1, &triple, &tlen, err) != 0 ||
        string_at(ctx, spec, device, chip_key, 3, &chip, &clen, err) != 0)
        return NULL;
    if (!triple) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "device '%s' has no triple", device);
        return NULL;
    }
    const dlti_attr *features = at(ctx, spec, device, features_key, 1);
    if (features && dlti_attr_get_kind(features) != DLTI_ATTR_ARRAY) {
        bs_error_set(err, DLTI_ERROR_TYPE, "%s.features is not an array of strings", device);
        return NULL;
    }
    /* mlir-opt-22 prints #llvm.target<triple = "...", chip = "...",
     * features = <["+a", ...]>>: the features attribute without its
     * #llvm.target_features mnemonic, inside the target's own brackets. */
    bs_buf b = {0};
    int bad = 0;
    bs_buf_puts(&b, "#llvm.target<triple = ");
    bad |= put_string(&b, "", triple, tlen);
    /* chip is required (MLIR: "struct is missing required parameter:
     * chip"); "" when the device names none, as MLIR's own tests write it */
    bs_buf_puts(&b, ", chip = ");
    bad |= put_string(&b, "", chip ? chip : "", chip ? clen : 0);
    if (features && dlti_attr_size(features)) {
        bs_buf_puts(&b, ", features = <[");
        for (size_t i = 0; i < dlti_attr_size(features) && !bad; i++) {
            const char *f;
            size_t flen;
            if (dlti_attr_get_string(dlti_attr_element(features, i), &f, &flen, NULL) != 0) {
                free(b.data);
                bs_error_set(err, DLTI_ERROR_TYPE, "%s.features[%zu] is not a string", device, i);
                return NULL;
            }
            if (i)
                bs_buf_puts(&b, ", ");
            bad |= put_string(&b, "+", f, flen);
        }
        bs_buf_puts(&b, "]>");
    }
    bs_buf_puts(&b, ">");
    size_t len;
    char *text = sd_buf_finish(&b, &len);
    if (bad || !text) {
        free(text);
        bs_nomem(err);
        return NULL;
    }
    const dlti_attr *a = dlti_attr_parse(ctx, text, len, NULL, err);
    free(text);
    return a;
}
