/* SPDX-License-Identifier: MIT */
/* The HTML report of a frames result (html.h). */
#include "report/html.h"
#include "report/html_page.h"
#include "analysis/frames.h"
#include "core/units.h"
#include "report/cliff.h"
#include "report/stall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

static const char *kind_name(enum sm_frames_kind k)
{
	return k == SM_FRAMES_WRITE ? "write" : k == SM_FRAMES_EMPTY ? "empty (create/open/close)" : "read";
}

static void params(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	char a[32];

	sm_html_section(f, "parameters", "Parameters");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "test", "%s, %s", kind_name(p->kind), p->stream ? "one stream file" : "one file per frame");
	sm_html_kv(f, "path", "%s", p->path ? p->path : "");
	sm_html_kv(f, "frame size", "%s (%llu bytes)", sm_fmt_bytes(a, sizeof(a), (double)p->frame_bytes),
		   (unsigned long long)p->frame_bytes);
	sm_html_kv(f, "frames", "%llu scheduled", (unsigned long long)r->frames_scheduled);
	sm_html_kv(f, "threads, depth", "%u thread%s, %u in flight per thread%s", p->threads,
		   p->threads == 1 ? "" : "s", p->depth ? p->depth : 1, p->out_of_order ? ", out of order" : "");
	if (p->fps > 0)
		sm_html_kv(f, "pacing", "%g frames/s (%s), %u buffers, pre-buffer %u", p->fps,
			   p->kind == SM_FRAMES_READ ? "playback" : "capture", p->queue, p->prebuffer);
	else
		sm_html_kv(f, "pacing", "none: as fast as possible");
	sm_html_kv(f, "order", "%s", p->order == SM_ORDER_REVERSE ? "reverse" :
		   p->order == SM_ORDER_RANDOM ? "random" : "forward");
	sm_html_kv(f, "engine", "%s, %s", p->engine ? p->engine : "?", p->direct ? "O_DIRECT" : "buffered");
	if (r->test_params[0])
		sm_html_kv(f, "frametest parameters", "%s", r->test_params);
	if (r->video_format[0])
		sm_html_kv(f, "video format", "%s (%s)", r->video_format, r->video_capture ? "capture" : "playback");
	sm_html_kv_end(f);
	sm_html_section_end(f);
}

static void summary(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_frames_figures *g = &r->fig;
	char a[32], b[32];

	sm_html_section(f, "summary", "Summary");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "frames", "%llu of %llu transferred in %.3f s", (unsigned long long)r->frames_done,
		   (unsigned long long)r->frames_scheduled, g->secs);
	sm_html_kv(f, "frame rate", "%.2f frames/s", g->frames_per_s);
	sm_html_kv(f, "data rate", "%.2f MiB/s", g->bytes_per_s / MIB);
	sm_html_kv(f, "fastest, slowest frame", "%s, %s", sm_fmt_ns(a, sizeof(a), (double)r->fastest_ns),
		   sm_fmt_ns(b, sizeof(b), (double)r->slowest_ns));
	if (r->plan.kind == SM_FRAMES_WRITE) {
		char words[256];

		sm_html_kv(f, "cliff", "%s", sm_report_cliff_words(words, sizeof(words), &r->cliff));
	}
	if (r->stalls.measured) {
		char words[256];

		sm_html_kv(f, "stalls", "%s", sm_report_stall_words(words, sizeof(words), &r->stalls));
	}
	if (r->plan.fps > 0) {
		sm_html_kv(f, "paced rate", "%.2f frames/s over the schedule (%llu frames)", r->paced_fps,
			   (unsigned long long)r->paced_frames);
		sm_html_kv(f, "dropped", "%llu (longest run %llu), most buffers used %llu",
			   (unsigned long long)r->frames_dropped, (unsigned long long)r->longest_drop_run,
			   (unsigned long long)r->max_queue);
	}
	sm_html_kv_end(f);
	sm_html_section_end(f);
}

void sm_html_cliff_mark(struct sm_html_mark *m, const struct sm_cliff *c)
{
	memset(m, 0, sizeof(*m));
	if (!c->found)
		return;
	m->set = 1;
	m->t_s = (double)c->at_ns / 1e9;
	snprintf(m->label, sizeof(m->label), "cliff at %.1f s: %.0f -> %.0f MiB/s", m->t_s,
		 c->burst_bytes_per_s / MIB, c->sustained_bytes_per_s / MIB);
}

