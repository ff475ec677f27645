/*
 * dlti_private.h - the one private header of the DLTI core (not installed).
 *
 * The core's base (arena, growable buffer, error values, file reading,
 * growable arrays) is also the base of the layers above it (probe/,
 * sysdesc/): they include this header for those, and the description
 * layer's MLIR printer also for dlti_print_attr (printing into its own
 * buffer, not a copy); nothing else of the core's insides.
 */
#ifndef DLTI_PRIVATE_H
#define DLTI_PRIVATE_H

#include "sysdesc/dlti.h"
#include "sysdesc/layout.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ======== floats (a port of LLVM APFloat) ======== */

/* Floating point values of MLIR's float types, parsed and printed byte-for-byte as
 * MLIR 22 (LLVM APFloat) does. Depends on libc only; never prints, aborts or exits. */

typedef enum dlti_float_kind {
  DLTI_FLOAT_F16, DLTI_FLOAT_BF16, DLTI_FLOAT_F32, DLTI_FLOAT_F64, DLTI_FLOAT_F80, DLTI_FLOAT_F128,
  DLTI_FLOAT_TF32, DLTI_FLOAT_F8E5M2, DLTI_FLOAT_F8E4M3, DLTI_FLOAT_F8E4M3FN, DLTI_FLOAT_F8E5M2FNUZ,
  DLTI_FLOAT_F8E4M3FNUZ, DLTI_FLOAT_F8E4M3B11FNUZ, DLTI_FLOAT_F8E3M4, DLTI_FLOAT_F8E8M0FNU,
  DLTI_FLOAT_F6E2M3FN, DLTI_FLOAT_F6E3M2FN, DLTI_FLOAT_F4E2M1FN,
  DLTI_FLOAT_KIND_COUNT
} dlti_float_kind;

/* A float value as its bit pattern (APFloat::bitcastToAPInt): bits 0..63 in lo, 64..127 in hi. */
typedef struct dlti_float_bits { uint64_t lo, hi; } dlti_float_bits;

/* A buffer size dlti_float_print never needs more than (the longest text is 44 bytes
 * plus the NUL: a negative f128 in APFloat's default form, "-d.<35 digits>E-dddd"). */
#define DLTI_FLOAT_PRINT_MAX 64

/* MLIR type name ("f16", "bf16", "f8E4M3FN", ...) <-> kind. name returns NULL for an
 * invalid kind; lookup compares exactly `len` bytes and returns -1 if unknown. */
const char *dlti_float_kind_name(dlti_float_kind kind);
int dlti_float_kind_lookup(const char *name, size_t len);

/* Storage width: 16, 16, 32, 64, 80, 128, 19 for tf32, 8 for f8*, 6 for f6*, 4 for f4*;
 * 0 for an invalid kind. */
unsigned dlti_float_bit_width(dlti_float_kind kind);

/* Parses a decimal literal exactly as mlir-opt 22 turns `text : type` into a FloatAttr.
 * Syntax (MLIR's lexer): optional '-', [0-9]+ '.' [0-9]* ([eE][+-]?[0-9]+)?, the whole
 * of text[0..len). Like MLIR (Parser::parseFloatFromLiteral), the literal is first rounded
 * to the nearest f64 (exactly, any number of digits; overflow gives inf), negated, and then
 * converted to `kind` with round-to-nearest-even (APFloat::convert): so for f16/bf16/f32/...
 * a decimal can round twice (16777217.000000001 : f32 gives 16777216, as MLIR does), and
 * f80/f128 literals carry only f64 precision. Overflow gives +-inf, NaN (FN/FNUZ kinds) or
 * the largest finite value (f6/f4 kinds), as APFloat does. The result is the pattern MLIR's
 * bitcast gives, also where MLIR's in-memory value has none: an f64 infinity in the f6/f4
 * kinds (MLIR prints "0x0"/"0x20", the pattern reads back as +-0) and a negative
 * f8E8M0FNU value (the sign lands in bit 7: -1.0 gives 0xFF, a NaN; MLIR prints
 * "-1.000000e+00").
 * Returns 0 on success, -1 if the text is not such a literal (or for an invalid kind). */
int dlti_float_parse(dlti_float_kind kind, const char *text, size_t len, dlti_float_bits *out);

