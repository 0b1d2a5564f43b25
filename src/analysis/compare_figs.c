/* SPDX-License-Identifier: MIT */
/* The figures of one saved result for compare: each command's figures read
 * from its JSON as stored (docs/json-schema.md), with their units and which
 * way is better. */
#include "analysis/compare.h"
#include "result/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- figures of one result ---- */

static int run_add(struct sm_cmp_run *r, const char *name, const char *label,
		   enum sm_cmp_unit unit, int better, double v, const char *verdict)
{
	struct sm_cmp_fig *f;

	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 32;
		void *p = realloc(r->fig, cap * sizeof(*r->fig));

		if (!p)
			return -ENOMEM;
		r->fig = p;
		r->cap = cap;
	}
	f = &r->fig[r->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->label, sizeof(f->label), "%s", label);
	f->unit = unit;
	f->better = better;
	f->v = v;
	if (verdict)
		snprintf(f->verdict, sizeof(f->verdict), "%s", verdict);
	return 0;
}

/* The number at key of o into *v: 1, or 0 when there is none. */
static int num(const cJSON *o, const char *key, double *v)
{
	const cJSON *x = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

	if (!cJSON_IsNumber(x))
		return 0;
	*v = x->valuedouble;
	return 1;
}

/* A numeric figure v, named name. Returns 0, -ENOMEM, or
 * -EINVAL for a number no run measures (negative, infinite, or from 2^64
 * up: every figure is a count, a size, a time or a rate of them): the
 * readers of report recompute most of these figures and never look at
 * the stored ones, so this is where a damaged one is caught. */
static int fig_v(struct sm_cmp_run *r, double v, const char *name, const char *label, enum sm_cmp_unit unit,
		 int better)
{
	if (!isfinite(v) || v < 0 || v >= 18446744073709551616.0) {
		snprintf(r->bad, sizeof(r->bad), "%s", name);
		return -EINVAL;
	}
	return run_add(r, name, label, unit, better, v, NULL);
}

/* fig_v() of the number at key of o, when present. */
static int fig(struct sm_cmp_run *r, const cJSON *o, const char *key, const char *name,
	       const char *label, enum sm_cmp_unit unit, int better)
{
	double v;

	return num(o, key, &v) ? fig_v(r, v, name, label, unit, better) : 0;
}

static const struct { const char *key, *label; } lat_stats[] = {
	{ "mean", "mean" }, { "p50", "p50" }, { "p90", "p90" }, { "p95", "p95" },
	{ "p99", "p99" }, { "p99_9", "p99.9" }, { "p99_99", "p99.99" }, { "max", "max" },
};

/* The latency summary lat (a lat_ns object): every stat, lower is better. */
static int lat_figs(struct sm_cmp_run *r, const cJSON *lat, const char *name, const char *label)
{
	char n[96], l[96];
	int rc = 0;

	for (unsigned i = 0; !rc && lat && i < sizeof(lat_stats) / sizeof(lat_stats[0]); i++) {
		snprintf(n, sizeof(n), "%s.%s", name, lat_stats[i].key);
		snprintf(l, sizeof(l), "%s %s", label, lat_stats[i].label);
		rc = fig(r, lat, lat_stats[i].key, n, l, SM_CU_NS, -1);
	}
	return rc;
}

/* Every operation of "ops": its latency percentiles (and a frame's from
 * schedule). */
static int ops_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(doc, "ops"), *op;
	char n[96], l[96];
	int rc = 0;

	cJSON_ArrayForEach(op, ops) {
		if (!op->string)
			continue;
		snprintf(n, sizeof(n), "ops.%s", op->string);
		snprintf(l, sizeof(l), "%s", op->string);
		rc = lat_figs(r, cJSON_GetObjectItemCaseSensitive(op, "lat_ns"), n, l);
		snprintf(n, sizeof(n), "ops.%s.sched", op->string);
		snprintf(l, sizeof(l), "%s from schedule", op->string);
		if (!rc)
			rc = lat_figs(r, cJSON_GetObjectItemCaseSensitive(op, "sched_lat_ns"), n, l);
		if (rc)
			break;
	}
	return rc;
}

