/* SPDX-License-Identifier: MIT */
/* A frames worker thread: claims frames (paced or not), keeps its slots
 * busy on its engine, and its set-up and release. */
#include "workload/frames_int.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/worker.h"
#include "engine/sync_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ask for the next frame: GO (seq and sched set), WAIT (wake set) or DONE. */
static enum sm_pace_claim claim(struct worker *w, uint64_t *seq, uint64_t *sched,
				uint64_t *wake)
{
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;
	uint64_t now = 0;
	enum sm_pace_claim r;

	if (atomic_load_explicit(&sh->abort, memory_order_relaxed) || sm_stopped())
		return SM_PACE_DONE;
	/* The clock is read only when the answer depends on it: a clock read
	 * costs as much as the rest of a null-engine request. */
	if (p->time_limit_ns || sh->paced) {
		now = sm_now_ns();
		if (p->time_limit_ns && now - sh->start.t0_ns >= p->time_limit_ns)
			return SM_PACE_DONE;
	}
	if (!sh->paced) {
		if (w->claim_next == w->claim_end) {
			uint64_t k = sh->claim_batch > 1 ? sh->claim_batch : 1;

			w->claim_next = atomic_fetch_add_explicit(&sh->next, k, memory_order_relaxed);
			w->claim_end = w->claim_next + k;
		}
		*seq = w->claim_next++;
		*sched = 0;     /* unpaced: no schedule */
		return *seq < sh->total ? SM_PACE_GO : SM_PACE_DONE;
	}
	pthread_mutex_lock(&sh->mu);
	r = sm_pace_claim(&sh->pace, now, seq, sched, wake);
	pthread_mutex_unlock(&sh->mu);
	return r;
}

/* Wait until wake (or a completion elsewhere, for playback; or 1 ms). */
static void idle_until(SM_UNUSED struct shared *sh, uint64_t wake)
{
	uint64_t now = sm_now_ns(), limit = now + SM_NS_PER_MS;

	if (wake > limit)
		wake = limit;
	if (wake > now)
		sm_sleep_until_ns(wake);
}

/* A request the engine never took (it failed for good) ends its frame
 * with the error: its slot is retired, so nothing waits for it. */
static void on_unsent(void *ctx, struct sm_io *io, int err)
{
	struct worker *w = ctx;
	struct slot *s = io->user;

	if (s->fd >= 0 && s->state != SLOT_OPEN && !w->sh->plan->stream)
		close(s->fd);
	s->err = err;
	s->state = SLOT_DONE;
	sm_frames_retire_ready(w, s);
}

/* The pump's completions: advance every frame whose request completed;
 * its next request is queued, a finished frame is retired. */
static void on_done(void *ctx, struct sm_io **ios, unsigned n)
{
	struct worker *w = ctx;

	for (unsigned i = 0; i < n; i++) {
		struct slot *s = ios[i]->user;
		struct sm_io *next = sm_frames_slot_step(w, s);

		if (next)
			sm_pump_queue(&w->pump, next);
		else
			sm_frames_retire_ready(w, s);
	}
}

/* Streams: the worker's one open of the file (its frames are offsets in
 * it). Returns 0 or -errno (the test is failed). */
static int stream_open(struct worker *w)
{
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;
	struct sm_io io = { .op = SM_OP_OPEN, .fd = AT_FDCWD, .path = p->path,
			    .open_flags = sh->plan->kind == SM_FRAMES_READ ? sh->open_flags
									 : sh->reuse_flags,
			    .mode = 0644,
			    .buf_index = -1, .file_index = -1 };
	int64_t rc = sm_pump_do(&w->pump, &io);

	if (rc < 0 && io.res >= 0)
		io.res = rc;   /* the engine failed, not the open */
	w->open->count++;
	if (io.res < 0) {
		w->open->errors++;
		sm_frames_fail(sh, (int)io.res, p->kind == SM_FRAMES_READ ? "open" : "create", p->path,
			       NULL);
		return (int)io.res;
	}
	sm_hist_add(&w->open->lat, io.t_done - io.t_issue);
	if (!w->t_first || io.t_issue < w->t_first)
		w->t_first = io.t_issue;
	w->stream_fd = (int)io.res;
	if (p->kind != SM_FRAMES_READ && sh->stream_ino) {
		struct stat st;

		/* the file claimed before the run, not one put in its place */
		if (fstat(w->stream_fd, &st) || st.st_dev != sh->stream_dev ||
		    st.st_ino != sh->stream_ino) {
			sm_frames_fail(sh, -EEXIST, "write", p->path,
				       "it was replaced during the run; not writing into it");
			return -EEXIST;
		}
	}
	return 0;
}

