/* The vendor-runtime probes (CUDA, NVML, ROCm/HSA, Level Zero) against
 * TEST DOUBLES of their libraries (tests/probe/doubles/, README): the
 * mapping of what a runtime answers to the schema keys, views and
 * partitions, and the error paths (no device, a missing entry point, bogus
 * values).  The doubles prove nothing about real drivers.  The "real"
 * group runs with no double at all: Debian's Level Zero loader without a
 * driver, and no CUDA or ROCm.
 *
 * Usage: test_runtime_doubles doubles|missing|real (meson sets
 * LD_LIBRARY_PATH to the folder of the doubles each group needs). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe_private.h"
#include "sysdesc/schema.h"
#include "sysdesc/system.h"

/* ---- a run without a topology, as a runtime source gets in its child ---- */

typedef struct fixture {
    dlti_context *ctx;
    sysdesc_probe_options opts;
    pb_run run;
    char config[64]; /* the doubles' configuration file */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->ctx = dlti_context_new();
    assert_non_null(f->ctx);
    sysdesc_probe_options_init(&f->opts);
    f->run.ctx = f->ctx;
    f->run.opts = &f->opts;
    pb_init(&f->run.devices);
    pb_init(&f->run.source);
    pb_init(&f->run.rt_skipped);
    snprintf(f->config, sizeof(f->config), "/tmp/sysdesc-double-XXXXXX");
    int fd = mkstemp(f->config);
    assert_true(fd >= 0);
    close(fd);
    setenv("SYSDESC_DOUBLE_CONFIG", f->config, 1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    /* What the sources saw is accepted by the check a child's
     * answer and a cache entry go through (rt_text.c: only the keys and
     * kinds a source writes): every case of every double. */
    size_t len;
    char *text = pb_rt_print(&f->run, NULL, &len);
    assert_non_null(text);
    pb_run back;
    pb_run_init(&back, f->ctx, &f->opts);
    const dlti_attr *answer = dlti_attr_parse(f->ctx, text, len, "answer", NULL);
    if (!answer || pb_rt_accept(&back, answer) != 0 || back.nrt != f->run.nrt)
        fail_msg("the answer does not read back: %.300s", text);
    free(text);
    pb_run_free(&back);
    pb_rt_free_all(&f->run);
    pb_free(&f->run.devices);
    pb_free(&f->run.source);
    dlti_context_free(f->ctx);
    unlink(f->config);
    unsetenv("SYSDESC_DOUBLE_CONFIG");
    free(f);
    return 0;
}

/* Writes the doubles' configuration: the given texts, one after another
 * (a later line overrides an earlier one of the same key). */
static void config(fixture *f, const char *first, ...)
{
    FILE *out = fopen(f->config, "w");
    assert_non_null(out);
    va_list ap;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        fputs(s, out);
    va_end(ap);
    fclose(out);
}

/* ---- reading what the probes added ---- */

/* The value of `key` in map `m` (NULL: no map, no value). */
static const dlti_attr *get(fixture *f, const dlti_attr *m, const char *key)
{
    return m ? dlti_attr_lookup(m, dlti_key_string(f->ctx, key, strlen(key))) : NULL;
}

/* A map of a device's answer ("unified", "view", "partitions"); NULL when
 * the source left it empty (an answer leaves out empty maps). */
static const dlti_attr *sub(const dlti_attr *dev, const char *key)
{
    return pb_rt_get(dev, key);
}

static size_t size_of(const dlti_attr *m)
{
    return m ? dlti_attr_size(m) : 0;
}

static int64_t get_i64(fixture *f, const dlti_attr *m, const char *key)
{
    const dlti_attr *a = get(f, m, key);
    if (!a)
        fail_msg("no key %s", key);
    int64_t v = 0;
    assert_int_equal(dlti_attr_get_int64(a, &v, NULL), 0);
    return v;
}

static bool get_bool(fixture *f, const dlti_attr *m, const char *key)
{
    const dlti_attr *a = get(f, m, key);
    if (!a)
        fail_msg("no key %s", key);
    bool v = false;
    assert_int_equal(dlti_attr_get_bool(a, &v, NULL), 0);
    return v;
}

/* The string value of key, or of `attr` itself when key is NULL. */
static void assert_str_attr(const dlti_attr *a, const char *key, const char *want)
{
    if (!a)
        fail_msg("no key %s", key);
    const char *s = NULL;
    size_t len = 0;
    assert_int_equal(dlti_attr_get_string(a, &s, &len, NULL), 0);
    char got[512];
    snprintf(got, sizeof(got), "%.*s", (int)len, s);
    assert_string_equal(got, want);
}

static void assert_str(fixture *f, const dlti_attr *m, const char *key, const char *want)
{
    assert_str_attr(get(f, m, key), key, want);
}

/* Compares the printed attribute: "array<i64: 32>". */
static void assert_printed(fixture *f, const dlti_attr *m, const char *key, const char *want)
{
    const dlti_attr *a = get(f, m, key);
    if (!a)
        fail_msg("no key %s", key);
    char *s = dlti_attr_print(a, NULL);
    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
}

static const dlti_attr *in_map(fixture *f, const dlti_attr *map, const char *key)
{
    return dlti_attr_lookup(map, dlti_key_string(f->ctx, key, strlen(key)));
}

static int64_t in_map_i64(fixture *f, const dlti_attr *map, const char *key)
{
    const dlti_attr *a = in_map(f, map, key);
    if (!a)
        fail_msg("no key %s in the partition", key);
    int64_t v = 0;
    assert_int_equal(dlti_attr_get_int64(a, &v, NULL), 0);
    return v;
}

static const dlti_attr *map_of(fixture *f, const pb_map *m, dlti_attr_kind kind);

static void assert_skipped(fixture *f, const char *runtime, const char *why)
{
    assert_str(f, map_of(f, &f->run.rt_skipped, DLTI_ATTR_MAP), runtime, why);
}

/* A device's answer map, as the source added it. */
static const dlti_attr *rt(fixture *f, const char *runtime, int ordinal)
{
    for (size_t i = 0; i < f->run.nrt; i++)
        if (strcmp(pb_rt_text(f->run.rt[i], "runtime"), runtime) == 0 &&
            pb_rt_ordinal(f->run.rt[i]) == ordinal)
            return f->run.rt[i];
    fail_msg("no %s device %d", runtime, ordinal);
    return NULL;
}

static size_t count_rt(fixture *f, const char *runtime)
{
    size_t n = 0;
    for (size_t i = 0; i < f->run.nrt; i++)
        n += strcmp(pb_rt_text(f->run.rt[i], "runtime"), runtime) == 0;
    return n;
}

static int probe(fixture *f, int (*fn)(pb_run *, dlti_error_t *))
{
    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    int rc = fn(&f->run, &err);
    if (rc != 0)
        fail_msg("probe failed: %s", err.text);
    return rc;
}

/* Every key the runtimes added, checked against the device schema (names,
 * types, units, ranges): each rt device becomes a GPU whose top level is
 * its unified keys, with its view under runtimes.<runtime> and its
 * partitions.  A fragment (PARTIAL): one runtime's view is not a whole
 * description. */
static int print_problem(void *user, const dlti_error_t *problem)
{
    (void)user;
    fprintf(stderr, "schema: %s\n", problem->text);
    return 0;
}

static const dlti_attr *map_of(fixture *f, const pb_map *m, dlti_attr_kind kind)
{
    const dlti_attr *a = dlti_container_new(f->ctx, kind, m->e, m->n, NULL);
    assert_non_null(a);
    return a;
}

static void assert_schema_valid(fixture *f)
{
    pb_map devices;
    pb_init(&devices);
    for (size_t i = 0; i < f->run.nrt; i++) {
        const dlti_attr *d = f->run.rt[i];
        const dlti_attr *unified = sub(d, "unified"), *view = sub(d, "view");
        pb_map dev, runtimes;
        pb_init(&dev);
        pb_init(&runtimes);
        pb_str(f->ctx, &dev, "device_type", "GPU");
        for (size_t k = 0; k < size_of(unified); k++) {
            size_t len = 0;
            const char *key = dlti_key_str(dlti_attr_entry_key(unified, k), &len);
            char name[128];
            snprintf(name, sizeof(name), "%.*s", (int)len, key);
            pb_add(f->ctx, &dev, name, dlti_attr_entry_value(unified, k));
        }
        pb_map empty;
        pb_init(&empty);
        pb_add(f->ctx, &runtimes, pb_rt_text(d, "runtime"),
               view ? view : map_of(f, &empty, DLTI_ATTR_MAP));
        pb_add(f->ctx, &dev, "runtimes", map_of(f, &runtimes, DLTI_ATTR_MAP));
        pb_free(&runtimes);
        if (sub(d, "partitions"))
            pb_add(f->ctx, &dev, "partitions", sub(d, "partitions"));
        char id[32];
        snprintf(id, sizeof(id), "GPU%zu", i);
        pb_add(f->ctx, &devices, id, map_of(f, &dev, DLTI_ATTR_DEVICE_SPEC));
        pb_free(&dev);
    }
    sysdesc_system sys;
    memset(&sys, 0, sizeof(sys));
    sys.spec = map_of(f, &devices, DLTI_ATTR_SYSTEM_SPEC);
    pb_free(&devices);
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_PARTIAL, "doubles", print_problem,
                                          NULL),
                     0);
}

