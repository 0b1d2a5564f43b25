/* SPDX-License-Identifier: MIT */
/* The streams search as an MPI job (docs/mpi.md, docs/streams.md): rank 0
 * orders each step, every rank runs its share of the step's streams from
 * a common start barrier, rank 0 merges the streams' figures and judges. */
#include "workload/streams_int.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/worker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Orders and replies are copied as they lie in memory: every rank runs the
 * same stormark build (docs/mpi.md), and the magic catches a mismatch. */
#define MAGIC 0x534d5354u   /* "SMST" */

enum { ORDER_END = 0, ORDER_STEP = 1 };

/* One group of a step (the mix's groups, then the searched streams). */
struct order_group {
	uint32_t dir, sequence, n, pad;
	uint64_t chunk_bytes, frames;
	double fps, frame_bytes;
	char format[40];
};

struct order {
	uint32_t magic, kind;
	uint32_t ngroups, nsec;     /* nsec: per-second bytes of each group, or 0 */
	struct order_group g[SM_STREAMS_STEP_GROUPS];
};

/* Vote values at the start barrier: the worst wins. */
enum { PREP_OK = 0, PREP_NOSPACE = 1, PREP_STOPPED = 2, PREP_FAILED = 3 };

/* A rank's reply to a step: this header, m stream figures, nsec seconds. */
struct reply {
	uint32_t magic, m, nsec;
	int32_t rc, complete, ran;
	uint64_t duration_ns, schedule_ns, bytes, cpu_ns;
	char err[400];
};

/* Streams of a step of n that rank r of P serves: r, r + P, ... */
static unsigned share(unsigned n, unsigned r, unsigned ranks)
{
	return n / ranks + (r < n % ranks);
}

/* All the order's streams. */
static unsigned order_streams(const struct order *o)
{
	unsigned n = 0;

	for (unsigned k = 0; k < o->ngroups; k++)
		n += o->g[k].n;
	return n;
}

/* The longest group's schedule. */
static uint64_t sched_ns(const struct order *o)
{
	uint64_t l = 0;

	for (unsigned k = 0; k < o->ngroups; k++) {
		uint64_t t = o->g[k].fps > 0 ? (uint64_t)((double)o->g[k].frames / o->g[k].fps * 1e9) : 0;

		if (t > l)
			l = t;
	}
	return l;
}

/* Rank r's groups of order o: each group's streams i (counted over the
 * step) with i mod P = r. Returns the groups (ng, into og) and the streams. */
static unsigned local_groups(const struct order *o, unsigned r, unsigned ranks,
			     struct sm_streams_order_group *og, unsigned *ng)
{
	unsigned start = 0, m = 0;

	*ng = o->ngroups;
	for (unsigned k = 0; k < o->ngroups; k++) {
		const struct order_group *g = &o->g[k];
		unsigned mine = share(start + g->n, r, ranks) - share(start, r, ranks);

		memset(&og[k], 0, sizeof(og[k]));
		memcpy(og[k].format, g->format, sizeof(og[k].format));
		og[k].format[sizeof(og[k].format) - 1] = '\0';
		og[k].g = (struct sm_streams_group_plan){
			.n = mine, .dir = (enum sm_direction)g->dir, .sequence = (int)g->sequence,
			.chunk_bytes = g->chunk_bytes, .frame_bytes = g->frame_bytes, .fps = g->fps,
			.frames = g->frames,
		};
		start += g->n;
		m += mine;
	}
	return m;
}

/*
 * Every rank, for one order: prepare this rank's share (failed: this rank
 * cannot, res->head.error says why), vote at the start
 * barrier, run it when every rank is ready, send the reply to rank 0. On
 * rank 0, *out and *len are every rank's replies (see gather). Returns 0
 * (also when this rank's step failed: the reply says so), or -ETIMEDOUT /
 * -ENOMEM / -EIO when the job cannot go on (*why says which).
 */
