/* SPDX-License-Identifier: MIT */
/* Sampling a running frames test: cumulative counters of every worker
 * once a second into the result's series, and live progress. */
#include "workload/frames_int.h"
#include "core/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void snap_take(struct shared *sh, unsigned nw, uint64_t t, struct sm_frames_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t;
	for (unsigned i = 0; i < nw; i++) {
		struct pub *p = &sh->workers[i].pub;

		s->frames += atomic_load_explicit(&p->frames, memory_order_relaxed);
		s->bytes += atomic_load_explicit(&p->bytes, memory_order_relaxed);
		s->open_ns += atomic_load_explicit(&p->open_ns, memory_order_relaxed);
		s->io_ns += atomic_load_explicit(&p->io_ns, memory_order_relaxed);
		s->close_ns += atomic_load_explicit(&p->close_ns, memory_order_relaxed);
		s->frame_ns += atomic_load_explicit(&p->frame_ns, memory_order_relaxed);
		for (unsigned c = 0; c < SM_FT_COLUMNS; c++)
			s->ft_cols[c] += atomic_load_explicit(&p->ft_cols[c], memory_order_relaxed);
	}
	if (sh->paced) {
		pthread_mutex_lock(&sh->mu);
		s->dropped = sh->pace.dropped;
		pthread_mutex_unlock(&sh->mu);
	}
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

/* Open the gate, sample the counters once a second (on the second) until
 * every worker has finished, then join them and close the series. */
void sm_frames_sample_until_done(struct shared *sh, const struct sm_frames_plan *p,
			      struct sm_frames_result *res, pthread_t *tids,
			      sm_frames_progress_fn progress, void *arg)
{
	struct sm_frames_snap s, prev;
	uint64_t t0, tick, next_prog, t_end = 0;
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
	next_prog = t0 + p->update_ns;
	memset(&prev, 0, sizeof(prev));
	if (!progress || !p->update_ns)
		next_prog = UINT64_MAX;
	while (atomic_load(&sh->finished) < p->threads) {
		uint64_t wake = tick < next_prog ? tick : next_prog, now;
		struct timespec ts = { .tv_sec = (time_t)(wake / SM_NS_PER_S),
				       .tv_nsec = (long)(wake % SM_NS_PER_S) };

		pthread_cond_timedwait(&sh->cv, &sh->mu, &ts);
		now = sm_now_ns();
		if (now < wake)
			continue;
		pthread_mutex_unlock(&sh->mu);
		if (now >= tick) {
			snap_take(sh, p->threads, tick - t0, &s);
			series_push(res, &cap, &s);
			tick += SM_NS_PER_S;
		}
		if (now >= next_prog) {
			struct sm_frames_snap cur, d;

			snap_take(sh, p->threads, now - t0, &cur);
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
	for (unsigned i = 0; i < p->threads; i++)
		if (sh->workers[i].t_last > t_end)
			t_end = sh->workers[i].t_last;
	res->head.duration_ns = t_end > t0 ? t_end - t0 : 0;
	if (sh->paced)
		sm_pace_finish(&sh->pace);
	snap_take(sh, p->threads, res->head.duration_ns, &s);
	/* Samples taken after the last completion add nothing. */
	while (res->nseries && res->series[res->nseries - 1].t_ns >= s.t_ns)
		res->nseries--;
	series_push(res, &cap, &s);
}
