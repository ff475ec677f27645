/* Unit tests of the probe's public API (include/sysdesc/probe.h) on the XML
 * fixtures of tests/data/xml (SRCDIR is set by meson). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysdesc/dlti.h"
#include "sysdesc/cluster.h"
#include "sysdesc/sysdesc.h"

static char fixture_buf[4096];

static const char *fixture(const char *name)
{
    const char *src = getenv("SRCDIR");
    snprintf(fixture_buf, sizeof(fixture_buf), "%s/tests/data/xml/%s", src ? src : ".", name);
    return fixture_buf;
}

/* Query a path given as "CPU/cache/L1/size_in_bytes". */
static const dlti_attr *q(dlti_context *ctx, const dlti_attr *spec, const char *path)
{
    dlti_key keys[16];
    size_t n = 0;
    const char *s = path;
    while (*s && n < 16) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        keys[n++] = dlti_key_string(ctx, s, len);
        s = e ? e + 1 : s + len;
    }
    return dlti_attr_query(spec, keys, n, NULL);
}

static int64_t qi(dlti_context *ctx, const dlti_attr *spec, const char *path)
{
    const dlti_attr *a = q(ctx, spec, path);
    int64_t v = -12345;
    if (!a || dlti_attr_get_int64(a, &v, NULL) != 0)
        fail_msg("no integer at %s", path);
    return v;
}

static const char *qs(dlti_context *ctx, const dlti_attr *spec, const char *path)
{
    const dlti_attr *a = q(ctx, spec, path);
    const char *s = NULL;
    size_t len;
    if (!a || dlti_attr_get_string(a, &s, &len, NULL) != 0)
        fail_msg("no string at %s", path);
    return s;
}

static const dlti_attr *probe_xml(dlti_context *ctx, const char *name, sysdesc_probe_options *o)
{
    sysdesc_probe_options def;
    if (!o) {
        sysdesc_probe_options_init(&def);
        def.quiet = true;
        o = &def;
    }
    o->xml_path = fixture(name);
    dlti_error_t err;
    const dlti_attr *spec = sysdesc_probe_host(ctx, o, &err);
    if (!spec)
        fail_msg("probe of %s failed: %s", name, err.text);
    return spec;
}

/* Quiet probe options; with `fill`, the catalog fills PCI devices as
 * `sysdesc probe` does (the source tree's systems/). */
static sysdesc_probe_options options(bool fill)
{
    static char catalog[4096];
    snprintf(catalog, sizeof(catalog), "%s/systems", getenv("SRCDIR") ? getenv("SRCDIR") : ".");
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.quiet = true;
    if (fill) {
        o.pci_match = sysdesc_catalog_pci_fill;
        o.pci_match_user = catalog;
    }
    return o;
}

static int print_problem(void *user, const dlti_error_t *problem)
{
    fprintf(stderr, "%s: %s\n", (const char *)user, problem->text);
    return 0;
}

/* The number of problems sysdesc_system_check() (sysdesc/schema.h) finds in
 * `spec`, each printed. */
static long problems(const dlti_attr *spec, const char *what)
{
    sysdesc_system sys = {.spec = spec};
    return sysdesc_system_check(&sys, 0, what, print_problem, (void *)what);
}

static void two_socket(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "two_socket_numa.xml", NULL);
    assert_int_equal(dlti_attr_get_kind(s), DLTI_ATTR_SYSTEM_SPEC);
    assert_int_equal(qi(ctx, s, "CPU/num_packages"), 2);
    assert_int_equal(qi(ctx, s, "CPU/num_cores"), 8);
    assert_int_equal(qi(ctx, s, "CPU/num_threads"), 16);
    assert_int_equal(qi(ctx, s, "CPU/num_numa_nodes"), 2);
    assert_int_equal(qi(ctx, s, "CPU/cache/L1/size_in_bytes"), 32768);
    assert_int_equal(qi(ctx, s, "CPU/cache/L3/num_instances"), 2);
    assert_int_equal(qi(ctx, s, "CPU/cache/L3/threads_per_instance"), 8);
    assert_int_equal(qi(ctx, s, "CPU/L2_cache_size_in_bytes"), 4194304);
    assert_int_equal(qi(ctx, s, "CPU/memory/total_in_bytes"), 2147483648ll);
    assert_string_equal(qs(ctx, s, "CPU/arch"), "aarch64");
    /* An XML file carries no ISA: never invented. */
    assert_null(q(ctx, s, "CPU/features"));
    assert_null(q(ctx, s, "CPU/max_vector_op_width"));
    assert_null(q(ctx, s, "CPU/cache/L1/associativity")); /* 0 = unknown in the XML */
    assert_null(q(ctx, s, "CPU/total_num_threads"));     /* no restriction */
    dlti_context_free(ctx);
}

