/* SPDX-License-Identifier: MIT */
/* A frames result's layouts against it: frametest's lines (docs/frames.md,
 * Report), the markdown figures and times, the CSV rows. */
#include "check/body.h"
#include "analysis/verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MB 1048576.0

/* frames' transfer op: "ops.read" or "ops.write" (NULL for -e). */
static const char *io_op(const cJSON *doc)
{
	return ck_at(doc, "ops.read") ? "ops.read" : ck_at(doc, "ops.write") ? "ops.write" : NULL;
}

/* frametest's frame size: whole bytes per transferred frame. */
static double frame_bytes(const cJSON *doc)
{
	double b, n;

	if (!ck_num(doc, "totals.bytes", &b) || !ck_num(doc, "frames.transferred", &n) || !(n > 0))
		return 0;
	return floor(b / n);
}

/* The paced verdict the document's figures give (analysis/paced.c), or -2
 * when they cannot say (no pace, an older result without sched_lat_ns). */
static int paced_verdict(const cJSON *doc, struct sm_paced *pc)
{
	double fps, v;
	uint64_t u[5];
	const char *keys[5] = { "frames.scheduled", "frames.transferred", "frames.dropped",
				"ops.frame.sched_lat_ns.p99_9", "params.queue" };
	const cJSON *err = ck_at(doc, "errors");
	int intr = 0;

	memset(pc, 0, sizeof(*pc));
	if (!ck_num(doc, "params.fps", &fps) || !(fps > 0) || !ck_at(doc, "ops.frame.sched_lat_ns"))
		return -2;
	for (int i = 0; i < 5; i++)
		if (!ck_num(doc, keys[i], &v) || !ck_u64(v, &u[i]))
			return -2;
	ck_bool(doc, "interrupted", &intr);
	pc->scheduled = u[0], pc->done = u[1], pc->dropped = u[2], pc->p999_sched_ns = u[3];
	pc->queue = u[4] > 0xffffffffu ? 0 : (unsigned)u[4];
	pc->interval_ns = (uint64_t)llround(1e9 / fps);
	pc->complete = !intr && !cJSON_GetArraySize(err);
	return sm_verdict_paced(pc);
}

/* The verdict line (frametest's, and markdown's "## Verdict"). */
static void verdict_line(struct ck_lay *L, const char *after)
{
	const char *vf = ck_str(L->doc, "params.video_format"), *line, *want;
	struct sm_paced pc;
	struct ck_shown s[12];
	char label[96];
	int capture = 0, v, n;
	double fps = 0;

	if (!vf || !vf[0])
		return;
	v = paced_verdict(L->doc, &pc);
	if (v == -2)
		return;
	ck_bool(L->doc, "params.video_capture", &capture);
	ck_num(L->doc, "params.fps", &fps);
	snprintf(label, sizeof(label), "%s %s at %g fps: ", vf, capture ? "capture" : "playback", fps);
	n = ck_lay_nums(L, after, label, 1, s, 12, &line);
	if (n < 0)
		return;
	n = (int)ck_numbers_wrapped(line, s, 12);   /* the text wraps it at 79 columns */
	want = v < 0 ? "undecided" : sm_verdict_name((enum sm_verdict)v);
	L->c->evaluated++;
	if (strncmp(line + (*line == '*' ? 2 : 0), want, strlen(want)) ||
	    line[(*line == '*' ? 2 : 0) + strlen(want)] == '-')
		sm_check_fail(L->c, "frametest.verdict", "%s '%s' says %.*s, its paced figures make it %s",
			      L->layout, label, (int)strcspn(line, " ("), line, want);
	/* the fps in the label is a number of the line: D of N, p99.9, interval, buffers */
	if (n >= 5) {
		const char *was = L->id;

		L->id = "frametest.verdict";
		ck_lay_val(L, "verdict line: dropped", &s[n - 5], "frames.dropped", (double)pc.dropped);
		ck_lay_val(L, "verdict line: of", &s[n - 4], "frames.scheduled", (double)pc.scheduled);
		ck_lay_path(L, "verdict line: p99.9 from schedule", &s[n - 3],
			    "ops.frame.sched_lat_ns.p99_9", 1);
		ck_lay_val(L, "verdict line: frame interval", &s[n - 2], "1e9 / params.fps",
			   (double)pc.interval_ns);
		ck_lay_path(L, "verdict line: buffers", &s[n - 1], "params.queue", 1);
		L->id = was;
	}
}

