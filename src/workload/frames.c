/* SPDX-License-Identifier: MIT */
/* Running a frames test: set-up, worker threads (each a small state machine
 * per in-flight frame on an engine, frames_worker.c and frames_slot.c), the
 * sampler on the calling thread (frames_sample.c), and the merged result. */
#include "workload/frames_int.h"
#include "analysis/frames.h"
#include "core/clock.h"
#include "core/worker.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sm_frames_plan_defaults(struct sm_frames_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = SM_FRAMES_READ;
	p->nframes = 1800;
	p->threads = 1;
	p->queue = 0;          /* paced: resolved by sm_frames_prepare() */
	p->prebuffer = 5;
	p->ios_per_frame = 1;
	p->crop_pct = 100;
	p->update_ns = SM_NS_PER_S;
	p->direct = 1;
	p->data = SM_DATA_RANDOM;
}

void sm_frames_fail(struct shared *sh, int err, const char *what, const char *path, const char *extra)
{
	pthread_mutex_lock(&sh->mu);
	if (!sh->error) {
		sh->error = err;
		if (extra)
			snprintf(sh->error_msg, sizeof(sh->error_msg), "cannot %s '%s': %s", what, path,
				 extra);
		else
			snprintf(sh->error_msg, sizeof(sh->error_msg), "cannot %s '%s': %s", what, path,
				 strerror(-err));
	}
	pthread_mutex_unlock(&sh->mu);
	atomic_store(&sh->abort, 1);
}

/* Every worker's figures into res (after the threads are joined). */
static void merge_results(struct shared *sh, unsigned nw, struct sm_frames_result *res)
{
	res->fastest_ns = UINT64_MAX;
	memset(&res->head.env.engine_setup, 0, sizeof(res->head.env.engine_setup));
	for (unsigned i = 0; i < nw; i++) {
		struct worker *w = &sh->workers[i];
		struct sm_engine_setup es;

		sm_engine_describe(&w->eng, &es);
		sm_esetup_merge(&res->head.env.engine_setup, &es);

		sm_opstat_merge(&res->open, w->open);
		sm_opstat_merge(&res->io, w->io);
		sm_opstat_merge(&res->close, w->close);
		sm_opstat_merge(&res->frame, w->frame);
		sm_hist_merge(&res->sched_lat, w->sched_lat);
		sm_framemap_merge(&res->frame_map, w->map);
		sm_verify_stats_merge(&res->verify, &w->vs);
		if (w->fastest < res->fastest_ns)
			res->fastest_ns = w->fastest;
		if (w->slowest > res->slowest_ns)
			res->slowest_ns = w->slowest;
	}
	if (res->fastest_ns == UINT64_MAX)
		res->fastest_ns = 0;
	res->frames_done = res->frame.count;
	res->bytes = res->frame.bytes;
}

/*
 * The rate a paced run achieved, over its schedule rather than its I/O
 * (result/frames.h): the frames the schedule judged span that many
 * intervals. Capture judged every frame that arrived (each written or
 * dropped), playback every frame the display reached (shown, late or
 * skipped; after sm_pace_finish(), every frame handed out).
 */
static void paced_rate(const struct shared *sh, struct sm_frames_result *res)
{
	const struct sm_pace *pc = &sh->pace;
	uint64_t judged;

	if (pc->kind == SM_PACE_CAPTURE) {
		judged = pc->next_arrival;
		res->paced_frames = res->frame.count;
	} else {
		judged = pc->started ? pc->next_display : 0;
		res->paced_frames = judged - pc->dropped;
	}
	res->schedule_ns = (uint64_t)((double)judged * pc->interval_ns + 0.5);
	res->paced_fps = res->schedule_ns ? (double)res->paced_frames * 1e9 / (double)res->schedule_ns
					  : 0;
}

/* Start one thread per worker; they wait at the gate. On failure the
 * started ones are released to leave and joined; returns 0 or -errno with
 * res->head.error set. */
static int start_threads(struct shared *sh, const struct sm_frames_plan *p, pthread_t *tids,
			 struct sm_frames_result *res)
{
	int rc;

	for (unsigned started = 0; started < p->threads; started++) {
		rc = pthread_create(&tids[started], NULL, sm_frames_worker_main, &sh->workers[started]);
		if (rc) {
			rc = -rc;
			snprintf(res->head.error, sizeof(res->head.error), "cannot start thread: %s",
				 strerror(-rc));
			atomic_store(&sh->abort, 1);
			sm_start_release(&sh->start);   /* workers see abort and leave */
			for (unsigned j = 0; j < started; j++)
				pthread_join(tids[j], NULL);
			return rc;
		}
	}
	return 0;
}

