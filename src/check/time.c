/* SPDX-License-Identifier: MIT */
/* The invariants of a `time` result (docs/time.md): each run's derived
 * figures are its counts over its own wall time or calls, the statistics
 * are those of the runs, the runs fit in the invocation's duration. */
#include "check/body.h"
#include "analysis/time.h"
#include "result/json_read.h"
#include "result/timefig.h"

#include <stdio.h>
#include <string.h>

/* A per-run quotient: key == num / den x scale (a figure not measured,
 * null, is not compared). */
static void quotient(const cJSON *run, int k, const char *key, const char *num, const char *den,
		     double scale, struct sm_check *c)
{
	double v, n, d;
	char an[64], bn[96];

	if (!ck_num(run, key, &v) || !ck_num(run, num, &n) || !ck_num(run, den, &d) || !(d > 0))
		return;
	snprintf(an, sizeof(an), "time.runs[%d].%s", k, key);
	snprintf(bn, sizeof(bn), "%s / %s%s", num, den, scale == 100 ? " x 100" :
		 scale == 1e9 ? " (per second)" : "");
	ck_near(c, "time.derived", an, v, bn, n / d * scale, 1e-9);
}

static void ck_runs(const cJSON *doc, struct sm_check *c)
{
	const cJSON *runs = ck_at(doc, "time.runs"), *r;
	double wall = 0, dur, v, user, sys;
	int k = 0;

	cJSON_ArrayForEach(r, runs) {
		char an[64];

		if (ck_num(r, "wall_ns", &v))
			wall += v;
		if (ck_num(r, "user_ns", &user) && ck_num(r, "sys_ns", &sys) &&
		    ck_num(r, "cpu_pct", &v) && ck_num(r, "wall_ns", &dur) && dur > 0) {
			snprintf(an, sizeof(an), "time.runs[%d].cpu_pct", k);
			ck_near(c, "time.derived", an, v, "(user_ns + sys_ns) / wall_ns x 100",
				100 * (user + sys) / dur, 1e-9);
		}
		quotient(r, k, "read_bytes_per_call", "read_bytes", "read_calls", 1, c);
		quotient(r, k, "write_bytes_per_call", "write_bytes", "write_calls", 1, c);
		quotient(r, k, "storage_read_bytes_per_s", "storage_read_bytes", "wall_ns", 1e9, c);
		quotient(r, k, "storage_write_bytes_per_s", "storage_write_bytes", "wall_ns", 1e9, c);
		k++;
	}
	/* the invocation's duration holds every run (and the warm-up) */
	if (k && ck_num(doc, "duration_ns", &dur))
		ck_le(c, "time.span", "the runs' wall_ns together", wall, "duration_ns", dur);
}

/* time.stats: what sm_tf_stats() gives over the runs, as read back. */
static void ck_stats(const cJSON *doc, struct sm_check *c)
{
	static const char *const sk[] = { "n", "mean", "stddev", "median", "min", "max" };
	struct sm_time_result r;
	struct sm_jerr e = { { 0 } };
	const cJSON *stats = ck_at(doc, "time.stats");

	memset(&r, 0, sizeof(r));
	if (!cJSON_IsObject(stats) || sm_time_from_json(doc, &r, &e)) {
		sm_time_result_release(&r);
		return;
	}
	for (int f = 0; f < SM_TF_COUNT; f++) {
		const cJSON *o = ck_at(stats, sm_tf_desc[f].key);
		struct sm_tf_stat s;
		double want[6], v;

		sm_tf_stats(r.runs, r.nruns, (enum sm_tf)f, &s);
		if (!o) {
			/* a figure measured in some run has its statistics */
			ck_eq(c, "time.stats", "the runs measuring", s.n,
			      sm_tf_desc[f].key, 0);
			continue;
		}
		want[0] = s.n, want[1] = s.mean, want[2] = s.stddev, want[3] = s.median;
		want[4] = s.min, want[5] = s.max;
		for (unsigned i = 0; i < 6; i++) {
			char an[96];

			if (!ck_num(o, sk[i], &v))
				continue;
			snprintf(an, sizeof(an), "time.stats.%s.%s", sm_tf_desc[f].key, sk[i]);
			ck_near(c, "time.stats", an, v, "that of the runs", want[i], 1e-9);
		}
	}
	sm_time_result_release(&r);
}

void ck_time(const cJSON *doc, struct sm_check *c)
{
	ck_runs(doc, c);
	ck_stats(doc, c);
}
