/* The rules of the format that both builders apply (docs/yaml.md): what a
 * mapping key may be, which tags a collection may carry, what a system and a
 * device are, when keys repeat.  The tree path (yaml_load.c) reports what
 * they say; the fast path (yaml_stream.c) falls back to the tree on any of
 * their errors.  One implementation, so the two paths accept exactly the
 * same documents. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

/* ---- keys ---- */

static dlti_key type_key(dlti_context *ctx, sd_types *tc, const sd_node *k, sd_level level,
                         const char *source, dlti_error_t *err)
{
    if (level == SD_LEVEL_DEVICE) {
        bs_error_set_at(err, DLTI_ERROR_VERIFY, source, k->line, k->column,
                        "type as DLTI key is not allowed (in a device)");
        return NULL;
    }
    const dlti_type *t = sd_type_scalar(ctx, tc, k, source, err);
    if (!t)
        return NULL;
    dlti_key key = dlti_key_type(ctx, t);
    if (!key)
        sd_nomem(ctx, err, source);
    return key;
}

dlti_key sd_key(dlti_context *ctx, sd_types *tc, const sd_node *k, sd_level level,
                const char *source, dlti_error_t *err)
{
    if (k->kind != SD_SCALAR) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, k->line, k->column,
                        "a key must be a scalar, not a %s",
                        k->kind == SD_MAPPING ? "mapping" : "sequence");
        return NULL;
    }
    if (level == SD_LEVEL_SYSTEM && k->tag && !sd_tag_is(k, SD_TAG_STR)) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, k->line, k->column,
                        "a device id is a string; tag '%s' is not allowed here", k->tag);
        return NULL;
    }
    if (level != SD_LEVEL_SYSTEM && sd_is_plain_word(k, "<<")) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, k->line, k->column,
                        "YAML merge keys ('<<') are not supported: use 'base:' (docs/yaml.md)");
        return NULL;
    }
    if (sd_tag_is(k, "!type"))
        return type_key(ctx, tc, k, level, source, err);
    if (k->tag && !sd_tag_is(k, SD_TAG_STR)) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, k->line, k->column,
                        "a key is a string or '!type TYPE'; tag '%s' is not allowed here",
                        k->tag);
        return NULL;
    }
    /* As MLIR: an empty device ID is allowed (mlir-opt-22), an empty key
     * inside a device or map is not. */
    if (k->len == 0 && level != SD_LEVEL_SYSTEM) {
        bs_error_set_at(err, DLTI_ERROR_VERIFY, source, k->line, k->column,
                        "empty string as DLTI key is not allowed");
        return NULL;
    }
    if (sd_string_check(ctx, tc, k, source, err) < 0)
        return NULL;
    dlti_key key = dlti_key_string(ctx, k->u.text, k->len);
    if (!key)
        sd_nomem(ctx, err, source);
    return key;
}

int sd_key_repeat(const dlti_entry *entries, size_t n, sd_key_set *set, size_t *dup,
                  size_t *first)
{
    /* Keys are interned: equal keys are equal pointers. */
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (entries[i].key == entries[j].key) {
                    *dup = i;
                    *first = j;
                    return 1;
                }
        return 0;
    }
    size_t cap = 32;
    while (cap < n * 2)
        cap *= 2;
    if (cap > set->cap) {
        free(set->slots);
        set->slots = malloc(cap * sizeof(*set->slots));
        set->cap = set->slots ? cap : 0;
        if (!set->slots)
            return -1;
    }
    size_t *slots = set->slots;
    memset(slots, 0xff, cap * sizeof(*slots));  /* SIZE_MAX: empty */
    for (size_t i = 0; i < n; i++) {
        uintptr_t h = (uintptr_t)entries[i].key;
        h ^= h >> 17;
        h *= (uintptr_t)0x9E3779B97F4A7C15ull;
        for (size_t s = (h >> 20) & (cap - 1);; s = (s + 1) & (cap - 1)) {
            if (slots[s] == SIZE_MAX) {
                slots[s] = i;
                break;
            }
            if (entries[slots[s]].key == entries[i].key) {
                *dup = i;
                *first = slots[s];
                return 1;
            }
        }
    }
    return 0;
}

/* ---- collections ---- */

int sd_map_kind(const sd_node *n, dlti_attr_kind dflt, dlti_attr_kind *kind, const char *source,
                dlti_error_t *err)
{
    if (!n->tag || sd_tag_is(n, SD_TAG_MAP)) {
        *kind = dflt;
    } else if (sd_tag_is(n, "!map")) {
        *kind = DLTI_ATTR_MAP;
    } else if (sd_tag_is(n, "!dl_spec")) {
        *kind = DLTI_ATTR_DL_SPEC;
    } else {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                        "unknown tag '%s' on a mapping (known: !map, !dl_spec)", n->tag);
        return -1;
    }
    return 0;
}

/* A dense array's tag (!array:T) is no error here: the tree path builds it
 * (sd_dense_array()) before asking; the fast path falls back on it. */
int sd_seq_check(const sd_node *n, const char *source, dlti_error_t *err)
{
    if (!n->tag || sd_tag_is(n, SD_TAG_SEQ))
        return 0;
    bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, n->line, n->column,
                    "unknown tag '%s' on a sequence (known: %sTYPE)", n->tag,
                    SD_TAG_DENSE);
    return -1;
}

int sd_root_check(const sd_node *root, const char *source, dlti_error_t *err)
{
    if (!root) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, 1, 1,
                        "empty document: a system is a mapping from device id to device "
                        "properties");
        return -1;
    }
    if (root->kind == SD_MAPPING && (!root->tag || sd_tag_is(root, SD_TAG_MAP)))
        return 0;
    bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, root->line, root->column,
                    "a system is a mapping from device id to device properties");
    return -1;
}

int sd_device_check(const sd_node *v, const char *id, const char *source, dlti_error_t *err)
{
    if (v->kind == SD_MAPPING && (!v->tag || sd_tag_is(v, SD_TAG_MAP)))
        return 0;
    bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, v->line, v->column,
                    "device '%s' must be a mapping of properties", id);
    return -1;
}
