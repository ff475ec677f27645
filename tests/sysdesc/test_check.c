/* The device schema and its checker through the public API
 * (sysdesc/schema.h): the table's own consistency, key lookup, path
 * messages, counting and the stop protocol of report(), the load's error,
 * SYSDESC_LOAD_NO_CHECK and sysdesc_check_file().  The checker's rules one
 * by one, with their messages and positions, are in check/ (check.sh). */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysdesc/sysdesc.h"

#define CATALOG SRCDIR "/systems"

/* ---- helpers ---- */

/* Loads YAML `text` as written (no check), with the source tree's catalog. */
static sysdesc_system load_raw(dlti_context *ctx, const char *text)
{
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    opts.flags = SYSDESC_LOAD_NO_CHECK;
    sysdesc_system sys;
    dlti_error_t err;
    if (sysdesc_yaml_load(ctx, text, strlen(text), "x.yaml", &opts, &sys, &err) < 0)
        fail_msg("%s:%d:%d: %s", err.source, err.line, err.column, err.text);
    return sys;
}

/* Every problem kept, up to 16; stops after `stop_after` when not 0. */
typedef struct seen {
    dlti_error_t p[16];
    int n;
    int stop_after;
} seen;

static int keep(void *user, const dlti_error_t *problem)
{
    seen *s = user;
    if (s->n < 16)
        s->p[s->n] = *problem;
    s->n++;
    return s->stop_after && s->n >= s->stop_after;
}

/* Three problems, in this order: a type (line 3), an unknown key (line 4),
 * a relation (line 5, found after every key). */
static const char three[] = "GPU:\n"
                            "  device_type: GPU\n"
                            "  num_compute_units: \"84\"\n"
                            "  num_compute_unit: 84\n"
                            "  max_shared_memory_per_block_in_bytes: 1024\n"
                            "  shared_memory_per_block_in_bytes: 49152\n";

static const char three_first[] =
    "'GPU.num_compute_units' must be an integer (i64), not the string \"84\"; write 84 "
    "without quotes";

/* ---- the table ---- */

static const char *const documented_units[] = {"bytes", "bits", "MHz", "bytes/s",
                                               "ops/s", "W",    "ways",
                                               "ns",    "ps",   "s"}; /* ns, ps, s: sysdesc measure */

static const sysdesc_schema_key *by_path(const char *path, size_t len)
{
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        if (strlen(k->path) == len && memcmp(k->path, path, len) == 0)
            return k;
    }
    return NULL;
}

static void table_is_consistent(void **state)
{
    (void)state;
    size_t n = sysdesc_schema_size();
    assert_true(n > 50);
    assert_null(sysdesc_schema_key_at(n));
    for (size_t i = 0; i < n; i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        assert_non_null(k->path);
        assert_non_null(k->meaning);
        /* unique */
        for (size_t j = 0; j < i; j++)
            if (strcmp(sysdesc_schema_key_at(j)->path, k->path) == 0)
                fail_msg("'%s' is in the schema twice", k->path);
        /* its parent is a map listed before it, for the same devices */
        const char *dot = strrchr(k->path, '.');
        if (dot) {
            const sysdesc_schema_key *parent = by_path(k->path, (size_t)(dot - k->path));
            if (!parent || parent > k)
                fail_msg("'%s' has no parent entry before it", k->path);
            if (parent->type != SYSDESC_VALUE_MAP)
                fail_msg("'%s': its parent '%s' is not a map", k->path, parent->path);
            if (k->devices & ~parent->devices)
                fail_msg("'%s' is for devices its parent is not for", k->path);
            /* only top-level keys are asked for by SYSDESC_CHECK_COMPLETE */
            if (k->required)
                fail_msg("'%s' is required but not at the top of a device", k->path);
            /* a '*' level is one whose parent names its children */
            if (strcmp(dot + 1, "*") == 0 && !parent->names)
                fail_msg("'%s': its parent lists no names", k->path);
        }
        if (strstr(k->path, "*") && !strstr(k->path, ".*"))
            fail_msg("'%s': '*' is not a whole level", k->path);
        assert_true(k->devices != 0);
        assert_true((k->devices & ~(unsigned)SYSDESC_DEVICE_ALL) == 0);
        if (k->required & ~k->devices)
            fail_msg("'%s' is required of devices that do not carry it", k->path);
        /* required_if names a top-level boolean key of the same devices */
        if (k->required_if) {
            const sysdesc_schema_key *c = by_path(k->required_if, strlen(k->required_if));
            if (!k->required || !c || c->type != SYSDESC_VALUE_BOOL ||
                strchr(c->path, '.') || (k->devices & ~c->devices))
                fail_msg("'%s': required_if '%s' is no boolean key of its devices", k->path,
                         k->required_if);
        }
        if (k->type == SYSDESC_VALUE_I64 || k->type == SYSDESC_VALUE_I64_ARRAY)
            if (k->min > k->max)
                fail_msg("'%s': min %lld > max %lld", k->path, (long long)k->min,
                         (long long)k->max);
        /* every names map has its '*' child */
        if (k->names) {
            char star[256];
            snprintf(star, sizeof(star), "%s.*", k->path);
            if (!by_path(star, strlen(star)))
                fail_msg("'%s' lists names but has no '%s' entry", k->path, star);
            assert_int_equal(k->type, SYSDESC_VALUE_MAP);
        }
        if (k->unit) {
            bool known = false;
            for (size_t u = 0; u < sizeof(documented_units) / sizeof(documented_units[0]); u++)
                known = known || strcmp(k->unit, documented_units[u]) == 0;
            if (!known)
                fail_msg("'%s': unit '%s' is not one of the documented units", k->path, k->unit);
            /* a unit goes with a number */
            assert_true(k->type == SYSDESC_VALUE_I64 || k->type == SYSDESC_VALUE_F64 ||
                        k->type == SYSDESC_VALUE_I64_ARRAY);
        }
    }
    assert_non_null(by_path("device_type", 11));
    assert_int_equal(by_path("device_type", 11)->required, SYSDESC_DEVICE_ALL);
}