static int serve_order(struct sm_streams_search *x, const struct order *o, int failed, char ***out,
		       size_t **len, char *why, size_t wlen)
{
	const struct sm_streams_plan *p = x->plan;
	const struct sm_streams_peers *pe = p->peers;
	struct sm_streams_order_group og[SM_STREAMS_STEP_GROUPS];
	unsigned ng, m = local_groups(o, pe->rank, pe->ranks, og, &ng);
	struct sm_streams_step st = { 0 };
	struct reply *r;
	uint64_t *sec = NULL;
	char notice[256], err[600] = "";
	size_t size;
	int prep, vote = PREP_FAILED, rc;

	size = sizeof(*r) + (size_t)m * sizeof(struct sm_stream_fig) +
	       (size_t)ng * o->nsec * sizeof(uint64_t);
	r = calloc(1, size);
	if (r && o->nsec)
		sec = (uint64_t *)((char *)(r + 1) + (size_t)m * sizeof(struct sm_stream_fig));
	prep = !r ? -ENOMEM : failed ? failed : sm_streams_prepare(x, og, ng);
	rc = pe->vote(pe->arg, !prep ? PREP_OK : prep == -ENOSPC && !x->res->error ? PREP_NOSPACE :
		      prep == -EINTR ? PREP_STOPPED : PREP_FAILED, &vote,
		      sm_now_ns() + pe->wait_ns + p->time_ns);
	if (rc) {
		snprintf(why, wlen, "the start barrier of a step of %u streams failed: %s",
			 order_streams(o), rc == -ETIMEDOUT ? "a rank did not come within --mpi-wait" :
			 strerror(-rc));
		free(r);
		return rc;
	}
	if (!r) {   /* voted a failure: the others skip the step, the job stops */
		snprintf(why, wlen, "out of memory for a step of %u streams", order_streams(o));
		return -ENOMEM;
	}
	r->magic = MAGIC;
	r->m = m;
	r->nsec = o->nsec;
	r->rc = prep;
	if (prep)
		snprintf(r->err, sizeof(r->err), "%s", prep == -ENOSPC && !x->res->error ?
			 "no room for the playback files" : x->res->head.error);
	if (vote == PREP_OK && m) {
		r->ran = 1;
		r->rc = sm_streams_local_step(x, og, ng, sec, o->nsec, &st, notice, sizeof(notice), err,
					      sizeof(err));
		if (r->rc && r->rc != -EINTR)
			snprintf(r->err, sizeof(r->err), "%s", err);
		if (notice[0] && !x->engine_noted) {
			sm_warn(&x->res->head.warnings, "engine_fallback", "%s", notice);
			x->engine_noted = 1;
		}
		r->complete = st.complete;
		r->duration_ns = st.duration_ns;
		r->schedule_ns = st.schedule_ns;
		r->bytes = st.bytes;
		r->cpu_ns = st.cpu_ns;
		if (st.streams)
			memcpy(r + 1, st.streams, (size_t)st.n * sizeof(*st.streams));
		free(st.streams);
	} else if (vote == PREP_OK) {
		r->ran = 1;   /* no stream of this step is this rank's: it idles */
		r->complete = 1;
	}
	rc = pe->gather(pe->arg, r, size, sm_now_ns() + pe->wait_ns + sched_ns(o), out, len);
	free(r);
	if (rc)
		snprintf(why, wlen, "cannot hand a step's figures to rank 0: %s",
			 rc == -ETIMEDOUT ? "not taken within --mpi-wait" : strerror(-rc));
	return rc;
}

/* The worse of two step outcomes: an error, then stopped, then no room. */
static int worse(int a, int b)
{
	int ra = !a ? 0 : a == -ENOSPC ? 1 : a == -EINTR ? 2 : 3;
	int rb = !b ? 0 : b == -ENOSPC ? 1 : b == -EINTR ? 2 : 3;

	return rb > ra ? b : a;
}

/* Rank 0: the replies merged into *st, stream i of rank r's k-th stream
 * at r + k x P. Returns the step's outcome (see sm_streams_mpi_step). */
static int merge(struct sm_streams_search *x, const struct order *o, char **out, size_t *len,
		 struct sm_streams_step *st, uint64_t *sec, char *err, size_t elen)
{
	const struct sm_streams_peers *pe = x->plan->peers;
	unsigned n = order_streams(o), ng = o->ngroups;
	int rc = 0, ran = 1;

	memset(st, 0, sizeof(*st));
	st->n = n;
	st->complete = 1;
	st->streams = calloc(n ? n : 1, sizeof(*st->streams));
	if (!st->streams) {
		snprintf(err, elen, "out of memory for a step of %u streams", n);
		return -ENOMEM;
	}
	for (unsigned q = 0; q < pe->ranks; q++) {
		const struct reply *r = out[q] && len[q] >= sizeof(*r) ? (const struct reply *)out[q] : NULL;
		unsigned m = share(n, q, pe->ranks);
		const struct sm_stream_fig *fig;
		const uint64_t *rs;

		if (!r || r->magic != MAGIC || r->m != m || r->nsec != o->nsec ||
		    len[q] != sizeof(*r) + (size_t)m * sizeof(*fig) + (size_t)ng * o->nsec * sizeof(*rs)) {
			for (unsigned k = 0; k < m; k++)
				st->streams[q + k * pe->ranks].error = -ETIMEDOUT;
			st->complete = 0;
			if (!r)
				x->res->rank_lost = 1;
			if (worse(rc, -ETIMEDOUT) != rc)
				snprintf(err, elen, "rank %u %s", q, r ? "sent figures this build cannot read "
					 "(every host must run the same stormark)" :
					 "sent no figures of its step within --mpi-wait");
			rc = worse(rc, r ? -EPROTO : -ETIMEDOUT);
			continue;
		}
		fig = (const struct sm_stream_fig *)(r + 1);
		rs = (const uint64_t *)(fig + m);
		ran &= r->ran;
		if (r->rc && worse(rc, r->rc) != rc) {
			rc = r->rc;
			if (r->rc != -EINTR)
				snprintf(err, elen, "rank %u: %s", q, r->err);
		}
		st->complete &= r->complete;
		st->bytes += r->bytes;
		st->cpu_ns += r->cpu_ns;   /* every rank's: the job's CPU for its streams */
		if (r->duration_ns > st->duration_ns)
			st->duration_ns = r->duration_ns;
		if (r->schedule_ns > st->schedule_ns)
			st->schedule_ns = r->schedule_ns;
		for (unsigned k = 0; k < m; k++)
			st->streams[q + k * pe->ranks] = fig[k];
		for (unsigned i = 0; sec && i < ng * o->nsec; i++)
			sec[i] += rs[i];
	}
	if (!ran) {   /* the step did not start (no room, stopped, a failure) */
		free(st->streams);
		st->streams = NULL;
	}
	return rc;
}

