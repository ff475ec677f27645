/* The state of one probe (pb_run, probe_private.h), the runtimes' answers
 * in it included: made and freed here, below the driver (driver.c) and the
 * runtimes' children (rt_child.c) that both hold one, so that neither
 * calls the other for it and this file calls nothing above it. */
#include "probe_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pb_run_init(pb_run *run, dlti_context *ctx, const sysdesc_probe_options *opts)
{
    memset(run, 0, sizeof(*run));
    run->ctx = ctx;
    run->opts = opts;
    run->host = opts->xml_path == NULL;
    run->io = opts->io == SYSDESC_PROBE_IO_ON || (opts->io == SYSDESC_PROBE_IO_AUTO && !run->host);
    snprintf(run->prefix, sizeof(run->prefix), "%s",
             opts->device_prefix ? opts->device_prefix : "");
    run->warn.opts = opts;
    run->warn.prefix = run->prefix;
    pb_init(&run->source);
    pb_init(&run->devices);
    pb_init(&run->rt_skipped);
    pb_init(&run->rt_cut);
}

void pb_rt_free_all(pb_run *run)
{
    free(run->rt); /* the devices' answers are the context's */
    run->rt = NULL;
    run->nrt = run->caprt = 0;
    pb_free(&run->rt_skipped);
    pb_free(&run->rt_cut);
}

void pb_run_free(pb_run *run)
{
    pb_free(&run->devices);
    pb_free(&run->source);
    pb_rt_free_all(run);
    free(run->gpus);
    free(run->accels);
    pb_warn_free(&run->warn);
    if (run->allowed)
        hwloc_bitmap_free(run->allowed);
    if (run->process_cpus)
        hwloc_bitmap_free(run->process_cpus);
    if (run->topo)
        hwloc_topology_destroy(run->topo);
}
