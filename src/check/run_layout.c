/* SPDX-License-Identifier: MIT */
/* A `run` result's layouts against it (docs/run.md): the classic and
 * frame test tables, the verdict table's marks, the count of paced runs,
 * the summary's words, the CSV rows. */
#include "check/body.h"
#include "analysis/verdict.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB 1048576.0

/* A verdict name's rank (enum sm_verdict: not-realtime 0 ... realtime 3), or -1. */
static int vrank(const char *s)
{
	for (int v = 0; s && v < SM_VERDICT_COUNT; v++)
		if (!strcmp(s, sm_verdict_name((enum sm_verdict)v)))
			return v;
	return -1;
}

/* The mark a cell has in the verdict tables (docs/run.md): yes, ~ or no,
 * then * when a paced run decided it, ! when a cliff downgraded it; md
 * escapes the star. */
static const char *mark(const cJSON *cell, int md, char *buf, size_t len)
{
	static const char *const word[SM_VERDICT_COUNT] = { "no", "?", "~", "yes" };
	int v = vrank(ck_str(cell, "verdict")), cliff = 0, stall = 0;
	const cJSON *basis = cJSON_GetObjectItemCaseSensitive(cell, "basis"), *b;
	const char *how = ck_str(cell, "how");

	if (v < 0 || !how)
		return NULL;
	ck_bool(cell, "cliff", &cliff);
	cJSON_ArrayForEach(b, basis)
		stall |= cJSON_IsString(b) && !strcmp(b->valuestring, "stall");
	snprintf(buf, len, "%s%s%s%s", word[v], !strcmp(how, "paced") ? (md ? "\\*" : "*") : "",
		 cliff ? "!" : "", stall ? "#" : "");
	return buf;
}

/* The blank-separated words of the line at p (up to max), for tables whose
 * cells are marks rather than numbers. Returns how many; w[i] point into
 * buf. */
static int words(const char *p, char *buf, size_t len, char **w, int max)
{
	size_t n = strcspn(p, "\n");
	char *save = NULL;
	int k = 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	for (char *t = strtok_r(buf, " |", &save); t && k < max; t = strtok_r(NULL, " |", &save))
		w[k++] = t;
	return k;
}

/* The verdict table (text or markdown): each row's marks against its cells. */
static void marks(struct ck_lay *L, int md)
{
	const cJSON *row;
	const char *at = ck_line(L->text, NULL, md ? "## Real-time verdicts" : "Real-time verdicts");
	const char *next = at ? at + strcspn(at, "\n") : NULL;

	if (!at)
		return;
	/* "none: no frame test fitted ...": the layout shows no table (the
	 * document's cells are then computed from nothing measured) */
	while (next && (*next == '\n' || *next == ' '))
		next++;
	if (next && (!strncmp(next, "none:", 5) || !strncmp(next, "None:", 5)))
		return;
	cJSON_ArrayForEach(row, ck_at(L->doc, "run.verdicts")) {
		const char *fmt = ck_str(row, "format"), *line;
		char label[64], buf[512], *w[64];
		int n, k = 1;

		if (!fmt)
			continue;
		snprintf(label, sizeof(label), md ? "%s |" : "%s ", fmt);
		line = ck_line(L->text, at, label);
		L->c->evaluated++;
		if (!line) {
			sm_check_fail(L->c, "layout.line", "%s verdict table has no row '%s'", L->layout, fmt);
			continue;
		}
		n = words(line, buf, sizeof(buf), w, 64);
		/* w[0] is the MiB per frame; the marks follow, capture then playback */
		for (int d = 0; d < 2; d++) {
			const cJSON *cell;

			cJSON_ArrayForEach(cell, ck_at(row, d ? "playback" : "capture")) {
				char want[16];
				const char *fps = ck_str(cell, "fps");

				if (!mark(cell, md, want, sizeof(want)))
					continue;
				L->c->evaluated++;
				if (k >= n)
					sm_check_fail(L->c, "verdict.marks", "%s verdict table's %s row ends before "
						      "its %s cell at %s fps", L->layout, fmt,
						      d ? "playback" : "capture", fps ? fps : "?");
				else if (strcmp(w[k], want))
					sm_check_fail(L->c, "verdict.marks", "%s verdict table marks %s %s at %s "
						      "fps '%s'; its cell (verdict %s, how %s) is '%s'", L->layout,
						      fmt, d ? "playback" : "capture", fps ? fps : "?", w[k],
						      ck_str(cell, "verdict"), ck_str(cell, "how"), want);
				k++;
			}
		}
	}
}

