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

typedef struct dlti_arena_chunk dlti_arena_chunk;
typedef struct dlti_arena {
    dlti_arena_chunk *head;
    char *cur;   /* bump pointer inside head */
    char *end;
    dlti_arena_chunk *spare; /* standard chunks kept by a reset for reuse */
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
} dlti_arena;

/* Every allocation is 16-byte aligned (and a multiple of 16 bytes). */
#define DLTI_ARENA_ALIGN ((size_t)16)
/* The slow path of dlti_arena_alloc(): a new chunk, size 0, overflow. */
void *dlti_arena_alloc_slow(dlti_arena *arena, size_t size);
/* Bump allocation inline: a load makes one allocation per value. */
static inline void *dlti_arena_alloc(dlti_arena *arena, size_t size)
{
    size_t r = (size + DLTI_ARENA_ALIGN - 1) & ~(DLTI_ARENA_ALIGN - 1);
    /* r - 1 wraps for size 0 and on overflow: the slow path decides those */
    if (r - 1 < (size_t)(arena->end - arena->cur)) {
        void *p = arena->cur;
        arena->cur += r;
        return p;
    }
    return dlti_arena_alloc_slow(arena, size);
}
static inline void *dlti_arena_memdup(dlti_arena *arena, const void *src, size_t size)
{
    void *p = dlti_arena_alloc(arena, size);
    if (p && size)
        memcpy(p, src, size);
    return p;
}
void dlti_arena_release(dlti_arena *arena);
/* Frees every object but keeps standard-size chunks for the next allocations. */
void dlti_arena_reset(dlti_arena *arena);

#endif /* BASE_ARENA_H */
