/* SPDX-License-Identifier: MIT */
/* Unit tests of the pacing model (core/pace.c) on made-up clocks: capture
 * drops and runs, the drop fraction of a simulated slow writer, playback
 * pre-buffering, lateness, skipped frames, finish, and the buffer limits. */
#include "core/hist.h"
#include "core/compiler.h"
#include "core/pace.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define US 1000ull
#define MS 1000000ull
#define MAX_WORKERS 8

/* Cost of transferring frame seq, in nanoseconds. */
typedef uint64_t (*cost_fn)(uint64_t seq, const void *arg);

struct fixed_cost {
	uint64_t ns;           /* every frame */
	uint64_t slow_seq[2];  /* these frames ... */
	uint64_t slow_ns[2];   /* ... take this long instead (0: unused) */
};

static uint64_t fixed(uint64_t seq, const void *arg)
{
	const struct fixed_cost *c = arg;

	for (int i = 0; i < 2; i++)
		if (c->slow_ns[i] && seq == c->slow_seq[i])
			return c->slow_ns[i];
	return c->ns;
}

/* Deterministic pseudo-random cost in [lo, hi] (arg: two uint64_t). */
static uint64_t jitter(uint64_t seq, const void *arg)
{
	const uint64_t *r = arg;
	uint64_t x = seq * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return r[0] + x % (r[1] - r[0] + 1);
}

struct sim_out {
	uint64_t transferred;
	uint64_t late_returns;      /* playback: sm_pace_complete() returned 1 */
	unsigned char *got;         /* got[seq]: frame seq was handed out */
	uint64_t longest_missing;   /* longest run of frames never handed out */
};

static void sim_out_init(struct sim_out *o, uint64_t total)
{
	memset(o, 0, sizeof(*o));
	o->got = calloc(total ? total : 1, 1);
	assert_non_null(o->got);
}

static void sim_out_done(struct sim_out *o, uint64_t total)
{
	uint64_t run = 0;

	for (uint64_t i = 0; i < total; i++) {
		run = o->got[i] ? 0 : run + 1;
		if (run > o->longest_missing)
			o->longest_missing = run;
	}
}

/*
 * Capture with n writers, each writing one frame at a time for cost(seq) ns.
 * Events are processed in time order (ties: lowest worker), which is what
 * makes the model exact. Checks on the way: frames are handed out oldest
 * first, sched is the arrival time, never before it, and WAIT names the
 * next arrival.
 */
static void sim_capture(struct sm_pace *p, unsigned n, uint64_t t0, cost_fn cost,
			const void *arg, struct sim_out *o)
{
	uint64_t t[MAX_WORKERS];
	int active[MAX_WORKERS];
	uint64_t last_seq = UINT64_MAX;
	unsigned left = n;

	assert_true(n >= 1 && n <= MAX_WORKERS);
	sm_pace_start(p, t0);
	for (unsigned i = 0; i < n; i++) {
		t[i] = t0;
		active[i] = 1;
	}
	while (left) {
		unsigned w = MAX_WORKERS;
		uint64_t seq = 0, sched = 0, wake = 0;
		enum sm_pace_claim r;

		for (unsigned i = 0; i < n; i++)
			if (active[i] && (w == MAX_WORKERS || t[i] < t[w]))
				w = i;
		r = sm_pace_claim(p, t[w], &seq, &sched, &wake);
		if (r == SM_PACE_DONE) {
			active[w] = 0;
			left--;
			continue;
		}
		if (r == SM_PACE_WAIT) {
			/* The next arrival, after now (that one was processed). */
			assert_true(wake > t[w]);
			assert_int_equal(wake, t0 + (uint64_t)((double)p->next_arrival * p->interval_ns + 0.5));
			t[w] = wake;
			continue;
		}
		assert_int_equal(r, SM_PACE_GO);
		assert_true(seq < p->total);
		assert_true(last_seq == UINT64_MAX || seq > last_seq);
		last_seq = seq;
		assert_int_equal(sched, t0 + (uint64_t)((double)seq * p->interval_ns + 0.5));
		assert_true(sched <= t[w]);
		assert_false(o->got[seq]);
		o->got[seq] = 1;
		o->transferred++;
		assert_true(p->max_queue <= p->q);
		t[w] += cost(seq, arg);
	}
	sim_out_done(o, p->total);
	assert_int_equal(o->transferred + p->dropped, p->total);
	assert_int_equal(p->longest_run, o->longest_missing);
	assert_true(p->max_queue <= p->q);
}

