/* SPDX-License-Identifier: MIT */
/* `stormark run` as one MPI job (docs/mpi.md): what each rank's own
 * verdict table says, beside the job's. Data only; filled by rank 0 from
 * the ranks' results (cmd/dist_run.c), printed by report/run_dist.c. */
#ifndef SM_RESULT_RUN_DIST_H
#define SM_RESULT_RUN_DIST_H

/* The tests a rank's rate is compared in: the 8 block tests (read and
 * write of each), then the 6 frame passes (write and read of each size). */
#define SM_RUN_DIST_TESTS 14

/* One rank's best real-time cell per direction in its own table (judged on
 * its own frame tests and paced runs, while all ranks ran at once). */
struct sm_run_rank_best {
	int rank;
	char host[64];
	int reported;              /* 1: its result reached rank 0 with a verdict table */
	int found[2];              /* [direction]: 0 when no cell of its own is real time */
	char format[2][40];
	char fps[2][12];
	/* derived (sm_run_dist_slow): the tests in which this rank was a
	 * straggler, its own rate below SM_DIST_STRAGGLER x the median
	 * rank's in that test */
	unsigned nslow;
	char slow[SM_RUN_DIST_TESTS][24];
};

#endif