/* Same syntax, but rounded once, directly into `kind`, as APFloat::convertFromString does
 * (this is what MLIR's printer uses to re-read its own output). Exact for any number of
 * digits. Returns 0 on success, -1 on bad syntax, invalid kind or out of memory (only
 * literals of thousands of digits for f80/f128 allocate). */
int dlti_float_parse_exact(dlti_float_kind kind, const char *text, size_t len,
                           dlti_float_bits *out);

/* Writes what MLIR's printFloatValue prints for the value (without the " : type"
 * suffix), NUL-terminated, into buf: "1.500000e+00", "0.123456789", "0x7FC00000", ...
 * Bits beyond the kind's width are ignored. Like snprintf, it writes at most cap bytes
 * (always NUL-terminated when cap > 0) and returns the full length; cap >=
 * DLTI_FLOAT_PRINT_MAX is always enough. An invalid kind prints "". */
size_t dlti_float_print(dlti_float_kind kind, dlti_float_bits bits, char *buf, size_t cap);

/* Conversions for typed accessors and builders (FloatAttr::getValueAsDouble and
 * FloatAttr::get(type, double)). to_double is exact where the value is representable in
 * f64, else rounded to nearest-even (f80/f128 overflow to +-inf); every NaN gives a NaN
 * (APFloat would turn the f8E8M0FNU NaN into +inf).
 * from_double rounds to nearest-even into the kind, with APFloat::convert's overflow rules
 * (f8E8M0FNU has no sign bit: like APFloat, a negative value sets bit 7; -1.0 gives 0xFF). */
double dlti_float_to_double(dlti_float_kind kind, dlti_float_bits bits);
dlti_float_bits dlti_float_from_double(dlti_float_kind kind, double value);

/* NULL when `x` converts to `kind` as itself, up to rounding to the nearest
 * value of the type; else why not (no NaN, no infinities, overflow or
 * saturation, a lost sign, no zero): the rule every reader of typed floats
 * that go through a double applies (dlti/float_fit.c). */
const char *dlti_float_loss(dlti_float_kind kind, double x);

/* 1 if `bits` has no bit set at or above the kind's width (a hex literal that fits the
 * type), 0 if it has (MLIR: "hexadecimal float constant out of range for type") or the
 * kind is invalid. */
int dlti_float_bits_fit(dlti_float_kind kind, dlti_float_bits bits);

/* ======== objects: arena, interning, types, attributes, scopes; errors, files, printing ======== */

/* Internal layout of the DLTI core.  Not installed. */

/* ---- arena ---- */

typedef struct dlti_arena_chunk dlti_arena_chunk;
typedef struct dlti_arena {
    dlti_arena_chunk *head;
    char *cur;   /* bump pointer inside head */
    char *end;
    dlti_arena_chunk *spare; /* standard chunks kept by a reset for reuse */
    /* The memory budget: bytes of chunks held, and the most it
     * may hold (0: no budget); a chunk past it is refused and over_budget
     * set, so that "out of memory" becomes the limit's error. */
    size_t held, budget;
    bool over_budget;
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

/* memcmp(a, b, len) == 0, inline for keys of up to 16 bytes (nearly all of
 * them): two overlapping loads a side instead of a call, which showed in
 * the profiles of key interning and string-key queries. */
static inline bool dlti_same_bytes(const char *a, const char *b, size_t len)
{
    uint64_t x, y, u, v;
    if (len >= 8 && len <= 16) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        memcpy(&u, a + len - 8, 8);
        memcpy(&v, b + len - 8, 8);
        return ((x ^ y) | (u ^ v)) == 0;
    }
    if (len >= 4 && len < 8) {
        uint32_t p, q, r, s;
        memcpy(&p, a, 4);
        memcpy(&q, b, 4);
        memcpy(&r, a + len - 4, 4);
        memcpy(&s, b + len - 4, 4);
        return ((p ^ q) | (r ^ s)) == 0;
    }
    if (len < 4) {
        for (size_t i = 0; i < len; i++)
            if (a[i] != b[i])
                return false;
        return true;
    }
    return memcmp(a, b, len) == 0;
}

/* The last step of dlti_hash_inline(): `h` so far, `w` the tail. */
static inline uint64_t dlti_hash_finish(uint64_t h, uint64_t w)
{
    /* One multiply, with the high half folded in before it and after it:
     * before, so that a change in the top bytes (a key's last characters)
     * reaches the product's high half; after, so that the index's home slot
     * (the low bits) and tag (the high bits) both depend on every byte.
     * For keys of up to 8 bytes of one length the hash is a bijection of
     * the bytes: no two collide. */
    h ^= w;
    h ^= h >> 32;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 32);
}

