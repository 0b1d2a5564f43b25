/* SPDX-License-Identifier: MIT */
/* A fileio result's layouts against it: sysbench 1.0.20's report and
 * interval lines, the native text and markdown operation tables, the CSV
 * rows (docs/fileio.md, docs/report.md). */
#include "check/body.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIB 1048576.0

/* ops.KIND.FIELD, 0 when the kind did not occur (the JSON leaves it out). */
static double op(const cJSON *doc, const char *kind, const char *field)
{
	char path[64];
	double v;

	snprintf(path, sizeof(path), "ops.%s.%s", kind, field);
	return ck_num(doc, path, &v) ? v : 0;
}

/* The figures every layout shows per op: its count, count and bytes per
 * second of the run (event: the events, and the reads' and writes' bytes);
 * done: the ops that completed (count - errors), whose rate is shown. */
struct oprow {
	const char *name, *lat;
	double count, done, bytes;
};

static void oprows(const cJSON *doc, struct oprow *r)
{
	static const char *const k[] = { "read", "write", "fsync" };
	double ev = 0;

	for (int i = 0; i < 3; i++) {
		r[i].name = k[i];
		r[i].lat = i == 0 ? "ops.read.lat_ns" : i == 1 ? "ops.write.lat_ns" : "ops.fsync.lat_ns";
		r[i].count = op(doc, k[i], "count");
		r[i].done = r[i].count - op(doc, k[i], "errors");
		r[i].bytes = op(doc, k[i], "bytes");
	}
	ck_num(doc, "fileio.events", &ev);
	r[3].name = "event";
	r[3].lat = "fileio.event_lat_ns";
	r[3].count = ev;
	r[3].done = ev;
	r[3].bytes = r[0].bytes + r[1].bytes;
}

/* A table row (text or markdown): count, per s, MiB/s, then six latency
 * figures (a kind that did not occur has none). The text layout has two
 * tables: count, per s and MiB/s from `from`, the six latency figures
 * from `lat` (NULL: on the same rows). */
static void table(struct ck_lay *L, const char *from, const char *lat, int md)
{
	struct oprow r[4];
	double dur = 0;

	oprows(L->doc, r);
	ck_num(L->doc, "duration_ns", &dur);
	for (int i = 0; i < 4; i++) {
		struct ck_shown s[12];
		char label[16];
		int n;

		snprintf(label, sizeof(label), md ? "%s |" : "%s ", r[i].name);
		n = ck_lay_nums(L, from, label, 1, s, 12, NULL);
		if (n < 3)
			continue;
		ck_lay_val(L, label, &s[0], "its count", r[i].count);
		ck_lay_val(L, label, &s[1], "its count - errors / duration_ns", ck_per_s(r[i].done, dur));
		ck_lay_val(L, label, &s[2], "its bytes / duration_ns (MiB/s)",
			   ck_per_s(r[i].bytes, dur) / MIB);
		if (lat) {
			if (ck_lay_nums(L, lat, label, 1, s, 12, NULL) >= 6 && ck_at(L->doc, r[i].lat))
				ck_lay_latrow(L, label, &s[0], r[i].lat);
		} else if (n >= 9 && ck_at(L->doc, r[i].lat)) {
			ck_lay_latrow(L, label, &s[3], r[i].lat);
		}
	}
}

/* sysbench's interval lines: each against its interval of the series. */
static void intervals(struct ck_lay *L)
{
	const cJSON *se = ck_at(L->doc, "series");
	const char *at = NULL;
	double ri = 0;
	int i = 0;

	if (!ck_num(L->doc, "params.report_interval_ns", &ri) || !(ri > 0))
		return;
	while ((at = ck_line(L->text, at, "[ ")) != NULL) {
		struct ck_shown s[8];
		char p[64], label[32];
		double d, v;

		snprintf(label, sizeof(label), "[ %ds ]", i + 1);
		if (ck_numbers(at, s, 8) < 6)
			break;
		snprintf(p, sizeof(p), "duration_ns.%d", i);
		if (!ck_num(se, p, &d)) {
			L->c->evaluated++;
			sm_check_fail(L->c, L->id, "%s prints interval line %d, the series has no interval %d",
				      L->layout, i + 1, i + 1);
			break;
		}
		snprintf(p, sizeof(p), "t_ns.%d", i);
		if (ck_num(se, p, &v))
			ck_lay_val(L, label, &s[0], "series.t_ns", v);
		snprintf(p, sizeof(p), "read_bytes.%d", i);
		if (ck_num(se, p, &v))
			ck_lay_val(L, label, &s[1], "series.read_bytes over its duration_ns",
				   ck_per_s(v, d));
		snprintf(p, sizeof(p), "write_bytes.%d", i);
		if (ck_num(se, p, &v))
			ck_lay_val(L, label, &s[2], "series.write_bytes over its duration_ns",
				   ck_per_s(v, d));
		snprintf(p, sizeof(p), "fsyncs.%d", i);
		if (ck_num(se, p, &v))
			ck_lay_val(L, label, &s[3], "series.fsyncs over its duration_ns", ck_per_s(v, d));
		snprintf(p, sizeof(p), "lat_pct_ns.%d", i);
		if (ck_num(se, p, &v))
			ck_lay_val(L, label, &s[5], "series.lat_pct_ns (ms)", v / 1e6);
		i++;
	}
}

