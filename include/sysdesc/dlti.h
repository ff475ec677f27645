/*
 * sysdesc/dlti.h - MLIR DLTI attributes in C: model, parser, printer,
 * verifier and queries.
 *
 * Everything here depends on libc only.  Objects (types, attributes, scopes)
 * are immutable once built and owned by a dlti_context: there is no
 * per-object free, dlti_context_free() releases them all.
 *
 * Threads: building (parsing, dlti_key_*, dlti_*_new, the builder) writes to
 * the context and needs exclusive access.  Once built, any number of threads
 * may print and query concurrently: those functions only read.
 *
 * Errors: functions that can fail take a `dlti_error_t *` (may be NULL) and
 * return NULL or a negative value; the error says what and where, as
 * jansson's json_error_t does (sysdesc/error.h).  Nothing in the library
 * prints or aborts.
 */
#ifndef SYSDESC_DLTI_H
#define SYSDESC_DLTI_H

#include "sysdesc/error.h" /* dlti_error_t, taken by every function that can fail */
#include "sysdesc/export.h"
#include "sysdesc/version.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Context                                                            */
/* ------------------------------------------------------------------ */

typedef struct dlti_context dlti_context;

/** A new empty context, or NULL when out of memory. Free with dlti_context_free(). */
SYSDESC_API dlti_context *dlti_context_new(void);
/** Releases the context and every object built in it. NULL is a no-op. */
SYSDESC_API void dlti_context_free(dlti_context *ctx);
/**
 * Releases every object built in the context (pointers to them become
 * invalid) but keeps its memory for what is built next: a process that
 * re-reads specs avoids returning memory to the system and faulting it in
 * again.  The limits are kept.  Returns 0, or -1 when out of memory (the
 * context is then only fit for dlti_context_free()).
 */
SYSDESC_API int dlti_context_reset(dlti_context *ctx);

/** Limits applied by the parsers (and the builder, for depth). 0 keeps the default. */
typedef struct dlti_limits {
    unsigned max_depth;       /**< nesting of attributes/types/scopes; default and most 1000 */
    size_t max_input_bytes;   /**< default 1 GiB */
    size_t max_string_bytes;  /**< one string literal; default 16 MiB */
    size_t max_entries;       /**< entries of one container; default 16 Mi, at most 2^30 - 2 */
    /** Memory the context may hold (its arena: every attribute, type, key
     *  and string it reads or builds); default 4 GiB.  Past it a reader
     *  fails with DLTI_ERROR_LIMIT naming the limit, before the system runs
     *  out of memory. */
    size_t max_memory_bytes;
} dlti_limits;

#define DLTI_DEFAULT_MAX_DEPTH 1000u

/** Replaces the context's limits (fields left 0 keep the defaults). */
SYSDESC_API void dlti_context_set_limits(dlti_context *ctx, const dlti_limits *limits);
/** The limits in force. */
SYSDESC_API dlti_limits dlti_context_get_limits(const dlti_context *ctx);

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */

typedef struct dlti_type dlti_type;

typedef enum dlti_type_kind {
    DLTI_TYPE_INTEGER,  /**< iN, siN, uiN */
    DLTI_TYPE_INDEX,
    DLTI_TYPE_FLOAT,    /**< f16, bf16, f32, f64, f80, f128, tf32, f8..., f6..., f4... */
    DLTI_TYPE_VECTOR,
    DLTI_TYPE_COMPLEX,
    DLTI_TYPE_TENSOR,
    DLTI_TYPE_MEMREF,
    DLTI_TYPE_TUPLE,
    DLTI_TYPE_FUNCTION,
    DLTI_TYPE_NONE,
    DLTI_TYPE_DIALECT   /**< !dialect.name<...>, kept verbatim (!llvm.ptr<0> is !llvm.ptr) */
} dlti_type_kind;

typedef enum dlti_signedness {
    DLTI_SIGNLESS, DLTI_SIGNED, DLTI_UNSIGNED
} dlti_signedness;

/**
 * Parses one builtin or dialect type ("i32", "vector<[4]x8xf32>",
 * "!llvm.ptr<270>").  Types are uniqued: equal types are the same pointer.
 * Returns NULL and fills `err` on malformed text.  The whole text must be one
 * type (surrounding blanks allowed).
 */
