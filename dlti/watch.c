/* Change generations of watched directories: what lets a process trust a
 * stat() it made earlier without making it again.
 *
 * host() from the whole-result cache spent most of its time on system
 * calls that ask "is this file still the one I saw?": a stat of every
 * catalog file (the fingerprint, sysdesc/catalog.c) and of every library
 * the runtimes loaded (probe/rt_cache.c).  A directory watched here (Linux
 * inotify, on a local filesystem) reports any entry created, removed,
 * renamed, written or whose attributes changed; each report bumps the
 * generation.  A caller that read generation G, then watched and stat()ed
 * what it depends on, may reuse what it saw for as long as the generation
 * is still G: a change after the read of G makes it differ.
 *
 * A path is watched along its whole lookup (dlti_watch_path): every
 * directory the lookup goes through and the directory of every symbolic
 * link it follows, so that a parent renamed or a link retargeted anywhere
 * on the way is reported, not only a change in the last directory.  A
 * mount or unmount anywhere (which can put other files under a watched
 * path without an event there) bumps the generation too:
 * /proc/self/mountinfo is polled.
 *
 * Where a directory cannot be watched (another OS, inotify unavailable or
 * out of watches, a network or FUSE filesystem, whose changes made
 * elsewhere inotify does not see) dlti_watch_dir() says so and the caller
 * keeps stat()ing.  What a directory watch cannot see, and the callers
 * therefore check themselves: a file changed through a hard link in
 * another directory (a caller treats a file of more than one link as
 * unwatchable), a write through a shared mapping.
 *
 * A forked child starts over (a fork handler): its inherited inotify
 * descriptor is its parent's queue, whose events are not its own to take,
 * and a lock held by a thread of the parent would never be released. */
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

static void watch_after_fork(void);

