/* Atomic file output: temporary file in the same directory, fsync, rename. */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file being written, removed by a signal that ends the
 * process meanwhile (SIGTERM, Ctrl-C, a hangup): without this a killed
 * write leaves a file of up to the output's size beside the target (the
 * target itself is intact: it is replaced by rename only). */
static char pending_tmp[4096];
static volatile sig_atomic_t pending;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

static void remove_pending(int sig)
{
    if (pending)
        unlink(pending_tmp); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* While `tmp` is being written: the signals that end the process remove it
 * first.  `old` keeps what was there, for leave_pending(). */
static void enter_pending(const char *tmp, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = remove_pending;
    sigemptyset(&sa.sa_mask);
    snprintf(pending_tmp, sizeof(pending_tmp), "%s", tmp);
    pending = strlen(tmp) < sizeof(pending_tmp);
    /* A signal the caller ignores (nohup's SIGHUP, a background job's
     * SIGINT) stays ignored: it must not end the write. */
    for (size_t i = 0; i < NSIGNALS; i++)
        if (sigaction(cleanup_signals[i], NULL, &old[i]) == 0 && old[i].sa_handler != SIG_IGN)
            sigaction(cleanup_signals[i], &sa, NULL);
}

static void leave_pending(const struct sigaction *old)
{
    for (size_t i = 0; i < NSIGNALS; i++)
        sigaction(cleanup_signals[i], &old[i], NULL);
    pending = 0;
}

/* Writes all of `data` to `fd`; 0, or -1 with errno set. */
static int write_all(int fd, const char *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* The file a chain of symbolic links ends at, when that file is not there
 * (a dangling link): malloc'ed, NULL when `path` is no such link. */
static char *dangling_target(const char *path)
{
    char *p = strdup(path);
    struct stat lst;
    for (int hops = 0; p && hops < 40 && lstat(p, &lst) == 0 && S_ISLNK(lst.st_mode); hops++) {
        char target[4096];
        ssize_t n = readlink(p, target, sizeof(target) - 1);
        if (n <= 0) {
            free(p);
            return NULL;
        }
        target[n] = '\0';
        char *next = NULL;
        if (target[0] == '/') {
            next = strdup(target);
        } else {
            char *d = strdup(p);
            if (d && asprintf(&next, "%s/%s", dirname(d), target) < 0)
                next = NULL;
            free(d);
        }
        free(p);
        p = next;
    }
    if (p && lstat(p, &lst) == 0) { /* a file after all, or too many links */
        free(p);
        return NULL;
    }
    return p;
}

/* An output file being written (atomic_write_begin). */
struct atomic_writer {
    int fd;
    bool in_place;      /* not a regular file: written where it is, no rename */
    const char *path;   /* the file replaced (links followed), for messages */
    char *real;         /* path's storage when links were followed */
    char *tmp, *dir;    /* the temporary file and its folder */
    mode_t mode;
    bool handlers;      /* the signal handlers that remove tmp are in place */
    struct sigaction old_actions[NSIGNALS];
};

atomic_writer *atomic_write_begin(const char *path, char *msg, size_t msgsize)
{
    char *dcopy = NULL, *bcopy = NULL;
    struct stat st;
    atomic_writer *w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(msg, msgsize, "out of memory");
        return NULL;
    }
    w->fd = -1;
    w->path = path;
    if (path[0] == '\0') {
        snprintf(msg, msgsize, "cannot write '': empty file name");
        goto fail;
    }
    int exists = stat(path, &st) == 0; /* follows symbolic links */
    if (!exists && errno != ENOENT) { /* a loop of links, a file in the way of a directory */
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        goto fail;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(EISDIR));
        goto fail;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* A target that is not a regular file (/dev/null, /dev/full,
         * /dev/stdout, a FIFO) is written in place: renaming over it would
         * replace the device node or the pipe with a regular file. */
        w->fd = open(path, O_WRONLY | O_CLOEXEC);
        if (w->fd < 0) {
            snprintf(msg, msgsize, "cannot open '%s': %s", path, strerror(errno));
            goto fail;
        }
        w->in_place = true;
        return w;
    }
    /* A symbolic link to a regular file: replace the file, keep the link; a
     * link to no file (yet): make the file it names, keep the link. */
    struct stat lst;
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
        (w->real = realpath(path, NULL)))
        w->path = path = w->real;
    else if (!exists && (w->real = dangling_target(path)) != NULL)
        w->path = path = w->real;
    dcopy = strdup(path);
    bcopy = strdup(path);
    if (!dcopy || !bcopy) {
        snprintf(msg, msgsize, "out of memory");
        goto fail;
    }
    const char *dir = dirname(dcopy), *base = basename(bcopy);
    size_t tlen = strlen(dir) + strlen(base) + 16;
    char *tmp = malloc(tlen);
    w->dir = strdup(dir);
    if (!tmp || !w->dir) {
        free(tmp);
        snprintf(msg, msgsize, "out of memory");
        goto fail;
    }
    snprintf(tmp, tlen, "%s/.%s.XXXXXX", dir, base);
    /* signals blocked from mkstemp until the handlers know the name */
    sigset_t all, prev;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &prev);
    w->fd = mkstemp(tmp);
    if (w->fd >= 0)
        enter_pending(tmp, w->old_actions);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    if (w->fd < 0) {
        snprintf(msg, msgsize, "cannot create a temporary file next to '%s': %s", path,
                 strerror(errno));
        free(tmp); /* no file of ours: nothing to remove */
        goto fail;
    }
    w->tmp = tmp; /* from here on abort removes it */
    w->handlers = true;
    if (exists) {
        w->mode = st.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        w->mode = 0666 & ~um;
    }
    free(dcopy);
    free(bcopy);
    return w;
