/* SPDX-License-Identifier: MIT */
/* The invariants of a frames result (docs/frames.md, docs/json-schema.md):
 * the series adds up to the totals and the operations' time sums, the
 * averaged windows are the series', every rate is its count over its own
 * span, the counts of a paced run stay within what was scheduled. */
#include "check/body.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const series_keys[] = {
	"duration_ns", "bytes", "items", "dropped", "open_ns", "io_ns", "close_ns", "frame_ns",
};
#define NKEYS 8

/* The series' columns as running sums: *cum (caller frees) holds
 * n x NKEYS of them, CUM(k, i) the sum of column k over samples 0..i, and
 * tot[k] the column's sum. Returns n, or 0 (nothing allocated) when the
 * series is missing or empty, its columns differ in length, or memory is
 * short. */
#define CUM(k, i) cum[(size_t)(i) * NKEYS + (k)]
static unsigned series_cum(const cJSON *se, double **out, double *tot)
{
	int n = cJSON_GetArraySize(ck_at(se, series_keys[0]));
	double *cum;

	*out = NULL;
	if (n <= 0 || !(cum = malloc((size_t)n * NKEYS * sizeof(*cum))))
		return 0;
	for (unsigned k = 0; k < NKEYS; k++) {
		const cJSON *a = ck_at(se, series_keys[k]), *it;
		double s = 0;
		unsigned i = 0;

		if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) {
			free(cum);
			return 0;
		}
		cJSON_ArrayForEach(it, a) {
			s += cJSON_IsNumber(it) ? it->valuedouble : 0;
			CUM(k, i) = s;
			i++;
		}
		tot[k] = s;
	}
	*out = cum;
	return (unsigned)n;
}

/* The window of the last secs seconds, as sm_frames_window() takes it
 * from the series: the end less the sample nearest to secs before it.
 * cum holds the running sums (duration first). Writes the window's
 * duration, frames, bytes and dropped into w[0..4). */
static void window(const double *cum, unsigned n, const double *tot, double secs, double *w)
{
	double want = tot[0] - secs * 1e9, start[NKEYS] = { 0 };

	if (tot[0] >= secs * 1e9)
		for (unsigned i = 0; i + 1 < n; i++)
			if (fabs(CUM(0, i) - want) < fabs(start[0] - want))
				for (unsigned k = 0; k < NKEYS; k++)
					start[k] = CUM(k, i);
	w[0] = tot[0] - start[0];
	w[1] = tot[2] - start[2];
	w[2] = tot[1] - start[1];
	w[3] = tot[3] - start[3];
}

/* The run's one overall figure (docs/frames.md, docs/pacing.md): the
 * windows.overall row and every window the run is shorter than. Over the
 * I/O (duration_ns, the frames transferred, totals.bytes), or in a paced
 * run over the schedule (paced.schedule_ns, paced.frames, those frames
 * times the frame size, the whole bytes per transferred frame); the
 * run's drops. Writes duration, frames, bytes and dropped into w[0..4);
 * 0 when the document lacks a figure it needs. */
static int overall(const cJSON *doc, double *w)
{
	double fps = 0, tr, bytes;

	if (!ck_num(doc, "frames.transferred", &tr) || !ck_num(doc, "totals.bytes", &bytes) ||
	    !ck_num(doc, "frames.dropped", &w[3]))
		return 0;
	if (ck_num(doc, "params.fps", &fps) && fps > 0) {
		if (!ck_num(doc, "frames.paced.schedule_ns", &w[0]) ||
		    !ck_num(doc, "frames.paced.frames", &w[1]))
			return 0;
		w[2] = floor((tr > 0 ? floor(bytes / tr) : 0) * w[1] + 0.5);
		return 1;
	}
	if (!ck_num(doc, "duration_ns", &w[0]))
		return 0;
	w[1] = tr;
	w[2] = bytes;
	return 1;
}

static void ck_windows(const cJSON *doc, const double *cum, unsigned n, const double *tot,
		       struct sm_check *c)
{
	static const struct { const char *key; double secs; } wins[] = {
		{ "last_1s", 1 }, { "last_5s", 5 }, { "last_30s", 30 }, { "overall", -1 },
	};
	static const char *const wk[] = { "duration_ns", "frames", "bytes", "dropped" };
	double all[4], fps = 0;
	int have_all = overall(doc, all);
	/* a paced MPI job's overall rate is its ranks' rates added up, as
	 * its frames.paced.frames_per_s (ck_paced) */
	const char *merge = ck_at(doc, "mpi") && ck_num(doc, "params.fps", &fps) && fps > 0 ?
			    " (an MPI job's merge)" : "";