int sm_streams_mpi_step(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
			uint64_t *sec, unsigned nsec, struct sm_streams_step *st, char *notice,
			SM_UNUSED size_t nlen, char *err, size_t elen)
{
	const struct sm_streams_peers *pe = x->plan->peers;
	struct order o = { .magic = MAGIC, .kind = ORDER_STEP, .ngroups = ng, .nsec = sec ? nsec : 0 };
	char **out = NULL;
	size_t *len = NULL;
	int rc;

	memset(st, 0, sizeof(*st));
	notice[0] = err[0] = '\0';
	x->res->ranks = pe->ranks;
	if (ng > SM_STREAMS_STEP_GROUPS) {
		snprintf(err, elen, "a step of %u groups", ng);
		return -EINVAL;
	}
	for (unsigned k = 0; k < ng; k++) {
		const struct sm_streams_group_plan *g = &og[k].g;

		o.g[k] = (struct order_group){
			.dir = (uint32_t)g->dir, .sequence = (uint32_t)g->sequence, .n = g->n,
			.chunk_bytes = g->chunk_bytes, .frames = g->frames, .fps = g->fps,
			.frame_bytes = g->frame_bytes,
		};
		memcpy(o.g[k].format, og[k].format, sizeof(o.g[k].format));
	}
	rc = pe->bcast(pe->arg, &o, sizeof(o), sm_now_ns() + pe->wait_ns);
	if (!rc)
		rc = serve_order(x, &o, 0, &out, &len, err, elen);
	if (rc) {
		x->res->rank_lost = 1;
		if (!err[0])
			snprintf(err, elen, "cannot order a step of %u streams: %s", order_streams(&o),
				 rc == -ETIMEDOUT ? "a rank did not take it within --mpi-wait" : strerror(-rc));
		return rc == -EINTR ? -EIO : rc;
	}
	rc = merge(x, &o, out, len, st, sec, err, elen);
	for (unsigned q = 0; q < pe->ranks; q++)
		free(out[q]);
	free(out);
	free(len);
	return rc;
}

void sm_streams_mpi_end(struct sm_streams_search *x)
{
	const struct sm_streams_peers *pe = x->plan->peers;
	struct order o = { .magic = MAGIC, .kind = ORDER_END };

	x->res->ranks = pe->ranks;
	if (pe->bcast(pe->arg, &o, sizeof(o), sm_now_ns() + pe->wait_ns))
		x->res->rank_lost = 1;
}

int sm_streams_serve(const struct sm_streams_plan *plan, struct sm_streams_result *res)
{
	struct sm_streams_search x = { .plan = plan, .res = res };
	const struct sm_streams_peers *pe = plan->peers;
	uint64_t t0 = sm_now_ns(), last = 0;
	int rc, setup_rc;

	res->plan = *plan;
	res->ranks = pe->ranks;
	/* a rank that cannot make its directory still takes every order
	 * (voting a failure), so that rank 0 hears why and ends the search */
	setup_rc = sm_streams_setup_dir(&x);
	for (;;) {
		struct order o;
		char why[300] = "";
		int got;

		rc = pe->bcast(pe->arg, &o, sizeof(o), sm_now_ns() + pe->wait_ns + 2 * last + plan->step_ns);
		got = !rc;
		if (rc) {
			snprintf(why, sizeof(why), "no order from rank 0 within --mpi-wait: %s",
				 rc == -ETIMEDOUT ? "it died or hung" : strerror(-rc));
		} else if (o.magic != MAGIC) {
			rc = -EPROTO;
			snprintf(why, sizeof(why), "rank 0 runs another stormark build");
		} else if (o.kind == ORDER_END) {
			break;
		} else {
			rc = serve_order(&x, &o, setup_rc, NULL, NULL, why, sizeof(why));
			last = sched_ns(&o);
		}
		if (rc) {
			/* rank 0 gone: nobody will end the job but this rank;
			 * another rank gone: rank 0 reports it and ends the job */
			res->rank_lost |= !got;
			if (!res->error)
				res->error = rc;
			snprintf(res->head.error, sizeof(res->head.error), "%s", why);
			break;
		}
	}
	res->head.duration_ns = sm_now_ns() - t0;
	sm_streams_teardown(&x);
	if (!rc && sm_stopped())
		rc = -EINTR;
	return rc ? rc : setup_rc;
}
