/*
 * dlti_private.h - the private header of the DLTI core, for dlti/ alone
 * (not installed; no other layer has dlti/ on its include path).
 *
 * The base it stands on (errors, buffers, arena, files, hashing) is
 * base/base_private.h; what the layers above may use of the core beyond
 * its public API is dlti/internal/dlti_internal.h, functions only.  The
 * struct layouts here (attributes, types, scopes, layouts) are the core's.
 */
#ifndef DLTI_PRIVATE_H
#define DLTI_PRIVATE_H

#include "base_private.h"
#include "dlti_internal.h"
#include "sysdesc/dlti.h"
#include "sysdesc/layout.h"

#include <stdarg.h>
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


/* ---- interning ---- */

/* A key handle.  String keys and type keys are distinct nodes, so equal
 * handles mean equal keys and a lookup compares pointers. */
struct dlti_key_node {
    const dlti_type *type; /* NULL for string keys */
    uint64_t hash;         /* of the string, or of the type's text */
    size_t len;
    const char *str;       /* string bytes (NUL-terminated), or the type's text */
    /* a string key none of whose bytes MLIR escapes: printed as "str",
     * told once when it is interned, not at each of its many printings */
    bool unescaped;
};
/* True when no byte of s[0..len) needs an escape in an MLIR string
 * literal (print.c). */
bool dlti_string_unescaped(const char *s, size_t len);

typedef struct dlti_table {
    void **slots;
    size_t cap;   /* power of two */
    size_t count;
} dlti_table;


struct dlti_context {
    bs_arena arena;
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

/* The value of hex digit c, or -1. */
static inline int dlti_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The widest integer type MLIR accepts (its IntegerType limit). */
#define DLTI_MAX_INT_WIDTH 16777215u

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
    /* !llvm.struct / !llvm.array whose members sysdesc read (for layouts):
     * DLTI_LLVM_STRUCT with `members`, DLTI_LLVM_ARRAY with `elem` and
     * `array_len`; 0 for any other type or a body it did not read. */
    unsigned char llvm_aggregate;
    bool packed;
    size_t num_members;
    const dlti_type *const *members;
    uint64_t array_len;
    struct dlti_key_node key;
};

enum { DLTI_LLVM_STRUCT = 1, DLTI_LLVM_ARRAY = 2 };

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
 * meets takes that slot), which evens out the probes of the keys.  A slot
 * is the entry's position + 1 (0: empty), 4 bytes: a probe reads the slot
 * and then the entry, in the map's own entries (a copy of the entry, 16
 * bytes a slot, made the index most of a loaded spec's memory: 4 MB of a
 * 2,000-device spec's 10, each page faulted in and zeroed). */
#define DLTI_INDEX_THRESHOLD 8

/* 32 bytes: a big spec is millions of these, and loading, checking and
 * printing stream through them. */
struct dlti_attr {
    uint8_t kind;               /* dlti_attr_kind */
    uint8_t height;             /* arrays and containers built by the public
                                 * builders: dlti_attr_height() when below 255;
                                 * 0 (parsed) or 255: not recorded */
    uint16_t index_log2;        /* an index's slots are 1 << index_log2 */
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
            const uint32_t *index;       /* NULL, or 1 << index_log2 slots */
        } c;
    } u;
};

/* log2 of the slots of an index of `n` entries: at least twice the
 * entries, 16 at least (n is below 2^30). */
static inline unsigned dlti_index_log2(size_t n)
{
    unsigned bits = 4;
    while (((size_t)1 << bits) < n * 2)
        bits++;
    return bits;
}

/* The mask of container `a`'s index: its slots - 1. */
static inline size_t dlti_index_mask(const dlti_attr *a)
{
    return ((size_t)1 << a->index_log2) - 1;
}

/* ---- per-node device ids in cluster specs (query_cluster.c, docs/cluster.md) ---- */
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
/* Records the height of a freshly built array or container, or refuses it
 * when it breaks the invariant (NULL, DLTI_ERROR_LIMIT in err). */