/* The hash of a string key (and of anything else hashed here): eight bytes
 * per step with a multiply-xorshift mix.  Inline, because a string-key query
 * hashes each key it looks up in an indexed map and the call showed in its
 * profile; a tail of 1..7 bytes is read with two overlapping loads, not a
 * byte loop (the bytes it forms, with `len` mixed in, still name the tail
 * exactly). */
static inline uint64_t dlti_hash_inline(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (len * 0xff51afd7ed558ccdull);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        len -= 8;
    }
    /* The tail's bytes, little-endian, zero above them (as
     * dlti_hash_cstring() forms them while it measures the string). */
    uint64_t w;
    if (len >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + len - 4, 4);
        w = (uint64_t)lo | (uint64_t)hi << (8 * (len - 4));
    } else if (len) {
        w = (uint64_t)p[0] | (uint64_t)p[len >> 1] << (8 * (len >> 1)) |
            (uint64_t)p[len - 1] << (8 * (len - 1));
    } else {
        w = 0;
    }
    return dlti_hash_finish(h, w);
}

/* dlti_hash_inline() of the C string `s`, whose length it stores in `*len`:
 * a key of up to 7 bytes is measured and hashed in one pass (a query by
 * string keys did strlen() and then the hash). */
static inline uint64_t dlti_hash_cstring(const char *s, size_t *len)
{
    uint64_t w = 0;
    size_t n = 0;
    for (; n < 8; n++) {
        unsigned char c = (unsigned char)s[n];
        if (!c)
            break;
        w |= (uint64_t)c << (8 * n);
    }
    if (n == 8) {
        *len = 8 + strlen(s + 8);
        return dlti_hash_inline(s, *len);
    }
    *len = n;
    return dlti_hash_finish(0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull), w);
}

/* dlti_hash_inline(), out of line, for the callers off the hot paths. */
uint64_t dlti_hash_bytes(const void *data, size_t len);

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

/* ---- types ---- */

struct dlti_type {
    dlti_type_kind kind;
    dlti_signedness sign;
    unsigned width;          /* integer bits; address space of an !llvm.ptr */
    int float_kind;          /* dlti_float_kind or -1 */
    const dlti_type *elem;
    int rank;                /* -1: unranked */
    const int64_t *dims;     /* -1: dynamic */
    const bool *scalable;
    uint64_t hash;
    size_t text_len;
    const char *text;        /* canonical spelling, NUL-terminated */
    unsigned nest;           /* bracket nesting of the text: the levels the
                              * parser may count to read it (dlti_attr_height) */
    struct dlti_key_node key;
};

/* Number of elements of a statically shaped type (vector/tensor); 0 if
 * unranked, dynamic or past SIZE_MAX. */
size_t dlti_dense_num_elements(const dlti_type *shaped);
/* Address space of an !llvm.ptr type; false for other types. */
bool dlti_llvm_ptr_space(const dlti_type *type, uint64_t *as);

/* ---- attributes ---- */

typedef struct dlti_entry_rec {
    dlti_key key;
    const dlti_attr *value;
} dlti_entry_rec;

/* Maps bigger than this get an open-addressing index by the key's hash:
 * linear probing over at least twice as many slots as entries, filled with
 * Robin Hood insertion (a key further from its home slot than the one it
 * meets takes that slot), which evens out the probes of the keys.  Up to
 * DLTI_INDEX_COMPACT entries a slot is a copy of the entry (key NULL:
 * empty), so that a probe is one load.  Bigger maps, whose index would be
 * most of their memory (16 bytes a slot), get 4-byte slots: the position of
 * the entry plus one in the low dlti_index_pos_bits(n) bits (0: empty) and a
 * tag, the top bits of the key's hash, above them, so that a probe that
 * meets another key rarely loads its entry. */
#define DLTI_INDEX_THRESHOLD 8
#define DLTI_INDEX_COMPACT 16384

/* 32 bytes: a big spec is millions of these, and loading, checking and
 * printing stream through them. */
