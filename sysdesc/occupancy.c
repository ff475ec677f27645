/* The occupancy calculator (sysdesc/occupancy.h, docs/occupancy.md): the
 * device's facts are read once into a `rules` record, then each
 * configuration is arithmetic on it, so that the best block sizes cost 32
 * evaluations and no lookups.
 *
 * NVIDIA: the rules of cudaOccupancyMaxActiveBlocksPerMultiprocessor as
 * CUDA's cuda_occupancy.h states them (cudaOccMaxBlocksPerSMWarpsLimit,
 * ...RegsLimit, ...SmemLimit, cudaOccMaxBlocksPerMultiprocessor), with the
 * numbers that header keeps per compute capability taken from the device
 * instead.  AMD: HIP's wave count (hipOccupancyMaxActiveBlocksPerMultiprocessor:
 * SIMDs x waves per SIMD, VGPRs per wave in granules), with the LDS
 * allocation granule and the barrier limit on multi-wave workgroups of
 * LLVM's AMDGPU backend (AMDGPUUsage LDS_SIZE, getMaxWorkGroupsPerCU). */
#include "sysdesc_private.h"

#include "sysdesc/occupancy.h"

#include <stdlib.h>
#include <string.h>

#define UNLIMITED SYSDESC_OCCUPANCY_UNLIMITED
/* The most block sizes the best sizes try (CUDA: 1024 / 32). */
#define MAX_SIZES 4096

typedef enum { RULES_NVIDIA, RULES_AMD } vendor_rules;

/* What the rules need of one device. */
typedef struct {
    vendor_rules vendor;
    int64_t subgroup;               /* the warp/wave size in use */
    int64_t max_threads_per_block;
    int64_t max_warps;              /* per compute unit */
    int64_t max_registers_per_thread; /* 0: not read (no registers asked) */
    int64_t register_unit;          /* registers per allocation, all lanes */
    /* NVIDIA */
    int64_t warp_granularity;       /* processing blocks: 4 */
    int64_t registers_per_block, registers_per_unit;
    int64_t reserved_shared;
    int64_t carveouts[32];          /* ascending; n_carveouts 0: none given */
    size_t n_carveouts;
    /* AMD */
    int64_t simds, waves_per_simd, vgprs_per_simd;
    /* both */
    int64_t shared_unit;            /* 0: not read (no shared memory asked, AMD) */
    int64_t max_shared_per_block;   /* the opt-in limit */
    int64_t shared_per_unit;        /* 0: unknown (AMD without LDS asked) */
    int64_t max_blocks;             /* 0: not read (AMD single-wave workgroups) */
} rules;

/* ---- reading the device ---- */

typedef struct {
    const dlti_attr *dev;
    const char *id;
    const char *vendor;
    dlti_error_t *err;
} reader;

static const dlti_attr *value_of(const dlti_attr *dev, const char *key)
{
    return dlti_attr_lookup_string(dev, key, strlen(key));
}

static const char *string_of(const dlti_attr *dev, const char *key)
{
    const dlti_attr *a = value_of(dev, key);
    const char *s;
    size_t len;
    if (!a || dlti_attr_get_string(a, &s, &len, NULL) < 0 || strlen(s) != len)
        return NULL;
    return s;
}

/* The integer `key`, at least `min`: false with the error naming the key
 * when the device lacks it, holds another kind of value, or a value the
 * arithmetic cannot take. */
static bool need(reader *r, const char *key, int64_t min, int64_t *out)
{
    const dlti_attr *a = value_of(r->dev, key);
    if (!a) {
        bs_error_set(r->err, DLTI_ERROR_NOT_FOUND,
                     "device '%s' has no '%s': the %s occupancy rules need it "
                     "(docs/occupancy.md lists their keys)",
                     r->id, key, r->vendor);
        return false;
    }
    if (dlti_attr_get_int64(a, out, NULL) < 0) {
        bs_error_set(r->err, DLTI_ERROR_TYPE, "'%s.%s' is no integer: the occupancy needs one",
                     r->id, key);
        return false;
    }
    if (*out < min) {
        bs_error_set(r->err, DLTI_ERROR_VERIFY,
                     "'%s.%s' is %lld: the occupancy needs at least %lld", r->id, key,
                     (long long)*out, (long long)min);
        return false;
    }
    return true;
}

