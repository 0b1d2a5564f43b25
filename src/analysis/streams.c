/* SPDX-License-Identifier: MIT */
/* Streams: whether a step held, the headroom rule, and the search order. */
#include "analysis/streams.h"
#include "analysis/verdict.h"
#include "core/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sm_stream_holds(const struct sm_stream_fig *s, uint64_t interval_ns, unsigned queue)
{
	if (s->error || s->dropped || !s->scheduled || s->done < s->scheduled)
		return 0;
	return s->p999_sched_ns <= (uint64_t)queue * interval_ns;
}

void sm_streams_step_judge(struct sm_streams_step *st, uint64_t interval_ns, unsigned queue)
{
	int held = st->complete && st->n > 0;

	st->dropped = 0;
	st->worst_p999_ns = 0;
	for (unsigned i = 0; i < st->n; i++) {
		const struct sm_stream_fig *s = &st->streams[i];

		st->dropped += s->dropped;
		if (s->p999_sched_ns > st->worst_p999_ns)
			st->worst_p999_ns = s->p999_sched_ns;
		if (!sm_stream_holds(s, interval_ns, queue))
			held = 0;
	}
	st->held = held;
	st->bytes_per_s = st->schedule_ns ? (double)st->bytes * 1e9 / (double)st->schedule_ns : 0;
	st->delivered_bytes_per_s =
		st->duration_ns ? (double)st->bytes * 1e9 / (double)st->duration_ns : 0;
}

/* Add stream s, judged at interval_ns, to a group's figures. */
static void add_fig(struct sm_streams_group_fig *f, const struct sm_stream_fig *s, uint64_t interval_ns,
		    unsigned queue)
{
	int held = sm_stream_holds(s, interval_ns, queue);

	f->held &= held;
	f->streams_held += (unsigned)held;
	f->scheduled += s->scheduled;
	f->done += s->done;
	f->dropped += s->dropped;
	f->bytes += s->bytes;
	if (s->p999_sched_ns > f->worst_p999_ns)
		f->worst_p999_ns = s->p999_sched_ns;
	if (s->max_sched_ns > f->max_sched_ns)
		f->max_sched_ns = s->max_sched_ns;
}

int sm_streams_mix_judge(struct sm_streams_step *st, const struct sm_streams_group *g, unsigned ngroups,
			 unsigned queue, int dir)
{
	struct sm_streams_group_fig *t = &st->mix_total;
	unsigned i = 0;
	uint64_t span = 0, same = 0;

	free(st->mix_groups);
	st->mix_groups = calloc(ngroups ? ngroups : 1, sizeof(*st->mix_groups));
	if (!st->mix_groups)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	t->held = st->complete;
	for (unsigned k = 0; k < ngroups; k++) {
		struct sm_streams_group_fig *f = &st->mix_groups[k];
		/* every stream of a group ran its frames of the step */
		uint64_t frames = 0, gspan;

		f->held = st->complete;
		for (unsigned j = 0; j < g[k].count && i < st->nmix; j++, i++) {
			add_fig(f, &st->mix_streams[i], g[k].interval_ns, queue);
			add_fig(t, &st->mix_streams[i], g[k].interval_ns, queue);
			if (st->mix_streams[i].scheduled > frames)
				frames = st->mix_streams[i].scheduled;
		}
		f->held &= f->streams_held == g[k].count;
		gspan = frames * g[k].interval_ns;
		f->bytes_per_s = gspan ? (double)f->bytes * 1e9 / (double)gspan : 0;
		if (gspan > span)
			span = gspan;
		if (dir >= 0 && (int)g[k].dir == dir)
			same += f->bytes;
	}
	t->held &= i == st->nmix;
	t->bytes_per_s = span ? (double)t->bytes * 1e9 / (double)span : 0;
	if (st->n == 0) {   /* the mix alone: it is the step */
		st->held = t->held;
		st->bytes = t->bytes;
		st->dropped = t->dropped;
		st->worst_p999_ns = t->worst_p999_ns;
	} else {
		st->held &= t->held;
		st->bytes += dir >= 0 ? same : t->bytes;
	}
	st->bytes_per_s = st->schedule_ns ? (double)st->bytes * 1e9 / (double)st->schedule_ns : 0;
	st->delivered_bytes_per_s =
		st->duration_ns ? (double)st->bytes * 1e9 / (double)st->duration_ns : 0;
	return 0;
}

unsigned sm_streams_headroom_beside(unsigned raw, double sustained, double rate, double base)
{
	unsigned n = raw;

	if (!(base > 0))
		base = 0;
	if (!(rate > 0))
		return raw;
	if (!(sustained > 0))
		sustained = base + (double)raw * rate;
	while (n > 0 && sm_verdict_compute(sustained, base + (double)n * rate) != SM_VERDICT_REALTIME)
		n--;
	return n;
}

