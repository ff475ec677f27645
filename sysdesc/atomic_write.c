/* Atomic file output: temporary file in the same directory, fsync, rename. */
#define _GNU_SOURCE
#include "atomic_write.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_write_file(const char *path, const char *data, size_t len, char *msg, size_t msgsize)
{
    char *dcopy = strdup(path), *bcopy = strdup(path);
    char *tmp = NULL;
    int fd = -1, rc = -1;
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
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(msg, msgsize, "cannot write '%s': %s", path,
                     w < 0 ? strerror(errno) : "short write");
            goto out;
        }
        done += (size_t)w;
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
    return rc;
}
