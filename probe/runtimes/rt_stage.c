/* The probe's runtime stage: the cache (rt_cache.c), else every source
 * asked at once in bounded time (rt_child.c), their answers checked
 * (rt_text.c) and merged as they are into the devices (rt_merge.c).  It
 * starts first of the probe's sources and takes the answers after the CPU
 * and PCI sources, so that the runtimes answer while those run (the CPU's
 * asks the compilers, under the same bound).  docs/runtimes.md describes
 * the whole. */
#include "probe_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the stage holds between its start and its answers. */
typedef struct pb_rt_stage {
    unsigned bits;                     /* the runtimes asked */
    const pb_rt_source *src[PB_RT_NSOURCES];
    size_t n;
    bs_buf key;                      /* the cache's key; empty: no cache */
    const dlti_attr *cached;           /* the cache's answer, when current */
    pb_rt_asking *asking;              /* the sources asked, when not cached */
} pb_rt_stage;

/* Adds every entry of answer's "libraries" map to `libs`. */
static void collect_libraries(pb_run *run, pb_map *libs, const dlti_attr *answer)
{
    const dlti_attr *l = dlti_attr_lookup(answer, dlti_key_string(run->ctx, "libraries", 9));
    for (size_t i = 0; l && dlti_attr_get_kind(l) == DLTI_ATTR_MAP && i < dlti_attr_size(l); i++) {
        const char *path = dlti_key_str(dlti_attr_entry_key(l, i), NULL);
        if (path)
            pb_add(run->ctx, libs, path, dlti_attr_entry_value(l, i));
    }
}

/* The sources' answers into the run; true when every one answered (the
 * result may be cached). */
static bool take_answers(pb_run *run, pb_rt_stage *st, pb_map *libs)
{
    char *texts[PB_RT_NSOURCES];
    char whys[PB_RT_NSOURCES][PB_RT_WHY];
    pb_rt_ask_wait(st->asking, texts, whys);
    st->asking = NULL;
    bool complete = true;
    for (size_t i = 0; i < st->n; i++) {
        const pb_rt_source *src = st->src[i];
        if (!texts[i]) {
            pb_rt_skipped(run, src->name, whys[i]);
            complete = false;
            continue;
        }
        dlti_error_t perr;
        const dlti_attr *a = dlti_attr_parse(run->ctx, texts[i], strlen(texts[i]), src->name,
                                             &perr);
        if (!a || pb_rt_accept(run, a) != 0) {
            char why[PB_RT_WHY];
            snprintf(why, sizeof(why), "its answer could not be read back: %.200s",
                     a ? "not a runtime answer" : perr.text);
            pb_rt_skipped(run, src->name, why);
            complete = false;
        } else {
            collect_libraries(run, libs, a);
        }
        free(texts[i]);
    }
    return complete;
}

int pb_probe_runtimes_start(pb_run *run, dlti_error_t *err)
{
    const sysdesc_probe_options *o = run->opts;
    if (!run->host || run->rt_stage)
        return 0;
    pb_rt_stage *st = calloc(1, sizeof(*st));
    if (!st) {
        bs_nomem(err);
        return -1;
    }
    run->rt_stage = st;
    st->bits = pb_rt_asked_bits(o);
    for (size_t i = 0; i < PB_RT_NSOURCES; i++)
        if (st->bits & pb_rt_sources[i]->bit)
            st->src[st->n++] = pb_rt_sources[i];
    if (!st->n)
        return 0;
    if (o->cache != SYSDESC_PROBE_CACHE_OFF) {
        pb_rt_cache_key(run, st->bits, &st->key);
        if (st->key.failed) {
            free(st->key.data);
            st->key = (bs_buf){0};
        }
    }
    if (st->key.data && o->cache == SYSDESC_PROBE_CACHE_AUTO)
        st->cached = pb_rt_cache_read(run, st->key.data);
    if (!st->cached && !(st->asking = pb_rt_ask_start(run, st->src, st->n))) {
        bs_nomem(err);
        return -1;
    }
    return 0;
}

void pb_probe_runtimes_end(pb_run *run)
{
    pb_rt_stage *st = run->rt_stage;
    if (!st)
        return;
    if (st->asking)
        pb_rt_ask_abandon(st->asking);
    free(st->key.data);
    free(st);
    run->rt_stage = NULL;
}

int pb_probe_runtimes(pb_run *run, dlti_error_t *err)
{
    const sysdesc_probe_options *o = run->opts;
    if (!run->host) {
        /* an XML file's machine has runtimes we cannot ask; one that stood
         * for this host (HWLOC_XMLFILE) says so, as --runtimes=none does */
        if (o->xml_path || run->xml.buffer || run->xml.label)
            return 0;
        for (size_t i = 0; i < PB_RT_NSOURCES; i++)
            pb_rt_skipped(run, pb_rt_sources[i]->name,
                          "not asked: hwloc's topology is another machine's "
                          "(hwloc_topology_is_thissystem)");
        return pb_rt_merge(run, err);
    }
    if (pb_probe_runtimes_start(run, err) != 0)
        return -1;
    pb_rt_stage *st = run->rt_stage;
    for (size_t i = 0; i < PB_RT_NSOURCES; i++)
        if (!(st->bits & pb_rt_sources[i]->bit))
            pb_rt_skipped(run, pb_rt_sources[i]->name, "not asked (runtimes option)");
    if (st->cached && pb_rt_accept(run, st->cached) == 0) {
        run->rt_origin = "their answers cached by an earlier probe (docs/runtimes.md)";
    } else if (st->n) {
        run->rt_origin = o->runtimes_in_process ? "asked by this probe, in this process"
                                                : "asked by this probe, in child processes";
        if (!st->asking && !(st->asking = pb_rt_ask_start(run, st->src, st->n))) {
            bs_nomem(err);
            return -1;
        }
        pb_map libs;
        pb_init(&libs);
        if (take_answers(run, st, &libs) && st->key.data) {
            const dlti_attr *l = libs.n ? pb_finish(run->ctx, &libs, DLTI_ATTR_MAP, NULL) : NULL;
            size_t len;
            char *text = pb_rt_print(run, l, &len);
            if (text)
                pb_rt_cache_write(run, st->key.data, text, len);
            free(text);
        }
        pb_free(&libs);
    }
    pb_probe_runtimes_end(run);
    pb_rt_say_cuts(run);
    return pb_rt_merge(run, err);
}