unsigned sm_streams_headroom(unsigned raw, double sustained, double rate)
{
	unsigned n = raw;

	if (!(sustained > 0) || !(rate > 0)) {
		sustained = raw;
		rate = 1;
	}
	while (n > 0 && sm_verdict_compute(sustained, (double)n * rate) != SM_VERDICT_REALTIME)
		n--;
	return n;
}

unsigned sm_streams_next(unsigned lo, unsigned hi, unsigned cap, int any_step, unsigned guess)
{
	unsigned g = guess < 1 ? 1 : guess > cap ? cap : guess;

	if (!cap)
		return 0;
	if (!any_step)
		return g;
	if (hi == 0) {          /* nothing failed yet: g + 1, then double */
		if (lo >= cap)
			return 0;
		if (lo == g)
			return lo + 1;
		return lo * 2 < cap ? lo * 2 : cap;
	}
	if (hi <= lo + 1)
		return 0;
	if (lo == 0 && hi == g)
		return g - 1;
	return lo + (hi - lo) / 2;
}

unsigned sm_streams_guess(double sustained, double rate, unsigned cap)
{
	double g;

	if (!(sustained > 0) || !(rate > 0) || cap < 1)
		return 1;
	g = sustained / rate;
	if (g < 1)
		return 1;
	return g >= cap ? cap : (unsigned)g;
}

void sm_streams_update(unsigned n, int held, unsigned *lo, unsigned *hi)
{
	if (held) {
		if (n > *lo)
			*lo = n;
	} else if (*hi == 0 || n < *hi) {
		*hi = n;
	}
}

void sm_streams_trials(const unsigned *n, const int *held, unsigned k,
		       struct sm_streams_trials *out)
{
	unsigned prev = 0;

	memset(out, 0, sizeof(*out));
	/* walk the distinct n upward (a search has a few dozen steps) */
	for (;;) {
		unsigned cur = 0, t = 0, h = 0;

		for (unsigned i = 0; i < k; i++)
			if (n[i] > prev && (!cur || n[i] < cur))
				cur = n[i];
		if (!cur)
			break;
		for (unsigned i = 0; i < k; i++)
			if (n[i] == cur) {
				t++;
				h += held[i] != 0;
			}
		if (h)
			out->high = cur;
		if (!out->first_fail) {
			if (h == t) {
				out->lo = cur;
				out->lo_held = h;
				out->lo_trials = t;
			} else {
				out->first_fail = cur;
				out->fail_held = h;
				out->fail_trials = t;
			}
		}
		prev = cur;
	}
	if (out->high < out->lo)
		out->high = out->lo;
}

unsigned sm_streams_next_trial(const struct sm_streams_trials *t, unsigned trials)
{
	if (t->first_fail && t->first_fail > t->lo + 1)
		return t->lo + (t->first_fail - t->lo) / 2;
	if (t->lo && t->lo_trials < trials)
		return t->lo;
	if (t->first_fail && t->fail_trials < trials)
		return t->first_fail;
	return 0;
}

void sm_streams_cell_finish(struct sm_streams_cell *c, unsigned cap)
{
	struct sm_streams_trials tr;
	unsigned *n = calloc(c->nsteps ? c->nsteps : 1, sizeof(*n)), k = 0, lo, hi;
	int *held = calloc(c->nsteps ? c->nsteps : 1, sizeof(*held));
	double fail_delivered = -1;

	c->agg_bytes_per_s = 0;
	c->measured = 0;
	/* a step cut short (a signal) answers nothing: neither held nor failed */
	for (unsigned i = 0; n && held && i < c->nsteps; i++)
		if (c->steps[i].complete) {
			n[k] = c->steps[i].n;
			held[k++] = c->steps[i].held;
		}
	sm_streams_trials(n, held, k, &tr);
	free(n);
	free(held);
	lo = tr.lo;
	hi = tr.first_fail;
	c->max_raw = lo;
	c->first_fail = hi;
	c->max_high = tr.high;
	c->raw_held = tr.lo_held;
	c->raw_trials = tr.lo_trials;
	c->fail_held = tr.fail_held;
	c->fail_trials = tr.fail_trials;
	c->at_cap = hi == 0 && lo >= cap && cap > 0;
	/* "0" only where a step of one stream ran and failed */
	c->measured = lo > 0 || hi == 1;
	c->sustained_bytes_per_s = 0;
	for (unsigned i = 0; i < c->nsteps; i++) {
		const struct sm_streams_step *s = &c->steps[i];

		if (!s->complete)
			continue;
		/* what every held trial at the answer moved */
		if (s->n == lo && s->held && (c->agg_bytes_per_s == 0 || s->bytes_per_s < c->agg_bytes_per_s))
			c->agg_bytes_per_s = s->bytes_per_s;
		/* only a failure right above the answer bounds the capacity: a
		 * failure further up (a search cut short) says little of it */
		if (s->n == hi && hi == lo + 1 && !s->held &&
		    (fail_delivered < 0 || s->delivered_bytes_per_s < fail_delivered))
			fail_delivered = s->delivered_bytes_per_s;
	}
	c->sustained_bytes_per_s = c->agg_bytes_per_s;
	if (fail_delivered > c->sustained_bytes_per_s)
		c->sustained_bytes_per_s = fail_delivered;
	/* the storage did not hold first_fail streams: whatever it delivered
	 * then (read-ahead bursts, a latency failure), its capacity is
	 * counted as no more than first_fail streams' rate */
	if (hi && c->sustained_bytes_per_s > c->base_rate + (double)hi * c->rate)
		c->sustained_bytes_per_s = c->base_rate + (double)hi * c->rate;
	/* bounded by a lower rate's answer: the answer and its headroom no
	 * more than it (the measures above stay those of its own trials) */
	c->own_raw = lo;
	if (c->bounded && lo > c->bound_n) {
		lo = c->max_raw = c->bound_n;
		c->at_cap = 0;
	}
	c->max_headroom = c->base_rate > 0 ?
		sm_streams_headroom_beside(lo, c->sustained_bytes_per_s, c->rate, c->base_rate) :
		sm_streams_headroom(lo, c->sustained_bytes_per_s, c->rate);
}

