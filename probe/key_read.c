/* Reads of the small kernel files a cache key holds (/proc, /sys), through
 * descriptors this process keeps open.
 *
 * A host() from the whole-result cache reads ~25 such files to build its
 * key; open, read, read (end of file) and close cost four system calls
 * each, and on a virtual machine a system call into procfs or sysfs costs
 * microseconds.  A kept descriptor costs one pread() at offset 0, which
 * makes the kernel generate the file afresh (seq_file and sysfs both start
 * over at offset 0), so what is read is as current as with a new open.
 *
 * The descriptors are this process's: a forked child closes its inherited
 * copies and opens its own (/proc/self/... opened by the parent names the
 * parent).  A file that does not exist is tried again each time, as it
 * may appear, unless its directory is watched (dlti/watch.c: a tmpfs or
 * disk, not sysfs or procfs): then its absence holds while the watch
 * generation stays.  At most KEPT files are kept; others are read the
 * plain way. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEPT 64

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char *path;
    int fd;              /* -1: the file was missing */
    dev_t dev;           /* what `fd` was opened on: a descriptor that fails */
    ino_t ino;           /* is closed only when it is still ours */
    bool watched;        /* missing, and its directory is watched */
    bool unwatchable;    /* missing, and its directory cannot be watched */
    uint64_t generation; /* the watch generation it was found missing under */
} kept[KEPT];
static size_t nkept;
static pid_t kept_pid;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* Run in a forked child right after fork(), its only thread: the kept
 * descriptors are the parent's copies (/proc/self/... names the parent),
 * closed now while their numbers are still those copies.  A lock held by a
 * thread of the parent (gone here) is made anew, and the table, maybe
 * half-changed, dropped unclosed and unfreed. */
static void kept_after_fork(void)
{
    bool whole = dlti_lock_whole_after_fork(&kept_lock);
    for (size_t i = 0; whole && i < nkept; i++) {
        if (kept[i].fd >= 0)
            close(kept[i].fd);
        free(kept[i].path);
    }
    nkept = 0;
    kept_pid = 0;
}

static void register_fork(void)
{
    pthread_atfork(NULL, NULL, kept_after_fork);
}

/* Keeps `path` (open as `fd`, or missing); false when the table is full or
 * memory runs out. */
static bool keep(const char *path, int fd, bool watched, uint64_t generation)
{
    char *copy = nkept < KEPT ? strdup(path) : NULL;
    if (!copy)
        return false;
    struct stat st;
    kept[nkept].path = copy;
    kept[nkept].fd = fd;
    kept[nkept].dev = fd >= 0 && fstat(fd, &st) == 0 ? st.st_dev : 0;
    kept[nkept].ino = fd >= 0 && kept[nkept].dev ? st.st_ino : 0;
    kept[nkept].watched = watched;
    kept[nkept].unwatchable = false;
    kept[nkept].generation = generation;
    nkept++;
    return true;
}

/* The kept descriptor of `path`, opened now if need be; -1 when it cannot
 * be opened.  *mine says whether the caller must close it.  With the lock
 * held. */
static int kept_fd(const char *path, bool *mine)
{
    pid_t pid = dlti_process_id();
    if (kept_pid != pid) { /* a child made without the fork handler (clone) */
        nkept = 0;        /* forgotten, not closed: see kept_after_fork */
        kept_pid = pid;
    }
    *mine = false;
    size_t i = 0;
    while (i < nkept && strcmp(kept[i].path, path) != 0)
        i++;
    if (i < nkept && kept[i].fd >= 0)
        return kept[i].fd;
    if (i < nkept && kept[i].watched && kept[i].generation == dlti_watch_generation())
        return -1; /* still missing: nothing changed where it would appear */
    bool known_missing = i < nkept;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        if (!known_missing) { /* the first miss: remembered, not watched (a CLI reads once) */
            keep(path, -1, false, 0);
            return -1;
        }
        if (kept[i].unwatchable)
            return -1;
        /* Missing again: watched first, then looked for again, so that a
         * file created after the look changes the generation. */
        uint64_t gen = dlti_watch_generation();
        bool watched = dlti_watch_path(path);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) {
            kept[i].watched = watched;
            kept[i].unwatchable = !watched;
            kept[i].generation = gen;
            return -1;
        }
    }
    if (fd < 0)
        return -1;
    if (known_missing) { /* it appeared */
        struct stat st;
        kept[i].fd = fd;
        kept[i].dev = fstat(fd, &st) == 0 ? st.st_dev : 0;
        kept[i].ino = kept[i].dev ? st.st_ino : 0;
        return fd;
    }
    if (!keep(path, fd, false, 0))
        *mine = true;
    return fd;
}

/* Reads the file open as `fd` from its start into `buf` (size > 0); -1 on
 * a read error. */
static int read_all(int fd, bool one_read, char *buf, size_t size, size_t *len)
{
    long pagesize = sysconf(_SC_PAGESIZE);
    size_t page = pagesize > 0 ? (size_t)pagesize : 4096;
    size_t got = 0;
    int rc = 0;
    while (got + 1 < size) {
        ssize_t r = pread(fd, buf + got, size - 1 - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = -1;
        if (r <= 0)
            break;
        got += (size_t)r;
        /* A second read to be told "end" costs as much as the first: at an
         * offset past 0, seq_file generates the file again up to there.  A
         * sysfs attribute is one page at most, given whole by one read, so
         * that a short read is its end.  A seq_file (procfs, cgroup files)
         * fills its buffer of a page or more record by record and stops
         * early only at the end or at a record that does not fit, and no
         * record of the files read here is 512 bytes: a short read well
         * below a page is its end too. */
        size_t asked = size - 1 - (got - (size_t)r);
        if ((size_t)r < asked && (one_read || (size_t)r + 512 < page))
            break;
    }
    buf[got] = '\0';
    *len = got;
    return rc;
}

/* Forgets the kept descriptor of `path`, closed when it still is the file
 * it was opened on (a program that closed it and got its number again for
 * a file of its own keeps that one); with the lock held. */
static void forget(const char *path)
{
    for (size_t i = 0; i < nkept; i++)
        if (strcmp(kept[i].path, path) == 0) {
            struct stat st;
            if (kept[i].fd >= 0 && fstat(kept[i].fd, &st) == 0 && kept[i].dev &&
                st.st_dev == kept[i].dev && st.st_ino == kept[i].ino)
                close(kept[i].fd);
            free(kept[i].path);
            kept[i] = kept[--nkept];
            return;
        }
}

int pb_key_read(const char *path, char *buf, size_t size, size_t *len)
{
    if (size == 0)
        return -1;
    bool one_read = strncmp(path, "/sys/", 5) == 0 && strncmp(path, "/sys/fs/", 8) != 0;
    size_t got = 0;
    int rc = -1;
    buf[0] = '\0';
    pthread_once(&fork_once, register_fork);
    pthread_mutex_lock(&kept_lock);
    /* A kept descriptor that fails to read may name what is gone (a cgroup
     * removed, made again at the same path): opened afresh, once. */
    for (int attempt = 0; attempt < 2 && rc != 0; attempt++) {
        bool mine;
        int fd = kept_fd(path, &mine);
        if (fd < 0)
            break;
        rc = read_all(fd, one_read, buf, size, &got);
        if (mine)
            close(fd);
        else if (rc != 0)
            forget(path);
    }
    pthread_mutex_unlock(&kept_lock);
    if (len)
        *len = got;
    return rc;
}
