/* Concurrent readers: 8 threads query one shared parsed spec for a while and
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

#define NTHREADS 8
#define NPATHS 4

static const char spec_text[] =
    "module attributes {dlti.target_system_spec = #dlti.target_system_spec<"
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

typedef struct shared {
    const dlti_scope *scope;
    const dlti_scope *inner;
    dlti_key handles[NPATHS][4];
    const dlti_attr *expected[NPATHS];
    const dlti_attr *expected_inner[NPATHS];
    double seconds;
} shared;

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
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, reader, &sh), 0);
    for (int i = 0; i < NTHREADS; i++) {
        void *r;
        assert_int_equal(pthread_join(t[i], &r), 0);
        assert_int_equal((intptr_t)r, 1);
    }
    dlti_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eight_readers_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
