/* ROCm through the HSA runtime (libhsa-runtime64.so.1): AMD GPU agents.
 *
 * HSA, not HIP: HIP's hipDeviceAttribute_t values were renumbered between
 * ROCm 5 and 6, so one binary could not read both without guessing the
 * version; the HSA agent attributes and the AMD extension values
 * (hsa_ext_amd.h) have kept their numbers, and HSA needs no HIP install.
 * What HIP computes from them (maxThreadsPerMultiProcessor) is left out. */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SONAME "libhsa-runtime64.so.1"

/* HSA Runtime Programmer's Reference (hsa.h): hsa_status_t
 * (HSA_STATUS_SUCCESS = 0, HSA_STATUS_INFO_BREAK = 0x1), handles are
 * structs of one uint64_t, passed by value. */
typedef int hsa_status;
typedef struct hsa_agent {
    uint64_t handle;
} hsa_agent;
typedef struct hsa_isa {
    uint64_t handle;
} hsa_isa;
typedef struct hsa_pool {
    uint64_t handle;
} hsa_pool;
enum { HSA_OK = 0, HSA_BREAK = 0x1 };

/* hsa.h hsa_agent_info_t, hsa_system_info_t, hsa_device_type_t,
 * hsa_isa_info_t; the types in the comments are what the runtime writes. */
enum {
    HSA_AGENT_NAME = 0,               /* char[64] */
    HSA_AGENT_VENDOR_NAME = 1,        /* char[64] */
    HSA_AGENT_WAVEFRONT_SIZE = 6,     /* uint32_t */
    HSA_AGENT_WORKGROUP_MAX_DIM = 7,  /* uint16_t[3] */
    HSA_AGENT_WORKGROUP_MAX_SIZE = 8, /* uint32_t */
    HSA_AGENT_GRID_MAX_DIM = 9,       /* hsa_dim3_t: uint32_t x, y, z */
    HSA_AGENT_DEVICE = 17,            /* hsa_device_type_t */
    HSA_AGENT_CACHE_SIZE = 18,        /* uint32_t[4]: L1..L4 in bytes, 0 none */
};
enum { HSA_SYSTEM_VERSION_MAJOR = 0, HSA_SYSTEM_VERSION_MINOR = 1 }; /* uint16_t */
enum { HSA_DEVICE_GPU = 1 };
enum { HSA_ISA_NAME_LENGTH = 0, HSA_ISA_NAME = 1 };

/* hsa_ext_amd.h hsa_amd_agent_info_t (all uint32_t but the strings). */
enum {
    HSA_AMD_CHIP_ID = 0xA000,
    HSA_AMD_CACHELINE_SIZE = 0xA001,
    HSA_AMD_COMPUTE_UNIT_COUNT = 0xA002,
    HSA_AMD_MAX_CLOCK_FREQUENCY = 0xA003, /* MHz */
    HSA_AMD_DRIVER_NODE_ID = 0xA004,
    HSA_AMD_BDFID = 0xA006, /* bus << 8 | device << 3 | function */
    HSA_AMD_MEMORY_WIDTH = 0xA007,
    HSA_AMD_MEMORY_MAX_FREQUENCY = 0xA008, /* MHz */
    HSA_AMD_PRODUCT_NAME = 0xA009,         /* char[64] */
    HSA_AMD_MAX_WAVES_PER_CU = 0xA00A,
    HSA_AMD_NUM_SIMDS_PER_CU = 0xA00B,
    HSA_AMD_NUM_SHADER_ENGINES = 0xA00C,
    HSA_AMD_DOMAIN = 0xA00F,
    HSA_AMD_UUID = 0xA011, /* char[21]: "GPU-" and 16 hex digits */
    HSA_AMD_NUM_XCC = 0xA111,
};

/* hsa_ext_amd.h hsa_amd_memory_pool_info_t, hsa_amd_segment_t,
 * hsa_amd_memory_pool_global_flag_t. */
enum { HSA_POOL_SEGMENT = 0, HSA_POOL_GLOBAL_FLAGS = 1, HSA_POOL_SIZE = 2 /* size_t */ };
enum { HSA_SEGMENT_GLOBAL = 0, HSA_SEGMENT_GROUP = 3 };
enum { HSA_POOL_COARSE_GRAINED = 4 };