/* The fairness block's mean and population stddev over the threads. */
static void fairness(struct ck_lay *L, const char *label, const char *path, double scale)
{
	const cJSON *a = ck_at(L->doc, path), *it;
	struct ck_shown s[4];
	double sum = 0, q = 0, mean;
	unsigned n = 0;

	if (!cJSON_IsArray(a) || ck_lay_nums(L, NULL, label, 1, s, 4, NULL) < 2)
		return;
	cJSON_ArrayForEach(it, a) {
		sum += cJSON_IsNumber(it) ? it->valuedouble * scale : 0;
		n++;
	}
	mean = n ? sum / n : 0;
	cJSON_ArrayForEach(it, a) {
		double d = (cJSON_IsNumber(it) ? it->valuedouble * scale : 0) - mean;

		q += d * d;
	}
	ck_lay_val(L, label, &s[0], "the threads' mean", mean);
	ck_lay_val(L, label, &s[1], "the threads' standard deviation", n ? sqrt(q / n) : 0);
}

static void sysbench(struct ck_lay *L)
{
	static const struct { const char *label, *path; double scale; } lines[] = {
		{ "reads/s:", "fileio.reads_per_s", 1 }, { "writes/s:", "fileio.writes_per_s", 1 },
		{ "fsyncs/s:", "fileio.fsyncs_per_s", 1 },
		{ "total time:", "duration_ns", 1 },
		{ "total number of events:", "fileio.events", 1 },
	};
	struct ck_shown s[4];
	const char *lat;
	double dur = 0;
	const cJSON *pc, *it;

	intervals(L);
	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (ck_lay_nums(L, NULL, lines[i].label, 1, s, 4, NULL) >= 1)
			ck_lay_path(L, lines[i].label, &s[0], lines[i].path, lines[i].scale);
	ck_num(L->doc, "duration_ns", &dur);
	if (ck_lay_nums(L, NULL, "read, MiB/s:", 1, s, 4, NULL) >= 1)
		ck_lay_val(L, "read, MiB/s:", &s[0], "ops.read.bytes / duration_ns (MiB/s)",
			   ck_per_s(op(L->doc, "read", "bytes"), dur) / MIB);
	if (ck_lay_nums(L, NULL, "written, MiB/s:", 1, s, 4, NULL) >= 1)
		ck_lay_val(L, "written, MiB/s:", &s[0], "ops.write.bytes / duration_ns (MiB/s)",
			   ck_per_s(op(L->doc, "write", "bytes"), dur) / MIB);
	/* Latency (ms): the event times */
	if (ck_lay_nums(L, NULL, "Latency (ms):", 1, s, 4, &lat) < 0)
		return;
	if (ck_lay_nums(L, lat, "min:", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "min:", &s[0], "fileio.event_lat_ns.min", 1e-6);
	if (ck_lay_nums(L, lat, "avg:", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "avg:", &s[0], "fileio.event_lat_ns.mean", 1e-6);
	if (ck_lay_nums(L, lat, "max:", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "max:", &s[0], "fileio.event_lat_ns.max", 1e-6);
	if (ck_lay_nums(L, lat, "sum:", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "sum:", &s[0], "fileio.event_lat_ns.histogram.sum", 1e-6);
	pc = ck_at(L->doc, "fileio.event_percentiles");
	cJSON_ArrayForEach(it, pc) {
		double p, v;
		char label[48];

		if (!ck_num(it, "percentile", &p) || !ck_num(it, "lat_ns", &v) || !(p >= 0 && p <= 100))
			continue;
		if (p == floor(p))
			snprintf(label, sizeof(label), "%dth percentile:", (int)p);
		else
			snprintf(label, sizeof(label), "%gth percentile:", p);
		if (ck_lay_nums(L, lat, label, 1, s, 4, NULL) >= 1)
			ck_lay_val(L, label, &s[0], "fileio.event_percentiles' lat_ns (ms)", v / 1e6);
	}
	fairness(L, "events (avg/stddev):", "fileio.thread_events", 1);
	fairness(L, "execution time (avg/stddev):", "fileio.thread_busy_ns", 1e-9);
}

static void text(struct ck_lay *L)
{
	struct ck_shown s[8];
	const char *hd;

	intervals(L);
	if (ck_lay_nums(L, NULL, "duration:", 1, s, 8, NULL) >= 3) {
		ck_lay_path(L, "duration:", &s[0], "duration_ns", 1);
		ck_lay_path(L, "duration: events", &s[1], "fileio.events", 1);
		ck_lay_path(L, "duration: events per second", &s[2], "fileio.events_per_s", 1);
	}
	if (ck_lay_nums(L, NULL, "op ", 1, s, 8, &hd) >= 0) {
		const char *lat = NULL;

		ck_lay_nums(L, hd, "op ", 1, s, 8, &lat);
		if (lat)
			table(L, hd, lat, 0);
	}
}

static void markdown(struct ck_lay *L)
{
	struct ck_shown s[8];
	const char *hd;

	if (ck_lay_nums(L, NULL, "- started:", 1, s, 8, NULL) >= 2) {
		/* the date's figures come first: the duration and events are last */
		int n = (int)ck_numbers(ck_line(L->text, NULL, "- started:"), s, 8);

		ck_lay_path(L, "started: duration", &s[n - 2], "duration_ns", 1);
		ck_lay_path(L, "started: events", &s[n - 1], "fileio.events", 1);
	}
	if (ck_lay_nums(L, NULL, "op |", 1, s, 8, &hd) >= 0)
		table(L, hd, NULL, 1);
}

static void csv(struct ck_lay *L)
{
	static const char *const cols[] = { "mean_ns", "p50_ns", "p95_ns", "p99_ns", "p99_9_ns", "max_ns" };
	static const char *const keys[] = { "mean", "p50", "p95", "p99", "p99_9", "max" };
	struct oprow r[4];
	double dur = 0;

	oprows(L->doc, r);
	ck_num(L->doc, "duration_ns", &dur);
	for (int i = 0; i < 4; i++) {
		const char *row = ck_csv_row(L->text, &r[i].name, 1);
		struct ck_shown s;
		char label[48], path[64];

		L->c->evaluated++;
		if (!row) {
			sm_check_fail(L->c, "layout.line", "csv has no row '%s'", r[i].name);
			continue;
		}
		if (ck_csv_get(L->text, row, "count", &s) == 1)
			ck_lay_val(L, r[i].name, &s, "its count", r[i].count);
		if (ck_csv_get(L->text, row, "bytes", &s) == 1)
			ck_lay_val(L, r[i].name, &s, "its bytes", r[i].bytes);
		if (ck_csv_get(L->text, row, "count_per_s", &s) == 1)
			ck_lay_val(L, r[i].name, &s, "its count - errors / duration_ns", ck_per_s(r[i].done, dur));
		if (ck_csv_get(L->text, row, "bytes_per_s", &s) == 1)
			ck_lay_val(L, r[i].name, &s, "its bytes / duration_ns", ck_per_s(r[i].bytes, dur));
		for (int k = 0; k < 6; k++) {
			snprintf(label, sizeof(label), "%s' %s", r[i].name, cols[k]);
			snprintf(path, sizeof(path), "%s.%s", r[i].lat, keys[k]);
			if (ck_csv_get(L->text, row, cols[k], &s) == 1)
				ck_lay_path(L, label, &s, path, 1);
		}
	}
}

/* --verify's or --validate's block after a text layout. */
static void verify(struct ck_lay *L)
{
	struct ck_shown s[8];

	if (!ck_at(L->doc, "verify") || ck_lay_nums(L, NULL, "hashing:", 0, s, 8, NULL) < 5)
		return;
	ck_lay_path(L, "hashing: sealing", &s[0], "verify.seal_ns", 1);
	ck_lay_path(L, "hashing: sealing rate", &s[1], "verify.seal_bytes_per_s", 1);
	ck_lay_path(L, "hashing: checking", &s[2], "verify.check_ns", 1);
	ck_lay_path(L, "hashing: checking rate", &s[3], "verify.check_bytes_per_s", 1);
	ck_lay_path(L, "hashing: share of the threads' time", &s[4], "verify.hash_share", 100);
}

void ck_lay_fileio(struct ck_lay *L)
{
	if (!strcmp(L->layout, "sysbench"))
		sysbench(L);
	else if (!strcmp(L->layout, "text"))
		text(L);
	else if (!strcmp(L->layout, "markdown"))
		markdown(L);
	else if (!strcmp(L->layout, "csv"))
		csv(L);
	if (strcmp(L->layout, "csv") && strcmp(L->layout, "openmetrics") && strcmp(L->layout, "prometheus"))
		verify(L);
}
