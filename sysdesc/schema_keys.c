/* The device schema (sysdesc/schema.h): every key a device spec may hold.
 * This table is the single source: docs/keys.md is checked against it
 * (tests/sysdesc/schema_docs.sh), the checker and `sysdesc summary` read it.
 * Order: documentation order, a map before the keys inside it. */
#include "sysdesc_private.h"

#include <stdint.h>

#define CPU SYSDESC_DEVICE_CPU
#define GPU SYSDESC_DEVICE_GPU
#define ACC SYSDESC_DEVICE_ACCEL
#define ANY (SYSDESC_DEVICE_CPU | SYSDESC_DEVICE_GPU) /* CPU and GPU, not ACCEL */
#define ALL SYSDESC_DEVICE_ALL                        /* every device type */
#define GACC (SYSDESC_DEVICE_GPU | SYSDESC_DEVICE_ACCEL) /* GPUs and accelerators */
#define I64 SYSDESC_VALUE_I64
#define F64 SYSDESC_VALUE_F64
#define BOOL SYSDESC_VALUE_BOOL
#define STR SYSDESC_VALUE_STRING
#define INTS SYSDESC_VALUE_I64_ARRAY
#define STRS SYSDESC_VALUE_STRING_LIST
#define MAP SYSDESC_VALUE_MAP
#define OPEN SYSDESC_VALUE_OPEN_MAP
#define FACT SYSDESC_KEY_FACT
#define LIMIT SYSDESC_KEY_LIMIT
#define PEAK SYSDESC_KEY_PEAK
#define BOOK SYSDESC_KEY_BOOKKEEPING
#define BIG INT64_MAX
#define PCI_ID_MAX 0xffff

/* The keys of a `measured` map that the CPU's own measurement and a
 * device's share (P: the map's path and a dot, D: the device types, LBL:
 * whether `sysdesc summary` shows them). */
#define MEASURED_COMMON(P, D, LBL)                                                         \
    {P "method", STR, NULL, D, 0, BOOK, 0, 0, NULL,                                        \
     "how: samples, byte and FLOP counts, kernels", NULL, NULL},                           \
    {P "date", STR, NULL, D, 0, BOOK, 0, 0, NULL, "when, UTC (ISO 8601)", NULL, NULL},    \
    {P "sysdesc_version", STR, NULL, D, 0, BOOK, 0, 0, NULL, "the sysdesc that measured",  \
     NULL, NULL},                                                                          \
    {P "mode", STR, NULL, D, 0, BOOK, 0, 0, NULL, "quick, default or full", NULL, NULL},   \
    {P "statistic", STR, NULL, D, 0, BOOK, 0, 0, NULL,                                     \
     "what each value is of its samples: median (the CPU's own kernels), best (a device's " \
     "launches); absent: best, as every measurement before this key",                      \
     NULL, NULL},                                                                          \
    {P "repeats", I64, NULL, D, 0, BOOK, 1, BIG, NULL,                                     \
     "the fewest samples (a device's: timed launches) any value is taken over", NULL,      \
     NULL},                                                                                \
    {P "frequency_mhz", I64, "MHz", D, 0, PEAK, 1, 100000, NULL,                           \
     "the clock achieved while measuring: a CPU's by a chain of dependent integer adds, a " \
     "GPU's SMs by their cycle counter against the global timer (CUDA)",                   \
     (LBL) ? "measured clock" : NULL, NULL},                                               \
    {P "peak_ops_per_second", MAP, NULL, D, 0, PEAK, 0, 0, NULL,                           \
     "FMA rate of the whole device (FLOP/s: an FMA is 2): every allowed CPU, every compute " \
     "unit",                                                                               \
     NULL, NULL},                                                                          \
    {P "peak_ops_per_second.fp64_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL,           \
     "f64 FMA, the widest vectors", (LBL) ? "measured FP64" : NULL, NULL},                 \
    {P "peak_ops_per_second.fp32_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL,           \
     "f32 FMA, the widest vectors", (LBL) ? "measured FP32" : NULL, NULL},                 \
    {P "memory_bandwidth_in_bytes_per_second", I64, "bytes/s", D, 0, PEAK, 1, BIG, NULL,   \
     "= levels.memory.triad_bandwidth_in_bytes_per_second (STREAM triad)",                 \
     (LBL) ? "measured memory bw" : NULL, NULL},                                           \
    {P "levels", MAP, NULL, D, 0, PEAK, 0, 0, "L1 L2 L3 L4 memory local",                  \
     "one map per level measured: the CPU's data caches, a device's local (shared) memory " \
     "and L2, and memory",                                                                 \
     NULL, NULL},                                                                          \
    {P "levels.*", MAP, NULL, D, 0, PEAK, 0, 0, NULL, "one level", NULL, NULL},            \
    {P "levels.*.working_set_in_bytes", I64, "bytes", D, 0, BOOK, 1, BIG, NULL,            \
     "the bytes a run spans: one CPU thread's; a device's kernel's", NULL, NULL},          \
    {P "levels.*.read_bandwidth_in_bytes_per_second", I64, "bytes/s", D, 0, PEAK, 1, BIG,  \
     NULL, "sum of a[i], all threads or work-items", NULL, NULL},                          \
    {P "levels.*.triad_bandwidth_in_bytes_per_second", I64, "bytes/s", D, 0, PEAK, 1, BIG, \
     NULL, "a[i] = b[i] + s * c[i], three bytes counted for each byte of a, all threads or " \
     "work-items",                                                                         \
     NULL, NULL},                                                                          \
    {P "levels.*.bounded", STR, NULL, D, 0, BOOK, 0, 0, NULL,                              \
     "what the mode's bound changed: working sets capped, or the single-thread runs left " \
     "out (docs/measure.md, \"Bounds\")",                                                  \
     NULL, NULL},                                                                          \
    {P "skipped", MAP, NULL, D, 0, BOOK, 0, 0,                                             \
     "L1 L2 L3 L4 memory local fp64_vector fp16_vector frequency_mhz",                     \
     "what was not measured, each with why (a suspect size, the mode's bound, what the "   \
     "device or its runtime lacks)",                                                       \
     NULL, NULL},                                                                          \
    {P "skipped.*", STR, NULL, D, 0, BOOK, 0, 0, NULL, "why it was not measured", NULL,    \
     NULL},                                                                                \
    {P "duration_in_seconds", F64, "s", D, 0, BOOK, 0, 0, NULL,                            \
     "how long the runs took (a device's: after its runtime's start and kernel build)",     \
     NULL, NULL}

/* A twin of the measured values' tree (docs/measure.md, "Samples"): P the
 * twin's path and a dot; TI, TF the types of the values that are integers
 * (bytes/s, MHz) and f64 (FLOP/s, ns) there; UB, UO, UN, UM their units
 * (bytes/s, ops/s, ns, MHz; NULL for a twin without units); C the class;
 * LO the integers' least value, FR the least and largest value of the TF
 * ones (0, 0: none); W what a key of the twin holds. */
#define ZERO2 0, 0    /* FR of a twin whose TF values are f64: no range */
#define ONE_UP 1, BIG /* FR of a twin whose TF values are counts */
#define MEASURED_TWIN(P, TI, TF, UB, UO, UN, UM, C, LO, FR, W)                             \
    {P "frequency_mhz", TI, UM, CPU, 0, C, LO, BIG, NULL, W ": the achieved clock", NULL,  \
     NULL},                                                                                \
    {P "peak_ops_per_second", MAP, NULL, CPU, 0, C, 0, 0, NULL,                            \
     W ": FMA rates, all threads", NULL, NULL},                                            \
    {P "peak_ops_per_second.fp64_vector", TF, UO, CPU, 0, C, FR, NULL, W ": f64 FMA",      \
     NULL, NULL},                                                                          \
    {P "peak_ops_per_second.fp32_vector", TF, UO, CPU, 0, C, FR, NULL, W ": f32 FMA",      \
     NULL, NULL},                                                                          \
    {P "peak_ops_per_second_single_thread", MAP, NULL, CPU, 0, C, 0, 0, NULL,              \
     W ": FMA rates, one thread", NULL, NULL},                                             \
    {P "peak_ops_per_second_single_thread.fp64_vector", TF, UO, CPU, 0, C, FR, NULL,       \
     W ": f64 FMA, one thread", NULL, NULL},                                               \
    {P "peak_ops_per_second_single_thread.fp32_vector", TF, UO, CPU, 0, C, FR, NULL,       \
     W ": f32 FMA, one thread", NULL, NULL},                                               \
    {P "memory_bandwidth_in_bytes_per_second", TI, UB, CPU, 0, C, LO, BIG, NULL,           \
     W ": memory triad, all threads", NULL, NULL},                                         \
    {P "levels", MAP, NULL, CPU, 0, C, 0, 0, "L1 L2 L3 L4 memory", W ": one map a level",  \
     NULL, NULL},                                                                          \
    {P "levels.*", MAP, NULL, CPU, 0, C, 0, 0, NULL, W ": one level", NULL, NULL},         \
    {P "levels.*.read_bandwidth_in_bytes_per_second", TI, UB, CPU, 0, C, LO, BIG, NULL,    \
     W ": read, all threads", NULL, NULL},                                                 \
    {P "levels.*.triad_bandwidth_in_bytes_per_second", TI, UB, CPU, 0, C, LO, BIG, NULL,   \
     W ": triad, all threads", NULL, NULL},                                                \
    {P "levels.*.read_bandwidth_single_thread_in_bytes_per_second", TI, UB, CPU, 0, C, LO, \
     BIG, NULL, W ": read, one thread", NULL, NULL},                                       \
    {P "levels.*.triad_bandwidth_single_thread_in_bytes_per_second", TI, UB, CPU, 0, C,    \
     LO, BIG, NULL, W ": triad, one thread", NULL, NULL},                                  \
    {P "levels.*.latency_in_ns", TF, UN, CPU, 0, C, FR, NULL, W ": latency, one thread",   \
     NULL, NULL}

