/* cl_api.h - the OpenCL declarations the probe (opencl.c) and the
 * device measurement (measure_dev_opencl.c) share, written from the Khronos
 * OpenCL API specification and its extension registry: the ICD loader is
 * opened with dlopen and no OpenCL header is needed to build.  Not
 * installed. */
#ifndef SYSDESC_CL_API_H
#define SYSDESC_CL_API_H

#include <stddef.h>
#include <stdint.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef struct cl_platform *cl_platform_id;
typedef struct cl_device *cl_device_id;
typedef uint64_t cl_ulong;
typedef struct cl_context *cl_context;
typedef struct cl_queue *cl_command_queue;
typedef struct cl_program *cl_program;
typedef struct cl_kernel *cl_kernel;
typedef struct cl_mem *cl_mem;
typedef struct cl_event *cl_event;

#define CL_DEVICE_TYPE_ALL 0xffffffffu

enum {
    CL_SUCCESS = 0,
    CL_PLATFORM_NOT_FOUND_KHR = -1001,
    CL_PLATFORM_VERSION = 0x0901,
    CL_PLATFORM_NAME = 0x0902,
    CL_PLATFORM_VENDOR = 0x0903,
    CL_DEVICE_TYPE_CPU = 1 << 1,
    CL_DEVICE_TYPE_GPU = 1 << 2,
    CL_DEVICE_TYPE_ACCELERATOR = 1 << 3,
    CL_DEVICE_TYPE_CUSTOM = 1 << 4,
    CL_DEVICE_TYPE = 0x1000,
    CL_DEVICE_VENDOR_ID = 0x1001,
    CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002,
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS = 0x1003,
    CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004,
    CL_DEVICE_MAX_WORK_ITEM_SIZES = 0x1005,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR = 0x1006, /* SHORT, INT, LONG, FLOAT, DOUBLE follow */
    CL_DEVICE_MAX_CLOCK_FREQUENCY = 0x100C,
    CL_DEVICE_ADDRESS_BITS = 0x100D,
    CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE = 0x101C,
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE = 0x101D,
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE = 0x101E,
    CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F,
    CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE = 0x1020,
    CL_DEVICE_LOCAL_MEM_TYPE = 0x1022,
    CL_DEVICE_LOCAL_MEM_SIZE = 0x1023,
    CL_DEVICE_ERROR_CORRECTION_SUPPORT = 0x1024,
    CL_DEVICE_NAME = 0x102B,
    CL_DEVICE_VENDOR = 0x102C,
    CL_DRIVER_VERSION = 0x102D,
    CL_DEVICE_VERSION = 0x102F,
    CL_DEVICE_EXTENSIONS = 0x1030,
    CL_DEVICE_DOUBLE_FP_CONFIG = 0x1032,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF = 0x1034,
    CL_DEVICE_HOST_UNIFIED_MEMORY = 0x1035,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR = 0x1036, /* SHORT, INT, LONG, FLOAT, DOUBLE, HALF follow */
    CL_DEVICE_OPENCL_C_VERSION = 0x103D,
    CL_DEVICE_MAX_NUM_SUB_GROUPS = 0x105C,
    CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 0x1067, /* OpenCL 3.0 */
    CL_DEVICE_UUID_KHR = 0x106A,
    CL_DEVICE_WARP_SIZE_NV = 0x4003,
    CL_DEVICE_PCI_BUS_ID_NV = 0x4008,
    CL_DEVICE_PCI_SLOT_ID_NV = 0x4009,
    CL_DEVICE_PCI_DOMAIN_ID_NV = 0x400A,
    CL_DEVICE_TOPOLOGY_AMD = 0x4037,
    CL_DEVICE_WAVEFRONT_WIDTH_AMD = 0x4043,
    CL_DEVICE_SUB_GROUP_SIZES_INTEL = 0x4108,
    CL_DEVICE_PCI_BUS_INFO_KHR = 0x410F,
    CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD = 1,
    CL_READ_ONLY_CACHE = 1,
    CL_READ_WRITE_CACHE = 2,
    CL_LOCAL = 1,
    CL_GLOBAL = 2,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT = 0x1008,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT = 0x100A,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE = 0x100B,
    CL_QUEUE_PROFILING_ENABLE = 1 << 1,
    CL_MEM_READ_WRITE = 1 << 0,
    CL_MEM_ALLOC_HOST_PTR = 1 << 4,
    CL_MAP_READ = 1 << 0,
    CL_MAP_WRITE = 1 << 1,
    CL_PROGRAM_BUILD_LOG = 0x1183,
    CL_PROFILING_COMMAND_START = 0x1282,
    CL_PROFILING_COMMAND_END = 0x1283,
    CL_TRUE = 1,
    CL_FALSE = 0,
};

