/* SPDX-License-Identifier: MIT */
/* Cliff detection over a per-interval write rate: the best single split of
 * the series into a faster part and a slower part, and the tests that tell
 * a cliff from noise (docs/cliff.md). A pure function, for every write test
 * (frames, fileio, run's phases, streams). */
#ifndef SM_ANALYSIS_CLIFF_H
#define SM_ANALYSIS_CLIFF_H

#include <stdint.h>

#include "result/cliff.h"

/* The rule's thresholds; docs/cliff.md says why these values. */
#define SM_CLIFF_MIN_SIDE 4        /* whole intervals on each side of the fall */
#define SM_CLIFF_MIN_SAMPLES (2 * SM_CLIFF_MIN_SIDE)
#define SM_CLIFF_DROP 0.7          /* sustained below 0.7 x burst */
#define SM_CLIFF_T_MIN 5.0         /* the step's t statistic at least this */
#define SM_CLIFF_MAJORITY 0.8      /* share of each side on its own side of the midpoint */

/*
 * Look for a cliff in rate[0..n) (bytes per second over consecutive whole
 * intervals of interval_ns, the first starting when the write began). Fills
 * *out: looked = 0 when n < SM_CLIFF_MIN_SAMPLES; otherwise the best split k
 * (least squares of a two-level step, each side at least SM_CLIFF_MIN_SIDE
 * intervals) is a cliff when all hold: after < SM_CLIFF_DROP x before;
 * (before - after) / (s x sqrt(1/k + 1/(n-k))) >= SM_CLIFF_T_MIN, s the
 * pooled standard deviation about the two levels; and at least
 * SM_CLIFF_MAJORITY of the intervals of each side lie on their side of the
 * midpoint of the two levels. The burst and sustained rates are the means of
 * each side less the interval next to the split (the one the fall may lie
 * in) when that side keeps two or more; the time of the fall is placed
 * inside the interval it happened in by the share of that interval's rate
 * above the sustained level. Pure; never fails.
 */
void sm_cliff_find(const double *rate, unsigned n, uint64_t interval_ns, struct sm_cliff *out);

#endif
