/* SPDX-License-Identifier: MIT */
/* The stream runner: n paced streams on one thread and one io_uring, each
 * with its own pacing model (core/pace.c) and file. */
#include "workload/streams.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/pace.h"
#include "core/sformats.h"
#include "core/worker.h"
#include "engine/engine.h"
#include "workload/pump.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Longest sleep while requests are in flight: completions are looked for
 * at least this often, so a frame's completion time is late by at most
 * this (0.25 ms, against frame intervals of 16 ms and more). */
#define POLL_NS 250000ull
/* Longest sleep with nothing in flight (a signal is seen within it). */
#define IDLE_NS 10000000ull

struct stream {
	struct sm_pace pace;
	struct sm_hist *sched, *early, *late;
	int fd;
	unsigned inflight;
	int claims_done;            /* DONE seen, or the stream failed */
	uint64_t wake;              /* claim again at this time (or on a completion) */
	struct sm_stream_fig *fig;
};

struct req {
	struct sm_io io;
	unsigned stream;
	uint64_t seq, sched;
};

struct step {
	const struct sm_streams_step_plan *sp;
	struct stream *st;
	struct req *reqs;
	struct req **free_reqs;
	unsigned nfree;
	void *buf;
	struct sm_engine eng;
	int eng_open;
	struct sm_pump pump;        /* every engine call of the loop */
	uint64_t t0, last_done;
	unsigned inflight;
	unsigned *created;          /* capture: files created so far */
	int fault;                  /* -errno of the first failed transfer: the step
				     * stops (no stream claims more), 0 */
	unsigned fault_stream;      /* the stream it failed in */
};

static void release(struct step *s)
{
	const struct sm_streams_step_plan *sp = s->sp;

	sm_pump_release(&s->pump);
	if (s->eng_open)
		sm_engine_close(&s->eng);
	if (s->st)
		for (unsigned i = 0; i < sp->n; i++) {
			struct stream *t = &s->st[i];

			if (t->fd >= 0)
				close(t->fd);
			sm_pace_release(&t->pace);
			free(t->sched);
			free(t->early);
			free(t->late);
		}
	free(s->st);
	free(s->reqs);
	free(s->free_reqs);
	free(s->buf);
}

static int open_stream(const struct sm_streams_step_plan *sp, unsigned i, int *fd, char *err,
		       size_t errlen)
{
	int flags = O_CLOEXEC | (sp->direct ? O_DIRECT : 0);

	if (sp->dir == SM_DIR_CAPTURE)
		flags |= O_WRONLY | O_CREAT | O_EXCL;
	else
		flags |= O_RDONLY;
	*fd = open(sp->paths[i], flags, 0644);
	if (*fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot %s '%s': %s",
			 sp->dir == SM_DIR_CAPTURE ? "create" : "open", sp->paths[i], strerror(e));
		return -e;
	}
	return 0;
}

static void on_done(void *ctx, struct sm_io **ios, unsigned n);
static void on_unsent(void *ctx, struct sm_io *io, int err);

static int setup(struct step *s, char *notice, size_t nlen, char *err, size_t errlen)
{
	const struct sm_streams_step_plan *sp = s->sp;
	unsigned nreq = sp->n * sp->depth;
	struct sm_engine_cfg cfg = { .depth = nreq };
	int rc;

	s->st = calloc(sp->n, sizeof(*s->st));
	s->reqs = calloc(nreq, sizeof(*s->reqs));
	s->free_reqs = calloc(nreq, sizeof(*s->free_reqs));
	/* One buffer behind every request: a read's data is thrown away and
	 * every write sends the same incompressible pattern, so the streams
	 * need no memory of their own for data (the pacing buffers, which
	 * decide drops, are each stream's own: struct sm_pace). */
	s->buf = sm_buf_alloc(sp->chunk_bytes, 4096);
	if (!s->st || !s->reqs || !s->free_reqs || !s->buf) {
		snprintf(err, errlen, "out of memory for %u streams", sp->n);
		return -ENOMEM;
	}
	sm_buf_fill(s->buf, sp->chunk_bytes, SM_DATA_RANDOM, 0x53545245414dull);
	for (unsigned i = 0; i < sp->n; i++)
		s->st[i].fd = -1;
	for (unsigned i = 0; i < nreq; i++)
		s->free_reqs[s->nfree++] = &s->reqs[i];
	for (unsigned i = 0; i < sp->n; i++) {
		struct stream *t = &s->st[i];

		t->sched = sm_hist_new();
		t->early = sm_hist_new();
		t->late = sm_hist_new();
		if (!t->sched || !t->early || !t->late) {
			snprintf(err, errlen, "out of memory for %u streams", sp->n);
			return -ENOMEM;
		}
		rc = sm_pace_init(&t->pace, sp->dir == SM_DIR_CAPTURE ? SM_PACE_CAPTURE : SM_PACE_PLAYBACK,
				  sp->frames, sp->fps, sp->queue, sp->prebuffer, t->early, t->late);
		if (rc) {
			snprintf(err, errlen, "cannot set up stream %u's schedule: %s", i, strerror(-rc));
			return rc;
		}
		rc = open_stream(sp, i, &t->fd, err, errlen);
		if (rc)
			return rc;
		if (sp->dir == SM_DIR_CAPTURE)
			(*s->created)++;
	}
	cfg.flags = !sp->engine || !strcmp(sp->engine, "uring") ? sp->engine_flags : 0;
	rc = sm_engine_open(&s->eng, sp->engine ? sp->engine : "uring", &cfg, notice, nlen);
	if (rc) {
		snprintf(err, errlen, "cannot start engine '%s': %s", sp->engine ? sp->engine : "uring",
			 strerror(-rc));
		return rc;
	}
	s->eng_open = 1;
	rc = sm_pump_init(&s->pump, &s->eng, nreq, on_done, on_unsent, s);
	if (rc)
		snprintf(err, errlen, "out of memory for %u streams", sp->n);
	return rc;
}