SYSDESC_API const dlti_type *dlti_type_parse(dlti_context *ctx, const char *text, size_t len,
                                 dlti_error_t *err);
/** The canonical text MLIR prints for the type; owned by the context, NUL-terminated. */
SYSDESC_API const char *dlti_type_str(const dlti_type *type);
SYSDESC_API dlti_type_kind dlti_type_get_kind(const dlti_type *type);
/** Integer width in bits; 0 for non-integers. */
SYSDESC_API unsigned dlti_type_int_width(const dlti_type *type);
SYSDESC_API dlti_signedness dlti_type_int_signedness(const dlti_type *type);
/** Float format index (see dlti_float_kind in the sources); -1 for non-floats. */
SYSDESC_API int dlti_type_float_format(const dlti_type *type);
/** Storage width of a float type in bits (f80: 80, tf32: 19); 0 otherwise. */
SYSDESC_API unsigned dlti_type_float_width(const dlti_type *type);
/** Element type of vector/complex/tensor/memref; NULL otherwise or unranked-less. */
SYSDESC_API const dlti_type *dlti_type_element(const dlti_type *type);
/** Rank of vector/tensor/memref (-1 for unranked tensor/memref); 0 for others. */
SYSDESC_API int dlti_type_rank(const dlti_type *type);
/** Dimension `i`; -1 for a dynamic `?` dimension. */
SYSDESC_API int64_t dlti_type_dim(const dlti_type *type, int i);
/** Whether vector dimension `i` is scalable (`[4]`). */
SYSDESC_API bool dlti_type_dim_scalable(const dlti_type *type, int i);

/* Common types, uniqued in the context; NULL only when out of memory. */
SYSDESC_API const dlti_type *dlti_type_integer(dlti_context *ctx, unsigned width, dlti_signedness s);
SYSDESC_API const dlti_type *dlti_type_index(dlti_context *ctx);
SYSDESC_API const dlti_type *dlti_type_f64(dlti_context *ctx);

/* ------------------------------------------------------------------ */
/* Attributes                                                         */
/* ------------------------------------------------------------------ */

typedef struct dlti_attr dlti_attr;

typedef enum dlti_attr_kind {
    DLTI_ATTR_INTEGER,      /**< 42 : i32 (any width; wider than 64 bits keeps every digit) */
    DLTI_ATTR_FLOAT,        /**< 1.5 : f32 */
    DLTI_ATTR_BOOL,         /**< true / false */
    DLTI_ATTR_STRING,       /**< "text" (may hold any bytes, NUL included) */
    DLTI_ATTR_UNIT,         /**< unit */
    DLTI_ATTR_TYPE,         /**< a type used as a value: vector<4xf32> */
    DLTI_ATTR_ARRAY,        /**< [a, b, ...] */
    DLTI_ATTR_DENSE_ARRAY,  /**< array<i32: 1, 2> */
    DLTI_ATTR_DENSE,        /**< dense<[1, 2]> : vector<2xi64> */
    DLTI_ATTR_DICTIONARY,   /**< {a = 1, b} (sorted by name, as MLIR keeps it) */
    DLTI_ATTR_OPAQUE,       /**< any other dialect attribute #foo.bar<...>, verbatim */
    DLTI_ATTR_MAP,          /**< #dlti.map<...> */
    DLTI_ATTR_DL_SPEC,      /**< #dlti.dl_spec<...> */
    DLTI_ATTR_DEVICE_SPEC,  /**< #dlti.target_device_spec<...> */
    DLTI_ATTR_SYSTEM_SPEC,  /**< #dlti.target_system_spec<...> */
    DLTI_ATTR_ENTRY         /**< #dlti.dl_entry<key, value> (a bare entry) */
} dlti_attr_kind;

/**
 * A key of a DLTI entry or a query: a string or a type.  Handles are
 * interned in the context: two handles for the same key are equal pointers,
 * so a lookup compares one word per entry (or hashes it, for big maps).
 */
typedef const struct dlti_key_node *dlti_key;

