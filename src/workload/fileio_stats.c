/* SPDX-License-Identifier: MIT */
/* fileio's run statistics: the series its workers write, the interval
 * reporter that samples it, the result filled from it. */
#include "workload/fileio_stats.h"
#include "core/clock.h"
#include "core/live.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sm_series *sm_fileio_stats_new(const struct sm_fileio_cfg *cfg)
{
	struct sm_series_cfg sc = { .workers = cfg->threads, .counters = C__N, .hists = H__N };

	return sm_series_new(&sc);
}

void sm_fileio_stats_collect(struct sm_series *st, struct sm_fileio_result *r)
{
	for (int k = 0; k < 3; k++) {
		r->ops[k].count = sm_series_total(st, -1, C_COUNT + k);
		r->ops[k].bytes = sm_series_total(st, -1, C_BYTES + k);
		r->ops[k].errors = sm_series_total(st, -1, C_ERRORS + k);
		sm_series_hist_read(st, -1, H_LAT + k, &r->ops[k].lat);
	}
	sm_series_hist_read(st, -1, H_EVENT, &r->events_lat);
	r->events = sm_series_total(st, -1, C_EVENTS);
	for (unsigned i = 0; i < r->nthreads; i++) {
		r->thread_events[i] = sm_series_total(st, (int)i, C_EVENTS);
		r->thread_busy_ns[i] = sm_series_total(st, (int)i, C_BUSY_NS);
	}
}

/* The tick that ends at t (since the start) and covers the last iv. */
static void make_tick(struct sm_fileio_reporter *rp, uint64_t t, uint64_t iv,
		      struct sm_fileio_tick *out)
{
	struct sm_series_point p;

	sm_series_window(rp->stats, iv, &p);
	sm_series_take_interval(rp->stats, H_EVENT, rp->h);
	memset(out, 0, sizeof(*out));
	out->t_ns = t;
	out->interval_ns = p.t_ns;
	out->reads = p.counter[C_COUNT + ST_READ];
	out->writes = p.counter[C_COUNT + ST_WRITE];
	out->fsyncs = p.counter[C_COUNT + ST_FSYNC];
	out->read_bytes = p.counter[C_BYTES + ST_READ];
	out->write_bytes = p.counter[C_BYTES + ST_WRITE];
	out->events = p.counter[C_EVENTS];
	out->lat_pct_ns = rp->pct > 0 ? sm_hist_percentile(rp->h, rp->pct) : 0;
	out->lat_max_ns = p.hist_max[H_EVENT];
}

/* --live: a tick with the series' keys, the stalls so far and the time
 * left of a timed run. */
static void live_line(const struct sm_fileio_reporter *rp, const struct sm_fileio_tick *t)
{
	const uint64_t v[SM_FILEIO_SERIES_KEYS] = {
		t->t_ns, t->interval_ns, t->read_bytes, t->write_bytes, t->reads,
		t->writes, t->fsyncs, t->events, t->lat_pct_ns, t->lat_max_ns,
	};
	const struct sm_stall_det *d = &rp->det;
	struct sm_live_line l;

	sm_live_begin(&l, "fileio", sm_fileio_mode_name(rp->cfg->mode));
	for (unsigned k = 0; k < SM_FILEIO_SERIES_KEYS; k++)
		sm_live_u64(&l, sm_fileio_series_keys[k], v[k]);
	sm_live_u64(&l, "stall_longest_ns", d->out.longest_ns > d->cur ? d->out.longest_ns : d->cur);
	sm_live_u64(&l, "stall_gaps", d->out.gaps);
	if (rp->cfg->time_ns)
		sm_live_u64(&l, "left_ns", rp->cfg->time_ns > t->t_ns ? rp->cfg->time_ns - t->t_ns : 0);
	sm_live_end(rp->cfg->live, &l);
}

