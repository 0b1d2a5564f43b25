/* SPDX-License-Identifier: MIT */
/* `stormark streams` as an MPI job (docs/mpi.md): rank 0 searches, every
 * rank serves its share of each step's streams, and at the end rank 0
 * fills the host and rank table and each answer's spread over the ranks
 * (sm_job_streams, the kind sm_job_merge() takes). */
#ifndef SM_MPI_JOB_STREAMS_H
#define SM_MPI_JOB_STREAMS_H

#include "mpi/job.h"
#include "workload/streams.h"

/* The transport for plan->peers (bounded by --mpi-wait), or NULL for the
 * null job. */
const struct sm_streams_peers *sm_job_streams_peers(struct sm_job *j);

#endif