void sm_html_chart_frames_rate(FILE *f, const char *id, const char *title,
			       const struct sm_frames_snap *s, size_t n, int fps,
			       const struct sm_html_mark *mark, const struct sm_stalls *stalls)
{
	double sf[SM_STALL_KEEP], st[SM_STALL_KEEP];
	double *x = calloc(n ? n : 1, sizeof(double)), *y = calloc(n ? n : 1, sizeof(double));
	struct sm_html_xy c = { 0 };
	struct sm_frames_snap zero = { 0 }, d;

	if (!x || !y) {
		sm_html_note(f, "err", "out of memory: the chart '%s' is left out", title);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct sm_frames_rates rt;

		sm_frames_snap_diff(&s[i], i ? &s[i - 1] : &zero, &d);
		rt = sm_frames_snap_rates(&d);
		x[i] = (double)s[i].t_ns / 1e9;
		y[i] = fps ? rt.frames_per_s : rt.bytes_per_s / MIB;
	}
	c.id = id;
	c.title = title;
	c.n = n;
	c.x = x;
	c.nlines = 1;
	c.xlabel = "time since the start (s)";
	c.ylabel = fps ? "frames/s" : "MiB/s";
	c.y[0] = y;
	c.name[0] = c.ylabel;
	if (mark && mark->set) {
		c.mark_x = mark->t_s;
		c.mark_label = mark->label;
	}
	if (stalls) {
		c.nspans = sm_report_stall_spans(stalls, sf, st);
		c.span_from = sf;
		c.span_to = st;
	}
	sm_html_chart_xy(f, &c);
out:
	free(x);
	free(y);
}

/* Per-second data and frame rates from the series (cumulative samples). */
static void rates(FILE *f, const struct sm_frames_result *r, const struct sm_html_mark *mark)
{
	sm_html_section(f, "rates", "Rate over the run");
	if (r->plan.kind != SM_FRAMES_EMPTY)
		sm_html_chart_frames_rate(f, "chart-throughput", "Data rate per second", r->series,
					  r->nseries, 0, mark, &r->stalls);
	sm_html_chart_frames_rate(f, "chart-fps", "Frame rate per second", r->series, r->nseries, 1,
				  mark, &r->stalls);
	sm_html_section_end(f);
}

void sm_html_frames(FILE *f, const struct sm_frames_result *r, const struct sm_html_mark *mark,
		    const struct sm_dist_result *dist)
{
	const struct sm_frames_plan *p = &r->plan;
	char subject[600];
	int paced = p->fps > 0;

	snprintf(subject, sizeof(subject), "%s %s", kind_name(p->kind), p->path ? p->path : "");
	sm_html_begin(f, &r->head, subject);
	params(f, r);
	summary(f, r);
	rates(f, r, mark);
	sm_html_section(f, "per-frame", "Per frame");
	sm_html_chart_frames(f, "chart-frames", "Frame time by frame (open + I/O + close)",
			     &r->frame_map, 0, 0, NULL);
	if (paced) {
		char label[64], a[32];
		double lim = (double)p->queue * 1e9 / p->fps;

		snprintf(label, sizeof(label), "%u buffers x frame interval = %s", p->queue,
			 sm_fmt_ns(a, sizeof(a), lim));
		sm_html_chart_frames(f, "chart-schedule",
				     p->kind == SM_FRAMES_READ ? "Time from schedule by frame (playback: "
				     "completion - when its buffer was free; late above the line)"
				     : "Time from schedule by frame (capture: completion - arrival)",
				     &r->frame_map, 1, lim, label);
	}
	sm_html_section_end(f);
	sm_html_section(f, "latency", "Latency");
	sm_html_chart_hist(f, "chart-lat-frame", "Frame time (open + I/O + close)", &r->frame.lat);
	sm_html_chart_hist(f, "chart-lat-open", p->kind == SM_FRAMES_WRITE ? "Create/open" : "Open",
			   &r->open.lat);
	if (p->kind != SM_FRAMES_EMPTY)
		sm_html_chart_hist(f, "chart-lat-io", p->kind == SM_FRAMES_READ ? "Read (per frame)" :
				   "Write (per frame)", &r->io.lat);
	sm_html_chart_hist(f, "chart-lat-close", "Close", &r->close.lat);
	if (paced)
		sm_html_chart_hist(f, "chart-lat-sched", "Time from schedule", &r->sched_lat);
	sm_html_section_end(f);
	if (dist)
		sm_html_dist(f, dist);
	sm_html_end(f);
}