/*
 * Playback with n readers, each reading one frame at a time for cost(seq)
 * ns from t_begin. A completion at time t is processed before a claim at
 * the same t; a reader told to WAIT retries at the wake time or at the next
 * completion, whichever comes first. Ends with sm_pace_finish().
 */
static void sim_playback(struct sm_pace *p, unsigned n, uint64_t t_begin, cost_fn cost,
			 const void *arg, struct sim_out *o)
{
	enum { FREE, BUSY, WAITING, GONE };
	uint64_t t[MAX_WORKERS], seqs[MAX_WORKERS];
	int st[MAX_WORKERS];
	unsigned left = n;

	assert_true(n >= 1 && n <= MAX_WORKERS);
	sm_pace_start(p, t_begin);
	for (unsigned i = 0; i < n; i++) {
		t[i] = t_begin;
		st[i] = FREE;
	}
	while (left) {
		unsigned w = MAX_WORKERS;
		uint64_t seq = 0, sched = 0, wake = 0;
		enum sm_pace_claim r;

		for (unsigned i = 0; i < n; i++) {
			if (st[i] == GONE)
				continue;
			if (w == MAX_WORKERS || t[i] < t[w] ||
			    (t[i] == t[w] && st[i] == BUSY && st[w] != BUSY))
				w = i;
		}
		/* Every reader waiting for a completion that cannot come. */
		assert_int_not_equal(t[w], UINT64_MAX);
		if (st[w] == BUSY) {
			int late = sm_pace_complete(p, seqs[w], t[w]);

			o->late_returns += (uint64_t)late;
			st[w] = FREE;
			for (unsigned i = 0; i < n; i++)
				if (st[i] == WAITING && t[i] > t[w])
					t[i] = t[w];
			continue;
		}
		r = sm_pace_claim(p, t[w], &seq, &sched, &wake);
		if (r == SM_PACE_DONE) {
			st[w] = GONE;
			left--;
			continue;
		}
		if (r == SM_PACE_WAIT) {
			assert_true(wake > t[w]);
			st[w] = WAITING;
			t[w] = wake;
			continue;
		}
		assert_int_equal(r, SM_PACE_GO);
		assert_false(o->got[seq]);
		assert_int_equal(sched, sm_pace_due(p, seq));
		o->got[seq] = 1;
		o->transferred++;
		assert_true(p->max_queue <= p->q);
		st[w] = BUSY;
		seqs[w] = seq;
		t[w] += cost(seq, arg);
	}
	sm_pace_finish(p);
	sim_out_done(o, p->total);
	assert_true(p->max_queue <= p->q);
	assert_int_equal(p->next_display, p->total);
	/* Every frame is judged exactly once: shown (early hist, or a shown
	 * pre-buffered frame), late (late hist: complete after its due time)
	 * or skipped (never read). */
	assert_int_equal(p->early->count + p->shown_prebuffer + p->late->count + p->skipped,
			 p->total);
	assert_true(p->shown_prebuffer <= p->b);
	assert_int_equal(p->dropped, p->late->count + p->skipped);
	assert_int_equal(o->transferred + p->skipped, p->total);
	assert_int_equal(o->late_returns, p->late->count);
}

struct hists {
	struct sm_hist *early, *late;
};

static int hists_setup(void **state)
{
	struct hists *h = calloc(1, sizeof(*h));

	if (!h)
		return -1;
	h->early = sm_hist_new();
	h->late = sm_hist_new();
	*state = h;
	return h->early && h->late ? 0 : -1;
}

static int hists_teardown(void **state)
{
	struct hists *h = *state;

	free(h->early);
	free(h->late);
	free(h);
	return 0;
}

/* ---- set-up ------------------------------------------------------------- */