static const cJSON *find_cell(const cJSON *doc, const char *fmt, int d, const char *fps)
{
	const cJSON *row, *cell;

	cJSON_ArrayForEach(row, ck_at(doc, "run.verdicts")) {
		const char *f = ck_str(row, "format");

		if (!f || strcmp(f, fmt))
			continue;
		cJSON_ArrayForEach(cell, ck_at(row, d ? "playback" : "capture")) {
			const char *r = ck_str(cell, "fps");

			if (r && !strcmp(r, fps))
				return cell;
		}
	}
	return NULL;
}

/* Whether any cell of direction d is real time. */
static int any_realtime(const cJSON *doc, int d)
{
	const cJSON *row, *cell;

	cJSON_ArrayForEach(row, ck_at(doc, "run.verdicts"))
		cJSON_ArrayForEach(cell, ck_at(row, d ? "playback" : "capture"))
			if (vrank(ck_str(cell, "verdict")) == SM_VERDICT_REALTIME)
				return 1;
	return 0;
}

/* The summary's sentence on the best cell of a direction: "It can capture
 * up to F at R fps in real time with at least 20% headroom (N MiB/s
 * needed)", or "cannot ... any ...". The cell it names must be real time
 * by the legend (its sustained rate at least 1.2 x the need) and need what
 * the sentence says. */
