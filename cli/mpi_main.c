/* sysdesc-mpi: `sysdesc probe --mpi` under an MPI launcher (mpirun, srun).
 * sysdesc execs it with its own arguments ("probe --mpi ..."); it runs the
 * probe command with the MPI gather as the probe (mpi_gather.c), and every
 * rank exits with rank 0's status. */
#include "cli.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "probe") != 0) {
        fputs("sysdesc-mpi: error: run as `sysdesc probe --mpi [OPTIONS]` under mpirun or srun\n",
              stderr);
        return SYSDESC_EXIT_BAD_INPUT;
    }
    /* No sysdesc_probe_setup_process() here: the leaders export what
     * lstopo would, with every plugin hwloc has (CUDA, NVML, OpenCL OS
     * devices included). */
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fputs("sysdesc: error: probe --mpi: MPI_Init failed\n", stderr);
        return SYSDESC_EXIT_ENVIRONMENT;
    }
    cli_mpi_probe = cli_mpi_gather;
    int rc = cmd_probe(argc - 1, argv + 1);
    /* Rank 0 wrote the spec (or failed): every rank says what it said. */
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
