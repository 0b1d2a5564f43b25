/* SPDX-License-Identifier: MIT */
/* The invariants of a `streams` result (docs/streams.md): a step's
 * figures are its streams' sums over its own spans, whether it held
 * follows the rule, a cell's answers follow from its steps, a stream
 * moves the rate it is said to need, and a fault or a search that never
 * ran is not an answer of 0. */
#include "check/body.h"
#include "analysis/streams.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One step: per-stream sums, its rates, whether it held, and a fault not
 * judged. moved: the rate one stream's schedule moves. Returns the step's
 * held (0 or 1) when it is complete, -1 when it answers nothing (cut
 * short, or it lacks the figures). */
static int ck_step(const cJSON *st, const char *name, double interval, double queue,
		   double moved, struct sm_check *c)
{
	const cJSON *ps = ck_at(st, "per_stream"), *s;
	double n, bytes = 0, dropped = 0, worst = 0, v, d, sch;
	int held, complete, rule, err = 0;
	char an[160];

	if (!ck_num(st, "streams", &n) || !cJSON_IsArray(ps))
		return -1;
	rule = ck_bool(st, "complete", &complete) && complete && n > 0;
	cJSON_ArrayForEach(s, ps) {
		double b = 0, dr = 0, p = 0, sc = 0, dn = 0, e = 0;

		ck_num(s, "bytes", &b);
		ck_num(s, "dropped", &dr);
		ck_num(s, "p99_9_sched_ns", &p);
		ck_num(s, "scheduled", &sc);
		ck_num(s, "done", &dn);
		ck_num(s, "error", &e);
		bytes += b;
		dropped += dr;
		worst = fmax(worst, p);
		err |= e != 0;
		/* sm_stream_holds(): no error, no drop, all done, p99.9 within
		 * the buffers */
		if (e != 0 || dr != 0 || !(sc > 0) || dn < sc || p > queue * interval)
			rule = 0;
	}
	snprintf(an, sizeof(an), "%s per_stream's length", name);
	ck_eq(c, "streams.step-sum", an, cJSON_GetArraySize(ps), "its streams", n);
	snprintf(an, sizeof(an), "%s bytes", name);
	if (ck_num(st, "bytes", &v))
		ck_eq(c, "streams.step-sum", an, v, "its streams' bytes", bytes);
	snprintf(an, sizeof(an), "%s dropped", name);
	if (ck_num(st, "dropped", &v))
		ck_eq(c, "streams.step-sum", an, v, "its streams' dropped", dropped);
	snprintf(an, sizeof(an), "%s worst_p99_9_sched_ns", name);
	if (ck_num(st, "worst_p99_9_sched_ns", &v))
		ck_eq(c, "streams.step-sum", an, v, "its streams' largest p99_9_sched_ns", worst);
	if (ck_num(st, "bytes", &v)) {
		snprintf(an, sizeof(an), "%s bytes_per_s", name);
		if (ck_num(st, "schedule_ns", &sch) && ck_num(st, "bytes_per_s", &d))
			ck_rate(c, "streams.rate", an, d, "its bytes", v, "its schedule_ns", sch);
		snprintf(an, sizeof(an), "%s delivered_bytes_per_s", name);
		if (ck_num(st, "duration_ns", &sch) && ck_num(st, "delivered_bytes_per_s", &d))
			ck_rate(c, "streams.rate", an, d, "its bytes", v, "its duration_ns", sch);
	}
	if (ck_bool(st, "held", &held)) {
		snprintf(an, sizeof(an), "%s held", name);
		ck_eq(c, "streams.held", an, held, "the rule (complete, every stream done without "
		      "a drop or an error, p99.9 within queue x interval)", rule);
	}
	/* a failed read or write stops the step: it is not judged */
	if (err && ck_bool(st, "complete", &complete)) {
		c->evaluated++;
		if (complete)
			sm_check_fail(c, "streams.not-measured", "%s: a transfer failed (per_stream "
				      "error), yet the step is complete and judged", name);
	}
	/* a step that kept the schedule moves N streams at the rate the
	 * schedule moves (docs/streams.md, "A stream") */
	if (!err && dropped == 0 && rule && ck_num(st, "bytes_per_s", &d) && moved > 0 && n > 0) {
		snprintf(an, sizeof(an), "%s bytes_per_s / streams", name);
		ck_near(c, "streams.moved-rate", an, d / n, "the rate its schedule moves (within 1%)",
			moved, 0.01);
	}
	if (!ck_bool(st, "complete", &complete) || !complete)
		return -1;
	return ck_bool(st, "held", &held) ? held : -1;
}