const dlti_attr *dlti_attr_within_depth(dlti_context *ctx, const dlti_attr *a, dlti_error_t *err);
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
/* Verifies a dl_spec's entries as MLIR's data layout interfaces do: type
 * entries, then identifiers, whose dialect refuses them when the file loads
 * it (`loaded`: dlti_dialects_loaded()); dlti_dl_spec_check() for a spec
 * outside a file (only builtin and DLTI loaded). */
int dlti_dl_spec_check_loaded(const dlti_attr *spec, uint64_t loaded, dlti_error_t *err);
int dlti_dl_spec_check(const dlti_attr *spec, dlti_error_t *err);
/* The dialects mlir-opt-22 has loaded once it has parsed `text` (one bit
 * per dialect it registers; builtin and DLTI always), and the dialect of an
 * identifier entry's key that is among them and refuses identifier entries
 * (NULL when none does): dialects.c. */
uint64_t dlti_dialects_loaded(const char *text, size_t len);
const char *dlti_dialect_refusing_ids(uint64_t loaded, const char *key, size_t n);
/* Whether a spec has an identifier entry of a dialect mlir-opt-22 registers
 * other than builtin and DLTI: only then does the file's text need reading. */
bool dlti_dl_spec_names_dialects(const dlti_attr *spec);

/* ---- scopes ---- */

typedef struct dlti_named_attr {
    const char *name;
    size_t name_len;
    const dlti_attr *value;
    size_t offset;    /* where the name starts in the source */
    size_t end;       /* just after its value (or its name, for a unit) */
    bool property;    /* MLIR head's inherent `dlti` written as a generic op's
                       * property: MLIR 22 does not see it (dlti_query_mlir22) */
} dlti_named_attr;

/* Ops a scope's body holds that sysdesc did not read: how many, and the
 * first one's name, place and (unread ops) why, for messages. */
typedef struct dlti_op_note {
    size_t count;
    const char *name;
    int line, column;
    const char *why;
} dlti_op_note;

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
    /* Ops of other dialects skipped in the body (skip_op.c), and among
     * them those holding DLTI attributes that could not be read
     * (parse_op.c): how many, and the first one's name and place. */
    dlti_op_note skipped, unread;
};


void dlti_print_key(bs_buf *b, dlti_key key);
/* An attribute name of a dictionary: bare when it is an identifier, else quoted. */
void dlti_print_name(bs_buf *b, const char *s, size_t n);
/* A module's attributes under the names DLTI_PRINT_INHERENT asks for, sorted
 * as MLIR prints them: a malloc'ed copy (NULL when out of memory). */
dlti_named_attr *dlti_module_attrs_for_print(const dlti_named_attr *attrs, size_t n, unsigned flags);
/* Prints a two's-complement integer of `nwords` words, signed or not. */
void dlti_print_words(bs_buf *b, const uint64_t *words, size_t nwords, unsigned width,
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
    /* Set, with the error, where an op holds a DLTI attribute sysdesc cannot
     * place (custom syntax it does not read, an argument's attributes): why,
     * for the note when parse_module.c steps over the op instead. */
    const char *unplaced;
    /* The file's attribute and type aliases defined so far (alias.c). */
    struct dlti_alias *aliases;
    size_t num_aliases, cap_aliases;
    /* The dialects mlir-opt-22 loads for the file (dlti_dialects_loaded),
     * found when a spec first needs them: most files never do. */
    uint64_t loaded_dialects;
    bool dialects_known;
} dlti_parser;

typedef struct dlti_alias dlti_alias;
/* `#name = attribute` or `!name = type` at the cursor (on '#'/'!'): checks
 * and records it; a value sysdesc does not model is kept as the reason a
 * use fails.  -1 with MLIR's error (a redefinition, a bad value). */
int dlti_alias_define(dlti_parser *p);
/* The value of a use of alias `name` (`len` bytes, without '#'/'!') whose
 * identifier ends at the cursor; NULL with MLIR's error when undefined. */
