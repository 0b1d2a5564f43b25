/* SPDX-License-Identifier: MIT */
/* The invariants of an MPI job's document (docs/mpi.md): the "mpi"
 * object's totals, times and rates are its ranks', each host's are its
 * ranks', the merged figures of the document are the ranks' own results
 * added up, and each rank's own result keeps every invariant of a result
 * (it is checked as one). */
#include "check/body.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The job's figures from the ranks table (sm_dist_analyse()'s rules;
 * streams flags no straggler: its ranks serve unequal numbers of streams
 * by design, docs/mpi.md). */
static void ck_job(const cJSON *m, int streams, struct sm_check *c)
{
	const cJSON *ranks = ck_at(m, "ranks"), *r;
	double rep = 0, bytes = 0, minb = -1, last = 0, first = -1, firstw = -1, v, *rates;
	double median = 0, strag = 0, below = 0.8;
	unsigned nr = 0, n = (unsigned)cJSON_GetArraySize(ranks);
	int i = 0;

	if (!cJSON_IsArray(ranks) || !(rates = calloc(n ? n : 1, sizeof(*rates))))
		return;
	cJSON_ArrayForEach(r, ranks) {
		int reported = 0, walled = 0;
		double b = 0, d = 0, rr;
		char an[64];

		ck_bool(r, "reported", &reported);
		ck_bool(r, "stonewalled", &walled);
		ck_num(r, "bytes", &b);
		ck_num(r, "done_ns", &d);
		snprintf(an, sizeof(an), "mpi.ranks[%d].bytes_per_s", i);
		if (ck_num(r, "bytes_per_s", &rr))
			ck_rate(c, "mpi.rate", an, rr, "its bytes", reported ? b : 0, "its done_ns", d);
		i++;
		if (!reported)
			continue;
		rep++;
		bytes += b;
		if (minb < 0 || b < minb)
			minb = b;
		last = fmax(last, d);
		if (!walled && (first < 0 || d < first))
			first = d;
		if (firstw < 0 || d < firstw)
			firstw = d;
		if (nr < n)
			rates[nr++] = d > 0 ? b * 1e9 / d : 0;
	}
	if (first < 0)
		first = firstw;   /* all were stopped by the stonewall: the earliest */
	if (ck_num(m, "ranks_reported", &v))
		ck_eq(c, "mpi.sum", "mpi.ranks_reported", v, "the ranks that reported", rep);
	if (ck_num(m, "bytes", &v))
		ck_eq(c, "mpi.sum", "mpi.bytes", v, "the reported ranks' bytes", bytes);
	if (rep && ck_num(m, "min_rank_bytes", &v))
		ck_eq(c, "mpi.sum", "mpi.min_rank_bytes", v, "the least a reported rank moved", minb);
	if (ck_num(m, "last_done_ns", &v))
		ck_eq(c, "mpi.time", "mpi.last_done_ns", v, "the last reported rank's done_ns", last);
	if (rep && ck_num(m, "first_done_ns", &v))
		ck_eq(c, "mpi.time", "mpi.first_done_ns", v, "the first done rank's done_ns", first);
	if (ck_num(m, "bytes_per_s", &v) && ck_num(m, "bytes", &bytes) && ck_num(m, "last_done_ns", &last))
		ck_rate(c, "mpi.rate", "mpi.bytes_per_s", v, "mpi.bytes", bytes, "mpi.last_done_ns", last);
	if (ck_num(m, "stonewall_bytes_per_s", &v) && ck_num(m, "min_rank_bytes", &minb) &&
	    ck_num(m, "first_done_ns", &first) && ck_num(m, "ranks_reported", &rep))
		ck_rate(c, "mpi.rate", "mpi.stonewall_bytes_per_s", v,
			"mpi.min_rank_bytes x mpi.ranks_reported", minb * rep, "mpi.first_done_ns", first);
	if (nr) {
		qsort(rates, nr, sizeof(*rates), cmp_double);
		median = nr % 2 ? rates[nr / 2] : (rates[nr / 2 - 1] + rates[nr / 2]) / 2;
	}
	if (ck_num(m, "median_rank_bytes_per_s", &v))
		ck_near(c, "mpi.rate", "mpi.median_rank_bytes_per_s", v, "the reported ranks' median rate",
			median, 1e-9);
	ck_num(m, "straggler_below", &below);
	i = 0;
	cJSON_ArrayForEach(r, ranks) {
		int reported = 0, s;
		double b = 0, d = 0, rr;
		char an[64];

		ck_bool(r, "reported", &reported);
		ck_num(r, "bytes", &b);
		ck_num(r, "done_ns", &d);
		rr = d > 0 ? b * 1e9 / d : 0;
		snprintf(an, sizeof(an), "mpi.ranks[%d].straggler", i++);
		/* a rate within rounding of the bound is not judged */
		if (ck_bool(r, "straggler", &s) && fabs(rr - below * median) > 1e-9 * median)
			ck_eq(c, "mpi.stragglers", an, s, streams ? "0 (streams flags none)" :
			      "its rate below straggler_below x the median",
			      !streams && reported && nr >= 2 && rr < below * median);
		strag += reported && nr >= 2 && ck_bool(r, "straggler", &s) && s;
	}
	if (ck_num(m, "stragglers", &v))
		ck_eq(c, "mpi.stragglers", "mpi.stragglers", v, "the ranks marked straggler", strag);
	free(rates);
}