void ck_run_summary(const cJSON *doc, const char *where, const char *text, struct sm_check *c)
{
	static const char *const verb[] = { "capture", "play back" };
	char flat[4096];
	size_t k = 0;

	if (!text)
		return;
	/* one paragraph, whatever its wrapping */
	for (const char *p = text; *p && k + 1 < sizeof(flat); p++) {
		if (isspace((unsigned char)*p)) {
			if (k && flat[k - 1] != ' ')
				flat[k++] = ' ';
		} else {
			flat[k++] = *p;
		}
	}
	flat[k] = '\0';
	for (int d = 0; d < 2; d++) {
		char pat[64], fmt[64], fps[16];
		const char *p;
		double need;

		snprintf(pat, sizeof(pat), " can %s up to ", verb[d]);
		if ((p = strstr(flat, pat)) != NULL &&
		    sscanf(p + strlen(pat), "%63s at %15s fps in real time with at least", fmt, fps) == 2) {
			const cJSON *cell = find_cell(doc, fmt, d, fps);
			double meas = 0, needed = 0;   /* the message reads them when the verdict failed first */
			const char *q = strstr(p, "headroom (");

			c->evaluated++;
			if (!cell) {
				sm_check_fail(c, "verdict.words", "%s names %s %s at %s fps, a cell the table "
					      "does not have", where, fmt, d ? "playback" : "capture", fps);
				continue;
			}
			if (vrank(ck_str(cell, "verdict")) != SM_VERDICT_REALTIME ||
			    !ck_num(cell, "measured_bytes_per_s", &meas) ||
			    !ck_num(cell, "needed_bytes_per_s", &needed) ||
			    sm_verdict_compute(meas, needed) != SM_VERDICT_REALTIME)
				sm_check_fail(c, "verdict.words", "%s says %s %s at %s fps holds 'in real time "
					      "with at least %d%% headroom'; its cell is %s with a ratio of %.4f "
					      "(computed %s); how %s", where, fmt, d ? "playback" : "capture", fps,
					      SM_VERDICT_HEADROOM_PCT, ck_str(cell, "verdict"),
					      needed > 0 ? meas / needed : 0, ck_str(cell, "computed"),
					      ck_str(cell, "how"));
			if (q && sscanf(q, "headroom (%lf MiB/s needed)", &need) == 1 &&
			    ck_num(cell, "needed_bytes_per_s", &needed)) {
				struct ck_shown s = { .v = need * MIB, .half = 0.5 * MIB };

				snprintf(s.text, sizeof(s.text), "%.0f MiB/s", need);
				ck_shown_eq(c, "verdict.words", where, &s, "its cell's needed_bytes_per_s",
					    needed);
			}
		}
		/* "Capture of F at R fps is marginal: ..." (or "held with little
		 * headroom"): the highest marginal cell, in its mark's words */
		snprintf(pat, sizeof(pat), "%s of ", d ? "Playback" : "Capture");
		if ((p = strstr(flat, pat)) != NULL &&
		    sscanf(p + strlen(pat), "%63s at %15s fps is", fmt, fps) == 2) {
			const cJSON *cell = find_cell(doc, fmt, d, fps);
			const char *w = strstr(p, " fps is "), *how = cell ? ck_str(cell, "how") : NULL;
			int v = cell ? vrank(ck_str(cell, "verdict")) : -1;
			int want_v = -1, want_paced = -1;

			w = w ? w + 8 : "";
			if (!strncmp(w, "marginal", 8))
				want_v = SM_VERDICT_MARGINAL, want_paced = 0;
			else if (!strncmp(w, "held with little headroom", 25))
				want_v = SM_VERDICT_MARGINAL, want_paced = 1;
			else if (!strncmp(w, "real time", 9))
				want_v = SM_VERDICT_REALTIME;
			else if (!strncmp(w, "not real time", 13))
				want_v = SM_VERDICT_NOT_REALTIME;
			c->evaluated++;
			if (!cell || !how)
				sm_check_fail(c, "verdict.words", "%s names %s %s at %s fps, a cell the table "
					      "does not have", where, fmt, d ? "playback" : "capture", fps);
			else if (want_v >= 0 && (v != want_v ||
						 (want_paced >= 0 && want_paced != !strcmp(how, "paced"))))
				sm_check_fail(c, "verdict.words", "%s says %s %s at %s fps is '%.30s'; its "
					      "cell is %s, how %s", where, fmt, d ? "playback" : "capture", fps,
					      w, ck_str(cell, "verdict"), how);
		}
		snprintf(pat, sizeof(pat), " cannot %s any of the ", verb[d]);
		if (strstr(flat, pat)) {
			c->evaluated++;
			if (any_realtime(doc, d))
				sm_check_fail(c, "verdict.words", "%s says it cannot %s any format with "
					      "headroom, yet a %s cell is realtime", where, verb[d],
					      d ? "playback" : "capture");
		}
	}
}

/* The Summary paragraph of a text layout: from its heading to a blank line. */
static void summary(struct ck_lay *L, int md)
{
	const char *p = ck_line(L->text, NULL, md ? "## Summary" : "Summary");
	char buf[4096], where[64];
	size_t k = 0;

	if (!p || !(p = strchr(p, '\n')))
		return;
	while (*++p == '\n')
		;
	while (*p && k + 1 < sizeof(buf) && !(p[0] == '\n' && p[1] == '\n'))
		buf[k++] = *p++;
	buf[k] = '\0';
	snprintf(where, sizeof(where), "%s Summary", L->layout);
	ck_run_summary(L->doc, where, buf, L->c);
}

