/* The fingerprint for tuner caches (sysdesc/tuner.h, docs/fingerprint.md):
 * one spec in MLIR, YAML and JSON, in any key order, has one fingerprint;
 * it changes with every kind of key that counts and not with those left
 * out; --explain's text hashes to it.  (tests/cli/fingerprint.sh probes
 * this host twice; tests/python/test_fingerprint.py the module.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysdesc/sysdesc.h"

/* A small machine with a key of every kind the rule judges: facts, limits,
 * peaks, typed integers, a dense array, floats, versions, identities,
 * provenance, a measurement, the user's own keys. */
static const char machine[] =
    "CPU:\n"
    "  device_type: CPU\n"
    "  schema_version: 1\n"
    "  vendor: AuthenticAMD\n"
    "  model: AMD EPYC 9654 96-Core Processor\n"
    "  hostname: cn001\n"
    "  num_cores: !i32 96\n"
    "  num_threads: 192\n"
    "  max_frequency_mhz: 3700\n"
    "  cache:\n"
    "    L1: {size_in_bytes: 32768, line_size_in_bytes: 64, associativity: 8}\n"
    "    L2: {size_in_bytes: 1048576, line_size_in_bytes: 64}\n"
    "  memory:\n"
    "    total_in_bytes: 811748458496\n"
    "    os_total_in_bytes: 811748458496\n"
    "    numa_total_in_bytes: 811748458496\n"
    "    numa_node_size_in_bytes: !array:i64 [405874229248, 405874229248]\n"
    "    cgroup_limit_in_bytes: 68719476736\n"
    "    page_sizes_in_bytes: !array:i64 [4096, 2097152]\n"
    "  features: [avx2, avx512f]\n"
    "  compiler:\n"
    "    gcc: {flags: \"-march=znver4\", version: 12.2.0, path: /usr/bin/gcc}\n"
    "  measured:\n"
    "    date: \"2025-01-01T00:00:00Z\"\n"
    "    mode: default\n"
    "    memory_bandwidth_in_bytes_per_second: 400000000000\n"
    "  source: {topology: hwloc 2.9.0 on this host, memory.total_in_bytes: /proc/meminfo}\n"
    "  suspect: [memory.numa_total_in_bytes]\n"
    "  extra: {power_mode: performance}\n"
    "GPU0:\n"
    "  device_type: GPU\n"
    "  vendor: NVIDIA\n"
    "  model: NVIDIA H100 80GB HBM3\n"
    "  arch: sm_90\n"
    "  num_compute_units: 132\n"
    "  subgroup_sizes: !array:i64 [32]\n"
    "  max_clock_in_mhz: 1980\n"
    "  memory_size_in_bytes: 85017493504\n"
    "  peak_ops_per_second: {fp64_vector: 33.5e12, bf16_matrix: 989.4e12}\n"
    "  uuid: GPU-11111111-2222-3333-4444-555555555555\n"
    "  pci_bus_id: \"0000:18:00.0\"\n"
    "  driver_version: \"550.54.15\"\n"
    "  runtimes:\n"
    "    cuda: {ordinal: 0, driver_api_version: 12040, multiprocessor_count: 132,\n"
    "           uuid: GPU-11111111-2222-3333-4444-555555555555}\n"
    "    nvml: {index: 0, driver_version: \"550.54.15\", enforced_power_limit_in_watts: 700}\n"
    "  disagreements: {max_clock_in_mhz: {catalog: 1980}}\n"
    "GPU1:\n"
    "  device_type: GPU\n"
    "  vendor: NVIDIA\n"
    "  model: NVIDIA H100 80GB HBM3\n"
    "  arch: sm_90\n"
    "  num_compute_units: 132\n"
    "  subgroup_sizes: !array:i64 [32]\n"
    "  max_clock_in_mhz: 1980\n"
    "  memory_size_in_bytes: 85017493504\n"
    "  peak_ops_per_second: {fp64_vector: 33.5e12, bf16_matrix: 989.4e12}\n"
    "  uuid: GPU-99999999-2222-3333-4444-555555555555\n"
    "  pci_bus_id: \"0000:3b:00.0\"\n"
    "  driver_version: \"550.54.15\"\n"
    "  runtimes:\n"
    "    cuda: {ordinal: 1, driver_api_version: 12040, multiprocessor_count: 132,\n"
    "           uuid: GPU-99999999-2222-3333-4444-555555555555}\n"
    "    nvml: {index: 1, driver_version: \"550.54.15\", enforced_power_limit_in_watts: 700}\n";