/* ---- CUDA: an H100-like GPU and a 1g MIG slice of an A100-like one ---- */

static const char cuda_two_gpus[] =
    "cuda.driver_version = 12040\n"
    "cuda.count = 2\n"
    "# an H100-like GPU\n"
    "cuda.0.name = NVIDIA H100 80GB HBM3\n"
    "cuda.0.uuid = 0a1b2c3d4e5f60718293a4b5c6d7e8f9\n"
    "cuda.0.pci_bus_id = 0000:1B:00.0\n"
    "cuda.0.total_mem = 84929347584\n"
    "cuda.0.attr.16 = 132      # MULTIPROCESSOR_COUNT\n"
    "cuda.0.attr.10 = 32       # WARP_SIZE\n"
    "cuda.0.attr.1 = 1024      # MAX_THREADS_PER_BLOCK\n"
    "cuda.0.attr.2 = 1024\ncuda.0.attr.3 = 1024\ncuda.0.attr.4 = 64\n"
    "cuda.0.attr.5 = 2147483647\ncuda.0.attr.6 = 65535\ncuda.0.attr.7 = 65535\n"
    "cuda.0.attr.39 = 2048     # MAX_THREADS_PER_MULTIPROCESSOR\n"
    "cuda.0.attr.106 = 32      # MAX_BLOCKS_PER_MULTIPROCESSOR\n"
    "cuda.0.attr.12 = 65536    # MAX_REGISTERS_PER_BLOCK\n"
    "cuda.0.attr.82 = 65536    # MAX_REGISTERS_PER_MULTIPROCESSOR\n"
    "cuda.0.attr.8 = 49152     # MAX_SHARED_MEMORY_PER_BLOCK\n"
    "cuda.0.attr.97 = 232448   # MAX_SHARED_MEMORY_PER_BLOCK_OPTIN\n"
    "cuda.0.attr.81 = 233472   # MAX_SHARED_MEMORY_PER_MULTIPROCESSOR\n"
    "cuda.0.attr.111 = 1024    # RESERVED_SHARED_MEMORY_PER_BLOCK\n"
    "cuda.0.attr.9 = 65536     # TOTAL_CONSTANT_MEMORY\n"
    "cuda.0.attr.38 = 52428800 # L2_CACHE_SIZE\n"
    "cuda.0.attr.108 = 32505856 # MAX_PERSISTING_L2_CACHE_SIZE\n"
    "cuda.0.attr.13 = 1980000  # CLOCK_RATE, kHz\n"
    "cuda.0.attr.36 = 2619000  # MEMORY_CLOCK_RATE, kHz\n"
    "cuda.0.attr.37 = 5120     # GLOBAL_MEMORY_BUS_WIDTH\n"
    "cuda.0.attr.40 = 3        # ASYNC_ENGINE_COUNT\n"
    "cuda.0.attr.32 = 1        # ECC_ENABLED\n"
    "cuda.0.attr.120 = 1       # CLUSTER_LAUNCH\n"
    "cuda.0.attr.95 = 1        # COOPERATIVE_LAUNCH\n"
    "cuda.0.attr.18 = 0        # INTEGRATED\n"
    "cuda.0.attr.31 = 1        # CONCURRENT_KERNELS\n"
    "cuda.0.attr.83 = 1        # MANAGED_MEMORY\n"
    "cuda.0.attr.109 = 134213632 # MAX_ACCESS_POLICY_WINDOW_SIZE\n"
    "cuda.0.attr.84 = 0        # MULTI_GPU_BOARD\n"
    "cuda.0.attr.75 = 9\ncuda.0.attr.76 = 0\n"
    "# a MIG 1g slice of an A100-like GPU: a CUDA device of its own\n"
    "cuda.1.name = NVIDIA A100-SXM4-40GB MIG 1g.5gb\n"
    "cuda.1.uuid = 11223344556677889900aabbccddeeff\n"
    "cuda.1.pci_bus_id = 0000:3b:00.0\n"
    "cuda.1.total_mem = 5100273664\n"
    "cuda.1.attr.16 = 14\n"
    "cuda.1.attr.10 = 32\n"
    "cuda.1.attr.75 = 8\ncuda.1.attr.76 = 0\n"
    "cuda.1.attr.8 = 49152\ncuda.1.attr.97 = 166912\n";

