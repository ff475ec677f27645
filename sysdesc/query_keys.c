/* The keys of a query path as a user types them, one a word (`sysdesc
 * query FILE CPU cache L1 size_in_bytes`, `... type:i32`): what
 * dlti_query() and dlti_attr_query() take. */
#include "sysdesc_private.h"
#include "sysdesc/get.h"

#include <string.h>

int sysdesc_query_keys(dlti_context *ctx, const char *const *words, size_t n, dlti_key *keys,
                       dlti_error_t *err)
{
    if (!ctx || (n && (!words || !keys))) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "query keys: needs a context, words and room "
                                                 "for the keys");
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        const char *w = words[k];
        if (strncmp(w, "type:", 5) == 0) {
            dlti_error_t why;
            const dlti_type *t = dlti_type_parse(ctx, w + 5, strlen(w + 5), &why);
            if (!t) {
                if (why.code == DLTI_ERROR_NOMEM || why.code == DLTI_ERROR_LIMIT)
                    *err = why;
                else
                    bs_error_set(err, DLTI_ERROR_SYNTAX, "invalid type key '%s': %s", w,
                                 why.text);
                return -1;
            }
            keys[k] = dlti_key_type(ctx, t);
        } else {
            keys[k] = dlti_key_string(ctx, w, strlen(w));
        }
        if (!keys[k])
            return dlti_context_nomem(ctx, err);
    }
    return 0;
}
