/* SPDX-License-Identifier: MIT */
/* The page, the head sections and the inline-SVG charts of the HTML
 * reports (html_page.h). No script, no external file: a report opens
 * offline in any browser, and its size is bounded by the pixel columns of
 * its charts, not by the length of the run. */
#include "report/html_page.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "core/units.h"

/* The plot area inside every chart's 960 x 300 viewBox. */
#define VW 960
#define VH 300
#define PX0 72.0
#define PY0 16.0
#define PW 868.0
#define PH 236.0
#define NCOLS 434                /* pixel columns summarised: 2 px each */
#define HCOLS 145                /* histogram bars: 6 px each */

static const char *const colour[SM_HTML_MAXLINES] = { "#1f6feb", "#e8590c", "#2f9e44" };

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fff;color:#1b1f24}"
	"main{max-width:1000px;margin:0 auto;padding:12px 20px 40px}"
	"h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:22px 0 8px;"
	"border-bottom:1px solid #d0d7de}"
	"table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;"
	"padding:3px 8px;text-align:right;vertical-align:top}th{background:#f3f5f7}"
	"td:first-child,th:first-child{text-align:left}table.kv td{text-align:left}"
	"code{font:13px ui-monospace,monospace;background:#f3f5f7;padding:1px 4px;"
	"word-break:break-all}"
	".warn{background:#fff4e5;border-left:4px solid #e8590c;padding:6px 10px}"
	".err{background:#ffe3e3;border-left:4px solid #c92a2a;padding:6px 10px}"
	".muted{color:#57606a}figure{margin:10px 0}figcaption{font-weight:600}"
	"svg{width:100%;height:auto;display:block}svg text{font:11px system-ui,sans-serif;"
	"fill:#333}"
	"td.v-yes{background:#b2f2bb}td.v-marginal{background:#ffec99}td.v-no{background:#ffc9c9}";

void sm_html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void vtext(FILE *f, const char *fmt, va_list ap)
{
	char buf[2048];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	sm_html_text(f, buf);
}

void sm_html_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
}

void sm_html_section(FILE *f, const char *id, const char *title)
{
	fprintf(f, "<section id=\"%s\"><h2>", id);
	sm_html_text(f, title);
	fputs("</h2>\n", f);
}

void sm_html_section_end(FILE *f)
{
	fputs("</section>\n", f);
}

void sm_html_kv_begin(FILE *f, const char *cls)
{
	fprintf(f, "<table class=\"kv%s%s\">\n", cls ? " " : "", cls ? cls : "");
}

void sm_html_kv(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	fputs("<tr><td>", f);
	sm_html_text(f, key);
	fputs("</td><td>", f);
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
	fputs("</td></tr>\n", f);
}

void sm_html_kv_end(FILE *f)
{
	fputs("</table>\n", f);
}

void sm_html_note(FILE *f, const char *cls, const char *fmt, ...)
{
	va_list ap;

	if (cls)
		fprintf(f, "<p class=\"%s\">", cls);
	else
		fputs("<p>", f);
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
	fputs("</p>\n", f);
}

/* One argument as a shell would need it: bare when it is safe, else in
 * single quotes. */
static void shell_arg(FILE *f, const char *a)
{
	int bare = *a != '\0';

	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@", *p))
			bare = 0;
	if (bare) {
		sm_html_text(f, a);
		return;
	}
	fputc('\'', f);
	for (const char *p = a; *p; p++) {
		if (*p == '\'')
			fputs("&#39;\\&#39;&#39;", f);
		else {
			char c[2] = { *p, 0 };

			sm_html_text(f, c);
		}
	}
	fputc('\'', f);
}

