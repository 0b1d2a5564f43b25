/* SPDX-License-Identifier: MIT */
/* The steady-state part of a result (--steady): the rounds, the rule
 * (SNIA PTS), whether and when it held, and the window reported; and what
 * --precondition wrote. Data only; docs/methodology.md explains both. */
#ifndef SM_RESULT_STEADY_H
#define SM_RESULT_STEADY_H

#include <stdint.h>

/* --steady-rounds is at most this (1000 one-minute rounds: almost 17 h). */
#define SM_STEADY_MAX_ROUNDS 1000u

/* SNIA PTS's rule: over the last `window` rounds, the range of the tracked
 * figure (max - min) is at most range_limit x the window's average, and
 * the excursion of the least-squares line over the window (|slope| x
 * (window - 1), the distance between its first and last point) is at most
 * excursion_limit x that average. PTS: window 5, 0.20, 0.10. */
struct sm_steady_rule {
	unsigned window;
	double range_limit;
	double excursion_limit;
};

/* The rule applied to one window of rounds; filled by sm_steady_eval()
 * (analysis/steady.h). Figures are in the unit of the tracked figure. */
struct sm_steady_window {
	unsigned first;            /* 1-based number of its first round */
	unsigned n;                /* rounds in it (< rule.window: too few rounds ran) */
	double avg, min, max;
	double range;              /* max - min */
	double slope;              /* of the least-squares line, per round */
	double excursion;          /* |slope| x (n - 1) */
	int range_ok, excursion_ok;
	int steady;                /* n == window and both hold */
};

/* A --steady measurement. Invariants: nrounds <= max_rounds <=
 * SM_STEADY_MAX_ROUNDS; reached_at is 0 or the 1-based round that ended
 * the first steady window, and then nrounds == reached_at (the rounds stop
 * there); win is the window the report's figures cover: the steady one, or
 * the last rounds when steady state was not reached. */
struct sm_steady {
	int on;
	char metric[16];           /* what each round's figure is: "iops" or "bytes_per_s" */
	uint64_t round_ns;         /* the length of one round (--steady-round) */
	unsigned max_rounds;       /* --steady-rounds */
	struct sm_steady_rule rule;
	unsigned nrounds;          /* rounds run (the last may be cut short by a signal or error) */
	double figure[SM_STEADY_MAX_ROUNDS];     /* each round's figure */
	uint64_t duration_ns[SM_STEADY_MAX_ROUNDS];   /* each round's measured length */
	unsigned reached_at;
	struct sm_steady_window win;
};

/* --precondition: what was written before the measurement (PTS's
 * workload-independent preconditioning: sequential 128 KiB writes of twice
 * the test set). */
struct sm_precond {
	int on;
	uint64_t block_bytes;      /* 128 KiB */
	uint64_t target_bytes;     /* 2 x the test set */
	uint64_t bytes;            /* written (less when interrupted or failed) */
	uint64_t duration_ns;
	double bytes_per_s;        /* bytes / duration, computed once when it ends */
};

#endif
