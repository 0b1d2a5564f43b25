/* SPDX-License-Identifier: MIT */
/* frames' derived figures: frame and data rates of the run, of its fastest
 * and slowest frame, and of any stretch of it. */
#include "analysis/frames.h"

#include <string.h>

/* n per second over ns nanoseconds; 0 over no time. */
static double per_s(double n, uint64_t ns)
{
	double secs = (double)ns / 1e9;

	return secs > 0 ? n / secs : 0;
}

struct sm_frames_rates sm_frames_snap_rates(const struct sm_frames_snap *s)
{
	struct sm_frames_rates out = {
		.frames_per_s = per_s((double)s->frames, s->t_ns),
		.bytes_per_s = per_s((double)s->bytes, s->t_ns),
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

void sm_frames_analyse(struct sm_frames_result *r)
{
	struct sm_frames_figures *f = &r->fig;

	memset(f, 0, sizeof(*f));
	f->secs = (double)r->head.duration_ns / 1e9;
	f->frames_per_s = per_s((double)r->frames_done, r->head.duration_ns);
	f->bytes_per_s = per_s((double)r->bytes, r->head.duration_ns);
	/* frametest's frame size: whole bytes, as the counts allow */
	f->frame_bytes = (double)(r->frames_done ? r->bytes / r->frames_done : 0);
	f->fastest_bytes_per_s = per_s(f->frame_bytes, r->fastest_ns);
	f->slowest_bytes_per_s = per_s(f->frame_bytes, r->slowest_ns);
	f->paced_bytes_per_s = r->paced_fps * f->frame_bytes;
}