static void head_sections(FILE *f, const struct sm_result_head *h)
{
	const struct sm_env *e = &h->env;
	char a[32], b[32];

	if (h->warnings.count || h->error[0] || h->interrupted) {
		sm_html_section(f, "warnings", "Warnings");
		if (h->error[0])
			sm_html_note(f, "err", "error: %s", h->error);
		if (h->interrupted)
			sm_html_note(f, "err", "interrupted by a signal: the figures are partial");
		for (unsigned i = 0; i < h->warnings.count; i++)
			sm_html_note(f, "warn", "%s: %s", h->warnings.item[i].code,
				     h->warnings.item[i].message);
		sm_html_section_end(f);
	}
	sm_html_section(f, "run", "Run");
	sm_html_kv_begin(f, NULL);
	fputs("<tr><td>command</td><td><code id=\"command-line\">", f);
	if (h->argc > 0) {
		/* argv[0] is the subcommand, or the compatibility name as run */
		const char *base = strrchr(h->argv[0], '/');

		base = base ? base + 1 : h->argv[0];
		if (strcmp(base, "frametest") && strcmp(base, "sysbench"))
			fputs("stormark ", f);
	}
	for (int i = 0; i < h->argc; i++) {
		if (i)
			fputc(' ', f);
		shell_arg(f, h->argv[i]);
	}
	fputs("</code></td></tr>\n", f);
	sm_html_kv(f, "tool", "stormark %s", h->version);
	sm_html_kv(f, "started", "%s", h->started_at);
	sm_html_kv(f, "duration", "%.3f s", (double)h->duration_ns / 1e9);
	sm_html_kv_end(f);
	sm_html_section_end(f);
	sm_html_section(f, "environment", "Environment");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "kernel", "%s", e->kernel[0] ? e->kernel : "?");
	sm_html_kv(f, "file system", "%s on %s, mounted on %s", e->fs.fs_type[0] ? e->fs.fs_type : "?",
		   e->fs.device[0] ? e->fs.device : "?", e->fs.mount_point[0] ? e->fs.mount_point : "?");
	if (e->fs.total_bytes)
		sm_html_kv(f, "space", "%s free of %s", sm_fmt_bytes(a, sizeof(a), (double)e->fs.free_bytes),
			   sm_fmt_bytes(b, sizeof(b), (double)e->fs.total_bytes));
	sm_html_kv(f, "I/O", "%s%s%s", e->direct_io ? "direct (O_DIRECT)" : "buffered (page cache)",
		   e->engine[0] ? ", engine " : "", e->engine);
	if (e->mem_total_bytes)
		sm_html_kv(f, "memory", "%s, %s available",
			   sm_fmt_bytes(a, sizeof(a), (double)e->mem_total_bytes),
			   sm_fmt_bytes(b, sizeof(b), (double)e->mem_available_bytes));
	sm_html_kv(f, "CPUs", "%u", e->cpus);
	sm_html_kv_end(f);
	sm_html_section_end(f);
}

void sm_html_begin(FILE *f, const struct sm_result_head *h, const char *subject)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"stormark ", f);
	sm_html_text(f, h->version);
	fputs("\">\n<title>", f);
	sm_html_printf(f, "stormark %s: %s", h->command, subject);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body><main>\n<h1>", style);
	sm_html_printf(f, "stormark %s: %s", h->command, subject);
	fputs("</h1>\n", f);
	head_sections(f, h);
}

void sm_html_begin_plain(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"stormark " SM_VERSION "\">\n<title>", f);
	sm_html_printf(f, "stormark %s", title);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body><main>\n<h1>", style);
	sm_html_printf(f, "stormark %s", title);
	fputs("</h1>\n", f);
}

void sm_html_end(FILE *f)
{
	fputs("<p class=\"muted\">Written by stormark; charts are summarised per pixel "
	      "column (min-max band and mean). See docs/report.md.</p>\n</main></body></html>\n", f);
}

/* ---- charts ------------------------------------------------------------- */

/* A step of 1, 2 or 5 x 10^k giving about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
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

static void empty_chart(FILE *f, const char *why)
{
	fprintf(f, "<rect class=\"plot\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		   "fill=\"none\" stroke=\"#999\"/><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">",
		PX0, PY0, PW, PH, PX0 + PW / 2, PY0 + PH / 2);
	sm_html_text(f, why);
	fputs("</text>\n", f);
}

/* Linear y axis 0..ymax with grid and labels, the axis titles. */
static void y_axis(FILE *f, double ymax, const char *ylabel)
{
	double step = nice_step(ymax, 5);

	for (double v = 0; v <= ymax * 1.0001; v += step) {
		double y = PY0 + PH - v / ymax * PH;

		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e7eb\"/>"
			   "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			PX0, PX0 + PW, y, y, PX0 - 4, y + 4, v);
	}
	fprintf(f, "<text x=\"12\" y=\"%.0f\" transform=\"rotate(-90 12 %.0f)\" "
		   "text-anchor=\"middle\">", PY0 + PH / 2, PY0 + PH / 2);
	sm_html_text(f, ylabel);
	fputs("</text>\n", f);
}

static void x_title(FILE *f, const char *xlabel)
{
	fprintf(f, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">", PX0 + PW / 2, VH - 4);
	sm_html_text(f, xlabel);
	fputs("</text>\n", f);
}

