/* SPDX-License-Identifier: MIT */
/* A `streams` result's layouts against it (docs/streams.md): the matrix's
 * answers, each cell's lines (rate, chunk, answers, steps), the CSV's row
 * per cell. */
#include "analysis/check_int.h"

#include <stdio.h>
#include <string.h>

/* The answer the matrix prints for a cell (report/streams.c): "N (M)",
 * ">=N (M)", "N (M!)", a "?" when the search did not end, "-" with no
 * step. */
static const char *answer(const cJSON *cell, char *buf, size_t len)
{
	double ms = 0, hr = 0;
	int cap = 0, searched = 0, lowered = 0;

	if (!ck_num(cell, "max_streams", &ms) || !ck_num(cell, "max_streams_headroom", &hr))
		return NULL;
	ck_bool(cell, "at_cap", &cap);
	ck_bool(cell, "searched", &searched);
	ck_bool(cell, "confirmation.lowered", &lowered);
	if (!cJSON_GetArraySize(ck_at(cell, "steps")) && !cap)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%.0f (%.0f%s)%s", cap ? ">=" : "", ms, hr, lowered ? "!" : "",
			 searched ? "" : "?");
	return buf;
}

static const cJSON *find(const cJSON *doc, const char *fmt, const char *fps, const char *dir)
{
	const cJSON *cell;

	cJSON_ArrayForEach(cell, ck_at(doc, "streams")) {
		const char *f = ck_str(cell, "format"), *r = ck_str(cell, "fps"), *d = ck_str(cell, "direction");

		if (f && r && d && !strcmp(f, fmt) && !strcmp(r, fps) && !strcmp(d, dir))
			return cell;
	}
	return NULL;
}

/* The matrix: each format's row holds "capture / playback" per rate, in
 * the order the rates first appear. */
static void matrix(struct ck_lay *L, int md)
{
	const cJSON *cell;

	cJSON_ArrayForEach(cell, ck_at(L->doc, "streams")) {
		const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
			   *dir = ck_str(cell, "direction"), *row;
		const cJSON *c, *p;
		char want[96], x[40] = "-", y[40] = "-", label[64];
		size_t n;

		if (!fmt || !fps || !dir || strcmp(dir, "capture"))
			continue;
		c = cell;
		p = find(L->doc, fmt, fps, "playback");
		answer(c, x, sizeof(x));
		if (p)
			answer(p, y, sizeof(y));
		snprintf(want, sizeof(want), "%s / %s", x, y);
		snprintf(label, sizeof(label), md ? "%s |" : "%s ", fmt);
		row = ck_line(L->text, NULL, label);
		L->c->evaluated++;
		if (!row) {
			sm_check_fail(L->c, "layout.line", "%s matrix has no row '%s'", L->layout, fmt);
			continue;
		}
		n = strcspn(row, "\n");
		if (!strstr(row, want) || (size_t)(strstr(row, want) - row) > n)
			sm_check_fail(L->c, L->id, "%s matrix row '%s' does not hold '%s' (%s at %s fps): "
				      "'%.*s'", L->layout, fmt, want, fmt, fps, (int)(n < 120 ? n : 120), row);
	}
}

/* Each cell's lines in the text layout. */
static void detail(struct ck_lay *L)
{
	const cJSON *cell;
	int i = 0;

	cJSON_ArrayForEach(cell, ck_at(L->doc, "streams")) {
		const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
			   *dir = ck_str(cell, "direction"), *at, *q;
		struct ck_shown s[8];
		char label[128], p[64];
		int cap = 0, n;

		i++;
		if (!fmt || !fps || !dir)
			continue;
		snprintf(label, sizeof(label), "%s at %s fps, %s (", fmt, fps, dir);
		if (ck_lay_nums(L, NULL, label, 1, s, 8, &at) < 0)
			continue;
		/* after the codec's name: the rate and the chunk */
		q = strstr(at, "): ");
		if (q && (size_t)(q - at) < strcspn(at, "\n") && ck_numbers(q + 3, s, 8) >= 2) {
			snprintf(p, sizeof(p), "streams.%d.rate_bytes_per_s", i - 1);
			ck_lay_path(L, label, &s[0], p, 1);
			snprintf(p, sizeof(p), "streams.%d.chunk_bytes", i - 1);
			ck_lay_path(L, label, &s[1], p, 1);
		}
		n = ck_lay_nums(L, at, "held ", 1, s, 8, &q);
		if (n >= 4) {
			snprintf(p, sizeof(p), "streams.%d.max_streams", i - 1);
			ck_lay_path(L, "held", &s[0], p, 1);
			snprintf(p, sizeof(p), "streams.%d.max_streams_headroom", i - 1);
			ck_lay_path(L, "held: with headroom", &s[1], p, 1);
			snprintf(p, sizeof(p), "streams.%d.aggregate_bytes_per_s", i - 1);
			ck_lay_path(L, "held: aggregate", &s[3], p, 1);
			ck_bool(cell, "at_cap", &cap);
			L->c->evaluated++;
			if (cap != !strncmp(q, "at least ", 9))
				sm_check_fail(L->c, L->id, "%s '%s' says held %s, at_cap is %s", L->layout,
					      label, cap ? "without 'at least'" : "'at least'",
					      cap ? "true" : "false");
		}
	}
}