/* The schedule's frame: the published one, or whole chunks. */
static double frame_of(const struct sm_streams_step_plan *sp)
{
	return sp->frame_bytes > 0 ? sp->frame_bytes : (double)sp->chunk_bytes;
}

uint64_t sm_streams_step_bytes(const struct sm_streams_step_plan *sp)
{
	return sm_sformat_offset(frame_of(sp), sp->frames);
}

/* Claim what stream i may start now into the batch. */
static unsigned claim(struct step *s, unsigned i, uint64_t now, unsigned nb, uint64_t *wake)
{
	const struct sm_streams_step_plan *sp = s->sp;
	struct stream *t = &s->st[i];

	if (t->claims_done || t->wake > now)
		goto out;
	t->wake = 0;
	while (t->inflight < sp->depth && s->nfree) {
		uint64_t seq, sched, w;
		enum sm_pace_claim r = sm_pace_claim(&t->pace, now, &seq, &sched, &w);
		struct req *q;

		if (r == SM_PACE_DONE) {
			t->claims_done = 1;
			break;
		}
		if (r == SM_PACE_WAIT) {
			t->wake = w;
			break;
		}
		q = s->free_reqs[--s->nfree];
		memset(&q->io, 0, sizeof(q->io));
		q->io.op = sp->dir == SM_DIR_CAPTURE ? SM_OP_WRITE : SM_OP_READ;
		q->io.fd = t->fd;
		q->io.buf_index = -1;
		q->io.file_index = -1;
		q->io.buf = s->buf;
		/* frame seq's bytes by the schedule: whole blocks, the
		 * published rate over the step (core/sformats.h) */
		q->io.off = sm_sformat_offset(frame_of(sp), seq);
		q->io.len = sm_sformat_offset(frame_of(sp), seq + 1) - q->io.off;
		q->io.t_sched = sched;
		q->io.user = q;
		q->stream = i;
		q->seq = seq;
		q->sched = sched;
		t->inflight++;
		s->inflight++;
		sm_pump_queue(&s->pump, &q->io);
		nb++;
	}
out:
	if (!t->claims_done && t->wake && t->wake < *wake)
		*wake = t->wake;
	return nb;
}

/* A request finished: account it to its stream's model and figures. */
static void finish(struct step *s, struct sm_io *io)
{
	const struct sm_streams_step_plan *sp = s->sp;
	struct req *q = io->user;
	struct stream *t = &s->st[q->stream];
	uint64_t from = q->sched, td = io->t_done;

	t->inflight--;
	s->inflight--;
	s->free_reqs[s->nfree++] = q;
	t->wake = 0;   /* a completion may free a buffer: claim again */
	if (td > s->last_done)
		s->last_done = td;
	if (io->res != (int64_t)io->len) {
		/* a short transfer says no more than a failed one: EIO, as
		 * frames says of a short frame */
		if (!t->fig->error)
			t->fig->error = io->res < 0 ? (int)io->res : -EIO;
		if (!s->fault) {       /* the whole step stops: a fault is not an answer */
			s->fault = t->fig->error;
			s->fault_stream = q->stream;
		}
		t->claims_done = 1;
		if (t->pace.kind == SM_PACE_PLAYBACK)
			sm_pace_complete(&t->pace, q->seq, td);
		return;
	}
	t->fig->done++;
	t->fig->bytes += (uint64_t)io->res;
	if (sp->sec_bytes && td >= s->t0 && (td - s->t0) / 1000000000ull < sp->nsec)
		sp->sec_bytes[(td - s->t0) / 1000000000ull] += (uint64_t)io->res;
	if (t->pace.kind == SM_PACE_PLAYBACK) {
		/* as frames does (workload/frames_slot.c): the buffer of frame
		 * seq is free by the schedule when frame seq - q is shown */
		sm_pace_complete(&t->pace, q->seq, td);
		/* The first `queue` frames fill buffers free from the start,
		 * before the display starts (it waits for them): their time is
		 * the start-up (startup_ns), not a frame time from schedule. */
		if (q->seq < sp->queue)
			return;
		from = sm_pace_due(&t->pace, q->seq - sp->queue);
		sm_hist_add(t->sched, td > from ? td - from : 0);
	} else {
		sm_hist_add(t->sched, td - from);
	}
}