/* Each host's figures are its ranks'. */
static void ck_hosts(const cJSON *m, struct sm_check *c)
{
	const cJSON *h, *r;
	int i = 0;

	cJSON_ArrayForEach(h, ck_at(m, "hosts")) {
		const char *name = ck_str(h, "host");
		double ranks = 0, rep = 0, bytes = 0, items = 0, done = 0, v;
		char an[96];

		if (!name)
			continue;
		cJSON_ArrayForEach(r, ck_at(m, "ranks")) {
			const char *rh = ck_str(r, "host");
			int reported = 0;
			double x;

			if (!rh || strcmp(rh, name))
				continue;
			ranks++;
			if (!ck_bool(r, "reported", &reported) || !reported)
				continue;
			rep++;
			bytes += ck_num(r, "bytes", &x) ? x : 0;
			items += ck_num(r, "items", &x) ? x : 0;
			if (ck_num(r, "done_ns", &x))
				done = fmax(done, x);
		}
		snprintf(an, sizeof(an), "mpi.hosts[%d].ranks", i);
		if (ck_num(h, "ranks", &v))
			ck_eq(c, "mpi.sum", an, v, "its ranks in mpi.ranks", ranks);
		snprintf(an, sizeof(an), "mpi.hosts[%d].ranks_reported", i);
		if (ck_num(h, "ranks_reported", &v))
			ck_eq(c, "mpi.sum", an, v, "its ranks that reported", rep);
		snprintf(an, sizeof(an), "mpi.hosts[%d].bytes", i);
		if (ck_num(h, "bytes", &v))
			ck_eq(c, "mpi.sum", an, v, "its ranks' bytes", bytes);
		snprintf(an, sizeof(an), "mpi.hosts[%d].items", i);
		if (ck_num(h, "items", &v))
			ck_eq(c, "mpi.sum", an, v, "its ranks' items", items);
		snprintf(an, sizeof(an), "mpi.hosts[%d].done_ns", i);
		if (ck_num(h, "done_ns", &v))
			ck_eq(c, "mpi.time", an, v, "its last rank's done_ns", done);
		snprintf(an, sizeof(an), "mpi.hosts[%d].bytes_per_s", i);
		if (ck_num(h, "bytes_per_s", &v))
			ck_rate(c, "mpi.rate", an, v, "its bytes", bytes, "its done_ns", done);
		i++;
	}
}

/* The sum over the reported ranks' own documents of the number at path;
 * 0 when a reported rank's document lacks it (nothing to compare). */
static int ranks_sum(const cJSON *m, const char *path, double *sum)
{
	const cJSON *r;

	*sum = 0;
	cJSON_ArrayForEach(r, ck_at(m, "ranks")) {
		int reported = 0;
		double v;

		if (!ck_bool(r, "reported", &reported) || !reported)
			continue;
		if (!ck_num(ck_at(r, "result"), path, &v))
			return 0;
		*sum += v;
	}
	return 1;
}

static void merged(const cJSON *doc, const cJSON *m, const char *path, struct sm_check *c)
{
	double a, b;
	char bn[160];

	if (!ck_num(doc, path, &a) || !ranks_sum(m, path, &b))
		return;
	snprintf(bn, sizeof(bn), "the ranks' %s added up", path);
	ck_eq(c, "mpi.merge", path, a, bn, b);
}

