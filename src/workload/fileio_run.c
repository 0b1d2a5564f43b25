/* SPDX-License-Identifier: MIT */
/* sysbench-fileio workload: the run phase. Worker threads take events from
 * the shared generator and keep up to `depth` of them in flight on their
 * own engine instance (psync, uring or mmap); their statistics live in a
 * core/series, which a helper thread samples for the interval reports.
 * Nothing here allocates, locks (beyond the generator's short critical
 * section) or prints inside the timed loop. */
#include "workload/fileio.h"
#include "analysis/fileio.h"
#include "workload/fileio_stats.h"
#include "workload/pump.h"
#include "engine/engine.h"
#include "engine/nfs.h"
#include "engine/sync_exec.h"
#include "core/clock.h"
#include "core/compiler.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct run_ctx {
	const struct sm_fileio_cfg *cfg;
	const int *fds;
	uint64_t *file_sizes;
	struct sm_fileio_gen *gen;
	struct sm_fileio_vctx v;   /* --validate/--verify (v.last NULL otherwise) */
	struct sm_start start;
	unsigned depth;
	uint64_t req_len;
	atomic_int failed;
	pthread_mutex_t mu;        /* guards error, running; cv signals the reporter */
	pthread_cond_t cv;
	unsigned running;
	struct sm_series *stats;
	struct sm_fileio_result *r;
};

struct slot {
	struct sm_io io;
	struct sm_fileio_req req;
};

