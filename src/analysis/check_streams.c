/* SPDX-License-Identifier: MIT */
/* The invariants of a `streams` result (docs/streams.md): a step's
 * figures are its streams' sums over its own spans, whether it held
 * follows the rule, a cell's answers follow from its steps, a stream
 * moves the rate it is said to need, and a fault or a search that never
 * ran is not an answer of 0. */
#include "analysis/check_int.h"
#include "analysis/streams.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One step: per-stream sums, its rates, whether it held. Returns held as
 * the rule judges it (0 or 1), or -1 when the step cannot be judged. */
static int ck_step(const cJSON *st, const char *name, double interval, double queue,
		   double rate, struct sm_check *c)
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
	/* a step that kept the schedule moves N streams' published rate */
	if (!err && dropped == 0 && rule && ck_num(st, "bytes_per_s", &d) && rate > 0 && n > 0) {
		snprintf(an, sizeof(an), "%s bytes_per_s / streams", name);
		ck_near(c, "streams.moved-rate", an, d / n, "rate_bytes_per_s (within 1%)", rate, 0.01);
	}
	return ck_bool(st, "held", &held) ? held : -1;
}

/* What a cell's steps say, as the rule reads them. */
struct search {
	double lo;         /* most streams of a held step, 0 when none held */
	double hi;         /* fewest streams of a failed step, 0 when none failed */
	int judged;        /* a step could be judged */
	int failed_one;    /* a step of one stream failed */
	int faulted;       /* a transfer failed (a stream's error) */
};

/* Check each step of cell (ck_step) and gather the search into *out. */
static void steps_of(const cJSON *cell, const char *name, double queue, struct search *out,
		     struct sm_check *c)
{
	const cJSON *st, *s;
	double interval = 0, rate = 0;
	int k = 0;

	memset(out, 0, sizeof(*out));
	ck_num(cell, "interval_ns", &interval);
	ck_num(cell, "rate_bytes_per_s", &rate);
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
		if (held && n > out->lo)
			out->lo = n;
		if (!held && (out->hi == 0 || n < out->hi))
			out->hi = n;
		if (!held && n == 1)
			out->failed_one = 1;
	}
}

/* The cell's answers follow from its steps (sm_streams_cell_finish()). */
static void answers(const cJSON *cell, const char *name, const struct search *r, double cap,
		    struct sm_check *c)
{
	const cJSON *st;
	double rate = 0, v, hr, ms, ff, sus, agg = 0;
	int at_cap;
	char an[200];

	ck_num(cell, "rate_bytes_per_s", &rate);
	snprintf(an, sizeof(an), "%s max_streams", name);
	if (ck_num(cell, "max_streams", &ms))
		ck_eq(c, "streams.answer", an, ms, "the most streams of a held step", r->lo);
	snprintf(an, sizeof(an), "%s first_failed", name);
	if (ck_num(cell, "first_failed", &ff))
		ck_eq(c, "streams.answer", an, ff, "the fewest streams of a failed step", r->hi);
	snprintf(an, sizeof(an), "%s at_cap", name);
	if (ck_bool(cell, "at_cap", &at_cap))
		ck_eq(c, "streams.answer", an, at_cap, "held at --max-streams with no failure",
		      r->hi == 0 && r->lo >= cap && cap > 0);
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
	/* the aggregate is the held answer's step's rate, the sustained rate
	 * at least that (unless capped at first_failed x rate) */
	cJSON_ArrayForEach(st, ck_at(cell, "steps")) {
		double n = 0, x = 0;
		int held = 0;

		if (ck_num(st, "streams", &n) && n == r->lo && ck_bool(st, "held", &held) && held &&
		    ck_num(st, "bytes_per_s", &x))
			agg = x;
	}
	snprintf(an, sizeof(an), "%s aggregate_bytes_per_s", name);
	if (ck_num(cell, "aggregate_bytes_per_s", &v)) {
		ck_eq(c, "streams.answer", an, v, "the bytes_per_s of its held step at max_streams", agg);
		if (ck_num(cell, "sustained_bytes_per_s", &sus) && (r->hi == 0 || v <= r->hi * rate))
			ck_le(c, "streams.answer", an, v, "sustained_bytes_per_s", sus);
	}
}

/* A fault is not an answer, and no step is not "0 held": 0 streams is an
 * answer only when a step of one stream ran and failed without an error. */
static void measured(const cJSON *cell, const char *name, const struct search *r,
		     struct sm_check *c)
{
	double ms;

	if (!ck_num(cell, "max_streams", &ms))
		return;
	c->evaluated++;
	if (r->faulted)
		sm_check_fail(c, "streams.not-measured", "%s: a transfer failed during its search "
			      "(per_stream error), yet max_streams is %g, not null (not measured)",
			      name, ms);
	else if (ms == 0 && !r->failed_one)
		sm_check_fail(c, "streams.not-measured", "%s: max_streams is 0 without a failed step of "
			      "one stream (%s), not null (not measured)", name,
			      r->judged ? "its steps failed above one" : "no step ran");
}

static void ck_cell(const cJSON *cell, int idx, double queue, double cap, struct sm_check *c)
{
	const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
		   *dir = ck_str(cell, "direction");
	double rate = 0, fb, fpsv;
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
	steps_of(cell, name, queue, &r, c);
	answers(cell, name, &r, cap, c);
	measured(cell, name, &r, c);
}

void ck_streams(const cJSON *doc, struct sm_check *c)
{
	const cJSON *cells = ck_at(doc, "streams"), *cell;
	double queue = 0, cap = 0;
	int i = 0;

	ck_num(doc, "params.queue", &queue);
	ck_num(doc, "params.max_streams", &cap);
	cJSON_ArrayForEach(cell, cells)
		ck_cell(cell, i++, queue, cap, c);
}