/* The classic table: per test, read and write MiB/s, IOPS, p99. */
static void classic(struct ck_lay *L, int md)
{
	const cJSON *t;
	int i = 0;

	cJSON_ArrayForEach(t, ck_at(L->doc, "run.classic")) {
		const char *name = ck_str(t, "test");
		struct ck_shown s[8];
		char label[64];
		int n;

		if (!name)
			continue;
		snprintf(label, sizeof(label), md ? "%s |" : "%s ", name);
		n = ck_lay_nums(L, NULL, label, 0, s, 8, NULL);
		/* "seq 1 MiB QD8": the label's own figures are not in s (after it) */
		for (int w = 0; w < 2 && n >= 3 * (w + 1); w++) {
			char p[96];
			const char *dir = w ? "write" : "read";

			snprintf(p, sizeof(p), "run.classic.%d.%s.bytes_per_s", i, dir);
			ck_lay_path(L, label, &s[3 * w], p, 1 / MIB);
			snprintf(p, sizeof(p), "run.classic.%d.%s.iops", i, dir);
			ck_lay_path(L, label, &s[3 * w + 1], p, 1);
			snprintf(p, sizeof(p), "run.classic.%d.%s.op.lat_ns.p99", i, dir);
			ck_lay_path(L, label, &s[3 * w + 2], p, 1);
		}
		i++;
	}
}

/* The frame test table: per size and direction fps, MiB/s, p50..max. */
static void frame_tests(struct ck_lay *L, int md)
{
	const char *head = ck_line(L->text, NULL, md ? "## Frame tests" : "Frame tests");
	const cJSON *t;
	int i = 0;

	cJSON_ArrayForEach(t, ck_at(L->doc, "run.frames")) {
		const char *preset = ck_str(t, "preset"), *at = head;
		double fb;

		if (!preset || !ck_num(t, "frame_bytes", &fb) || !head)
			continue;
		for (int w = 0; w < 2; w++) {
			static const char *const q[] = { "p50", "p99", "p99_9", "max" };
			const char *dir = w ? "read" : "write";
			struct ck_shown s[8];
			char p[96], label[64];
			int n;

			/* text: the size labels the write row, the read row is the
			 * next "read" line; markdown labels both */
			if (md)
				snprintf(label, sizeof(label), "%s %.0f KiB | %s |", preset, fb / 1024, dir);
			else if (!w)
				snprintf(label, sizeof(label), "%s %.0f KiB ", preset, fb / 1024);
			else
				snprintf(label, sizeof(label), "read ");
			n = ck_lay_nums(L, at, label, 0, s, 8, &at);
			if (!at) {
				at = head;
				continue;
			}
			if (n < 6)
				continue;
			snprintf(p, sizeof(p), "run.frames.%d.%s.fps", i, dir);
			ck_lay_path(L, label, &s[0], p, 1);
			snprintf(p, sizeof(p), "run.frames.%d.%s.bytes_per_s", i, dir);
			ck_lay_path(L, label, &s[1], p, 1 / MIB);
			for (int k = 0; k < 4; k++) {
				snprintf(p, sizeof(p), "run.frames.%d.%s.frame_ns.%s", i, dir, q[k]);
				ck_lay_path(L, label, &s[2 + k], p, 1);
			}
		}
		i++;
	}
}

/* text with every run of blanks and line breaks made one blank (a wrapped
 * paragraph read as one line) into buf. */
static void flatten(const char *text, char *buf, size_t len)
{
	size_t k = 0;

	for (const char *p = text; p && *p && k + 1 < len; p++) {
		if (isspace((unsigned char)*p)) {
			if (k && buf[k - 1] != ' ')
				buf[k++] = ' ';
		} else {
			buf[k++] = *p;
		}
	}
	buf[k] = '\0';
}

/* The whole number ending just before at in flat (a blank between), or -1. */
static double number_before(const char *flat, const char *at)
{
	const char *q = at;

	while (q > flat && isdigit((unsigned char)q[-1]))
		q--;
	if (q == at || (q > flat && q[-1] != ' '))
		return -1;
	return strtod(q, NULL);
}

static void paced_note(struct ck_lay *L, const char *flat);

/* The note under the verdict table (docs/run.md): "N paced run(s) of A s
 * (F frames) ...; M near-limit verdicts left as computed", wrapped as the
 * layout wraps it. Its counts are the run's; its span of seconds and of
 * frames is that of the paced runs the cells carry. */
