/* Reading a whole input file: the one reader of every layer (MLIR, YAML,
 * override and catalog files), so every input gets the same limit and the
 * same error texts. */
#include "dlti_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *dlti_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        dlti_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    int read_errno = 0;
    char *data = malloc(cap);
    while (data) {
        if (dlti_grow((void **)&data, &cap, n + 2, 1) != 0) { /* room to read, and the NUL */
            free(data);
            data = NULL;
            break;
        }
        errno = 0;
        size_t got = fread(data + n, 1, cap - n - 1, f);
        /* Keep the OS's reason (a directory opens, then reads EISDIR). */
        if (got < cap - n - 1 && ferror(f) && !read_errno)
            read_errno = errno;
        n += got;
        if (n > max) {
            dlti_error_set_at(err, DLTI_ERROR_LIMIT, path, 0, 0,
                              "file is larger than the limit of %zu bytes", max);
            free(data);
            if (!is_stdin)
                fclose(f);
            return NULL;
        }
        if (got == 0)
            break;
    }
    bool failed = ferror(f);
    if (!is_stdin)
        fclose(f);
    if (!data) {
        dlti_error_set_at(err, DLTI_ERROR_NOMEM, path, 0, 0, "out of memory");
        return NULL;
    }
    if (failed) {
        dlti_error_set_at(err, DLTI_ERROR_IO, path, 0, 0, "cannot read: %s",
                          read_errno ? strerror(read_errno) : "read error");
        free(data);
        return NULL;
    }
    data[n] = '\0';
    *len = n;
    return data;
}

int dlti_grow(void **data, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 8;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return -1;
        c *= 2;
    }
    if (c > SIZE_MAX / elem)
        return -1;
    void *d = realloc(*data, c * elem);
    if (!d)
        return -1;
    *data = d;
    *cap = c;
    return 0;
}
