/* SPDX-License-Identifier: MIT */
/* Unit tests of the steady-state rule (analysis/steady.c) on synthetic
 * round series: steady ones are found at the round they become steady,
 * drifting, oscillating and collapsing ones are not. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/steady.h"
#include "core/compiler.h"

static struct sm_steady *new_steady(unsigned max_rounds)
{
	struct sm_steady *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->on = 1;
	s->max_rounds = max_rounds;
	sm_steady_rule_pts(&s->rule);
	return s;
}

static void test_rule_is_pts(SM_UNUSED void **state)
{
	struct sm_steady_rule r;

	sm_steady_rule_pts(&r);
	assert_int_equal(r.window, 5);
	assert_true(r.range_limit == 0.20);
	assert_true(r.excursion_limit == 0.10);
}

static void test_flat_is_steady(SM_UNUSED void **state)
{
	const double y[5] = { 200, 200, 200, 200, 200 };
	struct sm_steady_rule r;
	struct sm_steady_window w;

	sm_steady_rule_pts(&r);
	assert_int_equal(sm_steady_eval(y, 5, &r, &w), 1);
	assert_int_equal(w.first, 1);
	assert_int_equal(w.n, 5);
	assert_true(w.avg == 200 && w.range == 0 && w.slope == 0 && w.excursion == 0);
	assert_true(w.range_ok && w.excursion_ok && w.steady);
}

/* +-5% noise with no trend: steady; the fitted slope is the exact one */
static void test_noisy_flat_is_steady(SM_UNUSED void **state)
{
	const double y[7] = { 10, 10, 100, 95, 105, 97, 103 };
	struct sm_steady_rule r;
	struct sm_steady_window w;

	sm_steady_rule_pts(&r);
	assert_int_equal(sm_steady_eval(y, 7, &r, &w), 1);
	assert_int_equal(w.first, 3);     /* only the last five count */
	assert_true(fabs(w.avg - 100) < 1e-9);
	assert_true(w.min == 95 && w.max == 105 && w.range == 10);
	/* x -2..2, deviations 0,-5,5,-3,3: sxy = 0+5+0-3+6 = 8, sxx = 10 */
	assert_true(fabs(w.slope - 0.8) < 1e-12);
	assert_true(fabs(w.excursion - 3.2) < 1e-12);
}

/* range 25 of an average 110 (22.7%) with no trend: the range fails alone */
static void test_range_too_wide(SM_UNUSED void **state)
{
	const double y[5] = { 100, 125, 100, 125, 100 };
	struct sm_steady_rule r;
	struct sm_steady_window w;

	sm_steady_rule_pts(&r);
	assert_int_equal(sm_steady_eval(y, 5, &r, &w), 0);
	assert_false(w.range_ok);
	assert_true(w.excursion_ok);
	assert_true(fabs(w.excursion) < 1e-9);
	assert_false(w.steady);
}

/* a steady climb of 4 a round: range 16 (14.8%) passes, the excursion
 * 16 (14.8% > 10%) fails alone */
static void test_trend_fails_excursion(SM_UNUSED void **state)
{
	const double y[5] = { 100, 104, 108, 112, 116 };
	struct sm_steady_rule r;
	struct sm_steady_window w;

	sm_steady_rule_pts(&r);
	assert_int_equal(sm_steady_eval(y, 5, &r, &w), 0);
	assert_true(w.range_ok);
	assert_false(w.excursion_ok);
	assert_true(fabs(w.slope - 4) < 1e-12);
	assert_true(fabs(w.excursion - 16) < 1e-12);
}

/* just inside and just outside both limits */
static void test_limits(SM_UNUSED void **state)
{
	const double in_range[5] = { 90.05, 109.95, 100, 100, 100 };    /* range 19.9 */
	const double out_range[5] = { 89.95, 110.05, 100, 100, 100 };   /* range 20.1 */
	const double in_exc[5] = { 95.05, 97.525, 100, 102.475, 104.95 };  /* excursion 9.9 */
	const double out_exc[5] = { 94.95, 97.475, 100, 102.525, 105.05 }; /* excursion 10.1 */
	struct sm_steady_rule r;
	struct sm_steady_window w;

	sm_steady_rule_pts(&r);
	assert_int_equal(sm_steady_eval(in_range, 5, &r, &w), 1);
	assert_int_equal(sm_steady_eval(out_range, 5, &r, &w), 0);
	assert_false(w.range_ok);
	assert_int_equal(sm_steady_eval(in_exc, 5, &r, &w), 1);
	assert_int_equal(sm_steady_eval(out_exc, 5, &r, &w), 0);
	assert_true(w.range_ok);
	assert_false(w.excursion_ok);
}

