/* SPDX-License-Identifier: MIT */
/* frametest-style text report, JSON and progress for frames results. */
#include "report/frametest.h"
#include "report/frametest_axis.h"
#include "report/streams.h"
#include "result/json.h"
#include "core/clock.h"
#include "analysis/frames.h"
#include "analysis/paced.h"
#include "analysis/verdict.h"

#include <string.h>

#define MB (1024.0 * 1024.0)   /* frametest's MB is 2^20 bytes */

static double ms(double ns)
{
	return ns / 1e6;
}

static void rates_row(FILE *f, const char *label, const struct sm_frames_rates *r)
{
	const struct sm_frames_rates rt = *r;

	fprintf(f, "%9s %6.3f ms %6.2f ms %6.2f ms %7.2f MB/s %5.1f fps\n", label,
		ms(rt.open_mean_ns), ms(rt.io_mean_ns), ms(rt.wall_per_frame_ns),
		rt.bytes_per_s / MB, rt.frames_per_s);
}

static const char *const tick_label[] = { "<0.1", ".2", ".5", "1", "2", "5", "10", "20",
					  "50", "100", "200", "500", ">1s" };

static void histogram(FILE *f, const uint64_t *cols)
{
	uint64_t total = 0;
	double pct[SM_FT_COLUMNS], max = 0, scale;
	char line[SM_FT_COLUMNS + 8];
	unsigned pos = 0;

	for (unsigned c = 0; c < SM_FT_COLUMNS; c++)
		total += cols[c];
	for (unsigned c = 0; c < SM_FT_COLUMNS; c++) {
		pct[c] = total ? 100.0 * (double)cols[c] / (double)total : 0;
		if (pct[c] > max)
			max = pct[c];
	}
	scale = max <= 20 ? 20 : max <= 50 ? 50 : 100;
	fprintf(f, "Histogram of frame completion times:\n");
	for (int row = 10; row >= 1; row--) {
		double need = scale * (row - 0.5) / 10;
		unsigned last = 0;

		for (unsigned c = 0; c < SM_FT_COLUMNS; c++) {
			line[c] = pct[c] >= need ? '*' : ' ';
			if (line[c] == '*')
				last = c + 1;
		}
		line[last] = '\0';
		if (row == 10)
			fprintf(f, "%4.0f%% |%s\n", scale, line);
		else
			fprintf(f, "      |%s\n", line);
	}
	memset(line, '-', SM_FT_COLUMNS);
	for (unsigned j = 0; j < SM_FT_TICKS; j++)
		line[sm_ft_tick_col[j]] = '|';
	line[SM_FT_COLUMNS] = '\0';
	fprintf(f, "      +%s\n", line);
	/* Labels under their ticks, never overlapping. */
	memset(line, ' ', sizeof(line));
	for (unsigned j = 0; j < SM_FT_TICKS; j++) {
		size_t len = strlen(tick_label[j]);
		unsigned at = sm_ft_tick_col[j] >= len / 2 ? sm_ft_tick_col[j] - (unsigned)(len / 2) : 0;

		if (at < pos)
			at = pos;
		if (at + len >= sizeof(line))
			break;
		memcpy(line + at, tick_label[j], len);
		pos = at + (unsigned)len + 1;
	}
	line[pos ? pos - 1 : 0] = '\0';
	fprintf(f, "   ms %s\n", line);
}

static void triple(FILE *f, const char *what, const struct sm_hist *h, int prec, int wide)
{
	/* frametest pads the labels with dots to one column; close is one
	 * dot short in its output, and so is ours. */
	char label[40];

	snprintf(label, sizeof(label), "Average %s time ", what);
	fprintf(f, "%-*.*s %.*f ms\n", wide, wide, strcat(label, "..........") , prec,
		ms(sm_hist_mean(h)));
	snprintf(label, sizeof(label), "Shortest %s time ", what);
	fprintf(f, "%-*.*s %.*f ms\n", wide, wide, strcat(label, "..........") , prec,
		ms((double)(h->count ? h->min : 0)));
	snprintf(label, sizeof(label), "Longest %s time ", what);
	fprintf(f, "%-*.*s %.*f ms\n", wide, wide, strcat(label, "..........") , prec,
		ms((double)h->max));
}

