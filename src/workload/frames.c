/* SPDX-License-Identifier: MIT */
/* Frame-sequence and streaming workload: worker threads run a small state
 * machine per in-flight frame (open -> I/Os -> close) on an engine; the
 * calling thread samples counters once a second for windows and progress. */
#include "workload/frames.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/pace.h"
#include "core/rng.h"
#include "core/worker.h"
#include "engine/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CSV_BUF (64 * 1024)

enum slot_state { SLOT_FREE = 0, SLOT_OPEN, SLOT_XFER, SLOT_CLOSE, SLOT_DONE };

/* One frame in flight in a worker. */
struct slot {
	struct sm_io io;
	enum slot_state state;
	unsigned index;            /* in the worker's slot array (= buf_index) */
	uint64_t seq, frame, sched;
	int fd;
	unsigned chunk;
	int err;                   /* -errno of the first failure, 0 if none */
	uint64_t bytes;
	uint64_t t_begin, t_end, open_ns, io_ns, close_ns;
	void *buf;
	char path[PATH_MAX];
};

/* Counters a worker publishes for the sampling thread: written only by
 * their worker (relaxed), summed by the sampler. */
struct pub {
	_Atomic uint64_t frames, bytes, open_ns, io_ns, close_ns, frame_ns;
	_Atomic uint64_t ft_cols[SM_FT_COLUMNS];
};

struct shared;

struct worker {
	struct shared *sh;
	unsigned id;
	struct sm_engine eng;
	int eng_ok;
	struct slot *slots;
	unsigned nslots;
	unsigned *order;           /* in-order retirement: slot indices by seq */
	unsigned order_head, order_len;
	int stream_fd;
	struct sm_opstat *open, *io, *close, *frame;
	struct sm_hist *sched_lat;
	uint64_t fastest, slowest, t_last;
	char *csv;
	size_t csv_len;
	struct pub pub __attribute__((aligned(64)));
};

struct shared {
	const struct sm_frames_plan *plan;
	uint64_t total;            /* frames in the schedule */
	uint64_t distinct;         /* distinct frame files (loop) */
	uint64_t region_off, region_len, chunk_len;
	int open_flags;
	uint64_t run_seed;
	int csv_fd;
	struct sm_start start;
	_Atomic uint64_t next;     /* unpaced: next sequence number */
	_Atomic int abort;
	_Atomic unsigned finished;
	_Atomic int csv_err;       /* first failed write of the CSV, -errno */
	char prefix[PATH_MAX];     /* "PATH/frame": frame names are prefix + digits + ".tst" */
	size_t prefix_len;
	pthread_mutex_t mu;        /* pacing, error, finish signalling */
	pthread_cond_t cv;
	int paced;
	struct sm_pace pace;
	struct sm_hist *early, *late;
	int error;
	char error_msg[512];
	struct worker *workers;
};

void sm_frames_plan_defaults(struct sm_frames_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = SM_FRAMES_READ;
	p->nframes = 1800;
	p->threads = 1;
	p->queue = 0;          /* resolved: see resolve_queue() */
	p->prebuffer = 5;
	p->ios_per_frame = 1;
	p->crop_pct = 100;
	p->update_ns = SM_NS_PER_S;
	p->direct = 1;
	p->data = SM_DATA_RANDOM;
}

/* Frame k's path into buf (PATH_MAX): the same name as sm_frames_path(),
 * built without snprintf, which cost 14% of a null-engine frame. */
