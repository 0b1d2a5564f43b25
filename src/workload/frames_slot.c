/* SPDX-License-Identifier: MIT */
/* The per-frame state machine a worker runs on its engine: open -> I/Os ->
 * close, then the frame is retired (accounted) in completion or start order. */
#include "workload/frames_int.h"
#include "core/clock.h"
#include "core/seal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Paced: the frame's time from schedule (and, in playback, tell the
 * display it is complete and learn its lateness) into its record and the
 * worker's from-schedule histogram. Definitions in result/frames.h. */
static void pace_account(struct worker *w, const struct slot *s, struct sm_frame_record *r)
{
	struct shared *sh = w->sh;
	uint64_t from = s->sched;   /* capture: its arrival */

	if (sh->pace.kind == SM_PACE_PLAYBACK) {
		unsigned q = sh->pace.q;

		pthread_mutex_lock(&sh->mu);
		r->late = sm_pace_complete(&sh->pace, s->seq, s->t_end);
		if (sh->pace.started) {
			r->have_lateness = 1;
			r->lateness_ns = (int64_t)(s->t_end - sm_pace_due(&sh->pace, s->seq));
		}
		/* Frame seq's buffer is free, by the schedule, when frame
		 * seq - q is shown (the display has started by then: no buffer
		 * frees before it); the first q have theirs from the start. */
		from = s->seq < q ? sh->start.t0_ns : sm_pace_due(&sh->pace, s->seq - q);
		pthread_mutex_unlock(&sh->mu);
	}
	r->have_sched = 1;
	/* Capture cannot complete before its arrival (a frame is claimed only
	 * once it has arrived): left unclamped, a broken schedule shows as a
	 * huge value rather than a plausible 0. */
	r->sched_ns = s->t_end > from || sh->pace.kind == SM_PACE_CAPTURE ? s->t_end - from : 0;
	sm_hist_add(w->sched_lat, r->sched_ns);
}

/* Successful frame: the worker's statistics and published counters. */
static void account(struct worker *w, const struct slot *s, uint64_t ft)
{
	struct shared *sh = w->sh;

	sm_hist_add(&w->frame->lat, ft);
	w->frame->count++;
	w->frame->bytes += s->bytes;
	if (sh->plan->kind != SM_FRAMES_EMPTY) {
		sm_hist_add(&w->io->lat, s->io_ns);
		w->io->count++;
		w->io->bytes += s->bytes;
	}
	if (ft < w->fastest)
		w->fastest = ft;
	if (ft > w->slowest)
		w->slowest = ft;
	sm_series_add(w->live, C_FRAMES, 1);
	sm_series_add(w->live, C_BYTES, s->bytes);
	sm_series_add(w->live, C_OPEN_NS, s->open_ns);
	sm_series_add(w->live, C_IO_NS, s->io_ns);
	sm_series_add(w->live, C_CLOSE_NS, s->close_ns);
	sm_series_add(w->live, C_FRAME_NS, ft);
	if (sh->windowed)
		sm_series_record(w->live, HIST_FRAME, ft);
}

/* A frame is finished (successfully or not): account it and hand its
 * record to the sink. */
static void retire(struct worker *w, struct slot *s)
{
	struct shared *sh = w->sh;
	uint64_t ft = s->t_end - s->t_begin;
	struct sm_frame_record r = { 0 };

	if (!s->err) {
		account(w, s, ft);
		if (sh->plan->verify_written)
			__atomic_store_n(&sh->plan->verify_written[s->frame], 1, __ATOMIC_RELAXED);
		if (sh->paced)
			pace_account(w, s, &r);
		sm_framemap_add(w->map, s->seq, ft, r.have_sched, r.sched_ns);
	}
	if (s->t_end > w->t_last)
		w->t_last = s->t_end;
	if (w->sink) {
		r.frame = s->frame;
		r.seq = s->seq;
		r.thread = w->id;
		r.path = s->path;
		r.start_ns = s->t_begin - sh->start.t0_ns;
		r.open_ns = s->open_ns;
		r.io_ns = s->io_ns;
		r.close_ns = s->close_ns;
		r.frame_ns = ft;
		r.bytes = s->bytes;
		r.err = s->err;
		sh->plan->sink->record(w->sink, &r);
	}
	s->state = SLOT_FREE;
}

/* ---- the per-frame state machine ---------------------------------------- */

static void prep_xfer(struct shared *sh, struct slot *s)
{
	const struct sm_frames_plan *p = sh->plan;
	uint64_t off = sh->region_off + (uint64_t)s->chunk * sh->chunk_len;
	uint64_t len = sh->chunk_len;

	if (off + len > sh->region_off + sh->region_len)
		len = sh->region_off + sh->region_len - off;
	s->io.op = p->kind == SM_FRAMES_READ ? SM_OP_READ : SM_OP_WRITE;
	s->io.fd = s->fd;
	s->io.buf = (char *)s->buf + (off - sh->region_off);
	s->io.len = len;
	s->io.off = off + (p->stream ? s->frame * p->frame_bytes : 0);
	s->io.buf_index = (int)s->index;
	s->state = SLOT_XFER;
}

