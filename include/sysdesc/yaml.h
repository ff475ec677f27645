/*
 * sysdesc/yaml.h - target descriptions in YAML: load them into DLTI
 * attributes, print DLTI systems as YAML, JSON or MLIR.
 *
 * A YAML file is a system: a mapping from device id to that device's
 * properties, each device becoming a #dlti.target_device_spec of the
 * #dlti.target_system_spec.  docs/yaml.md is the reference for the format
 * (tags, how plain scalars are typed, `base:` reuse, `data_layout:`, limits).
 *
 * Ownership: every attribute and string returned inside a sysdesc_system is
 * owned by the dlti_context passed in and lives until dlti_context_free().
 * Printing functions return malloc'ed text that the caller free()s.
 *
 * Errors: functions that can fail take a `dlti_error_t *` (may be NULL) and
 * return NULL or -1 with the error filled.  Positions are 1-based
 * (line, column in characters, as libyaml counts them) and the source is the
 * file name.  Codes: DLTI_ERROR_SYNTAX (YAML syntax, unknown tags, values
 * that do not fit their tag, duplicate keys), DLTI_ERROR_VERIFY (a DLTI rule:
 * empty device, type key in a device), DLTI_ERROR_LIMIT (depth, alias
 * expansion, input size), DLTI_ERROR_NOT_FOUND (a `base:` that names nothing),
 * DLTI_ERROR_IO, DLTI_ERROR_NOMEM.  A failed load returns nothing: there are
 * no partial results (attributes built before the error stay in the context
 * until it is freed, unreferenced).
 *
 * Threads: loading writes to the context (see dlti.h); printing only reads.
 */
#ifndef SYSDESC_YAML_H
#define SYSDESC_YAML_H

#include "sysdesc/dlti.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Defaults of sysdesc_yaml_options (documented in docs/yaml.md). */
#define SYSDESC_YAML_DEFAULT_MAX_DEPTH 64u
#define SYSDESC_YAML_DEFAULT_MAX_ALIAS_NODES 1000000u
#define SYSDESC_YAML_DEFAULT_MAX_INPUT_BYTES ((size_t)64 << 20)
#define SYSDESC_YAML_DEFAULT_MAX_BASE_DEPTH 16u

/**
 * Options of a load.  All-zero (or NULL) means the defaults; new fields are
 * only appended.
 */
typedef struct sysdesc_yaml_options {
    /** Nesting of mappings and sequences; default 64. */
    unsigned max_depth;
    /** Nodes that aliases may add, counting a node once per alias that
     *  reaches it (the "billion laughs" guard); default 1,000,000. */
    size_t max_alias_nodes;
    /** Size of one input file; default 64 MiB. */
    size_t max_input_bytes;
    /** Chain of `base:` references (a base of a base...); default 16. */
    unsigned max_base_depth;
    /** Catalog search path for `base:` names, ':'-separated; NULL means
     *  sysdesc_catalog_path() (SYSDESC_PATH, installed catalog, source tree). */
    const char *search_path;
} sysdesc_yaml_options;

/** A loaded system: the spec and, optionally, the module's data layout. */
typedef struct sysdesc_system {
    /** The #dlti.target_system_spec; never NULL after a successful load. */
    const dlti_attr *spec;
    /** The #dlti.dl_spec made from `data_layout:`, or NULL when the file has
     *  none (or it is an LLVM string or triple and the importer is absent). */
    const dlti_attr *dl_spec;
    /** `data_layout:` text as written when it is a string (an LLVM data
     *  layout string or a triple), NUL-terminated, or NULL. */
    const char *data_layout;
} sysdesc_system;

/**
 * Loads YAML text (`len` bytes; it need not be NUL-terminated) into `out`.
 * `source` names the input in errors and is the directory base for relative
 * `base:` paths (may be NULL: "<input>", relative to the working directory).
 * Returns 0, or -1 with `err` filled and `out` untouched.
 */
int sysdesc_yaml_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                      const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err);

/** Reads and loads a YAML file ("-" is standard input). As sysdesc_yaml_load(). */
int sysdesc_yaml_load_file(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                           sysdesc_system *out, dlti_error_t *err);

/**
 * Loads a description in either syntax: MLIR text (a module with
 * dlti.target_system_spec / dlti.dl_spec, or a bare system spec) when the
 * file name ends in ".mlir" or the text starts with `#` or `module`, else
 * YAML.  A catalog name ("nvidia/h100-sxm") is looked up when `path` is not
 * an existing file.  Errors as sysdesc_yaml_load(); an MLIR file without a
 * system spec is DLTI_ERROR_NOT_FOUND.
 */
int sysdesc_system_load(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                        sysdesc_system *out, dlti_error_t *err);

/* ---- printing ---- */

/**
 * Prints `sys` as YAML that sysdesc_yaml_load() reads back to an equal spec
 * (dlti_attr_equal): values that are not i64, f64, bool or string keep their
 * type through a tag (`!i32 4`, `!type vector<4xf32>`, `!mlir '...'`).
 * Returns malloc'ed NUL-terminated text (`*len` set when non-NULL), or NULL
 * when out of memory.
 */
char *sysdesc_yaml_print(const sysdesc_system *sys, size_t *len);

/** Flags of sysdesc_json_print(). */
enum {
    /** Keep MLIR types: every integer or float that is not i64/f64, every
     *  type and every other attribute becomes {"type": T, "value": V}. */
    SYSDESC_JSON_TYPED = 1u << 0
};

/**
 * Prints `sys` as JSON (RFC 8259): maps and devices as objects, arrays as
 * arrays, numbers, booleans, strings; NaN and infinities as null in plain
 * mode; attributes JSON cannot hold (types, dense data) as their MLIR text.
 * `data_layout` becomes a top-level "data_layout" member beside "devices".
 * Returns malloc'ed text, or NULL when out of memory.
 */
char *sysdesc_json_print(const sysdesc_system *sys, unsigned flags, size_t *len);

/**
 * Prints `sys` as MLIR: a module whose attributes are dlti.dl_spec (when
 * present) and dlti.target_system_spec, as mlir-opt-22 prints it; with
 * `bare`, only the #dlti.target_system_spec attribute.  Malloc'ed, or NULL
 * when out of memory.
 */
char *sysdesc_mlir_print(const sysdesc_system *sys, bool bare, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_YAML_H */
