/* What to say when a query finds nothing: the nearest key where the path
 * stops, or the keys that are there (dlti_query_hint in dlti.h). */
#include "dlti_private.h"

#include <stdio.h>
#include <string.h>

/* Whether two keys differ in ASCII letter case only ("gpu" and "GPU"); ASCII
 * by hand, not strncasecmp, so the answer does not depend on the locale. */
static bool same_but_case(const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb)
        return false;
    for (size_t i = 0; i < la; i++) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] - 'A' + 'a') : a[i];
        char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] - 'A' + 'a') : b[i];
        if (x != y)
            return false;
    }
    return true;
}

/* Appends to `out` the nearest string key of `containers` to `want`, or,
 * when none is close, the keys there.  A key that differs in case only comes
 * first: "l1" and "gpu" are too short for the edit-distance limit, and a
 * wrong case is the likeliest slip in a key typed by hand. */
static int hint_at(const dlti_attr *const *containers, size_t nc, dlti_key want, char *out,
                   size_t size)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX, best_len = 0;
    if (want->type == NULL) {
        for (size_t c = 0; c < nc && !best; c++) {
            for (size_t i = 0; i < containers[c]->n && !best; i++) {
                dlti_key k = containers[c]->u.c.entries[i].key;
                if (!k->type && same_but_case(want->str, want->len, k->str, k->len)) {
                    best = k->str;
                    best_len = k->len;
                    best_d = 0;
                }
            }
        }
    }
    if (want->type == NULL && !best) {
        size_t limit = want->len / 3; /* "L3" suggests nothing: its keys are listed */
        for (size_t c = 0; c < nc; c++) {
            for (size_t i = 0; i < containers[c]->n; i++) {
                dlti_key k = containers[c]->u.c.entries[i].key;
                if (k->type)
                    continue;
                size_t d = bs_edit_distance(want->str, want->len, k->str, k->len);
                if (d <= limit && d < best_d) {
                    best = k->str;
                    best_len = k->len;
                    best_d = d;
                }
            }
        }
    }
    if (best)
        return snprintf(out, size, "did you mean \"%.*s\"?", (int)best_len, best) > 0 ? 0 : -1;
    size_t used = (size_t)snprintf(out, size, "keys here:");
    size_t shown = 0, total = 0;
    for (size_t c = 0; c < nc; c++) {
        for (size_t i = 0; i < containers[c]->n; i++, total++) {
            dlti_key k = containers[c]->u.c.entries[i].key;
            /* room kept for ", ... (N in all)" */
            if (used + k->len + 8 + 24 >= size || shown == 24)
                continue;
            used += (size_t)snprintf(out + used, size - used, "%s \"%s\"", shown ? "," : "",
                                     k->str);
            shown++;
        }
    }
    if (total == 0)
        snprintf(out, size, "there are no keys here");
    else if (shown < total && used + 16 < size)
        snprintf(out + used, size - used, ", ... (%zu in all)", total);
    return 0;
}

int dlti_query_hint(const dlti_scope *scope, const dlti_attr *attr, const dlti_key *keys,
                    size_t n, char *out, size_t size)
{
    if (!out || size == 0 || n == 0)
        return -1;
    out[0] = '\0';
    const dlti_attr *containers[64];
    size_t nc = 0;
    if (attr) {
        containers[nc++] = attr;
    } else {
        for (const dlti_scope *s = scope; s && nc < 64; s = s->parent)
            for (size_t i = 0; i < s->num_attrs && nc < 64; i++)
                if (dlti_attr_is_queryable(s->attrs[i].value))
                    containers[nc++] = s->attrs[i].value;
    }
    for (size_t k = 0; k < n; k++) {
        const dlti_attr *found = NULL;
        for (size_t c = 0; c < nc && !found; c++)
            if (dlti_attr_is_queryable(containers[c]))
                found = dlti_attr_lookup(containers[c], keys[k]);
        if (!found) {
            size_t queryable = 0;
            for (size_t c = 0; c < nc; c++)
                if (dlti_attr_is_queryable(containers[c]))
                    containers[queryable++] = containers[c];
            if (queryable == 0)
                return snprintf(out, size, "the value before \"%s\" holds no keys",
                                keys[k]->str) > 0 ? 0 : -1;
            return hint_at(containers, queryable, keys[k], out, size);
        }
        containers[0] = found;
        nc = 1;
    }
    return -1; /* the path is there: no hint */
}