struct worker {
	struct run_ctx *ctx;
	unsigned id;
	struct sm_series_slot *st; /* this worker's statistics (it alone writes them) */
	struct sm_engine eng;
	int eng_open;
	struct sm_pump pump;       /* every engine call of the timed loop */
	unsigned nfree;            /* free slots, their ids in free_ids */
	unsigned unsent;           /* requests the engine never took (it failed) */
	unsigned char *mem;        /* depth buffers of req_len, one allocation */
	void **bufs;
	struct slot *slots;
	unsigned *free_ids;
	struct sm_io **batch;      /* requests generated, not yet queued */
	struct sm_fileio_req *reqs;
	struct sm_verify_stats vs; /* this worker's blocks sealed and checked */
	uint64_t t_end;            /* read once the worker is joined */
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

/* The failed request, kept beside the message of the first failure. */
static void run_fail_io(struct run_ctx *c, const struct sm_io *io, unsigned file, uint64_t off,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void run_fail_io(struct run_ctx *c, const struct sm_io *io, unsigned file, uint64_t off,
			const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&c->mu);
	if (!atomic_load(&c->failed)) {
		struct sm_fileio_ioerr *e = &c->r->io_err;

		va_start(ap, fmt);
		vsnprintf(c->r->head.error, sizeof(c->r->head.error), fmt, ap);
		va_end(ap);
		e->set = 1;
		e->kind = io->op == SM_OP_READ ? 0 : io->op == SM_OP_WRITE ? 1 : 2;
		e->fd = c->fds[file];
		e->file = file;
		e->off = off;
		e->err = io->res < 0 ? (int)-io->res : 0;
		e->async = c->cfg->io_mode == SM_FIO_IO_ASYNC;
		c->r->failed = 1;
		atomic_store(&c->failed, 1);
	}
	pthread_mutex_unlock(&c->mu);
}

static int stat_of(int op)
{
	return op == SM_OP_READ ? ST_READ : op == SM_OP_WRITE ? ST_WRITE : ST_FSYNC;
}

static void account(struct worker *w, int kind, const struct sm_io *io)
{
	sm_series_add(w->st, C_COUNT + kind, 1);
	if (io->res < 0) {
		sm_series_add(w->st, C_ERRORS + kind, 1);
		return;
	}
	if (io->op == SM_OP_READ || io->op == SM_OP_WRITE)
		sm_series_add(w->st, C_BYTES + kind, (uint64_t)io->res);
	sm_series_record(w->st, H_LAT + kind, io->t_done - io->t_issue);
}

/*
 * An event's time as sysbench 1.0.20 counts it: the time its thread spent
 * executing it. In sync and mmap mode that is the request (and, with
 * --file-fsync-all, the fsync after the write). In async mode sysbench's
 * thread submits the request and returns, except when the queue is then
 * full: it waits for at least one completion first. So an event's time is
 * its submission, plus that wait for the event that filled the queue, and
 * a thread's events add up to the time it spent submitting and waiting.
 * Here a batch of n events is submitted at once: each gets an equal share
 * of submit_ns, and the one that filled the queue also gets wait_ns.
 */
static void record_events(struct worker *w, unsigned n, uint64_t submit_ns, uint64_t wait_ns)
{
	for (unsigned k = 0; k < n; k++) {
		uint64_t v = submit_ns / n;

		if (k == n - 1)
			v += submit_ns % n + wait_ns;
		sm_series_record(w->st, H_EVENT, v);
	}
	sm_series_add(w->st, C_BUSY_NS, submit_ns + wait_ns);
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
	if (sm_pump_inflight(&w->pump)) {
		sm_sync_exec(&io);     /* never mix into the async queue */
	} else {
		int64_t rc = sm_pump_do(&w->pump, &io);

		if (rc < 0 && io.res >= 0)
			io.res = rc;   /* the engine failed, not the request */
	}
	account(w, ST_FSYNC, &io);
	if (io.res < 0) {
		char path[4096];

		sm_fileio_path(cfg, file, path, sizeof(path));
		run_fail_io(w->ctx, &io, file, 0, "%s of '%s' failed: %s", sm_op_name(io.op), path,
			    strerror((int)-io.res));
		return -1;
	}
	return 0;
}

/* A read found a damaged block: stop the run with the problem as the
 * error (the partial report follows). */
static void fail_check(struct worker *w, const struct sm_verify_problem *p)
{
	char path[4096], what[400];
	const char *colon;

	sm_fileio_path(w->ctx->cfg, p->file, path, sizeof(path));
	sm_verify_describe(what, sizeof(what), p);
	colon = strchr(what, ':');
	/* "block at offset N of 'file'" is what scripts of earlier versions
	 * look for after a --validate failure */
	run_fail(w->ctx, "%s failed: block at offset %llu of '%s': %s",
		 w->ctx->cfg->verify ? "verification" : "validation", (unsigned long long)p->off, path,
		 colon ? colon + 2 : what);
}

static void complete(struct worker *w, struct sm_io *io)
{
	struct run_ctx *c = w->ctx;
	const struct sm_fileio_cfg *cfg = c->cfg;
	unsigned s = (unsigned)(uintptr_t)io->user;
	struct slot *sl = &w->slots[s];

	account(w, stat_of(sl->req.op), io);
	if (io->res < 0 || (sl->req.op != SM_OP_FSYNC && (uint64_t)io->res != sl->req.len)) {
		char path[4096];

		sm_fileio_path(cfg, sl->req.file, path, sizeof(path));
		if (io->sigbus)
			run_fail_io(c, io, sl->req.file, sl->req.off, "%s of %llu bytes at offset %llu of '%s' "
				    "failed: SIGBUS on the mapping at file offset %llu: %s", sm_op_name(io->op),
				    (unsigned long long)sl->req.len, (unsigned long long)sl->req.off, path,
				    (unsigned long long)io->fault_off, strerror((int)-io->res));
		else if (sl->req.op == SM_OP_FSYNC)
			run_fail_io(c, io, sl->req.file, 0, "%s of '%s' failed: %s", sm_op_name(io->op), path,
				    strerror((int)-io->res));
		else
			run_fail_io(c, io, sl->req.file, sl->req.off, "%s of %llu bytes at offset %llu of '%s' "
				    "failed: %s", sm_op_name(io->op), (unsigned long long)sl->req.len,
				    (unsigned long long)sl->req.off, path,
				    io->res < 0 ? strerror((int)-io->res) : "short transfer");
	} else {
		sm_series_add(w->st, C_EVENTS, 1);
		if (c->v.last && sl->req.op == SM_OP_WRITE)
			sm_fileio_vwritten(&c->v, sl->req.file, sl->req.off, sl->req.len, sl->req.event);
		if (c->v.last && sl->req.op == SM_OP_READ) {
			struct sm_verify_problem first;

			if (sm_fileio_vcheck(&c->v, io->buf, sl->req.file, sl->req.off, sl->req.len, &w->vs,
					     &first))
				fail_check(w, &first);
		}
		/* part of the write's event: completions are handled while the
		 * thread waits for a free slot, the wait record_events() counts
		 * (in sync mode, the request's own) */
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
		sm_buf_stamp(io->buf, rq->len, cfg->data, cfg->seed, rq->event);
		if (c->v.last)
			sm_fileio_vseal(&c->v, io->buf, rq->file, rq->off, rq->len, rq->event, &w->vs);
	}
}

/* The pump's completions: each is accounted and its slot freed. */
static void on_done(void *ctx, struct sm_io **ios, unsigned n)
{
	struct worker *w = ctx;

	for (unsigned i = 0; i < n; i++) {
		complete(w, ios[i]);
		w->free_ids[w->nfree++] = (unsigned)(uintptr_t)ios[i]->user;
	}
}

/* A request the engine never took (it failed for good): back to the pool,
 * not an event. */
static void on_unsent(void *ctx, struct sm_io *io, SM_UNUSED int err)
{
	struct worker *w = ctx;
	unsigned s = (unsigned)(uintptr_t)io->user;

	sm_fileio_gen_release(w->ctx->gen, w->id * w->ctx->depth + s);
	w->free_ids[w->nfree++] = s;
	w->unsent++;
}

/* The pump failed: the run's error, in the words of the step that failed. */
static void pump_fail(struct worker *w)
{
	const struct sm_pump *p = &w->pump;

	if (p->err_reaping)
		run_fail(w->ctx, "waiting for I/O completions failed: %s", strerror(-p->err));
	else
		run_fail(w->ctx, "submitting I/O failed: %s", strerror(-p->err));
}

/* Wait for one completion. Returns 0, or -1 when the pump failed (the run
 * is failed); a stop (-EINTR) is seen by the caller's next check. */
static int reap_one(struct worker *w)
{
	int rc = sm_pump_reap(&w->pump, 1);

	if (rc < 0 && rc != -EINTR) {
		pump_fail(w);
		return -1;
	}
	return 0;
}

static void *run_worker(void *argp)
{
	struct worker *w = argp;
	struct run_ctx *c = w->ctx;
	const struct sm_fileio_cfg *cfg = c->cfg;
	unsigned slot_ids[1024];
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
		if (!stop && w->nfree) {
			unsigned want = cfg->rate > 0 ? 1 : w->nfree, n, done;
			uint64_t t_sub, t_wait;
			int rc;

			for (unsigned k = 0; k < want; k++)
				slot_ids[k] = w->id * c->depth + w->free_ids[w->nfree - 1 - k];
			n = sm_fileio_gen_next(c->gen, w->reqs, want, slot_ids);
			if (n == 0)
				stop = 1;
			for (unsigned k = 0; k < n; k++) {
				unsigned s = w->free_ids[--w->nfree];

				fill_io(w, s, &w->reqs[k]);
				w->batch[k] = &w->slots[s].io;
			}
			if (n && cfg->rate > 0) {
				double at = (double)w->reqs[0].event * 1e9 / cfg->rate;
				uint64_t due = at < (double)(UINT64_MAX - t0) ? t0 + (uint64_t)at : UINT64_MAX;

				/* an event due after --time or a stop is never issued:
				 * its requests go back to the pool */
				if (sm_sleep_until_or_stop(due, deadline)) {
					for (unsigned k = 0; k < n; k++) {
						unsigned s = (unsigned)(uintptr_t)w->batch[k]->user;

						sm_fileio_gen_release(c->gen, w->id * c->depth + s);
						w->free_ids[w->nfree++] = s;
					}
					stop = 1;
					n = 0;
				}
			}
			for (unsigned k = 0; k < n; k++)
				sm_pump_queue(&w->pump, w->batch[k]);
			w->unsent = 0;
			t_sub = sm_now_ns();
			rc = n ? sm_pump_submit(&w->pump) : 0;
			if (rc == -EINTR) {
				stop = 1;      /* what is still queued goes in the drain */
			} else if (rc < 0) {
				pump_fail(w);
				stop = 1;
				if (w->pump.err_reaping)
					break;
			}
			/* the events the engine took (a failure hands the rest back) */
			done = n - w->unsent - w->pump.npend;
			if (!done)
				continue;
			t_wait = sm_now_ns();
			if (w->nfree == 0 && !stop) {
				/* the queue is full: wait for a free slot, as part of
				 * the event that filled it (sync modes: depth 1, so
				 * this is the request itself) */
				if (reap_one(w) < 0)
					stop = 1;
				record_events(w, done, t_wait - t_sub, sm_now_ns() - t_wait);
				if (w->pump.err_reaping)
					break;
				continue;
			}
			record_events(w, done, t_wait - t_sub, 0);
		}
		if (sm_pump_busy(&w->pump) == 0) {
			if (stop)
				break;
			continue;
		}
		if (reap_one(w) < 0) {
			stop = 1;
			break;     /* the engine is not waited on again */
		}
	}
	/* everything out comes back (and is accounted) before the end */
	if (sm_pump_drain(&w->pump) && !w->pump.err_reaping)
		pump_fail(w);
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

/* ---- setup and merge --------------------------------------------------------- */

/* What --file-io-mode needs of an engine: async a queue (uring), mmap
 * mapped files, sync neither (psync). */
static struct sm_engine_need engine_need(const struct sm_fileio_cfg *cfg)
{
	enum sm_fileio_io m = cfg->io_mode;
	struct sm_engine_need need = { .flags = cfg->engine_flags };