/* Every entry is what sysdesc_schema_find() gives for its path (a '*' level
 * filled with the first name its parent lists). */
static void every_entry_is_found(void **state)
{
    (void)state;
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        char path[256] = "";
        for (const char *p = k->path; *p;) {
            size_t n = strcspn(p, ".");
            if (n == 1 && *p == '*') {
                const sysdesc_schema_key *parent = by_path(k->path, (size_t)(p - 1 - k->path));
                const char *names = strcmp(parent->names, "#") == 0 ? "0" : parent->names;
                strncat(path, names, strcspn(names, " "));
            } else {
                strncat(path, p, n);
            }
            p += n;
            if (*p == '.') {
                strcat(path, ".");
                p++;
            }
        }
        if (sysdesc_schema_find(NULL, path) != k)
            fail_msg("sysdesc_schema_find(NULL, \"%s\") is not '%s'", path, k->path);
        /* the first type that carries it */
        const char *type = sysdesc_schema_device_type_name(k->devices & (0u - k->devices));
        if (sysdesc_schema_find(type, path) != k)
            fail_msg("sysdesc_schema_find(\"%s\", \"%s\") is not '%s'", type, path, k->path);
    }
}

/* ---- lookup ---- */

static void find_concrete_paths(void **state)
{
    (void)state;
    const sysdesc_schema_key *k = sysdesc_schema_find("CPU", "cache.L1i.size_in_bytes");
    assert_non_null(k);
    assert_string_equal(k->path, "cache.*.size_in_bytes");
    assert_string_equal(k->unit, "bytes");
    assert_int_equal(k->type, SYSDESC_VALUE_I64);
    assert_string_equal(sysdesc_schema_find("CPU", "cache.L3")->path, "cache.*");
    assert_string_equal(sysdesc_schema_find("CPU", "cache")->path, "cache");
    /* names outside the map's list */
    assert_null(sysdesc_schema_find("CPU", "cache.L7"));
    assert_null(sysdesc_schema_find("CPU", "cache.L7.size_in_bytes"));
    assert_null(sysdesc_schema_find("CPU", "cache.l1.size_in_bytes"));
    assert_string_equal(sysdesc_schema_find("CPU", "cpu_kinds.0.num_cores")->path,
                        "cpu_kinds.*.num_cores");
    assert_string_equal(sysdesc_schema_find("CPU", "cpu_kinds.12")->path, "cpu_kinds.*");
    assert_null(sysdesc_schema_find("CPU", "cpu_kinds.a.num_cores"));
    assert_null(sysdesc_schema_find("CPU", "cpu_kinds.01"));
    assert_null(sysdesc_schema_find("CPU", "cpu_kinds.-1"));
    /* open maps: anything under them is the map's key */
    assert_string_equal(sysdesc_schema_find(NULL, "extra.anything")->path, "extra");
    assert_string_equal(sysdesc_schema_find("GPU", "extra.a.b.c")->path, "extra");
    assert_string_equal(sysdesc_schema_find("CPU", "extra")->path, "extra");
    assert_string_equal(sysdesc_schema_find("CPU", "source.cache.L1")->path, "source");
    assert_string_equal(sysdesc_schema_find("GPU", "hwloc_info.cuda0.x")->path, "hwloc_info");
    /* peaks */
    k = sysdesc_schema_find("GPU", "peak_ops_per_second.fp8_matrix");
    assert_non_null(k);
    assert_string_equal(k->path, "peak_ops_per_second.fp8_matrix");
    assert_int_equal(k->type, SYSDESC_VALUE_F64);
    assert_string_equal(k->unit, "ops/s");
    assert_non_null(sysdesc_schema_find("GPU", "peak_sparse_ops_per_second.int4_matrix"));
    assert_null(sysdesc_schema_find("GPU", "peak_ops_per_second.fp32"));
    /* a leaf has no children; empty and missing paths name nothing */
    assert_null(sysdesc_schema_find("CPU", "num_cores.x"));
    assert_null(sysdesc_schema_find("CPU", ""));
    assert_null(sysdesc_schema_find("CPU", NULL));
    assert_null(sysdesc_schema_find("CPU", "cache."));
}

