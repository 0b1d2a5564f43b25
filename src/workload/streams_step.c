/* SPDX-License-Identifier: MIT */
/* The stream runner: the streams of a step's groups on one thread and one
 * io_uring, each with its own pacing model (core/pace.c) and its own file,
 * or (a frame sequence) its own directory of one file per frame. */
#include "workload/streams.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/pace.h"
#include "core/seal.h"
#include "core/sformats.h"
#include "core/worker.h"
#include "engine/engine.h"
#include "workload/pump.h"
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Longest sleep while requests are in flight: completions are looked for
 * at least this often, so a frame's completion time is late by at most
 * this (0.25 ms, against frame intervals of 16 ms and more). */
#define POLL_NS 250000ull
/* Longest sleep with nothing in flight (a signal is seen within it). */
#define IDLE_NS 10000000ull

/* Where a frame of a sequence stream is: its open, its transfer, its
 * close (a single-file stream's frames are transfers only). */
enum stage { ST_XFER = 0, ST_OPEN, ST_CLOSE };

struct req {
	struct sm_io io;
	unsigned stream;
	uint64_t seq, sched;
	enum stage stage;
	int fd;                     /* sequence: the frame's descriptor once open, -1 */
	int err;                    /* sequence: its transfer's failure, said once closed */
	int moved;                  /* sequence: its transfer completed whole */
	void *buf;                  /* its data: the shared buffer, or (sequence
				     * capture) its own of the alias set */
	char name[32];              /* sequence: the frame's file in the directory */
};

struct stream {
	const struct sm_streams_group_plan *g;
	unsigned idx;               /* its place in its group (g->paths[idx]) */
	struct sm_pace pace;
	struct sm_hist *sched, *early, *late;
	int fd;                     /* single file, -1 */
	int dirfd;                  /* sequence: its directory, -1 */
	int created;                /* single-file capture: this step made the file */
	unsigned char *made;        /* sequence capture: frames this step created, a bit each */
	struct req *reqs;           /* depth of them, its own */
	struct req **free_reqs;
	unsigned nfree;
	unsigned inflight;          /* frames in flight */
	int claims_done;            /* DONE seen, or the stream failed */
	uint64_t wake;              /* claim again at this time (or on a completion) */
	struct sm_stream_fig *fig;
};

struct step {
	const struct sm_streams_step_plan *sp;
	unsigned n;                 /* all groups' streams */
	struct stream *st;
	struct req *reqs;           /* n x depth */
	struct req **free_reqs;
	void *buf;                  /* one buffer behind every other request */
	struct sm_buf_alias alias;  /* sequence capture: a buffer per request */
	struct sm_engine eng;
	int eng_open;
	struct sm_pump pump;        /* every engine call of the loop */
	uint64_t t0, last_done;
	uint64_t next_tick;         /* sp->tick's next due time */
	uint64_t next_stall;        /* the stall detector's next sample */
	uint64_t frames_done;       /* frames completed, all streams */
	struct sm_stall_det det;
	unsigned inflight;          /* frames in flight, all streams */
	int stopping;               /* a stop or a fault: no new frame, no new transfer */
	int fault;                  /* -errno of the first failed request: the step
				     * stops (no stream claims more), 0 */
	char fault_msg[600];        /* "cannot write 'PATH': ..." */
};

static void fault(struct step *s, struct stream *t, int err, const char *what, const char *name)
{
	if (!t->fig->error)
		t->fig->error = err;
	t->claims_done = 1;
	if (s->fault)
		return;
	s->fault = err;
	if (name)
		snprintf(s->fault_msg, sizeof(s->fault_msg), "cannot %s '%s/%s': %s", what,
			 t->g->paths[t->idx], name, strerror(-err));
	else
		snprintf(s->fault_msg, sizeof(s->fault_msg), "cannot %s '%s': %s", what,
			 t->g->paths[t->idx], strerror(-err));
}

/* Close, then remove what a capture created (only that: a frame whose
 * create failed is not ours). Closed first: a share may refuse to remove
 * an open file (SMB without delete-on-close gives EBUSY), and the next
 * step creates the same names. Returns the first removal's -errno (other
 * than ENOENT), 0 when all went. */
