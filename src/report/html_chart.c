/* SPDX-License-Identifier: MIT */
/* The inline-SVG charts of the HTML reports (html_page.h); the page around
 * them is html_page.c. A chart's size is bounded by its pixel columns, not
 * by the length of the run. */
#include "report/html_page.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/units.h"

/*
 * Every chart's viewBox is VW x VH, drawn 100% wide: the plot area is
 * PX0..PX0 + PW by PY0..PB; above it a band holds the legend and the
 * marks' labels, left of it the y labels and title, under it the x labels
 * and title, so no label lies on the data. The page's style sets the text
 * size in viewBox units by window width (11 to 21 units: style[] in
 * html_page.c), so that a label is drawn at least 10 CSS px tall however
 * narrow the window (under 490 px the chart keeps 457 px and scrolls in its own box);
 * offsets that follow the text size are in em, and the labels are spaced
 * for the largest size (FS_MAX, CH_W a character's width in it).
 */
#define VW 960
#define VH 348
#define PX0 100.0
#define PY0 32.0
#define PW 844.0
#define PH 253.0
#define PB (PY0 + PH)
#define NCOLS 422                /* pixel columns summarised: 2 px each */
#define HCOLS 140                /* histogram bars: 6 px each */
#define FS_MAX 21.0
#define CH_W (FS_MAX * 0.64)

static const char *const colour[SM_HTML_MAXLINES] = { "#1f6feb", "#e8590c", "#2f9e44" };

/* A step of 1, 2 or 5 x 10^k giving about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The width a label of n characters may take at the largest text size. */
static double text_w(size_t n)
{
	return (double)n * CH_W;
}

static void fig_begin(FILE *f, const char *id, const char *kind, const char *title)
{
	fprintf(f, "<figure class=\"chart\" id=\"%s\" data-kind=\"%s\"><figcaption>", id, kind);
	sm_html_text(f, title);
	fprintf(f, "</figcaption>\n<svg viewBox=\"0 0 %d %d\" role=\"img\">\n", VW, VH);
}

static void fig_end(FILE *f)
{
	fputs("</svg></figure>\n", f);
}

/* A chart with nothing to draw is a sentence, not an empty frame. */
static void empty_chart(FILE *f, const char *id, const char *kind, const char *title,
			const char *why)
{
	fprintf(f, "<figure class=\"chart\" id=\"%s\" data-kind=\"%s\"><figcaption>", id, kind);
	sm_html_text(f, title);
	fputs("</figcaption>\n<p class=\"muted empty\">", f);
	sm_html_text(f, why);
	fputs("</p></figure>\n", f);
}

/* A label under the x axis at x: centred on its tick, or ending (starting)
 * there when it would run past the plot's right (left) edge. */
static const char *x_anchor(double x, size_t len)
{
	return x - text_w(len) / 2 < PX0 - 4 ? "start" : x + text_w(len) / 2 > VW - 4 ? "end" : "middle";
}

static double anchor_left(double x, size_t len, const char *anchor)
{
	return anchor[0] == 's' ? x : anchor[0] == 'e' ? x - text_w(len) : x - text_w(len) / 2;
}

/* A tick under the axis at x and, when it clears the label drawn before
 * (*right: that label's right end), its label. */
static void x_tick(FILE *f, double x, const char *label, double *right)
{
	size_t len = strlen(label);
	const char *anchor = x_anchor(x, len);
	double left = anchor_left(x, len, anchor);

	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>", x, x, PB,
		PB + 4);
	if (left < *right + 8) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" dy=\"0.95em\" text-anchor=\"%s\">", x, PB + 4, anchor);
	sm_html_text(f, label);
	fputs("</text>\n", f);
	*right = left + text_w(len);
}

/* A y label: short enough for the room left of the plot (5 characters),
 * 10000 and above as 10k, 2.5M, 1G. */
static const char *y_text(char *buf, size_t len, double v)
{
	static const char sfx[] = "kMGTP";
	int k = -1;

	while (v >= 10000 && k < 4) {
		v /= 1000;
		k++;
	}
	if (k < 0)
		snprintf(buf, len, "%g", v);
	else
		snprintf(buf, len, "%g%c", v, sfx[k]);
	return buf;
}

/* Linear y axis 0..ymax with grid and labels (left of the plot), the y
 * title turned along the left edge. */
