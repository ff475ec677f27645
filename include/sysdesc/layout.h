/*
 * sysdesc/layout.h - data layout queries on DLTI scopes, and LLVM data
 * layout strings.
 *
 * A dlti_layout answers "how big is this type, how is it aligned" for one
 * scope, the way mlir::DataLayout does in MLIR 22: the scope's
 * `#dlti.dl_spec` is combined with those of its enclosing scopes (innermost
 * wins per key), and every builtin type gets MLIR's default layout unless an
 * entry says otherwise.  See docs/layout.md for the rules and for the few
 * places where sysdesc reports an error where mlir-opt-22 crashes.
 *
 * Ownership: a layout is malloc'ed and owned by the caller, who frees it with
 * dlti_layout_free().  It points into the context of the scope or spec it was
 * made from (types, attributes), so it must be freed before that context;
 * it never writes to the context.
 *
 * Threads: creating a layout only reads the context.  Any number of threads
 * may query one layout concurrently: results are cached inside the layout
 * behind a lock-free read path, and the cache never changes an answer.
 *
 * Errors: functions take a `dlti_error_t *` (may be NULL) and return NULL or
 * -1 on failure; nothing here prints or aborts.
 */
#ifndef SYSDESC_LAYOUT_H
#define SYSDESC_LAYOUT_H

#include "sysdesc/dlti.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dlti_layout dlti_layout;

/* ------------------------------------------------------------------ */
/* Creating layouts                                                   */
/* ------------------------------------------------------------------ */

/**
 * The data layout of `scope`: its data layout spec (the first attribute, in
 * name order, whose value is a #dlti.dl_spec) combined with those of the
 * enclosing scopes.  A scope without any spec gets MLIR's defaults.
 *
 * Fails with DLTI_ERROR_VERIFY and "data layout does not combine with
 * layouts of enclosing ops" when two specs disagree (see docs/layout.md for
 * the compatibility rules); err->position is then the byte offset of the
 * inner spec's attribute in the parsed text and err->line/column are 0
 * (dlti_layout_verify_tree() reports the same failure with lines and columns).
 * DLTI_ERROR_NOMEM when out of memory.  The result is owned by the caller.
 */
SYSDESC_API dlti_layout *dlti_layout_new(const dlti_scope *scope, dlti_error_t *err);

/**
 * The layout described by one `#dlti.dl_spec` attribute alone (no enclosing
 * scopes); `spec` NULL gives the defaults.  DLTI_ERROR_ARGUMENT when `spec`
 * is not a dl_spec.  Owned by the caller.
 */
SYSDESC_API dlti_layout *dlti_layout_from_spec(const dlti_attr *spec, dlti_error_t *err);

/** Releases a layout.  NULL is a no-op. */
SYSDESC_API void dlti_layout_free(dlti_layout *layout);

/**
 * Checks, as MLIR's verifier does, that every scope of the tree under `root`
 * that holds a data layout spec combines with its enclosing scopes.  Returns
 * 0, or -1 with the first failure in pre-order.  When `text` (the `len`
 * bytes that were parsed, named `source`; may be NULL) is given, the error
 * is located as MLIR locates it: at the `module` op holding the spec, with
 * MLIR's notes ("SOURCE:L:C: note: enclosing op with data layout") appended
 * to err->text, one per line.
 */
SYSDESC_API int dlti_layout_verify_tree(const dlti_scope *root, const char *source, const char *text,
                            size_t len, dlti_error_t *err);

/**
 * The combined spec's entries, in MLIR's order (identifier entries first,
 * then type entries grouped by type class).  `i` < dlti_layout_num_entries().
 */
SYSDESC_API size_t dlti_layout_num_entries(const dlti_layout *layout);
SYSDESC_API dlti_key dlti_layout_entry_key(const dlti_layout *layout, size_t i);
SYSDESC_API const dlti_attr *dlti_layout_entry_value(const dlti_layout *layout, size_t i);

