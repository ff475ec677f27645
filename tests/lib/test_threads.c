/* Concurrent readers: 8 threads query one shared parsed spec and one shared
 * data layout object (whose cache fills while they run) for a while and
 * must get exactly the single-threaded answers.  Run under ThreadSanitizer
 * by scripts/test-all (build-tsan). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sysdesc/dlti.h"
#include "sysdesc/layout.h"

#define NTHREADS 8
#define NPATHS 4

static const char spec_text[] =
    "module attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<[32, 64]> : vector<2xi64>, "
    "index = 32, \"dlti.endianness\" = \"big\">, "
    "dlti.target_system_spec = #dlti.target_system_spec<"
    "\"CPU\" = #dlti.target_device_spec<\"cache\" = #dlti.map<\"L1\" = #dlti.map<"
    "\"size_in_bytes\" = 32768>, \"L2\" = #dlti.map<\"size_in_bytes\" = 1048576>>, "
    "\"k0\" = 0, \"k1\" = 1, \"k2\" = 2, \"k3\" = 3, \"k4\" = 4, \"k5\" = 5, \"k6\" = 6, "
    "\"k7\" = 7, \"k8\" = 8, \"k9\" = 9>, "
    "\"GPU\" = #dlti.target_device_spec<\"num_sms\" = 132 : i32>>} {\n"
    "  module @inner attributes {dlti.map = #dlti.map<\"CPU\" = \"shadow\">} {\n  }\n}\n";

static const char *const paths[NPATHS][4] = {
    {"CPU", "cache", "L1", "size_in_bytes"},
    {"CPU", "k9", NULL, NULL},
    {"GPU", "num_sms", NULL, NULL},
    {"CPU", "cache", "L3", NULL}, /* not found */
};
static const size_t path_len[NPATHS] = {4, 2, 2, 3};

static const char *const type_names[] = {
    "i1", "i8", "i32", "i64", "i128", "index", "f16", "f32", "f64", "f80", "vector<3xi32>",
    "vector<4xf32>", "vector<[4]xf32>", "complex<f64>", "i7", "i65", "si16", "ui64",
};
#define NTYPES (sizeof(type_names) / sizeof(type_names[0]))

typedef struct shared {
    const dlti_scope *scope;
    const dlti_scope *inner;
    dlti_key handles[NPATHS][4];
    const dlti_attr *expected[NPATHS];
    const dlti_attr *expected_inner[NPATHS];
    const dlti_layout *layout;
    const dlti_type *types[NTYPES];
    dlti_type_layout expected_layout[NTYPES];
    double seconds;
} shared;

static bool same_layout(const dlti_type_layout *x, const dlti_type_layout *y)
{
    return x->size == y->size && x->bitsize == y->bitsize && x->abi_alignment == y->abi_alignment &&
           x->preferred_alignment == y->preferred_alignment &&
           x->index_bitwidth == y->index_bitwidth && x->scalable == y->scalable;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *reader(void *arg)
{
    const shared *sh = arg;
    long mismatches = 0, queries = 0;
    double end = now() + sh->seconds;
    while (now() < end) {
        for (int i = 0; i < NPATHS; i++) {
            dlti_error_t err;
            const dlti_attr *a = dlti_query_strings(sh->scope, paths[i], path_len[i], &err);
            const dlti_attr *b = dlti_query(sh->scope, sh->handles[i], path_len[i], &err);
            const dlti_attr *c = dlti_query_strings(sh->inner, paths[i], path_len[i], &err);
            char *text = a ? dlti_attr_print(a, NULL) : NULL; /* printing only reads too */
            free(text);
            mismatches += (a != sh->expected[i]) + (b != sh->expected[i]) +
                          (c != sh->expected_inner[i]);
            queries += 3;
        }
        for (size_t t = 0; t < NTYPES; t++) {
            dlti_type_layout r;
            mismatches += dlti_layout_query(sh->layout, sh->types[t], &r, NULL) != 0 ||
                          !same_layout(&r, &sh->expected_layout[t]);
        }
    }
    return (void *)(intptr_t)(mismatches ? -1 : queries > 0);
}

static void eight_readers_agree(void **state)
{
    (void)state;
    dlti_context *ctx = dlti_context_new();
    dlti_error_t err;
    shared sh = {.seconds = 1.0};
    sh.scope = dlti_parse(ctx, spec_text, strlen(spec_text), "threads", &err);
    assert_non_null(sh.scope);
    sh.inner = dlti_scope_find(sh.scope, "inner", &err);
    assert_non_null(sh.inner);
    for (int i = 0; i < NPATHS; i++) {
        for (size_t k = 0; k < path_len[i]; k++)
            sh.handles[i][k] = dlti_key_string(ctx, paths[i][k], strlen(paths[i][k]));
        sh.expected[i] = dlti_query_strings(sh.scope, paths[i], path_len[i], &err);
        sh.expected_inner[i] = dlti_query_strings(sh.inner, paths[i], path_len[i], &err);
    }
    assert_non_null(sh.expected[0]);
    assert_null(sh.expected[3]);
    /* The inner scope's "CPU" is a string: paths below it fail there. */
    assert_null(sh.expected_inner[0]);
    assert_non_null(sh.expected_inner[2]);
    /* The expected layouts come from a second layout object, so the shared
     * one starts with an empty cache and fills it under the readers. */
    dlti_layout *reference = dlti_layout_new(sh.scope, &err);
    dlti_layout *layout = dlti_layout_new(sh.scope, &err);
    assert_non_null(reference);
    assert_non_null(layout);
    sh.layout = layout;
    for (size_t t = 0; t < NTYPES; t++) {
        sh.types[t] = dlti_type_parse(ctx, type_names[t], strlen(type_names[t]), &err);
        assert_non_null(sh.types[t]);
        assert_int_equal(dlti_layout_query(reference, sh.types[t], &sh.expected_layout[t], &err), 0);
    }
    assert_int_equal(sh.expected_layout[2].abi_alignment, 4); /* i32 = [32, 64] */
    assert_int_equal(sh.expected_layout[2].preferred_alignment, 8);
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, reader, &sh), 0);
    for (int i = 0; i < NTHREADS; i++) {
        void *r;
        assert_int_equal(pthread_join(t[i], &r), 0);
        assert_int_equal((intptr_t)r, 1);
    }
    dlti_layout_free(layout);
    dlti_layout_free(reference);
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eight_readers_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
