/* SPDX-License-Identifier: MIT */
/* The launch check of launch.h: a pure function of an environment. */
#include "mpi/launch.h"

#include <stdio.h>
#include <string.h>

/* The value of name in envp, or NULL. */
static const char *env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

int sm_mpi_pm_check(char *const *envp, unsigned lib, const char *library, char *why, size_t len)
{
	const char *type;

	if (len)
		why[0] = '\0';
	if (env_get(envp, "OMPI_COMM_WORLD_SIZE") || (lib & SM_MPI_PM_UNKNOWN))
		return 0;   /* mpirun's own processes; a library this cannot judge */
	if (!env_get(envp, "SLURM_STEP_ID") || !env_get(envp, "SLURM_PROCID"))
		return 0;   /* not a Slurm step: another launcher, left to the library */
	if (env_get(envp, "PMIX_RANK"))
		return 0;   /* a PMIx server is there */
	if (lib & SM_MPI_PM_PMI)
		return 0;   /* Slurm's PMI-2 (PMI_FD) or PMI-1 (its libpmi) */
	/* srun's plugin: PMI_FD is PMI-2's; SLURM_MPI_TYPE is set by every
	 * plugin but none */
	type = env_get(envp, "PMI_FD") ? "pmi2" : env_get(envp, "SLURM_MPI_TYPE");
	if (!type || !*type)
		type = "none";
	snprintf(why, len, "srun started this job with --mpi=%s, which gives no PMIx server, and %s "
		 "takes its job only from PMIx: run it with 'srun --mpi=pmix' (or under mpirun; "
		 "docs/mpi.md)", type, library && *library ? library : "this MPI library");
	return 1;
}