/* The integers of an array or dense array `key` into out[] (at most cap);
 * their count, or -1 with the error. */
static long need_ints(reader *r, const char *key, int64_t *out, size_t cap)
{
    const dlti_attr *a = value_of(r->dev, key);
    if (!a) {
        bs_error_set(r->err, DLTI_ERROR_NOT_FOUND,
                     "device '%s' has no '%s': the %s occupancy rules need it "
                     "(docs/occupancy.md lists their keys)",
                     r->id, key, r->vendor);
        return -1;
    }
    dlti_attr_kind kind = dlti_attr_get_kind(a);
    size_t n = kind == DLTI_ATTR_ARRAY || kind == DLTI_ATTR_DENSE_ARRAY ? dlti_attr_size(a) : 0;
    if (n == 0 || n > cap) {
        bs_error_set(r->err, DLTI_ERROR_TYPE,
                     "'%s.%s' is no array of 1 to %zu integers: the occupancy needs one", r->id,
                     key, cap);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int rc = kind == DLTI_ATTR_ARRAY ? dlti_attr_get_int64(dlti_attr_element(a, i), &out[i], NULL)
                                         : dlti_attr_dense_int64(a, i, &out[i], NULL);
        if (rc < 0 || out[i] < 0) {
            bs_error_set(r->err, DLTI_ERROR_TYPE,
                         "'%s.%s' holds a value that is no integer >= 0", r->id, key);
            return -1;
        }
    }
    return (long)n;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The warp/wave size: the request's when the device has it, else the
 * device's smallest. */
static bool read_subgroup(reader *r, int64_t want, int64_t *out)
{
    int64_t sizes[16];
    long n = need_ints(r, "subgroup_sizes", sizes, 16);
    if (n < 0)
        return false;
    qsort(sizes, (size_t)n, sizeof sizes[0], cmp_i64);
    if (sizes[0] < 1) {
        bs_error_set(r->err, DLTI_ERROR_VERIFY, "'%s.subgroup_sizes' holds 0", r->id);
        return false;
    }
    if (want == 0) {
        *out = sizes[0];
        return true;
    }
    for (long i = 0; i < n; i++)
        if (sizes[i] == want) {
            *out = want;
            return true;
        }
    bs_error_set(r->err, DLTI_ERROR_ARGUMENT,
                 "subgroup size %lld is none of device '%s''s subgroup_sizes", (long long)want,
                 r->id);
    return false;
}

static bool read_nvidia(reader *r, const sysdesc_occupancy_request *req, rules *u)
{
    int64_t per_unit_threads;
    const char *gran = string_of(r->dev, "register_allocation_granularity");
    if (!gran) {
        if (!value_of(r->dev, "register_allocation_granularity"))
            bs_error_set(r->err, DLTI_ERROR_NOT_FOUND,
                         "device '%s' has no 'register_allocation_granularity': the NVIDIA "
                         "occupancy rules need it (docs/occupancy.md lists their keys)",
                         r->id);
        else
            bs_error_set(r->err, DLTI_ERROR_TYPE,
                         "'%s.register_allocation_granularity' is no string", r->id);
        return false;
    }
    if (strcmp(gran, "warp") != 0) {
        bs_error_set(r->err, DLTI_ERROR_UNSUPPORTED,
                     "'%s.register_allocation_granularity' is \"%s\": the NVIDIA rules "
                     "allocate registers per warp only",
                     r->id, gran);
        return false;
    }
    if (!need(r, "max_threads_per_compute_unit", 1, &per_unit_threads) ||
        !need(r, "max_blocks_per_compute_unit", 1, &u->max_blocks) ||
        !need(r, "registers_per_compute_unit", 1, &u->registers_per_unit) ||
        !need(r, "registers_per_block", 1, &u->registers_per_block) ||
        !need(r, "max_registers_per_thread", 1, &u->max_registers_per_thread) ||
        !need(r, "register_allocation_unit_size", 1, &u->register_unit) ||
        !need(r, "warp_allocation_granularity", 1, &u->warp_granularity) ||
        !need(r, "shared_memory_allocation_unit_size_in_bytes", 1, &u->shared_unit) ||
        !need(r, "shared_memory_per_compute_unit_in_bytes", 1, &u->shared_per_unit) ||
        !need(r, "max_shared_memory_per_block_in_bytes", 1, &u->max_shared_per_block) ||
        !need(r, "reserved_shared_memory_per_block_in_bytes", 0, &u->reserved_shared))
        return false;
    u->max_warps = per_unit_threads / u->subgroup;
    /* the carveouts: needed for a preference; with the default, CUDA aligns
     * the whole shared memory per SM up to one, where the list is given */
    if (req->carveout_percent != SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT ||
        value_of(r->dev, "shared_memory_carveouts_in_bytes")) {
        long n = need_ints(r, "shared_memory_carveouts_in_bytes", u->carveouts,
                           sizeof u->carveouts / sizeof u->carveouts[0]);
        if (n < 0)
            return false;
        u->n_carveouts = (size_t)n;
        qsort(u->carveouts, u->n_carveouts, sizeof u->carveouts[0], cmp_i64);
    }
    return true;
}

static bool read_amd(reader *r, const sysdesc_occupancy_request *req, rules *u)
{
    if (!need(r, "simds_per_compute_unit", 1, &u->simds) ||
        !need(r, "max_waves_per_simd", 1, &u->waves_per_simd))
        return false;
    if (u->simds > INT64_MAX / u->waves_per_simd) {
        bs_error_set(r->err, DLTI_ERROR_VERIFY, "'%s': SIMDs x waves per SIMD overflow", r->id);
        return false;
    }
    u->max_warps = u->simds * u->waves_per_simd;
    if (req->registers_per_thread > 0 &&
        (!need(r, "max_registers_per_thread", 1, &u->max_registers_per_thread) ||
         !need(r, "vgprs_per_simd", 1, &u->vgprs_per_simd) ||
         !need(r, "register_allocation_unit_size", 1, &u->register_unit)))
        return false;
    if (req->shared_memory_per_block > 0 &&
        (!need(r, "shared_memory_allocation_unit_size_in_bytes", 1, &u->shared_unit) ||
         !need(r, "shared_memory_per_compute_unit_in_bytes", 1, &u->shared_per_unit) ||
         !need(r, "max_shared_memory_per_block_in_bytes", 1, &u->max_shared_per_block)))
        return false;
    if (req->carveout_percent != SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT) {
        bs_error_set(r->err, DLTI_ERROR_ARGUMENT,
                     "device '%s' is an AMD GPU: its LDS has no carveout to prefer", r->id);
        return false;
    }
    /* The barrier limit binds workgroups of more than one wave: read_rules
     * reads it when a block size has more. */
    return true;
}

static bool check_request(const sysdesc_occupancy_request *req, dlti_error_t *err)
{
    if (!req || req->threads_per_block < 1 || req->registers_per_thread < 0 ||
        req->shared_memory_per_block < 0 || req->subgroup_size < 0 ||
        (req->carveout_percent != SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT &&
         (req->carveout_percent < 0 || req->carveout_percent > 100))) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "an occupancy request needs threads per block >= 1, registers per thread "
                     ">= 0, shared memory >= 0, a carveout of 0..100 percent (or the "
                     "default) and a subgroup size >= 0");
        return false;
    }
    return true;
}

