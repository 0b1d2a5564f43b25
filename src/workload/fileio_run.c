/* SPDX-License-Identifier: MIT */
/* sysbench-fileio workload: the run phase. Worker threads take events from
 * the shared generator and keep up to `depth` of them in flight on their
 * own engine instance (psync, uring or mmap); a helper thread reports
 * intervals. Nothing here allocates, locks (beyond the generator's short
 * critical section) or prints inside the timed loop. */
#include "workload/fileio.h"
#include "engine/engine.h"
#include "engine/sync_exec.h"
#include "core/clock.h"
#include "core/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_READ = 0, ST_WRITE = 1, ST_FSYNC = 2 };

struct run_ctx {
	const struct sm_fileio_cfg *cfg;
	const int *fds;
	uint64_t *file_sizes;
	struct sm_fileio_gen *gen;
	struct sm_start start;
	unsigned depth;
	uint64_t req_len;
	atomic_int failed;
	pthread_mutex_t mu;        /* guards error, running; cv signals the reporter */
	pthread_cond_t cv;
	unsigned running;
	struct sm_fileio_result *r;
};

struct slot {
	struct sm_io io;
	struct sm_fileio_req req;
};

struct worker {
	struct run_ctx *ctx;
	unsigned id;
	struct sm_engine eng;
	int eng_open;
	unsigned char *mem;        /* depth buffers of req_len, one allocation */
	void **bufs;
	struct slot *slots;
	unsigned *free_ids;
	struct sm_io **batch, **done;
	struct sm_fileio_req *reqs;
	/* statistics: written by this worker only, read racily by the reporter */
	struct sm_opstat ops[3];
	struct sm_hist ev;
	uint64_t events, busy_ns, t_end;
};

static void run_fail(struct run_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void run_fail(struct run_ctx *c, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&c->mu);
	if (!atomic_load(&c->failed)) {
		va_start(ap, fmt);
		vsnprintf(c->r->head.error, sizeof(c->r->head.error), fmt, ap);
		va_end(ap);
		c->r->failed = 1;
		atomic_store(&c->failed, 1);
	}
	pthread_mutex_unlock(&c->mu);
}

static int stat_of(int op)
{
	return op == SM_OP_READ ? ST_READ : op == SM_OP_WRITE ? ST_WRITE : ST_FSYNC;
}

static void account(struct sm_opstat *s, const struct sm_io *io)
{
	if (io->res < 0) {
		s->count++;
		s->errors++;
		return;
	}
	s->count++;
	s->bytes += io->op == SM_OP_READ || io->op == SM_OP_WRITE ? (uint64_t)io->res : 0;
	sm_hist_add(&s->lat, io->t_done - io->t_issue);
}

/* fsync one file outside the event stream (--file-fsync-all, end of test). */
static int side_fsync(struct worker *w, unsigned file)
{
	const struct sm_fileio_cfg *cfg = w->ctx->cfg;
	struct sm_io io;

	memset(&io, 0, sizeof(io));
	io.op = cfg->fsync_data ? SM_OP_FDATASYNC : SM_OP_FSYNC;
	io.fd = w->ctx->fds[file];
	io.file_index = (int)file;
	io.buf_index = -1;
	if (w->eng.inflight)
		sm_sync_exec(&io);     /* never mix into the async queue */
	else
		sm_engine_do(&w->eng, &io);
	account(&w->ops[ST_FSYNC], &io);
	if (io.res < 0) {
		char path[4096];

		sm_fileio_path(cfg, file, path, sizeof(path));
		run_fail(w->ctx, "cannot fsync '%s': %s", path, strerror((int)-io.res));
		return -1;
	}
	return 0;
}