static void frame_name(const struct shared *sh, uint64_t k, char *buf)
{
	char digits[24];
	int nd = 0;
	size_t len = sh->prefix_len;
	uint64_t v = k;

	if (sh->plan->files_per_dir) {
		sm_frames_path(sh->plan, k, buf, PATH_MAX);
		return;
	}
	do {
		digits[nd++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (nd < 6)
		digits[nd++] = '0';
	memcpy(buf, sh->prefix, len);
	while (nd)
		buf[len++] = digits[--nd];
	memcpy(buf + len, ".tst", 5);
}

/* A bijection of [0, n) keyed by seed (Feistel network on the next even
 * power of two, cycle-walking back into range): random order in O(1)
 * memory. */
static uint64_t permute(uint64_t x, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;

	while (bits < 64 && (1ULL << bits) < n)
		bits += 2;
	unsigned half = bits / 2;
	uint64_t mask = (1ULL << half) - 1;

	do {
		uint64_t l = x >> half, r = x & mask;

		for (unsigned round = 0; round < 4; round++) {
			uint64_t t = l ^ (sm_hash64(seed + round, r) & mask);

			l = r;
			r = t;
		}
		x = (l << half) | r;
	} while (x >= n);
	return x;
}

/* The frame (file, or offset index in a stream) the seq-th transfer uses. */
static uint64_t frame_of(const struct shared *sh, uint64_t seq)
{
	uint64_t k = seq % sh->distinct;

	switch (sh->plan->order) {
	case SM_ORDER_REVERSE:
		return sh->distinct - 1 - k;
	case SM_ORDER_RANDOM:
		return permute(k, sh->distinct, sh->run_seed);
	default:
		return k;
	}
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* ---- errors and bookkeeping --------------------------------------------- */

static void fail(struct shared *sh, int err, const char *what, const char *path, const char *extra)
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

static void pub_add(_Atomic uint64_t *c, uint64_t v)
{
	/* Single writer: a relaxed load and store, no locked instruction. */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

static void csv_flush(struct worker *w)
{
	struct shared *sh = w->sh;

	if (w->csv_len && sh->csv_fd >= 0 && !atomic_load_explicit(&sh->csv_err, memory_order_relaxed)) {
		ssize_t n = write(sh->csv_fd, w->csv, w->csv_len);

		if (n != (ssize_t)w->csv_len)
			atomic_store(&sh->csv_err, n < 0 ? -errno : -ENOSPC);
	}
	w->csv_len = 0;
}

static void csv_row(struct worker *w, const struct slot *s, uint64_t t0, int late,
		    int64_t sched_ns, int have_sched)
{
	char schedbuf[32] = "";
	int n;

	if (!w->csv)
		return;
	if (have_sched)
		snprintf(schedbuf, sizeof(schedbuf), "%.3f", (double)sched_ns / 1e6);
	if (w->csv_len + 2 * PATH_MAX > CSV_BUF)
		csv_flush(w);
	n = snprintf(w->csv + w->csv_len, CSV_BUF - w->csv_len,
		     "%llu,%llu,%u,%s,%.6f,%.3f,%.3f,%.3f,%.3f,%llu,%s,%d,%s\n",
		     (unsigned long long)s->frame, (unsigned long long)s->seq, w->id, s->path,
		     (double)(s->t_begin - t0) / 1e9, (double)s->open_ns / 1e6,
		     (double)s->io_ns / 1e6, (double)s->close_ns / 1e6,
		     (double)(s->t_end - s->t_begin) / 1e6, (unsigned long long)s->bytes, schedbuf,
		     late, s->err ? strerror(-s->err) : "");
	if (n > 0)
		w->csv_len += (size_t)n;
}

/* A frame is finished (successfully or not): account it. */
static void retire(struct worker *w, struct slot *s)
{
	struct shared *sh = w->sh;
	uint64_t ft = s->t_end - s->t_begin;
	int late = 0, have_sched = 0;
	int64_t sched_ns = 0;

	if (!s->err) {
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
		pub_add(&w->pub.frames, 1);
		pub_add(&w->pub.bytes, s->bytes);
		pub_add(&w->pub.open_ns, s->open_ns);
		pub_add(&w->pub.io_ns, s->io_ns);
		pub_add(&w->pub.close_ns, s->close_ns);
		pub_add(&w->pub.frame_ns, ft);
		pub_add(&w->pub.ft_cols[sm_ft_column(ft)], 1);
		if (sh->paced && sh->pace.kind == SM_PACE_PLAYBACK) {
			/* Playback: the display decides; capture has nothing to
			 * tell the schedule when a frame is written. */
			pthread_mutex_lock(&sh->mu);
			late = sm_pace_complete(&sh->pace, s->seq, s->t_end);
			if (sh->pace.started) {
				sched_ns = (int64_t)(s->t_end - sm_pace_due(&sh->pace, s->seq));
				have_sched = 1;
			}
			pthread_mutex_unlock(&sh->mu);
		}
		if (sh->paced) {
			if (sh->pace.kind == SM_PACE_CAPTURE) {
				sched_ns = (int64_t)(s->t_end - s->sched);
				have_sched = 1;
				sm_hist_add(w->sched_lat, s->t_end - s->sched);
			}
		}
	}
	if (s->t_end > w->t_last)
		w->t_last = s->t_end;
	csv_row(w, s, sh->start.t0_ns, late, sched_ns, have_sched);
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

/* Start frame seq in slot s; returns the first request. */
static struct sm_io *slot_begin(struct worker *w, struct slot *s, uint64_t seq, uint64_t sched)
{
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;

	s->seq = seq;
	s->frame = frame_of(sh, seq);
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
		frame_name(sh, s->frame, s->path);
	if (p->kind == SM_FRAMES_WRITE && p->data == SM_DATA_ZERO)
		/* Zeros, but for one stamp at the start: the file stays
		 * recognisably stormark's, so a later run may overwrite it. */
		sm_buf_stamp(s->buf, 16, SM_DATA_RANDOM, sh->run_seed, s->frame);
	else if (p->kind == SM_FRAMES_WRITE)
		sm_buf_stamp(s->buf, sh->region_len, p->data, sh->run_seed, s->frame);
	if (p->stream) {
		s->fd = w->stream_fd;
		prep_xfer(sh, s);
	} else {
		s->io.op = SM_OP_OPEN;
		s->io.fd = AT_FDCWD;
		s->io.path = s->path;
		s->io.open_flags = sh->open_flags;
		s->io.mode = 0644;
		s->state = SLOT_OPEN;
	}
	return &s->io;
}

/* The request in s completed: record it and return the next request of the
 * frame, or NULL when the frame is finished (s->state == SLOT_DONE). */
static struct sm_io *slot_step(struct worker *w, struct slot *s)
{
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;
	struct sm_io *io = &s->io;
	uint64_t dur = io->t_done - io->t_issue;

	if (!s->t_begin)
		s->t_begin = io->t_issue;
	s->t_end = io->t_done;
	switch (s->state) {
	case SLOT_OPEN:
		w->open->count++;
		if (io->res < 0) {
			w->open->errors++;
			s->err = (int)io->res;
			fail(sh, s->err, p->kind == SM_FRAMES_READ ? "open" : "create", s->path, NULL);
			break;
		}
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
			char extra[96];
			int err = io->res < 0 ? (int)io->res : (p->kind == SM_FRAMES_READ ? -ENODATA : -ENOSPC);

			if (io->res >= 0)
				snprintf(extra, sizeof(extra), "short %s: %lld of %zu bytes",
					 p->kind == SM_FRAMES_READ ? "read" : "write",
					 (long long)io->res, io->len);
			s->err = err;
			fail(sh, err, p->kind == SM_FRAMES_READ ? "read" : "write", s->path,
			     io->res < 0 ? NULL : extra);
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
				fail(sh, s->err, "close", s->path, NULL);
			}
		} else {
			sm_hist_add(&w->close->lat, dur);
			s->close_ns = dur;
		}
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
static void retire_ready(struct worker *w, struct slot *s)
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

/* Ask for the next frame: GO (seq and sched set), WAIT (wake set) or DONE. */
static enum sm_pace_claim claim(struct shared *sh, uint64_t *seq, uint64_t *sched,
				uint64_t *wake)
{
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
		*seq = atomic_fetch_add_explicit(&sh->next, 1, memory_order_relaxed);
		*sched = 0;     /* unpaced: no schedule */
		return *seq < sh->total ? SM_PACE_GO : SM_PACE_DONE;
	}
	pthread_mutex_lock(&sh->mu);
	r = sm_pace_claim(&sh->pace, now, seq, sched, wake);
	pthread_mutex_unlock(&sh->mu);
	return r;
}

/* Wait until wake (or a completion elsewhere, for playback; or 1 ms). */
static void idle_until(struct shared *sh, uint64_t wake)
{
	uint64_t now = sm_now_ns(), limit = now + SM_NS_PER_MS;

	if (wake > limit)
		wake = limit;
	if (wake > now)
		sm_sleep_until_ns(wake);
}

static void retire_ready(struct worker *w, struct slot *s);

/* Submit a batch. Requests the engine refused end their frames with the
 * error (their slots are retired), so nothing waits for them. */
static int submit_all(struct worker *w, struct sm_io **batch, unsigned n)
{
	unsigned done = 0;
	int rc = 0;

	while (done < n) {
		rc = sm_engine_submit(&w->eng, batch + done, n - done);
		if (rc <= 0) {
			rc = rc ? rc : -EAGAIN;
			break;
		}
		done += (unsigned)rc;
		rc = 0;
	}
	for (unsigned i = done; i < n; i++) {
		struct slot *s = batch[i]->user;

		if (s->fd >= 0 && s->state != SLOT_OPEN && !w->sh->plan->stream)
			close(s->fd);
		s->err = rc;
		s->state = SLOT_DONE;
		retire_ready(w, s);
	}
	return rc;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct sm_frames_plan *p = sh->plan;
	struct sm_io **batch = calloc(w->nslots, sizeof(*batch));
	struct sm_io **done = calloc(w->nslots, sizeof(*done));
	int claiming = 1;

	if (!batch || !done) {
		fail(sh, -ENOMEM, "allocate", "worker", NULL);
		goto out;
	}
	if (sm_start_wait(&sh->start))
		goto out;
	if (p->stream) {
		struct sm_io io = { .op = SM_OP_OPEN, .fd = AT_FDCWD, .path = p->path,
				    .open_flags = sh->open_flags, .mode = 0644,
				    .buf_index = -1, .file_index = -1 };

		sm_engine_do(&w->eng, &io);
		w->open->count++;
		if (io.res < 0) {
			w->open->errors++;
			fail(sh, (int)io.res, p->kind == SM_FRAMES_READ ? "open" : "create", p->path, NULL);
			goto out;
		}
		sm_hist_add(&w->open->lat, io.t_done - io.t_issue);
		w->stream_fd = (int)io.res;
	}
	for (;;) {
		unsigned nb = 0, busy = 0;
		uint64_t wake = UINT64_MAX;
		int rc;

		for (unsigned i = 0; i < w->nslots; i++)
			busy += w->slots[i].state != SLOT_FREE;
		for (unsigned i = 0; claiming && i < w->nslots; i++) {
			struct slot *s = &w->slots[i];
			uint64_t seq, sched;
			enum sm_pace_claim r;

			if (s->state != SLOT_FREE)
				continue;
			r = claim(sh, &seq, &sched, &wake);
			if (r == SM_PACE_DONE) {
				claiming = 0;
				break;
			}
			if (r == SM_PACE_WAIT)
				break;
			batch[nb++] = slot_begin(w, s, seq, sched);
			busy++;
			if (w->nslots > 1 && !p->out_of_order) {
				w->order[(w->order_head + w->order_len) % w->nslots] = i;
				w->order_len++;
			}
		}
		if (nb && (rc = submit_all(w, batch, nb))) {
			fail(sh, rc, "submit I/O for", p->path, NULL);
			claiming = 0;
		}
		if (w->eng.inflight == 0) {
			if (busy == 0 && !claiming)
				break;
			if (busy == 0 || wake != UINT64_MAX) {
				idle_until(sh, wake);
				continue;
			}
		}
		/* Poll when a paced frame may become due before a completion. */
		rc = sm_engine_reap(&w->eng, done, wake != UINT64_MAX ? 0 : 1, w->nslots);
		if (rc == -EINTR)
			continue;
		if (rc < 0) {
			fail(sh, rc, "complete I/O for", p->path, NULL);
			break;
		}
		if (rc == 0 && wake != UINT64_MAX) {
			uint64_t now = sm_now_ns();

			if (wake > now + 100 * SM_NS_PER_US)
				wake = now + 100 * SM_NS_PER_US;
			idle_until(sh, wake);
			continue;
		}
		nb = 0;
		for (int i = 0; i < rc; i++) {
			struct slot *s = done[i]->user;
			struct sm_io *next = slot_step(w, s);

			if (next)
				batch[nb++] = next;
			else
				retire_ready(w, s);
		}
		if (nb && (rc = submit_all(w, batch, nb))) {
			fail(sh, rc, "submit I/O for", p->path, NULL);
			claiming = 0;
		}
	}
out:
	if (p->stream && w->stream_fd >= 0) {
		struct sm_io io = { .op = SM_OP_CLOSE, .fd = w->stream_fd, .buf_index = -1,
				    .file_index = -1 };

		sm_engine_do(&w->eng, &io);
		w->close->count++;
		if (io.res < 0)
			w->close->errors++;
		else
			sm_hist_add(&w->close->lat, io.t_done - io.t_issue);
		if (io.t_done > w->t_last)
			w->t_last = io.t_done;
	}
	csv_flush(w);
	free(batch);
	free(done);
	pthread_mutex_lock(&sh->mu);
	atomic_fetch_add(&sh->finished, 1);
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
	return NULL;
}

/* ---- set-up, sampling, results -------------------------------------------- */

static void snap_take(struct shared *sh, unsigned nw, uint64_t t, struct sm_frames_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t;
	for (unsigned i = 0; i < nw; i++) {
		struct pub *p = &sh->workers[i].pub;

		s->frames += atomic_load_explicit(&p->frames, memory_order_relaxed);
		s->bytes += atomic_load_explicit(&p->bytes, memory_order_relaxed);
		s->open_ns += atomic_load_explicit(&p->open_ns, memory_order_relaxed);
		s->io_ns += atomic_load_explicit(&p->io_ns, memory_order_relaxed);
		s->close_ns += atomic_load_explicit(&p->close_ns, memory_order_relaxed);
		s->frame_ns += atomic_load_explicit(&p->frame_ns, memory_order_relaxed);
		for (unsigned c = 0; c < SM_FT_COLUMNS; c++)
			s->ft_cols[c] += atomic_load_explicit(&p->ft_cols[c], memory_order_relaxed);
	}
	if (sh->paced) {
		pthread_mutex_lock(&sh->mu);
		s->dropped = sh->pace.dropped;
		pthread_mutex_unlock(&sh->mu);
	}
}

static int series_push(struct sm_frames_result *res, unsigned *cap, const struct sm_frames_snap *s)
{
	if (res->nseries == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 64;
		struct sm_frames_snap *n = realloc(res->series, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		res->series = n;
		*cap = ncap;
	}
	res->series[res->nseries++] = *s;
	return 0;
}

static int worker_setup(struct shared *sh, struct worker *w, unsigned id, const char *engine,
			char *notice, size_t nlen)
{
	const struct sm_frames_plan *p = sh->plan;
	struct sm_engine_cfg cfg = { 0 };
	void **bufs = NULL;
	int rc = -ENOMEM;

	w->sh = sh;
	w->id = id;
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
	bufs = calloc(w->nslots, sizeof(*bufs));
	if (!w->slots || !w->order || !w->open || !w->io || !w->close || !w->frame ||
	    !w->sched_lat || !bufs)
		goto out;
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
	if (p->csv_path) {
		w->csv = malloc(CSV_BUF);
		if (!w->csv)
			goto out;
	}
	cfg.depth = w->nslots;
	if (sh->region_len) {
		cfg.bufs = bufs;
		cfg.nbufs = w->nslots;
		cfg.buf_len = sh->region_len;
	}
	rc = sm_engine_open(&w->eng, engine, &cfg, notice, nlen);
	if (!rc)
		w->eng_ok = 1;
out:
	free(bufs);
	return rc;
}

static void worker_release(struct worker *w)
{
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
	free(w->csv);
}

/* Decide direct or buffered I/O, with warnings; returns the alignment to
 * use for I/O sizes (0 when buffered). */
static unsigned choose_direct(const struct sm_frames_plan *p, struct sm_frames_result *res)
{
	char dir[PATH_MAX];
	int align;

	if (!p->direct || p->kind == SM_FRAMES_EMPTY)
		return 0;
	if (p->kind == SM_FRAMES_READ) {
		/* Reading needs no write access: probe frame 0 itself. */
		sm_frames_path(p, 0, dir, sizeof(dir));
		align = sm_direct_probe_read(dir);
	} else {
		if (p->stream)
			sm_parent_dir(p->path, dir, sizeof(dir));
		else
			snprintf(dir, sizeof(dir), "%s", p->path);
		align = sm_direct_probe(dir);
	}
	if (align < 0) {
		sm_warn(&res->warnings, "direct_io_unavailable",
			"the file system refuses direct I/O (%s): using buffered I/O, which the page cache can flatter",
			strerror(-align));
		return 0;
	}
	if (p->frame_bytes % (unsigned)align) {
		sm_warn(&res->warnings, "direct_io_unaligned",
			"frame size %llu is not a multiple of the direct I/O block (%d bytes): using buffered I/O",
			(unsigned long long)p->frame_bytes, align);
		return 0;
	}
	return (unsigned)align;
}

static int make_dirs(const struct sm_frames_plan *p, uint64_t distinct, char *msg, size_t len)
{
	char path[PATH_MAX];

	for (uint64_t d = 0; p->files_per_dir && d * p->files_per_dir < distinct; d++) {
		int rc;

		snprintf(path, sizeof(path), "%s/d%05llu", p->path, (unsigned long long)d);
		rc = mkdir(path, 0755);
		if (rc && errno != EEXIST) {
			rc = -errno;
			snprintf(msg, len, "cannot create directory '%s': %s", path, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static void merge_results(struct shared *sh, unsigned nw, struct sm_frames_result *res)
{
	res->fastest_ns = UINT64_MAX;
	for (unsigned i = 0; i < nw; i++) {
		struct worker *w = &sh->workers[i];

		sm_opstat_merge(&res->open, w->open);
		sm_opstat_merge(&res->io, w->io);
		sm_opstat_merge(&res->close, w->close);
		sm_opstat_merge(&res->frame, w->frame);
		sm_hist_merge(&res->sched_lat, w->sched_lat);
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

/* The part of a frame each transfer covers, its split into I/Os, and
 * direct or buffered I/O (with warnings), into sh and the plan. */
static void plan_io(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res)
{
	unsigned align;

	if (p->kind == SM_FRAMES_EMPTY) {
		p->frame_bytes = 0;
	} else {
		uint64_t crop = p->kind == SM_FRAMES_READ && p->crop_pct && p->crop_pct < 100
					? p->crop_pct : 100;

		sh->region_len = p->frame_bytes * crop / 100;
		sh->region_off = (p->frame_bytes - sh->region_len) / 2;
	}
	sh->chunk_len = p->ios_per_frame > 1 ? (sh->region_len + p->ios_per_frame - 1) / p->ios_per_frame
					       : sh->region_len;
	align = choose_direct(p, res);
	if (align) {
		/* Keep every I/O aligned: round the cropped region outwards and
		 * the pieces of a frame up to the block size. */
		uint64_t start = sh->region_off / align * align;
		uint64_t stop = round_up(sh->region_off + sh->region_len, align);

		if (stop > p->frame_bytes)
			stop = p->frame_bytes;
		sh->region_off = start;
		sh->region_len = stop - start;
		sh->chunk_len = round_up(sh->chunk_len, align);
	}
	if (p->direct && !align && p->kind != SM_FRAMES_EMPTY)
		sm_warn(&res->warnings, "buffered_io",
			"buffered I/O: figures include the page cache, not only the storage");
	p->direct = align != 0;
	res->env.direct_io = p->direct;
	if (!p->direct && p->kind == SM_FRAMES_READ &&
	    sh->distinct * p->frame_bytes < res->env.mem_available_bytes)
		sm_warn(&res->warnings, "cached_working_set",
			"buffered reads of %llu MiB, less than the free RAM: this measures the page cache",
			(unsigned long long)(sh->distinct * p->frame_bytes >> 20));
	sh->open_flags = p->kind == SM_FRAMES_READ ? O_RDONLY : O_WRONLY | O_CREAT;
	if (p->kind != SM_FRAMES_READ && !p->stream)
		sh->open_flags |= O_TRUNC;
	if (p->direct)
		sh->open_flags |= O_DIRECT;
	sh->open_flags |= O_CLOEXEC;
}

/* Everything before the threads: sizes, pacing, directories, marker, CSV.
 * Returns 0 or -errno with res->error_msg set. */
static int prepare(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res)
{
	int rc;

	if (!p->threads)
		p->threads = 1;
	if (!p->ios_per_frame)
		p->ios_per_frame = 1;
	if (!p->seed)
		p->seed = sm_now_ns();
	sh->run_seed = sm_hash64(p->seed, 0x5717);
	sh->total = p->nframes;
	sh->distinct = p->loop && p->loop < p->nframes ? p->loop : p->nframes;
	if (!sh->distinct)
		sh->distinct = 1;
	res->frames_scheduled = p->nframes;
	sm_env_collect(&res->env, p->stream ? "." : p->path);
	if (p->stream) {
		char dir[PATH_MAX];

		if (!sm_parent_dir(p->path, dir, sizeof(dir)))
			sm_fs_info(dir, &res->env.fs);
	}
	plan_io(sh, p, res);
	snprintf(sh->prefix, sizeof(sh->prefix) - 32, "%s/frame", p->path);
	sh->prefix_len = strlen(sh->prefix);
	if (p->fps > 0) {
		p->queue = p->queue ? p->queue : (p->prebuffer > 8 ? p->prebuffer : 8);
		sh->paced = 1;
		sh->early = &res->early;
		sh->late = &res->late;
		rc = sm_pace_init(&sh->pace, p->kind == SM_FRAMES_READ ? SM_PACE_PLAYBACK : SM_PACE_CAPTURE,
				  sh->total, p->fps, p->queue, p->prebuffer, &res->early, &res->late);
		if (rc) {
			sh->paced = 0;
			snprintf(res->error_msg, sizeof(res->error_msg), "cannot set up pacing: %s",
				 strerror(-rc));
			return rc;
		}
	}
	if (p->kind != SM_FRAMES_READ && !p->stream) {
		rc = make_dirs(p, sh->distinct, res->error_msg, sizeof(res->error_msg));
		if (rc)
			return rc;
		rc = sm_frames_mark_dir(p->path);
		if (rc) {
			snprintf(res->error_msg, sizeof(res->error_msg), "cannot write '%s/%s': %s",
				 p->path, SM_FRAMES_MARKER, strerror(-rc));
			return rc;
		}
	}
	if (p->csv_path) {
		static const char header[] =
			"frame,seq,thread,file,start_s,open_ms,io_ms,close_ms,frame_ms,bytes,sched_ms,late,error\n";

		sh->csv_fd = open(p->csv_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		if (sh->csv_fd < 0 || write(sh->csv_fd, header, sizeof(header) - 1) < 0) {
			rc = -errno;
			snprintf(res->error_msg, sizeof(res->error_msg), "cannot write '%s': %s",
				 p->csv_path, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Set up every worker's engine and buffers; *nw counts those to release. */
static int setup_workers(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res,
			 unsigned *nw)
{
	const char *engine = p->engine ? p->engine : p->depth ? "uring" : "psync";
	char notice[256] = "";
	int rc;

	sh->workers = aligned_alloc(64, round_up(p->threads * sizeof(struct worker), 64));
	if (!sh->workers)
		return -ENOMEM;
	memset(sh->workers, 0, p->threads * sizeof(struct worker));
	for (*nw = 0; *nw < p->threads;) {
		rc = worker_setup(sh, &sh->workers[*nw], *nw, engine, notice, sizeof(notice));
		(*nw)++;
		if (rc) {
			snprintf(res->error_msg, sizeof(res->error_msg),
				 rc == -ENOENT ? "unknown engine '%s'" : "cannot start engine '%s': %s",
				 engine, strerror(-rc));
			return rc;
		}
	}
	if (notice[0])
		sm_warn(&res->warnings, "engine_fallback", "%s", notice);
	snprintf(res->env.engine, sizeof(res->env.engine), "%s", sh->workers[0].eng.ops->name);
	p->engine = sh->workers[0].eng.ops->name;
	return 0;
}

/* Open the gate, sample the counters once a second (on the second) until
 * every worker has finished, then join them and close the series. */
static void sample_until_done(struct shared *sh, const struct sm_frames_plan *p,
			      struct sm_frames_result *res, pthread_t *tids,
			      sm_frames_progress_fn progress, void *arg)
{
	struct sm_frames_snap s, prev;
	uint64_t t0, tick, next_prog, t_end = 0;
	unsigned cap = 0;

	if (p->pause_ns)
		sm_sleep_until_ns(sm_now_ns() + p->pause_ns);
	/* Workers claim paced frames under sh->mu: the schedule starts with
	 * the gate, before any of them can ask. */
	pthread_mutex_lock(&sh->mu);
	sm_start_release(&sh->start);
	t0 = sh->start.t0_ns;
	if (sh->paced)
		sm_pace_start(&sh->pace, t0);
	tick = t0 + SM_NS_PER_S;
	next_prog = t0 + p->update_ns;
	memset(&prev, 0, sizeof(prev));
	if (!progress || !p->update_ns)
		next_prog = UINT64_MAX;
	while (atomic_load(&sh->finished) < p->threads) {
		uint64_t wake = tick < next_prog ? tick : next_prog, now;
		struct timespec ts = { .tv_sec = (time_t)(wake / SM_NS_PER_S),
				       .tv_nsec = (long)(wake % SM_NS_PER_S) };

		pthread_cond_timedwait(&sh->cv, &sh->mu, &ts);
		now = sm_now_ns();
		if (now < wake)
			continue;
		pthread_mutex_unlock(&sh->mu);
		if (now >= tick) {
			snap_take(sh, p->threads, tick - t0, &s);
			series_push(res, &cap, &s);
			tick += SM_NS_PER_S;
		}
		if (now >= next_prog) {
			struct sm_frames_snap cur, d;

			snap_take(sh, p->threads, now - t0, &cur);
			sm_frames_snap_diff(&cur, &prev, &d);
			progress(&d, &cur, arg);
			prev = cur;
			next_prog += p->update_ns;
		}
		pthread_mutex_lock(&sh->mu);
	}
	pthread_mutex_unlock(&sh->mu);
	for (unsigned i = 0; i < p->threads; i++)
		pthread_join(tids[i], NULL);
	for (unsigned i = 0; i < p->threads; i++)
		if (sh->workers[i].t_last > t_end)
			t_end = sh->workers[i].t_last;
	res->duration_ns = t_end > t0 ? t_end - t0 : 0;
	if (sh->paced)
		sm_pace_finish(&sh->pace);
	snap_take(sh, p->threads, res->duration_ns, &s);
	/* Samples taken after the last completion add nothing. */
	while (res->nseries && res->series[res->nseries - 1].t_ns >= s.t_ns)
		res->nseries--;
	series_push(res, &cap, &s);
}

/* A stream write leaves exactly its frames: an earlier, longer stream of
 * stormark's in the same file is cut to this run's length. */
static int trim_stream(const struct sm_frames_plan *p, uint64_t distinct,
		       struct sm_frames_result *res)
{
	struct stat st;
	uint64_t want = distinct * p->frame_bytes;

	if (stat(p->path, &st) || (uint64_t)st.st_size <= want)
		return 0;
	if (truncate(p->path, (off_t)want)) {
		int rc = -errno;

		snprintf(res->error_msg, sizeof(res->error_msg), "cannot truncate '%s': %s", p->path,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

int sm_frames_run(const struct sm_frames_plan *plan, struct sm_frames_result *res,
		  sm_frames_progress_fn progress, void *arg)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	struct sm_frames_plan *p = &res->plan;
	unsigned nw = 0, started = 0;
	pthread_t *tids = NULL;
	pthread_condattr_t ca;
	int rc;

	memset(res, 0, sizeof(*res));
	res->plan = *plan;
	sm_opstat_init(&res->open);
	sm_opstat_init(&res->io);
	sm_opstat_init(&res->close);
	sm_opstat_init(&res->frame);
	sm_hist_init(&res->sched_lat);
	sm_hist_init(&res->early);
	sm_hist_init(&res->late);
	if (!sh)
		return -ENOMEM;
	sh->plan = p;
	sh->csv_fd = -1;
	pthread_mutex_init(&sh->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sh->cv, &ca);
	pthread_condattr_destroy(&ca);
	sm_start_init(&sh->start);

	rc = prepare(sh, p, res);
	if (rc)
		goto out;
	rc = setup_workers(sh, p, res, &nw);
	if (rc)
		goto out;
	rc = -ENOMEM;
	tids = calloc(p->threads, sizeof(*tids));
	if (!tids)
		goto out;
	for (; started < p->threads; started++) {
		rc = pthread_create(&tids[started], NULL, worker_main, &sh->workers[started]);
		if (rc) {
			rc = -rc;
			snprintf(res->error_msg, sizeof(res->error_msg), "cannot start thread: %s",
				 strerror(-rc));
			atomic_store(&sh->abort, 1);
			sm_start_release(&sh->start);   /* workers see abort and leave */
			for (unsigned j = 0; j < started; j++)
				pthread_join(tids[j], NULL);
			goto out;
		}
	}
	sample_until_done(sh, p, res, tids, progress, arg);
	merge_results(sh, p->threads, res);
	if (sh->paced) {
		res->frames_dropped = sh->pace.dropped;
		res->longest_drop_run = sh->pace.longest_run;
		res->max_queue = sh->pace.max_queue;
	}
	res->interrupted = sm_stopped();
	rc = sh->error ? sh->error : res->interrupted ? -EINTR : 0;
	if (sh->error)
		snprintf(res->error_msg, sizeof(res->error_msg), "%s", sh->error_msg);
	if (res->interrupted || sh->error || p->time_limit_ns) {
		/* Stopped before the schedule's end: count what was due. */
		uint64_t due = res->frames_done + res->frames_dropped;

		if (sh->paced && sh->pace.kind == SM_PACE_CAPTURE)
			due += sh->pace.fifo_len;      /* arrived, never written */
		if (sh->paced && sh->pace.kind == SM_PACE_PLAYBACK)
			due -= res->late.count;        /* late frames were also read */
		if (due < res->frames_scheduled)
			res->frames_scheduled = due;
	}
	if (!rc && p->stream && p->kind == SM_FRAMES_WRITE)
		rc = trim_stream(p, sh->distinct, res);
	if (!rc && atomic_load(&sh->csv_err)) {
		rc = atomic_load(&sh->csv_err);
		snprintf(res->error_msg, sizeof(res->error_msg), "cannot write '%s': %s",
			 p->csv_path, strerror(-rc));
	}
out:
	for (unsigned i = 0; sh->workers && i < nw; i++)
		worker_release(&sh->workers[i]);
	free(sh->workers);
	free(tids);
	if (sh->csv_fd >= 0)
		close(sh->csv_fd);
	if (sh->paced)
		sm_pace_release(&sh->pace);
	pthread_mutex_destroy(&sh->mu);
	pthread_cond_destroy(&sh->cv);
	free(sh);
	return rc;
}