void sm_report_frametest(FILE *f, const struct sm_frames_result *r, const char *params)
{
	const struct sm_frames_plan *p = &r->plan;
	struct sm_frames_snap w;
	uint64_t cols[SM_FT_COLUMNS];
	const struct sm_frames_figures *g = &r->fig;
	int rd = p->kind == SM_FRAMES_READ;

	fprintf(f, "Test parameters: %s\n", params);
	fprintf(f, "Test duration: %.0f secs\n", g->secs);
	fprintf(f, "Frames transferred: %llu (%.3f MB)\n", (unsigned long long)r->frames_done,
		(double)r->bytes / MB);
	fprintf(f, "Fastest frame: %.3f ms (%.2f MB/s)\n", ms((double)r->fastest_ns),
		g->fastest_bytes_per_s / MB);
	fprintf(f, "Slowest frame: %.3f ms (%.2f MB/s)\n", ms((double)r->slowest_ns),
		g->slowest_bytes_per_s / MB);
	fprintf(f, "Averaged details:\n");
	fprintf(f, "%9s %9s %9s %9s %12s %9s\n", "", "Open", "I/O", "Frame", "Data rate", "Frame rate");
	for (unsigned i = 0; i < 4; i++) {
		static const unsigned secs[4] = { 1, 5, 30, UINT32_MAX };
		static const char *const label[4] = { "Last 1s:", "5s:", "30s:", "Overall:" };
		struct sm_frames_rates rt;

		/* the whole run's rows are the run's one overall figure, the
		 * line's below (result/frames.h) */
		sm_frames_window_rates(r, secs[i], &w, &rt);
		rates_row(f, label[i], &rt);
	}
	/* the -h window (the whole run without -h), as in the JSON */
	sm_ft_columns(&r->frame_window, cols);
	histogram(f, cols);
	/* paced: the rate the schedule achieved (result/frames.h) */
	fprintf(f, "Overall frame rate .... %.2f fps (%.0f bytes/s)\n", g->overall_rates.frames_per_s,
		g->overall_rates.bytes_per_s);
	triple(f, "file", &r->frame.lat, 3, 24);
	triple(f, rd ? "open" : "create", &r->open.lat, 3, 24);
	if (p->kind != SM_FRAMES_EMPTY)
		triple(f, rd ? "read" : "write", &r->io.lat, 1, 24);
	triple(f, "close", &r->close.lat, 3, 23);
}

void sm_report_frametest_paced(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	int rd = p->kind == SM_FRAMES_READ;

	if (p->fps > 0) {
		fprintf(f, "Frames dropped: %llu of %llu (longest run %llu)\n",
			(unsigned long long)r->frames_dropped, (unsigned long long)r->frames_scheduled,
			(unsigned long long)r->longest_drop_run);
	}
	if (p->fps > 0) {
		const struct sm_hist *h = &r->sched_lat;

		/* The user's view: capture from arrival, playback from the time
		 * the frame's buffer is free by the schedule (result/frames.h).
		 * Two lines, so that each fits 80 columns. */
		fprintf(f, "Frame time from schedule: p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms,\n"
			"  max %.3f ms (frame interval %.3f ms)\n",
			ms((double)sm_hist_percentile(h, 50)), ms((double)sm_hist_percentile(h, 99)),
			ms((double)sm_hist_percentile(h, 99.9)), ms((double)h->max), 1e3 / p->fps);
	}
	if (p->fps > 0 && rd) {
		/* Lateness of every displayed frame: negative = early. */
		fprintf(f, "Lateness (done - due): p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms,\n"
			"  max %.3f ms (frame interval %.3f ms)\n",
			ms((double)sm_lateness_percentile(&r->early, &r->late, 50)),
			ms((double)sm_lateness_percentile(&r->early, &r->late, 99)),
			ms((double)sm_lateness_percentile(&r->early, &r->late, 99.9)),
			ms((double)sm_lateness_percentile(&r->early, &r->late, 100)), 1e3 / p->fps);
	}
	if (p->fps > 0) {
		fprintf(f, "Buffers used at most .. %llu of %u\n", (unsigned long long)r->max_queue,
			p->queue);
	}
}

int sm_report_paced_verdict(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	struct sm_paced pc;
	int v;

	sm_paced_from_frames(r, &pc);
	v = sm_verdict_paced(&pc);
	fputc('\n', f);
	sm_streams_wrapf(f, 2, "%s %s at %g fps: %s (%llu of %llu frames dropped, p99.9 from schedule "
			 "%.2f ms, frame interval %.2f ms, %u buffers)",
	       r->video_format, r->video_capture ? "capture" : "playback", p->fps,
	       v < 0 ? "undecided" : sm_verdict_name((enum sm_verdict)v),
	       (unsigned long long)pc.dropped, (unsigned long long)pc.scheduled,
	       (double)pc.p999_sched_ns / 1e6, (double)pc.interval_ns / 1e6, pc.queue);
	return v;
}

void sm_report_frametest_all(FILE *f, const struct sm_frames_result *r)
{
	sm_report_frametest(f, r, r->test_params);
	if (r->plan.csv_path && !r->log_cut)   /* frametest's last line, only when the log is whole */
		fprintf(f, "Writing log file...\n");
	sm_report_frametest_paced(f, r);
	if (r->video_format[0])
		sm_report_paced_verdict(f, r);
}