/* A y title (in a buffer of len) whose time unit ends it, changed in place
 * to the unit a thousand times smaller ("seconds" -> "ms", "frame time
 * (ms)" -> "frame time (us)"): 1, or 0 when it ends in no time unit. */
static int y_smaller_unit(char *title, size_t len)
{
	static const char *const unit[][2] = {
		{ "seconds", "ms" }, { "(ms)", "(us)" }, { "ms", "us" }, { "(us)", "(ns)" }, { "us", "ns" },
	};
	size_t n = strlen(title);

	for (size_t i = 0; i < sizeof(unit) / sizeof(unit[0]); i++) {
		size_t u = strlen(unit[i][0]);

		if (n >= u && !strcmp(title + n - u, unit[i][0]) && n - u + strlen(unit[i][1]) < len) {
			memcpy(title + (n - u), unit[i][1], strlen(unit[i][1]) + 1);
			return 1;
		}
	}
	return 0;
}

/* Linear y axis 0..ymax with grid and labels (left of the plot), the y
 * title turned along the left edge. Ticks finer than 0.01 of a time unit
 * (0.0015 seconds: six characters, wider than the room) are given in the
 * unit a thousand times smaller, and the title says so. */
static void y_axis(FILE *f, double ymax, const char *ylabel)
{
	double step = nice_step(ymax, 5), scale = 1;
	char b[32], title[64];

	snprintf(title, sizeof(title), "%s", ylabel);
	while (step * scale < 0.01 && y_smaller_unit(title, sizeof(title)))
		scale *= 1000;
	for (double v = 0; v <= ymax * 1.0001; v += step) {
		double y = PB - v / ymax * PH;

		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e7eb\"/>"
			   "<text x=\"%.0f\" y=\"%.1f\" dy=\"0.35em\" text-anchor=\"end\">%s</text>\n",
			PX0, PX0 + PW, y, y, PX0 - 6, y, y_text(b, sizeof(b), v * scale));
	}
	fprintf(f, "<text transform=\"translate(0 %.0f) rotate(-90)\" dy=\"0.95em\" "
		   "text-anchor=\"middle\">", PY0 + PH / 2);
	sm_html_text(f, title);
	fputs("</text>\n", f);
}

static void x_title(FILE *f, const char *xlabel)
{
	fprintf(f, "<text x=\"%.0f\" y=\"%d\" dy=\"-0.3em\" text-anchor=\"middle\">", PX0 + PW / 2, VH);
	sm_html_text(f, xlabel);
	fputs("</text>\n", f);
}

static void frame_box(FILE *f)
{
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		   "stroke=\"#999\"/>\n", PX0, PY0, PW, PH);
}

/* Linear x axis x0..x1: ticks and labels, as many as fit side by side at
 * the largest text size. */
static void x_axis(FILE *f, double x0, double x1)
{
	double step = 0, right = -1e9;
	char b[32];

	for (int n = 8; n >= 1; n--) {
		size_t widest = 0;

		step = nice_step(x1 - x0, n);
		for (double v = ceil(x0 / step) * step; v <= x1 * 1.0001; v += step) {
			size_t len = (size_t)snprintf(b, sizeof(b), "%g", v);

			widest = len > widest ? len : widest;
		}
		if (step / (x1 - x0) * PW >= text_w(widest) + 10)
			break;
	}
	for (double v = ceil(x0 / step) * step; v <= x1 * 1.0001; v += step) {
		snprintf(b, sizeof(b), "%g", v);
		x_tick(f, PX0 + (v - x0) / (x1 - x0) * PW, b, &right);
	}
}

struct band {
	double lo, hi, sum, w;
};

/*
 * Draw n points (x[i], lo[i]..hi[i], mean mid[i] of weight w[i], NULL = 1)
 * as a min-max band and a mean line, one value per pixel column where
 * points are denser than that. x0..x1 and 0..ymax are the axes. step: each
 * point is a figure over the interval since the point before (drawn as a
 * step over that interval, however long: a partial last interval is as
 * wide as it lasted) rather than at its x.
 */
