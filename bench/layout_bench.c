/* Cost of data layout queries (nothing is cached: each one computes), in ns
 * per query, over a mix of builtin types in the x86_64 layout, and of one
 * 16-member LLVM struct.  Usage: sysdesc-layout-bench [ITERATIONS] */
#define _POSIX_C_SOURCE 199309L
#include "dlti_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static const char *const names[] = {
    "i1", "i8", "i17", "i32", "i64", "i128", "ui16", "index", "f16", "bf16", "f32", "f64", "f80",
    "f128", "vector<4xf32>", "vector<3x5xi17>", "vector<[4]xf64>", "complex<f32>", "complex<f80>",
    "!llvm.ptr", "!llvm.ptr<270>", "!llvm.ptr<3>", "vector<16xindex>", "complex<i64>",
};
#define NTYPES (sizeof(names) / sizeof(names[0]))

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 2000000;
    dlti_context *ctx = dlti_context_new();
    const dlti_target_dl *row = dlti_target_dl_find("x86_64-unknown-linux-gnu", NULL);
    dlti_error_t err;
    const dlti_attr *spec = dlti_llvm_dl_import(ctx, row->layout, strlen(row->layout), &err);
    const dlti_type *types[NTYPES];
    for (size_t i = 0; i < NTYPES; i++)
        types[i] = dlti_type_parse(ctx, names[i], strlen(names[i]), &err);
    dlti_layout *L = dlti_layout_from_spec(spec, &err);
    if (!L)
        return 1;
    volatile uint64_t sink = 0;
    dlti_type_layout r;
    for (size_t i = 0; i < NTYPES; i++)
        dlti_layout_query(L, types[i], &r, NULL);

    double t0 = now();
    for (long k = 0; k < iters; k++) {
        uint64_t v;
        dlti_layout_type_size(L, types[k % NTYPES], &v, NULL);
        sink += v;
    }
    double size_ns = (now() - t0) / (double)iters;
    t0 = now();
    for (long k = 0; k < iters; k++) {
        uint64_t v;
        dlti_layout_abi_alignment(L, types[k % NTYPES], &v, NULL);
        sink += v;
    }
    double align_ns = (now() - t0) / (double)iters;
    static const char strukt[] = "!llvm.struct<(i8, i32, f64, ptr, i16, f32, i64, i1, "
                                 "vector<4xf32>, i8, i128, f16, ptr, i32, f80, i64)>";
    const dlti_type *st = dlti_type_parse(ctx, strukt, strlen(strukt), &err);
    if (!st)
        return 1;
    long struct_iters = iters / 10 ? iters / 10 : 1;
    t0 = now();
    for (long k = 0; k < struct_iters; k++) {
        dlti_layout_query(L, st, &r, NULL);
        sink += r.size + r.abi_alignment;
    }
    double structs = (now() - t0) / (double)struct_iters;
    /* A fresh layout per query: building it dominates (MLIR's anti-pattern). */
    long fresh_iters = iters / 100 ? iters / 100 : 1;
    t0 = now();
    for (long k = 0; k < fresh_iters; k++) {
        dlti_layout *F = dlti_layout_from_spec(spec, NULL);
        dlti_layout_query(F, types[k % NTYPES], &r, NULL);
        sink += r.size;
        dlti_layout_free(F);
    }
    double fresh = (now() - t0) / (double)fresh_iters;
    printf("types: %zu, spec entries: %zu, iterations: %ld\n", (size_t)NTYPES, (size_t)spec->n, iters);
    printf("size query:               %8.1f ns\n", size_ns);
    printf("alignment query:          %8.1f ns\n", align_ns);
    printf("16-member struct query:   %8.1f ns\n", structs);
    printf("new layout + one query:   %8.1f ns\n", fresh);
    dlti_layout_free(L);
    dlti_context_free(ctx);
    return sink == 42 ? 2 : 0;
}