/* What a cell's steps say, as the rule reads them. */
struct search {
	double lo;         /* the answer by the trials (sm_streams_trials) */
	double hi;         /* its first failure, 0 when none failed */
	struct sm_streams_trials tr;
	int judged;        /* a complete step answered */
	int failed_one;    /* a complete step of one stream failed */
	int faulted;       /* a transfer failed (a stream's error) */
};

/* The rate one stream's schedule moves: moved_bytes_per_s, or in a result
 * saved before the byte schedule chunk_bytes x fps (each frame rounded up
 * to 4 KiB); 0 when neither is there. */
static double moved_rate(const cJSON *cell)
{
	double m, chunk, interval;

	if (ck_num(cell, "moved_bytes_per_s", &m))
		return m;
	if (ck_num(cell, "chunk_bytes", &chunk) && ck_num(cell, "interval_ns", &interval) && interval > 0)
		return chunk * 1e9 / interval;
	return 0;
}

/* Check each step of cell (ck_step) and gather the search into *out. */
static void steps_of(const cJSON *cell, const char *name, double queue, struct search *out,
		     struct sm_check *c)
{
	const cJSON *st, *s;
	double interval = 0, rate = 0;
	int k = 0;

	unsigned ns[512], nk = 0;
	int hs[512];

	memset(out, 0, sizeof(*out));
	ck_num(cell, "interval_ns", &interval);
	rate = moved_rate(cell);
	cJSON_ArrayForEach(st, ck_at(cell, "steps")) {
		double n = 0, e;
		int held;
		char sn[200];

		snprintf(sn, sizeof(sn), "%s.steps[%d]", name, k++);
		held = ck_step(st, sn, interval, queue, rate, c);
		ck_num(st, "streams", &n);
		cJSON_ArrayForEach(s, ck_at(st, "per_stream"))
			if (ck_num(s, "error", &e) && e != 0)
				out->faulted = 1;
		if (held < 0)
			continue;
		out->judged = 1;
		if (nk < 512 && n >= 0 && n < 1e6) {
			ns[nk] = (unsigned)n;
			hs[nk++] = held;
		}
		if (!held && n == 1)
			out->failed_one = 1;
	}
	/* the answer and its first failure by the trials, as the search
	 * decided them (analysis/streams.c) */
	sm_streams_trials(ns, hs, nk, &out->tr);
	out->lo = out->tr.lo;
	out->hi = out->tr.first_fail;
}

/* The cell's answers follow from its steps (sm_streams_cell_finish()). */
static void answers(const cJSON *cell, const char *name, const struct search *r, double cap,
		    struct sm_check *c)
{
	const cJSON *st;
	double rate = 0, v, hr, ms, ff, sus, agg = 0, want = r->lo, bound = 0;
	int at_cap, bounded = 0;
	char an[200];

