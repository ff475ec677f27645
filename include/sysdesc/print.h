/*
 * sysdesc/print.h - write a system as MLIR, a bare attribute, YAML or JSON.
 *
 * Every output format goes through sysdesc_system_print(): a new format is
 * one enumerator, one name in sysdesc_format_parse() and one printer.
 *
 * Ownership: every function returns malloc'ed NUL-terminated text that the
 * caller free()s; `len` (may be NULL) gets its length without the NUL.
 *
 * Errors: NULL when out of memory (nothing else can fail: every attribute
 * a context holds is printable).
 *
 * Threads: printing only reads; any number of threads may print the same
 * system at once.
 */
#ifndef SYSDESC_PRINT_H
#define SYSDESC_PRINT_H

#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The output formats. */
typedef enum sysdesc_format {
    /** A module whose attributes are dlti.dl_spec (when present) and
     *  dlti.target_system_spec, as mlir-opt-22 prints it. */
    SYSDESC_FORMAT_MLIR = 0,
    /** The bare #dlti.target_system_spec attribute and a newline. */
    SYSDESC_FORMAT_ATTR,
    /** YAML that sysdesc_yaml_load() reads back to an equal spec (docs/yaml.md). */
    SYSDESC_FORMAT_YAML,
    /** JSON (RFC 8259), see sysdesc_json_print(); read back only typed
     *  (SYSDESC_PRINT_TYPED). */
    SYSDESC_FORMAT_JSON
} sysdesc_format;

/** Flags of sysdesc_system_print() and sysdesc_json_print(). */
enum {
    /** JSON: keep MLIR types, so that sysdesc_system_load() reads it back
     *  to the identical spec: a first member "$format": "sysdesc typed JSON
     *  1", and every value plain JSON would spell like another (an integer
     *  or float that is not i64/f64, a type, a map whose keys are exactly
     *  "type" and "value", any other attribute) as {"type": T, "value": V}
     *  (docs/yaml.md, "JSON").  Other formats always keep types and ignore
     *  it. */
    SYSDESC_PRINT_TYPED = 1u << 0,
    /** MLIR and attr: one DLTI entry a line, nested maps indented
     *  (DLTI_PRINT_PRETTY); mlir-opt-22 reads it, `fmt` prints it back on
     *  one line.  Other formats ignore it. */
    SYSDESC_PRINT_PRETTY = 1u << 1,
    /** MLIR: MLIR head's inherent `dlti = #dlti.target_system_spec<...>`
     *  instead of MLIR 22's `dlti.target_system_spec = ...`
     *  (DLTI_PRINT_INHERENT; MLIR 22 rejects it).  Other formats ignore it. */
    SYSDESC_PRINT_INHERENT = 1u << 2
};

/**
 * The format named `name` ("mlir", "attr", "yaml", "json"): 0 with `*format`
 * set, or -1 for any other name (`*format` untouched).
 */
SYSDESC_API int sysdesc_format_parse(const char *name, sysdesc_format *format);

/** The names sysdesc_format_parse() accepts, for messages: "mlir, attr, yaml, json". */
SYSDESC_API const char *sysdesc_format_names(void);

/**
 * Prints `sys` in `format` with `flags` (SYSDESC_PRINT_*).  Malloc'ed text,
 * or NULL when out of memory or `format` is not a sysdesc_format.
 *
 * A system without a system spec (a SYSDESC_LOAD_LENIENT load of DLTI that
 * is none: a #dlti.map, a data layout alone, arrays of device specs) prints
 * the DLTI attributes of `sys->module` (and `sys->dl_spec`, the data layout
 * in force there): MLIR a module holding them under their names, attr the
 * one of them bare, plain JSON an object of name -> value; YAML and typed
 * JSON, which are read back as systems, refuse it (DLTI_ERROR_UNSUPPORTED).
 */
SYSDESC_API char *sysdesc_system_print(const sysdesc_system *sys, sysdesc_format format,
                                       unsigned flags, size_t *len);