static void test_init_errors(SM_UNUSED void **state)
{
	struct sm_pace p;

	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 10, 0, 4, 0, NULL, NULL), -EINVAL);
	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 10, -24, 4, 0, NULL, NULL), -EINVAL);
	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 10, NAN, 4, 2, NULL, NULL), -EINVAL);
	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 10, 24, 0, 0, NULL, NULL), -EINVAL);
	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 10, 24, 0, 2, NULL, NULL), -EINVAL);
	sm_pace_release(&p);   /* harmless after a failed init */

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 10, 25, 4, 10, NULL, NULL), 0);
	assert_int_equal(p.b, 4);              /* b > q is clamped to q */
	assert_true(fabs(p.interval_ns - 40e6) < 1e-6);
	sm_pace_release(&p);
	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 10, 25, 4, 0, NULL, NULL), 0);
	assert_int_equal(p.b, 1);              /* the display needs one frame */
	sm_pace_release(&p);
	sm_pace_release(&p);                   /* twice is harmless */
}

/* ---- capture -------------------------------------------------------------- */

/* WAIT names the next arrival; GO hands out arrived frames; DONE after the
 * last one, and it stays DONE. */
static void test_capture_wait_go_done(SM_UNUSED void **state)
{
	struct sm_pace p;
	uint64_t seq = 99, sched = 0, wake = 0, t0 = 7 * US;
	/* 3 fps: arrivals at t0, t0 + 333333333 and t0 + 666666667 (rounded) */
	const uint64_t a1 = t0 + 333333333, a2 = t0 + 666666667;

	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 3, 3.0, 2, 0, NULL, NULL), 0);
	sm_pace_start(&p, t0);
	assert_int_equal(sm_pace_claim(&p, t0, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(seq, 0);
	assert_int_equal(sched, t0);
	assert_int_equal(sm_pace_claim(&p, t0 + 5, &seq, &sched, &wake), SM_PACE_WAIT);
	assert_int_equal(wake, a1);
	assert_int_equal(sm_pace_claim(&p, a1 - 1, &seq, &sched, &wake), SM_PACE_WAIT);
	assert_int_equal(wake, a1);
	assert_int_equal(sm_pace_claim(&p, a1, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(seq, 1);
	assert_int_equal(sched, a1);
	assert_int_equal(sm_pace_claim(&p, a1 + 1, &seq, &sched, &wake), SM_PACE_WAIT);
	assert_int_equal(wake, a2);
	/* Taken late: sched stays the arrival time (latency from schedule). */
	assert_int_equal(sm_pace_claim(&p, a2 + 123456, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(seq, 2);
	assert_int_equal(sched, a2);
	assert_int_equal(sm_pace_claim(&p, a2 + 123457, &seq, &sched, &wake), SM_PACE_DONE);
	assert_int_equal(sm_pace_claim(&p, UINT64_MAX / 2, &seq, &sched, &wake), SM_PACE_DONE);
	assert_int_equal(p.dropped, 0);
	assert_int_equal(p.max_queue, 1);
	/* Completions mean nothing to capture. */
	assert_int_equal(sm_pace_complete(&p, 2, a2 + 999999999), 0);
	sm_pace_finish(&p);
	assert_int_equal(p.dropped, 0);
	sm_pace_release(&p);
}

/* A worker that looks only after everything arrived: q frames wait, the
 * rest found the FIFO full. */
static void test_capture_all_at_once(SM_UNUSED void **state)
{
	struct sm_pace p;
	uint64_t seq, sched, wake;

	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 10, 1000, 4, 0, NULL, NULL), 0);
	sm_pace_start(&p, MS);
	assert_int_equal(sm_pace_claim(&p, 100 * MS, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(seq, 0);
	assert_int_equal(p.dropped, 6);
	assert_int_equal(p.longest_run, 6);
	assert_int_equal(p.max_queue, 4);
	for (uint64_t want = 1; want < 4; want++) {
		assert_int_equal(sm_pace_claim(&p, 100 * MS, &seq, &sched, &wake), SM_PACE_GO);
		assert_int_equal(seq, want);
		assert_int_equal(sched, MS + want * MS);
	}
	assert_int_equal(sm_pace_claim(&p, 100 * MS, &seq, &sched, &wake), SM_PACE_DONE);
	sm_pace_release(&p);
}

/* Storage faster than the rate: nothing dropped, the FIFO holds one frame
 * (one writer) or at most two (two writers), each frame goes at arrival. */
static void test_capture_fast(SM_UNUSED void **state)
{
	struct fixed_cost c = { .ns = 300 * US };   /* 1000 fps: 1 ms interval */
	uint64_t jr[2] = { 10 * US, 990 * US };

	for (unsigned n = 1; n <= 2; n++) {
		struct sm_pace p;
		struct sim_out o;

		assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 500, 1000, 8, 0, NULL, NULL), 0);
		sim_out_init(&o, p.total);
		sim_capture(&p, n, 12345, fixed, &c, &o);
		assert_int_equal(o.transferred, 500);
		assert_int_equal(p.dropped, 0);
		assert_int_equal(p.longest_run, 0);
		assert_int_equal(p.max_queue, 1);
		free(o.got);
		sm_pace_release(&p);
	}
	/* Jittery but always under the interval, 2 writers, q = 2. */
	{
		struct sm_pace p;
		struct sim_out o;

		assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 5000, 1000, 2, 0, NULL, NULL), 0);
		sim_out_init(&o, p.total);
		sim_capture(&p, 2, 0, jitter, jr, &o);
		assert_int_equal(p.dropped, 0);
		assert_true(p.max_queue >= 1 && p.max_queue <= 2);
		free(o.got);
		sm_pace_release(&p);
	}
	/* A writer of exactly one interval keeps up too. */
	{
		struct fixed_cost e = { .ns = MS };
		struct sm_pace p;
		struct sim_out o;

		assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 300, 1000, 1, 0, NULL, NULL), 0);
		sim_out_init(&o, p.total);
		sim_capture(&p, 1, 0, fixed, &e, &o);
		assert_int_equal(p.dropped, 0);
		assert_int_equal(p.max_queue, 1);
		free(o.got);
		sm_pace_release(&p);
	}
}

