/* Bump allocation for everything a context owns: objects die together. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct bs_arena_chunk {
    bs_arena_chunk *next;
    size_t size;
    max_align_t align[]; /* keeps the payload maximally aligned */
};

#define BS_CHUNK_MIN ((size_t)64 * 1024)
#define BS_ALIGN BS_ARENA_ALIGN

void *bs_arena_alloc_slow(bs_arena *arena, size_t size)
{
    if (size > SIZE_MAX - (BS_ALIGN - 1)) {
        arena->failed = true;
        return NULL;
    }
    size = (size + BS_ALIGN - 1) & ~(BS_ALIGN - 1);
    if (size == 0)
        size = BS_ALIGN;
    if ((size_t)(arena->end - arena->cur) < size || !arena->cur) {
        /* Large requests get a chunk of their own so the current one keeps its space. */
        size_t payload = size > BS_CHUNK_MIN / 4 ? size : BS_CHUNK_MIN;
        if (payload > SIZE_MAX - sizeof(bs_arena_chunk)) {
            arena->failed = true;
            return NULL;
        }
        if (arena->budget && (payload > arena->budget || arena->held > arena->budget - payload)) {
            arena->over_budget = arena->failed = true;
            arena->over_input_len = arena->input_len;
            return NULL;
        }
        bs_arena_chunk *c;
        c = NULL;
        if (payload == BS_CHUNK_MIN && arena->spare) {
            c = arena->spare;
            arena->spare = c->next;
        }
        if (!c) {
            c = malloc(sizeof(bs_arena_chunk) + payload);
            if (!c) {
                arena->failed = true;
                return NULL;
            }
        }
        c->size = payload;
        arena->held += payload;
        char *base = (char *)c->align;
        if (payload != BS_CHUNK_MIN && arena->head) {
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

static void free_chain(bs_arena_chunk *c)
{
    while (c) {
        bs_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
}

void bs_arena_release(bs_arena *arena)
{
    free_chain(arena->head);
    free_chain(arena->spare);
    arena->head = arena->spare = NULL;
    arena->cur = arena->end = NULL;
    arena->held = 0;
    arena->over_budget = arena->failed = false;
    arena->over_input_len = 0;
}

void bs_arena_reset(bs_arena *arena)
{
    bs_arena_chunk *c = arena->head;
    while (c) {
        bs_arena_chunk *next = c->next;
        if (c->size == BS_CHUNK_MIN) {
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