typedef struct hsa_api {
    hsa_status (*init)(void);
    hsa_status (*shut_down)(void);
    hsa_status (*iterate_agents)(hsa_status (*cb)(hsa_agent, void *), void *data);
    hsa_status (*agent_get_info)(hsa_agent agent, int attribute, void *value);
    /* optional */
    hsa_status (*status_string)(hsa_status s, const char **text);
    hsa_status (*system_get_info)(int attribute, void *value);
    hsa_status (*agent_iterate_isas)(hsa_agent agent, hsa_status (*cb)(hsa_isa, void *),
                                     void *data);
    hsa_status (*isa_get_info_alt)(hsa_isa isa, int attribute, void *value);
    hsa_status (*iterate_pools)(hsa_agent agent, hsa_status (*cb)(hsa_pool, void *), void *data);
    hsa_status (*pool_get_info)(hsa_pool pool, int attribute, void *value);
} hsa_api;

/* Every attribute is read into a zeroed buffer far larger than any type
 * the reference gives, so a runtime writing more than expected stays inside. */
typedef union hsa_value {
    uint32_t u32[64];
    uint16_t u16[128];
    uint64_t u64[32];
    char text[256];
} hsa_value;

static bool hsa_info(const hsa_api *h, hsa_agent a, int attribute, hsa_value *v)
{
    memset(v, 0, sizeof(*v));
    return h->agent_get_info(a, attribute, v) == HSA_OK;
}

static void hsa_error_text(const hsa_api *h, const char *call, hsa_status s, char *out,
                           size_t size)
{
    const char *text = NULL;
    if (!h->status_string || h->status_string(s, &text) != HSA_OK || !text)
        text = "error";
    snprintf(out, size, "%s: %.100s (0x%x)", call, text, (unsigned)s);
}

/* ---- iterations: callbacks that collect into bounded arrays ---- */

typedef struct agent_list {
    const hsa_api *h;
    hsa_agent a[PB_VENDOR_MAX_DEVICES];
    size_t n, all; /* kept; every GPU agent seen (a cut is said: pb_rt_cap) */
} agent_list;

static hsa_status collect_gpu(hsa_agent a, void *data)
{
    agent_list *l = data;
    hsa_value v;
    if (!hsa_info(l->h, a, HSA_AGENT_DEVICE, &v) || v.u32[0] != HSA_DEVICE_GPU)
        return HSA_OK; /* CPU and DSP agents are not ours */
    if (l->all++ < PB_VENDOR_MAX_DEVICES)
        l->a[l->n++] = a;
    return HSA_OK;
}

typedef struct isa_name {
    const hsa_api *h;
    char name[256];
} isa_name;

/* The agent's first ISA ("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"). */
static hsa_status first_isa(hsa_isa isa, void *data)
{
    isa_name *n = data;
    uint32_t len = 0;
    hsa_value v;
    memset(&v, 0, sizeof(v));
    if (n->h->isa_get_info_alt(isa, HSA_ISA_NAME_LENGTH, &len) == HSA_OK && len > 0 &&
        len < sizeof(v.text) - 1 && n->h->isa_get_info_alt(isa, HSA_ISA_NAME, &v) == HSA_OK)
        pb_vendor_text(v.text, sizeof(v.text), n->name, sizeof(n->name));
    return HSA_BREAK;
}

typedef struct pools {
    const hsa_api *h;
    size_t count;        /* pools seen, bounded */
    int64_t group;       /* LDS per work-group, -1 unknown */
    int64_t coarse;      /* the largest coarse-grained global pool: device memory */
} pools;

static hsa_status pool_sizes(hsa_pool p, void *data)
{
    pools *s = data;
    if (++s->count > 256)
        return HSA_BREAK;
    uint32_t segment = 0, flags = 0;
    size_t size = 0;
    if (s->h->pool_get_info(p, HSA_POOL_SEGMENT, &segment) != HSA_OK ||
        s->h->pool_get_info(p, HSA_POOL_SIZE, &size) != HSA_OK || size == 0 ||
        size > (size_t)INT64_MAX)
        return HSA_OK;
    if (segment == HSA_SEGMENT_GROUP && (int64_t)size > s->group)
        s->group = (int64_t)size;
    if (segment == HSA_SEGMENT_GLOBAL &&
        s->h->pool_get_info(p, HSA_POOL_GLOBAL_FLAGS, &flags) == HSA_OK &&
        (flags & HSA_POOL_COARSE_GRAINED) && (int64_t)size > s->coarse)
        s->coarse = (int64_t)size;
    return HSA_OK;
}