static void draw_band(FILE *f, size_t n, const double *x, const double *lo, const double *hi,
		      const double *mid, const double *w, double x0, double x1, double ymax,
		      const char *col, int step)
{
	struct band b[NCOLS];
	int dense = n > NCOLS / 2, any = 0;
	double xs = PW / (x1 - x0), ys = PH / ymax;

	if (!dense && step) {
		/* a rate over the interval that ends at x[i]: a step from the
		 * previous sample (the axis' start for the first) */
		fprintf(f, "<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			   "points=\"", col);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%.1f,%.1f %.1f,%.1f ", PX0 + ((i ? x[i - 1] : x0) - x0) * xs,
				PB - mid[i] * ys, PX0 + (x[i] - x0) * xs, PB - mid[i] * ys);
		fputs("\"/>\n", f);
		return;
	}
	if (!dense) {
		fprintf(f, "<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			   "points=\"", col);
		for (size_t i = 0; i < n; i++)
			if (!w || w[i] > 0)
				fprintf(f, "%.1f,%.1f ", PX0 + (x[i] - x0) * xs, PB - mid[i] * ys);
		fputs("\"/>\n", f);
		for (size_t i = 0; i < n && n <= 60; i++)
			if (!w || w[i] > 0)
				fprintf(f, "<circle class=\"data\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				PX0 + (x[i] - x0) * xs, PB - mid[i] * ys, col);
		return;
	}
	memset(b, 0, sizeof(b));
	for (size_t i = 0; i < n; i++) {
		double p = (x[i] - x0) / (x1 - x0) * NCOLS, wi = w ? w[i] : 1;
		int c = p < 0 ? 0 : p >= NCOLS ? NCOLS - 1 : (int)p;

		if (wi <= 0)
			continue;
		if (b[c].w == 0 || lo[i] < b[c].lo)
			b[c].lo = lo[i];
		if (b[c].w == 0 || hi[i] > b[c].hi)
			b[c].hi = hi[i];
		b[c].sum += mid[i] * wi;
		b[c].w += wi;
	}
	/* the band: along the maxima, back along the minima */
	fprintf(f, "<path class=\"data\" fill=\"%s\" fill-opacity=\"0.3\" stroke=\"none\" d=\"", col);
	for (int c = 0; c < NCOLS; c++)
		if (b[c].w > 0)
			fprintf(f, "%c%.1f,%.1f ", any++ ? 'L' : 'M', PX0 + (c + 0.5) * PW / NCOLS,
				PB - b[c].hi * ys);
	for (int c = NCOLS - 1; c >= 0; c--)
		if (b[c].w > 0)
			fprintf(f, "L%.1f,%.1f ", PX0 + (c + 0.5) * PW / NCOLS, PB - b[c].lo * ys);
	fprintf(f, "Z\"/>\n<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
		   "points=\"", col);
	for (int c = 0; c < NCOLS; c++)
		if (b[c].w > 0)
			fprintf(f, "%.1f,%.1f ", PX0 + (c + 0.5) * PW / NCOLS,
				PB - b[c].sum / b[c].w * ys);
	fputs("\"/>\n", f);
}

/* The band above the plot: the legend (a coloured square and a name per
 * line or bar, when there are 2 or more) then note (NULL: none), on one
 * line, so that no label lies on the data. */
static void top_band(FILE *f, unsigned n, const char *const *name, const char *note)
{
	if (n < 2 && !(note && note[0]))
		return;
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", PX0, PY0 - 10);
	for (unsigned k = 0; k < n && n > 1; k++) {
		fprintf(f, "<tspan%s fill=\"%s\">&#9632;</tspan> ", k ? " dx=\"0.8em\"" : "", colour[k]);
		sm_html_text(f, name[k]);
	}
	if (note && note[0]) {
		fprintf(f, "<tspan%s>", n > 1 ? " dx=\"0.8em\"" : "");
		sm_html_text(f, note);
		fputs("</tspan>", f);
	}
	fputs("</text>\n", f);
}

/* A dashed vertical marker at x (viewBox units) across the plot; its
 * label (NULL: none) at the right end of the band above the plot. */
static void vmark(FILE *f, double x, const char *label, const char *dash)
{
	fprintf(f, "<line class=\"mark\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" "
		   "stroke=\"#444\" stroke-dasharray=\"%s\"/>", x, x, PY0, PB, dash);
	if (label) {
		fprintf(f, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"end\">", VW - 4, PY0 - 10);
		sm_html_text(f, label);
		fputs("</text>", f);
	}
	fputc('\n', f);
}

