/* SPDX-License-Identifier: MIT */
/* `stormark run` as one MPI job (docs/mpi.md): every test of the profile
 * started on all ranks at a barrier, the job's verdict table (each cell the
 * worst rank's), the paced runs rank 0 names, and rank 0's exact merge of
 * the ranks' tests (sm_job_run, the kind sm_job_merge() takes: each classic
 * test and frame pass merged from every rank's, counts summed, histograms
 * by bucket, the duration from the earliest first I/O to the latest last
 * completion). The null job has no hooks and merges nothing. */
#ifndef SM_MPI_JOB_RUN_H
#define SM_MPI_JOB_RUN_H

#include "mpi/job.h"
#include "result/run.h"

/* Before sm_run_begin(): put the job's hooks in plan (the null job puts
 * none). */
void sm_job_run_hooks(struct sm_job *j, struct sm_run_plan *plan, struct sm_run_result *res);

/* sm_run_begin() failed (the caller says why): the other ranks hear it at
 * their first test and stop. Nothing for the null job. */
void sm_job_run_stop(struct sm_job *j, struct sm_run_result *res);

#endif