/* The keys only a device's `measured` map has (docs/measure.md, "Devices"). */
#define MEASURED_DEVICE(P, D)                                                              \
    {P "runtime", STR, NULL, D, 0, BOOK, 0, 0, NULL,                                       \
     "the runtime the kernels ran through: cuda, opencl, vulkan", NULL, NULL},             \
    {P "driver", STR, NULL, D, 0, BOOK, 0, 0, NULL,                                        \
     "the runtime's and driver's versions, as the runtime gives them", NULL, NULL},        \
    {P "device_name", STR, NULL, D, 0, BOOK, 0, 0, NULL, "the device as the runtime names it", \
     NULL, NULL},                                                                          \
    {P "work_group_size", I64, NULL, D, 0, BOOK, 1, BIG, NULL,                             \
     "work-items (threads) a work-group (block) of every kernel", NULL, NULL},             \
    {P "peak_ops_per_second.fp16_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL,           \
     "f16 FMA, two lanes a chain (half2)", NULL, NULL},                                    \
    {P "levels.*.working_set_per_work_group_in_bytes", I64, "bytes", D, 0, BOOK, 1, BIG,   \
     NULL, "local memory: what each work-group fills and reads", NULL, NULL},              \
    {P "levels.*.copy_bandwidth_in_bytes_per_second", I64, "bytes/s", D, 0, PEAK, 1, BIG,  \
     NULL, "b[i] = a[i], two bytes counted for each byte of a", NULL, NULL},               \
    {P "transfer", MAP, NULL, D, 0, PEAK, 0, 0, NULL,                                      \
     "copies between page-locked host memory and the device", NULL, NULL},                 \
    {P "transfer.working_set_in_bytes", I64, "bytes", D, 0, BOOK, 1, BIG, NULL,            \
     "the bytes each copy moves", NULL, NULL},                                             \
    {P "transfer.host_to_device_bandwidth_in_bytes_per_second", I64, "bytes/s", D, 0, PEAK, \
     1, BIG, NULL, "host to device", NULL, NULL},                                          \
    {P "transfer.device_to_host_bandwidth_in_bytes_per_second", I64, "bytes/s", D, 0, PEAK, \
     1, BIG, NULL, "device to host", NULL, NULL}

/* path, type, unit, devices, required (by devices), class, min, max, names, meaning, summary,
 * required_if (a boolean key: required only where it is not false) */
static const sysdesc_schema_key schema[] = {
    /* ---- every device ---- */
    {"device_type", STR, NULL, ALL, ALL, BOOK, 0, 0, NULL,
     "\"CPU\", \"GPU\" or \"ACCEL\" (an accelerator that is no GPU: Gaudi, Trainium, TPU)",
     NULL, NULL},
    {"schema_version", I64, NULL, ALL, 0, BOOK, 1, BIG, NULL,
     "the schema version the device follows (1)", NULL, NULL},
    {"vendor", STR, NULL, ALL, ALL, FACT, 0, 0, NULL,
     "CPU: the CPUID vendor (GenuineIntel, AuthenticAMD); GPU: NVIDIA, AMD, Intel; ACCEL: "
     "Intel, AWS, Google",
     "vendor", NULL},
    {"model", STR, NULL, ALL, ALL, FACT, 0, 0, NULL,
     "the product name; a GPU partition says so, as in Instinct MI250X (one GCD)", "model", NULL},
    {"arch", STR, NULL, ALL, ALL, FACT, 0, 0, NULL,
     "CPU: x86_64, aarch64; GPU: the compiler target sm_90, gfx942, pvc; ACCEL: the "
     "generation its compiler targets (gaudi2, trn2)",
     "arch", NULL},

    /* ---- CPU identity ---- */
    {"cpu_family", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID family", NULL, NULL},
    {"cpu_model_number", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID model", NULL, NULL},
    {"cpu_stepping", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID stepping", NULL, NULL},
    {"cpu_implementer", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR implementer", NULL, NULL},
    {"cpu_variant", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR variant", NULL, NULL},
    {"cpu_part_number", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR part number", NULL, NULL},
    {"cpu_revision", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR revision", NULL, NULL},
    {"hostname", STR, NULL, CPU, 0, BOOK, 0, 0, NULL, "the node's host name", "host", NULL},
    /* ---- CPU microarchitecture: probe/host/cpu_uarch.c, docs/keys.md ---- */
    {"uarch", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "microarchitecture, archspec's name: zen4, sapphirerapids, neoverse_v2", "uarch", NULL},
    {"uarch_ancestors", STRS, NULL, CPU, 0, FACT, 0, 0, NULL,
     "archspec's ancestors of uarch, nearest first", NULL, NULL},
    {"triple", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "LLVM target triple: x86_64-unknown-linux-gnu", "triple", NULL},

    /* ---- CPU counts ---- */
    {"num_packages", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "packages with at least one usable PU", "packages", NULL},
    {"total_num_packages", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "all packages, when different", NULL, NULL},
    {"num_cores", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "cores with at least one usable PU", "cores", NULL},
    {"total_num_cores", I64, NULL, CPU, 0, FACT, 1, BIG, NULL, "all cores, when different",
     NULL, NULL},
    {"num_threads", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "usable hardware threads (nproc)", "threads", NULL},
    {"total_num_threads", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "all hardware threads, when different", NULL, NULL},
    {"num_numa_nodes", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "NUMA nodes in the allowed nodeset", "NUMA nodes", NULL},
    {"total_num_numa_nodes", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "all NUMA nodes, when different", NULL, NULL},

    /* ---- flat cache keys (CPU: one instance; GPU: L1 per compute unit, L2 per device) ---- */
    {"L1_cache_size_in_bytes", I64, "bytes", ANY, 0, FACT, 1, BIG, NULL,
     "CPU: = cache.L1.size_in_bytes; GPU: L1 per compute unit (NVIDIA: L1 + shared memory)",
     NULL, NULL},
    {"L2_cache_size_in_bytes", I64, "bytes", ANY, GPU, FACT, 1, BIG, NULL,
     "CPU: = cache.L2.size_in_bytes; GPU: the whole device's L2", "L2", NULL},
    {"L3_cache_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "= cache.L3.size_in_bytes", NULL, NULL},
    {"max_vector_op_width", I64, "bits", CPU, 0, LIMIT, 1, BIG, NULL,
     "widest vector register the ISA and the OS allow", "vector width", NULL},

    /* ---- CPU caches ---- */
    {"cache", MAP, NULL, CPU, 0, FACT, 0, 0, "L1 L1i L2 L2i L3 L3i L4 L5",
     "one map per cache level: Lk data or unified, Lki instruction", NULL, NULL},
    {"cache.*", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "one cache level", "cache", NULL},
    {"cache.*.size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "size of one instance", NULL, NULL},
    {"cache.*.line_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "cache line size", NULL, NULL},
    {"cache.*.associativity", I64, "ways", CPU, 0, FACT, -1, BIG, NULL,
     "ways; -1 fully associative (0 is not a value: unknown is absent)", NULL, NULL},
    {"cache.*.num_instances", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "instances serving a usable PU", NULL, NULL},
    {"cache.*.threads_per_instance", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "hardware threads sharing one instance", NULL, NULL},
    {"cache.*.inclusive", BOOL, NULL, CPU, 0, FACT, 0, 0, NULL,
     "inclusive of the levels below", NULL, NULL},
    {"cache.*.type", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "data, unified or instruction", NULL, NULL},
    {"cache.*.min_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "smallest instance, when instances differ", NULL, NULL},
    {"cache.*.max_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "largest instance, when instances differ", NULL, NULL},

    /* ---- CPU memory ---- */
    {"memory", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "the memory the CPU device may use",
     NULL, NULL},
    {"memory.total_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "the memory this process may use: MemTotal bounded by the cgroup limit", "memory", NULL},
    {"memory.numa_total_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "the allowed NUMA nodes' memory (hwloc)", NULL, NULL},
    {"memory.numa_node_size_in_bytes", INTS, "bytes", CPU, 0, FACT, 0, BIG, NULL,
     "one per allowed NUMA node", NULL, NULL},
    {"memory.installed_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "the installed capacity (a catalog node's 2 TB), more than the OS offers",
     "installed memory", NULL},
    {"memory.os_total_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "/proc/meminfo MemTotal", NULL, NULL},
    {"memory.cgroup_limit_in_bytes", I64, "bytes", CPU, 0, LIMIT, 1, BIG, NULL,
     "the cgroup memory limit", "memory limit", NULL},
    {"memory.page_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "the smallest page size", NULL, NULL},
    {"memory.page_sizes_in_bytes", INTS, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "every page size", NULL, NULL},

    /* ---- CPU ISA and frequency ---- */
    {"features", STRS, NULL, CPU, 0, FACT, 0, 0, NULL,
     "LLVM target feature names usable here", NULL, NULL},
    {"sve_vector_length_in_bits", I64, "bits", CPU, 0, FACT, 1, BIG, NULL,
     "SVE vector length (aarch64)", NULL, NULL},
    /* ---- CPU compiler targets (probe/host/cpu_uarch.c; uarch, uarch_ancestors and
     * triple are with the identity keys) ---- */
    {"compiler", MAP, NULL, CPU, 0, FACT, 0, 0, NULL,
     "how compilers target uarch: gcc, clang, llvm", NULL, NULL},
#define CC_KEYS(map, who)                                                                      \
    {map ".march", STR, NULL, CPU, 0, FACT, 0, 0, NULL, who ": the -march value", NULL, NULL}, \
    {map ".mtune", STR, NULL, CPU, 0, FACT, 0, 0, NULL, who ": the -mtune value", NULL, NULL}, \
    {map ".mcpu", STR, NULL, CPU, 0, FACT, 0, 0, NULL, who ": the -mcpu value", NULL, NULL},   \
    {map ".flags", STR, NULL, CPU, 0, FACT, 0, 0, NULL, who ": the whole flags", NULL, NULL},  \
    {map ".min_version", STR, NULL, CPU, 0, FACT, 0, 0, NULL,                                  \
     who ": the oldest version that takes the flags", NULL, NULL},                             \
    {map ".max_version", STR, NULL, CPU, 0, FACT, 0, 0, NULL,                                  \
     who ": the newest version that takes them, when bounded", NULL, NULL},                    \
    {map ".uarch", STR, NULL, CPU, 0, FACT, 0, 0, NULL,                                        \
     who ": the ancestor the flags target, when not uarch itself", NULL, NULL}
    {"compiler.gcc", MAP, NULL, CPU, 0, FACT, 0, 0, NULL,
     "GCC's flags for uarch, and the versions that know them", NULL, NULL},
    CC_KEYS("compiler.gcc", "GCC"),
    {"compiler.gcc.version", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "the installed GCC the flags are for (it compiled them)", NULL, NULL},
    {"compiler.gcc.path", STR, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "that GCC: the name given or found on PATH", NULL, NULL},
    {"compiler.gcc.fallback", MAP, NULL, CPU, 0, FACT, 0, 0, NULL,
     "what a GCC older than min_version takes instead", NULL, NULL},
    CC_KEYS("compiler.gcc.fallback", "older GCC"),
    {"compiler.clang", MAP, NULL, CPU, 0, FACT, 0, 0, NULL,
     "Clang's flags for uarch, and the versions that know them", NULL, NULL},
    CC_KEYS("compiler.clang", "Clang"),
    {"compiler.clang.version", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "the installed Clang the flags are for (it compiled them)", NULL, NULL},
    {"compiler.clang.path", STR, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "that Clang: the name given or found on PATH", NULL, NULL},
    {"compiler.clang.fallback", MAP, NULL, CPU, 0, FACT, 0, 0, NULL,
     "what a Clang older than min_version takes instead", NULL, NULL},
    CC_KEYS("compiler.clang.fallback", "older Clang"),
#undef CC_KEYS
    {"compiler.llvm", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "LLVM's own view", NULL, NULL},
    {"compiler.llvm.cpu", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "LLVM's CPU name: llc -mcpu, the chip of #llvm.target", NULL, NULL},
    {"compiler.llvm.uarch", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "the ancestor whose LLVM name cpu is, when the installed LLVM lacks uarch's", NULL, NULL},
    {"compiler.llvm.version", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "the installed LLVM cpu was checked against (the llvm-config --version "
     "of llc's directory, else llc --version)", NULL, NULL},
    {"compiler.llvm.path", STR, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "that llc: the name given or found on PATH", NULL, NULL},

    {"max_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "cpufreq maximum of the first usable PU", "max clock", NULL},
    {"base_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "cpufreq base frequency", NULL, NULL},

    /* ---- CPU kinds ---- */
    {"num_cpu_kinds", I64, NULL, CPU, 0, FACT, 1, BIG, NULL, "kinds with a usable PU", NULL, NULL},
    {"cpu_kinds", MAP, NULL, CPU, 0, FACT, 0, 0, "#",
     "one map per CPU kind, most energy-efficient first", NULL, NULL},
    {"cpu_kinds.*", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "one CPU kind", NULL, NULL},
    {"cpu_kinds.*.efficiency_rank", I64, NULL, CPU, 0, FACT, 0, BIG, NULL,
     "hwloc efficiency, 0 most efficient", NULL, NULL},
    {"cpu_kinds.*.num_cores", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "cores of this kind", NULL, NULL},
    {"cpu_kinds.*.num_threads", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "usable PUs of this kind", NULL, NULL},
    {"cpu_kinds.*.core_type", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "hwloc CoreType (IntelAtom, IntelCore)", NULL, NULL},
    {"cpu_kinds.*.max_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "hwloc FrequencyMaxMHz", NULL, NULL},
    {"cpu_kinds.*.base_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "hwloc FrequencyBaseMHz", NULL, NULL},
    {"cpu_kinds.*.linux_capacity", I64, NULL, CPU, 0, FACT, 0, BIG, NULL,
     "hwloc LinuxCapacity", NULL, NULL},

    /* ---- the allocation: what this process may use, this host only
     * (probe/host/allocation.c, gpu_allocation.c; docs/allocation.md) ---- */
    {"allocation", MAP, NULL, ANY, 0, LIMIT, 0, 0, NULL,
     "what this process may use of the device, and what chose it", NULL, NULL},
    {"allocation.cpus", INTS, NULL, CPU, 0, LIMIT, 0, BIG, NULL,
     "the PUs' os indices: the cgroup's cpuset and the CPU binding", NULL, NULL},
    {"allocation.numa_nodes", INTS, NULL, CPU, 0, LIMIT, 0, BIG, NULL,
     "the NUMA nodes' os indices: the cgroup's cpuset.mems", NULL, NULL},
    {"allocation.cpu_quota", F64, NULL, CPU, 0, LIMIT, 0, 0, NULL,
     "the cgroup's CPU bandwidth in CPUs (cpu.max 150000 100000: 1.5)", NULL, NULL},
    {"allocation.memory_limit_in_bytes", I64, "bytes", CPU, 0, LIMIT, 1, BIG, NULL,
     "the cgroup memory limit (= memory.cgroup_limit_in_bytes)", NULL, NULL},
    {"allocation.cgroup", STR, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "the process's cgroup v2 path", NULL, NULL},
    {"allocation.slurm_job_id", I64, NULL, CPU, 0, BOOK, 0, BIG, NULL,
     "SLURM_JOB_ID", NULL, NULL},
    {"allocation.slurm_step_id", I64, NULL, CPU, 0, BOOK, 0, BIG, NULL,
     "SLURM_STEP_ID", NULL, NULL},
    {"allocation.visible_devices", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "the visibility variables that applied, NAME=VALUE; ...", NULL, NULL},
    {"allocation.runtime_index", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "the device's index in its runtime as this process sees it (cuda:N, hip:N)", NULL,
     NULL},
    {"allocation.partitions", STRS, NULL, GPU, 0, LIMIT, 0, 0, NULL,
     "the partitions the variable leaves: MIG UUIDs, Level Zero sub-devices", NULL, NULL},

    /* ---- what sysdesc measure measured (docs/measure.md): the CPU by its own
     * kernels, a GPU through its runtime (MEASURED_* above the table) ---- */
    {"measured", MAP, NULL, ANY, 0, PEAK, 0, 0, NULL,
     "what the device delivered when measured (sysdesc measure), with its provenance", NULL,
     NULL},
    MEASURED_COMMON("measured.", ANY, 1),
    {"measured.kernel_isa", STR, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "the kernels' ISA: avx512f, avx2+fma, neon, portable C", NULL, NULL},
    {"measured.vector_width_in_bits", I64, "bits", CPU, 0, BOOK, 1, BIG, NULL,
     "the FMA kernel's vector width", NULL, NULL},
    {"measured.num_threads", I64, NULL, CPU, 0, BOOK, 1, BIG, NULL,
     "threads of the all-thread runs: one per allowed CPU", NULL, NULL},
    {"measured.cpus", INTS, NULL, CPU, 0, BOOK, 0, BIG, NULL,
     "the CPUs they were pinned to (sched_getaffinity)", NULL, NULL},
    {"measured.peak_ops_per_second_single_thread", MAP, NULL, CPU, 0, PEAK, 0, 0, NULL,
     "FMA rate of one thread on one core", NULL, NULL},
    {"measured.peak_ops_per_second_single_thread.fp64_vector", F64, "ops/s", CPU, 0, PEAK, 0, 0,
     NULL, "f64, one thread", NULL, NULL},
    {"measured.peak_ops_per_second_single_thread.fp32_vector", F64, "ops/s", CPU, 0, PEAK, 0, 0,
     NULL, "f32, one thread", NULL, NULL},
    {"measured.levels.*.working_set_per_thread_in_bytes", I64, "bytes", CPU, 0, BOOK, 1, BIG,
     NULL, "each thread's working set in the all-thread runs", NULL, NULL},
    {"measured.levels.*.read_bandwidth_single_thread_in_bytes_per_second", I64, "bytes/s", CPU,
     0, PEAK, 1, BIG, NULL, "read, one thread", NULL, NULL},
    {"measured.levels.*.triad_bandwidth_single_thread_in_bytes_per_second", I64, "bytes/s", CPU,
     0, PEAK, 1, BIG, NULL, "triad, one thread", NULL, NULL},
    {"measured.levels.*.latency_in_ns", F64, "ns", CPU, 0, PEAK, 0, 0, NULL,
     "load-to-use latency, randomised pointer chase, one thread", NULL, NULL},
    {"measured.levels.*.effective_capacity_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "a cache level: the largest working set of the latency sweep still within twice the "
     "level's own latency (docs/measure.md, \"Effective capacity\")",
     NULL, NULL},
    {"measured.levels.*.effective_capacity_below_reported", BOOL, NULL, CPU, 0, FACT, 0, 0, NULL,
     "the effective capacity is under half the probed cache size: the level keeps far less "
     "for this process than the hardware reports (a VM's or a shared cache's share)",
     NULL, NULL},
    {"measured.latency_sweep", MAP, NULL, CPU, 0, PEAK, 0, 0, NULL,
     "the pointer-chase latency over growing working sets, one thread, that the effective "
     "capacities are read off",
     NULL, NULL},
    {"measured.latency_sweep.working_sets_in_bytes", INTS, "bytes", CPU, 0, BOOK, 1, BIG, NULL,
     "the working sets, each 2^(1/4) times the one before", NULL, NULL},
    {"measured.latency_sweep.latencies_in_ps", INTS, "ps", CPU, 0, PEAK, 0, BIG, NULL,
     "the median latency of a load at each working set, in picoseconds (integers: an array "
     "here is of i64)",
     NULL, NULL},
    {"measured.best", MAP, NULL, CPU, 0, PEAK, 0, 0, NULL,
     "each value's best sample (highest rate, lowest latency), at the value's own path",
     NULL, NULL},
    MEASURED_TWIN("measured.best.", I64, F64, "bytes/s", "ops/s", "ns", "MHz", PEAK, 1, ZERO2,
                  "the best sample"),
    {"measured.spread", MAP, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "each value's spread over its samples, (max - min) / median, at the value's own path",
     NULL, NULL},
    MEASURED_TWIN("measured.spread.", F64, F64, NULL, NULL, NULL, NULL, BOOK, 0, ZERO2,
                  "(max - min) / median"),
    {"measured.samples", MAP, NULL, CPU, 0, BOOK, 0, 0, NULL,
     "how many samples each value is the median of, at the value's own path", NULL, NULL},
    MEASURED_TWIN("measured.samples.", I64, I64, NULL, NULL, NULL, NULL, BOOK, 1, ONE_UP,
                  "samples"),
    MEASURED_DEVICE("measured.", GPU),
    {"measured.runtimes", MAP, NULL, CPU, 0, PEAK, 0, 0, "opencl vulkan",
     "the host CPU measured through the runtimes that see it (pocl, lavapipe), each as a "
     "device is",
     NULL, NULL},
    {"measured.runtimes.*", MAP, NULL, CPU, 0, PEAK, 0, 0, NULL,
     "what one runtime's kernels got from the CPU", NULL, NULL},
    MEASURED_COMMON("measured.runtimes.*.", CPU, 0),
    MEASURED_DEVICE("measured.runtimes.*.", CPU),

    /* ---- GPU identity ---- */
    {"compute_capability", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "NVIDIA only: \"9.0\"", NULL, NULL},
    {"form_factor", STR, NULL, GACC, 0, FACT, 0, 0, NULL, "SXM5, PCIe, OAM, SoC", NULL, NULL},
    {"is_pci_device", BOOL, NULL, GACC, 0, FACT, 0, 0, NULL,
     "false for a GPU or accelerator that is no PCI device (the GPU of an Apple M-series SoC): "
     "it has no PCI ids; absent means true",
     NULL, NULL},
    {"pci_vendor_id", I64, NULL, GACC, GACC, BOOK, 0, PCI_ID_MAX, NULL,
     "GPU: PCI vendor id: 0x10de, 0x1002, 0x8086; ACCEL: PCI vendor id: 0x1da3 (Habana, "
     "Intel's Gaudi), 0x1d0f (Amazon)",
     NULL, "is_pci_device"},
    {"pci_device_ids", INTS, NULL, GACC, GACC, BOOK, 0, PCI_ID_MAX, NULL,
     "the PCI device ids a description is for", NULL, "is_pci_device"},
    {"is_partition", BOOL, NULL, GPU, GPU, FACT, 0, 0, NULL,
     "the runtime device is part of a package (MI250X GCD, PVC stack)", NULL, NULL},
    {"num_partitions_per_package", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "partitions of a package (needed when is_partition)", NULL, NULL},
    {"tdp_in_watts", I64, "W", GACC, 0, FACT, 1, 100000, NULL, "board power", "TDP", NULL},

    /* ---- GPU compute ---- */
    {"num_compute_units", I64, NULL, GACC, GACC, FACT, 1, BIG, NULL,
     "GPU: SMs / CUs / Xe-cores (multiProcessorCount); ACCEL: the programmable cores a "
     "kernel's work is spread over, named by compute_unit_name (Gaudi TPCs, NeuronCores)",
     "compute units", NULL},
    {"compute_unit_name", STR, NULL, GACC, 0, FACT, 0, 0, NULL,
     "SM, CU, Xe-core; ACCEL: TPC, NeuronCore-v2", NULL, NULL},
    {"cores_per_compute_unit", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "CUDA cores per SM (hwloc CUDACoresPerMP)", NULL, NULL},
    {"num_matrix_engines", I64, NULL, ACC, 0, FACT, 1, BIG, NULL,
     "matrix-multiply engines outside the compute units, fed by them (Gaudi's MMEs)",
     "matrix engines", NULL},
    {"subgroup_sizes", INTS, NULL, GPU, GPU, LIMIT, 1, 1024, NULL,
     "warp / wavefront / sub-group sizes", "subgroup sizes", NULL},
    {"max_threads_per_block", I64, NULL, GPU, GPU, LIMIT, 1, BIG, NULL,
     "maxThreadsPerBlock, max work-group size", "threads/block", NULL},
    {"max_threads_per_compute_unit", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "maxThreadsPerMultiProcessor", NULL, NULL},
    {"max_blocks_per_compute_unit", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "maxBlocksPerMultiProcessor", NULL, NULL},
    {"max_block_dims", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL, "maxThreadsDim", NULL, NULL},
    {"max_grid_dims", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL, "maxGridSize", NULL, NULL},
    {"registers_per_compute_unit", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "32-bit registers per compute unit", NULL, NULL},
    {"registers_per_block", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL, "regsPerBlock", NULL, NULL},
    {"max_registers_per_thread", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "32-bit registers one thread (NVIDIA) or work-item (AMD) may use: 255, 512 VGPRs on CDNA",
     NULL, NULL},
    {"register_file_per_execution_unit_thread_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1, BIG,
     NULL, "Intel: the registers one EU hardware thread addresses (Xe-HPC: 128 x 64 B)", NULL,
     NULL},

    /* ---- GPU memory ---- */
    {"shared_memory_per_block_in_bytes", I64, "bytes", GPU, GPU, LIMIT, 1, BIG, NULL,
     "default limit per block (sharedMemPerBlock)", "shared memory/block", NULL},
    {"max_shared_memory_per_block_in_bytes", I64, "bytes", GPU, GPU, LIMIT, 1, BIG, NULL,
     "opt-in limit per block (sharedMemPerBlockOptin)", "opt-in shared/block", NULL},
    {"shared_memory_per_compute_unit_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "sharedMemPerMultiprocessor, LDS per CU, SLM per Xe-core", NULL, NULL},
    {"num_L2_caches", I64, NULL, GPU, 0, FACT, 1, BIG, NULL, "separate L2 instances", NULL, NULL},
    {"last_level_cache_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the largest cache (L2, or Infinity Cache)", NULL, NULL},
    {"memory_type", STR, NULL, GACC, 0, FACT, 0, 0, NULL, "HBM3, GDDR6X", NULL, NULL},
    {"memory_size_in_bytes", I64, "bytes", GACC, GACC, FACT, 1, BIG, NULL,
     "device memory programs can use (per partition), as the runtimes report it", "memory", NULL},
    {"nominal_memory_size_in_bytes", I64, "bytes", GACC, 0, FACT, 1, BIG, NULL,
     "the marketed capacity (80 GB), when it differs from what programs see", NULL, NULL},
    {"memory_bus_width_in_bits", I64, "bits", GACC, 0, FACT, 1, BIG, NULL,
     "memoryBusWidth", NULL, NULL},
    {"memory_bandwidth_in_bytes_per_second", I64, "bytes/s", GACC, GACC, PEAK, 1000000000, BIG,
     NULL, "peak memory bandwidth", "memory bandwidth", NULL},
    {"max_clock_in_mhz", I64, "MHz", GACC, GPU, PEAK, 1, 10000, NULL,
     "boost / peak engine clock", "max clock", NULL},
    {"base_clock_in_mhz", I64, "MHz", GACC, 0, PEAK, 1, 10000, NULL, "base clock", NULL, NULL},
    {"memory_clock_in_mhz", I64, "MHz", GACC, 0, PEAK, 1, 100000, NULL, "memory clock", NULL, NULL},

    /* ---- GPU limits and identity shared by the runtimes and the catalog ---- */
    {"reserved_shared_memory_per_block_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0, BIG, NULL,
     "shared memory the system reserves per block (reservedSharedMemPerBlock)", NULL, NULL},
    {"max_persisting_L2_cache_size_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0, BIG, NULL,
     "L2 that may be set aside for persisting accesses (persistingL2CacheMaxSize)", NULL, NULL},
    {"max_cluster_size", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "blocks per thread block cluster, portable limit (Hopper and later: 8)", NULL, NULL},
    {"max_nonportable_cluster_size", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "blocks per cluster with cudaFuncAttributeNonPortableClusterSizeAllowed", NULL, NULL},
    {"num_execution_units", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "Intel EUs (vector engines): not compute units", NULL, NULL},
    {"threads_per_execution_unit", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "hardware threads per EU", NULL, NULL},
    {"execution_unit_simd_width", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "SIMD lanes per EU (physical)", NULL, NULL},
    {"uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "the runtime's device UUID (GPU-..., MIG-...)",
     NULL, NULL},
    {"driver_version", STR, NULL, GACC, 0, BOOK, 0, 0, NULL, "the kernel driver's version",
     "driver", NULL},
    {"ecc_enabled", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL, "ECC on device memory is on", NULL, NULL},
    {"power_limit_in_watts", I64, "W", GPU, 0, LIMIT, 1, 100000, NULL,
     "the enforced board power limit", NULL, NULL},
    {"pcie_generation", I64, NULL, GACC, 0, FACT, 1, 16, NULL, "PCIe generation (max)", NULL, NULL},
    {"pcie_link_width", I64, NULL, GACC, 0, FACT, 1, 64, NULL, "PCIe lanes (max)", NULL, NULL},
    {"interconnect", MAP, NULL, GACC, 0, FACT, 0, 0, NULL,
     "the device-to-device link (NVLink, Infinity Fabric, Xe Link; Gaudi's RoCE ports)", NULL,
     NULL},
    {"interconnect.name", STR, NULL, GACC, 0, FACT, 0, 0, NULL, "NVLink 4, Infinity Fabric",
     NULL, NULL},
    {"interconnect.num_links", I64, NULL, GACC, 0, FACT, 1, BIG, NULL, "links per device",
     NULL, NULL},
    {"interconnect.bandwidth_per_link_in_bytes_per_second", I64, "bytes/s", GACC, 0, PEAK, 1, BIG,
     NULL, "one direction, one link", NULL, NULL},
    {"interconnect.total_bandwidth_in_bytes_per_second", I64, "bytes/s", GACC, 0, PEAK, 1, BIG,
     NULL, "both directions, all links, as vendors quote it", NULL, NULL},

    /* ---- occupancy: how registers, warps and shared memory are handed out
     * (sysdesc/occupancy.h, docs/occupancy.md) ---- */
    {"register_allocation_unit_size", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "32-bit registers a warp or wave is given at a time, all its lanes counted: NVIDIA 256 "
     "(8 per thread), AMD the VGPR granule (gfx942: 8 per lane x 64)",
     NULL, NULL},
    {"register_allocation_granularity", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "what registers are allocated to: \"warp\" (NVIDIA, the Occupancy Calculator's term)",
     NULL, NULL},
    {"warp_allocation_granularity", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "NVIDIA: the register file is split in this many parts (an SM's processing blocks) and a "
     "block's warps count in multiples of it (4)",
     NULL, NULL},
    {"shared_memory_allocation_unit_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "a block's shared memory (LDS) is allocated in multiples of this: NVIDIA 128 (256 on "
     "sm_7x), AMD CDNA 512 (gfx950: 1280)",
     NULL, NULL},
    {"shared_memory_carveouts_in_bytes", INTS, "bytes", GPU, 0, FACT, 0, BIG, NULL,
     "NVIDIA: the shared memory capacities per compute unit a carveout may set (sm_90: 0, 8 "
     "KiB, ... 228 KiB)",
     NULL, NULL},
    {"simds_per_compute_unit", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "AMD: SIMDs a CU's waves are spread over (CDNA 4; RDNA 2 in CU mode)", NULL, NULL},
    {"max_waves_per_simd", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "AMD: waves one SIMD holds at once (gfx90a and later: 8; RDNA: 16)", NULL, NULL},
    {"vgprs_per_simd", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "AMD: 32-bit VGPRs of one SIMD's file, all lanes counted (gfx942: 512 per lane x 64)",
     NULL, NULL},

    /* ---- matrix units (tensor cores, MFMA, WMMA, XMX) ---- */
    {"matrix_instruction_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "the matrix instructions: wgmma/mma.sync, MFMA, WMMA, DPAS", NULL, NULL},
    {"matrix_instruction_shapes", MAP, NULL, GPU, 0, FACT, 0, 0,
     "fp64 fp32 tf32 fp16 bf16 fp8 fp6 fp4 int8 int4",
     "per input data type, the shapes one instruction computes", NULL, NULL},
    {"matrix_instruction_shapes.*", STRS, NULL, GPU, 0, FACT, 0, 0, NULL,
     "\"MxNxK\" shapes, as the ISA reference lists them", NULL, NULL},

    /* ---- what the vendor runtimes saw, each in its own words (docs/runtimes.md) ---- */
    {"runtimes", MAP, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "one map per runtime that saw the device", NULL, NULL},
    /* runtimes.opencl.*, runtimes.vulkan.*: the OpenCL and Vulkan probes */
    {"runtimes.opencl", MAP, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "what OpenCL (libOpenCL.so.1, every platform's ICD) says of the device", NULL, NULL},
    {"runtimes.opencl.platform_index", I64, NULL, ANY, 0, BOOK, 0, BIG, NULL,
     "its platform's position in clGetPlatformIDs", NULL, NULL},
    {"runtimes.opencl.device_index", I64, NULL, ANY, 0, BOOK, 0, BIG, NULL,
     "its position in clGetDeviceIDs(CL_DEVICE_TYPE_ALL) of the platform", NULL, NULL},
    {"runtimes.opencl.platform_name", STR, NULL, ANY, 0, BOOK, 0, 0, NULL, "CL_PLATFORM_NAME",
     NULL, NULL},
    {"runtimes.opencl.platform_vendor", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "CL_PLATFORM_VENDOR", NULL, NULL},
    {"runtimes.opencl.platform_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "CL_PLATFORM_VERSION", NULL, NULL},
    {"runtimes.opencl.device_name", STR, NULL, ANY, 0, FACT, 0, 0, NULL, "CL_DEVICE_NAME", NULL, NULL},
    {"runtimes.opencl.device_vendor", STR, NULL, ANY, 0, FACT, 0, 0, NULL, "CL_DEVICE_VENDOR",
     NULL, NULL},
    {"runtimes.opencl.vendor_id", I64, NULL, ANY, 0, FACT, 0, BIG, NULL,
     "CL_DEVICE_VENDOR_ID (the PCI vendor id for a GPU)", NULL, NULL},
    {"runtimes.opencl.device_type", STR, NULL, ANY, 0, FACT, 0, 0, NULL,
     "CL_DEVICE_TYPE: CPU, GPU, ACCELERATOR or CUSTOM", NULL, NULL},
    {"runtimes.opencl.device_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL, "CL_DEVICE_VERSION",
     NULL, NULL},
    {"runtimes.opencl.driver_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL, "CL_DRIVER_VERSION",
     NULL, NULL},
    {"runtimes.opencl.opencl_c_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "CL_DEVICE_OPENCL_C_VERSION", NULL, NULL},
    {"runtimes.opencl.max_compute_units", I64, NULL, ANY, 0, FACT, 1, BIG, NULL,
     "CL_DEVICE_MAX_COMPUTE_UNITS (Intel GPUs: EUs)", NULL, NULL},
    {"runtimes.opencl.max_clock_frequency_in_mhz", I64, "MHz", ANY, 0, PEAK, 0, 100000, NULL,
     "CL_DEVICE_MAX_CLOCK_FREQUENCY", NULL, NULL},
    {"runtimes.opencl.max_work_group_size", I64, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "CL_DEVICE_MAX_WORK_GROUP_SIZE", NULL, NULL},
    {"runtimes.opencl.max_work_item_sizes", INTS, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "CL_DEVICE_MAX_WORK_ITEM_SIZES, one per CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", NULL, NULL},
    {"runtimes.opencl.subgroup_sizes", INTS, NULL, ANY, 0, LIMIT, 1, 1024, NULL,
     "CL_DEVICE_SUB_GROUP_SIZES_INTEL, else CL_DEVICE_WARP_SIZE_NV or "
     "CL_DEVICE_WAVEFRONT_WIDTH_AMD (absent when no extension answers)", NULL, NULL},
    {"runtimes.opencl.max_num_subgroups", I64, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "CL_DEVICE_MAX_NUM_SUB_GROUPS (absent when 0: no sub-groups)", NULL, NULL},
    {"runtimes.opencl.preferred_work_group_size_multiple", I64, NULL, ANY, 0, FACT, 1, BIG, NULL,
     "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (OpenCL 3.0 devices; older ones answer "
     "it only for a built kernel)", NULL, NULL},
    {"runtimes.opencl.local_memory_size_in_bytes", I64, "bytes", ANY, 0, LIMIT, 0, BIG, NULL,
     "CL_DEVICE_LOCAL_MEM_SIZE", NULL, NULL},
    {"runtimes.opencl.local_memory_type", STR, NULL, ANY, 0, FACT, 0, 0, NULL,
     "CL_DEVICE_LOCAL_MEM_TYPE: local (dedicated), global or none", NULL, NULL},
    {"runtimes.opencl.global_memory_size_in_bytes", I64, "bytes", ANY, 0, FACT, 0, BIG, NULL,
     "CL_DEVICE_GLOBAL_MEM_SIZE (pocl: follows free memory)", NULL, NULL},
    {"runtimes.opencl.max_memory_allocation_in_bytes", I64, "bytes", ANY, 0, LIMIT, 0, BIG, NULL,
     "CL_DEVICE_MAX_MEM_ALLOC_SIZE", NULL, NULL},
    {"runtimes.opencl.global_memory_cache_type", STR, NULL, ANY, 0, FACT, 0, 0, NULL,
     "CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: read_write, read_only or none", NULL, NULL},
    {"runtimes.opencl.global_memory_cache_size_in_bytes", I64, "bytes", ANY, 0, FACT, 0, BIG,
     NULL, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; absent for a cache of type none", NULL, NULL},
    {"runtimes.opencl.global_memory_cache_line_size_in_bytes", I64, "bytes", ANY, 0, FACT, 0, BIG,
     NULL, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE; absent for a cache of type none", NULL, NULL},
    {"runtimes.opencl.max_constant_buffer_size_in_bytes", I64, "bytes", ANY, 0, LIMIT, 0, BIG,
     NULL, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE", NULL, NULL},
    {"runtimes.opencl.preferred_vector_width", MAP, NULL, ANY, 0, FACT, 0, 0,
     "char short int long float double half",
     "CL_DEVICE_PREFERRED_VECTOR_WIDTH_<TYPE> per type", NULL, NULL},
    {"runtimes.opencl.preferred_vector_width.*", I64, NULL, ANY, 0, FACT, 0, BIG, NULL,
     "elements (0: the type is not supported)", NULL, NULL},
    {"runtimes.opencl.native_vector_width", MAP, NULL, ANY, 0, FACT, 0, 0,
     "char short int long float double half", "CL_DEVICE_NATIVE_VECTOR_WIDTH_<TYPE> per type",
     NULL, NULL},
    {"runtimes.opencl.native_vector_width.*", I64, NULL, ANY, 0, FACT, 0, BIG, NULL,
     "elements (0: the type is not supported)", NULL, NULL},
    {"runtimes.opencl.fp64", BOOL, NULL, ANY, 0, FACT, 0, 0, NULL,
     "double precision: CL_DEVICE_DOUBLE_FP_CONFIG is not 0", NULL, NULL},
    {"runtimes.opencl.fp16", BOOL, NULL, ANY, 0, FACT, 0, 0, NULL,
     "half precision: cl_khr_fp16 in CL_DEVICE_EXTENSIONS", NULL, NULL},
    {"runtimes.opencl.error_correction_support", BOOL, NULL, ANY, 0, FACT, 0, 0, NULL,
     "CL_DEVICE_ERROR_CORRECTION_SUPPORT", NULL, NULL},
    {"runtimes.opencl.host_unified_memory", BOOL, NULL, ANY, 0, FACT, 0, 0, NULL,
     "CL_DEVICE_HOST_UNIFIED_MEMORY", NULL, NULL},
    {"runtimes.opencl.address_bits", I64, "bits", ANY, 0, FACT, 1, 64, NULL,
     "CL_DEVICE_ADDRESS_BITS", NULL, NULL},
    {"runtimes.opencl.extensions", STRS, NULL, ANY, 0, FACT, 0, 0, NULL,
     "CL_DEVICE_EXTENSIONS, one name a string, in the driver's order", NULL, NULL},
    {"runtimes.opencl.pci_bus_id", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "CL_DEVICE_PCI_BUS_INFO_KHR, else NVIDIA's or AMD's topology query", NULL, NULL},
    {"runtimes.opencl.uuid", STR, NULL, ANY, 0, BOOK, 0, 0, NULL, "CL_DEVICE_UUID_KHR", NULL, NULL},
    {"runtimes.vulkan", MAP, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "what Vulkan (libvulkan.so.1, every ICD) says of the device", NULL, NULL},
    {"runtimes.vulkan.device_index", I64, NULL, ANY, 0, BOOK, 0, BIG, NULL,
     "its position in vkEnumeratePhysicalDevices", NULL, NULL},
    {"runtimes.vulkan.device_name", STR, NULL, ANY, 0, FACT, 0, 0, NULL,
     "VkPhysicalDeviceProperties::deviceName", NULL, NULL},
    {"runtimes.vulkan.device_type", STR, NULL, ANY, 0, FACT, 0, 0, NULL,
     "deviceType: integrated_gpu, discrete_gpu, virtual_gpu, cpu or other", NULL, NULL},
    {"runtimes.vulkan.api_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "apiVersion, major.minor.patch", NULL, NULL},
    {"runtimes.vulkan.driver_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "driverVersion as vulkaninfo decodes it (NVIDIA: 10.8.8.6 bits)", NULL, NULL},
    {"runtimes.vulkan.vendor_id", I64, NULL, ANY, 0, FACT, 0, BIG, NULL,
     "vendorID: the PCI vendor id, or a Khronos id (0x10005 Mesa)", NULL, NULL},
    {"runtimes.vulkan.device_id", I64, NULL, ANY, 0, FACT, 0, BIG, NULL,
     "deviceID (the PCI device id for a PCI GPU)", NULL, NULL},
    {"runtimes.vulkan.driver_name", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "VkPhysicalDeviceDriverProperties::driverName (Vulkan 1.2)", NULL, NULL},
    {"runtimes.vulkan.driver_info", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "VkPhysicalDeviceDriverProperties::driverInfo (Vulkan 1.2)", NULL, NULL},
    {"runtimes.vulkan.conformance_version", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "VkPhysicalDeviceDriverProperties::conformanceVersion, major.minor.subminor.patch "
     "(Vulkan 1.2)", NULL, NULL},
    {"runtimes.vulkan.max_compute_work_group_invocations", I64, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "maxComputeWorkGroupInvocations", NULL, NULL},
    {"runtimes.vulkan.max_compute_work_group_size", INTS, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "maxComputeWorkGroupSize (x, y, z)", NULL, NULL},
    {"runtimes.vulkan.max_compute_work_group_count", INTS, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "maxComputeWorkGroupCount (x, y, z)", NULL, NULL},
    {"runtimes.vulkan.max_compute_shared_memory_size_in_bytes", I64, "bytes", ANY, 0, LIMIT, 0,
     BIG, NULL, "maxComputeSharedMemorySize", NULL, NULL},
    {"runtimes.vulkan.subgroup_size", I64, NULL, ANY, 0, FACT, 1, 1024, NULL,
     "VkPhysicalDeviceSubgroupProperties::subgroupSize (Vulkan 1.1)", NULL, NULL},
    {"runtimes.vulkan.min_subgroup_size", I64, NULL, ANY, 0, LIMIT, 1, 1024, NULL,
     "VkPhysicalDeviceSubgroupSizeControlProperties::minSubgroupSize (1.3)", NULL, NULL},
    {"runtimes.vulkan.max_subgroup_size", I64, NULL, ANY, 0, LIMIT, 1, 1024, NULL,
     "VkPhysicalDeviceSubgroupSizeControlProperties::maxSubgroupSize (1.3)", NULL, NULL},
    {"runtimes.vulkan.max_compute_workgroup_subgroups", I64, NULL, ANY, 0, LIMIT, 1, BIG, NULL,
     "VkPhysicalDeviceSubgroupSizeControlProperties::maxComputeWorkgroupSubgroups", NULL, NULL},
    {"runtimes.vulkan.memory_heap_sizes_in_bytes", INTS, "bytes", ANY, 0, FACT, 0, BIG, NULL,
     "VkPhysicalDeviceMemoryProperties::memoryHeaps[i].size, every heap", NULL, NULL},
    {"runtimes.vulkan.device_local_heap_sizes_in_bytes", INTS, "bytes", ANY, 0, FACT, 0, BIG,
     NULL, "the heaps with VK_MEMORY_HEAP_DEVICE_LOCAL_BIT", NULL, NULL},
    {"runtimes.vulkan.extensions", STRS, NULL, ANY, 0, FACT, 0, 0, NULL,
     "vkEnumerateDeviceExtensionProperties: the extensions' names, in the driver's order",
     NULL, NULL},
    {"runtimes.vulkan.pci_bus_id", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "VkPhysicalDevicePCIBusInfoPropertiesEXT (VK_EXT_pci_bus_info)", NULL, NULL},
    {"runtimes.vulkan.device_uuid", STR, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "VkPhysicalDeviceIDProperties::deviceUUID (Vulkan 1.1)", NULL, NULL},
    {"disagreements", OPEN, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "values given differently by a runtime of lower priority or the catalog: dotted path -> "
     "#dlti.map<where = its value> (docs/runtimes.md)", NULL, NULL},
    /* runtimes.cuda.*, runtimes.nvml.*, runtimes.rocm.*, runtimes.amd_smi.*,
     * runtimes.level_zero.*: the CUDA, NVML, ROCm and Level Zero probes */
    /* -- runtimes.cuda: the CUDA driver API (probe/cuda.c); CU_DEVICE_ATTRIBUTE_* -- */
    {"runtimes.cuda", MAP, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "what the CUDA driver API (libcuda.so.1) says of the device", NULL, NULL},
    {"runtimes.cuda.ordinal", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "the CUDA device ordinal (cuDeviceGet), after CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER",
     NULL, NULL},
    {"runtimes.cuda.name", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "cuDeviceGetName", NULL, NULL},
    {"runtimes.cuda.uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "cuDeviceGetUuid_v2, printed GPU-... (MIG-... for a MIG instance)", NULL, NULL},
    {"runtimes.cuda.pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "cuDeviceGetPCIBusId, in lower case", NULL, NULL},
    {"runtimes.cuda.driver_api_version", I64, NULL, GPU, 0, BOOK, 1, BIG, NULL,
     "cuDriverGetVersion: 1000 major + 10 minor (12040 is 12.4)", NULL, NULL},
    {"runtimes.cuda.is_mig_instance", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "the device is a MIG instance (its cuDeviceGetName has \" MIG \" and a profile)", NULL, NULL},
    {"runtimes.cuda.total_memory_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "cuDeviceTotalMem_v2", NULL, NULL},
    {"runtimes.cuda.multiprocessor_count", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT (16)", NULL, NULL},
    {"runtimes.cuda.warp_size", I64, NULL, GPU, 0, FACT, 1, 1024, NULL,
     "CU_DEVICE_ATTRIBUTE_WARP_SIZE (10)", NULL, NULL},
    {"runtimes.cuda.max_threads_per_block", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK (1)", NULL, NULL},
    {"runtimes.cuda.max_block_dims", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, _Y, _Z (2, 3, 4)", NULL, NULL},
    {"runtimes.cuda.max_grid_dims", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, _Y, _Z (5, 6, 7)", NULL, NULL},
    {"runtimes.cuda.max_threads_per_multiprocessor", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR (39)", NULL, NULL},
    {"runtimes.cuda.max_blocks_per_multiprocessor", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR (106)", NULL, NULL},
    {"runtimes.cuda.max_registers_per_block", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK (12)", NULL, NULL},
    {"runtimes.cuda.max_registers_per_multiprocessor", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR (82)", NULL, NULL},
    {"runtimes.cuda.max_shared_memory_per_block_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1, BIG,
     NULL, "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK (8): the default limit", NULL, NULL},
    {"runtimes.cuda.max_shared_memory_per_block_optin_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1,
     BIG, NULL, "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN (97)", NULL, NULL},
    {"runtimes.cuda.max_shared_memory_per_multiprocessor_in_bytes", I64, "bytes", GPU, 0, FACT, 1,
     BIG, NULL, "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR (81)", NULL, NULL},
    {"runtimes.cuda.reserved_shared_memory_per_block_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0,
     BIG, NULL, "CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK (111)", NULL, NULL},
    {"runtimes.cuda.total_constant_memory_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY (9)", NULL, NULL},
    {"runtimes.cuda.l2_cache_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE (38)", NULL, NULL},
    {"runtimes.cuda.max_persisting_l2_cache_size_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0, BIG,
     NULL, "CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE (108)", NULL, NULL},
    {"runtimes.cuda.max_access_policy_window_size_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0, BIG,
     NULL, "CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE (109): the most an access-policy "
     "window (of the persisting L2) may span", NULL, NULL},
    {"runtimes.cuda.clock_rate_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL,
     "CU_DEVICE_ATTRIBUTE_CLOCK_RATE (13), kHz / 1000", NULL, NULL},
    {"runtimes.cuda.memory_clock_rate_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 100000, NULL,
     "CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE (36), kHz / 1000", NULL, NULL},
    {"runtimes.cuda.global_memory_bus_width_in_bits", I64, "bits", GPU, 0, FACT, 1, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH (37)", NULL, NULL},
    {"runtimes.cuda.async_engine_count", I64, NULL, GPU, 0, FACT, 0, BIG, NULL,
     "CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT (40)", NULL, NULL},
    {"runtimes.cuda.compute_capability_major", I64, NULL, GPU, 0, FACT, 1, 99, NULL,
     "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR (75)", NULL, NULL},
    {"runtimes.cuda.compute_capability_minor", I64, NULL, GPU, 0, FACT, 0, 9, NULL,
     "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR (76)", NULL, NULL},
    {"runtimes.cuda.ecc_enabled", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_ECC_ENABLED (32)", NULL, NULL},
    {"runtimes.cuda.cluster_launch", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH (120)", NULL, NULL},
    {"runtimes.cuda.cooperative_launch", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH (95)", NULL, NULL},
    {"runtimes.cuda.integrated", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_INTEGRATED (18)", NULL, NULL},
    {"runtimes.cuda.concurrent_kernels", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS (31): kernels may run at once", NULL, NULL},
    {"runtimes.cuda.managed_memory", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY (83): managed (unified) memory can be allocated", NULL,
     NULL},
    {"runtimes.cuda.multi_gpu_board", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD (84)", NULL, NULL},
    {"runtimes.cuda.visible_devices", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "CUDA_VISIBLE_DEVICES when set (the driver applied it)", NULL, NULL},
    {"runtimes.cuda.device_order", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "CUDA_DEVICE_ORDER when set (the driver applied it)", NULL, NULL},
    /* -- runtimes.nvml: NVML (probe/nvml.c) -- */
    {"runtimes.nvml", MAP, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "what NVML (libnvidia-ml.so.1) says of the device", NULL, NULL},
    {"runtimes.nvml.index", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "nvmlDeviceGetHandleByIndex_v2 index (PCI order)", NULL, NULL},
    {"runtimes.nvml.name", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "nvmlDeviceGetName", NULL, NULL},
    {"runtimes.nvml.uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "nvmlDeviceGetUUID", NULL, NULL},
    {"runtimes.nvml.pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "nvmlDeviceGetPciInfo_v3 busId, as dddd:bb:dd.f in lower case", NULL, NULL},
    {"runtimes.nvml.driver_version", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "nvmlSystemGetDriverVersion", NULL, NULL},
    {"runtimes.nvml.cuda_driver_version", I64, NULL, GPU, 0, BOOK, 1, BIG, NULL,
     "nvmlSystemGetCudaDriverVersion: 1000 major + 10 minor", NULL, NULL},
    {"runtimes.nvml.memory_total_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "nvmlDeviceGetMemoryInfo total", NULL, NULL},
    {"runtimes.nvml.max_sm_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL,
     "nvmlDeviceGetMaxClockInfo NVML_CLOCK_SM", NULL, NULL},
    {"runtimes.nvml.max_graphics_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL,
     "nvmlDeviceGetMaxClockInfo NVML_CLOCK_GRAPHICS", NULL, NULL},
    {"runtimes.nvml.max_memory_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 100000, NULL,
     "nvmlDeviceGetMaxClockInfo NVML_CLOCK_MEM", NULL, NULL},
    {"runtimes.nvml.min_supported_memory_clock_in_mhz", I64, "MHz", GPU, 0, LIMIT, 1, 100000,
     NULL, "the lowest of nvmlDeviceGetSupportedMemoryClocks", NULL, NULL},
    {"runtimes.nvml.max_supported_memory_clock_in_mhz", I64, "MHz", GPU, 0, LIMIT, 1, 100000,
     NULL, "the highest of nvmlDeviceGetSupportedMemoryClocks", NULL, NULL},
    {"runtimes.nvml.min_supported_graphics_clock_in_mhz", I64, "MHz", GPU, 0, LIMIT, 1, 10000,
     NULL, "the lowest of nvmlDeviceGetSupportedGraphicsClocks at the highest memory clock",
     NULL, NULL},
    {"runtimes.nvml.max_supported_graphics_clock_in_mhz", I64, "MHz", GPU, 0, LIMIT, 1, 10000,
     NULL, "the highest of nvmlDeviceGetSupportedGraphicsClocks at the highest memory clock",
     NULL, NULL},
    {"runtimes.nvml.ecc_enabled", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "nvmlDeviceGetEccMode current", NULL, NULL},
    {"runtimes.nvml.ecc_pending", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "nvmlDeviceGetEccMode pending (after the next reboot)", NULL, NULL},
    {"runtimes.nvml.enforced_power_limit_in_watts", I64, "W", GPU, 0, LIMIT, 1, 100000, NULL,
     "nvmlDeviceGetEnforcedPowerLimit, mW / 1000", NULL, NULL},
    {"runtimes.nvml.min_power_limit_in_watts", I64, "W", GPU, 0, LIMIT, 1, 100000, NULL,
     "nvmlDeviceGetPowerManagementLimitConstraints minLimit, mW / 1000: the lowest limit that "
     "may be set", NULL, NULL},
    {"runtimes.nvml.max_power_limit_in_watts", I64, "W", GPU, 0, LIMIT, 1, 100000, NULL,
     "nvmlDeviceGetPowerManagementLimitConstraints maxLimit, mW / 1000: the highest limit that "
     "may be set", NULL, NULL},
    {"runtimes.nvml.max_pcie_link_generation", I64, NULL, GPU, 0, FACT, 1, 16, NULL,
     "nvmlDeviceGetMaxPcieLinkGeneration", NULL, NULL},
    {"runtimes.nvml.max_pcie_link_width", I64, NULL, GPU, 0, FACT, 1, 64, NULL,
     "nvmlDeviceGetMaxPcieLinkWidth", NULL, NULL},
    {"runtimes.nvml.mig_mode", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "nvmlDeviceGetMigMode current is NVML_DEVICE_MIG_ENABLE", NULL, NULL},
    {"runtimes.nvml.mig_mode_pending", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "nvmlDeviceGetMigMode pending is NVML_DEVICE_MIG_ENABLE", NULL, NULL},
    {"runtimes.nvml.max_mig_device_count", I64, NULL, GPU, 0, LIMIT, 0, BIG, NULL,
     "nvmlDeviceGetMaxMigDeviceCount", NULL, NULL},
    /* -- runtimes.rocm: the HSA runtime (probe/rocm.c); HSA_AGENT_INFO_*, HSA_AMD_AGENT_INFO_* */
    {"runtimes.rocm", MAP, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "what the ROCm HSA runtime (libhsa-runtime64.so.1) says of the GPU agent", NULL, NULL},
    {"runtimes.rocm.ordinal", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "the GPU agent's place in hsa_iterate_agents, after ROCR_VISIBLE_DEVICES", NULL, NULL},
    {"runtimes.rocm.agent_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "HSA_AGENT_INFO_NAME (gfx90a)", NULL, NULL},
    {"runtimes.rocm.vendor_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "HSA_AGENT_INFO_VENDOR_NAME", NULL, NULL},
    {"runtimes.rocm.product_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "HSA_AMD_AGENT_INFO_PRODUCT_NAME", NULL, NULL},
    {"runtimes.rocm.uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "HSA_AMD_AGENT_INFO_UUID", NULL,
     NULL},
    {"runtimes.rocm.pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "HSA_AMD_AGENT_INFO_DOMAIN and HSA_AMD_AGENT_INFO_BDFID as dddd:bb:dd.f", NULL, NULL},
    {"runtimes.rocm.isa_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "HSA_ISA_INFO_NAME of the first ISA (amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-)", NULL, NULL},
    {"runtimes.rocm.target_id", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "the ISA name's target id with its features (gfx90a:sramecc+:xnack-)", NULL, NULL},
    {"runtimes.rocm.compute_unit_count", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT", NULL, NULL},
    {"runtimes.rocm.wavefront_size", I64, NULL, GPU, 0, FACT, 1, 1024, NULL,
     "HSA_AGENT_INFO_WAVEFRONT_SIZE", NULL, NULL},
    {"runtimes.rocm.workgroup_max_size", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "HSA_AGENT_INFO_WORKGROUP_MAX_SIZE", NULL, NULL},
    {"runtimes.rocm.workgroup_max_dim", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "HSA_AGENT_INFO_WORKGROUP_MAX_DIM", NULL, NULL},
    {"runtimes.rocm.grid_max_dim", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "HSA_AGENT_INFO_GRID_MAX_DIM", NULL, NULL},
    {"runtimes.rocm.cache_sizes_in_bytes", INTS, "bytes", GPU, 0, FACT, 0, BIG, NULL,
     "HSA_AGENT_INFO_CACHE_SIZE: L1, L2, L3, L4 (0: none)", NULL, NULL},
    {"runtimes.rocm.cacheline_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_CACHELINE_SIZE", NULL, NULL},
    {"runtimes.rocm.max_clock_frequency_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL,
     "HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY", NULL, NULL},
    {"runtimes.rocm.memory_max_frequency_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 100000, NULL,
     "HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY", NULL, NULL},
    {"runtimes.rocm.memory_width_in_bits", I64, "bits", GPU, 0, FACT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_MEMORY_WIDTH", NULL, NULL},
    {"runtimes.rocm.max_waves_per_cu", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU", NULL, NULL},
    {"runtimes.rocm.num_simds_per_cu", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU", NULL, NULL},
    {"runtimes.rocm.num_shader_engines", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES", NULL, NULL},
    {"runtimes.rocm.num_xcc", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "HSA_AMD_AGENT_INFO_NUM_XCC (accelerator complex dies of the agent)", NULL, NULL},
    {"runtimes.rocm.chip_id", I64, NULL, GPU, 0, BOOK, 1, PCI_ID_MAX, NULL,
     "HSA_AMD_AGENT_INFO_CHIP_ID (the PCI device id)", NULL, NULL},
    {"runtimes.rocm.driver_node_id", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "HSA_AMD_AGENT_INFO_DRIVER_NODE_ID (the KFD topology node)", NULL, NULL},
    {"runtimes.rocm.group_segment_size_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1, BIG, NULL,
     "the largest HSA_AMD_SEGMENT_GROUP memory pool: LDS per work-group", NULL, NULL},
    {"runtimes.rocm.global_memory_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the largest coarse-grained HSA_AMD_SEGMENT_GLOBAL memory pool: device memory", NULL, NULL},
    {"runtimes.rocm.visible_devices", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "ROCR_VISIBLE_DEVICES when set (the runtime applied it)", NULL, NULL},
    {"runtimes.rocm.hip_visible_devices", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "HIP_VISIBLE_DEVICES when set (HIP applies it, HSA does not)", NULL, NULL},
    /* -- runtimes.amd_smi: AMD SMI (probe/amd_smi.c) -- */
    {"runtimes.amd_smi", MAP, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "what AMD SMI (libamd_smi.so) says of the GPU", NULL, NULL},
    {"runtimes.amd_smi.index", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "the GPU's place in amdsmi_get_socket_handles and amdsmi_get_processor_handles", NULL, NULL},
    {"runtimes.amd_smi.pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "amdsmi_get_gpu_device_bdf as dddd:bb:dd.f", NULL, NULL},
    {"runtimes.amd_smi.compute_partition", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "amdsmi_get_gpu_compute_partition: SPX, DPX, TPX, QPX, CPX", NULL, NULL},
    {"runtimes.amd_smi.memory_partition", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "amdsmi_get_gpu_memory_partition: NPS1, NPS2, NPS4, NPS8", NULL, NULL},
    /* -- runtimes.level_zero: Level Zero (probe/level_zero.c); ze_*_properties_t fields -- */
    {"runtimes.level_zero", MAP, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "what Level Zero (libze_loader.so.1) says of the device", NULL, NULL},
    {"runtimes.level_zero.driver_index", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "the driver's place in zeDriverGet", NULL, NULL},
    {"runtimes.level_zero.device_index", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "the device's place in zeDeviceGet, after ZE_AFFINITY_MASK", NULL, NULL},
    {"runtimes.level_zero.driver_version", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "ze_driver_properties_t driverVersion (the driver's own encoding)", NULL, NULL},
    {"runtimes.level_zero.api_version", I64, NULL, GPU, 0, BOOK, 1, BIG, NULL,
     "zeDriverGetApiVersion: major << 16 | minor", NULL, NULL},
    {"runtimes.level_zero.name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "ze_device_properties_t name", NULL, NULL},
    {"runtimes.level_zero.uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "ze_device_properties_t uuid, 8-4-4-4-12 hex", NULL, NULL},
    {"runtimes.level_zero.vendor_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "ze_device_properties_t vendorId", NULL, NULL},
    {"runtimes.level_zero.device_id", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "ze_device_properties_t deviceId", NULL, NULL},
    {"runtimes.level_zero.pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "zeDevicePciGetPropertiesExt address as dddd:bb:dd.f", NULL, NULL},
    {"runtimes.level_zero.integrated", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "ze_device_properties_t flags has ZE_DEVICE_PROPERTY_FLAG_INTEGRATED", NULL, NULL},
    {"runtimes.level_zero.ecc_supported", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "ze_device_properties_t flags has ZE_DEVICE_PROPERTY_FLAG_ECC", NULL, NULL},
    {"runtimes.level_zero.core_clock_rate_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL,
     "ze_device_properties_t coreClockRate", NULL, NULL},
    {"runtimes.level_zero.max_mem_alloc_size_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1, BIG,
     NULL, "ze_device_properties_t maxMemAllocSize", NULL, NULL},
    {"runtimes.level_zero.num_threads_per_eu", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "ze_device_properties_t numThreadsPerEU", NULL, NULL},
    {"runtimes.level_zero.physical_eu_simd_width", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "ze_device_properties_t physicalEUSimdWidth", NULL, NULL},
    {"runtimes.level_zero.num_eus_per_subslice", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "ze_device_properties_t numEUsPerSubslice", NULL, NULL},
    {"runtimes.level_zero.num_subslices_per_slice", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "ze_device_properties_t numSubslicesPerSlice", NULL, NULL},
    {"runtimes.level_zero.num_slices", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "ze_device_properties_t numSlices", NULL, NULL},
    {"runtimes.level_zero.max_total_group_size", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "ze_device_compute_properties_t maxTotalGroupSize", NULL, NULL},
    {"runtimes.level_zero.max_group_size", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "ze_device_compute_properties_t maxGroupSizeX, Y, Z", NULL, NULL},
    {"runtimes.level_zero.max_group_count", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "ze_device_compute_properties_t maxGroupCountX, Y, Z", NULL, NULL},
    {"runtimes.level_zero.max_shared_local_memory_in_bytes", I64, "bytes", GPU, 0, LIMIT, 1,
     BIG, NULL, "ze_device_compute_properties_t maxSharedLocalMemory", NULL, NULL},
    {"runtimes.level_zero.subgroup_sizes", INTS, NULL, GPU, 0, LIMIT, 1, 1024, NULL,
     "ze_device_compute_properties_t subGroupSizes[numSubGroupSizes]", NULL, NULL},
    {"runtimes.level_zero.memory_total_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the sum of every ze_device_memory_properties_t totalSize", NULL, NULL},
    {"runtimes.level_zero.memory_max_clock_rate_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 100000,
     NULL, "the first ze_device_memory_properties_t maxClockRate", NULL, NULL},
    {"runtimes.level_zero.memory_max_bus_width_in_bits", I64, "bits", GPU, 0, FACT, 1, BIG, NULL,
     "the first ze_device_memory_properties_t maxBusWidth", NULL, NULL},
    {"runtimes.level_zero.cache_sizes_in_bytes", INTS, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "every ze_device_cache_properties_t cacheSize (levels unnamed)", NULL, NULL},
    {"runtimes.level_zero.pcie_max_generation", I64, NULL, GPU, 0, FACT, 1, 16, NULL,
     "ze_pci_ext_properties_t maxSpeed.genVersion", NULL, NULL},
    {"runtimes.level_zero.pcie_max_width", I64, NULL, GPU, 0, FACT, 1, 64, NULL,
     "ze_pci_ext_properties_t maxSpeed.width", NULL, NULL},
    {"runtimes.level_zero.pcie_max_bandwidth_in_bytes_per_second", I64, "bytes/s", GPU, 0, PEAK,
     1, BIG, NULL, "ze_pci_ext_properties_t maxSpeed.maxBandwidth", NULL, NULL},
    {"runtimes.level_zero.num_sub_devices", I64, NULL, GPU, 0, FACT, 0, BIG, NULL,
     "zeDeviceGetSubDevices count (stacks)", NULL, NULL},
    {"runtimes.level_zero.affinity_mask", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "ZE_AFFINITY_MASK when set (the loader applied it)", NULL, NULL},
    /* -- partitions: MIG instances (NVML), Level Zero sub-devices (stacks) -- */
    {"partitions", MAP, NULL, GPU, 0, FACT, 0, 0, "#",
     "the device's partitions by the runtime's index: NVML MIG instances, Level Zero stacks",
     NULL, NULL},
    {"partitions.*", MAP, NULL, GPU, 0, FACT, 0, 0, NULL, "one partition", NULL, NULL},
    {"partitions.*.kind", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "\"MIG instance\" (NVML) or \"sub-device\" (a Level Zero stack)", NULL, NULL},
    {"partitions.*.index", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "nvmlDeviceGetMigDeviceHandleByIndex index; zeDeviceGetSubDevices index", NULL, NULL},
    {"partitions.*.name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "nvmlDeviceGetName of the MIG instance; the sub-device's name", NULL, NULL},
    {"partitions.*.uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "nvmlDeviceGetUUID (MIG-...); the sub-device's uuid", NULL, NULL},
    {"partitions.*.num_compute_units", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "SMs (nvmlDeviceGetAttributes_v2 multiprocessorCount) or Xe-cores", NULL, NULL},
    {"partitions.*.num_execution_units", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "Level Zero EUs of the stack", NULL, NULL},
    {"partitions.*.memory_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the partition's memory (nvmlDeviceGetMemoryInfo, else memorySizeMB; Level Zero memory)",
     NULL, NULL},
    {"partitions.*.gpu_instance_id", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "nvmlDeviceGetGpuInstanceId", NULL, NULL},
    {"partitions.*.compute_instance_id", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "nvmlDeviceGetComputeInstanceId", NULL, NULL},
    {"partitions.*.gpu_instance_slice_count", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "nvmlDeviceGetAttributes_v2 gpuInstanceSliceCount", NULL, NULL},
    {"partitions.*.compute_instance_slice_count", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "nvmlDeviceGetAttributes_v2 computeInstanceSliceCount", NULL, NULL},
    {"partitions.*.subdevice_id", I64, NULL, GPU, 0, BOOK, 0, BIG, NULL,
     "ze_device_properties_t subdeviceId", NULL, NULL},

    /* ---- GPU peaks: f64 ops/s per data type (_matrix: tensor / matrix cores / XMX) ---- */
    {"peak_ops_per_second", MAP, NULL, GACC, GACC, PEAK, 0, 0, NULL,
     "dense peak per data type", "peak", NULL},
#define PEAK_KEYS(map, D, what)                                                               \
    {map ".fp64_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP64", NULL, NULL},       \
    {map ".fp64_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP64 matrix", NULL, NULL}, \
    {map ".fp32_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP32", NULL, NULL},       \
    {map ".fp32_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP32 matrix", NULL, NULL}, \
    {map ".tf32_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " TF32 matrix", NULL, NULL}, \
    {map ".fp16_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP16", NULL, NULL},       \
    {map ".fp16_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP16 matrix", NULL, NULL}, \
    {map ".bf16_vector", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " BF16", NULL, NULL},       \
    {map ".bf16_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " BF16 matrix", NULL, NULL}, \
    {map ".fp8_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " FP8 matrix", NULL, NULL},   \
    {map ".int8_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " INT8 matrix", NULL, NULL}, \
    {map ".int4_matrix", F64, "ops/s", D, 0, PEAK, 0, 0, NULL, what " INT4 matrix", NULL, NULL}
    PEAK_KEYS("peak_ops_per_second", GACC, "dense"),
    {"peak_sparse_ops_per_second", MAP, NULL, GPU, 0, PEAK, 0, 0, NULL,
     "the same with 2:4 structured sparsity", NULL, NULL},
    PEAK_KEYS("peak_sparse_ops_per_second", GPU, "sparse"),
#undef PEAK_KEYS

    /* ---- what the probe adds to a GPU ---- */
    {"pci_device_id", I64, NULL, GACC, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "the probed device's PCI device id", NULL, NULL},
    {"pci_subvendor_id", I64, NULL, GACC, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI subsystem vendor id", NULL, NULL},
    {"pci_subdevice_id", I64, NULL, GACC, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI subsystem device id", NULL, NULL},
    {"pci_class_id", I64, NULL, GACC, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "class << 8 | subclass", NULL, NULL},
    {"pci_bus_id", STR, NULL, GACC, 0, BOOK, 0, 0, NULL, "dddd:bb:dd.f", "PCI", NULL},
    {"pci_vendor_name", STR, NULL, GACC, 0, BOOK, 0, 0, NULL,
     "the PCI vendor's name as the system reports it", NULL, NULL},
    {"os_devices", STRS, NULL, GPU, 0, BOOK, 0, 0, NULL, "hwloc OS devices of the GPU", NULL, NULL},
    {"opencl_device_type", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "hwloc OpenCLDeviceType",
     NULL, NULL},
    {"opencl_platform_name", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "hwloc OpenCLPlatformName", NULL, NULL},
    {"hwloc_info", OPEN, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "every raw hwloc info string per OS device", NULL, NULL},

    /* ---- locality of I/O devices, with I/O discovery (probe/host/locality.c) ---- */
    {"numa_node", I64, NULL, GACC, 0, FACT, 0, BIG, NULL,
     "the NUMA node of the device's PCI bus (hwloc locality; absent when not one node)",
     "NUMA node", NULL},
    {"network", OPEN, NULL, CPU, 0, FACT, 0, 0, NULL,
     "network and OpenFabrics devices (hwloc OS devices) by OS name, each a map: type "
     "(network, openfabrics), numa_node, pci_bus_id, pci_vendor_id, pci_device_id, model",
     NULL, NULL},

    /* ---- bookkeeping of every device ---- */
    {"source", OPEN, NULL, ALL, 0, BOOK, 0, 0, NULL,
     "where each value came from: dotted path -> source", NULL, NULL},
    {"suspect", STRS, NULL, ALL, 0, BOOK, 0, 0, NULL,
     "dotted paths of values that failed a sanity check", NULL, NULL},
    {"extra", OPEN, NULL, ALL, 0, BOOK, 0, 0, NULL,
     "users' own keys: anything, not checked", NULL, NULL},
};

size_t sysdesc_schema_size(void)
{
    return sizeof(schema) / sizeof(schema[0]);
}

const sysdesc_schema_key *sysdesc_schema_key_at(size_t i)
{
    return i < sysdesc_schema_size() ? &schema[i] : NULL;
}

/* schema.c indexes the table in fixed arrays of this size. */
_Static_assert(sizeof(schema) / sizeof(schema[0]) <= SD_SCHEMA_MAX_KEYS, "schema index too small");
