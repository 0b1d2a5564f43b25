/* SPDX-License-Identifier: MIT */
/* The I/O pump: submit, reap and drain a workload's requests on its engine
 * with one policy (workload/pump.h). */
#include "workload/pump.h"
#include "core/assert.h"
#include "core/worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sm_pump_init(struct sm_pump *p, struct sm_engine *e, unsigned cap, sm_pump_done_fn done,
		 sm_pump_unsent_fn unsent, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->eng = e;
	p->cap = cap ? cap : 1;
	p->done_fn = done;
	p->unsent_fn = unsent;
	p->ctx = ctx;
	p->pend = calloc(p->cap, sizeof(*p->pend));
	p->done = calloc(p->cap, sizeof(*p->done));
	if (!p->pend || !p->done) {
		sm_pump_release(p);
		return -ENOMEM;
	}
	return 0;
}

void sm_pump_release(struct sm_pump *p)
{
	free(p->pend);
	free(p->done);
	p->pend = p->done = NULL;
	p->npend = 0;
}

/* A wait that ended without a completion and without a failure. */
static int no_completion(int rc)
{
	return rc == -EAGAIN || rc == -EBUSY || rc == -ETIME;
}

/* Keep the first failure; hand what is queued back as unsent. */
static int fail(struct sm_pump *p, int err, int reaping)
{
	if (!p->err) {
		p->err = err;
		p->err_reaping = reaping;
	} else if (reaping) {
		p->err_reaping = 1;
	}
	for (unsigned i = 0; i < p->npend; i++)
		if (p->unsent_fn)
			p->unsent_fn(p->ctx, p->pend[i], err);
	p->npend = 0;
	return err;
}

/*
 * What to do with n, the engine's answer to a reap of at least min: hand
 * completions to done; -EINTR is retried unless stop_ok is set and the
 * stop flag is up. Returns the count, 0, -EINTR or the failure.
 */
static int reap_from(struct sm_pump *p, unsigned min, int stop_ok, int n)
{
	for (;;) {
		if (n > 0) {
			p->done_fn(p->ctx, p->done, (unsigned)n);
			return n;
		}
		if (n == 0 || no_completion(n))
			return 0;
		if (n != -EINTR)
			return fail(p, n, 1);
		if (stop_ok && sm_stopped())
			return -EINTR;
		n = sm_engine_reap(p->eng, p->done, min, p->cap);
	}
}

/* One reap of at least min (capped at what is in flight), by the policy. */
static int reap(struct sm_pump *p, unsigned min, int stop_ok)
{
	struct sm_engine *e = p->eng;

	if (p->err_reaping)
		return p->err;
	if (!e->inflight)
		return 0;
	if (min > e->inflight)
		min = e->inflight;
	return reap_from(p, min, stop_ok, sm_engine_reap(e, p->done, min, p->cap));
}

/* What to do with rc, the engine's answer to an offer of the whole queue,
 * and with what is left: the policy in pump.h. */
static int submit_from(struct sm_pump *p, int stop_ok, int rc)
{
	struct sm_engine *e = p->eng;

	if (p->err)
		return p->npend ? fail(p, p->err, 0) : 0;
	for (;;) {
		/* the engine accepts at most what it was offered */
		SM_ASSERT(rc <= (int)p->npend);
		if (rc > 0) {
			/* accepted a prefix: what is left moves to the front */
			p->npend -= (unsigned)rc;
			if (p->npend)
				memmove(p->pend, p->pend + rc, p->npend * sizeof(*p->pend));
		} else if (rc == -EINTR) {
			if (stop_ok && sm_stopped())
				return -EINTR;
		} else if (rc != 0 && rc != -EAGAIN && rc != -EBUSY) {
			return fail(p, rc, 0);
		} else if (!e->inflight) {
			return fail(p, -EAGAIN, 0);   /* refused, and nothing will free room */
		} else {
			/* refused: make room by reaping, never spin on submit */
			rc = reap(p, 1, stop_ok);
			if (rc < 0)
				return rc;
		}
		/* never more than cap requests out (pump.h) */
		SM_ASSERT(p->npend + e->inflight <= p->cap);
		if (!p->npend)
			return 0;
		rc = sm_engine_submit(e, p->pend, p->npend);
	}
}

static int submit(struct sm_pump *p, int stop_ok)
{
	if (!p->npend)
		return 0;
	if (p->err)
		return fail(p, p->err, 0);
	return submit_from(p, stop_ok, sm_engine_submit(p->eng, p->pend, p->npend));
}

int sm_pump_submit_slow(struct sm_pump *p, int accepted)
{
	return submit_from(p, 1, accepted);
}

int sm_pump_reap_slow(struct sm_pump *p, unsigned min, int got)
{
	return reap_from(p, min, 1, got);
}

int sm_pump_drain(struct sm_pump *p)
{
	while (p->npend || p->eng->inflight) {
		int rc = submit(p, 0);

		if (rc < 0 && !p->eng->inflight)
			return rc;
		rc = reap(p, 1, 0);
		if (rc < 0)
			return rc;
	}
	return p->err_reaping ? p->err : 0;
}

int64_t sm_pump_do(struct sm_pump *p, struct sm_io *io)
{
	struct sm_engine *e = p->eng;
	struct sm_io *got;
	int rc;

	if (e->inflight)
		return -EBUSY;
	if (p->err_reaping)
		return p->err;
	do {
		rc = sm_engine_submit(e, &io, 1);
	} while (rc == -EINTR);
	if (rc == 0)
		rc = -EAGAIN;
	if (rc < 0)
		return rc;
	for (;;) {
		rc = sm_engine_reap(e, &got, 1, 1);
		if (rc > 0)
			return io->res;
		if (rc < 0 && rc != -EINTR && !no_completion(rc))
			return rc;
	}
}
