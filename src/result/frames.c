/* SPDX-License-Identifier: MIT */
/* Windows over a frames result's series, and its release. */
#include "result/frames.h"
#include "core/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sm_frames_snap_diff(const struct sm_frames_snap *a, const struct sm_frames_snap *b,
		      struct sm_frames_snap *out)
{
	out->t_ns = a->t_ns - b->t_ns;
	out->frames = a->frames - b->frames;
	out->bytes = a->bytes - b->bytes;
	out->dropped = a->dropped - b->dropped;
	out->open_ns = a->open_ns - b->open_ns;
	out->io_ns = a->io_ns - b->io_ns;
	out->close_ns = a->close_ns - b->close_ns;
	out->frame_ns = a->frame_ns - b->frame_ns;
}

int sm_frames_window(const struct sm_frames_result *res, unsigned secs, struct sm_frames_snap *out)
{
	static const struct sm_frames_snap zero;
	const struct sm_frames_snap *end, *start = &zero;
	uint64_t want;

	memset(out, 0, sizeof(*out));
	if (!res->nseries)
		return -ENODATA;
	end = &res->series[res->nseries - 1];
	if (end->t_ns < (uint64_t)secs * SM_NS_PER_S) {
		sm_frames_snap_diff(end, start, out);
		return -ENODATA;
	}
	want = end->t_ns - (uint64_t)secs * SM_NS_PER_S;
	/* The sample nearest to the window's start (samples are a second
	 * apart; out->t_ns holds the window's real length). */
	for (unsigned i = 0; i + 1 < res->nseries; i++) {
		const struct sm_frames_snap *c = &res->series[i];
		uint64_t dc = c->t_ns > want ? c->t_ns - want : want - c->t_ns;
		uint64_t ds = start->t_ns > want ? start->t_ns - want : want - start->t_ns;

		if (dc < ds)
			start = c;
	}
	sm_frames_snap_diff(end, start, out);
	return 0;
}

void sm_frames_result_release(struct sm_frames_result *res)
{
	free(res->series);
	res->series = NULL;
	res->nseries = 0;
}

int sm_frames_path(const struct sm_frames_plan *plan, uint64_t k, char *buf, unsigned len)
{
	int n;

	if (plan->stream)
		n = snprintf(buf, len, "%s", plan->path);
	else if (plan->files_per_dir)
		n = snprintf(buf, len, "%s/d%05llu/frame%06llu.tst", plan->path,
			     (unsigned long long)(k / plan->files_per_dir), (unsigned long long)(plan->first + k));
	else
		n = snprintf(buf, len, "%s/frame%06llu.tst", plan->path, (unsigned long long)(plan->first + k));
	return n < 0 || (unsigned)n >= len ? -ENAMETOOLONG : 0;
}

const char *const sm_frames_series_keys[SM_FRAMES_SERIES_KEYS] = {
	"duration_ns", "bytes", "items", "dropped", "open_ns", "io_ns", "close_ns", "frame_ns",
};

const char *const sm_frames_map_keys[SM_FRAMES_MAP_KEYS] = {
	"frames", "dropped", "min_ns", "max_ns", "sum_ns",
	"sched_frames", "sched_min_ns", "sched_max_ns", "sched_sum_ns",
};