/** The handle for string key `s` (`len` bytes), interning it. NULL when out of memory. Writes. */
SYSDESC_API dlti_key dlti_key_string(dlti_context *ctx, const char *s, size_t len);
/** The handle for type key `type`. Writes. */
SYSDESC_API dlti_key dlti_key_type(dlti_context *ctx, const dlti_type *type);
/** The handle for string `s` if it is known to the context, else NULL. Only reads. */
SYSDESC_API dlti_key dlti_key_find(const dlti_context *ctx, const char *s, size_t len);
/** The key's string (NUL-terminated, `*len` set when non-NULL), or NULL for a type key. */
SYSDESC_API const char *dlti_key_str(dlti_key key, size_t *len);
/** The key's type, or NULL for a string key. */
SYSDESC_API const dlti_type *dlti_key_get_type(dlti_key key);

SYSDESC_API dlti_attr_kind dlti_attr_get_kind(const dlti_attr *attr);
/** Kind name for messages: "integer", "map", "target_device_spec"... */
SYSDESC_API const char *dlti_attr_kind_name(dlti_attr_kind kind);
/** True for the attributes a query can descend into: map, dl_spec, device and system specs. */
SYSDESC_API bool dlti_attr_is_queryable(const dlti_attr *attr);
/** The type of an integer, float, dense or dense-array attribute (its element type for
 *  dense arrays) or of a type attribute's value; NULL otherwise. */
SYSDESC_API const dlti_type *dlti_attr_type(const dlti_attr *attr);

/**
 * Number of entries (map, specs, dictionary), elements (array, dense array,
 * dense) or 0 for scalars.
 */
SYSDESC_API size_t dlti_attr_size(const dlti_attr *attr);
/** Key of entry `i` of a map/spec/dictionary/entry attribute (dictionary names are string keys). */
SYSDESC_API dlti_key dlti_attr_entry_key(const dlti_attr *attr, size_t i);
/** Value of entry `i` of a map/spec/dictionary/entry attribute (for a unit
 *  dictionary entry, the unit attribute). */
SYSDESC_API const dlti_attr *dlti_attr_entry_value(const dlti_attr *attr, size_t i);
/** Element `i` of an array attribute. */
SYSDESC_API const dlti_attr *dlti_attr_element(const dlti_attr *attr, size_t i);

/**
 * Typed reads.  Each returns 0 on success; on a value of another kind
 * -1 with DLTI_ERROR_TYPE, on a value that does not fit -1 with
 * DLTI_ERROR_RANGE.  `err` may be NULL.
 *   int64: integer attributes of any type (i32, ui32, index, i128 when it fits);
 *   uint64: non-negative integers;
 *   double: float attributes (rounded to nearest for wider formats) and integers;
 *   bool: bool attributes;
 *   string: string attributes (not NUL-terminated only if the string holds NUL;
 *           the bytes are always followed by a NUL).
 * Dense arrays and dense elements: element `i` through dlti_attr_dense_int64()
 * (integer elements) or dlti_attr_dense_double() (float elements, as
 * dlti_attr_get_double() converts them; a splat answers every index).
 */
SYSDESC_API int dlti_attr_get_int64(const dlti_attr *attr, int64_t *out, dlti_error_t *err);
SYSDESC_API int dlti_attr_get_uint64(const dlti_attr *attr, uint64_t *out, dlti_error_t *err);
SYSDESC_API int dlti_attr_get_double(const dlti_attr *attr, double *out, dlti_error_t *err);
SYSDESC_API int dlti_attr_get_bool(const dlti_attr *attr, bool *out, dlti_error_t *err);
SYSDESC_API int dlti_attr_get_string(const dlti_attr *attr, const char **out, size_t *len,
                         dlti_error_t *err);
SYSDESC_API int dlti_attr_dense_int64(const dlti_attr *attr, size_t i, int64_t *out, dlti_error_t *err);
SYSDESC_API int dlti_attr_dense_double(const dlti_attr *attr, size_t i, double *out,
                                       dlti_error_t *err);

/* ---- building ---- (all write to the context; NULL only when out of memory
 * or, where an error is taken, on invalid input) */

/** Integer of type `type` (an integer or index type). Fails with RANGE if `value` does not fit. */
SYSDESC_API const dlti_attr *dlti_int_new(dlti_context *ctx, const dlti_type *type, int64_t value,
                              dlti_error_t *err);