static void find_filters_by_device_type(void **state)
{
    (void)state;
    assert_non_null(sysdesc_schema_find("GPU", "num_compute_units"));
    assert_null(sysdesc_schema_find("CPU", "num_compute_units"));
    assert_non_null(sysdesc_schema_find(NULL, "num_compute_units"));
    assert_non_null(sysdesc_schema_find("CPU", "memory.total_in_bytes"));
    assert_null(sysdesc_schema_find("GPU", "memory.total_in_bytes"));
    assert_null(sysdesc_schema_find("GPU", "cache.L1.size_in_bytes"));
    assert_null(sysdesc_schema_find("CPU", "peak_ops_per_second.fp8_matrix"));
    /* keys of both */
    assert_non_null(sysdesc_schema_find("CPU", "L2_cache_size_in_bytes"));
    assert_non_null(sysdesc_schema_find("GPU", "L2_cache_size_in_bytes"));
    assert_null(sysdesc_schema_find("GPU", "L3_cache_size_in_bytes"));
    /* device types are exact */
    assert_int_equal(sysdesc_schema_device_type("CPU"), SYSDESC_DEVICE_CPU);
    assert_int_equal(sysdesc_schema_device_type("GPU"), SYSDESC_DEVICE_GPU);
    assert_int_equal(sysdesc_schema_device_type("Gpu"), 0);
    assert_int_equal(sysdesc_schema_device_type("TPU"), 0);
    assert_int_equal(sysdesc_schema_device_type(NULL), 0);
    /* names and types both ways, every type */
    for (unsigned b = 1; b & SYSDESC_DEVICE_ALL; b <<= 1)
        assert_int_equal(sysdesc_schema_device_type(sysdesc_schema_device_type_name(b)), b);
    assert_null(sysdesc_schema_device_type_name(0));
    assert_null(sysdesc_schema_device_type_name(SYSDESC_DEVICE_CPU | SYSDESC_DEVICE_GPU));
    /* an accelerator: the keys whose meaning it shares, its own, not a GPU's
     * programming model nor a CPU's caches */
    assert_int_equal(sysdesc_schema_device_type("ACCEL"), SYSDESC_DEVICE_ACCEL);
    assert_int_equal(sysdesc_schema_device_type("accel"), 0);
    static const char *const accel_keys[] = {
        "vendor", "arch", "pci_device_ids", "memory_size_in_bytes",
        "memory_bandwidth_in_bytes_per_second", "peak_ops_per_second.bf16_matrix",
        "num_compute_units", "compute_unit_name", "tdp_in_watts", "interconnect.num_links"};
    for (size_t i = 0; i < sizeof(accel_keys) / sizeof(accel_keys[0]); i++)
        if (!sysdesc_schema_find("ACCEL", accel_keys[i]))
            fail_msg("'%s' is no ACCEL key", accel_keys[i]);
    assert_non_null(sysdesc_schema_find("ACCEL", "num_matrix_engines"));
    assert_null(sysdesc_schema_find("GPU", "num_matrix_engines"));
    assert_null(sysdesc_schema_find("ACCEL", "max_threads_per_block"));
    assert_null(sysdesc_schema_find("ACCEL", "subgroup_sizes"));
    assert_null(sysdesc_schema_find("ACCEL", "L2_cache_size_in_bytes"));
    assert_null(sysdesc_schema_find("ACCEL", "peak_sparse_ops_per_second"));
    assert_null(sysdesc_schema_find("ACCEL", "cache.L1.size_in_bytes"));
}

/* ---- sysdesc_schema_check_path ---- */

static void expect_path(const char *type, const char *id, const char *path, const char *message)
{
    dlti_error_t err;
    memset(&err, 0, sizeof(err));
    int rc = sysdesc_schema_check_path(type, id, path, &err);
    if (!message) {
        if (rc != 0)
            fail_msg("%s: rejected: %s", path, err.text);
        return;
    }
    if (rc != -1)
        fail_msg("%s: accepted", path);
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    if (strcmp(err.text, message) != 0)
        fail_msg("%s:\n got: %s\nwant: %s", path, err.text, message);
}

static void check_path_messages(void **state)
{
    (void)state;
    expect_path("CPU", "CPU", "cache.L3.size_in_bytes", NULL);
    expect_path("GPU", "GPU0", "extra.my.own.key", NULL);
    expect_path("GPU", "GPU0", "peak_ops_per_second.fp8_matrix", NULL);
    expect_path(NULL, NULL, "num_compute_units", NULL);
    expect_path("CPU", "CPU", "cahce.L1",
                "unknown key 'cahce' in 'CPU'; did you mean 'cache'?");
    expect_path("CPU", "node0.CPU", "cache.L7.size_in_bytes",
                "unknown name 'L7' in 'node0.CPU.cache' (one of L1 L1i L2 L2i L3 L3i L4 L5)");
    expect_path("CPU", "CPU", "cache.l3.size_in_bytes",
                "unknown name 'l3' in 'CPU.cache'; did you mean 'L3'?");
    expect_path("CPU", "CPU", "cpu_kinds.a",
                "unknown name 'a' in 'CPU.cpu_kinds' (numbers: 0, 1, ...)");
    expect_path("CPU", "CPU", "cache.L1.size_in_byte",
                "unknown key 'size_in_byte' in 'CPU.cache.L1'; did you mean 'size_in_bytes'?");
    /* without a device id: no leading '.' */
    expect_path("CPU", NULL, "cache.L7",
                "unknown name 'L7' in 'cache' (one of L1 L1i L2 L2i L3 L3i L4 L5)");
    expect_path("CPU", NULL, "rack_position",
                "unknown key 'rack_position' in 'CPU' (docs/keys.md lists the keys; put your "
                "own under 'extra')");
    expect_path(NULL, NULL, "rack_position",
                "unknown key 'rack_position' in 'the device' (docs/keys.md lists the keys; "
                "put your own under 'extra')");
    /* the other device type's keys */
    expect_path("CPU", "CPU", "num_compute_units",
                "'CPU.num_compute_units' is a GPU/ACCEL key, not a CPU key; did you mean "
                "'num_cores'?");
    expect_path("GPU", "GPU0", "memory.total_in_bytes",
                "'GPU0.memory' is a CPU key, not a GPU key; did you mean "
                "'memory_size_in_bytes'?");
    expect_path("GPU", NULL, "cache.L1",
                "'cache' is a CPU key, not a GPU key");
    /* an accelerator's: the GPU's twin where it shares the meaning */
    expect_path("ACCEL", "ACCEL0", "peak_ops_per_second.bf16_matrix", NULL);
    expect_path("ACCEL", "ACCEL0", "max_frequency_mhz",
                "'ACCEL0.max_frequency_mhz' is a CPU key, not an ACCEL key; did you mean "
                "'max_clock_in_mhz'?");
    expect_path("ACCEL", "ACCEL0", "max_threads_per_block",
                "'ACCEL0.max_threads_per_block' is a GPU key, not an ACCEL key");
    expect_path("GPU", "GPU0", "num_matrix_engines",
                "'GPU0.num_matrix_engines' is an ACCEL key, not a GPU key");
    /* more than one guess */
    expect_path("GPU", "GPU0", "peak_ops_per_second.fp32",
                "unknown key 'fp32' in 'GPU0.peak_ops_per_second'; did you mean "
                "'fp32_vector' or 'fp32_matrix'?");
    expect_path("GPU", "GPU0", "fp8_matrix",
                "unknown key 'fp8_matrix' in 'GPU0'; did you mean "
                "'peak_ops_per_second.fp8_matrix' or 'peak_sparse_ops_per_second.fp8_matrix'?");
    /* a leaf has no keys under it */
    expect_path("CPU", "CPU", "num_cores.x",
                "unknown key 'x' in 'CPU.num_cores' (docs/keys.md lists the keys; put your "
                "own under 'extra')");
    dlti_error_t err;
    assert_int_equal(sysdesc_schema_check_path("CPU", "CPU", NULL, &err), -1);
    assert_int_equal(sysdesc_schema_check_path("CPU", "CPU", "x", NULL), -1);
}

