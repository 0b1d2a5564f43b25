/* SPDX-License-Identifier: MIT */
/* `stormark run` as one MPI job (docs/mpi.md): what each rank's own
 * verdict table says, beside the job's. Data only; filled by rank 0 from
 * the ranks' results (cmd/dist_run.c), printed by report/run_dist.c. */
#ifndef SM_RESULT_RUN_DIST_H
#define SM_RESULT_RUN_DIST_H

/* One rank's best real-time cell per direction in its own table (judged on
 * its own frame tests and paced runs, while all ranks ran at once). */
struct sm_run_rank_best {
	int rank;
	char host[64];
	int reported;              /* 1: its result reached rank 0 with a verdict table */
	int found[2];              /* [direction]: 0 when no cell of its own is real time */
	char format[2][40];
	char fps[2][12];
};

#endif