static cJSON *rates_json(const struct sm_frames_snap *s, const struct sm_frames_rates *r)
{
	cJSON *o = cJSON_CreateObject();
	const struct sm_frames_rates rt = *r;

	sm_json_add_u64(o, "duration_ns", s->t_ns);
	sm_json_add_u64(o, "frames", s->frames);
	sm_json_add_u64(o, "bytes", s->bytes);
	sm_json_add_u64(o, "dropped", s->dropped);
	sm_json_add_double(o, "open_mean_ns", rt.open_mean_ns);
	sm_json_add_double(o, "io_mean_ns", rt.io_mean_ns);
	sm_json_add_double(o, "close_mean_ns", rt.close_mean_ns);
	sm_json_add_double(o, "frames_per_s", rt.frames_per_s);
	sm_json_add_double(o, "bytes_per_s", rt.bytes_per_s);
	return o;
}

static const char *kind_name(enum sm_frames_kind k)
{
	return k == SM_FRAMES_WRITE ? "write" : k == SM_FRAMES_EMPTY ? "empty" : "read";
}

/* The "per_frame" object: the frame map column by column (the sched_*
 * arrays only in paced runs). */
static void per_frame_json(cJSON *o, const struct sm_framemap *m, int paced)
{
	unsigned nk = paced ? SM_FRAMES_MAP_KEYS : SM_FRAMES_MAP_KEYS_UNPACED;

	sm_json_add_u64(o, "frames_per_column", m->width);
	for (unsigned k = 0; k < nk; k++) {
		cJSON *a = cJSON_AddArrayToObject(o, sm_frames_map_keys[k]);

		for (unsigned i = 0; i < m->ncols; i++) {
			const struct sm_framemap_col *c = &m->col[i];
			const uint64_t v[] = { c->frames, c->dropped, c->min_ns, c->max_ns, c->sum_ns,
					       c->sched_frames, c->sched_min_ns, c->sched_max_ns,
					       c->sched_sum_ns };

			cJSON_AddItemToArray(a, sm_json_u64(v[k]));
		}
	}
}

/* The "frames" object: counts, paced figures, windows, the histogram. */
static void frames_json(cJSON *fr, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	static const unsigned wins[] = { 1, 5, 30 };
	struct sm_frames_snap w;
	uint64_t ftc[SM_FT_COLUMNS];
	cJSON *win, *hist, *cols;

	sm_json_add_u64(fr, "scheduled", r->frames_scheduled);
	sm_json_add_u64(fr, "transferred", r->frames_done);
	sm_json_add_u64(fr, "dropped", r->frames_dropped);
	sm_json_add_u64(fr, "longest_drop_run", r->longest_drop_run);
	sm_json_add_u64(fr, "max_buffers_used", r->max_queue);
	sm_json_add_u64(fr, "fastest_ns", r->fastest_ns);
	sm_json_add_u64(fr, "slowest_ns", r->slowest_ns);
	if (p->fps > 0) {
		cJSON *pc = cJSON_AddObjectToObject(fr, "paced");

		sm_json_add_u64(pc, "frames", r->paced_frames);
		sm_json_add_u64(pc, "schedule_ns", r->schedule_ns);
		sm_json_add_double(pc, "frames_per_s", r->paced_fps);
	}
	if (p->fps > 0 && p->kind == SM_FRAMES_READ) {
		cJSON *lt = cJSON_AddObjectToObject(fr, "lateness_ns");

		cJSON_AddItemToObject(lt, "early", sm_json_lat(&r->early, 1));
		cJSON_AddItemToObject(lt, "late", sm_json_lat(&r->late, 1));
	}
	win = cJSON_AddObjectToObject(fr, "windows");
	for (unsigned i = 0; i < sizeof(wins) / sizeof(wins[0]); i++) {
		struct sm_frames_rates rt;
		char key[16];

		sm_frames_window_rates(r, wins[i], &w, &rt);
		snprintf(key, sizeof(key), "last_%us", wins[i]);
		cJSON_AddItemToObject(win, key, rates_json(&w, &rt));
	}
	cJSON_AddItemToObject(win, "overall", rates_json(&r->fig.overall, &r->fig.overall_rates));
	hist = cJSON_AddObjectToObject(fr, "histogram");
	sm_json_add_u64(hist, "window_ns", p->hist_window_ns);
	sm_json_add_u64(hist, "covered_ns", r->frame_window_ns);
	cJSON_AddItemToObject(hist, "frame_ns", sm_json_lat(&r->frame_window, 1));
	sm_ft_columns(&r->frame_window, ftc);
	cols = cJSON_AddArrayToObject(hist, "columns");
	for (unsigned c = 0; c < SM_FT_COLUMNS; c++)
		cJSON_AddItemToArray(cols, sm_json_double((double)ftc[c]));
	if (r->frame_map.ncols)   /* none in a result read from an older JSON */
		per_frame_json(cJSON_AddObjectToObject(fr, "per_frame"), &r->frame_map, p->fps > 0);
}

