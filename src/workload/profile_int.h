/* SPDX-License-Identifier: MIT */
/* Inside the storage profile (workload/profile*.c): the context each phase
 * runs in, the helpers the phases share, and the phases. Not for use
 * outside workload/profile*.c. */
#ifndef SM_WORKLOAD_PROFILE_INT_H
#define SM_WORKLOAD_PROFILE_INT_H

#include "workload/frames.h"
#include "workload/profile.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

/* Context of one phase of a profile run (sm_run_classic() and the others
 * set it up and tear it down). */
struct sm_prof {
	const struct sm_run_plan *plan;
	struct sm_run_result *res;
	sm_run_progress_fn progress;
	void *arg;
	uint64_t t0;                     /* the run's start (res->t0_ns) */
	struct sm_frames_result *fr;     /* scratch result, reused by each frame test */
	/* --live: the test under way (sm_prof_tell) and a block test's last
	 * second (its tick) */
	char phase[160];
	uint64_t live_bytes, live_ios, live_ns;
};

/* ns since the run started. */
uint64_t sm_prof_elapsed(const struct sm_prof *x);

/* Report progress: a test named what starts. */
void sm_prof_tell(struct sm_prof *x, const char *what);

/* Record a failure in the result: res->error = rc and res->head.error =
 * fmt with its arguments, then ": " and strerror(-rc). Returns rc. */
int sm_prof_fail(struct sm_prof *x, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Size the working sets and the time of each test from the budget and the
 * free space (res->head.env must be collected). */
void sm_prof_budget(struct sm_prof *x);

/* A frames plan for a test of kind in dir: the run's threads, engine, seed
 * and direct I/O, quiet, no CSV; the caller sets count, loop, pacing and
 * time limit. */
void sm_prof_frames_plan(const struct sm_prof *x, struct sm_frames_plan *f, const char *dir,
			 enum sm_frames_kind kind, uint64_t frame_bytes);

/* Run a frames plan into the scratch result x->fr (creating dir for a
 * write; checking it first), keeping its engine name and warnings in the
 * run's result. Returns 0, -EINTR, or -errno with res->head.error set. */
int sm_prof_frames_go(struct sm_prof *x, struct sm_frames_plan *f);

/* The phases: classic block figures (profile_classic.c), frame tests per
 * size (profile_frames.c), paced runs of the near-limit verdicts
 * (profile_paced.c). Each returns 0, -EINTR, or -errno with
 * res->head.error set. */
int sm_prof_classic(struct sm_prof *x);
int sm_prof_frames(struct sm_prof *x);

/* run's metadata line (res->meta): a short meta run in the test
 * directory. Returns 0 (also when it failed: a meta_failed warning, the
 * line not measured), -EINTR on a signal, -ENOMEM. */
int sm_prof_meta(struct sm_prof *x);
int sm_prof_confirm(struct sm_prof *x);

#endif