/* Reads the device's facts for `req` (its threads only decide whether the
 * AMD barrier limit is read: with `any_threads`, always). */
static bool read_rules(const dlti_attr *dev, const char *id, const sysdesc_occupancy_request *req,
                       bool any_threads, rules *u, dlti_error_t *err)
{
    memset(u, 0, sizeof *u);
    if (!dev || (dlti_attr_get_kind(dev) != DLTI_ATTR_DEVICE_SPEC &&
                 dlti_attr_get_kind(dev) != DLTI_ATTR_MAP)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "the occupancy needs a device (#dlti.target_device_spec)");
        return false;
    }
    if (!check_request(req, err))
        return false;
    reader r = {dev, id ? id : "GPU", NULL, err};
    r.vendor = string_of(dev, "vendor");
    if (!r.vendor) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "device '%s' has no 'vendor': the occupancy rules are NVIDIA's and AMD's",
                     r.id);
        return false;
    }
    if (strcmp(r.vendor, "NVIDIA") == 0)
        u->vendor = RULES_NVIDIA;
    else if (strcmp(r.vendor, "AMD") == 0)
        u->vendor = RULES_AMD;
    else {
        bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                     "device '%s' is a GPU of %s: the occupancy rules are NVIDIA's and AMD's "
                     "only",
                     r.id, r.vendor);
        return false;
    }
    if (!read_subgroup(&r, req->subgroup_size, &u->subgroup) ||
        !need(&r, "max_threads_per_block", 1, &u->max_threads_per_block))
        return false;
    /* the best block sizes try every multiple of the subgroup size */
    if (any_threads && u->max_threads_per_block / u->subgroup > MAX_SIZES) {
        bs_error_set(err, DLTI_ERROR_LIMIT,
                     "'%s.max_threads_per_block' (%lld) allows more than %d block sizes to try",
                     r.id, (long long)u->max_threads_per_block, MAX_SIZES);
        return false;
    }
    if (u->vendor == RULES_NVIDIA ? !read_nvidia(&r, req, u) : !read_amd(&r, req, u))
        return false;
    if (u->max_warps < 1) {
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "device '%s' holds no warp of %lld: the occupancy needs at least one",
                     r.id, (long long)u->subgroup);
        return false;
    }
    if (u->vendor == RULES_NVIDIA)
        return true;
    if (any_threads || req->threads_per_block > u->subgroup)
        return need(&r, "max_blocks_per_compute_unit", 1, &u->max_blocks);
    return true;
}

