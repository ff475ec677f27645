/* sysdesc-yaml-bench: loads a generated YAML system of N devices (default
 * 2000, about 2.8 MB, schema-valid: `sysdesc check` passes it) and, in the
 * same run, parses the same bytes with a bare libyaml event loop; prints the
 * medians of RUNS runs of each measure, interleaved, and their ratios to
 * libyaml's.  Targets: load <= 1.5x, the whole convert <= 1.5x.
 *
 *   (a) libyaml: yaml_parser_parse() until STREAM-END, nothing kept;
 *   (b) load, checked (the default: the device schema check ends the load),
 *       cold: a fresh dlti_context for every load (dlti_context_new before
 *             the clock starts, dlti_context_free after it stops);
 *       warm: one context, dlti_context_reset() between loads (outside the
 *             clock): the steady state of a process that re-reads files;
 *   (c) load, not checked (SYSDESC_LOAD_NO_CHECK), cold: (b) - (c) is the
 *       check's cost;
 *   (d) convert: what `sysdesc convert --to mlir FILE` does between reading
 *       the file and writing the output: a checked load into a fresh
 *       context and sysdesc_system_print(SYSDESC_FORMAT_MLIR), the text
 *       freed inside the clock.
 *
 *   sysdesc-yaml-bench [N] [--runs R] [--base NAME] [--write FILE]
 *   sysdesc-yaml-bench [N] --only libyaml|cold|warm|nocheck|convert [--runs R]   (for perf)
 *       --base NAME: every device names `base: NAME` first (a catalog entry,
 *       e.g. nvidia/arch/sm_90): one base merged into each device in place
 *   sysdesc-yaml-bench --parse-file FILE
 *       reads FILE and parses it once with the bare libyaml event loop: the
 *       minimal libyaml process that bench/cli_bench.py times beside
 *       `sysdesc convert --to mlir FILE`
 */
#define _POSIX_C_SOURCE 200809L
#include "sysdesc/sysdesc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>


static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One device of a realistic shape: scalars, tags, nested maps, arrays;
 * `base` (NULL: none) its first key. */
static size_t device(char *out, size_t cap, int i, const char *base)
{
    size_t head = (size_t)snprintf(out, cap, "GPU%d:\n", i);
    if (base)
        head += (size_t)snprintf(out + head, cap - head, "  base: %s\n", base);
    return head + (size_t)snprintf(out + head, cap - head,
        "  device_type: GPU\n  vendor: NVIDIA\n  model: H100 SXM5 80GB rev %d\n  arch: sm_90\n"
        "  compute_capability: \"9.0\"\n  form_factor: SXM5\n  pci_vendor_id: 0x10de\n"
        "  pci_device_ids: [0x2330]\n  pci_bus_id: \"0000:%02x:00.0\"\n  is_partition: false\n"
        "  tdp_in_watts: 700\n  num_compute_units: 132\n  compute_unit_name: SM\n"
        "  subgroup_sizes: [32]\n  max_threads_per_block: 1024\n"
        "  max_threads_per_compute_unit: 2048\n  max_blocks_per_compute_unit: 32\n"
        "  max_block_dims: [1024, 1024, 64]\n  max_grid_dims: [2147483647, 65535, 65535]\n"
        "  registers_per_compute_unit: 65536\n  registers_per_block: 65536\n"
        "  max_registers_per_thread: 255\n  shared_memory_per_block_in_bytes: 49152\n"
        "  max_shared_memory_per_block_in_bytes: 232448\n"
        "  shared_memory_per_compute_unit_in_bytes: 233472\n  L1_cache_size_in_bytes: 262144\n"
        "  L2_cache_size_in_bytes: 52428800\n  memory_type: HBM3\n"
        "  memory_size_in_bytes: 85899345920\n  memory_bus_width_in_bits: 5120\n"
        "  memory_bandwidth_in_bytes_per_second: 3350000000000\n  max_clock_in_mhz: 1980\n"
        "  extra:\n    numa_node: !i32 %d\n    vector_type: !type vector<4xf32>\n"
        "    cache:\n      L1: {size_in_bytes: 262144, line_size_in_bytes: 128}\n"
        "      L2: {size_in_bytes: 52428800, line_size_in_bytes: 128}\n"
        "  peak_ops_per_second:\n    fp64_vector: 33.5e12\n    fp64_matrix: 66.9e12\n"
        "    fp32_vector: 66.9e12\n    tf32_matrix: 494.7e12\n    fp16_matrix: 989.4e12\n"
        "    bf16_matrix: 989.4e12\n    fp8_matrix: 1978.9e12\n    int8_matrix: 1978.9e12\n",
        i % 7, i % 256, i % 8);
}

static double bare_libyaml(const char *text, size_t len, size_t *events)
{
    double t0 = now_s();
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    size_t n = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            fprintf(stderr, "libyaml error\n");
            exit(1);
        }
        int done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
        n++;
        if (done)
            break;
    }
    yaml_parser_delete(&p);
    *events = n;
    return now_s() - t0;
}

static double sysdesc_load(dlti_context *ctx, const char *text, size_t len, unsigned flags,
                           sysdesc_system *sys)
{
    sysdesc_yaml_options opts = {.flags = flags};
    dlti_error_t err;
    double t0 = now_s();
    if (sysdesc_yaml_load(ctx, text, len, "bench.yaml", &opts, sys, &err) < 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", err.source, err.line, err.column, err.text);
        exit(1);
    }
    return now_s() - t0;
}

