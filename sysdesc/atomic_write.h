/* Atomic file output for the CLI's -o FILE. */
#ifndef SYSDESC_ATOMIC_WRITE_H
#define SYSDESC_ATOMIC_WRITE_H

#include <stddef.h>

/*
 * Writes `len` bytes to `path` atomically: a temporary file in the same
 * directory is written, fsync'ed and renamed over `path`, so readers see the
 * old file or the new one, never a truncated one.  A new file gets mode
 * 0666 & ~umask; an existing file keeps its mode.  On failure the temporary
 * file is removed, the old file is left as it was, and -1 is returned with a
 * message in `msg` (`msgsize` bytes).  Returns 0 on success.
 *
 * A symbolic link to a regular file stays a link: the file it points to is
 * replaced.  A target that exists and is not a regular file (/dev/null,
 * /dev/full, /dev/stdout, a FIFO) is opened and written in place, never
 * renamed over; a directory is an error (EISDIR).
 */
int atomic_write_file(const char *path, const char *data, size_t len, char *msg, size_t msgsize);

#endif