/** i64 integer: what MLIR makes of a bare literal. */
SYSDESC_API const dlti_attr *dlti_i64_new(dlti_context *ctx, int64_t value);
/** Float of float type `type`, rounded to nearest-even. */
SYSDESC_API const dlti_attr *dlti_float_new(dlti_context *ctx, const dlti_type *type, double value,
                                dlti_error_t *err);
SYSDESC_API const dlti_attr *dlti_bool_new(dlti_context *ctx, bool value);
SYSDESC_API const dlti_attr *dlti_string_new(dlti_context *ctx, const char *s, size_t len);
SYSDESC_API const dlti_attr *dlti_unit_new(dlti_context *ctx);
SYSDESC_API const dlti_attr *dlti_type_attr_new(dlti_context *ctx, const dlti_type *type);
/** Array of `n` attributes (copied); NULL when out of memory or nesting
 *  deeper than the context's max_depth allows (a module and the array). */
SYSDESC_API const dlti_attr *dlti_array_new(dlti_context *ctx, const dlti_attr *const *elems, size_t n);
/** array<TYPE: v...> of an integer type; values must fit (RANGE error otherwise). */
SYSDESC_API const dlti_attr *dlti_dense_array_new(dlti_context *ctx, const dlti_type *elem,
                                      const int64_t *values, size_t n, dlti_error_t *err);

/** One key/value pair for the container constructors. */
typedef struct dlti_entry {
    dlti_key key;
    const dlti_attr *value;
} dlti_entry;

/**
 * A DLTI container of kind DLTI_ATTR_MAP, _DL_SPEC, _DEVICE_SPEC or
 * _SYSTEM_SPEC from `n` entries (copied, order kept), verified as the parser
 * verifies (duplicate keys, empty keys, type keys in device specs, device
 * values in system specs, empty device/system specs) and for depth: a
 * container nesting deeper than the context's max_depth allows (with one
 * level for the module that may hold it) is DLTI_ERROR_LIMIT.  The error
 * has no position.
 */
SYSDESC_API const dlti_attr *dlti_container_new(dlti_context *ctx, dlti_attr_kind kind,
                                    const dlti_entry *entries, size_t n, dlti_error_t *err);

/**
 * MLIR's setDlti on a map (or any container): returns a new container equal
 * to `container` with `key` set to `value`: an existing key keeps its
 * position, a new key is appended, a NULL value removes the key.  The input
 * is not changed (attributes are immutable).
 */
SYSDESC_API const dlti_attr *dlti_container_set(dlti_context *ctx, const dlti_attr *container,
                                    dlti_key key, const dlti_attr *value, dlti_error_t *err);

/**
 * Sets the value at a path of keys, creating #dlti.map levels that are
 * missing: set_path(spec, ["cache","L1","size_in_bytes"], v).  Every level
 * on the path must be a container.  Returns the new root.
 */
SYSDESC_API const dlti_attr *dlti_container_set_path(dlti_context *ctx, const dlti_attr *container,
                                         const dlti_key *keys, size_t n,
                                         const dlti_attr *value, dlti_error_t *err);

/* ---- parsing ---- */

/**
 * Parses one attribute in MLIR syntax (`#dlti.target_system_spec<...>`,
 * `42 : i32`, ...), verified.  `source` names the input in errors (may be
 * NULL).  Returns NULL and fills `err` on failure; nothing is partially
 * returned.
 */
SYSDESC_API const dlti_attr *dlti_attr_parse(dlti_context *ctx, const char *text, size_t len,
                                 const char *source, dlti_error_t *err);

/* ---- printing ---- */

/**
 * Prints `attr` as mlir-opt-22 prints it.  The string is malloc'ed,
 * NUL-terminated, owned by the caller (free()); `*len` gets its length when
 * `len` is non-NULL.  NULL when out of memory.
 */
SYSDESC_API char *dlti_attr_print(const dlti_attr *attr, size_t *len);
/** Prints `attr` to `out`; returns 0, or -1 on a write error. */
SYSDESC_API int dlti_attr_fprint(const dlti_attr *attr, FILE *out);
/** True when both attributes print the same (structural equality). */
SYSDESC_API bool dlti_attr_equal(const dlti_attr *a, const dlti_attr *b);