int sm_streams_lower_bound(const struct sm_streams_cell *cells, unsigned n, unsigned j)
{
	const struct sm_streams_cell *c = &cells[j];
	int best = -1;

	if (!c->measured)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const struct sm_streams_cell *l = &cells[i];

		if (i == j || !l->measured || !l->first_fail || l->fps >= c->fps || l->dir != c->dir ||
		    l->sequence != c->sequence || strcmp(l->format, c->format) ||
		    l->base_rate != c->base_rate || l->max_raw >= c->own_raw)
			continue;
		if (best < 0 || l->max_raw < cells[best].max_raw)
			best = (int)i;
	}
	return best;
}

void sm_streams_confirm_judge(struct sm_streams_cell *c, const struct sm_streams_step *st,
			      uint64_t len_ns, const struct sm_cliff *cl)
{
	double sus = c->sustained_bytes_per_s;
	unsigned raw = c->max_raw, h;
	char a[32], b[32];

	c->confirm = SM_CONFIRM_RAN;
	c->confirm_n = st->n;
	c->confirm_ns = len_ns;
	c->confirm_held = st->held;
	c->confirm_dropped = st->dropped;
	c->confirm_bytes_per_s = st->delivered_bytes_per_s;
	c->headroom_burst = c->max_headroom;
	c->cliff = *cl;
	c->lowered = 0;
	c->confirm_note[0] = '\0';
	if (cl->found && (!(sus > 0) || cl->sustained_bytes_per_s < sus))
		sus = cl->sustained_bytes_per_s;
	if (!st->held) {
		if (st->delivered_bytes_per_s > 0 && (!(sus > 0) || st->delivered_bytes_per_s < sus))
			sus = st->delivered_bytes_per_s;
		if (st->n > 0 && raw > st->n - 1)
			raw = st->n - 1;
	}
	/* sus 0 here would make the rule count streams alone: a step that
	 * moved nothing sustains nothing */
	h = !(sus > 0) ? 0 : c->base_rate > 0 ? sm_streams_headroom_beside(raw, sus, c->rate, c->base_rate) :
	    sm_streams_headroom(raw, sus, c->rate);
	if (h >= c->max_headroom)
		return;
	c->max_headroom = h;
	c->lowered = 1;
	sm_fmt_bytes(b, sizeof(b), sus);
	if (cl->found) {
		sm_fmt_bytes(a, sizeof(a), cl->burst_bytes_per_s);
		snprintf(c->confirm_note, sizeof(c->confirm_note),
			 "%u with headroom, not %u: the write rate of %u stream(s) fell at %.1f s "
			 "of %.0f s from %s/s to %s/s (a cliff)%s", h, c->headroom_burst, st->n,
			 (double)cl->at_ns / 1e9, (double)len_ns / 1e9, a, b,
			 st->held ? "" : " and frames were dropped");
	} else {
		snprintf(c->confirm_note, sizeof(c->confirm_note),
			 "%u with headroom, not %u: %u stream(s) for %.0f s dropped %llu frames "
			 "(delivered %s/s)", h, c->headroom_burst, st->n, (double)len_ns / 1e9,
			 (unsigned long long)st->dropped, b);
	}
}

int sm_streams_step_cpu(const struct sm_streams_step *st, unsigned n, double *core,
			double *us_per_stream_s)
{
	double secs = (double)st->duration_ns / 1e9;

	*core = *us_per_stream_s = 0;
	if (!st->cpu_ns || !st->duration_ns || !n)
		return 0;
	*core = (double)st->cpu_ns / (double)st->duration_ns;
	*us_per_stream_s = (double)st->cpu_ns / 1e3 / n / secs;
	return 1;
}
