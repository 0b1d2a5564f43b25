/* SPDX-License-Identifier: MIT */
/* Inside the streams search: the state of one search (workload/streams.c)
 * shared with its files (workload/streams_files.c) and its MPI side
 * (workload/streams_mpi.c). Not an interface. */
#ifndef SM_WORKLOAD_STREAMS_INT_H
#define SM_WORKLOAD_STREAMS_INT_H

#include "workload/streams.h"

#define SM_STREAMS_PATH_LEN 4200

/* The most groups of a step: a mix's, then the searched streams. */
#define SM_STREAMS_STEP_GROUPS (SM_STREAMS_MAX_GROUPS + 1)

/* A frame-sequence format's playback streams: directories
 * play-<format>-NNN of frames frame000000.tst ..., kept from one step to
 * the next and only grown (each frame written once), dropped when a step
 * needs their room. */
struct sm_streams_seqset {
	char format[40];
	uint64_t frame_bytes;
	uint64_t dir_id;            /* the frames' header (core/seal.h) */
	unsigned ndirs;             /* directories made */
	uint64_t *made;             /* frames made in each of them (0 .. made - 1) */
	int used;                   /* needed by the step being prepared */
};

struct sm_streams_search {
	const struct sm_streams_plan *plan;
	struct sm_streams_result *res;
	sm_streams_progress_fn progress;
	void *arg;
	uint64_t t_start, deadline;
	char (*paths)[SM_STREAMS_PATH_LEN];
	const char **pathv;
	unsigned npaths;            /* room in paths: the mix's streams and --max-streams */
	unsigned nplay;             /* playback files present (play-000 ...) */
	uint64_t play_bytes;        /* the size each of them holds */
	struct sm_streams_seqset *sets;
	unsigned nsets;
	uint64_t run_tag;           /* frame headers: this search's */
	int direct;
	int engine_noted;
	/* --live: the step under way (one_step sets it) and its last second */
	const struct sm_streams_cell *live_cell;
	const char *live_kind;      /* "step", "trial", "recheck", "sustained" */
	unsigned live_n;
	uint64_t live_bytes, live_dropped, live_ns;
};

/* The run's first error (res->error and head.error, each kept when already
 * set): fmt and its arguments, then ": " and rc's text. Returns rc. */
int sm_streams_fail(struct sm_streams_search *x, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* --live: a line for the step under way, "second" (the second that ended
 * at elapsed_ns, bytes and dropped so far in the step) or "step end"
 * (held, and what it moved). Nothing without --live. */
void sm_streams_live_second(struct sm_streams_search *x, uint64_t bytes, uint64_t dropped,
			    uint64_t elapsed_ns);
void sm_streams_live_step(struct sm_streams_search *x, const struct sm_streams_step *st);

/* A group of a step as the search orders it: the plan's group and the
 * format's name (the playback set of a sequence). */
struct sm_streams_order_group {
	struct sm_streams_group_plan g;
	char format[40];
};

/* Playback: make or grow this rank's files and directories for the step
 * of groups og[0..ng) (nothing for capture). 0, -ENOSPC (no room; nothing
 * written), -EINTR or -errno (res->head.error set). */
int sm_streams_prepare(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng);

/*
 * This rank's own part of a step: the groups og[0..ng) on this rank's
 * files (playback: made or grown first, which may say -ENOSPC before
 * anything runs; capture: the directories of sequences made before it and
 * removed after it, the files it created removed by the runner). On
 * return *st holds the raw figures of every stream, group by group
 * (st->streams allocated, also on failure), and this rank's bytes and
 * frames are added to res->rank_*. Returns as sm_streams_step_run() does,
 * or -ENOSPC.
 */
int sm_streams_local_step(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
			  uint64_t *sec, unsigned nsec, struct sm_streams_step *st, char *notice,
			  size_t nlen, char *err, size_t elen);

/* Make the test directory DIR/.stormark-streams-XXXXXX and the path
 * arrays, probe direct I/O. 0 or -errno (res->head.error set). */
int sm_streams_setup_dir(struct sm_streams_search *x);

/* Remove the playback files and directories and the test directory (a
 * warning when it holds a file stormark did not make); free the path
 * arrays. */
void sm_streams_teardown(struct sm_streams_search *x);

/* MPI, rank 0 (workload/streams_mpi.c): a step of the groups og[0..ng)
 * spread over the ranks (stream i of the step, counted over the groups in
 * order, on rank i mod P), merged into *st in stream order, sec (when not
 * NULL) the sum of every rank's per-second bytes of each group (ng x nsec,
 * group-major). Returns as sm_streams_local_step() does (-ENOSPC when any
 * rank had no room), or -ETIMEDOUT when a rank did not answer
 * (res->rank_lost). */
int sm_streams_mpi_step(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
			uint64_t *sec, unsigned nsec, struct sm_streams_step *st, char *notice,
			size_t nlen, char *err, size_t elen);

/* MPI, rank 0: tell the other ranks the search is over. */
void sm_streams_mpi_end(struct sm_streams_search *x);

#endif