/* ---- counting and the stop protocol ---- */

static void counts_every_problem(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load_raw(ctx, three);
    /* counted without a report function */
    assert_int_equal(sysdesc_system_check(&sys, 0, "x.yaml", NULL, NULL), 3);
    /* every problem reported, named by the source, without a line: the
     * mistakes VERIFY, the key the schema does not know UNSUPPORTED */
    seen s = {0};
    assert_int_equal(sysdesc_system_check(&sys, 0, "x.yaml", keep, &s), 3);
    assert_int_equal(s.n, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s.p[i].code, i == 1 ? DLTI_ERROR_UNSUPPORTED : DLTI_ERROR_VERIFY);
        assert_string_equal(s.p[i].source, "x.yaml");
        assert_int_equal(s.p[i].line, 0);
    }
    assert_string_equal(s.p[0].text, three_first);
    assert_string_equal(s.p[1].text,
                        "unknown key 'num_compute_unit' in 'GPU'; did you mean "
                        "'num_compute_units'?");
    assert_string_equal(s.p[2].text,
                        "'GPU.max_shared_memory_per_block_in_bytes' (1024) is below "
                        "'shared_memory_per_block_in_bytes' (49152): the opt-in limit is at "
                        "least the default");
    /* located in the text it came from */
    memset(&s, 0, sizeof(s));
    assert_int_equal(sysdesc_system_check_located(&sys, 0, three, strlen(three), "x.yaml",
                                                  keep, &s),
                     3);
    assert_int_equal(s.p[0].line, 3);
    assert_int_equal(s.p[0].column, 3);
    assert_int_equal(s.p[1].line, 4);
    assert_int_equal(s.p[2].line, 5);
    /* a fragment: no relations */
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_PARTIAL, NULL, NULL, NULL), 2);
    dlti_context_free(ctx);
}

/* The rules between keys read each device's own values, whatever the
 * schema's size: every top-level key of the schema, set in one device and
 * a value that breaks a rule in the next, is seen as the next device's
 * (an index past 255 once kept the first device's value). */
static void rules_read_each_device(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    const char *text = "A:\n  device_type: GPU\n  L2_cache_size_in_bytes: 4194304\n"
                       "  last_level_cache_size_in_bytes: 8388608\n"
                       "B:\n  device_type: GPU\n  L2_cache_size_in_bytes: 52428800\n"
                       "  last_level_cache_size_in_bytes: 52428800\n"
                       "C:\n  device_type: GPU\n  L2_cache_size_in_bytes: 52428800\n"
                       "  last_level_cache_size_in_bytes: 4194304\n";
    sysdesc_system sys = load_raw(ctx, text);
    seen s = {0};
    assert_int_equal(sysdesc_system_check(&sys, 0, "x.yaml", keep, &s), 1);
    assert_string_equal(s.p[0].text, "'C.last_level_cache_size_in_bytes' (4194304) is below "
                                     "'L2_cache_size_in_bytes' (52428800): the last level is "
                                     "the largest");
    dlti_context_free(ctx);
}

static void report_stops_the_check(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load_raw(ctx, three);
    /* non-zero from the first report: nothing more is reported or counted */
    seen s = {.stop_after = 1};
    assert_int_equal(sysdesc_system_check(&sys, 0, "x.yaml", keep, &s), 1);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.p[0].text, three_first);
    s = (seen){.stop_after = 2};
    assert_int_equal(sysdesc_system_check(&sys, 0, "x.yaml", keep, &s), 2);
    assert_int_equal(s.n, 2);
    /* the relation, found last, stops it too */
    s = (seen){.stop_after = 3};
    assert_int_equal(sysdesc_system_check(&sys, 0, "x.yaml", keep, &s), 3);
    assert_int_equal(s.n, 3);
    /* the same through the located check and sysdesc_check_file() */
    s = (seen){.stop_after = 1};
    assert_int_equal(sysdesc_system_check_located(&sys, 0, three, strlen(three), "x.yaml",
                                                  keep, &s),
                     1);
    assert_int_equal(s.n, 1);
    char path[] = "/tmp/sysdesc-test-check.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(three, f);
    fclose(f);
    s = (seen){.stop_after = 2};
    assert_int_equal(sysdesc_check_file(ctx, path, NULL, 0, keep, &s), 2);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.p[1].line, 4);
    assert_string_equal(s.p[1].source, path);
    assert_int_equal(sysdesc_check_file(ctx, path, NULL, 0, NULL, NULL), 3);
    unlink(path);
    dlti_context_free(ctx);
}

