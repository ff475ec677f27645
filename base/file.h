/*
 * file.h - opening and reading inputs (file.c): the one way every layer
 * reads a file, so every input gets the same rules, limits and error texts
 * (docs/reliability.md, "Special files").
 */
#ifndef BASE_FILE_H
#define BASE_FILE_H

#include "sysdesc/error.h"

#include <stddef.h>

/* The one way to open a file to read (base/file.c has the rules): "-" is
 * standard input; anything else a regular file, opened non-blocking and
 * close-on-exec, looked at before the open and checked again after it.
 * `dirfd`: AT_FDCWD, or the directory a relative `path` is in.  The
 * descriptor, or -1 with DLTI_ERROR_IO (the error's source `path`). */
#define BS_INPUT_NOFOLLOW 1u /* a symbolic link is refused */
#define BS_INPUT_PRIVATE 2u  /* only a file of this user (euid) that others cannot write */
int bs_input_open(int dirfd, const char *path, unsigned flags, dlti_error_t *err);
/* read() until `size` bytes or the end of the file: 0, or the errno of a
 * failed read (EAGAIN: the file would block); `*got` bytes read either way. */
int bs_input_read(int fd, char *buf, size_t size, size_t *got);
/* The rest of `fd`, at most `max` bytes: malloc'ed and NUL-terminated,
 * `*len` bytes; NULL with DLTI_ERROR_IO (the OS's reason), DLTI_ERROR_LIMIT
 * or DLTI_ERROR_NOMEM, the error's source `path`. */
char *bs_input_read_all(int fd, const char *path, size_t max, size_t *len, dlti_error_t *err);
/* bs_input_open() and bs_input_read_all(): a whole file. */
char *bs_read_file_at(int dirfd, const char *path, unsigned flags, size_t max, size_t *len,
                      dlti_error_t *err);
/* A directory to read or to open files in (O_DIRECTORY, close-on-exec;
 * the flags as above): its descriptor, or -1 with DLTI_ERROR_IO. */
int bs_dir_open(int dirfd, const char *path, unsigned flags, dlti_error_t *err);
/* bs_read_file_at(AT_FDCWD, path, 0, ...). */
char *bs_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err);

#endif /* BASE_FILE_H */
