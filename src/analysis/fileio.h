/* SPDX-License-Identifier: MIT */
/* The figures of a fileio result that are derived from its counts (rates,
 * thread fairness), computed in one place for every layout. */
#ifndef SM_ANALYSIS_FILEIO_H
#define SM_ANALYSIS_FILEIO_H

#include "result/fileio.h"

/* Fill r->fig from r's counts, duration and per-thread arrays. Call it
 * when a run ends and after a saved result is read back. Never fails. */
void sm_fileio_analyse(struct sm_fileio_result *r);
/* The buffer fileio's stalls are counted against (it has no rate of its
 * own): twice the median request time of its slowest kind, at least
 * SM_STALL_UNPACED_MIN_NS. sm_fileio_analyse() counts them with it. */
uint64_t sm_fileio_stall_threshold(const struct sm_fileio_result *r);

/* The methodology warnings of a run of cfg in env, before it starts, into
 * w: buffered I/O on a set that fits in free RAM (the page cache is
 * measured; not through fileio --nfs's own client, which has none), a
 * timed run under 5 s. */
void sm_fileio_plan_warnings(const struct sm_fileio_cfg *cfg, const struct sm_env *env, struct sm_warnings *w);

/* After --steady's rounds: a run that did not reach steady state says so,
 * a "not_steady" warning in r's head (every layout shows it). Returns 1
 * when it was added, else 0. */
int sm_fileio_steady_warning(struct sm_fileio_result *r);

/* One interval of the series per second of it, as every layout that shows
 * the intervals prints them (sysbench's lines, the HTML charts): 0 for an
 * interval of no length, not an infinite rate. */
struct sm_fileio_tick_rates {
	double read_bytes_per_s, write_bytes_per_s;
	double fsyncs_per_s;
	double ops_per_s;           /* reads, writes and fsyncs */
};
struct sm_fileio_tick_rates sm_fileio_tick_rates(const struct sm_fileio_tick *t);

/* r->cliff from r->wsec, the bytes written in each whole second of a run
 * (docs/cliff.md). The workload calls it once when the run ends; a result
 * read back keeps the cliff it was saved with. Never fails (without
 * memory, the cliff says it did not look). */
void sm_fileio_cliff(struct sm_fileio_result *r);

#endif