static void not_a_system_spec(void **state)
{
    (void)state;
    sysdesc_system sys = {0};
    seen s = {0};
    assert_int_equal(sysdesc_system_check(&sys, 0, "none", keep, &s), 1);
    assert_string_equal(s.p[0].text, "not a #dlti.target_system_spec");
    assert_int_equal(sysdesc_system_check(NULL, 0, NULL, NULL, NULL), 1);
}

/* ---- the load ---- */

static void load_reports_the_first_problem(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    sysdesc_system sys;
    dlti_error_t err;
    assert_int_equal(sysdesc_yaml_load(ctx, three, strlen(three), "x.yaml", &opts, &sys, &err),
                     -1);
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_string_equal(err.source, "x.yaml");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 3);
    /* the unknown key is no reason to fail: it goes to opts.warn, located */
    char want[1024];
    snprintf(want, sizeof(want), "%s (and 1 more problem: `sysdesc check` lists them)",
             three_first);
    assert_string_equal(err.text, want);
    seen w = {0};
    opts.warn = keep;
    opts.warn_user = &w;
    assert_int_equal(sysdesc_yaml_load(ctx, three, strlen(three), "x.yaml", &opts, &sys, &err),
                     -1);
    assert_int_equal(w.n, 1);
    assert_int_equal(w.p[0].code, DLTI_ERROR_UNSUPPORTED);
    assert_int_equal(w.p[0].line, 4);
    assert_int_equal(w.p[0].column, 3);
    /* strict: it is one of the load's problems, in file order */
    opts.flags = SYSDESC_LOAD_STRICT;
    w.n = 0;
    assert_int_equal(sysdesc_yaml_load(ctx, three, strlen(three), "x.yaml", &opts, &sys, &err),
                     -1);
    assert_int_equal(w.n, 0);
    snprintf(want, sizeof(want), "%s (and 2 more problems: `sysdesc check` lists them)",
             three_first);
    assert_string_equal(err.text, want);
    static const char two[] = "GPU:\n  base: nvidia/h100-sxm\n  num_compute_unit: 84\n"
                              "  max_clock_in_mhz: -5\n";
    assert_int_equal(sysdesc_yaml_load(ctx, two, strlen(two), "y.yaml", &opts, &sys, &err), -1);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.text,
                        "unknown key 'num_compute_unit' in 'GPU'; did you mean "
                        "'num_compute_units'? (and 1 more problem: `sysdesc check` lists them)");
    /* a load whose only problems are unknown keys succeeds, warned */
    opts.flags = 0;
    static const char unknown[] = "GPU:\n  base: nvidia/h100-sxm\n  num_compute_unit: 84\n";
    w.n = 0;
    assert_int_equal(
        sysdesc_yaml_load(ctx, unknown, strlen(unknown), "u.yaml", &opts, &sys, &err), 0);
    assert_int_equal(w.n, 1);
    opts.flags = SYSDESC_LOAD_STRICT;
    assert_int_equal(
        sysdesc_yaml_load(ctx, unknown, strlen(unknown), "u.yaml", &opts, &sys, &err), -1);
    opts.flags = 0;
    opts.warn = NULL;
    /* one alone: no count */
    static const char one[] = "GPU:\n  base: nvidia/h100-sxm\n  max_clock_in_mhz: -5\n";
    assert_int_equal(sysdesc_yaml_load(ctx, one, strlen(one), "z.yaml", &opts, &sys, &err), -1);
    assert_string_equal(err.text, "'GPU.max_clock_in_mhz' must be at least 1, not -5");
    assert_int_equal(err.line, 3);
    /* a NULL error is allowed */
    assert_int_equal(sysdesc_yaml_load(ctx, one, strlen(one), "z.yaml", &opts, &sys, NULL), -1);
    dlti_context_free(ctx);
}

/* SYSDESC_LOAD_LENIENT (docs/checks.md, "Lenient transforms"): values of
 * another type kept, with a warning; a spec on an op found and named;
 * other DLTI loaded without a system spec and printed where it is held. */
