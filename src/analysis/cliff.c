/* SPDX-License-Identifier: MIT */
/* Cliff detection: the least-squares two-level step over a write rate
 * series, and the tests that keep noise, stalls and ramps from passing for
 * a cliff (docs/cliff.md). */
#include "analysis/cliff.h"

#include <math.h>
#include <string.h>

#define T_CAP 1e6

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static double mean_of(const double *x, unsigned from, unsigned to)
{
	double s = 0;

	for (unsigned i = from; i < to; i++)
		s += x[i];
	return to > from ? s / (double)(to - from) : 0;
}

/* The split k (first index of the slower part) whose two means leave the
 * least squared error, each side at least SM_CLIFF_MIN_SIDE long; *sse
 * gets that error. The values are taken about their mean m, so the sums of
 * squares do not cancel away a small error. */
static unsigned best_split(const double *x, unsigned n, double m, double *sse)
{
	double tot = 0, tot2 = 0, pre = 0, best = INFINITY;
	unsigned k_best = SM_CLIFF_MIN_SIDE;

	for (unsigned i = 0; i < n; i++) {
		tot += x[i] - m;
		tot2 += (x[i] - m) * (x[i] - m);
	}
	for (unsigned i = 0; i < SM_CLIFF_MIN_SIDE - 1; i++)
		pre += x[i] - m;
	for (unsigned k = SM_CLIFF_MIN_SIDE; k + SM_CLIFF_MIN_SIDE <= n; k++) {
		double post, e;

		pre += x[k - 1] - m;
		post = tot - pre;
		e = tot2 - pre * pre / k - post * post / (n - k);
		if (e < best) {
			best = e;
			k_best = k;
		}
	}
	*sse = best < 0 ? 0 : best;
	return k_best;
}

/* Share of x[from..to) above (above = 1) or below (0) mid. */
static double share_side(const double *x, unsigned from, unsigned to, double mid, int above)
{
	unsigned c = 0;

	for (unsigned i = from; i < to; i++)
		c += above ? x[i] > mid : x[i] < mid;
	return to > from ? (double)c / (double)(to - from) : 0;
}

void sm_cliff_find(const double *rate, unsigned n, uint64_t interval_ns, struct sm_cliff *out)
{
	double m, sse, a, b, s, t, mid, dt = (double)interval_ns / 1e9;
	double fx, fy, pos, bytes = 0;
	const double *v = rate;
	unsigned k, j;

	memset(out, 0, sizeof(*out));
	out->samples = n;
	out->interval_ns = interval_ns;
	if (n < SM_CLIFF_MIN_SAMPLES || !interval_ns)
		return;
	out->looked = 1;
	m = mean_of(v, 0, n);
	if (!(m > 0))
		return;   /* nothing written: no rate to fall from */
	k = best_split(v, n, m, &sse);
	a = mean_of(v, 0, k);
	b = mean_of(v, k, n);
	s = sqrt(sse / (double)(n - 2));
	t = (a - b) / (s * sqrt(1.0 / k + 1.0 / (n - k)));
	if (!isfinite(t))
		t = a > b ? T_CAP : 0;   /* no noise at all: a clean step or none */
	else if (t > T_CAP)
		t = T_CAP;
	out->t = t;
	out->split_ratio = a > 0 ? b / a : 0;
	mid = (a + b) / 2;
	if (!(b < SM_CLIFF_DROP * a) || !(t >= SM_CLIFF_T_MIN) ||
	    share_side(v, 0, k, mid, 1) < SM_CLIFF_MAJORITY ||
	    share_side(v, k, n, mid, 0) < SM_CLIFF_MAJORITY)
		return;
	out->found = 1;
	/* the levels without the intervals next to the split, which the fall
	 * may lie in */
	a = k - 1 >= 2 ? mean_of(v, 0, k - 1) : a;
	b = n - k - 1 >= 2 ? mean_of(v, k + 1, n) : b;
	out->burst_bytes_per_s = a;
	out->sustained_bytes_per_s = b;
	out->ratio = b / a;
	/* the fall lies in interval k - 1 (its rate short of the burst) or k
	 * (its rate above the sustained level): place it by that share */
	fx = clamp01((v[k - 1] - b) / (a - b));
	fy = clamp01((v[k] - b) / (a - b));
	if (1 - fx >= fy) {
		j = k - 1;
		pos = fx;
	} else {
		j = k;
		pos = fy;
	}
	out->at_ns = (uint64_t)(((double)j + pos) * (double)interval_ns);
	for (unsigned i = 0; i < j; i++)
		bytes += v[i];
	bytes += fmin(pos * a, v[j]);
	out->bytes_at = (uint64_t)(bytes * dt);
}
