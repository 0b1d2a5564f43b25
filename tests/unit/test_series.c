/* SPDX-License-Identifier: MIT */
/* Live statistics tests: slots on their own cache lines, exact totals and
 * histograms against a plain sm_hist, points, windows and interval
 * histograms from a fixed sequence of samples, and a sampler reading
 * while writers run (exact once they are joined; clean under TSan). */
#include "core/series.h"
#include "core/compiler.h"
#include "core/rng.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define S 1000000000ull

static void test_layout(SM_UNUSED void **state)
{
	struct sm_series_cfg cfg = { .workers = 5, .counters = 3, .hists = 2 };
	struct sm_series *s = sm_series_new(&cfg);
	struct sm_series_cfg bad = { .workers = 1, .counters = SM_SERIES_MAX_COUNTERS + 1 };

	assert_non_null(s);
	for (unsigned i = 0; i < cfg.workers; i++) {
		uintptr_t a = (uintptr_t)sm_series_slot(s, i);

		assert_int_equal(a % 64, 0);
		if (i) {
			uintptr_t prev = (uintptr_t)sm_series_slot(s, i - 1);
			size_t used = sizeof(struct sm_series_slot) + 2 * sizeof(struct sm_series_hist);

			/* the previous slot's last byte is on an earlier line */
			assert_true((prev + used - 1) / 64 < a / 64);
		}
	}
	assert_null(sm_series_new(&bad));
	bad.counters = 1;
	bad.workers = 0;
	assert_null(sm_series_new(&bad));
	sm_series_free(s);
}

/* Totals and histograms equal a plain sm_hist fed the same values. */
static void test_exact(SM_UNUSED void **state)
{
	struct sm_series_cfg cfg = { .workers = 3, .counters = 2, .hists = 1 };
	struct sm_series *s = sm_series_new(&cfg);
	struct sm_hist *plain = sm_hist_new(), *got = sm_hist_new(), *one = sm_hist_new();
	struct sm_rng r;
	uint64_t n[3] = { 0 };

	assert_non_null(s);
	sm_rng_seed(&r, 42);
	for (unsigned k = 0; k < 30000; k++) {
		unsigned w = (unsigned)sm_rng_below(&r, 3);
		uint64_t v = 1000 + sm_rng_below(&r, 5000000);

		sm_series_add(sm_series_slot(s, w), 0, 1);
		sm_series_add(sm_series_slot(s, w), 1, v);
		sm_series_record(sm_series_slot(s, w), 0, v);
		sm_hist_add(plain, v);
		n[w]++;
	}
	assert_int_equal(sm_series_total(s, -1, 0), 30000);
	assert_int_equal(sm_series_total(s, -1, 1), plain->sum);
	for (int w = 0; w < 3; w++) {
		assert_int_equal(sm_series_total(s, w, 0), n[w]);
		sm_series_hist_read(s, w, 0, one);
		assert_int_equal(one->count, n[w]);
	}
	sm_series_hist_read(s, -1, 0, got);
	assert_int_equal(got->count, plain->count);
	assert_int_equal(got->sum, plain->sum);
	assert_int_equal(got->min, plain->min);
	assert_int_equal(got->max, plain->max);
	assert_memory_equal(got->buckets, plain->buckets, sizeof(plain->buckets));
	assert_true(fabs(sm_hist_stddev(got) - sm_hist_stddev(plain)) < 1e-6 * sm_hist_stddev(plain));
	assert_int_equal(sm_hist_percentile(got, 99), sm_hist_percentile(plain, 99));
	free(plain);
	free(got);
	free(one);
	sm_series_free(s);
}

/* Points, windows and intervals from a known schedule: second k (1-based)
 * adds k events of k ms each. */
static void test_points_windows(SM_UNUSED void **state)
{
	struct sm_series_cfg cfg = { .workers = 2, .counters = 1, .hists = 1 };
	struct sm_series *s = sm_series_new(&cfg);
	struct sm_series_point p;
	struct sm_hist *h = sm_hist_new();

	assert_non_null(s);
	assert_int_equal(sm_series_window(s, S, &p), -ENODATA);
	for (uint64_t k = 1; k <= 10; k++) {
		for (uint64_t e = 0; e < k; e++) {
			struct sm_series_slot *w = sm_series_slot(s, (unsigned)(e & 1));

			sm_series_add(w, 0, 1);
			sm_series_record(w, 0, k * 1000000);
		}
		assert_int_equal(sm_series_sample(s, k * S), 0);
		if (k == 3) {
			/* interval = seconds 1..3: 1 + 2 + 3 values, max 3 ms */
			sm_series_take_interval(s, 0, h);
			assert_int_equal(h->count, 6);
			assert_true(h->max >= 3000000 && h->max < 3000000 * 1.01);
			assert_true(h->min <= 1000000 && h->min > 1000000 * 0.99);
		}
	}
	assert_int_equal(sm_series_points(s), 10);
	sm_series_point(s, 4, &p);
	assert_int_equal(p.t_ns, 5 * S);
	assert_int_equal(p.counter[0], 15);           /* 1+2+3+4+5 */
	assert_int_equal(p.hist_count[0], 15);
	assert_int_equal(p.hist_sum[0], (1 + 4 + 9 + 16 + 25) * 1000000ull);
	assert_true(p.hist_max[0] >= 5000000 && p.hist_max[0] < 5000000 * 1.01);
	/* interval = seconds 4..10 */
	sm_series_take_interval(s, 0, h);
	assert_int_equal(h->count, 4 + 5 + 6 + 7 + 8 + 9 + 10);
	assert_true(h->min <= 4000000 && h->min > 4000000 * 0.99);
	/* an empty interval */
	sm_series_take_interval(s, 0, h);
	assert_int_equal(h->count, 0);
	/* windows: last 1 s = second 10; last 5 s = seconds 6..10 */
	assert_int_equal(sm_series_window(s, S, &p), 0);
	assert_int_equal(p.t_ns, S);
	assert_int_equal(p.counter[0], 10);
	assert_int_equal(sm_series_window(s, 5 * S, &p), 0);
	assert_int_equal(p.t_ns, 5 * S);
	assert_int_equal(p.counter[0], 6 + 7 + 8 + 9 + 10);
	assert_true(p.hist_max[0] >= 10000000 && p.hist_max[0] < 10000000 * 1.01);
	/* exactly the whole run, then longer than the run */
	assert_int_equal(sm_series_window(s, 10 * S, &p), 0);
	assert_int_equal(p.counter[0], 55);
	assert_int_equal(sm_series_window(s, 30 * S, &p), -ENODATA);
	assert_int_equal(p.t_ns, 10 * S);
	assert_int_equal(p.counter[0], 55);
	free(h);
	sm_series_free(s);
}