static void restricted(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "restricted.xml", NULL);
    assert_int_equal(qi(ctx, s, "CPU/num_threads"), 8);
    assert_int_equal(qi(ctx, s, "CPU/total_num_threads"), 16);
    assert_int_equal(qi(ctx, s, "CPU/num_cores"), 4);
    assert_int_equal(qi(ctx, s, "CPU/total_num_cores"), 8);
    assert_int_equal(qi(ctx, s, "CPU/num_numa_nodes"), 1);
    assert_int_equal(qi(ctx, s, "CPU/total_num_numa_nodes"), 2);
    assert_int_equal(qi(ctx, s, "CPU/memory/total_in_bytes"), 1073741824);
    dlti_context_free(ctx);
}

static void identity_and_encodings(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "one_socket.xml", NULL);
    assert_string_equal(qs(ctx, s, "CPU/model"), "Intel(R) Xeon(R) Fixture CPU"); /* trimmed */
    assert_string_equal(qs(ctx, s, "CPU/vendor"), "GenuineIntel");
    assert_string_equal(qs(ctx, s, "CPU/device_type"), "CPU");
    const dlti_attr *cpu = q(ctx, s, "CPU");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(cpu, 0), NULL), "device_type");
    /* then the schema version, on every device the probe creates */
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(cpu, 1), NULL), "schema_version");
    assert_int_equal(qi(ctx, s, "CPU/schema_version"), SYSDESC_SCHEMA_VERSION);
    assert_int_equal(qi(ctx, s, "CPU/cpu_model_number"), 143);
    assert_int_equal(qi(ctx, s, "CPU/cache/L3/associativity"), -1); /* fully associative */
    assert_int_equal(qi(ctx, s, "CPU/cache/L2/associativity"), 16);
    assert_int_equal(qi(ctx, s, "CPU/cache/L1i/size_in_bytes"), 32768);
    bool inc = false;
    assert_int_equal(dlti_attr_get_bool(q(ctx, s, "CPU/cache/L3/inclusive"), &inc, NULL), 0);
    assert_true(inc);
    assert_string_equal(qs(ctx, s, "CPU/cache/L1i/type"), "instruction");
    dlti_context_free(ctx);
}

static void hybrid(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "hybrid.xml", NULL);
    assert_int_equal(qi(ctx, s, "CPU/num_cpu_kinds"), 2);
    assert_string_equal(qs(ctx, s, "CPU/cpu_kinds/0/core_type"), "IntelAtom");
    assert_int_equal(qi(ctx, s, "CPU/cpu_kinds/0/efficiency_rank"), 0);
    assert_int_equal(qi(ctx, s, "CPU/cpu_kinds/1/max_frequency_mhz"), 5400);
    assert_int_equal(qi(ctx, s, "CPU/cpu_kinds/1/num_cores"), 4);
    assert_int_equal(qi(ctx, s, "CPU/cache/L2/size_in_bytes"), 4194304);
    assert_int_equal(qi(ctx, s, "CPU/cache/L2/min_size_in_bytes"), 2097152);
    dlti_context_free(ctx);
}

/* ---- warnings ---- */

typedef struct {
    int n;
    char last[1024];
} warn_log;

static void on_warning(void *user, const char *msg)
{
    warn_log *w = user;
    w->n++;
    snprintf(w->last, sizeof(w->last), "%s", msg);
}

