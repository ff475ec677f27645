/* sysdesc-yaml-bench: loads a generated YAML system of N devices (default
 * 2000, about 2.7 MB) with sysdesc_yaml_load() and, in the same run,
 * parses the same bytes with a bare libyaml event loop; prints the medians of
 * RUNS runs of each, interleaved, and their ratios.  Target (issue 5): ratio
 * <= 1.5.
 *
 * Two figures for sysdesc:
 *   cold: a fresh dlti_context for every load (dlti_context_new before the
 *         clock starts, dlti_context_free after it stops): every attribute
 *         lands in memory the process has just obtained;
 *   warm: one context, dlti_context_reset() between loads (outside the
 *         clock): the steady state of a process that re-reads descriptions.
 *
 *   sysdesc-yaml-bench [N] [--runs R] [--write FILE]
 *   sysdesc-yaml-bench [N] --only libyaml|cold|warm [--runs R]   (for perf)
 */
#define _POSIX_C_SOURCE 200809L
#include "sysdesc/sysdesc.h"

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

/* One device of a realistic shape: scalars, tags, nested maps, arrays. */
static size_t device(char *out, size_t cap, int i)
{
    return (size_t)snprintf(out, cap,
        "GPU%d:\n"
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
        "  numa_node: !i32 %d\n  vector_type: !type vector<4xf32>\n"
        "  cache:\n    L1: {size_in_bytes: 262144, line_size_in_bytes: 128}\n"
        "    L2: {size_in_bytes: 52428800, line_size_in_bytes: 128}\n"
        "  peak_ops_per_second:\n    fp64_vector: 33.5e12\n    fp64_matrix: 66.9e12\n"
        "    fp32_vector: 66.9e12\n    tf32_matrix: 494.7e12\n    fp16_matrix: 989.4e12\n"
        "    bf16_matrix: 989.4e12\n    fp8_matrix: 1978.9e12\n    int8_matrix: 1978.9e12\n",
        i, i % 7, i % 256, i % 8);
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

static double sysdesc_load(dlti_context *ctx, const char *text, size_t len)
{
    sysdesc_system sys;
    dlti_error_t err;
    double t0 = now_s();
    if (sysdesc_yaml_load(ctx, text, len, "bench.yaml", NULL, &sys, &err) < 0) {
        fprintf(stderr, "%d:%d: %s\n", err.line, err.column, err.text);
        exit(1);
    }
    return now_s() - t0;
}

static double cold_load(const char *text, size_t len)
{
    dlti_context *ctx = dlti_context_new();
    double t = sysdesc_load(ctx, text, len);
    dlti_context_free(ctx);
    return t;
}

static double warm_load(dlti_context *ctx, const char *text, size_t len)
{
    if (dlti_context_reset(ctx) < 0) {
        fprintf(stderr, "dlti_context_reset failed\n");
        exit(1);
    }
    return sysdesc_load(ctx, text, len);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int n = 2000, runs = 11;
    const char *write = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--write") == 0 && i + 1 < argc)
            write = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else
            n = atoi(argv[i]);
    }
    if (runs < 1)
        runs = 1;
    size_t cap = (size_t)n * 2048 + 1, len = 0;
    char *text = malloc(cap);
    for (int i = 0; i < n; i++)
        len += device(text + len, cap - len, i);
    if (write) {
        FILE *f = fopen(write, "w");
        fwrite(text, 1, len, f);
        fclose(f);
    }
    double *a = calloc((size_t)runs, sizeof(double));
    double *c = calloc((size_t)runs, sizeof(double));
    double *w = calloc((size_t)runs, sizeof(double));
    size_t events = 0;
    dlti_context *ctx = dlti_context_new();
    /* Warm-up: the warm context reaches its steady size. */
    if (!only || strcmp(only, "warm") == 0)
        warm_load(ctx, text, len);
    for (int r = 0; r < runs; r++) {
        if (!only || strcmp(only, "libyaml") == 0)
            a[r] = bare_libyaml(text, len, &events);
        if (!only || strcmp(only, "cold") == 0)
            c[r] = cold_load(text, len);
        if (!only || strcmp(only, "warm") == 0)
            w[r] = warm_load(ctx, text, len);
    }
    dlti_context_free(ctx);
    double la = median(a, runs), lc = median(c, runs), lw = median(w, runs);
    printf("input: %d devices, %zu bytes, %zu libyaml events\n", n, len, events);
    printf("libyaml event parse:        %8.2f ms (median of %d)\n", la * 1e3, runs);
    printf("sysdesc_yaml_load, cold:    %8.2f ms (fresh context each load)\n", lc * 1e3);
    printf("sysdesc_yaml_load, warm:    %8.2f ms (one context, reset between loads)\n", lw * 1e3);
    if (!only) {
        printf("ratio cold: %.2fx (target <= 1.5x)\n", lc / la);
        printf("ratio warm: %.2fx (target <= 1.5x)\n", lw / la);
    }
    free(a);
    free(c);
    free(w);
    free(text);
    return 0;
}