static int release(struct step *s, char *what, size_t whatlen)
{
	int rc = 0;

	sm_pump_release(&s->pump);
	if (s->eng_open)
		sm_engine_close(&s->eng);
	for (unsigned i = 0; s->st && i < s->n; i++) {
		struct stream *t = &s->st[i];

		for (unsigned k = 0; t->reqs && k < s->sp->depth; k++)
			if (t->reqs[k].fd >= 0)   /* a frame a failure left open */
				close(t->reqs[k].fd);
		if (t->fd >= 0)
			close(t->fd);
		for (uint64_t k = 0; t->made && k < t->g->frames; k++)
			if (t->made[k / 8] & (1u << (k % 8))) {
				char name[32];

				snprintf(name, sizeof(name), SM_STREAMS_FRAME_NAME, (unsigned long long)k);
				if (unlinkat(t->dirfd, name, 0) && errno != ENOENT && !rc) {
					rc = -errno;
					snprintf(what, whatlen, "%s/%s", t->g->paths[t->idx], name);
				}
			}
		if (t->created && unlink(t->g->paths[t->idx]) && errno != ENOENT && !rc) {
			rc = -errno;
			snprintf(what, whatlen, "%s", t->g->paths[t->idx]);
		}
		if (t->dirfd >= 0)
			close(t->dirfd);
		sm_pace_release(&t->pace);
		free(t->sched);
		free(t->early);
		free(t->late);
		free(t->made);
	}
	free(s->st);
	free(s->reqs);
	free(s->free_reqs);
	free(s->buf);
	sm_buf_alias_release(&s->alias);
	return rc;
}

/* Open stream t's file (single file: capture creates it) or directory. */
static int open_stream(const struct step *s, struct stream *t, char *err, size_t errlen)
{
	const struct sm_streams_group_plan *g = t->g;
	const char *path = g->paths[t->idx];
	int flags = O_CLOEXEC | (s->sp->direct ? sm_os_direct_oflag() : 0), e;

	if (g->sequence) {
		t->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (t->dirfd >= 0)
			return 0;
		e = errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(e));
		return -e;
	}
	if (g->dir == SM_DIR_CAPTURE)
		flags |= O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
	else
		flags |= O_RDONLY;
	t->fd = open(path, flags, 0644);
	if (t->fd >= 0) {
		t->created = g->dir == SM_DIR_CAPTURE;
		return 0;
	}
	e = errno;
	snprintf(err, errlen, "cannot %s '%s': %s", g->dir == SM_DIR_CAPTURE ? "create" : "open", path,
		 strerror(e));
	return -e;
}

static void on_done(void *ctx, struct sm_io **ios, unsigned n);
static void on_unsent(void *ctx, struct sm_io *io, int err);

/* The largest request of the shared buffer, and of the alias set. */
static void sizes(const struct sm_streams_step_plan *sp, uint64_t *shared, uint64_t *own)
{
	*shared = *own = 0;
	for (unsigned k = 0; k < sp->ngroups; k++) {
		const struct sm_streams_group_plan *g = &sp->groups[k];
		uint64_t *m = g->sequence && g->dir == SM_DIR_CAPTURE ? own : shared;

		if (g->n && g->chunk_bytes > *m)
			*m = g->chunk_bytes;
	}
}

static int setup_stream(struct step *s, unsigned i, const struct sm_streams_group_plan *g,
			unsigned idx, unsigned *slot, char *err, size_t errlen)
{
	const struct sm_streams_step_plan *sp = s->sp;
	struct stream *t = &s->st[i];
	int rc;

	t->g = g;
	t->idx = idx;
	t->reqs = &s->reqs[(size_t)i * sp->depth];
	t->free_reqs = &s->free_reqs[(size_t)i * sp->depth];
	for (unsigned k = 0; k < sp->depth; k++) {
		struct req *q = &t->reqs[k];

		q->fd = -1;
		q->stream = i;
		q->buf = s->buf;
		if (g->sequence && g->dir == SM_DIR_CAPTURE)
			q->buf = sm_buf_alias_at(&s->alias, (*slot)++);
		t->free_reqs[t->nfree++] = q;
	}
	t->sched = sm_hist_new();
	t->early = sm_hist_new();
	t->late = sm_hist_new();
	if (g->sequence && g->dir == SM_DIR_CAPTURE)
		t->made = calloc((size_t)(g->frames / 8 + 1), 1);
	if (!t->sched || !t->early || !t->late || (g->sequence && g->dir == SM_DIR_CAPTURE && !t->made)) {
		snprintf(err, errlen, "out of memory for %u streams", s->n);
		return -ENOMEM;
	}
	rc = sm_pace_init(&t->pace, g->dir == SM_DIR_CAPTURE ? SM_PACE_CAPTURE : SM_PACE_PLAYBACK,
			  g->frames, g->fps, sp->queue, sp->prebuffer, t->early, t->late);
	if (rc) {
		snprintf(err, errlen, "cannot set up stream %u's schedule: %s", i, strerror(-rc));
		return rc;
	}
	return open_stream(s, t, err, errlen);
}