static void warnings(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    warn_log log = {0, ""};
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.warning = on_warning;
    o.warning_user = &log;
    const dlti_attr *s = probe_xml(ctx, "smt_off.xml", &o);
    assert_int_equal(log.n, 2);
    assert_non_null(strstr(log.last, "CPU.cache.L3.size_in_bytes"));
    /* The measured value is kept, flagged, and the zero line size left out. */
    assert_int_equal(qi(ctx, s, "CPU/cache/L3/size_in_bytes"), 600ll * 1024 * 1024);
    assert_null(q(ctx, s, "CPU/cache/L2/line_size_in_bytes"));
    assert_int_equal(dlti_attr_size(q(ctx, s, "CPU/suspect")), 2);
    o.quiet = true;
    log.n = 0;
    probe_xml(ctx, "smt_off.xml", &o);
    assert_int_equal(log.n, 0);
    /* The defaults print nothing: stderr stays empty, the paths are listed. */
    fflush(stderr);
    FILE *capture = tmpfile();
    int saved = dup(2);
    assert_non_null(capture);
    assert_true(saved >= 0 && dup2(fileno(capture), 2) == 2);
    sysdesc_probe_options defaults;
    sysdesc_probe_options_init(&defaults);
    s = probe_xml(ctx, "smt_off.xml", &defaults);
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    assert_int_equal(ftell(capture), 0);
    fclose(capture);
    assert_int_equal(dlti_attr_size(q(ctx, s, "CPU/suspect")), 2);
    dlti_context_free(ctx);
}

/* ---- GPUs and the PCI hook ---- */

typedef struct {
    int calls;
    unsigned vendor[4], device[4];
    char bus[4][16];
    int fail;
} hook_log;

static int hook(void *user, dlti_context *ctx, const sysdesc_pci_info *pci,
                const dlti_attr **spec, dlti_error_t *err)
{
    hook_log *h = user;
    if (h->calls < 4) {
        h->vendor[h->calls] = pci->vendor_id;
        h->device[h->calls] = pci->device_id;
        snprintf(h->bus[h->calls], 16, "%s", pci->bus_id);
    }
    h->calls++;
    if (h->fail) {
        memset(err, 0, sizeof(*err));
        err->code = DLTI_ERROR_VERIFY;
        snprintf(err->text, sizeof(err->text), "hook says no");
        return -1;
    }
    if (pci->vendor_id == 0x10de) { /* what the systems/ database will do */
        dlti_key k = dlti_key_string(ctx, "arch", 4);
        *spec = dlti_container_set(ctx, *spec, k, dlti_string_new(ctx, "sm_90", 5), err);
    }
    return 0;
}

static void gpus(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    hook_log h;
    memset(&h, 0, sizeof(h));
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.quiet = true;
    o.pci_match = hook;
    o.pci_match_user = &h;
    const dlti_attr *s = probe_xml(ctx, "gpu.xml", &o);
    assert_int_equal(h.calls, 1);
    assert_int_equal(h.vendor[0], 0x10de);
    assert_int_equal(h.device[0], 0x2330);
    assert_string_equal(h.bus[0], "0000:01:00.0");
    /* CPU, GPU0 (H100); neither the QEMU VGA (display only) nor the NIC */
    assert_int_equal(dlti_attr_size(s), 2);
    assert_null(q(ctx, s, "GPU1"));
    assert_string_equal(qs(ctx, s, "GPU0/arch"), "sm_90");
    /* The normalised vendor (the catalog's), not CUDA's "NVIDIA Corporation";
     * no PCIVendor info in the fixture, so no pci_vendor_name. */
    assert_string_equal(qs(ctx, s, "GPU0/vendor"), "NVIDIA");
    assert_null(q(ctx, s, "GPU0/pci_vendor_name"));
    assert_string_equal(qs(ctx, s, "GPU0/device_type"), "GPU");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(q(ctx, s, "GPU0"), 0), NULL),
                        "device_type");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(q(ctx, s, "GPU0"), 1), NULL),
                        "schema_version");
    assert_int_equal(qi(ctx, s, "GPU0/schema_version"), SYSDESC_SCHEMA_VERSION);
    assert_int_equal(qi(ctx, s, "GPU0/pci_vendor_id"), 0x10de);
    /* Catalog-schema keys (docs/keys.md): one key per meaning. */
    assert_int_equal(qi(ctx, s, "GPU0/num_compute_units"), 132);
    assert_int_equal(qi(ctx, s, "GPU0/shared_memory_per_block_in_bytes"), 48 * 1024);
    assert_null(q(ctx, s, "GPU0/num_multiprocessors"));
    assert_null(q(ctx, s, "GPU0/max_shared_memory_per_block_in_bytes"));
    assert_int_equal(qi(ctx, s, "GPU0/memory_size_in_bytes"), 83295872ll * 1024);
    /* The hook can fail the probe. */
    h.fail = 1;
    o.xml_path = fixture("gpu.xml");
    dlti_error_t err;
    assert_null(sysdesc_probe_host(ctx, &o, &err));
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_string_equal(err.text, "hook says no");
    /* I/O off: no GPU. */
    o.pci_match = NULL;
    o.io = SYSDESC_PROBE_IO_OFF;
    s = sysdesc_probe_host(ctx, &o, &err);
    assert_non_null(s);
    assert_int_equal(dlti_attr_size(s), 1);
    dlti_context_free(ctx);
}

