/* SPDX-License-Identifier: MIT */
/* Unit tests of the per-frame series (core/framemap): columns fold in pairs
 * when a frame falls past the last one, keeping counts, sums, minima and
 * maxima exact; maps of different widths merge into the wider; drops and
 * times from schedule are kept apart from frame times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/compiler.h"
#include "core/framemap.h"

static void totals(const struct sm_framemap *m, uint64_t *frames, uint64_t *sum, uint64_t *drops)
{
	*frames = *sum = *drops = 0;
	for (unsigned i = 0; i < SM_FRAMEMAP_COLS; i++) {
		*frames += m->col[i].frames;
		*sum += m->col[i].sum_ns;
		*drops += m->col[i].dropped;
		if (i >= m->ncols)
			assert_int_equal(m->col[i].frames + m->col[i].dropped, 0);
	}
}

static void test_small(SM_UNUSED void **state)
{
	struct sm_framemap *m = malloc(sizeof(*m));

	sm_framemap_init(m);
	sm_framemap_add(m, 0, 100, 0, 0);
	sm_framemap_add(m, 2, 300, 0, 0);
	sm_framemap_drop(m, 5);
	assert_int_equal(m->width, 1);
	assert_int_equal(m->ncols, 6);
	assert_int_equal(m->col[0].frames, 1);
	assert_int_equal(m->col[1].frames, 0);
	assert_int_equal(m->col[2].min_ns, 300);
	assert_int_equal(m->col[5].dropped, 1);
	assert_int_equal(m->col[5].frames, 0);
	free(m);
}

static void test_fold(SM_UNUSED void **state)
{
	struct sm_framemap *m = malloc(sizeof(*m));
	const uint64_t n = 200000;
	uint64_t frames, sum, drops, want = 0;

	sm_framemap_init(m);
	for (uint64_t s = 0; s < n; s++) {
		uint64_t v = 1000 + (s * 7919) % 5000;

		if (s % 1000 == 999) {
			sm_framemap_drop(m, s);
			continue;
		}
		sm_framemap_add(m, s, v, 1, v / 2);
		want += v;
	}
	/* 200,000 transfers: width 256 (200000 / 256 = 781.25 columns) */
	assert_int_equal(m->width, 256);
	assert_int_equal(m->ncols, 782);
	totals(m, &frames, &sum, &drops);
	assert_int_equal(frames, n - n / 1000);
	assert_int_equal(drops, n / 1000);
	assert_int_equal(sum, want);
	for (unsigned i = 0; i < m->ncols; i++) {
		const struct sm_framemap_col *c = &m->col[i];

		assert_true(c->min_ns >= 1000 && c->max_ns < 6000 && c->min_ns <= c->max_ns);
		assert_int_equal(c->sched_frames, c->frames);
		assert_int_equal(c->sched_min_ns, c->min_ns / 2);
	}
	free(m);
}

/* Workers' maps (different widths: one saw only early frames) merge into
 * the result's exactly. */
static void test_merge(SM_UNUSED void **state)
{
	struct sm_framemap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint64_t fa, sa, da, fb, sb, db;

	sm_framemap_init(a);
	sm_framemap_init(b);
	for (uint64_t s = 0; s < 5000; s += 2)
		sm_framemap_add(a, s, s + 1, 0, 0);
	for (uint64_t s = 1; s < 100; s += 2)
		sm_framemap_add(b, s, 1, 0, 0);
	sm_framemap_drop(b, 7);
	assert_int_equal(a->width, 8);
	assert_int_equal(b->width, 1);
	totals(a, &fa, &sa, &da);
	totals(b, &fb, &sb, &db);
	sm_framemap_merge(b, a);   /* the narrower takes the wider's width */
	assert_int_equal(b->width, 8);
	totals(b, &fb, &sb, &db);
	assert_int_equal(fb, fa + 50);
	assert_int_equal(sb, sa + 50);
	assert_int_equal(db, 1);
	assert_int_equal(b->col[0].min_ns, 1);   /* frame 0 took 1 ns, and b's frames 1 ns */
	assert_int_equal(b->col[0].max_ns, 7);   /* frame 6 took 7 ns */
	assert_int_equal(b->ncols, a->ncols);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
