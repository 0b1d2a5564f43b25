/* SPDX-License-Identifier: MIT */
/* The analysis of `stormark time`'s runs: each figure's statistics, and
 * the methodology hints derived from them. Pure functions of the runs. */
#ifndef SM_ANALYSIS_TIME_H
#define SM_ANALYSIS_TIME_H

#include "result/timefig.h"

/* Statistics of figure f over runs[0..n). stddev is the sample standard
 * deviation (0 for one run). */
void sm_tf_stats(const struct sm_time_run *runs, unsigned n, enum sm_tf f,
		 struct sm_tf_stat *out);

/* Every figure's statistics over r's runs into r->stat, once, for every
 * reporter (the live run's, and a result read back). */
void sm_time_analyse(struct sm_time_result *r);

/* Mean after dropping the lowest and highest 10% (rounded down) of vals;
 * sorts vals in place. Returns 0 for n == 0. */
double sm_trimmed_mean(double *vals, unsigned n);

/* The trimmed mean (sm_trimmed_mean) of figure f over n runs, the i-th at
 * byte offset i x stride from runs (runs inside larger records: the
 * history's rows); *ok is 0 when none measured f, or without memory. */
double sm_tf_trimmed(const struct sm_time_run *runs, size_t stride, unsigned n, enum sm_tf f, int *ok);

/* Median of vals (sorted in place). Returns 0 for n == 0. */
double sm_median(double *vals, unsigned n);

/* Add methodology hints and warnings about runs[0..n) to w: call-bound
 * I/O, served from cache, writes not flushed, first run differs,
 * outliers, and figures that could not be measured. caches_dropped: every
 * run began with the page cache dropped (--drop-caches), so a first run
 * that differs is not explained by a cache warming up. */
void sm_time_hints(const struct sm_time_run *runs, unsigned n, int caches_dropped,
		   struct sm_warnings *w);

#endif
