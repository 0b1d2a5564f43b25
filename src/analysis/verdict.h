/* SPDX-License-Identifier: MIT */
/* Real-time verdicts for a format at a frame rate, from measured figures:
 * computed from sustained rates, or confirmed by a paced run. Pure
 * functions; the boundaries are documented in docs/run.md. */
#ifndef SM_ANALYSIS_VERDICT_H
#define SM_ANALYSIS_VERDICT_H

#include <stdint.h>

#include "core/hist.h"
#include "result/verdict.h"

/*
 * Boundaries, as ratios r = measured rate / needed rate:
 *   REALTIME      r >= 1.2            (at least 20% headroom)
 *   MARGINAL      1.0 <= r < 1.2      (keeps up, with less than 20% to spare)
 *   NOT_REALTIME  r < 1.0             (includes a zero or unknown rate)
 * A computed verdict is "near the limit", worth a paced run, when
 * 0.9 <= r < 1.5. Comparisons are exact in multiplied form (5m >= 6n).
 */
#define SM_VERDICT_HEADROOM 1.2
/* The same headroom in percent, for the words of every report (the tests
 * check that it agrees with sm_verdict_compute()). */
#define SM_VERDICT_HEADROOM_PCT 20
#define SM_VERDICT_NEAR_LOW 0.9
#define SM_VERDICT_NEAR_HIGH 1.5

/* The verdict from a measured sustained rate and the rate needed (both in
 * bytes/s, or both in frames/s). A needed rate <= 0 is always REALTIME. */
enum sm_verdict sm_verdict_compute(double measured, double needed);

/* 1 when measured/needed lies in [SM_VERDICT_NEAR_LOW, SM_VERDICT_NEAR_HIGH). */
int sm_verdict_near_limit(double measured, double needed);

/*
 * The verdict of a paced run: NOT_REALTIME on any dropped frame;
 * REALTIME with no drops and p99.9 from schedule at most half of
 * queue x interval (what "comfortably under q frame intervals" means);
 * MARGINAL with no drops but a p99.9 above that. Returns -1 when the run
 * cannot decide (not complete, or no frame scheduled).
 */
int sm_verdict_paced(const struct sm_paced *p);

/* Fill a cell from rates: ratio, computed, near_limit; final = computed,
 * how = COMPUTED, no paced run. */
void sm_verdict_cell_init(struct sm_verdict_cell *c, double measured, double needed);

/* The outcome of the paced run a cell carries (sm_verdict_paced() of
 * c->paced), or -1 when it carries none. */
int sm_verdict_cell_outcome(const struct sm_verdict_cell *c);

/*
 * final and how from computed, the basis and the paced run the cell
 * carries. A paced run confirms that a cell holds or lowers it; it never
 * raises the class the sustained rate gives (yes means at least 20%
 * headroom by that rate, which a few seconds without a drop cannot show):
 *   a stall past the buffers        final = NOT_REALTIME (how PACED when its
 *    (basis SM_BASIS_STALL)          paced run dropped too, else COMPUTED)
 *   dropped                         final = NOT_REALTIME, how PACED
 *   computed NOT_REALTIME           final = NOT_REALTIME, how COMPUTED (a run
 *                                   that held was shorter than the shortfall
 *                                   takes to fill the buffers)
 *   held or held-tight              final = the lower of computed and the
 *                                   run's outcome, how PACED (a marginal
 *                                   cell held stays marginal: "~*")
 *   no paced run, basis lacking     final = UNCONFIRMED, how COMPUTED
 *    (short, dip, extrapolated)
 *   no paced run                    final = computed, how COMPUTED
 * Idempotent; a reader of a saved result calls it (sm_run_analyse).
 */
void sm_verdict_cell_settle(struct sm_verdict_cell *c);

/* Give a cell a paced run (its own, or one at another rate that settles
 * it) and settle it. Returns 1 when the run decided an outcome, 0 when it
 * could not (not complete, nothing scheduled: the cell is unchanged). */
int sm_verdict_cell_confirm(struct sm_verdict_cell *c, const struct sm_paced *p);

/*
 * Predicted highest sustained frame rate at frame_bytes from measured
 * points (any order; points with fps <= 0 are ignored). Frame time
 * T = 1/fps is interpolated linearly in frame size between neighbours;
 * outside the measured range it is the larger (more pessimistic) of the
 * nearest segment's extrapolation and constant bandwidth from the nearest
 * point; below the smallest point it is never more than that point's.
 * Returns 0 when there is no usable point.
 */
double sm_rate_model_fps(const struct sm_rate_point *pts, unsigned n, uint64_t frame_bytes);

/* Lateness (completion - due, ns, negative when early) at percentile p of
 * a playback run, from its histograms of early and late frames. */
int64_t sm_lateness_percentile(const struct sm_hist *early, const struct sm_hist *late,
			       double p);

/* Playback frame time from schedule for a lateness: a frame's buffer is
 * free queue x interval before it is due, so the time from then to its
 * completion is queue x interval + lateness (0 when negative). */
uint64_t sm_playback_sched_ns(int64_t lateness_ns, unsigned queue, uint64_t interval_ns);

#endif