/* ---- the arithmetic ---- */

static int64_t div_up(int64_t x, int64_t y)
{
    return x / y + (x % y != 0);
}

/* x rounded up to a multiple of y, INT64_MAX when that overflows. */
static int64_t round_up(int64_t x, int64_t y)
{
    int64_t q = div_up(x, y);
    return q > INT64_MAX / y ? INT64_MAX : q * y;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    return a != 0 && b > INT64_MAX / a ? INT64_MAX : a * b;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    return b > INT64_MAX - a ? INT64_MAX : a + b;
}

/* The smallest carveout of at least `bytes`; -1 when none is. */
static int64_t carveout_at_least(const rules *u, int64_t bytes)
{
    for (size_t i = 0; i < u->n_carveouts; i++)
        if (u->carveouts[i] >= bytes)
            return u->carveouts[i];
    return -1;
}

static void nvidia_limits(const rules *u, const sysdesc_occupancy_request *req, int64_t wpb,
                          sysdesc_occupancy *o)
{
    int64_t regs = req->registers_per_thread;
    /* registers: allocated per warp in units, a block's warps counted in
     * multiples of the processing blocks for the per-block check, and the
     * file split evenly between the processing blocks */
    if (regs == 0) {
        o->blocks_by_registers = UNLIMITED;
    } else if (regs > u->max_registers_per_thread) {
        o->blocks_by_registers = 0;
    } else {
        int64_t per_warp = round_up(sat_mul(regs, u->subgroup), u->register_unit);
        int64_t per_block = sat_mul(per_warp, wpb);
        int64_t assumed = sat_mul(per_warp, round_up(wpb, u->warp_granularity));
        o->registers_allocated = per_block;
        if (assumed > u->registers_per_block || per_block > u->registers_per_block)
            o->blocks_by_registers = 0;
        else
            o->blocks_by_registers =
                (u->registers_per_unit / u->warp_granularity / per_warp) * u->warp_granularity / wpb;
    }
    /* shared memory: the request and the reserved part, in units; the
     * carveout the preference asks for, or the next one that holds a block */
    int64_t shared = req->shared_memory_per_block;
    int64_t limit = sat_add(u->max_shared_per_block, u->reserved_shared);
    int64_t alloc = shared > limit ? INT64_MAX : round_up(sat_add(shared, u->reserved_shared), u->shared_unit);
    int64_t preference;
    if (req->carveout_percent == SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT)
        preference = u->shared_per_unit;
    else
        preference = sat_mul(req->carveout_percent, u->shared_per_unit) / 100;
    int64_t aligned = carveout_at_least(u, preference);
    preference = aligned >= 0 ? aligned : u->shared_per_unit;
    o->shared_memory_allocated = alloc == INT64_MAX ? 0 : alloc;
    if (alloc > limit) {
        o->blocks_by_shared_memory = 0;
        o->shared_memory_per_compute_unit = preference;
    } else {
        int64_t capacity = preference;
        if (preference < alloc) {
            aligned = carveout_at_least(u, alloc);
            capacity = aligned >= 0 ? aligned : u->shared_per_unit;
        }
        o->shared_memory_per_compute_unit = capacity;
        o->blocks_by_shared_memory = alloc > 0 ? capacity / alloc : UNLIMITED;
    }
    o->blocks_by_blocks = u->max_blocks;
}

