/* SPDX-License-Identifier: MIT */
/* The exact merge of the ranks' results of a many-host run: counts summed,
 * histograms merged bucket by bucket, never a percentile averaged. */
#include "result/dist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The first error of dst, else src's (with the rank's words kept). */
static void merge_head(struct sm_result_head *dst, const struct sm_result_head *src)
{
	if (!dst->error[0] && src->error[0])
		snprintf(dst->error, sizeof(dst->error), "%s", src->error);
	dst->interrupted |= src->interrupted;
	for (unsigned i = 0; i < src->warnings.count; i++)
		sm_warn(&dst->warnings, src->warnings.item[i].code, "%s", src->warnings.item[i].message);
}

/* Cumulative snapshots: at index i each rank's own state, a finished rank
 * staying at its last one. */
static int merge_snaps(struct sm_frames_result *dst, const struct sm_frames_result *src)
{
	unsigned n = dst->nseries > src->nseries ? dst->nseries : src->nseries;
	struct sm_frames_snap *s, last_d, last_s;

	if (!src->nseries)
		return 0;
	memset(&last_d, 0, sizeof(last_d));
	if (dst->nseries)
		last_d = dst->series[dst->nseries - 1];
	last_s = src->series[src->nseries - 1];
	s = realloc(dst->series, n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct sm_frames_snap a = i < dst->nseries ? s[i] : last_d;
		const struct sm_frames_snap *b = i < src->nseries ? &src->series[i] : &last_s;

		a.t_ns = max_u64(i < dst->nseries ? s[i].t_ns : 0, i < src->nseries ? b->t_ns : 0);
		a.frames += b->frames;
		a.bytes += b->bytes;
		a.dropped += b->dropped;
		a.open_ns += b->open_ns;
		a.io_ns += b->io_ns;
		a.close_ns += b->close_ns;
		a.frame_ns += b->frame_ns;
		s[i] = a;
	}
	dst->series = s;
	dst->nseries = n;
	return 0;
}

int sm_frames_merge(struct sm_frames_result *dst, const struct sm_frames_result *src)
{
	merge_head(&dst->head, &src->head);
	dst->frames_scheduled += src->frames_scheduled;
	dst->frames_done += src->frames_done;
	dst->frames_dropped += src->frames_dropped;
	dst->longest_drop_run = max_u64(dst->longest_drop_run, src->longest_drop_run);
	dst->bytes += src->bytes;
	dst->max_queue = max_u64(dst->max_queue, src->max_queue);
	sm_verify_stats_merge(&dst->verify, &src->verify);
	sm_opstat_merge(&dst->open, &src->open);
	sm_opstat_merge(&dst->io, &src->io);
	sm_opstat_merge(&dst->close, &src->close);
	sm_opstat_merge(&dst->frame, &src->frame);
	sm_hist_merge(&dst->sched_lat, &src->sched_lat);
	sm_hist_merge(&dst->early, &src->early);
	sm_hist_merge(&dst->late, &src->late);
	/* paced: the streams play side by side, their rates add up */
	dst->paced_frames += src->paced_frames;
	dst->schedule_ns = max_u64(dst->schedule_ns, src->schedule_ns);
	dst->paced_fps += src->paced_fps;
	sm_hist_merge(&dst->frame_window, &src->frame_window);
	/* the per-frame chart: the ranks' frames of one transfer number together */
	sm_framemap_merge(&dst->frame_map, &src->frame_map);
	dst->frame_window_ns = max_u64(dst->frame_window_ns, src->frame_window_ns);
	if (src->frames_done && (!dst->fastest_ns || src->fastest_ns < dst->fastest_ns))
		dst->fastest_ns = src->fastest_ns;
	dst->slowest_ns = max_u64(dst->slowest_ns, src->slowest_ns);
	if (!dst->error)
		dst->error = src->error;
	return merge_snaps(dst, src);
}

/* Interval ticks: counts of the same interval summed; the interval's
 * percentile cannot be merged from two percentiles, so the higher one
 * stands (an upper bound, docs/mpi.md); its maximum is exact. */
static int merge_ticks(struct sm_fileio_result *dst, const struct sm_fileio_result *src)
{
	unsigned n = dst->nseries > src->nseries ? dst->nseries : src->nseries;

	if (n > dst->series_cap) {
		struct sm_fileio_tick *t = realloc(dst->series, n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		memset(t + dst->series_cap, 0, (n - dst->series_cap) * sizeof(*t));
		dst->series = t;
		dst->series_cap = n;
	}
	for (unsigned i = 0; i < src->nseries; i++) {
		struct sm_fileio_tick *a = &dst->series[i];
		const struct sm_fileio_tick *b = &src->series[i];

		if (i >= dst->nseries) {
			*a = *b;
			continue;
		}
		a->t_ns = max_u64(a->t_ns, b->t_ns);
		a->interval_ns = max_u64(a->interval_ns, b->interval_ns);
		a->reads += b->reads;
		a->writes += b->writes;
		a->fsyncs += b->fsyncs;
		a->events += b->events;
		a->read_bytes += b->read_bytes;
		a->write_bytes += b->write_bytes;
		a->lat_pct_ns = max_u64(a->lat_pct_ns, b->lat_pct_ns);
		a->lat_max_ns = max_u64(a->lat_max_ns, b->lat_max_ns);
	}
	dst->nseries = n;
	return 0;
}

int sm_fileio_merge(struct sm_fileio_result *dst, const struct sm_fileio_result *src)
{
	unsigned n = dst->nthreads + src->nthreads;
	uint64_t *ev, *busy;

	merge_head(&dst->head, &src->head);
	for (int i = 0; i < 3; i++)
		sm_opstat_merge(&dst->ops[i], &src->ops[i]);
	sm_hist_merge(&dst->events_lat, &src->events_lat);
	dst->events += src->events;
	dst->periodic_fsyncs += src->periodic_fsyncs;
	dst->end_fsyncs += src->end_fsyncs;
	/* every rank's threads are threads of the job (sysbench's fairness) */
	ev = realloc(dst->thread_events, (n ? n : 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	dst->thread_events = ev;
	busy = realloc(dst->thread_busy_ns, (n ? n : 1) * sizeof(*busy));
	if (!busy)
		return -ENOMEM;
	dst->thread_busy_ns = busy;
	if (src->nthreads && src->thread_events && src->thread_busy_ns) {
		memcpy(ev + dst->nthreads, src->thread_events, src->nthreads * sizeof(*ev));
		memcpy(busy + dst->nthreads, src->thread_busy_ns, src->nthreads * sizeof(*busy));
	} else {
		n = dst->nthreads;
	}
	dst->nthreads = n;
	dst->failed |= src->failed;
	sm_verify_stats_merge(&dst->verify, &src->verify);
	/* a rank's result carries its cliff, not its seconds: the job's
	 * cliff cannot be found from them, and one rank's is not the job's */
	memset(&dst->cliff, 0, sizeof(dst->cliff));
	dst->nwsec = 0;
	return merge_ticks(dst, src);
}