/*
 * One writer (1 us per frame at 1000 fps, q = 4) stalls twice: frame 10
 * takes 10.5 intervals, so frames 11..20 arrive meanwhile: 11..14 wait and
 * 15..20 (6) are dropped; frame 50 takes 7.5 intervals: 51..57 arrive,
 * 51..54 wait, 55..57 (3) are dropped. A stall of 4.5 intervals (4
 * arrivals = q) at frame 80 drops nothing.
 */
static void test_capture_stall(SM_UNUSED void **state)
{
	struct fixed_cost c = { .ns = US, .slow_seq = { 10, 50 },
				.slow_ns = { 10 * MS + MS / 2, 7 * MS + MS / 2 } };
	struct fixed_cost c2 = { .ns = US, .slow_seq = { 80 }, .slow_ns = { 4 * MS + MS / 2 } };
	struct sm_pace p;
	struct sim_out o;

	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 100, 1000, 4, 0, NULL, NULL), 0);
	sim_out_init(&o, p.total);
	sim_capture(&p, 1, 5 * US, fixed, &c, &o);
	assert_int_equal(p.dropped, 9);
	assert_int_equal(p.longest_run, 6);
	assert_int_equal(p.max_queue, 4);
	assert_int_equal(o.transferred, 91);
	for (uint64_t i = 0; i < 100; i++)
		assert_int_equal(o.got[i], !((i >= 15 && i <= 20) || (i >= 55 && i <= 57)));
	free(o.got);
	sm_pace_release(&p);

	assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, 100, 1000, 4, 0, NULL, NULL), 0);
	sim_out_init(&o, p.total);
	sim_capture(&p, 1, 0, fixed, &c2, &o);
	assert_int_equal(p.dropped, 0);
	assert_int_equal(p.max_queue, 4);
	free(o.got);
	sm_pace_release(&p);
}

