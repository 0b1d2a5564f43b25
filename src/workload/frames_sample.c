/* SPDX-License-Identifier: MIT */
/* Sampling a running frames test: cumulative counters of every worker
 * once a second into the result's series, live progress, and with -h the
 * frame-time histograms the -h window starts from. */
#include "workload/frames_int.h"
#include "core/clock.h"
#include "core/live.h"
#include "core/stall.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every worker's counters summed, read through core/series (relaxed
 * atomics: a reading while workers run may be a frame apart between two
 * counters; exact once they are joined). */
static void snap_take(struct shared *sh, uint64_t t, struct sm_frames_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t;
	s->frames = sm_series_total(sh->live, -1, C_FRAMES);
	s->bytes = sm_series_total(sh->live, -1, C_BYTES);
	s->open_ns = sm_series_total(sh->live, -1, C_OPEN_NS);
	s->io_ns = sm_series_total(sh->live, -1, C_IO_NS);
	s->close_ns = sm_series_total(sh->live, -1, C_CLOSE_NS);
	s->frame_ns = sm_series_total(sh->live, -1, C_FRAME_NS);
	if (sh->paced) {
		pthread_mutex_lock(&sh->mu);
		s->dropped = sh->pace.dropped;
		pthread_mutex_unlock(&sh->mu);
	}
}

/*
 * The -h window's possible starts: cumulative frame-time histograms read
 * every period_ns (whole seconds), the last cap of them kept in a ring.
 * cap x period spans the window plus a period, so the latest one at least
 * the window before the run's end is always kept; the period grows with
 * the window so that cap stays near SM_RING_MAX (about 2 MiB), whatever
 * the window and the run's length.
 */
#define SM_RING_MAX 32

struct sm_frames_ring {
	uint64_t period_ns;
	unsigned cap, n;            /* n: taken so far; slot n % cap is next */
	uint64_t t[SM_RING_MAX];    /* since t0 */
	struct sm_hist h[SM_RING_MAX];   /* buckets, count and sum only */
};

static struct sm_frames_ring *ring_new(uint64_t window_ns)
{
	uint64_t secs = (window_ns + SM_NS_PER_S - 1) / SM_NS_PER_S;
	uint64_t period = (secs + SM_RING_MAX - 3) / (SM_RING_MAX - 2);
	struct sm_frames_ring *r;

	if (!period)
		period = 1;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->period_ns = period * SM_NS_PER_S;
	r->cap = (unsigned)((secs + period - 1) / period + 2);
	return r;
}

static void ring_take(struct shared *sh, uint64_t t)
{
	struct sm_frames_ring *r = sh->ring;

	/* every worker's frame-time histogram merged (its sum may be a frame
	 * ahead of its buckets while they run: only the window's mean can
	 * feel it) */
	sm_series_hist_read(sh->live, -1, HIST_FRAME, &r->h[r->n % r->cap]);
	r->t[r->n % r->cap] = t;
	r->n++;
}

/* The ring's sample times d earlier (the run's clock moved to its first
 * request). */
static void ring_shift(struct shared *sh, uint64_t d)
{
	struct sm_frames_ring *r = sh->ring;

	for (unsigned i = 0; r && i < r->n && i < r->cap; i++)
		r->t[i] = r->t[i] > d ? r->t[i] - d : 0;
}

void sm_frames_window_close(struct shared *sh, struct sm_frames_result *res)
{
	struct sm_frames_ring *r = sh->ring;
	uint64_t end = res->head.duration_ns, window = res->plan.hist_window_ns;
	const struct sm_hist *start = NULL;
	uint64_t t_start = 0;

	for (unsigned i = 0; r && end > window && i < r->n && i < r->cap; i++) {
		/* the latest start at least the window before the end: the
		 * histogram then covers the window asked, or up to a period more */
		if (r->t[i] <= end - window && r->t[i] >= t_start && r->h[i].count <= res->frame.lat.count) {
			start = &r->h[i];
			t_start = r->t[i];
		}
	}
	if (start)
		sm_hist_diff(&res->frame_window, &res->frame.lat, start);
	else
		res->frame_window = res->frame.lat;
	res->frame_window_ns = end - t_start;
	free(sh->ring);
	sh->ring = NULL;
}

