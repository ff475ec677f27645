/* The device schema (sysdesc/schema.h): every key a device spec may hold.
 * This table is the single source: docs/keys.md is checked against it
 * (tests/sysdesc/schema_docs.sh), the checker and `sysdesc summary` read it.
 * Order: documentation order, a map before the keys inside it. */
#include "sysdesc_private.h"

#include <stdint.h>

#define CPU SYSDESC_DEVICE_CPU
#define GPU SYSDESC_DEVICE_GPU
#define ANY (SYSDESC_DEVICE_CPU | SYSDESC_DEVICE_GPU)
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

/* path, type, unit, devices, required (by devices), class, min, max, names, meaning, summary,
 * required_if (a boolean key: required only where it is not false) */
static const sysdesc_schema_key schema[] = {
    /* ---- every device ---- */
    {"device_type", STR, NULL, ANY, ANY, BOOK, 0, 0, NULL,
     "\"CPU\" or \"GPU\"", NULL, NULL},
    {"schema_version", I64, NULL, ANY, 0, BOOK, 1, BIG, NULL,
     "the schema version the device follows (1)", NULL, NULL},
    {"vendor", STR, NULL, ANY, ANY, FACT, 0, 0, NULL,
     "CPU: the CPUID vendor (GenuineIntel, AuthenticAMD); GPU: NVIDIA, AMD, Intel", "vendor", NULL},
    {"model", STR, NULL, ANY, ANY, FACT, 0, 0, NULL,
     "the product name; a GPU partition says so, as in Instinct MI250X (one GCD)", "model", NULL},
    {"arch", STR, NULL, ANY, ANY, FACT, 0, 0, NULL,
     "CPU: x86_64, aarch64; GPU: the compiler target sm_90, gfx942, pvc", "arch", NULL},

    /* ---- CPU identity ---- */
    {"cpu_family", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID family", NULL, NULL},
    {"cpu_model_number", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID model", NULL, NULL},
    {"cpu_stepping", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID stepping", NULL, NULL},
    {"cpu_implementer", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR implementer", NULL, NULL},
    {"cpu_variant", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR variant", NULL, NULL},
    {"cpu_part_number", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR part number", NULL, NULL},
    {"cpu_revision", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR revision", NULL, NULL},
    {"hostname", STR, NULL, CPU, 0, BOOK, 0, 0, NULL, "the node's host name", "host", NULL},
    /* ---- CPU identity keys (uarch branch): here so the catalog's CPUs check; the
     * uarch branch defines them (its wording wins when the two meet) ---- */
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
     "the allowed NUMA nodes' memory", "memory", NULL},
    {"memory.numa_node_size_in_bytes", INTS, "bytes", CPU, 0, FACT, 0, BIG, NULL,
     "one per allowed NUMA node", NULL, NULL},
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

    /* ---- GPU identity ---- */
    {"compute_capability", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "NVIDIA only: \"9.0\"", NULL, NULL},
    {"form_factor", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "SXM5, PCIe, OAM, SoC", NULL, NULL},
    {"is_pci_device", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL,
     "false for a GPU that is no PCI device (the GPU of an Apple M-series SoC): it has no PCI "
     "ids; absent means true",
     NULL, NULL},
    {"pci_vendor_id", I64, NULL, GPU, GPU, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI vendor id: 0x10de, 0x1002, 0x8086", NULL, "is_pci_device"},
    {"pci_device_ids", INTS, NULL, GPU, GPU, BOOK, 0, PCI_ID_MAX, NULL,
     "the PCI device ids a description is for", NULL, "is_pci_device"},
    {"is_partition", BOOL, NULL, GPU, GPU, FACT, 0, 0, NULL,
     "the runtime device is part of a package (MI250X GCD, PVC stack)", NULL, NULL},
    {"num_partitions_per_package", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "partitions of a package (needed when is_partition)", NULL, NULL},
    {"tdp_in_watts", I64, "W", GPU, 0, FACT, 1, 100000, NULL, "board power", "TDP", NULL},

    /* ---- GPU compute ---- */
    {"num_compute_units", I64, NULL, GPU, GPU, FACT, 1, BIG, NULL,
     "SMs / CUs / Xe-cores (multiProcessorCount)", "compute units", NULL},
    {"compute_unit_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "SM, CU, Xe-core", NULL, NULL},
    {"cores_per_compute_unit", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "CUDA cores per SM (hwloc CUDACoresPerMP)", NULL, NULL},
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
     "255 (NVIDIA), 512 VGPRs (CDNA), 128 GRF (PVC)", NULL, NULL},

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
    {"memory_type", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "HBM3, GDDR6X", NULL, NULL},
    {"memory_size_in_bytes", I64, "bytes", GPU, GPU, FACT, 1, BIG, NULL,
     "device memory programs can use (per partition), as the runtimes report it", "memory", NULL},
    {"nominal_memory_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the marketed capacity (80 GB), when it differs from what programs see", NULL, NULL},
    {"memory_bus_width_in_bits", I64, "bits", GPU, 0, FACT, 1, BIG, NULL,
     "memoryBusWidth", NULL, NULL},
    {"memory_bandwidth_in_bytes_per_second", I64, "bytes/s", GPU, GPU, PEAK, 1000000000, BIG,
     NULL, "peak memory bandwidth", "memory bandwidth", NULL},
    {"max_clock_in_mhz", I64, "MHz", GPU, GPU, PEAK, 1, 10000, NULL,
     "boost / peak engine clock", "max clock", NULL},
    {"base_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL, "base clock", NULL, NULL},
    {"memory_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 100000, NULL, "memory clock", NULL, NULL},

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
    {"driver_version", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "the kernel driver's version",
     "driver", NULL},
    {"ecc_enabled", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL, "ECC on device memory is on", NULL, NULL},
    {"power_limit_in_watts", I64, "W", GPU, 0, LIMIT, 1, 100000, NULL,
     "the enforced board power limit", NULL, NULL},
    {"pcie_generation", I64, NULL, GPU, 0, FACT, 1, 16, NULL, "PCIe generation (max)", NULL, NULL},
    {"pcie_link_width", I64, NULL, GPU, 0, FACT, 1, 64, NULL, "PCIe lanes (max)", NULL, NULL},
    {"interconnect", MAP, NULL, GPU, 0, FACT, 0, 0, NULL,
     "the GPU-to-GPU link (NVLink, Infinity Fabric, Xe Link)", NULL, NULL},
    {"interconnect.name", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "NVLink 4, Infinity Fabric",
     NULL, NULL},
    {"interconnect.num_links", I64, NULL, GPU, 0, FACT, 1, BIG, NULL, "links per device",
     NULL, NULL},
    {"interconnect.bandwidth_per_link_in_bytes_per_second", I64, "bytes/s", GPU, 0, PEAK, 1, BIG,
     NULL, "one direction, one link", NULL, NULL},
    {"interconnect.total_bandwidth_in_bytes_per_second", I64, "bytes/s", GPU, 0, PEAK, 1, BIG,
     NULL, "both directions, all links, as vendors quote it", NULL, NULL},

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
    /* runtimes.cuda.*, runtimes.nvml.*, runtimes.rocm.*, runtimes.amd_smi.*,
     * runtimes.level_zero.*: the CUDA, NVML, ROCm and Level Zero probes */

    /* ---- GPU peaks: f64 ops/s per data type (_matrix: tensor / matrix cores / XMX) ---- */
    {"peak_ops_per_second", MAP, NULL, GPU, GPU, PEAK, 0, 0, NULL,
     "dense peak per data type", "peak", NULL},
#define PEAK_KEYS(map, what)                                                                  \
    {map ".fp64_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP64", NULL, NULL},     \
    {map ".fp64_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP64 matrix", NULL, NULL}, \
    {map ".fp32_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP32", NULL, NULL},     \
    {map ".fp32_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP32 matrix", NULL, NULL}, \
    {map ".tf32_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " TF32 matrix", NULL, NULL}, \
    {map ".fp16_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP16", NULL, NULL},     \
    {map ".fp16_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP16 matrix", NULL, NULL}, \
    {map ".bf16_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " BF16", NULL, NULL},     \
    {map ".bf16_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " BF16 matrix", NULL, NULL}, \
    {map ".fp8_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP8 matrix", NULL, NULL},   \
    {map ".int8_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " INT8 matrix", NULL, NULL}, \
    {map ".int4_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " INT4 matrix", NULL, NULL}
    PEAK_KEYS("peak_ops_per_second", "dense"),
    {"peak_sparse_ops_per_second", MAP, NULL, GPU, 0, PEAK, 0, 0, NULL,
     "the same with 2:4 structured sparsity", NULL, NULL},
    PEAK_KEYS("peak_sparse_ops_per_second", "sparse"),
#undef PEAK_KEYS

    /* ---- what the probe adds to a GPU ---- */
    {"pci_device_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "the probed device's PCI device id", NULL, NULL},
    {"pci_subvendor_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI subsystem vendor id", NULL, NULL},
    {"pci_subdevice_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI subsystem device id", NULL, NULL},
    {"pci_class_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "class << 8 | subclass", NULL, NULL},
    {"pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "dddd:bb:dd.f", "PCI", NULL},
    {"pci_vendor_name", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "the PCI vendor's name as the system reports it", NULL, NULL},
    {"os_devices", STRS, NULL, GPU, 0, BOOK, 0, 0, NULL, "hwloc OS devices of the GPU", NULL, NULL},
    {"opencl_device_type", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "hwloc OpenCLDeviceType",
     NULL, NULL},
    {"opencl_platform_name", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "hwloc OpenCLPlatformName", NULL, NULL},
    {"hwloc_info", OPEN, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "every raw hwloc info string per OS device", NULL, NULL},

    /* ---- bookkeeping of every device ---- */
    {"source", OPEN, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "where each value came from: dotted path -> source", NULL, NULL},
    {"suspect", STRS, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "dotted paths of values that failed a sanity check", NULL, NULL},
    {"extra", OPEN, NULL, ANY, 0, BOOK, 0, 0, NULL,
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
