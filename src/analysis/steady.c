/* SPDX-License-Identifier: MIT */
/* SNIA PTS's steady-state rule over a series of round figures: the range
 * and the least-squares line's excursion against the window's average. */
#include "analysis/steady.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void sm_steady_rule_pts(struct sm_steady_rule *rule)
{
	rule->window = 5;
	rule->range_limit = 0.20;
	rule->excursion_limit = 0.10;
}

int sm_steady_eval(const double *y, unsigned n, const struct sm_steady_rule *rule,
		   struct sm_steady_window *w)
{
	unsigned k, first;
	double sum = 0, xm, sxy = 0, sxx = 0, mn, mx;

	if (!n || !rule || rule->window < 2)
		return -EINVAL;
	k = n < rule->window ? n : rule->window;
	first = n - k;
	for (unsigned i = first; i < n; i++)
		if (!isfinite(y[i]))
			return -EINVAL;
	mn = mx = y[first];
	for (unsigned i = first; i < n; i++) {
		sum += y[i];
		mn = y[i] < mn ? y[i] : mn;
		mx = y[i] > mx ? y[i] : mx;
	}
	memset(w, 0, sizeof(*w));
	w->first = first + 1;
	w->n = k;
	w->avg = sum / k;
	w->min = mn;
	w->max = mx;
	w->range = mx - mn;
	/* x is the round's place in the window, 0 .. k-1 */
	xm = (k - 1) / 2.0;
	for (unsigned i = 0; i < k; i++) {
		sxy += (i - xm) * (y[first + i] - w->avg);
		sxx += (i - xm) * (i - xm);
	}
	w->slope = sxx > 0 ? sxy / sxx : 0;
	w->excursion = fabs(w->slope) * (k - 1);
	w->range_ok = w->avg > 0 && w->range <= rule->range_limit * w->avg;
	w->excursion_ok = w->avg > 0 && w->excursion <= rule->excursion_limit * w->avg;
	w->steady = k == rule->window && w->range_ok && w->excursion_ok;
	return w->steady;
}

int sm_steady_add(struct sm_steady *s, double y, uint64_t dur_ns)
{
	int rc;

	if (s->nrounds >= s->max_rounds || s->nrounds >= SM_STEADY_MAX_ROUNDS)
		return -ENOSPC;
	s->figure[s->nrounds] = isfinite(y) ? y : 0;
	s->duration_ns[s->nrounds] = dur_ns;
	s->nrounds++;
	rc = sm_steady_eval(s->figure, s->nrounds, &s->rule, &s->win);
	if (rc == 1 && !s->reached_at)
		s->reached_at = s->nrounds;
	return rc == 1;
}
