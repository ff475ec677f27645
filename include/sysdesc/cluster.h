/*
 * sysdesc/cluster.h - describe many nodes as node classes.
 *
 * A cluster is described once per kind of node: nodes whose probed specs
 * are identical (but for the host name) form a class, whose devices appear
 * once as "class<k>.CPU", "class<k>.GPU0", ...; the "cluster" device maps
 * every node to its class.  A query for "<node>.<device>" ("cn017.GPU3")
 * finds the device of the node's class (dlti.h, dlti_query).
 * docs/cluster.md describes the shape and the keys.
 *
 *   sysdesc_cluster *cl = sysdesc_cluster_new(ctx, NULL, &err);
 *   for (i = 0; i < n; i++)
 *       if (sysdesc_cluster_add_xml_file(cl, paths[i], &err) != 0) ...
 *   const dlti_attr *spec = sysdesc_cluster_finish(cl, &err);
 *   sysdesc_cluster_free(cl);
 *
 * Memory: each node is probed in a context of its own, freed before the
 * next; the builder keeps one printed spec per class and one name per node,
 * so it grows with the classes, not with the nodes.
 *
 * Ownership: the builder is the caller's (sysdesc_cluster_free); the spec
 * sysdesc_cluster_finish returns belongs to the context given to
 * sysdesc_cluster_new.
 *
 * Errors: NULL or -1 with `err` filled: the probe's errors (the source
 * names the file, or the label of a text), DLTI_ERROR_ARGUMENT for two
 * nodes of one name or a bad rank map, DLTI_ERROR_NOMEM.
 *
 * Threads: a builder is used by one thread at a time.
 */
#ifndef SYSDESC_CLUSTER_H
#define SYSDESC_CLUSTER_H

#include "sysdesc/dlti.h"
#include "sysdesc/export.h"
#include "sysdesc/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sysdesc_cluster sysdesc_cluster;

/**
 * A new builder whose classes are built in `ctx`.  `opts` (may be NULL:
 * defaults) are the probe options of every node; xml_path and
 * device_prefix are ignored.  NULL with `err` on out of memory or a NULL ctx.
 */
SYSDESC_API sysdesc_cluster *sysdesc_cluster_new(dlti_context *ctx, const sysdesc_probe_options *opts,
                                                 dlti_error_t *err);

/** Frees the builder (not the spec it made); NULL is ignored. */
SYSDESC_API void sysdesc_cluster_free(sysdesc_cluster *cl);

/**
 * Probes one node from an hwloc XML file and adds it.  Its name is the
 * topology's HostName info, or "node<i>" (i: the number of nodes added
 * before it) when it has none.  -1 with `err` when the probe fails or
 * another node has that name (DLTI_ERROR_ARGUMENT).
 */
SYSDESC_API int sysdesc_cluster_add_xml_file(sysdesc_cluster *cl, const char *path, dlti_error_t *err);

/**
 * As sysdesc_cluster_add_xml_file, from the XML text `xml` of `len` bytes
 * (an export sent by another process: probe --mpi).  `label` names it in
 * errors ("rank 4"); the text is not kept.
 */
SYSDESC_API int sysdesc_cluster_add_xml_text(sysdesc_cluster *cl, const char *xml, size_t len,
                                             const char *label, dlti_error_t *err);

/**
 * Records an MPI job: rank r of MPI_COMM_WORLD ran on node rank_node[r]
 * (an index in the order the nodes were added), for r < nranks.  The spec
 * then carries "MPI:comm_world_size" and "MPI:rank_nodes" (docs/cluster.md).
 * Call after the last node is added.  -1 with DLTI_ERROR_ARGUMENT when an
 * index names no node, DLTI_ERROR_NOMEM when out of memory.
 */
SYSDESC_API int sysdesc_cluster_set_ranks(sysdesc_cluster *cl, const size_t *rank_node, size_t nranks,
                                          dlti_error_t *err);

/**
 * The #dlti.target_system_spec of the nodes added: the devices of every
 * class ("class0.CPU", ...) and the "cluster" device.  NULL with `err`
 * when no node was added (DLTI_ERROR_ARGUMENT) or memory runs out.  The
 * builder may be freed afterwards; adding more nodes and finishing again
 * gives the larger cluster.
 */
SYSDESC_API const dlti_attr *sysdesc_cluster_finish(sysdesc_cluster *cl, dlti_error_t *err);

/**
 * This host's topology as hwloc XML text, as `lstopo-no-graphics --of xml`
 * writes it (I/O devices unless opts->io is SYSDESC_PROBE_IO_OFF): what one
 * node of an MPI job sends to the rank that writes the spec.  Returns the
 * text (NUL-terminated, `*len` bytes without the NUL; free it with
 * sysdesc_cluster_xml_free), or NULL with `err` (DLTI_ERROR_IO when hwloc
 * cannot load or export the topology).
 */
SYSDESC_API char *sysdesc_cluster_host_xml(const sysdesc_probe_options *opts, size_t *len,
                                           dlti_error_t *err);

/** Frees a text of sysdesc_cluster_host_xml; NULL is ignored. */
SYSDESC_API void sysdesc_cluster_xml_free(char *xml);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_CLUSTER_H */
