/* `sysdesc measure --device` through the CUDA driver API: libcuda.so.1
 * opened with dlopen, the kernels as PTX text (measure_dev_cl.c) that the
 * driver compiles for the device (cuModuleLoadDataEx), every launch and
 * copy timed by events; sd_fma32 also leaves the SM clock (%clock64
 * against %globaltimer).  The types, values and entry points are
 * runtimes/cuda_api.h's, shared with the probe; no CUDA header is needed to
 * build. */
#include "measure_dev.h"
#include "runtimes/cuda_api.h"
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cu_state {
    void *lib;
    cu_api f;
    cu_device dev;
    cu_context ctx;
    cu_module main, fp16;
    cu_function k[MD_NKERNELS];
    cu_event start, stop;
} cu_state;

struct md_buf {
    cu_ptr p;
};

struct md_host {
    void *p;
};

/* "cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (719)" into d->why. */
static int cu_fail(md_dev *d, const char *call, cu_result r)
{
    cu_state *s = d->rt;
    const char *name = NULL;
    if (!s->f.get_error_name || s->f.get_error_name(r, &name) != 0 || !name)
        name = "error";
    return md_fail(d, "%s: %.64s (%d)", call, name, r);
}

/* Loads PTX text; on failure the JIT's error log's first line. */
static int load(md_dev *d, const char *ptx, cu_module *mod, char *why, size_t size)
{
    cu_state *s = d->rt;
    char log[1024] = "";
    int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, (void *)(uintptr_t)sizeof(log)};
    cu_result r = s->f.module_load(mod, ptx, 2, options, values);
    if (r == 0)
        return 0;
    const char *name = NULL;
    if (!s->f.get_error_name || s->f.get_error_name(r, &name) != 0 || !name)
        name = "error";
    log[sizeof(log) - 1] = '\0';
    log[strcspn(log, "\n")] = '\0';
    snprintf(why, size, "cuModuleLoadDataEx: %.64s (%d)%s%.200s", name, r, *log ? ": " : "",
             log);
    return -1;
}