/* ---- one agent ---- */

/* A uint32_t attribute into the view (and the schema key), when >= min. */
static void hsa_u32(dlti_context *ctx, const hsa_api *h, hsa_agent a, int attribute,
                    uint32_t min, uint32_t max, pb_rt_device *d, const char *view,
                    const char *unified)
{
    hsa_value v;
    if (!hsa_info(h, a, attribute, &v) || v.u32[0] < min || v.u32[0] > max)
        return;
    pb_i64(ctx, &d->view, view, v.u32[0]);
    if (unified)
        pb_i64(ctx, &d->unified, unified, v.u32[0]);
}

static void hsa_text(dlti_context *ctx, const hsa_api *h, hsa_agent a, int attribute,
                     pb_rt_device *d, const char *view, const char *unified, char *out,
                     size_t size)
{
    hsa_value v;
    char buf[128];
    if (!out) {
        out = buf;
        size = sizeof(buf);
    }
    out[0] = '\0';
    /* The reference's char[64] (char[21] for the UUID): a name filling it
     * without a NUL is not trusted. */
    if (!hsa_info(h, a, attribute, &v) || !pb_vendor_text(v.text, 64, out, size))
        return;
    pb_str(ctx, &d->view, view, out);
    if (unified)
        pb_str(ctx, &d->unified, unified, out);
}

static void hsa_limits(dlti_context *ctx, const hsa_api *h, hsa_agent a, pb_rt_device *d)
{
    hsa_value v;
    if (hsa_info(h, a, HSA_AGENT_WAVEFRONT_SIZE, &v) && v.u32[0] >= 1 && v.u32[0] <= 1024) {
        int64_t w = v.u32[0];
        pb_i64(ctx, &d->view, "wavefront_size", w);
        pb_add(ctx, &d->unified, "subgroup_sizes", pb_i64_array(ctx, &w, 1));
    }
    if (hsa_info(h, a, HSA_AGENT_WORKGROUP_MAX_DIM, &v) && v.u16[0] && v.u16[1] && v.u16[2]) {
        int64_t dims[3] = {v.u16[0], v.u16[1], v.u16[2]};
        pb_add(ctx, &d->view, "workgroup_max_dim", pb_i64_array(ctx, dims, 3));
        pb_add(ctx, &d->unified, "max_block_dims", pb_i64_array(ctx, dims, 3));
    }
    if (hsa_info(h, a, HSA_AGENT_GRID_MAX_DIM, &v) && v.u32[0] && v.u32[1] && v.u32[2]) {
        int64_t dims[3] = {v.u32[0], v.u32[1], v.u32[2]};
        pb_add(ctx, &d->view, "grid_max_dim", pb_i64_array(ctx, dims, 3));
        pb_add(ctx, &d->unified, "max_grid_dims", pb_i64_array(ctx, dims, 3));
    }
    if (hsa_info(h, a, HSA_AGENT_CACHE_SIZE, &v)) {
        int64_t c[4] = {v.u32[0], v.u32[1], v.u32[2], v.u32[3]}, last = 0;
        pb_add(ctx, &d->view, "cache_sizes_in_bytes", pb_i64_array(ctx, c, 4));
        if (c[0] > 0)
            pb_i64(ctx, &d->unified, "L1_cache_size_in_bytes", c[0]);
        if (c[1] > 0)
            pb_i64(ctx, &d->unified, "L2_cache_size_in_bytes", c[1]);
        for (int i = 1; i < 4; i++)
            if (c[i] > last)
                last = c[i];
        if (last > 0)
            pb_i64(ctx, &d->unified, "last_level_cache_size_in_bytes", last);
    }
}

static void hsa_isa_and_pools(dlti_context *ctx, const hsa_api *h, hsa_agent a, pb_rt_device *d)
{
    if (h->agent_iterate_isas && h->isa_get_info_alt) {
        isa_name n = {h, ""};
        h->agent_iterate_isas(a, first_isa, &n);
        if (n.name[0]) {
            pb_str(ctx, &d->view, "isa_name", n.name);
            /* The target id after the triple's "--": gfx90a:sramecc+:xnack- */
            const char *t = strstr(n.name, "--");
            pb_str(ctx, &d->view, "target_id", t ? t + 2 : n.name);
        }
    }
    if (h->iterate_pools && h->pool_get_info) {
        pools s = {h, 0, -1, -1};
        h->iterate_pools(a, pool_sizes, &s);
        if (s.group > 0) {
            /* LDS: what one work-group may use; HSA has no opt-in above it. */
            pb_i64(ctx, &d->view, "group_segment_size_in_bytes", s.group);
            pb_i64(ctx, &d->unified, "shared_memory_per_block_in_bytes", s.group);
            pb_i64(ctx, &d->unified, "max_shared_memory_per_block_in_bytes", s.group);
        }
        if (s.coarse > 0) {
            pb_i64(ctx, &d->view, "global_memory_size_in_bytes", s.coarse);
            pb_i64(ctx, &d->unified, "memory_size_in_bytes", s.coarse);
        }
    }
}

