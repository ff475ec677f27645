/* probe --mpi: MPI is the transport (docs/cluster.md).  The ranks of one
 * node (MPI_Comm_split_type, shared memory) elect the lowest as leader;
 * each leader exports its node's hwloc topology as XML text
 * (sysdesc_cluster_host_xml) and sends it to rank 0, which probes each text
 * as `probe --xml` probes a file (sysdesc_cluster_add_xml_text), one at a
 * time as they arrive, and records which node each rank ran on.
 *
 * SYSDESC_MPI_NODE=N (tests only) puts the rank on node N instead of the
 * node it shares memory with, so that one machine can play several nodes;
 * HWLOC_XMLFILE (hwloc's own) then gives each such node its topology. */
#include "cli.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a leader sends ahead of its text: the text's length, or the length
 * of its error message when it could not export; and its rank in the world. */
enum { HEAD_LEN, HEAD_FAILED, HEAD_RANK, HEAD_N };
enum { TAG_TEXT = 17 };

/* The node communicator: the ranks that share memory, or SYSDESC_MPI_NODE's. */
static int split_nodes(int world_rank, MPI_Comm *node)
{
    const char *fake = getenv("SYSDESC_MPI_NODE");
    if (fake && *fake) {
        char *end;
        long color = strtol(fake, &end, 10);
        if (*end || color < 0 || color > INT_MAX)
            color = 0;
        return MPI_Comm_split(MPI_COMM_WORLD, (int)color, world_rank, node);
    }
    return MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL,
                               node);
}

/* A leader's text: the node's XML, or the reason it has none. */
static char *leader_text(const cli_probe_args *a, int head[HEAD_N], int world_rank)
{
    sysdesc_probe_options opts;
    cli_probe_options(a, &opts);
    dlti_error_t e;
    size_t len = 0;
    char *xml = sysdesc_cluster_host_xml(&opts, &len, &e);
    head[HEAD_RANK] = world_rank;
    if (xml && len < INT_MAX) {
        head[HEAD_LEN] = (int)len;
        head[HEAD_FAILED] = 0;
        return xml;
    }
    sysdesc_cluster_xml_free(xml);
    char *msg = malloc(sizeof(e.text) + 64);
    if (msg)
        snprintf(msg, sizeof(e.text) + 64, "%s", xml ? "the topology's XML is over 2 GiB" : e.text);
    head[HEAD_LEN] = msg ? (int)strlen(msg) : 0;
    head[HEAD_FAILED] = 1;
    return msg;
}

/* An error of the environment (exit 3): a node could not be probed, or memory ran out. */
static void fail(dlti_error_t *err, const char *source, const char *text)
{
    memset(err, 0, sizeof(*err));
    err->code = DLTI_ERROR_IO;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
    snprintf(err->text, sizeof(err->text), "%s", text);
}

/* Rank 0: adds node `i`'s text to the cluster, unless an earlier node failed. */
static int add_text(sysdesc_cluster *cl, const int head[HEAD_N], const char *text, size_t i,
                    dlti_error_t *err)
{
    char label[64];
    snprintf(label, sizeof(label), "rank %d (node %zu)", head[HEAD_RANK], i);
    if (head[HEAD_FAILED] || !text) {
        fail(err, label, text ? text : "out of memory");
        return -1;
    }
    return sysdesc_cluster_add_xml_text(cl, text, (size_t)head[HEAD_LEN], label, err);
}

const dlti_attr *cli_mpi_gather(dlti_context *ctx, const cli_probe_args *a, bool *writer,
                                dlti_error_t *err)
{
    int world_rank, world_size, node_rank, node_index = 0, nleaders = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    *writer = world_rank == 0;
    MPI_Comm node, leaders = MPI_COMM_NULL;
    split_nodes(world_rank, &node);
    MPI_Comm_rank(node, &node_rank);
    /* The leaders, ordered by world rank: world rank 0 leads node 0. */
    MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, world_rank, &leaders);
    if (leaders != MPI_COMM_NULL) {
        MPI_Comm_rank(leaders, &node_index);
        MPI_Comm_size(leaders, &nleaders);
    }
    MPI_Bcast(&node_index, 1, MPI_INT, 0, node);
    int *rank_node = *writer ? malloc((size_t)world_size * sizeof(int)) : NULL;
    MPI_Gather(&node_index, 1, MPI_INT, rank_node, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&node);

    const dlti_attr *spec = NULL;
    if (leaders != MPI_COMM_NULL) {
        int head[HEAD_N];
        char *text = leader_text(a, head, world_rank);
        if (!*writer) {
            MPI_Send(head, HEAD_N, MPI_INT, 0, TAG_TEXT, leaders);
            MPI_Send(text ? text : "", text ? head[HEAD_LEN] : 0, MPI_CHAR, 0, TAG_TEXT, leaders);
            sysdesc_cluster_xml_free(text);
        } else {
            /* Node by node as they arrive: one text in memory at a time.  After
             * a failure the rest are still received, so no leader waits forever. */
            sysdesc_probe_options opts;
            cli_probe_options(a, &opts);
            sysdesc_cluster *cl = sysdesc_cluster_new(ctx, &opts, err);
            int rc = cl ? add_text(cl, head, text, 0, err) : -1;
            sysdesc_cluster_xml_free(text);
            for (int i = 1; i < nleaders; i++) {
                MPI_Recv(head, HEAD_N, MPI_INT, i, TAG_TEXT, leaders, MPI_STATUS_IGNORE);
                size_t len = head[HEAD_LEN] > 0 ? (size_t)head[HEAD_LEN] : 0;
                char *t = malloc(len + 1);
                char sink;
                MPI_Recv(t ? t : &sink, t ? (int)len : 0, MPI_CHAR, i, TAG_TEXT, leaders,
                         MPI_STATUS_IGNORE);
                if (t)
                    t[len] = '\0';
                if (rc == 0)
                    rc = add_text(cl, head, t, (size_t)i, err);
                free(t);
            }
            size_t *ranks = malloc((size_t)world_size * sizeof(size_t));
            for (int r = 0; ranks && rank_node && r < world_size; r++)
                ranks[r] = (size_t)rank_node[r];
            if (rc == 0 && (!ranks || !rank_node))
                rc = -1, fail(err, NULL, "out of memory");
            if (rc == 0 && sysdesc_cluster_set_ranks(cl, ranks, (size_t)world_size, err) == 0)
                spec = sysdesc_cluster_finish(cl, err);
            free(ranks);
            sysdesc_cluster_free(cl);
        }
        MPI_Comm_free(&leaders);
    }
    free(rank_node);
    return spec;
}