void sm_html_chart_xy(FILE *f, const struct sm_html_xy *c)
{
	double x0, x1, ymax = 0;

	if (!c->n) {
		empty_chart(f, c->id, "xy", c->title, "No samples in this result: nothing to chart.");
		return;
	}
	fig_begin(f, c->id, "xy", c->title);
	x0 = c->x[0] < 0 ? c->x[0] : 0;
	x1 = c->x[c->n - 1] > x0 ? c->x[c->n - 1] : x0 + 1;
	for (unsigned k = 0; k < c->nlines; k++)
		for (size_t i = 0; i < c->n; i++)
			if (c->y[k][i] > ymax)
				ymax = c->y[k][i];
	ymax = ymax > 0 ? ymax * 1.08 : 1;
	y_axis(f, ymax, c->ylabel);
	x_axis(f, x0, x1);
	frame_box(f);
	for (unsigned i = 0; i < c->nspans; i++) {
		double a = c->span_from[i] < x0 ? x0 : c->span_from[i];
		double b = c->span_to[i] > x1 ? x1 : c->span_to[i];

		if (b <= a)
			continue;
		fprintf(f, "<rect class=\"stall\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
			   "height=\"%.0f\" fill=\"#c33\" fill-opacity=\"0.2\"><title>stall: "
			   "nothing completed for %.2f s from %.2f s</title></rect>\n",
			PX0 + (a - x0) / (x1 - x0) * PW, PY0, (b - a) / (x1 - x0) * PW, PB - PY0,
			c->span_to[i] - c->span_from[i], c->span_from[i]);
	}
	for (unsigned k = 0; k < c->nlines; k++)
		draw_band(f, c->n, c->x, c->y[k], c->y[k], c->y[k], NULL, x0, x1, ymax, colour[k], 1);
	top_band(f, c->nlines, c->name, NULL);
	if (c->mark_label && c->mark_x >= x0 && c->mark_x <= x1)
		vmark(f, PX0 + (c->mark_x - x0) / (x1 - x0) * PW, c->mark_label, "4 3");
	x_title(f, c->xlabel);
	fig_end(f);
}

void sm_html_chart_hist(FILE *f, const char *id, const char *title, const struct sm_hist *h)
{
	static const double pct[] = { 50, 99, 99.9 };
	static const char *const pname[] = { "p50", "p99", "p99.9" };
	double cnt[HCOLS];
	double lx0, lx1, cmax = 0, right = -1e9;
	char a[32], note[160];
	size_t pos;

	if (!h->count) {
		empty_chart(f, id, "histogram", title, "No operations of this kind: nothing to chart.");
		return;
	}
	fig_begin(f, id, "histogram", title);
	lx0 = floor(log10(h->min > 0 ? (double)h->min : 1));
	lx1 = ceil(log10((double)h->max + 1));
	if (lx1 <= lx0)
		lx1 = lx0 + 1;
	memset(cnt, 0, sizeof(cnt));
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		double v, p;
		int c;

		if (!h->buckets[i])
			continue;
		v = sm_hist_bucket_mid(i);
		p = (log10(v > 1 ? v : 1) - lx0) / (lx1 - lx0) * HCOLS;
		c = p < 0 ? 0 : p >= HCOLS ? HCOLS - 1 : (int)p;
		cnt[c] += (double)h->buckets[i];
		if (cnt[c] > cmax)
			cmax = cnt[c];
	}
	y_axis(f, cmax * 1.08, "operations");
	for (double d = lx0; d <= lx1; d++)
		x_tick(f, PX0 + (d - lx0) / (lx1 - lx0) * PW, sm_fmt_ns(a, sizeof(a), pow(10, d)), &right);
	frame_box(f);
	fprintf(f, "<path class=\"data\" fill=\"%s\" d=\"", colour[0]);
	for (int c = 0; c < HCOLS; c++) {
		double ht = cnt[c] / (cmax * 1.08) * PH;

		if (cnt[c] <= 0)
			continue;
		if (ht < 1)
			ht = 1;
		fprintf(f, "M%.1f,%.1fh%.1fv%.1fh%.1fz", PX0 + c * PW / HCOLS, PB, PW / HCOLS, -ht,
			-PW / HCOLS);
	}
	fputs("\"/>\n", f);
	pos = (size_t)snprintf(note, sizeof(note), "dashed, left to right:");
	for (int k = 0; k < 3; k++) {
		double v = (double)sm_hist_percentile(h, pct[k]);
		double x = PX0 + (log10(v > 1 ? v : 1) - lx0) / (lx1 - lx0) * PW;

		vmark(f, x, NULL, "4 3");
		if (pos < sizeof(note))
			pos += (size_t)snprintf(note + pos, sizeof(note) - pos, "%s %s %s", k ? "," : "",
						pname[k], sm_fmt_ns(a, sizeof(a), v));
	}
	top_band(f, 0, NULL, note);
	x_title(f, "latency (log scale)");
	fig_end(f);
}