static int setup(struct step *s, char *notice, size_t nlen, char *err, size_t errlen)
{
	const struct sm_streams_step_plan *sp = s->sp;
	unsigned nreq = s->n * sp->depth, i = 0, slot = 0, nown = 0;
	struct sm_engine_cfg cfg = { .depth = nreq };
	struct sm_engine_need need = { 0 };
	uint64_t shared, own;
	int rc;

	sizes(sp, &shared, &own);
	for (unsigned k = 0; k < sp->ngroups; k++)
		if (sp->groups[k].sequence && sp->groups[k].dir == SM_DIR_CAPTURE)
			nown += sp->groups[k].n * sp->depth;
	s->st = calloc(s->n, sizeof(*s->st));
	s->reqs = calloc(nreq, sizeof(*s->reqs));
	s->free_reqs = calloc(nreq, sizeof(*s->free_reqs));
	/* One buffer behind every request but a captured frame's: a read's
	 * data is thrown away and every single-file write sends the same
	 * incompressible pattern, so the streams need no memory of their own
	 * for data (the pacing buffers, which decide drops, are each stream's
	 * own: struct sm_pace). A captured frame starts with its own header,
	 * so each of its requests has its own buffer, all sharing the data
	 * after the first page (core/buf.h, sm_buf_alias). */
	s->buf = shared ? sm_buf_alloc(shared, 4096) : NULL;
	if (!s->st || !s->reqs || !s->free_reqs || (shared && !s->buf)) {
		snprintf(err, errlen, "out of memory for %u streams", s->n);
		return -ENOMEM;
	}
	if (shared)
		sm_buf_fill(s->buf, shared, SM_DATA_RANDOM, 0x53545245414dull);
	if (nown) {
		rc = sm_buf_alias_init(&s->alias, own, nown, 0x534551ull);
		if (rc) {
			snprintf(err, errlen, "out of memory for the frames of %u capture streams: %s",
				 nown / sp->depth, strerror(-rc));
			return rc;
		}
	}
	for (unsigned k = 0; k < s->n; k++) {
		s->st[k].fd = -1;
		s->st[k].dirfd = -1;
	}
	for (unsigned k = 0; k < sp->ngroups; k++)
		for (unsigned j = 0; j < sp->groups[k].n; j++, i++) {
			rc = setup_stream(s, i, &sp->groups[k], j, &slot, err, errlen);
			if (rc)
				return rc;
		}
	need.name = sp->engine;
	need.caps = SM_ENGINE_ASYNC;   /* streams keep requests in flight */
	need.flags = sp->engine_flags;
	rc = sm_engine_open_need(&s->eng, &need, &cfg, notice, nlen);
	if (rc) {
		const struct sm_engine_ops *ops = sm_engine_choose(&need);

		snprintf(err, errlen, "cannot start engine '%s': %s",
			 ops ? ops->name : sp->engine ? sp->engine : "?", strerror(-rc));
		return rc;
	}
	s->eng_open = 1;
	rc = sm_pump_init(&s->pump, &s->eng, nreq, on_done, on_unsent, s);
	if (rc)
		snprintf(err, errlen, "out of memory for %u streams", s->n);
	return rc;
}

/* The schedule's frame: the published one, or whole chunks. */
static double frame_of(const struct sm_streams_group_plan *g)
{
	return g->frame_bytes > 0 && !g->sequence ? g->frame_bytes : (double)g->chunk_bytes;
}

uint64_t sm_streams_group_bytes(const struct sm_streams_group_plan *g)
{
	if (g->sequence)
		return g->chunk_bytes;
	return sm_sformat_offset(frame_of(g), g->frames);
}

unsigned sm_streams_step_streams(const struct sm_streams_step_plan *sp)
{
	unsigned n = 0;

	for (unsigned k = 0; k < sp->ngroups; k++)
		n += sp->groups[k].n;
	return n;
}

/* The transfer of frame q->seq: a single file's bytes by the schedule, or
 * (sequence) the whole frame file, on descriptor fd. */