struct dlti_attr {
    uint8_t kind;               /* dlti_attr_kind */
    uint8_t height;             /* arrays and containers built by the public
                                 * builders: dlti_attr_height() when below 255;
                                 * 0 (parsed) or 255: not recorded */
    uint16_t index_mask;        /* an index of copies: its slots - 1; 0 for a 4-byte index */
    uint32_t n;                 /* entries / elements / words (constructors check the range) */
    const dlti_type *type;      /* integer, float, dense, dense array (element), type attr */
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
            const void *index;  /* NULL, or dlti_index_mask(n) + 1 slots: dlti_entry_rec
                                 * up to DLTI_INDEX_COMPACT entries (index_mask
                                 * holds the mask, 32767 at most), else uint32_t */
        } c;
    } u;
};

/* Bits of an index slot that hold a position plus one (1..n), n < 2^30. */
static inline unsigned dlti_index_pos_bits(size_t n)
{
#if defined(__GNUC__)
    return 64u - (unsigned)__builtin_clzll((unsigned long long)n | 1);
#else
    unsigned bits = 1;
    while (bits < 64 && (n >> bits))
        bits++;
    return bits;
#endif
}

/* The tag of a key of hash `hash` in an index whose positions take `bits`. */
static inline uint32_t dlti_index_tag(uint64_t hash, unsigned bits)
{
    return (uint32_t)(hash >> 32) >> bits;
}

/* The slots of an index of `n` entries minus one: at least twice the
 * entries, a power of two, 16 at least. */
static inline uint32_t dlti_index_mask(size_t n)
{
    size_t need = n * 2; /* n is below 2^30 */
    if (need <= 16)
        return 15;
#if defined(__GNUC__)
    /* every query step computes it: no loop */
    return (uint32_t)(((uint64_t)2 << (63 - __builtin_clzll((unsigned long long)need - 1))) - 1);
#else
    size_t cap = 16;
    while (cap < need)
        cap *= 2;
    return (uint32_t)(cap - 1);
#endif
}

/* ---- per-node device ids in cluster specs (query_cluster.c, docs/cluster.md) ---- */
/* The value of C-string key `s` in container `a` (NULL: none, or not a container). */
const dlti_attr *dlti_lookup_cstring(const dlti_attr *a, const char *s);
/* In a target system spec with a "cluster" device: the device "<node>.<dev>"
 * stands for, "<class of node>.<dev>"; NULL when it stands for none. */
const dlti_attr *dlti_cluster_device(const dlti_attr *spec, const char *id, size_t len);

/* Builds an array without the depth check (the parser checks depth itself). */
const dlti_attr *dlti_array_make(dlti_context *ctx, const dlti_attr *const *elems, size_t n);
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
/* ---- nesting: the one depth limit ----
 *
 * Every recursive walk of the core and the layers above it (printers,
 * equality, the YAML/JSON emitters, the schema checker, layouts) relies on
 * one invariant instead of a guard of its own: no attribute that exists in
 * a context is taller than the context's max_depth - 1 levels, the levels
 * the parser counts to read back its printing, with one level kept for the
 * module that may hold it.  The parser enforces it while reading (a bare
 * attribute is counted as if a module held it), the public builders
 * (dlti_container_new/_set/_set_path, dlti_array_new) before building, and
 * dlti_context_set_limits() caps max_depth at DLTI_DEFAULT_MAX_DEPTH, the
 * depth those walks' stacks are sized and tested for. */

/* Levels the parser counts (at most) to read the printing of `a`: 1 for
 * the attribute, plus its type's nesting, its dense brackets, its
 * elements' or entries' heights.  O(1) for recorded heights; otherwise a
 * walk as deep as the attribute (bounded by the invariant). */
unsigned dlti_attr_height(const dlti_attr *a);
/* The tallest attribute a context may hold (the invariant above). */
static inline unsigned dlti_max_height(const dlti_context *ctx)
{
    return ctx->limits.max_depth - 1;
}

/* Verifies container entries and builds the container: the rules of each
 * entry first (the first entry that breaks one), then repeated keys (the
 * first key that repeats an earlier one, found while the index is built).
 * NULL with err set (no position; DLTI_ERROR_VERIFY, or DLTI_ERROR_NOMEM);
 * `bad` (may be NULL) gets the index of the offending entry, SIZE_MAX when
 * the container as a whole is at fault.  What was allocated before an error
 * stays in the context, as after any failed build. */
const dlti_attr *dlti_container_build(dlti_context *ctx, dlti_attr_kind kind,
                                      const dlti_entry_rec *entries, size_t n, dlti_error_t *err,
                                      size_t *bad);