static void complete(struct worker *w, struct sm_io *io)
{
	struct run_ctx *c = w->ctx;
	const struct sm_fileio_cfg *cfg = c->cfg;
	unsigned s = (unsigned)(uintptr_t)io->user;
	struct slot *sl = &w->slots[s];
	uint64_t bad;

	account(&w->ops[stat_of(sl->req.op)], io);
	if (io->res < 0 || (sl->req.op != SM_OP_FSYNC && (uint64_t)io->res != sl->req.len)) {
		char path[4096];

		sm_fileio_path(cfg, sl->req.file, path, sizeof(path));
		run_fail(c, "%s of %llu bytes at offset %llu of '%s' failed: %s",
			 sm_op_name(io->op), (unsigned long long)sl->req.len,
			 (unsigned long long)sl->req.off, path,
			 io->res < 0 ? strerror((int)-io->res) : "short transfer");
	} else {
		uint64_t lat = io->t_done - io->t_issue;

		w->events++;
		w->busy_ns += lat;
		sm_hist_add(&w->ev, lat);
		if (cfg->validate && sl->req.op == SM_OP_READ &&
		    sm_fileio_verify(io->buf, sl->req.len, cfg->block_size, sl->req.file,
				     sl->req.off, &bad)) {
			char path[4096];

			sm_fileio_path(cfg, sl->req.file, path, sizeof(path));
			run_fail(c, "validation failed: block at offset %llu of '%s' does not hold "
				 "what was written there", (unsigned long long)bad, path);
		}
		if (cfg->fsync_all && sl->req.op == SM_OP_WRITE)
			side_fsync(w, sl->req.file);
	}
	sm_fileio_gen_release(c->gen, w->id * c->depth + s);
}

/* Turn a generated request into the slot's sm_io. */
static void fill_io(struct worker *w, unsigned s, const struct sm_fileio_req *rq)
{
	struct run_ctx *c = w->ctx;
	const struct sm_fileio_cfg *cfg = c->cfg;
	struct slot *sl = &w->slots[s];
	struct sm_io *io = &sl->io;

	sl->req = *rq;
	memset(io, 0, sizeof(*io));
	io->fd = c->fds[rq->file];
	io->file_index = (int)rq->file;
	io->user = (void *)(uintptr_t)s;
	if (rq->op == SM_OP_FSYNC) {
		io->op = cfg->fsync_data ? SM_OP_FDATASYNC : SM_OP_FSYNC;
		io->buf_index = -1;
		return;
	}
	io->op = rq->op;
	io->buf = w->bufs[s];
	io->buf_index = (int)s;
	io->len = rq->len;
	io->off = rq->off;
	if (rq->op == SM_OP_WRITE) {
		/* outside the timed window: the timer starts in submit */
		if (cfg->validate)
			sm_fileio_seal(io->buf, rq->len, cfg->block_size, rq->file, rq->off, 1,
				       cfg->seed ^ rq->event);
		else
			sm_buf_stamp(io->buf, rq->len, cfg->data, cfg->seed, rq->event);
	}
}

