/* stream_ref: a plain STREAM-style triad, the reference that sysdesc
 * measure's triad is compared with (bench/measure_compare.py).  Built with
 * -O3 -march=native -fopenmp (bench/meson.build): the compiler vectorises
 * the loop as it likes, OpenMP runs it on OMP_NUM_THREADS threads (pinned
 * with OMP_PROC_BIND=true).  As STREAM: static-schedule parallel loops, the
 * arrays first touched by the threads that use them, the best of NTIMES,
 * 24 bytes an element counted, the result checked.
 *
 * usage: stream_ref [ELEMENTS_PER_ARRAY [NTIMES]]   (default 5592405, 20)
 * prints: triad_best_bytes_per_second=... threads=... elements=... */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5592405; /* 3 arrays = 128 MiB */
    int ntimes = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 1024 || n > (1L << 32) || ntimes < 2 || ntimes > 10000) {
        fprintf(stderr, "stream_ref: bad arguments\n");
        return 2;
    }
    double *a = aligned_alloc(64, ((size_t)n * sizeof(double) + 63) / 64 * 64);
    double *b = aligned_alloc(64, ((size_t)n * sizeof(double) + 63) / 64 * 64);
    double *c = aligned_alloc(64, ((size_t)n * sizeof(double) + 63) / 64 * 64);
    if (!a || !b || !c) {
        fprintf(stderr, "stream_ref: out of memory\n");
        return 3;
    }
    const double scalar = 3.0;
#pragma omp parallel for schedule(static)
    for (long j = 0; j < n; j++) {
        a[j] = 0.0;
        b[j] = (double)(j % 1024);
        c[j] = 2.0;
    }
    double best = INFINITY;
    for (int k = 0; k < ntimes; k++) {
        double t = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long j = 0; j < n; j++)
            a[j] = b[j] + scalar * c[j];
        t = omp_get_wtime() - t;
        if (k > 0 && t < best) /* the first run warms up, as STREAM skips it */
            best = t;
    }
    for (long j = 0; j < n; j++)
        if (a[j] != b[j] + 6.0) {
            fprintf(stderr, "stream_ref: a[%ld] = %g, expected %g\n", j, a[j], b[j] + 6.0);
            return 1;
        }
    printf("triad_best_bytes_per_second=%.0f threads=%d elements=%ld\n",
           24.0 * (double)n / best, omp_get_max_threads(), n);
    free(a);
    free(b);
    free(c);
    return 0;
}
