/* `sysdesc measure --device` through OpenCL: the ICD loader opened with
 * dlopen, the kernels built from their OpenCL C text at run time, every
 * launch and transfer timed by the queue's profiling events.  The entry
 * points and values are declared from the Khronos OpenCL API
 * specification (1.2), as probe/runtimes/opencl.c's are; no OpenCL header is
 * needed to build. */
#include "measure_dev.h"
#include "runtimes/cl_api.h"
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cl_state {
    void *lib;
    cl_api f;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k[MD_NKERNELS];
} cl_state;

struct md_buf {
    cl_mem mem;
};

struct md_host {
    cl_mem mem;
    void *ptr;
};

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static void dev_str(cl_state *s, cl_uint param, char *buf, size_t size)
{
    size_t got = 0;
    if (s->f.get_device_info(s->dev, param, size - 1, buf, &got) != CL_SUCCESS)
        got = 0;
    buf[got < size ? got : size - 1] = '\0';
}

/* The build log's last line, for a failed build. */
static void build_log(cl_state *s, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    if (s->f.get_build_info(s->prog, s->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS ||
        n == 0)
        return;
    char *log = malloc(n + 1);
    if (log && s->f.get_build_info(s->prog, s->dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) ==
                   CL_SUCCESS) {
        log[n] = '\0';
        size_t end = strlen(log);
        while (end && (log[end - 1] == '\n' || log[end - 1] == ' '))
            log[--end] = '\0';
        char *last = strrchr(log, '\n');
        snprintf(out, size, "%s", last ? last + 1 : log);
    }
    free(log);
}

static int cl_pick(md_dev *d, cl_state *s)
{
    cl_platform_id plats[64];
    cl_device_id devs[64];
    cl_uint np = 0, nd = 0;
    const md_target *t = d->t;
    cl_int rc = s->f.get_platform_ids(64, plats, &np);
    if (rc != CL_SUCCESS || (cl_uint)t->platform >= np || t->platform < 0)
        return md_fail(d, "OpenCL platform %d is gone (clGetPlatformIDs: %d, %u platforms)",
                       t->platform, (int)rc, (unsigned)np);
    rc = s->f.get_device_ids(plats[t->platform], CL_DEVICE_TYPE_ALL, 64, devs, &nd);
    if (rc != CL_SUCCESS || (cl_uint)t->ordinal >= nd || t->ordinal < 0)
        return md_fail(d, "OpenCL device %d of platform %d is gone (clGetDeviceIDs: %d)",
                       t->ordinal, t->platform, (int)rc);
    s->dev = devs[t->ordinal];
    dev_str(s, CL_DEVICE_NAME, d->name, sizeof(d->name));
    if (strcmp(d->name, t->name) != 0)
        return md_fail(d, "OpenCL device %d of platform %d is \"%s\", not \"%s\" as probed",
                       t->ordinal, t->platform, d->name, t->name);
    char pname[128], version[128];
    size_t got = 0;
    if (s->f.get_platform_info(plats[t->platform], CL_PLATFORM_NAME, sizeof(pname) - 1, pname,
                               &got) != CL_SUCCESS)
        got = 0;
    pname[got < sizeof(pname) ? got : sizeof(pname) - 1] = '\0';
    dev_str(s, CL_DRIVER_VERSION, version, sizeof(version));
    snprintf(d->driver, sizeof(d->driver), "%.80s, driver %.70s", pname,
             *version ? version : "unknown");
    return 0;
}

/* A preferred vector width as a lane count device.cl takes: 1, 2, 4, 8, 16. */
static unsigned lanes(cl_state *s, cl_uint param, unsigned least)
{
    cl_uint w = 0;
    if (s->f.get_device_info(s->dev, param, sizeof(w), &w, NULL) != CL_SUCCESS)
        w = 1;
    unsigned l = least;
    while (l < 16 && l * 2 <= w)
        l *= 2;
    return l;
}

static int cl_open(md_dev *d)
{
    cl_state *s = calloc(1, sizeof(*s));
    if (!s)
        return md_fail(d, "out of memory");
    d->rt = s;
    dlerror();
    if (!(s->lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        return md_fail(d, "libOpenCL.so.1 not loaded: %.200s", e ? e : "unknown");
    }
    for (size_t i = 0; i < sizeof(cl_api_names) / sizeof(cl_api_names[0]); i++) {
        void *sym = dlsym(s->lib, cl_api_names[i]);
        if (!sym)
            return md_fail(d, "libOpenCL.so.1 lacks %s", cl_api_names[i]);
        memcpy((char *)&s->f + i * sizeof(sym), &sym, sizeof(sym));
    }
    if (cl_pick(d, s) != 0)
        return -1;
    char *ext = malloc(65536);
    if (!ext)
        return md_fail(d, "out of memory");
    dev_str(s, CL_DEVICE_EXTENSIONS, ext, 65536);
    uint64_t fp64 = 0, max_alloc = 0;
    s->f.get_device_info(s->dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp64), &fp64, NULL);
    d->fp64 = fp64 != 0 && has_extension(ext, "cl_khr_fp64");
    d->fp16 = has_extension(ext, "cl_khr_fp16");
    free(ext);
    snprintf(d->fp64_why, sizeof(d->fp64_why), "the device has no cl_khr_fp64");
    snprintf(d->fp16_why, sizeof(d->fp16_why), "the device has no cl_khr_fp16");
    if (s->f.get_device_info(s->dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc,
                             NULL) != CL_SUCCESS ||
        max_alloc == 0)
        return md_fail(d, "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE) failed");
    d->max_buffer = max_alloc;
    /* A CPU runs a work-group's work-items one after the other and
     * vectorises what one work-item does: the kernels are built for the
     * vectors it prefers, and the bandwidth runs give each work-item a
     * contiguous share (device.cl, SPAN). */
    uint64_t type = 0;
    s->f.get_device_info(s->dev, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
    d->lanes = (type & CL_DEVICE_TYPE_CPU) != 0;
    d->w32 = lanes(s, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, 1);
    d->w64 = lanes(s, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, 1);
    d->wv = lanes(s, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, 4);

    cl_int rc;
    s->ctx = s->f.create_context(NULL, 1, &s->dev, NULL, NULL, &rc);
    if (!s->ctx)
        return md_fail(d, "clCreateContext: %d", (int)rc);
    s->q = s->f.create_queue(s->ctx, s->dev, CL_QUEUE_PROFILING_ENABLE, &rc);
    if (!s->q)
        return md_fail(d, "clCreateCommandQueue: %d", (int)rc);
    const char *src = md_opencl_source;
    s->prog = s->f.create_program(s->ctx, 1, &src, NULL, &rc);
    if (!s->prog)
        return md_fail(d, "clCreateProgramWithSource: %d", (int)rc);
    char options[128];
    snprintf(options, sizeof(options), "-cl-std=CL1.2 -DSD_W32=%u -DSD_W64=%u -DSD_WV=%u%s%s",
             d->w32, d->w64, d->wv, d->fp64 ? " -DSD_FP64" : "", d->fp16 ? " -DSD_FP16" : "");
    if ((rc = s->f.build_program(s->prog, 1, &s->dev, options, NULL, NULL)) != CL_SUCCESS) {
        char log[240];
        build_log(s, log, sizeof(log));
        return md_fail(d, "clBuildProgram: %d: %s", (int)rc, log);
    }
    for (int k = 0; k < MD_NKERNELS; k++) {
        if ((k == MD_FMA64 && !d->fp64) || (k == MD_FMA16 && !d->fp16))
            continue;
        if (!(s->k[k] = s->f.create_kernel(s->prog, md_kernel_names[k], &rc)))
            return md_fail(d, "clCreateKernel(%s): %d", md_kernel_names[k], (int)rc);
    }
    return 0;
}

static md_buf *cl_alloc(md_dev *d, size_t bytes)
{
    cl_state *s = d->rt;
    md_buf *b = calloc(1, sizeof(*b));
    cl_int rc = 0;
    if (!b) {
        md_fail(d, "out of memory");
        return NULL;
    }
    if (!(b->mem = s->f.create_buffer(s->ctx, CL_MEM_READ_WRITE, bytes, NULL, &rc))) {
        md_fail(d, "clCreateBuffer(%zu bytes): %d", bytes, (int)rc);
        free(b);
        return NULL;
    }
    return b;
}

static void cl_free(md_dev *d, md_buf *b)
{
    cl_state *s = d->rt;
    if (b && b->mem)
        s->f.release_mem(b->mem);
    free(b);
}

static int cl_write(md_dev *d, md_buf *b, const void *src, size_t bytes)
{
    cl_state *s = d->rt;
    cl_int rc = s->f.write_buffer(s->q, b->mem, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : md_fail(d, "clEnqueueWriteBuffer(%zu bytes): %d", bytes, (int)rc);
}

static int cl_read(md_dev *d, md_buf *b, void *dst, size_t bytes)
{
    cl_state *s = d->rt;
    cl_int rc = s->f.read_buffer(s->q, b->mem, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    return rc == CL_SUCCESS ? 0 : md_fail(d, "clEnqueueReadBuffer(%zu bytes): %d", bytes, (int)rc);
}

/* Waits for ev and gives its time on the device's profiling clock. */
static int cl_event_time(md_dev *d, cl_event ev, const char *what, double *seconds)
{
    cl_state *s = d->rt;
    cl_ulong start = 0, end = 0;
    cl_int rc = s->f.wait(1, &ev);
    if (rc == CL_SUCCESS)
        rc = s->f.profiling_info(ev, CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL);
    if (rc == CL_SUCCESS)
        rc = s->f.profiling_info(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
    s->f.release_event(ev);
    if (rc != CL_SUCCESS)
        return md_fail(d, "%s: waiting or profiling: %d", what, (int)rc);
    *seconds = end > start ? (double)(end - start) * 1e-9 : 0;
    return 0;
}

static int cl_launch(md_dev *d, md_kernel k, md_buf *const bufs[4], const md_args *a,
                     unsigned groups, double *seconds)
{
    cl_state *s = d->rt;
    cl_kernel kn = s->k[k];
    cl_int rc = CL_SUCCESS;
    for (cl_uint i = 0; i < 4 && rc == CL_SUCCESS; i++)
        rc = s->f.set_arg(kn, i, sizeof(cl_mem), &bufs[i]->mem);
    const void *scalars[] = {&a->n, &a->reps, &a->c, &a->s, &a->d, &a->e};
    for (cl_uint i = 0; i < 6 && rc == CL_SUCCESS; i++)
        rc = s->f.set_arg(kn, 4 + i, 4, scalars[i]);
    if (rc != CL_SUCCESS)
        return md_fail(d, "clSetKernelArg(%s): %d", md_kernel_names[k], (int)rc);
    size_t global = (size_t)groups * MD_GROUP, local = MD_GROUP;
    cl_event ev = NULL;
    rc = s->f.enqueue_kernel(s->q, kn, 1, NULL, &global, &local, 0, NULL, &ev);
    if (rc != CL_SUCCESS)
        return md_fail(d, "clEnqueueNDRangeKernel(%s): %d", md_kernel_names[k], (int)rc);
    return cl_event_time(d, ev, md_kernel_names[k], seconds);
}

static void *cl_host_alloc(md_dev *d, size_t bytes, md_host **out)
{
    cl_state *s = d->rt;
    md_host *h = calloc(1, sizeof(*h));
    cl_int rc = 0;
    *out = h;
    if (!h) {
        md_fail(d, "out of memory");
        return NULL;
    }
    /* A buffer the runtime allocates on the host, mapped: the page-locked
     * memory OpenCL's drivers transfer from without a staging copy. */
    h->mem = s->f.create_buffer(s->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                                &rc);
    if (h->mem)
        h->ptr = s->f.map_buffer(s->q, h->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                 NULL, NULL, &rc);
    if (!h->ptr)
        md_fail(d, "host memory of %zu bytes (CL_MEM_ALLOC_HOST_PTR, mapped): %d", bytes,
                (int)rc);
    return h->ptr;
}

static void cl_host_free(md_dev *d, md_host *h)
{
    cl_state *s = d->rt;
    if (!h)
        return;
    if (h->ptr) {
        s->f.unmap(s->q, h->mem, h->ptr, 0, NULL, NULL);
        s->f.finish(s->q);
    }
    if (h->mem)
        s->f.release_mem(h->mem);
    free(h);
}

static int cl_transfer(md_dev *d, md_buf *b, md_host *h, size_t bytes, bool to_device,
                       double *seconds)
{
    cl_state *s = d->rt;
    cl_event ev = NULL;
    cl_int rc = to_device
                    ? s->f.write_buffer(s->q, b->mem, CL_FALSE, 0, bytes, h->ptr, 0, NULL, &ev)
                    : s->f.read_buffer(s->q, b->mem, CL_FALSE, 0, bytes, h->ptr, 0, NULL, &ev);
    if (rc != CL_SUCCESS)
        return md_fail(d, "clEnqueue%sBuffer(%zu bytes): %d", to_device ? "Write" : "Read", bytes,
                       (int)rc);
    return cl_event_time(d, ev, to_device ? "host to device" : "device to host", seconds);
}

static void cl_close(md_dev *d)
{
    cl_state *s = d->rt;
    if (!s)
        return;
    for (int k = 0; k < MD_NKERNELS; k++)
        if (s->k[k])
            s->f.release_kernel(s->k[k]);
    if (s->prog)
        s->f.release_program(s->prog);
    if (s->q)
        s->f.release_queue(s->q);
    if (s->ctx)
        s->f.release_context(s->ctx);
    /* The library stays loaded: some ICDs register exit handlers. */
    free(s);
    d->rt = NULL;
}

const md_ops md_opencl_ops = {
    .platform_key = "platform_index",
    .index_key = "device_index",
    .name_key = "device_name",
    .host_cpu = true,
    .open = cl_open,
    .alloc = cl_alloc,
    .free = cl_free,
    .write = cl_write,
    .read = cl_read,
    .launch = cl_launch,
    .host_alloc = cl_host_alloc,
    .host_free = cl_host_free,
    .transfer = cl_transfer,
    .close = cl_close,
};