static void frame_box(FILE *f)
{
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		   "stroke=\"#999\"/>\n", PX0, PY0, PW, PH);
}

/* Linear x axis x0..x1: ticks and labels. */
static void x_axis(FILE *f, double x0, double x1)
{
	double step = nice_step(x1 - x0, 8);

	for (double v = ceil(x0 / step) * step; v <= x1 * 1.0001; v += step) {
		double x = PX0 + (v - x0) / (x1 - x0) * PW;

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>"
			   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
			x, x, PY0 + PH, PY0 + PH + 4, x, PY0 + PH + 16, v);
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
 * step) rather than at its x.
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
				PY0 + PH - mid[i] * ys, PX0 + (x[i] - x0) * xs, PY0 + PH - mid[i] * ys);
		fputs("\"/>\n", f);
		return;
	}
	if (!dense) {
		fprintf(f, "<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			   "points=\"", col);
		for (size_t i = 0; i < n; i++)
			if (!w || w[i] > 0)
				fprintf(f, "%.1f,%.1f ", PX0 + (x[i] - x0) * xs, PY0 + PH - mid[i] * ys);
		fputs("\"/>\n", f);
		for (size_t i = 0; i < n && n <= 60; i++)
			if (!w || w[i] > 0)
				fprintf(f, "<circle class=\"data\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				PX0 + (x[i] - x0) * xs, PY0 + PH - mid[i] * ys, col);
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
				PY0 + PH - b[c].hi * ys);
	for (int c = NCOLS - 1; c >= 0; c--)
		if (b[c].w > 0)
			fprintf(f, "L%.1f,%.1f ", PX0 + (c + 0.5) * PW / NCOLS, PY0 + PH - b[c].lo * ys);
	fprintf(f, "Z\"/>\n<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
		   "points=\"", col);
	for (int c = 0; c < NCOLS; c++)
		if (b[c].w > 0)
			fprintf(f, "%.1f,%.1f ", PX0 + (c + 0.5) * PW / NCOLS,
				PY0 + PH - b[c].sum / b[c].w * ys);
	fputs("\"/>\n", f);
}

static void legend(FILE *f, unsigned n, const char *const *name)
{
	for (unsigned k = 0; k < n && n > 1; k++) {
		double x = PX0 + 10 + k * 180;

		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%.0f\" y=\"%.0f\">", x, PY0 + 6, colour[k], x + 14, PY0 + 15);
		sm_html_text(f, name[k]);
		fputs("</text>\n", f);
	}
}

/* A dashed vertical marker at x (viewBox units) with a label. */
static void vmark(FILE *f, double x, const char *label, int row)
{
	fprintf(f, "<line class=\"mark\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" "
		   "stroke=\"#444\" stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.0f\" %s>", x, x,
		PY0, PY0 + PH, x + (x > PX0 + PW - 120 ? -4 : 4), PY0 + 30 + row * 13,
		x > PX0 + PW - 120 ? "text-anchor=\"end\"" : "");
	sm_html_text(f, label);
	fputs("</text>\n", f);
}

void sm_html_chart_xy(FILE *f, const struct sm_html_xy *c)
{
	double x0, x1, ymax = 0;

	fig_begin(f, c->id, "xy", c->title);
	if (!c->n) {
		empty_chart(f, "no samples in this result");
		fig_end(f);
		return;
	}
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
	for (unsigned k = 0; k < c->nlines; k++)
		draw_band(f, c->n, c->x, c->y[k], c->y[k], c->y[k], NULL, x0, x1, ymax, colour[k], 1);
	legend(f, c->nlines, c->name);
	if (c->mark_label && c->mark_x >= x0 && c->mark_x <= x1)
		vmark(f, PX0 + (c->mark_x - x0) / (x1 - x0) * PW, c->mark_label, 0);
	x_title(f, c->xlabel);
	fig_end(f);
}