	for (unsigned i = 0; i < sizeof(wins) / sizeof(wins[0]); i++) {
		const cJSON *o = ck_at(ck_at(doc, "frames.windows"), wins[i].key);
		double w[4], v, r;
		int whole = wins[i].secs < 0 || tot[0] < wins[i].secs * 1e9;
		char an[96], bn[96];

		if (!cJSON_IsObject(o) || (whole && !have_all))
			continue;
		if (whole)
			memcpy(w, all, sizeof(w));
		else
			window(cum, n, tot, wins[i].secs, w);
		for (unsigned k = 0; k < 4; k++) {
			if (!ck_num(o, wk[k], &v))
				continue;
			snprintf(an, sizeof(an), "frames.windows.%s.%s", wins[i].key, wk[k]);
			snprintf(bn, sizeof(bn), whole ? "the run's overall %s" :
				 "the series' %s over that window", wk[k]);
			ck_eq(c, "frames.windows", an, v, bn, w[k]);
		}
		snprintf(an, sizeof(an), "frames.windows.%s.frames_per_s%s", wins[i].key,
			 whole ? merge : "");
		if (ck_num(o, "frames_per_s", &r) && ck_num(o, "frames", &v) &&
		    ck_num(o, "duration_ns", &w[0]))
			ck_rate(c, "frames.rate", an, r, "its frames", v, "its duration_ns", w[0]);
		snprintf(an, sizeof(an), "frames.windows.%s.bytes_per_s%s", wins[i].key,
			 whole ? merge : "");
		if (ck_num(o, "bytes_per_s", &r) && ck_num(o, "bytes", &v) &&
		    ck_num(o, "duration_ns", &w[0]))
			ck_rate(c, "frames.rate", an, r, "its bytes", v, "its duration_ns", w[0]);
	}
}

/* The op holding the data transfer: "read", "write", or NULL (-e). */
static const char *io_op(const cJSON *doc)
{
	return ck_at(doc, "ops.read") ? "ops.read" : ck_at(doc, "ops.write") ? "ops.write" : NULL;
}

static void ck_series(const cJSON *doc, struct sm_check *c)
{
	double tot[NKEYS], v, *cum;
	const char *io = io_op(doc);
	const char *sum_of[NKEYS] = { NULL, NULL, NULL, NULL, "ops.open.lat_ns.histogram.sum",
				      NULL, "ops.close.lat_ns.histogram.sum",
				      "ops.frame.lat_ns.histogram.sum" };
	char iosum[64];
	unsigned n;
	int mpi = ck_at(doc, "mpi") != NULL, stream = 0;

	n = series_cum(ck_at(doc, "series"), &cum, tot);
	if (!n)
		return;
	if (io) {
		snprintf(iosum, sizeof(iosum), "%s.lat_ns.histogram.sum", io);
		sum_of[5] = iosum;
	}
	/* a stream (-s) opens and closes its file once per thread, not per
	 * frame: its frames have no open or close time */
	if (ck_bool(doc, "params.stream", &stream) && stream)
		sum_of[4] = sum_of[6] = NULL;
	if (ck_num(doc, "frames.transferred", &v))
		ck_eq(c, "frames.series-sum", "the series' items", tot[2], "frames.transferred", v);
	if (ck_num(doc, "totals.bytes", &v))
		ck_eq(c, "frames.series-sum", "the series' bytes", tot[1], "totals.bytes", v);
	if (ck_num(doc, "frames.dropped", &v))
		ck_eq(c, "frames.series-sum", "the series' dropped", tot[3], "frames.dropped", v);
	for (unsigned k = 4; k < NKEYS; k++) {
		char an[64];

		if (!sum_of[k] || !ck_num(doc, sum_of[k], &v))
			continue;
		snprintf(an, sizeof(an), "the series' %s", series_keys[k]);
		ck_eq(c, "frames.series-sum", an, tot[k], sum_of[k], v);
	}
	/* one span: the run's duration is what its series covers (an MPI
	 * job's is the last rank's, docs/mpi.md) */
	if (ck_num(doc, "duration_ns", &v))
		ck_eq(c, "frames.series-span", mpi ? "the merged series' duration_ns" :
		      "the series' duration_ns", tot[0], "duration_ns", v);
	ck_windows(doc, cum, n, tot, c);
	free(cum);
}

