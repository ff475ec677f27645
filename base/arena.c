/* Bump allocation for everything a context owns: objects die together. */
#include "base_private.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct dlti_arena_chunk {
    dlti_arena_chunk *next;
    size_t size;
    max_align_t align[]; /* keeps the payload maximally aligned */
};

#define DLTI_CHUNK_MIN ((size_t)64 * 1024)
#define DLTI_ALIGN DLTI_ARENA_ALIGN

/* Standard chunks released by any context wait here for the next one, up to
 * DLTI_POOL_MAX of them (32 MiB): returning them to the system and faulting
 * them in again cost more than the parse itself on a fresh context.  A spin
 * lock: the critical sections are a few pointer moves. */
#define DLTI_POOL_MAX 512
static atomic_flag pool_lock = ATOMIC_FLAG_INIT;
static dlti_arena_chunk *pool;
static size_t pool_count;

static void pool_acquire(void)
{
    while (atomic_flag_test_and_set_explicit(&pool_lock, memory_order_acquire))
        ;
}

static void pool_release(void)
{
    atomic_flag_clear_explicit(&pool_lock, memory_order_release);
}

static dlti_arena_chunk *pool_take(void)
{
    pool_acquire();
    dlti_arena_chunk *c = pool;
    if (c) {
        pool = c->next;
        pool_count--;
    }
    pool_release();
    return c;
}

/* Keeps `c` for reuse, or frees it when the pool is full. */
static void pool_give(dlti_arena_chunk *c)
{
    pool_acquire();
    bool kept = pool_count < DLTI_POOL_MAX;
    if (kept) {
        c->next = pool;
        pool = c;
        pool_count++;
    }
    pool_release();
    if (!kept)
        free(c);
}

void dlti_release_cached_memory(void)
{
    pool_acquire();
    dlti_arena_chunk *c = pool;
    pool = NULL;
    pool_count = 0;
    pool_release();
    while (c) {
        dlti_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
}

void *dlti_arena_alloc_slow(dlti_arena *arena, size_t size)
{
    if (size > SIZE_MAX - (DLTI_ALIGN - 1)) {
        arena->failed = true;
        return NULL;
    }
    size = (size + DLTI_ALIGN - 1) & ~(DLTI_ALIGN - 1);
    if (size == 0)
        size = DLTI_ALIGN;
    if ((size_t)(arena->end - arena->cur) < size || !arena->cur) {
        /* Large requests get a chunk of their own so the current one keeps its space. */
        size_t payload = size > DLTI_CHUNK_MIN / 4 ? size : DLTI_CHUNK_MIN;
        if (payload > SIZE_MAX - sizeof(dlti_arena_chunk)) {
            arena->failed = true;
            return NULL;
        }
        if (arena->budget && (payload > arena->budget || arena->held > arena->budget - payload)) {
            arena->over_budget = arena->failed = true;
            arena->over_input_len = arena->input_len;
            return NULL;
        }
        dlti_arena_chunk *c;
        c = NULL;
        if (payload == DLTI_CHUNK_MIN && arena->spare) {
            c = arena->spare;
            arena->spare = c->next;
        } else if (payload == DLTI_CHUNK_MIN) {
            c = pool_take();
        }
        if (!c) {
            c = malloc(sizeof(dlti_arena_chunk) + payload);
            if (!c) {
                arena->failed = true;
                return NULL;
            }
        }
        c->size = payload;
        arena->held += payload;
        char *base = (char *)c->align;
        if (payload != DLTI_CHUNK_MIN && arena->head) {
            c->next = arena->head->next;
            arena->head->next = c;
            return base;
        }
        c->next = arena->head;
        arena->head = c;
        arena->cur = base;
        arena->end = base + payload;
    }
    void *p = arena->cur;
    arena->cur += size;
    return p;
}

static void free_chain(dlti_arena_chunk *c)
{
    while (c) {
        dlti_arena_chunk *next = c->next;
        if (c->size == DLTI_CHUNK_MIN)
            pool_give(c);
        else
            free(c);
        c = next;
    }
}

void dlti_arena_release(dlti_arena *arena)
{
    free_chain(arena->head);
    free_chain(arena->spare);
    arena->head = arena->spare = NULL;
    arena->cur = arena->end = NULL;
    arena->held = 0;
    arena->over_budget = arena->failed = false;
    arena->over_input_len = 0;
}

void dlti_arena_reset(dlti_arena *arena)
{
    dlti_arena_chunk *c = arena->head;
    while (c) {
        dlti_arena_chunk *next = c->next;
        if (c->size == DLTI_CHUNK_MIN) {
            c->next = arena->spare;
            arena->spare = c;
        } else {
            free(c);
        }
        c = next;
    }
    arena->head = NULL;
    arena->cur = arena->end = NULL;
    arena->held = 0; /* spare chunks count again when taken */
    arena->over_budget = arena->failed = false;
    arena->over_input_len = 0;
}
