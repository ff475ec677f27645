/* Opening and reading an input: the one way every layer reads a file (MLIR,
 * YAML, override, catalog and hwloc XML files, the runtimes' cache entries,
 * the kernel's /proc and /sys files), so every input gets the same rules,
 * limits and error texts (docs/reliability.md, "Special files"):
 *
 * - "-" is standard input, whatever it is (the caller named it);
 * - anything else must be a regular file: it is looked at before it is
 *   opened (a device is never opened: opening some has effects), opened
 *   without blocking (O_NONBLOCK: a FIFO that no one writes cannot hang the
 *   open) and checked again on the open descriptor (fstat), so a file
 *   swapped in between is caught;
 * - reads stay non-blocking: a file that would block (/proc/kmsg) fails;
 * - at most `max` bytes, checked while reading (a /proc file says size 0);
 * - BS_INPUT_NOFOLLOW refuses a symbolic link, BS_INPUT_PRIVATE a file
 *   of another user or one that others may write.
 *
 * The test tests/lib/one_open.sh fails when another source file opens a
 * file to read. */
#define _GNU_SOURCE
#include "file.h"

#include "error.h"
#include "grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is, for the error. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return NULL; /* the OS's own words: "Is a directory" */
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* The error for a file of mode `mode` that is not to be read, or 0. */
static int refuse(const struct stat *st, unsigned flags, const char *path, dlti_error_t *err)
{
    if (S_ISDIR(st->st_mode)) {
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot read: %s", strerror(EISDIR));
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0,
                        "cannot read: %s, not a regular file (inputs are regular files or "
                        "'-' for standard input)",
                        file_kind(st->st_mode));
        return -1;
    }
    if ((flags & BS_INPUT_PRIVATE) && (st->st_uid != geteuid() || (st->st_mode & 022))) {
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0,
                        "not read: %s", st->st_uid != geteuid()
                                              ? "owned by another user"
                                              : "writable by other users");
        errno = EPERM;
        return -1;
    }
    return 0;
}

int bs_input_open(int dirfd, const char *path, unsigned flags, dlti_error_t *err)
{
    if (strcmp(path, "-") == 0 && dirfd == AT_FDCWD)
        return STDIN_FILENO;
    struct stat st;
    int nofollow = flags & BS_INPUT_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0;
    if (fstatat(dirfd, path, &st, nofollow) != 0) {
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0,
                        "not read: a symbolic link (refused here)");
        return -1;
    }
    if (refuse(&st, flags, path, err) != 0)
        return -1;
    int fd = openat(dirfd, path,
                    O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
                        (flags & BS_INPUT_NOFOLLOW ? O_NOFOLLOW : 0));
    if (fd < 0) {
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot open: %s",
                        errno == ELOOP && (flags & BS_INPUT_NOFOLLOW)
                              ? "a symbolic link (refused here)"
                              : strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || refuse(&st, flags, path, err) != 0) {
        if (err && err->code == DLTI_OK)
            bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int bs_input_read(int fd, char *buf, size_t size, size_t *got)
{
    *got = 0;
    while (*got < size) {
        ssize_t r = read(fd, buf + *got, size - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno ? errno : EIO;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return 0;
}

/* The OS's reason for a failed read; EAGAIN: a file that would block. */
static void read_error(dlti_error_t *err, const char *path, int e)
{
    if (e == EAGAIN || e == EWOULDBLOCK)
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0,
                        "cannot read: it would wait for data (a special file, not a "
                        "description)");
    else
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot read: %s", strerror(e));
}

char *bs_input_read_all(int fd, const char *path, size_t max, size_t *len, dlti_error_t *err)
{
    size_t cap = 1 << 16, n = 0;
    struct stat st;
    /* One read of the right size when the size is known (not /proc, not a
     * pipe): bigger than the limit fails before anything is read. */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uint64_t)st.st_size > max) {
            bs_error_set_at(err, DLTI_ERROR_LIMIT, path, 0, 0,
                            "file is larger than the limit of %zu bytes", max);
            return NULL;
        }
        cap = (size_t)st.st_size + 2;
    }
    char *data = malloc(cap);
    for (;;) {
        if (!data || bs_grow((void **)&data, &cap, n + 2, 1) != 0) { /* room, and the NUL */
            free(data);
            bs_error_set_at(err, DLTI_ERROR_NOMEM, path, 0, 0, "out of memory");
            return NULL;
        }
        size_t want = cap - n - 1, got;
        if (want - 1 > max - n)
            want = max - n + 1; /* one byte past the limit tells it was passed */
        int e = bs_input_read(fd, data + n, want, &got);
        n += got;
        if (e) {
            read_error(err, path, e);
            free(data);
            return NULL;
        }
        if (n > max) {
            bs_error_set_at(err, DLTI_ERROR_LIMIT, path, 0, 0,
                            "file is larger than the limit of %zu bytes", max);
            free(data);
            return NULL;
        }
        if (got < want)
            break; /* end of file */
    }
    data[n] = '\0';
    *len = n;
    return data;
}

char *bs_read_file_at(int dirfd, const char *path, unsigned flags, size_t max, size_t *len,
                      dlti_error_t *err)
{
    int fd = bs_input_open(dirfd, path, flags, err);
    if (fd < 0)
        return NULL;
    char *data = bs_input_read_all(fd, path, max, len, err);
    if (fd != STDIN_FILENO)
        close(fd);
    return data;
}

char *bs_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err)
{
    return bs_read_file_at(AT_FDCWD, path, 0, max, len, err);
}

int bs_dir_open(int dirfd, const char *path, unsigned flags, dlti_error_t *err)
{
    int fd = openat(dirfd, path,
                    O_RDONLY | O_DIRECTORY | O_CLOEXEC |
                        (flags & BS_INPUT_NOFOLLOW ? O_NOFOLLOW : 0));
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        /* O_NOFOLLOW with O_DIRECTORY says ENOTDIR for a link to a directory */
        bool link = (flags & BS_INPUT_NOFOLLOW) && (e == ELOOP || e == ENOTDIR) &&
                    fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
        bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "%s%s",
                        link ? "a symbolic link (refused here)" : "cannot open: ",
                        link ? "" : strerror(e));
        if (fd >= 0)
            close(fd);
        errno = e; /* ENOENT: the caller may make it */
        return -1;
    }
    if ((flags & BS_INPUT_PRIVATE) && (st.st_uid != geteuid() || (st.st_mode & 022))) {
        if (st.st_uid != geteuid())
            bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0,
                            "owned by user %lu, not by this user (%lu)",
                            (unsigned long)st.st_uid, (unsigned long)geteuid());
        else
            bs_error_set_at(err, DLTI_ERROR_IO, path, 0, 0,
                            "writable by other users (mode %04o)",
                            (unsigned)(st.st_mode & 07777));
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}