void sm_html_chart_frames(FILE *f, const char *id, const char *title, const struct sm_framemap *m,
			  int sched, double limit_ns, const char *limit_label)
{
	double x[SM_FRAMEMAP_COLS], lo[SM_FRAMEMAP_COLS], hi[SM_FRAMEMAP_COLS],
		mid[SM_FRAMEMAP_COLS], w[SM_FRAMEMAP_COLS];
	double x1 = (double)m->ncols * (double)m->width, ymax = 0;
	uint64_t dropped = 0;
	char note[200];

	if (!m->ncols) {
		empty_chart(f, id, "frames", title, "This result has no per-frame series (it was written "
			    "by an older stormark): nothing to chart.");
		return;
	}
	fig_begin(f, id, "frames", title);
	for (unsigned i = 0; i < m->ncols; i++) {
		const struct sm_framemap_col *c = &m->col[i];
		uint64_t n = sched ? c->sched_frames : c->frames;

		x[i] = ((double)i + 0.5) * (double)m->width;
		w[i] = (double)n;
		lo[i] = n ? (double)(sched ? c->sched_min_ns : c->min_ns) / 1e6 : 0;
		hi[i] = n ? (double)(sched ? c->sched_max_ns : c->max_ns) / 1e6 : 0;
		mid[i] = n ? (double)(sched ? c->sched_sum_ns : c->sum_ns) / (double)n / 1e6 : 0;
		if (hi[i] > ymax)
			ymax = hi[i];
		dropped += c->dropped;
	}
	if (limit_ns / 1e6 > ymax)
		ymax = limit_ns / 1e6;
	ymax = ymax > 0 ? ymax * 1.08 : 1;
	y_axis(f, ymax, sched ? "from schedule (ms)" : "frame time (ms)");
	x_axis(f, 0, x1);
	frame_box(f);
	draw_band(f, m->ncols, x, lo, hi, mid, w, 0, x1, ymax, colour[0], 0);
	note[0] = '\0';
	if (limit_ns > 0) {
		double y = PB - limit_ns / 1e6 / ymax * PH;

		fprintf(f, "<line class=\"mark\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#444\" stroke-dasharray=\"6 3\"/>\n", PX0, PX0 + PW, y, y);
		snprintf(note, sizeof(note), "dashed: %s", limit_label);
	}
	if (dropped) {
		size_t pos = strlen(note);

		fputs("<path class=\"drops\" stroke=\"#c92a2a\" stroke-width=\"3\" d=\"", f);
		for (unsigned i = 0; i < m->ncols; i++)
			if (m->col[i].dropped)
				fprintf(f, "M%.1f,%.0fv-12", PX0 + x[i] / x1 * PW, PB);
		fputs("\"/>\n", f);
		snprintf(note + pos, sizeof(note) - pos, "%s%llu dropped (red ticks)", pos ? "; " : "",
			 (unsigned long long)dropped);
	}
	top_band(f, 0, NULL, note);
	x_title(f, m->width > 1 ? "frame (transfer number; a column summarises several)"
				: "frame (transfer number)");
	fig_end(f);
}

void sm_html_chart_bars(FILE *f, const char *id, const char *title, const char *ylabel, size_t n,
			const char *const *labels, unsigned nbars, const double *const *v,
			const char *const *name)
{
	sm_html_chart_bars_x(f, id, title, "run", ylabel, n, labels, nbars, v, name);
}

void sm_html_chart_bars_x(FILE *f, const char *id, const char *title, const char *xlabel,
			  const char *ylabel, size_t n, const char *const *labels, unsigned nbars,
			  const double *const *v, const char *const *name)
{
	struct sm_html_bars b = { 0 };

	b.id = id;
	b.title = title;
	b.xlabel = xlabel;
	b.ylabel = ylabel;
	b.n = n;
	b.labels = labels;
	b.nbars = nbars > 2 ? 2 : nbars;
	for (unsigned k = 0; k < b.nbars; k++) {
		b.v[k] = v[k];
		b.name[k] = name[k];
	}
	sm_html_chart_bars_s(f, &b);
}

