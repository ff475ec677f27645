/*
 * sysdesc/schema.h - the device schema: every key a device spec may hold,
 * its type, unit and meaning, and the checker that enforces it.
 *
 * The schema is one table compiled into the library (sysdesc/schema_keys.c):
 * docs/keys.md is checked against it, the checker, `sysdesc check`,
 * `sysdesc summary` and the printers read it.  A key's path is dotted inside
 * its device ("cache.L1.size_in_bytes"); a '*' stands for one level whose
 * names the parent map lists ("cache.*.size_in_bytes").  Users' own keys go
 * under the device's `extra` map, which the checker does not judge; any other
 * key outside the schema is an error.
 *
 * Ownership: the table and its strings are static; nothing to free.
 *
 * Errors: checking never fails for lack of memory in a way that hides a
 * problem: it returns -1 and reports DLTI_ERROR_NOMEM.
 *
 * Threads: the table is read-only; checking only reads the spec.
 */
#ifndef SYSDESC_SCHEMA_H
#define SYSDESC_SCHEMA_H

#include "sysdesc/load.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SYSDESC_SCHEMA_VERSION, the version of this schema, is in sysdesc/version.h. */

/** The value a key holds. */
typedef enum sysdesc_value_type {
    SYSDESC_VALUE_I64,         /**< an integer of type i64 */
    SYSDESC_VALUE_F64,         /**< a float of type f64 */
    SYSDESC_VALUE_BOOL,        /**< true or false */
    SYSDESC_VALUE_STRING,      /**< a string */
    SYSDESC_VALUE_I64_ARRAY,   /**< integers: array<i64: ...> or [1, 2] of i64 */
    SYSDESC_VALUE_STRING_LIST, /**< ["a", "b"] */
    SYSDESC_VALUE_MAP,         /**< a #dlti.map whose keys the schema lists */
    SYSDESC_VALUE_OPEN_MAP     /**< a #dlti.map the checker does not look into */
} sysdesc_value_type;

/** What kind of fact a key is. */
typedef enum sysdesc_key_class {
    SYSDESC_KEY_FACT,       /**< a property of the hardware (sizes, counts, names) */
    SYSDESC_KEY_LIMIT,      /**< a limit a program must respect (threads per block) */
    SYSDESC_KEY_PEAK,       /**< a peak rate (ops/s, bytes/s, clocks) */
    SYSDESC_KEY_BOOKKEEPING /**< where values came from, what is doubtful, ids */
} sysdesc_key_class;

/** Device types (bits of sysdesc_schema_key.devices). */
enum {
    SYSDESC_DEVICE_CPU = 1u << 0,
    SYSDESC_DEVICE_GPU = 1u << 1,
    /** "ACCEL": a compute accelerator that is neither CPU nor GPU (Intel
     *  Gaudi, AWS Trainium and Inferentia, Google TPU): the class of Linux's
     *  compute-accelerator subsystem (/dev/accel/accelN) and of OpenCL's
     *  CL_DEVICE_TYPE_ACCELERATOR (docs/keys.md, "Device types"). */
    SYSDESC_DEVICE_ACCEL = 1u << 2
};

/** Every device type the schema knows. */
#define SYSDESC_DEVICE_ALL (SYSDESC_DEVICE_CPU | SYSDESC_DEVICE_GPU | SYSDESC_DEVICE_ACCEL)

/** One key of the schema. */
typedef struct sysdesc_schema_key {
    /** Dotted path inside the device; '*' is one level named as `names` says. */
    const char *path;
    sysdesc_value_type type;
    /** The unit: "bytes", "bits", "MHz", "bytes/s", "ops/s", "W", "ways", "ns", "ps", "s"
     *  (the last three: sysdesc measure); NULL for none. */
    const char *unit;
    /** SYSDESC_DEVICE_* bits: which device types carry it. */
    unsigned devices;
    /** SYSDESC_DEVICE_* bits of the device types whose complete descriptions
     *  (every catalog entry; SYSDESC_CHECK_COMPLETE) must give it.  Every
     *  device needs `device_type`. */
    unsigned required;
    sysdesc_key_class key_class;
    /** Integers (and array elements): the smallest and largest values allowed. */
    int64_t min, max;
    /** For a map with '*' children: the child names allowed, space-separated,
     *  or "#" for decimal numbers; NULL otherwise. */
    const char *names;
    /** A one-line meaning (docs/keys.md). */
    const char *meaning;
    /** `sysdesc summary`: the label it is shown under, NULL when not shown. */
    const char *summary;
    /** NULL, or the path of a boolean key of the same device that narrows
     *  `required`: a device that sets that key to false need not give this
     *  one (absent counts as true).  pci_vendor_id and pci_device_ids are
     *  required only of GPUs and accelerators that are PCI devices (`is_pci_device`). */
    const char *required_if;
} sysdesc_schema_key;