	ck_num(cell, "rate_bytes_per_s", &rate);
	/* bounded by a lower rate's answer (docs/streams.md, "Consistent
	 * answers"): the answer is that, its own trials' answer kept beside */
	if (ck_bool(cell, "consistency.bounded", &bounded) && bounded &&
	    ck_num(cell, "consistency.bound_streams", &bound) && bound < want)
		want = bound;
	snprintf(an, sizeof(an), "%s consistency.own_max_streams", name);
	if (ck_num(cell, "consistency.own_max_streams", &v))
		ck_eq(c, "streams.consistent", an, v, "the most streams of its own held trials", r->lo);
	snprintf(an, sizeof(an), "%s max_streams", name);
	if (ck_num(cell, "max_streams", &ms))
		ck_eq(c, "streams.answer", an, ms, bounded ? "the lower rate's answer that bounds it"
			  : "the most streams of a held step", want);
	snprintf(an, sizeof(an), "%s first_failed", name);
	if (ck_num(cell, "first_failed", &ff))
		ck_eq(c, "streams.answer", an, ff, "the fewest streams of a failed step", r->hi);
	snprintf(an, sizeof(an), "%s at_cap", name);
	if (ck_bool(cell, "at_cap", &at_cap))
		ck_eq(c, "streams.answer", an, at_cap, "held at --max-streams with no failure",
		      r->hi == 0 && want >= cap && cap > 0);
	if (ck_num(cell, "max_streams_headroom", &hr) && ck_num(cell, "max_streams", &ms)) {
		snprintf(an, sizeof(an), "%s max_streams_headroom", name);
		ck_le(c, "streams.answer", an, hr, "max_streams", ms);
		/* the headroom rule on the sustained rate, before a sustained
		 * confirmation lowered it */
		if (ck_num(cell, "sustained_bytes_per_s", &sus) && ms >= 0 && ms < 1e6) {
			double before = hr;

			ck_num(cell, "confirmation.headroom_before", &before);
			snprintf(an, sizeof(an), "%s max_streams_headroom%s", name,
				 ck_at(cell, "confirmation") ? " (before the confirmation)" : "");
			ck_eq(c, "streams.answer", an, before, "the most n with sustained >= 1.2 x n x rate",
			      sm_streams_headroom((unsigned)ms, sus, rate));
		}
	}
	/* the trials at the answer and at its first failure, and the range */
	if (ck_at(cell, "trials")) {
		snprintf(an, sizeof(an), "%s max_streams_high", name);
		if (ck_num(cell, "max_streams_high", &v))
			ck_eq(c, "streams.trials", an, v, "the most streams held in any trial", r->tr.high);
		snprintf(an, sizeof(an), "%s trials.at_answer", name);
		if (ck_num(cell, "trials.at_answer", &v))
			ck_eq(c, "streams.trials", an, v, "the complete steps at max_streams",
			      r->tr.lo_trials);
		snprintf(an, sizeof(an), "%s trials.held_at_answer", name);
		if (ck_num(cell, "trials.held_at_answer", &v))
			ck_eq(c, "streams.trials", an, v, "those that held (all of them)", r->tr.lo_held);
		snprintf(an, sizeof(an), "%s trials.at_failed", name);
		if (ck_num(cell, "trials.at_failed", &v))
			ck_eq(c, "streams.trials", an, v, "the complete steps at first_failed",
			      r->tr.fail_trials);
		snprintf(an, sizeof(an), "%s trials.held_at_failed", name);
		if (ck_num(cell, "trials.held_at_failed", &v))
			ck_eq(c, "streams.trials", an, v, "those that held", r->tr.fail_held);
	}
	/* the aggregate is the least rate of the held trials at the answer,
	 * the sustained rate at least that (unless capped at first_failed x
	 * rate) */
	cJSON_ArrayForEach(st, ck_at(cell, "steps")) {
		double n = 0, x = 0;
		int held = 0, complete = 0;

		if (ck_num(st, "streams", &n) && n == r->lo && ck_bool(st, "held", &held) && held &&
		    ck_bool(st, "complete", &complete) && complete && ck_num(st, "bytes_per_s", &x) &&
		    (agg == 0 || x < agg))
			agg = x;
	}
	snprintf(an, sizeof(an), "%s aggregate_bytes_per_s", name);
	if (ck_num(cell, "aggregate_bytes_per_s", &v)) {
		ck_eq(c, "streams.answer", an, v, "the bytes_per_s of its held step at max_streams", agg);
		if (ck_num(cell, "sustained_bytes_per_s", &sus) && (r->hi == 0 || v <= r->hi * rate))
			ck_le(c, "streams.answer", an, v, "sustained_bytes_per_s", sus);
	}
}

