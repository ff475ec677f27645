/*
 * arena.h - bump allocation (arena.c): everything a DLTI context or a YAML
 * document tree owns dies together, so nothing is freed one by one.  An
 * arena may have a memory budget; a chunk past it is refused and the
 * arena says so, for the owner's error.
 */
#ifndef BASE_ARENA_H
#define BASE_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct bs_arena_chunk bs_arena_chunk;
typedef struct bs_arena {
    bs_arena_chunk *head;
    char *cur;   /* bump pointer inside head */
    char *end;
    bs_arena_chunk *spare; /* standard chunks kept by a reset for reuse */
    /* The memory budget: bytes of chunks held, and the most it may hold
     * (0: no budget); a chunk past it is refused and over_budget set, so
     * that "out of memory" becomes the limit's error.  failed: an
     * allocation failed, for whatever reason (the owner's error says
     * which: the core's dlti_context_nomem). */
    size_t held, budget;
    bool over_budget, failed;
    /* The budget of one input (the core's dlti_input_budget): the input's
     * size while it is read, 0 otherwise; the size of the input whose share
     * was exceeded, for the error. */
    size_t input_len, over_input_len;
} bs_arena;

/* Every allocation is 16-byte aligned (and a multiple of 16 bytes). */
#define BS_ARENA_ALIGN ((size_t)16)
/* The slow path of bs_arena_alloc(): a new chunk, size 0, overflow. */
void *bs_arena_alloc_slow(bs_arena *arena, size_t size);
/* Bump allocation inline: a load makes one allocation per value. */
static inline void *bs_arena_alloc(bs_arena *arena, size_t size)
{
    size_t r = (size + BS_ARENA_ALIGN - 1) & ~(BS_ARENA_ALIGN - 1);
    /* r - 1 wraps for size 0 and on overflow: the slow path decides those */
    if (r - 1 < (size_t)(arena->end - arena->cur)) {
        void *p = arena->cur;
        arena->cur += r;
        return p;
    }
    return bs_arena_alloc_slow(arena, size);
}
static inline void *bs_arena_memdup(bs_arena *arena, const void *src, size_t size)
{
    void *p = bs_arena_alloc(arena, size);
    if (p && size)
        memcpy(p, src, size);
    return p;
}
void bs_arena_release(bs_arena *arena);
/* Frees every object but keeps standard-size chunks for the next allocations. */
void bs_arena_reset(bs_arena *arena);

#endif /* BASE_ARENA_H */