/* A write rate's cliff (docs/cliff.md), when one was found: the rates
 * before and after it (null, so left out, when none was). */
static int cliff_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "cliff");
	int rc = fig(r, c, "burst_bytes_per_s", "cliff.burst_bytes_per_s", "cliff: burst write rate",
		     SM_CU_BPS, 1);

	if (!rc)
		rc = fig(r, c, "sustained_bytes_per_s", "cliff.sustained_bytes_per_s",
			 "cliff: sustained write rate", SM_CU_BPS, 1);
	return rc;
}

static int frames_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "totals");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "frames");
	int rc = fig(r, t, "items_per_s", "totals.items_per_s", "frame rate", SM_CU_RATE, 1);

	if (!rc)
		rc = fig(r, t, "bytes_per_s", "totals.bytes_per_s", "throughput", SM_CU_BPS, 1);
	if (!rc)
		rc = fig(r, cJSON_GetObjectItemCaseSensitive(f, "paced"), "frames_per_s",
			 "frames.paced.frames_per_s", "paced frame rate", SM_CU_RATE, 1);
	if (!rc)
		rc = fig(r, f, "dropped", "frames.dropped", "dropped frames", SM_CU_COUNT, -1);
	if (!rc)
		rc = cliff_figs(r, doc);
	return rc ? rc : ops_figs(r, doc);
}

static int fileio_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "totals");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "fileio");
	double rd, wr;
	int rc = fig(r, t, "bytes_per_s", "totals.bytes_per_s", "throughput", SM_CU_BPS, 1);

	if (!rc)
		rc = fig(r, t, "items_per_s", "totals.items_per_s", "events/s (reads, writes, fsyncs)",
			 SM_CU_RATE, 1);
	/* IOPS: the reads and writes per second; an fsync moves no data and is
	 * no I/O operation of the storage's figure (sysbench counts it an event) */
	if (!rc && num(f, "reads_per_s", &rd) && num(f, "writes_per_s", &wr))
		rc = fig_v(r, rd + wr, "fileio.iops", "IOPS (reads and writes)", SM_CU_RATE, 1);
	if (!rc)
		rc = fig(r, f, "reads_per_s", "fileio.reads_per_s", "reads/s", SM_CU_RATE, 1);
	if (!rc)
		rc = fig(r, f, "writes_per_s", "fileio.writes_per_s", "writes/s", SM_CU_RATE, 1);
	if (!rc)
		rc = fig(r, f, "fsyncs_per_s", "fileio.fsyncs_per_s", "fsyncs/s", SM_CU_RATE, 1);
	if (!rc)
		rc = lat_figs(r, cJSON_GetObjectItemCaseSensitive(f, "event_lat_ns"),
			      "fileio.event", "event");
	if (!rc)
		rc = cliff_figs(r, doc);
	return rc ? rc : ops_figs(r, doc);
}

/* streams: each cell's answer, the most streams that held, and the rate
 * sustained there (docs/streams.md); higher is better. */
static int streams_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *c;
	char n[160], l[160];
	int rc = 0;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "streams")) {
		const char *fmt = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "format"));
		const char *fps = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "fps"));
		const char *dir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "direction"));

		if (!fmt || !fps || !dir)
			continue;
		snprintf(n, sizeof(n), "streams.%s@%s:%s.max_streams", fmt, fps, dir);
		snprintf(l, sizeof(l), "%s @%s %s streams", fmt, fps, dir);
		rc = fig(r, c, "max_streams", n, l, SM_CU_COUNT, 1);
		snprintf(n, sizeof(n), "streams.%s@%s:%s.sustained_bytes_per_s", fmt, fps, dir);
		snprintf(l, sizeof(l), "%s @%s %s sustained", fmt, fps, dir);
		if (!rc)
			rc = fig(r, c, "sustained_bytes_per_s", n, l, SM_CU_BPS, 1);
		if (rc)
			break;
	}
	return rc;
}