/* A fault is not an answer and no step is not "0 held": a cell no complete
 * step answered is not measured (null answers, not_measured says why), and
 * 0 streams is an answer only when a complete step of one stream failed. */
static void measured(const cJSON *cell, const char *name, const struct search *r,
		     struct sm_check *c)
{
	static const char *const nulls[] = { "max_streams_headroom", "aggregate_bytes_per_s",
					     "sustained_bytes_per_s" };
	const char *why = ck_str(cell, "not_measured");
	const cJSON *ms = ck_at(cell, "max_streams");

	if (!ms)
		return;
	c->evaluated++;
	if (cJSON_IsNull(ms)) {
		/* steps that held none, of more than one stream, answer nothing */
		if (r->judged && (r->lo > 0 || r->failed_one))
			sm_check_fail(c, "streams.not-measured", "%s: max_streams is null (not measured), "
				      "yet a complete step answered", name);
		if (!why || !why[0])
			sm_check_fail(c, "streams.not-measured", "%s: not measured, without not_measured "
				      "saying why", name);
		for (unsigned i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
			if (ck_at(cell, nulls[i]) && !cJSON_IsNull(ck_at(cell, nulls[i])))
				sm_check_fail(c, "streams.not-measured", "%s: not measured, yet %s is a "
					      "figure", name, nulls[i]);
		return;
	}
	if (!cJSON_IsNumber(ms))
		return;
	if (!r->judged)
		sm_check_fail(c, "streams.not-measured", "%s: max_streams is %g without a complete step "
			      "(%s), not null (not measured)", name, ms->valuedouble,
			      r->faulted ? "a transfer failed" : "no step answered");
	else if (ms->valuedouble == 0 && !r->failed_one)
		sm_check_fail(c, "streams.not-measured", "%s: max_streams is 0 without a failed step of "
			      "one stream", name);
}

static void ck_cell(const cJSON *cell, int idx, double queue, double cap, struct sm_check *c)
{
	const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
		   *dir = ck_str(cell, "direction");
	double rate = 0, fb, fpsv, moved, interval;
	struct search r;
	char name[160], an[200];

	snprintf(name, sizeof(name), "streams[%d] (%s %s at %s fps)", idx, fmt ? fmt : "?",
		 dir ? dir : "?", fps ? fps : "?");
	ck_num(cell, "rate_bytes_per_s", &rate);
	if (ck_num(cell, "frame_bytes", &fb) && fps && sscanf(fps, "%lf", &fpsv) == 1) {
		snprintf(an, sizeof(an), "%s rate_bytes_per_s", name);
		/* fps names such as 23.976 stand for 24000/1001: within 0.1% */
		ck_near(c, "streams.rate", an, rate, "frame_bytes x fps", fb * fpsv, 1e-3);
	}
	/* the schedule moves the published rate, one 4 KiB block a frame for a
	 * frame under 4 KiB; a result saved before the byte schedule moved
	 * chunk_bytes a frame (docs/json-schema.md, moved_bytes_per_s) */
	if (ck_num(cell, "moved_bytes_per_s", &moved) && ck_num(cell, "frame_bytes", &fb) &&
	    ck_num(cell, "interval_ns", &interval) && interval > 0) {
		double pub = fb < 4096 ? 4096 * 1e9 / interval : rate, chunk = 0;

		ck_num(cell, "chunk_bytes", &chunk);
		snprintf(an, sizeof(an), "%s moved_bytes_per_s", name);
		c->evaluated++;
		if (fabs(moved - pub) > 1e-6 * pub && fabs(moved - chunk * 1e9 / interval) > 1e-6 * moved)
			sm_check_fail(c, "streams.moved-rate", "%s is %.17g, neither the published %s "
				      "(%.17g) nor chunk_bytes x fps of a result saved before the byte "
				      "schedule (%.17g)", an, moved, fb < 4096 ? "4 KiB x fps" :
				      "rate_bytes_per_s", pub, chunk * 1e9 / interval);
	}
	steps_of(cell, name, queue, &r, c);
	answers(cell, name, &r, cap, c);
	measured(cell, name, &r, c);
}

/* The cell's rate in frames per second, from its "fps" name; 0 if none. */
static double fps_of(const cJSON *cell)
{
	const char *s = ck_str(cell, "fps");
	double v = 0;

	return s && sscanf(s, "%lf", &v) == 1 ? v : 0;
}

static int same_kind(const cJSON *a, const cJSON *b)
{
	static const char *const keys[] = { "format", "direction", "kind" };

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *x = ck_str(a, keys[i]), *y = ck_str(b, keys[i]);

		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y)))
			return 0;
	}
	return 1;
}

