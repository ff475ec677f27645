/* The runtime sources' table (their rows, in runtimes/meson.build's
 * order), what the runtimes option's words mean, and what a source records:
 * the devices it saw (pb_rt_add) and why it saw none (pb_rt_skipped). */
#include "probe_private.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X(name) &pb_rt_##name,
const pb_rt_source *const pb_rt_sources[PB_RT_NSOURCES] = {PB_RUNTIME_NAMES};
#undef X

/* Whether `word` is the n bytes at p. */
static bool is_word(const char *word, const char *p, size_t n)
{
    return strlen(word) == n && memcmp(word, p, n) == 0;
}

const pb_rt_source *pb_rt_find(const char *name, size_t len)
{
    for (size_t i = 0; i < PB_RT_NSOURCES; i++)
        if (is_word(pb_rt_sources[i]->name, name, len))
            return pb_rt_sources[i];
    return NULL;
}

/* The first source the runtimes option's word p (n bytes) asks; NULL if none. */
static const pb_rt_source *option_word(const char *p, size_t n)
{
    for (size_t i = 0; i < PB_RT_NSOURCES; i++)
        if (is_word(pb_rt_sources[i]->option, p, n))
            return pb_rt_sources[i];
    return NULL;
}

const char *sysdesc_probe_runtime_name(size_t i, unsigned *bit)
{
    /* each bit once, by its first row (NVML shares CUDA's, AMD SMI ROCm's) */
    for (unsigned b = 1; b & SYSDESC_RUNTIME_ALL; b <<= 1)
        for (size_t k = 0; k < PB_RT_NSOURCES; k++)
            if (pb_rt_sources[k]->bit == b) {
                if (i-- == 0) {
                    if (bit)
                        *bit = b;
                    return pb_rt_sources[k]->option;
                }
                break;
            }
    return NULL;
}

size_t sysdesc_probe_runtime_names(char *out, size_t size)
{
    size_t len = 0;
    const char *w;
    if (size)
        out[0] = '\0';
    for (size_t i = 0; (w = sysdesc_probe_runtime_name(i, NULL)) != NULL; i++) {
        int k = snprintf(len < size ? out + len : NULL, len < size ? size - len : 0, "%s%s",
                         i ? ", " : "", w);
        if (k > 0)
            len += (size_t)k;
    }
    return len;
}

int sysdesc_probe_runtimes_parse(const char *list, unsigned *bits, dlti_error_t *err)
{
    unsigned b = 0;
    if (!list || !bits) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no runtime list");
        return -1;
    }
    if (strcmp(list, "none") == 0) {
        *bits = SYSDESC_RUNTIME_NONE;
        return 0;
    }
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        const pb_rt_source *src;
        if (is_word("all", p, n)) {
            b |= SYSDESC_RUNTIME_ALL;
        } else if ((src = option_word(p, n))) {
            b |= src->bit;
        } else {
            char words[256];
            sysdesc_probe_runtime_names(words, sizeof(words));
            bs_error_set(err, DLTI_ERROR_ARGUMENT, "unknown runtime '%.*s' (%s; all; none)",
                         (int)n, p, words);
            return -1;
        }
        if (!p[n])
            break;
        p += n + 1;
    }
    *bits = b;
    return 0;
}

void pb_rt_init(pb_rt_device *d, const char *runtime, int ordinal)
{
    memset(d, 0, sizeof(*d));
    d->runtime = runtime;
    d->ordinal = ordinal;
    pb_init(&d->unified);
    pb_init(&d->view);
    pb_init(&d->partitions);
}

void pb_rt_free_device(pb_rt_device *d)
{
    pb_free(&d->unified);
    pb_free(&d->view);
    pb_free(&d->partitions);
}

void pb_rt_skipped(pb_run *run, const char *runtime, const char *why)
{
    pb_str(run->ctx, &run->rt_skipped, runtime, why);
}

void *pb_rt_dlopen(pb_run *run, const char *runtime, const char *lib)
{
    dlerror();
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        /* "No such file" is the common case, the runtime is not installed;
         * anything else (a broken or foreign library) is worth its text. */
        const char *e = dlerror();
        char why[PB_RT_WHY];
        if (!e || strstr(e, "No such file"))
            snprintf(why, sizeof(why), "%s not found", lib);
        else
            snprintf(why, sizeof(why), "%s not loaded: %.200s", lib, e);
        pb_rt_skipped(run, runtime, why);
    }
    return h;
}

size_t pb_rt_cap(pb_run *run, const char *runtime, const char *what, size_t reported, size_t max)
{
    if (reported <= max)
        return reported;
    char note[PB_RT_WHY];
    snprintf(note, sizeof(note), "the runtime reports %zu %s; the first %zu are read "
             "(PB_VENDOR_MAX_DEVICES)", reported, what, max);
    pb_map *m = &run->rt_cut;
    for (size_t i = 0; i < m->n; i++) {
        const char *k = dlti_key_str(m->e[i].key, NULL);
        const char *was;
        size_t len;
        if (!k || strcmp(k, runtime) != 0 ||
            dlti_attr_get_string(m->e[i].value, &was, &len, NULL) != 0)
            continue;
        /* a second cut of the same runtime (a platform's devices, then
         * another's): one line that says both */
        bs_buf b = {0};
        bs_buf_printf(&b, "%s; %s", was, note);
        const dlti_attr *v = b.failed ? NULL : dlti_string_new(run->ctx, b.data, b.len);
        free(b.data);
        if (v)
            m->e[i].value = v;
        else
            m->failed = true;
        return max;
    }
    pb_str(run->ctx, m, runtime, note);
    return max;
}

void pb_rt_say_cuts(pb_run *run)
{
    for (size_t i = 0; i < run->rt_cut.n; i++) {
        const char *rt = dlti_key_str(run->rt_cut.e[i].key, NULL);
        const char *note;
        if (!rt || dlti_attr_get_string(run->rt_cut.e[i].value, &note, NULL, NULL) != 0)
            continue;
        pb_warning(&run->warn, NULL, "runtimes.%s: %s", rt, note);
    }
}

/* The runtimes the options ask, as SYSDESC_RUNTIME_* bits. */
unsigned pb_rt_asked_bits(const sysdesc_probe_options *o)
{
    if (o->runtimes & SYSDESC_RUNTIME_NONE)
        return 0;
    return o->runtimes ? o->runtimes & SYSDESC_RUNTIME_ALL : SYSDESC_RUNTIME_ALL;
}