static int reap_some(struct worker *w, unsigned min, unsigned *nfree)
{
	int n = sm_engine_reap(&w->eng, w->done, min, w->ctx->depth);

	if (n == -EINTR || n == -EAGAIN)
		return 0;
	if (n < 0) {
		run_fail(w->ctx, "waiting for I/O completions failed: %s", strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		complete(w, w->done[i]);
		w->free_ids[(*nfree)++] = (unsigned)(uintptr_t)w->done[i]->user;
	}
	return n;
}

static void *run_worker(void *argp)
{
	struct worker *w = argp;
	struct run_ctx *c = w->ctx;
	const struct sm_fileio_cfg *cfg = c->cfg;
	unsigned nfree = c->depth, slot_ids[1024];
	uint64_t t0, deadline;
	int stop = 0;

	if (sm_start_wait(&c->start))
		return NULL;
	t0 = c->start.t0_ns;
	deadline = cfg->time_ns ? t0 + cfg->time_ns : UINT64_MAX;
	for (;;) {
		if (!stop && (sm_stopped() || atomic_load(&c->failed) ||
			      (cfg->time_ns && sm_now_ns() >= deadline)))
			stop = 1;
		if (!stop && nfree) {
			unsigned want = cfg->rate > 0 ? 1 : nfree, n, done = 0;

			for (unsigned k = 0; k < want; k++)
				slot_ids[k] = w->id * c->depth + w->free_ids[nfree - 1 - k];
			n = sm_fileio_gen_next(c->gen, w->reqs, want, slot_ids);
			if (n == 0)
				stop = 1;
			for (unsigned k = 0; k < n; k++) {
				unsigned s = w->free_ids[--nfree];

				fill_io(w, s, &w->reqs[k]);
				w->batch[k] = &w->slots[s].io;
			}
			if (n && cfg->rate > 0) {
				uint64_t due = t0 + (uint64_t)((double)w->reqs[0].event * 1e9 / cfg->rate);

				sm_sleep_until_ns(due);
			}
			while (done < n) {
				int rc = sm_engine_submit(&w->eng, w->batch + done, n - done);

				if (rc < 0) {
					run_fail(c, "submitting I/O failed: %s", strerror(-rc));
					/* requests never issued go back to the pool */
					for (unsigned k = done; k < n; k++) {
						unsigned s = (unsigned)(uintptr_t)w->batch[k]->user;

						sm_fileio_gen_release(c->gen, w->id * c->depth + s);
						w->free_ids[nfree++] = s;
					}
					stop = 1;
					break;
				}
				done += (unsigned)rc;
				if (done < n && reap_some(w, 1, &nfree) < 0)
					stop = 1;
			}
		}
		if (w->eng.inflight == 0) {
			if (stop)
				break;
			continue;
		}
		if (reap_some(w, 1, &nfree) < 0)
			stop = 1;
	}
	/* sysbench's thread_done: every thread fsyncs every file at the end */
	if (cfg->fsync_end && !cfg->fsync_all && sm_fileio_mode_writes(cfg->mode) && !sm_stopped() &&
	    !atomic_load(&c->failed)) {
		for (unsigned i = 0; i < cfg->num_files; i++) {
			if (side_fsync(w, i))
				break;
			__atomic_fetch_add(&c->r->end_fsyncs, 1, __ATOMIC_RELAXED);
		}
	}
	w->t_end = sm_now_ns();
	pthread_mutex_lock(&c->mu);
	c->running--;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* ---- interval reports --------------------------------------------------- */

struct reporter {
	struct run_ctx *ctx;
	struct worker *ws;
	unsigned n;
	double pct;
	sm_fileio_tick_fn fn;
	void *arg;
	struct sm_hist *cur, *prev;
};

static void snapshot(struct reporter *rp, struct sm_fileio_tick *t, struct sm_hist *h)
{
	memset(t, 0, sizeof(*t));
	sm_hist_init(h);
	for (unsigned i = 0; i < rp->n; i++) {
		const struct worker *w = &rp->ws[i];

		t->reads += __atomic_load_n(&w->ops[ST_READ].count, __ATOMIC_RELAXED);
		t->writes += __atomic_load_n(&w->ops[ST_WRITE].count, __ATOMIC_RELAXED);
		t->fsyncs += __atomic_load_n(&w->ops[ST_FSYNC].count, __ATOMIC_RELAXED);
		t->read_bytes += __atomic_load_n(&w->ops[ST_READ].bytes, __ATOMIC_RELAXED);
		t->write_bytes += __atomic_load_n(&w->ops[ST_WRITE].bytes, __ATOMIC_RELAXED);
		t->events += __atomic_load_n(&w->events, __ATOMIC_RELAXED);
		/* a racy copy: a bucket may be one count behind, never torn */
		sm_hist_merge(h, &w->ev);
	}
}

static void *run_reporter(void *argp)
{
	struct reporter *rp = argp;
	struct run_ctx *c = rp->ctx;
	struct sm_fileio_result *r = c->r;
	uint64_t iv = c->cfg->report_interval_ns, t0, next;
	struct sm_fileio_tick before, now;

	if (sm_start_wait(&c->start))
		return NULL;
	t0 = c->start.t0_ns;
	next = t0 + iv;
	snapshot(rp, &before, rp->prev);
	for (;;) {
		struct timespec ts = { (time_t)(next / SM_NS_PER_S), (long)(next % SM_NS_PER_S) };
		struct sm_fileio_tick t;
		int done;

		pthread_mutex_lock(&c->mu);
		while (c->running && sm_now_ns() < next)
			if (pthread_cond_timedwait(&c->cv, &c->mu, &ts) == ETIMEDOUT)
				break;
		done = c->running == 0;
		pthread_mutex_unlock(&c->mu);
		if (done)
			break;
		if (sm_now_ns() < next)
			continue;
		/* like sysbench: no tick at (or past) the end of the time limit */
		if (c->cfg->time_ns && next - t0 >= c->cfg->time_ns)
			break;
		snapshot(rp, &now, rp->cur);
		t = now;
		t.t_ns = next - t0;
		t.interval_ns = iv;
		t.reads -= before.reads;
		t.writes -= before.writes;
		t.fsyncs -= before.fsyncs;
		t.read_bytes -= before.read_bytes;
		t.write_bytes -= before.write_bytes;
		t.events -= before.events;
		/* interval histogram = cumulative now - cumulative before */
		for (unsigned i = 0; i < SM_HIST_BUCKETS; i++)
			rp->prev->buckets[i] = rp->cur->buckets[i] - rp->prev->buckets[i];
		rp->prev->count = rp->cur->count - rp->prev->count;
		rp->prev->min = rp->cur->min;
		rp->prev->max = rp->cur->max;
		t.lat_pct_ns = rp->pct > 0 ? sm_hist_percentile(rp->prev, rp->pct) : 0;
		t.lat_max_ns = rp->cur->max;
		if (r->nseries < r->series_cap)
			r->series[r->nseries++] = t;
		if (rp->fn)
			rp->fn(&t, rp->arg);
		before = now;
		{
			struct sm_hist *tmp = rp->prev;

			rp->prev = rp->cur;
			rp->cur = tmp;
		}
		next += iv;
	}
	return NULL;
}

/* ---- setup and merge --------------------------------------------------------- */

static const char *engine_for(enum sm_fileio_io m)
{
	return m == SM_FIO_IO_ASYNC ? "uring" : m == SM_FIO_IO_MMAP ? "mmap" : "psync";
}

static int worker_init(struct worker *w, struct run_ctx *c, unsigned id)
{
	const struct sm_fileio_cfg *cfg = c->cfg;
	size_t stride = (c->req_len + SM_BUF_ALIGN - 1) / SM_BUF_ALIGN * SM_BUF_ALIGN;
	struct sm_engine_cfg ec;
	char notice[200];
	int rc;

	w->ctx = c;
	w->id = id;
	for (int i = 0; i < 3; i++)
		sm_opstat_init(&w->ops[i]);
	sm_hist_init(&w->ev);
	w->mem = sm_buf_alloc(stride * c->depth, SM_BUF_ALIGN);
	w->bufs = calloc(c->depth, sizeof(*w->bufs));
	w->slots = calloc(c->depth, sizeof(*w->slots));
	w->free_ids = calloc(c->depth, sizeof(*w->free_ids));
	w->batch = calloc(c->depth, sizeof(*w->batch));
	w->done = calloc(c->depth, sizeof(*w->done));
	w->reqs = calloc(c->depth, sizeof(*w->reqs));
	if (!w->mem || !w->bufs || !w->slots || !w->free_ids || !w->batch || !w->done || !w->reqs)
		return -ENOMEM;
	sm_buf_fill(w->mem, stride * c->depth, cfg->data, cfg->seed ^ (0xf11e0000ULL + id));
	for (unsigned i = 0; i < c->depth; i++) {
		w->bufs[i] = w->mem + i * stride;
		w->free_ids[i] = c->depth - 1 - i;
	}
	memset(&ec, 0, sizeof(ec));
	ec.depth = c->depth;
	ec.bufs = w->bufs;
	ec.nbufs = c->depth;
	ec.buf_len = c->req_len;
	ec.fds = c->fds;
	ec.file_sizes = c->file_sizes;
	ec.nfds = cfg->num_files;
	rc = sm_engine_open(&w->eng, engine_for(cfg->io_mode), &ec, notice, sizeof(notice));
	if (rc)
		return rc;
	w->eng_open = 1;
	if (id == 0) {
		snprintf(c->r->engine, sizeof(c->r->engine), "%s", w->eng.ops->name);
		snprintf(c->r->notice, sizeof(c->r->notice), "%s", notice);
	}
	return 0;
}

static void worker_release(struct worker *w)
{
	if (w->eng_open)
		sm_engine_close(&w->eng);
	free(w->mem);
	free(w->bufs);
	free(w->slots);
	free(w->free_ids);
	free(w->batch);
	free(w->done);
	free(w->reqs);
}

int sm_fileio_result_init(struct sm_fileio_result *r, const struct sm_fileio_cfg *cfg)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 3; i++)
		sm_opstat_init(&r->ops[i]);
	sm_hist_init(&r->events_lat);
	r->nthreads = cfg->threads;
	r->thread_events = calloc(cfg->threads, sizeof(uint64_t));
	r->thread_busy_ns = calloc(cfg->threads, sizeof(uint64_t));
	if (cfg->report_interval_ns) {
		uint64_t n = cfg->time_ns ? cfg->time_ns / cfg->report_interval_ns + 2 : 3600;

		r->series_cap = n > 100000 ? 100000 : (unsigned)n;
		r->series = calloc(r->series_cap, sizeof(*r->series));
		if (!r->series)
			r->series_cap = 0;
	}
	if (!r->thread_events || !r->thread_busy_ns)
		return -ENOMEM;
	return 0;
}