/* The entry points (OpenCL API specification, "The OpenCL Runtime" and
 * "The OpenCL Platform Layer"), one struct for both: the probe loads the
 * first four, the measurement every one (by cl_api_names, in order). */
typedef struct cl_api {
    cl_int (*get_platform_ids)(cl_uint, cl_platform_id *, cl_uint *);
    cl_int (*get_platform_info)(cl_platform_id, cl_uint, size_t, void *, size_t *);
    cl_int (*get_device_ids)(cl_platform_id, uint64_t, cl_uint, cl_device_id *, cl_uint *);
    cl_int (*get_device_info)(cl_device_id, cl_uint, size_t, void *, size_t *);
    cl_context (*create_context)(const intptr_t *, cl_uint, const cl_device_id *, void *, void *,
                                 cl_int *);
    cl_command_queue (*create_queue)(cl_context, cl_device_id, uint64_t, cl_int *);
    cl_program (*create_program)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
    cl_int (*build_program)(cl_program, cl_uint, const cl_device_id *, const char *, void *,
                            void *);
    cl_int (*get_build_info)(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
    cl_kernel (*create_kernel)(cl_program, const char *, cl_int *);
    cl_int (*set_arg)(cl_kernel, cl_uint, size_t, const void *);
    cl_mem (*create_buffer)(cl_context, uint64_t, size_t, void *, cl_int *);
    cl_int (*write_buffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *,
                           cl_uint, const cl_event *, cl_event *);
    cl_int (*read_buffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint,
                          const cl_event *, cl_event *);
    void *(*map_buffer)(cl_command_queue, cl_mem, cl_uint, uint64_t, size_t, size_t, cl_uint,
                        const cl_event *, cl_event *, cl_int *);
    cl_int (*unmap)(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);
    cl_int (*enqueue_kernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                             const size_t *, const size_t *, cl_uint, const cl_event *,
                             cl_event *);
    cl_int (*wait)(cl_uint, const cl_event *);
    cl_int (*profiling_info)(cl_event, cl_uint, size_t, void *, size_t *);
    cl_int (*finish)(cl_command_queue);
    cl_int (*release_event)(cl_event);
    cl_int (*release_mem)(cl_mem);
    cl_int (*release_kernel)(cl_kernel);
    cl_int (*release_program)(cl_program);
    cl_int (*release_queue)(cl_command_queue);
    cl_int (*release_context)(cl_context);
} cl_api;

/* Every entry point above, in order, by name (the measurement fills the
 * struct as an array of pointers; the probe names its four itself). */
__attribute__((unused)) static const char *const cl_api_names[] = {
    "clGetPlatformIDs",   "clGetPlatformInfo",      "clGetDeviceIDs",
    "clGetDeviceInfo",    "clCreateContext",        "clCreateCommandQueue",
    "clCreateProgramWithSource", "clBuildProgram",  "clGetProgramBuildInfo",
    "clCreateKernel",     "clSetKernelArg",         "clCreateBuffer",
    "clEnqueueWriteBuffer", "clEnqueueReadBuffer",  "clEnqueueMapBuffer",
    "clEnqueueUnmapMemObject", "clEnqueueNDRangeKernel", "clWaitForEvents",
    "clGetEventProfilingInfo", "clFinish",          "clReleaseEvent",
    "clReleaseMemObject", "clReleaseKernel",        "clReleaseProgram",
    "clReleaseCommandQueue", "clReleaseContext"};
_Static_assert(sizeof(cl_api) == sizeof(cl_api_names) / sizeof(cl_api_names[0]) * sizeof(void *),
               "one name an entry point");

#endif
