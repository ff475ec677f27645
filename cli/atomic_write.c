/* Atomic file output: temporary file in the same directory, fsync, rename. */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A target that is not a regular file (/dev/null, /dev/full, /dev/stdout, a
 * FIFO) is written in place: renaming over it would replace the device node
 * or the pipe with a regular file. */
static int write_in_place(const char *path, const char *data, size_t len, char *msg,
                          size_t msgsize)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, msgsize, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (write_all(fd, data, len) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        return -1;
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

int atomic_write_file(const char *path, const char *data, size_t len, char *msg, size_t msgsize)
{
    char *dcopy = NULL, *bcopy = NULL, *real = NULL;
    char *tmp = NULL;
    int fd = -1, rc = -1;
    struct stat st;
    if (path[0] == '\0') {
        snprintf(msg, msgsize, "cannot write '': empty file name");
        return -1;
    }
    int exists = stat(path, &st) == 0; /* follows symbolic links */
    if (!exists && errno != ENOENT) { /* a loop of links, a file in the way of a directory */
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(EISDIR));
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode))
        return write_in_place(path, data, len, msg, msgsize);
    /* A symbolic link to a regular file: replace the file, keep the link; a
     * link to no file (yet): make the file it names, keep the link. */
    struct stat lst;
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && (real = realpath(path, NULL)))
        path = real;
    else if (!exists && (real = dangling_target(path)) != NULL)
        path = real;
    dcopy = strdup(path);
    bcopy = strdup(path);
    if (!dcopy || !bcopy) {
        snprintf(msg, msgsize, "out of memory");
        goto out;
    }
    const char *dir = dirname(dcopy), *base = basename(bcopy);
    size_t tlen = strlen(dir) + strlen(base) + 16;
    tmp = malloc(tlen);
    if (!tmp) {
        snprintf(msg, msgsize, "out of memory");
        goto out;
    }
    snprintf(tmp, tlen, "%s/.%s.XXXXXX", dir, base);
    fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(msg, msgsize, "cannot create a temporary file next to '%s': %s", path,
                 strerror(errno));
        free(tmp);
        tmp = NULL;
        goto out;
    }
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    if (write_all(fd, data, len) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        goto out;
    }
    if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        snprintf(msg, msgsize, "cannot write '%s': %s", path, strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        snprintf(msg, msgsize, "cannot replace '%s': %s", path, strerror(errno));
        goto out;
    }
    free(tmp);
    tmp = NULL;
    /* Make the rename durable; a failure here no longer loses data. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    if (tmp) {
        unlink(tmp);
        free(tmp);
    }
    free(dcopy);
    free(bcopy);
    free(real);
    return rc;
}
