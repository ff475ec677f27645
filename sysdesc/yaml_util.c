/* Small helpers of the YAML layer: arena, errors, file reading, text buffers. */
#include "yaml_internal.h"

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

void sd_error(dlti_error_t *err, dlti_error_code code, const char *source, int line, int column,
              const char *fmt, ...)
{
    if (!err)
        return;
    err->code = code;
    err->line = line;
    err->column = column;
    err->position = 0;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->text, sizeof(err->text), fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof(err->text))
        memcpy(err->text + sizeof(err->text) - 4, "...", 4);
}

void sd_error_at(dlti_error_t *err, const char *source, const sd_node *n)
{
    if (!err)
        return;
    err->line = n->line;
    err->column = n->column;
    err->position = 0;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
}

char *sd_read_file(const char *path, size_t max, size_t *len, dlti_error_t *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        sd_error(err, DLTI_ERROR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
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
        size_t got = fread(data + n, 1, cap - n - 1, f);
        n += got;
        if (n > max) {
            sd_error(err, DLTI_ERROR_LIMIT, path, 0, 0,
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
        sd_error(err, DLTI_ERROR_NOMEM, path, 0, 0, "out of memory");
        return NULL;
    }
    if (failed) {
        sd_error(err, DLTI_ERROR_IO, path, 0, 0, "read error");
        free(data);
        return NULL;
    }
    data[n] = '\0';
    *len = n;
    return data;
}

void sd_buf_put(sd_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sd_buf_puts(sd_buf *b, const char *s)
{
    sd_buf_put(b, s, strlen(s));
}

void sd_buf_printf(sd_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        sd_buf_put(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sd_buf_put(b, big, (size_t)n);
    free(big);
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