static dlti_context *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = dlti_context_new();
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    dlti_context_free(ctx);
    return 0;
}

/* The system spec of a description in any syntax, read by the rules of a
 * file named `source`; fails the test when it does not load (`check`:
 * against the device schema). */
static const dlti_attr *spec_named(const char *text, const char *source, bool check)
{
    sysdesc_yaml_options opts = {0};
    opts.flags = check ? SYSDESC_LOAD_STRICT : SYSDESC_LOAD_NO_CHECK;
    sysdesc_system sys;
    dlti_error_t err;
    if (sysdesc_system_parse(ctx, text, strlen(text), source, &opts, &sys, &err) < 0)
        fail_msg("%s:%d:%d: %s", source, err.line, err.column, err.text);
    return sys.spec;
}

static const dlti_attr *spec_of(const char *text, bool check)
{
    return spec_named(text, "machine.yaml", check);
}

static void fingerprint(const dlti_attr *spec, const char *device, char *out)
{
    dlti_error_t err;
    if (sysdesc_fingerprint(spec, device, out, &err) < 0)
        fail_msg("fingerprint: %s", err.text);
    assert_int_equal(strlen(out), SYSDESC_FINGERPRINT_LENGTH);
    assert_memory_equal(out, "sd1-", 4);
    assert_int_equal(strspn(out + 4, "0123456789abcdef"), 16);
}

/* `spec` with "PATH=VALUE" set, as `sysdesc probe --set` sets it (which
 * also records a `source` line, left out of the fingerprint). */
static const dlti_attr *with(const dlti_attr *spec, const char *assignment)
{
    dlti_error_t err;
    const dlti_attr *s = sysdesc_spec_override(ctx, spec, assignment, &err);
    if (!s)
        fail_msg("%s: %s", assignment, err.text);
    return s;
}

/* The text of `spec` in `format` (`flags`: SYSDESC_PRINT_*), loaded again
 * as a file named `source` (plain JSON loses MLIR's types: it is read by
 * YAML's rules, as a .yaml file). */
static const dlti_attr *through(const dlti_attr *spec, sysdesc_format format, unsigned flags,
                                const char *source)
{
    sysdesc_system sys = {.spec = spec};
    char *text = sysdesc_system_print(&sys, format, flags, NULL);
    assert_non_null(text);
    const dlti_attr *back = spec_named(text, source, true);
    free(text);
    return back;
}

static void same_in_every_format(void **state)
{
    (void)state;
    const dlti_attr *spec = spec_of(machine, true);
    char yaml[32], mlir[32], attr[32], json[32], typed[32];
    fingerprint(spec, NULL, yaml);
    fingerprint(through(spec, SYSDESC_FORMAT_MLIR, 0, "machine.mlir"), NULL, mlir);
    fingerprint(through(spec, SYSDESC_FORMAT_ATTR, 0, "machine.mlir"), NULL, attr);
    /* plain JSON writes the dense arrays as arrays and i32 as a number */
    fingerprint(through(spec, SYSDESC_FORMAT_JSON, 0, "machine.yaml"), NULL, json);
    fingerprint(through(spec, SYSDESC_FORMAT_JSON, SYSDESC_PRINT_TYPED, "machine.json"), NULL,
                typed);
    assert_string_equal(yaml, mlir);
    assert_string_equal(yaml, attr);
    assert_string_equal(yaml, json);
    assert_string_equal(yaml, typed);
}

