/* measure_dev.h - what the device measurement files share (not installed;
 * docs/measure.md, "Devices").
 *   measure_devices.c   the parent: the devices of a spec, a plan for each,
 *                       one bounded child each (rt_child.c), results attached
 *   measure_dev.c       the child: the runs, their checks, the `measured` map
 *   measure_dev_opencl.c, measure_dev_vulkan.c, measure_dev_cuda.c
 *                       one runtime each, behind md_ops
 *   measure_dev_cl.c, measure_dev_spirv.c
 *                       the kernels, generated from probe/measure/kernels/ by
 *                       scripts/gen-device-kernels.py */
#ifndef SYSDESC_MEASURE_DEV_H
#define SYSDESC_MEASURE_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysdesc/measure.h"

/* The kernels (probe/measure/kernels/device.cl says what each does and leaves). */
typedef enum md_kernel {
    MD_READ,
    MD_COPY,
    MD_TRIAD,
    MD_LOCAL,
    MD_FMA32,
    MD_FMA64,
    MD_FMA16,
    MD_NKERNELS
} md_kernel;

/* Work-items a work-group, in every kernel and runtime. */
#define MD_GROUP 128u

/* Their entry points: "sd_read", ... */
extern const char *const md_kernel_names[MD_NKERNELS];

/* measure_dev_cl.c: the OpenCL C text; PTX of every kernel but sd_fma16
 * (sm_52), and of sd_fma16 alone (sm_60). */
extern const char md_opencl_source[];
extern const char md_ptx_main[];
extern const char md_ptx_fp16[];

/* measure_dev_spirv.c: one SPIR-V module a kernel, in md_kernel order. */
typedef struct md_spirv {
    const uint32_t *words;
    size_t bytes;
} md_spirv;
extern const md_spirv md_spirv_modules[MD_NKERNELS];

/* What the parent asks of one device: planned from the spec, handed to
 * the child by fork. */
typedef struct md_target {
    char id[96];           /* "GPU0"; "CPU" for a runtime's view of the host CPU */
    const char *runtime;   /* "opencl", "vulkan", "cuda" (static) */
    int platform;          /* OpenCL: the platform's index */
    int ordinal;           /* the device's index: CUDA's ordinal, Vulkan's physical
                              device, OpenCL's within its platform */
    char name[128];        /* the name the probe saw there: the child checks it */
    sysdesc_measure_mode mode;
    size_t memory_bytes;   /* one buffer of the memory runs */
    char memory_bounded[200]; /* what the plan's bounds changed, or "" */
    size_t l2_bytes;       /* the L2 run's buffer; 0: not measured, l2_why says why */
    char l2_why[200];
    size_t transfer_bytes;
    unsigned groups;       /* work-groups of the bandwidth runs */
    unsigned fma_groups;   /* work-groups of the FMA and local memory runs */
    bool break_triad;      /* the test hook: the triad leaves its last elements */
} md_target;

/* A buffer and pinned host memory of one runtime (its own structures). */
typedef struct md_buf md_buf;
typedef struct md_host md_host;

/* The push constants / scalar arguments every kernel takes. */
typedef struct md_args {
    uint32_t n, reps, c;
    float s, d, e;
} md_args;

struct md_ops;

/* A device opened through one runtime, in the child. */
typedef struct md_dev {
    const md_target *t;
    const struct md_ops *ops;
    void *rt;              /* the runtime's state */
    /* set by open(): */
    char name[128];        /* as the runtime names it */
    char driver[160];      /* "Portable Computing Language, driver 3.1+debian" */
    uint64_t max_buffer;   /* the largest buffer a kernel may bind */
    bool fp64, fp16;       /* whether sd_fma64 and sd_fma16 can run ... */
    char fp64_why[160], fp16_why[160]; /* ... and why not */
    bool clock;            /* sd_fma32 leaves the SM clock (CUDA) */
    unsigned lanes;        /* work-items whose elements interleave in the
                              bandwidth kernels (device.cl, SPAN): 0 (all: a
                              GPU's coalesced loads) or 1 (a CPU: each
                              work-item a contiguous share) */
    unsigned w32, w64, wv; /* lanes of the f32 and f64 chains and words of the
                              bandwidth and local memory kernels' elements
                              (SD_W32, SD_W64, SD_WV of device.cl): 1, 1, 4
                              unless the runtime builds the kernels for the
                              device's vectors */
    char why[400];         /* the last failure: md_fail */
} md_dev;

/* One runtime's measurement: the optional `measure` of its row
 * (pb_rt_source, runtimes/<name>.c).  Every function returns 0 (a
 * pointer), or -1 (NULL) with d->why set. */
typedef struct md_ops {
    /* Where a device is in the runtime's view (runtimes.<runtime>): its
     * platform's index (NULL: the runtime has none), its index, its name. */
    const char *platform_key, *index_key, *name_key;
    /* Whether the runtime's view of the host CPU is measured too (pocl, lavapipe). */
    bool host_cpu;
    /* Loads the runtime, opens device t->ordinal, checks it is the one
     * named t->name, builds or loads the kernels. */
    int (*open)(md_dev *d);
    md_buf *(*alloc)(md_dev *d, size_t bytes);
    void (*free)(md_dev *d, md_buf *b);
    int (*write)(md_dev *d, md_buf *b, const void *src, size_t bytes);
    int (*read)(md_dev *d, md_buf *b, void *dst, size_t bytes);
    /* One launch of k over `groups` work-groups with buffers x, y, z, r
     * (bufs[0..3]); *seconds: its time by the runtime's own clock (events,
     * timestamps), the launch overhead left out where the runtime can. */
    int (*launch)(md_dev *d, md_kernel k, md_buf *const bufs[4], const md_args *a,
                  unsigned groups, double *seconds);
    /* Page-locked host memory where the runtime has it, and one timed copy
     * between it and b. */
    void *(*host_alloc)(md_dev *d, size_t bytes, md_host **h);
    void (*host_free)(md_dev *d, md_host *h);
    int (*transfer)(md_dev *d, md_buf *b, md_host *h, size_t bytes, bool to_device,
                    double *seconds);
    void (*close)(md_dev *d);
} md_ops;

extern const md_ops md_opencl_ops;
extern const md_ops md_vulkan_ops;
extern const md_ops md_cuda_ops;

/* Sets d->why (and returns -1). */
int md_fail(md_dev *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The child's work (a pb_child_fn): measures the device of the md_target
 * `arg` and returns the answer, #dlti.map<"measured" = {...}> or
 * #dlti.map<"error" = "...">, as malloc'ed text; progress lines
 * "FRACTION STEP" go to progress_fd. */
char *md_measure_child(void *arg, int progress_fd, size_t *len);

#endif
