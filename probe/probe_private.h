/* probe_private.h - the one private header of the host probe (not installed). */
#ifndef SYSDESC_PROBE_PRIVATE_H
#define SYSDESC_PROBE_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>

#include "sysdesc/dlti.h"
#include "sysdesc/probe.h"
#include "base_private.h" /* errors, buffers, files */
#include "dlti_internal.h"

/* The most an hwloc XML topology may hold, read by
 * sysdesc before hwloc sees it (docs/reliability.md).  Topologies of the
 * largest machines are a few MB. */
#define SYSDESC_PROBE_MAX_XML_BYTES ((size_t)64 << 20)

/* ---- building attributes (util.c) ---- */

/* An entry list that becomes a container: keys keep the order of the adds. */
typedef struct pb_map {
    dlti_entry *e;
    size_t n, cap;
    bool failed; /* out of memory on the way: pb_finish reports it */
} pb_map;

void pb_init(pb_map *m);
void pb_free(pb_map *m);
/* Appends key = v; a NULL v marks the map failed (an allocation failed earlier). */
void pb_add(dlti_context *ctx, pb_map *m, const char *key, const dlti_attr *v);
void pb_i64(dlti_context *ctx, pb_map *m, const char *key, int64_t v);
/* A string value with leading/trailing blanks trimmed; nothing is added when empty or NULL. */
void pb_str(dlti_context *ctx, pb_map *m, const char *key, const char *s);
void pb_bool(dlti_context *ctx, pb_map *m, const char *key, bool v);
/* The first keys of every device the probe creates: device_type = `type`,
 * then schema_version = SYSDESC_SCHEMA_VERSION (sysdesc/version.h). */
void pb_device_head(dlti_context *ctx, pb_map *m, const char *type);
/* Builds the container (NULL with err on failure); frees the list either way. */
const dlti_attr *pb_finish(dlti_context *ctx, pb_map *m, dlti_attr_kind kind, dlti_error_t *err);
/* Adds sub as a #dlti.map under key unless it is empty: an empty map says
 * nothing.  Frees sub either way. */
void pb_add_map(dlti_context *ctx, pb_map *m, const char *key, pb_map *sub, dlti_error_t *err);
/* array<i64: ...> */
const dlti_attr *pb_i64_array(dlti_context *ctx, const int64_t *v, size_t n);
/* ["a", "b"] */
const dlti_attr *pb_str_array(dlti_context *ctx, const char *const *v, size_t n);

/* Warnings and the "suspect" list (util.c). */
typedef struct pb_warn {
    const sysdesc_probe_options *opts;
    const char *prefix;   /* device id prefix, for messages */
    char **suspect;       /* dotted paths inside the CPU device */
    size_t nsuspect, capsuspect;
} pb_warn;