/* meta: each phase's rate and latency (docs/meta.md). */
static int meta_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(doc, "meta"), "ops"), *op;
	char n[96], l[96];
	int rc = 0;

	cJSON_ArrayForEach(op, ops) {
		if (!op->string)
			continue;
		snprintf(n, sizeof(n), "meta.ops.%s.per_s", op->string);
		snprintf(l, sizeof(l), "%s ops/s", op->string);
		rc = fig(r, op, "per_s", n, l, SM_CU_RATE, 1);
		snprintf(n, sizeof(n), "meta.ops.%s", op->string);
		if (!rc)
			rc = lat_figs(r, cJSON_GetObjectItemCaseSensitive(op, "lat_ns"), n, op->string);
		if (rc)
			break;
	}
	return rc;
}

/* One direction of a classic test or a frame size in run. */
static int run_dir_figs(struct sm_cmp_run *r, const cJSON *o, const char *base, const char *what,
			int classic)
{
	char n[96], l[96];
	int rc;

	if (!o)
		return 0;
	snprintf(n, sizeof(n), "%s.bytes_per_s", base);
	snprintf(l, sizeof(l), "%s throughput", what);
	rc = fig(r, o, "bytes_per_s", n, l, SM_CU_BPS, 1);
	snprintf(n, sizeof(n), "%s.%s", base, classic ? "iops" : "fps");
	snprintf(l, sizeof(l), "%s %s", what, classic ? "IOPS" : "frame rate");
	if (!rc)
		rc = fig(r, o, classic ? "iops" : "fps", n, l, SM_CU_RATE, 1);
	if (!rc && classic)
		rc = lat_figs(r, cJSON_GetObjectItemCaseSensitive(
				     cJSON_GetObjectItemCaseSensitive(o, "op"), "lat_ns"), base, what);
	if (!rc && !classic)
		rc = lat_figs(r, cJSON_GetObjectItemCaseSensitive(o, "frame_ns"), base, what);
	return rc;
}

static int run_figs(struct sm_cmp_run *r, const cJSON *doc)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run"), *it;
	static const char *const dirs[] = { "read", "write" };
	static const char *const cells[] = { "capture", "playback" };
	char n[96], l[96];
	int rc = 0;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(run, "classic")) {
		const char *test = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "test"));

		for (unsigned d = 0; test && !rc && d < 2; d++) {
			snprintf(n, sizeof(n), "classic.%s.%s", test, dirs[d]);
			snprintf(l, sizeof(l), "%s %s", test, dirs[d]);
			rc = run_dir_figs(r, cJSON_GetObjectItemCaseSensitive(it, dirs[d]), n, l, 1);
		}
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(run, "frames")) {
		const char *preset = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "preset"));

		for (unsigned d = 0; preset && !rc && d < 2; d++) {
			snprintf(n, sizeof(n), "frames.%s.%s", preset, dirs[1 - d]);
			snprintf(l, sizeof(l), "%s frames %s", preset, dirs[1 - d]);
			rc = run_dir_figs(r, cJSON_GetObjectItemCaseSensitive(it, dirs[1 - d]), n, l, 0);
		}
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(run, "verdicts")) {
		const char *format = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "format"));
		const cJSON *cell;

		for (unsigned d = 0; format && !rc && d < 2; d++)
			cJSON_ArrayForEach(cell, cJSON_GetObjectItemCaseSensitive(it, cells[d])) {
				const char *fps = cJSON_GetStringValue(
					cJSON_GetObjectItemCaseSensitive(cell, "fps"));
				const char *v = cJSON_GetStringValue(
					cJSON_GetObjectItemCaseSensitive(cell, "verdict"));

				if (!fps || !v)
					continue;
				snprintf(n, sizeof(n), "verdicts.%s.%s.%s", format, cells[d], fps);
				snprintf(l, sizeof(l), "%s %s %s fps", format, cells[d], fps);
				rc = run_add(r, n, l, SM_CU_VERDICT, 0, 0, v);
				if (rc)
					break;
			}
	}
	return rc;
}