/* ------------------------------------------------------------------ */
/* Scopes: modules with attributes                                    */
/* ------------------------------------------------------------------ */

/**
 * A scope is a `module [@name] attributes {...} {...}` (or its generic
 * form, or the implicit module around a file's top-level ops): a set of named
 * attributes (sorted by name, as MLIR keeps them) and nested scopes.  Parsing
 * a file that holds a bare attribute yields a root scope with that one
 * attribute, named by its kind (dlti.target_system_spec, dlti.dl_spec or
 * dlti.map), and printing that root prints the bare attribute again.
 */
typedef struct dlti_scope dlti_scope;

/**
 * Parses MLIR text: either one attribute or a file of operations.  Modules
 * (custom or generic form) become scopes; every other op is stepped over
 * (dlti_scope_skipped_ops counts them); a file that is not exactly one
 * module is wrapped in MLIR's implicit module.  An op holding DLTI
 * attributes is read as a scope where its syntax is known (func.func,
 * gpu.module, gpu.func, llvm.func, the generic form); one whose DLTI
 * attributes sysdesc cannot place (custom syntax it does not read, an
 * argument's attributes) is stepped over and counted by
 * dlti_scope_unread_ops (docs/mlir-syntax.md).  Returns the root scope, or
 * NULL with `err` filled.
 */
SYSDESC_API const dlti_scope *dlti_parse(dlti_context *ctx, const char *text, size_t len,
                             const char *source, dlti_error_t *err);
/** Reads and parses a file ("-" is stdin). */
SYSDESC_API const dlti_scope *dlti_parse_file(dlti_context *ctx, const char *path, dlti_error_t *err);

/** Whether the root came from a bare attribute. */
SYSDESC_API bool dlti_scope_is_bare(const dlti_scope *scope);
/** The scope's symbol name without '@', or NULL when unnamed. */
SYSDESC_API const char *dlti_scope_name(const dlti_scope *scope);
SYSDESC_API const dlti_scope *dlti_scope_parent(const dlti_scope *scope);
SYSDESC_API size_t dlti_scope_num_children(const dlti_scope *scope);
SYSDESC_API const dlti_scope *dlti_scope_child(const dlti_scope *scope, size_t i);
/**
 * The scope reached from `scope` by a path of child names separated by '/'
 * ("outer/inner"); NULL with DLTI_ERROR_NOT_FOUND when a name is missing or
 * ambiguous.  An empty path returns `scope`.
 */
SYSDESC_API const dlti_scope *dlti_scope_find(const dlti_scope *scope, const char *path, dlti_error_t *err);
SYSDESC_API size_t dlti_scope_num_attrs(const dlti_scope *scope);
/** Name (e.g. "dlti.dl_spec") and value of attribute `i`. */
SYSDESC_API const char *dlti_scope_attr_name(const dlti_scope *scope, size_t i);
SYSDESC_API const dlti_attr *dlti_scope_attr_value(const dlti_scope *scope, size_t i);
/** The attribute named `name`, or NULL. */
SYSDESC_API const dlti_attr *dlti_scope_get_attr(const dlti_scope *scope, const char *name);

/**
 * Operations other than `module` that the parser stepped over (sysdesc reads
 * the DLTI attributes of modules and skips every other op, respecting
 * strings and regions: docs/mlir-syntax.md) in the body of `scope` and of
 * the modules nested in it.  Returns their number; the first one in the text
 * is named in `*first_name` (owned by the context) and placed at
 * `*line`:`*column` (each pointer may be NULL; untouched when 0 is returned).
 */
SYSDESC_API size_t dlti_scope_skipped_ops(const dlti_scope *scope, const char **first_name,
                                          int *line, int *column);

