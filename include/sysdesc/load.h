/*
 * sysdesc/load.h - read descriptions: YAML files (docs/yaml.md), MLIR
 * files, typed JSON (docs/yaml.md, "JSON"), catalog names.
 *
 * A YAML file is a system: a mapping from device id to that device's
 * properties, each device becoming a #dlti.target_device_spec of the
 * #dlti.target_system_spec.  docs/yaml.md is the reference for the format
 * (tags, how plain scalars are typed, `base:` reuse, `data_layout:`, limits).
 *
 * Ownership: every attribute and string returned inside a sysdesc_system is
 * owned by the dlti_context passed in and lives until dlti_context_free().
 *
 * Errors: functions that can fail take a `dlti_error_t *` (may be NULL) and
 * return -1 with the error filled.  Positions are 1-based (line, column in
 * characters, as libyaml counts them) and the source is the file name.
 * Codes: DLTI_ERROR_SYNTAX (YAML syntax, unknown tags, values that do not
 * fit their tag, duplicate keys), DLTI_ERROR_VERIFY (a DLTI rule: empty
 * device, type key in a device), DLTI_ERROR_LIMIT (depth, alias expansion,
 * input size), DLTI_ERROR_NOT_FOUND (a `base:` or catalog name that names
 * nothing), DLTI_ERROR_IO, DLTI_ERROR_NOMEM; and, unless the options say
 * SYSDESC_LOAD_NO_CHECK, the first problem the device schema finds
 * (sysdesc_system_check(): DLTI_ERROR_VERIFY, located at
 * the key, its text ending in "(and N more problems)" when there are more).
 * A failed load returns nothing:
 * there are no partial results (attributes built before the error stay in
 * the context until it is freed, unreferenced).
 *
 * Threads: loading writes to the context (see dlti.h).
 */
#ifndef SYSDESC_LOAD_H
#define SYSDESC_LOAD_H

#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Receives one problem of a check (sysdesc/schema.h): an error with code
 * DLTI_ERROR_VERIFY (a mistake: a wrong type, range, relation, a misspelt
 * device_type) or DLTI_ERROR_UNSUPPORTED (what the device schema does not
 * know: a key it does not list for the device, a device type it cannot
 * tell), its text, and its position when known.  Return 0 to go on,
 * non-zero to stop checking.
 */
typedef int (*sysdesc_problem_fn)(void *user, const dlti_error_t *problem);

/** Defaults of sysdesc_yaml_options (documented in docs/yaml.md). */
/* The core's depth limit: everything sysdesc prints as MLIR it also prints as
 * YAML or JSON that it reads back (a YAML level per container or array). */
#define SYSDESC_YAML_DEFAULT_MAX_DEPTH DLTI_DEFAULT_MAX_DEPTH
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
    /** Size of one YAML or JSON input; default 64 MiB.  (An MLIR input's
     *  limit is the context's dlti_limits.max_input_bytes, whatever reads
     *  it.) */
    size_t max_input_bytes;
    /** Chain of `base:` references (a base of a base...); default 16. */
    unsigned max_base_depth;
    /** Catalog search path for `base:` names, ':'-separated; NULL means
     *  sysdesc_catalog_path() (SYSDESC_PATH, installed catalog, source tree). */
    const char *search_path;
    /** SYSDESC_LOAD_* flags; 0: the defaults (the description is checked). */
    unsigned flags;
    /** Receives what the device schema does not know but a load goes on
     *  with (DLTI_ERROR_UNSUPPORTED problems: a key it does not list, a
     *  device whose type it cannot tell), located as errors are; NULL: not
     *  reported.  Unused with SYSDESC_LOAD_STRICT or SYSDESC_LOAD_NO_CHECK.
     *  With SYSDESC_LOAD_LENIENT also a value of another type than the
     *  schema's (DLTI_ERROR_TYPE, its text ending in "(kept as written)")
     *  and the op a system spec was found on (DLTI_ERROR_NOT_FOUND), the
     *  latter with SYSDESC_LOAD_NO_CHECK too. */
    sysdesc_problem_fn warn;
    /** Passed to `warn`. */
    void *warn_user;
    /** An MLIR description: the op whose DLTI is loaded, as a path of
     *  symbol names from the top module ("kernels/k", dlti_scope_find();
     *  "" or "/": the top module itself); NULL: the top module, or with
     *  SYSDESC_LOAD_LENIENT the one op that holds a system spec.  An error
     *  (DLTI_ERROR_ARGUMENT) for YAML and JSON, which have no ops. */
    const char *scope;
} sysdesc_yaml_options;