/* The merged document is the ranks' documents added up (docs/mpi.md). */
static void ck_merge(const cJSON *doc, const cJSON *m, struct sm_check *c)
{
	static const char *const ops[] = { "open", "read", "write", "close", "fsync", "frame" };
	const char *cmd = ck_str(doc, "command");
	const cJSON *r;
	int i = 0;
	char path[128];

	/* each rank's line in the table is its own document's */
	cJSON_ArrayForEach(r, ck_at(m, "ranks")) {
		const cJSON *res = ck_at(r, "result");
		double b, v;
		char an[64];

		snprintf(an, sizeof(an), "mpi.ranks[%d].bytes", i++);
		if (!cJSON_IsObject(res) || !ck_num(r, "bytes", &b))
			continue;
		if (ck_num(res, "totals.bytes", &v))
			ck_eq(c, "mpi.merge", an, b, "its result's totals.bytes", v);
		else if (ck_num(res, "mpi_run.bytes", &v))
			ck_eq(c, "mpi.merge", an, b, "its result's mpi_run.bytes", v);
		else if (ck_num(res, "rank_bytes", &v))
			ck_eq(c, "mpi.merge", an, b, "its result's rank_bytes", v);
	}
	if (!cmd)
		return;
	if (!strcmp(cmd, "frames") || !strcmp(cmd, "fileio")) {
		double t, b;

		/* the totals are the ranks' rows added up: the rows, not the
		 * ranks' own documents, are what the job's JSON keeps */
		if (ck_num(doc, "totals.bytes", &t) && ck_num(m, "bytes", &b))
			ck_eq(c, "mpi.sum", "totals.bytes", t, "mpi.bytes, the reported ranks' bytes", b);
		merged(doc, m, "totals.items", c);
		merged(doc, m, "totals.bytes", c);
		for (unsigned k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			static const char *const f[] = { "count", "bytes", "errors",
							 "lat_ns.histogram.sum" };

			for (unsigned j = 0; j < 4; j++) {
				snprintf(path, sizeof(path), "ops.%s.%s", ops[k], f[j]);
				merged(doc, m, path, c);
			}
		}
	}
	if (!strcmp(cmd, "frames")) {
		merged(doc, m, "frames.scheduled", c);
		merged(doc, m, "frames.transferred", c);
		merged(doc, m, "frames.dropped", c);
	}
	if (!strcmp(cmd, "fileio")) {
		merged(doc, m, "fileio.events", c);
		merged(doc, m, "fileio.periodic_fsyncs", c);
		merged(doc, m, "fileio.end_fsyncs", c);
	}
	if (!strcmp(cmd, "run")) {
		for (int t = 0; t < cJSON_GetArraySize(ck_at(doc, "run.classic")); t++)
			for (int w = 0; w < 2; w++) {
				snprintf(path, sizeof(path), "run.classic.%d.%s.op.count", t, w ? "write" : "read");
				merged(doc, m, path, c);
				snprintf(path, sizeof(path), "run.classic.%d.%s.op.bytes", t, w ? "write" : "read");
				merged(doc, m, path, c);
			}
		for (int t = 0; t < cJSON_GetArraySize(ck_at(doc, "run.frames")); t++)
			for (int w = 0; w < 2; w++) {
				snprintf(path, sizeof(path), "run.frames.%d.%s.frames", t, w ? "read" : "write");
				merged(doc, m, path, c);
				snprintf(path, sizeof(path), "run.frames.%d.%s.bytes", t, w ? "read" : "write");
				merged(doc, m, path, c);
			}
	}
}

/* streams: who served a cell's answer and its first failure. */
static void ck_mpi_streams(const cJSON *m, struct sm_check *c)
{
	const cJSON *cell;
	int i = 0;

	cJSON_ArrayForEach(cell, ck_at(m, "streams")) {
		static const char *const k[] = { "streams", "streams_at_first_failed",
						 "held_at_first_failed" };
		const char *want[] = { "max_streams", "first_failed", NULL };
		const cJSON *o;
		double rs[3] = { 0 }, hs[3] = { 0 }, v;

		cJSON_ArrayForEach(o, ck_at(cell, "ranks"))
			for (int j = 0; j < 3; j++)
				rs[j] += ck_num(o, k[j], &v) ? v : 0;
		cJSON_ArrayForEach(o, ck_at(cell, "hosts"))
			for (int j = 0; j < 3; j++)
				hs[j] += ck_num(o, k[j], &v) ? v : 0;
		for (int j = 0; j < 3; j++) {
			char an[96], bn[96];

			snprintf(an, sizeof(an), "mpi.streams[%d]: the hosts' %s", i, k[j]);
			snprintf(bn, sizeof(bn), "the ranks' %s", k[j]);
			ck_eq(c, "mpi.sum", an, hs[j], bn, rs[j]);
			if (want[j] && ck_num(cell, want[j], &v)) {
				snprintf(bn, sizeof(bn), "mpi.streams[%d].%s", i, want[j]);
				ck_eq(c, "mpi.sum", an, hs[j], bn, v);
			}
		}
		ck_le(c, "mpi.sum", "held_at_first_failed", rs[2], "streams_at_first_failed", rs[1]);
		i++;
	}
}

void ck_mpi(const cJSON *doc, struct sm_check *c)
{
	const cJSON *m = ck_at(doc, "mpi");
	double total = 0, listed = -1;

	/* a job of more ranks than it lists (docs/mpi.md, "Scale"): its
	 * figures are not the listed rows' */
	if (!ck_num(m, "ranks_listed", &listed) || !ck_num(m, "ranks_total", &total) || listed >= total) {
		ck_job(m, ck_str(doc, "command") && !strcmp(ck_str(doc, "command"), "streams"), c);
		ck_hosts(m, c);
	}
	ck_merge(doc, m, c);
	ck_mpi_streams(m, c);
}
