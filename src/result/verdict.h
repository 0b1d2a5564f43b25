/* SPDX-License-Identifier: MIT */
/* Verdict types of the result model: a real-time verdict per format, rate
 * and direction, how it was decided, and what a paced run showed. The
 * logic that decides them is in analysis/verdict.h. */
#ifndef SM_RESULT_VERDICT_H
#define SM_RESULT_VERDICT_H

#include <stdint.h>

/* Ordered: a lower value claims less. UNCONFIRMED is never computed from
 * rates: it is what a cell whose rates say real time (or marginal) shows
 * when the run's evidence does not bear it out (enum sm_verdict_basis) and
 * no paced run confirmed it. */
enum sm_verdict {
	SM_VERDICT_NOT_REALTIME = 0,
	SM_VERDICT_UNCONFIRMED,
	SM_VERDICT_MARGINAL,
	SM_VERDICT_REALTIME,
	SM_VERDICT_COUNT
};

/* What a computed verdict lacks to rest on sustained data (docs/run.md,
 * "What a verdict rests on"); bits of sm_verdict_cell.basis. */
enum sm_verdict_basis {
	SM_BASIS_SHORT = 1,        /* capture: the sustained write was too short to
				    * look for a cliff */
	SM_BASIS_DIP = 2,          /* some whole second of the frame tests it leans
				    * on ran below the need (or none lasted a second) */
	SM_BASIS_EXTRAPOLATED = 4, /* a frame larger than any the run measured */
	SM_BASIS_STALL = 8,        /* a test of its direction stopped for longer than
				    * the cell's buffer: not real time */
};
#define SM_BASIS_ALL 15u

/* How a verdict was reached. */
enum sm_verdict_how {
	SM_HOW_COMPUTED = 0,   /* from measured sustained rates */
	SM_HOW_PACED,          /* a paced run confirmed it, or lowered it: a
				* paced run never raises a verdict */
};

enum sm_direction {
	SM_DIR_CAPTURE = 0,    /* write: frames arrive at the rate */
	SM_DIR_PLAYBACK,       /* read: frames are due at the rate */
};

/* What a paced run at the format's rate showed. p999_sched_ns is the p99.9
 * frame time from schedule: capture, completion - arrival; playback,
 * completion - (due - queue x interval), see sm_playback_sched_ns(). */
struct sm_paced {
	uint64_t scheduled;        /* frames the run meant to move */
	uint64_t done;             /* frames moved */
	uint64_t dropped;          /* frames dropped (capture) or late (playback) */
	uint64_t p999_sched_ns;
	uint64_t max_sched_ns;
	uint64_t interval_ns;      /* 1 / fps */
	unsigned queue;            /* buffers (-q) */
	int complete;              /* 1: the run was not cut short (signal, error) */
	uint64_t length_ns;        /* its length: scheduled x interval_ns, the span it
				    * was to hold real time over */
};

/* One cell of the verdict table: a format at a rate in one direction. */
struct sm_verdict_cell {
	double needed;             /* bytes/s the format needs */
	double measured;           /* bytes/s the storage sustained (model) */
	double ratio;              /* measured / needed; 0 when needed <= 0 */
	enum sm_verdict computed;  /* from measured vs needed */
	int near_limit;
	enum sm_verdict final;     /* what the table shows: never above computed
				    * (analysis/verdict.h, sm_verdict_cell_settle) */
	enum sm_verdict_how how;
	struct sm_paced paced;     /* the paced run that settles the cell (its own, or
				    * one at another rate of the row), when
				    * sm_verdict_paced(&paced) >= 0; all zero when none:
				    * present also when how is COMPUTED (a run that
				    * held a cell whose sustained rate is below the
				    * need does not decide it) */
	double burst_measured;     /* capture after a cliff: the rate the burst alone
				    * gave (model); otherwise equal to measured */
	int cliff;                 /* the burst alone would have given a better
				    * computed verdict: a cliff downgraded it, and no
				    * paced run (shorter than the cliff took to come)
				    * may raise it again */
	/* What the computed verdict rests on (set with it by
	 * sm_run_compute_verdicts(); all 0 in a result saved before these
	 * rules, which then settle as they did). */
	int basis_known;           /* the fields below were worked out */
	unsigned basis;            /* enum sm_verdict_basis bits it lacks */
	uint64_t buffer_ns;        /* the buffers the verdict assumes: queue frames at
				    * the rate */
	uint64_t stall_ns;         /* with SM_BASIS_STALL: the longest stall of the
				    * direction's frame tests, longer than buffer_ns */
	double worst_measured;     /* bytes/s the model gives from each test's slowest
				    * whole second; 0 when a test had none */
};

/* A measured point: the highest sustained frame rate at one frame size. */
struct sm_rate_point {
	uint64_t frame_bytes;
	double fps;
};

/* "realtime", "marginal", "unconfirmed", "not-realtime"; "computed", "paced";
 * "capture", "playback". */
const char *sm_verdict_name(enum sm_verdict v);
/* What a paced run showed, by its sm_verdict_paced() outcome v: "held"
 * (REALTIME: no drop, p99.9 within half the buffers), "held-tight"
 * (MARGINAL: no drop, p99.9 past that), "dropped" (NOT_REALTIME). */
const char *sm_paced_outcome_name(enum sm_verdict v);
const char *sm_verdict_how_name(enum sm_verdict_how h);
const char *sm_direction_name(enum sm_direction d);
/* "short", "dip", "extrapolated", "stall" for one bit of enum
 * sm_verdict_basis; NULL for anything else. */
const char *sm_verdict_basis_name(unsigned bit);

#endif
