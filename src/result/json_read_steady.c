/* SPDX-License-Identifier: MIT */
/* Reading the "steady" and "precondition" parts of a saved result back
 * (the objects of sm_steady_json() and sm_precond_json()). */
#include "result/json_read.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static int read_window(const cJSON *x, struct sm_steady_window *w, struct sm_jerr *e)
{
	int rc = 0;

	if (!x)
		return -EINVAL;
	rc |= sm_jget_uint(x, "first_round", &w->first, e);
	rc |= sm_jget_uint(x, "rounds", &w->n, e);
	rc |= sm_jget_double(x, "avg", &w->avg, e);
	rc |= sm_jget_double(x, "min", &w->min, e);
	rc |= sm_jget_double(x, "max", &w->max, e);
	rc |= sm_jget_double(x, "range", &w->range, e);
	rc |= sm_jget_double(x, "slope", &w->slope, e);
	rc |= sm_jget_double(x, "excursion", &w->excursion, e);
	rc |= sm_jget_bool(x, "range_ok", &w->range_ok, e);
	rc |= sm_jget_bool(x, "excursion_ok", &w->excursion_ok, e);
	rc |= sm_jget_bool(x, "steady", &w->steady, e);
	return rc ? -EINVAL : 0;
}

int sm_json_read_steady(const cJSON *doc, struct sm_steady *s, struct sm_precond *p, struct sm_jerr *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "steady");
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(doc, "precondition");
	const cJSON *rule, *rounds, *it, *at;
	int rc = 0, reached = 0;

	memset(s, 0, sizeof(*s));
	memset(p, 0, sizeof(*p));
	if (q) {
		p->on = 1;
		rc |= sm_jget_u64(q, "block_bytes", &p->block_bytes, e);
		rc |= sm_jget_u64(q, "target_bytes", &p->target_bytes, e);
		rc |= sm_jget_u64(q, "bytes", &p->bytes, e);
		rc |= sm_jget_u64(q, "duration_ns", &p->duration_ns, e);
		rc |= sm_jget_double(q, "bytes_per_s", &p->bytes_per_s, e);
		if (rc)
			return -EINVAL;
	}
	if (!o)
		return 0;
	s->on = 1;
	rule = sm_jget_obj(o, "rule", e);
	rounds = sm_jget_arr(o, "rounds", e);
	if (!rule || !rounds)
		return -EINVAL;
	rc |= sm_jget_str(o, "metric", s->metric, sizeof(s->metric), e);
	rc |= sm_jget_u64(o, "round_ns", &s->round_ns, e);
	rc |= sm_jget_uint(o, "max_rounds", &s->max_rounds, e);
	rc |= sm_jget_uint(rule, "window_rounds", &s->rule.window, e);
	rc |= sm_jget_double(rule, "range_limit", &s->rule.range_limit, e);
	rc |= sm_jget_double(rule, "excursion_limit", &s->rule.excursion_limit, e);
	rc |= sm_jget_bool(o, "reached", &reached, e);
	if (rc || read_window(sm_jget_obj(o, "window", e), &s->win, e))
		return -EINVAL;
	if (strcmp(s->metric, "iops") && strcmp(s->metric, "bytes_per_s"))
		return sm_jerr_set(e, "'steady.metric' has an unknown value '%s'", s->metric);
	if (cJSON_GetArraySize(rounds) > (int)SM_STEADY_MAX_ROUNDS)
		return sm_jerr_set(e, "'steady.rounds' holds more than %u rounds", SM_STEADY_MAX_ROUNDS);
	cJSON_ArrayForEach(it, rounds) {
		if (sm_jget_double(it, "figure", &s->figure[s->nrounds], e) ||
		    sm_jget_u64(it, "duration_ns", &s->duration_ns[s->nrounds], e))
			return -EINVAL;
		s->nrounds++;
	}
	at = cJSON_GetObjectItemCaseSensitive(o, "reached_at_round");
	if (reached) {
		if (sm_jget_uint(o, "reached_at_round", &s->reached_at, e))
			return -EINVAL;
		if (!s->reached_at || s->reached_at > s->nrounds)
			return sm_jerr_set(e, "'steady.reached_at_round' is not one of its rounds");
	} else if (at && !cJSON_IsNull(at)) {
		return sm_jerr_set(e, "'steady.reached_at_round' is set but 'steady.reached' is false");
	}
	if (s->win.n > s->nrounds || (s->win.n && (s->win.first < 1 || s->win.first + s->win.n - 1 > s->nrounds)))
		return sm_jerr_set(e, "'steady.window' does not lie within its rounds");
	return 0;
}
