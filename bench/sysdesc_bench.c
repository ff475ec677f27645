/* sysdesc-bench: times sysdesc's parser, printer and queries with the same
 * arguments and output lines as ../shared/tools/mlir-peer, so both run side
 * by side on the same input.  Each figure is the median of 5 batches.
 *
 *   sysdesc-bench parse FILE ITERS
 *   sysdesc-bench print FILE ITERS
 *   sysdesc-bench query FILE ITERS KEY...
 */
#define _POSIX_C_SOURCE 200809L
#include "sysdesc/dlti.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 5

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, BATCHES, sizeof(double), cmp_double);
    return v[BATCHES / 2];
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *d = malloc(cap);
    size_t got;
    while (d && (got = fread(d + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nd = realloc(d, cap *= 2);
            if (!nd) {
                free(d);
                d = NULL;
            }
            d = nd;
        }
    }
    fclose(f);
    *len = n;
    return d;
}

/* Keeps the optimiser from discarding results. */
static volatile size_t sink;

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: sysdesc-bench parse|print|query FILE ITERS [KEY...]\n");
        return 2;
    }
    const char *mode = argv[1];
    size_t len;
    char *text = slurp(argv[2], &len);
    long iters = atol(argv[3]);
    if (!text || iters <= 0) {
        fprintf(stderr, "sysdesc-bench: cannot read %s or bad ITERS\n", argv[2]);
        return 2;
    }
    dlti_context *ctx = dlti_context_new();
    dlti_error_t err;
    const dlti_attr *attr = dlti_attr_parse(ctx, text, len, argv[2], &err);
    if (!attr) {
        char line[2048];
        dlti_error_format(&err, line, sizeof(line));
        fprintf(stderr, "%s\n", line);
        return 1;
    }
    double t[BATCHES];
    if (strcmp(mode, "parse") == 0) {
        /* Steady state, as MLIR's warm context: one context, reset between
         * parses so its memory is reused (dlti_context_reset). */
        dlti_context *c = dlti_context_new();
        for (int b = 0; b < BATCHES; b++) {
            double t0 = now_ns();
            for (long i = 0; i < iters; i++) {
                dlti_context_reset(c);
                const dlti_attr *a = dlti_attr_parse(c, text, len, NULL, NULL);
                if (!a)
                    return 1;
                sink += dlti_attr_size(a);
            }
            t[b] = (now_ns() - t0) / (double)iters;
        }
        dlti_context_free(c);
        double ns = median(t);
        printf("sysdesc parse: %.1f ns/op, %.1f MB/s (%zu bytes)\n", ns, (double)len / ns * 1e3,
               len);
        /* Cold: a fresh context for each parse, its memory new each time. */
        long cold = iters < 200 ? iters : 200;
        for (int b = 0; b < BATCHES; b++) {
            double t0 = now_ns();
            for (long i = 0; i < cold; i++) {
                dlti_context *fresh = dlti_context_new();
                if (!dlti_attr_parse(fresh, text, len, NULL, NULL))
                    return 1;
                dlti_context_free(fresh);
            }
            t[b] = (now_ns() - t0) / (double)cold;
        }
        printf("sysdesc parse cold (new context each): %.1f ns/op\n", median(t));
    } else if (strcmp(mode, "print") == 0) {
        size_t out_len = 0;
        for (int b = 0; b < BATCHES; b++) {
            double t0 = now_ns();
            for (long i = 0; i < iters; i++) {
                char *s = dlti_attr_print(attr, &out_len);
                sink += (size_t)s[0];
                free(s);
            }
            t[b] = (now_ns() - t0) / (double)iters;
        }
        double ns = median(t);
        printf("sysdesc print: %.1f ns/op, %.1f MB/s (%zu bytes)\n", ns, (double)out_len / ns * 1e3,
               out_len);
    } else if (strcmp(mode, "query") == 0) {
        int nk = argc - 4;
        const dlti_scope *scope = dlti_parse(ctx, text, len, argv[2], &err);
        if (!scope)
            return 1;
        const char **keys = (const char **)(argv + 4);
        const dlti_attr *r = dlti_query_strings(scope, keys, (size_t)nk, &err);
        if (!r) {
            printf("sysdesc query: not found (%s)\n", err.text);
        } else {
            char *s = dlti_attr_print(r, NULL);
            printf("sysdesc query result: %s\n", s);
            free(s);
        }
        long found = 0;
        for (int b = 0; b < BATCHES; b++) {
            found = 0;
            double t0 = now_ns();
            for (long i = 0; i < iters; i++)
                found += dlti_query_strings(scope, keys, (size_t)nk, NULL) != NULL;
            t[b] = (now_ns() - t0) / (double)iters;
        }
        printf("sysdesc query (string keys): %.1f ns/op (found %ld)\n", median(t), found);
        dlti_key handles[64];
        if (nk > 64)
            return 2;
        for (int k = 0; k < nk; k++)
            handles[k] = dlti_key_string(ctx, keys[k], strlen(keys[k]));
        for (int b = 0; b < BATCHES; b++) {
            found = 0;
            double t0 = now_ns();
            for (long i = 0; i < iters; i++)
                found += dlti_query(scope, handles, (size_t)nk, NULL) != NULL;
            t[b] = (now_ns() - t0) / (double)iters;
        }
        printf("sysdesc query (resolved keys): %.1f ns/op (found %ld)\n", median(t), found);
    } else {
        fprintf(stderr, "unknown mode\n");
        return 2;
    }
    dlti_context_free(ctx);
    free(text);
    return 0;
}
