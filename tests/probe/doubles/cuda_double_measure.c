/* cuda_double_measure.c - TEST DOUBLE of the CUDA driver API entry points
 * `sysdesc measure --device` calls (probe/measure/measure_dev_cuda.c), built into
 * the same libcuda.so.1 as cuda_double.c.  "Device memory" is host memory;
 * cuModuleLoadDataEx checks only that the image is PTX text naming its
 * entries; cuLaunchKernel runs each kernel's work in C, as
 * probe/measure/kernels/device.cl describes it (elements of 4 words, scalar
 * chains), so that the host's checks pass when the launch arguments are
 * right and fail when they are not.  It proves nothing about a real driver,
 * its JIT or the PTX: only the host side's bookkeeping.
 *
 * Configuration (README, "CUDA"): cuda.<i>.sm_clock_mhz (the clock sd_fma32
 * reports), cuda.jit and cuda.jit_fp16 (a CUresult cuModuleLoadDataEx
 * returns for the main and the f16 image), cuda.launch (a CUresult
 * cuLaunchKernel returns), cuda.launch_hang = 1 (it never returns),
 * cuda.launch_crash = 1 (SIGSEGV), cuda.break = KERNEL (that kernel leaves
 * one wrong value). */
#define _POSIX_C_SOURCE 200809L
#include "double_config.h"

#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { SUCCESS = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, INVALID_IMAGE = 200, NOT_FOUND = 500 };

typedef unsigned long long cu_ptr;

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int ordinal; /* the context's device */

DBL_API int cuCtxCreate_v2(void **ctx, unsigned flags, int dev)
{
    (void)flags;
    ordinal = dev;
    *ctx = malloc(1);
    return *ctx ? SUCCESS : OUT_OF_MEMORY;
}

DBL_API int cuCtxDestroy_v2(void *ctx)
{
    free(ctx);
    return SUCCESS;
}

/* A module: the image it was loaded from. */
typedef struct module {
    const char *ptx;
    int fp16; /* the image holds sd_fma16 */
} module;

DBL_API int cuModuleLoadDataEx(module **mod, const void *image, unsigned n, int *options,
                               void **values)
{
    const char *ptx = image;
    int fp16 = strstr(ptx, ".entry sd_fma16(") != NULL;
    int rc = (int)dbl_int(0, fp16 ? "cuda.jit_fp16" : "cuda.jit");
    if (!strstr(ptx, ".version ") || !strstr(ptx, ".target sm_") || !strstr(ptx, ".entry "))
        rc = INVALID_IMAGE;
    if (rc != SUCCESS) {
        /* The error log, as the JIT fills it (option 5: the buffer). */
        for (unsigned i = 0; i < n; i++)
            if (options[i] == 5)
                snprintf(values[i], 64, "ptxas fatal   : the test double refuses this image");
        return rc;
    }
    if (!(*mod = malloc(sizeof(**mod))))
        return OUT_OF_MEMORY;
    (*mod)->ptx = ptx;
    (*mod)->fp16 = fp16;
    return SUCCESS;
}

DBL_API int cuModuleUnload(module *mod)
{
    free(mod);
    return SUCCESS;
}

/* A function is the name of an entry the image declares. */
DBL_API int cuModuleGetFunction(const char **fn, module *mod, const char *name)
{
    char entry[96];
    snprintf(entry, sizeof(entry), ".entry %s(", name);
    if (!strstr(mod->ptx, entry))
        return NOT_FOUND;
    *fn = name;
    return SUCCESS;
}

DBL_API int cuMemAlloc_v2(cu_ptr *p, size_t bytes)
{
    void *m = malloc(bytes ? bytes : 1);
    *p = (cu_ptr)(uintptr_t)m;
    return m ? SUCCESS : OUT_OF_MEMORY;
}

DBL_API int cuMemFree_v2(cu_ptr p)
{
    free((void *)(uintptr_t)p);
    return SUCCESS;
}

DBL_API int cuMemAllocHost_v2(void **p, size_t bytes)
{
    *p = malloc(bytes ? bytes : 1);
    return *p ? SUCCESS : OUT_OF_MEMORY;
}