static void key_order_is_irrelevant(void **state)
{
    (void)state;
    /* The devices in another order, and the keys of a device and of its
     * maps in another order: the same machine. */
    static const char a[] = "CPU: {num_cores: 4, cache: {L1: {size_in_bytes: 32768, "
                            "associativity: 8}, L2: {size_in_bytes: 524288}}, vendor: x}\n"
                            "GPU0: {num_compute_units: 8, vendor: NVIDIA}\n";
    static const char b[] = "GPU0: {vendor: NVIDIA, num_compute_units: 8}\n"
                            "CPU: {vendor: x, cache: {L2: {size_in_bytes: 524288}, L1: "
                            "{associativity: 8, size_in_bytes: 32768}}, num_cores: 4}\n";
    char fa[32], fb[32];
    fingerprint(spec_of(a, false), NULL, fa);
    fingerprint(spec_of(b, false), NULL, fb);
    assert_string_equal(fa, fb);
}

/* Every key the fingerprint must follow: a count, a size, a clock, a
 * limit, a peak, drivers' and runtimes' versions, a compiler, the
 * allocation, the user's own keys, a key the schema does not know. */
static void changes_with_what_counts(void **state)
{
    (void)state;
    static const char *const changes[] = {
        "CPU.num_cores=48",
        "CPU.num_threads=96",
        "CPU.cache.L2.size_in_bytes=2097152",
        "CPU.max_frequency_mhz=3500",
        "CPU.features=[\"avx2\"]",
        "CPU.compiler.gcc.version=\"13.1.0\"",
        "CPU.memory.cgroup_limit_in_bytes=34359738368",
        "CPU.allocation.cpus=array<i64: 0, 1>",
        "CPU.extra.power_mode=\"powersave\"",
        "CPU.vendor=\"GenuineIntel\"",
        "GPU0.max_clock_in_mhz=1755",
        "GPU0.num_compute_units=114",
        "GPU0.memory_size_in_bytes=42949672960",
        "GPU0.peak_ops_per_second.fp64_vector=25.6e12",
        "GPU0.driver_version=\"560.35.03\"",
        "GPU0.runtimes.cuda.driver_api_version=12060",
        "GPU0.runtimes.nvml.driver_version=\"560.35.03\"",
        "GPU0.runtimes.nvml.enforced_power_limit_in_watts=500",
        "GPU0.pipeline_own_key=1",
        "GPU2.device_type=\"GPU\"", /* a device added */
    };
    const dlti_attr *spec = spec_of(machine, true);
    char base[32], fp[32];
    fingerprint(spec, NULL, base);
    for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
        fingerprint(with(spec, changes[i]), NULL, fp);
        if (strcmp(fp, base) == 0)
            fail_msg("%s left the fingerprint %s", changes[i], base);
    }
}

/* Provenance, identities, positions, paths, a measurement, the memory the
 * OS moves, the description's format: none of them moves it. */
static void unchanged_by_what_is_left_out(void **state)
{
    (void)state;
    static const char *const changes[] = {
        "CPU.source.topology=\"hwloc 2.10.0 on this host\"",
        "CPU.suspect=[\"cache.L2.size_in_bytes\"]",
        "CPU.hostname=\"cn002\"",
        "CPU.compiler.gcc.path=\"/opt/gcc/bin/gcc\"",
        "CPU.measured.date=\"2025-06-30T12:00:00Z\"",
        "CPU.measured.memory_bandwidth_in_bytes_per_second=380000000000",
        "CPU.measured.mode=\"quick\"",
        "CPU.memory.total_in_bytes=811748450304",
        "CPU.memory.os_total_in_bytes=811748450304",
        "CPU.memory.numa_total_in_bytes=405874229248",
        "CPU.memory.numa_node_size_in_bytes=array<i64: 405874229248>",
        "CPU.schema_version=1",
        "GPU0.uuid=\"GPU-00000000-2222-3333-4444-555555555555\"",
        "GPU0.pci_bus_id=\"0000:c1:00.0\"",
        "GPU0.runtimes.cuda.ordinal=5",
        "GPU0.runtimes.cuda.uuid=\"GPU-00000000-2222-3333-4444-555555555555\"",
        "GPU0.runtimes.nvml.index=5",
        "GPU0.disagreements.max_clock_in_mhz.catalog=1755",
    };
    const dlti_attr *spec = spec_of(machine, true);
    char base[32], fp[32];
    fingerprint(spec, NULL, base);
    for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
        fingerprint(with(spec, changes[i]), NULL, fp);
        if (strcmp(fp, base) != 0)
            fail_msg("%s changed the fingerprint %s to %s", changes[i], base, fp);
    }
    /* the volatile keys above are the schema's keys: a rename would leave
     * the rule's table naming nothing */
    static const char *const volatile_paths[] = { /* the first of any device, the rest the CPU's */
        "measured", "memory.total_in_bytes", "memory.os_total_in_bytes",
        "memory.numa_total_in_bytes", "memory.numa_node_size_in_bytes",
        "runtimes.opencl.global_memory_size_in_bytes",
        "runtimes.opencl.max_memory_allocation_in_bytes"};
    for (size_t i = 0; i < sizeof volatile_paths / sizeof *volatile_paths; i++)
        if (!sysdesc_schema_find("CPU", volatile_paths[i]))
            fail_msg("%s is no CPU key of the schema", volatile_paths[i]);
}