static void forget_process_id(void)
{
    process_id = 0;
    watch_after_fork();
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

bool dlti_watch_again(_Atomic unsigned *calls)
{
    return atomic_fetch_add(calls, 1) > 0;
}

bool dlti_lock_whole_after_fork(pthread_mutex_t *lock)
{
    if (pthread_mutex_trylock(lock) == 0) {
        pthread_mutex_unlock(lock);
        return true;
    }
    pthread_mutex_init(lock, NULL); /* held by a thread of the parent, gone here */
    return false;
}

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/vfs.h>

#define WATCH_EVENTS                                                                    \
    (IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MODIFY | \
     IN_MOVE_SELF | IN_MOVED_FROM | IN_MOVED_TO)

/* The watches, by descriptor: which names in the directory matter (a
 * lookup through it), or all of them (`all`: a directory whose entries are
 * read).  An event about another name is not a change of anything a caller
 * depends on: a file written in /tmp, an ancestor of a catalog there, is
 * not.  `dir` and `verified` let a request already made under the current
 * generation cost no system call. */
typedef struct watch_entry {
    int wd;
    bool all;
    char *dir;
    char **names;
    size_t nnames;
    uint64_t verified;
} watch_entry;

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static int watch_fd = -1, mounts_fd = -1;
static pid_t watch_pid;
static uint64_t watch_gen = 1;
static watch_entry *entries;
static size_t nentries, centries;

static void watch_after_fork(void)
{
    /* Run in the child right after fork(), its only thread.  The inotify
     * queue is the parent's: closed now, while its numbers are still the
     * inherited copies.  A lock held by a thread of the parent (gone here)
     * is made anew, and what it guarded, maybe half-changed, dropped
     * unfreed; otherwise the table is freed. */
    if (dlti_lock_whole_after_fork(&watch_lock)) {
        for (size_t i = 0; i < nentries; i++) {
            free(entries[i].dir);
            for (size_t k = 0; k < entries[i].nnames; k++)
                free(entries[i].names[k]);
            free(entries[i].names);
        }
        free(entries);
    }
    if (watch_fd >= 0)
        close(watch_fd);
    if (mounts_fd >= 0)
        close(mounts_fd);
    watch_fd = mounts_fd = -1;
    entries = NULL;
    nentries = centries = 0;
    watch_gen++;
}

/* Filesystems whose every change goes through this kernel (statfs(2)'s
 * f_type): inotify sees them all.  *kernel_made says the names in it are
 * the kernel's (sysfs: /sys/fs/cgroup), which no one renames or replaces
 * but by a mount over them, which /proc/self/mountinfo reports. */
static bool local_filesystem(const char *dir, bool *kernel_made)
{
    struct statfs fs;
    *kernel_made = false;
    if (statfs(dir, &fs) != 0)
        return false;
    *kernel_made = (unsigned long)fs.f_type == 0x62656572UL; /* sysfs */
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

/* The descriptors of this process (not of a parent that forked it without
 * the handler: a raw clone); with the lock held. */
static int watch_descriptor(void)
{
    pid_t pid = dlti_process_id();
    if (watch_fd >= 0 && watch_pid != pid) {
        watch_fd = mounts_fd = -1; /* forgotten, not closed: see watch_after_fork */
        entries = NULL;
        nentries = centries = 0;
        watch_gen++;
    }
    if (watch_fd < 0) {
        watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        watch_pid = pid;
        if (watch_fd >= 0)
            mounts_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
        if (watch_fd >= 0 && mounts_fd < 0) { /* mounts unseen: nothing may be watched */
            close(watch_fd);
            watch_fd = -1;
        }
    }
    return watch_fd;
}

static watch_entry *entry_of_wd(int wd)
{
    for (size_t i = 0; i < nentries; i++)
        if (entries[i].wd == wd)
            return &entries[i];
    return NULL;
}

static bool entry_wants(const watch_entry *e, const char *name)
{
    if (e->all)
        return true;
    for (size_t i = 0; i < e->nnames; i++)
        if (strcmp(e->names[i], name) == 0)
            return true;
    return false;
}

/* Whether event `ev` changes something a caller depends on; with the lock
 * held (an IN_IGNORED watch leaves the table). */
static bool event_matters(const struct inotify_event *ev)
{
    if (ev->mask & (IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT))
        return true;
    watch_entry *e = entry_of_wd(ev->wd);
    if (ev->mask & IN_IGNORED) { /* the watch is gone (its directory removed) */
        if (e) {
            free(e->dir);
            for (size_t i = 0; i < e->nnames; i++)
                free(e->names[i]);
            free(e->names);
            *e = entries[--nentries];
        }
        return true;
    }
    return !e || ev->len == 0 || entry_wants(e, ev->name);
}

/* Takes what the kernel queued; with the lock held. */
static void drain(void)
{
    if (watch_fd < 0 || watch_descriptor() < 0) /* nothing watched yet: no descriptor made */
        return;
    /* One poll for both: nothing queued and no mount change is the common
     * case, and costs one system call. */
    struct pollfd p[2] = {{watch_fd, POLLIN, 0}, {mounts_fd, POLLPRI, 0}};
    if (poll(p, 2, 0) <= 0)
        return;
    if (p[1].revents) /* a mount table change is reported once per change to each poller */
        watch_gen++;
    if (!(p[0].revents & POLLIN))
        return;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t r = read(watch_fd, buf, sizeof(buf));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* EAGAIN: nothing more */
        for (ssize_t at = 0; at + (ssize_t)sizeof(struct inotify_event) <= r;) {
            const struct inotify_event *ev = (const struct inotify_event *)(buf + at);
            if (event_matters(ev))
                watch_gen++;
            at += (ssize_t)(sizeof(struct inotify_event) + ev->len);
        }
    }
}

/* Records that `name` (NULL: every name) of watch `wd` on `dir` matters;
 * false when out of memory.  With the lock held. */
static bool entry_add(int wd, const char *dir, const char *name)
{
    watch_entry *e = entry_of_wd(wd);
    if (!e) {
        if (nentries == centries) {
            size_t cap = centries ? 2 * centries : 32;
            watch_entry *grown = realloc(entries, cap * sizeof(*grown));
            if (!grown)
                return false;
            entries = grown;
            centries = cap;
        }
        char *copy = strdup(dir);
        if (!copy)
            return false;
        e = &entries[nentries++];
        *e = (watch_entry){wd, false, copy, NULL, 0, 0};
    } else if (strcmp(e->dir, dir) != 0) { /* the same directory by another path */
        char *copy = strdup(dir);
        if (!copy)
            return false;
        free(e->dir);
        e->dir = copy;
    }
    e->verified = watch_gen;
    if (!name) {
        e->all = true;
        return true;
    }
    if (entry_wants(e, name))
        return true;
    char **grown = realloc(e->names, (e->nnames + 1) * sizeof(*grown));
    char *copy = grown ? strdup(name) : NULL;
    if (grown)
        e->names = grown;
    if (!copy)
        return false;
    e->names[e->nnames++] = copy;
    return true;
}

/* Watches `dir` for `name` (NULL: for every name in it). */
static bool watch_for(const char *dir, const char *name)
{
    pthread_mutex_lock(&watch_lock);
    drain();
    bool ok = false;
    /* Asked under this generation already: nothing to do but note the name. */
    for (size_t i = 0; i < nentries && !ok; i++)
        if (entries[i].verified == watch_gen && strcmp(entries[i].dir, dir) == 0)
            ok = entry_add(entries[i].wd, dir, name);
    bool kernel_made = false;
    if (!ok && local_filesystem(dir, &kernel_made) && watch_descriptor() >= 0) {
        int wd = inotify_add_watch(watch_fd, dir, WATCH_EVENTS);
        ok = wd >= 0 && entry_add(wd, dir, name);
    }
    /* A lookup through sysfs (/sys/fs on the way to a cgroup file) needs no
     * watch; its files' contents would, and cannot have one. */
    if (!ok && kernel_made && name && watch_descriptor() >= 0)
        ok = true;
    pthread_mutex_unlock(&watch_lock);
    return ok;
}

bool dlti_watch_dir(const char *dir)
{
    return watch_for(dir, NULL);
}

uint64_t dlti_watch_generation(void)
{
    pthread_mutex_lock(&watch_lock);
    drain();
    uint64_t gen = watch_gen;
    pthread_mutex_unlock(&watch_lock);
    return gen;
}

void dlti_watch_invalidate(void)
{
    pthread_mutex_lock(&watch_lock);
    watch_gen++;
    pthread_mutex_unlock(&watch_lock);
}

#else /* no inotify: nothing is ever watched */

static _Atomic uint64_t unwatched_gen = 1;

static void watch_after_fork(void)
{
}

static bool watch_for(const char *dir, const char *name)
{
    (void)dir;
    (void)name;
    return false;
}

bool dlti_watch_dir(const char *dir)
{
    return watch_for(dir, NULL);
}

uint64_t dlti_watch_generation(void)
{
    return unwatched_gen;
}

void dlti_watch_invalidate(void)
{
    unwatched_gen++;
}

#endif

bool dlti_watch_path(const char *path)
{
    /* The lookup, step by step: `cur` the real directory reached so far
     * (no links in it: "" is /), `rest` what is left to look up.  Each
     * directory is watched for the one name looked up in it; the last one,
     * when the path is a directory, for all of its entries. */
    char cur[4096] = "", rest[4096], next[4096];
    if (path[0] != '/' || snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
        return false;
    int hops = 0;
    char *r = rest;
    for (;;) {
        while (*r == '/')
            r++;
        if (!*r) /* the path itself is the directory `cur` */
            return watch_for(cur[0] ? cur : "/", NULL);
        size_t n = strcspn(r, "/");
        char name[1024];
        if (n >= sizeof(name))
            return false;
        memcpy(name, r, n);
        name[n] = '\0';
        r += n;
        if (strcmp(name, ".") == 0)
            continue;
        if (strcmp(name, "..") == 0) {
            char *slash = strrchr(cur, '/');
            if (slash)
                *slash = '\0';
            continue;
        }
        /* Watched before it is looked up: a change after the look shows. */
        if (!watch_for(cur[0] ? cur : "/", name))
            return false;
        if (snprintf(next, sizeof(next), "%s/%s", cur, name) >= (int)sizeof(next))
            return false;
        struct stat st;
        if (lstat(next, &st) != 0)
            return true; /* missing: `cur` reports its creation */
        if (S_ISLNK(st.st_mode)) { /* `cur` reports the link retargeted */
            char target[4096];
            ssize_t t = readlink(next, target, sizeof(target) - 1);
            if (t < 0 || ++hops > 40)
                return false;
            target[t] = '\0';
            char joined[4096];
            if (snprintf(joined, sizeof(joined), "%s/%s", target, r) >= (int)sizeof(joined))
                return false;
            strcpy(rest, joined);
            r = rest;
            if (target[0] == '/')
                cur[0] = '\0';
            continue;
        }
        if (!S_ISDIR(st.st_mode))
            return true; /* a file (or a dead end): `cur` reports changes to it */
        strcpy(cur, next);
    }
}