/* Vendors: the normalised name for well-known PCI vendor ids, hwloc's name
 * for others; the PCI vendor name as reported under pci_vendor_name. */
static void gpu_vendors(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "gpu_server.xml", NULL);
    static const struct { const char *bus, *vendor, *pci_vendor; } want[] = {
        {"0000:81:00.0", "NVIDIA", "NVIDIA Corporation"},
        {"0000:04:00.0", "AMD", "Advanced Micro Devices, Inc. [AMD/ATI]"},
        {"0000:00:02.0", "Intel", "Intel Corporation"},
        {"0000:82:00.0", "Intel", "Habana Labs Ltd."}, /* the catalog's Gaudi entries' name */
        {"0000:83:00.0", "FuriosaAI, Inc.", "FuriosaAI, Inc."},   /* PCIVendor */
        {"0000:02:00.0", "Moore Threads", "Moore Threads Technology Co.,Ltd"}, /* GPUVendor */
        {"0000:80:00.0", "Tenstorrent", NULL}, /* no PCI names: the table's */
        {"0000:84:00.0", NULL, NULL},          /* unknown and unnamed: not invented */
    };
    size_t found = 0;
    for (size_t d = 0; d < dlti_attr_size(s); d++) {
        const char *id = dlti_key_str(dlti_attr_entry_key(s, d), NULL);
        char path[64];
        snprintf(path, sizeof(path), "%s/pci_bus_id", id);
        if (!q(ctx, s, path))
            continue;
        const char *bus = qs(ctx, s, path);
        for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
            if (strcmp(bus, want[i].bus) != 0)
                continue;
            found++;
            snprintf(path, sizeof(path), "%s/vendor", id);
            if (want[i].vendor)
                assert_string_equal(qs(ctx, s, path), want[i].vendor);
            else
                assert_null(q(ctx, s, path));
            snprintf(path, sizeof(path), "%s/pci_vendor_name", id);
            if (want[i].pci_vendor)
                assert_string_equal(qs(ctx, s, path), want[i].pci_vendor);
            else
                assert_null(q(ctx, s, path));
        }
    }
    assert_int_equal(found, sizeof(want) / sizeof(want[0]));
    dlti_context_free(ctx);
}

/* Display-only devices (BMC VGA, Matrox G200eR2, ATI ES1000) and a DRM node
 * without a PCI parent are not GPUs; GPUs of the GPU vendors and devices
 * with a runtime's OS device are; the other processing accelerators are
 * ACCEL devices. */