/* The rule over the whole schema, so that a key added later is held to it
 * too: set each key (a child of an open map) to a new value; facts, limits,
 * peaks and the versions move the fingerprint, the rest of the bookkeeping
 * and the volatile keys do not. */
static bool under(const char *path, const char *top)
{
    size_t n = strlen(top);
    return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '.');
}

static void every_schema_key(void **state)
{
    (void)state;
    static const char *const volatile_paths[] = {
        "measured", "memory.total_in_bytes", "memory.os_total_in_bytes",
        "memory.numa_total_in_bytes", "memory.numa_node_size_in_bytes",
        "runtimes.opencl.global_memory_size_in_bytes",
        "runtimes.opencl.max_memory_allocation_in_bytes"};
    const dlti_attr *spec = spec_of(machine, true);
    char base[32], fp[32];
    fingerprint(spec, NULL, base);
    size_t moved = 0, stayed = 0;
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        if (k->type == SYSDESC_VALUE_MAP)
            continue; /* its keys are judged, one by one */
        /* the path with each '*' one of the names its map allows */
        char path[512] = "", prefix[512] = "";
        bool open_child = k->type == SYSDESC_VALUE_OPEN_MAP;
        for (const char *p = k->path; *p;) {
            size_t n = strcspn(p, ".");
            char part[128];
            snprintf(part, sizeof part, "%.*s", (int)n, p);
            if (strcmp(part, "*") == 0) {
                const sysdesc_schema_key *map = sysdesc_schema_find(NULL, path);
                const char *names = map && map->names ? map->names : "x";
                snprintf(part, sizeof part, "%.*s", (int)strcspn(names, " "), names);
                if (strcmp(part, "#") == 0)
                    strcpy(part, "0");
            }
            strcat(path, *path ? "." : "");
            strcat(path, part);
            p += n + (p[n] == '.');
        }
        strcpy(prefix, path);
        const char *name = strrchr(path, '.') ? strrchr(path, '.') + 1 : path;
        const char *value = k->type == SYSDESC_VALUE_I64           ? "7777777"
                            : k->type == SYSDESC_VALUE_F64         ? "7.5e9"
                            : k->type == SYSDESC_VALUE_BOOL        ? "true"
                            : k->type == SYSDESC_VALUE_STRING      ? "\"a new value\""
                            : k->type == SYSDESC_VALUE_I64_ARRAY   ? "array<i64: 7777777>"
                            : k->type == SYSDESC_VALUE_STRING_LIST ? "[\"a new value\"]"
                                                                   : "\"a new value\"";
        bool counts = k->key_class != SYSDESC_KEY_BOOKKEEPING ||
                      (!open_child && strlen(name) >= 7 &&
                       strcmp(name + strlen(name) - 7, "version") == 0 &&
                       strcmp(name, "schema_version") != 0) ||
                      strcmp(path, "extra") == 0 || strcmp(path, "runtimes.vulkan.driver_info") == 0;
        for (size_t v = 0; v < sizeof volatile_paths / sizeof *volatile_paths; v++)
            if (under(path, volatile_paths[v]) && (v == 0 || (k->devices & SYSDESC_DEVICE_CPU)))
                counts = false;
        char assignment[700];
        snprintf(assignment, sizeof assignment, "%s.%s%s=%s",
                 (k->devices & SYSDESC_DEVICE_CPU) ? "CPU" : "GPU0", prefix,
                 open_child ? ".new_key" : "", value);
        fingerprint(with(spec, assignment), NULL, fp);
        if (counts && strcmp(fp, base) == 0)
            fail_msg("%s (class %d) left the fingerprint", assignment, (int)k->key_class);
        if (!counts && strcmp(fp, base) != 0)
            fail_msg("%s (class %d) moved the fingerprint", assignment, (int)k->key_class);
        *(counts ? &moved : &stayed) += 1;
    }
    /* both kinds are there: the schema has facts and bookkeeping */
    assert_true(moved > 100 && stayed > 50);
}