static enum sm_cmp_unit tf_unit(enum sm_tf_unit u)
{
	switch (u) {
	case SM_TFU_NS:
		return SM_CU_NS;
	case SM_TFU_PCT:
		return SM_CU_PCT;
	case SM_TFU_BYTES:
		return SM_CU_BYTES;
	case SM_TFU_BPS:
		return SM_CU_BPS;
	case SM_TFU_MS:
		return SM_CU_MS;
	default:
		return SM_CU_COUNT;
	}
}

/* One time run: every figure measured; times spent are better lower. */
int sm_cmp_time_figs(struct sm_cmp_run *r, const struct sm_time_run *t)
{
	char n[96];
	int rc = 0;

	for (int f = 0; !rc && f < SM_TF_COUNT; f++) {
		if (t->missing & SM_TF_BIT(f))
			continue;
		snprintf(n, sizeof(n), "time.%s", sm_tf_desc[f].key);
		rc = run_add(r, n, sm_tf_desc[f].label, tf_unit(sm_tf_desc[f].unit),
			     sm_tf_desc[f].unit == SM_TFU_NS ? -1 : 0, t->v[f], NULL);
	}
	return rc;
}

void sm_cmp_runs_free(struct sm_cmp_run *runs, unsigned n)
{
	for (unsigned i = 0; runs && i < n; i++)
		free(runs[i].fig);
	free(runs);
}

int sm_cmp_doc_figures(const cJSON *doc, struct sm_cmp_run **runs, unsigned *n, char *why,
		       size_t len)
{
	const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "command"));
	struct sm_cmp_run *a = NULL;
	int rc = 0;

	*runs = NULL;
	*n = 0;
	if (!cmd) {
		snprintf(why, len, "'command' is missing");
		return -EINVAL;
	}
	if (!strcmp(cmd, "time")) {
		struct sm_time_result tr;
		struct sm_jerr e = { "" };

		memset(&tr, 0, sizeof(tr));
		rc = sm_time_from_json(doc, &tr, &e);
		if (rc) {
			snprintf(why, len, "%s", e.msg);
			sm_time_result_release(&tr);
			return rc;
		}
		a = calloc(tr.nruns ? tr.nruns : 1, sizeof(*a));
		rc = a ? 0 : -ENOMEM;
		for (unsigned i = 0; !rc && i < tr.nruns; i++) {
			rc = sm_cmp_time_figs(&a[i], &tr.runs[i]);
			*n = i + 1;
		}
		sm_time_result_release(&tr);
	} else {
		a = calloc(1, sizeof(*a));
		if (!a)
			return -ENOMEM;
		*n = 1;
		if (!strcmp(cmd, "frames"))
			rc = frames_figs(a, doc);
		else if (!strcmp(cmd, "fileio"))
			rc = fileio_figs(a, doc);
		else if (!strcmp(cmd, "run"))
			rc = run_figs(a, doc);
		else if (!strcmp(cmd, "meta"))
			rc = meta_figs(a, doc);
		else if (!strcmp(cmd, "streams"))
			rc = streams_figs(a, doc);
		else {
			snprintf(why, len, "unknown command '%s'", cmd);
			rc = -EINVAL;
		}
	}
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(why, len, "out of memory");
		else if (a && *n && a[*n - 1].bad[0])
			snprintf(why, len, "'%s' holds a figure no run measures (negative, infinite "
				 "or from 2^64 up)", a[*n - 1].bad);
		sm_cmp_runs_free(a, *n);
		*n = 0;
		return rc;
	}
	*runs = a;
	return 0;
}

const struct sm_cmp_fig *sm_cmp_find(const struct sm_cmp_run *run, const char *name)
{
	for (unsigned i = 0; i < run->n; i++)
		if (!strcmp(run->fig[i].name, name))
			return &run->fig[i];
	return NULL;
}
