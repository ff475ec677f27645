/* Builder helpers, warnings, provenance, hwloc access and file reading of the probe. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pb_init(pb_map *m)
{
    m->e = NULL;
    m->n = m->cap = 0;
    m->failed = false;
}

void pb_free(pb_map *m)
{
    free(m->e);
    pb_init(m);
}

void pb_add(dlti_context *ctx, pb_map *m, const char *key, const dlti_attr *v)
{
    if (m->failed)
        return;
    dlti_key k = dlti_key_string(ctx, key, strlen(key));
    if (!k || !v) {
        m->failed = true;
        return;
    }
    /* Replace an existing key (keeps the first position). */
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].key == k) {
            m->e[i].value = v;
            return;
        }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        dlti_entry *e = realloc(m->e, cap * sizeof(*e));
        if (!e) {
            m->failed = true;
            return;
        }
        m->e = e;
        m->cap = cap;
    }
    m->e[m->n].key = k;
    m->e[m->n].value = v;
    m->n++;
}

void pb_i64(dlti_context *ctx, pb_map *m, const char *key, int64_t v)
{
    pb_add(ctx, m, key, dlti_i64_new(ctx, v));
}

void pb_bool(dlti_context *ctx, pb_map *m, const char *key, bool v)
{
    pb_add(ctx, m, key, dlti_bool_new(ctx, v));
}

void pb_device_head(dlti_context *ctx, pb_map *m, const char *type)
{
    pb_str(ctx, m, "device_type", type);
    pb_i64(ctx, m, "schema_version", SYSDESC_SCHEMA_VERSION);
}

void pb_str(dlti_context *ctx, pb_map *m, const char *key, const char *s)
{
    if (!s)
        return;
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (!len)
        return;
    pb_add(ctx, m, key, dlti_string_new(ctx, s, len));
}

const dlti_attr *pb_finish(dlti_context *ctx, pb_map *m, dlti_attr_kind kind, dlti_error_t *err)
{
    const dlti_attr *a = NULL;
    if (m->failed) {
        dlti_context_nomem(ctx, err); /* the budget named when it refused */
    } else {
        a = dlti_container_new(ctx, kind, m->e, m->n, err);
    }
    pb_free(m);
    return a;
}

void pb_add_map(dlti_context *ctx, pb_map *m, const char *key, pb_map *sub, dlti_error_t *err)
{
    if (sub->n)
        pb_add(ctx, m, key, pb_finish(ctx, sub, DLTI_ATTR_MAP, err));
    else
        pb_free(sub);
}

const dlti_attr *pb_i64_array(dlti_context *ctx, const int64_t *v, size_t n)
{
    const dlti_type *t = dlti_type_integer(ctx, 64, DLTI_SIGNLESS);
    return t ? dlti_dense_array_new(ctx, t, v, n, NULL) : NULL;
}

const dlti_attr *pb_str_array(dlti_context *ctx, const char *const *v, size_t n)
{
    const dlti_attr **e = calloc(n ? n : 1, sizeof(*e));
    if (!e)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(e[i] = dlti_string_new(ctx, v[i], strlen(v[i])))) {
            free(e);
            return NULL;
        }
    const dlti_attr *a = dlti_array_new(ctx, e, n);
    free(e);
    return a;
}

void pb_terminal_text(char *out, size_t size, const char *in)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)in;
    while (*p && o + 5 < size) {
        /* a UTF-8 sequence a terminal shows as text: no C1 control (the string
         * ends in a NUL, where the check stops) */
        size_t n = *p >= 0x20 && *p < 0x7F ? 1 : *p >= 0x80 ? bs_utf8_len(p, 4, BS_UTF8_NO_C1) : 0;
        if (n) {
            memcpy(out + o, p, n);
            o += n;
            p += n;
        } else {
            o += (size_t)snprintf(out + o, size - o, "\\x%02X", *p++);
        }
    }
    out[o] = '\0';
}

void pb_suspect(pb_warn *w, const char *path)
{
    for (size_t i = 0; i < w->nsuspect; i++)
        if (strcmp(w->suspect[i], path) == 0)
            return;
    if (w->nsuspect == w->capsuspect) {
        size_t cap = w->capsuspect ? w->capsuspect * 2 : 8;
        char **s = realloc(w->suspect, cap * sizeof(*s));
        if (!s)
            return;
        w->suspect = s;
        w->capsuspect = cap;
    }
    char *copy = strdup(path);
    if (copy)
        w->suspect[w->nsuspect++] = copy;
}

void pb_warning(pb_warn *w, const char *path, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    bs_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (path)
        pb_suspect(w, path);
    char line[1024];
    snprintf(line, sizeof(line), "%s%s%s%s", path ? w->prefix : "", path ? "CPU." : "",
             path ? path : "", path ? ": " : "");
    size_t l = strlen(line);
    snprintf(line + l, sizeof(line) - l, "%s", msg);
    /* The library prints nothing: a warning reaches the caller's callback,
     * and its path is in the device's "suspect" list either way.  Paths and
     * values may come from a file or a runtime and the callback may print
     * the line: no control byte of theirs is in it. */
    char shown[1024];
    pb_terminal_text(shown, sizeof(shown), line);
    const sysdesc_probe_options *opts = w->opts;
    if (opts && opts->warning && !opts->quiet)
        opts->warning(opts->warning_user, shown);
}

void pb_provenance(pb_run *run, const char *path, const char *what)
{
    pb_str(run->ctx, &run->source, path, what);
}

const char *pb_info(hwloc_obj_t obj, const char *name)
{
    return obj ? hwloc_obj_get_info_by_name(obj, name) : NULL;
}

int64_t pb_info_num(hwloc_obj_t obj, const char *name)
{
    const char *s = pb_info(obj, name);
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    while (*end == ' ')
        end++;
    if (errno || end == s || *end || v < 0)
        return -1;
    return (int64_t)v;
}

unsigned pb_info_count(hwloc_obj_t obj)
{
#if HWLOC_API_VERSION >= 0x00030000
    return obj->infos.count;
#else
    return obj->infos_count;
#endif
}

const struct hwloc_info_s *pb_info_at(hwloc_obj_t obj, unsigned i)
{
#if HWLOC_API_VERSION >= 0x00030000
    return &obj->infos.array[i];
#else
    return &obj->infos[i];
#endif
}

bool pb_usable(const pb_run *run, hwloc_obj_t o)
{
    if (o->type == HWLOC_OBJ_NUMANODE)
        return pb_whole_node(run) ||
               hwloc_bitmap_isset(hwloc_topology_get_allowed_nodeset(run->topo), o->os_index);
    return o->cpuset && hwloc_bitmap_intersects(o->cpuset, run->allowed);
}

void pb_warn_free(pb_warn *w)
{
    for (size_t i = 0; i < w->nsuspect; i++)
        free(w->suspect[i]);
    free(w->suspect);
    w->suspect = NULL;
    w->nsuspect = w->capsuspect = 0;
}

void pb_copy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    n = n < size ? n : size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int pb_read_file(const char *path, char *buf, size_t size)
{
    int fd = bs_input_open(AT_FDCWD, path, 0, NULL);
    if (fd < 0)
        return -1;
    size_t got;
    bs_input_read(fd, buf, size - 1, &got); /* what was read before a failure stands */
    close(fd);
    buf[got] = '\0';
    return 0;
}
