/* A test double of the OpenCL ICD loader (libOpenCL.so.1): put its folder
 * first in LD_LIBRARY_PATH and sysdesc's OpenCL source opens it instead of
 * the real one.  FAKE_OPENCL says what it does:
 *   gpu (or unset)  one platform, "Fake OpenCL", with a CPU device and a GPU
 *                   device (FAKE_OPENCL_BUS_ID, default 0000:3b:00.0;
 *                   FAKE_OPENCL_VENDOR, default 0x10de; 14 compute units;
 *                   warp size 32; a UUID)
 *   hang            never answers clGetPlatformIDs (the runtime hangs in its init)
 *   crash           crashes in clGetPlatformIDs (SIGSEGV)
 *   chatter         prints to standard output and error, then as gpu
 * and the hostile ones (tests/probe/hostile_runtimes.py):
 *   fork            starts a process that sleeps for an hour (its pid is
 *                   appended to FAKE_OPENCL_PIDFILE), then answers as gpu
 *   fork-hang       starts such a process, then never answers
 *   flood           writes without end to every pipe it holds: the answer
 *                   pipe, standard output and error
 * FAKE_OPENCL_DEVICES=N: clGetDeviceIDs reports N devices (at least 2): the
 * CPU device, then the GPU device N - 1 times.
 * FAKE_OPENCL_CACHE: the CPU device's global memory cache, "none" (what pocl
 * reports on some hosts: type CL_NONE, size and line 0) or, by default, a
 * read-write cache of 1 MiB with 64-byte lines.
 * FAKE_OPENCL_LOG names a file that gets one line per clGetPlatformIDs call:
 * how a test sees whether the runtime was asked or the cache answered. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;

#define EXPORT __attribute__((visibility("default")))

static int platform_token, cpu_token, gpu_token;

static const char *mode(void)
{
    const char *m = getenv("FAKE_OPENCL");
    return m && *m ? m : "gpu";
}

/* A process that outlives its parent unless someone ends it. */
static void start_sleeper(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 3600; i++)
            sleep(1);
        _exit(0);
    }
    const char *file = getenv("FAKE_OPENCL_PIDFILE");
    FILE *f = file && pid > 0 ? fopen(file, "a") : NULL;
    if (f) {
        fprintf(f, "%ld\n", (long)pid);
        fclose(f);
    }
}

/* Writes to every pipe this process holds, for ever. */
static void flood(void)
{
    static char junk[65536];
    memset(junk, 'x', sizeof(junk));
    for (;;)
        for (int fd = 1; fd < 256; fd++) {
            struct stat st;
            if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY)
                if (write(fd, junk, sizeof(junk)) < 0)
                    continue;
        }
}

EXPORT cl_int clGetPlatformIDs(cl_uint n, void **platforms, cl_uint *count)
{
    const char *log = getenv("FAKE_OPENCL_LOG");
    if (log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fputs("clGetPlatformIDs\n", f);
            fclose(f);
        }
    }
    if (strncmp(mode(), "fork", 4) == 0)
        start_sleeper();
    if (strcmp(mode(), "hang") == 0 || strcmp(mode(), "fork-hang") == 0)
        for (;;)
            pause();
    if (strcmp(mode(), "flood") == 0)
        flood();
    if (strcmp(mode(), "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(mode(), "chatter") == 0) {
        printf("fake OpenCL: chatter on standard output\n");
        fflush(stdout);
        fprintf(stderr, "fake OpenCL: chatter on standard error\n");
    }
    if (count)
        *count = 1;
    if (platforms && n >= 1)
        platforms[0] = &platform_token;
    return 0;
}

static cl_int answer(const void *v, size_t len, size_t size, void *value, size_t *size_ret)
{
    if (size_ret)
        *size_ret = len;
    if (value) {
        if (size < len)
            return -30; /* CL_INVALID_VALUE */
        memcpy(value, v, len);
    }
    return 0;
}

static cl_int str(const char *s, size_t size, void *value, size_t *size_ret)
{
    return answer(s, strlen(s) + 1, size, value, size_ret);
}

EXPORT cl_int clGetPlatformInfo(void *p, cl_uint param, size_t size, void *value, size_t *ret)
{
    (void)p;
    switch (param) {
    case 0x0902: return str("Fake OpenCL", size, value, ret);
    case 0x0903: return str("sysdesc tests", size, value, ret);
    case 0x0901: return str("OpenCL 3.0 fake", size, value, ret);
    default: return -30;
    }
}