static int cu_open(md_dev *d)
{
    cu_state *s = calloc(1, sizeof(*s));
    if (!s)
        return md_fail(d, "out of memory");
    d->rt = s;
    dlerror();
    if (!(s->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        return md_fail(d, "libcuda.so.1 not loaded: %.200s", e ? e : "unknown");
    }
    for (size_t i = 0; i < sizeof(cu_api_names) / sizeof(cu_api_names[0]); i++) {
        void *sym = dlsym(s->lib, cu_api_names[i]);
        if (!sym && i < CU_API_MEASURE_REQUIRED)
            return md_fail(d, "libcuda.so.1 lacks %s", cu_api_names[i]);
        memcpy((char *)&s->f + i * sizeof(sym), &sym, sizeof(sym));
    }
    cu_result r;
    if ((r = s->f.init(0)) != 0)
        return cu_fail(d, "cuInit", r);
    if ((r = s->f.device_get(&s->dev, d->t->ordinal)) != 0)
        return cu_fail(d, "cuDeviceGet", r);
    char name[256] = "";
    if ((r = s->f.device_get_name(name, (int)sizeof(name) - 1, s->dev)) != 0)
        return cu_fail(d, "cuDeviceGetName", r);
    name[sizeof(name) - 1] = '\0';
    snprintf(d->name, sizeof(d->name), "%s", name);
    if (strcmp(d->name, d->t->name) != 0)
        return md_fail(d, "CUDA device %d is \"%s\", not \"%s\" as probed", d->t->ordinal,
                       d->name, d->t->name);
    int version = 0, major = 0, minor = 0;
    s->f.driver_get_version(&version);
    snprintf(d->driver, sizeof(d->driver), "CUDA %d.%d", version / 1000, version % 1000 / 10);
    s->f.device_get_attribute(&major, CU_ATTR_COMPUTE_CAPABILITY_MAJOR, s->dev);
    s->f.device_get_attribute(&minor, CU_ATTR_COMPUTE_CAPABILITY_MINOR, s->dev);
    size_t total = 0;
    if (s->f.device_total_mem(&total, s->dev) != 0 || total == 0)
        return md_fail(d, "cuDeviceTotalMem_v2 failed");
    d->max_buffer = total / 4;
    if ((r = s->f.ctx_create(&s->ctx, 0, s->dev)) != 0)
        return cu_fail(d, "cuCtxCreate_v2", r);
    if (load(d, md_ptx_main, &s->main, d->why, sizeof(d->why)) != 0)
        return -1;
    d->fp64 = true;
    d->clock = true;
    /* The packed f16 FMA needs sm_53; its PTX targets sm_60. */
    if (major < 6) {
        snprintf(d->fp16_why, sizeof(d->fp16_why),
                 "compute capability %d.%d: the f16 kernel's PTX targets sm_60", major, minor);
    } else {
        d->fp16 = load(d, md_ptx_fp16, &s->fp16, d->fp16_why, sizeof(d->fp16_why)) == 0;
    }
    for (int k = 0; k < MD_NKERNELS; k++) {
        cu_module m = k == MD_FMA16 ? s->fp16 : s->main;
        if (k == MD_FMA16 && !d->fp16)
            continue;
        if ((r = s->f.module_get_function(&s->k[k], m, md_kernel_names[k])) != 0)
            return cu_fail(d, "cuModuleGetFunction", r);
    }
    if ((r = s->f.event_create(&s->start, 0)) != 0 || (r = s->f.event_create(&s->stop, 0)) != 0)
        return cu_fail(d, "cuEventCreate", r);
    return 0;
}

static md_buf *cu_alloc(md_dev *d, size_t bytes)
{
    cu_state *s = d->rt;
    md_buf *b = calloc(1, sizeof(*b));
    if (!b) {
        md_fail(d, "out of memory");
        return NULL;
    }
    cu_result r = s->f.mem_alloc(&b->p, bytes);
    if (r != 0) {
        cu_fail(d, "cuMemAlloc_v2", r);
        free(b);
        return NULL;
    }
    return b;
}

static void cu_free(md_dev *d, md_buf *b)
{
    cu_state *s = d->rt;
    if (b && b->p)
        s->f.mem_free(b->p);
    free(b);
}

static int cu_write(md_dev *d, md_buf *b, const void *src, size_t bytes)
{
    cu_state *s = d->rt;
    cu_result r = s->f.memcpy_htod(b->p, src, bytes);
    return r == 0 ? 0 : cu_fail(d, "cuMemcpyHtoD_v2", r);
}

static int cu_read(md_dev *d, md_buf *b, void *dst, size_t bytes)
{
    cu_state *s = d->rt;
    cu_result r = s->f.memcpy_dtoh(dst, b->p, bytes);
    return r == 0 ? 0 : cu_fail(d, "cuMemcpyDtoH_v2", r);
}

/* The time between the two events around what was just queued. */
static int elapsed(md_dev *d, const char *what, double *seconds)
{
    cu_state *s = d->rt;
    float ms = 0;
    cu_result r = s->f.event_record(s->stop, NULL);
    if (r == 0)
        r = s->f.event_synchronize(s->stop);
    if (r == 0)
        r = s->f.event_elapsed_time(&ms, s->start, s->stop);
    if (r != 0)
        return cu_fail(d, what, r);
    *seconds = ms * 1e-3;
    return 0;
}

static int cu_launch(md_dev *d, md_kernel k, md_buf *const bufs[4], const md_args *a,
                     unsigned groups, double *seconds)
{
    cu_state *s = d->rt;
    cu_ptr p[4] = {bufs[0]->p, bufs[1]->p, bufs[2]->p, bufs[3]->p};
    md_args v = *a;
    void *params[] = {&p[0], &p[1], &p[2], &p[3], &v.n, &v.reps, &v.c, &v.s, &v.d, &v.e};
    cu_result r = s->f.event_record(s->start, NULL);
    if (r == 0)
        r = s->f.launch_kernel(s->k[k], groups, 1, 1, MD_GROUP, 1, 1, 0, NULL, params, NULL);
    if (r != 0)
        return cu_fail(d, "cuLaunchKernel", r);
    return elapsed(d, md_kernel_names[k], seconds);
}

static void *cu_host_alloc(md_dev *d, size_t bytes, md_host **out)
{
    cu_state *s = d->rt;
    md_host *h = calloc(1, sizeof(*h));
    *out = h;
    if (!h) {
        md_fail(d, "out of memory");
        return NULL;
    }
    cu_result r = s->f.mem_alloc_host(&h->p, bytes);
    if (r != 0) {
        cu_fail(d, "cuMemAllocHost_v2", r);
        h->p = NULL;
    }
    return h->p;
}

static void cu_host_free(md_dev *d, md_host *h)
{
    cu_state *s = d->rt;
    if (h && h->p)
        s->f.mem_free_host(h->p);
    free(h);
}

static int cu_transfer(md_dev *d, md_buf *b, md_host *h, size_t bytes, bool to_device,
                       double *seconds)
{
    cu_state *s = d->rt;
    cu_result r = s->f.event_record(s->start, NULL);
    if (r == 0)
        r = to_device ? s->f.memcpy_htod_async(b->p, h->p, bytes, NULL)
                      : s->f.memcpy_dtoh_async(h->p, b->p, bytes, NULL);
    if (r != 0)
        return cu_fail(d, to_device ? "cuMemcpyHtoDAsync_v2" : "cuMemcpyDtoHAsync_v2", r);
    return elapsed(d, to_device ? "host to device" : "device to host", seconds);
}

static void cu_close(md_dev *d)
{
    cu_state *s = d->rt;
    if (!s)
        return;
    if (s->start)
        s->f.event_destroy(s->start);
    if (s->stop)
        s->f.event_destroy(s->stop);
    if (s->fp16)
        s->f.module_unload(s->fp16);
    if (s->main)
        s->f.module_unload(s->main);
    if (s->ctx)
        s->f.ctx_destroy(s->ctx);
    free(s);
    d->rt = NULL;
}

const md_ops md_cuda_ops = {
    .platform_key = NULL,
    .index_key = "ordinal",
    .name_key = "name",
    .host_cpu = false,
    .open = cu_open,
    .alloc = cu_alloc,
    .free = cu_free,
    .write = cu_write,
    .read = cu_read,
    .launch = cu_launch,
    .host_alloc = cu_host_alloc,
    .host_free = cu_host_free,
    .transfer = cu_transfer,
    .close = cu_close,
};
