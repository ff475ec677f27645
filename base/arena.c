/* Bump allocation for everything a context owns: objects die together. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct dlti_arena_chunk {
    dlti_arena_chunk *next;
    size_t size;
    max_align_t align[]; /* keeps the payload maximally aligned */
};

#define DLTI_CHUNK_MIN ((size_t)64 * 1024)
#define DLTI_ALIGN DLTI_ARENA_ALIGN

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