static double cold_load(const char *text, size_t len, unsigned flags)
{
    sysdesc_system sys;
    dlti_context *ctx = dlti_context_new();
    double t = sysdesc_load(ctx, text, len, flags, &sys);
    dlti_context_free(ctx);
    return t;
}

static void reset(dlti_context *ctx)
{
    if (dlti_context_reset(ctx) < 0) {
        fprintf(stderr, "dlti_context_reset failed\n");
        exit(1);
    }
}

static double warm_load(dlti_context *ctx, const char *text, size_t len)
{
    sysdesc_system sys;
    reset(ctx);
    return sysdesc_load(ctx, text, len, 0, &sys);
}

/* What `sysdesc convert --to mlir FILE` does between reading the file and
 * writing the output: a fresh context, a checked load, the MLIR text. */
static double convert(const char *text, size_t len, size_t *out_len)
{
    dlti_context *ctx = dlti_context_new();
    sysdesc_system sys;
    double t0 = now_s();
    sysdesc_load(ctx, text, len, 0, &sys);
    char *mlir = sysdesc_system_print(&sys, SYSDESC_FORMAT_MLIR, 0, out_len);
    if (!mlir) {
        fprintf(stderr, "sysdesc_system_print failed\n");
        exit(1);
    }
    free(mlir);
    double t = now_s() - t0;
    dlti_context_free(ctx);
    return t;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { LIBYAML, COLD, WARM, NO_CHECK, CONVERT, NMEASURES };
static const char *const names[NMEASURES] = {"libyaml", "cold", "warm", "nocheck", "convert"};

/* --parse-file: what a process that only parses FILE with libyaml does. */
static int parse_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap)
            text = realloc(text, cap *= 2);
    }
    fclose(f);
    if (!text)
        return 1;
    size_t events;
    bare_libyaml(text, len, &events);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--parse-file") == 0)
        return parse_file(argv[2]);
    int n = 2000, runs = 11;
    const char *write = NULL, *only = NULL, *base = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--write") == 0 && i + 1 < argc)
            write = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--base") == 0 && i + 1 < argc)
            base = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else
            n = atoi(argv[i]);
    }
    if (runs < 1)
        runs = 1;
    bool on[NMEASURES];
    for (int m = 0; m < NMEASURES; m++)
        on[m] = !only || strcmp(only, names[m]) == 0;
    size_t cap = (size_t)n * 2048 + 1, len = 0;
    char *text = malloc(cap);
    for (int i = 0; i < n; i++)
        len += device(text + len, cap - len, i, base);
    if (write) {
        FILE *f = fopen(write, "w");
        if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
            perror(write);
            return 1;
        }
    }
    double *t[NMEASURES];
    for (int m = 0; m < NMEASURES; m++)
        t[m] = calloc((size_t)runs, sizeof(double));
    size_t events = 0, mlir_len = 0;
    dlti_context *ctx = dlti_context_new();
    /* Warm-up: the warm context reaches its steady size; the allocator and
     * the page cache see every path once. */
    if (on[WARM])
        warm_load(ctx, text, len);
    if (on[CONVERT])
        convert(text, len, &mlir_len);
    for (int r = 0; r < runs; r++) {
        if (on[LIBYAML])
            t[LIBYAML][r] = bare_libyaml(text, len, &events);
        if (on[COLD])
            t[COLD][r] = cold_load(text, len, 0);
        if (on[WARM])
            t[WARM][r] = warm_load(ctx, text, len);
        if (on[NO_CHECK])
            t[NO_CHECK][r] = cold_load(text, len, SYSDESC_LOAD_NO_CHECK);
        if (on[CONVERT])
            t[CONVERT][r] = convert(text, len, &mlir_len);
    }
    dlti_context_free(ctx);
    double med[NMEASURES];
    for (int m = 0; m < NMEASURES; m++)
        med[m] = median(t[m], runs);
    static const char *const what[NMEASURES] = {
        "(a) libyaml event parse",
        "(b) load, checked, cold",
        "(b) load, checked, warm",
        "(c) load, not checked",
        "(d) convert --to mlir",
    };
    static const char *const how[NMEASURES] = {
        "yaml_parser_parse until STREAM-END",
        "fresh context each load",
        "one context, reset between loads",
        "SYSDESC_LOAD_NO_CHECK, fresh context",
        "fresh context, checked load + sysdesc_system_print(MLIR)",
    };
    printf("input: %d devices, %zu bytes, %zu libyaml events; MLIR output %zu bytes\n", n, len,
           events, mlir_len);
    printf("medians of %d interleaved runs:\n", runs);
    for (int m = 0; m < NMEASURES; m++) {
        if (!on[m])
            continue;
        printf("%-26s %8.2f ms", what[m], med[m] * 1e3);
        if (on[LIBYAML] && m != LIBYAML)
            printf("  %.2fx", med[m] / med[LIBYAML]);
        printf("  (%s)\n", how[m]);
    }
    if (on[COLD] && on[NO_CHECK])
        printf("the check: %.2f ms (cold checked - not checked)\n",
               (med[COLD] - med[NO_CHECK]) * 1e3);
    if (!only)
        printf("targets: load <= 1.5x, whole convert <= 1.5x\n");
    for (int m = 0; m < NMEASURES; m++)
        free(t[m]);
    free(text);
    return 0;
}
