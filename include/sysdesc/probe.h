/*
 * sysdesc/probe.h - describe a machine as a #dlti.target_system_spec.
 *
 * The probe reads a hardware topology with hwloc (this host, or an XML file
 * exported on another machine with `lstopo-no-graphics --of xml`), adds what
 * hwloc does not know (ISA features from CPUID/XGETBV on x86 or hwcaps on
 * aarch64, /proc/meminfo, cgroup memory limits) and builds the spec through
 * the dlti.h builder API.  docs/keys.md lists every key, its type, unit and
 * source: it is the contract.
 *
 * Ownership: every attribute returned is owned by the dlti_context passed in
 * and lives until dlti_context_free(); nothing here has to be freed apart
 * from the context.
 *
 * Errors: functions that can fail take a `dlti_error_t *` (may be NULL) and
 * return NULL or -1 with the error filled: DLTI_ERROR_IO when hwloc cannot
 * load the topology or read the XML file, DLTI_ERROR_ARGUMENT for invalid
 * arguments, DLTI_ERROR_NOMEM when out of memory.  Warnings (values that fail
 * a sanity check) are not errors: the value's path is listed in its device's
 * "suspect" array, and the warning's text goes to the options' warning
 * callback when one is set.  The library prints nothing (the sysdesc tool
 * sets a callback that prints "sysdesc: warning: ...").
 *
 * Vendor runtimes (docs/runtimes.md): host probes also ask the OpenCL,
 * Vulkan, CUDA, ROCm and Level Zero runtimes that are installed (dlopen()ed
 * at run time, skipped with a "source" line when absent), each in a child
 * process of its own created with fork() that must answer within
 * runtime_timeout_ms; their answers are cached under $XDG_CACHE_HOME/sysdesc.
 * The child only runs the runtime and writes its answer to a pipe; it never
 * returns into the caller's code (it ends with _exit()).  In a multithreaded
 * process the child holds only the forking thread: glibc makes malloc,
 * stdio and dlopen usable there, and a child that deadlocks all the same is
 * killed at the time bound.  Processes that must not fork set
 * runtimes_in_process (or ask no runtime).
 *
 * Threads: the probe writes to the context (see dlti.h).  Distinct contexts
 * may be probed from distinct threads.
 */
#ifndef SYSDESC_PROBE_H
#define SYSDESC_PROBE_H

#include "sysdesc/dlti.h"
#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the probe knows about one PCI device that becomes a GPU device. */
typedef struct sysdesc_pci_info {
    unsigned domain, bus, dev, func;
    unsigned vendor_id;        /**< PCI vendor id (0x10de NVIDIA, 0x1002 AMD, 0x8086 Intel...) */
    unsigned device_id;
    unsigned subvendor_id;
    unsigned subdevice_id;
    unsigned class_id;         /**< class << 8 | subclass (0x0300 VGA, 0x0302 3D, 0x1200 accel) */
    char bus_id[16];           /**< "0000:01:00.0" */
    const char *device_id_str; /**< the device id of the spec: "GPU0" (or "node1.GPU0") */
} sysdesc_pci_info;

/**
 * Hook called for every GPU or ACCEL device with a PCI identity (found by
 * hwloc's PCI discovery or, on this host, by a vendor runtime: its ids then
 * read from sysfs), last, after the probe has built its device spec with the
 * runtimes' live values.  It may replace `*device_spec` with a new
 * #dlti.target_device_spec built in `ctx` (for instance the probe's spec
 * merged with a systems/ description whose PCI ids match), or leave it alone.
 * Returns 0, or -1 with `err` filled to abort the probe (the error is passed
 * through to the caller).  `user` is the options' pci_match_user.
 */
typedef int (*sysdesc_pci_match_fn)(void *user, dlti_context *ctx, const sysdesc_pci_info *pci,
                                    const dlti_attr **device_spec, dlti_error_t *err);

/** Receives one warning line (no trailing newline, no "warning:" prefix). */
typedef void (*sysdesc_warning_fn)(void *user, const char *message);

/** I/O (PCI, GPU) discovery. */
typedef enum sysdesc_probe_io {
    SYSDESC_PROBE_IO_AUTO = 0, /**< off for this host (it costs ~4x the load time), on for XML */
    SYSDESC_PROBE_IO_ON,
    SYSDESC_PROBE_IO_OFF
} sysdesc_probe_io;

/** Vendor runtimes the host probe may ask (bits of
 *  sysdesc_probe_options.runtimes).  Each is opened with dlopen() when present
 *  and skipped, with a line in the device's "source", when not. */
enum {
    SYSDESC_RUNTIME_OPENCL = 1u << 0,     /**< libOpenCL.so.1 (the ICD loader) */
    SYSDESC_RUNTIME_VULKAN = 1u << 1,     /**< libvulkan.so.1 */
    SYSDESC_RUNTIME_CUDA = 1u << 2,       /**< libcuda.so.1 and libnvidia-ml.so.1 (NVML) */
    SYSDESC_RUNTIME_ROCM = 1u << 3,       /**< HIP or HSA, and AMD SMI */
    SYSDESC_RUNTIME_LEVEL_ZERO = 1u << 4, /**< libze_loader.so.1 */
    SYSDESC_RUNTIME_ALL = 0x1fu,
    /** Ask none: `runtimes` == 0 means the default, all of them. */
    SYSDESC_RUNTIME_NONE = 1u << 30
};