static void lenient_load(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_yaml_options opts = {.search_path = CATALOG, .warn = keep};
    seen w = {0};
    opts.warn_user = &w;
    sysdesc_system sys;
    dlti_error_t err;
    /* the type goes to warn, kept as written; the relation still fails */
    opts.flags = SYSDESC_LOAD_LENIENT;
    assert_int_equal(sysdesc_yaml_load(ctx, three, strlen(three), "x.yaml", &opts, &sys, &err),
                     -1);
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_int_equal(err.line, 5);
    assert_int_equal(w.n, 2);
    assert_int_equal(w.p[0].code, DLTI_ERROR_TYPE);
    assert_int_equal(w.p[0].line, 3);
    char want[1024];
    snprintf(want, sizeof(want), "%s (kept as written)", three_first);
    assert_string_equal(w.p[0].text, want);
    static const char typed[] =
        "module attributes {dlti.target_system_spec = #dlti.target_system_spec<\"CPU\" = "
        "#dlti.target_device_spec<\"L3_cache_size_in_bytes\" = \"110100480\">>} {}\n";
    w.n = 0;
    assert_int_equal(sysdesc_system_parse(ctx, typed, strlen(typed), "t.mlir", &opts, &sys, &err), 0);
    assert_int_equal(w.n, 1);
    assert_int_equal(w.p[0].code, DLTI_ERROR_TYPE);
    const dlti_attr *dev = dlti_attr_entry_value(sys.spec, 0);
    assert_int_equal(dlti_attr_get_kind(dlti_attr_entry_value(dev, 0)), DLTI_ATTR_STRING);
    /* strict and the check: an error, as before */
    opts.flags = SYSDESC_LOAD_LENIENT | SYSDESC_LOAD_STRICT;
    assert_int_equal(sysdesc_system_parse(ctx, typed, strlen(typed), "t.mlir", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    opts.flags = 0;
    assert_int_equal(sysdesc_system_parse(ctx, typed, strlen(typed), "t.mlir", &opts, &sys, &err), -1);
    /* a spec on a function: found and named, or chosen by scope */
    static const char on_func[] =
        "module {\n  func.func @entry() attributes {dlti.target_system_spec = "
        "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"vendor\" = \"x\">>} {\n"
        "    return\n  }\n}\n";
    assert_int_equal(sysdesc_system_parse(ctx, on_func, strlen(on_func), "f.mlir", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_string_equal(err.text, "no #dlti.target_system_spec on the top module");
    opts.flags = SYSDESC_LOAD_LENIENT;
    w.n = 0;
    assert_int_equal(sysdesc_system_parse(ctx, on_func, strlen(on_func), "f.mlir", &opts, &sys, &err), 0);
    assert_non_null(sys.spec);
    assert_string_equal(dlti_scope_name(sys.module), "entry");
    assert_int_equal(w.n, 1);
    assert_int_equal(w.p[0].code, DLTI_ERROR_NOT_FOUND);
    assert_int_equal(w.p[0].line, 2);
    assert_non_null(strstr(w.p[0].text, "on func.func @entry (--scope entry)"));
    opts.flags = 0;
    opts.scope = "entry";
    w.n = 0;
    assert_int_equal(sysdesc_system_parse(ctx, on_func, strlen(on_func), "f.mlir", &opts, &sys, &err), 0);
    assert_int_equal(w.n, 0);
    opts.scope = "nope";
    assert_int_equal(sysdesc_system_parse(ctx, on_func, strlen(on_func), "f.mlir", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    /* YAML has no ops to name */
    assert_int_equal(sysdesc_yaml_load(ctx, three, strlen(three), "x.yaml", &opts, &sys, &err) +
                         sysdesc_system_parse(ctx, three, strlen(three), "x.yaml", &opts, &sys, &err),
                     -1 + -1);
    assert_int_equal(err.code, DLTI_ERROR_ARGUMENT);
    opts.scope = NULL;
    /* two: no guess */
    static const char two_funcs[] =
        "module {\n  func.func @a() attributes {dlti.target_system_spec = #dlti.target_system_spec<"
        "\"CPU\" = #dlti.target_device_spec<\"vendor\" = \"x\">>} {\n    return\n  }\n"
        "  func.func @b() attributes {dlti.target_system_spec = #dlti.target_system_spec<"
        "\"CPU\" = #dlti.target_device_spec<\"vendor\" = \"y\">>} {\n    return\n  }\n}\n";
    opts.flags = SYSDESC_LOAD_LENIENT;
    assert_int_equal(sysdesc_system_parse(ctx, two_funcs, strlen(two_funcs), "2.mlir", &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_non_null(strstr(err.text, "func.func @a (line 2, --scope a), func.func @b (line 5, --scope b)"));
    /* other DLTI: no system spec, printed where MLIR holds it */
    static const char map[] = "module attributes {mpi.dlti = #dlti.map<\"MPI:comm_world_rank\" = 3 : i32>} {}\n";
    assert_int_equal(sysdesc_system_parse(ctx, map, strlen(map), "m.mlir", &opts, &sys, &err), 0);
    assert_null(sys.spec);
    size_t len;
    char *text = sysdesc_system_print_checked(&sys, SYSDESC_FORMAT_MLIR, 0, &len, &err);
    assert_string_equal(text, "module attributes {mpi.dlti = #dlti.map<\"MPI:comm_world_rank\" = 3 : i32>} {\n}\n\n");
    free(text);
    text = sysdesc_system_print_checked(&sys, SYSDESC_FORMAT_ATTR, 0, &len, &err);
    assert_string_equal(text, "#dlti.map<\"MPI:comm_world_rank\" = 3 : i32>\n");
    free(text);
    assert_null(sysdesc_system_print_checked(&sys, SYSDESC_FORMAT_YAML, 0, &len, &err));
    assert_int_equal(err.code, DLTI_ERROR_UNSUPPORTED);
    /* the strict check has nothing to check there */
    opts.flags = 0;
    assert_int_equal(sysdesc_system_parse(ctx, map, strlen(map), "m.mlir", &opts, &sys, &err), -1);
    assert_string_equal(err.text, "no #dlti.target_system_spec on the top module");
    dlti_context_free(ctx);
}

static void no_check_loads_what_is_written(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load_raw(ctx, three);
    const char *keys[] = {"GPU", "num_compute_units"};
    dlti_key k[2] = {dlti_key_string(ctx, keys[0], 3), dlti_key_string(ctx, keys[1], 17)};
    const dlti_attr *v = dlti_attr_query(sys.spec, k, 2, NULL);
    assert_non_null(v);
    assert_int_equal(dlti_attr_get_kind(v), DLTI_ATTR_STRING);
    const char *s;
    size_t len;
    assert_int_equal(dlti_attr_get_string(v, &s, &len, NULL), 0);
    assert_int_equal(len, 2);
    assert_memory_equal(s, "84", 2);
    k[1] = dlti_key_string(ctx, "num_compute_unit", 16);
    assert_non_null(dlti_attr_query(sys.spec, k, 2, NULL));
    /* the same file through sysdesc_system_load(), MLIR too */
    char path[] = "/tmp/sysdesc-test-check.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("module attributes {dlti.target_system_spec = #dlti.target_system_spec<\"GPU\" = "
          "#dlti.target_device_spec<\"device_type\" = \"GPU\", \"num_compute_units\" = \"84\">>} "
          "{}\n",
          f);
    fclose(f);
    sysdesc_yaml_options opts = {0};
    dlti_error_t err;
    assert_int_equal(sysdesc_system_load(ctx, path, &opts, &sys, &err), -1);
    assert_int_equal(err.code, DLTI_ERROR_VERIFY);
    assert_int_equal(err.line, 1);
    opts.flags = SYSDESC_LOAD_NO_CHECK;
    if (sysdesc_system_load(ctx, path, &opts, &sys, &err) != 0)
        fail_msg("%s", err.text);
    assert_non_null(sys.spec);
    unlink(path);
    dlti_context_free(ctx);
}

/* ---- sysdesc_check_file ---- */

static void check_file_unreadable(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    seen s = {0};
    assert_int_equal(sysdesc_check_file(ctx, "/nonexistent/sysdesc/x.yaml", NULL, 0, keep, &s),
                     1);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_IO);
    assert_string_equal(s.p[0].source, "/nonexistent/sysdesc/x.yaml");
    assert_int_equal(sysdesc_check_file(ctx, "/nonexistent/sysdesc/x.yaml", NULL, 0, NULL, NULL),
                     1);
    /* a directory */
    s = (seen){0};
    assert_int_equal(sysdesc_check_file(ctx, SRCDIR "/systems", NULL, 0, keep, &s), 1);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_IO);
    /* an MLIR module without a system spec: one problem */
    char path[] = "/tmp/sysdesc-test-check.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("module {}\n", f);
    fclose(f);
    s = (seen){0};
    assert_int_equal(sysdesc_check_file(ctx, path, NULL, 0, keep, &s), 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_NOT_FOUND);
    unlink(path);
    /* a syntax error: the loader's error, located */
    fd = mkstemp((strcpy(path, "/tmp/sysdesc-test-check.XXXXXX"), path));
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("GPU:\n  device_type: GPU\n  model: [a\n", f);
    fclose(f);
    s = (seen){0};
    assert_int_equal(sysdesc_check_file(ctx, path, NULL, 0, keep, &s), 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_SYNTAX);
    assert_true(s.p[0].line > 0);
    unlink(path);
    dlti_context_free(ctx);
}

static void check_file_catalog_names(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_yaml_options opts = {0};
    opts.search_path = CATALOG;
    assert_int_equal(sysdesc_check_file(ctx, "nvidia/h100-sxm", &opts, 0, NULL, NULL), 0);
    assert_int_equal(
        sysdesc_check_file(ctx, "nvidia/h100-sxm", &opts, SYSDESC_CHECK_COMPLETE, NULL, NULL), 0);
    assert_int_equal(
        sysdesc_check_file(ctx, "nodes/dgx-h100", &opts, SYSDESC_CHECK_COMPLETE, NULL, NULL), 0);
    seen s = {0};
    assert_int_equal(sysdesc_check_file(ctx, "nvidia/none", &opts, 0, keep, &s), 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_NOT_FOUND); /* no such name, as a query's */
    dlti_context_free(ctx);
}

/* ---- required keys: complete descriptions, probed devices ---- */

static void required_keys(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys = load_raw(ctx, "GPU:\n  device_type: GPU\n  num_compute_units: 132\n");
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, NULL, NULL), 0);
    long want = 0;
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        want += (k->required & SYSDESC_DEVICE_GPU) && strcmp(k->path, "device_type") != 0 &&
                strcmp(k->path, "num_compute_units") != 0;
    }
    assert_true(want >= 10);
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_COMPLETE, NULL, NULL, NULL), want);
    /* required_if: a GPU that is no PCI device is not asked for PCI ids */
    sys = load_raw(ctx, "GPU:\n  device_type: GPU\n  num_compute_units: 10\n"
                        "  is_pci_device: false\n");
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_COMPLETE, NULL, NULL, NULL),
                     want - 2);
    sys = load_raw(ctx, "GPU:\n  device_type: GPU\n  num_compute_units: 10\n"
                        "  is_pci_device: true\n");
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_COMPLETE, NULL, NULL, NULL), want);
    /* a probed device (a source map) is not asked */
    sys = load_raw(ctx, "GPU0:\n  device_type: GPU\n  source: {num_compute_units: hwloc}\n");
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_COMPLETE, NULL, NULL, NULL), 0);
    /* a device whose id says its type needs no device_type; one whose id
     * does not is named (a fragment is not asked for it) */
    sys = load_raw(ctx, "CPU:\n  num_cores: 4\n");
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, NULL, NULL), 0);
    sys = load_raw(ctx, "class0.GPU3:\n  num_compute_units: 4\n  num_cores: 2\n");
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, NULL, NULL), 1); /* num_cores: a CPU key */
    sys = load_raw(ctx, "NPU0:\n  num_cores: 4\n");
    seen s = {0};
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, keep, &s), 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_UNSUPPORTED);
    assert_string_equal(s.p[0].text, "device 'NPU0' has no 'device_type' (CPU, GPU or ACCEL) "
                                     "and its id does not tell it: its keys are checked against "
                                     "every type");
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_PARTIAL, NULL, NULL, NULL), 0);
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_PARTIAL | SYSDESC_CHECK_COMPLETE,
                                          NULL, NULL, NULL),
                     0);
    dlti_context_free(ctx);
}