const dlti_attr *dlti_alias_attr(dlti_parser *p, const char *name, size_t len);
const dlti_type *dlti_alias_type(dlti_parser *p, const char *name, size_t len);
/* Frees the table (the values belong to the context). */
void dlti_alias_free(dlti_parser *p);

void dlti_parser_init(dlti_parser *p, dlti_context *ctx, const char *text, size_t len,
                      const char *source, dlti_error_t *err);
/* Records the first error only: later ones are consequences. Returns NULL. */
void *dlti_parser_fail(dlti_parser *p, size_t offset, dlti_error_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* dlti_parser_fail() with "out of memory" at `offset`.  Returns NULL. */
void *dlti_parser_nomem(dlti_parser *p, size_t offset);
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
bool dlti_enter(dlti_parser *p);
void dlti_leave(dlti_parser *p);

/* ---- operations sysdesc does not model (skip_op.c) ---- */

typedef struct dlti_skipped_op {
    size_t offset;        /* where the op starts */
    size_t end;           /* just after its last token */
    const char *name;     /* its name for messages, in the source text */
    size_t name_len;
    size_t dlti_at;       /* the first `#dlti.` or `dlti.*` name inside it; SIZE_MAX: none */
} dlti_skipped_op;

/* A string literal at the cursor (on its opening quote) stepped over, its
 * bytes not checked; fails as MLIR's lexer does at a line end. */
int dlti_skip_string(dlti_parser *p);
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

/* ---- other dialects' attributes MLIR prints its own way (parse_foreign.c) ---- */

/* `#name...` of another dialect (its name at text[id..id+n), its '#' at
 * `start`, the cursor after the name, its `<...>` body, balanced, ending at
 * `body_end`): #llvm.target, #llvm.target_features, #llvm.address_space,
 * #ptr.spec, #ptr.generic_space, #test.const_memory_space are read with
 * MLIR's checks into an opaque attribute of mlir-opt-22's text (*out; NULL
 * with the parser failed) and 1 returned; 0 for any other name. */
int dlti_parse_foreign_attr(dlti_parser *p, size_t start, size_t id, size_t n, size_t body_end,
                            const dlti_attr **out);
/* Whether `a` is a memory space a !ptr.ptr takes (#ptr.generic_space,
 * #llvm.address_space<N>, #test.const_memory_space<N>). */
bool dlti_is_memory_space(const dlti_attr *a);
/* The size, abi, preferred and index (UINT32_MAX: none) of a #ptr.spec, in
 * bits; false for any other attribute. */
bool dlti_ptr_spec_values(const dlti_attr *a, uint32_t v[4]);

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
    const dlti_attr *llvm_struct; /* the !llvm.struct<()> entry: struct alignments */
};

/* The layout of `type`: the whole of dlti_layout_query().  Nothing is
 * cached: a builtin type costs about what a hash lookup would, and a layout
 * no query writes to is safe to share between threads as it is. */
int dlti_layout_compute(const dlti_layout *layout, const dlti_type *type, dlti_type_layout *out,
                        dlti_error_t *err);

/* Builds the query tables from layout->entries; -1 with err on a bad entry. */
int dlti_layout_index_entries(dlti_layout *layout, dlti_error_t *err);

/* Whether an op other than a module implements DataLayoutOpInterface in
 * mlir-opt-22 (gpu.module, test.op_with_data_layout): its `dlti.dl_spec` is a
 * data layout, not only an attribute to verify. */
bool dlti_layout_op(const char *op_name);
/* The data layout spec attached to a scope, or NULL. */
const dlti_attr *dlti_scope_dl_spec(const dlti_scope *scope, size_t *offset);

/* Combines the specs of `scope` and its ancestors into layout->entries.
 * On failure returns -1; `*bad` gets the scope whose spec does not combine
 * (NULL for other errors). */
int dlti_layout_combine(dlti_layout *layout, const dlti_scope *scope, const dlti_scope **bad,
                        dlti_error_t *err);

#endif /* DLTI_PRIVATE_H */