void sm_html_chart_bars_s(FILE *f, const struct sm_html_bars *c)
{
	double ymax = 0, gw, bw, right = -1e9;
	size_t widest = 0;
	int numbered;
	char num[24];

	if (!c->n) {
		empty_chart(f, c->id, "bars", c->title, c->empty ? c->empty : "No runs in this result: "
			    "nothing to chart.");
		return;
	}
	fig_begin(f, c->id, "bars", c->title);
	for (unsigned k = 0; k < c->nbars; k++)
		for (size_t i = 0; i < c->n; i++) {
			double top = c->v[k][i] + (c->spread[k] && c->spread[k][i] > 0 ? c->spread[k][i] : 0);

			if (top > ymax)
				ymax = top;
		}
	ymax = ymax > 0 ? ymax * 1.08 : 1;
	y_axis(f, ymax, c->ylabel);
	frame_box(f);
	gw = PW / (double)c->n;
	bw = gw * 0.8 / c->nbars;
	/* labels wider than a group are numbered, the numbers explained
	 * under the chart */
	for (size_t i = 0; i < c->n; i++)
		widest = strlen(c->labels[i]) > widest ? strlen(c->labels[i]) : widest;
	numbered = text_w(widest) + 8 > gw && widest > 3;
	for (size_t i = 0; i < c->n; i++) {
		double gx = PX0 + i * gw + gw * 0.1;

		for (unsigned k = 0; k < c->nbars; k++) {
			double val = c->v[k][i], ht, sd;

			if (val < 0) {
				/* not measured: said in the bar's place when it fits */
				if (bw >= text_w(3) + 2)
					fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" dy=\"-0.3em\" "
						   "text-anchor=\"middle\">n/a</text>\n", gx + (k + 0.5) * bw, PB);
				continue;
			}
			ht = val > 0 ? val / ymax * PH : 0;
			fprintf(f, "<rect class=\"data\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"%s\"><title>", gx + k * bw, PB - (ht < 1 ? 1 : ht),
				bw > 1 ? bw - 0.5 : 1, ht < 1 ? 1 : ht, colour[k]);
			sm_html_printf(f, "%s %s: %g", c->labels[i], c->name[k], val);
			sd = c->spread[k] ? c->spread[k][i] : 0;
			if (sd > 0)
				sm_html_printf(f, " (%s%g)", c->spread_words ? c->spread_words : "+/- ", sd);
			fputs("</title></rect>\n", f);
			if (sd > 0) {
				double xm = gx + (k + 0.5) * bw, cap = bw / 4 < 6 ? bw / 4 : 6;
				double y0 = PB - (val - sd > 0 ? val - sd : 0) / ymax * PH;
				double y1 = PB - (val + sd) / ymax * PH;

				fprintf(f, "<path class=\"spread\" stroke=\"#222\" stroke-width=\"1.5\" "
					   "d=\"M%.1f,%.1fV%.1fM%.1f,%.1fh%.1fM%.1f,%.1fh%.1f\"/>\n", xm, y0, y1,
					xm - cap, y0, 2 * cap, xm - cap, y1, 2 * cap);
			}
		}
		snprintf(num, sizeof(num), "%zu", i + 1);
		x_tick(f, gx + gw * 0.4, numbered ? num : c->labels[i], &right);
	}
	top_band(f, c->nbars, c->name, c->note);
	x_title(f, c->xlabel);
	fputs("</svg>", f);
	if (numbered) {
		fputs("<p class=\"key\">", f);
		for (size_t i = 0; i < c->n; i++) {
			fprintf(f, "%s<b>%zu</b> ", i ? " &middot; " : "", i + 1);
			sm_html_text(f, c->labels[i]);
		}
		fputs("</p>", f);
	}
	fputs("</figure>\n", f);
}

/* The run step after s in 1, 2, 5, 10, 20, 50, ... */
static size_t next_step(size_t s)
{
	size_t p = 1;

	while (s >= 10 * p)
		p *= 10;
	return (s / p == 1 ? 2 : s / p == 2 ? 5 : 10) * p;
}

