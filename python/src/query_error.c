/* query_error.c - a failed query's message in Python: the key path, the
 * device, and the keys that are there where the path stops, in one line.
 *
 * The library's text is MLIR's note, which prints the container whole (a
 * device spec: over 1,000 characters, cut at DLTI_ERROR_TEXT_LENGTH); the
 * CLI prints that note as mlir-opt-22 does, and Python, where the message is
 * read in a traceback, says where and what instead. */
#include "ext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* How many keys a message lists where the path stops ("... and N more"). */
#define SHOWN_KEYS 8
/* How deep the search for a Map's own path in the system spec goes. */
#define MAX_PREFIX 32

typedef struct text {
    char *s;
    size_t cap, used;
} text;

static void put(text *t, const char *fmt, ...)
{
    if (t->used >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->used, t->cap - t->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used = t->used + (size_t)n < t->cap ? t->used + (size_t)n : t->cap;
}

/* A key as a path shows it: a string as it is, a type key as its MLIR text. */
static void put_key(text *t, dlti_key k, bool quoted)
{
    size_t len = 0;
    const char *s = dlti_key_str(k, &len);
    if (s)
        put(t, quoted ? "\"%.*s\"" : "%.*s", (int)len, s);
    else
        put(t, "%s", dlti_key_get_type(k) ? dlti_type_str(dlti_key_get_type(k)) : "?");
}

static void put_path(text *t, const dlti_key *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(t, ".");
        put_key(t, keys[i], false);
    }
}

/* The keys from `root` to `target` (pointer equality) into prefix[], their
 * number in *n: true when found.  Only on an error, so a plain search. */
static bool find_prefix(const dlti_attr *root, const dlti_attr *target, dlti_key *prefix,
                        size_t depth, size_t *n)
{
    if (root == target) {
        *n = depth;
        return true;
    }
    if (depth == MAX_PREFIX)
        return false;
    if (!dlti_attr_is_queryable(root))
        return false;
    for (size_t i = 0; i < dlti_attr_size(root); i++) {
        prefix[depth] = dlti_attr_entry_key(root, i);
        if (find_prefix(dlti_attr_entry_value(root, i), target, prefix, depth + 1, n))
            return true;
    }
    return false;
}

/* Writes the message into `out` (a dlti_error_t's text); false when the path
 * is found after all (a scoped query that looked elsewhere): MLIR's words
 * then stay. */
static bool describe(const dlti_attr *root, const dlti_attr *attr, const dlti_key *keys,
                     size_t n, char *out, size_t size)
{
    /* Where the path stops, looked up one key at a time as the query does. */
    const dlti_attr *cur = attr, *next = NULL;
    size_t stop = 0;
    for (; stop < n; stop++) {
        if (!dlti_attr_is_queryable(cur))
            break;
        dlti_error_t ignored;
        if (!(next = dlti_attr_query(cur, &keys[stop], 1, &ignored)))
            break;
        cur = next;
    }
    if (stop == n)
        return false;
    /* The whole path from the system spec, when `attr` lies in it. */
    dlti_key full[MAX_PREFIX + 64];
    size_t np = 0;
    if (!root || !find_prefix(root, attr, full, 0, &np))
        np = 0;
    bool in_system = root && np + n <= sizeof full / sizeof *full &&
                     (np > 0 || root == attr) &&
                     dlti_attr_get_kind(root) == DLTI_ATTR_SYSTEM_SPEC;
    if (!in_system)
        np = 0;
    else
        memcpy(full + np, keys, n * sizeof *keys);
    const dlti_key *path = in_system ? full : keys;
    size_t plen = np + n, at = np + stop; /* path[at] is the key not there */

    text t = {out, size, 0};
    if (!dlti_attr_is_queryable(cur)) {
        const char *kind = dlti_attr_kind_name(dlti_attr_get_kind(cur));
        put_path(&t, path, at);
        put(&t, " holds %s %s, not keys: no key ", strchr("aeiou", kind[0]) ? "an" : "a", kind);
        put_key(&t, path[at], true);
    } else if (in_system && at == 0) {
        put(&t, "no device ");
        put_key(&t, path[0], true);
    } else {
        put(&t, "no key ");
        put_key(&t, path[at], true);
        if (at > 0) {
            put(&t, " in ");
            put_path(&t, path, at);
        }
    }
    put(&t, " (key path ");
    put_path(&t, path, plen);
    if (in_system && at > 0) {
        put(&t, ", device ");
        put_key(&t, path[0], true);
    }
    put(&t, ")");
    if (dlti_attr_is_queryable(cur)) {
        size_t total = dlti_attr_size(cur);
        const char *what = in_system && at == 0 ? "devices" : "keys there";
        if (total == 0)
            put(&t, "; %s: none", what);
        for (size_t i = 0; i < total && i < SHOWN_KEYS; i++) {
            put(&t, i ? ", " : "; %s: ", what);
            put_key(&t, dlti_attr_entry_key(cur, i), true);
        }
        if (total > SHOWN_KEYS)
            put(&t, " and %zu more", total - SHOWN_KEYS);
    }
    return true;
}

bool ext_query_message(SystemObject *system, const dlti_attr *attr, const dlti_key *keys,
                       size_t n, char *out, size_t size)
{
    if (!attr || n == 0 || size == 0)
        return false;
    return describe(system ? system->sys.spec : NULL, attr, keys, n, out, size);
}
