/* probe --cluster and probe --mpi (docs/cluster.md).  The MPI code lives in
 * its own executable, sysdesc-mpi (mpi_main.c, mpi_gather.c), so that
 * neither the library nor the sysdesc tool depends on MPI: `sysdesc probe
 * --mpi` replaces itself with the sysdesc-mpi that lies beside it (the same
 * process, so the launcher's environment and rank stay). */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by sysdesc-mpi's main; NULL in sysdesc. */
cli_mpi_probe_fn cli_mpi_probe = NULL;

const dlti_attr *cli_probe_cluster(dlti_context *ctx, const char *const *xmls, size_t nxml,
                                   const cli_probe_args *a, dlti_error_t *err)
{
    sysdesc_probe_options opts;
    cli_probe_options(a, &opts);
    /* XML files only: hwloc need not load the plugins it will not use. */
    sysdesc_probe_setup_process(SYSDESC_PROBE_SETUP_XML);
    sysdesc_cluster *cl = sysdesc_cluster_new(ctx, &opts, err);
    if (!cl)
        return NULL;
    const dlti_attr *spec = NULL;
    size_t i = 0;
    while (i < nxml && sysdesc_cluster_add_xml_file(cl, xmls[i], err) == 0)
        i++;
    if (i == nxml)
        spec = sysdesc_cluster_finish(cl, err);
    sysdesc_cluster_free(cl);
    return spec;
}

int cli_probe_mpi_exec(int argc, char **argv)
{
    char self[PATH_MAX], helper[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "probe --mpi: cannot find this program: %s",
                        strerror(errno));
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        slash[1] = '\0';
    snprintf(helper, sizeof(helper), "%ssysdesc-mpi", slash ? self : "");
    if (access(helper, X_OK) != 0)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT,
                        "probe --mpi: this sysdesc was built without MPI (no %s; install "
                        "OpenMPI's development files, pkg-config ompi-c, and rebuild)",
                        helper);
    /* argv is "probe ARGS...": sysdesc-mpi takes the same words. */
    char **args = calloc((size_t)argc + 2, sizeof(char *));
    if (!args)
        return cli_nomem();
    args[0] = helper;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    fflush(NULL);
    execv(helper, args);
    int e = errno;
    free(args);
    return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "probe --mpi: cannot run %s: %s", helper,
                    strerror(e));
}
