/* The context: arena, interned keys and uniqued types. */
#include "dlti_private.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

static const dlti_limits default_limits = {
    .max_depth = DLTI_DEFAULT_MAX_DEPTH,
    .max_input_bytes = (size_t)1 << 30,
    .max_string_bytes = (size_t)16 << 20,
    .max_entries = (size_t)16 << 20,
    .max_memory_bytes = (size_t)4 << 30,
};

const dlti_attr *dlti_attr_alloc(dlti_context *ctx, dlti_attr_kind kind)
{
    dlti_attr *a = bs_arena_alloc(&ctx->arena, sizeof(*a));
    if (a) {
        memset(a, 0, sizeof(*a));
        a->kind = kind;
    }
    return a;
}

/* The objects every context starts with. */
static int context_init(dlti_context *ctx)
{
    dlti_attr *u = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_UNIT);
    dlti_attr *t = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_BOOL);
    dlti_attr *f = (dlti_attr *)dlti_attr_alloc(ctx, DLTI_ATTR_BOOL);
    if (!u || !t || !f)
        return -1;
    t->u.b = true;
    f->u.b = false;
    ctx->unit = u;
    ctx->true_attr = t;
    ctx->false_attr = f;
    dlti_type proto = {.kind = DLTI_TYPE_INTEGER, .width = 64, .float_kind = -1};
    ctx->i64 = dlti_type_intern(ctx, &proto, "i64", 3);
    proto.kind = DLTI_TYPE_FLOAT;
    proto.float_kind = DLTI_FLOAT_F64;
    ctx->f64 = dlti_type_intern(ctx, &proto, "f64", 3);
    return ctx->i64 && ctx->f64 ? 0 : -1;
}

dlti_context *dlti_context_new(void)
{
    dlti_context *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return NULL;
    ctx->limits = default_limits;
    ctx->arena.budget = default_limits.max_memory_bytes;
    if (context_init(ctx) != 0) {
        dlti_context_free(ctx);
        return NULL;
    }
    return ctx;
}

int dlti_context_reset(dlti_context *ctx)
{
    bs_arena_reset(&ctx->arena);
    if (ctx->strings.slots)
        memset(ctx->strings.slots, 0, ctx->strings.cap * sizeof(void *));
    if (ctx->types.slots)
        memset(ctx->types.slots, 0, ctx->types.cap * sizeof(void *));
    ctx->strings.count = ctx->types.count = 0;
    return context_init(ctx);
}

void dlti_context_free(dlti_context *ctx)
{
    if (!ctx)
        return;
    free(ctx->strings.slots);
    free(ctx->types.slots);
    free(ctx->scratch);
    bs_arena_release(&ctx->arena);
    free(ctx);
}

void dlti_context_set_limits(dlti_context *ctx, const dlti_limits *limits)
{
    dlti_limits l = default_limits;
    if (limits) {
        /* Lower, never higher: every recursive walk is bounded by the
         * invariant of dlti_private.h, and the default is the depth their
         * stacks are sized and tested for.  2 at least: a module and a value. */
        if (limits->max_depth)
            l.max_depth = limits->max_depth > DLTI_DEFAULT_MAX_DEPTH ? DLTI_DEFAULT_MAX_DEPTH
                          : limits->max_depth < 2                    ? 2
                                                                     : limits->max_depth;
        if (limits->max_input_bytes)
            l.max_input_bytes = limits->max_input_bytes;
        if (limits->max_string_bytes)
            l.max_string_bytes = limits->max_string_bytes;
        if (limits->max_entries)
            l.max_entries = limits->max_entries;
        if (limits->max_memory_bytes)
            l.max_memory_bytes = limits->max_memory_bytes;
    }
    /* An attribute counts its entries or elements in 32 bits, and a map's
     * index needs twice its entries: the parser's limit stays below that. */
    if (l.max_entries > UINT32_MAX / 4 - 1)
        l.max_entries = UINT32_MAX / 4 - 1;
    ctx->limits = l;
    ctx->arena.budget = l.max_memory_bytes;
}

dlti_limits dlti_context_get_limits(const dlti_context *ctx)
{
    return ctx->limits;
}

/* ---- open-addressing tables keyed by (hash, bytes) ---- */

typedef uint64_t (*slot_hash_fn)(const void *slot);

