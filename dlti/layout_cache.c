/* The per-layout result cache: lock-free reads, serialized inserts. */
#include "dlti_private.h"

#include <stdlib.h>

static size_t slot_of(const dlti_type *t, size_t mask)
{
    /* Types carry a hash of their text already; mixing the pointer in would
     * only add work. */
    return (size_t)(t->hash ^ (t->hash >> 29)) & mask;
}

const dlti_type_layout *dlti_layout_cache_find(const dlti_layout *L, const dlti_type *t)
{
    const dlti_layout_table *tab = atomic_load_explicit(&L->table, memory_order_acquire);
    if (!tab)
        return NULL;
    for (size_t i = slot_of(t, tab->mask);; i = (i + 1) & tab->mask) {
        /* The cast drops const only to read an atomic; nothing is written. */
        dlti_layout_rec *r = atomic_load_explicit(
            (_Atomic(dlti_layout_rec *) *)&tab->slots[i], memory_order_acquire);
        if (!r)
            return NULL;
        if (r->type == t)
            return &r->value;
    }
}

static void lock(dlti_layout *L)
{
    while (atomic_flag_test_and_set_explicit(&L->lock, memory_order_acquire))
        ;
}

static void unlock(dlti_layout *L)
{
    atomic_flag_clear_explicit(&L->lock, memory_order_release);
}

static dlti_layout_table *table_new(size_t cap)
{
    dlti_layout_table *t = malloc(sizeof(*t) + cap * sizeof(t->slots[0]));
    if (!t)
        return NULL;
    t->mask = cap - 1;
    t->count = 0;
    t->older = NULL;
    for (size_t i = 0; i < cap; i++)
        atomic_init(&t->slots[i], NULL);
    return t;
}

static void place(dlti_layout_table *tab, dlti_layout_rec *r)
{
    size_t i = slot_of(r->type, tab->mask);
    while (atomic_load_explicit(&tab->slots[i], memory_order_relaxed))
        i = (i + 1) & tab->mask;
    atomic_store_explicit(&tab->slots[i], r, memory_order_release);
    tab->count++;
}

void dlti_layout_cache_insert(const dlti_layout *cl, const dlti_type *t,
                              const dlti_type_layout *value)
{
    /* The cache is not part of the layout's observable state: inserting
     * through a const layout is what lets concurrent readers share it. */
    dlti_layout *L = (dlti_layout *)cl;
    dlti_layout_rec *r = malloc(sizeof(*r));
    if (!r)
        return;
    r->type = t;
    r->value = *value;
    lock(L);
    if (dlti_layout_cache_find(L, t)) {
        unlock(L);
        free(r);
        return;
    }
    dlti_layout_table *tab = atomic_load_explicit(&L->table, memory_order_relaxed);
    if (!tab || (tab->count + 1) * 2 > tab->mask + 1) {
        size_t cap = tab ? (tab->mask + 1) * 2 : 64;
        dlti_layout_table *bigger = table_new(cap);
        if (!bigger) {
            unlock(L);
            free(r);
            return;
        }
        for (size_t i = 0; tab && i <= tab->mask; i++) {
            dlti_layout_rec *old = atomic_load_explicit(&tab->slots[i], memory_order_relaxed);
            if (old)
                place(bigger, old);
        }
        bigger->older = tab;
        atomic_store_explicit(&L->table, bigger, memory_order_release);
        tab = bigger;
    }
    place(tab, r);
    unlock(L);
}

void dlti_layout_cache_free(dlti_layout *L)
{
    dlti_layout_table *tab = atomic_load_explicit(&L->table, memory_order_relaxed);
    if (!tab)
        return;
    /* The newest table holds every record; older ones hold copies of pointers. */
    for (size_t i = 0; i <= tab->mask; i++)
        free(atomic_load_explicit(&tab->slots[i], memory_order_relaxed));
    while (tab) {
        dlti_layout_table *older = tab->older;
        free(tab);
        tab = older;
    }
    atomic_store_explicit(&L->table, NULL, memory_order_relaxed);
}
