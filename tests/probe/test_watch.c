/* What lets a cached host() skip its stat()s and reads safely (issue 15):
 * the change generations of watched directories (dlti/watch.c), the kept
 * descriptors of the key's kernel files (probe/key_read.c), and the checks
 * built on them: the runtimes' libraries (rt_text.c), the catalog's
 * fingerprint (sysdesc/catalog.c) and the stamp of a host probe
 * (sysdesc_probe_host_stamp).  Each test changes a file the way a user or
 * a package manager would and asserts that the change is seen; none of
 * them waits on time. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe_private.h"
#include "sysdesc/catalog.h"
#include "sysdesc/probe.h"

static char root[256];

static void path_in(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", root, name);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int make_root(void **state)
{
    (void)state;
    /* In /tmp or $TMPDIR: a local filesystem on the machines this runs on
     * (test_unwatchable_filesystems covers the others). */
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(root, sizeof(root), "%s/sysdesc-watch-XXXXXX", tmp);
    return mkdtemp(root) ? 0 : -1;
}

static int remove_root(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_generation_changes_with_the_directory(void **state)
{
    (void)state;
    char dir[300], file[320], other[300], moved[320];
    path_in(dir, sizeof(dir), "watched");
    path_in(other, sizeof(other), "unwatched");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(other, 0700), 0);
    snprintf(file, sizeof(file), "%s/a.yaml", dir);
    snprintf(moved, sizeof(moved), "%s/b.yaml", dir);
    assert_true(dlti_watch_dir(dir));
    uint64_t g = dlti_watch_generation();
    assert_int_equal(dlti_watch_generation(), g); /* nothing happened */

    write_file(file, "a\n"); /* created */
    uint64_t g1 = dlti_watch_generation();
    assert_int_not_equal(g1, g);

    char elsewhere[320];
    snprintf(elsewhere, sizeof(elsewhere), "%s/x", other);
    write_file(elsewhere, "x\n"); /* not watched: no change */
    assert_int_equal(dlti_watch_generation(), g1);

    FILE *f = fopen(file, "a"); /* written in place */
    fputs("more\n", f);
    fclose(f);
    uint64_t g2 = dlti_watch_generation();
    assert_int_not_equal(g2, g1);

    struct timespec times[2] = {{0, UTIME_OMIT}, {12345, 0}}; /* touched */
    assert_int_equal(utimensat(AT_FDCWD, file, times, 0), 0);
    uint64_t g3 = dlti_watch_generation();
    assert_int_not_equal(g3, g2);

    assert_int_equal(rename(file, moved), 0); /* renamed */
    uint64_t g4 = dlti_watch_generation();
    assert_int_not_equal(g4, g3);

    assert_int_equal(unlink(moved), 0); /* removed */
    uint64_t g5 = dlti_watch_generation();
    assert_int_not_equal(g5, g4);

    dlti_watch_invalidate();
    assert_int_not_equal(dlti_watch_generation(), g5);
}

static void test_missing_path_is_watched_through_its_ancestor(void **state)
{
    (void)state;
    char missing[300];
    path_in(missing, sizeof(missing), "later/deeper/systems");
    assert_true(dlti_watch_path(missing));
    uint64_t g = dlti_watch_generation();
    char later[300];
    path_in(later, sizeof(later), "later");
    assert_int_equal(mkdir(later, 0700), 0); /* the first step of its creation */
    assert_int_not_equal(dlti_watch_generation(), g);
}

static void test_symlink_chain_is_watched_at_every_hop(void **state)
{
    (void)state;
    char a[300], b[300], c[300], link1[320], link2[320], target[320];
    path_in(a, sizeof(a), "hop_a");
    path_in(b, sizeof(b), "hop_b");
    path_in(c, sizeof(c), "hop_c");
    assert_int_equal(mkdir(a, 0700), 0);
    assert_int_equal(mkdir(b, 0700), 0);
    assert_int_equal(mkdir(c, 0700), 0);
    snprintf(target, sizeof(target), "%s/libx.so.1.0", c);
    snprintf(link2, sizeof(link2), "%s/libx.so", b);
    snprintf(link1, sizeof(link1), "%s/libx.so.1", a);
    write_file(target, "ELF\n");
    assert_int_equal(symlink(target, link2), 0);
    assert_int_equal(symlink("../hop_b/libx.so", link1), 0); /* relative, as loaders' links are */
    assert_true(dlti_watch_path_dirs(link1));
    uint64_t g = dlti_watch_generation();
    FILE *f = fopen(target, "a"); /* the last hop's file, two directories away */
    fputs("new\n", f);
    fclose(f);
    uint64_t g1 = dlti_watch_generation();
    assert_int_not_equal(g1, g);
    assert_int_equal(unlink(link2), 0); /* the middle link retargeted */
    assert_int_equal(symlink("/nonexistent", link2), 0);
    assert_int_not_equal(dlti_watch_generation(), g1);
}