static void test_cuda_two_gpus(void **state)
{
    fixture *f = *state;
    char log[80];
    snprintf(log, sizeof(log), "%s.log", f->config);
    char line[128];
    snprintf(line, sizeof(line), "cuda.init_log = %s\n", log);
    config(f, cuda_two_gpus, line, NULL);
    probe(f, pb_rt_cuda.probe);
    assert_int_equal(count_rt(f, "cuda"), 2);
    assert_null(get(f, map_of(f, &f->run.rt_skipped, DLTI_ATTR_MAP), "cuda"));

    const dlti_attr *h = rt(f, "cuda", 0);
    assert_string_equal(pb_rt_text(h, "name"), "NVIDIA H100 80GB HBM3");
    assert_string_equal(pb_rt_text(h, "bus_id"), "0000:1b:00.0"); /* lower case, as pci.c */
    assert_string_equal(pb_rt_text(h, "uuid"), "GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    assert_string_equal(pb_rt_text(h, "driver"), "CUDA 12.4");
    assert_false(pb_rt_is_cpu(h));
    const dlti_attr *u = sub(h, "unified");
    assert_str(f, u, "vendor", "NVIDIA");
    assert_str(f, u, "model", "NVIDIA H100 80GB HBM3");
    assert_str(f, u, "arch", "sm_90");
    assert_str(f, u, "compute_capability", "9.0");
    assert_str(f, u, "compute_unit_name", "SM");
    assert_str(f, u, "uuid", "GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    assert_false(get_bool(f, u, "is_partition"));
    assert_int_equal(get_i64(f, u, "num_compute_units"), 132);
    assert_printed(f, u, "subgroup_sizes", "array<i64: 32>");
    assert_int_equal(get_i64(f, u, "max_threads_per_block"), 1024);
    assert_int_equal(get_i64(f, u, "max_threads_per_compute_unit"), 2048);
    assert_int_equal(get_i64(f, u, "max_blocks_per_compute_unit"), 32);
    assert_printed(f, u, "max_block_dims", "array<i64: 1024, 1024, 64>");
    assert_printed(f, u, "max_grid_dims", "array<i64: 2147483647, 65535, 65535>");
    assert_int_equal(get_i64(f, u, "registers_per_block"), 65536);
    assert_int_equal(get_i64(f, u, "registers_per_compute_unit"), 65536);
    assert_int_equal(get_i64(f, u, "shared_memory_per_block_in_bytes"), 49152);
    assert_int_equal(get_i64(f, u, "max_shared_memory_per_block_in_bytes"), 232448);
    assert_int_equal(get_i64(f, u, "shared_memory_per_compute_unit_in_bytes"), 233472);
    assert_int_equal(get_i64(f, u, "reserved_shared_memory_per_block_in_bytes"), 1024);
    assert_int_equal(get_i64(f, u, "L2_cache_size_in_bytes"), 52428800);
    assert_int_equal(get_i64(f, u, "last_level_cache_size_in_bytes"), 52428800);
    assert_int_equal(get_i64(f, u, "max_persisting_L2_cache_size_in_bytes"), 32505856);
    assert_int_equal(get_i64(f, u, "max_clock_in_mhz"), 1980);
    assert_int_equal(get_i64(f, u, "memory_clock_in_mhz"), 2619);
    assert_int_equal(get_i64(f, u, "memory_bus_width_in_bits"), 5120);
    assert_int_equal(get_i64(f, u, "memory_size_in_bytes"), 84929347584);
    assert_true(get_bool(f, u, "ecc_enabled"));
    /* Only the runtime's own words go to the view. */
    assert_null(get(f, u, "cluster_launch"));
    assert_null(get(f, u, "total_constant_memory_in_bytes"));

    const dlti_attr *v = sub(h, "view");
    assert_int_equal(get_i64(f, v, "ordinal"), 0);
    assert_int_equal(get_i64(f, v, "driver_api_version"), 12040);
    assert_str(f, v, "name", "NVIDIA H100 80GB HBM3");
    assert_str(f, v, "pci_bus_id", "0000:1b:00.0");
    assert_int_equal(get_i64(f, v, "multiprocessor_count"), 132);
    assert_int_equal(get_i64(f, v, "warp_size"), 32);
    assert_int_equal(get_i64(f, v, "max_shared_memory_per_block_optin_in_bytes"), 232448);
    assert_int_equal(get_i64(f, v, "total_constant_memory_in_bytes"), 65536);
    assert_int_equal(get_i64(f, v, "clock_rate_in_mhz"), 1980);
    assert_int_equal(get_i64(f, v, "async_engine_count"), 3);
    assert_int_equal(get_i64(f, v, "compute_capability_major"), 9);
    assert_int_equal(get_i64(f, v, "compute_capability_minor"), 0);
    assert_true(get_bool(f, v, "cluster_launch"));
    assert_true(get_bool(f, v, "cooperative_launch"));
    assert_false(get_bool(f, v, "integrated"));
    assert_false(get_bool(f, v, "is_mig_instance"));
    /* what a tuner reads of the persisting L2, streams and managed memory */
    assert_true(get_bool(f, v, "concurrent_kernels"));
    assert_true(get_bool(f, v, "managed_memory"));
    assert_int_equal(get_i64(f, v, "max_access_policy_window_size_in_bytes"), 134213632);
    assert_null(get(f, sub(rt(f, "cuda", 1), "view"), "concurrent_kernels"));
    assert_printed(f, v, "max_block_dims", "array<i64: 1024, 1024, 64>");
    assert_int_equal(size_of(sub(h, "partitions")), 0);

    /* The MIG slice: its own 14 SMs, a MIG- UUID, a partition. */
    const dlti_attr *m = rt(f, "cuda", 1);
    assert_string_equal(pb_rt_text(m, "uuid"), "MIG-11223344-5566-7788-9900-aabbccddeeff");
    assert_string_equal(pb_rt_text(m, "bus_id"), "0000:3b:00.0");
    assert_true(get_bool(f, sub(m, "unified"), "is_partition"));
    assert_true(get_bool(f, sub(m, "view"), "is_mig_instance"));
    assert_int_equal(get_i64(f, sub(m, "unified"), "num_compute_units"), 14);
    assert_str(f, sub(m, "unified"), "arch", "sm_80");
    /* What the "driver" does not know is absent, not zero. */
    assert_null(get(f, sub(m, "unified"), "L2_cache_size_in_bytes"));
    assert_null(get(f, sub(m, "view"), "cluster_launch"));

    /* cuInit is slow: the probe calls it once. */
    char text[256] = "";
    assert_int_equal(pb_read_file(log, text, sizeof(text)) >= 0, 1);
    assert_string_equal(text, "cuInit\n");
    unlink(log);
    assert_schema_valid(f);
}

static void test_cuda_no_device(void **state)
{
    fixture *f = *state;
    config(f, cuda_two_gpus, "cuda.init = 100\n", NULL);
    probe(f, pb_rt_cuda.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "cuda", "cuInit: CUDA_ERROR_NO_DEVICE (100)");
}

static void test_cuda_unknown_error(void **state)
{
    fixture *f = *state;
    /* A code cuGetErrorName does not know: the number alone. */
    config(f, cuda_two_gpus, "cuda.init = 7777\n", NULL);
    probe(f, pb_rt_cuda.probe);
    assert_skipped(f, "cuda", "cuInit: error (7777)");
}

static void test_cuda_negative_count(void **state)
{
    fixture *f = *state;
    config(f, cuda_two_gpus, "cuda.count = -3\n", NULL);
    probe(f, pb_rt_cuda.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "cuda", "cuDeviceGetCount: no device");
}

static void test_cuda_count_clamped(void **state)
{
    fixture *f = *state;
    config(f, cuda_two_gpus, "cuda.count = 100000\n", NULL);
    probe(f, pb_rt_cuda.probe);
    assert_int_equal(count_rt(f, "cuda"), PB_VENDOR_MAX_DEVICES);
    /* the cut is said, never silent (the answer carries it: rt_text.c) */
    assert_str(f, map_of(f, &f->run.rt_cut, DLTI_ATTR_MAP), "cuda",
               "the runtime reports 100000 devices; the first 64 are read (PB_VENDOR_MAX_DEVICES)");
}

static void test_cuda_bogus_values(void **state)
{
    fixture *f = *state;
    config(f, cuda_two_gpus,
           "cuda.0.name_unterminated = 1\n" /* the name fills the buffer, no NUL */
           "cuda.0.attr.16 = -5\n"          /* a negative SM count */
           "cuda.0.attr.10 = 0\n"           /* no warp */
           "cuda.0.attr.32 = 7\n"           /* a flag that is not 0 or 1 */
           "cuda.0.attr.4 = -1\n"           /* one block dimension bogus: no dims */
           "cuda.0.attr.13 = 999\n"         /* under 1 MHz */
           "cuda.0.attr.76 = 12\n"          /* minor 12: no capability */
           "cuda.0.pci_bus_id = 0000:1g:00.0\n"
           "cuda.0.uuid = tooshort\n",
           NULL);
    probe(f, pb_rt_cuda.probe);
    const dlti_attr *h = rt(f, "cuda", 0);
    assert_string_equal(pb_rt_text(h, "name"), "");
    assert_string_equal(pb_rt_text(h, "bus_id"), "");
    assert_string_equal(pb_rt_text(h, "uuid"), "");
    assert_null(get(f, sub(h, "unified"), "model"));
    assert_null(get(f, sub(h, "unified"), "num_compute_units"));
    assert_null(get(f, sub(h, "view"), "multiprocessor_count"));
    assert_null(get(f, sub(h, "unified"), "subgroup_sizes"));
    assert_null(get(f, sub(h, "unified"), "ecc_enabled"));
    assert_null(get(f, sub(h, "unified"), "max_block_dims"));
    assert_null(get(f, sub(h, "unified"), "max_clock_in_mhz"));
    assert_null(get(f, sub(h, "unified"), "compute_capability"));
    assert_null(get(f, sub(h, "unified"), "arch"));
    assert_null(get(f, sub(h, "unified"), "uuid"));
    /* The rest is still read. */
    assert_printed(f, sub(h, "unified"), "max_grid_dims", "array<i64: 2147483647, 65535, 65535>");
    assert_int_equal(get_i64(f, sub(h, "unified"), "shared_memory_per_block_in_bytes"), 49152);
}

static void test_cuda_environment(void **state)
{
    fixture *f = *state;
    config(f, cuda_two_gpus, NULL);
    setenv("CUDA_VISIBLE_DEVICES", "1,0", 1);
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    probe(f, pb_rt_cuda.probe);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CUDA_DEVICE_ORDER");
    assert_str(f, sub(rt(f, "cuda", 0), "view"), "visible_devices", "1,0");
    assert_str(f, sub(rt(f, "cuda", 1), "view"), "device_order", "PCI_BUS_ID");
}

/* ---- NVML: the same two GPUs, the A100-like one in MIG mode ---- */

static const char nvml_two_gpus[] =
    "nvml.driver_version = 550.54.15\n"
    "nvml.cuda_driver_version = 12040\n"
    "nvml.count = 2\n"
    "nvml.0.name = NVIDIA H100 80GB HBM3\n"
    "nvml.0.uuid = GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\n"
    "nvml.0.pci_bus_id = 00000000:1B:00.0\n"
    "nvml.0.memory_total = 85520809984\n"
    "nvml.0.clock.sm = 1980\nnvml.0.clock.graphics = 1980\nnvml.0.clock.mem = 2619\n"
    "nvml.0.ecc = 1\n"
    "nvml.0.power_limit_mw = 700000\n"
    "nvml.0.power_min_mw = 200000\nnvml.0.power_max_mw = 700000\n"
    "nvml.0.supported_mem_clocks = 2619\n"
    "nvml.0.supported_graphics_clocks = 1980,1755,345\n"
    "nvml.0.pcie_gen = 5\nnvml.0.pcie_width = 16\n"
    "nvml.0.mig = 0\n"
    "nvml.1.name = NVIDIA A100-SXM4-40GB\n"
    "nvml.1.uuid = GPU-99999999-8888-7777-6666-555555555555\n"
    "nvml.1.pci_bus_id = 00000000:3B:00.0\n"
    "nvml.1.memory_total = 42949672960\n"
    "nvml.1.clock.sm = 1410\nnvml.1.clock.mem = 1215\n"
    "nvml.1.ecc = 0\nnvml.1.ecc_pending = 1\n"
    "nvml.1.power_limit_mw = 400000\n"
    "# no power range; a 0 MHz memory clock is not believed\n"
    "nvml.1.supported_mem_clocks = 1215,0,405\n"
    "nvml.1.supported_graphics_clocks = 1410,210\n"
    "nvml.1.pcie_gen = 4\nnvml.1.pcie_width = 16\n"
    "nvml.1.mig = 1\nnvml.1.mig_max = 7\n"
    "# two instances, at MIG device indices 0 and 3 (1, 2, 4-6 are empty)\n"
    "nvml.1.mig.0.uuid = MIG-11223344-5566-7788-9900-aabbccddeeff\n"
    "nvml.1.mig.0.name = NVIDIA A100-SXM4-40GB MIG 1g.5gb\n"
    "nvml.1.mig.0.sm = 14\nnvml.1.mig.0.gi = 7\nnvml.1.mig.0.ci = 0\n"
    "nvml.1.mig.0.gi_slices = 1\nnvml.1.mig.0.ci_slices = 1\n"
    "nvml.1.mig.0.memory_total = 5100273664\n"
    "nvml.1.mig.3.uuid = MIG-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee\n"
    "nvml.1.mig.3.sm = 42\nnvml.1.mig.3.gi = 2\nnvml.1.mig.3.ci = 0\n"
    "nvml.1.mig.3.memory_mb = 19968\n";

static void test_nvml_two_gpus_mig(void **state)
{
    fixture *f = *state;
    config(f, nvml_two_gpus, NULL);
    probe(f, pb_rt_nvml.probe);
    assert_int_equal(count_rt(f, "nvml"), 2);
    const dlti_attr *h = rt(f, "nvml", 0);
    assert_string_equal(pb_rt_text(h, "name"), "NVIDIA H100 80GB HBM3");
    assert_string_equal(pb_rt_text(h, "bus_id"), "0000:1b:00.0");
    assert_string_equal(pb_rt_text(h, "uuid"), "GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    assert_string_equal(pb_rt_text(h, "driver"), "NVML, driver 550.54.15");
    const dlti_attr *u = sub(h, "unified");
    assert_str(f, u, "vendor", "NVIDIA");
    assert_str(f, u, "driver_version", "550.54.15");
    assert_int_equal(get_i64(f, u, "memory_size_in_bytes"), 85520809984);
    assert_int_equal(get_i64(f, u, "max_clock_in_mhz"), 1980);
    assert_int_equal(get_i64(f, u, "memory_clock_in_mhz"), 2619);
    assert_int_equal(get_i64(f, u, "power_limit_in_watts"), 700);
    assert_int_equal(get_i64(f, u, "pcie_generation"), 5);
    assert_int_equal(get_i64(f, u, "pcie_link_width"), 16);
    assert_true(get_bool(f, u, "ecc_enabled"));
    const dlti_attr *v = sub(h, "view");
    assert_int_equal(get_i64(f, v, "index"), 0);
    assert_int_equal(get_i64(f, v, "cuda_driver_version"), 12040);
    assert_int_equal(get_i64(f, v, "max_graphics_clock_in_mhz"), 1980);
    assert_int_equal(get_i64(f, v, "enforced_power_limit_in_watts"), 700);
    /* what a tuner may set: the power limit's range, the supported clocks */
    assert_int_equal(get_i64(f, v, "min_power_limit_in_watts"), 200);
    assert_int_equal(get_i64(f, v, "max_power_limit_in_watts"), 700);
    assert_int_equal(get_i64(f, v, "min_supported_memory_clock_in_mhz"), 2619);
    assert_int_equal(get_i64(f, v, "max_supported_memory_clock_in_mhz"), 2619);
    assert_int_equal(get_i64(f, v, "min_supported_graphics_clock_in_mhz"), 345);
    assert_int_equal(get_i64(f, v, "max_supported_graphics_clock_in_mhz"), 1980);
    assert_false(get_bool(f, v, "mig_mode"));
    assert_null(get(f, v, "max_mig_device_count"));
    assert_int_equal(size_of(sub(h, "partitions")), 0);

    const dlti_attr *a = rt(f, "nvml", 1);
    assert_string_equal(pb_rt_text(a, "bus_id"), "0000:3b:00.0");
    assert_null(get(f, sub(a, "view"), "min_power_limit_in_watts"));
    assert_int_equal(get_i64(f, sub(a, "view"), "min_supported_memory_clock_in_mhz"), 405);
    assert_int_equal(get_i64(f, sub(a, "view"), "max_supported_memory_clock_in_mhz"), 1215);
    assert_int_equal(get_i64(f, sub(a, "view"), "min_supported_graphics_clock_in_mhz"), 210);
    assert_int_equal(get_i64(f, sub(a, "view"), "max_supported_graphics_clock_in_mhz"), 1410);
    assert_false(get_bool(f, sub(a, "unified"), "ecc_enabled"));
    assert_true(get_bool(f, sub(a, "view"), "ecc_pending"));
    assert_true(get_bool(f, sub(a, "view"), "mig_mode"));
    assert_int_equal(get_i64(f, sub(a, "view"), "max_mig_device_count"), 7);
    assert_int_equal(size_of(sub(a, "partitions")), 2);
    const dlti_attr *p0 = get(f, sub(a, "partitions"), "0");
    assert_non_null(p0);
    assert_int_equal(dlti_attr_get_kind(p0), DLTI_ATTR_MAP);
    assert_str_attr(in_map(f, p0, "uuid"), "uuid", "MIG-11223344-5566-7788-9900-aabbccddeeff");
    assert_str_attr(in_map(f, p0, "name"), "name", "NVIDIA A100-SXM4-40GB MIG 1g.5gb");
    assert_int_equal(in_map_i64(f, p0, "index"), 0);
    assert_str_attr(in_map(f, p0, "kind"), "kind", "MIG instance");
    assert_int_equal(in_map_i64(f, p0, "num_compute_units"), 14);
    assert_int_equal(in_map_i64(f, p0, "gpu_instance_id"), 7);
    assert_int_equal(in_map_i64(f, p0, "compute_instance_id"), 0);
    assert_int_equal(in_map_i64(f, p0, "gpu_instance_slice_count"), 1);
    assert_int_equal(in_map_i64(f, p0, "memory_size_in_bytes"), 5100273664);
    const dlti_attr *p3 = get(f, sub(a, "partitions"), "3");
    assert_non_null(p3);
    assert_int_equal(in_map_i64(f, p3, "num_compute_units"), 42);
    /* No memory info for this instance: its memorySizeMB, in MiB. */
    assert_int_equal(in_map_i64(f, p3, "memory_size_in_bytes"), 19968ll << 20);
    assert_null(in_map(f, p3, "name"));
    assert_schema_valid(f);
}

static void test_nvml_init_fails(void **state)
{
    fixture *f = *state;
    config(f, nvml_two_gpus, "nvml.init = 9\n", NULL);
    probe(f, pb_rt_nvml.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "nvml", "nvmlInit_v2: Driver Not Loaded (9)");
}

static void test_nvml_bogus_values(void **state)
{
    fixture *f = *state;
    config(f, nvml_two_gpus,
           "nvml.0.name_unterminated = 1\n"
           "nvml.0.power_limit_mw = 0\n"
           "nvml.0.pcie_gen = 99\n"
           "nvml.0.clock.sm = 0\n"
           "nvml.0.pci_bus_id = 1B:00.0\n"
           "nvml.1.mig_max = 4000000000\n",
           NULL);
    probe(f, pb_rt_nvml.probe);
    const dlti_attr *h = rt(f, "nvml", 0);
    assert_string_equal(pb_rt_text(h, "name"), "");
    assert_string_equal(pb_rt_text(h, "bus_id"), "");
    assert_null(get(f, sub(h, "unified"), "model"));
    assert_null(get(f, sub(h, "unified"), "power_limit_in_watts"));
    assert_null(get(f, sub(h, "unified"), "pcie_generation"));
    assert_null(get(f, sub(h, "unified"), "max_clock_in_mhz"));
    assert_int_equal(get_i64(f, sub(h, "unified"), "pcie_link_width"), 16);
    /* A huge MIG count is bounded; the two instances are still found. */
    assert_int_equal(size_of(sub(rt(f, "nvml", 1), "partitions")), 2);
}


/* ---- Level Zero: a PVC-like GPU with two stacks, and an NPU ---- */

static const char ze_pvc[] =
    "ze.api_version = 0x10003\n"
    "ze.driver_version = 16929000\n"
    "ze.count = 2\n"
    "ze.0.name = Intel(R) Data Center GPU Max 1550\n"
    "ze.0.device_id = 0x0bd5\n"
    "ze.0.uuid = 8680d50b080000000000000000000000\n"
    "ze.0.core_clock = 1600\n"
    "ze.0.max_mem_alloc = 68719476736\n"
    "ze.0.threads_per_eu = 8\nze.0.simd_width = 16\nze.0.eus_per_subslice = 8\n"
    "ze.0.subslices_per_slice = 16\nze.0.slices = 8\n"
    "ze.0.max_total_group_size = 1024\n"
    "ze.0.group_size_x = 1024\nze.0.group_size_y = 1024\nze.0.group_size_z = 1024\n"
    "ze.0.group_count_x = 4294967295\nze.0.group_count_y = 4294967295\n"
    "ze.0.group_count_z = 4294967295\n"
    "ze.0.slm = 131072\n"
    "ze.0.subgroup_sizes = 16,32\n"
    "ze.0.memory.count = 2\n"
    "ze.0.memory.0.size = 68719476736\nze.0.memory.0.clock = 3200\n"
    "ze.0.memory.0.bus_width = 8192\n"
    "ze.0.memory.1.size = 68719476736\n"
    "ze.0.cache.count = 2\nze.0.cache.0.size = 1048576\nze.0.cache.1.size = 427819008\n"
    "ze.0.pci = 0000:3A:00.0\n"
    "ze.0.pcie_gen = 5\nze.0.pcie_width = 16\nze.0.pcie_bandwidth = 63000000000\n"
    "ze.0.subdevices = 2\n"
    "ze.0.sub.0.name = Intel(R) Data Center GPU Max 1550\n"
    "ze.0.sub.0.uuid = 8680d50b080000000000000000000001\n"
    "ze.0.sub.0.slices = 4\nze.0.sub.0.subslices_per_slice = 16\n"
    "ze.0.sub.0.eus_per_subslice = 8\n"
    "ze.0.sub.0.memory.count = 1\nze.0.sub.0.memory.0.size = 68719476736\n"
    "ze.0.sub.1.slices = 4\nze.0.sub.1.subslices_per_slice = 16\n"
    "ze.0.sub.1.eus_per_subslice = 8\n"
    "ze.1.type = 5   # ZE_DEVICE_TYPE_VPU: not a GPU\n"
    "ze.1.name = Intel(R) AI Boost\n";

static void test_ze_pvc(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc, NULL);
    probe(f, pb_rt_level_zero.probe);
    assert_int_equal(count_rt(f, "level_zero"), 1); /* the NPU is left out */
    const dlti_attr *d = rt(f, "level_zero", 0);
    assert_string_equal(pb_rt_text(d, "name"), "Intel(R) Data Center GPU Max 1550");
    assert_string_equal(pb_rt_text(d, "bus_id"), "0000:3a:00.0");
    assert_string_equal(pb_rt_text(d, "uuid"), "8680d50b-0800-0000-0000-000000000000");
    assert_string_equal(pb_rt_text(d, "driver"), "Level Zero 1.3, driver 16929000");
    const dlti_attr *u = sub(d, "unified");
    assert_str(f, u, "vendor", "Intel");
    assert_str(f, u, "compute_unit_name", "Xe-core");
    assert_false(get_bool(f, u, "is_partition"));
    assert_int_equal(get_i64(f, u, "num_compute_units"), 128);    /* 8 slices x 16 */
    assert_int_equal(get_i64(f, u, "num_execution_units"), 1024); /* x 8 EUs */
    assert_int_equal(get_i64(f, u, "threads_per_execution_unit"), 8);
    assert_int_equal(get_i64(f, u, "execution_unit_simd_width"), 16);
    assert_printed(f, u, "subgroup_sizes", "array<i64: 16, 32>");
    assert_int_equal(get_i64(f, u, "max_threads_per_block"), 1024);
    assert_printed(f, u, "max_block_dims", "array<i64: 1024, 1024, 1024>");
    assert_printed(f, u, "max_grid_dims", "array<i64: 4294967295, 4294967295, 4294967295>");
    assert_int_equal(get_i64(f, u, "shared_memory_per_block_in_bytes"), 131072);
    assert_int_equal(get_i64(f, u, "max_shared_memory_per_block_in_bytes"), 131072);
    assert_int_equal(get_i64(f, u, "memory_size_in_bytes"), 137438953472);
    assert_int_equal(get_i64(f, u, "memory_clock_in_mhz"), 3200);
    assert_int_equal(get_i64(f, u, "memory_bus_width_in_bits"), 8192);
    assert_int_equal(get_i64(f, u, "last_level_cache_size_in_bytes"), 427819008);
    assert_int_equal(get_i64(f, u, "max_clock_in_mhz"), 1600);
    assert_int_equal(get_i64(f, u, "pcie_generation"), 5);
    assert_int_equal(get_i64(f, u, "pcie_link_width"), 16);
    const dlti_attr *v = sub(d, "view");
    assert_int_equal(get_i64(f, v, "num_slices"), 8);
    assert_int_equal(get_i64(f, v, "num_subslices_per_slice"), 16);
    assert_int_equal(get_i64(f, v, "num_eus_per_subslice"), 8);
    assert_int_equal(get_i64(f, v, "device_id"), 0x0bd5);
    assert_int_equal(get_i64(f, v, "vendor_id"), 0x8086);
    assert_int_equal(get_i64(f, v, "api_version"), 0x10003);
    assert_int_equal(get_i64(f, v, "num_sub_devices"), 2);
    assert_int_equal(get_i64(f, v, "pcie_max_bandwidth_in_bytes_per_second"), 63000000000);
    assert_printed(f, v, "cache_sizes_in_bytes", "array<i64: 1048576, 427819008>");
    assert_printed(f, v, "max_group_size", "array<i64: 1024, 1024, 1024>");
    assert_null(get(f, v, "affinity_mask"));
    assert_int_equal(size_of(sub(d, "partitions")), 2);
    const dlti_attr *s0 = get(f, sub(d, "partitions"), "0");
    assert_non_null(s0);
    assert_int_equal(in_map_i64(f, s0, "num_compute_units"), 64);
    assert_int_equal(in_map_i64(f, s0, "num_execution_units"), 512);
    assert_int_equal(in_map_i64(f, s0, "memory_size_in_bytes"), 68719476736);
    assert_int_equal(in_map_i64(f, s0, "subdevice_id"), 0);
    assert_str_attr(in_map(f, s0, "kind"), "kind", "sub-device");
    assert_str_attr(in_map(f, s0, "uuid"), "uuid", "8680d50b-0800-0000-0000-000000000001");
    const dlti_attr *s1 = get(f, sub(d, "partitions"), "1");
    assert_non_null(s1);
    assert_int_equal(in_map_i64(f, s1, "index"), 1);
    assert_null(in_map(f, s1, "uuid")); /* all zeros: unknown */
    assert_null(in_map(f, s1, "memory_size_in_bytes"));
    assert_schema_valid(f);
}

static void test_ze_init_fails(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc, "ze.init = 0x78000001\n", NULL);
    probe(f, pb_rt_level_zero.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "level_zero", "zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)");
}

static void test_ze_no_gpu(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc, "ze.0.type = 2\n", NULL); /* a CPU device: not ours */
    probe(f, pb_rt_level_zero.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "level_zero", "no GPU device");
}