static void devices_swapped_or_alone(void **state)
{
    (void)state;
    const dlti_attr *spec = spec_of(machine, true);
    /* GPU0 and GPU1 differ only in identities: one device fingerprint */
    char g0[32], g1[32], sys[32], swapped[32];
    fingerprint(spec, "GPU0", g0);
    fingerprint(spec, "GPU1", g1);
    assert_string_equal(g0, g1);
    fingerprint(spec, NULL, sys);
    assert_string_not_equal(sys, g0);
    /* Another model at GPU1: swapping the two GPUs is another machine. */
    const dlti_attr *mixed = with(spec, "GPU1.model=\"NVIDIA H100 PCIe\"");
    const dlti_attr *back = with(with(mixed, "GPU0.model=\"NVIDIA H100 PCIe\""),
                                 "GPU1.model=\"NVIDIA H100 80GB HBM3\"");
    fingerprint(mixed, NULL, sys);
    fingerprint(back, NULL, swapped);
    assert_string_not_equal(sys, swapped);
    /* ... while each GPU alone is the same device wherever it sits */
    fingerprint(mixed, "GPU0", g0);
    fingerprint(back, "GPU1", g1);
    assert_string_equal(g0, g1);
}

static uint64_t fnv1a64(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
    return h;
}

/* The text is the documented one: its lines hash to the fingerprint, and
 * the explanation names what is left out. */
static void text_hashes_to_the_fingerprint(void **state)
{
    (void)state;
    const dlti_attr *spec = spec_of(machine, true);
    char fp[32], want[32];
    fingerprint(spec, NULL, fp);
    size_t len;
    char *text = sysdesc_fingerprint_text(spec, NULL, 0, &len, NULL);
    assert_non_null(text);
    snprintf(want, sizeof want, "sd1-%016llx", (unsigned long long)fnv1a64(text, len));
    assert_string_equal(fp, want);
    assert_non_null(strstr(text, "\nCPU.num_cores = 96\n"));
    assert_non_null(strstr(text, "\nCPU.memory.page_sizes_in_bytes = [4096, 2097152]\n"));
    assert_non_null(strstr(text, "\nGPU0.peak_ops_per_second.bf16_matrix = 989400000000000.0\n"));
    assert_non_null(strstr(text, "\nCPU.extra.power_mode = \"performance\"\n"));
    assert_null(strstr(text, "hostname"));
    assert_null(strstr(text, "\n#"));
    free(text);

    char *explained = sysdesc_fingerprint_text(spec, NULL, SYSDESC_FINGERPRINT_EXPLAIN, &len, NULL);
    assert_non_null(explained);
    assert_memory_equal(explained, "# ", 2);
    assert_memory_equal(explained + 2, fp, SYSDESC_FINGERPRINT_LENGTH);
    assert_non_null(strstr(explained, "\n# CPU.hostname: left out (bookkeeping: "));
    assert_non_null(strstr(explained, "\n# CPU.measured: left out ("));
    assert_non_null(strstr(explained, "\n# GPU0.runtimes.cuda.ordinal: left out ("));
    /* its lines that do not start with '#' are the text hashed */
    uint64_t h = 0xcbf29ce484222325u;
    for (const char *p = explained; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        for (size_t i = 0; *p != '#' && i < n; i++)
            h = (h ^ (unsigned char)p[i]) * 0x100000001b3u;
        p += n;
    }
    snprintf(want, sizeof want, "sd1-%016llx", (unsigned long long)h);
    assert_string_equal(fp, want);
    free(explained);
}

