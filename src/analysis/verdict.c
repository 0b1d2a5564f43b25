/* SPDX-License-Identifier: MIT */
/* Real-time verdicts: boundaries, paced confirmation and the rate model. */
#include "analysis/verdict.h"
#include "core/u128.h"

#include <math.h>
#include <string.h>

enum sm_verdict sm_verdict_compute(double measured, double needed)
{
	if (!(needed > 0))
		return SM_VERDICT_REALTIME;
	if (!(measured > 0))
		return SM_VERDICT_NOT_REALTIME;
	/* measured >= 1.2 x needed, without rounding 1.2 */
	if (measured * 5 >= needed * 6)
		return SM_VERDICT_REALTIME;
	if (measured >= needed)
		return SM_VERDICT_MARGINAL;
	return SM_VERDICT_NOT_REALTIME;
}

int sm_verdict_near_limit(double measured, double needed)
{
	if (!(needed > 0) || !(measured >= 0))
		return 0;
	/* 0.9 n <= m < 1.5 n as 10 m >= 9 n and 2 m < 3 n */
	return measured * 10 >= needed * 9 && measured * 2 < needed * 3;
}

int sm_verdict_paced(const struct sm_paced *p)
{
	if (!p->complete || p->scheduled == 0 || p->interval_ns == 0 || p->queue == 0)
		return -1;
	if (p->dropped > 0)
		return SM_VERDICT_NOT_REALTIME;
	/* comfortably under q intervals: p99.9 <= q x interval / 2 */
	if (sm_u128_cmp(sm_u128_mul(p->p999_sched_ns, 2), sm_u128_mul(p->queue, p->interval_ns)) <= 0)
		return SM_VERDICT_REALTIME;
	return SM_VERDICT_MARGINAL;
}

void sm_verdict_cell_init(struct sm_verdict_cell *c, double measured, double needed)
{
	memset(c, 0, sizeof(*c));
	c->needed = needed;
	c->measured = measured;
	c->ratio = needed > 0 ? measured / needed : 0;
	c->computed = sm_verdict_compute(measured, needed);
	c->near_limit = sm_verdict_near_limit(measured, needed);
	c->final = c->computed;
	c->how = SM_HOW_COMPUTED;
}

int sm_verdict_cell_outcome(const struct sm_verdict_cell *c)
{
	return sm_verdict_paced(&c->paced);
}

void sm_verdict_cell_settle(struct sm_verdict_cell *c)
{
	int v = sm_verdict_cell_outcome(c);

	c->final = c->computed;
	c->how = SM_HOW_COMPUTED;
	if (c->basis & SM_BASIS_STALL) {
		/* the storage stopped for longer than the buffers last: frames
		 * drop whatever the mean rate (a paced run that held did not
		 * meet the stall) */
		c->final = SM_VERDICT_NOT_REALTIME;
		c->how = v == SM_VERDICT_NOT_REALTIME ? SM_HOW_PACED : SM_HOW_COMPUTED;
		return;
	}
	if (v == SM_VERDICT_NOT_REALTIME) {
		c->final = SM_VERDICT_NOT_REALTIME;
		c->how = SM_HOW_PACED;
		return;
	}
	if (c->computed == SM_VERDICT_NOT_REALTIME)
		return;
	if (v >= 0) {
		/* a paced run with these buffers held: it confirms the class
		 * (or lowers it), whatever the computed basis lacked */
		if ((enum sm_verdict)v < c->final)
			c->final = (enum sm_verdict)v;
		c->how = SM_HOW_PACED;
		return;
	}
	if (c->basis & (SM_BASIS_SHORT | SM_BASIS_DIP | SM_BASIS_EXTRAPOLATED))
		c->final = SM_VERDICT_UNCONFIRMED;
}

int sm_verdict_cell_confirm(struct sm_verdict_cell *c, const struct sm_paced *p)
{
	if (sm_verdict_paced(p) < 0)
		return 0;
	c->paced = *p;
	sm_verdict_cell_settle(c);
	return 1;
}

/* Frame time at size s on the line through (s0, t0) and (s1, t1). */
static double line_at(double s0, double t0, double s1, double t1, double s)
{
	if (s1 == s0)
		return t0;
	return t0 + (t1 - t0) * (s - s0) / (s1 - s0);
}

double sm_rate_model_fps(const struct sm_rate_point *pts, unsigned n, uint64_t frame_bytes)
{
	/* the nearest usable points below/at and above the size, and the two
	 * smallest / two largest for extrapolation */
	const struct sm_rate_point *lo = NULL, *hi = NULL;
	const struct sm_rate_point *min1 = NULL, *min2 = NULL, *max1 = NULL, *max2 = NULL;
	double s = (double)frame_bytes, t, tb;

	for (unsigned i = 0; i < n; i++) {
		const struct sm_rate_point *q = &pts[i];

		if (!(q->fps > 0) || q->frame_bytes == 0)
			continue;
		if (q->frame_bytes <= frame_bytes && (!lo || q->frame_bytes > lo->frame_bytes))
			lo = q;
		if (q->frame_bytes >= frame_bytes && (!hi || q->frame_bytes < hi->frame_bytes))
			hi = q;
		if (!min1 || q->frame_bytes < min1->frame_bytes) {
			min2 = min1;
			min1 = q;
		} else if (!min2 || q->frame_bytes < min2->frame_bytes) {
			min2 = q;
		}
		if (!max1 || q->frame_bytes > max1->frame_bytes) {
			max2 = max1;
			max1 = q;
		} else if (!max2 || q->frame_bytes > max2->frame_bytes) {
			max2 = q;
		}
	}
	if (!min1)
		return 0;
	if (lo && hi) {
		t = line_at((double)lo->frame_bytes, 1 / lo->fps, (double)hi->frame_bytes,
			    1 / hi->fps, s);
		return 1 / t;
	}
	if (!lo) {          /* smaller than every point */
		tb = (1 / min1->fps) * s / (double)min1->frame_bytes;
		t = min2 ? line_at((double)min1->frame_bytes, 1 / min1->fps,
				   (double)min2->frame_bytes, 1 / min2->fps, s) : tb;
	} else {            /* larger than every point */
		tb = (1 / max1->fps) * s / (double)max1->frame_bytes;
		t = max2 ? line_at((double)max2->frame_bytes, 1 / max2->fps,
				   (double)max1->frame_bytes, 1 / max1->fps, s) : tb;
	}
	t = t > tb ? t : tb;
	/* a smaller frame never takes longer than the smallest measured one
	 * (noise can give the first segment a negative slope) */
	if (!lo && t > 1 / min1->fps)
		t = 1 / min1->fps;
	return t > 0 ? 1 / t : 0;
}

int64_t sm_lateness_percentile(const struct sm_hist *early, const struct sm_hist *late,
			       double p)
{
	uint64_t total = early->count + late->count, rank;

	if (!total)
		return 0;
	rank = sm_hist_rank(p, total);
	if (rank > early->count) {
		/* among the late frames, ascending */
		return (int64_t)sm_hist_percentile(
			late, 100.0 * (double)(rank - early->count) / (double)late->count);
	}
	/* the rank-th smallest lateness is minus the (count - rank + 1)-th
	 * smallest earliness */
	return -(int64_t)sm_hist_percentile(
		early, 100.0 * (double)(early->count - rank + 1) / (double)early->count);
}

uint64_t sm_playback_sched_ns(int64_t lateness_ns, unsigned queue, uint64_t interval_ns)
{
	int64_t v = (int64_t)((uint64_t)queue * interval_ns) + lateness_ns;

	return v > 0 ? (uint64_t)v : 0;
}
