/* SPDX-License-Identifier: MIT */
/* The figures of a many-host run's rank and host dimension. */
#ifndef SM_ANALYSIS_DIST_H
#define SM_ANALYSIS_DIST_H

#include "result/dist.h"

/* A rank (or host) whose rate is below this share of the median rank's
 * (host's) rate is a straggler (docs/mpi.md). */
#define SM_DIST_STRAGGLER 0.8

/*
 * From d->rank[] (rank, host, reported, done_ns, bytes, items filled):
 * each rank's rate, the hosts (d->host, allocated: free it), first and
 * last done, the job's rates and the stragglers: a reported rank whose
 * rate (bytes over its own done_ns) is below SM_DIST_STRAGGLER x the
 * median of the reported ranks' rates; a host likewise by its rate per
 * rank against the median host's. Needs two reported ranks (hosts) to flag
 * any. Then the rows listed (rank[].listed): all up to d->list_max
 * (SM_DIST_LIST_MAX when 0); above it, in quotas of a quarter of it, the
 * first failed or silent ranks, the slowest stragglers, the slowest and
 * the fastest of the others. A saved selection (d->saved_selection) keeps
 * the figures read with it: only each row's rate is derived. Returns 0 or
 * -ENOMEM.
 */
int sm_dist_analyse(struct sm_dist_result *d);

#endif