static void counts(struct ck_lay *L)
{
	const char *at = ck_line(L->text, NULL, !strcmp(L->layout, "markdown") ? "## Real-time verdicts" :
				 "Real-time verdicts");
	char *flat;

	if (!at || !(flat = malloc(strlen(at) + 1)))
		return;
	flatten(at, flat, strlen(at) + 1);
	paced_note(L, flat);
	free(flat);
}

/* counts()'s work on the flattened text from the verdicts' heading on. */
static void paced_note(struct ck_lay *L, const char *flat)
{
	const char *p, *q;
	struct ck_shown s = { .half = 0.5 }, sp[6];
	double v, lo = -1, hi = -1, flo = -1, fhi = -1;
	const cJSON *row, *cell;

	/* M near-limit verdicts left as computed */
	if ((p = strstr(flat, " near-limit verdict")) && (q = strstr(p, "left as computed")) &&
	    q - p < 40 && (v = number_before(flat, p)) >= 0) {
		s.v = v;
		snprintf(s.text, sizeof(s.text), "%.0f", v);
		ck_lay_path(L, "M near-limit verdicts left as computed", &s, "run.near_limit_unconfirmed", 1);
	}
	/* N paced runs [of A s (F frames)] */
	for (p = strstr(flat, " paced run"); p; p = strstr(p + 1, " paced run"))
		if ((v = number_before(flat, p)) >= 0)
			break;
	if (!p)
		return;
	s.v = v;
	snprintf(s.text, sizeof(s.text), "%.0f", v);
	ck_lay_path(L, "N paced runs", &s, "run.paced_runs", 1);
	p += strlen(" paced run");
	p += *p == 's';
	if (strncmp(p, " of ", 4) || ck_numbers(p + 4, sp, 6) < 2)
		return;
	cJSON_ArrayForEach(row, ck_at(L->doc, "run.verdicts"))
		for (int d = 0; d < 2; d++)
			cJSON_ArrayForEach(cell, ck_at(row, d ? "playback" : "capture")) {
				double len, fr;

				if (!ck_num(cell, "paced.length_ns", &len) || !ck_num(cell, "paced.scheduled", &fr))
					continue;
				lo = lo < 0 || len < lo ? len : lo;
				hi = len > hi ? len : hi;
				flo = flo < 0 || fr < flo ? fr : flo;
				fhi = fr > fhi ? fr : fhi;
			}
	if (lo < 0)
		return;
	/* "2.1 s (51 to 63 frames)" or "1.0 to 2.1 s (24 to 51 frames)" */
	if (sp[0].unit) {
		ck_lay_val(L, "paced runs of (s)", &sp[0], "the paced runs' length_ns", lo);
		ck_lay_val(L, "paced runs of (s)", &sp[0], "the paced runs' length_ns", hi);
		sp[0] = sp[1];
		memmove(&sp[1], &sp[2], sizeof(sp[0]) * 4);
	} else {
		sp[0].v *= 1e9;
		sp[0].half *= 1e9;
		ck_lay_val(L, "paced runs of (s)", &sp[0], "the shortest paced run's length_ns", lo);
		ck_lay_val(L, "paced runs of (s)", &sp[1], "the longest paced run's length_ns", hi);
		memmove(&sp[0], &sp[2], sizeof(sp[0]) * 4);
	}
	ck_lay_val(L, "paced runs of (frames)", &sp[0], "the fewest frames a paced run scheduled", flo);
	if (flo != fhi)
		ck_lay_val(L, "paced runs of (frames)", &sp[1], "the most frames a paced run scheduled", fhi);
}