static void amd_limits(const rules *u, const sysdesc_occupancy_request *req, int64_t wpb,
                       sysdesc_occupancy *o)
{
    int64_t regs = req->registers_per_thread;
    /* VGPRs: a wave's lanes together, in granules, out of one SIMD's file;
     * the waves of the CU's SIMDs shared by the workgroups */
    if (regs == 0) {
        o->blocks_by_registers = UNLIMITED;
    } else if (regs > u->max_registers_per_thread) {
        o->blocks_by_registers = 0;
    } else {
        int64_t per_wave = round_up(sat_mul(regs, u->subgroup), u->register_unit);
        o->registers_allocated = per_wave;
        o->blocks_by_registers = sat_mul(u->simds, u->vgprs_per_simd / per_wave) / wpb;
    }
    int64_t shared = req->shared_memory_per_block;
    o->shared_memory_per_compute_unit = u->shared_per_unit;
    if (shared == 0) {
        o->blocks_by_shared_memory = UNLIMITED;
    } else if (shared > u->max_shared_per_block) {
        o->blocks_by_shared_memory = 0;
    } else {
        int64_t alloc = round_up(shared, u->shared_unit);
        o->shared_memory_allocated = alloc;
        o->blocks_by_shared_memory = u->shared_per_unit / alloc;
    }
    /* single-wave workgroups take no barrier */
    o->blocks_by_blocks = wpb > 1 ? u->max_blocks : UNLIMITED;
}

