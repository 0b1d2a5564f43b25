/* SPDX-License-Identifier: MIT */
/* Tests of the launch check (mpi/launch.h): which environments make the
 * MPI library fail to start, decided before MPI_Init. The environments are
 * those srun 22.05 and mpirun (Open MPI 4.1.4) give their processes. */
#include "mpi/launch.h"
#include "core/compiler.h"

#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define OMPI4 SM_MPI_PM_PMIX   /* Debian's Open MPI 4.1.4: PMIx only */
#define LIB "Open MPI v4.1.4"

/* what srun gives every task, whatever its --mpi */
#define SRUN "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_PROCID=1", "SLURM_NTASKS=2"

static int check(char *const *env, unsigned lib, char *why, size_t len)
{
	return sm_mpi_pm_check(env, lib, LIB, why, len);
}

static void test_srun_pmix(SM_UNUSED void **state)
{
	char *env[] = { SRUN, "SLURM_MPI_TYPE=pmix", "PMIX_RANK=1", "PMIX_NAMESPACE=slurm.pmix.7.0", NULL };
	char why[300] = "x";

	assert_int_equal(check(env, OMPI4, why, sizeof(why)), 0);
	assert_string_equal(why, "");
}

static void test_srun_pmi2(SM_UNUSED void **state)
{
	char *env[] = { SRUN, "SLURM_MPI_TYPE=pmi2", "PMI_FD=11", "PMI_RANK=1", "PMI_SIZE=2", NULL };
	char why[300];

	assert_int_equal(check(env, OMPI4, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "--mpi=pmi2"));
	assert_non_null(strstr(why, "'srun --mpi=pmix'"));
	assert_non_null(strstr(why, "mpirun"));
	assert_non_null(strstr(why, LIB));
	assert_null(strchr(why, '\n'));
	/* a library with Slurm's PMI (Open MPI built --with-pmi) starts */
	assert_int_equal(check(env, OMPI4 | SM_MPI_PM_PMI, why, sizeof(why)), 0);
}

static void test_srun_none(SM_UNUSED void **state)
{
	/* --mpi=none (srun's default here): no PMI variable at all */
	char *env[] = { SRUN, NULL };
	char why[300];

	assert_int_equal(check(env, OMPI4, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "--mpi=none"));
	/* another plugin without PMIx (cray_shasta) is named as srun names it */
	char *env2[] = { SRUN, "SLURM_MPI_TYPE=cray_shasta", NULL };

	assert_int_equal(check(env2, OMPI4, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "--mpi=cray_shasta"));
}

static void test_mpirun(SM_UNUSED void **state)
{
	/* mpirun inside a Slurm allocation: its processes inherit the
	 * allocation's variables (a step's too, when mpirun ran under srun) */
	char *env[] = { SRUN, "OMPI_COMM_WORLD_SIZE=2", "OMPI_COMM_WORLD_RANK=1", NULL };
	char *plain[] = { "OMPI_COMM_WORLD_SIZE=2", "PMIX_RANK=1", NULL };
	char why[300];

	assert_int_equal(check(env, OMPI4, why, sizeof(why)), 0);
	assert_int_equal(check(plain, OMPI4, why, sizeof(why)), 0);
}

static void test_not_slurm(SM_UNUSED void **state)
{
	/* a shell in an allocation (no step), another launcher's PMI, nothing */
	char *alloc[] = { "SLURM_JOB_ID=7", "SLURM_PROCID=0", "SLURM_NTASKS=2", NULL };
	char *hydra[] = { "PMI_SIZE=2", "PMI_RANK=0", "PMI_FD=5", NULL };
	char *empty[] = { NULL };
	char why[300];

	assert_int_equal(check(alloc, OMPI4, why, sizeof(why)), 0);
	assert_int_equal(check(hydra, OMPI4, why, sizeof(why)), 0);
	assert_int_equal(check(empty, OMPI4, why, sizeof(why)), 0);
	assert_int_equal(check(NULL, OMPI4, why, sizeof(why)), 0);
}

static void test_unknown_library(SM_UNUSED void **state)
{
	/* MPICH and others: not judged, the library tries */
	char *env[] = { SRUN, "SLURM_MPI_TYPE=pmi2", "PMI_FD=11", NULL };
	char why[300];

	assert_int_equal(check(env, SM_MPI_PM_UNKNOWN, why, sizeof(why)), 0);
}

static void test_names(SM_UNUSED void **state)
{
	/* a variable is matched by its whole name, not a prefix of it */
	char *env[] = { "SLURM_STEP_ID_X=0", "SLURM_PROCID=0", NULL };
	char *env2[] = { SRUN, "PMIX_RANKS=1", NULL };
	char why[40];

	assert_int_equal(check(env, OMPI4, why, sizeof(why)), 0);
	assert_int_equal(check(env2, OMPI4, why, sizeof(why)), 1);
	assert_true(strlen(why) < sizeof(why));   /* cut, never overrun */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srun_pmix),
		cmocka_unit_test(test_srun_pmi2),
		cmocka_unit_test(test_srun_none),
		cmocka_unit_test(test_mpirun),
		cmocka_unit_test(test_not_slurm),
		cmocka_unit_test(test_unknown_library),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("mpi_launch", tests, NULL, NULL);
}