static void hsa_agent_keys(dlti_context *ctx, const hsa_api *h, hsa_agent a, pb_rt_device *d)
{
    pb_str(ctx, &d->unified, "vendor", "AMD");
    pb_str(ctx, &d->unified, "compute_unit_name", "CU");
    hsa_text(ctx, h, a, HSA_AGENT_NAME, d, "agent_name", "arch", NULL, 0);
    hsa_text(ctx, h, a, HSA_AGENT_VENDOR_NAME, d, "vendor_name", NULL, NULL, 0);
    hsa_text(ctx, h, a, HSA_AMD_PRODUCT_NAME, d, "product_name", "model", d->name,
             sizeof(d->name));
    /* "GPU-XX" is the runtime saying it has no UUID. */
    hsa_value v;
    if (hsa_info(h, a, HSA_AMD_UUID, &v) && pb_vendor_text(v.text, 21, d->uuid, sizeof(d->uuid)) &&
        strcmp(d->uuid, "GPU-XX") != 0 && d->uuid[0]) {
        pb_str(ctx, &d->view, "uuid", d->uuid);
        pb_str(ctx, &d->unified, "uuid", d->uuid);
    } else {
        d->uuid[0] = '\0';
    }
    hsa_value dom, bdf;
    if (hsa_info(h, a, HSA_AMD_DOMAIN, &dom) && hsa_info(h, a, HSA_AMD_BDFID, &bdf) &&
        bdf.u32[0] <= 0xffff &&
        pb_vendor_bus_id_of(dom.u32[0], bdf.u32[0] >> 8, (bdf.u32[0] >> 3) & 0x1f,
                            bdf.u32[0] & 7, d->bus_id))
        pb_str(ctx, &d->view, "pci_bus_id", d->bus_id);
    hsa_u32(ctx, h, a, HSA_AMD_COMPUTE_UNIT_COUNT, 1, 1u << 20, d, "compute_unit_count",
            "num_compute_units");
    hsa_u32(ctx, h, a, HSA_AGENT_WORKGROUP_MAX_SIZE, 1, 1u << 20, d, "workgroup_max_size",
            "max_threads_per_block");
    hsa_u32(ctx, h, a, HSA_AMD_MAX_CLOCK_FREQUENCY, 1, 10000, d, "max_clock_frequency_in_mhz",
            "max_clock_in_mhz");
    hsa_u32(ctx, h, a, HSA_AMD_MEMORY_MAX_FREQUENCY, 1, 100000, d,
            "memory_max_frequency_in_mhz", "memory_clock_in_mhz");
    hsa_u32(ctx, h, a, HSA_AMD_MEMORY_WIDTH, 1, 1u << 20, d, "memory_width_in_bits",
            "memory_bus_width_in_bits");
    hsa_u32(ctx, h, a, HSA_AMD_MAX_WAVES_PER_CU, 1, 1u << 20, d, "max_waves_per_cu", NULL);
    hsa_u32(ctx, h, a, HSA_AMD_NUM_SIMDS_PER_CU, 1, 1u << 20, d, "num_simds_per_cu", NULL);
    hsa_u32(ctx, h, a, HSA_AMD_NUM_SHADER_ENGINES, 1, 1u << 20, d, "num_shader_engines", NULL);
    hsa_u32(ctx, h, a, HSA_AMD_NUM_XCC, 1, 1u << 20, d, "num_xcc", NULL);
    hsa_u32(ctx, h, a, HSA_AMD_CHIP_ID, 1, 0xffff, d, "chip_id", NULL);
    hsa_u32(ctx, h, a, HSA_AMD_CACHELINE_SIZE, 1, 1u << 20, d, "cacheline_size_in_bytes", NULL);
    hsa_u32(ctx, h, a, HSA_AMD_DRIVER_NODE_ID, 0, 1u << 20, d, "driver_node_id", NULL);
    hsa_limits(ctx, h, a, d);
    hsa_isa_and_pools(ctx, h, a, d);
}

