/*
 * probe-bench: the whole sysdesc_probe_host() (CPU spec, no I/O) against
 * hwloc_topology_init + load + destroy alone, on the same machine in one run.
 * Runs are interleaved (A B A B ...) so drift hits both; prints medians.
 *
 *   build/bench/probe-bench [REPEATS]       (default 200; PROBE_BENCH_WALL=1 for wall time)
 *
 * Target: the probe adds at most 10% to hwloc's load time.
 * Also reports the probe with I/O discovery and the hwloc load with I/O.
 */
#define _POSIX_C_SOURCE 200809L
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sysdesc/dlti.h"
#include "sysdesc/probe.h"

/* CPU time of this process by default: the machine this was written on is
 * shared and its wall-clock times swing by 2x; PROBE_BENCH_WALL=1 switches
 * to wall-clock time. */
static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
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

static double time_hwloc(int io)
{
    double t0 = now_us();
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    if (io == 2) { /* the settings the probe loads with */
        hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
        hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    } else if (io)
        hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    hwloc_topology_load(t);
    hwloc_topology_destroy(t);
    return now_us() - t0;
}

static double time_probe(int io)
{
    double t0 = now_us();
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.quiet = 1;
    o.io = io ? SYSDESC_PROBE_IO_ON : SYSDESC_PROBE_IO_OFF;
    /* hwloc's load against the probe's own code: the vendor runtimes have
     * their own bench (bench/runtimes_bench.py). */
    o.runtimes = SYSDESC_RUNTIME_NONE;
    const dlti_attr *s = sysdesc_probe_host(ctx, &o, NULL);
    if (!s) {
        fprintf(stderr, "probe failed\n");
        exit(1);
    }
    dlti_context_free(ctx);
    return now_us() - t0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (getenv("PROBE_BENCH_WALL") && atoi(getenv("PROBE_BENCH_WALL")))
        clock_id = CLOCK_MONOTONIC;
    if (n < 3)
        n = 3;
    double *h = malloc(sizeof(double) * (size_t)n), *p = malloc(sizeof(double) * (size_t)n);
    double *hs = malloc(sizeof(double) * (size_t)n);
    double *hio = malloc(sizeof(double) * (size_t)n), *pio = malloc(sizeof(double) * (size_t)n);
    if (!h || !p || !hio || !pio)
        return 1;
    for (int i = 0; i < 5; i++) /* warm up caches, page in plugins */
        time_hwloc(0), time_probe(0);
    for (int i = 0; i < n; i++) {
        h[i] = time_hwloc(0);
        p[i] = time_probe(0);
        hs[i] = time_hwloc(2);
    }
    int nio = n / 4 > 3 ? n / 4 : 3;
    for (int i = 0; i < nio; i++) {
        hio[i] = time_hwloc(1);
        pio[i] = time_probe(1);
    }
    double mhs = median(hs, n);
    double mh = median(h, n), mp = median(p, n), mhio = median(hio, nio), mpio = median(pio, nio);
    printf("hwloc %s, %d repeats (I/O: %d), %s time medians\n", sysdesc_probe_hwloc_version(), n,
           nio, clock_id == CLOCK_MONOTONIC ? "wall-clock" : "process CPU");
    printf("hwloc_topology_init+load+destroy   median %9.1f us\n", mh);
    printf("sysdesc_probe_host (no I/O)        median %9.1f us  (+%.1f%%)\n", mp,
           100.0 * (mp - mh) / mh);
    printf("hwloc load with the probe's settings median %7.1f us  (icache kept, disallowed "
           "included)\n", mhs);
    printf("  => the probe's own code costs ~%.1f us\n", mp - mhs);
    printf("hwloc load with I/O                median %9.1f us\n", mhio);
    printf("sysdesc_probe_host --io            median %9.1f us  (+%.1f%% over hwloc with I/O)\n",
           mpio, 100.0 * (mpio - mhio) / mhio);
    printf("target: probe <= 110%% of hwloc's load without I/O: %s\n",
           mp <= 1.10 * mh ? "met" : "NOT met");
    free(h), free(p), free(hs), free(hio), free(pio);
    return 0;
}