/* Data layout entry values as MLIR reads them (getValues<uint64_t>): element
 * `i` of a dense integer attribute, false where there is none; the number of
 * elements of a dense attribute, 0 for other attributes. */
bool dlti_dense_u64(const dlti_attr *v, size_t i, uint64_t *out);
size_t dlti_dense_len(const dlti_attr *v);
/* Verifies a dl_spec's entries as MLIR's data layout interfaces do. */
int dlti_dl_spec_check(const dlti_attr *spec, dlti_error_t *err);

/* ---- scopes ---- */

typedef struct dlti_named_attr {
    const char *name;
    size_t name_len;
    const dlti_attr *value;
    size_t offset;    /* where the name starts in the source */
    size_t end;       /* just after its value (or its name, for a unit) */
} dlti_named_attr;

struct dlti_scope {
    const dlti_context *ctx;
    const dlti_scope *parent;
    const char *name;         /* NULL when unnamed */
    bool bare;
    size_t offset;            /* where the op (`module`, `builtin.module`) starts in
                               * the source; a bare attribute's start */
    size_t num_attrs;
    const dlti_named_attr *attrs;   /* sorted by name */
    size_t num_children;
    const dlti_scope *const *children;
    /* Where the module's parts sit in the source (dlti_scope_source). */
    bool implicit;            /* the module MLIR wraps around top-level ops */
    bool interleaved;         /* implicit: alias definitions between those ops */
    bool generic;             /* "builtin.module"() ({...}) {...} : () -> () */
    size_t name_end, dict_open, dict_close, body_open, body_close;
    /* An op other than a module holding DLTI attributes (parse_op.c): its
     * name (func.func, "test.op" without the quotes); NULL for modules.
     * attrs then holds its DLTI attributes only, name the op's symbol. */
    const char *op_name;
    /* Ops of other dialects skipped in the body (skip_op.c): how many, and
     * the first one's name and place, for messages. */
    size_t num_skipped;
    const char *skipped_name;
    int skipped_line, skipped_column;
};

/* ---- errors: the one way every layer fills a dlti_error_t ---- */

#if defined(__GNUC__)
#define DLTI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DLTI_PRINTF(f, a)
#endif

/* Code and message, no position (line 0, no source); a message longer than
 * DLTI_ERROR_TEXT_LENGTH ends in "...".  `err` may be NULL. */
void dlti_error_set(dlti_error_t *err, dlti_error_code code, const char *fmt, ...)
    DLTI_PRINTF(3, 4);
/* Code, message and position (`source` may be NULL; line 0: none). */
void dlti_error_set_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                       int column, const char *fmt, ...) DLTI_PRINTF(6, 7);
void dlti_error_vset_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                        int column, const char *fmt, va_list ap);
/* An out-of-memory error that the context's memory budget caused becomes
 * the budget's DLTI_ERROR_LIMIT, naming it (position kept). */
void dlti_error_budget(const dlti_context *ctx, dlti_error_t *err);
/* Moves an error (from a layer that knew no position) to source:line:column. */
void dlti_error_place(dlti_error_t *err, const char *source, int line, int column);
/* Places an error at a byte offset into `text` (line, column, position, source). */
void dlti_error_locate(dlti_error_t *err, const char *source, const char *text, size_t len,
                       size_t offset);

/* ---- files and growable arrays ---- */

/* Reads a whole file ("-": standard input) of at most `max` bytes: malloc'ed
 * and NUL-terminated, `*len` bytes; NULL with DLTI_ERROR_IO (the OS's
 * reason), DLTI_ERROR_LIMIT or DLTI_ERROR_NOMEM, the error's source `path`. */
char *dlti_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err);

/* Makes room for `need` elements of `elem` bytes in the malloc'ed array
 * `*data` of capacity `*cap` (doubling); 0, or -1 on overflow or out of
 * memory with the array unchanged. */
int dlti_grow(void **data, size_t *cap, size_t need, size_t elem);

/* ---- words ---- */

/* Optimal string alignment distance of two short strings (SIZE_MAX past 64
 * bytes): how the layers find the key a typo meant. */
size_t dlti_edit_distance(const char *a, size_t la, const char *b, size_t lb);

/* ---- growable string for printers ---- */

/* The text is NUL-terminated after every append.  A failed buffer (out of
 * memory, overflow) stays failed; what is appended after that is dropped or
 * kept, either way the caller throws the result away. */
typedef struct dlti_buf {
    char *data;
    size_t len, cap;
    bool failed;
} dlti_buf;