static void gpu_rules(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "gpu_server.xml", NULL);
    assert_int_equal(dlti_attr_size(s), 11); /* CPU, GPU0..GPU5 and ACCEL0..ACCEL3 */
    assert_non_null(q(ctx, s, "GPU5"));
    assert_null(q(ctx, s, "GPU6"));
    assert_non_null(q(ctx, s, "ACCEL3"));
    assert_null(q(ctx, s, "ACCEL4"));
    for (size_t d = 0; d < dlti_attr_size(s); d++) {
        char path[64];
        snprintf(path, sizeof(path), "%s/pci_bus_id",
                 dlti_key_str(dlti_attr_entry_key(s, d), NULL));
        if (!q(ctx, s, path))
            continue;
        const char *b = qs(ctx, s, path);
        assert_string_not_equal(b, "0000:03:00.0"); /* ASPEED */
        assert_string_not_equal(b, "0000:01:00.0"); /* Matrox G200eR2 */
        assert_string_not_equal(b, "0000:01:01.0"); /* ATI ES1000 */
    }
    dlti_context_free(ctx);
}

/* GPU ids follow the PCI bus ids (domain, bus, device, function), not
 * hwloc's order (domain 1 first, then bus 83 before 82...); the OS device
 * without a PCI parent comes last; the accelerators that are no GPU are
 * ACCEL0, ... in bus id order, counted apart. */
static void gpu_order(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "gpu_server.xml", NULL);
    static const char *const bus[] = {"0000:00:02.0", "0000:02:00.0", "0000:04:00.0",
                                      "0000:81:00.0", "0001:01:00.0"};
    static const char *const accel[] = {"0000:80:00.0", "0000:82:00.0", "0000:83:00.0",
                                        "0000:84:00.0"};
    char path[64];
    for (size_t i = 0; i < sizeof(bus) / sizeof(bus[0]); i++) {
        snprintf(path, sizeof(path), "GPU%zu/pci_bus_id", i);
        assert_string_equal(qs(ctx, s, path), bus[i]);
    }
    for (size_t i = 0; i < sizeof(accel) / sizeof(accel[0]); i++) {
        snprintf(path, sizeof(path), "ACCEL%zu/pci_bus_id", i);
        assert_string_equal(qs(ctx, s, path), accel[i]);
        snprintf(path, sizeof(path), "ACCEL%zu/device_type", i);
        assert_string_equal(qs(ctx, s, path), "ACCEL");
    }
    assert_null(q(ctx, s, "GPU5/pci_bus_id"));
    assert_string_equal(qs(ctx, s, "GPU5/model"), "Mali-G78"); /* opencl2d0 */
    dlti_context_free(ctx);
}