/*
 * The sampler: one sample of the series each second (or each interval when
 * the interval is not whole seconds), a tick every report interval (every
 * second without --report-interval: the result's series, which only the
 * report interval's callback prints). Ticks are due at whole multiples of
 * the interval since the start, like sysbench's, and none is made at or
 * past the time limit.
 */
static void *run_reporter(void *argp)
{
	struct sm_fileio_reporter *rp = argp;
	struct sm_fileio_result *r = rp->r;
	uint64_t iv = rp->cfg->report_interval_ns, t0, next, step, next_stall;
	uint64_t tiv = iv ? iv : SM_NS_PER_S;   /* the series' interval */

	step = tiv % SM_NS_PER_S == 0 ? SM_NS_PER_S : tiv;
	if (sm_start_wait(rp->start))
		return NULL;
	t0 = rp->start->t0_ns;
	next = t0 + step;
	next_stall = t0 + SM_STALL_PERIOD_NS;
	for (;;) {
		uint64_t wake = next < next_stall ? next : next_stall, now;
		struct timespec ts = { (time_t)(wake / SM_NS_PER_S), (long)(wake % SM_NS_PER_S) };
		struct sm_fileio_tick t;
		int done;

		pthread_mutex_lock(rp->mu);
		while (*rp->running && sm_now_ns() < wake)
			if (pthread_cond_timedwait(rp->cv, rp->mu, &ts) == ETIMEDOUT)
				break;
		done = *rp->running == 0;
		pthread_mutex_unlock(rp->mu);
		if (done)
			break;
		now = sm_now_ns();
		if (now >= next_stall) {
			/* the stall detector: every request completed so far,
			 * read from the workers' own counters */
			sm_stall_det_feed(&rp->det, now - t0,
					  sm_series_total(rp->stats, -1, C_COUNT + ST_READ) +
					  sm_series_total(rp->stats, -1, C_COUNT + ST_WRITE) +
					  sm_series_total(rp->stats, -1, C_COUNT + ST_FSYNC));
			next_stall = now + SM_STALL_PERIOD_NS;
		}
		if (now < next)
			continue;
		if (rp->cfg->time_ns && next - t0 >= rp->cfg->time_ns)
			break;
		/* a sample that could not be stored only shortens the series;
		 * the interval histograms are still right */
		(void)sm_series_sample(rp->stats, next - t0);
		if (step == SM_NS_PER_S && r->nwsec < r->wsec_cap) {
			struct sm_series_point p;

			sm_series_window(rp->stats, SM_NS_PER_S, &p);
			r->wsec[r->nwsec++] = p.counter[C_BYTES + ST_WRITE];
		}
		if ((next - t0) % tiv == 0) {
			make_tick(rp, next - t0, tiv, &t);
			if (r->nseries < r->series_cap)
				r->series[r->nseries++] = t;
			if (rp->cfg->live)
				live_line(rp, &t);
			if (iv && rp->fn)
				rp->fn(&t, rp->arg);
		}
		next += step;
	}
	return NULL;
}

int sm_fileio_reporter_start(struct sm_fileio_reporter *rp)
{
	int rc;

	rp->h = sm_hist_new();
	if (!rp->h)
		return -ENOMEM;
	sm_stall_det_init(&rp->det);
	rc = pthread_create(&rp->tid, NULL, run_reporter, rp);
	if (rc) {
		free(rp->h);
		rp->h = NULL;
		return -rc;
	}
	return 0;
}

void sm_fileio_reporter_join(struct sm_fileio_reporter *rp)
{
	pthread_join(rp->tid, NULL);
	free(rp->h);
	rp->h = NULL;
}