static void csv(struct ck_lay *L)
{
	const cJSON *t, *row, *cell;
	int i = 0;

	cJSON_ArrayForEach(t, ck_at(L->doc, "run.classic")) {
		for (int w = 0; w < 2; w++) {
			const char *k[3] = { "classic", ck_str(t, "test"), w ? "write" : "read" };
			const char *line;
			struct ck_shown s;
			char p[96], label[64];

			if (!k[1] || !(line = ck_csv_row(L->text, k, 3)))
				continue;
			snprintf(label, sizeof(label), "classic %s %s", k[1], k[2]);
			snprintf(p, sizeof(p), "run.classic.%d.%s.bytes_per_s", i, k[2]);
			if (ck_csv_get(L->text, line, "bytes_per_s", &s) == 1)
				ck_lay_path(L, label, &s, p, 1);
			snprintf(p, sizeof(p), "run.classic.%d.%s.iops", i, k[2]);
			if (ck_csv_get(L->text, line, "iops", &s) == 1)
				ck_lay_path(L, label, &s, p, 1);
			snprintf(p, sizeof(p), "run.classic.%d.%s.op.lat_ns.p99", i, k[2]);
			if (ck_csv_get(L->text, line, "p99_ns", &s) == 1)
				ck_lay_path(L, label, &s, p, 1);
		}
		i++;
	}
	i = 0;
	cJSON_ArrayForEach(t, ck_at(L->doc, "run.frames")) {
		for (int w = 0; w < 2; w++) {
			static const char *const cols[] = { "fps", "bytes_per_s", "p50_ns", "p99_ns",
							    "p99_9_ns", "max_ns" };
			static const char *const keys[] = { "fps", "bytes_per_s", "frame_ns.p50",
							    "frame_ns.p99", "frame_ns.p99_9", "frame_ns.max" };
			const char *k[3] = { "frames", ck_str(t, "preset"), w ? "read" : "write" };
			const char *line;

			if (!k[1] || !(line = ck_csv_row(L->text, k, 3)))
				continue;
			for (int c = 0; c < 6; c++) {
				struct ck_shown s;
				char p[96], label[64];

				snprintf(label, sizeof(label), "frames %s %s' %s", k[1], k[2], cols[c]);
				snprintf(p, sizeof(p), "run.frames.%d.%s.%s", i, k[2], keys[c]);
				if (ck_csv_get(L->text, line, cols[c], &s) == 1)
					ck_lay_path(L, label, &s, p, 1);
			}
		}
		i++;
	}
	cJSON_ArrayForEach(row, ck_at(L->doc, "run.verdicts")) {
		for (int d = 0; d < 2; d++) {
			cJSON_ArrayForEach(cell, ck_at(row, d ? "playback" : "capture")) {
				const char *k[4] = { "verdict", ck_str(row, "format"), d ? "playback" : "capture",
						     ck_str(cell, "fps") };
				const char *line, *v = ck_str(cell, "verdict"), *how = ck_str(cell, "how");
				struct ck_shown s;
				char label[96], got[32];
				double x;

				if (!k[1] || !k[3] || !(line = ck_csv_row(L->text, k, 4)))
					continue;
				snprintf(label, sizeof(label), "verdict %s %s %s", k[1], k[2], k[3]);
				if (ck_csv_get(L->text, line, "bytes_per_s", &s) == 1 &&
				    ck_num(cell, "measured_bytes_per_s", &x))
					ck_lay_val(L, label, &s, "its measured_bytes_per_s", x);
				if (ck_csv_get(L->text, line, "needed_bytes_per_s", &s) == 1 &&
				    ck_num(cell, "needed_bytes_per_s", &x))
					ck_lay_val(L, label, &s, "its needed_bytes_per_s", x);
				L->c->evaluated++;
				if (v && how && (!ck_csv_str(L->text, line, "verdict", got, sizeof(got)) ||
						 strcmp(got, v)))
					sm_check_fail(L->c, "verdict.marks", "csv '%s' says %s, its cell's "
						      "verdict is %s", label, got, v);
				if (v && how && (!ck_csv_str(L->text, line, "how", got, sizeof(got)) ||
						 strcmp(got, how)))
					sm_check_fail(L->c, "verdict.marks", "csv '%s' how is %s, its cell's "
						      "how is %s", label, got, how);
			}
		}
	}
}

void ck_lay_run(struct ck_lay *L)
{
	int md = !strcmp(L->layout, "markdown");

	if (!strcmp(L->layout, "csv")) {
		csv(L);
		return;
	}
	classic(L, md);
	frame_tests(L, md);
	marks(L, md);
	counts(L);
	summary(L, md);
}