/* ---- a sampler reading while writers write ------------------------------- */

#define WRITERS 4
#define PER_WRITER 200000u

struct wr {
	struct sm_series *s;
	unsigned id;
	atomic_int *go;
};

static void *writer(void *arg)
{
	struct wr *w = arg;
	struct sm_series_slot *slot = sm_series_slot(w->s, w->id);

	while (!atomic_load(w->go))
		;
	for (unsigned k = 0; k < PER_WRITER; k++) {
		sm_series_add(slot, 0, 1);
		sm_series_add(slot, 1, 4096);
		sm_series_record(slot, 0, 100 + (k % 1000) * 10);
	}
	return NULL;
}

/* A second reader: merged readings while the sampler samples and the
 * writers write; each keeps the histogram's invariants and never goes back. */
struct rd {
	struct sm_series *s;
	atomic_int *stop;
	int bad;
};

static void *reader(void *arg)
{
	struct rd *r = arg;
	struct sm_hist *h = sm_hist_new();
	uint64_t last = 0;

	while (h && !atomic_load(r->stop)) {
		uint64_t n = 0;

		sm_series_hist_read(r->s, -1, 0, h);
		for (unsigned b = 0; b < SM_HIST_BUCKETS; b++)
			n += h->buckets[b];
		if (n != h->count || h->count < last || (h->count && h->min > h->max))
			r->bad = 1;
		last = h->count;
	}
	free(h);
	return NULL;
}

static void test_concurrent(SM_UNUSED void **state)
{
	struct sm_series_cfg cfg = { .workers = WRITERS, .counters = 2, .hists = 1 };
	struct sm_series *s = sm_series_new(&cfg);
	struct sm_hist *h = sm_hist_new();
	struct wr w[WRITERS];
	pthread_t t[WRITERS];
	atomic_int go = 0;
	uint64_t last = 0, intervals = 0, t_ns = 0;
	struct sm_series_point p;

	assert_non_null(s);
	for (unsigned i = 0; i < WRITERS; i++) {
		w[i] = (struct wr){ s, i, &go };
		assert_int_equal(pthread_create(&t[i], NULL, writer, &w[i]), 0);
	}
	atomic_int rstop = 0;
	struct rd rd = { s, &rstop, 0 };
	pthread_t rt;

	assert_int_equal(pthread_create(&rt, NULL, reader, &rd), 0);
	atomic_store(&go, 1);
	/* sample while they run: cumulative counts never go back, and the
	 * intervals add up to the cumulative count */
	for (unsigned k = 0; k < 200; k++) {
		assert_int_equal(sm_series_sample(s, ++t_ns), 0);
		sm_series_point(s, sm_series_points(s) - 1, &p);
		assert_true(p.counter[0] >= last);
		assert_int_equal(p.counter[1] % 4096, 0);   /* never torn */
		last = p.counter[0];
		sm_series_take_interval(s, 0, h);
		intervals += h->count;
		assert_int_equal(intervals, p.hist_count[0]);
	}
	for (unsigned i = 0; i < WRITERS; i++)
		pthread_join(t[i], NULL);
	atomic_store(&rstop, 1);
	pthread_join(rt, NULL);
	assert_false(rd.bad);
	assert_int_equal(sm_series_sample(s, ++t_ns), 0);
	sm_series_take_interval(s, 0, h);
	intervals += h->count;
	assert_int_equal(intervals, (uint64_t)WRITERS * PER_WRITER);
	assert_int_equal(sm_series_total(s, -1, 0), (uint64_t)WRITERS * PER_WRITER);
	assert_int_equal(sm_series_total(s, -1, 1), (uint64_t)WRITERS * PER_WRITER * 4096);
	sm_series_hist_read(s, -1, 0, h);
	assert_int_equal(h->count, (uint64_t)WRITERS * PER_WRITER);
	assert_int_equal(h->min, 100);
	assert_int_equal(h->max, 100 + 999 * 10);
	free(h);
	sm_series_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_points_windows),
		cmocka_unit_test(test_concurrent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
