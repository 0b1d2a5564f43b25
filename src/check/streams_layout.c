/* SPDX-License-Identifier: MIT */
/* A `streams` result's layouts against it (docs/streams.md): the matrix's
 * answers, each cell's lines (rate, chunk, answers, steps), the CSV's row
 * per cell. */
#include "check/body.h"

#include <stdio.h>
#include <string.h>

/* The figures the matrix prints for a cell, in order, into s from *k:
 * its most streams held and those with headroom, none when not measured
 * ("not measured"), an absent one for a cell the table lacks ("-"). */
static void cell_figures(const cJSON *cell, struct ck_shown *s, unsigned max, unsigned *k)
{
	double ms, hr, high;

	if (*k >= max)
		return;
	if (!cell) {
		memset(&s[*k], 0, sizeof(s[0]));
		s[(*k)++].absent = 1;
		return;
	}
	if (!ck_num(cell, "max_streams", &ms) || !ck_num(cell, "max_streams_headroom", &hr))
		return;
	if (*k + 3 > max)
		return;
	memset(&s[*k], 0, 3 * sizeof(s[0]));
	s[(*k)++].v = ms;
	/* an answer that moved between trials is a range: "2 to 3 (2)" */
	if (ck_num(cell, "max_streams_high", &high) && high > ms)
		s[(*k)++].v = high;
	s[(*k)++].v = hr;
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

/* The matrix (report/streams.c): a row per format (in text, one in each of
 * its tables when it is split to fit the window), per rate "capture /
 * playback" answers ("N (M)", with ">=", "!" and "?" marks, or "not
 * measured", or "-"); the row's figures, in order, are the cells'
 * answers. Rates in the order they first appear among the cells. */
static void matrix(struct ck_lay *L, int md)
{
	const cJSON *cells = ck_at(L->doc, "streams"), *cell, *c2;
	const char *done[256];
	unsigned nd = 0;

	cJSON_ArrayForEach(cell, cells) {
		const char *fmt = ck_str(cell, "format"), *row;
		struct ck_shown want[64], got[64];
		unsigned nw = 0, ng, seen = 0;
		char label[64];
		int dup = 0;

		if (!fmt)
			continue;
		for (unsigned i = 0; i < nd; i++)
			dup |= !strcmp(done[i], fmt);
		if (dup || nd >= 256)
			continue;
		done[nd++] = fmt;
		/* the rates of every cell, in order of first appearance */
		cJSON_ArrayForEach(c2, cells) {
			const char *fps = ck_str(c2, "fps");
			const cJSON *c3;
			int first = 1;

			if (!fps)
				continue;
			cJSON_ArrayForEach(c3, cells) {
				if (c3 == c2)
					break;
				if (ck_str(c3, "fps") && !strcmp(ck_str(c3, "fps"), fps))
					first = 0;
			}
			if (!first)
				continue;
			cell_figures(find(L->doc, fmt, fps, "capture"), want, 64, &nw);
			cell_figures(find(L->doc, fmt, fps, "playback"), want, 64, &nw);
			seen++;
		}
		snprintf(label, sizeof(label), md ? "%s |" : "%s ", fmt);
		row = ck_line(L->text, NULL, label);
		L->c->evaluated++;
		if (!row) {
			sm_check_fail(L->c, "layout.line", "%s matrix has no row '%s'", L->layout, fmt);
			continue;
		}
		ng = ck_numbers(row, got, 64);
		/* text: a matrix too wide for its window goes on in another table
		 * below, a row per format again; its detail ("FMT at R fps") ends it */
		while (!md && ng < 64 && (row = ck_line(L->text, row, label)) && strncmp(row, "at ", 3))
			ng += ck_numbers(row, got + ng, 64 - ng);
		if (ng != nw) {
			sm_check_fail(L->c, L->id, "%s matrix row '%s' holds %u figures, its %u rates' "
				      "cells %u", L->layout, fmt, ng, seen, nw);
			continue;
		}
		for (unsigned i = 0; i < nw; i++) {
			char lab[96];

			if (got[i].absent != want[i].absent) {
				L->c->evaluated++;
				sm_check_fail(L->c, L->id, "%s matrix row '%s' figure %u is '%s', the cell "
					      "%s", L->layout, fmt, i + 1, got[i].text,
					      want[i].absent ? "is not in the table" : "is");
				continue;
			}
			snprintf(lab, sizeof(lab), "matrix row %s, figure %u", fmt, i + 1);
			ck_lay_val(L, lab, &got[i], "the cell's answer", want[i].v);
		}
	}
}

/* Each cell's lines in the text layout. */
static void detail(struct ck_lay *L)
{
	const cJSON *cell;
	int i = -1;

	cJSON_ArrayForEach(cell, ck_at(L->doc, "streams")) {
		const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
			   *dir = ck_str(cell, "direction"), *at, *q;
		struct ck_shown s[8];
		char label[128], p[64];
		int cap = 0, lowered = 0, n;
		double ms, chunk, interval;

		i++;
		if (!fmt || !fps || !dir)
			continue;
		snprintf(label, sizeof(label), "%s at %s fps, %s (", fmt, fps, dir);
		if (ck_lay_nums(L, NULL, label, 1, s, 8, &at) < 0)
			continue;
		/* the line after the cell's name ("FMT at R fps, DIR (CODEC):"): the
		 * rate, what the schedule moves when it is not the rate ("moved:
		 * R"), the largest chunk */
		q = strchr(at, '\n');
		/* a name too long for the layout's width goes on in lines
		 * indented by 4 (wrapped), the last ending in ':' */
		while (q && !strncmp(q + 1, "    ", 4)) {
			at = q + 1;
			q = strchr(at, '\n');
		}
		n = q && q > at && q[-1] == ':' ? (int)ck_numbers(q + 1, s, 8) : 0;
		L->c->evaluated++;
		if (n < 2)
			sm_check_fail(L->c, "layout.line", "%s '%s': no line of its rate and chunk after "
				      "its name", L->layout, label);
		if (n >= 2) {
			snprintf(p, sizeof(p), "streams.%d.rate_bytes_per_s", i);
			ck_lay_path(L, label, &s[0], p, 1);
			snprintf(p, sizeof(p), "streams.%d.chunk_bytes", i);
			ck_lay_path(L, label, &s[n - 1], p, 1);
			snprintf(p, sizeof(p), "streams.%d.moved_bytes_per_s", i);
			if (n == 3 && ck_at(L->doc, p))
				ck_lay_path(L, label, &s[1], p, 1);
			else if (n == 3 && ck_num(cell, "chunk_bytes", &chunk) &&
				 ck_num(cell, "interval_ns", &interval) && interval > 0)
				ck_lay_val(L, label, &s[1], "chunk_bytes x fps (saved before the byte "
					   "schedule)", chunk * 1e9 / interval);
		}
		if (!ck_num(cell, "max_streams", &ms)) {
			/* not measured: the text says so, with no figure */
			L->c->evaluated++;
			if (!ck_line(L->text, at, "not measured:"))
				sm_check_fail(L->c, L->id, "%s '%s': the cell is not measured, the text "
					      "does not say so", L->layout, label);
			continue;
		}
		n = ck_lay_nums(L, at, "held ", 1, s, 8, &q);
		if (n < 4)
			continue;
		snprintf(p, sizeof(p), "streams.%d.max_streams", i);
		ck_lay_path(L, "held", &s[0], p, 1);
		snprintf(p, sizeof(p), "streams.%d.max_streams_headroom", i);
		ck_lay_path(L, "held: with headroom", &s[1], p, 1);
		snprintf(p, sizeof(p), "streams.%d.aggregate_bytes_per_s", i);
		ck_lay_path(L, "held: aggregate", &s[3], p, 1);
		/* at the cap the answers are lower bounds: "at least" */
		ck_bool(cell, "at_cap", &cap);
		ck_bool(cell, "confirmation.lowered", &lowered);
		L->c->evaluated++;
		if (cap != !strncmp(q, "at least ", 9))
			sm_check_fail(L->c, L->id, "%s '%s' says held %s, at_cap is %s", L->layout, label,
				      cap ? "without 'at least'" : "'at least'", cap ? "true" : "false");
	}
}

/* The markdown cells of a row: the text between its n-th and n+1-th '|'
 * into buf; 0 when the row has fewer. */
static int md_cell(const char *row, unsigned n, char *buf, size_t len)
{
	const char *p = row;
	size_t k;

	for (unsigned i = 0; i < n; i++) {
		p = strpbrk(p, "|\n");
		if (!p || *p == '\n')
			return 0;
		p++;
	}
	k = strcspn(p, "|\n");
	if (k >= len)
		k = len - 1;
	memcpy(buf, p, k);
	buf[k] = '\0';
	return 1;
}

static void md_detail(struct ck_lay *L)
{
	const cJSON *cell;
	const char *head = ck_line(L->text, NULL, "| format | fps | direction |");
	int i = -1;

	cJSON_ArrayForEach(cell, ck_at(L->doc, "streams")) {
		static const char *const keys[] = { "rate_bytes_per_s", "chunk_bytes", "max_streams",
						    "max_streams_headroom", "aggregate_bytes_per_s" };
		const char *fmt = ck_str(cell, "format"), *fps = ck_str(cell, "fps"),
			   *dir = ck_str(cell, "direction"), *row;
		char label[128], buf[160], p[64];

		i++;
		if (!fmt || !fps || !dir || !head)
			continue;
		snprintf(label, sizeof(label), "%s | %s | %s |", fmt, fps, dir);
		row = ck_line(L->text, head, label);
		L->c->evaluated++;
		if (!row) {
			sm_check_fail(L->c, "layout.line", "%s has no row '%s'", L->layout, label);
			continue;
		}
		/* after the label: rate per stream, largest chunk, held, with
		 * headroom, aggregate, each its own cell */
		for (unsigned k = 0; k < 5; k++) {
			struct ck_shown s;

			if (!md_cell(row, k, buf, sizeof(buf)) || ck_numbers(buf, &s, 1) < 1)
				continue;
			snprintf(p, sizeof(p), "streams.%d.%s", i, keys[k]);
			ck_lay_path(L, label, &s, p, 1);
		}
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
	/* a mix's layouts (its groups, then the search beside it) are not
	 * read by these rules yet (ck_streams says why) */
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(L->doc, "mix")))
		return;
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