/**
 * The same, with the reason for NULL in `err` (may be NULL): out of memory,
 * or DLTI_ERROR_UNSUPPORTED for a key or value `format` cannot hold so that
 * it reads back as itself (YAML: a device id or device key that is not
 * UTF-8, a device named "data_layout" beside a data layout; typed JSON: a
 * device id that is not UTF-8, a device named "data_layout" or "$format";
 * plain JSON: a key or a string that is not UTF-8), the error naming its
 * path.  sysdesc_system_print() returns NULL for those too: nothing is
 * printed that would not read back equal.
 */
SYSDESC_API char *sysdesc_system_print_checked(const sysdesc_system *sys, sysdesc_format format,
                                               unsigned flags, size_t *len, dlti_error_t *err);

/**
 * What sysdesc_system_write() hands its text to, piece by piece in order:
 * 0 to go on, nonzero to stop (the write then fails).
 */
typedef int (*sysdesc_write_fn)(void *user, const char *data, size_t len);

/**
 * sysdesc_system_print_checked() without the whole text in memory: the
 * text goes to `write` in pieces (MLIR and attr: of about 64 KiB as it is
 * printed; the other formats and the SYSDESC_PRINT_PRETTY / _INHERENT forms
 * in one piece).  0, or -1 with `err` (may be NULL) saying why: the format
 * cannot hold `sys` (nothing was written), out of memory, or DLTI_ERROR_IO
 * when `write` refused (its own reason is the writer's to tell).  After a
 * failure the pieces written so far are an incomplete text.
 */
SYSDESC_API int sysdesc_system_write(const sysdesc_system *sys, sysdesc_format format,
                                     unsigned flags, sysdesc_write_fn write, void *user,
                                     dlti_error_t *err);

/**
 * Prints `sys` as MLIR: a module whose attributes are dlti.dl_spec (when
 * present) and dlti.target_system_spec, as mlir-opt-22 prints it; with
 * `bare`, only the #dlti.target_system_spec attribute and a newline.
 */
SYSDESC_API char *sysdesc_mlir_print(const sysdesc_system *sys, bool bare, size_t *len);

/** sysdesc_mlir_print() with SYSDESC_PRINT_PRETTY / _INHERENT `flags`. */
SYSDESC_API char *sysdesc_mlir_print_flags(const sysdesc_system *sys, bool bare, unsigned flags,
                                           size_t *len);

/**
 * Prints `sys` as YAML that sysdesc_yaml_load() reads back to an equal spec
 * (dlti_attr_equal): values that are not i64, f64, bool or string keep their
 * type through a tag (`!i32 4`, `!type vector<4xf32>`, `!mlir '...'`).
 */
SYSDESC_API char *sysdesc_yaml_print(const sysdesc_system *sys, size_t *len);

/**
 * Prints `sys` as JSON (RFC 8259): maps and devices as objects, arrays as
 * arrays, numbers, booleans, strings; NaN and infinities as null in plain
 * mode; attributes JSON cannot hold (types, dense data) as their MLIR text.
 * `data_layout` becomes a top-level "data_layout" member beside the devices.
 * `flags`: SYSDESC_PRINT_TYPED (the JSON sysdesc reads back).
 */
SYSDESC_API char *sysdesc_json_print(const sysdesc_system *sys, unsigned flags, size_t *len);

/**
 * One value alone as plain JSON, as sysdesc_json_print() writes it inside a
 * system (`sysdesc query --json`): a map or a spec as an object indented by
 * two spaces, an integer or a float as a number (NaN and infinities as
 * null), a bool, a string, an array as an array, a dense array as an array
 * of numbers, a type or any other attribute as its MLIR text; a final
 * newline.  `where` (may be NULL) names the value in errors.  NULL with
 * `err`: DLTI_ERROR_UNSUPPORTED for a key or a string that is not UTF-8
 * (no JSON holds it; the error names its path), DLTI_ERROR_ARGUMENT for a
 * NULL value, DLTI_ERROR_NOMEM.
 */
SYSDESC_API char *sysdesc_value_json(const dlti_attr *value, const char *where, size_t *len,
                                     dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_PRINT_H */