void sm_json_frames(cJSON *doc, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	cJSON *params = cJSON_AddObjectToObject(doc, "params");
	cJSON *totals, *ops, *frame;

	cJSON_AddStringToObject(params, "test", kind_name(p->kind));
	cJSON_AddBoolToObject(params, "stream", p->stream);
	cJSON_AddStringToObject(params, "path", p->path);
	sm_json_add_u64(params, "frame_bytes", p->frame_bytes);
	sm_json_add_u64(params, "frames", p->nframes);
	sm_json_add_double(params, "threads", p->threads);
	sm_json_add_double(params, "depth", p->depth);
	cJSON_AddBoolToObject(params, "out_of_order", p->out_of_order);
	sm_json_add_double(params, "fps", p->fps);
	sm_json_add_double(params, "queue", p->fps > 0 ? p->queue : 0);
	sm_json_add_double(params, "prebuffer", p->prebuffer);
	cJSON_AddStringToObject(params, "order", p->order == SM_ORDER_REVERSE ? "reverse" :
				p->order == SM_ORDER_RANDOM ? "random" : "forward");
	sm_json_add_u64(params, "loop", p->loop);
	sm_json_add_double(params, "ios_per_frame", p->ios_per_frame);
	sm_json_add_double(params, "files_per_dir", p->files_per_dir);
	sm_json_add_double(params, "crop_pct", p->crop_pct);
	cJSON_AddStringToObject(params, "engine", p->engine ? p->engine : "");
	cJSON_AddBoolToObject(params, "direct", p->direct);
	cJSON_AddStringToObject(params, "data", p->data == SM_DATA_ZERO ? "zero" : "random");
	sm_json_add_u64(params, "seed", p->seed);
	sm_json_add_u64(params, "time_limit_ns", p->time_limit_ns);
	sm_json_add_u64(params, "hist_window_ns", p->hist_window_ns);
	if (p->csv_path)
		cJSON_AddStringToObject(params, "csv", p->csv_path);
	else
		cJSON_AddNullToObject(params, "csv");
	cJSON_AddStringToObject(params, "frametest_params", r->test_params);
	cJSON_AddStringToObject(params, "video_format", r->video_format);
	cJSON_AddBoolToObject(params, "video_capture", r->video_capture);

	totals = cJSON_AddObjectToObject(doc, "totals");
	sm_json_add_u64(totals, "bytes", r->bytes);
	sm_json_add_u64(totals, "items", r->frames_done);
	sm_json_add_double(totals, "items_per_s", r->fig.frames_per_s);
	sm_json_add_double(totals, "bytes_per_s", r->fig.bytes_per_s);

	ops = cJSON_AddObjectToObject(doc, "ops");
	cJSON_AddItemToObject(ops, "open", sm_json_opstat(&r->open, 1));
	if (p->kind != SM_FRAMES_EMPTY)
		cJSON_AddItemToObject(ops, p->kind == SM_FRAMES_READ ? "read" : "write",
				      sm_json_opstat(&r->io, 1));
	cJSON_AddItemToObject(ops, "close", sm_json_opstat(&r->close, 1));
	frame = sm_json_opstat(&r->frame, 1);
	sm_json_add_u64(frame, "dropped", r->frames_dropped);
	sm_json_add_u64(frame, "late", p->kind == SM_FRAMES_READ ? r->late.count : 0);
	if (p->fps > 0)
		cJSON_AddItemToObject(frame, "sched_lat_ns", sm_json_lat(&r->sched_lat, 1));
	cJSON_AddItemToObject(ops, "frame", frame);

	cJSON_AddItemToObject(doc, "series", sm_json_frames_series(r->series, r->nseries));

	frames_json(cJSON_AddObjectToObject(doc, "frames"), r);
	if (p->kind == SM_FRAMES_WRITE)
		cJSON_AddItemToObject(doc, "cliff", sm_json_cliff(&r->cliff));
	sm_json_add_stalls(doc, &r->stalls);
	sm_json_doc_finish(doc, &r->head);
}

void sm_progress_frames(FILE *f, const struct sm_frames_snap *last_1s,
			const struct sm_frames_snap *total, uint64_t nframes)
{
	struct sm_frames_rates rt = sm_frames_snap_rates(last_1s);

	fprintf(f, "\r%5.0f s  %llu/%llu frames  %7.2f MB/s  %6.1f fps  dropped %llu   ",
		(double)total->t_ns / 1e9, (unsigned long long)total->frames,
		(unsigned long long)nframes, rt.bytes_per_s / MB, rt.frames_per_s,
		(unsigned long long)total->dropped);
	fflush(f);
}