static void prep_close(struct slot *s)
{
	s->io.op = SM_OP_CLOSE;
	s->io.fd = s->fd;
	s->io.buf_index = -1;
	s->state = SLOT_CLOSE;
}

/* --verify: a trailer at the end of every 4 KiB of the frame (the last
 * block takes the remainder), after the stamp, before the timer starts. */
static void seal_frame(struct worker *w, struct slot *s)
{
	const struct sm_frames_plan *p = w->sh->plan;
	uint64_t n = sm_verify_nblocks(p->frame_bytes, SM_VERIFY_FRAME_BLOCK), t0 = sm_now_ns();
	struct sm_vblk_id id = {
		.set = p->verify_run, .run = p->verify_run, .seq = s->seq + 1, .file = (uint32_t)s->frame,
	};

	for (uint64_t k = 0; k < n; k++) {
		uint32_t len;

		sm_verify_block_at(p->frame_bytes, SM_VERIFY_FRAME_BLOCK, k, &id.off, &len);
		sm_verify_seal((unsigned char *)s->buf + id.off, len, &id);
	}
	w->vs.sealed += n;
	w->vs.seal_ns += sm_now_ns() - t0;
}

/* The flags frame s->frame is opened with. A write claims a frame not
 * known to exist (FS_NEW -> FS_CLAIMED) and creates it with O_EXCL; a
 * frame that is ours (FS_OURS) is reopened. Only the claiming slot ever
 * creates: another slot that wants the same frame while its create is
 * under way (a loop shorter than the frames in flight) opens it without
 * O_CREAT and waits (open_wait()). */
static int open_flags(struct shared *sh, struct slot *s)
{
	_Atomic unsigned char *st;
	unsigned char expect = FS_NEW;

	s->claimed = s->waiting = 0;
	if (sh->plan->kind == SM_FRAMES_READ)
		return sh->open_flags;
	if (!sh->fstate)
		return sh->create_flags;   /* the null engine: nothing is opened */
	st = &sh->fstate[s->frame];
	if (atomic_load(st) == FS_OURS)
		return sh->reuse_flags;
	if (atomic_compare_exchange_strong(st, &expect, FS_CLAIMED)) {
		s->claimed = 1;
		return sh->create_flags;
	}
	if (expect == FS_OURS)
		return sh->reuse_flags;
	s->waiting = 1;
	return sh->open_flags;   /* no O_CREAT, no O_TRUNC: changes nothing */
}

/* A waiting slot's open of s->frame completed. The descriptor is used only
 * when the claiming slot's O_EXCL create has succeeded (FS_OURS): if the
 * open found the file before that create, the file was someone else's
 * (the create then fails and stops the run) and nothing was written to
 * it. Returns 1 when the open is to be issued again (descriptor closed),
 * 0 to go on with io->res (the file is ours, or an error). */
static int open_wait(struct shared *sh, struct slot *s)
{
	struct sm_io *io = &s->io;

	if (io->res < 0 && io->res != -ENOENT)
		return 0;
	if (io->res >= 0 && atomic_load(&sh->fstate[s->frame]) == FS_OURS) {
		s->waiting = 0;
		return 0;
	}
	if (io->res >= 0)
		close((int)io->res);
	if (atomic_load(&sh->abort)) {
		io->res = -ECANCELED;
		return 0;
	}
	if (atomic_load(&sh->fstate[s->frame]) == FS_OURS) {
		s->waiting = 0;
		io->open_flags = sh->reuse_flags;
	}
	return 1;
}

/* A write of frame s failed after its open: the file is this run's (it
 * created it, or reopened one that passed the ownership check and
 * truncated it) and no longer a whole frame, perhaps without its header:
 * remove it, so that it is neither read as a frame nor refused as someone
 * else's by the next write test. */
static void drop_failed(struct shared *sh, struct slot *s)
{
	if (sh->dir_fds)
		unlinkat(sh->dir_fds[s->frame / sh->plan->files_per_dir], strrchr(s->path, '/') + 1, 0);
	else
		unlink(s->path);
}

/* Start frame seq in slot s; returns the first request. */
struct sm_io *sm_frames_slot_begin(struct worker *w, struct slot *s, uint64_t seq, uint64_t sched)
{
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;