/**
 * Among those, the ops holding DLTI attributes that sysdesc could not place
 * (an op in custom syntax it does not read, such as `linalg.matmul {...}
 * ins(...)`; a DLTI attribute in an argument's attributes): MLIR attaches
 * them to an op that is no scope here, so a query at or inside such an op
 * is answered by the scopes around it.  Their DLTI attribute values were
 * parsed and verified; the attributes' names and the op's layout were not.
 * Returns their number; the first one in the text as for
 * dlti_scope_skipped_ops(), and in `*why` (static text) what sysdesc could
 * not read: "custom syntax sysdesc does not read", "a DLTI attribute
 * outside its attribute dictionary" or "text after it on its line".  Each
 * pointer may be NULL.
 */
SYSDESC_API size_t dlti_scope_unread_ops(const dlti_scope *scope, const char **first_name,
                                         int *line, int *column, const char **why);

/** Where the parts of a module sit in the text it was parsed from (byte offsets). */
typedef struct dlti_scope_source {
    /** MLIR's implicit module around the top-level ops of a file that is not
     *  one `module`: it has no text of its own. */
    bool implicit;
    /** implicit: alias definitions or `{-#` metadata lie between the ops. */
    bool interleaved;
    /** The generic form `"builtin.module"() ({...}) {attrs} : () -> ()`:
     *  `name_end` is just after the region's ')', where a new `{...}` goes. */
    bool generic;
    size_t op;          /**< the `module` keyword; implicit: the start of the text */
    size_t name_end;    /**< just after `module` or its `@name` (generic: see above) */
    size_t dict_open;   /**< the '{' of `attributes {...}`; SIZE_MAX without one */
    size_t dict_close;  /**< just after that dictionary's '}'; SIZE_MAX without one */
    size_t body_open;   /**< the body's '{'; implicit: where the first op starts */
    size_t body_close;  /**< the body's '}'; implicit: just after the last op */
} dlti_scope_source;

/**
 * Fills `out` with where module `scope` sits in its source: 0, or -1 for the
 * root of a bare attribute (no module).  attr_source gives attribute `i`'s
 * text: from its name to the end of its value (0, or -1 when `i` is out of
 * range or the scope is a bare attribute).
 */
SYSDESC_API int dlti_scope_get_source(const dlti_scope *scope, dlti_scope_source *out);
SYSDESC_API int dlti_scope_attr_source(const dlti_scope *scope, size_t i, size_t *start,
                                       size_t *end);

/** Prints the scope tree as mlir-opt-22 prints the module (or the bare attribute). Caller frees. */
SYSDESC_API char *dlti_scope_print(const dlti_scope *scope, size_t *len);

/** Flags of dlti_scope_print_flags(). */
enum {
    /** One DLTI entry a line, nested containers indented by two spaces: text
     *  that mlir-opt-22 reads and that `fmt` prints back as the one-line form. */
    DLTI_PRINT_PRETTY = 1u << 0,
    /** MLIR head's form (2026): a module's DLTI attribute printed as the
     *  inherent `dlti = ...` (one per op: the system spec when there are
     *  several) instead of MLIR 22's `dlti.target_system_spec = ...`.
     *  MLIR 22 rejects it.  Without the flag an inherent `dlti` read from a
     *  file prints under MLIR 22's name of its kind. */
    DLTI_PRINT_INHERENT = 1u << 1
};

/** dlti_scope_print() with DLTI_PRINT_* `flags`; 0 prints exactly what it prints. */
SYSDESC_API char *dlti_scope_print_flags(const dlti_scope *scope, unsigned flags, size_t *len);
SYSDESC_API int dlti_scope_fprint(const dlti_scope *scope, FILE *out);

/* ------------------------------------------------------------------ */
/* Queries                                                            */
/* ------------------------------------------------------------------ */

/**
 * Looks up `key` in one queryable attribute (map, dl_spec, device spec:
 * entry by key; system spec: device by id).  Returns the value or NULL.
 * Cost does not grow with the number of entries.  Only reads.
 */
SYSDESC_API const dlti_attr *dlti_attr_lookup(const dlti_attr *attr, dlti_key key);

/**
 * dlti_attr_lookup() by the key's bytes: the value of string key `s` (`len`
 * bytes, not NUL-terminated necessarily) in `attr`, or NULL when `attr`
 * has no such string key or is not queryable.  One probe, with no key
 * interned first (as dlti_key_find() then dlti_attr_lookup() would cost
 * two), so that it only reads and any thread may call it.  For a caller
 * that holds keys as counted strings (a Python str, a JSON key).
 */