/*
 * n writers that take T ns per frame sustain n x 1e9 / T fps. At F fps the
 * long-run drop fraction is 1 - n x 1e9 / (T x F) (the R / (S x F) of a
 * throttle), off by at most the q + n frames of the start; at or under the
 * capacity nothing is dropped.
 */
static void test_capture_slow_writer_fraction(SM_UNUSED void **state)
{
	static const struct {
		unsigned n, q;
		uint64_t t_ns;
		double fps;
	} cases[] = {
		{ 4, 8, 5 * MS, 1000 },         /* 800 fps of 1000: 20% */
		{ 1, 8, 3 * MS, 1000 },         /* 333.3 of 1000: 66.7% */
		{ 2, 4, 83333333, 48 },         /* 24 of 48: 50% */
		{ 3, 16, 40 * MS, 100 },        /* 75 of 100: 25% */
		{ 2, 8, 1500 * US, 1000 },      /* 1333 fps >= 1000: none */
		{ 4, 2, 4 * MS, 1000 },         /* exactly the capacity: none */
	};
	const uint64_t total = 40000;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixed_cost c = { .ns = cases[i].t_ns };
		double cap = cases[i].n * 1e9 / (double)cases[i].t_ns;
		double want = cap >= cases[i].fps ? 0 : 1 - cap / cases[i].fps;
		struct sm_pace p;
		struct sim_out o;
		double got;

		assert_int_equal(sm_pace_init(&p, SM_PACE_CAPTURE, total, cases[i].fps, cases[i].q, 0,
					      NULL, NULL), 0);
		sim_out_init(&o, total);
		sim_capture(&p, cases[i].n, 1000, fixed, &c, &o);
		got = (double)p.dropped / (double)total;
		print_message("capture n=%u T=%.3f ms F=%g q=%u: dropped %.5f, model %.5f\n",
			      cases[i].n, cases[i].t_ns / 1e6, cases[i].fps, cases[i].q, got, want);
		if (want == 0)
			assert_int_equal(p.dropped, 0);
		else
			assert_true(fabs(got - want) <= (double)(cases[i].q + cases[i].n + 1) / (double)total);
		if (want > 0)
			assert_int_equal(p.max_queue, cases[i].q);
		free(o.got);
		sm_pace_release(&p);
	}
}

/* ---- playback ---------------------------------------------------------------- */

/*
 * One reader, 1 us per frame, 1000 fps, q = 8, b = 3: frames 0..2 complete
 * at 11, 12, 13 us and the display starts at 13 us (the b-th completion).
 * The reader stays q frames ahead; every frame is shown early, none late.
 */
static void test_playback_fast_reader(void **state)
{
	struct hists *h = *state;
	struct fixed_cost c = { .ns = US };
	struct sm_pace p;
	struct sim_out o;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 50, 1000, 8, 3, h->early, h->late), 0);
	sim_out_init(&o, p.total);
	sim_playback(&p, 1, 10 * US, fixed, &c, &o);
	assert_true(p.started);
	assert_int_equal(sm_pace_due(&p, 0), 13 * US);
	assert_int_equal(sm_pace_due(&p, 49), 13 * US + 49 * MS);
	assert_int_equal(o.transferred, 50);
	assert_int_equal(p.dropped, 0);
	assert_int_equal(p.skipped, 0);
	assert_int_equal(p.longest_run, 0);
	assert_int_equal(p.max_queue, 8);
	assert_int_equal(h->early->count, 47);
	assert_int_equal(p.shown_prebuffer, 3);
	assert_int_equal(h->late->count, 0);
	/* frames 0-2 are the pre-buffer (not in the histogram); frame 3 is
	 * the first judged: read 3 frames ahead of its due time */
	assert_int_equal(h->early->min, 3 * MS - US);
	assert_int_equal(h->early->max, 8 * MS - US);     /* read q frames ahead */
	free(o.got);
	sm_pace_release(&p);
}

