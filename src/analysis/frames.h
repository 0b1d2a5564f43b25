/* SPDX-License-Identifier: MIT */
/* The figures of a frames result that are derived from its counts (frame
 * and data rates), computed in one place for every layout. */
#ifndef SM_ANALYSIS_FRAMES_H
#define SM_ANALYSIS_FRAMES_H

#include "result/frames.h"

/* Fill r->fig from r's counts, duration, fastest/slowest frame and paced
 * rate. Call it when a run ends and after a saved result is read back.
 * Never fails. */
void sm_frames_analyse(struct sm_frames_result *r);

/* The frame and data rates of s, a stretch of a run (its t_ns is the
 * length): per second, 0 when t_ns is 0; and its per-frame means (open,
 * I/O, close, wall time per frame), 0 when s has no frames. Pure; never
 * fails. */
struct sm_frames_rates sm_frames_snap_rates(const struct sm_frames_snap *s);

#endif