/* ------------------------------------------------------------------ */
/* Type queries                                                       */
/* ------------------------------------------------------------------ */

/**
 * Everything MLIR's DataLayout tells about one type.  Sizes of scalable
 * vectors are minimum sizes, to be multiplied by vscale (`scalable` set).
 */
typedef struct dlti_type_layout {
    uint64_t size;           /**< bytes: ceil(bitsize / 8) */
    uint64_t bitsize;        /**< bits */
    uint64_t abi_alignment;  /**< bytes */
    uint64_t preferred_alignment; /**< bytes */
    uint64_t index_bitwidth; /**< bits; 0 when the type has none (not index/pointer) */
    bool scalable;
} dlti_type_layout;

/**
 * Fills `*out` with the layout of `type` (a type of the layout's context).
 * Integers, index, floats, vectors, complex numbers and !llvm.ptr<AS> are
 * supported.  Fails with DLTI_ERROR_UNSUPPORTED for types without a data
 * layout (memref, tensor, tuple, function, none, other dialects' types) and
 * for 0-d vectors; DLTI_ERROR_RANGE when a size does not fit in 64 bits;
 * DLTI_ERROR_VERIFY when an entry the query needs holds an unusable value.
 * Returns 0 or -1.  Only reads the layout (the cache is internally synchronized).
 */
SYSDESC_API int dlti_layout_query(const dlti_layout *layout, const dlti_type *type, dlti_type_layout *out,
                      dlti_error_t *err);

/* Single properties, same rules as dlti_layout_query(); each returns 0 or -1. */
SYSDESC_API int dlti_layout_type_size(const dlti_layout *layout, const dlti_type *type, uint64_t *bytes,
                          dlti_error_t *err);
SYSDESC_API int dlti_layout_type_bitsize(const dlti_layout *layout, const dlti_type *type, uint64_t *bits,
                             dlti_error_t *err);
SYSDESC_API int dlti_layout_abi_alignment(const dlti_layout *layout, const dlti_type *type, uint64_t *bytes,
                              dlti_error_t *err);
SYSDESC_API int dlti_layout_preferred_alignment(const dlti_layout *layout, const dlti_type *type,
                                    uint64_t *bytes, dlti_error_t *err);
/** Index bitwidth; 0 for types that have none (MLIR: std::nullopt). */
SYSDESC_API int dlti_layout_index_bitwidth(const dlti_layout *layout, const dlti_type *type, uint64_t *bits,
                               dlti_error_t *err);

/* ------------------------------------------------------------------ */
/* Scope-wide properties                                              */
/* ------------------------------------------------------------------ */

typedef enum dlti_layout_prop {
    DLTI_LAYOUT_ENDIANNESS,
    DLTI_LAYOUT_DEFAULT_MEMORY_SPACE,
    DLTI_LAYOUT_ALLOCA_MEMORY_SPACE,
    DLTI_LAYOUT_PROGRAM_MEMORY_SPACE,
    DLTI_LAYOUT_GLOBAL_MEMORY_SPACE,
    DLTI_LAYOUT_STACK_ALIGNMENT,
    DLTI_LAYOUT_MANGLING_MODE,
    DLTI_LAYOUT_FUNCTION_POINTER_ALIGNMENT,
    DLTI_LAYOUT_LEGAL_INT_WIDTHS,
    DLTI_LAYOUT_NUM_PROPS
} dlti_layout_prop;

/** "endianness", "default_memory_space", ... as the MLIR test pass names them; NULL if out of range. */
SYSDESC_API const char *dlti_layout_prop_name(dlti_layout_prop prop);

/** The `dlti.*` entry that sets `prop` ("dlti.endianness", ...); NULL if out of range. */
SYSDESC_API const char *dlti_layout_prop_key(dlti_layout_prop prop);

/** The value of the entry that sets `prop`, or NULL when the default applies. */
SYSDESC_API const dlti_attr *dlti_layout_prop_value(const dlti_layout *layout, dlti_layout_prop prop);