static void cluster_and_errors(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.quiet = true;
    char a[4096], b[4096];
    snprintf(a, sizeof(a), "%s", fixture("one_socket.xml"));
    snprintf(b, sizeof(b), "%s", fixture("two_socket_numa.xml"));
    const char *paths[] = {a, b};
    dlti_error_t err;
    const dlti_attr *s = sysdesc_probe_xml_files(ctx, paths, 2, &o, &err);
    assert_non_null(s);
    /* Two kinds of node: two classes; the nodes answer by their HostName. */
    assert_int_equal(qi(ctx, s, "node-a.CPU/num_threads"), 16);
    assert_int_equal(qi(ctx, s, "node-b.CPU/num_packages"), 2);
    assert_int_equal(qi(ctx, s, "class1.CPU/num_packages"), 2);
    assert_string_equal(qs(ctx, s, "cluster/nodes/node-b"), "class1");
    assert_null(q(ctx, s, "node-c.CPU/num_packages"));
    assert_null(q(ctx, s, "node-a.GPU0/num_compute_units"));
    s = sysdesc_probe_xml_files(ctx, paths, 1, &o, &err);
    assert_int_equal(qi(ctx, s, "CPU/num_threads"), 16);
    assert_null(sysdesc_probe_xml_files(ctx, paths, 0, &o, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    o.xml_path = fixture("missing.xml");
    assert_null(sysdesc_probe_host(ctx, &o, &err));
    assert_int_equal(err.code, DLTI_ERROR_IO);
    o.xml_path = fixture("malformed.xml");
    assert_null(sysdesc_probe_host(ctx, &o, &err));
    assert_int_equal(err.code, DLTI_ERROR_SYNTAX);
    assert_null(sysdesc_probe_host(NULL, &o, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    dlti_context_free(ctx);
}

/* The builder: files and texts, identical nodes in one class, names, ranks. */
static void cluster_builder(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.quiet = true;
    dlti_error_t err;
    sysdesc_cluster *cl = sysdesc_cluster_new(ctx, &o, &err);
    assert_non_null(cl);
    assert_null(sysdesc_cluster_finish(cl, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    /* smt_off.xml names no host: node0, then node1 for the same topology as text. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = fopen(fixture("smt_off.xml"), "rb");
    assert_non_null(f);
    text = malloc(1 << 20);
    len = fread(text, 1, 1 << 20, f);
    fclose(f);
    assert_int_equal(sysdesc_cluster_add_xml_file(cl, fixture("smt_off.xml"), &err), 0);
    assert_int_equal(sysdesc_cluster_add_xml_text(cl, text, len, "rank 1", &err), 0);
    assert_int_equal(sysdesc_cluster_add_xml_file(cl, fixture("one_socket.xml"), &err), 0);
    /* a second node-a */
    assert_int_equal(sysdesc_cluster_add_xml_file(cl, fixture("one_socket.xml"), &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_int_equal(sysdesc_cluster_add_xml_text(cl, "<topology", 9, "rank 7", &err), -1);
    assert_string_equal(err.source, "rank 7");
    size_t ranks[] = {0, 0, 1, 2, 2};
    size_t bad[] = {3};
    assert_int_equal(sysdesc_cluster_set_ranks(cl, bad, 1, &err), -1);
    assert_int_equal(sysdesc_cluster_set_ranks(cl, ranks, 5, &err), 0);
    const dlti_attr *s = sysdesc_cluster_finish(cl, &err);
    sysdesc_cluster_free(cl);
    free(text);
    assert_non_null(s);
    assert_int_equal(qi(ctx, s, "cluster/num_nodes"), 3);
    assert_int_equal(qi(ctx, s, "cluster/num_classes"), 2);
    assert_string_equal(qs(ctx, s, "cluster/nodes/node1"), "class0");
    assert_string_equal(qs(ctx, s, "cluster/nodes/node-a"), "class1");
    assert_int_equal(dlti_attr_size(q(ctx, s, "cluster/classes/class0")), 2);
    assert_int_equal(qi(ctx, s, "cluster/MPI:comm_world_size"), 5);
    const dlti_attr *rn = q(ctx, s, "cluster/MPI:rank_nodes");
    const char *name;
    size_t n;
    assert_int_equal(dlti_attr_get_string(dlti_attr_element(rn, 3), &name, &n, NULL), 0);
    assert_memory_equal(name, "node-a", 6);
    assert_int_equal(qi(ctx, s, "node1.CPU/num_cores"), qi(ctx, s, "class0.CPU/num_cores"));
    assert_string_equal(qs(ctx, s, "class0.CPU/source/topology"),
                        "hwloc XML of each node of the class (backend Synthetic)");
    /* the same through a scope and C strings (what sysdesc query uses) */
    char *mlir = dlti_attr_print(s, NULL);
    assert_non_null(mlir);
    const dlti_attr *back = dlti_attr_parse(ctx, mlir, strlen(mlir), NULL, &err);
    free(mlir);
    assert_true(dlti_attr_equal(back, s));
    dlti_context_free(ctx);
}

static void overrides(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const dlti_attr *s = probe_xml(ctx, "smt_off.xml", NULL);
    dlti_error_t err;
    const dlti_attr *t = sysdesc_spec_override(ctx, s, "CPU.L3_cache_size_in_bytes=33554432", &err);
    assert_non_null(t);
    assert_int_equal(qi(ctx, t, "CPU/cache/L3/size_in_bytes"), 33554432);
    assert_int_equal(qi(ctx, t, "CPU/L3_cache_size_in_bytes"), 33554432);
    assert_string_equal(qs(ctx, t, "CPU/source/cache.L3.size_in_bytes"), "override");
    assert_int_equal(dlti_attr_size(q(ctx, t, "CPU/suspect")), 1);
    /* the input is unchanged */
    assert_int_equal(qi(ctx, s, "CPU/cache/L3/size_in_bytes"), 600ll * 1024 * 1024);
    t = sysdesc_spec_override(ctx, t, "CPU.name=\"Zen 5\"", &err);
    assert_string_equal(qs(ctx, t, "CPU/name"), "Zen 5");
    assert_null(sysdesc_spec_override(ctx, t, "CPU.name", &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_null(sysdesc_spec_override(ctx, t, "CPU..x=1", &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_null(sysdesc_spec_override(ctx, t, "CPU.x=[1", &err));
    assert_int_equal(err.code, DLTI_ERROR_SYNTAX);
    assert_null(sysdesc_spec_override(ctx, t, "CPU.name.x=1", &err)); /* through a string */
    assert_null(sysdesc_spec_override(ctx, t, "CPU=1", &err));
    /* a NULL spec starts a new one */
    t = sysdesc_spec_override(ctx, NULL, "GPU0.arch=\"gfx942\"", &err);
    assert_non_null(t);
    assert_string_equal(qs(ctx, t, "GPU0/arch"), "gfx942");
    dlti_context_free(ctx);
}

static void this_host(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o = options(false);
    dlti_error_t err;
    const dlti_attr *s = sysdesc_probe_host(ctx, &o, &err);
    assert_non_null(s);
    assert_true(qi(ctx, s, "CPU/num_threads") >= 1);
    assert_non_null(q(ctx, s, "CPU/source/topology"));
    assert_int_equal(problems(s, "this host"), 0); /* passes the checker */
    s = sysdesc_probe_host(ctx, NULL, &err); /* default options (no warning callback) */
    assert_non_null(s);
    assert_non_null(sysdesc_probe_hwloc_version());
    /* With its PCI devices, filled from the catalog, it passes the checker too. */
    o = options(true);
    o.io = SYSDESC_PROBE_IO_ON;
    s = sysdesc_probe_host(ctx, &o, &err);
    if (!s)
        fail_msg("probe --io of this host: %s", err.text);
    assert_int_equal(problems(s, "this host (io, catalog)"), 0);
    dlti_context_free(ctx);
}

/* HWLOC_XMLFILE without HWLOC_THISSYSTEM=1: hwloc loads another machine's
 * topology, and the probe asks nothing of this machine (tests/topology.sh). */
static bool foreign_topology(void)
{
    const char *xml = getenv("HWLOC_XMLFILE"), *this = getenv("HWLOC_THISSYSTEM");
    return xml && *xml && !(this && strcmp(this, "1") == 0);
}

/* The runtimes asked in this process (no fork) answer as the children do:
 * the same views of the CPU, the values that do not move (pocl's global
 * memory follows free memory) equal.  Checked in a child of this test: the
 * drivers that pocl and the Vulkan loader unload leave allocations behind
 * that LeakSanitizer cannot name (which is one more reason why the probe
 * asks them in children of its own). */
static int in_process_as_forked(void)
{
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o = options(false);
    dlti_error_t err;
    o.cache = SYSDESC_PROBE_CACHE_OFF;
    const dlti_attr *forked = sysdesc_probe_host(ctx, &o, &err);
    o.runtimes_in_process = true;
    const dlti_attr *inproc = sysdesc_probe_host(ctx, &o, &err);
    if (!forked || !inproc)
        return 1;
    static const char *const same[] = {"CPU/runtimes/vulkan",
                                       "CPU/runtimes/opencl/max_work_group_size",
                                       "CPU/runtimes/opencl/local_memory_size_in_bytes",
                                       "CPU/runtimes/opencl/device_name"};
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        const dlti_attr *a = q(ctx, forked, same[i]), *b = q(ctx, inproc, same[i]);
        if ((a || b) && !(a && b && dlti_attr_equal(a, b))) {
            fprintf(stderr, "%s differs between a child and this process\n", same[i]);
            return 2;
        }
    }
    const dlti_attr *origin = q(ctx, inproc, "CPU/source/runtimes");
    const char *s = NULL;
    if (!origin || dlti_attr_get_string(origin, &s, NULL, NULL) != 0 ||
        strcmp(s, "asked by this probe, in this process") != 0)
        return 3;
    return 0;
}

/* Two threads probing this host at once, each asking the runtimes in
 * children of its own: both get the CPU's views (the fork rule). */
static void *probe_thread(void *arg)
{
    (void)arg;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o = options(false);
    o.cache = SYSDESC_PROBE_CACHE_OFF;
    dlti_error_t err;
    const dlti_attr *s = sysdesc_probe_host(ctx, &o, &err);
    const dlti_attr *origin = s ? q(ctx, s, "CPU/source/runtimes") : NULL;
    const dlti_attr *views = s ? q(ctx, s, "CPU/runtimes") : NULL;
    const dlti_attr *vulkan = s ? q(ctx, s, "CPU/source/runtimes.vulkan") : NULL;
    const char *why = NULL;
    if (vulkan)
        dlti_attr_get_string(vulkan, &why, NULL, NULL);
    /* a machine without runtimes gets their skipped lines, never a timeout */
    bool ok = origin && (views || (why && !strstr(why, "abandoned")));
    dlti_context_free(ctx);
    return ok ? arg : NULL;
}

static void runtimes_from_threads(void **state)
{
    (void)state;
    if (foreign_topology())
        skip(); /* this machine's runtimes: the probe asks none for another machine */
    pthread_t t[2];
    int token[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, probe_thread, &token[i]), 0);
    for (int i = 0; i < 2; i++) {
        void *r = NULL;
        assert_int_equal(pthread_join(t[i], &r), 0);
        assert_ptr_equal(r, &token[i]);
    }
}

static void runtimes_in_process(void **state)
{
    (void)state;
    if (foreign_topology())
        skip(); /* this machine's runtimes: the probe asks none for another machine */
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(in_process_as_forked());
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- the probe's output against the device schema (sysdesc/schema.h) ---- */

static const char *const fixtures[] = {"one_socket.xml", "two_socket_numa.xml", "restricted.xml",
                                       "smt_off.xml",    "hybrid.xml",          "gpu.xml",
                                       "gpu_server.xml"};

/* Every fixture's probe output, as found and filled from the catalog (as
 * `sysdesc probe` does), passes the checker with no problem. */
static void fixtures_pass_the_checker(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
        for (int fill = 0; fill < 2; fill++) {
            dlti_context *ctx = dlti_context_new();
            sysdesc_probe_options o = options(fill);
            char what[256];
            snprintf(what, sizeof(what), "%s%s", fixtures[i], fill ? " (catalog)" : "");
            const dlti_attr *s = probe_xml(ctx, fixtures[i], &o);
            if (problems(s, what) != 0)
                fail_msg("%s: the probe's output fails the checker", what);
            dlti_context_free(ctx);
        }
    }
    /* All of them as one cluster (node<i>. ids), filled. */
    static char paths[sizeof(fixtures) / sizeof(fixtures[0])][4096];
    const char *p[sizeof(fixtures) / sizeof(fixtures[0])];
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
        snprintf(paths[i], sizeof(paths[i]), "%s", fixture(fixtures[i]));
        p[i] = paths[i];
    }
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o = options(true);
    dlti_error_t err;
    const dlti_attr *s = sysdesc_probe_xml_files(ctx, p, sizeof(p) / sizeof(p[0]), &o, &err);
    if (!s)
        fail_msg("probe of every fixture: %s", err.text);
    assert_int_equal(problems(s, "every fixture (catalog)"), 0);
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_socket),  cmocka_unit_test(restricted),
        cmocka_unit_test(identity_and_encodings), cmocka_unit_test(hybrid),
        cmocka_unit_test(warnings),    cmocka_unit_test(gpus), cmocka_unit_test(gpu_vendors),
        cmocka_unit_test(gpu_rules),   cmocka_unit_test(gpu_order),
        cmocka_unit_test(cluster_and_errors), cmocka_unit_test(cluster_builder),
        cmocka_unit_test(overrides),
        cmocka_unit_test(this_host),           cmocka_unit_test(runtimes_in_process),
        cmocka_unit_test(runtimes_from_threads),
        cmocka_unit_test(fixtures_pass_the_checker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
