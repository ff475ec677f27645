/* Internal layout of dlti_layout, shared by dlti/layout*.c.  Not installed. */
#ifndef DLTI_LAYOUT_INTERNAL_H
#define DLTI_LAYOUT_INTERNAL_H

#include "internal.h"
#include "sysdesc/layout.h"

#include <stdatomic.h>

/* An integer entry reduced to what queries need: MLIR sorts the integer
 * entries by width and keeps the first one of each width. */
typedef struct dlti_int_entry {
    uint64_t width;
    uint64_t abi, pref; /* bits */
} dlti_int_entry;

typedef struct dlti_ptr_entry {
    uint64_t as;
    uint64_t size, abi, pref, idx; /* bits */
} dlti_ptr_entry;

/* Cache of computed results, keyed by the (uniqued) type pointer.  Readers
 * never lock: a slot is published with a release store once its record is
 * complete.  Writers serialize on a spin lock (inserts happen once per type)
 * and grow by publishing a bigger copy; old tables stay alive until the
 * layout is freed, so a reader holding one never sees freed memory. */
typedef struct dlti_layout_rec {
    const dlti_type *type;
    dlti_type_layout value;
} dlti_layout_rec;

typedef struct dlti_layout_table {
    size_t mask;
    size_t count;
    struct dlti_layout_table *older;
    _Atomic(dlti_layout_rec *) slots[];
} dlti_layout_table;

struct dlti_layout {
    size_t n;                 /* combined entries, MLIR's order */
    dlti_entry_rec *entries;
    /* What the queries read, extracted once from the entries. */
    size_t num_ints;
    dlti_int_entry *ints;     /* sorted by width, first entry per width kept */
    size_t num_ptrs;
    dlti_ptr_entry *ptrs;     /* in entry order: the first one per space wins */
    const dlti_attr *floats[DLTI_FLOAT_KIND_COUNT];
    bool has_index;
    uint64_t index_bits;
    const dlti_attr *props[DLTI_LAYOUT_NUM_PROPS];
    _Atomic(dlti_layout_table *) table;
    atomic_flag lock;
};

/* Computes without touching the cache (the bench measures this). */
int dlti_layout_compute(const dlti_layout *layout, const dlti_type *type, dlti_type_layout *out,
                        dlti_error_t *err);

/* Cache access: lookup returns the record or NULL; insert copies `value`
 * (a failed allocation only means the result is not cached). */
const dlti_type_layout *dlti_layout_cache_find(const dlti_layout *layout, const dlti_type *type);
void dlti_layout_cache_insert(const dlti_layout *layout, const dlti_type *type,
                              const dlti_type_layout *value);
void dlti_layout_cache_free(dlti_layout *layout);

/* Builds the query tables from layout->entries; -1 with err on a bad entry. */
int dlti_layout_index_entries(dlti_layout *layout, dlti_error_t *err);

/* The data layout spec attached to a scope, or NULL. */
const dlti_attr *dlti_scope_dl_spec(const dlti_scope *scope, size_t *offset);

/* Combines the specs of `scope` and its ancestors into layout->entries.
 * On failure returns -1; `*bad` gets the scope whose spec does not combine
 * (NULL for other errors). */
int dlti_layout_combine(dlti_layout *layout, const dlti_scope *scope, const dlti_scope **bad,
                        dlti_error_t *err);

/* Address space of an !llvm.ptr type; false for other types. */
bool dlti_llvm_ptr_space(const dlti_type *type, uint64_t *as);

/* Entry values as MLIR reads them (getValues<uint64_t>). */
bool dlti_dense_u64(const dlti_attr *v, size_t i, uint64_t *out);
size_t dlti_dense_len(const dlti_attr *v);

#endif