static void test_ze_bogus_values(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc,
           "ze.0.name_unterminated = 1\n"
           "ze.0.num_subgroup_sizes = 1000\n" /* more than the 8 the array holds */
           "ze.0.subdevices = 1000\n"         /* claims more than it writes */
           "ze.0.slices = 0\n"
           "ze.0.pcie_gen = -1\nze.0.pcie_width = 999\n"
           "ze.0.pci = 0000:3a:40.0\n" /* device 0x40: no PCI device number */
           "ze.0.core_clock = 0\n",
           NULL);
    probe(f, pb_rt_level_zero.probe);
    const dlti_attr *d = rt(f, "level_zero", 0);
    assert_string_equal(pb_rt_text(d, "name"), "");
    assert_null(get(f, sub(d, "unified"), "model"));
    assert_printed(f, sub(d, "unified"), "subgroup_sizes", "array<i64: 16, 32>");
    assert_null(get(f, sub(d, "unified"), "num_compute_units"));
    assert_null(get(f, sub(d, "unified"), "num_execution_units"));
    assert_null(get(f, sub(d, "unified"), "pcie_generation"));
    assert_null(get(f, sub(d, "unified"), "pcie_link_width"));
    assert_null(get(f, sub(d, "unified"), "max_clock_in_mhz"));
    assert_string_equal(pb_rt_text(d, "bus_id"), "");
    /* 1000 claimed, 8 written by the "runtime": the 8 become partitions. */
    assert_int_equal(size_of(sub(d, "partitions")), 8);
}

