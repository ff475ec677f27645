/* The probe's runtime stage: the cache (rt_cache.c), else every source
 * asked at once in bounded time (rt_child.c), their answers read back
 * (rt_text.c) and merged into the devices (rt_merge.c).  docs/runtimes.md
 * describes the whole. */
#include "probe_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Asks the sources, reads their answers into the run; true when every one
 * answered (the result may be cached).  -1 when out of memory. */
static int ask(pb_run *run, const pb_rt_source *const *src, size_t n, pb_map *libs)
{
    char *texts[PB_RT_NSOURCES];
    char whys[PB_RT_NSOURCES][PB_RT_WHY];
    if (pb_rt_ask(run, src, n, texts, whys) != 0)
        return -1;
    int complete = 1;
    for (size_t i = 0; i < n; i++) {
        if (!texts[i]) {
            pb_rt_skipped(run, src[i]->name, whys[i]);
            complete = 0;
            continue;
        }
        dlti_error_t perr;
        const dlti_attr *a = dlti_attr_parse(run->ctx, texts[i], strlen(texts[i]), src[i]->name,
                                             &perr);
        if (!a || pb_rt_load(run, a) != 0) {
            char why[PB_RT_WHY];
            snprintf(why, sizeof(why), "its answer could not be read back: %.200s",
                     a ? "not a runtime answer" : perr.text);
            pb_rt_skipped(run, src[i]->name, why);
            complete = 0;
        } else {
            collect_libraries(run, libs, a);
        }
        free(texts[i]);
    }
    return complete;
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
    unsigned bits = pb_rt_asked_bits(o);
    const pb_rt_source *src[PB_RT_NSOURCES];
    size_t n = 0;
    for (size_t i = 0; i < PB_RT_NSOURCES; i++) {
        if (bits & pb_rt_sources[i]->bit)
            src[n++] = pb_rt_sources[i];
        else
            pb_rt_skipped(run, pb_rt_sources[i]->name, "not asked (runtimes option)");
    }
    if (n) {
        dlti_buf key = {0};
        bool cache = o->cache != SYSDESC_PROBE_CACHE_OFF;
        if (cache) {
            pb_rt_cache_key(run, bits, &key);
            cache = key.data && !key.failed;
        }
        const dlti_attr *answer = NULL;
        if (cache && o->cache == SYSDESC_PROBE_CACHE_AUTO)
            answer = pb_rt_cache_read(run, key.data);
        if (answer && pb_rt_load(run, answer) == 0) {
            run->rt_origin = "their answers cached by an earlier probe (docs/runtimes.md)";
        } else {
            run->rt_origin = o->runtimes_in_process ? "asked by this probe, in this process"
                                                    : "asked by this probe, in child processes";
            pb_map libs;
            pb_init(&libs);
            int complete = ask(run, src, n, &libs);
            if (complete < 0) {
                pb_free(&libs);
                free(key.data);
                dlti_nomem(err);
                return -1;
            }
            if (complete && cache) {
                const dlti_attr *l = libs.n ? pb_finish(run->ctx, &libs, DLTI_ATTR_MAP, NULL)
                                            : NULL;
                size_t len;
                char *text = pb_rt_print(run, l, &len);
                if (text)
                    pb_rt_cache_write(run, key.data, text, len);
                free(text);
            }
            pb_free(&libs);
        }
        free(key.data);
    }
    pb_rt_say_cuts(run);
    return pb_rt_merge(run, err);
}