/** The number of keys in the schema. */
SYSDESC_API size_t sysdesc_schema_size(void);

/** Key `i` (0 <= i < sysdesc_schema_size()), in documentation order; NULL past the end. */
SYSDESC_API const sysdesc_schema_key *sysdesc_schema_key_at(size_t i);

/**
 * The schema key that `path` (dotted, concrete: "cache.L1.size_in_bytes")
 * names in a device of type `device_type` ("CPU", "GPU", "ACCEL"; NULL: any
 * type), or
 * NULL when the schema has no such key.  Paths under `extra.` and inside an
 * open map return the open map's key.
 */
SYSDESC_API const sysdesc_schema_key *sysdesc_schema_find(const char *device_type,
                                                          const char *path);

/**
 * The device type bit of a device_type string ("CPU" -> SYSDESC_DEVICE_CPU,
 * "GPU", "ACCEL"), 0 when it is not one the schema knows.
 */
SYSDESC_API unsigned sysdesc_schema_device_type(const char *device_type);

/**
 * The device_type string of one device type bit (SYSDESC_DEVICE_GPU ->
 * "GPU"), NULL for 0, several bits or a bit the schema does not know.  The
 * string is static.
 */
SYSDESC_API const char *sysdesc_schema_device_type_name(unsigned bits);

/**
 * The device type bit of the device `device` (a #dlti.target_device_spec)
 * whose id is `id`: from its `device_type` when it has one (0 when that is
 * no type the schema knows), else from the id when the id says it (`CPU`,
 * `CPU1`, `GPU`, `GPU3`, `ACCEL`, `ACCEL0`, and the last component of a
 * class id `class0.GPU3`), as MLIR's users name devices; else 0.  `id` may
 * be NULL.
 */
SYSDESC_API unsigned sysdesc_device_type_bits(const char *id, const dlti_attr *device);

/* ---- checking ---- */

/* sysdesc_problem_fn, the receiver of problems, is declared in sysdesc/load.h. */

/** Flags of the check functions. */
enum {
    /** `sys` is a fragment (an override file): keys, types and ranges are
     *  checked, required keys and the relations between keys are not. */
    SYSDESC_CHECK_PARTIAL = 1u << 0,
    /** `sys` claims to be complete (a catalog entry): the keys the schema
     *  marks required must be there (probed devices are exempt: they carry a
     *  `source` map and give what the machine reports). */
    SYSDESC_CHECK_COMPLETE = 1u << 1
};

/**
 * Checks every device of `sys` against the schema and its rules
 * (docs/keys.md, "Checks"): unknown keys (with the nearest known key),
 * value types (with the expected type, and the number to write for a value
 * given as text with a unit such as "64KB"), ranges, `device_type`, the
 * relations between keys, and with SYSDESC_CHECK_COMPLETE the required keys.  Each problem goes to `report` (NULL: only
 * counted), with `source` as its file name and no line; callers that know
 * the text a system came from use sysdesc_system_check_located().
 * Returns the number of problems (0: valid), or -1 when out of memory.
 */
SYSDESC_API long sysdesc_system_check(const sysdesc_system *sys, unsigned flags,
                                      const char *source, sysdesc_problem_fn report,
                                      void *user);

/**
 * As sysdesc_system_check(), and each problem is located in `text` (`len`
 * bytes, the YAML or MLIR the system was loaded from, named `source`): at
 * the key that is wrong, or, for a key missing or inherited through `base:`,
 * at its device.
 */
SYSDESC_API long sysdesc_system_check_located(const sysdesc_system *sys, unsigned flags,
                                              const char *text, size_t len,
                                              const char *source, sysdesc_problem_fn report,
                                              void *user);

/**
 * Loads `path` (a YAML or MLIR file, "-" for standard input, or a catalog
 * name) and checks it as sysdesc_system_check_located() does.  A file that
 * does not load (syntax, a missing base) is one problem, reported with the
 * loader's error.  `opts` as for sysdesc_system_load() (its NO_CHECK flag is
 * implied).  Returns the number of problems, or -1 when out of memory.
 */
SYSDESC_API long sysdesc_check_file(dlti_context *ctx, const char *path,
                                    const sysdesc_yaml_options *opts, unsigned flags,
                                    sysdesc_problem_fn report, void *user);

/**
 * Checks that `path` (dotted, inside a device: "cache.L3.size_in_bytes")
 * names a key of the schema for a device of type `device_type` (NULL: any).
 * Returns 0, or -1 with DLTI_ERROR_VERIFY and "unknown key 'cahce' in
 * 'CPU'; did you mean 'cache'?" (`device_id` names the device in it).
 */
SYSDESC_API int sysdesc_schema_check_path(const char *device_type, const char *device_id,
                                          const char *path, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_SCHEMA_H */