static void test_ze_many_devices(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc, "ze.count = 100000\n", NULL);
    probe(f, pb_rt_level_zero.probe);
    /* Bounded by what the double can hand out (64) and the probe's maximum. */
    assert_true(count_rt(f, "level_zero") <= PB_VENDOR_MAX_DEVICES);
    assert_true(count_rt(f, "level_zero") >= 1);
    assert_str(f, map_of(f, &f->run.rt_cut, DLTI_ATTR_MAP), "level_zero",
               "the runtime reports 100000 devices of driver 0; the first 64 are read "
               "(PB_VENDOR_MAX_DEVICES)");
}

static void test_ze_affinity_mask(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc, NULL);
    setenv("ZE_AFFINITY_MASK", "0.1", 1);
    probe(f, pb_rt_level_zero.probe);
    unsetenv("ZE_AFFINITY_MASK");
    assert_str(f, sub(rt(f, "level_zero", 0), "view"), "affinity_mask", "0.1");
}

/* ---- ROCm (HSA): a CPU agent and two MI250X-like GCDs ---- */

static const char hsa_gcds[] =
    "hsa.version_major = 1\nhsa.version_minor = 1\n"
    "hsa.count = 3\n"
    "hsa.0.device = 0   # a CPU agent: not ours\n"
    "hsa.0.name = AMD EPYC 7A53 64-Core Processor\n"
    "hsa.1.device = 1\n"
    "hsa.1.name = gfx90a\nhsa.1.vendor = AMD\nhsa.1.product = AMD Instinct MI250X\n"
    "hsa.1.uuid = GPU-5e3b9a1c2d4f6e7a\n"
    "hsa.1.isa = amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\n"
    "hsa.1.attr.0x6 = 64       # WAVEFRONT_SIZE\n"
    "hsa.1.attr.0x8 = 1024     # WORKGROUP_MAX_SIZE\n"
    "hsa.1.workgroup_max_dim = 1024,1024,1024\n"
    "hsa.1.grid_max_dim = 4294967295,4294967295,4294967295\n"
    "hsa.1.cache = 16384,8388608,0,0\n"
    "hsa.1.attr.0xa002 = 110   # COMPUTE_UNIT_COUNT\n"
    "hsa.1.attr.0xa003 = 1700  # MAX_CLOCK_FREQUENCY\n"
    "hsa.1.attr.0xa008 = 1600  # MEMORY_MAX_FREQUENCY\n"
    "hsa.1.attr.0xa007 = 4096  # MEMORY_WIDTH\n"
    "hsa.1.attr.0xa00a = 32    # MAX_WAVES_PER_CU\n"
    "hsa.1.attr.0xa00b = 4     # NUM_SIMDS_PER_CU\n"
    "hsa.1.attr.0xa00c = 8     # NUM_SHADER_ENGINES\n"
    "hsa.1.attr.0xa111 = 1     # NUM_XCC\n"
    "hsa.1.attr.0xa000 = 0x740c\n"
    "hsa.1.attr.0xa001 = 128\n"
    "hsa.1.attr.0xa004 = 2\n"
    "hsa.1.attr.0xa00f = 0     # DOMAIN\n"
    "hsa.1.attr.0xa006 = 0xc100  # BDFID: bus 0xc1, device 0, function 0\n"
    "hsa.1.pool.count = 3\n"
    "hsa.1.pool.0.segment = 0\nhsa.1.pool.0.flags = 4\nhsa.1.pool.0.size = 68702699520\n"
    "hsa.1.pool.1.segment = 0\nhsa.1.pool.1.flags = 2\nhsa.1.pool.1.size = 540000000000\n"
    "hsa.1.pool.2.segment = 3\nhsa.1.pool.2.size = 65536\n"
    "hsa.2.device = 1\n"
    "hsa.2.name = gfx90a\nhsa.2.product = AMD Instinct MI250X\n"
    "hsa.2.attr.0xa002 = 110\n"
    "hsa.2.attr.0xa00f = 1\n"
    "hsa.2.attr.0xa006 = 0xc609  # bus 0xc6, device 1, function 1\n";