/* One "Average/Shortest/Longest X time" triple against the op's latency. */
static void triple(struct ck_lay *L, const char *what, const char *op)
{
	static const char *const how[] = { "Average", "Shortest", "Longest" };
	static const char *const key[] = { "mean", "min", "max" };
	struct ck_shown s[4];
	char label[64], path[96];

	for (int i = 0; i < 3; i++) {
		snprintf(label, sizeof(label), "%s %s time", how[i], what);
		snprintf(path, sizeof(path), "%s.lat_ns.%s", op, key[i]);
		if (ck_lay_nums(L, NULL, label, 1, s, 4, NULL) >= 1)
			ck_lay_path(L, label, &s[0], path, 1);
	}
}

/* frametest's first lines: duration, frames and MB, fastest and slowest. */
static void ft_head(struct ck_lay *L)
{
	const cJSON *doc = L->doc;
	struct ck_shown s[8];
	double fb = frame_bytes(doc), v;

	if (ck_lay_nums(L, NULL, "Test duration:", 1, s, 8, NULL) >= 1)
		ck_lay_path(L, "Test duration:", &s[0], "duration_ns", 1);
	if (ck_lay_nums(L, NULL, "Frames transferred:", 1, s, 8, NULL) >= 2) {
		ck_lay_path(L, "Frames transferred:", &s[0], "frames.transferred", 1);
		ck_lay_path(L, "Frames transferred: (MB)", &s[1], "totals.bytes", 1);
	}
	if (ck_lay_nums(L, NULL, "Fastest frame:", 1, s, 8, NULL) >= 2 && ck_num(doc, "frames.fastest_ns", &v)) {
		ck_lay_path(L, "Fastest frame:", &s[0], "frames.fastest_ns", 1);
		ck_lay_val(L, "Fastest frame: (MB/s)", &s[1], "the frame size over frames.fastest_ns",
			   ck_per_s(fb, v));
	}
	if (ck_lay_nums(L, NULL, "Slowest frame:", 1, s, 8, NULL) >= 2 && ck_num(doc, "frames.slowest_ns", &v)) {
		ck_lay_path(L, "Slowest frame:", &s[0], "frames.slowest_ns", 1);
		ck_lay_val(L, "Slowest frame: (MB/s)", &s[1], "the frame size over frames.slowest_ns",
			   ck_per_s(fb, v));
	}
}

/* The averaged table: open, I/O, frame (the window over its frames), data
 * rate, frame rate per window. *overall gets the "Overall:" row's frame
 * rate; returns 1 when it was read. */
static int ft_windows(struct ck_lay *L, struct ck_shown *overall)
{
	static const struct { const char *label, *win; } rows[] = {
		{ "Last 1s:", "last_1s" }, { "5s:", "last_5s" }, { "30s:", "last_30s" },
		{ "Overall:", "overall" },
	};
	struct ck_shown row[8];
	double v, w;
	int got = 0;

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char p[96];

		if (ck_lay_nums(L, NULL, rows[i].label, 1, row, 8, NULL) < 5)
			continue;
		snprintf(p, sizeof(p), "frames.windows.%s.open_mean_ns", rows[i].win);
		ck_lay_path(L, rows[i].label, &row[0], p, 1);
		snprintf(p, sizeof(p), "frames.windows.%s.io_mean_ns", rows[i].win);
		ck_lay_path(L, rows[i].label, &row[1], p, 1);
		snprintf(p, sizeof(p), "frames.windows.%s.duration_ns", rows[i].win);
		if (ck_num(L->doc, p, &v)) {
			snprintf(p, sizeof(p), "frames.windows.%s.frames", rows[i].win);
			if (ck_num(L->doc, p, &w))
				ck_lay_val(L, rows[i].label, &row[2], "its duration_ns / frames",
					   w > 0 ? v / w : 0);
		}
		snprintf(p, sizeof(p), "frames.windows.%s.bytes_per_s", rows[i].win);
		ck_lay_path(L, rows[i].label, &row[3], p, 1);
		snprintf(p, sizeof(p), "frames.windows.%s.frames_per_s", rows[i].win);
		ck_lay_path(L, rows[i].label, &row[4], p, 1);
		if (!strcmp(rows[i].win, "overall")) {
			*overall = row[4];
			got = 1;
		}
	}
	return got;
}