void sm_fileio_series_close(struct sm_fileio_reporter *rp, uint64_t end_ns)
{
	struct sm_fileio_result *r = rp->r;
	uint64_t last = r->nseries ? r->series[r->nseries - 1].t_ns : 0;
	uint64_t reads = 0, writes = 0, fsyncs = 0, events = 0, rb = 0, wb = 0;
	struct sm_fileio_tick *t;
	struct sm_hist *h;

	/* the gaps in completions, up to the run's end (the thread is joined) */
	sm_stall_det_end(&rp->det, end_ns, &r->stalls);
	if (end_ns <= last || r->nseries >= r->series_cap)
		return;
	for (unsigned i = 0; i < r->nseries; i++) {
		reads += r->series[i].reads;
		writes += r->series[i].writes;
		fsyncs += r->series[i].fsyncs;
		events += r->series[i].events;
		rb += r->series[i].read_bytes;
		wb += r->series[i].write_bytes;
	}
	t = &r->series[r->nseries++];
	memset(t, 0, sizeof(*t));
	t->t_ns = end_ns;
	t->interval_ns = end_ns - last;
	/* what the totals hold beyond the whole intervals: exact */
	t->reads = r->ops[ST_READ].count - reads;
	t->writes = r->ops[ST_WRITE].count - writes;
	t->fsyncs = r->ops[ST_FSYNC].count - fsyncs;
	t->events = r->events - events;
	t->read_bytes = r->ops[ST_READ].bytes - rb;
	t->write_bytes = r->ops[ST_WRITE].bytes - wb;
	/* the event times since the last tick: one more sample hands the
	 * last period to the interval accumulator */
	h = sm_hist_new();
	if (!h)
		return;
	(void)sm_series_sample(rp->stats, end_ns);
	sm_series_take_interval(rp->stats, H_EVENT, h);
	t->lat_pct_ns = rp->pct > 0 ? sm_hist_percentile(h, rp->pct) : 0;
	t->lat_max_ns = h->count ? h->max : 0;
	free(h);
	/* a run that went to its time limit ends on a whole interval: its
	 * line is printed as the run ends, as sysbench's reporter does */
	if (rp->cfg->report_interval_ns && rp->fn && sm_fileio_tick_whole(rp->cfg, t, 1))
		rp->fn(t, rp->arg);
}

int sm_fileio_result_init(struct sm_fileio_result *r, const struct sm_fileio_cfg *cfg)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 3; i++)
		sm_opstat_init(&r->ops[i]);
	sm_hist_init(&r->events_lat);
	r->nthreads = cfg->threads;
	r->thread_events = calloc(cfg->threads, sizeof(uint64_t));
	r->thread_busy_ns = calloc(cfg->threads, sizeof(uint64_t));
	{   /* the series: a tick each report interval, or each second */
		uint64_t tiv = cfg->report_interval_ns ? cfg->report_interval_ns : SM_NS_PER_S;
		uint64_t n = cfg->time_ns ? cfg->time_ns / tiv + 2 : 3600;

		r->series_cap = n > 100000 ? 100000 : (unsigned)n;
		r->series = calloc(r->series_cap, sizeof(*r->series));
		if (!r->series)
			r->series_cap = 0;
	}
	if (sm_fileio_mode_writes(cfg->mode)) {
		/* a second a sample, for as long as the run may last (a day
		 * without --time; a longer run looks at its first day) */
		uint64_t n = cfg->time_ns ? cfg->time_ns / SM_NS_PER_S + 2 : 86400;

		r->wsec_cap = n > 1000000 ? 1000000 : (unsigned)n;
		r->wsec = calloc(r->wsec_cap, sizeof(*r->wsec));
		if (!r->wsec)
			r->wsec_cap = 0;
	}
	if (!r->thread_events || !r->thread_busy_ns)
		return -ENOMEM;
	return 0;
}

void sm_fileio_result_release(struct sm_fileio_result *r)
{
	free(r->thread_events);
	free(r->thread_busy_ns);
	free(r->series);
	free(r->wsec);
	r->wsec = NULL;
	r->nwsec = r->wsec_cap = 0;
	r->thread_events = r->thread_busy_ns = NULL;
	r->series = NULL;
}
