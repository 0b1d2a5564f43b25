/* SPDX-License-Identifier: MIT */
/* `stormark run` as an MPI job: the ranks that fell behind in one test,
 * which the job's rank table (over all tests) can hide. */
#ifndef SM_ANALYSIS_RUN_DIST_H
#define SM_ANALYSIS_RUN_DIST_H

#include "result/run_dist.h"

/*
 * rate[r * SM_RUN_DIST_TESTS + t]: rank r's own bytes/s in test t (0: not
 * measured), name[t] the test's name. For each test with at least two
 * measured ranks, a rank whose rate is below SM_DIST_STRAGGLER x the
 * median of the measured ranks' rates gets the name in b[r].slow (nslow
 * counts them).
 */
void sm_run_dist_slow(struct sm_run_rank_best *b, unsigned nranks, const double *rate,
		      const char (*name)[24]);

#endif