DBL_API int cuMemFreeHost(void *p)
{
    free(p);
    return SUCCESS;
}

DBL_API int cuMemcpyHtoD_v2(cu_ptr dst, const void *src, size_t bytes)
{
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return SUCCESS;
}

DBL_API int cuMemcpyDtoH_v2(void *dst, cu_ptr src, size_t bytes)
{
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return SUCCESS;
}

DBL_API int cuMemcpyHtoDAsync_v2(cu_ptr dst, const void *src, size_t bytes, void *stream)
{
    (void)stream;
    return cuMemcpyHtoD_v2(dst, src, bytes);
}

DBL_API int cuMemcpyDtoHAsync_v2(void *dst, cu_ptr src, size_t bytes, void *stream)
{
    (void)stream;
    return cuMemcpyDtoH_v2(dst, src, bytes);
}

/* Events: the time they were recorded (launches and copies are synchronous here). */
DBL_API int cuEventCreate(int64_t **ev, unsigned flags)
{
    (void)flags;
    *ev = calloc(1, sizeof(**ev));
    return *ev ? SUCCESS : OUT_OF_MEMORY;
}

DBL_API int cuEventRecord(int64_t *ev, void *stream)
{
    (void)stream;
    *ev = now_ns();
    return SUCCESS;
}

DBL_API int cuEventSynchronize(int64_t *ev)
{
    (void)ev;
    return SUCCESS;
}

DBL_API int cuEventElapsedTime(float *ms, int64_t *start, int64_t *end)
{
    *ms = (float)((double)(*end - *start) * 1e-6);
    return SUCCESS;
}

DBL_API int cuEventDestroy_v2(int64_t *ev)
{
    free(ev);
    return SUCCESS;
}

/* ---- the kernels' work (device.cl), elements of 4 words ---- */

typedef struct args {
    uint32_t *x, *y, *z, *r;
    uint32_t n, reps, c;
    float s, d, e;
    uint32_t G;
} args;

static void span(const args *a, uint32_t g, uint32_t *base, uint32_t *count, uint32_t *L)
{
    uint32_t l = a->c ? a->c : a->G, c = a->n / a->G + (a->n % a->G != 0);
    *L = l;
    *base = g / l * l * c + g % l;
    *count = *base < a->n ? (a->n - *base + l - 1) / l : 0;
    *count = *count < c ? *count : c;
}

static void read_kernel(const args *a)
{
    for (uint32_t g = 0; g < a->G; g++) {
        uint32_t base, count, L, sum = 0;
        span(a, g, &base, &count, &L);
        for (uint32_t rep = 0; rep < a->reps; rep++)
            for (uint32_t i = 0; i < count; i++)
                for (int w = 0; w < 4; w++)
                    sum += a->x[4 * (base + i * L) + w];
        a->r[g] = sum;
    }
}

static void copy_kernel(const args *a, int triad)
{
    float *fx = (float *)a->x, *fy = (float *)a->y, *fz = (float *)a->z;
    for (uint32_t g = 0; g < a->G; g++) {
        uint32_t base, count, L;
        span(a, g, &base, &count, &L);
        for (uint32_t i = 0; i < count; i++)
            for (uint32_t w = 4 * (base + i * L), end = w + 4; w < end; w++) {
                if (triad)
                    fx[w] = fy[w] + a->s * fz[w];
                else
                    a->y[w] = a->x[w];
            }
    }
}

static void local_kernel(const args *a)
{
    for (uint32_t g = 0; g < a->G; g++) {
        uint32_t l = g % 128, sum = 0;
        for (uint32_t rep = 0; rep < a->reps; rep++)
            for (uint32_t u = 0; u < 4; u++) {
                uint32_t i = (l + rep + 64 * u) & 255;
                sum += 16 * i + 6; /* the words 4i .. 4i+3 */
            }
        a->r[g] = sum;
    }
}

/* The low lane of a half2 word that travels in a float's bits (sd_fma16's
 * s, d and e: probe/measure/kernels/device.cl). */
