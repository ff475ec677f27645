/* What the vendor runtimes saw: each runtime's file adds its devices here;
 * they are merged into the system spec's devices afterwards. */
#include "probe_private.h"

#include <stdlib.h>
#include <string.h>

void pb_rt_init(pb_rt_device *d, const char *runtime, int ordinal)
{
    memset(d, 0, sizeof(*d));
    d->runtime = runtime;
    d->ordinal = ordinal;
    pb_init(&d->unified);
    pb_init(&d->view);
    pb_init(&d->partitions);
}

static void rt_free(pb_rt_device *d)
{
    pb_free(&d->unified);
    pb_free(&d->view);
    pb_free(&d->partitions);
}

int pb_rt_add(pb_run *run, pb_rt_device *d, dlti_error_t *err)
{
    if (dlti_grow((void **)&run->rt, &run->caprt, run->nrt + 1, sizeof(*run->rt)) != 0) {
        rt_free(d);
        memset(d, 0, sizeof(*d));
        dlti_error_set(err, DLTI_ERROR_NOMEM, "out of memory");
        return -1;
    }
    run->rt[run->nrt++] = *d;
    memset(d, 0, sizeof(*d));
    return 0;
}

void pb_rt_skipped(pb_run *run, const char *runtime, const char *why)
{
    pb_str(run->ctx, &run->rt_skipped, runtime, why);
}

void pb_rt_free_all(pb_run *run)
{
    for (size_t i = 0; i < run->nrt; i++)
        rt_free(&run->rt[i]);
    free(run->rt);
    run->rt = NULL;
    run->nrt = run->caprt = 0;
    pb_free(&run->rt_skipped);
}