static void prep_xfer(struct stream *t, struct req *q, int fd)
{
	const struct sm_streams_group_plan *g = t->g;

	q->stage = ST_XFER;
	q->io.op = g->dir == SM_DIR_CAPTURE ? SM_OP_WRITE : SM_OP_READ;
	q->io.fd = fd;
	q->io.buf = q->buf;
	if (g->sequence) {
		q->io.off = 0;
		q->io.len = g->chunk_bytes;
	} else {
		/* frame seq's bytes by the schedule: whole blocks, the
		 * published rate over the step (core/sformats.h) */
		q->io.off = sm_sformat_offset(frame_of(g), q->seq);
		q->io.len = sm_sformat_offset(frame_of(g), q->seq + 1) - q->io.off;
	}
}

/* The first request of frame seq of stream t: the transfer, or the open of
 * its file. A captured frame gets its header (core/seal.h) first. */
static void begin_frame(struct stream *t, struct req *q, uint64_t seq, uint64_t sched, int direct)
{
	const struct sm_streams_group_plan *g = t->g;

	memset(&q->io, 0, sizeof(q->io));
	q->io.buf_index = -1;
	q->io.file_index = -1;
	q->io.t_sched = sched;
	q->io.user = q;
	q->seq = seq;
	q->sched = sched;
	q->err = 0;
	q->moved = 0;
	if (!g->sequence) {
		prep_xfer(t, q, t->fd);
		return;
	}
	if (g->dir == SM_DIR_CAPTURE) {
		struct sm_frame_hdr h = { .dir_id = g->dir_id, .index = seq,
					  .frame_bytes = g->chunk_bytes, .run_tag = g->run_tag };

		sm_frame_hdr_put(q->buf, &h);
	}
	snprintf(q->name, sizeof(q->name), SM_STREAMS_FRAME_NAME, (unsigned long long)seq);
	q->stage = ST_OPEN;
	q->io.op = SM_OP_OPEN;
	q->io.fd = t->dirfd;
	q->io.path = q->name;
	q->io.open_flags = O_CLOEXEC | O_NOFOLLOW | (direct ? sm_os_direct_oflag() : 0) |
			   (g->dir == SM_DIR_CAPTURE ? O_WRONLY | O_CREAT | O_EXCL : O_RDONLY);
	q->io.mode = 0644;
}