/* "Overall frame rate": the run's, or in a paced run the schedule's; and
 * frametest prints one overall frame rate, so it is the "Overall:" row's. */
static void ft_overall(struct ck_lay *L, const struct ck_shown *row, int have_row)
{
	struct ck_shown rate[4];
	double fps = 0, v;

	ck_num(L->doc, "params.fps", &fps);
	if (ck_lay_nums(L, NULL, "Overall frame rate", 1, rate, 4, NULL) < 2)
		return;
	if (fps > 0) {
		ck_lay_path(L, "Overall frame rate", &rate[0], "frames.paced.frames_per_s", 1);
		if (ck_num(L->doc, "frames.paced.frames_per_s", &v))
			ck_lay_val(L, "Overall frame rate (bytes/s)", &rate[1],
				   "frames.paced.frames_per_s x the frame size", v * frame_bytes(L->doc));
	} else {
		ck_lay_path(L, "Overall frame rate", &rate[0], "totals.items_per_s", 1);
		ck_lay_path(L, "Overall frame rate (bytes/s)", &rate[1], "totals.bytes_per_s", 1);
	}
	if (have_row)
		ck_lay_same(L, "frametest.one-overall", "Overall frame rate", &rate[0], "Overall:' row",
			    row);
}

/* stormark's lines after frametest's block in a paced run. */
static void ft_paced(struct ck_lay *L)
{
	struct ck_shown s[8];
	double fps = 0;

	if (!ck_num(L->doc, "params.fps", &fps) || !(fps > 0))
		return;
	if (ck_lay_nums(L, NULL, "Frames dropped:", 1, s, 8, NULL) >= 3) {
		ck_lay_path(L, "Frames dropped:", &s[0], "frames.dropped", 1);
		ck_lay_path(L, "Frames dropped: of", &s[1], "frames.scheduled", 1);
		ck_lay_path(L, "Frames dropped: longest run", &s[2], "frames.longest_drop_run", 1);
	}
	/* the line wraps at 79 columns: its figures and its continuation's */
	if (ck_lay_nums(L, NULL, "Frame time from schedule:", 1, s, 8, NULL) >= 0 &&
	    ck_numbers_wrapped(ck_line(L->text, NULL, "Frame time from schedule:"), s, 8) >= 5) {
		ck_lay_path(L, "Frame time from schedule: p50", &s[0], "ops.frame.sched_lat_ns.p50", 1);
		ck_lay_path(L, "Frame time from schedule: p99", &s[1], "ops.frame.sched_lat_ns.p99", 1);
		ck_lay_path(L, "Frame time from schedule: p99.9", &s[2], "ops.frame.sched_lat_ns.p99_9", 1);
		ck_lay_path(L, "Frame time from schedule: max", &s[3], "ops.frame.sched_lat_ns.max", 1);
		ck_lay_val(L, "Frame time from schedule: frame interval", &s[4], "1e9 / params.fps",
			   1e9 / fps);
	}
	if (ck_lay_nums(L, NULL, "Buffers used at most", 1, s, 8, NULL) >= 2) {
		ck_lay_path(L, "Buffers used at most", &s[0], "frames.max_buffers_used", 1);
		ck_lay_path(L, "Buffers used at most: of", &s[1], "params.queue", 1);
	}
}

static void frametest(struct ck_lay *L)
{
	const char *io = io_op(L->doc), *test = ck_str(L->doc, "params.test");
	struct ck_shown s[8], overall;
	int rd = test && !strcmp(test, "read");

	ft_head(L);
	ft_overall(L, &overall, ft_windows(L, &overall));
	triple(L, "file", "ops.frame");
	triple(L, rd ? "open" : "create", "ops.open");
	if (io)
		triple(L, rd ? "read" : "write", io);
	triple(L, "close", "ops.close");
	ft_paced(L);
	verdict_line(L, NULL);
	/* --verify's block */
	if (ck_at(L->doc, "verify") && ck_lay_nums(L, NULL, "hashing:", 0, s, 8, NULL) >= 5) {
		ck_lay_path(L, "hashing: sealing", &s[0], "verify.seal_ns", 1);
		ck_lay_path(L, "hashing: sealing rate", &s[1], "verify.seal_bytes_per_s", 1);
		ck_lay_path(L, "hashing: checking", &s[2], "verify.check_ns", 1);
		ck_lay_path(L, "hashing: checking rate", &s[3], "verify.check_bytes_per_s", 1);
		ck_lay_path(L, "hashing: share of the threads' time", &s[4], "verify.hash_share", 100);
	}
}

