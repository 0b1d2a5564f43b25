/* SPDX-License-Identifier: MIT */
/* The invariants of a fileio result (docs/fileio.md): the series covers
 * the run and adds up to the operations' counts and bytes, events are the
 * reads, writes and periodic fsyncs, every rate is its count over the
 * run's duration, no thread is busier than the run is long, and the
 * percentiles are the event-time histogram's. */
#include "check/body.h"
#include "core/hist.h"
#include "result/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ops.KIND.FIELD, 0 when the kind did not occur (the JSON leaves it out). */
static double op(const cJSON *doc, const char *kind, const char *field)
{
	char path[64];
	double v;

	snprintf(path, sizeof(path), "ops.%s.%s", kind, field);
	return ck_num(doc, path, &v) ? v : 0;
}

static void ck_series(const cJSON *doc, struct sm_check *c)
{
	static const struct { const char *col, *kind, *field, *name; } sums[] = {
		{ "reads", "read", "count", "ops.read.count" },
		{ "writes", "write", "count", "ops.write.count" },
		{ "read_bytes", "read", "bytes", "ops.read.bytes" },
		{ "write_bytes", "write", "bytes", "ops.write.bytes" },
	};
	const cJSON *se = ck_at(doc, "series"), *t = ck_at(se, "t_ns"), *d = ck_at(se, "duration_ns");
	double s, v, at = 0;
	unsigned n;
	char an[64];

	if (!cJSON_IsObject(se))
		return;
	for (unsigned i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		if (!ck_sum(ck_at(se, sums[i].col), &s, &n))
			continue;
		snprintf(an, sizeof(an), "the series' %s", sums[i].col);
		ck_eq(c, "fileio.series-sum", an, s, sums[i].name, op(doc, sums[i].kind, sums[i].field));
	}
	if (ck_sum(ck_at(se, "items"), &s, &n) && ck_num(doc, "fileio.events", &v))
		ck_eq(c, "fileio.series-sum", "the series' items", s, "fileio.events", v);
	if (ck_sum(ck_at(se, "fsyncs"), &s, &n) && ck_num(doc, "fileio.periodic_fsyncs", &v)) {
		double end = 0;

		ck_num(doc, "fileio.end_fsyncs", &end);
		ck_le(c, "fileio.series-sum", "fileio.periodic_fsyncs", v, "the series' fsyncs", s);
		ck_le(c, "fileio.series-sum", "the series' fsyncs", s, "ops.fsync.count",
		      op(doc, "fsync", "count"));
	}
	if (ck_sum(d, &s, &n) && ck_num(doc, "duration_ns", &v))
		ck_eq(c, "fileio.series-sum", ck_at(doc, "mpi") ? "the merged series' duration_ns" :
		      "the series' duration_ns", s, "duration_ns", v);
	/* each interval ends where the next starts */
	if (cJSON_IsArray(t) && cJSON_IsArray(d) && cJSON_GetArraySize(t) == cJSON_GetArraySize(d)) {
		const cJSON *ti = t->child, *di = d->child;

		for (unsigned i = 0; ti && di; i++, ti = ti->next, di = di->next) {
			if (!cJSON_IsNumber(ti) || !cJSON_IsNumber(di))
				break;
			at += di->valuedouble;
			snprintf(an, sizeof(an), "series.t_ns[%u]", i);
			if (!ck_eq(c, "fileio.series-time", an, ti->valuedouble,
				   "the sum of series.duration_ns up to it", at))
				break;
		}
	}
}