/** The cache of the runtimes' answers (opening a CUDA context costs
 *  hundreds of milliseconds). */
typedef enum sysdesc_probe_cache {
    SYSDESC_PROBE_CACHE_AUTO = 0, /**< use a valid cache entry, write a new one */
    SYSDESC_PROBE_CACHE_OFF,      /**< neither read nor write it */
    SYSDESC_PROBE_CACHE_REFRESH   /**< ask the runtimes, then write the entry */
} sysdesc_probe_cache;

/**
 * Options of a probe.  Initialise with sysdesc_probe_options_init() (or zero
 * the struct: all-zero means the defaults); new fields are only appended.
 */
typedef struct sysdesc_probe_options {
    /** NULL: probe this host.  Else the path of an hwloc XML topology. */
    const char *xml_path;
    /** Prepended to every device id ("node0." gives "node0.CPU"); NULL for none. */
    const char *device_prefix;
    sysdesc_probe_io io;
    /** Optional hook that fills GPU devices from a database (see
     *  sysdesc_pci_match_fn); sysdesc_catalog_pci_fill() (sysdesc/catalog.h)
     *  fills them from the systems/ catalog, as the CLI does. */
    sysdesc_pci_match_fn pci_match;
    void *pci_match_user;
    /** Optional warning sink, called once per warning; NULL: warnings are
     *  only listed under the device's "suspect" (nothing is printed). */
    sysdesc_warning_fn warning;
    void *warning_user;
    /** Do not call `warning` (warnings are still recorded under "suspect"). */
    bool quiet;
    /** SYSDESC_RUNTIME_* bits: the vendor runtimes asked on host probes
     *  (never for XML files); 0: all; SYSDESC_RUNTIME_NONE: none. */
    unsigned runtimes;
    sysdesc_probe_cache cache;
    /** Directory of the cache; NULL: $XDG_CACHE_HOME/sysdesc, else ~/.cache/sysdesc. */
    const char *cache_dir;
    /** The longest a runtime may take to answer, in milliseconds (a
     *  runtime that hangs in its own init is abandoned); 0: the default,
     *  20000.  The compilers and llc a host probe runs share one deadline
     *  of this length, from the first run (docs/runtimes.md). */
    unsigned runtime_timeout_ms;
    /** Ask the runtimes in this process instead of forked children: no
     *  fork, and no time bound either (a runtime that hangs hangs the
     *  caller, one that crashes takes it down).  For processes that must not
     *  fork; docs/runtimes.md, "Children and fork". */
    bool runtimes_in_process;
    /** The compilers the CPU's compiler.gcc and compiler.clang are for, on
     *  a host probe (docs/keys.md, "Microarchitecture and compiler
     *  targets"): a name looked up on PATH or a path; NULL: "gcc" and
     *  "clang"; "": none (the table's newest flags).  Each found is asked
     *  its version and compiles the flags it gets, once: its answer is
     *  cached by the file's identity (with `cache` AUTO; REFRESH asks
     *  again, OFF asks and keeps nothing). */
    const char *gcc;
    const char *clang;
    /** The node's view instead of this process's allocation (docs/allocation.md):
     *  every PU and NUMA node, MemTotal not bounded by the cgroup, every GPU
     *  whatever CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES,
     *  GPU_DEVICE_ORDINAL and ZE_AFFINITY_MASK say (the runtimes' children run
     *  without them).  The CPU's `allocation` map still says what this process
     *  may use.  Host probes only. */
    bool whole_node;
    /** The LLVM the CPU's compiler.llvm.cpu is checked against, on a host
     *  probe: `llc` looked up on PATH or a path; NULL: "llc"; "": none (the
     *  table's name, "not checked").  `llc -mcpu=help` lists the CPUs it
     *  knows; a name it lacks gives way to the nearest ancestor's it knows.
     *  Cached like the compilers' answers. */
    const char *llc;
} sysdesc_probe_options;

/**
 * The SYSDESC_RUNTIME_* bits of a comma-separated list of runtime names:
 * "opencl", "vulkan", "cuda", "rocm", "level_zero", or "all", or "none"
 * alone (SYSDESC_RUNTIME_NONE).  Returns 0 with `*bits` set, or -1 with
 * DLTI_ERROR_ARGUMENT naming the first word that is not one of them.
 */
SYSDESC_API int sysdesc_probe_runtimes_parse(const char *list, unsigned *bits, dlti_error_t *err);