/* A markdown "## Times" row: count, errors, then the six latency figures. */
static void md_times_row(struct ck_lay *L, const char *name, const char *lat, const char *count)
{
	const char *times = ck_line(L->text, NULL, "## Times");
	struct ck_shown s[12];
	char label[48];

	if (!times || !ck_at(L->doc, lat))
		return;
	snprintf(label, sizeof(label), "%s |", name);
	if (ck_lay_nums(L, times, label, 1, s, 12, NULL) < 8)
		return;
	if (count)
		ck_lay_path(L, label, &s[0], count, 1);
	ck_lay_latrow(L, label, &s[2], lat);
}

static void markdown(struct ck_lay *L)
{
	const cJSON *doc = L->doc;
	const char *io = io_op(doc), *test = ck_str(doc, "params.test");
	struct ck_shown s[12];
	double fb = frame_bytes(doc), v, fps = 0;
	int rd = test && !strcmp(test, "read");

	ck_num(doc, "params.fps", &fps);
	if (ck_lay_nums(L, NULL, "frames transferred |", 1, s, 4, NULL) >= 2) {
		ck_lay_path(L, "frames transferred", &s[0], "frames.transferred", 1);
		ck_lay_path(L, "frames transferred: of", &s[1], "frames.scheduled", 1);
	}
	if (ck_lay_nums(L, NULL, "data |", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "data", &s[0], "totals.bytes", 1);
	if (ck_lay_nums(L, NULL, "frame rate |", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "frame rate", &s[0], "totals.items_per_s", 1);
	if (ck_lay_nums(L, NULL, "data rate |", 1, s, 4, NULL) >= 1)
		ck_lay_path(L, "data rate", &s[0], "totals.bytes_per_s", 1);
	if (ck_lay_nums(L, NULL, "fastest frame |", 0, s, 4, NULL) >= 2 && ck_num(doc, "frames.fastest_ns", &v)) {
		ck_lay_path(L, "fastest frame", &s[0], "frames.fastest_ns", 1);
		ck_lay_val(L, "fastest frame (MiB/s)", &s[1], "the frame size over frames.fastest_ns",
			   ck_per_s(fb, v));
	}
	if (ck_lay_nums(L, NULL, "slowest frame |", 0, s, 4, NULL) >= 2 && ck_num(doc, "frames.slowest_ns", &v)) {
		ck_lay_path(L, "slowest frame", &s[0], "frames.slowest_ns", 1);
		ck_lay_val(L, "slowest frame (MiB/s)", &s[1], "the frame size over frames.slowest_ns",
			   ck_per_s(fb, v));
	}
	if (fps > 0) {
		if (ck_lay_nums(L, NULL, "frames dropped |", 1, s, 4, NULL) >= 3) {
			ck_lay_path(L, "frames dropped", &s[0], "frames.dropped", 1);
			ck_lay_path(L, "frames dropped: of", &s[1], "frames.scheduled", 1);
			ck_lay_path(L, "frames dropped: longest run", &s[2], "frames.longest_drop_run", 1);
		}
		if (ck_lay_nums(L, NULL, "paced frame rate |", 1, s, 4, NULL) >= 2) {
			ck_lay_path(L, "paced frame rate", &s[0], "frames.paced.frames_per_s", 1);
			ck_lay_path(L, "paced frame rate: frames", &s[1], "frames.paced.frames", 1);
		}
		if (ck_lay_nums(L, NULL, "buffers used at most |", 1, s, 4, NULL) >= 2) {
			ck_lay_path(L, "buffers used at most", &s[0], "frames.max_buffers_used", 1);
			ck_lay_path(L, "buffers used at most: of", &s[1], "params.queue", 1);
		}
	}
	md_times_row(L, rd ? "open" : "create", "ops.open.lat_ns", "ops.open.count");
	if (io)
		md_times_row(L, rd ? "read" : "write", rd ? "ops.read.lat_ns" : "ops.write.lat_ns",
			     rd ? "ops.read.count" : "ops.write.count");
	md_times_row(L, "close", "ops.close.lat_ns", "ops.close.count");
	md_times_row(L, "frame", "ops.frame.lat_ns", "ops.frame.count");
	if (fps > 0)
		md_times_row(L, "from schedule", "ops.frame.sched_lat_ns", NULL);
	if (fps > 0 && rd) {
		md_times_row(L, "late by", "frames.lateness_ns.late", NULL);
		md_times_row(L, "early by", "frames.lateness_ns.early", NULL);
	}
	verdict_line(L, ck_line(L->text, NULL, "## Verdict"));
}

static void csv(struct ck_lay *L)
{
	static const char *const cols[] = { "mean_ns", "p50_ns", "p95_ns", "p99_ns", "p99_9_ns", "max_ns" };
	static const char *const keys[] = { "mean", "p50", "p95", "p99", "p99_9", "max" };
	const cJSON *doc = L->doc;
	const char *test = ck_str(doc, "params.test"), *io = io_op(doc);
	int rd = test && !strcmp(test, "read");
	double fps = 0;
	struct {
		const char *op, *lat, *count;
	} rows[] = {
		{ rd ? "open" : "create", "ops.open.lat_ns", "ops.open.count" },
		{ rd ? "read" : "write", io ? (rd ? "ops.read.lat_ns" : "ops.write.lat_ns") : NULL,
		  io ? (rd ? "ops.read.count" : "ops.write.count") : NULL },
		{ "close", "ops.close.lat_ns", "ops.close.count" },
		{ "frame", "ops.frame.lat_ns", "frames.transferred" },
		{ "schedule", "ops.frame.sched_lat_ns", "frames.paced.frames" },
		{ "late", "frames.lateness_ns.late", NULL },
		{ "early", "frames.lateness_ns.early", NULL },
	};

	ck_num(doc, "params.fps", &fps);
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *row;
		struct ck_shown s;
		char path[96];

		if (!rows[i].lat || !ck_at(doc, rows[i].lat))
			continue;
		row = ck_csv_row(L->text, &rows[i].op, 1);
		L->c->evaluated++;
		if (!row) {
			sm_check_fail(L->c, "layout.line", "csv has no row '%s'", rows[i].op);
			continue;
		}
		if (rows[i].count && ck_csv_get(L->text, row, "count", &s) == 1)
			ck_lay_path(L, rows[i].op, &s, rows[i].count, 1);
		for (unsigned k = 0; k < 6; k++) {
			char label[64];

			snprintf(path, sizeof(path), "%s.%s", rows[i].lat, keys[k]);
			snprintf(label, sizeof(label), "%s' %s", rows[i].op, cols[k]);
			if (ck_csv_get(L->text, row, cols[k], &s) == 1)
				ck_lay_path(L, label, &s, path, 1);
		}
		if (!strcmp(rows[i].op, "frame")) {
			if (ck_csv_get(L->text, row, "count_per_s", &s) == 1)
				ck_lay_path(L, "frame' count_per_s", &s, "totals.items_per_s", 1);
			if (ck_csv_get(L->text, row, "bytes_per_s", &s) == 1)
				ck_lay_path(L, "frame' bytes_per_s", &s, "totals.bytes_per_s", 1);
			if (ck_csv_get(L->text, row, "bytes", &s) == 1)
				ck_lay_path(L, "frame' bytes", &s, "totals.bytes", 1);
		}
		if (!strcmp(rows[i].op, "schedule")) {
			if (ck_csv_get(L->text, row, "count_per_s", &s) == 1)
				ck_lay_path(L, "schedule' count_per_s", &s, "frames.paced.frames_per_s", 1);
			if (ck_csv_get(L->text, row, "dropped", &s) == 1)
				ck_lay_path(L, "schedule' dropped", &s, "frames.dropped", 1);
		}
	}
}

void ck_lay_frames(struct ck_lay *L)
{
	if (!strcmp(L->layout, "frametest"))
		frametest(L);
	else if (!strcmp(L->layout, "markdown"))
		markdown(L);
	else if (!strcmp(L->layout, "csv"))
		csv(L);
}
