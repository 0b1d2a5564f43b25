/* SPDX-License-Identifier: MIT */
/* The analysis of a `stormark run` result: the verdict table from the frame
 * tests, which near-limit cells get a paced run and in which order, what a
 * paced run settles beyond its own cell, and the figures the reporters
 * print. Pure functions of the result (no I/O, no clock); the workload
 * (workload/profile*.c) calls them between its phases. */
#ifndef SM_ANALYSIS_RUN_H
#define SM_ANALYSIS_RUN_H

#include "result/run.h"

/* Compute every verdict cell of res from its frame tests: the rate model
 * over the measured sizes, then sm_verdict_cell_init() per format, rate and
 * direction (any paced outcome is reset). Capture uses what lasts
 * (docs/run.md): when the sustained write found a cliff, its point is its
 * sustained rate and no other size's write may claim more bytes per second
 * than that; each capture cell also gets burst_measured, the model on the
 * burst rates, and cliff = 1 where that alone would have computed a better
 * verdict. Needs res->sizes, res->rows[].fmt and res->plan.rates. */
void sm_run_compute_verdicts(struct sm_run_result *res);
/* With res->sustained_basis, a computed verdict also rests on sustained
 * data (docs/run.md, "What a verdict rests on"): no point claims more bytes
 * per second than the 2K test of its direction (after a cliff, the
 * sustained write), and each cell gets its buffer (plan.queue frames at the
 * rate), its worst-second rate and the basis bits it lacks, then is settled
 * (a stall past the buffer: not real time; a short write, a second under
 * the need or a frame larger than any measured: unconfirmed until a paced
 * run holds). Without it (a result saved before), as before. */

/* An MPI job's table (each cell the worst rank's) against what the job
 * measured together: job[d][i] is the bytes per second all ranks moved
 * together in frame test i (res->sizes[i]) of direction d (0: not
 * measured), so each of `ranks` clients had a share of job / ranks. A
 * cell whose measured rate is above the rate model over those shares is
 * brought down to it (ratio, computed, near_limit again) and settled:
 * no client's verdict exceeds what the job measured together. Returns the
 * cells lowered. */
unsigned sm_run_cap_to_job(struct sm_run_result *res, const double job[2][SM_RUN_NSIZES],
			   unsigned ranks);

/* sizes[] index of the run's sustained write (the SM_RUN_SUSTAINED_PRESET
 * write test) when it was measured, else -1. */
int sm_run_sustained(const struct sm_run_result *res);

/* A verdict cell waiting for a paced run. */
struct sm_run_cand {
	unsigned row, rate;
	enum sm_direction dir;
	double key;        /* |log(ratio / 1.1)|: distance from the middle of the marginal band */
};

/*
 * The cells worth a paced run, in the order to run them: the near-limit
 * ones (every cell with all), closest to the middle of the marginal band
 * (ratio 1.1) first; ties in table order (row, direction, rate). Cells a
 * cliff downgraded are left out: a paced run of a few seconds measures the
 * burst again, not what lasts. out must
 * hold res->nrows x res->plan.nrates x 2 entries. Returns how many.
 */
unsigned sm_run_candidates(const struct sm_run_result *res, int all, struct sm_run_cand *out);

/*
 * A paced run at cell c (already given to it with sm_verdict_cell_confirm())
 * settles more than its own cell: the same format in the same direction
 * only gets harder as the rate rises. When it dropped frames, every higher
 * rate without a paced run of its own becomes not real time; when it held
 * (within half its buffers), every lower rate takes it as its own, settled
 * by sm_verdict_cell_settle() (confirmed at its computed class, never
 * raised); except cells far from the limit whose computed verdict already
 * says so, and, for a run that held, cells a cliff downgraded. Those
 * cells take pc (its interval shows the rate it ran at). A held-tight
 * outcome settles nothing else. Returns the number of cells that took it.
 */
unsigned sm_run_propagate(struct sm_run_result *res, const struct sm_run_cand *c,
			  const struct sm_paced *pc);

/* Near-limit cells of the table (those a run without paced runs leaves
 * unconfirmed), less those a cliff downgraded (no paced run is for them). */
unsigned sm_run_count_near(const struct sm_run_result *res);

/* The highest-need realtime cell of direction dir: *row and *rate, or -1
 * (row and rate untouched) when no cell is realtime. */
int sm_run_best(const struct sm_run_result *res, enum sm_direction dir, unsigned *row,
		unsigned *rate);

/* The reported figures of classic test c in direction w (0 read, 1 write)
 * from its blockio result: c->fig[w] (rates and p99; valid when measured
 * with at least one I/O). The workload calls it after each test; a reader
 * of a saved result fills fig from the JSON instead (it has no histogram
 * to compute p99 from). */
void sm_run_classic_figures(struct sm_run_classic *c, int w);

/*
 * Fill res->derived: what the reporters print that the measurements do
 * not hold directly (a queued test that ran at QD1, which sections have
 * figures, the 2K reference test, the best format per direction and the
 * most it keeps up with under 20%, the paced runs' lengths, the notes the
 * summary makes), after settling every verdict cell from its computed
 * class and its paced run (sm_verdict_cell_settle(), so a result saved
 * before a paced run stopped raising verdicts reads by today's rule).
 * Reads only what the JSON of the run holds, so a reader of a saved
 * result can call it too. Idempotent; the workload calls it after each
 * phase.
 */
void sm_run_analyse(struct sm_run_result *res);

#endif