/**
 * The property in canonical MLIR as mlir-opt-22's test pass prints it, the
 * default included: `"big"`, `0 : ui32`, `128 : index`, `""`,
 * `#dlti.function_pointer_alignment<0, function_dependent = false>`,
 * `array<i32>`.  Malloc'ed, owned by the caller; NULL with err set when out
 * of memory or when a stack alignment entry is not an integer (VERIFY).
 */
SYSDESC_API char *dlti_layout_prop_print(const dlti_layout *layout, dlti_layout_prop prop, dlti_error_t *err);

/** Stack alignment in bits (0: unspecified).  -1 with DLTI_ERROR_VERIFY when the entry is not an integer. */
SYSDESC_API int dlti_layout_stack_alignment(const dlti_layout *layout, uint64_t *bits, dlti_error_t *err);

/** True when `dlti.endianness` is "big"; false when "little" or unspecified. */
SYSDESC_API bool dlti_layout_is_big_endian(const dlti_layout *layout);

/* ------------------------------------------------------------------ */
/* LLVM data layout strings                                           */
/* ------------------------------------------------------------------ */

/**
 * Translates an LLVM data layout string ("e-m:e-p270:32:32-i64:64-...") into
 * the #dlti.dl_spec that `mlir-translate-22 --import-llvm` attaches for it:
 * LLVM's default entries appended, the first occurrence of a key wins, type
 * entries first (in order of first occurrence), then identifier entries.
 * Tokens MLIR ignores (v, a, ni, ...) are checked and skipped.  A malformed
 * string fails with DLTI_ERROR_SYNTAX naming the token; err->position is its
 * byte offset in `str` (err->column = offset + 1, err->line = 1).  The
 * attribute is built in `ctx` (writes).
 */
SYSDESC_API const dlti_attr *dlti_llvm_dl_import(dlti_context *ctx, const char *str, size_t len,
                                     dlti_error_t *err);

/**
 * The LLVM data layout string for a #dlti.dl_spec, byte for byte the one
 * `mlir-translate-22 -mlir-to-llvmir` writes: identifier tokens, then type
 * tokens, each in spec order (`p0:64:64:64:64` with every field; no token
 * for an `index` entry or for a zero memory space, stack or function pointer
 * alignment), so that import(export(import(s))) equals import(s).  Malloc'ed,
 * owned by the caller.  Fails with DLTI_ERROR_UNSUPPORTED for entries LLVM
 * strings cannot express (signed integers, other float formats, vectors,
 * other dialects' keys, non-integer values) naming the entry, and for a
 * string LLVM's parser would refuse; DLTI_ERROR_ARGUMENT when `spec` is not
 * a dl_spec.
 */
SYSDESC_API char *dlti_llvm_dl_export(const dlti_attr *spec, dlti_error_t *err);

/** One row of the built-in table of target data layout strings. */
typedef struct dlti_target_dl {
    const char *triple;  /**< e.g. "x86_64-unknown-linux-gnu" */
    const char *layout;  /**< the LLVM data layout string */
    const char *source;  /**< where the string comes from (a file of llvm-project) */
} dlti_target_dl;

/** The number of rows of the table, and row `i` (NULL when out of range). */
SYSDESC_API size_t dlti_target_dl_count(void);
SYSDESC_API const dlti_target_dl *dlti_target_dl_get(size_t i);

/**
 * The row for `triple`: an exact match first, else the row of the same
 * architecture, system and environment, the parts LLVM's layout depends on
 * (read by position, as LLVM reads it: arch-vendor-system-environment; the
 * vendor is ignored, arm64 is aarch64, darwin/macos/macosx with any version
 * are one system).  A triple of an architecture alone, or of a system or
 * environment no row has, is not guessed: NULL with DLTI_ERROR_NOT_FOUND,
 * whose text lists the rows of that architecture.  The row is static.
 */
SYSDESC_API const dlti_target_dl *dlti_target_dl_find(const char *triple, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_LAYOUT_H */