	s->seq = seq;
	s->frame = sm_frames_frame_of(sh, seq);
	s->sched = sched;
	s->err = 0;
	s->chunk = 0;
	s->bytes = 0;
	s->open_ns = s->io_ns = s->close_ns = 0;
	s->t_begin = 0;
	memset(&s->io, 0, sizeof(s->io));
	s->io.buf_index = -1;
	s->io.file_index = -1;
	s->io.user = s;
	s->io.t_sched = sched;
	if (!p->stream)
		sm_frames_name(sh, s->frame, s->path);
	if (p->kind == SM_FRAMES_WRITE) {
		sm_buf_stamp(s->buf, sh->region_len, p->data, sh->run_seed, s->frame);
		/* The frame's header (also over zeros): what lets a later run
		 * tell this file is stormark's frame s->frame of this directory.
		 * A write starts at the frame's first byte (no crop). */
		if (sh->region_len >= SM_FRAME_HDR_LEN) {
			struct sm_frame_hdr h = { .dir_id = sh->dir_id, .index = p->first + s->frame,
						  .frame_bytes = p->frame_bytes,
						  .run_tag = sh->run_seed };

			sm_frame_hdr_put(s->buf, &h);
		}
		if (p->verify)
			seal_frame(w, s);
	}
	if (p->stream) {
		s->fd = w->stream_fd;
		prep_xfer(sh, s);
	} else {
		s->io.op = SM_OP_OPEN;
		s->io.fd = AT_FDCWD;
		s->io.path = s->path;
		if (sh->dir_fds) {
			/* at the subdirectory opened O_NOFOLLOW, by its base name */
			s->io.fd = sh->dir_fds[s->frame / p->files_per_dir];
			s->io.path = strrchr(s->path, '/') + 1;
		}
		s->io.open_flags = open_flags(sh, s);
		s->io.mode = 0644;
		s->state = SLOT_OPEN;
	}
	return &s->io;
}

/* The request in s completed: record it and return the next request of the
 * frame, or NULL when the frame is finished (s->state == SLOT_DONE). */
struct sm_io *sm_frames_slot_step(struct worker *w, struct slot *s)
{
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;
	struct sm_io *io = &s->io;
	uint64_t dur = io->t_done - io->t_issue;

	if (!s->t_begin) {
		s->t_begin = io->t_issue;
		if (!w->t_first || io->t_issue < w->t_first)
			w->t_first = io->t_issue;
	}
	s->t_end = io->t_done;
	switch (s->state) {
	case SLOT_OPEN:
		if (s->waiting && open_wait(sh, s))
			return io;   /* issued again; s->t_begin keeps the first try */
		w->open->count++;
		if (io->res == -EEXIST && s->claimed) {
			w->open->errors++;
			s->err = -EEXIST;
			sm_frames_fail(sh, s->err, "create", s->path,
				       "it appeared during the run and is not stormark's; not overwriting it");
			break;
		}
		if (io->res < 0) {
			w->open->errors++;
			s->err = (int)io->res;
			sm_frames_fail(sh, s->err, p->kind == SM_FRAMES_READ ? "open" : "create", s->path, NULL);
			break;
		}
		if (s->claimed)
			atomic_store(&sh->fstate[s->frame], FS_OURS);
		sm_hist_add(&w->open->lat, dur);
		s->open_ns = dur;
		s->fd = (int)io->res;
		if (p->kind == SM_FRAMES_EMPTY) {
			prep_close(s);
			return io;
		}
		prep_xfer(sh, s);
		return io;
	case SLOT_XFER:
		s->io_ns += dur;
		if (io->res != (int64_t)io->len) {
			char extra[128], at[48] = "";
			int err = io->res < 0 ? (int)io->res : (p->kind == SM_FRAMES_READ ? -ENODATA : -ENOSPC);

			/* one file holds every frame of a stream: where it failed */
			if (p->stream)
				snprintf(at, sizeof(at), " at offset %llu", (unsigned long long)io->off);
			if (io->res >= 0)
				snprintf(extra, sizeof(extra), "short %s: %lld of %zu bytes%s",
					 p->kind == SM_FRAMES_READ ? "read" : "write",
					 (long long)io->res, io->len, at);
			else
				snprintf(extra, sizeof(extra), "%s%s", strerror(-err), at);
			s->err = err;
			sm_frames_fail(sh, err, p->kind == SM_FRAMES_READ ? "read" : "write", s->path, extra);
			if (p->stream)
				break;
			prep_close(s);
			return io;
		}
		s->bytes += (uint64_t)io->res;
		if (++s->chunk * sh->chunk_len < sh->region_len) {
			prep_xfer(sh, s);
			return io;
		}
		if (p->stream)
			break;
		prep_close(s);
		return io;
	case SLOT_CLOSE:
		w->close->count++;
		if (io->res < 0) {
			w->close->errors++;
			if (!s->err) {
				s->err = (int)io->res;
				sm_frames_fail(sh, s->err, "close", s->path, NULL);
			}
		} else {
			sm_hist_add(&w->close->lat, dur);
			s->close_ns = dur;
		}
		if (s->err && p->kind == SM_FRAMES_WRITE)
			drop_failed(sh, s);
		break;
	default:
		break;
	}
	s->state = SLOT_DONE;
	return NULL;
}

/* Retire finished frames: in completion order with -o, else in the order
 * they were started (a finished frame waits for older ones, and its slot
 * stays busy meanwhile, as with an application that waits on its oldest
 * request). */
void sm_frames_retire_ready(struct worker *w, struct slot *s)
{
	if (w->sh->plan->out_of_order || w->nslots == 1) {
		retire(w, s);
		return;
	}
	while (w->order_len) {
		struct slot *o = &w->slots[w->order[w->order_head]];

		if (o->state != SLOT_DONE)
			break;
		o->t_end = sm_now_ns() > o->t_end ? sm_now_ns() : o->t_end;
		retire(w, o);
		w->order_head = (w->order_head + 1) % w->nslots;
		w->order_len--;
	}
}