fail:
    free(dcopy);
    free(bcopy);
    atomic_write_abort(w);
    return NULL;
}

int atomic_write_chunk(atomic_writer *w, const char *data, size_t len, char *msg,
                       size_t msgsize)
{
    if (write_all(w->fd, data, len) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", w->path, strerror(errno));
        return -1;
    }
    return 0;
}

int atomic_write_commit(atomic_writer *w, char *msg, size_t msgsize)
{
    int rc = -1;
    if (w->in_place) {
        int fd = w->fd;
        w->fd = -1;
        if (close(fd) != 0)
            snprintf(msg, msgsize, "cannot write '%s': %s", w->path, strerror(errno));
        else
            rc = 0;
        atomic_write_abort(w);
        return rc;
    }
    if (fchmod(w->fd, w->mode) != 0 || fsync(w->fd) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", w->path, strerror(errno));
        goto out;
    }
    int fd = w->fd;
    w->fd = -1;
    if (close(fd) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", w->path, strerror(errno));
        goto out;
    }
    if (rename(w->tmp, w->path) != 0) {
        snprintf(msg, msgsize, "cannot replace '%s': %s", w->path, strerror(errno));
        goto out;
    }
    free(w->tmp);
    w->tmp = NULL;
    /* Make the rename durable; a failure here no longer loses data. */
    int dfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    rc = 0;
out:
    atomic_write_abort(w);
    return rc;
}

void atomic_write_abort(atomic_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    if (w->tmp) {
        unlink(w->tmp);
        free(w->tmp);
        w->tmp = NULL;
    }
    if (w->handlers)
        leave_pending(w->old_actions);
    w->handlers = false;
    free(w->dir);
    free(w->real);
    free(w);
}

int atomic_write_file(const char *path, const char *data, size_t len, char *msg, size_t msgsize)
{
    atomic_writer *w = atomic_write_begin(path, msg, msgsize);
    if (!w)
        return -1;
    if (atomic_write_chunk(w, data, len, msg, msgsize) != 0) {
        atomic_write_abort(w);
        return -1;
    }
    return atomic_write_commit(w, msg, msgsize);
}

int cli_lock_file(const char *path, char *msg, size_t msgsize)
{
    /* Lock the file the path names now: a writer that replaced it (rename)
     * while this one waited leaves this one a lock on a file no longer
     * there, so take the new one instead. */
    for (int tries = 0; tries < 1000; tries++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0) {
            snprintf(msg, msgsize, "cannot open '%s': %s", path, strerror(errno));
            return -1;
        }
        int r;
        while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
            ;
        struct stat held, now;
        if (r != 0) {
            snprintf(msg, msgsize, "cannot lock '%s': %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        if (fstat(fd, &held) == 0 && stat(path, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino)
            return fd;
        close(fd);
    }
    snprintf(msg, msgsize, "cannot lock '%s': it keeps being replaced", path);
    return -1;
}
