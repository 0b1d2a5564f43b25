/* SPDX-License-Identifier: MIT */
/* A `meta` result's layouts against it (docs/meta.md): each phase's row
 * (count, errors, ops/s, span, p50, p99, p99.9, max) in markdown, in
 * two tables in text, its CSV row, and the sequence line's two times. */
#include "check/body.h"
#include "result/meta.h"

#include <stdio.h>
#include <string.h>

/* The sequence the reports speak of (report/meta.h's). */
#define SEQ_FRAMES 100000.0

static void phase_row(struct ck_lay *L, const char *name, int md)
{
	static const char *const keys[] = { "count", "errors", "per_s", "duration_ns", "lat_ns.p50",
					    "lat_ns.p99", "lat_ns.p99_9", "lat_ns.max" };
	struct ck_shown s[8];
	char label[32], path[96], lab[64];
	const char *lat;
	int n;

	snprintf(label, sizeof(label), md ? "%s |" : "%s ", name);
	n = ck_lay_nums(L, NULL, label, 1, s, 8, NULL);
	if (!md && n > 4)
		n = 4;
	for (int k = 0; k < n && k < 8; k++) {
		snprintf(path, sizeof(path), "meta.ops.%s.%s", name, keys[k]);
		snprintf(lab, sizeof(lab), "%s's %s", name, keys[k]);
		ck_lay_path(L, lab, &s[k], path, 1);
	}
	/* the text's latency figures: a second table, under "latency" */
	if (md || n < 4 || ck_lay_nums(L, NULL, "latency ", 1, s, 8, &lat) < 0)
		return;
	n = ck_lay_nums(L, lat, label, 1, s, 4, NULL);
	for (int k = 0; k < n && k < 4; k++) {
		snprintf(path, sizeof(path), "meta.ops.%s.%s", name, keys[4 + k]);
		snprintf(lab, sizeof(lab), "%s's %s", name, keys[4 + k]);
		ck_lay_path(L, lab, &s[k], path, 1);
	}
}

static void csv_row(struct ck_lay *L, const char *name)
{
	static const char *const cols[] = { "count", "errors", "bytes", "duration_ns", "per_s",
					    "mean_ns", "p50_ns", "p99_ns", "p99_9_ns", "max_ns" };
	static const char *const keys[] = { "count", "errors", "bytes", "duration_ns", "per_s",
					    "lat_ns.mean", "lat_ns.p50", "lat_ns.p99", "lat_ns.p99_9",
					    "lat_ns.max" };
	const char *row = ck_csv_row(L->text, &name, 1);
	struct ck_shown s;
	char path[96], lab[64];

	if (!row) {
		sm_check_fail(L->c, "layout.line", "csv has no row '%s'", name);
		return;
	}
	for (unsigned k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
		if (ck_csv_get(L->text, row, cols[k], &s) != 1)
			continue;
		snprintf(path, sizeof(path), "meta.ops.%s.%s", name, keys[k]);
		snprintf(lab, sizeof(lab), "csv %s's %s", name, cols[k]);
		ck_lay_path(L, lab, &s, path, 1);
	}
}

/* "listed in X, every frame stat'ed and its header read in Y" */
static void sequence(struct ck_lay *L)
{
	const char *at = strstr(L->text, "frames here: listed in ");
	double list, st, pr;
	struct ck_shown s[4];

	if (!at || !ck_num(L->doc, "meta.ops.list.per_s", &list) ||
	    !ck_num(L->doc, "meta.ops.stat.per_s", &st) ||
	    !ck_num(L->doc, "meta.ops.probe.per_s", &pr) || !(list > 0 && st > 0 && pr > 0))
		return;
	if (ck_numbers(at, s, 4) < 2)
		return;
	ck_lay_val(L, "the sequence's listing time", &s[0], "100000 / meta.ops.list.per_s",
		   SEQ_FRAMES / list * 1e9);
	ck_lay_val(L, "the sequence's probing time", &s[1],
		   "100000 / meta.ops.stat.per_s + 100000 / meta.ops.probe.per_s",
		   SEQ_FRAMES / st * 1e9 + SEQ_FRAMES / pr * 1e9);
}

void ck_lay_meta(struct ck_lay *L)
{
	const cJSON *ops = ck_at(L->doc, "meta.ops"), *op;
	int csv = !strcmp(L->layout, "csv"), md = !strcmp(L->layout, "markdown");

	if (!strcmp(L->layout, "openmetrics") || !strcmp(L->layout, "prometheus"))
		return;   /* their figures: tests/openmetrics_check.py holds them to the JSON */
	cJSON_ArrayForEach(op, ops) {
		if (!op->string)
			continue;
		if (csv)
			csv_row(L, op->string);
		else
			phase_row(L, op->string, md);
	}
	if (!csv)
		sequence(L);
}
