/* SPDX-License-Identifier: MIT */
/* The paced-verdict input of a paced frames run. */
#include "analysis/paced.h"
#include "analysis/verdict.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* A frame time from schedule this large is a negative one that wrapped. */
#define WRAPPED (1ull << 62)

int sm_paced_from_frames(const struct sm_frames_result *fr, struct sm_paced *pc)
{
	const struct sm_frames_plan *p = &fr->plan;

	memset(pc, 0, sizeof(*pc));
	if (!(p->fps > 0))
		return -EINVAL;
	pc->scheduled = fr->frames_scheduled;
	pc->done = fr->frames_done;
	pc->dropped = fr->frames_dropped;
	pc->interval_ns = (uint64_t)llround(1e9 / p->fps);
	pc->length_ns = pc->scheduled * pc->interval_ns;
	pc->queue = p->queue;
	pc->complete = !fr->head.interrupted && !fr->error && !fr->head.error[0];
	if (p->kind == SM_FRAMES_READ && !fr->sched_lat.count) {
		/* a result without the recorded figure (an older JSON): a
		 * frame's buffer is free queue x interval before it is due */
		pc->p999_sched_ns = sm_playback_sched_ns(
			sm_lateness_percentile(&fr->early, &fr->late, 99.9), pc->queue,
			pc->interval_ns);
		pc->max_sched_ns = sm_playback_sched_ns(
			sm_lateness_percentile(&fr->early, &fr->late, 100), pc->queue,
			pc->interval_ns);
		return 0;
	}
	pc->p999_sched_ns = sm_hist_percentile(&fr->sched_lat, 99.9);
	pc->max_sched_ns = fr->sched_lat.count ? fr->sched_lat.max : 0;
	if (pc->max_sched_ns >= WRAPPED) {
		pc->complete = 0;
		return -ERANGE;
	}
	return 0;
}
