/* SPDX-License-Identifier: MIT */
/* frametest's histogram axis, windows over a frames result's series, and
 * its release. */
#include "result/frames.h"
#include "core/clock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* frametest's axis: ticks at these ms values, at these columns. */
const double sm_ft_tick_ms[SM_FT_TICKS] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
const unsigned sm_ft_tick_col[SM_FT_TICKS] = { 0, 5, 11, 16, 21, 27, 32, 37, 43, 48, 53, 59, 64 };

unsigned sm_ft_column(uint64_t ns)
{
	double ms = (double)ns / 1e6;

	if (ms < sm_ft_tick_ms[0])
		return 0;
	for (unsigned j = 0; j + 1 < SM_FT_TICKS; j++) {
		double lo = sm_ft_tick_ms[j], hi = sm_ft_tick_ms[j + 1];
		unsigned c0 = sm_ft_tick_col[j], c1 = sm_ft_tick_col[j + 1];

		if (ms >= hi)
			continue;
		/* Columns c0+1 .. c1 split [lo, hi) evenly on a log scale (a
		 * tick's column holds the values just below it), except that
		 * the last column is only for >= 1 s. */
		if (c1 == SM_FT_COLUMNS - 1)
			c1--;
		return c0 + 1 + (unsigned)((double)(c1 - c0) * log(ms / lo) / log(hi / lo));
	}
	return SM_FT_COLUMNS - 1;
}

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
	for (unsigned c = 0; c < SM_FT_COLUMNS; c++)
		out->ft_cols[c] = a->ft_cols[c] - b->ft_cols[c];
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