static void ck_counts(const cJSON *doc, struct sm_check *c)
{
	double events, periodic, end, v, s, dur, threads;
	unsigned n;

	if (ck_num(doc, "fileio.events", &events)) {
		/* a failed request is counted in its op, not as an event */
		if (ck_num(doc, "fileio.periodic_fsyncs", &periodic))
			ck_eq(c, "fileio.events", "fileio.events", events,
			      "the reads and writes that did not fail + fileio.periodic_fsyncs",
			      op(doc, "read", "count") - op(doc, "read", "errors") +
			      op(doc, "write", "count") - op(doc, "write", "errors") + periodic);
		if (ck_num(doc, "totals.items", &v))
			ck_eq(c, "fileio.events", "totals.items", v, "fileio.events", events);
		if (ck_sum(ck_at(doc, "fileio.thread_events"), &s, &n))
			ck_eq(c, "fileio.events", "the sum of fileio.thread_events", s, "fileio.events",
			      events);
		/* an MPI job's are every rank's threads, one after the other */
		if (ck_num(doc, "params.threads", &threads) && cJSON_IsArray(ck_at(doc, "fileio.thread_events"))) {
			double ranks = 1;

			ck_num(doc, "mpi.ranks_reported", &ranks);
			ck_eq(c, "fileio.events", "fileio.thread_events' length", n,
			      "params.threads x the ranks reported", threads * ranks);
		}
	}
	if (ck_num(doc, "fileio.periodic_fsyncs", &periodic) && ck_num(doc, "fileio.end_fsyncs", &end))
		ck_le(c, "fileio.events", "fileio.periodic_fsyncs + fileio.end_fsyncs", periodic + end,
		      "ops.fsync.count", op(doc, "fsync", "count"));
	if (ck_num(doc, "totals.bytes", &v))
		ck_eq(c, "fileio.events", "totals.bytes", v, "ops.read.bytes + ops.write.bytes",
		      op(doc, "read", "bytes") + op(doc, "write", "bytes"));
	if (ck_num(doc, "duration_ns", &dur)) {
		static const struct { const char *key, *kind; } rates[] = {
			{ "fileio.reads_per_s", "read" }, { "fileio.writes_per_s", "write" },
			{ "fileio.fsyncs_per_s", "fsync" },
		};
		const cJSON *busy = ck_at(doc, "fileio.thread_busy_ns"), *it;
		int i = 0;

		for (unsigned k = 0; k < sizeof(rates) / sizeof(rates[0]); k++) {
			char cn[32];

			/* of the operations that completed */
			snprintf(cn, sizeof(cn), "ops.%s.count - errors", rates[k].kind);
			if (ck_num(doc, rates[k].key, &v))
				ck_rate(c, "fileio.rate", rates[k].key, v, cn,
					op(doc, rates[k].kind, "count") - op(doc, rates[k].kind, "errors"),
					"duration_ns", dur);
		}
		if (ck_num(doc, "fileio.events", &events) && ck_num(doc, "fileio.events_per_s", &v))
			ck_rate(c, "fileio.rate", "fileio.events_per_s", v, "fileio.events", events,
				"duration_ns", dur);
		/* a thread is busy at most the whole run (a share of 100%) */
		cJSON_ArrayForEach(it, busy) {
			char an[48];

			snprintf(an, sizeof(an), "fileio.thread_busy_ns[%d]", i++);
			if (cJSON_IsNumber(it))
				ck_le(c, "fileio.busy", an, it->valuedouble, "duration_ns", dur);
		}
	}
	if (ck_sum(ck_at(doc, "fileio.thread_busy_ns"), &s, &n) &&
	    ck_num(doc, "fileio.event_lat_ns.histogram.sum", &v))
		ck_eq(c, "fileio.busy", "the sum of fileio.thread_busy_ns", s,
		      "fileio.event_lat_ns.histogram.sum (every event's time)", v);
}

/* --percentile's figures are the event-time histogram's. */
static void ck_percentiles(const cJSON *doc, struct sm_check *c)
{
	const cJSON *a = ck_at(doc, "fileio.event_percentiles"), *it;
	struct sm_jerr e = { { 0 } };
	struct sm_hist *h;
	int i = 0;

	if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a) || !(h = malloc(sizeof(*h))))
		return;
	if (!sm_json_read_lat(ck_at(doc, "fileio.event_lat_ns"), h, &e)) {
		cJSON_ArrayForEach(it, a) {
			double p, v;
			char an[64];

			if (ck_num(it, "percentile", &p) && ck_num(it, "lat_ns", &v) && p >= 0 &&
			    p <= 100) {
				snprintf(an, sizeof(an), "fileio.event_percentiles[%d].lat_ns", i);
				ck_eq(c, "fileio.percentiles", an, v, "fileio.event_lat_ns's percentile",
				      (double)sm_hist_percentile(h, p));
			}
			i++;
		}
	}
	free(h);
}

/* --precondition's rate is its bytes over its own duration. */
static void ck_precondition(const cJSON *doc, struct sm_check *c)
{
	double b, d, r;

	if (ck_num(doc, "precondition.bytes", &b) && ck_num(doc, "precondition.duration_ns", &d) &&
	    ck_num(doc, "precondition.bytes_per_s", &r))
		ck_rate(c, "fileio.rate", "precondition.bytes_per_s", r, "precondition.bytes", b,
			"precondition.duration_ns", d);
}

void ck_fileio(const cJSON *doc, struct sm_check *c)
{
	ck_series(doc, c);
	ck_counts(doc, c);
	ck_percentiles(doc, c);
	ck_precondition(doc, c);
}
