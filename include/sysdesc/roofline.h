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
 * Kernels measured by the caller are points on it (sysdesc_roofline_add_point
 * and the _text and _file forms; `sysdesc roofline --point`, `--points`):
 * each with the roof at its intensity and the fraction of it reached.
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

/** The most kernel points one roofline holds. */
#define SYSDESC_ROOFLINE_MAX_POINTS 32

/** A kernel on the roofline: where it ran, and what the roof allows there. */
typedef struct sysdesc_roofline_point {
    /** The kernel's name as given ("gemm 128x128"). */
    char name[64];
    /** Its arithmetic intensity, FLOP per byte moved. */
    double intensity;
    /** The rate it reached, FLOP/s. */
    double rate;
    /** The roof at `intensity`: the lower of the highest compute ceiling
     *  and the highest bandwidth times `intensity`, of the measured
     *  ceilings where the device has some of that kind, else the nominal
     *  ones (the lines the chart draws to their ridge). */
    double roof;
    /** rate / roof: 1 is on the roof (above 1: it beats the roof's figures). */
    double fraction;
    /** The index in c[] of the ceiling that makes the roof there: a
     *  bandwidth (the kernel is memory-bound) or a compute rate. */
    size_t roof_ceiling;
    /** The index in c[] of the lowest ceiling at or above the point at its
     *  intensity (a compute rate, or a bandwidth's diagonal), the next
     *  limit up; -1 when the point is above every ceiling. */
    int above;
} sysdesc_roofline_point;

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
    /** Kernels, in the order they were added (none after collecting). */
    sysdesc_roofline_point p[SYSDESC_ROOFLINE_MAX_POINTS];
    size_t npoints;
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

/**
 * Adds kernel `name` (1 to 63 bytes, no control characters) that reached
 * `rate` FLOP/s at `intensity` FLOP/byte to `r`, filled by
 * sysdesc_roofline_collect(), with its roof, fraction and ceilings
 * (sysdesc_roofline_point).  Returns 0, or -1 with err:
 * DLTI_ERROR_ARGUMENT for a bad name, an intensity outside 1e-6 to 1e6
 * FLOP/byte or a rate outside 1 to 1e24 FLOP/s (no chart holds them: the
 * ceilings' own band), a roofline without ceilings; DLTI_ERROR_LIMIT past
 * SYSDESC_ROOFLINE_MAX_POINTS points.
 */
SYSDESC_API int sysdesc_roofline_add_point(sysdesc_roofline *r, const char *name,
                                           double intensity, double rate, dlti_error_t *err);

/**
 * sysdesc_roofline_add_point() from text "NAME:INTENSITY:RATE" (`sysdesc
 * roofline --point`): the last two ':' or ',' split it, so a name may hold
 * either; each number may end in an SI prefix, k M G T P E ("850G" is
 * 8.5e11 FLOP/s).  Errors as there, DLTI_ERROR_SYNTAX for text not of that
 * form (the text says which part).
 */
SYSDESC_API int sysdesc_roofline_add_point_text(sysdesc_roofline *r, const char *text,
                                                dlti_error_t *err);

/**
 * The points of file `path` ("-": standard input; `sysdesc roofline
 * --points FILE`): a point a line as sysdesc_roofline_add_point_text()
 * reads it, so CSV "name,intensity,rate" too; blank lines and lines
 * starting with '#' are skipped, and so is a first line whose last two
 * fields are no numbers (a CSV header).  Errors as there, placed at
 * FILE:LINE:COLUMN; DLTI_ERROR_IO when the file cannot be read (at most 1
 * MiB: DLTI_ERROR_LIMIT).  Points before a bad line stay added.
 */
SYSDESC_API int sysdesc_roofline_add_points_file(sysdesc_roofline *r, const char *path,
                                                 dlti_error_t *err);

/**
 * The device of `system_spec` (a #dlti.target_system_spec) a roofline is
 * drawn for (`sysdesc roofline --device`): `device_id`, or when it is NULL
 * the "CPU" device when there is one, else the first.  Its id goes to
 * `id_out` (`id_size` bytes; cut to fit).  NULL with err:
 * DLTI_ERROR_NOT_FOUND ("no device \"GPU9\"") when there is no such device
 * spec (sysdesc_device_hint() says which there are), DLTI_ERROR_ARGUMENT
 * for no system spec or no room for the id.
 */
SYSDESC_API const dlti_attr *sysdesc_roofline_device(const dlti_attr *system_spec,
                                                     const char *device_id, char *id_out,
                                                     size_t id_size, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_ROOFLINE_H */
