/* The merge of the runtimes' devices (probe/runtimes/rt_merge.c) on made-up
 * devices, the way the runtime sources hand them over: one physical device
 * per PCI bus id or UUID, whatever the spelling; the priority between
 * runtimes and its disagreements; new GPUs in PCI bus id order; the host
 * CPU's views; the skipped runtimes' lines on every device; and the catalog
 * filling what no runtime gave, the live value winning (docs/runtimes.md).
 * Also the answers' text (rt_text.c) checked and taken as it is, and
 * refused when wrong. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "probe_private.h"
#include "sysdesc/catalog.h"
#include "sysdesc/schema.h"

static const dlti_attr *parse(dlti_context *ctx, const char *text)
{
    dlti_error_t err;
    const dlti_attr *a = dlti_attr_parse(ctx, text, strlen(text), "test", &err);
    if (!a)
        fail_msg("%s: %s", text, err.text);
    return a;
}

/* A runtime device with its unified keys and view given as map bodies. */
static void rt(pb_run *run, const char *runtime, int ordinal, const char *bus, const char *uuid,
               bool cpu, const char *unified, const char *view)
{
    pb_rt_device d;
    pb_rt_init(&d, runtime, ordinal);
    snprintf(d.name, sizeof(d.name), "%s device %d", runtime, ordinal);
    snprintf(d.driver, sizeof(d.driver), "%s driver 1.0", runtime);
    snprintf(d.bus_id, sizeof(d.bus_id), "%s", bus);
    snprintf(d.uuid, sizeof(d.uuid), "%s", uuid);
    d.is_cpu = cpu;
    char text[1024];
    snprintf(text, sizeof(text), "#dlti.map<%s>", unified);
    const dlti_attr *u = parse(run->ctx, text);
    for (size_t i = 0; i < dlti_attr_size(u); i++)
        pb_add(run->ctx, &d.unified, dlti_key_str(dlti_attr_entry_key(u, i), NULL),
               dlti_attr_entry_value(u, i));
    snprintf(text, sizeof(text), "#dlti.map<%s>", view);
    const dlti_attr *v = parse(run->ctx, text);
    for (size_t i = 0; i < dlti_attr_size(v); i++)
        pb_add(run->ctx, &d.view, dlti_key_str(dlti_attr_entry_key(v, i), NULL),
               dlti_attr_entry_value(v, i));
    assert_int_equal(pb_rt_add(run, &d, NULL), 0);
}

static const dlti_attr *q(dlti_context *ctx, const dlti_attr *a, const char *path)
{
    const char *keys[8];
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    size_t n = 0;
    for (char *save = NULL, *p = strtok_r(buf, "/", &save); p && n < 8;
         p = strtok_r(NULL, "/", &save))
        keys[n++] = p;
    dlti_key k[8];
    for (size_t i = 0; i < n; i++)
        k[i] = dlti_key_string(ctx, keys[i], strlen(keys[i]));
    return dlti_attr_query(a, k, n, NULL);
}

static int64_t qi(dlti_context *ctx, const dlti_attr *a, const char *path)
{
    int64_t v = -1;
    const dlti_attr *x = q(ctx, a, path);
    if (!x || dlti_attr_get_int64(x, &v, NULL) != 0)
        fail_msg("%s: no integer", path);
    return v;
}

static const char *qs(dlti_context *ctx, const dlti_attr *a, const char *path)
{
    const char *s = NULL;
    const dlti_attr *x = q(ctx, a, path);
    if (!x || dlti_attr_get_string(x, &s, NULL, NULL) != 0)
        fail_msg("%s: no string", path);
    return s;
}

/* The system spec the run holds now. */
static const dlti_attr *spec_of(pb_run *run)
{
    return dlti_container_new(run->ctx, DLTI_ATTR_SYSTEM_SPEC, run->devices.e, run->devices.n,
                              NULL);
}