static void md_detail(struct ck_lay *L)
{
	const cJSON *cell;
	int i = 0;

	cJSON_ArrayForEach(cell, ck_at(L->doc, "streams")) {
		const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
			   *dir = ck_str(cell, "direction");
		struct ck_shown s[12];
		char label[128], p[64];

		i++;
		if (!fmt || !fps || !dir)
			continue;
		snprintf(label, sizeof(label), "%s | %s | %s |", fmt, fps, dir);
		if (ck_lay_nums(L, ck_line(L->text, NULL, "| format | fps |"), label, 1, s, 12, NULL) < 5)
			continue;
		snprintf(p, sizeof(p), "streams.%d.rate_bytes_per_s", i - 1);
		ck_lay_path(L, label, &s[0], p, 1);
		snprintf(p, sizeof(p), "streams.%d.chunk_bytes", i - 1);
		ck_lay_path(L, label, &s[1], p, 1);
		snprintf(p, sizeof(p), "streams.%d.max_streams", i - 1);
		ck_lay_path(L, label, &s[2], p, 1);
		snprintf(p, sizeof(p), "streams.%d.max_streams_headroom", i - 1);
		ck_lay_path(L, label, &s[3], p, 1);
		snprintf(p, sizeof(p), "streams.%d.aggregate_bytes_per_s", i - 1);
		ck_lay_path(L, label, &s[4], p, 1);
	}
}

static void csv(struct ck_lay *L)
{
	static const struct { const char *col, *key; } cols[] = {
		{ "stream_bytes_per_s", "rate_bytes_per_s" }, { "chunk_bytes", "chunk_bytes" },
		{ "streams", "max_streams" }, { "streams_headroom", "max_streams_headroom" },
		{ "aggregate_bytes_per_s", "aggregate_bytes_per_s" },
		{ "sustained_bytes_per_s", "sustained_bytes_per_s" },
	};
	const cJSON *cell;

	cJSON_ArrayForEach(cell, ck_at(L->doc, "streams")) {
		const char *k[4] = { ck_str(cell, "format"), ck_str(cell, "codec"), ck_str(cell, "fps"),
				     ck_str(cell, "direction") };
		const char *line;
		struct ck_shown s;
		char label[128];
		double v;

		if (!k[0] || !k[1] || !k[2] || !k[3] || strchr(k[1], ',') || strchr(k[1], '"'))
			continue;
		line = ck_csv_row(L->text, k, 4);
		L->c->evaluated++;
		if (!line) {
			sm_check_fail(L->c, "layout.line", "csv has no row for %s %s at %s fps", k[0], k[3],
				      k[2]);
			continue;
		}
		snprintf(label, sizeof(label), "%s %s %s", k[0], k[2], k[3]);
		for (unsigned i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			if (ck_csv_get(L->text, line, cols[i].col, &s) == 1 && ck_num(cell, cols[i].key, &v))
				ck_lay_val(L, label, &s, cols[i].key, v);
		/* first_failed: empty when none failed */
		if (ck_num(cell, "first_failed", &v)) {
			int got = ck_csv_get(L->text, line, "first_failed", &s);

			if (got == 1)
				ck_lay_val(L, label, &s, "first_failed", v);
			else if (got == 0 && v != 0) {
				L->c->evaluated++;
				sm_check_fail(L->c, L->id, "csv '%s' first_failed is empty, the cell's is %g",
					      label, v);
			}
		}
	}
}

void ck_lay_streams(struct ck_lay *L)
{
	if (!strcmp(L->layout, "text")) {
		matrix(L, 0);
		detail(L);
	} else if (!strcmp(L->layout, "markdown")) {
		matrix(L, 1);
		md_detail(L);
	} else if (!strcmp(L->layout, "csv")) {
		csv(L);
	}
}