/* Keys that cannot stand bare in a line are quoted; a value of any kind
 * has one text. */
static void odd_keys_and_values(void **state)
{
    (void)state;
    const dlti_attr *spec = spec_of(
        "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<"
        "\"a.b = c\" = \"x\\0Ay\", \"flag\" = unit, \"t\" = vector<4xf32>, "
        "\"d\" = array<f32: 1.5, 2.0>, \"b\" = array<i1: true, false>, "
        "\"m\" = [#dlti.map<\"z\" = 1, \"y\" = 2.5 : f32>], \"w\" = 170141183460469231731687303715884105727 : i128, "
        "\"e\" = #dlti.map<>>>",
        false);
    char *text = sysdesc_fingerprint_text(spec, "CPU", 0, NULL, NULL);
    assert_non_null(text);
    assert_string_equal(text, "\"a.b = c\" = \"x\\0Ay\"\n"
                              "b = [true, false]\n"
                              "d = [1.5, 2.0]\n"
                              "e = {}\n"
                              "flag = unit\n"
                              "m = [{y = 2.5, z = 1}]\n"
                              "t = vector<4xf32>\n"
                              "w = 170141183460469231731687303715884105727 : i128\n");
    free(text);
}

static void cluster_node_names_left_out(void **state)
{
    (void)state;
    static const char a[] =
        "class0.CPU: {device_type: CPU, num_cores: 4}\n"
        "cluster: {device_type: cluster, num_nodes: 2, num_classes: 1,\n"
        "          nodes: {cn001: class0, cn002: class0}, classes: {class0: [cn001, cn002]}}\n";
    static const char b[] =
        "class0.CPU: {device_type: CPU, num_cores: 4}\n"
        "cluster: {device_type: cluster, num_nodes: 2, num_classes: 1,\n"
        "          nodes: {gpu17: class0, gpu18: class0}, classes: {class0: [gpu17, gpu18]}}\n";
    char fa[32], fb[32], fc[32];
    fingerprint(spec_of(a, true), NULL, fa);
    fingerprint(spec_of(b, true), NULL, fb);
    assert_string_equal(fa, fb);
    /* a node more is another cluster */
    fingerprint(with(spec_of(a, true), "cluster.num_nodes=3"), NULL, fc);
    assert_string_not_equal(fa, fc);
}

static void errors(void **state)
{
    (void)state;
    const dlti_attr *spec = spec_of(machine, true);
    char fp[32];
    dlti_error_t err;
    assert_int_equal(sysdesc_fingerprint(spec, "GPU7", fp, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_non_null(strstr(err.text, "GPU7"));
    assert_int_equal(sysdesc_fingerprint(NULL, NULL, fp, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    assert_int_equal(sysdesc_fingerprint(spec, NULL, NULL, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    const dlti_attr *cpu = dlti_attr_entry_value(spec, 0); /* a device is no system */
    assert_null(sysdesc_fingerprint_text(cpu, NULL, 0, NULL, &err));
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_in_every_format),
        cmocka_unit_test(key_order_is_irrelevant),
        cmocka_unit_test(changes_with_what_counts),
        cmocka_unit_test(unchanged_by_what_is_left_out),
        cmocka_unit_test(every_schema_key),
        cmocka_unit_test(devices_swapped_or_alone),
        cmocka_unit_test(text_hashes_to_the_fingerprint),
        cmocka_unit_test(odd_keys_and_values),
        cmocka_unit_test(cluster_node_names_left_out),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