static int table_grow(dlti_table *t, slot_hash_fn hash_of)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    void **slots = calloc(cap, sizeof(void *));
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i])
            continue;
        size_t j = hash_of(t->slots[i]) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* A slot of the string-key table holds the node's address with the top 4
 * bits of its hash in the low bits, which the arena's 16-byte alignment
 * leaves zero: a probe that meets another key is told apart 15 times in 16
 * without loading that key's node (a cache miss each, in a table of
 * millions of keys). */
#define KEY_TAG_BITS ((uintptr_t)15)
_Static_assert(BS_ARENA_ALIGN >= 16, "key table tags need 16-byte aligned nodes");

static inline uintptr_t key_tag(uint64_t hash)
{
    return (uintptr_t)(hash >> 60);
}

static inline struct dlti_key_node *key_node_of(const void *slot)
{
    return (struct dlti_key_node *)((uintptr_t)slot & ~KEY_TAG_BITS);
}

static uint64_t key_hash_of(const void *slot)
{
    return key_node_of(slot)->hash;
}

static uint64_t type_hash_of(const void *slot)
{
    return ((const dlti_type *)slot)->hash;
}

/* Index of the slot holding (hash, s, len) or of the empty slot where it goes. */
static size_t key_slot(const dlti_table *t, uint64_t hash, const char *s, size_t len)
{
    size_t j = hash & (t->cap - 1);
    uintptr_t tag = key_tag(hash);
    for (;;) {
        uintptr_t v = (uintptr_t)t->slots[j];
        if (!v)
            return j;
        if ((v & KEY_TAG_BITS) == tag) {
            const struct dlti_key_node *k = key_node_of(t->slots[j]);
            if (k->hash == hash && k->len == len && bs_same_bytes(k->str, s, len))
                return j;
        }
        j = (j + 1) & (t->cap - 1);
    }
}

static size_t type_slot(const dlti_table *t, uint64_t hash, const char *s, size_t len)
{
    size_t j = hash & (t->cap - 1);
    for (;;) {
        const dlti_type *k = t->slots[j];
        if (!k || (k->hash == hash && k->text_len == len && memcmp(k->text, s, len) == 0))
            return j;
        j = (j + 1) & (t->cap - 1);
    }
}

dlti_key dlti_key_find(const dlti_context *ctx, const char *s, size_t len)
{
    if (!ctx->strings.cap)
        return NULL;
    size_t j = key_slot(&ctx->strings, bs_hash_bytes(s, len), s, len);
    return ctx->strings.slots[j] ? key_node_of(ctx->strings.slots[j]) : NULL;
}