EXPORT cl_int clGetDeviceIDs(void *p, uint64_t type, cl_uint n, void **devices, cl_uint *count)
{
    (void)p;
    (void)type;
    const char *many = getenv("FAKE_OPENCL_DEVICES");
    cl_uint all = many && atoi(many) >= 2 ? (cl_uint)atoi(many) : 2;
    if (count)
        *count = all;
    if (devices && n >= 1)
        devices[0] = &cpu_token;
    for (cl_uint i = 1; devices && i < n && i < all; i++)
        devices[i] = &gpu_token; /* the one GPU, as often as asked */
    return 0;
}

static cl_int u32(cl_uint v, size_t size, void *value, size_t *ret)
{
    return answer(&v, sizeof(v), size, value, ret);
}

static cl_int u64(uint64_t v, size_t size, void *value, size_t *ret)
{
    return answer(&v, sizeof(v), size, value, ret);
}

static int no_cache(void)
{
    const char *c = getenv("FAKE_OPENCL_CACHE");
    return c && strcmp(c, "none") == 0;
}

EXPORT cl_int clGetDeviceInfo(void *d, cl_uint param, size_t size, void *value, size_t *ret)
{
    int gpu = d == &gpu_token;
    unsigned dom = 0, bus = 0x3b, dev = 0, fn = 0;
    const char *b = getenv("FAKE_OPENCL_BUS_ID");
    if (b)
        sscanf(b, "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
    const char *ven = getenv("FAKE_OPENCL_VENDOR");
    switch (param) {
    case 0x1000: return u64(gpu ? 1u << 2 : 1u << 1, size, value, ret); /* TYPE */
    case 0x1001: return u32(gpu ? (ven ? (cl_uint)strtoul(ven, NULL, 0) : 0x10de) : 0x1234,
                            size, value, ret);
    case 0x1002: return u32(gpu ? 14 : 2, size, value, ret);         /* MAX_COMPUTE_UNITS */
    case 0x1003: return u32(3, size, value, ret);                     /* WORK_ITEM_DIMENSIONS */
    case 0x1004: return answer(&(size_t){1024}, sizeof(size_t), size, value, ret);
    case 0x1005: {
        size_t s[3] = {1024, 1024, 64};
        return answer(s, sizeof(s), size, value, ret);
    }
    case 0x100C: return u32(gpu ? 1755 : 2000, size, value, ret);   /* MAX_CLOCK_FREQUENCY */
    case 0x101C: return u32(no_cache() ? 0 : 2, size, value, ret);   /* GLOBAL_MEM_CACHE_TYPE */
    case 0x101D: return u32(no_cache() ? 0 : 64, size, value, ret);  /* ..._CACHELINE_SIZE */
    case 0x101E: return u64(no_cache() ? 0 : 1u << 20, size, value, ret); /* ..._CACHE_SIZE */
    case 0x1022: return u32(gpu ? 1 : 2, size, value, ret);         /* LOCAL_MEM_TYPE */
    case 0x1023: return u64(gpu ? 49152 : 65536, size, value, ret); /* LOCAL_MEM_SIZE */
    case 0x101F: return u64(gpu ? 10200547328ull : 1ull << 30, size, value, ret);
    case 0x102B: return str(gpu ? "Fake GPU (a MIG slice)" : "Fake CPU", size, value, ret);
    case 0x102C: return str("sysdesc tests", size, value, ret);
    case 0x102D: return str("1.2.3", size, value, ret); /* DRIVER_VERSION */
    case 0x1030: /* EXTENSIONS */
        return str(gpu ? "cl_khr_fp64 cl_khr_pci_bus_info cl_khr_device_uuid "
                         "cl_nv_device_attribute_query"
                       : "cl_khr_fp64",
                   size, value, ret);
    case 0x1032: return u64(63, size, value, ret); /* DOUBLE_FP_CONFIG */
    case 0x410F: {                                 /* PCI_BUS_INFO_KHR */
        if (!gpu)
            return -30;
        cl_uint v[4] = {dom, bus, dev, fn};
        return answer(v, sizeof(v), size, value, ret);
    }
    case 0x106A: { /* UUID_KHR */
        if (!gpu)
            return -30;
        unsigned char u[16] = {0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89,
                               0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89};
        return answer(u, sizeof(u), size, value, ret);
    }
    case 0x4003: return gpu ? u32(32, size, value, ret) : -30; /* WARP_SIZE_NV */
    default: return -30;
    }
}