static void stream_close(struct worker *w)
{
	struct sm_io io = { .op = SM_OP_CLOSE, .fd = w->stream_fd, .buf_index = -1,
			    .file_index = -1 };
	int64_t rc = sm_pump_do(&w->pump, &io);

	/* the engine could not run it (it failed with requests out): the
	 * descriptor is closed all the same */
	if (rc < 0 && io.res >= 0)
		sm_sync_exec(&io);
	w->close->count++;
	if (io.res < 0)
		w->close->errors++;
	else
		sm_hist_add(&w->close->lat, io.t_done - io.t_issue);
	if (io.t_done > w->t_last)
		w->t_last = io.t_done;
}

/* Start a frame in every free slot while the schedule allows; the first
 * requests are queued on the pump. *claiming drops to 0 when no frame is
 * left; *wake is when a paced frame may be claimed next. Returns the count. */
static unsigned claim_frames(struct worker *w, unsigned *busy, int *claiming, uint64_t *wake)
{
	struct shared *sh = w->sh;
	unsigned nb = 0;

	for (unsigned i = 0; *claiming && i < w->nslots; i++) {
		struct slot *s = &w->slots[i];
		uint64_t seq, sched;
		enum sm_pace_claim r;

		if (s->state != SLOT_FREE)
			continue;
		r = claim(w, &seq, &sched, wake);
		if (r == SM_PACE_DONE) {
			*claiming = 0;
			break;
		}
		if (r == SM_PACE_WAIT)
			break;
		sm_pump_queue(&w->pump, sm_frames_slot_begin(w, s, seq, sched));
		nb++;
		(*busy)++;
		if (w->nslots > 1 && !sh->plan->out_of_order) {
			w->order[(w->order_head + w->order_len) % w->nslots] = i;
			w->order_len++;
		}
	}
	return nb;
}

/* Hand what is queued to the engine; a failure fails the test (the
 * requests not taken ended their frames: on_unsent). Returns 0, or -1
 * when the engine is not to be waited on again. */
static int submit_queued(struct worker *w, int *claiming)
{
	int rc;

	if (!w->pump.npend)
		return 0;
	rc = sm_pump_submit(&w->pump);
	if (rc >= 0 || rc == -EINTR)
		return 0;
	sm_frames_fail(w->sh, rc, w->pump.err_reaping ? "complete I/O for" : "submit I/O for",
		       w->sh->plan->path, NULL);
	*claiming = 0;
	return w->pump.err_reaping ? -1 : 0;
}

void *sm_frames_worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;
	int claiming = 1;

	if (sm_start_wait(&sh->start))
		goto out;
	if (p->stream && stream_open(w))
		goto out;
	for (;;) {
		unsigned busy = 0;
		uint64_t wake = UINT64_MAX;
		int rc;

		for (unsigned i = 0; i < w->nslots; i++)
			busy += w->slots[i].state != SLOT_FREE;
		claim_frames(w, &busy, &claiming, &wake);
		if (submit_queued(w, &claiming))
			break;
		if (sm_pump_inflight(&w->pump) == 0) {
			if (busy == 0 && !claiming)
				break;
			if (busy == 0 || wake != UINT64_MAX) {
				idle_until(sh, wake);
				continue;
			}
		}
		/* Poll when a paced frame may become due before a completion. */
		rc = sm_pump_reap(&w->pump, wake != UINT64_MAX ? 0 : 1);
		if (rc == -EINTR)
			continue;
		if (rc < 0) {
			sm_frames_fail(sh, rc, "complete I/O for", p->path, NULL);
			break;
		}
		if (rc == 0 && wake != UINT64_MAX) {
			uint64_t now = sm_now_ns();

			if (wake > now + 100 * SM_NS_PER_US)
				wake = now + 100 * SM_NS_PER_US;
			idle_until(sh, wake);
			continue;
		}
		if (submit_queued(w, &claiming))
			break;
	}
	/* a failure can leave requests out: they come back before the
	 * buffers go (after a reap failure, closing the engine waits) */
	sm_pump_drain(&w->pump);