static void test_too_few_and_bad(SM_UNUSED void **state)
{
	const double y[5] = { 100, 100, 100, 100, NAN };
	const double z[5] = { 0, 0, 0, 0, 0 };
	struct sm_steady_rule r, one = { 1, 0.2, 0.1 };
	struct sm_steady_window w;

	sm_steady_rule_pts(&r);
	assert_int_equal(sm_steady_eval(y, 4, &r, &w), 0);   /* four flat rounds: too few */
	assert_int_equal(w.n, 4);
	assert_true(w.range_ok && w.excursion_ok && !w.steady);
	assert_int_equal(sm_steady_eval(y, 5, &r, &w), -EINVAL);
	assert_int_equal(sm_steady_eval(y, 0, &r, &w), -EINVAL);
	assert_int_equal(sm_steady_eval(y, 4, &one, &w), -EINVAL);
	assert_int_equal(sm_steady_eval(z, 5, &r, &w), 0);   /* nothing measured */
}

/* a cache that fills after three rounds: steady only once five rounds
 * after the fall are in the window, at round 8 */
static void test_cliff_steadies_late(SM_UNUSED void **state)
{
	const double y[] = { 500, 510, 495, 100, 102, 98, 101, 99, 100 };
	struct sm_steady *s = new_steady(25);
	int rc = 0;
	unsigned i;

	for (i = 0; i < sizeof(y) / sizeof(y[0]); i++) {
		rc = sm_steady_add(s, y[i], 1000000000);
		if (rc)
			break;
	}
	assert_int_equal(rc, 1);
	assert_int_equal(s->reached_at, 8);
	assert_int_equal(s->nrounds, 8);
	assert_int_equal(s->win.first, 4);
	assert_true(fabs(s->win.avg - 100) < 1e-9);
	free(s);
}

/* a device that keeps slowing 5% a round never steadies in 25 rounds;
 * the window reported is the last one, and a 26th round is refused */
static void test_decay_never_steady(SM_UNUSED void **state)
{
	struct sm_steady *s = new_steady(25);
	double y = 1000;

	for (unsigned i = 0; i < 25; i++, y *= 0.95)
		assert_int_equal(sm_steady_add(s, y, 1000000000), 0);
	assert_int_equal(s->reached_at, 0);
	assert_int_equal(s->nrounds, 25);
	assert_int_equal(s->win.first, 21);
	assert_int_equal(s->win.n, 5);
	assert_false(s->win.steady);
	assert_false(s->win.excursion_ok);
	assert_int_equal(sm_steady_add(s, y, 1000000000), -ENOSPC);
	free(s);
}

/* a throttle that alternates between two rates each round never steadies */
static void test_alternating_never_steady(SM_UNUSED void **state)
{
	struct sm_steady *s = new_steady(12);

	for (unsigned i = 0; i < 12; i++)
		assert_int_equal(sm_steady_add(s, i % 2 ? 40.0 : 80.0, 2000000000), 0);
	assert_int_equal(s->reached_at, 0);
	assert_false(s->win.range_ok);
	free(s);
}

/* the minimum: a constant rate is steady at round 5, not before */
static void test_constant_steady_at_five(SM_UNUSED void **state)
{
	struct sm_steady *s = new_steady(25);

	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(sm_steady_add(s, 50.0 + (i % 2), 2000000000), 0);
	assert_int_equal(sm_steady_add(s, 50.0, 2000000000), 1);
	assert_int_equal(s->reached_at, 5);
	assert_int_equal(s->win.first, 1);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_is_pts),
		cmocka_unit_test(test_flat_is_steady),
		cmocka_unit_test(test_noisy_flat_is_steady),
		cmocka_unit_test(test_range_too_wide),
		cmocka_unit_test(test_trend_fails_excursion),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_too_few_and_bad),
		cmocka_unit_test(test_cliff_steadies_late),
		cmocka_unit_test(test_decay_never_steady),
		cmocka_unit_test(test_alternating_never_steady),
		cmocka_unit_test(test_constant_steady_at_five),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