SYSDESC_API const dlti_attr *dlti_attr_lookup_string(const dlti_attr *attr, const char *s,
                                                     size_t len);

/**
 * Resolves a path of keys starting at `attr` (MLIR's query on one
 * attribute).  On failure returns NULL with DLTI_ERROR_NOT_FOUND and MLIR's
 * note text (`key "X" has no DLTI-mapping per attr: ...`).
 */
SYSDESC_API const dlti_attr *dlti_attr_query(const dlti_attr *attr, const dlti_key *keys, size_t n,
                                 dlti_error_t *err);

/**
 * Scoped query.  The first key is tried on each queryable attribute of
 * `scope` (in name order), then on those of the enclosing scopes, outward,
 * until one holds it; the remaining keys are resolved on the value found.
 * (MLIR 22 instead asks only the first queryable attribute of the nearest
 * scope that has one; see docs/queries.md.)  Only reads.
 */
SYSDESC_API const dlti_attr *dlti_query(const dlti_scope *scope, const dlti_key *keys, size_t n,
                            dlti_error_t *err);

/**
 * The query as MLIR 22's dlti::query answers it: every key on the first
 * queryable attribute (in name order) of the nearest scope, `scope` itself
 * first, that has one; no per-node cluster ids.  For telling a caller where
 * dlti_query()'s documented rules give another answer (docs/queries.md).
 * Errors as dlti_query().  Only reads.
 */
SYSDESC_API const dlti_attr *dlti_query_mlir22(const dlti_scope *scope, const dlti_key *keys,
                                               size_t n, dlti_error_t *err);

/**
 * The same with string keys ("type:" prefix not interpreted: all are string
 * keys).  Keys unknown to the context fail without writing to it.  Only reads.
 */
SYSDESC_API const dlti_attr *dlti_query_strings(const dlti_scope *scope, const char *const *keys, size_t n,
                                    dlti_error_t *err);

/**
 * dlti_attr_query() with string keys: the path `keys` (`n` C strings, all
 * string keys) from `attr`, such as the system spec sysdesc_probe_host()
 * returns: {"CPU", "cache", "L1", "size_in_bytes"}.  Keys are compared by
 * their bytes (nothing is interned: any thread may call it); a system
 * spec's first key may name a cluster node's device ("cn017.GPU3",
 * docs/cluster.md) as in dlti_attr_query().  Returns the value, owned by
 * `attr`'s context, or NULL with DLTI_ERROR_NOT_FOUND and MLIR's note
 * (`key "X" has no DLTI-mapping per attr: ...`; no keys, or a value that is
 * no container before the last key, also NOT_FOUND as in MLIR).
 */
SYSDESC_API const dlti_attr *dlti_attr_query_strings(const dlti_attr *attr,
                                                     const char *const *keys, size_t n,
                                                     dlti_error_t *err);

/**
 * MLIR's note for a query that fails, whole: what dlti_query() (on `scope`)
 * or dlti_attr_query() (on `attr`, when `scope` is NULL) reports in its
 * error's text, but with the attribute of `key "X" has no DLTI-mapping per
 * attr: ATTR` printed whole, as mlir-opt-22 prints it (the error's text is
 * cut at DLTI_ERROR_TEXT_LENGTH).  Malloc'ed, owned by the caller; NULL
 * when the query succeeds, or out of memory.  Only reads.
 */
SYSDESC_API char *dlti_query_note(const dlti_scope *scope, const dlti_attr *attr,
                                  const dlti_key *keys, size_t n);

/**
 * Why a query found nothing, in words a person can act on: where the path
 * `keys` stops (looked up as dlti_query() on `scope` would, or as
 * dlti_attr_query() on `attr` when `scope` is NULL), the nearest string key
 * there ("did you mean \"L1\"?"), or, when none is close, the keys there.
 * Writes a NUL-terminated line (no newline) to `out`.  Returns 0 with a
 * hint, -1 when the path is there or `out` is too small.  Only reads.
 */
SYSDESC_API int dlti_query_hint(const dlti_scope *scope, const dlti_attr *attr,
                                const dlti_key *keys, size_t n, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_DLTI_H */