dlti_key dlti_key_string(dlti_context *ctx, const char *s, size_t len)
{
    dlti_table *t = &ctx->strings;
    if ((t->count + 1) * 2 > t->cap && table_grow(t, key_hash_of) != 0)
        return NULL;
    uint64_t hash = bs_hash_bytes(s, len);
    size_t j = key_slot(t, hash, s, len);
    if (t->slots[j])
        return key_node_of(t->slots[j]);
    /* the node and its bytes in one allocation: a lookup that finds the
     * node finds the bytes in the same cache line or the next */
    if (len > SIZE_MAX - sizeof(struct dlti_key_node) - 1)
        return NULL;
    struct dlti_key_node *k = bs_arena_alloc(&ctx->arena, sizeof(*k) + len + 1);
    if (!k)
        return NULL;
    char *copy = (char *)(k + 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    k->type = NULL;
    k->hash = hash;
    k->len = len;
    k->str = copy;
    k->unescaped = dlti_string_unescaped(s, len);
    t->slots[j] = (void *)((uintptr_t)k | key_tag(hash));
    t->count++;
    return k;
}

dlti_key dlti_key_type(dlti_context *ctx, const dlti_type *type)
{
    (void)ctx;
    return type ? &type->key : NULL;
}

const char *dlti_key_str(dlti_key key, size_t *len)
{
    if (!key || key->type)
        return NULL;
    if (len)
        *len = key->len;
    return key->str;
}

const dlti_type *dlti_key_get_type(dlti_key key)
{
    return key ? key->type : NULL;
}

const dlti_type *dlti_type_intern(dlti_context *ctx, const dlti_type *proto,
                                  const char *text, size_t len)
{
    dlti_table *t = &ctx->types;
    if ((t->count + 1) * 2 > t->cap && table_grow(t, type_hash_of) != 0)
        return NULL;
    uint64_t hash = bs_hash_bytes(text, len);
    size_t j = type_slot(t, hash, text, len);
    if (t->slots[j])
        return t->slots[j];
    dlti_type *ty = bs_arena_alloc(&ctx->arena, sizeof(*ty));
    char *copy = bs_arena_alloc(&ctx->arena, len + 1);
    if (!ty || !copy)
        return NULL;
    memcpy(copy, text, len);
    copy[len] = '\0';
    *ty = *proto;
    if (proto->rank > 0 && proto->dims) {
        size_t r = (size_t)proto->rank;
        ty->dims = bs_arena_memdup(&ctx->arena, proto->dims, r * sizeof(int64_t));
        ty->scalable = proto->scalable
                           ? bs_arena_memdup(&ctx->arena, proto->scalable, r * sizeof(bool))
                           : NULL;
        if (!ty->dims || (proto->scalable && !ty->scalable))
            return NULL;
    }
    /* Bracket nesting of the canonical text (strings skipped): at least the
     * levels the parser enters to read it back. */
    unsigned nest = 0, level = 0;
    for (size_t i = 0; i < len; i++) {
        char c = copy[i];
        if (c == '"') {
            for (i++; i < len && copy[i] != '"'; i++)
                if (copy[i] == '\\')
                    i++;
        } else if (c == '<' || c == '(' || c == '[' || c == '{') {
            if (++level > nest)
                nest = level;
        } else if ((c == '>' && !(i && copy[i - 1] == '-')) || c == ')' || c == ']' || c == '}') {
            if (level)
                level--;
        }
    }
    ty->nest = nest;
    ty->hash = hash;
    ty->text = copy;
    ty->text_len = len;
    ty->key.type = ty;
    ty->key.hash = hash;
    ty->key.len = len;
    ty->key.str = copy;
    ty->key.unescaped = false; /* a type key prints bare */
    t->slots[j] = ty;
    t->count++;
    return ty;
}

int dlti_context_nomem(const dlti_context *ctx, dlti_error_t *err)
{
    if (!err)
        return -1;
    if (ctx && ctx->arena.over_budget && ctx->arena.over_input_len) {
        size_t len = ctx->arena.over_input_len;
        bs_error_set(err, DLTI_ERROR_LIMIT,
                     "an input of %zu bytes may use %zu bytes of memory (%u bytes a byte, at "
                     "least %zu MiB), and this one needs more",
                     len,
                     len > DLTI_INPUT_MEMORY_BASE / DLTI_INPUT_MEMORY_PER_BYTE
                           ? len * DLTI_INPUT_MEMORY_PER_BYTE
                           : DLTI_INPUT_MEMORY_BASE,
                     DLTI_INPUT_MEMORY_PER_BYTE, DLTI_INPUT_MEMORY_BASE >> 20);
    } else if (ctx && ctx->arena.over_budget) {
        bs_error_set(err, DLTI_ERROR_LIMIT,
                     "memory budget of %zu bytes exceeded (dlti_limits.max_memory_bytes; "
                     "SYSDESC_MAX_MEMORY for the sysdesc tool)",
                     ctx->limits.max_memory_bytes);
    } else {
        bs_nomem(err);
    }
    return -1;
}

dlti_input_budget_saved dlti_input_budget(dlti_context *ctx, size_t len)
{
    dlti_input_budget_saved saved = {ctx->arena.budget, ctx->arena.input_len};
    size_t share = len > DLTI_INPUT_MEMORY_BASE / DLTI_INPUT_MEMORY_PER_BYTE
                       ? (len > SIZE_MAX / DLTI_INPUT_MEMORY_PER_BYTE
                              ? SIZE_MAX
                              : len * DLTI_INPUT_MEMORY_PER_BYTE)
                       : DLTI_INPUT_MEMORY_BASE;
    size_t held = ctx->arena.held;
    size_t cap = share > SIZE_MAX - held ? SIZE_MAX : held + share;
    if (!ctx->arena.budget || cap < ctx->arena.budget) {
        ctx->arena.budget = cap;
        ctx->arena.input_len = len;
    }
    return saved;
}

void dlti_input_budget_end(dlti_context *ctx, dlti_input_budget_saved saved)
{
    ctx->arena.budget = saved.budget;
    ctx->arena.input_len = saved.input_len;
}