void sm_fileio_result_release(struct sm_fileio_result *r)
{
	free(r->thread_events);
	free(r->thread_busy_ns);
	free(r->series);
	r->thread_events = r->thread_busy_ns = NULL;
	r->series = NULL;
}

int sm_fileio_run(const struct sm_fileio_cfg *cfg, const int *fds, double pct,
		  sm_fileio_tick_fn tick, void *tick_arg, struct sm_fileio_result *r)
{
	struct run_ctx c;
	struct worker *ws = NULL;
	struct reporter rp;
	pthread_t rep_tid;
	pthread_condattr_t ca;
	int rep_started = 0, rc = 0;
	unsigned i;
	uint64_t t_end = 0;

	memset(&c, 0, sizeof(c));
	memset(&rp, 0, sizeof(rp));
	c.cfg = cfg;
	c.fds = fds;
	c.r = r;
	c.depth = cfg->io_mode == SM_FIO_IO_ASYNC ? cfg->async_backlog : 1;
	if (c.depth > 1024)
		c.depth = 1024;
	c.req_len = sm_fileio_request_size(cfg);
	c.running = cfg->threads;
	pthread_mutex_init(&c.mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c.cv, &ca);
	pthread_condattr_destroy(&ca);
	sm_start_init(&c.start);
	c.file_sizes = calloc(cfg->num_files, sizeof(uint64_t));
	c.gen = sm_fileio_gen_new(cfg, cfg->threads * c.depth);
	ws = calloc(cfg->threads, sizeof(*ws));
	if (!c.file_sizes || !c.gen || !ws) {
		rc = -ENOMEM;
		snprintf(r->head.error, sizeof(r->head.error), "out of memory");
		goto out;
	}
	for (i = 0; i < cfg->num_files; i++)
		c.file_sizes[i] = cfg->file_size;
	for (i = 0; i < cfg->threads; i++) {
		rc = worker_init(&ws[i], &c, i);
		if (rc) {
			snprintf(r->head.error, sizeof(r->head.error), "cannot start I/O engine '%s': %s",
				 engine_for(cfg->io_mode), strerror(-rc));
			goto out;
		}
	}
	if (cfg->report_interval_ns) {
		rp.ctx = &c;
		rp.ws = ws;
		rp.n = cfg->threads;
		rp.pct = pct;
		rp.fn = tick;
		rp.arg = tick_arg;
		rp.cur = sm_hist_new();
		rp.prev = sm_hist_new();
		if (!rp.cur || !rp.prev || pthread_create(&rep_tid, NULL, run_reporter, &rp)) {
			rc = -ENOMEM;
			snprintf(r->head.error, sizeof(r->head.error), "cannot start the interval reporter");
			goto out;
		}
		rep_started = 1;
	}
	rc = sm_threads_run(cfg->threads, run_worker, ws, sizeof(*ws), &c.start);
	if (rc) {
		snprintf(r->head.error, sizeof(r->head.error), "cannot start worker threads: %s", strerror(-rc));
		pthread_mutex_lock(&c.mu);
		c.running = 0;
		pthread_cond_broadcast(&c.cv);
		pthread_mutex_unlock(&c.mu);
	}
	if (rep_started)
		pthread_join(rep_tid, NULL);
	if (rc)
		goto out;
	for (i = 0; i < cfg->threads; i++) {
		for (int k = 0; k < 3; k++)
			sm_opstat_merge(&r->ops[k], &ws[i].ops[k]);
		sm_hist_merge(&r->events_lat, &ws[i].ev);
		r->events += ws[i].events;
		r->thread_events[i] = ws[i].events;
		r->thread_busy_ns[i] = ws[i].busy_ns;
		if (ws[i].t_end > t_end)
			t_end = ws[i].t_end;
	}
	r->head.duration_ns = t_end > c.start.t0_ns ? t_end - c.start.t0_ns : 0;
	r->periodic_fsyncs = r->ops[ST_FSYNC].count - r->end_fsyncs;
	if (cfg->fsync_all)
		r->periodic_fsyncs = 0;
	r->head.interrupted = sm_stopped();
	if (r->failed)
		rc = -EIO;
out:
	if (ws)
		for (i = 0; i < cfg->threads; i++)
			worker_release(&ws[i]);
	free(ws);
	free(rp.cur);
	free(rp.prev);
	sm_fileio_gen_free(c.gen);
	free(c.file_sizes);
	pthread_cond_destroy(&c.cv);
	pthread_mutex_destroy(&c.mu);
	return rc;
}
