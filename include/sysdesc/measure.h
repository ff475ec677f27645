/*
 * sysdesc/measure.h - measure what this host delivers: bandwidth and
 * load-to-use latency of each cache level and of memory, peak f64/f32 FMA
 * rate, the achieved clock (docs/measure.md); and what its devices deliver
 * through the vendor runtimes (sysdesc_measure_devices).
 *
 * The results form the CPU device's `measured` map (docs/keys.md): numbers
 * with their provenance (method, threads, CPU set, date, sysdesc version).
 * Every kernel's result is checked (the triad's array element by element,
 * the read kernel's sum, the FMA accumulators), so a broken or optimised-away
 * kernel fails the measurement rather than reporting a number.
 *
 * Ownership: attributes returned are owned by the dlti_context passed in.
 *
 * Errors: NULL with `err` filled: DLTI_ERROR_ARGUMENT for a spec without a
 * usable CPU device or bad options, DLTI_ERROR_NOMEM when the buffers cannot
 * be allocated, DLTI_ERROR_IO when threads cannot be started or pinned,
 * DLTI_ERROR_VERIFY when a kernel's result is wrong (the text says which
 * kernel, element, value and expected value).
 *
 * Threads: a measurement starts its own threads, pinned to the CPUs this
 * process may use (sched_getaffinity); do not run two at once, they would
 * measure each other.
 */
#ifndef SYSDESC_MEASURE_H
#define SYSDESC_MEASURE_H

#include "sysdesc/dlti.h"
#include "sysdesc/export.h"
#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How long a measurement runs: samples per value and their length. */
typedef enum sysdesc_measure_mode {
    SYSDESC_MEASURE_DEFAULT = 0, /**< about 2-4 s on a 2-core host */
    SYSDESC_MEASURE_QUICK,       /**< under a second: fewer, shorter samples */
    SYSDESC_MEASURE_FULL         /**< about 7x the default: more samples */
} sysdesc_measure_mode;

/** Receives progress: the step being measured ("L2 triad, 2 threads") and
 *  the fraction of the steps done (0..1). */
typedef void (*sysdesc_measure_progress_fn)(void *user, const char *step, double done);

/** Options; zero the struct (or sysdesc_measure_options_init) for the defaults. */
typedef struct sysdesc_measure_options {
    sysdesc_measure_mode mode;
    /** NULL: no progress reports. */
    sysdesc_measure_progress_fn progress;
    void *progress_user;
    /** The most threads for the "all threads" runs; 0: every allowed CPU. */
    unsigned max_threads;
    /** sysdesc_measure_devices: the bound on one device's measurement in
     *  milliseconds (its runtime's start, its kernels' build and its runs),
     *  after which its child is killed; 0: by mode (quick 30 s, default
     *  60 s, full 180 s). */
    unsigned device_timeout_ms;
} sysdesc_measure_options;

/** Fills `opts` with the defaults. */
SYSDESC_API void sysdesc_measure_options_init(sysdesc_measure_options *opts);

/**
 * Measures this host and returns the `measured` #dlti.map of its CPU device.
 * `cpu_device` is the CPU's #dlti.target_device_spec from
 * sysdesc_probe_host() of this host: its cache sizes (cache.Lk.size_in_bytes,
 * num_instances) choose the working sets, and its memory size bounds them.
 * The kernels are those of the widest vector ISA this CPU and OS support
 * (AVX-512F, AVX2+FMA, NEON, else portable C), chosen at run time.
 *
 * Test hook: when the environment variable SYSDESC_MEASURE_BREAK_TRIAD is
 * set (to anything but a runtime's name), the triad kernel skips the last
 * elements of its arrays, so that the verification must fail
 * (DLTI_ERROR_VERIFY); tests use it.  Set to "opencl", "vulkan" or "cuda",
 * it breaks only the triad of sysdesc_measure_devices() through that
 * runtime.
 */
SYSDESC_API const dlti_attr *sysdesc_measure_host(dlti_context *ctx, const dlti_attr *cpu_device,
                                                  const sysdesc_measure_options *opts,
                                                  dlti_error_t *err);

/**
 * Returns `system_spec` (a #dlti.target_system_spec) with `measured` set as
 * the `measured` key of the device `device_id` ("CPU"), replacing any earlier
 * one.  NULL with err (DLTI_ERROR_ARGUMENT) when there is no such device.
 */
SYSDESC_API const dlti_attr *sysdesc_measure_attach(dlti_context *ctx, const dlti_attr *system_spec,
                                                    const char *device_id,
                                                    const dlti_attr *measured, dlti_error_t *err);

/**
 * Measures devices of `system_spec` (a #dlti.target_system_spec of this
 * host from sysdesc_probe_host(), with the vendor runtimes asked: their
 * views, under each device's `runtimes`, say which runtime sees it and as
 * which device) and returns the spec with the results (docs/measure.md,
 * "Devices").  `device_ids` names `n` devices of the spec, or is the one
 * name "all": every device.
 *
 * - "CPU" (a device of type CPU) is measured as sysdesc_measure_host()
 *   does, into its `measured` map, and then through each runtime whose
 *   view of it the spec holds and that sysdesc measures through (OpenCL,
 *   Vulkan: pocl, lavapipe), into `measured.runtimes.<runtime>`.
 * - A GPU is measured through the first of its runtimes, in the probe's
 *   priority order, that sysdesc measures through (CUDA, OpenCL, Vulkan),
 *   into its `measured` map.
 *
 * Each runtime measurement runs in a child process of its own, one after
 * the other, killed after opts->device_timeout_ms: a runtime or kernel
 * that hangs or crashes costs that measurement only.  Every kernel's
 * result is checked.  The device's `source` map says for each what
 * measured it ("measured" or "measured.runtimes.opencl" = "sysdesc
 * measure through opencl: DRIVER") or why it was not measured ("not
 * measured: ..."): nothing is invented.  `*failed` (may be NULL) gets the
 * number of measurements that failed (a crash, a hang, a wrong result, a
 * runtime's error); a device no runtime can measure is not one.
 *
 * Errors: NULL with err: DLTI_ERROR_ARGUMENT (not a system spec, an id it
 * does not hold), DLTI_ERROR_NOMEM, and the host CPU's errors as
 * sysdesc_measure_host() reports them.
 */
SYSDESC_API const dlti_attr *sysdesc_measure_devices(dlti_context *ctx,
                                                     const dlti_attr *system_spec,
                                                     const char *const *device_ids, size_t n,
                                                     const sysdesc_measure_options *opts,
                                                     size_t *failed, dlti_error_t *err);

/**
 * Measures the system `sys` of this host (sysdesc_system_probe()) in place:
 * `n` 0 measures its "CPU" as sysdesc_measure_host() does and sets the
 * result as the CPU's `measured` map (`sysdesc measure`); else the devices
 * `device_ids` as sysdesc_measure_devices() does (`sysdesc measure
 * --device`; the probe must have asked the runtimes), `*failed` (may be
 * NULL) as there.  `sys->spec` becomes the measured spec; its data layout
 * is kept.  Returns 0, or -1 with `err` as those functions report it
 * (DLTI_ERROR_ARGUMENT also for a system without a "CPU" device); `sys` is
 * untouched on failure.
 */
SYSDESC_API int sysdesc_system_measure(dlti_context *ctx, sysdesc_system *sys,
                                       const char *const *device_ids, size_t n,
                                       const sysdesc_measure_options *opts, size_t *failed,
                                       dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_MEASURE_H */
