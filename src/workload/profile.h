/* SPDX-License-Identifier: MIT */
/* The storage profile behind `stormark run`: classic block figures, frame
 * tests at the main frame sizes, and real-time verdicts per video format,
 * near-limit ones confirmed by paced runs. Runs in a time budget; prints
 * nothing (cmd/run.c and report/run_text.c do). */
#ifndef SM_WORKLOAD_PROFILE_H
#define SM_WORKLOAD_PROFILE_H

#include <limits.h>
#include <stdint.h>

#include "analysis/verdict.h"
#include "result/run.h"
#include "workload/blockio.h"
#include "workload/frames.h"

/* Defaults: 60 s, 4 threads, q 8, b 5, confirm, fps 24 25 30 50 60. */
void sm_run_plan_defaults(struct sm_run_plan *p);

/* Progress: a phase or test named what starts (elapsed and budget in ns;
 * figures NULL); or, what NULL, the test under way goes on and figures
 * says how far (its rate so far...), from its sampler thread once a
 * second: the callback must not block it. */
typedef void (*sm_run_progress_fn)(const char *what, const char *figures, uint64_t elapsed_ns,
				   uint64_t budget_ns, void *arg);

/*
 * A run in four calls, so the command can print each part as it is ready:
 * sm_run_begin() creates the temporary directory plan->dir/.stormark-run-XXXXXX,
 * probes direct I/O and sizes the working sets; sm_run_classic(),
 * sm_run_frames() and sm_run_verdicts() measure; sm_run_end() removes the
 * test data (unless plan->keep). Always call sm_run_end() after a
 * successful sm_run_begin(), also after an error or a signal.
 * Each returns 0; -EINTR when a signal stopped it (res holds what was
 * measured so far); or another -errno with res->head.error set.
 * res is caller-owned; release it with sm_run_result_release(). sm_run_begin()
 * keeps the command, argv and started_at the caller put in res->head
 * (sm_result_head_begin()) and fills the rest.
 */
int sm_run_begin(const struct sm_run_plan *plan, struct sm_run_result *res);

/* The free space a run leaves alone: a tenth of what it found, at least
 * this much (the file system's own metadata, other programs' writes). */
#define SM_RUN_SPACE_MARGIN (4ull << 20)
/* The smallest block test file a run makes. */
#define SM_RUN_MIN_FILE (4ull << 20)

/* The part of free_bytes a run may fill: free_bytes less the margin
 * (UINT64_MAX when free_bytes is 0, unknown). Every test's files fit in
 * it, or the test is skipped with a warning. */
uint64_t sm_run_usable_space(uint64_t free_bytes);

/* Before anything is created: can a run fit in dir's free space at all
 * (SM_RUN_MIN_FILE within the usable space)? Returns 0, or -ENOSPC with
 * one line in msg stating the figure needed and the free space found. */
int sm_run_space_check(const char *dir, char *msg, size_t len);
int sm_run_classic(struct sm_run_result *res, sm_run_progress_fn progress, void *arg);
int sm_run_frames(struct sm_run_result *res, sm_run_progress_fn progress, void *arg);
int sm_run_verdicts(struct sm_run_result *res, sm_run_progress_fn progress, void *arg);
int sm_run_end(struct sm_run_result *res);

void sm_run_result_release(struct sm_run_result *res);

/* The figures of a frame test (rates, frame-time percentiles, cliff, a
 * copy of its series: t->series is freed and replaced) from its frames
 * result, analysed (its rates are fr->fig's, not derived again): what a
 * frame pass keeps; an MPI job's rank 0 calls it on the ranks' merged
 * results. */
void sm_run_frametest_from(const struct sm_frames_result *fr, struct sm_run_frametest *t);

/*
 * A run as one job of many ranks (cmd/dist_run.c, docs/mpi.md): with
 * plan->hooks set the phases call these, every rank in the same order, so
 * each test starts on all ranks at once. An int hook returns 0 (or what it
 * says) or -ECANCELED: the job stops (another rank failed or a wait gave
 * up; res->head.error says so) and the phase returns it.
 */
struct sm_run_hooks {
	void *arg;
	int leader;                 /* 1 on rank 0: it decides the paced runs */
	/* Before each test of the run's fixed sequence (the block file's fill,
	 * each classic test, each frame pass, a playback paced run's read),
	 * also one this rank skips: the start barrier; a test is timed from
	 * its return. */
	int (*begin)(void *arg, const char *what);
	/* After classic test i in direction w, or frame pass s in direction d
	 * (SM_DIR_CAPTURE: written), with its own result. */
	void (*classic)(void *arg, unsigned i, int w, const struct sm_blockio_result *r);
	void (*frames)(void *arg, unsigned s, int d, const struct sm_frames_result *fr);
	/* This rank's verdicts are computed in res->rows: on rank 0 they
	 * become the job's (each cell the worst rank's); the others keep
	 * their own. */
	int (*verdicts)(void *arg, struct sm_run_result *res);
	/* The paced runs, all ranks together: rank 0 passes the run's code
	 * (>= 1, SM_RUN_PACED_CODE) or 0 for no more; every rank gets rank
	 * 0's code back (or -ECANCELED). */
	int (*next_paced)(void *arg, int code);
	/* After that paced run (row, rate, d): this rank's outcome in pc;
	 * on rank 0 pc becomes the job's, the worst rank's (docs/mpi.md). */
	int (*paced)(void *arg, unsigned row, unsigned rate, enum sm_direction d, struct sm_paced *pc);
	/* The metadata line's phases, all ranks in step (each in its own
	 * directory): the caches are dropped before stat, probe and list
	 * only once every rank has ended the phase before, as `meta` under
	 * MPI does (workload/meta.h); NULL: alone. */
	const struct sm_meta_peers *meta_peers;
};

/* A paced run's code in next_paced(): its row, rate and direction. */
#define SM_RUN_PACED_CODE(row, rate, dir) (1 + ((int)(row) * SM_RUN_MAXRATES + (int)(rate)) * 2 + (int)(dir))

#endif
