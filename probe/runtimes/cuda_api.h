/* cuda_api.h - the CUDA driver API declarations the probe (cuda.c) and the
 * device measurement (measure/measure_dev_cuda.c) share, written from
 * NVIDIA's CUDA Driver API reference: libcuda.so.1 is opened with dlopen
 * and no CUDA header is needed to build.  Not installed. */
#ifndef SYSDESC_CUDA_API_H
#define SYSDESC_CUDA_API_H

#include <stddef.h>

/* "Data types used by CUDA driver": CUresult (CUDA_SUCCESS = 0), CUdevice
 * (int), CUuuid (char bytes[16]), CUdeviceptr, and the opaque handles. */
typedef int cu_result;
typedef int cu_device;
typedef struct cu_uuid {
    unsigned char bytes[16];
} cu_uuid;
typedef unsigned long long cu_ptr;
typedef struct cu_ctx *cu_context;
typedef struct cu_mod *cu_module;
typedef struct cu_fn *cu_function;
typedef struct cu_ev *cu_event;
typedef struct cu_st *cu_stream;

/* CUDA Driver API reference, enum CUdevice_attribute (cuda.h,
 * CUdevice_attribute_enum).  Only the values read here. */
enum {
    CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_ATTR_MAX_BLOCK_DIM_X = 2,
    CU_ATTR_MAX_BLOCK_DIM_Y = 3,
    CU_ATTR_MAX_BLOCK_DIM_Z = 4,
    CU_ATTR_MAX_GRID_DIM_X = 5,
    CU_ATTR_MAX_GRID_DIM_Y = 6,
    CU_ATTR_MAX_GRID_DIM_Z = 7,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_ATTR_TOTAL_CONSTANT_MEMORY = 9,
    CU_ATTR_WARP_SIZE = 10,
    CU_ATTR_MAX_REGISTERS_PER_BLOCK = 12,
    CU_ATTR_CLOCK_RATE = 13, /* kHz */
    CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    CU_ATTR_INTEGRATED = 18,
    CU_ATTR_CONCURRENT_KERNELS = 31,
    CU_ATTR_ECC_ENABLED = 32,
    CU_ATTR_MEMORY_CLOCK_RATE = 36, /* kHz */
    CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_ATTR_L2_CACHE_SIZE = 38,
    CU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_ATTR_ASYNC_ENGINE_COUNT = 40,
    CU_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
    CU_ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
    CU_ATTR_MANAGED_MEMORY = 83,
    CU_ATTR_MULTI_GPU_BOARD = 84,
    CU_ATTR_COOPERATIVE_LAUNCH = 95,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
    CU_ATTR_MAX_PERSISTING_L2_CACHE_SIZE = 108,
    CU_ATTR_MAX_ACCESS_POLICY_WINDOW_SIZE = 109,
    CU_ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
    CU_ATTR_CLUSTER_LAUNCH = 120,
};

/* enum CUjit_option: the two the measurement passes. */
enum {
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The entry points ("Initialization", "Version Management", "Device
 * Management", "Context Management", "Module Management", "Memory
 * Management", "Execution Control", "Event Management", "Error Handling"),
 * one struct for both: the measurement fills it by cu_api_names, in order
 * (the first CU_API_MEASURE_REQUIRED required); the probe loads what it
 * reads by name. */
typedef struct cu_api {
    cu_result (*init)(unsigned flags);
    cu_result (*driver_get_version)(int *version);
    cu_result (*device_get)(cu_device *dev, int ordinal);
    cu_result (*device_get_name)(char *name, int len, cu_device dev);
    cu_result (*device_get_attribute)(int *v, int attrib, cu_device dev);
    cu_result (*device_total_mem)(size_t *bytes, cu_device dev);
    cu_result (*ctx_create)(cu_context *, unsigned, cu_device);
    cu_result (*ctx_destroy)(cu_context);
    cu_result (*module_load)(cu_module *, const void *, unsigned, int *, void **);
    cu_result (*module_get_function)(cu_function *, cu_module, const char *);
    cu_result (*module_unload)(cu_module);
    cu_result (*mem_alloc)(cu_ptr *, size_t);
    cu_result (*mem_free)(cu_ptr);
    cu_result (*mem_alloc_host)(void **, size_t);
    cu_result (*mem_free_host)(void *);
    cu_result (*memcpy_htod)(cu_ptr, const void *, size_t);
    cu_result (*memcpy_dtoh)(void *, cu_ptr, size_t);
    cu_result (*memcpy_htod_async)(cu_ptr, const void *, size_t, cu_stream);
    cu_result (*memcpy_dtoh_async)(void *, cu_ptr, size_t, cu_stream);
    cu_result (*launch_kernel)(cu_function, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, cu_stream, void **, void **);
    cu_result (*event_create)(cu_event *, unsigned);
    cu_result (*event_record)(cu_event, cu_stream);
    cu_result (*event_synchronize)(cu_event);
    cu_result (*event_elapsed_time)(float *, cu_event, cu_event);
    cu_result (*event_destroy)(cu_event);
    /* optional for the measurement */
    cu_result (*get_error_name)(cu_result error, const char **name);
    cu_result (*device_get_count)(int *count);
    cu_result (*device_get_uuid)(cu_uuid *uuid, cu_device dev);
    cu_result (*device_get_pci_bus_id)(char *id, int len, cu_device dev);
} cu_api;

__attribute__((unused)) static const char *const cu_api_names[] = {
    "cuInit", "cuDriverGetVersion", "cuDeviceGet", "cuDeviceGetName", "cuDeviceGetAttribute",
    "cuDeviceTotalMem_v2", "cuCtxCreate_v2", "cuCtxDestroy_v2", "cuModuleLoadDataEx",
    "cuModuleGetFunction", "cuModuleUnload", "cuMemAlloc_v2", "cuMemFree_v2",
    "cuMemAllocHost_v2", "cuMemFreeHost", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2",
    "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2", "cuLaunchKernel", "cuEventCreate",
    "cuEventRecord", "cuEventSynchronize", "cuEventElapsedTime", "cuEventDestroy_v2",
    "cuGetErrorName", "cuDeviceGetCount", "cuDeviceGetUuid_v2", "cuDeviceGetPCIBusId"};
#define CU_API_MEASURE_REQUIRED 25
_Static_assert(sizeof(cu_api) == sizeof(cu_api_names) / sizeof(cu_api_names[0]) * sizeof(void *),
               "one name an entry point");

#endif