/* The trend's runs as points joined by a line, each with its tooltip. */
static void trend_points(FILE *f, const struct sm_html_trend *c, double xs, double ymax)
{
	fprintf(f, "<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-opacity=\"0.5\" "
		   "points=\"", colour[0]);
	for (size_t i = 0; i < c->n; i++)
		if (!isnan(c->y[i]))
			fprintf(f, "%.1f,%.1f ", PX0 + ((double)i + 0.5) * xs, PB - c->y[i] / ymax * PH);
	fputs("\"/>\n", f);
	for (size_t i = 0; i < c->n; i++) {
		if (isnan(c->y[i]))
			continue;
		fprintf(f, "<circle class=\"data point\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\">"
			   "<title>", PX0 + ((double)i + 0.5) * xs, PB - c->y[i] / ymax * PH, colour[0]);
		if (c->tip && c->tip[i])
			sm_html_text(f, c->tip[i]);
		else
			sm_html_printf(f, "run %zu: %g", i + 1, c->y[i]);
		fputs("</title></circle>\n", f);
	}
}

/* More runs than pixel columns: per column, the min-max of its points. */
static void trend_columns(FILE *f, const struct sm_html_trend *c, double ymax)
{
	double lo[NCOLS], hi[NCOLS];
	int seen[NCOLS];

	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < c->n; i++) {
		int col = (int)((double)i * NCOLS / (double)c->n);

		if (isnan(c->y[i]))
			continue;
		if (!seen[col] || c->y[i] < lo[col])
			lo[col] = c->y[i];
		if (!seen[col] || c->y[i] > hi[col])
			hi[col] = c->y[i];
		seen[col] = 1;
	}
	fprintf(f, "<path class=\"data point\" stroke=\"%s\" stroke-width=\"2\" d=\"", colour[0]);
	for (int col = 0; col < NCOLS; col++)
		if (seen[col])
			fprintf(f, "M%.1f,%.1fV%.1f", PX0 + (col + 0.5) * PW / NCOLS,
				PB - lo[col] / ymax * PH + 1, PB - hi[col] / ymax * PH - 1);
	fputs("\"/>\n", f);
}

void sm_html_chart_trend(FILE *f, const struct sm_html_trend *c)
{
	double ymax = 0, xs, right = -1e9;
	size_t npts = 0, step = 1;
	char b[32];

	for (size_t i = 0; i < c->n; i++)
		if (!isnan(c->y[i])) {
			npts++;
			ymax = fmax(ymax, c->y[i]);
		}
	if (!npts) {
		empty_chart(f, c->id, "trend", c->title, c->empty ? c->empty : "No run of this key "
			    "measured this figure: nothing to chart.");
		return;
	}
	fprintf(f, "<figure class=\"chart\" id=\"%s\" data-kind=\"trend\" data-points=\"%zu\">"
		   "<figcaption>", c->id, npts);
	sm_html_text(f, c->title);
	fprintf(f, "</figcaption>\n<svg viewBox=\"0 0 %d %d\" role=\"img\">\n", VW, VH);
	if (c->band && c->sd > 0)
		ymax = fmax(ymax, c->mean + c->sd);
	ymax = ymax > 0 ? ymax * 1.08 : 1;
	y_axis(f, ymax, c->ylabel);
	frame_box(f);
	xs = PW / (double)c->n;
	/* the runs' numbers, as many as fit side by side at the largest text size */
	/* run 1, then every step-th run (step 1, 2, 5, 10, 20, ...) */
	snprintf(b, sizeof(b), "%zu", c->n);
	while (xs * (double)step < text_w(strlen(b)) + 10)
		step = next_step(step);
	for (size_t r = 1; r <= c->n; r = r == 1 && step > 1 ? step : r + step) {
		snprintf(b, sizeof(b), "%zu", r);
		x_tick(f, PX0 + ((double)r - 0.5) * xs, b, &right);
	}
	if (c->band && c->sd > 0) {
		double top = PB - (c->mean + c->sd) / ymax * PH;
		double bot = PB - fmax(c->mean - c->sd, 0) / ymax * PH;

		fprintf(f, "<rect class=\"data band\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
			   "fill=\"%s\" fill-opacity=\"0.18\"/>\n", PX0, top, PW, bot - top, colour[0]);
	}
	fprintf(f, "<line class=\"data mean\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
		   "stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"8 4\"/>\n", PX0, PX0 + PW,
		PB - c->mean / ymax * PH, PB - c->mean / ymax * PH, colour[1]);
	if (c->n > NCOLS)
		trend_columns(f, c, ymax);
	else
		trend_points(f, c, xs, ymax);
	top_band(f, 0, NULL, c->note);
	x_title(f, c->xlabel);
	fig_end(f);
}