/* Three readers with jittery costs under half an interval: no drops. */
static void test_playback_fast_readers(void **state)
{
	struct hists *h = *state;
	uint64_t jr[2] = { 50 * US, 20 * MS };   /* at 24 fps: 41.7 ms interval */
	struct sm_pace p;
	struct sim_out o;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 3000, 24, 6, 5, h->early, h->late), 0);
	sim_out_init(&o, p.total);
	sim_playback(&p, 3, 0, jitter, jr, &o);
	assert_int_equal(p.dropped, 0);
	assert_int_equal(p.skipped, 0);
	assert_int_equal(h->early->count, 2995);
	assert_int_equal(h->late->count, 0);
	assert_true(p.max_queue <= 6);
	free(o.got);
	sm_pace_release(&p);
}

/*
 * One reader taking 1.5 intervals per frame, q = 2, b = 1, 10 frames at
 * 1000 fps from t = 0. Frame 0 (done 1.5 ms) starts the display and is
 * shown; each later read begins when its frame is at most one interval from
 * due, so it finishes late: 1, 2, 4, 5, 7, 8 complete late and 3, 6, 9 are
 * skipped (due before a read could start). Every frame but the first is
 * dropped: in this model the display never lets a slow reader get ahead.
 */
static void test_playback_slow_reader(void **state)
{
	struct hists *h = *state;
	struct fixed_cost c = { .ns = MS + MS / 2 };
	struct sm_pace p;
	struct sim_out o;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 10, 1000, 2, 1, h->early, h->late), 0);
	sim_out_init(&o, p.total);
	sim_playback(&p, 1, 0, fixed, &c, &o);
	assert_int_equal(sm_pace_due(&p, 0), MS + MS / 2);
	assert_int_equal(p.dropped, 9);
	assert_int_equal(p.skipped, 3);
	assert_int_equal(p.longest_run, 9);
	assert_int_equal(o.late_returns, 6);
	assert_int_equal(o.transferred, 7);
	assert_int_equal(p.max_queue, 1);
	for (uint64_t i = 0; i < 10; i++)
		assert_int_equal(o.got[i], i % 3 != 0 || i == 0);
	assert_int_equal(h->early->count, 0);
	assert_int_equal(p.shown_prebuffer, 1);
	assert_int_equal(h->early->max, 0);               /* frame 0 exactly at its due time */
	assert_int_equal(h->late->count, 6);
	assert_int_equal(h->late->min, MS / 2);           /* 1, 4, 7 */
	assert_int_equal(h->late->max, MS);               /* 2, 5, 8 */
	free(o.got);
	sm_pace_release(&p);
}

/* Several readers that together cannot keep up drop frames; every frame is
 * still accounted for once. */
static void test_playback_slow_readers(void **state)
{
	struct hists *h = *state;
	struct fixed_cost c = { .ns = 10 * MS };   /* 4 readers: 400 fps of 1000 */
	struct sm_pace p;
	struct sim_out o;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 2000, 1000, 8, 4, h->early, h->late), 0);
	sim_out_init(&o, p.total);
	sim_playback(&p, 4, 0, fixed, &c, &o);
	print_message("playback 4 readers at 400 of 1000 fps: dropped %llu of 2000 (%llu skipped), "
		      "longest run %llu\n", (unsigned long long)p.dropped,
		      (unsigned long long)p.skipped, (unsigned long long)p.longest_run);
	assert_true(p.dropped >= 2000 * 6 / 10);   /* at least 1 - 400 / 1000 */
	assert_true(p.skipped > 0);
	assert_true(p.longest_run > 1);
	assert_true(p.max_queue <= 8);
	free(o.got);
	sm_pace_release(&p);
}

/*
 * By hand, q = 4, b = 2, 6 frames at 1000 fps: frames 0..3 are claimed at
 * once, the fifth claim waits for a completion (not started: no wake time).
 * 0 and 1 complete at 100 and 200 ns: the display starts at 200 ns. 3
 * completes early; 2 completes 1 ns after its due time: 1 (late). 4 completes
 * exactly at its due time: on time (late means after the due time, however
 * the completion and the display are ordered).
 */
