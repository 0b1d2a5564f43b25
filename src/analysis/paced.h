/* SPDX-License-Identifier: MIT */
/* A paced frames run as the input of a real-time verdict: one function,
 * used by `stormark frames --format X` and by `stormark run`'s paced
 * confirmations, so both judge a run by the same figures. */
#ifndef SM_ANALYSIS_PACED_H
#define SM_ANALYSIS_PACED_H

#include "result/frames.h"
#include "result/verdict.h"

/*
 * Fill *pc from a paced frames run (plan.fps > 0): frames scheduled, moved
 * and dropped, the frame interval (1 / fps, rounded to the ns), the queue
 * (-q), its length (scheduled x interval) and the p99.9 and
 * maximum frame time from schedule (capture: completion - arrival;
 * playback: completion - (due - queue x interval)), from the run's sched_lat histogram, which the workload records per frame
 * in both directions; a playback result without it (an older JSON) has
 * them from its lateness histograms instead, within their bucket error.
 * complete is 1 unless the run was interrupted or failed.
 * Returns 0; -EINVAL when the run was not paced (*pc zeroed); -ERANGE when
 * a capture frame completed before it arrived, which means the schedule
 * itself went wrong: *pc is filled but complete is 0, so it decides nothing.
 */
int sm_paced_from_frames(const struct sm_frames_result *fr, struct sm_paced *pc);

#endif