/* Answers that hold across rates: of two cells of one format, kind and
 * direction, the higher rate holds no more streams than the lower one
 * where the lower one's search found a failure; a bound names a lower
 * rate's cell with that answer (results with trials: the search settles
 * contradictions since then). */
static void ck_consistent(const cJSON *cells, struct sm_check *c)
{
	const cJSON *a, *b;
	int ia = 0;

	cJSON_ArrayForEach(a, cells) {
		double ma, bound;
		int ib = 0, bounded = 0, found = 0;
		const char *bf = ck_str(a, "consistency.bound_fps");

		ia++;
		if (!ck_at(a, "trials") || !ck_num(a, "max_streams", &ma))
			continue;
		ck_bool(a, "consistency.bounded", &bounded);
		cJSON_ArrayForEach(b, cells) {
			double mb, fb;

			ib++;
			if (a == b || !same_kind(a, b) || !ck_at(b, "trials") || !ck_num(b, "max_streams", &mb))
				continue;
			if (bounded && bf && !strcmp(bf, ck_str(b, "fps") ? ck_str(b, "fps") : "") &&
			    ck_num(a, "consistency.bound_streams", &bound) && bound == mb)
				found = 1;
			if (fps_of(b) >= fps_of(a) || !ck_num(b, "first_failed", &fb) || fb == 0)
				continue;
			c->evaluated++;
			if (ma > mb)
				sm_check_fail(c, "streams.consistent", "streams[%d] (%s %s at %s fps) holds %g "
					      "streams, more than the %g of streams[%d] at the lower rate of %s "
					      "fps, which failed above them", ia - 1, ck_str(a, "format"),
					      ck_str(a, "direction"), ck_str(a, "fps"), ma, mb, ib - 1,
					      ck_str(b, "fps"));
		}
		if (bounded) {
			c->evaluated++;
			if (!found)
				sm_check_fail(c, "streams.consistent", "streams[%d] (%s %s at %s fps) is bounded "
					      "by %s fps, but no cell at that rate has its bound_streams", ia - 1,
					      ck_str(a, "format"), ck_str(a, "direction"), ck_str(a, "fps"),
					      bf ? bf : "?");
		}
	}
}

void ck_streams(const cJSON *doc, struct sm_check *c)
{
	const cJSON *cells = ck_at(doc, "streams"), *cell;
	double queue = 0, cap = 0;
	int i = 0;

	/* beside a fixed mix (--mix) a step's bytes hold the mix's streams too
	 * and the headroom rule counts the mix's rate (docs/streams.md): the
	 * cells of such a search are not judged by these rules yet */
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "mix")))
		return;
	ck_num(doc, "params.queue", &queue);
	ck_num(doc, "params.max_streams", &cap);
	cJSON_ArrayForEach(cell, cells)
		ck_cell(cell, i++, queue, cap, c);
	ck_consistent(cells, c);
}