int sm_frames_live_init(struct shared *sh, const struct sm_frames_plan *p)
{
	struct sm_series_cfg cfg = { .workers = p->threads, .counters = NCOUNTERS };

	if (p->hist_window_ns) {
		/* without memory for the ring, the window is the whole run */
		sh->ring = ring_new(p->hist_window_ns);
		sh->windowed = sh->ring != NULL;
	}
	cfg.hists = sh->windowed ? 1 : 0;
	sh->live = sm_series_new(&cfg);
	return sh->live ? 0 : -ENOMEM;
}

static int series_push(struct sm_frames_result *res, unsigned *cap, const struct sm_frames_snap *s)
{
	if (res->nseries == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 64;
		struct sm_frames_snap *n = realloc(res->series, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		res->series = n;
		*cap = ncap;
	}
	res->series[res->nseries++] = *s;
	return 0;
}

/* --live: the second just pushed to the series, with the series' keys
 * (its deltas), the stalls so far and the time left of a timed test. */
static void live_line(const struct sm_frames_plan *p, const struct sm_frames_result *res,
		      const struct sm_stall_det *det, uint64_t t)
{
	static const struct sm_frames_snap zero;
	const struct sm_frames_snap *a = &res->series[res->nseries - 1],
				    *b = res->nseries > 1 ? &res->series[res->nseries - 2] : &zero;
	const uint64_t d[SM_FRAMES_SERIES_KEYS] = {
		a->t_ns - b->t_ns, a->bytes - b->bytes, a->frames - b->frames,
		a->dropped - b->dropped, a->open_ns - b->open_ns, a->io_ns - b->io_ns,
		a->close_ns - b->close_ns, a->frame_ns - b->frame_ns,
	};
	struct sm_live_line l;

	sm_live_begin(&l, p->live_command ? p->live_command : "frames",
		      p->live_phase ? p->live_phase : p->kind == SM_FRAMES_READ ? "read" :
		      p->kind == SM_FRAMES_EMPTY ? "empty" : "write");
	sm_live_u64(&l, "t_ns", t);
	for (unsigned k = 0; k < SM_FRAMES_SERIES_KEYS; k++)
		sm_live_u64(&l, sm_frames_series_keys[k], d[k]);
	sm_live_u64(&l, "stall_longest_ns", det->out.longest_ns > det->cur ? det->out.longest_ns : det->cur);
	sm_live_u64(&l, "stall_gaps", det->out.gaps);
	if (p->live_end_ns) {
		uint64_t now = sm_now_ns();

		sm_live_u64(&l, "left_ns", p->live_end_ns > now ? p->live_end_ns - now : 0);
	} else if (p->time_limit_ns) {
		sm_live_u64(&l, "left_ns", p->time_limit_ns > t ? p->time_limit_ns - t : 0);
	}
	sm_live_end(p->live, &l);
}

/* Open the gate, sample the counters once a second (on the second) until
 * every worker has finished, then join them and close the series. */
void sm_frames_sample_until_done(struct shared *sh, const struct sm_frames_plan *p,
			      struct sm_frames_result *res, pthread_t *tids,
			      sm_frames_progress_fn progress, void *arg)
{
	struct sm_frames_snap s, prev;
	struct sm_stall_det det;
	uint64_t t0, tick, next_prog, next_stall, t_end = 0, t_first = 0;
	unsigned cap = 0;

	if (p->pause_ns)
		sm_sleep_until_ns(sm_now_ns() + p->pause_ns);
	/* Workers claim paced frames under sh->mu: the schedule starts with
	 * the gate, before any of them can ask. */
	pthread_mutex_lock(&sh->mu);
	sm_start_release(&sh->start);
	t0 = sh->start.t0_ns;
	if (sh->paced)
		sm_pace_start(&sh->pace, t0);
	tick = t0 + SM_NS_PER_S;
	/* the stall detector reads the frames done every SM_STALL_PERIOD_NS:
	 * a hundred relaxed reads of the workers' counters a second */
	sm_stall_det_init(&det);
	next_stall = t0 + SM_STALL_PERIOD_NS;
	next_prog = t0 + p->update_ns;
	memset(&prev, 0, sizeof(prev));
	if (!progress || !p->update_ns)
		next_prog = UINT64_MAX;
	while (atomic_load(&sh->finished) < p->threads) {
		uint64_t wake = tick < next_prog ? tick : next_prog, now;

		if (next_stall < wake)
			wake = next_stall;
		struct timespec ts = { .tv_sec = (time_t)(wake / SM_NS_PER_S),
				       .tv_nsec = (long)(wake % SM_NS_PER_S) };

		pthread_cond_timedwait(&sh->cv, &sh->mu, &ts);
		now = sm_now_ns();
		if (now < wake)
			continue;
		pthread_mutex_unlock(&sh->mu);
		if (now >= next_stall) {
			sm_stall_det_feed(&det, now - t0,
					  sm_series_total(sh->live, -1, C_FRAMES));
			next_stall = now + SM_STALL_PERIOD_NS;
		}
		if (now >= tick) {
			snap_take(sh, tick - t0, &s);
			series_push(res, &cap, &s);
			if (p->live)
				live_line(p, res, &det, tick - t0);
			if (sh->ring && (tick - t0) % sh->ring->period_ns == 0)
				ring_take(sh, tick - t0);
			tick += SM_NS_PER_S;
		}
		if (now >= next_prog) {
			struct sm_frames_snap cur, d;

			snap_take(sh, now - t0, &cur);
			sm_frames_snap_diff(&cur, &prev, &d);
			progress(&d, &cur, arg);
			prev = cur;
			next_prog += p->update_ns;
		}
		pthread_mutex_lock(&sh->mu);
	}
	pthread_mutex_unlock(&sh->mu);
	for (unsigned i = 0; i < p->threads; i++)
		pthread_join(tids[i], NULL);
	for (unsigned i = 0; i < p->threads; i++) {
		uint64_t f = sh->workers[i].t_first;

		if (sh->workers[i].t_last > t_end)
			t_end = sh->workers[i].t_last;
		if (f && (!t_first || f < t_first))
			t_first = f;
	}
	/* The clock of the run starts at its first request, not at the gate
	 * (the threads take a while to wake): the samples, taken on the
	 * gate's seconds, move back by the difference. A paced schedule
	 * keeps the gate as its start (a camera does not wait). */
	sm_stall_det_end(&det, t_end > t0 ? t_end - t0 : 0, &res->stalls);
	if (t_first > t0) {
		uint64_t d = t_first - t0;

		sm_stalls_shift(&res->stalls, d);
		for (unsigned i = 0; i < res->nseries; i++)
			res->series[i].t_ns = res->series[i].t_ns > d ? res->series[i].t_ns - d : 0;
		ring_shift(sh, d);
		t0 = t_first;
	}
	res->head.duration_ns = t_end > t0 ? t_end - t0 : 0;
	if (sh->paced)
		sm_pace_finish(&sh->pace);
	snap_take(sh, res->head.duration_ns, &s);
	/* Samples taken after the last completion add nothing. */
	while (res->nseries && res->series[res->nseries - 1].t_ns >= s.t_ns)
		res->nseries--;
	series_push(res, &cap, &s);
	/* --live: the last, partial second too (the series' last entry) */
	if (p->live && res->nseries && res->series[res->nseries - 1].t_ns >
	    (res->nseries > 1 ? res->series[res->nseries - 2].t_ns : 0))
		live_line(p, res, &det, res->head.duration_ns);
}
