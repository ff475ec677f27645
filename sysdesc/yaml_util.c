/* Small helpers of the YAML layer: arena, errors, file reading, text buffers. */
#include "sysdesc_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sd_arena_chunk {
    sd_arena_chunk *next;
    max_align_t data[];
};

#define SD_CHUNK (64 * 1024)

void *sd_arena_alloc(sd_arena *a, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    if ((size_t)(a->end - a->cur) < size || !a->cur) {
        size_t cap = size > SD_CHUNK / 4 ? size : SD_CHUNK;
        sd_arena_chunk *c = malloc(sizeof(*c) + cap);
        if (!c)
            return NULL;
        /* A big block gets a chunk of its own behind the current one, so the
         * free space of the current chunk is not wasted. */
        if (cap != SD_CHUNK && a->head) {
            c->next = a->head->next;
            a->head->next = c;
            return c->data;
        }
        c->next = a->head;
        a->head = c;
        a->cur = (char *)c->data;
        a->end = a->cur + cap;
    }
    void *p = a->cur;
    a->cur += size;
    return p;
}

void sd_arena_free(sd_arena *a)
{
    sd_arena_chunk *c = a->head;
    while (c) {
        sd_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->cur = a->end = NULL;
}

char *sd_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err)
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
        if (n + 1 >= cap) {
            char *grown = realloc(data, cap * 2);
            if (!grown) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            cap *= 2;
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

void sd_buf_put_quoted(sd_buf *b, const char *s, size_t len, const char *control_fmt)
{
    sd_buf_put(b, "\"", 1);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            sd_buf_put(b, esc, 2);
        } else if (c == '\n') {
            sd_buf_puts(b, "\\n");
        } else if (c == '\t') {
            sd_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            sd_buf_printf(b, control_fmt, c);
        } else {
            sd_buf_put(b, s + i, 1);
        }
    }
    sd_buf_put(b, "\"", 1);
}

char *sd_buf_finish(sd_buf *b, size_t *len)
{
    if (!b->failed && !b->data)
        sd_buf_put(b, "", 0);
    if (b->failed) {
        free(b->data);
        b->data = NULL;
        return NULL;
    }
    if (len)
        *len = b->len;
    return b->data;
}

void sd_format_double(char *out, size_t size, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, size, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            return;
    }
}
