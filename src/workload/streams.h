/* SPDX-License-Identifier: MIT */
/* `stormark streams`: how many concurrent real-time streams of a format the
 * storage sustains, and whether a mix of them holds. The stream runner
 * (one paced step of groups of streams: single files or frame sequences)
 * and the search over n. Model and choices: docs/streams.md. */
#ifndef SM_WORKLOAD_STREAMS_H
#define SM_WORKLOAD_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "result/streams.h"

/*
 * One step: the streams of every group started at once, each a client of
 * its own with its own pacing model (core/pace.c, the model of frames -f:
 * a FIFO of `queue` frames for capture; `queue` buffers read ahead and a
 * display started after `prebuffer` frames for playback).
 *
 * A group of single-file streams moves frame k's bytes of its file per
 * frame interval by the byte schedule of frame_bytes (core/sformats.h,
 * sm_sformat_offset: whole 4 KiB blocks, at most chunk_bytes, the
 * published rate over the step). A group of frame-sequence streams moves
 * a directory of one file per frame as frames moves a sequence: per frame
 * an open (capture: a create, O_CREAT|O_EXCL|O_NOFOLLOW), the whole frame
 * in one request, a close, every one a request of the engine and all of
 * them in the frame's time; a captured frame carries the frame header of
 * core/seal.h (the stream's dir_id, its index, its size).
 */
struct sm_streams_group_plan {
	unsigned n;                 /* streams */
	enum sm_direction dir;
	int sequence;               /* 1: one file per frame, paths are directories */
	uint64_t chunk_bytes;       /* the largest frame's request, a multiple of 4 KiB */
	double frame_bytes;         /* the published frame (a fraction allowed);
				     * <= 0: whole chunks, frame_bytes = chunk_bytes.
				     * A sequence's frame is chunk_bytes */
	double fps;
	uint64_t frames;            /* per stream */
	/* n files, or (sequence) n directories. Playback: files holding
	 * sm_streams_group_bytes(g) bytes, or directories holding frames
	 * frame000000.tst ... of chunk_bytes each (SM_STREAMS_FRAME_NAME).
	 * Capture: files created with O_CREAT|O_EXCL, or existing directories
	 * the frames are created in; either way what the step created is
	 * removed before it returns. */
	const char *const *paths;
	uint64_t *sec_bytes;        /* or NULL: this group's bytes completed in each
				     * whole second from the common start (nsec of
				     * the step plan, zeroed by the caller) */
	uint64_t dir_id, run_tag;   /* sequence capture: the frame header's */
};

/* A frame's file in a sequence stream's directory, as frames names it. */
#define SM_STREAMS_FRAME_NAME "frame%06llu.tst"

struct sm_streams_step_plan {
	const struct sm_streams_group_plan *groups;
	unsigned ngroups;
	unsigned queue, prebuffer;
	unsigned depth;             /* frames in flight per stream, >= 1 */
	const char *engine;         /* "uring" or "psync" */
	unsigned engine_flags;      /* uring: SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL */
	struct sm_engine_setup *esetup;  /* or NULL; else gets what the engine was
					  * granted, when it has not been filled yet */
	char *engine_used;          /* or NULL; else gets the name of the engine that
				     * ran (psync after a fallback), 16 bytes */
	int direct;
	uint64_t *sec_bytes;        /* or NULL; else nsec counters (zeroed by the
				     * caller): bytes completed in each whole
				     * second from the common start, all groups */
	unsigned nsec;
	/* Progress (NULL: none): called from the step's loop at least a second
	 * apart with the bytes completed and the frames dropped so far by all
	 * its streams and the time since the step's start; must not block. */
	void (*tick)(void *arg, uint64_t bytes, uint64_t dropped, uint64_t elapsed_ns);
	void *tick_arg;
};

/* The bytes one stream of group g moves over its frames (the byte
 * schedule's offset of frame g->frames): what a playback file must hold.
 * A sequence: one frame file's bytes. */
