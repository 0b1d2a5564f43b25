/* SPDX-License-Identifier: MIT */
/* `stormark run` as one MPI job (docs/mpi.md): every test of the profile
 * started on all ranks at a barrier, the job's verdict table (each cell the
 * worst rank's), the paced runs rank 0 names, and rank 0's exact merge of
 * the ranks' tests. All calls are no-ops outside a job (sm_mpi NULL). */
#ifndef SM_MPI_JOB_RUN_H
#define SM_MPI_JOB_RUN_H

#include <stdio.h>

#include "result/run.h"

struct cJSON;

/* Before sm_run_begin(): put the job's hooks in plan (nothing outside a
 * job). */
void sm_cmd_dist_run_hooks(struct sm_run_plan *plan, struct sm_run_result *res);

/*
 * After sm_run_end(): the closing vote (failed: this rank's run failed,
 * the others stop at their next test), this rank's result to rank 0 and,
 * there, res made the job's: each classic test and frame pass merged
 * exactly from every rank's (counts summed, histograms by bucket, the
 * duration from the earliest first I/O to the latest last completion, each
 * rank's placed on the test's barrier), the verdict table the
 * job's. Returns 1 on the other ranks (they report nothing), 0 on rank 0
 * (report res, then sm_cmd_dist_run_report()), or an exit code > 1.
 */
int sm_cmd_dist_run_end(struct sm_run_result *res, int failed);

/* Rank 0, after the run's text report: what the verdicts mean across the
 * ranks and each rank's own best formats, then the host and rank table. */
void sm_cmd_dist_run_report(FILE *f);

/* Rank 0: the "mpi" object (with the ranks' own results, and "verdicts":
 * "worst_rank") added to doc. */
void sm_cmd_dist_run_json(struct cJSON *doc);

/* Free what the job kept (any rank, at the end). */
void sm_cmd_dist_run_release(void);

#endif
