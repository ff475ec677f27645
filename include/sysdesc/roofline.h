/*
 * sysdesc/roofline.h - the ceilings of one device's roofline, from its spec
 * (docs/measure.md; `sysdesc roofline` draws them as SVG).
 *
 * A ceiling is a compute rate (FLOP/s: `peak_ops_per_second.T` of the
 * datasheet or catalog, `measured.peak_ops_per_second.T` of sysdesc
 * measure) or a bandwidth (bytes/s: `memory_bandwidth_in_bytes_per_second`,
 * `measured.levels.L.triad_bandwidth_in_bytes_per_second`, or the level's
 * `read_bandwidth_in_bytes_per_second` where a device measured it by
 * reading only: its local memory and L2).  Nominal and
 * measured ceilings use the same keys, so a roofline draws from either or
 * both; each ceiling records the key it came from.
 *
 * Ownership: the caller owns the sysdesc_roofline it passes; nothing is
 * allocated.
 *
 * Errors: -1 with `err` filled: DLTI_ERROR_NOT_FOUND when the
 * device has no compute or no bandwidth ceiling (the text lists the keys
 * looked for), DLTI_ERROR_ARGUMENT for a NULL or non-device argument.
 *
 * Threads: only reads the spec; distinct rooflines may be built at once.
 */
#ifndef SYSDESC_ROOFLINE_H
#define SYSDESC_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "sysdesc/dlti.h"
#include "sysdesc/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most ceilings one roofline holds. */
#define SYSDESC_ROOFLINE_MAX 32

/** One ceiling. */
typedef struct sysdesc_roofline_ceiling {
    /** "FP64 vector", "L2 triad", "memory": what it is. */
    char label[64];
    /** The dotted key path it came from, "measured.peak_ops_per_second.fp64_vector". */
    char key[128];
    /** From the `measured` map; else nominal (datasheet, catalog). */
    bool measured;
    /** A compute rate (FLOP/s); else a bandwidth (bytes/s). */
    bool compute;
    double value;
} sysdesc_roofline_ceiling;

/** The ceilings of one device, in the order of the keys above. */
typedef struct sysdesc_roofline {
    char device_id[64];
    /** "AMD EPYC (CPU)": vendor, model and device id as the spec has them. */
    char title[192];
    /** Provenance of the measured ceilings, with the statistic each value is
     *  of its samples (the measured map's `statistic`; best where it has
     *  none): "sysdesc measure 2026-11-23T14:36:11Z, median of samples,
     *  avx512f, 2 threads", or for a device measured through a runtime
     *  "sysdesc measure DATE, best of samples, through cuda, CUDA 12.4"; ""
     *  when none. */
    char measured_by[160];
    sysdesc_roofline_ceiling c[SYSDESC_ROOFLINE_MAX];
    size_t n;
} sysdesc_roofline;

/**
 * Collects the ceilings of `device_spec` (a #dlti.target_device_spec whose
 * id is `device_id`, NULL for none).  `types` lists the data types of the
 * compute ceilings, comma-separated ("fp64_vector,fp32_vector"); NULL: for
 * a CPU (device_type "CPU") fp64_vector, fp64_matrix, fp32_vector and
 * fp32_matrix, for any other device those and the tensor types
 * tf32_matrix, fp16_matrix, bf16_matrix and fp8_matrix.  A type the device
 * has no peak for is left out, and so is a rate that is not a number from 1
 * to 1e24 per second (a denormal or infinite value of a spec read without
 * the schema check: no chart could hold it).  Returns 0, or -1 with err
 * (DLTI_ERROR_NOT_FOUND when there is no compute or no bandwidth ceiling,
 * DLTI_ERROR_ARGUMENT for a type that is none of peak_ops_per_second's).
 */
SYSDESC_API int sysdesc_roofline_collect(dlti_context *ctx, const dlti_attr *device_spec,
                                         const char *device_id, const char *types,
                                         sysdesc_roofline *out, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_ROOFLINE_H */