void pb_warning(pb_warn *w, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Flags `path` in "suspect" without a warning: a doubt that the spec notes
 * once (with its `source` saying why) rather than every run repeating it. */
void pb_suspect(pb_warn *w, const char *path);
void pb_warn_free(pb_warn *w);

typedef struct pb_run pb_run;

/* ---- vendor runtimes: one file per runtime adds what it sees with
 * pb_rt_add(); runtime merging matches them to devices (by PCI bus id or
 * UUID), the host CPU included.  docs/runtimes.md is the contract ---- */

/* One device as one runtime source builds it, in the source's process;
 * pb_rt_add turns it into the device's answer, a #dlti.map (rt_text.c), the
 * one form the devices take from there on. */
typedef struct pb_rt_device {
    const char *runtime; /* its key under "runtimes": "opencl", "vulkan", "cuda",
                            "nvml", "rocm", "amd_smi", "level_zero" (static) */
    int ordinal;         /* the runtime's own index of the device */
    char name[128];      /* the device's name as the runtime gives it */
    char driver[160];    /* provenance: runtime and driver versions, "CUDA 12.4, driver 550.54.15" */
    char bus_id[24];     /* "0000:01:00.0" (NVML's "00000000:01:00.0" too: the merge
                            normalises it); "" when the runtime does not say */
    char uuid[48];       /* as the runtime prints it; "" when unknown */
    bool is_cpu;         /* the host CPU itself (pocl, lavapipe): its view goes under the CPU */
    pb_map unified;      /* schema keys at the device's top level (num_compute_units, ...);
                            not used for the host CPU, whose keys are hwloc's */
    pb_map view;         /* this runtime's own view, under runtimes.<runtime> */
    pb_map partitions;   /* partition name -> #dlti.map (MIG instances, Level Zero stacks);
                            merged into the view as runtimes.<runtime>.partitions */
} pb_rt_device;

/* Zeroes d and initialises its maps. */
void pb_rt_init(pb_rt_device *d, const char *runtime, int ordinal);
/* Frees d's maps (a device given up before pb_rt_add). */
void pb_rt_free_device(pb_rt_device *d);
/* Appends d's answer (rt_text.c) to run->rt; d's maps are freed and d is
 * zeroed either way; -1 with err on out of memory. */
int pb_rt_add(pb_run *run, pb_rt_device *d, dlti_error_t *err);
/* Records that a runtime was not asked or not found ("opencl": "libOpenCL.so.1
 * not found"), for the "source" of the devices. */
void pb_rt_skipped(pb_run *run, const char *runtime, const char *why);
/* How many of the `reported` `what` ("devices", "platforms", "sub-devices
 * of device 0") a runtime has are read: at most `max`, and never fewer
 * without a word: a cut is recorded in run->rt_cut ("the runtime reports
 * 70 devices; the first 64 are read (PB_VENDOR_MAX_DEVICES)"), which the
 * answer carries and the probe says (a warning, and CPU.source's
 * "runtimes.<runtime>.cut"). */
size_t pb_rt_cap(pb_run *run, const char *runtime, const char *what, size_t reported, size_t max);
/* The warnings of run->rt_cut (rt_stage.c, after the runtimes' answers
 * are read, fresh or cached; rt_merge.c adds the source lines). */
void pb_rt_say_cuts(pb_run *run);
/* dlopen()s a runtime's library `lib` ("libOpenCL.so.1"); NULL, with the
 * skipped line "LIB not found" (not installed) or "LIB not loaded: dlerror()"
 * for `runtime`, when it cannot. */
void *pb_rt_dlopen(pb_run *run, const char *runtime, const char *lib);
/* Frees what the runtimes added (run.c; pb_run_free calls it). */
void pb_rt_free_all(pb_run *run);

/* ---- clusters (cluster.c): a node's topology as a file or a text, probed
 * as a member of a node class ---- */
typedef struct pb_topology_source {
    const char *buffer;     /* hwloc XML text (len bytes), or NULL: opts->xml_path */
    size_t len;
    const char *label;      /* names the topology in errors ("rank 3"); NULL: the path */
    const char *provenance; /* source.topology says "hwloc XML <this>"; NULL: the label */
} pb_topology_source;

/* sysdesc_probe_host() of a topology given by `xml` (NULL: as opts say). */
const dlti_attr *pb_probe_topology(dlti_context *ctx, const sysdesc_probe_options *opts,
                                   const pb_topology_source *xml, dlti_error_t *err);
/* ---- the runtime sources (runtimes/): CUDA, NVML, ROCm (HSA, AMD SMI),
 * Level Zero, OpenCL, Vulkan, one file each (their shared helpers in
 * runtimes/rt_vendor.c).  Each opens its library with dlopen, adds one
 * pb_rt_device per device it sees and records a missing or failing runtime
 * with pb_rt_skipped; none touches run->topo.  The values and layouts they
 * declare are cited beside them. ---- */

/* A runtime source: runtimes/<name>.c ends in its row, `pb_rt_<name>`, and
 * the list in runtimes/meson.build names it (the build makes the table of
 * rows from that list: pb_runtimes.h).  Adding a runtime is its file and
 * its line there. */
typedef struct pb_rt_source {
    const char *name;   /* its key under "runtimes" and in "source" lines */
    const char *option; /* the word of the runtimes option that asks it */
    unsigned bit;       /* the same as a SYSDESC_RUNTIME_* bit */
    /* Where two runtimes give one device the same key, the lower wins (the
     * other's value goes under "disagreements", docs/runtimes.md): 0-9 a
     * vendor's compute runtime, 10-19 its management library, 20-29 the
     * portable APIs. */
    int priority;
    /* Runs in a child process of its own (rt_child.c), never in the probing
     * process unless opts->runtimes_in_process; only calls pb_rt_init,
     * pb_rt_add, pb_rt_skipped and the pb_map builders over run->ctx. */
    int (*probe)(pb_run *run, dlti_error_t *err);
    /* `sysdesc measure --device` through this runtime (measure/measure_dev.h;
     * its functions in measure/measure_dev_<name>.c); NULL: not measured. */
    const struct md_ops *measure;
} pb_rt_source;
#include "pb_runtimes.h" /* PB_RUNTIME_NAMES: X(cuda) X(nvml) ... */
#define X(name) extern const pb_rt_source pb_rt_##name;
PB_RUNTIME_NAMES
#undef X
#define X(name) +1
enum { PB_RT_NSOURCES = 0 PB_RUNTIME_NAMES };
#undef X
/* Every row, in runtimes/meson.build's order: the order of their devices
 * within one runtime key (rt_registry.c). */
extern const pb_rt_source *const pb_rt_sources[PB_RT_NSOURCES];

/* The most devices (and partitions of one device) a vendor probe reads,
 * whatever the runtime says. */
#define PB_VENDOR_MAX_DEVICES 64
/* A symbol of lib (NULL when absent). */
void *pb_vendor_sym(void *lib, const char *name);
/* Sets the function pointer `fp` to dlsym()'s data pointer `sym` (POSIX
 * guarantees the conversion; memcpy keeps it free of type punning): the
 * one spelling of it, for every runtime source and measurement (needs
 * <string.h>). */
#define PB_VENDOR_FN(fp, sym)                                                                 \
    do {                                                                                      \
        void *pb_vendor_sym_ = (sym);                                                         \
        memcpy(&(fp), &pb_vendor_sym_, sizeof(pb_vendor_sym_));                               \
    } while (0)
/* Records "<soname> lacks <symbol>" and closes lib: for a required entry point. */
void pb_vendor_lacks(pb_run *run, const char *runtime, void *lib, const char *soname,
                     const char *symbol);
/* out = "dddd:bb:dd.f" in lower-case hex from the runtime's text
 * ("00000000:1B:00.0", "0000:1b:00.0"); false (out "") when it is none. */
bool pb_vendor_bus_id(const char *text, char out[16]);
/* out = "dddd:bb:dd.f" from the numbers; false (out "") when out of range. */
bool pb_vendor_bus_id_of(uint64_t domain, uint64_t bus, uint64_t device, uint64_t function,
                         char out[16]);
/* out = prefix + the 16 bytes as 8-4-4-4-12 lower-case hex. */
void pb_vendor_uuid(const unsigned char bytes[16], const char *prefix, char *out, size_t size);
/* Copies the string a runtime wrote into buf[size] to out; when buf holds
 * no NUL (an unterminated buffer) the text is not trusted: out = "", false. */
bool pb_vendor_text(const char *buf, size_t size, char *out, size_t outsize);
/* view[key] = the environment variable `var`, when it is set. */
void pb_vendor_env(dlti_context *ctx, pb_map *view, const char *key, const char *var);
/* The runtime stage (rt_stage.c), in two sources so that the runtimes
 * answer while the others (the CPU's, which asks the compilers) run:
 * pb_probe_runtimes_start, first of all, looks in the cache and, for what
 * it lacks, starts asking the runtimes the options choose (in bounded
 * time); pb_probe_runtimes, later, takes their answers (starting the ask
 * itself when no start ran) and merges what they saw into run->devices:
 * the host CPU's runtime views under CPU.runtimes, each GPU's runtimes
 * matched to it by PCI bus id or UUID (a GPU no hwloc device stands for
 * becomes a new one).  Host probes only; 0, or -1 with err (out of
 * memory).  pb_probe_runtimes_end (the driver's, at its end) abandons an
 * ask no one waited for. */
int pb_probe_runtimes_start(pb_run *run, dlti_error_t *err);
int pb_probe_runtimes(pb_run *run, dlti_error_t *err);
void pb_probe_runtimes_end(pb_run *run);

/* The source whose name (its key under "runtimes") is the `len` bytes at
 * `name`; NULL when none is. */
const pb_rt_source *pb_rt_find(const char *name, size_t len);

/* rt_text.c: what runtime sources saw, in its one form: a #dlti.map (the
 * child's answer and the body of a cache entry).  pb_rt_print prints
 * run->rt, run->rt_skipped, run->rt_cut and `libraries` (may be NULL); NULL
 * when out of memory.  pb_rt_accept checks such a map (the keys and kinds a
 * source writes, the unified keys by the table below) and adds its devices'
 * maps, as they are, and its skipped and cut lines to `run`; -1 (run
 * unchanged) when it is not one. */
char *pb_rt_print(pb_run *run, const dlti_attr *libraries, size_t *len);
int pb_rt_accept(pb_run *run, const dlti_attr *answer);
/* A field of a device's answer map: any (NULL when absent), a string ("" when
 * absent), its ordinal, whether it is the host CPU. */
const dlti_attr *pb_rt_get(const dlti_attr *dev, const char *key);
const char *pb_rt_text(const dlti_attr *dev, const char *key);
int pb_rt_ordinal(const dlti_attr *dev);
bool pb_rt_is_cpu(const dlti_attr *dev);
/* The keys a runtime's "unified" map may hold, and their kinds: the reader
 * refuses an answer with any other (rt_text.c). */
typedef enum pb_rt_kind { PB_RT_I64, PB_RT_BOOL, PB_RT_STRING, PB_RT_I64_ARRAY } pb_rt_kind;
typedef struct pb_rt_unified_key {
    const char *name;
    pb_rt_kind kind;
} pb_rt_unified_key;
size_t pb_rt_unified_count(void);
const pb_rt_unified_key *pb_rt_unified_at(size_t i);
/* The shared objects loaded in this process, path -> "inode:size:mtime"
 * (the runtime libraries and their drivers: a cache entry holds them and is
 * stale when one changed); NULL when out of memory. */
const dlti_attr *pb_rt_libraries(dlti_context *ctx);
/* Whether every library of such a map is still the same file. */
bool pb_rt_libraries_unchanged(const dlti_attr *libraries);

/* rt_child.c: runs `n` jobs at once, each fn(args[i], progress_fd, &len) in a
 * forked child of its own that must answer within `timeout_ms`.  fn returns
 * its malloc'ed answer (NULL: out of memory) and may write lines ending in
 * '\n' to progress_fd (-1 when on_line is NULL), which the parent hands to
 * on_line(user, i, line) as they come.  texts[i] gets job i's answer, or
 * NULL with whys[i] saying what happened: "no answer within 20000 ms:
 * abandoned (killed)", "crashed in WHAT (signal 11, ...)", "WHAT exited
 * with status 3" (WHAT: "its probe", "its measurement").  Returns -1 only
 * when out of memory. */
#define PB_RT_WHY 256
typedef char *(*pb_child_fn)(void *arg, int progress_fd, size_t *len);
typedef void (*pb_child_line_fn)(void *user, size_t job, const char *line);
int pb_child_run(pb_child_fn fn, void *const *args, size_t n, unsigned timeout_ms,
                 const char *what, pb_child_line_fn on_line, void *user, char **texts,
                 char (*whys)[PB_RT_WHY]);
/* pb_child_run in two halves, so that the caller works while the children
 * do: pb_child_start forks them (the bound counts from here; whys[i] is
 * set now for a job that could not start, and must live until the wait);
 * NULL when out of memory.  pb_child_wait reads them until they have
 * answered or the bound has passed, and frees the handle; pb_child_abandon
 * does so with the bound passed (what still runs is killed at once).
 * pb_child_deadline: the bound, CLOCK_MONOTONIC ms. */
typedef struct pb_children pb_children;
pb_children *pb_child_start(pb_child_fn fn, void *const *args, size_t n, unsigned timeout_ms,
                            const char *what, pb_child_line_fn on_line, void *user,
                            char (*whys)[PB_RT_WHY]);
void pb_child_wait(pb_children *c, char **texts);
void pb_child_abandon(pb_children *c, char **texts);
int64_t pb_child_deadline(const pb_children *c);

/* rt_child.c: asks the `n` sources `src` at once, each in a forked child
 * of its own that must answer within opts->runtime_timeout_ms (the bound
 * the probe's programs share from then: run->programs_deadline_ms), or one
 * after the other in this process, at the wait, when
 * opts->runtimes_in_process.  pb_rt_ask_start returns NULL only when out of
 * memory.  pb_rt_ask_wait: texts[i] gets source i's malloc'ed answer
 * (pb_rt_print), or NULL with whys[i] saying what happened ("no answer
 * within 20000 ms: abandoned (killed)", "crashed in its probe (signal 11,
 * ...)"); it frees the handle, as pb_rt_ask_abandon does (a probe that
 * failed before the wait: what still runs is killed). */
typedef struct pb_rt_asking pb_rt_asking;
pb_rt_asking *pb_rt_ask_start(pb_run *run, const pb_rt_source *const *src, size_t n);
void pb_rt_ask_wait(pb_rt_asking *a, char **texts, char (*whys)[PB_RT_WHY]);
void pb_rt_ask_abandon(pb_rt_asking *a);
/* The default bound of a runtime's answer (sysdesc_probe_options.runtime_timeout_ms 0). */
#define PB_RT_TIMEOUT_MS 20000
/* The most an answer may hold, a child's or a cache entry's: the largest
 * real answer is tens of KiB (8 GPUs with MIG partitions, every runtime). */
#define PB_RT_MAX_ANSWER_BYTES ((size_t)4 << 20)

/* rt_cache.c: the cache of the runtimes' answers ($XDG_CACHE_HOME/sysdesc).
 * pb_rt_cache_key builds the key of this host and options into `key`;
 * pb_rt_cache_read returns the entry's answer parsed into run->ctx when a
 * valid, current one exists (NULL otherwise: absent, corrupt, stale);
 * pb_rt_cache_write stores `text` (an answer) under `key` atomically and
 * quietly does nothing when it cannot. */
void pb_rt_cache_key(pb_run *run, unsigned asked, bs_buf *key);
const dlti_attr *pb_rt_cache_read(pb_run *run, const char *key);
void pb_rt_cache_write(pb_run *run, const char *key, const char *text, size_t len);
/* cache.c, the probe's cache underneath (the runtimes' answers, the
 * compilers' checks): an entry DIR/KIND-HASH.mlir is
 * #dlti.map<"key" = KEY, FIELDS>.  pb_cache_lookup returns the whole map
 * when the file is this user's, parses and holds exactly `key`;
 * pb_cache_store writes `fields` ("name" = value, ...) atomically and
 * prunes week-old entries. */
const dlti_attr *pb_cache_lookup(pb_run *run, const char *kind, const char *key);
void pb_cache_store(pb_run *run, const char *kind, const char *key, const char *fields,
                    size_t len);
/* "env NAME=VALUE" lines of the variables with one of `prefixes`, sorted;
 * those starting with `skip` (NULL: none) left out. */
void pb_cache_key_env(bs_buf *key, const char *const *prefixes, size_t nprefixes,
                      const char *skip);
/* The SYSDESC_RUNTIME_* bits a probe asks (runtimes/rt_stage.c). */
unsigned pb_rt_asked_bits(const sysdesc_probe_options *o);



/* rt_merge.c: the runtimes' devices into run->devices (pb_probe_runtimes' second half). */
int pb_rt_merge(pb_run *run, dlti_error_t *err);
/* rt_merge.c: a PCI bus id as "dddd:bb:dd.f" ("" when it is not one; CUDA and
 * NVML write "00000000:01:00.0"), a UUID as its 32 lower-case hex digits
 * without "GPU-" or dashes ("" when it has not 32): how the merge and the
 * allocation (gpu_allocation.c) match runtime devices to GPUs. */
void pb_rt_norm_bus_id(const char *in, char out[16]);
void pb_rt_norm_uuid(const char *in, char out[33]);

/* The normalised vendor of a well-known PCI vendor id ("NVIDIA", "AMD",
 * "Intel", ...), NULL for others (pci.c). */
const char *pb_known_vendor(unsigned vendor_id);

/* A GPU the system spec holds: the PCI source's and the runtimes' own, in
 * device order.  The catalog hook runs over them last (pb_fill_gpus), so
 * that live values are in place before the catalog fills the rest. */
typedef struct pb_gpu {
    char id[300];          /* "GPU0", "node1.GPU0" */
    bool has_pci;          /* pci holds its PCI identity */
    sysdesc_pci_info pci;  /* its device_id_str is set to id for each hook call */
} pb_gpu;

/* Appends a GPU record (pci may be NULL); NULL when out of memory. */
pb_gpu *pb_gpu_add(pb_run *run, const char *id, const sysdesc_pci_info *pci);
/* The caller's pci_match hook (the catalog, for the CLI) over every GPU
 * with a PCI identity; 0, or -1 with err (the hook's error). */
int pb_fill_gpus(pb_run *run, dlti_error_t *err);

/* ---- the run and its sources ---- */

/* One probe of one topology (this host or an XML file).  A source is a
 * function over the run that adds devices, or keys, with their provenance;
 * the vendor runtimes are sources too, one file each ending in its row
 * (pb_rt_source). */
struct pb_run {
    dlti_context *ctx;
    const sysdesc_probe_options *opts;
    hwloc_topology_t topo;
    pb_topology_source xml; /* a node of a cluster: its text and names (cluster.c) */
    bool host;              /* this machine: /proc, sysfs and CPUID describe it too */
    bool io;                /* the topology was loaded with its PCI and OS devices */
    hwloc_bitmap_t allowed; /* PUs the counts are of: this process's, or every PU (whole node) */
    hwloc_bitmap_t process_cpus; /* PUs this process may use (cgroup cpuset and affinity) */
    char prefix[256];       /* of every device id: "" or "node<i>." */
    pb_map devices;         /* the system spec: device id -> target_device_spec */
    /* The CPU's provenance (key path -> where the value came from): the CPU
     * source stores it as CPU.source, so later sources give their devices
     * their own "source" map, as pci.c does. */
    pb_map source;
    pb_warn warn; /* sanity warnings; their paths become CPU.suspect */
    /* What the vendor runtimes saw: each device's answer map (pb_rt_add,
     * pb_rt_accept), merged into devices later. */
    const dlti_attr **rt;
    size_t nrt, caprt;
    pb_map rt_skipped; /* runtime -> why it was not asked or not found */
    pb_map rt_cut;     /* runtime -> what of its devices was not read (pb_rt_cap) */
    const char *rt_origin; /* how the runtimes answered (the CPU's source "runtimes"); NULL: not asked */
    struct pb_rt_stage *rt_stage; /* between the stage's start and its answers (rt_stage.c) */
    /* The GPUs of run->devices, for the merge and the catalog hook. */
    pb_gpu *gpus;
    size_t ngpus, capgpus;
    /* The accelerators that are no GPU (ACCEL0, ...), for the catalog hook
     * only: no runtime merges into them, no visibility variable hides them. */
    pb_gpu *accels;
    size_t naccels, capaccels;
    /* The one deadline of every program the probe runs (programs.c;
     * CLOCK_MONOTONIC ms): 0 until the first runs. */
    int64_t programs_deadline_ms;
};

/* A run over `opts` building in `ctx` (no topology yet: driver.c loads one);
 * pb_run_free frees what it holds. */
void pb_run_init(pb_run *run, dlti_context *ctx, const sysdesc_probe_options *opts);
void pb_run_free(pb_run *run);

/* A source: 0, or -1 with err set.  driver.c runs them in a fixed order,
 * which is the order of the devices in the output. */
typedef int (*pb_probe_fn)(pb_run *run, dlti_error_t *err);
int pb_probe_cpu(pb_run *run, dlti_error_t *err); /* cpu.c: the CPU device */
int pb_probe_pci(pb_run *run, dlti_error_t *err); /* pci.c: GPUs and accelerators */
/* locality.c: GPUs' NUMA nodes, the CPU's network devices (with I/O discovery) */
int pb_probe_locality(pb_run *run, dlti_error_t *err);

/* Records where the CPU key at `path` came from; nothing when `what` is NULL. */
void pb_provenance(pb_run *run, const char *path, const char *what);

/* ---- hwloc access (util.c): what differs between 2.x and 3.x, and what
 * this process may use ---- */

/* An info value of obj (NULL obj or no such info: NULL). */
const char *pb_info(hwloc_obj_t obj, const char *name);
/* A decimal (or 0x hex) info value; -1 when absent or not a number. */
int64_t pb_info_num(hwloc_obj_t obj, const char *name);
unsigned pb_info_count(hwloc_obj_t obj);
const struct hwloc_info_s *pb_info_at(hwloc_obj_t obj, unsigned i);
/* Whether this process may use (part of) o: a NUMA node by the allowed
 * nodeset (cgroup cpuset.mems), anything else by its cpuset (run->allowed);
 * everything for the whole node's view (pb_whole_node). */
bool pb_usable(const pb_run *run, hwloc_obj_t o);

/* Copies src into dst (size bytes), cut to fit, always NUL-terminated. */
void pb_copy(char *dst, size_t size, const char *src);

/* When hwloc would load this host's topology from HWLOC_XMLFILE by itself,
 * reads that file (bs_input_open: a regular file, the XML size limit) and
 * gives hwloc its text: 0 (*text: what to free after hwloc_topology_load,
 * NULL when the variable does not apply) or -1 with err set. */
int pb_topology_env_xml(hwloc_topology_t topo, char **text, dlti_error_t *err);

/* `in` as a terminal may show it: control bytes (C0, DEL, C1) and bytes that
 * are not UTF-8 become \xHH; cut to fit `size` (NUL included). */
void pb_terminal_text(char *out, size_t size, const char *in);

/* Reads up to size-1 bytes of a file into buf (NUL-terminated); -1 when unreadable. */
int pb_read_file(const char *path, char *buf, size_t size);

/* ---- the CPU device's steps, by file (cpu.c runs them in order) ---- */

/* cpu_topology.c */
void pb_cpu_identity(pb_run *run, pb_map *dev);
/* An identity info (CPUVendor, CPUFamilyNumber, CPUPart...) of the first
 * usable package or PU, or of the root; NULL when none has it. */
const char *pb_cpu_info(const pb_run *run, const char *name);
void pb_cpu_counts(pb_run *run, pb_map *dev);
void pb_cpu_frequency(pb_run *run, pb_map *dev);
void pb_cpu_kinds(pb_run *run, pb_map *dev, dlti_error_t *err);

/* cpu_caches.c: one level and kind of cache, in the order of the "cache" map
 * (L1, L1i, L2, L2i, L3, L3i, L4, L5). */
#define PB_NCACHES 8
typedef struct pb_cache {
    const char *name; /* its key in "cache" */
    hwloc_obj_type_t type;
    int level;
    bool icache;
    bool present;
    int ctype; /* hwloc_obj_cache_type_t, -1 unknown */
    int64_t size, line, assoc, inst, tpi, min, max;
    int inclusive;      /* -1 unknown */
    const char *source; /* "hwloc" or "cpuid" */
} pb_cache;

void pb_caches_find(pb_run *run, pb_cache caches[PB_NCACHES]);
/* Sanity warnings: implausible values are flagged (suspect), never changed. */
void pb_caches_check(pb_run *run, const pb_cache caches[PB_NCACHES], int64_t mem_total);
/* L1_cache_size_in_bytes ... L3_cache_size_in_bytes, the keys MLIR users read. */
void pb_caches_flat_keys(dlti_context *ctx, pb_map *dev, const pb_cache caches[PB_NCACHES]);
/* The "cache" map. */
void pb_caches_add(pb_run *run, pb_map *dev, const pb_cache caches[PB_NCACHES],
                   dlti_error_t *err);

/* memory.c: the memory this process may use, and the allowed NUMA nodes'
 * memory.  Found before the caches are checked (a cache larger than the
 * memory is suspect), written after them. */
typedef struct pb_memory {
    int64_t total;        /* bytes this process may use (docs/keys.md, "memory"), -1 unknown */
    int64_t numa_total;   /* the allowed NUMA nodes' sum, -1 unknown */
    int64_t os_total;     /* this host's /proc/meminfo MemTotal, -1 unknown or not this host */
    int64_t cgroup_limit; /* this host's cgroup limit, -1 none */
    char cgroup_source[1300];
    int64_t node[1024];
    size_t nnode;
    const struct hwloc_memory_page_type_s *pages; /* of the first node that has any */
    unsigned npages;
} pb_memory;

void pb_memory_find(const pb_run *run, pb_memory *mem);
/* The "memory" map (and its provenance and warnings). */
void pb_memory_add(pb_run *run, pb_map *dev, const pb_memory *mem, dlti_error_t *err);

/* allocation.c: the CPU's "allocation" map, what this process may use (its
 * CPUs and NUMA nodes, the cgroup's CPU quota and memory limit, the cgroup
 * and the Slurm job and step it runs in), with the provenance of each; this
 * host only (docs/allocation.md). */
void pb_cpu_allocation(pb_run *run, pb_map *dev, const pb_memory *mem, dlti_error_t *err);
/* Whether the probe gives the node's view instead of this process's
 * allocation: sysdesc_probe_options.whole_node on this host.  Inline: a
 * fact of the run that the helpers (pb_usable) and the sources read. */
static inline bool pb_whole_node(const pb_run *run)
{
    return run->host && run->opts->whole_node;
}

/* visible_devices.c: the GPU visibility variables, parsed as the runtimes
 * parse them (docs/allocation.md).  A device as a list can name it: its
 * place in the runtime's enumeration is its index in the array. */
typedef struct pb_vis_device {
    const char *uuid;         /* "GPU-8932f937-d72c-..." as the runtime prints it; NULL unknown */
    const char *const *parts; /* its partitions' UUIDs ("MIG-..."); NULL none */
    size_t nparts;
} pb_vis_device;
/* One device the list makes visible: devs[device], whole (part -1) or its
 * partition parts[part]; in the list's order. */
typedef struct pb_vis_pick {
    size_t device;
    int part;
} pb_vis_pick;
/* CUDA_VISIBLE_DEVICES (and the ROCm lists, which follow it, each entry an
 * index or a UUID: `mixed`) over the `n` devices of the runtime's
 * enumeration: up to `max` picks in the list's order; returns their number.
 * `value` "" (set but empty): none. */
size_t pb_vis_list(const char *value, const pb_vis_device *devs, size_t n, bool mixed,
                   pb_vis_pick *out, size_t max);
/* ZE_AFFINITY_MASK over `n` devices: "D" or "D.S" entries, picks in the
 * driver's order (the mask's order does not matter), a device named with
 * several sub-devices once per sub-device; returns their number.  An empty
 * mask is no mask: every device. */
size_t pb_vis_ze_mask(const char *value, size_t n, pb_vis_pick *out, size_t max);
/* The environment variables that hide GPUs, NULL-terminated: the runtimes'
 * children of a whole-node probe run without them. */
extern const char *const pb_vis_variables[];

/* gpu_allocation.c: the GPUs this process may use (a source, after the
 * runtimes): those the visibility variables hide are taken out, the others
 * numbered in their runtime's order and given an "allocation" map; nothing
 * changes when no variable is set, for a whole-node probe or another
 * machine's topology. */
int pb_probe_gpu_allocation(pb_run *run, dlti_error_t *err);

/* isa.c: ISA features of the CPU running this code (host probes only). */
typedef struct pb_isa {
    const char *features[128];
    size_t nfeatures;
    int64_t max_vector_op_width;  /* bits, 0 when unknown */
    int64_t sve_vector_length;    /* bits (aarch64 with SVE), 0 otherwise */
    const char *source;           /* "cpuid+xgetbv", "hwcap", NULL when nothing known */
} pb_isa;

void pb_isa_detect(pb_isa *isa);

/* ---- cpu_uarch.c: the microarchitecture (probe/uarch/uarch.h), the
 * triple and the compiler map; after the ISA, which the recogniser reads ---- */
void pb_cpu_uarch(pb_run *run, pb_map *dev, const pb_isa *isa, dlti_error_t *err);

/* ---- uarch_keys.c: the keys one table row implies, for the probe and for
 * sysdesc_uarch_keys() alike (one code path) ---- */
struct pb_uarch;
struct pb_cc;
/* An installed compiler the compiler map is for (compilers.c). */
typedef struct pb_cc_installed {
    char path[1024];              /* as named, or found on PATH */
    char version[64];             /* "12.2.0" */
    const struct pb_cc *accepted; /* the chain's entry it compiled; NULL: by version alone */
} pb_cc_installed;
/* programs.c: runs argv (argv[0] a path) as the runtimes' children run
 * (pb_child_run: a process group of its own, killed with it and with
 * sysdesc), within what is left of the probe's one deadline for programs
 * (opts->runtime_timeout_ms from the first program run): its stdout (and
 * stderr with `with_stderr`) into `out` (NUL-terminated, cut at `size`;
 * NULL: dropped).  Its exit status, or -1 with `why` saying what kept it
 * from answering (the bound, "could not be run: pipe: Too many open
 * files", a signal): a reason of the environment, for a warning. */
int pb_program_run(pb_run *run, char *const argv[], bool with_stderr, char *out, size_t size,
                   char *why, size_t why_size);
/* The installed LLVM compiler.llvm.cpu was checked against (compilers.c). */
typedef struct pb_llvm_checked {
    char path[1024];              /* `llc` as named, or found on PATH */
    char version[64];             /* "14.0.6" */
    const char *cpu;              /* the first name of the row's LLVM chain it knows */
    const struct pb_uarch *from;  /* the row that name is of: u or an ancestor */
} pb_llvm_checked;
/* compilers.c: the installed compilers `opts->gcc` and `opts->clang` name
 * ("gcc", "clang" on PATH when NULL; "" none): each one's path, version
 * and the first entry of u's chain (uarch.h) it compiles; and the installed
 * `llc` (`opts->llc`; "llc" on PATH when NULL; "" none): its version and
 * the first name of u's LLVM chain (uarch.h, pb_uarch_llvm_chain, from
 * `llvm`) that `llc -mcpu=help` lists for the triple.  Each is read from
 * the cache or asked of the program, the three at once (threads of their
 * own, their programs under the probe's one bound: pb_program_run), and
 * recorded in order: CPU.source["compiler.gcc"], ["compiler.clang"],
 * ["compiler.llvm"] ("not checked" when there is no llc or it knows none
 * of the names), a warning for one that could not answer.  *has_X false
 * (and X zeroed) when none was found, none of the flags compiled, or llc
 * knew none of the names. */
void pb_compilers_ask(pb_run *run, const struct pb_uarch *u, const char *llvm,
                      pb_cc_installed *gcc, pb_cc_installed *clang, pb_llvm_checked *llc,
                      bool *has_gcc, bool *has_clang, bool *has_llc);
/* The compiler map: compiler.gcc and compiler.clang, compiler.llvm.cpu =
 * llvm, or the row's LLVM name when NULL, or the name `llc` (NULL: none
 * checked) knows, with its version and path (and the ancestor the name is
 * of, when not u).  For a compiler given (gcc, clang; NULL: none), its
 * entry is the one it accepted, else the first of the chain whose range
 * holds its version, with its version and path; for none, the table's
 * newest entry (uarch.h, pb_uarch_compiler).  Each with the fallback an
 * older compiler takes.  NULL with err on out of memory. */
const dlti_attr *pb_uarch_compiler_map(dlti_context *ctx, const struct pb_uarch *u,
                                       const char *llvm, const pb_cc_installed *gcc,
                                       const pb_cc_installed *clang, const pb_llvm_checked *llc,
                                       dlti_error_t *err);
/* Appends uarch, uarch_ancestors (when any), triple and compiler to dev. */
void pb_uarch_keys(dlti_context *ctx, pb_map *dev, const struct pb_uarch *u, const char *llvm,
                   const pb_cc_installed *gcc, const pb_cc_installed *clang,
                   const pb_llvm_checked *llc, dlti_error_t *err);

/* x86 CPUID deterministic cache parameters (leaf 4 / 0x8000001D) for
 * `level` (1..3) and type (1 data, 2 instruction, 3 unified); returns 0 and
 * fills the fields, or -1 (not x86, not reported). */
int pb_cpuid_cache(int level, int want_instruction, int64_t *size, int64_t *line, int64_t *ways,
                   int64_t *sharing);

#endif