/**
 * The words sysdesc_probe_runtimes_parse() knows, besides "all" and
 * "none", as the library's table of runtime sources has them: the `i`-th
 * word in SYSDESC_RUNTIME_* bit order, with its bit in `*bit` (may be
 * NULL); NULL (and `*bit` untouched) past the last.  For a caller that
 * lists them (a usage text, Python's RUNTIME_* constants) without a copy
 * of its own.  Only reads static data: any thread may call it.
 */
SYSDESC_API const char *sysdesc_probe_runtime_name(size_t i, unsigned *bit);

/**
 * The same words as one text, "opencl, vulkan, cuda, rocm, level_zero",
 * written to `out` (`size` bytes, NUL-terminated, cut to fit; `out` may be
 * NULL when `size` is 0).  Returns the length of the whole text, as
 * snprintf() does: a result >= `size` means it was cut.
 */
SYSDESC_API size_t sysdesc_probe_runtime_names(char *out, size_t size);

/** What a program will probe (flags of sysdesc_probe_setup_process()). */
enum {
    SYSDESC_PROBE_SETUP_XML = 1u << 0, /**< hwloc XML files (--xml) */
    SYSDESC_PROBE_SETUP_IO = 1u << 1   /**< this host with I/O (PCI) discovery */
};

/**
 * Optional, for a program that probes: call it once at the start, before it
 * starts threads and before anything calls hwloc.  hwloc loads every plugin
 * it has when a topology is created (here: ~12 ms a process, half of a
 * cached `sysdesc query --host`); this keeps it from loading those the
 * probe never uses: its OpenCL, CUDA, NVML, RSMI and Level Zero backends
 * (the probe leaves them out of host loads anyway) and its GL display
 * backend, and unless `flags` say so its libxml2 XML importer
 * (SYSDESC_PROBE_SETUP_XML) and its PCI discovery (SYSDESC_PROBE_SETUP_IO).
 * It sets HWLOC_PLUGINS_BLACKLIST with setenv(), which is not thread-safe,
 * and leaves a value the environment already has.
 */
SYSDESC_API void sysdesc_probe_setup_process(unsigned flags);

/** Fills `opts` with the defaults (this host, automatic I/O, no warning callback). */
SYSDESC_API void sysdesc_probe_options_init(sysdesc_probe_options *opts);

/**
 * Probes one machine, this host or `opts->xml_path`, and returns its
 * #dlti.target_system_spec: a "CPU" device (always) and "GPU0", "GPU1", ...
 * for the accelerators that I/O discovery or, on this host, a vendor
 * runtime finds, all ids prefixed with `opts->device_prefix`.  `opts` may be NULL (defaults).  Returns NULL with
 * `err` filled when the topology cannot be loaded (DLTI_ERROR_IO), the hook
 * fails (its error) or memory runs out (DLTI_ERROR_NOMEM).
 */
SYSDESC_API const dlti_attr *sysdesc_probe_host(dlti_context *ctx, const sysdesc_probe_options *opts,
                                    dlti_error_t *err);

/**
 * Probes `n` XML files (a cluster gathered by Slurm or MPI jobs) into one
 * system spec: file i gives the devices "node<i>.CPU", "node<i>.GPU0", ...
 * With n == 1 the ids carry no prefix.  `opts` supplies the other options
 * (its xml_path and device_prefix are ignored).  Errors as
 * sysdesc_probe_host(); the error source names the failing file.
 */
SYSDESC_API const dlti_attr *sysdesc_probe_xml_files(dlti_context *ctx, const char *const *paths, size_t n,
                                         const sysdesc_probe_options *opts, dlti_error_t *err);

/**
 * sysdesc_probe_host() into a sysdesc_system, the shape sysdesc_system_load()
 * fills and sysdesc_system_measure() and the typed getters (sysdesc/get.h)
 * take: `spec` the probed system spec, and the data layout of the CPU's
 * `triple` (sysdesc_system_host_layout()), so that layout queries answer
 * this host's ABI.  Returns 0, or -1 with `err` as sysdesc_probe_host();
 * `out` is untouched on failure.  (`sysdesc probe` prints this system.)
 */
SYSDESC_API int sysdesc_system_probe(dlti_context *ctx, const sysdesc_probe_options *opts,
                                     sysdesc_system *out, dlti_error_t *err);

/**
 * Sets `sys->dl_spec` to the data layout of the `triple` key of device
 * `device` (NULL: "CPU"), as `sysdesc dl-import --triple` gives it
 * (dlti_target_dl_find(), dlti_llvm_dl_import()), and `sys->data_layout` to
 * the triple: what a YAML `data_layout: TRIPLE` loads to.  Returns 0 when
 * set; 1, with `sys` untouched, when the device has no string `triple` or the
 * triple table has no row for it (no other target's ABI is guessed); -1
 * with `err`: DLTI_ERROR_ARGUMENT (no system spec), DLTI_ERROR_NOMEM.
 */
SYSDESC_API int sysdesc_system_host_layout(dlti_context *ctx, sysdesc_system *sys,
                                           const char *device, dlti_error_t *err);

/** The hwloc version the library runs with, "2.9.0". */
SYSDESC_API const char *sysdesc_probe_hwloc_version(void);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_PROBE_H */