/** Flags of sysdesc_yaml_options. */
enum {
    /** Do not check the description against the device schema
     *  (sysdesc/schema.h): load what is written, however wrong. */
    SYSDESC_LOAD_NO_CHECK = 1u << 0,
    /** sysdesc_system_load(): an MLIR module without a system spec is no
     *  error (`spec` is NULL; `module` holds the module). */
    SYSDESC_LOAD_ANY_MODULE = 1u << 1,
    /** Every problem of the check fails the load, as `sysdesc check` reports
     *  them: keys the schema does not know too (by default they go to
     *  `warn`: MLIR's users write keys of their own, docs/checks.md). */
    SYSDESC_LOAD_STRICT = 1u << 2,
    /** A transform's load (sysdesc convert, summary, attach: docs/checks.md,
     *  "Lenient transforms"): what MLIR's users write loads, and `warn` is
     *  told what was taken as it is.  A value of another type than the
     *  schema's is kept as written (DLTI_ERROR_TYPE to `warn`, unless
     *  SYSDESC_LOAD_STRICT; `sysdesc check` reports it); an MLIR file
     *  whose top module holds no system spec loads the one op that holds
     *  one (DLTI_ERROR_NOT_FOUND to `warn`, naming the op; several: an
     *  error listing them, `scope` chooses), else the one op (or the top
     *  module) that holds other DLTI attributes (a #dlti.map, a data layout
     *  alone, arrays of device specs): `spec` is NULL, `module` that op,
     *  and sysdesc_system_print() prints its DLTI attributes. */
    SYSDESC_LOAD_LENIENT = 1u << 3
};

/**
 * Loads YAML text (`len` bytes; it need not be NUL-terminated) into `out`.
 * `source` names the input in errors and is the directory base for relative
 * `base:` paths (may be NULL: "<input>", relative to the working directory).
 * Returns 0, or -1 with `err` filled and `out` untouched.
 */
SYSDESC_API int sysdesc_yaml_load(dlti_context *ctx, const char *text, size_t len,
                                  const char *source, const sysdesc_yaml_options *opts,
                                  sysdesc_system *out, dlti_error_t *err);

/** Reads and loads a YAML file ("-" is standard input). As sysdesc_yaml_load(). */
SYSDESC_API int sysdesc_yaml_load_file(dlti_context *ctx, const char *path,
                                       const sysdesc_yaml_options *opts, sysdesc_system *out,
                                       dlti_error_t *err);

/**
 * Loads a description in any syntax sysdesc writes: MLIR text (a module with
 * dlti.target_system_spec / dlti.dl_spec, or a bare system spec), YAML, or
 * typed JSON (`--format json --typed`), told by one rule (docs/yaml.md,
 * "Formats"): the text's first token (`module`, `#dlti...`, `func.func @f`:
 * MLIR; `ID:`: YAML; `{"`: JSON), the file name's extension only where the
 * text could be either.  Plain JSON, which loses MLIR's types, is refused:
 * DLTI_ERROR_UNSUPPORTED, "plain JSON is not read" with the hint.  Each
 * syntax has its size limit (MLIR dlti_limits.max_input_bytes, YAML and
 * JSON opts->max_input_bytes: DLTI_ERROR_LIMIT, a regular file's before it
 * is read).  A catalog name ("nvidia/h100-sxm") is looked up when `path` is
 * not an existing file.  Errors as sysdesc_yaml_load(); an MLIR file without a
 * system spec is DLTI_ERROR_NOT_FOUND unless SYSDESC_LOAD_ANY_MODULE.  A
 * `path` that is neither a file nor a catalog entry is DLTI_ERROR_NOT_FOUND,
 * its message naming the entries it nearly spells ("did you mean
 * 'nvidia/h100-sxm'?"), unless it is a file name: a path starting with `/`
 * or `.`, or ending in .mlir, .yaml, .yml, .json or .xml is DLTI_ERROR_IO
 * ("cannot open: No such file or directory").
 */
SYSDESC_API int sysdesc_system_load(dlti_context *ctx, const char *path,
                                    const sysdesc_yaml_options *opts, sysdesc_system *out,
                                    dlti_error_t *err);

/**
 * Loads a description held in memory (`len` bytes; it need not be
 * NUL-terminated), in any syntax, by the rule sysdesc_system_load() applies
 * to a file's text (`source`, may be NULL, stands for the file name: its
 * extension breaks ties) and under the same limits.  `source` names the
 * input in errors and is the base of relative `base:` paths.  Errors and
 * ownership as sysdesc_system_load().  (The Python module's
 * sysdesc.parse().)
 */
SYSDESC_API int sysdesc_system_parse(dlti_context *ctx, const char *text, size_t len,
                                     const char *source, const sysdesc_yaml_options *opts,
                                     sysdesc_system *out, dlti_error_t *err);

/**
 * Whether `value` is DLTI that a lenient load takes (SYSDESC_LOAD_LENIENT):
 * a #dlti.map, #dlti.dl_spec, #dlti.target_device_spec or
 * #dlti.target_system_spec, or an array holding one (arrays of device
 * specs).  False for NULL.
 */
SYSDESC_API bool sysdesc_is_dlti_value(const dlti_attr *value);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_LOAD_H */