static void compute(const rules *u, const sysdesc_occupancy_request *req, sysdesc_occupancy *o)
{
    memset(o, 0, sizeof *o);
    int64_t threads = req->threads_per_block;
    int64_t wpb = div_up(threads, u->subgroup);
    o->subgroup_size = u->subgroup;
    o->warps_per_block = wpb;
    o->max_warps_per_compute_unit = u->max_warps;
    o->rules = u->vendor == RULES_NVIDIA ? "NVIDIA" : "AMD";
    o->blocks_by_warps = threads > u->max_threads_per_block ? 0 : u->max_warps / wpb;
    if (u->vendor == RULES_NVIDIA)
        nvidia_limits(u, req, wpb, o);
    else
        amd_limits(u, req, wpb, o);
    int64_t blocks = o->blocks_by_warps;
    if (o->blocks_by_registers < blocks)
        blocks = o->blocks_by_registers;
    if (o->blocks_by_shared_memory < blocks)
        blocks = o->blocks_by_shared_memory;
    if (o->blocks_by_blocks < blocks)
        blocks = o->blocks_by_blocks;
    o->blocks_per_compute_unit = blocks;
    o->limits = (o->blocks_by_warps == blocks ? SYSDESC_OCCUPANCY_LIMIT_WARPS : 0u) |
                (o->blocks_by_registers == blocks ? SYSDESC_OCCUPANCY_LIMIT_REGISTERS : 0u) |
                (o->blocks_by_shared_memory == blocks ? SYSDESC_OCCUPANCY_LIMIT_SHARED_MEMORY : 0u) |
                (o->blocks_by_blocks == blocks ? SYSDESC_OCCUPANCY_LIMIT_BLOCKS : 0u);
    o->warps_per_compute_unit = blocks * wpb; /* blocks <= max_warps / wpb */
    o->occupancy = (double)o->warps_per_compute_unit / (double)u->max_warps;
}

/* The best block sizes of `req` on `u`: up to cap into sizes, *count all. */
static void best_sizes(const rules *u, const sysdesc_occupancy_request *req, int64_t *sizes,
                       size_t cap, size_t *count)
{
    int64_t most = 0;
    size_t n = 0;
    sysdesc_occupancy_request r = *req;
    sysdesc_occupancy o;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t t = u->subgroup; t <= u->max_threads_per_block; t += u->subgroup) {
            r.threads_per_block = t;
            compute(u, &r, &o);
            if (pass == 0 && o.warps_per_compute_unit > most)
                most = o.warps_per_compute_unit;
            else if (pass == 1 && most > 0 && o.warps_per_compute_unit == most) {
                if (n < cap)
                    sizes[n] = t;
                n++;
            }
        }
    }
    *count = n;
}

/* ---- the API ---- */

sysdesc_occupancy_request sysdesc_occupancy_request_make(int64_t threads, int64_t registers,
                                                        int64_t shared)
{
    sysdesc_occupancy_request r = {threads, registers, shared,
                                   SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT, 0};
    return r;
}

int sysdesc_occupancy_compute(const dlti_attr *device, const char *device_id,
                              const sysdesc_occupancy_request *req, sysdesc_occupancy *out,
                              dlti_error_t *err)
{
    rules u;
    if (!out) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "sysdesc_occupancy_compute needs a result");
        return -1;
    }
    if (!read_rules(device, device_id, req, false, &u, err))
        return -1;
    compute(&u, req, out);
    return 0;
}

int sysdesc_occupancy_best_block_sizes(const dlti_attr *device, const char *device_id,
                                       const sysdesc_occupancy_request *req, int64_t *sizes,
                                       size_t cap, size_t *count, dlti_error_t *err)
{
    rules u;
    if (!count || (cap > 0 && !sizes)) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT,
                     "sysdesc_occupancy_best_block_sizes needs a count and room for the sizes");
        return -1;
    }
    if (!read_rules(device, device_id, req, true, &u, err))
        return -1;
    best_sizes(&u, req, sizes, cap, count);
    return 0;
}

static void put_limit(bs_buf *b, const char *name, int64_t v, bool last)
{
    bs_buf_printf(b, "    \"%s\": ", name);
    if (v == UNLIMITED)
        bs_buf_puts(b, "null");
    else
        bs_buf_put_i64(b, v);
    bs_buf_puts(b, last ? "\n" : ",\n");
}

