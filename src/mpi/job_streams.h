/* SPDX-License-Identifier: MIT */
/* `stormark streams` as an MPI job: the hooks cmd/streams.c calls
 * (docs/mpi.md). All are no-ops outside a job (sm_mpi NULL). */
#ifndef SM_MPI_JOB_STREAMS_H
#define SM_MPI_JOB_STREAMS_H

#include "mpi/job.h"
#include "result/streams.h"
#include "workload/streams.h"

/* The transport for plan->peers (bounded by --mpi-wait), or NULL outside
 * a job. */
const struct sm_streams_peers *sm_cmd_dist_streams_peers(void);

/*
 * After the search, rc its outcome: this rank's share (bytes, frames, its
 * span, its failure) to rank 0, which fills the host and rank table
 * (items: the frames the rank's streams moved). Returns 1 on the other
 * ranks (they report nothing more), 0 on rank 0 (report res, then
 * sm_cmd_dist_report), or an exit code > 1 on failure (said on stderr).
 */
int sm_cmd_dist_streams(struct sm_streams_result *res, int rc);

#endif
