/* SPDX-License-Identifier: MIT */
/* Inside the streams search: the state of one search (workload/streams.c)
 * shared with its MPI side (workload/streams_mpi.c). Not an interface. */
#ifndef SM_WORKLOAD_STREAMS_INT_H
#define SM_WORKLOAD_STREAMS_INT_H

#include "workload/streams.h"

#define SM_STREAMS_PATH_LEN 4200

struct sm_streams_search {
	const struct sm_streams_plan *plan;
	struct sm_streams_result *res;
	sm_streams_progress_fn progress;
	void *arg;
	uint64_t t_start, deadline;
	char (*paths)[SM_STREAMS_PATH_LEN];
	const char **pathv;
	unsigned nplay;             /* playback files present (play-000 ...) */
	uint64_t play_bytes;        /* the size each of them holds */
	int direct;
	int engine_noted;
};

/* Playback: make or grow this rank's files for step sp (nothing for
 * capture). 0, -ENOSPC (no room; nothing written), -EINTR or -errno
 * (res->head.error set). */
int sm_streams_prepare(struct sm_streams_search *x, const struct sm_streams_step_plan *sp);

/*
 * This rank's own part of a step: sp->n streams on this rank's files
 * (playback: made or grown first by ensure_play, which may say -ENOSPC
 * before anything runs; capture: the files the step created removed after
 * it). On return *st holds the raw figures (st->streams allocated, also on
 * failure), and this rank's bytes and frames are added to res->rank_*.
 * Returns as sm_streams_step_run() does, or -ENOSPC.
 */
int sm_streams_local_step(struct sm_streams_search *x, const struct sm_streams_step_plan *sp,
			  struct sm_streams_step *st, char *notice, size_t nlen, char *err, size_t elen);

/* Make the test directory DIR/.stormark-streams-XXXXXX and the path
 * arrays, probe direct I/O. 0 or -errno (res->head.error set). */
int sm_streams_setup_dir(struct sm_streams_search *x);

/* Remove the playback files and the test directory (a warning when it
 * holds a file stormark did not make); free the path arrays. */
void sm_streams_teardown(struct sm_streams_search *x);

/* MPI, rank 0 (workload/streams_mpi.c): a step of sp->n streams spread
 * over the ranks (stream i on rank i mod P), merged into *st in stream
 * order, sec (when not NULL) the sum of every rank's per-second bytes.
 * Returns as sm_streams_local_step() does (-ENOSPC when any rank had no
 * room), or -ETIMEDOUT when a rank did not answer (res->rank_lost). */
int sm_streams_mpi_step(struct sm_streams_search *x, const struct sm_streams_step_plan *sp,
			struct sm_streams_step *st, char *notice, size_t nlen, char *err, size_t elen);

/* MPI, rank 0: tell the other ranks the search is over. */
void sm_streams_mpi_end(struct sm_streams_search *x);

#endif