out:
	if (p->stream && w->stream_fd >= 0)
		stream_close(w);
	if (w->sink) {
		int err = p->sink->close(w->sink);

		w->sink = NULL;
		if (err) {
			int none = 0;

			atomic_compare_exchange_strong(&sh->sink_err, &none, err);
		}
	}
	pthread_mutex_lock(&sh->mu);
	atomic_fetch_add(&sh->finished, 1);
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
	return NULL;
}

int sm_frames_worker_setup(struct shared *sh, struct worker *w, unsigned id,
			   const struct sm_engine_need *need,
			char *notice, size_t nlen)
{
	const struct sm_frames_plan *p = sh->plan;
	struct sm_engine_cfg cfg = { 0 };
	void **bufs = NULL;
	int rc = -ENOMEM;

	w->sh = sh;
	w->id = id;
	w->live = sm_series_slot(sh->live, id);
	w->stream_fd = -1;
	w->fastest = UINT64_MAX;
	w->nslots = p->depth ? p->depth : 1;
	w->slots = calloc(w->nslots, sizeof(*w->slots));
	w->order = calloc(w->nslots, sizeof(*w->order));
	w->open = malloc(sizeof(*w->open));
	w->io = malloc(sizeof(*w->io));
	w->close = malloc(sizeof(*w->close));
	w->frame = malloc(sizeof(*w->frame));
	w->sched_lat = sm_hist_new();
	w->map = malloc(sizeof(*w->map));
	bufs = calloc(w->nslots, sizeof(*bufs));
	if (!w->slots || !w->order || !w->open || !w->io || !w->close || !w->frame ||
	    !w->sched_lat || !w->map || !bufs)
		goto out;
	sm_framemap_init(w->map);
	sm_opstat_init(w->open);
	sm_opstat_init(w->io);
	sm_opstat_init(w->close);
	sm_opstat_init(w->frame);
	for (unsigned i = 0; i < w->nslots; i++) {
		struct slot *s = &w->slots[i];

		s->index = i;
		s->fd = -1;
		if (p->stream)
			snprintf(s->path, sizeof(s->path), "%s", p->path);
		if (sh->region_len) {
			s->buf = sm_buf_alloc(sh->region_len, SM_BUF_ALIGN);
			if (!s->buf)
				goto out;
			if (p->kind == SM_FRAMES_WRITE)
				sm_buf_fill(s->buf, sh->region_len, p->data,
					    sh->run_seed + id * 7919 + i * 104729 + 1);
		}
		bufs[i] = s->buf;
	}
	if (p->sink) {
		w->sink = p->sink->open(p->sink, id);
		if (!w->sink)
			goto out;
	}
	cfg.depth = w->nslots;
	if (sh->region_len) {
		cfg.bufs = bufs;
		cfg.nbufs = w->nslots;
		cfg.buf_len = sh->region_len;
	}
	rc = sm_engine_open_need(&w->eng, need, &cfg, notice, nlen);
	if (rc)
		goto out;
	w->eng_ok = 1;
	rc = sm_pump_init(&w->pump, &w->eng, w->nslots, on_done, on_unsent, w);
out:
	free(bufs);
	return rc;
}

void sm_frames_worker_release(struct worker *w)
{
	sm_pump_release(&w->pump);
	if (w->eng_ok)
		sm_engine_close(&w->eng);
	for (unsigned i = 0; w->slots && i < w->nslots; i++)
		free(w->slots[i].buf);
	free(w->slots);
	free(w->order);
	free(w->open);
	free(w->io);
	free(w->close);
	free(w->frame);
	free(w->sched_lat);
	free(w->map);
	if (w->sink)                /* its thread never ran */
		w->sh->plan->sink->close(w->sink);
}