static void test_playback_by_hand(void **state)
{
	struct hists *h = *state;
	struct sm_pace p;
	uint64_t seq, sched, wake;
	const uint64_t ts = 200;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 6, 1000, 4, 2, h->early, h->late), 0);
	sm_pace_start(&p, 0);
	for (uint64_t want = 0; want < 4; want++) {
		assert_int_equal(sm_pace_claim(&p, 0, &seq, &sched, &wake), SM_PACE_GO);
		assert_int_equal(seq, want);
		assert_int_equal(sched, 0);               /* due time not known yet */
	}
	assert_int_equal(p.max_queue, 4);
	assert_int_equal(sm_pace_claim(&p, 50, &seq, &sched, &wake), SM_PACE_WAIT);
	assert_int_equal(wake, UINT64_MAX);
	assert_int_equal(sm_pace_due(&p, 0), 0);
	assert_int_equal(sm_pace_complete(&p, 0, 100), 0);
	assert_false(p.started);
	assert_int_equal(sm_pace_complete(&p, 1, ts), 0);
	assert_true(p.started);
	assert_int_equal(sm_pace_due(&p, 0), ts);
	assert_int_equal(sm_pace_due(&p, 3), ts + 3 * MS);
	/* Frame 0 was shown at ts: one buffer is free now. */
	assert_int_equal(p.next_display, 1);
	assert_int_equal(sm_pace_complete(&p, 3, ts + 10), 0);
	assert_int_equal(sm_pace_claim(&p, ts + 20, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(seq, 4);
	assert_int_equal(sched, ts + 4 * MS);
	/* Buffers 1, 2, 3, 4 in use; 1 (done) frees at its due time. */
	assert_int_equal(sm_pace_claim(&p, ts + 30, &seq, &sched, &wake), SM_PACE_WAIT);
	assert_int_equal(wake, ts + MS);
	assert_int_equal(sm_pace_complete(&p, 2, ts + 2 * MS + 1), 1);
	assert_int_equal(p.dropped, 1);
	assert_int_equal(p.skipped, 0);
	assert_int_equal(h->late->count, 1);
	assert_int_equal(h->late->max, 1);
	assert_int_equal(sm_pace_claim(&p, ts + 2 * MS + 1, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(seq, 5);
	assert_int_equal(sm_pace_claim(&p, ts + 2 * MS + 2, &seq, &sched, &wake), SM_PACE_DONE);
	assert_int_equal(sm_pace_complete(&p, 4, ts + 4 * MS), 0);
	assert_int_equal(sm_pace_complete(&p, 5, ts + 4 * MS + 5), 0);
	/* 3 and 4 (done on its due time) were shown as 5 completed; 5 is
	 * complete but not yet displayed: finish judges it. */
	assert_int_equal(p.next_display, 5);
	assert_int_equal(h->early->count, 2);
	sm_pace_finish(&p);
	assert_int_equal(p.next_display, 6);
	assert_int_equal(h->early->count, 3);
	assert_int_equal(p.shown_prebuffer, 2);
	assert_int_equal(h->early->min, 0);               /* frame 4, on the dot */
	assert_int_equal(h->late->count, 1);
	assert_int_equal(p.dropped, 1);
	assert_int_equal(p.longest_run, 1);
	assert_int_equal(p.max_queue, 4);
	sm_pace_release(&p);
}

/*
 * One fast reader (1 us) with q = 4, b = 4 at 1000 fps stalls once: frame 10
 * is claimed when frame 6 is shown (the reader stays q frames ahead) and
 * takes 5.5 intervals, finishing half-way between the due times of 11 and
 * 12. 7, 8, 9 were shown; 10 completes late (dropped, 1.5 ms late); 11 was
 * due before any read of it could start (skipped). The reader resumes at 12.
 */
static void test_playback_skip(void **state)
{
	struct hists *h = *state;
	struct fixed_cost c = { .ns = US, .slow_seq = { 10 }, .slow_ns = { 5 * MS + MS / 2 } };
	struct sm_pace p;
	struct sim_out o;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 30, 1000, 4, 4, h->early, h->late), 0);
	sim_out_init(&o, p.total);
	sim_playback(&p, 1, 0, fixed, &c, &o);
	assert_int_equal(sm_pace_due(&p, 0), 4 * US);
	assert_int_equal(p.dropped, 2);
	assert_int_equal(p.skipped, 1);
	assert_int_equal(p.longest_run, 2);
	assert_int_equal(o.late_returns, 1);
	assert_int_equal(h->late->count, 1);
	assert_int_equal(h->late->max, MS + MS / 2);
	assert_int_equal(h->early->count, 24);
	assert_int_equal(p.shown_prebuffer, 4);
	assert_int_equal(p.max_queue, 4);
	for (uint64_t i = 0; i < 30; i++)
		assert_int_equal(o.got[i], i != 11);
	free(o.got);
	sm_pace_release(&p);
}

/* b > q is clamped: the display starts at the q-th completion. b larger
 * than the whole run starts it at the last frame. */
static void test_playback_prebuffer_limits(void **state)
{
	struct hists *h = *state;
	struct sm_pace p;
	uint64_t seq, sched, wake;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 20, 50, 3, 10, h->early, h->late), 0);
	assert_int_equal(p.b, 3);
	for (uint64_t i = 0; i < 3; i++) {
		assert_int_equal(sm_pace_claim(&p, i, &seq, &sched, &wake), SM_PACE_GO);
		assert_int_equal(seq, i);
	}
	assert_int_equal(sm_pace_claim(&p, 3, &seq, &sched, &wake), SM_PACE_WAIT);
	assert_int_equal(sm_pace_complete(&p, 0, 10), 0);
	assert_int_equal(sm_pace_complete(&p, 1, 20), 0);
	assert_false(p.started);
	assert_int_equal(sm_pace_complete(&p, 2, 30), 0);
	assert_true(p.started);
	assert_int_equal(sm_pace_due(&p, 1), 30 + 20 * MS);
	sm_pace_release(&p);

	/* 3 frames, b = 5, q = 8 */
	sm_hist_init(h->early);
	sm_hist_init(h->late);
	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 3, 50, 8, 5, h->early, h->late), 0);
	for (uint64_t i = 0; i < 3; i++)
		assert_int_equal(sm_pace_claim(&p, 0, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(sm_pace_claim(&p, 0, &seq, &sched, &wake), SM_PACE_DONE);
	assert_int_equal(sm_pace_complete(&p, 1, 10), 0);
	assert_int_equal(sm_pace_complete(&p, 0, 20), 0);
	assert_false(p.started);
	assert_int_equal(sm_pace_complete(&p, 2, 30), 0);
	assert_true(p.started);
	assert_int_equal(sm_pace_due(&p, 0), 30);
	sm_pace_finish(&p);
	assert_int_equal(p.dropped, 0);
	assert_int_equal(h->early->count, 0);             /* all three were pre-buffered */
	assert_int_equal(p.shown_prebuffer, 3);
	assert_int_equal(p.max_queue, 3);
	sm_pace_release(&p);
}

/* A run stopped before the display started judges nothing. */
static void test_playback_finish_not_started(void **state)
{
	struct hists *h = *state;
	struct sm_pace p;
	uint64_t seq, sched, wake;

	assert_int_equal(sm_pace_init(&p, SM_PACE_PLAYBACK, 100, 24, 8, 5, h->early, h->late), 0);
	assert_int_equal(sm_pace_claim(&p, 0, &seq, &sched, &wake), SM_PACE_GO);
	assert_int_equal(sm_pace_complete(&p, 0, 1000), 0);
	sm_pace_finish(&p);
	assert_false(p.started);
	assert_int_equal(p.dropped, 0);
	assert_int_equal(h->early->count + h->late->count, 0);
	sm_pace_release(&p);
}

#define HT(f) cmocka_unit_test_setup_teardown(f, hists_setup, hists_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_capture_wait_go_done),
		cmocka_unit_test(test_capture_all_at_once),
		cmocka_unit_test(test_capture_fast),
		cmocka_unit_test(test_capture_stall),
		cmocka_unit_test(test_capture_slow_writer_fraction),
		HT(test_playback_fast_reader),
		HT(test_playback_fast_readers),
		HT(test_playback_slow_reader),
		HT(test_playback_slow_readers),
		HT(test_playback_by_hand),
		HT(test_playback_skip),
		HT(test_playback_prebuffer_limits),
		HT(test_playback_finish_not_started),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
