/* This host's topology as hwloc XML text: what each node of an MPI job
 * sends to the rank that writes the spec (cli/mpi_gather.c).  Loaded as the
 * probe loads a topology, so that probing the text gives what probing the
 * host's `lstopo-no-graphics --of xml` file gives. */
#include "probe_private.h"
#include "sysdesc/cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *sysdesc_cluster_host_xml(const sysdesc_probe_options *opts, size_t *len, dlti_error_t *err)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) {
        bs_error_set_at(err, DLTI_ERROR_NOMEM, NULL, 0, 0, "hwloc_topology_init failed");
        return NULL;
    }
    hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (!opts || opts->io != SYSDESC_PROBE_IO_OFF)
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    char *hw = NULL, *copy = NULL, *env_text = NULL;
    int hwlen = 0;
    if (pb_topology_env_xml(topo, &env_text, err) != 0) {
        hwloc_topology_destroy(topo);
        return NULL;
    }
    if (hwloc_topology_load(topo) != 0 ||
        hwloc_topology_export_xmlbuffer(topo, &hw, &hwlen, 0) != 0 || hwlen < 1) {
        bs_error_set_at(err, DLTI_ERROR_IO, NULL, 0, 0,
                        "hwloc cannot load or export the topology of this host: %s",
                        errno ? strerror(errno) : "unknown error");
    } else if (!(copy = malloc((size_t)hwlen))) {
        bs_nomem(err);
    } else {
        /* hwloc's length counts the final NUL. */
        memcpy(copy, hw, (size_t)hwlen);
        copy[hwlen - 1] = '\0';
        if (len)
            *len = (size_t)hwlen - 1;
    }
    if (hw)
        hwloc_free_xmlbuffer(topo, hw);
    hwloc_topology_destroy(topo);
    free(env_text);
    return copy;
}

void sysdesc_cluster_xml_free(char *xml)
{
    free(xml);
}
