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

/* The keys of fileio's own object (result/fileio.h); the messages name
 * them in words. */
#define FK (sm_fileio_doc_fields[SM_FDOC_FILEIO].key)
#define BK(f) (sm_fileio_body_fields[f].key)
#define PK(f) (sm_fileio_pct_fields[f].key)

/* ops.KIND.FIELD (enum sm_opstat_f), 0 when the kind did not occur (the
 * JSON leaves it out). */
static double op(const cJSON *doc, const char *kind, int field)
{
	const cJSON *ops = ck_at(doc, sm_fileio_doc_fields[SM_FDOC_OPS].key);
	double v;

	return ck_num(ck_at(ops, kind), sm_opstat_fields[field].key, &v) ? v : 0;
}

/* The run's duration_ns (the head's). */
#define DUR (sm_head_fields[SM_HD_DURATION].key)

static void ck_series(const cJSON *doc, struct sm_check *c)
{
	static const struct { const char *col, *kind; int field; const char *name; } sums[] = {
		{ "reads", "read", SM_OPF_COUNT, "ops.read.count" },
		{ "writes", "write", SM_OPF_COUNT, "ops.write.count" },
		{ "read_bytes", "read", SM_OPF_BYTES, "ops.read.bytes" },
		{ "write_bytes", "write", SM_OPF_BYTES, "ops.write.bytes" },
	};
	const cJSON *fb = ck_at(doc, FK);
	const cJSON *se = ck_at(doc, sm_fileio_doc_fields[SM_FDOC_SERIES].key);
	const cJSON *t = ck_at(se, "t_ns"), *d = ck_at(se, "duration_ns");
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
	if (ck_sum(ck_at(se, "items"), &s, &n) && ck_num(fb, BK(SM_FB_EVENTS), &v))
		ck_eq(c, "fileio.series-sum", "the series' items", s, "fileio.events", v);
	if (ck_sum(ck_at(se, "fsyncs"), &s, &n) && ck_num(fb, BK(SM_FB_PERIODIC_FSYNCS), &v)) {
		double end = 0;

		ck_num(fb, BK(SM_FB_END_FSYNCS), &end);
		ck_le(c, "fileio.series-sum", "fileio.periodic_fsyncs", v, "the series' fsyncs", s);
		ck_le(c, "fileio.series-sum", "the series' fsyncs", s, "ops.fsync.count",
		      op(doc, "fsync", SM_OPF_COUNT));
	}
	if (ck_sum(d, &s, &n) && ck_num(doc, DUR, &v))
		ck_eq(c, "fileio.series-sum", ck_at(doc, sm_head_fields[SM_HD_MPI].key) ?
		      "the merged series' duration_ns" : "the series' duration_ns", s, DUR, v);
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
	const cJSON *fb = ck_at(doc, FK);
	double events, periodic, end, v, s, dur, threads;
	unsigned n;

	if (ck_num(fb, BK(SM_FB_EVENTS), &events)) {
		/* a failed request is counted in its op, not as an event */
		if (ck_num(fb, BK(SM_FB_PERIODIC_FSYNCS), &periodic))
			ck_eq(c, "fileio.events", "fileio.events", events,
			      "the reads and writes that did not fail + fileio.periodic_fsyncs",
			      op(doc, "read", SM_OPF_COUNT) - op(doc, "read", SM_OPF_ERRORS) +
			      op(doc, "write", SM_OPF_COUNT) - op(doc, "write", SM_OPF_ERRORS) + periodic);
		if (ck_num(doc, "totals.items", &v))
			ck_eq(c, "fileio.events", "totals.items", v, "fileio.events", events);
		if (ck_sum(ck_at(fb, BK(SM_FB_THREAD_EVENTS)), &s, &n))
			ck_eq(c, "fileio.events", "the sum of fileio.thread_events", s, "fileio.events",
			      events);
		/* an MPI job's are every rank's threads, one after the other */
		if (ck_num(ck_at(doc, sm_head_fields[SM_HD_PARAMS].key),
			   sm_fileio_params_fields[SM_FPA_THREADS].key, &threads) &&
		    cJSON_IsArray(ck_at(fb, BK(SM_FB_THREAD_EVENTS)))) {
			double ranks = 1;

			ck_num(doc, "mpi.ranks_reported", &ranks);
			ck_eq(c, "fileio.events", "fileio.thread_events' length", n,
			      "params.threads x the ranks reported", threads * ranks);
		}
	}
	if (ck_num(fb, BK(SM_FB_PERIODIC_FSYNCS), &periodic) && ck_num(fb, BK(SM_FB_END_FSYNCS), &end))
		ck_le(c, "fileio.events", "fileio.periodic_fsyncs + fileio.end_fsyncs", periodic + end,
		      "ops.fsync.count", op(doc, "fsync", SM_OPF_COUNT));
	if (ck_num(doc, "totals.bytes", &v))
		ck_eq(c, "fileio.events", "totals.bytes", v, "ops.read.bytes + ops.write.bytes",
		      op(doc, "read", SM_OPF_BYTES) + op(doc, "write", SM_OPF_BYTES));
	if (ck_num(doc, DUR, &dur)) {
		static const struct { int key; const char *kind; } rates[] = {
			{ SM_FB_READS_PER_S, "read" }, { SM_FB_WRITES_PER_S, "write" },
			{ SM_FB_FSYNCS_PER_S, "fsync" },
		};
		const cJSON *busy = ck_at(fb, BK(SM_FB_THREAD_BUSY)), *it;
		int i = 0;

		for (unsigned k = 0; k < sizeof(rates) / sizeof(rates[0]); k++) {
			char cn[32], an[48];

			/* of the operations that completed */
			snprintf(cn, sizeof(cn), "ops.%s.count - errors", rates[k].kind);
			snprintf(an, sizeof(an), "%s.%s", FK, BK(rates[k].key));
			if (ck_num(fb, BK(rates[k].key), &v))
				ck_rate(c, "fileio.rate", an, v, cn,
					op(doc, rates[k].kind, SM_OPF_COUNT) - op(doc, rates[k].kind, SM_OPF_ERRORS),
					DUR, dur);
		}
		if (ck_num(fb, BK(SM_FB_EVENTS), &events) && ck_num(fb, BK(SM_FB_EVENTS_PER_S), &v))
			ck_rate(c, "fileio.rate", "fileio.events_per_s", v, "fileio.events", events,
				DUR, dur);
		/* a thread is busy at most the whole run (a share of 100%) */
		cJSON_ArrayForEach(it, busy) {
			char an[48];

			snprintf(an, sizeof(an), "fileio.thread_busy_ns[%d]", i++);
			if (cJSON_IsNumber(it))
				ck_le(c, "fileio.busy", an, it->valuedouble, DUR, dur);
		}
	}
	if (ck_sum(ck_at(fb, BK(SM_FB_THREAD_BUSY)), &s, &n) &&
	    ck_num(ck_at(fb, BK(SM_FB_EVENT_LAT)), "histogram.sum", &v))
		ck_eq(c, "fileio.busy", "the sum of fileio.thread_busy_ns", s,
		      "fileio.event_lat_ns.histogram.sum (every event's time)", v);
}

/* --percentile's figures are the event-time histogram's. */
static void ck_percentiles(const cJSON *doc, struct sm_check *c)
{
	const cJSON *fb = ck_at(doc, FK), *a = ck_at(fb, BK(SM_FB_EVENT_PERCENTILES)), *it;
	struct sm_jerr e = { { 0 } };
	struct sm_hist *h;
	int i = 0;

	if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a) || !(h = malloc(sizeof(*h))))
		return;
	if (!sm_json_read_lat(ck_at(fb, BK(SM_FB_EVENT_LAT)), h, &e)) {
		cJSON_ArrayForEach(it, a) {
			double p, v;
			char an[64];

			if (ck_num(it, PK(SM_FPC_PERCENTILE), &p) && ck_num(it, PK(SM_FPC_LAT), &v) && p >= 0 &&
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
