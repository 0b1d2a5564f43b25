/* SPDX-License-Identifier: MIT */
/* The tests a rank of a `run` job fell behind in (analysis/run_dist.c):
 * per test, a rank below 80% of the median rank's rate is named; a test
 * with fewer than two measured ranks names nobody; an unmeasured rank (0)
 * is neither counted in the median nor named. */
#include "analysis/run_dist.h"

#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"

static char names[SM_RUN_DIST_TESTS][24];

static void set_names(void)
{
	for (unsigned t = 0; t < SM_RUN_DIST_TESTS; t++)
		snprintf(names[t], sizeof(names[t]), "test %u", t);
}

static void test_behind(SM_UNUSED void **state)
{
	struct sm_run_rank_best b[4];
	double rate[4 * SM_RUN_DIST_TESTS] = { 0 };

	set_names();
	memset(b, 0, sizeof(b));
	/* test 0: 100 100 79 100: median 100, rank 2 below 80 */
	rate[0 * SM_RUN_DIST_TESTS + 0] = 100;
	rate[1 * SM_RUN_DIST_TESTS + 0] = 100;
	rate[2 * SM_RUN_DIST_TESTS + 0] = 79;
	rate[3 * SM_RUN_DIST_TESTS + 0] = 100;
	/* test 1: 100 81 100 100: 81 is within the rule, nobody named */
	rate[0 * SM_RUN_DIST_TESTS + 1] = 100;
	rate[1 * SM_RUN_DIST_TESTS + 1] = 81;
	rate[2 * SM_RUN_DIST_TESTS + 1] = 100;
	rate[3 * SM_RUN_DIST_TESTS + 1] = 100;
	/* test 2: even count, median (40 + 100) / 2 = 70: 40 < 56, named */
	rate[0 * SM_RUN_DIST_TESTS + 2] = 40;
	rate[1 * SM_RUN_DIST_TESTS + 2] = 100;
	rate[2 * SM_RUN_DIST_TESTS + 2] = 100;
	rate[3 * SM_RUN_DIST_TESTS + 2] = 30;
	/* test 3: one measured rank: nobody */
	rate[3 * SM_RUN_DIST_TESTS + 3] = 1;
	/* test 4: rank 1 unmeasured (0) is not behind; 10 vs 100 and 100 */
	rate[0 * SM_RUN_DIST_TESTS + 4] = 10;
	rate[2 * SM_RUN_DIST_TESTS + 4] = 100;
	rate[3 * SM_RUN_DIST_TESTS + 4] = 100;
	sm_run_dist_slow(b, 4, rate, names);
	assert_int_equal(b[0].nslow, 2);
	assert_string_equal(b[0].slow[0], "test 2");
	assert_string_equal(b[0].slow[1], "test 4");
	assert_int_equal(b[1].nslow, 0);
	assert_int_equal(b[2].nslow, 1);
	assert_string_equal(b[2].slow[0], "test 0");
	assert_int_equal(b[3].nslow, 1);
	assert_string_equal(b[3].slow[0], "test 2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_behind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