static int hsa_gpus(pb_run *run, const hsa_api *h, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    char driver[64] = "HSA", why[160];
    uint16_t major = 0, minor = 0;
    if (h->system_get_info && h->system_get_info(HSA_SYSTEM_VERSION_MAJOR, &major) == HSA_OK &&
        h->system_get_info(HSA_SYSTEM_VERSION_MINOR, &minor) == HSA_OK && major > 0)
        snprintf(driver, sizeof(driver), "HSA %u.%u", major, minor);
    agent_list *l = calloc(1, sizeof(*l));
    if (!l) {
        bs_nomem(err);
        return -1;
    }
    l->h = h;
    hsa_status s = h->iterate_agents(collect_gpu, l);
    if (s != HSA_OK && s != HSA_BREAK) {
        hsa_error_text(h, "hsa_iterate_agents", s, why, sizeof(why));
        pb_rt_skipped(run, "rocm", why);
        free(l);
        return 0;
    }
    pb_rt_cap(run, "rocm", "GPU agents", l->all, PB_VENDOR_MAX_DEVICES); /* l->n: those kept */
    if (l->n == 0)
        pb_rt_skipped(run, "rocm", "no GPU agent");
    int rc = 0;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        pb_rt_device d;
        pb_rt_init(&d, "rocm", (int)i);
        snprintf(d.driver, sizeof(d.driver), "%s", driver);
        pb_i64(ctx, &d.view, "ordinal", (int64_t)i);
        hsa_agent_keys(ctx, h, l->a[i], &d);
        /* The runtime applies these to what it shows; the view says so. */
        pb_vendor_env(ctx, &d.view, "visible_devices", "ROCR_VISIBLE_DEVICES");
        pb_vendor_env(ctx, &d.view, "hip_visible_devices", "HIP_VISIBLE_DEVICES");
        rc = pb_rt_add(run, &d, err);
    }
    free(l);
    return rc;
}

static int probe_rocm(pb_run *run, dlti_error_t *err)
{
    void *lib = pb_rt_dlopen(run, "rocm", SONAME);
    if (!lib)
        return 0;
    hsa_api h;
    memset(&h, 0, sizeof(h));
    static const char *const required[] = {"hsa_init", "hsa_shut_down", "hsa_iterate_agents",
                                           "hsa_agent_get_info"};
    void *fn[4];
    for (size_t i = 0; i < 4; i++)
        if (!(fn[i] = pb_vendor_sym(lib, required[i]))) {
            pb_vendor_lacks(run, "rocm", lib, SONAME, required[i]);
            return 0;
        }
    PB_VENDOR_FN(h.init, fn[0]);
    PB_VENDOR_FN(h.shut_down, fn[1]);
    PB_VENDOR_FN(h.iterate_agents, fn[2]);
    PB_VENDOR_FN(h.agent_get_info, fn[3]);
    PB_VENDOR_FN(h.status_string, pb_vendor_sym(lib, "hsa_status_string"));
    PB_VENDOR_FN(h.system_get_info, pb_vendor_sym(lib, "hsa_system_get_info"));
    PB_VENDOR_FN(h.agent_iterate_isas, pb_vendor_sym(lib, "hsa_agent_iterate_isas"));
    PB_VENDOR_FN(h.isa_get_info_alt, pb_vendor_sym(lib, "hsa_isa_get_info_alt"));
    PB_VENDOR_FN(h.iterate_pools, pb_vendor_sym(lib, "hsa_amd_agent_iterate_memory_pools"));
    PB_VENDOR_FN(h.pool_get_info, pb_vendor_sym(lib, "hsa_amd_memory_pool_get_info"));
    int rc = 0;
    hsa_status s = h.init();
    if (s != HSA_OK) {
        char why[160];
        hsa_error_text(&h, "hsa_init", s, why, sizeof(why));
        pb_rt_skipped(run, "rocm", why);
    } else {
        rc = hsa_gpus(run, &h, err);
        h.shut_down();
    }
    dlclose(lib);
    return rc;
}

const pb_rt_source pb_rt_rocm = {
    .name = "rocm",
    .option = "rocm",
    .bit = SYSDESC_RUNTIME_ROCM,
    .priority = 1,
    .probe = probe_rocm,
};