static void test_rocm_gcds(void **state)
{
    fixture *f = *state;
    config(f, hsa_gcds, NULL);
    probe(f, pb_rt_rocm.probe);
    assert_int_equal(count_rt(f, "rocm"), 2);
    const dlti_attr *g = rt(f, "rocm", 0);
    assert_string_equal(pb_rt_text(g, "name"), "AMD Instinct MI250X");
    assert_string_equal(pb_rt_text(g, "bus_id"), "0000:c1:00.0");
    assert_string_equal(pb_rt_text(g, "uuid"), "GPU-5e3b9a1c2d4f6e7a");
    assert_string_equal(pb_rt_text(g, "driver"), "HSA 1.1");
    const dlti_attr *u = sub(g, "unified");
    assert_str(f, u, "vendor", "AMD");
    assert_str(f, u, "arch", "gfx90a");
    assert_str(f, u, "model", "AMD Instinct MI250X");
    assert_str(f, u, "compute_unit_name", "CU");
    assert_str(f, u, "uuid", "GPU-5e3b9a1c2d4f6e7a");
    assert_int_equal(get_i64(f, u, "num_compute_units"), 110);
    assert_printed(f, u, "subgroup_sizes", "array<i64: 64>");
    assert_int_equal(get_i64(f, u, "max_threads_per_block"), 1024);
    assert_printed(f, u, "max_block_dims", "array<i64: 1024, 1024, 1024>");
    assert_printed(f, u, "max_grid_dims", "array<i64: 4294967295, 4294967295, 4294967295>");
    assert_int_equal(get_i64(f, u, "L1_cache_size_in_bytes"), 16384);
    assert_int_equal(get_i64(f, u, "L2_cache_size_in_bytes"), 8388608);
    assert_int_equal(get_i64(f, u, "last_level_cache_size_in_bytes"), 8388608);
    assert_int_equal(get_i64(f, u, "max_clock_in_mhz"), 1700);
    assert_int_equal(get_i64(f, u, "memory_clock_in_mhz"), 1600);
    assert_int_equal(get_i64(f, u, "memory_bus_width_in_bits"), 4096);
    assert_int_equal(get_i64(f, u, "shared_memory_per_block_in_bytes"), 65536);
    assert_int_equal(get_i64(f, u, "max_shared_memory_per_block_in_bytes"), 65536);
    /* The coarse-grained pool is the device memory, not the larger fine-grained one. */
    assert_int_equal(get_i64(f, u, "memory_size_in_bytes"), 68702699520);
    const dlti_attr *v = sub(g, "view");
    assert_str(f, v, "isa_name", "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
    assert_str(f, v, "target_id", "gfx90a:sramecc+:xnack-");
    assert_str(f, v, "agent_name", "gfx90a");
    assert_str(f, v, "vendor_name", "AMD");
    assert_int_equal(get_i64(f, v, "wavefront_size"), 64);
    assert_int_equal(get_i64(f, v, "max_waves_per_cu"), 32);
    assert_int_equal(get_i64(f, v, "num_simds_per_cu"), 4);
    assert_int_equal(get_i64(f, v, "num_shader_engines"), 8);
    assert_int_equal(get_i64(f, v, "num_xcc"), 1);
    assert_int_equal(get_i64(f, v, "chip_id"), 0x740c);
    assert_int_equal(get_i64(f, v, "cacheline_size_in_bytes"), 128);
    assert_int_equal(get_i64(f, v, "driver_node_id"), 2);
    assert_int_equal(get_i64(f, v, "group_segment_size_in_bytes"), 65536);
    assert_printed(f, v, "cache_sizes_in_bytes", "array<i64: 16384, 8388608, 0, 0>");
    assert_str(f, v, "pci_bus_id", "0000:c1:00.0");

    const dlti_attr *g2 = rt(f, "rocm", 1);
    assert_string_equal(pb_rt_text(g2, "bus_id"), "0001:c6:01.1");
    assert_string_equal(pb_rt_text(g2, "uuid"), "");
    assert_null(get(f, sub(g2, "view"), "isa_name"));
    assert_null(get(f, sub(g2, "unified"), "memory_size_in_bytes"));
    assert_schema_valid(f);
}

static void test_rocm_init_fails(void **state)
{
    fixture *f = *state;
    config(f, hsa_gcds, "hsa.init = 0x1008\n", NULL);
    probe(f, pb_rt_rocm.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "rocm",
                   "hsa_init: HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate "
                   "the necessary resources. (0x1008)");
}

static void test_rocm_no_gpu(void **state)
{
    fixture *f = *state;
    config(f, hsa_gcds, "hsa.count = 1\n", NULL);
    probe(f, pb_rt_rocm.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "rocm", "no GPU agent");
}

static void test_rocm_bogus_values(void **state)
{
    fixture *f = *state;
    config(f, hsa_gcds,
           "hsa.1.product_unterminated = 1\n"
           "hsa.1.uuid = GPU-XX\n"             /* the runtime's "no UUID" */
           "hsa.1.attr.0xa006 = 0x1ffff\n"     /* no BDF */
           "hsa.1.attr.0xa002 = 0\n"           /* no CUs */
           "hsa.1.attr.0x6 = 4096\n"           /* no such wavefront */
           "hsa.1.workgroup_max_dim = 1024,0,1024\n"
           "hsa.1.pool.count = 1000000\n",     /* bounded */
           NULL);
    probe(f, pb_rt_rocm.probe);
    const dlti_attr *g = rt(f, "rocm", 0);
    assert_string_equal(pb_rt_text(g, "name"), "");
    assert_string_equal(pb_rt_text(g, "uuid"), "");
    assert_string_equal(pb_rt_text(g, "bus_id"), "");
    assert_null(get(f, sub(g, "unified"), "model"));
    assert_null(get(f, sub(g, "unified"), "uuid"));
    assert_null(get(f, sub(g, "unified"), "num_compute_units"));
    assert_null(get(f, sub(g, "unified"), "subgroup_sizes"));
    assert_null(get(f, sub(g, "unified"), "max_block_dims"));
    assert_str(f, sub(g, "unified"), "arch", "gfx90a");
    assert_int_equal(get_i64(f, sub(g, "unified"), "memory_size_in_bytes"), 68702699520);
}

static void test_rocm_visible_devices(void **state)
{
    fixture *f = *state;
    config(f, hsa_gcds, NULL);
    setenv("ROCR_VISIBLE_DEVICES", "GPU-5e3b9a1c2d4f6e7a", 1);
    probe(f, pb_rt_rocm.probe);
    unsetenv("ROCR_VISIBLE_DEVICES");
    assert_str(f, sub(rt(f, "rocm", 0), "view"), "visible_devices", "GPU-5e3b9a1c2d4f6e7a");
    assert_null(get(f, sub(rt(f, "rocm", 0), "view"), "hip_visible_devices"));
}

/* ---- AMD SMI: partition modes of two MI300X-like GPUs ---- */

static const char smi_two_gpus[] =
    "smi.sockets = 2\n"
    "smi.0.count = 1\n"
    "smi.0.0.bdf = 0xc100   # bus 0xc1 << 8\n"
    "smi.0.0.compute_partition = CPX\n"
    "smi.0.0.memory_partition = NPS4\n"
    "smi.1.count = 1\n"
    "smi.1.0.bdf = 0x1e209  # domain 1 << 16, bus 0xe2 << 8, device 1 << 3, function 1\n"
    "smi.1.0.compute_partition = SPX\n";

static void test_amd_smi_partition_modes(void **state)
{
    fixture *f = *state;
    config(f, smi_two_gpus, NULL);
    probe(f, pb_rt_amd_smi.probe);
    assert_int_equal(count_rt(f, "amd_smi"), 2);
    const dlti_attr *a = rt(f, "amd_smi", 0);
    assert_string_equal(pb_rt_text(a, "bus_id"), "0000:c1:00.0");
    assert_string_equal(pb_rt_text(a, "driver"), "AMD SMI");
    assert_str(f, sub(a, "view"), "compute_partition", "CPX");
    assert_str(f, sub(a, "view"), "memory_partition", "NPS4");
    const dlti_attr *b = rt(f, "amd_smi", 1);
    assert_string_equal(pb_rt_text(b, "bus_id"), "0001:e2:01.1");
    assert_str(f, sub(b, "view"), "compute_partition", "SPX");
    assert_null(get(f, sub(b, "view"), "memory_partition"));
    assert_schema_valid(f);
}

static void test_amd_smi_bogus(void **state)
{
    fixture *f = *state;
    config(f, smi_two_gpus,
           "smi.init = 34\n", NULL);
    probe(f, pb_rt_amd_smi.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "amd_smi",
                   "amdsmi_init: AMDSMI_STATUS_DRIVER_NOT_LOADED - Driver not loaded (34)");
    pb_rt_free_all(&f->run);
    config(f, smi_two_gpus,
           "smi.sockets = 100000\n"                 /* claims more than it writes */
           "smi.0.0.compute_partition_unterminated = 1\n"
           "smi.0.0.bdf = 0x100000000000000\n",     /* a domain beyond 16 bits */
           NULL);
    probe(f, pb_rt_amd_smi.probe);
    assert_int_equal(count_rt(f, "amd_smi"), 2);
    const dlti_attr *a = rt(f, "amd_smi", 0);
    assert_string_equal(pb_rt_text(a, "bus_id"), "");
    assert_null(get(f, sub(a, "view"), "compute_partition"));
}

/* ---- the "missing" group: doubles that lack one entry point ---- */

static void test_missing_cuda_symbol(void **state)
{
    fixture *f = *state;
    config(f, cuda_two_gpus, NULL);
    probe(f, pb_rt_cuda.probe);
    assert_int_equal(f->run.nrt, 0);
    assert_skipped(f, "cuda", "libcuda.so.1 lacks cuDeviceGetAttribute");
}

static void test_missing_nvml_mig_mode(void **state)
{
    fixture *f = *state;
    config(f, nvml_two_gpus, NULL);
    probe(f, pb_rt_nvml.probe);
    /* An optional entry point: the GPUs are there, without MIG. */
    assert_int_equal(count_rt(f, "nvml"), 2);
    const dlti_attr *a = rt(f, "nvml", 1);
    assert_int_equal(size_of(sub(a, "partitions")), 0);
    assert_null(get(f, sub(a, "view"), "mig_mode"));
    assert_int_equal(get_i64(f, sub(a, "unified"), "pcie_generation"), 4);
}

static void test_missing_ze_pci(void **state)
{
    fixture *f = *state;
    config(f, ze_pvc, NULL);
    probe(f, pb_rt_level_zero.probe);
    const dlti_attr *d = rt(f, "level_zero", 0);
    assert_string_equal(pb_rt_text(d, "bus_id"), "");
    assert_null(get(f, sub(d, "unified"), "pcie_generation"));
    assert_int_equal(get_i64(f, sub(d, "unified"), "num_compute_units"), 128);
}

static void test_missing_rocm_pools(void **state)
{
    fixture *f = *state;
    config(f, hsa_gcds, NULL);
    probe(f, pb_rt_rocm.probe);
    const dlti_attr *g = rt(f, "rocm", 0);
    assert_null(get(f, sub(g, "unified"), "memory_size_in_bytes"));
    assert_null(get(f, sub(g, "unified"), "shared_memory_per_block_in_bytes"));
    assert_int_equal(get_i64(f, sub(g, "unified"), "num_compute_units"), 110);
}

/* ---- the "real" group: no double; what this machine has ---- */

static bool library_present(const char *soname)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (lib)
        dlclose(lib);
    return lib != NULL;
}

