/* SPDX-License-Identifier: MIT */
/* A history key's trend: its headline figures run by run in time order,
 * with their mean and sample standard deviation, for the trend page of
 * `stormark history KEY --html FILE` (docs/history.md). The first and
 * the last runs are compared by compare's own Welch test
 * (analysis/compare.c): sm_trend_halves() says which runs those are. */
#ifndef SM_ANALYSIS_TREND_H
#define SM_ANALYSIS_TREND_H

#include "analysis/compare.h"

#define SM_TREND_MAXFIGS 12

/* One headline figure over the key's runs. */
struct sm_trend_fig {
	char name[96], label[96];   /* compare's figure name and label */
	enum sm_cmp_unit unit;
	int better;
	double *v;                  /* per run, NAN where a run did not measure it */
	unsigned n;                 /* runs that measured it */
	double mean, sd;            /* over those runs (sd: n - 1 in the denominator, 0 for one) */
};

struct sm_trend {
	char command[16];
	unsigned nruns;
	struct sm_trend_fig fig[SM_TREND_MAXFIGS];
	unsigned nfigs;
};

/*
 * The headline figures of command's runs[0..n) (oldest first, a run's
 * figures as compare reads them) into t: frames: frame rate, throughput,
 * frame time p99, dropped frames; fileio: throughput, IOPS, event p99;
 * time: wall time, user and system CPU; run: every throughput (each
 * classic test's and frame size's, per direction, in the order of the
 * first run that has it), up to SM_TREND_MAXFIGS. A headline no run
 * measured is left out; another command has none. Returns 0 or -ENOMEM
 * (release t with sm_trend_release either way).
 */
int sm_trend_compute(const char *command, const struct sm_cmp_run *runs, unsigned n,
		     struct sm_trend *t);
void sm_trend_release(struct sm_trend *t);

/* The runs compared, of n: the first k = n / 2 ([0, k)) against the last
 * k ([n - k, n)); the middle run of an odd count is in neither. Returns k
 * (0 for fewer than 2 runs: nothing to compare). */
unsigned sm_trend_halves(unsigned n);

#endif