/* The pump's completions. */
static void on_done(void *ctx, struct sm_io **ios, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		finish(ctx, ios[k]);
}

/* A request the engine never took (it failed for good) ends its stream
 * with the error. */
static void on_unsent(void *ctx, struct sm_io *io, int err)
{
	io->res = err;
	io->t_done = sm_now_ns();
	finish(ctx, io);
}

static int loop(struct step *s)
{
	const struct sm_streams_step_plan *sp = s->sp;
	unsigned rot = 0, n = sp->n;
	int stopping = 0, rc = 0;

	s->t0 = sm_now_ns();
	for (unsigned i = 0; i < n; i++)
		sm_pace_start(&s->st[i].pace, s->t0);
	for (;;) {
		uint64_t now = sm_now_ns(), wake = UINT64_MAX;
		unsigned nb = 0, all_done = 1;
		int got;

		if (sm_stopped() && !stopping) {
			stopping = 1;
			rc = -EINTR;
		}
		if (s->fault && !stopping) {
			stopping = 1;
			rc = s->fault;
		}
		for (unsigned k = 0; k < n; k++) {
			unsigned i = (rot + k) % n;   /* no stream always first */

			if (!stopping)
				nb = claim(s, i, now, nb, &wake);
			if (!s->st[i].claims_done)
				all_done = 0;
		}
		rot++;
		/* requests the engine never takes end their streams with
		 * the error (on_unsent); a stop leaves them for the drain */
		if (s->pump.npend)
			sm_pump_submit(&s->pump);
		if ((all_done || stopping) && !s->inflight)
			break;
		got = sm_pump_reap(&s->pump, 0);
		if (got < 0 && got != -EINTR) {
			rc = got;      /* the engine is not waited on again */
			break;
		}
		if (got <= 0) {
			uint64_t limit = sm_now_ns() + (s->inflight ? POLL_NS : IDLE_NS);

			sm_sleep_until_ns(wake < limit ? wake : limit);
		}
	}
	/* what a stop or failure left out comes back before the buffers go */
	sm_pump_drain(&s->pump);
	return rc;
}

int sm_streams_step_run(const struct sm_streams_step_plan *sp, struct sm_streams_step *out,
			char *notice, size_t notice_len, char *err, size_t errlen)
{
	struct step s = { .sp = sp, .created = &out->created };
	int rc;

	memset(out, 0, sizeof(*out));
	notice[0] = '\0';
	err[0] = '\0';
	out->n = sp->n;
	out->streams = calloc(sp->n ? sp->n : 1, sizeof(*out->streams));
	if (!out->streams) {
		snprintf(err, errlen, "out of memory for %u streams", sp->n);
		return -ENOMEM;
	}
	if (!sp->n || !sp->depth || !sp->queue || !sp->chunk_bytes || !(sp->fps > 0)) {
		snprintf(err, errlen, "empty step");
		return -EINVAL;
	}
	rc = setup(&s, notice, notice_len, err, errlen);
	if (rc)
		goto out;
	for (unsigned i = 0; i < sp->n; i++)
		s.st[i].fig = &out->streams[i];
	rc = loop(&s);
	if (sp->esetup && !sp->esetup->reported)
		sm_engine_describe(&s.eng, sp->esetup);
	for (unsigned i = 0; i < sp->n; i++) {
		struct stream *t = &s.st[i];
		struct sm_stream_fig *f = t->fig;

		sm_pace_finish(&t->pace);
		f->scheduled = sp->frames;
		f->dropped = t->pace.dropped;
		f->longest_run = t->pace.longest_run;
		f->max_queue = t->pace.max_queue;
		if (t->pace.kind == SM_PACE_PLAYBACK && t->pace.started && t->pace.t_start > s.t0)
			f->startup_ns = t->pace.t_start - s.t0;
		f->p999_sched_ns = sm_hist_percentile(t->sched, 99.9);
		f->max_sched_ns = t->sched->count ? t->sched->max : 0;
		out->bytes += f->bytes;
	}
	out->duration_ns = s.last_done > s.t0 ? s.last_done - s.t0 : 0;
	out->schedule_ns = (uint64_t)((double)sp->frames * 1e9 / sp->fps + 0.5);
	out->complete = rc == 0;
	if (rc && rc != -EINTR && s.fault == rc)
		snprintf(err, errlen, "cannot %s '%s': %s", sp->dir == SM_DIR_CAPTURE ? "write" : "read",
			 sp->paths[s.fault_stream], strerror(-rc));
	else if (rc && rc != -EINTR && !err[0])
		snprintf(err, errlen, "I/O engine failed: %s", strerror(-rc));
out:
	release(&s);
	return rc;
}