uint64_t sm_streams_group_bytes(const struct sm_streams_group_plan *g);

/* The streams of all groups of sp. */
unsigned sm_streams_step_streams(const struct sm_streams_step_plan *sp);

/*
 * Run one step into *out: out->n is every group's streams together and
 * out->streams (allocated here, the caller frees it) their figures, group
 * by group in plan order; no mix fields (the caller splits the streams).
 * The streams are served by one thread on one io_uring (docs/streams.md
 * says why). Returns 0 (the step ran: out->complete 1), -EINTR when a
 * signal stopped it (partial figures), or -errno with a line in err (a
 * file that cannot be opened or created, out of memory, or a read, write,
 * open or close of a stream that failed: "cannot write 'PATH': ...", the
 * step then stopped at once, its figures partial: a fault is not an
 * answer). What a capture created is removed in every case.
 * *notice gets the engine's fallback notice ("" when none).
 * The figures are raw; sm_streams_step_judge() (analysis/streams.h) decides.
 */
int sm_streams_step_run(const struct sm_streams_step_plan *sp, struct sm_streams_step *out,
			char *notice, size_t notice_len, char *err, size_t errlen);

/*
 * An MPI job's transport, given by the command (cmd/dist_streams.c): the
 * search moves its orders and step results through these and knows
 * nothing of MPI. Every call gives up at deadline_ns (sm_now_ns clock)
 * and returns 0 or -errno (-ETIMEDOUT: a rank never came).
 */
struct sm_streams_peers {
	unsigned rank, ranks;       /* this process, the job's size (> 1) */
	uint64_t wait_ns;           /* the job's bounded wait (--mpi-wait) */
	/* rank 0's n bytes at buf to every rank (the others receive into buf) */
	int (*bcast)(void *arg, void *buf, size_t n, uint64_t deadline_ns);
	/* the largest of every rank's v: also the step's start barrier */
	int (*vote)(void *arg, int v, int *max, uint64_t deadline_ns);
	/* every rank's n bytes to rank 0: there out[r] (malloc'd, NULL when
	 * rank r sent nothing in time) and len[r]; the caller frees them */
	int (*gather)(void *arg, const void *buf, size_t n, uint64_t deadline_ns, char ***out,
		      size_t **len);
	void *arg;
};

/*
 * A rank other than 0 of an MPI job (plan->peers set): makes its own test
 * directory in plan->dir (the command gives DIR/rank.N), then runs its
 * share of every step rank 0 orders (streams r, r + P, ... of the step's
 * n) until rank 0 says the search is over, and removes what it made.
 * res gets this rank's head figures, rank_bytes and rank_frames; no cells;
 * rank_lost when rank 0 gave no order in time (a step's barrier or
 * figures that failed leave the job's end to rank 0). Returns 0, -EINTR,
 * or -errno with res->head.error set.
 */
int sm_streams_serve(const struct sm_streams_plan *plan, struct sm_streams_result *res);

/* Progress callback for the search: what runs now, time spent, budget
 * (figures NULL); or, what NULL, the step under way goes on and figures
 * says how far (its rate and drops so far, once a second). */
typedef void (*sm_streams_progress_fn)(const char *what, const char *figures, uint64_t elapsed_ns,
				       uint64_t budget_ns, void *arg);

/*
 * The whole search (call with res->head begun by the command): makes the
 * test directory DIR/.stormark-streams-XXXXXX; with plan->mix, copies the
 * mix into res->mix and runs it alone for one step (res->mix.ran, held);
 * then, unless the mix did not hold, for every format x rate x direction
 * runs steps (doubling, then bisection; each beside the mix) within the
 * budget; then removes every file it created and the directory. A mix
 * that does not hold, or had no room, is an answer (0), not an error.
 * Returns 0, -EINTR (partial result, files removed), or -errno with
 * res->head.error set.
 */
int sm_streams_run(const struct sm_streams_plan *plan, struct sm_streams_result *res,
		   sm_streams_progress_fn progress, void *arg);

#endif
