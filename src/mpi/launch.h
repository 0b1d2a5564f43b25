/* SPDX-License-Identifier: MIT */
/* Whether the MPI library can start under the process manager that
 * launched this process, decided from the environment alone, before
 * MPI_Init: a library that cannot start prints tens of lines per rank and
 * aborts, and no error handler can catch that (docs/mpi.md, "Slurm"). */
#ifndef SM_MPI_LAUNCH_H
#define SM_MPI_LAUNCH_H

#include <stddef.h>

/* What the MPI library can take its job from (comm.h: sm_mpi_pm_kinds()). */
#define SM_MPI_PM_PMIX    (1u << 0)   /* a PMIx server (srun --mpi=pmix, mpirun) */
#define SM_MPI_PM_PMI     (1u << 1)   /* Slurm's PMI-1 or PMI-2 (srun --mpi=pmi2, none) */
#define SM_MPI_PM_UNKNOWN (1u << 2)   /* not known: let the library try */

/*
 * envp: a NULL-terminated "NAME=value" array (environ); lib: the library's
 * SM_MPI_PM_* bits. Returns 0 when the library can start as far as the
 * environment tells (mpirun's processes, a PMIx server, a Slurm step whose
 * PMI the library speaks, a launcher this does not know, an unknown
 * library), or 1 for a Slurm step (SLURM_STEP_ID and SLURM_PROCID set) with
 * no PMIx server (no PMIX_RANK, no OMPI_COMM_WORLD_SIZE) run by a library
 * that needs one: then why (len bytes) gets one line naming the way out.
 */
int sm_mpi_pm_check(char *const *envp, unsigned lib, const char *library, char *why, size_t len);

#endif