char *sysdesc_occupancy_json(const dlti_attr *device, const char *device_id,
                             const sysdesc_occupancy_request *req, size_t *len, dlti_error_t *err)
{
    rules u;
    if (!read_rules(device, device_id, req, true, &u, err))
        return NULL;
    sysdesc_occupancy o;
    compute(&u, req, &o);
    size_t cap = (size_t)(u.max_threads_per_block / u.subgroup), n;
    int64_t *sizes = malloc((cap ? cap : 1) * sizeof *sizes);
    if (!sizes) {
        bs_nomem(err);
        return NULL;
    }
    best_sizes(&u, req, sizes, cap, &n);
    bs_buf b = {0};
    const char *id = device_id ? device_id : "GPU";
    bs_buf_puts(&b, "{\n  \"device\": ");
    sd_buf_put_quoted(&b, id, strlen(id), "\\u%04X");
    bs_buf_printf(&b, ",\n  \"rules\": \"%s\",\n", o.rules);
    bs_buf_printf(&b, "  \"threads_per_block\": %lld,\n", (long long)req->threads_per_block);
    bs_buf_printf(&b, "  \"registers_per_thread\": %lld,\n", (long long)req->registers_per_thread);
    bs_buf_printf(&b, "  \"shared_memory_per_block\": %lld,\n",
                  (long long)req->shared_memory_per_block);
    if (req->carveout_percent == SYSDESC_OCCUPANCY_CARVEOUT_DEFAULT)
        bs_buf_puts(&b, "  \"carveout_percent\": null,\n");
    else
        bs_buf_printf(&b, "  \"carveout_percent\": %lld,\n", (long long)req->carveout_percent);
    bs_buf_printf(&b, "  \"subgroup_size\": %lld,\n", (long long)o.subgroup_size);
    bs_buf_printf(&b, "  \"warps_per_block\": %lld,\n", (long long)o.warps_per_block);
    bs_buf_printf(&b, "  \"blocks_per_compute_unit\": %lld,\n",
                  (long long)o.blocks_per_compute_unit);
    bs_buf_printf(&b, "  \"warps_per_compute_unit\": %lld,\n", (long long)o.warps_per_compute_unit);
    bs_buf_printf(&b, "  \"max_warps_per_compute_unit\": %lld,\n",
                  (long long)o.max_warps_per_compute_unit);
    char num[40];
    sd_format_double(num, sizeof num, o.occupancy);
    bs_buf_printf(&b, "  \"occupancy\": %s,\n  \"limited_by\": [", num);
    static const char *const names[] = {"warps", "registers", "shared_memory", "blocks"};
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (o.limits & (1u << i))
            bs_buf_printf(&b, "%s\"%s\"", k++ ? ", " : "", names[i]);
    bs_buf_puts(&b, "],\n  \"blocks_by\": {\n");
    put_limit(&b, "warps", o.blocks_by_warps, false);
    put_limit(&b, "registers", o.blocks_by_registers, false);
    put_limit(&b, "shared_memory", o.blocks_by_shared_memory, false);
    put_limit(&b, "blocks", o.blocks_by_blocks, true);
    bs_buf_printf(&b, "  },\n  \"registers_allocated\": %lld,\n",
                  (long long)o.registers_allocated);
    bs_buf_printf(&b, "  \"shared_memory_allocated\": %lld,\n",
                  (long long)o.shared_memory_allocated);
    bs_buf_printf(&b, "  \"shared_memory_per_compute_unit\": %lld,\n",
                  (long long)o.shared_memory_per_compute_unit);
    bs_buf_puts(&b, "  \"best_block_sizes\": [");
    for (size_t i = 0; i < n && i < cap; i++)
        bs_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    bs_buf_puts(&b, "]\n}\n");
    free(sizes);
    if (b.failed) {
        free(b.data);
        bs_nomem(err);
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.data;
}
