/* SPDX-License-Identifier: MIT */
/* Judging a streams step and steering the search: pure functions, the
 * rules documented in docs/streams.md. */
#ifndef SM_ANALYSIS_STREAMS_H
#define SM_ANALYSIS_STREAMS_H

#include <stdint.h>

#include "result/streams.h"

/*
 * A stream held when it moved every frame of its schedule with no drop,
 * no error, and a p99.9 frame time from schedule within its buffer
 * allowance (queue x interval: a frame waited no longer than the buffers
 * can cover). Returns 1 or 0.
 */
int sm_stream_holds(const struct sm_stream_fig *s, uint64_t interval_ns, unsigned queue);

/* Fill a step's derived figures (held: complete and every stream holds;
 * bytes_per_s over the schedule span; dropped; worst p99.9). */
void sm_streams_step_judge(struct sm_streams_step *st, uint64_t interval_ns, unsigned queue);

/*
 * A step's mix (st->nmix streams of the ngroups groups g, group by group;
 * after sm_streams_step_judge when st->n > 0): fills st->mix_groups
 * (allocated here, the caller frees it with the step; -ENOMEM leaves it
 * NULL) and st->mix_total, each stream judged by sm_stream_holds() at its
 * group's interval; the step holds only when the mix holds too (a step
 * of no searched stream, the mix alone, holds when it is complete and the
 * mix holds). dir >= 0 (the searched direction): the mix's streams of
 * that direction are added to st->bytes and its rates (they share the
 * storage's capacity in that direction); < 0: st->bytes is the whole
 * mix's. Returns 0 or -ENOMEM.
 */
int sm_streams_mix_judge(struct sm_streams_step *st, const struct sm_streams_group *g, unsigned ngroups,
			 unsigned queue, int dir);

/*
 * The most streams that keep `run`'s 20% headroom: the largest n <= raw
 * (streams held) with sm_verdict_compute(sustained, n x rate) REALTIME,
 * sustained being the aggregate bytes/s the storage delivered (with
 * sustained <= 0: raw x rate, i.e. 6n <= 5 raw).
 */
unsigned sm_streams_headroom(unsigned raw, double sustained, double rate);

/* The same beside a mix whose streams of the direction need `base`
 * bytes/s: the largest n <= raw with sustained >= 1.2 x (base + n x rate)
 * (sustained <= 0: base + raw x rate). base 0 is sm_streams_headroom. */
unsigned sm_streams_headroom_beside(unsigned raw, double sustained, double rate, double base);

/* The tool's own CPU in step st of n streams (its cpu_ns over its
 * duration_ns): *core the share of one core, *us_per_stream_s the us of
 * CPU per stream per second. Returns 1, or 0 when the step has no CPU
 * figure (a result saved before it was measured) or no span. */
int sm_streams_step_cpu(const struct sm_streams_step *st, unsigned n, double *core,
			double *us_per_stream_s);

/*
 * The next n to try. Without a guess (guess <= 1): doubling from 1 until a
 * step fails or `cap` holds, then bisection between the largest n held
 * (lo) and the smallest failed (hi; 0 when none failed yet). With a guess
 * g (from what the storage delivered for an earlier format): g first;
 * held, g + 1 (then doubling); failed, g - 1 (then bisection), so a right
 * guess settles the answer in two steps. Returns 0 when the search is
 * over: 1 failed (the answer is 0), cap held, or hi = lo + 1.
 */
unsigned sm_streams_next(unsigned lo, unsigned hi, unsigned cap, int any_step, unsigned guess);

/* The first n to try for a format of `rate` bytes/s when the storage
 * delivered `sustained` bytes/s for an earlier one: floor(sustained /
 * rate), within [1, cap]; 1 when nothing is known. Beside a mix, the
 * caller gives sustained less the mix's base rate. */
unsigned sm_streams_guess(double sustained, double rate, unsigned cap);

/* After a step of n streams: update lo/hi. */
void sm_streams_update(unsigned n, int held, unsigned *lo, unsigned *hi);

/* Trials of a search: for each distinct n, how many complete steps ran
 * (trials) and held. */
struct sm_streams_trials {
	unsigned lo;               /* largest n such that every trial of every n up to
				    * it held (0: none) */
	unsigned first_fail;       /* smallest n with a trial that failed, 0: none */
	unsigned high;             /* largest n held in any trial (>= lo) */
	unsigned lo_held, lo_trials;       /* at lo (0, 0 when lo is 0) */
	unsigned fail_held, fail_trials;   /* at first_fail (0, 0 when none) */
};

/* The trials of k steps (n[i] streams, held[i]; complete steps only) into
 * *out. Pure; never fails. */
void sm_streams_trials(const unsigned *n, const int *held, unsigned k,
		       struct sm_streams_trials *out);

/* The next step the boundary needs after the search (0: none): an untested
 * n between lo and first_fail when they are more than one apart (a trial
 * moved the answer down), else lo or first_fail while it has fewer than
 * `trials` trials. */
unsigned sm_streams_next_trial(const struct sm_streams_trials *t, unsigned trials);

/* Fill a cell's answer from its complete steps (a step a signal cut short
 * answers nothing; one a fault stopped is not kept) by sm_streams_trials:
 * measured (an answer above 0, a step of one stream that failed, or the
 * cap held; "0" is only ever a failed step of one stream), max_raw (lo),
 * first failure, max_high and the trials at both, at_cap (held at cap),
 * agg_bytes_per_s (the least of the held trials' rates at max_raw),
 * sustained_bytes_per_s (the larger of that and, when first_fail is
 * max_raw + 1, the least its failed trials delivered, but no more than
 * first_fail x rate, and beside a mix base_rate + first_fail x rate),
 * max_headroom from those (sm_streams_headroom_beside with base_rate). */
void sm_streams_cell_finish(struct sm_streams_cell *c, unsigned cap);

/*
 * The cell that contradicts cell j's answer, if any: of the measured cells
 * of the same format, kind, direction (and mix) at a lower fps whose
 * search found a failure, the one with the fewest streams, when that is
 * fewer than j's own trials held (own_raw). A lower rate needs less of the
 * storage, so it cannot hold fewer streams than a higher one. Returns its
 * index, or -1.
 */
int sm_streams_lower_bound(const struct sm_streams_cell *cells, unsigned n, unsigned j);

/*
 * Judge capture cell c's sustained confirmation step st (judged already by
 * sm_streams_step_judge; st->n the answer it confirms) and the cliff cl
 * looked for in its per-second write rate: records them in c (confirm =
 * SM_CONFIRM_RAN) and recomputes max_headroom by the headroom rule on the
 * rate that lasted: the smaller of the search's sustained rate and, when a
 * cliff was found, the rate after it; when the step did not hold, also
 * what it delivered, and no more than st->n - 1 streams. A lower answer
 * sets c->lowered and says why in c->confirm_note. Pure; never fails.
 */
void sm_streams_confirm_judge(struct sm_streams_cell *c, const struct sm_streams_step *st,
			      uint64_t len_ns, const struct sm_cliff *cl);

#endif
