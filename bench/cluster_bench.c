/*
 * cluster-bench: `probe --xml` of many node files (sysdesc_probe_xml_files:
 * node classes) against hwloc loading the same files alone
 * (hwloc_topology_init + set_xml + load + destroy per file, with the
 * probe's filters: I/O important, instruction caches, disallowed PUs).
 * Runs are interleaved (A B C A B C ...) so drift hits all; prints medians
 * of CPU time per run over REPEATS.
 *
 *   build/bench/cluster-bench LIST [REPEATS]   (LIST: one XML path a line; default 7 repeats)
 *
 * hwloc loads its plugins when the first topology of a process is created
 * and unloads them with the last: the plain loop pays that per file, the
 * "plugins kept" loop holds one empty topology as the cluster builder does.
 * Target: --xml within 1.5x of hwloc alone.
 */
#define _POSIX_C_SOURCE 200809L
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sysdesc/dlti.h"
#include "sysdesc/probe.h"

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int hwloc_alone(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        hwloc_topology_t t;
        if (hwloc_topology_init(&t) != 0)
            return -1;
        hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
        hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
        hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
        int rc = hwloc_topology_set_xml(t, paths[i]) == 0 ? hwloc_topology_load(t) : -1;
        hwloc_topology_destroy(t);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int hwloc_plugins_kept(char **paths, size_t n)
{
    hwloc_topology_t keep;
    if (hwloc_topology_init(&keep) != 0)
        return -1;
    int rc = hwloc_alone(paths, n);
    hwloc_topology_destroy(keep);
    return rc;
}

static int sysdesc_xml(char **paths, size_t n)
{
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.quiet = true;
    dlti_error_t err;
    const dlti_attr *spec = sysdesc_probe_xml_files(ctx, (const char *const *)paths, n, &o, &err);
    char *text = spec ? dlti_attr_print(spec, NULL) : NULL; /* what probe -o writes */
    int rc = text ? 0 : -1;
    if (!spec)
        fprintf(stderr, "cluster-bench: %s: %s\n", err.source, err.text);
    free(text);
    dlti_context_free(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cluster-bench LIST [REPEATS]\n");
        return 2;
    }
    int repeats = argc > 2 ? atoi(argv[2]) : 7;
    if (repeats < 1 || repeats > 1000)
        repeats = 7;
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t n = 0, cap = 0;
    char **paths = NULL, line[4096];
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!*line)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            char **p = realloc(paths, cap * sizeof(*p));
            if (!p)
                return 3;
            paths = p;
        }
        if (!(paths[n++] = strdup(line)))
            return 3;
    }
    fclose(f);
    struct {
        const char *name;
        int (*run)(char **, size_t);
        double *ms;
    } runs[] = {{"hwloc alone (plain loop)", hwloc_alone, NULL},
                {"hwloc alone (plugins kept)", hwloc_plugins_kept, NULL},
                {"sysdesc probe --xml (classes)", sysdesc_xml, NULL}};
    enum { NRUNS = sizeof(runs) / sizeof(runs[0]) };
    for (int k = 0; k < NRUNS; k++)
        if (!(runs[k].ms = calloc((size_t)repeats, sizeof(double))))
            return 3;
    for (int r = 0; r < repeats; r++)
        for (int k = 0; k < NRUNS; k++) {
            double t0 = cpu_ms();
            if (runs[k].run(paths, n) != 0) {
                fprintf(stderr, "cluster-bench: %s failed\n", runs[k].name);
                return 1;
            }
            runs[k].ms[r] = cpu_ms() - t0;
        }
    double med[NRUNS];
    printf("%zu files, %d repeats, median CPU time per run:\n", n, repeats);
    for (int k = 0; k < NRUNS; k++) {
        med[k] = median(runs[k].ms, repeats);
        printf("  %-32s %9.1f ms  (%.1f us per file)\n", runs[k].name, med[k], med[k] * 1e3 / (double)n);
    }
    printf("  sysdesc / hwloc plain loop:   %.2fx\n", med[2] / med[0]);
    printf("  sysdesc / hwloc plugins kept: %.2fx\n", med[2] / med[1]);
    for (int k = 0; k < NRUNS; k++)
        free(runs[k].ms);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    return 0;
}
