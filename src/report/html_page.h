/* SPDX-License-Identifier: MIT */
/* The parts every HTML report is made of (report/html_page.c): the page
 * with its inline style, escaped text, the head sections, and inline-SVG
 * charts that summarise per pixel column, so a chart's size does not grow
 * with the run. For report/html*.c only. */
#ifndef SM_REPORT_HTML_PAGE_H
#define SM_REPORT_HTML_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "core/framemap.h"
#include "core/hist.h"
#include "report/html.h"
#include "result/frames.h"
#include "result/result.h"

/* The page from <!doctype> to the opening of <main>, titled "stormark
 * COMMAND: subject", then the sections every report starts with: warnings
 * (up front, when there are any), the run (tool version, the exact command
 * line, start, duration, outcome) and the environment. */
void sm_html_begin(FILE *f, const struct sm_result_head *h, const char *subject);

/* The page from <!doctype> to the opening of <main> with the same style,
 * titled "stormark TITLE", and no head sections: for a page that is not
 * one result's report (stormark compare). */
void sm_html_begin_plain(FILE *f, const char *title);

/* Close the page. */
void sm_html_end(FILE *f);

/* s with &, <, >, " and ' escaped. */
void sm_html_text(FILE *f, const char *s);

/* A formatted string, escaped. */
void sm_html_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* <section id="ID"><h2>TITLE</h2> ... </section>. */
void sm_html_section(FILE *f, const char *id, const char *title);
void sm_html_section_end(FILE *f);

/* A two-column table of parameters: begin, one row per call, end. */
void sm_html_kv_begin(FILE *f, const char *cls);
void sm_html_kv(FILE *f, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void sm_html_kv_end(FILE *f);

/* A paragraph of escaped text, class cls (NULL: none). */
void sm_html_note(FILE *f, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A chart of up to 3 rates over one x axis (n points, x increasing), each
 * point the rate over the interval since the point before (a step line).
 * Past one point per 2 pixels, each line is drawn per pixel column as its
 * min-max band and mean. mark_x (when mark_label is set) draws a labelled
 * vertical line (a cliff), labelled above the plot. A chart without
 * points is a sentence saying so. */
#define SM_HTML_MAXLINES 3
struct sm_html_xy {
	const char *id;             /* the figure's id: "chart-rate" */
	const char *title;
	const char *xlabel, *ylabel;
	size_t n;
	const double *x;
	unsigned nlines;
	const double *y[SM_HTML_MAXLINES];
	const char *name[SM_HTML_MAXLINES];
	double mark_x;
	const char *mark_label;     /* NULL: no mark */
	/* shaded spans [span_from[i], span_to[i]) on the x axis: the stalls,
	 * times nothing completed (docs/methodology.md) */
	unsigned nspans;
	const double *span_from, *span_to;
};
void sm_html_chart_xy(FILE *f, const struct sm_html_xy *c);

/* The rate over time of a frames series (s: n cumulative samples, a
 * second apart, then the end of the test; struct sm_frames_snap) as an xy
 * chart: per sample the rate since the one before, in MiB/s (fps 0) or
 * frames/s (fps 1), over seconds since the start; mark (NULL or unset:
 * none) marks a cliff, stalls (NULL: none) shade each stall past its
 * threshold. frames' rate charts and run's. */
struct sm_stalls;
void sm_html_chart_frames_rate(FILE *f, const char *id, const char *title,
			       const struct sm_frames_snap *s, size_t n, int fps,
			       const struct sm_html_mark *mark, const struct sm_stalls *stalls);

/* A latency histogram on a log time axis (counts per pixel column of the
 * histogram's buckets), p50, p99 and p99.9 marked. An empty h says so. */
void sm_html_chart_hist(FILE *f, const char *id, const char *title, const struct sm_hist *h);

/* The per-frame chart of a frame map: per column, the min-max band and the
 * mean of the frame time (sched 0) or of the time from schedule (sched 1),
 * dropped frames as red ticks under the axis; limit_ns > 0 draws a
 * labelled horizontal line (the frame interval). */
void sm_html_chart_frames(FILE *f, const char *id, const char *title, const struct sm_framemap *m,
			  int sched, double limit_ns, const char *limit_label);

/* A trend: one point per run in time order (y[i], NAN where run i did not
 * measure the figure: no point), evenly spaced over x (run 1 on the left;
 * ticks name the runs), with the mean of the points as a dashed line and
 * mean +/- sd as a band when sd > 0 (band 1). The points are circles of
 * class "data point" (their tooltips from tip[i], NULL: the value), up to
 * one per pixel column; past that a column's points are one min-max tick.
 * note is said above the plot (NULL: none); a chart whose runs measured
 * nothing is the sentence empty (NULL: a default). */
struct sm_html_trend {
	const char *id, *title, *xlabel, *ylabel;
	size_t n;
	const double *y;
	const char *const *tip;
	double mean, sd;
	int band;
	const char *note, *empty;
};
void sm_html_chart_trend(FILE *f, const struct sm_html_trend *c);

/* Grouped bars: n groups (labels[i]) of up to 2 bars (v[k][i], name[k]),
 * ylabel the unit; a value < 0 is drawn as "n/a" (not measured). */
void sm_html_chart_bars(FILE *f, const char *id, const char *title, const char *ylabel, size_t n,
			const char *const *labels, unsigned nbars, const double *const *v,
			const char *const *name);

/* Grouped bars in full: n groups (labels[i]) of up to 2 bars (v[k][i],
 * name[k]), each with a spread whisker v +/- spread[k][i] when spread[k]
 * is set (spread_words says what it is in the bar's tooltip, "+/- "), note
 * said above the plot (NULL: none; the whiskers' meaning), empty the
 * sentence drawn instead of a chart of no group (NULL: "No runs ...").
 * Labels too wide for their group are numbered, the numbers explained
 * under the chart. */
struct sm_html_bars {
	const char *id, *title, *xlabel, *ylabel;
	size_t n;
	const char *const *labels;
	unsigned nbars;
	const double *v[2];
	const double *spread[2];
	const char *name[2];
	const char *spread_words, *note, *empty;
};
void sm_html_chart_bars_s(FILE *f, const struct sm_html_bars *c);

/* The same with the x axis titled xlabel (sm_html_chart_bars: "run"). */
void sm_html_chart_bars_x(FILE *f, const char *id, const char *title, const char *xlabel,
			  const char *ylabel, size_t n, const char *const *labels, unsigned nbars,
			  const double *const *v, const char *const *name);

#endif
