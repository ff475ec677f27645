/*
 * sysdesc/occupancy.h - the occupancy of a kernel on any GPU a spec
 * describes, from the device's own facts (docs/occupancy.md): given threads
 * per block, registers per thread and shared memory per block, how many
 * blocks and warps (AMD: workgroups and waves) stay resident on one compute
 * unit, which resource limits them, and the block sizes that reach the
 * highest occupancy.  No GPU is needed: a catalog entry ("virtual GPU") is
 * enough.
 *
 * The rules follow the vendor (the device's `vendor`):
 *  - NVIDIA: as cudaOccupancyMaxActiveBlocksPerMultiprocessor computes them
 *    (CUDA's cuda_occupancy.h): warp slots, registers allocated per warp in
 *    units of `register_allocation_unit_size` over `warp_allocation_granularity`
 *    processing blocks, shared memory in units of
 *    `shared_memory_allocation_unit_size_in_bytes` plus the reserved
 *    shared memory per block, the carveout, and the block limit.
 *  - AMD: per CU, the waves of a workgroup spread over
 *    `simds_per_compute_unit` SIMDs of `max_waves_per_simd` slots, VGPRs per
 *    wave in units of `register_allocation_unit_size` from `vgprs_per_simd`
 *    (as HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor counts waves),
 *    LDS per CU in its allocation unit, and the barrier limit on workgroups
 *    of more than one wave (`max_blocks_per_compute_unit`).
 * Other vendors are not supported (DLTI_ERROR_UNSUPPORTED).
 *
 * Ownership: results are written to the caller's structures; the JSON text
 * is malloc'ed for the caller to free().
 *
 * Errors: -1 (or NULL) with `err` (may be NULL) filled:
 * DLTI_ERROR_NOT_FOUND naming the first key the computation needs and the
 * device lacks; DLTI_ERROR_TYPE when such a key holds another kind of value;
 * DLTI_ERROR_ARGUMENT for a request outside its ranges (below) or a device
 * that is no device spec; DLTI_ERROR_UNSUPPORTED for a vendor without rules;
 * DLTI_ERROR_NOMEM.  A configuration that cannot run (too many threads,
 * registers or shared memory for one block) is no error: 0 blocks, with the
 * resource that forbids it as the limit.
 *
 * Threads: only reads the device; any thread may call these at once.
 */
#ifndef SYSDESC_OCCUPANCY_H
#define SYSDESC_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

#include "sysdesc/dlti.h"
#include "sysdesc/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A carveout preference that leaves the device's default (all its shared
 *  memory per compute unit), as CUDA's cudaSharedmemCarveoutDefault. */
#define SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT (-1)

/** What the kernel asks of one compute unit. */
typedef struct sysdesc_occupancy_request {
    /** Threads (work-items) per block, >= 1. */
    int64_t threads_per_block;
    /** 32-bit registers per thread, >= 0: what the compiler reports
     *  (NVIDIA: ptxas `registers`; AMD: VGPRs per lane, AGPRs included on
     *  gfx90a and later, where they share the file). */
    int64_t registers_per_thread;
    /** Shared memory (LDS) per block in bytes, >= 0: static and dynamic
     *  together; the reserved shared memory per block is added here. */
    int64_t shared_memory_per_block;
    /** NVIDIA: the carveout preference in percent of the shared memory per
     *  compute unit (0..100, as cudaFuncAttributePreferredSharedMemoryCarveout),
     *  or SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT.  A preference needs the
     *  device's `shared_memory_carveouts_in_bytes`; AMD has none (default
     *  only). */
    int64_t carveout_percent;
    /** The warp or wave size, 0 for the device's smallest
     *  `subgroup_sizes` (32 on NVIDIA and RDNA, 64 on CDNA); another size
     *  must be one of them. */
    int64_t subgroup_size;
} sysdesc_occupancy_request;

/** The resources that can limit the resident blocks (bits of `limits`). */
enum {
    SYSDESC_OCCUPANCY_LIMIT_WARPS = 1u << 0,         /**< warp (wave) slots, or threads per block */
    SYSDESC_OCCUPANCY_LIMIT_REGISTERS = 1u << 1,     /**< the register file */
    SYSDESC_OCCUPANCY_LIMIT_SHARED_MEMORY = 1u << 2, /**< shared memory (LDS) */
    SYSDESC_OCCUPANCY_LIMIT_BLOCKS = 1u << 3         /**< blocks (workgroups) per compute unit */
};