static void one_device_per_physical_device(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    char catalog[4096];
    snprintf(catalog, sizeof(catalog), "%s/systems", getenv("SRCDIR") ? getenv("SRCDIR") : ".");
    o.pci_match = sysdesc_catalog_pci_fill;
    o.pci_match_user = catalog;
    pb_run run;
    pb_run_init(&run, ctx, &o);
    /* What the CPU and PCI sources left: a CPU, and an H100 at 0000:65:00.0. */
    pb_add(ctx, &run.devices, "CPU",
           parse(ctx, "#dlti.target_device_spec<\"device_type\" = \"CPU\", \"source\" = "
                      "#dlti.map<\"topology\" = \"hwloc\">, \"suspect\" = [\"memory\"]>"));
    pb_add(ctx, &run.devices, "GPU0",
           parse(ctx, "#dlti.target_device_spec<\"device_type\" = \"GPU\", \"pci_bus_id\" = "
                      "\"0000:65:00.0\", \"source\" = #dlti.map<\"pci\" = \"hwloc\">>"));
    sysdesc_pci_info pi;
    memset(&pi, 0, sizeof(pi));
    pi.vendor_id = 0x10de;
    pi.device_id = 0x2330; /* H100 SXM5: nvidia/h100-sxm */
    snprintf(pi.bus_id, sizeof(pi.bus_id), "0000:65:00.0");
    assert_non_null(pb_gpu_add(&run, "GPU0", &pi));

    /* The H100 is a MIG slice to OpenCL (14 SMs); Vulkan says less per block. */
    rt(&run, "vulkan", 1, "0000:65:00.0", "", false,
       "\"max_threads_per_block\" = 512, \"shared_memory_per_block_in_bytes\" = 49152",
       "\"device_index\" = 1");
    rt(&run, "opencl", 0, "0000:65:00.0", "", false,
       "\"num_compute_units\" = 14, \"max_threads_per_block\" = 1024", "\"device_index\" = 0");
    /* Another GPU no hwloc device stands for: CUDA spells its bus id its way,
     * Vulkan gives only the UUID. */
    rt(&run, "cuda", 0, "00000000:B3:00.0", "GPU-0123abcd-0000-1111-2222-333344445555", false,
       "\"num_compute_units\" = 108", "\"name\" = \"cuda 0\"");
    rt(&run, "opencl", 1, "0000:b3:00.0", "", false, "\"num_compute_units\" = 100",
       "\"device_index\" = 1");
    rt(&run, "vulkan", 0, "", "0123ABCD-0000-1111-2222-333344445555", false,
       "\"num_compute_units\" = 108", "\"device_index\" = 0");
    /* One at a lower bus id, seen by Vulkan only: numbered before it. */
    rt(&run, "vulkan", 2, "0000:17:00.0", "", false, "\"max_threads_per_block\" = 1024",
       "\"device_index\" = 2");
    /* One without any identity: last. */
    rt(&run, "vulkan", 3, "", "", false, "", "\"device_index\" = 3");
    /* The host CPU, twice by OpenCL (two platforms). */
    rt(&run, "opencl", 2, "", "", true, "\"num_compute_units\" = 2",
       "\"device_type\" = \"CPU\"");
    rt(&run, "opencl", 3, "", "", true, "", "\"device_type\" = \"CPU\"");
    pb_rt_skipped(&run, "level_zero", "libze_loader.so.1 not loaded");
    run.rt_origin = "asked";

    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_rt_merge(&run, &err), 0);
    assert_int_equal(pb_fill_gpus(&run, &err), 0);
    const dlti_attr *s = spec_of(&run);
    assert_non_null(s);
    assert_int_equal(dlti_attr_size(s), 5); /* CPU, GPU0, and three new GPUs */

    /* The CPU: OpenCL's view of its first device, no unified keys, the
     * second device named in the source; its own keys untouched. */
    assert_string_equal(qs(ctx, s, "CPU/runtimes/opencl/device_type"), "CPU");
    assert_null(q(ctx, s, "CPU/num_compute_units"));
    assert_non_null(strstr(qs(ctx, s, "CPU/source/runtimes.opencl"), "also its device 3"));
    assert_string_equal(qs(ctx, s, "CPU/source/topology"), "hwloc");
    assert_string_equal(qs(ctx, s, "CPU/source/runtimes"), "asked");
    assert_non_null(q(ctx, s, "CPU/suspect"));
    assert_string_equal(qs(ctx, s, "CPU/source/runtimes.level_zero"),
                        "libze_loader.so.1 not loaded");
    /* Bookkeeping stays last. */
    size_t n = dlti_attr_size(q(ctx, s, "CPU"));
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(q(ctx, s, "CPU"), n - 1), NULL),
                        "suspect");

    /* GPU0: OpenCL before Vulkan; Vulkan's other value recorded.  A slice
     * of 14 SMs is not the whole H100 (132) that alone claims its PCI id:
     * nothing of the catalog's is filled, and source.catalog says why. */
    assert_int_equal(qi(ctx, s, "GPU0/num_compute_units"), 14);
    assert_int_equal(qi(ctx, s, "GPU0/max_threads_per_block"), 1024);
    assert_int_equal(qi(ctx, s, "GPU0/disagreements/max_threads_per_block/vulkan"), 512);
    assert_null(q(ctx, s, "GPU0/disagreements/num_compute_units"));
    assert_int_equal(qi(ctx, s, "GPU0/shared_memory_per_block_in_bytes"), 49152);
    assert_string_equal(qs(ctx, s, "GPU0/source/num_compute_units"),
                        "opencl: opencl driver 1.0");
    assert_string_equal(qs(ctx, s, "GPU0/source/shared_memory_per_block_in_bytes"),
                        "vulkan: vulkan driver 1.0");
    assert_null(q(ctx, s, "GPU0/tdp_in_watts"));
    assert_non_null(strstr(qs(ctx, s, "GPU0/source/catalog"),
                           "not nvidia/h100-sxm: num_compute_units 14, not 132"));
    assert_string_equal(qs(ctx, s, "GPU0/source/pci"), "hwloc");
    assert_string_equal(qs(ctx, s, "GPU0/source/runtimes.level_zero"),
                        "libze_loader.so.1 not loaded");
    assert_int_equal(qi(ctx, s, "GPU0/runtimes/opencl/device_index"), 0);
    assert_int_equal(qi(ctx, s, "GPU0/runtimes/vulkan/device_index"), 1);

    /* The new GPUs in PCI bus id order: 0000:17, 0000:b3, then none. */
    assert_string_equal(qs(ctx, s, "GPU1/pci_bus_id"), "0000:17:00.0");
    assert_int_equal(qi(ctx, s, "GPU1/runtimes/vulkan/device_index"), 2);
    assert_string_equal(qs(ctx, s, "GPU2/pci_bus_id"), "0000:b3:00.0");
    assert_string_equal(qs(ctx, s, "GPU2/model"), "cuda device 0");
    assert_int_equal(qi(ctx, s, "GPU2/num_compute_units"), 108); /* CUDA first */
    assert_int_equal(qi(ctx, s, "GPU2/disagreements/num_compute_units/opencl"), 100);
    assert_null(q(ctx, s, "GPU2/disagreements/num_compute_units/vulkan")); /* the same value */
    assert_non_null(q(ctx, s, "GPU2/runtimes/cuda"));
    assert_int_equal(qi(ctx, s, "GPU2/runtimes/opencl/device_index"), 1);
    assert_int_equal(qi(ctx, s, "GPU2/runtimes/vulkan/device_index"), 0); /* by UUID */
    const dlti_attr *views = q(ctx, s, "GPU2/runtimes");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(views, 0), NULL), "cuda");
    assert_string_equal(dlti_key_str(dlti_attr_entry_key(views, 2), NULL), "vulkan");
    assert_int_equal(qi(ctx, s, "GPU3/runtimes/vulkan/device_index"), 3);
    assert_null(q(ctx, s, "GPU3/pci_bus_id"));
    for (int i = 0; i < 4; i++) {
        char p[64];
        snprintf(p, sizeof(p), "GPU%d/source/runtimes.level_zero", i);
        assert_non_null(q(ctx, s, p));
        snprintf(p, sizeof(p), "GPU%d/device_type", i);
        assert_string_equal(qs(ctx, s, p), "GPU");
    }
    assert_int_equal(run.ngpus, 4);
    pb_run_free(&run);
    dlti_context_free(ctx);
}