static void test_unwatchable_filesystems(void **state)
{
    (void)state;
    /* procfs and sysfs report no changes through inotify: refused, so that
     * their callers keep reading them. */
    assert_false(dlti_watch_dir("/proc"));
    assert_false(dlti_watch_dir("/sys/devices/system/cpu"));
    assert_false(dlti_watch_dir("/nonexistent-sysdesc-dir"));
    assert_false(dlti_watch_path_dirs("relative/path"));
}

static void test_forked_child_starts_over(void **state)
{
    (void)state;
    uint64_t g = dlti_watch_generation();
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        /* The inherited inotify queue is the parent's: the child's
         * generation must not be one the parent handed out. */
        uint64_t child = dlti_watch_generation();
        char ok = child != g && dlti_process_id() == getpid() ? 'y' : 'n';
        (void)!write(fds[1], &ok, 1);
        _exit(0);
    }
    char ok = 'n';
    assert_int_equal(read(fds[0], &ok, 1), 1);
    waitpid(pid, NULL, 0);
    close(fds[0]);
    close(fds[1]);
    assert_int_equal(ok, 'y');
    assert_int_equal(dlti_process_id(), getpid());
}

static void test_key_read_sees_new_content(void **state)
{
    (void)state;
    char file[300], buf[64];
    size_t len;
    path_in(file, sizeof(file), "key_file");
    write_file(file, "one\n");
    assert_int_equal(pb_key_read(file, buf, sizeof(buf), &len), 0);
    assert_string_equal(buf, "one\n");
    assert_int_equal(len, 4);
    write_file(file, "two, longer\n"); /* in place, through the kept descriptor */
    assert_int_equal(pb_key_read(file, buf, sizeof(buf), &len), 0);
    assert_string_equal(buf, "two, longer\n");
    /* A kernel file, twice: the same descriptor, read from its start. */
    char a[4096], b[4096];
    assert_int_equal(pb_key_read("/proc/self/cgroup", a, sizeof(a), NULL), 0);
    assert_int_equal(pb_key_read("/proc/self/cgroup", b, sizeof(b), NULL), 0);
    assert_string_equal(a, b);
    assert_true(strlen(a) > 0);
    /* Bigger than a page (if this machine's PCI list is): read whole. */
    size_t big = 0;
    char *whole = dlti_read_file("/proc/bus/pci/devices", 1u << 20, &big, NULL);
    if (whole && big + 1 < 120u << 10) {
        char *mine = malloc(120u << 10);
        assert_int_equal(pb_key_read("/proc/bus/pci/devices", mine, 120u << 10, &len), 0);
        assert_int_equal(len, big);
        assert_memory_equal(mine, whole, big);
        free(mine);
    }
    free(whole);
}

static void test_key_read_sees_a_missing_file_appear(void **state)
{
    (void)state;
    char dir[300], file[320], buf[64];
    path_in(dir, sizeof(dir), "appears");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(file, sizeof(file), "%s/memory.max", dir);
    assert_int_equal(pb_key_read(file, buf, sizeof(buf), NULL), -1);
    assert_int_equal(pb_key_read(file, buf, sizeof(buf), NULL), -1); /* kept as missing */
    write_file(file, "max\n");
    assert_int_equal(pb_key_read(file, buf, sizeof(buf), NULL), 0);
    assert_string_equal(buf, "max\n");
    /* Replaced by another file at the same path: read afresh after the
     * removal (the kept descriptor names the old one). */
    assert_int_equal(unlink(file), 0);
    write_file(file, "12345\n");
    assert_int_equal(pb_key_read(file, buf, sizeof(buf), NULL), 0);
}