/* Makes room for `extra` more bytes and the NUL (the slow path of the
 * appends below: the first buffer is 256 bytes at least, then doubling);
 * false when the buffer has failed. */
bool dlti_buf_reserve(dlti_buf *b, size_t extra);
/* Appends inline: printers append a few bytes at a time, millions of times
 * for a big spec, and the room is nearly always there. */
static inline void dlti_buf_put(dlti_buf *b, const char *s, size_t n)
{
    if (b->cap - b->len <= n && !dlti_buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}
static inline void dlti_buf_puts(dlti_buf *b, const char *s)
{
    dlti_buf_put(b, s, strlen(s));
}
static inline void dlti_buf_putc(dlti_buf *b, char c)
{
    if (b->cap - b->len <= 1 && !dlti_buf_reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}
/* Appends the decimal digits of `v` (with a '-' when negative). */
void dlti_buf_put_u64(dlti_buf *b, uint64_t v);
void dlti_buf_put_i64(dlti_buf *b, int64_t v);
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
/* print_pretty.c: a DLTI container one entry a line, nested ones indented
 * `indent` levels (two spaces each) and more; other attributes as
 * dlti_print_attr prints them. */
void dlti_print_attr_pretty(dlti_buf *b, const dlti_attr *attr, int indent);
/* A module's attributes under the names DLTI_PRINT_INHERENT asks for, sorted
 * as MLIR prints them: a malloc'ed copy (NULL when out of memory). */
dlti_named_attr *dlti_module_attrs_for_print(const dlti_named_attr *attrs, size_t n, unsigned flags);
/* Prints a two's-complement integer of `nwords` words, signed or not. */
void dlti_print_words(dlti_buf *b, const uint64_t *words, size_t nwords, unsigned width,
                      bool is_signed);

/* ======== integer literals ======== */

enum { DLTI_LIT_OK = 0, DLTI_LIT_RANGE = -1, DLTI_LIT_NOMEM = -2 };

/* The value of the integer literal `s` (decimal digits or 0x-hex, no sign)
 * negated when `negative`, as `width` two's-complement bits, checked the way
 * MLIR checks it (signed: index and siN; signless: either reading).  On
 * success *out is malloc'ed and holds *out_words words. */
int dlti_int_literal(const char *s, size_t n, bool negative, unsigned width, bool is_signed,
                     uint64_t **out, size_t *out_words);

/* The same for decimal literals of at most 19 digits and widths 1..64,
 * without allocating; returns DLTI_LIT_NOMEM for inputs it does not handle. */
int dlti_int_literal_small(const char *s, size_t n, bool negative, unsigned width, bool is_signed,
                           uint64_t *out);

/* ======== the recursive-descent reader ======== */

/* The hand-written recursive-descent reader shared by the type, attribute
 * and module parsers.  It works on characters directly: MLIR's dimension
 * lists (4x?xf32) do not tokenise cleanly anyway. */

typedef struct dlti_parser {
    dlti_context *ctx;
    const char *text;
    size_t len;
    size_t pos;
    const char *source;
    dlti_error_t *err;
    unsigned depth;
    bool failed;
    /* DLTI container bodies being parsed: only the outermost one is checked
     * for balance, and only when parsing it failed (see parse_hash). */
    unsigned pretty_depth;
} dlti_parser;

void dlti_parser_init(dlti_parser *p, dlti_context *ctx, const char *text, size_t len,
                      const char *source, dlti_error_t *err);
/* Records the first error only: later ones are consequences. Returns NULL. */
void *dlti_parser_fail(dlti_parser *p, size_t offset, dlti_error_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Skips blanks and // comments. */
void dlti_skip_ws(dlti_parser *p);
/* The next character after blanks, or 0 at the end (a NUL byte is an error). */
int dlti_peek_slow(dlti_parser *p);
static inline int dlti_peek(dlti_parser *p)
{
    /* Most tokens follow one another directly: no blank, comment or NUL. */
    if (p->pos < p->len) {
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c > ' ' && c != '/')
            return c;
    }
    return dlti_peek_slow(p);
}
bool dlti_accept(dlti_parser *p, char c);
bool dlti_accept_str(dlti_parser *p, const char *s);
int dlti_expect(dlti_parser *p, char c);
/* The offset MLIR reports an unexpected token at (see lexer.c). */
size_t dlti_wrong_token_at(dlti_parser *p);
/* A bare identifier [A-Za-z_][A-Za-z0-9_$.]* after blanks; 0 if none. */
size_t dlti_bare_id(dlti_parser *p, size_t *start);
/* The name of an entry of an op's attribute dictionary: a string or a bare
 * identifier (its bytes, not NUL-terminated, in *len); NULL with the error. */
const char *dlti_parse_attr_name(dlti_parser *p, size_t *len);
/* A symbol's name right after its '@' (MLIR's lexer: no blank between),
 * a string or a bare identifier; NULL with MLIR's error. */
const char *dlti_parse_symbol_name(dlti_parser *p, size_t *len);
/* Character classes of MLIR identifiers, inline: the lexer's hottest test. */
static inline bool dlti_is_id_start(int c)
{
    return (unsigned)((c | 0x20) - 'a') < 26u || c == '_';
}

static inline bool dlti_is_id_char(int c)
{
    return dlti_is_id_start(c) || (unsigned)(c - '0') < 10u || c == '$' || c == '.';
}
bool dlti_enter(dlti_parser *p);
void dlti_leave(dlti_parser *p);

/* ---- operations sysdesc does not model (skip_op.c) ---- */

typedef struct dlti_skipped_op {
    size_t offset;        /* where the op starts */
    size_t end;           /* just after its last token */
    const char *name;     /* its name for messages, in the source text */
    size_t name_len;
    size_t dlti_at;       /* the first `#dlti.` inside it; SIZE_MAX: none */
} dlti_skipped_op;

/* Whether `module` or `builtin.module` starts at `at`. */
bool dlti_at_module_op(const dlti_parser *p, size_t at);
/* `#name =` / `!name =`, and `{-#` file metadata: top-of-file items. */
bool dlti_at_alias_def(const dlti_parser *p, size_t at);
bool dlti_at_metadata(const dlti_parser *p, size_t at);
/* Skips one op at the cursor (`top`: at the top of a file, where alias
 * definitions and `{-#` start items too); 0, or -1 with the parser failed
 * (a string or bracket left open).  An op with a `#dlti.` inside is
 * skipped too, its dlti_at set: the caller reads it with dlti_parse_op. */
int dlti_skip_op(dlti_parser *p, bool top, dlti_skipped_op *out);
/* Whether the token at `at`, first on its line, can only start an op. */
bool dlti_op_starts(const dlti_parser *p, size_t at, bool top);

/* ---- DLTI attributes on ops other than modules (parse_op.c) ---- */

/* Reads the op `op` (skipped, with a `#dlti.` inside) again from its start
 * as a scope under `parent`: func.func, gpu.module, gpu.func, llvm.func in
 * their custom form, any op in the generic form.  NULL with the parser
 * failed where it cannot (naming the op). */
dlti_scope *dlti_parse_op(dlti_parser *p, dlti_scope *parent, const dlti_skipped_op *op);
/* parse_module.c, for parse_op.c: the ops of one region `{...}` of an op
 * scope (block labels allowed), appended to kids[0..*n) (cap *cap); the
 * children checked and set; the `dlti.*` attribute check of modules. */
int dlti_parse_region(dlti_parser *p, dlti_scope *s, dlti_scope ***kids, size_t *n, size_t *cap);
int dlti_set_children(dlti_parser *p, dlti_scope *s, dlti_scope **kids, size_t n);
int dlti_verify_named(dlti_parser *p, const dlti_named_attr *a, size_t op_at);
/* parse_op.c: skips the bracket group at the cursor (strings followed; a
 * `#dlti.` inside is an error naming op `opname`). */
int dlti_skip_group(dlti_parser *p, const char *opname);
/* A trailing `loc(...)`, skipped. */
int dlti_skip_loc(dlti_parser *p);

/* Parses a type at the cursor. */
const dlti_type *dlti_parse_type(dlti_parser *p);
/* Whether the bare identifier names a builtin type. */
bool dlti_is_type_keyword(const char *s, size_t n);
/* Parses an attribute value at the cursor. */
const dlti_attr *dlti_parse_attr(dlti_parser *p);
/* Parses "string" at the cursor into arena memory. */
const char *dlti_parse_string(dlti_parser *p, size_t *len);

/* ======== data layouts ======== */

/* Internal layout of dlti_layout, shared by dlti/layout*.c.  Not installed. */

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

#endif /* DLTI_PRIVATE_H */