	need.caps = m == SM_FIO_IO_ASYNC ? SM_ENGINE_ASYNC : m == SM_FIO_IO_MMAP ? SM_ENGINE_MAPPED : 0;
	return need;
}

static const char *engine_for(const struct sm_fileio_cfg *cfg)
{
	struct sm_engine_need need = engine_need(cfg);
	const struct sm_engine_ops *ops = cfg->nfs ? sm_nfs_engine_ops() : sm_engine_choose(&need);

	return ops ? ops->name : "?";
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
	w->st = sm_series_slot(c->stats, id);
	w->mem = sm_buf_alloc(stride * c->depth, SM_BUF_ALIGN);
	w->bufs = calloc(c->depth, sizeof(*w->bufs));
	w->slots = calloc(c->depth, sizeof(*w->slots));
	w->free_ids = calloc(c->depth, sizeof(*w->free_ids));
	w->batch = calloc(c->depth, sizeof(*w->batch));
	w->reqs = calloc(c->depth, sizeof(*w->reqs));
	if (!w->mem || !w->bufs || !w->slots || !w->free_ids || !w->batch || !w->reqs)
		return -ENOMEM;
	sm_buf_fill(w->mem, stride * c->depth, cfg->data, cfg->seed ^ (0xf11e0000ULL + id));
	for (unsigned i = 0; i < c->depth; i++) {
		w->bufs[i] = w->mem + i * stride;
		w->free_ids[i] = c->depth - 1 - i;
	}
	w->nfree = c->depth;
	memset(&ec, 0, sizeof(ec));
	ec.depth = c->depth;
	ec.bufs = w->bufs;
	ec.nbufs = c->depth;
	ec.buf_len = c->req_len;
	ec.fds = c->fds;
	ec.file_sizes = c->file_sizes;
	ec.nfds = cfg->num_files;
	if (cfg->nfs) {   /* not in the registry: bound to the server's files */
		notice[0] = '\0';
		rc = sm_engine_open_ops(&w->eng, sm_nfs_engine_ops(), &ec);
	} else {
		struct sm_engine_need need = engine_need(cfg);

		rc = sm_engine_open_need(&w->eng, &need, &ec, notice, sizeof(notice));
	}
	if (rc)
		return rc;
	w->eng_open = 1;
	rc = sm_pump_init(&w->pump, &w->eng, c->depth, on_done, on_unsent, w);
	if (rc)
		return rc;
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
	sm_pump_release(&w->pump);
	free(w->reqs);
}

int sm_fileio_run(const struct sm_fileio_cfg *cfg, const int *fds, double pct,
		  sm_fileio_tick_fn tick, void *tick_arg, struct sm_fileio_result *r)
{
	struct run_ctx c;
	struct worker *ws = NULL;
	struct sm_fileio_reporter rp;
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
	c.stats = sm_fileio_stats_new(cfg);
	if (!c.file_sizes || !c.gen || !ws || !c.stats) {
		rc = -ENOMEM;
		snprintf(r->head.error, sizeof(r->head.error), "out of memory");
		goto out;
	}
	for (i = 0; i < cfg->num_files; i++)
		c.file_sizes[i] = cfg->file_size;
	if (sm_fileio_sealing(cfg)) {
		rc = sm_fileio_vctx_init(&c.v, cfg, fds, cfg->threads * c.depth, &r->head.warnings,
					 r->head.error, sizeof(r->head.error));
		if (rc == -ENOMEM)
			snprintf(r->head.error, sizeof(r->head.error), "out of memory");
		if (rc)
			goto out;
		r->verify_run = c.v.run;
	}
	for (i = 0; i < cfg->threads; i++) {
		rc = worker_init(&ws[i], &c, i);
		if (rc) {
			snprintf(r->head.error, sizeof(r->head.error), "cannot start I/O engine '%s': %s",
				 engine_for(cfg), strerror(-rc));
			goto out;
		}
	}
	{   /* always: the per-second series (and the interval lines) */
		rp.cfg = cfg;
		rp.start = &c.start;
		rp.mu = &c.mu;
		rp.cv = &c.cv;
		rp.running = &c.running;
		rp.stats = c.stats;
		rp.r = r;
		rp.pct = pct;
		rp.fn = tick;
		rp.arg = tick_arg;
		rc = sm_fileio_reporter_start(&rp);
		if (rc) {
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
		sm_fileio_reporter_join(&rp);
	if (rc)
		goto out;
	/* every write has completed: the block maps get this run's */
	sm_fileio_vctx_finish(&c.v);
	/* every worker has been joined: what each ring was granted */
	memset(&r->head.env.engine_setup, 0, sizeof(r->head.env.engine_setup));
	for (i = 0; i < cfg->threads; i++) {
		struct sm_engine_setup es;

		sm_engine_describe(&ws[i].eng, &es);
		sm_esetup_merge(&r->head.env.engine_setup, &es);
	}
	/* the series now reads exact */
	sm_fileio_stats_collect(c.stats, r);
	for (i = 0; i < cfg->threads; i++)
		sm_verify_stats_merge(&r->verify, &ws[i].vs);
	for (i = 0; i < cfg->threads; i++)
		if (ws[i].t_end > t_end)
			t_end = ws[i].t_end;
	r->head.duration_ns = t_end > c.start.t0_ns ? t_end - c.start.t0_ns : 0;
	/* the series covers the whole run: its last, partial interval */
	if (rep_started)
		sm_fileio_series_close(&rp, r->head.duration_ns);
	r->periodic_fsyncs = r->ops[ST_FSYNC].count - r->end_fsyncs;
	if (cfg->fsync_all)
		r->periodic_fsyncs = 0;
	r->head.interrupted = sm_stopped();
	sm_fileio_analyse(r);
	if (sm_fileio_mode_writes(cfg->mode))
		sm_fileio_cliff(r);
	if (r->failed)
		rc = -EIO;
out:
	if (ws)
		for (i = 0; i < cfg->threads; i++)
			worker_release(&ws[i]);
	free(ws);
	sm_series_free(c.stats);
	sm_fileio_gen_free(c.gen);
	sm_fileio_vctx_release(&c.v);
	free(c.file_sizes);
	pthread_cond_destroy(&c.cv);
	pthread_mutex_destroy(&c.mu);
	return rc;
}
