/* SPDX-License-Identifier: MIT */
/* frames' derived figures: frame and data rates of the run, of its fastest
 * and slowest frame, and of any stretch of it. */
#include "analysis/frames.h"
#include "analysis/cliff.h"
#include "core/clock.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct sm_frames_rates sm_frames_snap_rates(const struct sm_frames_snap *s)
{
	struct sm_frames_rates out = {
		.frames_per_s = sm_per_s((double)s->frames, s->t_ns),
		.bytes_per_s = sm_per_s((double)s->bytes, s->t_ns),
	};
	double n = (double)s->frames;

	if (s->frames) {
		out.open_mean_ns = (double)s->open_ns / n;
		out.io_mean_ns = (double)s->io_ns / n;
		out.close_mean_ns = (double)s->close_ns / n;
		out.wall_per_frame_ns = (double)s->t_ns / n;
	}

	return out;
}

/* The longest series looked at for a cliff: 12 days of seconds (8 MiB). */
#define MAX_SECS (1u << 20)

void sm_frames_cliff(const struct sm_frames_snap *series, unsigned n, struct sm_cliff *out)
{
	uint64_t t = 0, bytes = 0, secs = n ? series[n - 1].t_ns / SM_NS_PER_S + 1 : 1;
	double *rate;
	unsigned m = 0;

	if (secs > MAX_SECS)
		secs = MAX_SECS;   /* a saved result may say anything */
	rate = calloc(secs, sizeof(*rate));
	memset(out, 0, sizeof(*out));
	if (!rate)
		return;
	/* whole seconds: a sample is taken each second, so one much shorter
	 * (the end of the run) is not a rate over an interval; a sample late
	 * by a second or more (a stalled sampler) stands for each second it
	 * covers */
	for (unsigned i = 0; i < n; i++) {
		uint64_t dt = series[i].t_ns - t, k = (dt + SM_NS_PER_S / 2) / SM_NS_PER_S;

		if (dt >= SM_NS_PER_S * 9 / 10)
			for (uint64_t j = 0; j < k && m < secs; j++)
				rate[m++] = (double)(series[i].bytes - bytes) * 1e9 / (double)dt;
		t = series[i].t_ns;
		bytes = series[i].bytes;
	}
	sm_cliff_find(rate, m, SM_NS_PER_S, out);
	free(rate);
}

double sm_frames_worst_second(const struct sm_frames_snap *series, unsigned n)
{
	uint64_t t = 0, bytes = 0;
	double worst = -1;

	/* whole seconds as sm_frames_cliff() takes them */
	for (unsigned i = 0; i < n; i++) {
		uint64_t dt = series[i].t_ns - t;

		if (dt >= SM_NS_PER_S * 9 / 10) {
			double r = (double)(series[i].bytes - bytes) * 1e9 / (double)dt;

			if (worst < 0 || r < worst)
				worst = r;
		}
		t = series[i].t_ns;
		bytes = series[i].bytes;
	}
	return worst;
}

void sm_frames_window_rates(const struct sm_frames_result *r, unsigned secs,
			    struct sm_frames_snap *snap, struct sm_frames_rates *rates)
{
	if (secs == UINT32_MAX || sm_frames_window(r, secs, snap) == -ENODATA) {
		*snap = r->fig.overall;
		*rates = r->fig.overall_rates;
		return;
	}
	*rates = sm_frames_snap_rates(snap);
}

/* The run's overall figure (result/frames.h): one span and one count for
 * the table's row, the line and the JSON. */
static void overall(const struct sm_frames_result *r, struct sm_frames_figures *f)
{
	struct sm_frames_snap *o = &f->overall, all;
	struct sm_frames_rates *rt = &f->overall_rates;
	double k;

	sm_frames_window(r, UINT32_MAX, &all);
	memset(o, 0, sizeof(*o));
	o->dropped = r->frames_dropped;
	if (r->plan.fps > 0) {
		o->t_ns = r->schedule_ns;
		o->frames = r->paced_frames;
		o->bytes = (uint64_t)(f->frame_bytes * (double)r->paced_frames + 0.5);
	} else {
		o->t_ns = r->head.duration_ns;
		o->frames = r->frames_done;
		o->bytes = r->bytes;
	}
	/* the per-frame sums of every transferred frame, taken to o->frames */
	k = all.frames ? (double)o->frames / (double)all.frames : 0;
	o->open_ns = (uint64_t)((double)all.open_ns * k + 0.5);
	o->io_ns = (uint64_t)((double)all.io_ns * k + 0.5);
	o->close_ns = (uint64_t)((double)all.close_ns * k + 0.5);
	o->frame_ns = (uint64_t)((double)all.frame_ns * k + 0.5);
	*rt = sm_frames_snap_rates(&all);
	rt->frames_per_s = r->plan.fps > 0 ? r->paced_fps : f->frames_per_s;
	rt->bytes_per_s = r->plan.fps > 0 ? f->paced_bytes_per_s : f->bytes_per_s;
	rt->wall_per_frame_ns = o->frames ? (double)o->t_ns / (double)o->frames : 0;
}

uint64_t sm_frames_stall_threshold(const struct sm_frames_result *r)
{
	uint64_t t;

	if (r->plan.fps > 0 && r->plan.queue)
		return (uint64_t)((double)r->plan.queue * 1e9 / r->plan.fps);
	t = 2 * sm_hist_percentile(&r->frame.lat, 50);
	return t > SM_STALL_UNPACED_MIN_NS ? t : SM_STALL_UNPACED_MIN_NS;
}

void sm_frames_analyse(struct sm_frames_result *r)
{
	struct sm_frames_figures *f = &r->fig;

	memset(f, 0, sizeof(*f));
	f->secs = (double)r->head.duration_ns / 1e9;
	f->frames_per_s = sm_per_s((double)r->frames_done, r->head.duration_ns);
	f->bytes_per_s = sm_per_s((double)r->bytes, r->head.duration_ns);
	/* frametest's frame size: whole bytes, as the counts allow */
	f->frame_bytes = (double)(r->frames_done ? r->bytes / r->frames_done : 0);
	f->fastest_bytes_per_s = sm_per_s(f->frame_bytes, r->fastest_ns);
	f->slowest_bytes_per_s = sm_per_s(f->frame_bytes, r->slowest_ns);
	f->paced_bytes_per_s = r->paced_fps * f->frame_bytes;
	overall(r, f);
	if (r->stalls.measured)
		sm_stalls_count(&r->stalls, sm_frames_stall_threshold(r));
	memset(&r->cliff, 0, sizeof(r->cliff));
	if (r->plan.kind == SM_FRAMES_WRITE)
		sm_frames_cliff(r->series, r->nseries, &r->cliff);
}
