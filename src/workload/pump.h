/* SPDX-License-Identifier: MIT */
/* The I/O pump: the one place a workload's requests meet its engine, with
 * one policy for partial acceptance, refusal, -EINTR, completion batching
 * and draining on stop. */
#ifndef SM_WORKLOAD_PUMP_H
#define SM_WORKLOAD_PUMP_H

#include "engine/engine.h"

/*
 * The workload keeps what is its own (which request next, pacing, timing,
 * accounting); the pump owns the engine calls. A workload queues requests
 * (sm_pump_queue), pushes them to the engine (sm_pump_submit) and asks for
 * completions (sm_pump_reap); completed requests come back through
 * done(ctx, ios, n), one call per batch the engine returned, in the order
 * the engine returned them. done may queue follow-up requests (the next
 * request of a frame, a slot's next block); they go with the next submit.
 *
 * Every queued request comes back exactly once: through done (it went to
 * the engine; io->res is its result, which may be -errno), or through
 * unsent(ctx, io, err) when the engine failed for good before accepting it
 * (err is the failure; io->t_issue and io->res are untouched: it was
 * never issued, so it is not a completed request).
 *
 * The policy:
 * - partial acceptance: submit returns k < n; the rest is offered again at
 *   once, in order;
 * - refusal (0 accepted, -EAGAIN or -EBUSY): at least one completion is
 *   reaped first, then the rest is offered again; refused with nothing in
 *   flight, the engine cannot make progress: that is -EAGAIN, for good;
 * - -EINTR (a signal during a wait): retried, unless the stop flag
 *   (sm_stopped()) is set: then it is returned, so the caller stops
 *   claiming work and drains;
 * - -EAGAIN, -EBUSY or -ETIME from reap (a wait that timed out): no
 *   completion, not an error (0);
 * - completion batching: sm_pump_reap(p, min) waits for min completions
 *   (capped at what is in flight; 0 polls) and takes up to cap at once;
 * - draining: sm_pump_drain() submits what is still queued and reaps until
 *   nothing is in flight, through every signal: when it returns 0 every
 *   request has come back and the buffers may be freed;
 * - any other -errno is a failure: the first is kept in err (err_reaping
 *   says whether it came from reap), pending requests go to unsent, and
 *   after a reap failure the pump does not wait on the engine again
 *   (sm_engine_close() deals with what the kernel still holds).
 *
 * Not thread-safe: one pump per engine instance, used by one thread.
 * Nothing allocates or reads the clock after sm_pump_init().
 */
typedef void (*sm_pump_done_fn)(void *ctx, struct sm_io **ios, unsigned n);
typedef void (*sm_pump_unsent_fn)(void *ctx, struct sm_io *io, int err);

struct sm_pump {
	struct sm_engine *eng;
	/* Invariant: npend + eng->inflight <= cap (the workload never has
	 * more than cap requests out), so pend and done never overflow. */
	struct sm_io **pend;       /* queued, not yet accepted, in order */
	struct sm_io **done;       /* one reaped batch */
	unsigned npend, cap;
	sm_pump_done_fn done_fn;
	sm_pump_unsent_fn unsent_fn;
	void *ctx;
	int err;                   /* first failure (-errno), sticky; 0 */
	int err_reaping;           /* 1: err came from reap (the engine is not waited on again) */
};

/*
 * Set up a pump for engine e (opened, nothing in flight) and at most cap
 * requests out at once (queued plus in flight; cap >= 1, normally the
 * engine's depth). unsent may be NULL when the workload does not care
 * (the requests are then simply dropped). Returns 0 or -ENOMEM.
 */
int sm_pump_init(struct sm_pump *p, struct sm_engine *e, unsigned cap, sm_pump_done_fn done,
		 sm_pump_unsent_fn unsent, void *ctx);

/* Free the pump's arrays (not the engine). Safe on a zeroed pump. */
void sm_pump_release(struct sm_pump *p);

/* Queue io for the next submit. Returns 0, or -ENOSPC when cap requests
 * are already out (a workload bug: the request is not queued). */
static inline int sm_pump_queue(struct sm_pump *p, struct sm_io *io)
{
	if (p->npend + p->eng->inflight >= p->cap)
		return -ENOSPC;
	p->pend[p->npend++] = io;
	return 0;
}

/* Requests in the engine (accepted, not yet returned). */
static inline unsigned sm_pump_inflight(const struct sm_pump *p)
{
	return p->eng->inflight;
}

/* Requests out: queued or in the engine. */
static inline unsigned sm_pump_busy(const struct sm_pump *p)
{
	return p->npend + p->eng->inflight;
}

/*
 * Hand every queued request to the engine, by the policy above (completions
 * reaped on a refusal go to done, and what done queues is submitted too).
 * Returns 0 when nothing is left queued; -EINTR when a stop interrupted a
 * wait (the rest stays queued: sm_pump_drain() sends it); or the failure
 * (-errno, also in p->err), the queued requests handed to unsent.
 */
static inline int sm_pump_submit(struct sm_pump *p);

/*
 * Wait for at least min completions (0: poll; capped at what is in
 * flight) and hand up to cap of them to done, in one call. Returns how
 * many (0 when nothing is in flight or the wait timed out), -EINTR when
 * a stop interrupted the wait, or the failure (-errno, also in p->err).
 */
static inline int sm_pump_reap(struct sm_pump *p, unsigned min);

/*
 * Finish everything: submit what is queued (including what done queues
 * meanwhile) and reap until nothing is in flight, retrying through -EINTR
 * whatever the stop flag says. Returns 0 when every request has come back
 * (through done or unsent), else the failure that kept some in the engine.
 */
int sm_pump_drain(struct sm_pump *p);

/*
 * Run one request alone, outside the stream of done (an open before the
 * run, an fsync between requests): submit it and wait for it, retrying
 * through -EINTR. Only with nothing in flight. Returns io->res, -EBUSY
 * when requests are in flight (nothing was done), or the engine's -errno.
 */
int64_t sm_pump_do(struct sm_pump *p, struct sm_io *io);

/* The policy's paths (pump.c), behind the fast paths below: accepted and
 * got are the engine's answer (a count or -errno) to the first call. */
int sm_pump_submit_slow(struct sm_pump *p, int accepted);
int sm_pump_reap_slow(struct sm_pump *p, unsigned min, int got);

/* Fast path: the engine took the whole queue. Inline, so a request costs
 * no more calls than the engine's own. */
static inline int sm_pump_submit(struct sm_pump *p)
{
	int rc;

	if (!p->npend)
		return 0;
	if (p->err)
		return sm_pump_submit_slow(p, 0);
	rc = sm_engine_submit(p->eng, p->pend, p->npend);
	if (rc == (int)p->npend) {
		p->npend = 0;
		return 0;
	}
	return sm_pump_submit_slow(p, rc);
}

/* Fast path: the engine returned completions at the first call. */
static inline int sm_pump_reap(struct sm_pump *p, unsigned min)
{
	struct sm_engine *e = p->eng;
	int n;

	if (!e->inflight || p->err_reaping)
		return p->err_reaping ? p->err : 0;
	if (min > e->inflight)
		min = e->inflight;
	n = sm_engine_reap(e, p->done, min, p->cap);
	if (n > 0) {
		p->done_fn(p->ctx, p->done, (unsigned)n);
		return n;
	}
	return sm_pump_reap_slow(p, min, n);
}

#endif