/* Without the library the reason is "<soname> not found"; a machine that
 * has the real runtime may answer anything but a crash. */
static void check_absent_or_real(fixture *f, const char *runtime, const char *soname)
{
    if (library_present(soname))
        return;
    char want[96];
    snprintf(want, sizeof(want), "%s not found", soname);
    assert_skipped(f, runtime, want);
    assert_int_equal(count_rt(f, runtime), 0);
}

static void test_real_cuda_nvml_rocm(void **state)
{
    fixture *f = *state;
    unsetenv("SYSDESC_DOUBLE_CONFIG");
    probe(f, pb_rt_cuda.probe);
    probe(f, pb_rt_nvml.probe);
    probe(f, pb_rt_rocm.probe);
    probe(f, pb_rt_amd_smi.probe);
    check_absent_or_real(f, "cuda", "libcuda.so.1");
    check_absent_or_real(f, "amd_smi", "libamd_smi.so");
    check_absent_or_real(f, "nvml", "libnvidia-ml.so.1");
    check_absent_or_real(f, "rocm", "libhsa-runtime64.so.1");
}

/* Debian's libze1 is the real loader with no driver behind it: zeInit fails
 * and the reason is recorded; nothing crashes.  (Where a real driver is
 * installed, its GPUs may be seen instead.) */