/* An answer printed, parsed and accepted prints the same again; anything
 * else is refused and leaves the run as it was. */
static void answers_read_back(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    pb_run a, b;
    pb_run_init(&a, ctx, &o);
    pb_run_init(&b, ctx, &o);
    rt(&a, "opencl", 0, "0000:b3:00.0", "GPU-0123abcd-0000-1111-2222-333344445555", false,
       "\"num_compute_units\" = 108, \"subgroup_sizes\" = array<i64: 32>",
       "\"device_name\" = \"x\\22y\", \"max_work_item_sizes\" = array<i64: 1, 2, 3>");
    rt(&a, "vulkan", 0, "", "", true, "", "\"device_type\" = \"cpu\"");
    pb_rt_skipped(&a, "cuda", "libcuda.so.1 not loaded: \"quoted\"");
    size_t len;
    char *text = pb_rt_print(&a, pb_rt_libraries(ctx), &len);
    assert_non_null(text);
    const dlti_attr *answer = parse(ctx, text);
    assert_int_equal(pb_rt_accept(&b, answer), 0);
    assert_int_equal(b.nrt, 2);
    assert_string_equal(pb_rt_text(b.rt[0], "runtime"), "opencl");
    assert_string_equal(pb_rt_text(b.rt[0], "bus_id"), "0000:b3:00.0");
    assert_string_equal(pb_rt_text(b.rt[0], "uuid"),
                        "GPU-0123abcd-0000-1111-2222-333344445555");
    assert_true(pb_rt_is_cpu(b.rt[1]));
    char *again = pb_rt_print(&b, pb_rt_libraries(ctx), NULL);
    assert_string_equal(text, again);
    free(again);
    assert_true(pb_rt_libraries_unchanged(q(ctx, answer, "libraries")));
    free(text);

    static const char *const bad[] = {
        "42",
        "#dlti.map<\"devices\" = 1>",
        "#dlti.map<\"devices\" = [1]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"metal\", \"ordinal\" = 0, "
        "\"is_cpu\" = false>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = -1, "
        "\"is_cpu\" = false>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"bus_id\" = \"0123456789abcdef0123456789abcdef\">]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"view\" = 3>]>",
        "#dlti.map<\"skipped\" = #dlti.map<\"opencl\" = 1>>",
        "#dlti.map<\"skipped\" = #dlti.map<\"metal\" = \"no\">>",
        /* what no runtime source writes: a top-level key it does not set,
         * a value of another kind, a view value that is no data */
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"unified\" = #dlti.map<\"device_type\" = \"CPU\">>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"unified\" = #dlti.map<\"num_compute_units\" = \"lots\">>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"unified\" = #dlti.map<\"num_compute_units\" = 7 : i32>>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"unified\" = #dlti.map<\"max_block_dims\" = [1, 2, 3]>>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"view\" = #dlti.map<\"x\" = 1.5 : f32>>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"view\" = #dlti.map<\"x\" = #dlti.map<\"y\" = i32>>>]>",
        "#dlti.map<\"devices\" = [#dlti.map<\"runtime\" = \"opencl\", \"ordinal\" = 0, "
        "\"is_cpu\" = false, \"partitions\" = #dlti.map<\"0\" = [1, 2]>>]>",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t before = b.nrt, skipped = b.rt_skipped.n;
        if (pb_rt_accept(&b, parse(ctx, bad[i])) != -1)
            fail_msg("read as an answer: %s", bad[i]);
        assert_int_equal(b.nrt, before);
        assert_int_equal(b.rt_skipped.n, skipped);
    }
    /* A library that changed makes the list stale. */
    assert_false(pb_rt_libraries_unchanged(
        parse(ctx, "#dlti.map<\"/nonexistent/libOpenCL.so.1\" = \"1:2:3.000000000\">")));
    pb_run_free(&a);
    pb_run_free(&b);
    dlti_context_free(ctx);
}

/* Every top-level key an answer may set is a GPU key of the device schema,
 * of the kind the reader demands: a cache entry or a child cannot put a key
 * the schema lacks, or a value of another type, into a device. */
static void unified_keys_are_schema_keys(void **state)
{
    (void)state;
    static const sysdesc_value_type as[] = {
        [PB_RT_I64] = SYSDESC_VALUE_I64, [PB_RT_BOOL] = SYSDESC_VALUE_BOOL,
        [PB_RT_STRING] = SYSDESC_VALUE_STRING, [PB_RT_I64_ARRAY] = SYSDESC_VALUE_I64_ARRAY};
    assert_true(pb_rt_unified_count() > 20);
    for (size_t i = 0; i < pb_rt_unified_count(); i++) {
        const pb_rt_unified_key *k = pb_rt_unified_at(i);
        const sysdesc_schema_key *s = sysdesc_schema_find("GPU", k->name);
        if (!s || s->type != as[k->kind] || strchr(k->name, '.'))
            fail_msg("unified key %s: %s", k->name,
                     !s ? "not a GPU key of the schema" : "not of the schema's type");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_device_per_physical_device),
        cmocka_unit_test(answers_read_back),
        cmocka_unit_test(unified_keys_are_schema_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