/* Claim what stream i may start now into the batch. */
static unsigned claim(struct step *s, unsigned i, uint64_t now, unsigned nb, uint64_t *wake)
{
	const struct sm_streams_step_plan *sp = s->sp;
	struct stream *t = &s->st[i];

	if (t->claims_done || t->wake > now)
		goto out;
	t->wake = 0;
	while (t->inflight < sp->depth && t->nfree) {
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
		q = t->free_reqs[--t->nfree];
		begin_frame(t, q, seq, sched, sp->direct);
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

/* Frame q of stream t is over (its last request completed at td, ok or
 * not): account it to its stream's model and figures, free its request. */
static void end_frame(struct step *s, struct stream *t, struct req *q, uint64_t td, int ok)
{
	const struct sm_streams_step_plan *sp = s->sp;
	uint64_t from = q->sched;

	t->inflight--;
	s->inflight--;
	t->free_reqs[t->nfree++] = q;
	t->wake = 0;   /* a completion may free a buffer: claim again */
	if (td > s->last_done)
		s->last_done = td;
	if (!ok) {
		if (t->pace.kind == SM_PACE_PLAYBACK)
			sm_pace_complete(&t->pace, q->seq, td);
		return;
	}
	t->fig->done++;
	s->frames_done++;
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

/* Bytes moved at td: the stream's, its group's and the step's seconds. */
static void count_bytes(struct step *s, struct stream *t, uint64_t bytes, uint64_t td)
{
	const struct sm_streams_step_plan *sp = s->sp;
	uint64_t sec = td >= s->t0 ? (td - s->t0) / 1000000000ull : 0;

	t->fig->bytes += bytes;
	if (td < s->t0 || sec >= sp->nsec)
		return;
	if (sp->sec_bytes)
		sp->sec_bytes[sec] += bytes;
	if (t->g->sec_bytes)
		t->g->sec_bytes[sec] += bytes;
}

/* The close of a sequence frame, after its transfer or in place of it. */
static void prep_close(struct req *q)
{
	q->stage = ST_CLOSE;
	q->io.op = SM_OP_CLOSE;
	q->io.fd = q->fd;
	q->io.buf = NULL;
	q->io.len = 0;
	q->io.off = 0;
}

/* A sequence frame's request finished: the next one of the frame, or its
 * end (the frame's time from schedule runs to its close). */
static void step_sequence(struct step *s, struct stream *t, struct req *q)
{
	const struct sm_streams_group_plan *g = t->g;
	struct sm_io *io = &q->io;

	switch (q->stage) {
	case ST_OPEN:
		if (io->res < 0) {
			fault(s, t, (int)io->res, g->dir == SM_DIR_CAPTURE ? "create" : "open", q->name);
			end_frame(s, t, q, io->t_done, 0);
			return;
		}
		q->fd = (int)io->res;
		if (t->made)
			t->made[q->seq / 8] |= (unsigned char)(1u << (q->seq % 8));
		if (s->stopping || s->fault)
			prep_close(q);   /* a stop: close it untouched */
		else
			prep_xfer(t, q, q->fd);
		break;
	case ST_XFER:
		if (io->res != (int64_t)io->len) {
			q->err = io->res < 0 ? (int)io->res : -EIO;
		} else {
			q->moved = 1;
			count_bytes(s, t, (uint64_t)io->res, io->t_done);
		}
		prep_close(q);
		break;
	case ST_CLOSE:
		q->fd = -1;
		if (q->err || io->res < 0) {
			fault(s, t, q->err ? q->err : (int)io->res, q->err ? (g->dir == SM_DIR_CAPTURE ?
			      "write" : "read") : "close", q->name);
			end_frame(s, t, q, io->t_done, 0);
			return;
		}
		/* a frame a stop closed untouched was not moved */
		end_frame(s, t, q, io->t_done, q->moved);
		return;
	}
	sm_pump_queue(&s->pump, io);
}

/* A request finished: the next request of its frame, or the frame's end. */
static void finish(struct step *s, struct sm_io *io)
{
	struct req *q = io->user;
	struct stream *t = &s->st[q->stream];

	if (t->g->sequence) {
		step_sequence(s, t, q);
		return;
	}
	if (io->res != (int64_t)io->len) {
		/* a short transfer says no more than a failed one: EIO, as
		 * frames says of a short frame; the whole step stops: a fault
		 * is not an answer */
		fault(s, t, io->res < 0 ? (int)io->res : -EIO,
		      t->g->dir == SM_DIR_CAPTURE ? "write" : "read", NULL);
		end_frame(s, t, q, io->t_done, 0);
		return;
	}
	count_bytes(s, t, (uint64_t)io->res, io->t_done);
	end_frame(s, t, q, io->t_done, 1);
}

/* The pump's completions. */
static void on_done(void *ctx, struct sm_io **ios, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		finish(ctx, ios[k]);
}

/* A request the engine never took (it failed for good) ends its stream
 * with the error; a sequence frame left open is closed here. */
static void on_unsent(void *ctx, struct sm_io *io, int err)
{
	struct step *s = ctx;
	struct req *q = io->user;
	struct stream *t = &s->st[q->stream];
	static const char *const what[2][3] = { { "read", "open", "close" },
						{ "write", "create", "close" } };

	if (q->fd >= 0) {
		close(q->fd);
		q->fd = -1;
	}
	fault(s, t, err, what[t->g->dir == SM_DIR_CAPTURE][q->stage], t->g->sequence ? q->name : NULL);
	end_frame(s, t, q, sm_now_ns(), 0);
}

/* Progress, once a second: the bytes and drops of every stream so far. */
static void tick(struct step *s, uint64_t now)
{
	uint64_t bytes = 0, dropped = 0;

	s->next_tick = now + SM_NS_PER_S;
	for (unsigned i = 0; i < s->n; i++) {
		bytes += s->st[i].fig->bytes;
		dropped += s->st[i].pace.dropped;
	}
	s->sp->tick(s->sp->tick_arg, bytes, dropped, now - s->t0);
}

static int loop(struct step *s)
{
	unsigned rot = 0, n = s->n;
	int rc = 0;

	s->t0 = sm_now_ns();
	s->next_tick = s->t0 + SM_NS_PER_S;
	sm_stall_det_init(&s->det);
	s->next_stall = s->t0 + SM_STALL_PERIOD_NS;
	for (unsigned i = 0; i < n; i++)
		sm_pace_start(&s->st[i].pace, s->t0);
	for (;;) {
		uint64_t now = sm_now_ns(), wake = UINT64_MAX;
		unsigned nb = 0, all_done = 1;
		int got;

		if (s->sp->tick && now >= s->next_tick)
			tick(s, now);
		if (now >= s->next_stall) {   /* the loop wakes at least every 10 ms */
			sm_stall_det_feed(&s->det, now - s->t0, s->frames_done);
			s->next_stall = now + SM_STALL_PERIOD_NS;
		}

		if (sm_stopped() && !s->stopping) {
			s->stopping = 1;
			rc = -EINTR;
		}
		if (s->fault && !s->stopping) {
			s->stopping = 1;
			rc = s->fault;
		}
		for (unsigned k = 0; k < n; k++) {
			unsigned i = (rot + k) % n;   /* no stream always first */

			if (!s->stopping)
				nb = claim(s, i, now, nb, &wake);
			if (!s->st[i].claims_done)
				all_done = 0;
		}
		rot++;
		/* requests the engine never takes end their streams with
		 * the error (on_unsent); a stop leaves them for the drain */
		if (s->pump.npend)
			sm_pump_submit(&s->pump);
		if ((all_done || s->stopping) && !s->inflight)
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
	/* what a stop or failure left out comes back before the buffers go
	 * (a sequence frame opened meanwhile is closed untouched) */
	s->stopping = 1;
	sm_pump_drain(&s->pump);
	return rc;
}

/* This process's CPU so far, user + system, in ns (RUSAGE_SELF counts
 * every thread, io_uring's worker threads among them). */
static uint64_t cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * SM_NS_PER_S +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* The shortest buffer of the step's streams: queue frames at the fastest
 * rate of its groups (a stall longer than it drops frames of that group). */
static uint64_t stall_buffer(const struct sm_streams_step_plan *sp)
{
	double fps = 0;

	for (unsigned k = 0; k < sp->ngroups; k++)
		if (sp->groups[k].n && sp->groups[k].fps > fps)
			fps = sp->groups[k].fps;
	return fps > 0 ? (uint64_t)((double)sp->queue * 1e9 / fps) : 0;
}

int sm_streams_step_run(const struct sm_streams_step_plan *sp, struct sm_streams_step *out,
			char *notice, size_t notice_len, char *err, size_t errlen)
{
	struct step s = { .sp = sp };
	uint64_t span = 0, cpu0;
	int rc;

	memset(out, 0, sizeof(*out));
	notice[0] = '\0';
	err[0] = '\0';
	s.n = sm_streams_step_streams(sp);
	out->n = s.n;
	out->streams = calloc(s.n ? s.n : 1, sizeof(*out->streams));
	if (!out->streams) {
		snprintf(err, errlen, "out of memory for %u streams", s.n);
		return -ENOMEM;
	}
	for (unsigned k = 0; k < sp->ngroups; k++) {
		const struct sm_streams_group_plan *g = &sp->groups[k];

		if (g->n && (!g->chunk_bytes || !(g->fps > 0)))
			s.n = 0;
		if (g->n && g->frames / g->fps * 1e9 > (double)span)
			span = (uint64_t)((double)g->frames * 1e9 / g->fps + 0.5);
	}
	if (!s.n || !sp->depth || !sp->queue) {
		snprintf(err, errlen, "empty step");
		return -EINVAL;
	}
	rc = setup(&s, notice, notice_len, err, errlen);
	if (rc)
		goto out;
	if (sp->engine_used)
		snprintf(sp->engine_used, 16, "%s", s.eng.ops->name);
	for (unsigned i = 0; i < s.n; i++)
		s.st[i].fig = &out->streams[i];
	cpu0 = cpu_ns();
	rc = loop(&s);
	out->cpu_ns = cpu_ns() - cpu0;
	if (sp->esetup && !sp->esetup->reported)
		sm_engine_describe(&s.eng, sp->esetup);
	for (unsigned i = 0; i < s.n; i++) {
		struct stream *t = &s.st[i];
		struct sm_stream_fig *f = t->fig;

		sm_pace_finish(&t->pace);
		f->scheduled = t->g->frames;
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
	out->schedule_ns = span;
	sm_stall_det_end(&s.det, out->duration_ns, &out->stalls);
	sm_stalls_count(&out->stalls, stall_buffer(sp));
	out->complete = rc == 0;
	if (rc && rc != -EINTR && s.fault == rc)
		snprintf(err, errlen, "%s", s.fault_msg);
	else if (rc && rc != -EINTR && !err[0])
		snprintf(err, errlen, "I/O engine failed: %s", strerror(-rc));
out:
	{
		char what[4300];
		int urc = release(&s, what, sizeof(what));

		/* a file left would make the next step's create fail */
		if (urc && !rc) {
			snprintf(err, errlen, "cannot remove '%s': %s", what, strerror(-urc));
			rc = urc;
		}
	}
	return rc;
}