/* The joined workers' figures and the schedule's outcome into res; returns
 * the run's status: 0, the first error, or -EINTR. */
static int finish_result(struct shared *sh, const struct sm_frames_plan *p,
			 struct sm_frames_result *res)
{
	int rc;

	merge_results(sh, p->threads, res);
	sm_frames_window_close(sh, res);
	if (sh->paced) {
		res->frames_dropped = sh->pace.dropped;
		res->longest_drop_run = sh->pace.longest_run;
		res->max_queue = sh->pace.max_queue;
		paced_rate(sh, res);
	}
	res->head.interrupted = sm_stopped();
	rc = sh->error ? sh->error : res->head.interrupted ? -EINTR : 0;
	if (sh->error)
		snprintf(res->head.error, sizeof(res->head.error), "%s", sh->error_msg);
	if (res->head.interrupted || sh->error || p->time_limit_ns) {
		/* Stopped before the schedule's end: count what was due. */
		uint64_t due = res->frames_done + res->frames_dropped;

		if (sh->paced && sh->pace.kind == SM_PACE_CAPTURE)
			due += sh->pace.fifo_len;      /* arrived, never written */
		if (sh->paced && sh->pace.kind == SM_PACE_PLAYBACK)
			due -= res->late.count;        /* late frames were also read */
		if (due < res->frames_scheduled)
			res->frames_scheduled = due;
	}
	return rc;
}

int sm_frames_run(const struct sm_frames_plan *plan, struct sm_frames_result *res,
		  sm_frames_progress_fn progress, void *arg)
{
	/* its hot counter has a cache line of its own: aligned as declared */
	struct shared *sh = aligned_alloc(_Alignof(struct shared), round_up(sizeof(*sh), 64));
	struct sm_frames_plan *p = &res->plan;
	struct sm_result_head head;
	unsigned nw = 0;
	pthread_t *tids = NULL;
	pthread_condattr_t ca;
	int rc;

	head = res->head;
	memset(res, 0, sizeof(*res));
	sm_result_head_keep(&res->head, &head);
	res->plan = *plan;
	sm_opstat_init(&res->open);
	sm_opstat_init(&res->io);
	sm_opstat_init(&res->close);
	sm_opstat_init(&res->frame);
	sm_hist_init(&res->sched_lat);
	sm_hist_init(&res->early);
	sm_hist_init(&res->late);
	sm_framemap_init(&res->frame_map);
	if (!sh)
		return -ENOMEM;
	memset(sh, 0, sizeof(*sh));
	sh->plan = p;
	pthread_mutex_init(&sh->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sh->cv, &ca);
	pthread_condattr_destroy(&ca);
	sm_start_init(&sh->start);

	rc = sm_frames_prepare(sh, p, res);
	if (rc)
		goto out;
	rc = sm_frames_setup_workers(sh, p, res, &nw);
	if (rc)
		goto out;
	rc = -ENOMEM;
	tids = calloc(p->threads, sizeof(*tids));
	if (!tids)
		goto out;
	rc = start_threads(sh, p, tids, res);
	if (rc)
		goto out;
	sm_frames_sample_until_done(sh, p, res, tids, progress, arg);
	rc = finish_result(sh, p, res);
	if (!rc && p->stream && p->kind == SM_FRAMES_WRITE)
		rc = sm_frames_trim_stream(p, sh->distinct, res);
	if (!rc && atomic_load(&sh->sink_err)) {
		rc = atomic_load(&sh->sink_err);
		snprintf(res->head.error, sizeof(res->head.error), "cannot write '%s': %s (the file is incomplete)",
			 p->sink->name, strerror(-rc));
	}
out:
	sm_frames_analyse(res);   /* rates for every layout, from what was filled */
	for (unsigned i = 0; sh->workers && i < nw; i++)
		sm_frames_worker_release(&sh->workers[i]);
	free(sh->workers);
	for (uint64_t i = 0; i < sh->ndirs; i++)
		close(sh->dir_fds[i]);
	free(sh->dir_fds);
	free((void *)sh->fstate);
	free(sh->ring);
	sm_series_free(sh->live);
	free(tids);
	if (sh->paced)
		sm_pace_release(&sh->pace);
	pthread_mutex_destroy(&sh->mu);
	pthread_cond_destroy(&sh->cv);
	free(sh);
	return rc;
}

