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
#include <pthread.h>
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

/* The libraries' map of the one library `lib` as the runtimes record it
 * (rt_text.c, pb_rt_libraries): path = "inode:size:mtime"; its stat in *st. */
static const dlti_attr *libraries_of(dlti_context *ctx, const char *lib, struct stat *st)
{
    pb_map m;
    pb_init(&m);
    char id[96];
    assert_int_equal(stat(lib, st), 0);
    snprintf(id, sizeof(id), "%llu:%lld:%lld.%09ld", (unsigned long long)st->st_ino,
             (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
    pb_str(ctx, &m, lib, id);
    const dlti_attr *libs = pb_finish(ctx, &m, DLTI_ATTR_MAP, NULL);
    assert_non_null(libs);
    return libs;
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
    assert_true(dlti_watch_path(link1));
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

static void test_link_or_parent_changed_on_the_way(void **state)
{
    (void)state;
    /* In a directory of its own: `root` is watched by the tests before. */
    char iso[300], v1[320], v2[320], link[320], tmp_link[320], f[360];
    path_in(iso, sizeof(iso), "iso");
    assert_int_equal(mkdir(iso, 0700), 0);
    snprintf(v1, sizeof(v1), "%s/v1", iso);
    snprintf(v2, sizeof(v2), "%s/v2", iso);
    snprintf(link, sizeof(link), "%s/current", iso);
    snprintf(tmp_link, sizeof(tmp_link), "%s/current.new", iso);
    assert_int_equal(mkdir(v1, 0700), 0);
    assert_int_equal(mkdir(v2, 0700), 0);
    snprintf(f, sizeof(f), "%s/lib/libx.so", v1);
    char lib1[340], lib2[340];
    snprintf(lib1, sizeof(lib1), "%s/lib", v1);
    snprintf(lib2, sizeof(lib2), "%s/lib", v2);
    assert_int_equal(mkdir(lib1, 0700), 0);
    assert_int_equal(mkdir(lib2, 0700), 0);
    write_file(f, "1\n");
    snprintf(f, sizeof(f), "%s/lib/libx.so", v2);
    write_file(f, "2\n");
    assert_int_equal(symlink("v1", link), 0);
    /* A directory link in the middle of the path (/usr/local/cuda ->
     * cuda-12.x), retargeted atomically as update-alternatives does. */
    snprintf(f, sizeof(f), "%s/lib/libx.so", link);
    assert_true(dlti_watch_path(f));
    uint64_t g = dlti_watch_generation();
    assert_int_equal(symlink("v2", tmp_link), 0);
    assert_int_equal(rename(tmp_link, link), 0);
    uint64_t g1 = dlti_watch_generation();
    assert_int_not_equal(g1, g);
    /* A parent directory swapped for another. */
    snprintf(f, sizeof(f), "%s/lib/libx.so", v1);
    assert_true(dlti_watch_path(f));
    uint64_t g2 = dlti_watch_generation();
    char old[340];
    snprintf(old, sizeof(old), "%s/v1.old", iso);
    assert_int_equal(rename(v1, old), 0);
    assert_int_equal(rename(v2, v1), 0);
    assert_int_not_equal(dlti_watch_generation(), g2);
}

static void test_hard_linked_library_is_checked_every_time(void **state)
{
    (void)state;
    char lib[300], other_dir[300], other[320];
    path_in(lib, sizeof(lib), "liblinked.so.1");
    path_in(other_dir, sizeof(other_dir), "pkgs");
    snprintf(other, sizeof(other), "%s/liblinked.so.1", other_dir);
    write_file(lib, "ELF\n");
    assert_int_equal(mkdir(other_dir, 0700), 0);
    assert_int_equal(link(lib, other), 0); /* conda's pkgs/ cache, hard-linked */
    dlti_context *ctx = dlti_context_new();
    struct stat st;
    const dlti_attr *libs = libraries_of(ctx, lib, &st);
    assert_true(pb_rt_libraries_unchanged(libs));
    assert_true(pb_rt_libraries_unchanged(libs));
    /* Changed through the other name: no event in the library's directory. */
    struct timespec times[2] = {{0, UTIME_OMIT}, {st.st_mtim.tv_sec + 9, 0}};
    assert_int_equal(utimensat(AT_FDCWD, other, times, 0), 0);
    assert_false(pb_rt_libraries_unchanged(libs));
    dlti_context_free(ctx);
}

static volatile int reader_stop;

static void *reader(void *arg)
{
    (void)arg;
    char buf[4096];
    while (!reader_stop) {
        pb_key_read("/proc/self/cgroup", buf, sizeof(buf), NULL);
        dlti_watch_generation();
    }
    return NULL;
}

static void test_fork_while_another_thread_reads(void **state)
{
    (void)state;
    /* A thread inside the kept descriptors' or the watch's lock when
     * another forks (Python's multiprocessing while a thread probes): the
     * child must not wait on a lock no thread of its own holds. */
    pthread_t t;
    reader_stop = 0;
    assert_int_equal(pthread_create(&t, NULL, reader, NULL), 0);
    int bad = 0;
    for (int i = 0; i < 50; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            alarm(10); /* a deadlock ends here, as a failure */
            char buf[4096];
            int ok = pb_key_read("/proc/self/cgroup", buf, sizeof(buf), NULL) == 0;
            dlti_watch_generation();
            if (!ok)
                _exit(1);
            /* Ended by exec: a child that found a lock held drops what it
             * guarded, unfreed, which valgrind would count at its exit. */
            execl("/bin/true", "true", (char *)NULL);
            _exit(2);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        bad += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    reader_stop = 1;
    pthread_join(t, NULL);
    assert_int_equal(bad, 0);
}

static void test_unwatchable_filesystems(void **state)
{
    (void)state;
    /* procfs and sysfs report no changes through inotify: refused, so that
     * their callers keep reading them. */
    assert_false(dlti_watch_dir("/proc"));
    assert_false(dlti_watch_dir("/sys/devices/system/cpu"));
    assert_false(dlti_watch_dir("/nonexistent-sysdesc-dir"));
    assert_false(dlti_watch_path("relative/path"));
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
    struct stat st;
    const dlti_attr *libs = libraries_of(ctx, lib, &st);
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

/* The one entry of `dir` whose name starts with "host-", into `out`. */
static bool host_entry(const char *dir, char *out, size_t size)
{
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "ls '%s'/host-*.mlir 2>/dev/null | head -n 1", dir);
    FILE *p = popen(cmd, "r");
    bool ok = p && fgets(out, (int)size, p) != NULL;
    if (p)
        pclose(p);
    if (ok)
        out[strcspn(out, "\n")] = '\0';
    return ok;
}

static void test_host_stamp(void **state)
{
    (void)state;
    char cache[300], entry[700];
    path_in(cache, sizeof(cache), "cache");
    sysdesc_probe_options o;
    sysdesc_probe_options_init(&o);
    o.runtimes = SYSDESC_RUNTIME_NONE;
    o.cache_dir = cache;
    o.quiet = true;
    assert_null(sysdesc_probe_host_stamp(&o)); /* no entry yet: nothing to keep */
    dlti_context *ctx = dlti_context_new();
    assert_non_null(sysdesc_probe_host(ctx, &o, NULL)); /* writes the entry */
    char *s1 = sysdesc_probe_host_stamp(&o);
    char *s2 = sysdesc_probe_host_stamp(&o);
    assert_non_null(s1);
    assert_string_equal(s1, s2); /* nothing changed */
    dlti_watch_invalidate(); /* a check that could not watch */
    char *s3 = sysdesc_probe_host_stamp(&o);
    assert_string_not_equal(s3, s2);
    /* The entry rewritten (another process's --refresh-cache), then gone. */
    assert_true(host_entry(cache, entry, sizeof(entry)));
    o.cache = SYSDESC_PROBE_CACHE_REFRESH;
    assert_non_null(sysdesc_probe_host(ctx, &o, NULL));
    assert_null(sysdesc_probe_host_stamp(&o)); /* not kept by the cache: no stamp */
    o.cache = SYSDESC_PROBE_CACHE_AUTO;
    char *s4 = sysdesc_probe_host_stamp(&o);
    assert_non_null(s4);
    assert_string_not_equal(s4, s3);
    assert_int_equal(unlink(entry), 0);
    assert_null(sysdesc_probe_host_stamp(&o));
    /* A variable hwloc reads is in the key: another entry, none yet. */
    assert_non_null(sysdesc_probe_host(ctx, &o, NULL));
    char *s5 = sysdesc_probe_host_stamp(&o);
    setenv("HWLOC_SYSDESC_TEST", "1", 1);
    assert_null(sysdesc_probe_host_stamp(&o));
    unsetenv("HWLOC_SYSDESC_TEST");
    char *s6 = sysdesc_probe_host_stamp(&o);
    assert_non_null(s5);
    assert_string_equal(s5, s6);
    dlti_context_free(ctx);
    free(s1);
    free(s2);
    free(s3);
    free(s4);
    free(s5);
    free(s6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_changes_with_the_directory),
        cmocka_unit_test(test_missing_path_is_watched_through_its_ancestor),
        cmocka_unit_test(test_symlink_chain_is_watched_at_every_hop),
        cmocka_unit_test(test_link_or_parent_changed_on_the_way),
        cmocka_unit_test(test_hard_linked_library_is_checked_every_time),
        cmocka_unit_test(test_fork_while_another_thread_reads),
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
