/* SPDX-License-Identifier: MIT */
/* `stormark meta` as an MPI job (docs/meta.md, docs/mpi.md): every phase
 * starts on every rank at a vote, each rank in DIR/rank.N or all in one
 * shared directory, and rank 0 merges the phases (sm_job_meta, the kind
 * sm_job_merge() takes) with their last-done and first-done rates. */
#ifndef SM_MPI_JOB_META_H
#define SM_MPI_JOB_META_H

#include "mpi/job.h"
#include "workload/meta.h"

/* The peers for plan->peers (its votes and broadcast bounded by
 * --mpi-wait; shared: one directory for all), or NULL for the null job. */
const struct sm_meta_peers *sm_job_meta_peers(struct sm_job *j, int shared);

#endif
