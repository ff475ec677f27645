/*
 * sysdesc/get.h - typed getters: one call from a system and a dotted path
 * to a C value, with a status that says found, absent or of another type.
 *
 *     sysdesc_system sys;                       // sysdesc_system_load(),
 *     ...                                       // sysdesc_system_probe()
 *     int64_t l1;
 *     if (sysdesc_get_i64(&sys, "CPU.cache.L1.size_in_bytes", &l1) == SYSDESC_FOUND)
 *         ...
 *     int64_t width = 128;                      // a default: `out` is written
 *     sysdesc_get_i64(&sys, "CPU.max_vector_op_width", &width);   // only when found
 *
 * A path is the keys joined by '.': "GPU0.cache.L1.size_in_bytes".  Keys
 * that hold a dot are matched as they are: each level tries the shortest
 * key first and a longer one (up to the next '.', and so on) when the rest
 * of the path is not found under it, so a cluster's per-node device
 * "cn017.GPU3.num_compute_units" (docs/cluster.md) and a `source` map's
 * "CPU.source.measured.levels" both resolve.  Below an array, a key of
 * digits is an element: "GPU.subgroup_sizes.0" (the typed getters read a
 * dense array's element too; it has no attribute of its own, so
 * sysdesc_get_attr() answers NULL for it).  Only string keys: a type key
 * (`i32`) needs dlti_attr_query() with a dlti_key_type() handle.
 *
 * Ownership: a string or attribute returned belongs to the system's
 * dlti_context and lives until dlti_context_free().  Nothing is allocated.
 *
 * Errors: no dlti_error_t: the status is the answer.  A NULL system, path
 * or `out`, an empty path or an empty key ("CPU..vendor") is
 * SYSDESC_ABSENT.  For MLIR's message about a path that is not there, ask
 * dlti_attr_query_strings() (or `sysdesc query`, which adds a hint).
 *
 * Threads: only reads, interns nothing: any number of threads may get from
 * one system at once.
 */
#ifndef SYSDESC_GET_H
#define SYSDESC_GET_H

#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a getter found at a path. */
typedef enum sysdesc_get_status {
    /** The value is there and of the type asked: `*out` is set. */
    SYSDESC_FOUND = 0,
    /** No such device or key on the path (`*out` untouched). */
    SYSDESC_ABSENT,
    /** There, but of another type or outside the C type's range (an i128
     *  past INT64_MAX; a string holding a NUL byte): `*out` untouched. */
    SYSDESC_WRONG_TYPE
} sysdesc_get_status;

/** "found", "absent", "wrong type": for messages. */
SYSDESC_API const char *sysdesc_get_status_name(sysdesc_get_status status);

/**
 * An integer of any type and width that fits int64_t (`49152 : i64`, `32 :
 * i32`, `8 : ui8`, `4 : index`).  A float is SYSDESC_WRONG_TYPE: a count is
 * never rounded.
 */
SYSDESC_API sysdesc_get_status sysdesc_get_i64(const sysdesc_system *sys, const char *path,
                                               int64_t *out);

/** A float (`1.98e12 : f64`, rounded to nearest from a wider format) or an
 *  integer, as a double. */
SYSDESC_API sysdesc_get_status sysdesc_get_f64(const sysdesc_system *sys, const char *path,
                                               double *out);

/** `true` or `false` (not an integer). */
SYSDESC_API sysdesc_get_status sysdesc_get_bool(const sysdesc_system *sys, const char *path,
                                                bool *out);

/** A string, NUL-terminated, owned by the system's context. */
SYSDESC_API sysdesc_get_status sysdesc_get_str(const sysdesc_system *sys, const char *path,
                                               const char **out);

/**
 * Any value at `path` (a map, an array, a dense array, ...), or NULL when
 * absent: for what the typed getters do not cover, read with dlti.h.
 */
SYSDESC_API const dlti_attr *sysdesc_get_attr(const sysdesc_system *sys, const char *path);

/**
 * The same path rule from any attribute a query descends into (a device
 * spec, a #dlti.map, a system spec, a #dlti.dl_spec's string keys):
 * sysdesc_attr_at(gpu, "cache.L2.size_in_bytes"); one key is a lookup by a
 * C string, sysdesc_attr_at(cache, "L1").  NULL when absent or when `root`
 * is not such an attribute.
 */
SYSDESC_API const dlti_attr *sysdesc_attr_at(const dlti_attr *root, const char *path);

/**
 * The keys of a query path as a user types it, one word a key (`sysdesc
 * query`'s KEY...): a string key for each word, a type key for "type:T" (T
 * an MLIR type: "type:i32", "type:!llvm.ptr"), into `keys` (room for `n`),
 * for dlti_query() and dlti_attr_query().  Returns 0, or -1 with err:
 * DLTI_ERROR_SYNTAX ("invalid type key 'type:x': ...") for a type that does
 * not parse, DLTI_ERROR_NOMEM, DLTI_ERROR_ARGUMENT for no context.
 */
SYSDESC_API int sysdesc_query_keys(dlti_context *ctx, const char *const *words, size_t n,
                                   dlti_key *keys, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_GET_H */