static void test_real_level_zero(void **state)
{
    fixture *f = *state;
    unsetenv("SYSDESC_DOUBLE_CONFIG");
    probe(f, pb_rt_level_zero.probe);
    if (!library_present("libze_loader.so.1")) {
        check_absent_or_real(f, "level_zero", "libze_loader.so.1");
        return;
    }
    if (count_rt(f, "level_zero") > 0)
        return;
    const dlti_attr *why = get(f, map_of(f, &f->run.rt_skipped, DLTI_ATTR_MAP), "level_zero");
    assert_non_null(why);
    const char *s = NULL;
    size_t len = 0;
    assert_int_equal(dlti_attr_get_string(why, &s, &len, NULL), 0);
    printf("level_zero skipped: %.*s\n", (int)len, s);
    assert_true(len > 7 &&
                (strncmp(s, "zeInit: ", 8) == 0 || strncmp(s, "zeDriverGet: ", 13) == 0));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "doubles";
    const struct CMUnitTest doubles[] = {
        T(test_cuda_two_gpus),     T(test_cuda_no_device),    T(test_cuda_unknown_error),
        T(test_cuda_negative_count), T(test_cuda_count_clamped), T(test_cuda_bogus_values),
        T(test_cuda_environment),  T(test_nvml_two_gpus_mig),
        T(test_nvml_init_fails),   T(test_nvml_bogus_values), T(test_ze_pvc),
        T(test_ze_init_fails),     T(test_ze_no_gpu),         T(test_ze_bogus_values),
        T(test_ze_many_devices),   T(test_ze_affinity_mask),  T(test_rocm_gcds),
        T(test_rocm_init_fails),   T(test_rocm_no_gpu),       T(test_rocm_bogus_values),
        T(test_rocm_visible_devices), T(test_amd_smi_partition_modes), T(test_amd_smi_bogus),
    };
    const struct CMUnitTest missing[] = {
        T(test_missing_cuda_symbol),
        T(test_missing_nvml_mig_mode),
        T(test_missing_ze_pci),
        T(test_missing_rocm_pools),
    };
    const struct CMUnitTest real[] = {
        T(test_real_cuda_nvml_rocm),
        T(test_real_level_zero),
    };
    if (strcmp(group, "doubles") == 0)
        return cmocka_run_group_tests_name("doubles", doubles, NULL, NULL);
    if (strcmp(group, "missing") == 0)
        return cmocka_run_group_tests_name("missing", missing, NULL, NULL);
    if (strcmp(group, "real") == 0)
        return cmocka_run_group_tests_name("real", real, NULL, NULL);
    fprintf(stderr, "usage: %s doubles|missing|real\n", argv[0]);
    return 2;
}