/* ---- accelerators that are no GPU (device_type ACCEL) ---- */

static void accel_devices(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    /* the id says the type, as "CPU" and "GPU3" do: ACCEL, ACCEL0, class0.ACCEL3 */
    static const char *const ids[] = {"ACCEL", "ACCEL0", "class0.ACCEL3"};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        char yaml[256];
        snprintf(yaml, sizeof(yaml), "%s:\n  num_compute_units: 24\n  num_matrix_engines: 2\n",
                 ids[i]);
        sysdesc_system sys = load_raw(ctx, yaml);
        if (sysdesc_system_check(&sys, 0, NULL, NULL, NULL) != 0)
            fail_msg("%s: an accelerator's keys refused", ids[i]);
        snprintf(yaml, sizeof(yaml), "%s:\n  num_cores: 2\n", ids[i]);
        sys = load_raw(ctx, yaml);
        seen s = {0};
        assert_int_equal(sysdesc_system_check(&sys, 0, NULL, keep, &s), 1);
        char want[256];
        snprintf(want, sizeof(want),
                 "'%s.num_cores' is a CPU key, not an ACCEL key; did you mean "
                 "'num_compute_units'?",
                 ids[i]);
        assert_string_equal(s.p[0].text, want);
    }
    /* a longer name is no type: "ACCELX" says nothing */
    sysdesc_system sys = load_raw(ctx, "ACCELX:\n  num_compute_units: 2\n");
    seen s = {0};
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, keep, &s), 1);
    assert_int_equal(s.p[0].code, DLTI_ERROR_UNSUPPORTED);
    /* a GPU's programming model is not an accelerator's */
    sys = load_raw(ctx, "X:\n  device_type: ACCEL\n  max_threads_per_block: 1024\n"
                        "  subgroup_sizes: [32]\n");
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, NULL, NULL), 2);
    /* the accelerator names other tools use point to ACCEL; "accel" is a mistake */
    static const struct { const char *type; int code; } near[] = {
        {"TPU", DLTI_ERROR_UNSUPPORTED}, {"hpu", DLTI_ERROR_UNSUPPORTED},
        {"NPU", DLTI_ERROR_UNSUPPORTED}, {"accel", DLTI_ERROR_VERIFY}};
    for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++) {
        char yaml[128];
        snprintf(yaml, sizeof(yaml), "X:\n  device_type: %s\n", near[i].type);
        sys = load_raw(ctx, yaml);
        seen t = {0};
        assert_int_equal(sysdesc_system_check(&sys, 0, NULL, keep, &t), 1);
        assert_int_equal(t.p[0].code, near[i].code);
        if (!strstr(t.p[0].text, "did you mean 'ACCEL'?"))
            fail_msg("%s: %s", near[i].type, t.p[0].text);
    }
    sys = load_raw(ctx, "X:\n  device_type: FPGA\n");
    memset(&s, 0, sizeof(s));
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, keep, &s), 1);
    assert_string_equal(s.p[0].text, "device 'X': unknown device_type 'FPGA' (CPU, GPU or ACCEL)");
    /* complete: what the table requires of an accelerator, every key of it */
    sys = load_raw(ctx, "ACCEL:\n  device_type: ACCEL\n  num_compute_units: 64\n");
    long want = 0;
    for (size_t i = 0; i < sysdesc_schema_size(); i++) {
        const sysdesc_schema_key *k = sysdesc_schema_key_at(i);
        want += (k->required & SYSDESC_DEVICE_ACCEL) && strcmp(k->path, "device_type") != 0 &&
                strcmp(k->path, "num_compute_units") != 0;
    }
    assert_true(want >= 6);
    memset(&s, 0, sizeof(s));
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_COMPLETE, NULL, keep, &s), want);
    /* each in the accelerator's words, not the GPU's */
    for (int i = 0; i < s.n && i < 16; i++)
        if (strstr(s.p[i].text, "'pci_vendor_id'") && !strstr(s.p[i].text, "0x1da3"))
            fail_msg("not the accelerator's meaning: %s", s.p[i].text);
    /* no PCI device, no PCI ids: not asked, and refused when given */
    sys = load_raw(ctx, "ACCEL:\n  device_type: ACCEL\n  num_compute_units: 64\n"
                        "  is_pci_device: false\n");
    assert_int_equal(sysdesc_system_check(&sys, SYSDESC_CHECK_COMPLETE, NULL, NULL, NULL),
                     want - 2);
    sys = load_raw(ctx, "ACCEL:\n  device_type: ACCEL\n  is_pci_device: false\n"
                        "  pci_vendor_id: 0x1da3\n");
    memset(&s, 0, sizeof(s));
    assert_int_equal(sysdesc_system_check(&sys, 0, NULL, keep, &s), 1);
    assert_string_equal(s.p[0].text, "device 'ACCEL' is no PCI device (is_pci_device: false): "
                                     "it has no 'pci_vendor_id'");
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_consistent),
        cmocka_unit_test(every_entry_is_found),
        cmocka_unit_test(find_concrete_paths),
        cmocka_unit_test(find_filters_by_device_type),
        cmocka_unit_test(check_path_messages),
        cmocka_unit_test(counts_every_problem),
        cmocka_unit_test(rules_read_each_device),
        cmocka_unit_test(report_stops_the_check),
        cmocka_unit_test(not_a_system_spec),
        cmocka_unit_test(load_reports_the_first_problem),
        cmocka_unit_test(lenient_load),
        cmocka_unit_test(no_check_loads_what_is_written),
        cmocka_unit_test(check_file_unreadable),
        cmocka_unit_test(check_file_catalog_names),
        cmocka_unit_test(required_keys),
        cmocka_unit_test(accel_devices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