static double half_lane(float word)
{
    uint32_t w;
    memcpy(&w, &word, sizeof(w));
    unsigned sign = w >> 15 & 1, exp = w >> 10 & 0x1f, man = w & 0x3ff;
    double v = exp ? ldexp(1024 + man, (int)exp - 25) : ldexp(man, -24);
    return sign ? -v : v;
}

/* Eight chains started at 1 + ((g + k) & 7); f16's two lanes each. */
static void fma_kernel(const args *a, int kind, double mhz)
{
    int64_t t0 = now_ns();
    double s = a->s, d = a->d, e = a->e;
    if (kind == 16)
        s = half_lane(a->s), d = half_lane(a->d), e = half_lane(a->e);
    for (uint32_t g = 0; g < a->G; g++) {
        double sum = 0;
        for (int lane = 0; lane < (kind == 16 ? 2 : 1); lane++)
            for (uint32_t k = 0; k < 8; k++) {
                double c = 1 + ((g + k + 4 * (uint32_t)lane) & 7);
                for (uint32_t rep = 0; rep < a->reps; rep++) {
                    c = c * s + d;
                    c = c * s + e;
                }
                sum += c;
            }
        if (kind == 64) {
            memcpy((char *)a->r + 8 * (size_t)g, &sum, 8);
        } else {
            float f = (float)sum;
            memcpy((char *)a->r + 4 * (size_t)g, &f, 4);
        }
    }
    if (kind == 32) {
        uint64_t ns = (uint64_t)(now_ns() - t0) + 1, t[4] = {1000, 1000, 5000, 5000 + ns};
        t[1] += (uint64_t)((double)ns * mhz * 1e-3);
        memcpy(a->y, t, sizeof(t));
    }
}

DBL_API int cuLaunchKernel(const char *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, unsigned shared, void *stream,
                           void **params, void **extra)
{
    (void)stream;
    (void)extra;
    int rc = (int)dbl_int(0, "cuda.launch");
    if (rc != SUCCESS)
        return rc;
    if (dbl_int(0, "cuda.launch_hang"))
        for (;;)
            pause();
    if (dbl_int(0, "cuda.launch_crash"))
        raise(SIGSEGV);
    if (gy != 1 || gz != 1 || bx != 128 || by != 1 || bz != 1 || shared != 0 || !params)
        return INVALID_VALUE;
    args a;
    cu_ptr p[4];
    for (int i = 0; i < 4; i++)
        memcpy(&p[i], params[i], sizeof(cu_ptr));
    a.x = (uint32_t *)(uintptr_t)p[0];
    a.y = (uint32_t *)(uintptr_t)p[1];
    a.z = (uint32_t *)(uintptr_t)p[2];
    a.r = (uint32_t *)(uintptr_t)p[3];
    memcpy(&a.n, params[4], 4);
    memcpy(&a.reps, params[5], 4);
    memcpy(&a.c, params[6], 4);
    memcpy(&a.s, params[7], 4);
    memcpy(&a.d, params[8], 4);
    memcpy(&a.e, params[9], 4);
    a.G = gx * bx;
    if (strcmp(fn, "sd_read") == 0)
        read_kernel(&a);
    else if (strcmp(fn, "sd_copy") == 0 || strcmp(fn, "sd_triad") == 0)
        copy_kernel(&a, fn[3] == 't');
    else if (strcmp(fn, "sd_local") == 0)
        local_kernel(&a);
    else if (strncmp(fn, "sd_fma", 6) == 0)
        fma_kernel(&a, atoi(fn + 6), (double)dbl_int(1000, "cuda.%d.sm_clock_mhz", ordinal));
    else
        return NOT_FOUND;
    /* One wrong word in the kernel's output, the same after every launch
     * (a toggle of an input would undo itself on the next launch). */
    const char *broken = dbl_str("cuda.break");
    if (broken && strcmp(broken, fn) == 0) {
        if (strcmp(fn, "sd_copy") == 0)
            a.y[0] = a.x[0] + 1;
        else if (strcmp(fn, "sd_triad") == 0)
            ((float *)a.x)[0] = ((float *)a.y)[0] + a.s * ((float *)a.z)[0] + 1;
        else
            a.r[0] ^= 1;
    }
    return SUCCESS;
}