static void ck_counts(const cJSON *doc, struct sm_check *c)
{
	double tr, items, bytes, v, w;
	const char *io = io_op(doc);
	char an[64];

	if (ck_num(doc, "frames.transferred", &tr)) {
		if (ck_num(doc, "totals.items", &items))
			ck_eq(c, "frames.counts", "totals.items", items, "frames.transferred", tr);
		if (ck_num(doc, "ops.frame.count", &v) && ck_num(doc, "ops.frame.errors", &w))
			ck_eq(c, "frames.counts", "ops.frame.count less its errors", v - w,
			      "frames.transferred", tr);
		if (ck_num(doc, "frames.scheduled", &v) && ck_num(doc, "params.fps", &w) && !(w > 0))
			ck_le(c, "frames.share", "frames.transferred", tr, "frames.scheduled", v);
	}
	if (ck_num(doc, "totals.bytes", &bytes)) {
		if (ck_num(doc, "ops.frame.bytes", &v))
			ck_eq(c, "frames.counts", "ops.frame.bytes", v, "totals.bytes", bytes);
		snprintf(an, sizeof(an), "%s.bytes", io ? io : "");
		if (io && ck_num(doc, an, &v))
			ck_eq(c, "frames.counts", an, v, "totals.bytes", bytes);
	}
	if (ck_num(doc, "frames.dropped", &v) && ck_num(doc, "ops.frame.dropped", &w))
		ck_eq(c, "frames.counts", "ops.frame.dropped", w, "frames.dropped", v);
	if (ck_num(doc, "ops.frame.count", &v) && v > 0) {
		if (ck_num(doc, "frames.fastest_ns", &w) && ck_num(doc, "ops.frame.lat_ns.min", &items))
			ck_eq(c, "frames.counts", "frames.fastest_ns", w, "ops.frame.lat_ns.min", items);
		if (ck_num(doc, "frames.slowest_ns", &w) && ck_num(doc, "ops.frame.lat_ns.max", &items))
			ck_eq(c, "frames.counts", "frames.slowest_ns", w, "ops.frame.lat_ns.max", items);
	}
	/* the text histogram's columns are the frames of its window */
	if (ck_num(doc, "frames.histogram.covered_ns", &v) && ck_num(doc, "duration_ns", &w) &&
	    !ck_at(doc, "mpi"))
		ck_le(c, "frames.share", "frames.histogram.covered_ns", v, "duration_ns", w);
	{
		const cJSON *cnt = ck_at(doc, "frames.histogram.frame_ns.histogram.counts"), *p;
		double cols, n = 0;
		unsigned nc;

		if (cJSON_IsArray(cnt) && ck_sum(ck_at(doc, "frames.histogram.columns"), &cols, &nc)) {
			cJSON_ArrayForEach(p, cnt)
				if (cJSON_IsNumber(cJSON_GetArrayItem(p, 1)))
					n += cJSON_GetArrayItem(p, 1)->valuedouble;
			ck_eq(c, "frames.counts", "frames.histogram.columns' sum", cols,
			      "frames.histogram.frame_ns's count", n);
		}
	}
	if (ck_num(doc, "frames.histogram.window_ns", &v) && v == 0 &&
	    ck_num(doc, "frames.histogram.frame_ns.histogram.sum", &w) &&
	    ck_num(doc, "ops.frame.lat_ns.histogram.sum", &items))
		ck_eq(c, "frames.counts", "frames.histogram.frame_ns.histogram.sum (no -h: the whole run)",
		      w, "ops.frame.lat_ns.histogram.sum", items);
}

