/* Replays every committed fuzz input (fuzz/corpus/TARGET/ and
 * fuzz/regressions/TARGET/) through its target: crashers found by the
 * fuzzers stay fixed under the normal test suite and its sanitizers. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

#ifndef FUZZ_DIR
#error "FUZZ_DIR must name the fuzz/ folder"
#endif

static size_t replay_dir(const char *dir, int (*target)(const uint8_t *, size_t))
{
    DIR *d = opendir(dir);
    size_t count = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t *buf = malloc(1 << 20);
        assert_non_null(buf);
        size_t n = fread(buf, 1, 1 << 20, f);
        fclose(f);
        target(buf, n);
        free(buf);
        count++;
    }
    closedir(d);
    return count;
}

static void replay(const char *name, int (*target)(const uint8_t *, size_t))
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/corpus/%s", FUZZ_DIR, name);
    size_t n = replay_dir(dir, target);
    snprintf(dir, sizeof(dir), "%s/regressions/%s", FUZZ_DIR, name);
    n += replay_dir(dir, target);
    assert_true(n > 0); /* every target has committed inputs */
}

static void replay_mlir(void **state)
{
    (void)state;
    replay("mlir", sysdesc_fuzz_mlir);
}

static void replay_type(void **state)
{
    (void)state;
    replay("type", sysdesc_fuzz_type);
}

static void replay_query(void **state)
{
    (void)state;
    replay("query", sysdesc_fuzz_query);
}

static void replay_dl(void **state)
{
    (void)state;
    replay("dl", sysdesc_fuzz_dl);
}

static void replay_layout(void **state)
{
    (void)state;
    replay("layout", sysdesc_fuzz_layout);
}

static void replay_yaml(void **state)
{
    (void)state;
    replay("yaml", sysdesc_fuzz_yaml);
}

static void replay_formats(void **state)
{
    (void)state;
    replay("formats", sysdesc_fuzz_formats);
}

static void replay_json(void **state)
{
    (void)state;
    replay("json", sysdesc_fuzz_json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_mlir),
        cmocka_unit_test(replay_type),
        cmocka_unit_test(replay_query),
        cmocka_unit_test(replay_dl),
        cmocka_unit_test(replay_layout),
        cmocka_unit_test(replay_yaml),
        cmocka_unit_test(replay_formats),
        cmocka_unit_test(replay_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
