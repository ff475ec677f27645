/* The CPU source: one "CPU" device.  Its keys come in the order of
 * docs/keys.md, which is why the steps of the other files interleave here:
 * facts are found first (the sanity checks compare them with each other),
 * keys written after. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <stdio.h>
#include <string.h>

/* This host only: an XML file does not carry the ISA. */
static void find_isa(const pb_run *run, pb_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
    if (run->host)
        pb_isa_detect(isa);
}

/* The flat keys that MLIR users read (DLTI queries on the device). */
static void add_mlir_keys(pb_run *run, pb_map *dev, const pb_cache *caches, const pb_isa *isa)
{
    pb_caches_flat_keys(run->ctx, dev, caches);
    if (isa->max_vector_op_width > 0)
        pb_i64(run->ctx, dev, "max_vector_op_width", isa->max_vector_op_width);
}

static void add_isa(pb_run *run, pb_map *dev, const pb_isa *isa)
{
    if (!isa->source)
        return;
    pb_add(run->ctx, dev, "features", pb_str_array(run->ctx, isa->features, isa->nfeatures));
    if (isa->sve_vector_length > 0)
        pb_i64(run->ctx, dev, "sve_vector_length_in_bits", isa->sve_vector_length);
    pb_provenance(run, "features", isa->source);
    if (isa->max_vector_op_width > 0)
        pb_provenance(run, "max_vector_op_width", isa->source);
    if (isa->sve_vector_length > 0)
        pb_provenance(run, "sve_vector_length_in_bits", "prctl(PR_SVE_GET_VL)");
}

/* Last, so that every step could still say where its values came from and
 * what failed a sanity check. */
static void add_provenance(pb_run *run, pb_map *dev, dlti_error_t *err)
{
    pb_add(run->ctx, dev, "source", pb_finish(run->ctx, &run->source, DLTI_ATTR_MAP, err));
    if (run->warn.nsuspect)
        pb_add(run->ctx, dev, "suspect",
               pb_str_array(run->ctx, (const char *const *)run->warn.suspect,
                            run->warn.nsuspect));
}

int pb_probe_cpu(pb_run *run, dlti_error_t *err)
{
    pb_map dev;
    pb_init(&dev);
    pb_memory mem;
    pb_cache caches[PB_NCACHES];
    pb_isa isa;
    /* hwloc's unless a step says otherwise (cache.L2 from CPUID, ...). */
    pb_provenance(run, "cache", "hwloc");
    pb_provenance(run, "memory", "hwloc");

    pb_cpu_identity(run, &dev);
    pb_cpu_counts(run, &dev);
    pb_memory_find(run, &mem);
    pb_caches_find(run, caches);
    pb_caches_check(run, caches, mem.total);
    find_isa(run, &isa);

    add_mlir_keys(run, &dev, caches, &isa);
    pb_caches_add(run, &dev, caches, err);
    pb_memory_add(run, &dev, &mem, err);
    add_isa(run, &dev, &isa);
    pb_cpu_uarch(run, &dev, &isa, err); /* cpu_uarch.c: uarch, triple, compiler */
    pb_cpu_frequency(run, &dev);
    pb_cpu_kinds(run, &dev, err);
    pb_cpu_allocation(run, &dev, &mem, err); /* allocation.c: what this process may use */
    add_provenance(run, &dev, err);

    const dlti_attr *cpu = pb_finish(run->ctx, &dev, DLTI_ATTR_DEVICE_SPEC, err);
    if (!cpu)
        return -1;
    char id[300];
    snprintf(id, sizeof(id), "%sCPU", run->prefix);
    pb_add(run->ctx, &run->devices, id, cpu);
    return 0;
}