void sm_html_chart_hist(FILE *f, const char *id, const char *title, const struct sm_hist *h)
{
	static const double pct[] = { 50, 99, 99.9 };
	static const char *const pname[] = { "p50", "p99", "p99.9" };
	double cnt[HCOLS];
	double lx0, lx1, cmax = 0;
	char a[32], label[64];

	fig_begin(f, id, "histogram", title);
	if (!h->count) {
		empty_chart(f, "no operations of this kind");
		fig_end(f);
		return;
	}
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
	y_axis(f, cmax * 1.08, "operations per pixel column");
	for (double d = lx0; d <= lx1; d++) {
		double x = PX0 + (d - lx0) / (lx1 - lx0) * PW;

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>"
			   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", x, x, PY0 + PH,
			PY0 + PH + 4, x, PY0 + PH + 16, sm_fmt_ns(a, sizeof(a), pow(10, d)));
	}
	frame_box(f);
	fprintf(f, "<path class=\"data\" fill=\"%s\" d=\"", colour[0]);
	for (int c = 0; c < HCOLS; c++) {
		double ht = cnt[c] / (cmax * 1.08) * PH;

		if (cnt[c] <= 0)
			continue;
		if (ht < 1)
			ht = 1;
		fprintf(f, "M%.1f,%.1fh%.1fv%.1fh%.1fz", PX0 + c * PW / HCOLS, PY0 + PH, PW / HCOLS,
			-ht, -PW / HCOLS);
	}
	fputs("\"/>\n", f);
	for (int k = 0; k < 3; k++) {
		double v = (double)sm_hist_percentile(h, pct[k]);
		double x = PX0 + (log10(v > 1 ? v : 1) - lx0) / (lx1 - lx0) * PW;

		snprintf(label, sizeof(label), "%s %s", pname[k], sm_fmt_ns(a, sizeof(a), v));
		vmark(f, x, label, k);
	}
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

	fig_begin(f, id, "frames", title);
	if (!m->ncols) {
		empty_chart(f, "this result has no per-frame series (written by an older stormark)");
		fig_end(f);
		return;
	}
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
	y_axis(f, ymax, sched ? "time from schedule (ms)" : "frame time (ms)");
	x_axis(f, 0, x1);
	frame_box(f);
	draw_band(f, m->ncols, x, lo, hi, mid, w, 0, x1, ymax, colour[0], 0);
	if (limit_ns > 0) {
		double y = PY0 + PH - limit_ns / 1e6 / ymax * PH;

		fprintf(f, "<line class=\"mark\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#444\" stroke-dasharray=\"6 3\"/><text x=\"%.0f\" y=\"%.1f\" "
			   "text-anchor=\"end\">", PX0, PX0 + PW, y, y, PX0 + PW - 4, y - 4);
		sm_html_text(f, limit_label);
		fputs("</text>\n", f);
	}
	if (dropped) {
		fputs("<path class=\"drops\" stroke=\"#c92a2a\" stroke-width=\"3\" d=\"", f);
		for (unsigned i = 0; i < m->ncols; i++)
			if (m->col[i].dropped)
				fprintf(f, "M%.1f,%.0fv-12", PX0 + x[i] / x1 * PW, PY0 + PH);
		fprintf(f, "\"/><text x=\"%.0f\" y=\"%.0f\" fill=\"#c92a2a\">%llu dropped "
			   "(red ticks)</text>\n", PX0 + 8, PY0 + 14, (unsigned long long)dropped);
	}
	x_title(f, m->width > 1 ? "frame (transfer number; each column summarises several frames)"
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
	double ymax = 0, gw, bw;

	fig_begin(f, id, "bars", title);
	if (!n) {
		empty_chart(f, "no runs in this result");
		fig_end(f);
		return;
	}
	for (unsigned k = 0; k < nbars; k++)
		for (size_t i = 0; i < n; i++)
			if (v[k][i] > ymax)
				ymax = v[k][i];
	ymax = ymax > 0 ? ymax * 1.08 : 1;
	y_axis(f, ymax, ylabel);
	frame_box(f);
	gw = PW / (double)n;
	bw = gw * 0.8 / nbars;
	for (size_t i = 0; i < n; i++) {
		double gx = PX0 + i * gw + gw * 0.1;

		for (unsigned k = 0; k < nbars; k++) {
			double val = v[k][i], ht = val > 0 ? val / ymax * PH : 0;

			if (val < 0) {
				fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">n/a</text>\n",
					gx + (k + 0.5) * bw, PY0 + PH - 4);
				continue;
			}
			fprintf(f, "<rect class=\"data\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"%s\"><title>", gx + k * bw, PY0 + PH - (ht < 1 ? 1 : ht),
				bw > 1 ? bw - 0.5 : 1, ht < 1 ? 1 : ht, colour[k]);
			sm_html_printf(f, "%s %s: %g", labels[i], name[k], val);
			fputs("</title></rect>\n", f);
		}
		if (n <= 40) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", gx + gw * 0.4,
				PY0 + PH + 16);
			sm_html_text(f, labels[i]);
			fputs("</text>\n", f);
		}
	}
	legend(f, nbars, name);
	x_title(f, xlabel);
	fig_end(f);
}
