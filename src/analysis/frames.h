/* SPDX-License-Identifier: MIT */
/* The figures of a frames result that are derived from its counts (frame
 * and data rates), computed in one place for every layout. */
#ifndef SM_ANALYSIS_FRAMES_H
#define SM_ANALYSIS_FRAMES_H

#include "result/frames.h"

/* The buffer a frames test's stalls are counted against: paced, its queue
 * of frames at its rate; unpaced, twice its median frame time, at least
 * SM_STALL_UNPACED_MIN_NS (a gap its own frames do not explain). */
uint64_t sm_frames_stall_threshold(const struct sm_frames_result *r);

/* Fill r->fig from r's counts, duration, fastest/slowest frame and paced
 * rate, r->stalls' count against sm_frames_stall_threshold(), and for a
 * write test r->cliff from its per-second series (whole
 * seconds only: the last, partial sample is left out; docs/cliff.md). Call
 * it when a run ends and after a saved result is read back. Never fails
 * (without memory for the rates, the cliff says it did not look). */
void sm_frames_analyse(struct sm_frames_result *r);

/* The cliff of a frames series (cumulative samples, one a second): rates
 * over its whole seconds into sm_cliff_find(). Other commands' frames runs
 * (run's sustained write) call it on their scratch result. Never fails;
 * *out says whether it looked. */
void sm_frames_cliff(const struct sm_frames_snap *series, unsigned n, struct sm_cliff *out);

/* The bytes per second of the slowest whole second of a series (the
 * intervals sm_frames_cliff() looks at), or -1 when no interval lasted
 * one. Pure. */
double sm_frames_worst_second(const struct sm_frames_snap *series, unsigned n);

/* The frame and data rates of s, a stretch of a run (its t_ns is the
 * length): per second, 0 when t_ns is 0; and its per-frame means (open,
 * I/O, close, wall time per frame), 0 when s has no frames. Pure; never
 * fails. */
struct sm_frames_rates sm_frames_snap_rates(const struct sm_frames_snap *s);

/* The averaged table's window of the last secs seconds (UINT32_MAX: the
 * whole run): its counts into *snap and its rates into *rates. A window
 * that covers the whole run is the run's overall figure (fig.overall, set
 * by sm_frames_analyse()), so that every row of the run's whole span says
 * the same. */
void sm_frames_window_rates(const struct sm_frames_result *r, unsigned secs,
			    struct sm_frames_snap *snap, struct sm_frames_rates *rates);

#endif
