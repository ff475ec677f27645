/* Change generations of watched directories: what lets a process trust a
 * stat() it made earlier without making it again.
 *
 * host() from the whole-result cache spent most of its time on system
 * calls that ask "is this file still the one I saw?": a stat of every
 * catalog file (the fingerprint, sysdesc/catalog.c) and of every library
 * the runtimes loaded (probe/rt_cache.c).  A directory watched here (Linux
 * inotify, on a local filesystem) reports any entry created, removed,
 * renamed, written or whose attributes changed; each report bumps the
 * generation.  A caller that read generation G, then stat()ed what it
 * depends on, may reuse what it saw for as long as the generation is still
 * G: a change after the read of G makes it differ.
 *
 * Where a directory cannot be watched (another OS, inotify unavailable or
 * out of watches, a network or FUSE filesystem, whose changes made
 * elsewhere inotify does not see) dlti_watch_dir() says so and the caller
 * keeps stat()ing.  A forked child starts over: its inherited inotify
 * descriptor is its parent's queue, whose events are not its own to take. */
#define _GNU_SOURCE
#include "dlti_private.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* getpid() is a system call (glibc no longer caches it), and the caches
 * that ask it ask on every read: it is kept, and forgotten in a forked
 * child (fork() runs the handler; a vfork()ed child only execs). */
static _Atomic pid_t process_id;
static pthread_once_t process_once = PTHREAD_ONCE_INIT;

static void forget_process_id(void)
{
    process_id = 0;
}

static void register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, forget_process_id);
}

pid_t dlti_process_id(void)
{
    pthread_once(&process_once, register_fork_handler);
    pid_t pid = process_id;
    if (!pid)
        process_id = pid = getpid();
    return pid;
}

#if defined(__linux__)
#include <errno.h>
#include <sys/inotify.h>
#include <sys/vfs.h>

#define WATCH_EVENTS                                                                    \
    (IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MODIFY | \
     IN_MOVE_SELF | IN_MOVED_FROM | IN_MOVED_TO)

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static int watch_fd = -1;
static pid_t watch_pid;
static uint64_t watch_gen = 1;

/* Filesystems whose every change goes through this kernel (statfs(2)'s
 * f_type): inotify sees them all. */
static bool local_filesystem(const char *dir)
{
    struct statfs fs;
    if (statfs(dir, &fs) != 0)
        return false;
    switch ((unsigned long)fs.f_type) {
    case 0xEF53UL:     /* ext2/3/4 */
    case 0x58465342UL: /* xfs */
    case 0x9123683EUL: /* btrfs */
    case 0x01021994UL: /* tmpfs */
    case 0x794C7630UL: /* overlayfs (a container's layers below are read-only) */
    case 0x2FC12FC1UL: /* zfs */
    case 0xF2F52010UL: /* f2fs */
    case 0x73717368UL: /* squashfs (read-only) */
        return true;
    default:
        return false;
    }
}

/* The descriptor of this process (not of a parent that forked it); with
 * the lock held. */
static int watch_descriptor(void)
{
    pid_t pid = dlti_process_id();
    if (watch_fd >= 0 && watch_pid != pid) {
        close(watch_fd); /* the child's copy; the parent's queue stays */
        watch_fd = -1;
        watch_gen++;
    }
    if (watch_fd < 0) {
        watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        watch_pid = pid;
    }
    return watch_fd;
}

/* Takes what the kernel queued; with the lock held. */
static void drain(void)
{
    if (watch_fd < 0 || watch_descriptor() < 0) /* nothing watched yet: no descriptor made */
        return;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t r = read(watch_fd, buf, sizeof(buf));
        if (r > 0) {
            watch_gen++;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        break; /* EAGAIN: nothing more */
    }
}

bool dlti_watch_dir(const char *dir)
{
    pthread_mutex_lock(&watch_lock);
    bool ok = false;
    if (local_filesystem(dir) && watch_descriptor() >= 0)
        /* The same directory again gets the same watch: no growth. */
        ok = inotify_add_watch(watch_fd, dir, WATCH_EVENTS) >= 0;
    pthread_mutex_unlock(&watch_lock);
    return ok;
}

uint64_t dlti_watch_generation(void)
{
    pthread_mutex_lock(&watch_lock);
    drain();
    uint64_t gen = watch_gen;
    pthread_mutex_unlock(&watch_lock);
    return gen;
}

bool dlti_watch_again(_Atomic unsigned *calls)
{
    return atomic_fetch_add(calls, 1) > 0;
}

void dlti_watch_invalidate(void)
{
    pthread_mutex_lock(&watch_lock);
    watch_gen++;
    pthread_mutex_unlock(&watch_lock);
}

#else /* no inotify: nothing is ever watched */

bool dlti_watch_dir(const char *dir)
{
    (void)dir;
    return false;
}

static _Atomic uint64_t unwatched_gen = 1;

uint64_t dlti_watch_generation(void)
{
    return unwatched_gen;
}

void dlti_watch_invalidate(void)
{
    unwatched_gen++;
}

bool dlti_watch_again(_Atomic unsigned *calls)
{
    (void)calls;
    return false;
}

#endif

/* The directory part of `path` into `dir`; false when there is none or it
 * does not fit. */
static bool dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return false;
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= size)
        return false;
    memmove(dir, path, n); /* may be the same buffer */
    dir[n] = '\0';
    return true;
}

bool dlti_watch_path(const char *path)
{
    char dir[4096];
    if (path[0] != '/' || strlen(path) >= sizeof(dir))
        return false;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        /* Its entries, its own times, its removal or renaming (a directory
         * is its own watch's "self"): not its parent, whose other entries
         * (a cache written beside a catalog) would say "changed" for
         * nothing. */
        return dlti_watch_dir(path);
    /* A file's entry (created, removed, renamed, written, its times) is its
     * directory's; when that does not exist, the nearest ancestor that
     * does reports the creation of the path below it. */
    strcpy(dir, path);
    for (;;) {
        if (!dir_of(dir, dir, sizeof(dir)))
            return false;
        if (stat(dir, &st) == 0)
            return S_ISDIR(st.st_mode) && dlti_watch_dir(dir);
        if (strcmp(dir, "/") == 0)
            return false;
    }
}

bool dlti_watch_path_dirs(const char *path)
{
    char cur[4096], dir[4096];
    if (strlen(path) >= sizeof(cur) || path[0] != '/')
        return false;
    strcpy(cur, path);
    /* A symbolic link's target can live elsewhere, and be a link again
     * (/etc/alternatives): the directory of every hop is watched, so that
     * retargeting any link of the chain is seen. */
    for (int hop = 0; hop < 40; hop++) {
        if (!dir_of(cur, dir, sizeof(dir)) || !dlti_watch_dir(dir))
            return false;
        char target[4096];
        ssize_t n = readlink(cur, target, sizeof(target) - 1);
        if (n < 0)
            return true; /* not a link (or gone: the caller's stat() says so) */
        target[n] = '\0';
        if (target[0] == '/') {
            strcpy(cur, target);
        } else {
            int w = snprintf(cur, sizeof(cur), "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, target);
            if (w < 0 || (size_t)w >= sizeof(cur))
                return false;
        }
    }
    return false; /* a loop, or too long a chain */
}
