/* Internal layout of the DLTI core.  Not installed. */
#ifndef DLTI_INTERNAL_H
#define DLTI_INTERNAL_H

#include "sysdesc/dlti.h"
#include "apfloat.h"

#include <stdarg.h>

/* ---- arena ---- */

typedef struct dlti_arena_chunk dlti_arena_chunk;
typedef struct dlti_arena {
    dlti_arena_chunk *head;
    char *cur;   /* bump pointer inside head */
    char *end;
    dlti_arena_chunk *spare; /* standard chunks kept by a reset for reuse */
} dlti_arena;

void *dlti_arena_alloc(dlti_arena *arena, size_t size);
void *dlti_arena_memdup(dlti_arena *arena, const void *src, size_t size);
void dlti_arena_release(dlti_arena *arena);
/* Frees every object but keeps standard-size chunks for the next allocations. */
void dlti_arena_reset(dlti_arena *arena);

/* ---- interning ---- */

/* A key handle.  String keys and type keys are distinct nodes, so equal
 * handles mean equal keys and a lookup compares pointers. */
struct dlti_key_node {
    const dlti_type *type; /* NULL for string keys */
    uint64_t hash;         /* of the string, or of the type's text */
    size_t len;
    const char *str;       /* string bytes (NUL-terminated), or the type's text */
};

typedef struct dlti_table {
    void **slots;
    size_t cap;   /* power of two */
    size_t count;
} dlti_table;

uint64_t dlti_hash_bytes(const void *data, size_t len);

struct dlti_type {
    dlti_type_kind kind;
    dlti_signedness sign;
    unsigned width;          /* integer bits */
    int float_kind;          /* dlti_float_kind or -1 */
    const dlti_type *elem;
    int rank;                /* -1: unranked */
    const int64_t *dims;     /* -1: dynamic */
    const bool *scalable;
    uint64_t hash;
    size_t text_len;
    const char *text;        /* canonical spelling, NUL-terminated */
    struct dlti_key_node key;
};

struct dlti_context {
    dlti_arena arena;
    dlti_table strings;  /* struct dlti_key_node * (string keys) */
    dlti_table types;    /* struct dlti_type * */
    dlti_limits limits;
    const dlti_attr *unit, *true_attr, *false_attr;
    const dlti_type *i64, *f64; /* the types of untyped literals */
    /* Scratch stack for entries of containers being parsed: nested containers
     * finish before their parent grows, so one stack serves all levels and
     * its memory is reused from parse to parse. */
    char *scratch;
    size_t scratch_len, scratch_cap;
};

/* Uniques a type by its canonical text; `proto` is copied when new. */
const dlti_type *dlti_type_intern(dlti_context *ctx, const dlti_type *proto,
                                  const char *text, size_t len);

/* ---- attributes ---- */

typedef struct dlti_entry_rec {
    dlti_key key;
    const dlti_attr *value;
} dlti_entry_rec;

/* Maps bigger than this get an open-addressing index: slots hold copies of
 * the entries (key NULL when empty), so a probe is one load, not two. */
#define DLTI_INDEX_THRESHOLD 8

struct dlti_attr {
    dlti_attr_kind kind;
    const dlti_type *type;      /* integer, float, dense, dense array (element), type attr */
    size_t n;                   /* entries / elements / words */
    union {
        struct {                /* value in two's complement, `n` 64-bit words */
            uint64_t small;     /* words[0] when n == 1 */
            const uint64_t *words;
        } i;
        dlti_float_bits f;
        bool b;
        struct { const char *s; size_t len; } str;   /* string; opaque text */
        const dlti_attr *const *elems;               /* array; dense elements */
        const int64_t *ints;                          /* dense array of integers */
        const dlti_float_bits *floats;                /* dense array of floats */
        struct {
            const dlti_entry_rec *entries;
            const dlti_entry_rec *index;  /* NULL, or index_mask + 1 slots */
            uint32_t index_mask;
        } c;
    } u;
};

/* Builds a container without verification (the parser verifies itself). */
const dlti_attr *dlti_container_make(dlti_context *ctx, dlti_attr_kind kind,
                                     const dlti_entry_rec *entries, size_t n);
const dlti_attr *dlti_attr_alloc(dlti_context *ctx, dlti_attr_kind kind);
/* Integer from two's-complement words of the type's width (copied). */
const dlti_attr *dlti_int_from_words(dlti_context *ctx, const dlti_type *type,
                                     const uint64_t *words, size_t nwords);
/* The four DLTI containers are consecutive in dlti_attr_kind. */
static inline bool dlti_attr_is_container(dlti_attr_kind kind)
{
    return (unsigned)kind - DLTI_ATTR_MAP <= (unsigned)(DLTI_ATTR_SYSTEM_SPEC - DLTI_ATTR_MAP);
}
/* Verifies container entries; returns 0 or -1 with err->text set (no position). */
/* `bad` (may be NULL) gets the index of the offending entry, SIZE_MAX when
 * the container as a whole is at fault. */
int dlti_container_check(dlti_attr_kind kind, const dlti_entry_rec *entries, size_t n,
                         dlti_error_t *err, size_t *bad);
/* Number of elements of a statically shaped type (vector/tensor); 0 if dynamic. */
size_t dlti_dense_num_elements(const dlti_type *shaped);
/* Verifies a dl_spec's entries as MLIR's data layout interfaces do. */
int dlti_dl_spec_check(const dlti_attr *spec, dlti_error_t *err);

/* ---- scopes ---- */

typedef struct dlti_named_attr {
    const char *name;
    size_t name_len;
    const dlti_attr *value;
    size_t offset;    /* where the name starts in the source */
} dlti_named_attr;

struct dlti_scope {
    const dlti_context *ctx;
    const dlti_scope *parent;
    const char *name;         /* NULL when unnamed */
    bool bare;
    size_t num_attrs;
    const dlti_named_attr *attrs;   /* sorted by name */
    size_t num_children;
    const dlti_scope *const *children;
};

/* ---- errors ---- */

void dlti_error_set(dlti_error_t *err, dlti_error_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void dlti_error_vset(dlti_error_t *err, dlti_error_code code, const char *fmt, va_list ap);
/* Fills line/column/position/source from a byte offset into `text`. */
void dlti_error_locate(dlti_error_t *err, const char *source, const char *text, size_t len,
                       size_t offset);

/* ---- growable string for printers ---- */

typedef struct dlti_buf {
    char *data;
    size_t len, cap;
    bool failed;
} dlti_buf;

void dlti_buf_put(dlti_buf *b, const char *s, size_t n);
void dlti_buf_puts(dlti_buf *b, const char *s);
void dlti_buf_putc(dlti_buf *b, char c);
void dlti_buf_printf(dlti_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends the canonical printing of `attr`; elide says whether an i64/f64
 * type may be left out (array elements). */
void dlti_print_attr(dlti_buf *b, const dlti_attr *attr, bool elide);
void dlti_print_key(dlti_buf *b, dlti_key key);
void dlti_print_string(dlti_buf *b, const char *s, size_t len);
/* Prints a two's-complement integer of `nwords` words, signed or not. */
void dlti_print_words(dlti_buf *b, const uint64_t *words, size_t nwords, unsigned width,
                      bool is_signed);

#endif