/** A limit that does not bind (the kernel uses none of that resource). */
#define SYSDESC_OCCUPANCY_UNLIMITED INT64_MAX

/** The occupancy of one configuration on one compute unit. */
typedef struct sysdesc_occupancy {
    /** Resident blocks (workgroups) per compute unit: the least of the
     *  four limits below; 0 when the configuration cannot run. */
    int64_t blocks_per_compute_unit;
    /** Resident warps (waves): blocks x warps_per_block. */
    int64_t warps_per_compute_unit;
    /** The most warps (waves) a compute unit holds. */
    int64_t max_warps_per_compute_unit;
    /** warps_per_compute_unit / max_warps_per_compute_unit, 0..1. */
    double occupancy;
    /** SYSDESC_OCCUPANCY_LIMIT_* of every limit equal to the result (as
     *  cudaOccResult's limitingFactors). */
    unsigned limits;
    /** The blocks each resource allows; SYSDESC_OCCUPANCY_UNLIMITED when it
     *  does not bind (no registers, no shared memory). */
    int64_t blocks_by_warps, blocks_by_registers, blocks_by_shared_memory, blocks_by_blocks;
    /** The subgroup size used and the warps (waves) of one block. */
    int64_t subgroup_size, warps_per_block;
    /** Registers allocated to one block (NVIDIA) or one wave (AMD), all
     *  lanes counted. */
    int64_t registers_allocated;
    /** Shared memory allocated to one block: the request, the reserved
     *  shared memory, rounded up to the allocation unit. */
    int64_t shared_memory_allocated;
    /** The shared memory per compute unit the blocks share (NVIDIA: the
     *  carveout in effect). */
    int64_t shared_memory_per_compute_unit;
    /** "NVIDIA" or "AMD": whose rules were applied. */
    const char *rules;
} sysdesc_occupancy;

/** The request of `threads` threads, `registers` registers per thread and
 *  `shared` bytes of shared memory, default carveout and subgroup size. */
SYSDESC_API sysdesc_occupancy_request sysdesc_occupancy_request_make(int64_t threads,
                                                                    int64_t registers,
                                                                    int64_t shared);

/**
 * The occupancy of `req` on device `device` (a #dlti.target_device_spec,
 * or a map, of a GPU; `device_id` names it in messages, NULL: "GPU") into
 * `*out`.  Returns 0, or -1 with `err` (see the preamble).
 */
SYSDESC_API int sysdesc_occupancy_compute(const dlti_attr *device, const char *device_id,
                                          const sysdesc_occupancy_request *req,
                                          sysdesc_occupancy *out, dlti_error_t *err);

/**
 * The block sizes of highest occupancy for `req` with its threads per
 * block ignored: every multiple of the subgroup size up to the device's
 * `max_threads_per_block` whose resident warps equal the most any of them
 * reaches (registers per thread and shared memory per block held), in
 * increasing order.  The last is the one cudaOccupancyMaxPotentialBlockSize
 * would choose.  Up to `cap` sizes are written to `sizes` (may be NULL when
 * `cap` is 0); `*count` gets how many there are (0 when none can run).
 * Returns 0, or -1 with `err` as sysdesc_occupancy_compute().
 */
SYSDESC_API int sysdesc_occupancy_best_block_sizes(const dlti_attr *device,
                                                   const char *device_id,
                                                   const sysdesc_occupancy_request *req,
                                                   int64_t *sizes, size_t cap, size_t *count,
                                                   dlti_error_t *err);

/**
 * The occupancy of `req` and the best block sizes as one JSON object (RFC
 * 8259, two spaces of indent, a final newline): what `sysdesc occupancy
 * --json` prints and Python's Spec.occupancy() returns (docs/occupancy.md
 * lists its fields).  `*len` (may be NULL) gets the length.  NULL with
 * `err` as sysdesc_occupancy_compute().
 */
SYSDESC_API char *sysdesc_occupancy_json(const dlti_attr *device, const char *device_id,
                                         const sysdesc_occupancy_request *req, size_t *len,
                                         dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_OCCUPANCY_H */
