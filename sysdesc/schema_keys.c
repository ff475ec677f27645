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

/* path, type, unit, devices, required (by devices), class, min, max, names, meaning, summary */
static const sysdesc_schema_key schema[] = {
    /* ---- every device ---- */
    {"device_type", STR, NULL, ANY, ANY, BOOK, 0, 0, NULL,
     "\"CPU\" or \"GPU\"", NULL},
    {"schema_version", I64, NULL, ANY, 0, BOOK, 1, BIG, NULL,
     "the schema version the device follows (1)", NULL},
    {"vendor", STR, NULL, ANY, ANY, FACT, 0, 0, NULL,
     "CPU: the CPUID vendor (GenuineIntel, AuthenticAMD); GPU: NVIDIA, AMD, Intel", "vendor"},
    {"model", STR, NULL, ANY, ANY, FACT, 0, 0, NULL,
     "the product name; a GPU partition says so, as in Instinct MI250X (one GCD)", "model"},
    {"arch", STR, NULL, ANY, ANY, FACT, 0, 0, NULL,
     "CPU: x86_64, aarch64; GPU: the compiler target sm_90, gfx942, pvc", "arch"},

    /* ---- CPU identity ---- */
    {"cpu_family", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID family", NULL},
    {"cpu_model_number", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID model", NULL},
    {"cpu_stepping", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "x86 CPUID stepping", NULL},
    {"cpu_implementer", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR implementer", NULL},
    {"cpu_variant", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR variant", NULL},
    {"cpu_part_number", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR part number", NULL},
    {"cpu_revision", I64, NULL, CPU, 0, FACT, 0, BIG, NULL, "ARM MIDR revision", NULL},
    {"hostname", STR, NULL, CPU, 0, BOOK, 0, 0, NULL, "the node's host name", "host"},

    /* ---- CPU counts ---- */
    {"num_packages", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "packages with at least one usable PU", "packages"},
    {"total_num_packages", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "all packages, when different", NULL},
    {"num_cores", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "cores with at least one usable PU", "cores"},
    {"total_num_cores", I64, NULL, CPU, 0, FACT, 1, BIG, NULL, "all cores, when different", NULL},
    {"num_threads", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "usable hardware threads (nproc)", "threads"},
    {"total_num_threads", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "all hardware threads, when different", NULL},
    {"num_numa_nodes", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "NUMA nodes in the allowed nodeset", "NUMA nodes"},
    {"total_num_numa_nodes", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "all NUMA nodes, when different", NULL},

    /* ---- flat cache keys (CPU: one instance; GPU: L1 per compute unit, L2 per device) ---- */
    {"L1_cache_size_in_bytes", I64, "bytes", ANY, 0, FACT, 1, BIG, NULL,
     "CPU: = cache.L1.size_in_bytes; GPU: L1 per compute unit (NVIDIA: L1 + shared memory)", NULL},
    {"L2_cache_size_in_bytes", I64, "bytes", ANY, GPU, FACT, 1, BIG, NULL,
     "CPU: = cache.L2.size_in_bytes; GPU: the whole device's L2", "L2"},
    {"L3_cache_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "= cache.L3.size_in_bytes", NULL},
    {"max_vector_op_width", I64, "bits", CPU, 0, LIMIT, 1, BIG, NULL,
     "widest vector register the ISA and the OS allow", "vector width"},

    /* ---- CPU caches ---- */
    {"cache", MAP, NULL, CPU, 0, FACT, 0, 0, "L1 L1i L2 L2i L3 L3i L4 L5",
     "one map per cache level: Lk data or unified, Lki instruction", NULL},
    {"cache.*", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "one cache level", "cache"},
    {"cache.*.size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "size of one instance", NULL},
    {"cache.*.line_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "cache line size", NULL},
    {"cache.*.associativity", I64, "ways", CPU, 0, FACT, -1, BIG, NULL,
     "ways; -1 fully associative (0 is not a value: unknown is absent)", NULL},
    {"cache.*.num_instances", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "instances serving a usable PU", NULL},
    {"cache.*.threads_per_instance", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "hardware threads sharing one instance", NULL},
    {"cache.*.inclusive", BOOL, NULL, CPU, 0, FACT, 0, 0, NULL,
     "inclusive of the levels below", NULL},
    {"cache.*.type", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "data, unified or instruction", NULL},
    {"cache.*.min_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "smallest instance, when instances differ", NULL},
    {"cache.*.max_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "largest instance, when instances differ", NULL},

    /* ---- CPU memory ---- */
    {"memory", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "the memory the CPU device may use", NULL},
    {"memory.total_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "the allowed NUMA nodes' memory", "memory"},
    {"memory.numa_node_size_in_bytes", INTS, "bytes", CPU, 0, FACT, 0, BIG, NULL,
     "one per allowed NUMA node", NULL},
    {"memory.os_total_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "/proc/meminfo MemTotal", NULL},
    {"memory.cgroup_limit_in_bytes", I64, "bytes", CPU, 0, LIMIT, 1, BIG, NULL,
     "the cgroup memory limit", "memory limit"},
    {"memory.page_size_in_bytes", I64, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "the smallest page size", NULL},
    {"memory.page_sizes_in_bytes", INTS, "bytes", CPU, 0, FACT, 1, BIG, NULL,
     "every page size", NULL},

    /* ---- CPU ISA and frequency ---- */
    {"features", STRS, NULL, CPU, 0, FACT, 0, 0, NULL,
     "LLVM target feature names usable here", NULL},
    {"sve_vector_length_in_bits", I64, "bits", CPU, 0, FACT, 1, BIG, NULL,
     "SVE vector length (aarch64)", NULL},
    {"max_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "cpufreq maximum of the first usable PU", "max clock"},
    {"base_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "cpufreq base frequency", NULL},

    /* ---- CPU kinds ---- */
    {"num_cpu_kinds", I64, NULL, CPU, 0, FACT, 1, BIG, NULL, "kinds with a usable PU", NULL},
    {"cpu_kinds", MAP, NULL, CPU, 0, FACT, 0, 0, "#",
     "one map per CPU kind, most energy-efficient first", NULL},
    {"cpu_kinds.*", MAP, NULL, CPU, 0, FACT, 0, 0, NULL, "one CPU kind", NULL},
    {"cpu_kinds.*.efficiency_rank", I64, NULL, CPU, 0, FACT, 0, BIG, NULL,
     "hwloc efficiency, 0 most efficient", NULL},
    {"cpu_kinds.*.num_cores", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "cores of this kind", NULL},
    {"cpu_kinds.*.num_threads", I64, NULL, CPU, 0, FACT, 1, BIG, NULL,
     "usable PUs of this kind", NULL},
    {"cpu_kinds.*.core_type", STR, NULL, CPU, 0, FACT, 0, 0, NULL,
     "hwloc CoreType (IntelAtom, IntelCore)", NULL},
    {"cpu_kinds.*.max_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "hwloc FrequencyMaxMHz", NULL},
    {"cpu_kinds.*.base_frequency_mhz", I64, "MHz", CPU, 0, PEAK, 1, 100000, NULL,
     "hwloc FrequencyBaseMHz", NULL},
    {"cpu_kinds.*.linux_capacity", I64, NULL, CPU, 0, FACT, 0, BIG, NULL,
     "hwloc LinuxCapacity", NULL},

    /* ---- GPU identity ---- */
    {"compute_capability", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "NVIDIA only: \"9.0\"", NULL},
    {"form_factor", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "SXM5, PCIe, OAM", NULL},
    {"pci_vendor_id", I64, NULL, GPU, GPU, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI vendor id: 0x10de, 0x1002, 0x8086", NULL},
    {"pci_device_ids", INTS, NULL, GPU, GPU, BOOK, 0, PCI_ID_MAX, NULL,
     "the PCI device ids a description is for", NULL},
    {"is_partition", BOOL, NULL, GPU, GPU, FACT, 0, 0, NULL,
     "the runtime device is part of a package (MI250X GCD, PVC stack)", NULL},
    {"num_partitions_per_package", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "partitions of a package (needed when is_partition)", NULL},
    {"tdp_in_watts", I64, "W", GPU, 0, FACT, 1, 100000, NULL, "board power", "TDP"},

    /* ---- GPU compute ---- */
    {"num_compute_units", I64, NULL, GPU, GPU, FACT, 1, BIG, NULL,
     "SMs / CUs / Xe-cores (multiProcessorCount)", "compute units"},
    {"compute_unit_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "SM, CU, Xe-core", NULL},
    {"cores_per_compute_unit", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "CUDA cores per SM (hwloc CUDACoresPerMP)", NULL},
    {"subgroup_sizes", INTS, NULL, GPU, GPU, LIMIT, 1, 1024, NULL,
     "warp / wavefront / sub-group sizes", "subgroup sizes"},
    {"max_threads_per_block", I64, NULL, GPU, GPU, LIMIT, 1, BIG, NULL,
     "maxThreadsPerBlock, max work-group size", "threads/block"},
    {"max_threads_per_compute_unit", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "maxThreadsPerMultiProcessor", NULL},
    {"max_blocks_per_compute_unit", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "maxBlocksPerMultiProcessor", NULL},
    {"max_block_dims", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL, "maxThreadsDim", NULL},
    {"max_grid_dims", INTS, NULL, GPU, 0, LIMIT, 1, BIG, NULL, "maxGridSize", NULL},
    {"registers_per_compute_unit", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "32-bit registers per compute unit", NULL},
    {"registers_per_block", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL, "regsPerBlock", NULL},
    {"max_registers_per_thread", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "255 (NVIDIA), 512 VGPRs (CDNA), 128 GRF (PVC)", NULL},

    /* ---- GPU memory ---- */
    {"shared_memory_per_block_in_bytes", I64, "bytes", GPU, GPU, LIMIT, 1, BIG, NULL,
     "default limit per block (sharedMemPerBlock)", "shared memory/block"},
    {"max_shared_memory_per_block_in_bytes", I64, "bytes", GPU, GPU, LIMIT, 1, BIG, NULL,
     "opt-in limit per block (sharedMemPerBlockOptin)", "opt-in shared/block"},
    {"shared_memory_per_compute_unit_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "sharedMemPerMultiprocessor, LDS per CU, SLM per Xe-core", NULL},
    {"num_L2_caches", I64, NULL, GPU, 0, FACT, 1, BIG, NULL, "separate L2 instances", NULL},
    {"last_level_cache_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the largest cache (L2, or Infinity Cache)", NULL},
    {"memory_type", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "HBM3, GDDR6X", NULL},
    {"memory_size_in_bytes", I64, "bytes", GPU, GPU, FACT, 1, BIG, NULL,
     "device memory programs can use (per partition), as the runtimes report it", "memory"},
    {"nominal_memory_size_in_bytes", I64, "bytes", GPU, 0, FACT, 1, BIG, NULL,
     "the marketed capacity (80 GB), when it differs from what programs see", NULL},
    {"memory_bus_width_in_bits", I64, "bits", GPU, 0, FACT, 1, BIG, NULL,
     "memoryBusWidth", NULL},
    {"memory_bandwidth_in_bytes_per_second", I64, "bytes/s", GPU, GPU, PEAK, 1000000000, BIG,
     NULL, "peak memory bandwidth", "memory bandwidth"},
    {"max_clock_in_mhz", I64, "MHz", GPU, GPU, PEAK, 1, 10000, NULL,
     "boost / peak engine clock", "max clock"},
    {"base_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 10000, NULL, "base clock", NULL},
    {"memory_clock_in_mhz", I64, "MHz", GPU, 0, PEAK, 1, 100000, NULL, "memory clock", NULL},

    /* ---- GPU limits and identity shared by the runtimes and the catalog ---- */
    {"reserved_shared_memory_per_block_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0, BIG, NULL,
     "shared memory the system reserves per block (reservedSharedMemPerBlock)", NULL},
    {"max_persisting_L2_cache_size_in_bytes", I64, "bytes", GPU, 0, LIMIT, 0, BIG, NULL,
     "L2 that may be set aside for persisting accesses (persistingL2CacheMaxSize)", NULL},
    {"max_cluster_size", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "blocks per thread block cluster, portable limit (Hopper and later: 8)", NULL},
    {"max_nonportable_cluster_size", I64, NULL, GPU, 0, LIMIT, 1, BIG, NULL,
     "blocks per cluster with cudaFuncAttributeNonPortableClusterSizeAllowed", NULL},
    {"num_execution_units", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "Intel EUs (vector engines): not compute units", NULL},
    {"threads_per_execution_unit", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "hardware threads per EU", NULL},
    {"execution_unit_simd_width", I64, NULL, GPU, 0, FACT, 1, BIG, NULL,
     "SIMD lanes per EU (physical)", NULL},
    {"uuid", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "the runtime's device UUID (GPU-..., MIG-...)",
     NULL},
    {"driver_version", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "the kernel driver's version",
     "driver"},
    {"ecc_enabled", BOOL, NULL, GPU, 0, FACT, 0, 0, NULL, "ECC on device memory is on", NULL},
    {"power_limit_in_watts", I64, "W", GPU, 0, LIMIT, 1, 100000, NULL,
     "the enforced board power limit", NULL},
    {"pcie_generation", I64, NULL, GPU, 0, FACT, 1, 16, NULL, "PCIe generation (max)", NULL},
    {"pcie_link_width", I64, NULL, GPU, 0, FACT, 1, 64, NULL, "PCIe lanes (max)", NULL},
    {"interconnect", MAP, NULL, GPU, 0, FACT, 0, 0, NULL,
     "the GPU-to-GPU link (NVLink, Infinity Fabric, Xe Link)", NULL},
    {"interconnect.name", STR, NULL, GPU, 0, FACT, 0, 0, NULL, "NVLink 4, Infinity Fabric",
     NULL},
    {"interconnect.num_links", I64, NULL, GPU, 0, FACT, 1, BIG, NULL, "links per device", NULL},
    {"interconnect.bandwidth_per_link_in_bytes_per_second", I64, "bytes/s", GPU, 0, PEAK, 1, BIG,
     NULL, "one direction, one link", NULL},
    {"interconnect.total_bandwidth_in_bytes_per_second", I64, "bytes/s", GPU, 0, PEAK, 1, BIG,
     NULL, "both directions, all links, as vendors quote it", NULL},

    /* ---- matrix units (tensor cores, MFMA, WMMA, XMX) ---- */
    {"matrix_instruction_name", STR, NULL, GPU, 0, FACT, 0, 0, NULL,
     "the matrix instructions: wgmma/mma.sync, MFMA, WMMA, DPAS", NULL},
    {"matrix_instruction_shapes", MAP, NULL, GPU, 0, FACT, 0, 0,
     "fp64 fp32 tf32 fp16 bf16 fp8 fp6 fp4 int8 int4",
     "per input data type, the shapes one instruction computes", NULL},
    {"matrix_instruction_shapes.*", STRS, NULL, GPU, 0, FACT, 0, 0, NULL,
     "\"MxNxK\" shapes, as the ISA reference lists them", NULL},

    /* ---- what the vendor runtimes saw, each in its own words (docs/runtimes.md) ---- */
    {"runtimes", MAP, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "one map per runtime that saw the device", NULL},
    /* runtimes.opencl.*, runtimes.vulkan.*: the OpenCL and Vulkan probes */
    /* runtimes.cuda.*, runtimes.nvml.*, runtimes.rocm.*, runtimes.amd_smi.*,
     * runtimes.level_zero.*: the CUDA, NVML, ROCm and Level Zero probes */

    /* ---- GPU peaks: f64 ops/s per data type (_matrix: tensor / matrix cores / XMX) ---- */
    {"peak_ops_per_second", MAP, NULL, GPU, GPU, PEAK, 0, 0, NULL,
     "dense peak per data type", "peak"},
#define PEAK_KEYS(map, what)                                                                  \
    {map ".fp64_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP64", NULL},     \
    {map ".fp64_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP64 matrix", NULL}, \
    {map ".fp32_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP32", NULL},     \
    {map ".fp32_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP32 matrix", NULL}, \
    {map ".tf32_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " TF32 matrix", NULL}, \
    {map ".fp16_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP16", NULL},     \
    {map ".fp16_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP16 matrix", NULL}, \
    {map ".bf16_vector", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " BF16", NULL},     \
    {map ".bf16_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " BF16 matrix", NULL}, \
    {map ".fp8_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " FP8 matrix", NULL},   \
    {map ".int8_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " INT8 matrix", NULL}, \
    {map ".int4_matrix", F64, "ops/s", GPU, 0, PEAK, 0, 0, NULL, what " INT4 matrix", NULL}
    PEAK_KEYS("peak_ops_per_second", "dense"),
    {"peak_sparse_ops_per_second", MAP, NULL, GPU, 0, PEAK, 0, 0, NULL,
     "the same with 2:4 structured sparsity", NULL},
    PEAK_KEYS("peak_sparse_ops_per_second", "sparse"),
#undef PEAK_KEYS

    /* ---- what the probe adds to a GPU ---- */
    {"pci_device_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "the probed device's PCI device id", NULL},
    {"pci_subvendor_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI subsystem vendor id", NULL},
    {"pci_subdevice_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "PCI subsystem device id", NULL},
    {"pci_class_id", I64, NULL, GPU, 0, BOOK, 0, PCI_ID_MAX, NULL,
     "class << 8 | subclass", NULL},
    {"pci_bus_id", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "dddd:bb:dd.f", "PCI"},
    {"pci_vendor_name", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "the PCI vendor's name as the system reports it", NULL},
    {"os_devices", STRS, NULL, GPU, 0, BOOK, 0, 0, NULL, "hwloc OS devices of the GPU", NULL},
    {"opencl_device_type", STR, NULL, GPU, 0, BOOK, 0, 0, NULL, "hwloc OpenCLDeviceType", NULL},
    {"opencl_platform_name", STR, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "hwloc OpenCLPlatformName", NULL},
    {"hwloc_info", OPEN, NULL, GPU, 0, BOOK, 0, 0, NULL,
     "every raw hwloc info string per OS device", NULL},

    /* ---- locality of I/O devices, with I/O discovery (probe/locality.c) ---- */
    {"numa_node", I64, NULL, GPU, 0, FACT, 0, BIG, NULL,
     "the NUMA node of the device's PCI bus (hwloc locality; absent when not one node)", "NUMA node"},
    {"network", OPEN, NULL, CPU, 0, FACT, 0, 0, NULL,
     "network and OpenFabrics devices (hwloc OS devices) by OS name, each a map: type "
     "(network, openfabrics), numa_node, pci_bus_id, pci_vendor_id, pci_device_id, model",
     NULL},

    /* ---- bookkeeping of every device ---- */
    {"source", OPEN, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "where each value came from: dotted path -> source", NULL},
    {"suspect", STRS, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "dotted paths of values that failed a sanity check", NULL},
    {"extra", OPEN, NULL, ANY, 0, BOOK, 0, 0, NULL,
     "users' own keys: anything, not checked", NULL},
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