static void ck_paced(const cJSON *doc, struct sm_check *c)
{
	double fps, sched, tr, dropped, pf, sns, r, run, q, mb, late;
	const char *test = ck_str(doc, "params.test");
	int playback = test && !strcmp(test, "read"), mpi = ck_at(doc, "mpi") != NULL;

	if (!ck_num(doc, "params.fps", &fps) || !(fps > 0))
		return;
	if (!ck_num(doc, "frames.scheduled", &sched) || !ck_num(doc, "frames.transferred", &tr) ||
	    !ck_num(doc, "frames.dropped", &dropped))
		return;
	if (ck_num(doc, "frames.longest_drop_run", &run))
		ck_le(c, "frames.share", "frames.longest_drop_run", run, "frames.dropped", dropped);
	if (ck_num(doc, "frames.max_buffers_used", &mb) && ck_num(doc, "params.queue", &q))
		ck_le(c, "frames.share", "frames.max_buffers_used", mb, "params.queue", q);
	if (playback && ck_num(doc, "ops.frame.late", &late) &&
	    ck_num(doc, "frames.lateness_ns.late.histogram.sum", &r)) {
		const cJSON *cnt = ck_at(doc, "frames.lateness_ns.late.histogram.counts"), *p;
		double n = 0;

		cJSON_ArrayForEach(p, cnt)
			if (cJSON_IsNumber(cJSON_GetArrayItem(p, 1)))
				n += cJSON_GetArrayItem(p, 1)->valuedouble;
		ck_eq(c, "frames.counts", "ops.frame.late", late, "frames.lateness_ns.late's count", n);
		ck_le(c, "frames.share", "ops.frame.late", late, "frames.dropped", dropped);
	}
	if (!ck_num(doc, "frames.paced.frames", &pf) || !ck_num(doc, "frames.paced.schedule_ns", &sns))
		return;
	if (ck_num(doc, "frames.paced.frames_per_s", &r))
		ck_rate(c, "frames.rate", mpi ? "frames.paced.frames_per_s (an MPI job's merge)" :
			"frames.paced.frames_per_s", r, "frames.paced.frames", pf,
			"frames.paced.schedule_ns", sns);
	if (playback) {
		/* shown on time and dropped (late included) are the frames judged */
		ck_le(c, "frames.share", "frames.paced.frames + frames.dropped", pf + dropped,
		      "frames.scheduled", sched);
		ck_le(c, "frames.share", "frames.paced.frames", pf, "frames.transferred", tr);
		if (!mpi)
			ck_near(c, "frames.paced-span", "frames.paced.schedule_ns", sns,
				"(frames.paced.frames + frames.dropped) x 1e9 / params.fps",
				(pf + dropped) * 1e9 / fps, 1e-9);
	} else {
		ck_eq(c, "frames.counts", "frames.paced.frames (capture: written)", pf,
		      "frames.transferred", tr);
		ck_le(c, "frames.share", "frames.transferred + frames.dropped", tr + dropped,
		      "frames.scheduled", sched);
		if (!mpi)
			ck_le(c, "frames.paced-span", "(frames.transferred + frames.dropped) x 1e9 / params.fps",
			      (tr + dropped) * 1e9 / fps, "frames.paced.schedule_ns + 1", sns + 1);
	}
}

/* The per-frame columns add up to the run's frames and drops. */
static void ck_per_frame(const cJSON *doc, struct sm_check *c)
{
	const cJSON *pf = ck_at(doc, "frames.per_frame");
	double s, v;
	unsigned n;

	if (!cJSON_IsObject(pf))
		return;
	if (ck_sum(ck_at(pf, "frames"), &s, &n) && ck_num(doc, "frames.transferred", &v))
		ck_eq(c, "frames.per-frame", "frames.per_frame.frames' sum", s, "frames.transferred", v);
	if (ck_sum(ck_at(pf, "dropped"), &s, &n) && ck_num(doc, "frames.dropped", &v))
		ck_eq(c, "frames.per-frame", "frames.per_frame.dropped's sum", s, "frames.dropped", v);
	if (ck_sum(ck_at(pf, "sum_ns"), &s, &n) && ck_num(doc, "ops.frame.lat_ns.histogram.sum", &v))
		ck_eq(c, "frames.per-frame", "frames.per_frame.sum_ns' sum", s,
		      "ops.frame.lat_ns.histogram.sum", v);
	if (ck_sum(ck_at(pf, "sched_sum_ns"), &s, &n) &&
	    ck_num(doc, "ops.frame.sched_lat_ns.histogram.sum", &v))
		ck_eq(c, "frames.per-frame", "frames.per_frame.sched_sum_ns' sum", s,
		      "ops.frame.sched_lat_ns.histogram.sum", v);
}

void ck_frames(const cJSON *doc, struct sm_check *c)
{
	ck_series(doc, c);
	ck_counts(doc, c);
	ck_paced(doc, c);
	ck_per_frame(doc, c);
}
