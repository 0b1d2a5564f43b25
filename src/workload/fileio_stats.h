/* SPDX-License-Identifier: MIT */
/* fileio's run statistics: what each worker counts in the core/series, the
 * interval reporter that samples it, and the result filled from it.
 * Internal to src/workload/fileio*.c. */
#ifndef SM_WORKLOAD_FILEIO_STATS_H
#define SM_WORKLOAD_FILEIO_STATS_H

#include <pthread.h>

#include "core/series.h"
#include "core/stall.h"
#include "core/worker.h"
#include "workload/fileio.h"

enum { ST_READ = 0, ST_WRITE = 1, ST_FSYNC = 2 };

/* Each worker's counters and histograms in the series: per operation kind
 * (ST_*) a count (errors included), bytes, errors and the request latency
 * (issue to completion); per worker the events completed and, as sysbench
 * times them, each event's time and their sum (see record_events() in fileio_run.c). */
enum {
	C_COUNT = 0,               /* + ST_* */
	C_BYTES = 3,               /* + ST_* */
	C_ERRORS = 6,              /* + ST_* */
	C_EVENTS = 9,
	C_BUSY_NS,
	C__N
};
enum { H_LAT = 0, /* + ST_* */ H_EVENT = 3, H__N };

/* Allocate the series for cfg->threads workers (NULL when out of memory). */
struct sm_series *sm_fileio_stats_new(const struct sm_fileio_cfg *cfg);

/* Fill r's totals, operations, event times and per-thread figures from the
 * series. Call once every worker has been joined (the reading is then exact). */
void sm_fileio_stats_collect(struct sm_series *st, struct sm_fileio_result *r);

/*
 * The interval reporter: a thread that samples the series each second (each
 * interval when that is not whole seconds) and makes a tick every
 * cfg->report_interval_ns (none when 0), into r->series and through fn; in
 * whole seconds it also keeps each second's bytes written in r->wsec. It waits on the
 * start gate, and ends when *running (guarded by mu, signalled on cv) falls
 * to 0 or the time limit is reached.
 */
struct sm_fileio_reporter {
	const struct sm_fileio_cfg *cfg;
	struct sm_start *start;
	pthread_mutex_t *mu;
	pthread_cond_t *cv;
	const unsigned *running;
	struct sm_series *stats;
	struct sm_fileio_result *r;
	double pct;                /* the percentile of event times in ticks */
	sm_fileio_tick_fn fn;
	void *arg;
	struct sm_hist *h;         /* private: the interval's event times */
	struct sm_stall_det det;   /* private: the gaps in completions (the thread's,
				    * then sm_fileio_series_close()'s) */
	pthread_t tid;
};

/* Start rp's thread (rp filled but for h and tid). Returns 0 or -errno. */
int sm_fileio_reporter_start(struct sm_fileio_reporter *rp);
/* Join it and free what it holds. */
void sm_fileio_reporter_join(struct sm_fileio_reporter *rp);

/*
 * After the reporter is joined and the totals collected
 * (sm_fileio_stats_collect()): the series' last tick, the partial
 * interval from the last whole one to end_ns (the run's duration), with
 * its own interval_ns, so that the series adds up to the totals exactly.
 * Nothing when the run ended on a tick or the series is full. When the run
 * went to a time limit of whole report intervals, that tick is the last
 * whole interval (sm_fileio_tick_whole()) and the reporter's callback
 * gets it, as it got the others.
 */
void sm_fileio_series_close(struct sm_fileio_reporter *rp, uint64_t end_ns);

#endif
