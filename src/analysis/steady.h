/* SPDX-License-Identifier: MIT */
/* The steady-state rule of SNIA's Solid State Storage Performance Test
 * Specification (PTS) as a pure function of a series of round figures. */
#ifndef SM_ANALYSIS_STEADY_H
#define SM_ANALYSIS_STEADY_H

#include "result/steady.h"

/* PTS's rule: a window of 5 rounds, range <= 20% and the best-fit line's
 * excursion <= 10% of the window's average. */
void sm_steady_rule_pts(struct sm_steady_rule *rule);

/*
 * Apply rule to the last rule->window figures of y[0..n) (all of them when
 * n is smaller: then w->steady is 0, too few rounds) and fill *w: average,
 * minimum, maximum, range, least-squares slope and excursion, and which
 * limits hold. A window whose average is not above 0 is never steady.
 * Returns 1 when the window is steady, 0 when it is not, -EINVAL (w
 * untouched) when n is 0, rule->window < 2 or a figure is not finite.
 */
int sm_steady_eval(const double *y, unsigned n, const struct sm_steady_rule *rule,
		   struct sm_steady_window *w);

/* Record round figure y (its measured length dur_ns) in s and apply the
 * rule to the rounds so far; sets s->win, and s->reached_at the first time
 * the window is steady. Returns 1 when steady state is reached (stop the
 * rounds), 0 to go on, -ENOSPC when s already holds max_rounds rounds. */
int sm_steady_add(struct sm_steady *s, double y, uint64_t dur_ns);

#endif