static void test_libraries_check_sees_a_changed_library(void **state)
{
    (void)state;
    char lib[300];
    path_in(lib, sizeof(lib), "libfake.so.1");
    write_file(lib, "ELF\n");
    dlti_context *ctx = dlti_context_new();
    /* The libraries' map as the runtimes record it (rt_text.c,
     * pb_rt_libraries): path = "inode:size:mtime". */
    pb_map m;
    pb_init(&m);
    char id[96];
    struct stat st;
    assert_int_equal(stat(lib, &st), 0);
    snprintf(id, sizeof(id), "%llu:%lld:%lld.%09ld", (unsigned long long)st.st_ino,
             (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    pb_str(ctx, &m, lib, id);
    const dlti_attr *libs = pb_finish(ctx, &m, DLTI_ATTR_MAP, NULL);
    assert_non_null(libs);
    assert_true(pb_rt_libraries_unchanged(libs));
    assert_true(pb_rt_libraries_unchanged(libs)); /* kept: no stat */
    struct timespec times[2] = {{0, UTIME_OMIT}, {st.st_mtim.tv_sec + 7, 0}};
    assert_int_equal(utimensat(AT_FDCWD, lib, times, 0), 0);
    assert_false(pb_rt_libraries_unchanged(libs));
    dlti_context_free(ctx);
}

static void test_catalog_fingerprint_sees_every_change(void **state)
{
    (void)state;
    char cat[300], sub[320], file[340];
    path_in(cat, sizeof(cat), "catalog");
    snprintf(sub, sizeof(sub), "%s/vendor", cat);
    snprintf(file, sizeof(file), "%s/gpu.yaml", sub);
    assert_int_equal(mkdir(cat, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_file(file, "a: 1\n");
    char *f1 = sysdesc_catalog_fingerprint(cat);
    char *f2 = sysdesc_catalog_fingerprint(cat);
    assert_string_equal(f1, f2);
    FILE *f = fopen(file, "a"); /* edited in place, in a subdirectory */
    fputs("b: 2\n", f);
    fclose(f);
    char *f3 = sysdesc_catalog_fingerprint(cat);
    assert_string_not_equal(f3, f2);
    char added[340];
    snprintf(added, sizeof(added), "%s/new.yaml", sub);
    write_file(added, "c: 3\n");
    char *f4 = sysdesc_catalog_fingerprint(cat);
    assert_string_not_equal(f4, f3);
    /* A search directory that does not exist yet, then does. */
    char path[700], later[320];
    path_in(later, sizeof(later), "catalog_later");
    snprintf(path, sizeof(path), "%s:%s", cat, later);
    char *f5 = sysdesc_catalog_fingerprint(path);
    assert_int_equal(mkdir(later, 0700), 0);
    char later_file[340];
    snprintf(later_file, sizeof(later_file), "%s/x.yaml", later);
    write_file(later_file, "d: 4\n");
    char *f6 = sysdesc_catalog_fingerprint(path);
    assert_string_not_equal(f6, f5);
    free(f1);
    free(f2);
    free(f3);
    free(f4);
    free(f5);
    free(f6);
}

static void test_host_stamp(void **state)
{
    (void)state;
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.runtimes = 0;
    char *s1 = sysdesc_probe_host_stamp(&o);
    char *s2 = sysdesc_probe_host_stamp(&o);
    assert_non_null(s1);
    assert_string_equal(s1, s2); /* nothing changed */
    setenv("HWLOC_SYSDESC_TEST", "1", 1); /* a variable hwloc reads: in the key */
    char *s3 = sysdesc_probe_host_stamp(&o);
    unsetenv("HWLOC_SYSDESC_TEST");
    assert_string_not_equal(s3, s1);
    dlti_watch_invalidate(); /* a check that could not watch */
    char *s4 = sysdesc_probe_host_stamp(&o);
    assert_string_not_equal(s4, s1);
    o.cache = SYSDESC_PROBE_CACHE_OFF; /* not kept by the cache: no stamp */
    assert_null(sysdesc_probe_host_stamp(&o));
    free(s1);
    free(s2);
    free(s3);
    free(s4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_changes_with_the_directory),
        cmocka_unit_test(test_missing_path_is_watched_through_its_ancestor),
        cmocka_unit_test(test_symlink_chain_is_watched_at_every_hop),
        cmocka_unit_test(test_unwatchable_filesystems),
        cmocka_unit_test(test_forked_child_starts_over),
        cmocka_unit_test(test_key_read_sees_new_content),
        cmocka_unit_test(test_key_read_sees_a_missing_file_appear),
        cmocka_unit_test(test_libraries_check_sees_a_changed_library),
        cmocka_unit_test(test_catalog_fingerprint_sees_every_change),
        cmocka_unit_test(test_host_stamp),
    };
    return cmocka_run_group_tests(tests, make_root, remove_root);
}
