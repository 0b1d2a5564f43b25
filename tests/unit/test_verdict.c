/* SPDX-License-Identifier: MIT */
/* Unit tests of the verdict logic: the exact boundaries of "marginal",
 * paced confirmation in both directions, p99.9 against the frame interval,
 * the rate model and playback lateness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/verdict.h"
#include "core/compiler.h"

#define MS 1000000ull

static void test_compute_boundaries(SM_UNUSED void **state)
{
	double n = 306020352.0;   /* dpx-2k at 24 fps */

	assert_int_equal(sm_verdict_compute(n * 6 / 5, n), SM_VERDICT_REALTIME);   /* exactly 1.2x */
	assert_int_equal(sm_verdict_compute(n * 6 / 5 + 1, n), SM_VERDICT_REALTIME);
	assert_int_equal(sm_verdict_compute(n * 6 / 5 - 1, n), SM_VERDICT_MARGINAL);
	assert_int_equal(sm_verdict_compute(n, n), SM_VERDICT_MARGINAL);            /* exactly 1.0x */
	assert_int_equal(sm_verdict_compute(n - 1, n), SM_VERDICT_NOT_REALTIME);
	assert_int_equal(sm_verdict_compute(0, n), SM_VERDICT_NOT_REALTIME);
	assert_int_equal(sm_verdict_compute(-5, n), SM_VERDICT_NOT_REALTIME);
	assert_int_equal(sm_verdict_compute(2 * n, n), SM_VERDICT_REALTIME);
	assert_int_equal(sm_verdict_compute(0, 0), SM_VERDICT_REALTIME);
	/* small integers where 1.2 x needed is exact: 120 vs 100 */
	assert_int_equal(sm_verdict_compute(120, 100), SM_VERDICT_REALTIME);
	assert_int_equal(sm_verdict_compute(119.999, 100), SM_VERDICT_MARGINAL);
	assert_int_equal(sm_verdict_compute(100, 100), SM_VERDICT_MARGINAL);
	assert_int_equal(sm_verdict_compute(99.999, 100), SM_VERDICT_NOT_REALTIME);
	/* the headroom the reports name is the one the rule applies */
	assert_int_equal(sm_verdict_compute(100 + SM_VERDICT_HEADROOM_PCT, 100), SM_VERDICT_REALTIME);
	assert_int_equal(sm_verdict_compute(100 + SM_VERDICT_HEADROOM_PCT - 0.001, 100),
			 SM_VERDICT_MARGINAL);
	/* frames per second work as well as bytes per second */
	assert_int_equal(sm_verdict_compute(72, 60), SM_VERDICT_REALTIME);
	assert_int_equal(sm_verdict_compute(71.9, 60), SM_VERDICT_MARGINAL);
}

static void test_near_limit(SM_UNUSED void **state)
{
	assert_false(sm_verdict_near_limit(89.999, 100));
	assert_true(sm_verdict_near_limit(90, 100));
	assert_true(sm_verdict_near_limit(100, 100));
	assert_true(sm_verdict_near_limit(120, 100));
	assert_true(sm_verdict_near_limit(149.999, 100));
	assert_false(sm_verdict_near_limit(150, 100));
	assert_false(sm_verdict_near_limit(0, 100));
	assert_false(sm_verdict_near_limit(100, 0));
}

static struct sm_paced paced(uint64_t dropped, uint64_t p999_ns, unsigned q, uint64_t interval)
{
	struct sm_paced p = {
		.scheduled = 240, .done = 240 - dropped, .dropped = dropped,
		.p999_sched_ns = p999_ns, .max_sched_ns = p999_ns,
		.interval_ns = interval, .queue = q, .complete = 1,
	};

	return p;
}

static void test_paced_rules(SM_UNUSED void **state)
{
	uint64_t iv = 40 * MS;   /* 25 fps */
	struct sm_paced p;

	/* q = 8: half of q intervals is 160 ms */
	p = paced(0, 160 * MS, 8, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_REALTIME);
	p = paced(0, 160 * MS + 1, 8, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_MARGINAL);
	p = paced(0, 10 * MS, 8, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_REALTIME);
	/* over q intervals without a drop is still not a drop: marginal */
	p = paced(0, 400 * MS, 8, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_MARGINAL);
	/* one drop is not real time, however good the p99.9 */
	p = paced(1, 1 * MS, 8, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_NOT_REALTIME);
	/* odd queue: 3 x 40 ms / 2 = 60 ms */
	p = paced(0, 60 * MS, 3, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_REALTIME);
	p = paced(0, 60 * MS + 1, 3, iv);
	assert_int_equal(sm_verdict_paced(&p), SM_VERDICT_MARGINAL);
	/* runs that cannot decide */
	p = paced(0, 1 * MS, 8, iv);
	p.complete = 0;
	assert_int_equal(sm_verdict_paced(&p), -1);
	p = paced(0, 1 * MS, 8, iv);
	p.scheduled = 0;
	assert_int_equal(sm_verdict_paced(&p), -1);
	p = paced(0, 1 * MS, 0, iv);
	assert_int_equal(sm_verdict_paced(&p), -1);
}

static void test_confirm_overrides(SM_UNUSED void **state)
{
	struct sm_verdict_cell c;
	struct sm_paced p;

	/* computed realtime (1.25x), paced run drops: down to not realtime */
	sm_verdict_cell_init(&c, 125, 100);
	assert_int_equal(c.computed, SM_VERDICT_REALTIME);
	assert_int_equal(c.final, SM_VERDICT_REALTIME);
	assert_int_equal(c.how, SM_HOW_COMPUTED);
	assert_true(c.near_limit);
	p = paced(3, 5 * MS, 8, 40 * MS);
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 1);
	assert_int_equal(c.final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(c.computed, SM_VERDICT_REALTIME);
	assert_int_equal(c.how, SM_HOW_PACED);
	assert_int_equal(c.paced.dropped, 3);

	/* computed not realtime (0.95x), paced run clean: a run of a few
	 * seconds holds what its buffers hide, so it stays not real time,
	 * decided by the computation; the cell keeps what the run showed */
	sm_verdict_cell_init(&c, 95, 100);
	assert_int_equal(c.final, SM_VERDICT_NOT_REALTIME);
	p = paced(0, 50 * MS, 8, 40 * MS);
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 1);
	assert_int_equal(c.final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(c.how, SM_HOW_COMPUTED);
	assert_int_equal(sm_verdict_cell_outcome(&c), SM_VERDICT_REALTIME);

	/* computed marginal (1.10x, the headroom is 10%), paced run clean:
	 * held, but with little headroom (~*), never raised to realtime */
	sm_verdict_cell_init(&c, 110, 100);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	p = paced(0, 50 * MS, 8, 40 * MS);
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 1);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.computed, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_PACED);
	assert_int_equal(sm_verdict_cell_outcome(&c), SM_VERDICT_REALTIME);

	/* computed marginal, paced: no drops, tight p99.9 -> marginal */
	sm_verdict_cell_init(&c, 110, 100);
	p = paced(0, 200 * MS, 8, 40 * MS);
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 1);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_PACED);
	assert_int_equal(sm_verdict_cell_outcome(&c), SM_VERDICT_MARGINAL);

	/* computed realtime: a clean run confirms it, a tight one lowers it */
	sm_verdict_cell_init(&c, 130, 100);
	p = paced(0, 50 * MS, 8, 40 * MS);
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 1);
	assert_int_equal(c.final, SM_VERDICT_REALTIME);
	assert_int_equal(c.how, SM_HOW_PACED);
	p = paced(0, 200 * MS, 8, 40 * MS);
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 1);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_PACED);

	/* an interrupted paced run leaves the computed verdict alone */
	sm_verdict_cell_init(&c, 110, 100);
	p = paced(5, 200 * MS, 8, 40 * MS);
	p.complete = 0;
	assert_int_equal(sm_verdict_cell_confirm(&c, &p), 0);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_COMPUTED);
}

/* settle is a function of computed and the run the cell carries: a cell
 * saved by an older stormark as raised by its paced run reads as today's
 * rule says; settling twice changes nothing; without a run, computed. */
static void test_settle(SM_UNUSED void **state)
{
	struct sm_verdict_cell c;

	sm_verdict_cell_init(&c, 110, 100);
	c.paced = paced(0, 20 * MS, 8, 40 * MS);
	c.final = SM_VERDICT_REALTIME;          /* as older results said */
	c.how = SM_HOW_PACED;
	sm_verdict_cell_settle(&c);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_PACED);
	sm_verdict_cell_settle(&c);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_PACED);
	memset(&c.paced, 0, sizeof(c.paced));
	sm_verdict_cell_settle(&c);
	assert_int_equal(c.final, SM_VERDICT_MARGINAL);
	assert_int_equal(c.how, SM_HOW_COMPUTED);
	assert_int_equal(sm_verdict_cell_outcome(&c), -1);
	/* a drop lowers a far realtime cell too */
	sm_verdict_cell_init(&c, 300, 100);
	c.paced = paced(2, 20 * MS, 8, 40 * MS);
	sm_verdict_cell_settle(&c);
	assert_int_equal(c.final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(c.how, SM_HOW_PACED);
}

static void test_rate_model(SM_UNUSED void **state)
{
	/* 100 MB/s flat bandwidth plus 2 ms per frame */
	struct sm_rate_point pts[3];
	uint64_t sz[3] = { 8000000, 12000000, 48000000 };

	for (int i = 0; i < 3; i++) {
		pts[i].frame_bytes = sz[i];
		pts[i].fps = 1.0 / (0.002 + (double)sz[i] / 1e8);
	}
	/* at a measured point: exactly that point */
	assert_float_equal(sm_rate_model_fps(pts, 3, 12000000), pts[1].fps, 1e-9);
	/* between points the model is exact for a linear cost */
	assert_float_equal(sm_rate_model_fps(pts, 3, 20000000), 1.0 / (0.002 + 0.2), 1e-9);
	/* above: constant bandwidth from the last point is more pessimistic
	 * than the line here (frame time grows in proportion) */
	assert_float_equal(sm_rate_model_fps(pts, 3, 96000000),
			   pts[2].fps * 48000000.0 / 96000000.0, 1e-9);
	/* below: the line (2 ms + s/B) is above constant bandwidth from the
	 * smallest point (s/s0 x t0), so the line is used */
	assert_float_equal(sm_rate_model_fps(pts, 3, 1000000), 1.0 / (0.002 + 0.01), 1e-9);
	/* order does not matter, bad points are ignored */
	struct sm_rate_point rev[4] = { pts[2], { 5000000, 0 }, pts[0], pts[1] };
	assert_float_equal(sm_rate_model_fps(rev, 4, 20000000), 1.0 / (0.002 + 0.2), 1e-9);
	/* one point: constant bandwidth both ways */
	assert_float_equal(sm_rate_model_fps(pts, 1, 16000000), pts[0].fps / 2, 1e-9);
	assert_float_equal(sm_rate_model_fps(pts, 1, 4000000), pts[0].fps * 2, 1e-9);
	/* noise: the larger frame measured faster (negative slope); a
	 * smaller frame is then no slower than the smallest measured one */
	{
		struct sm_rate_point neg[2] = { { 8000000, 50 }, { 12000000, 60 } };

		assert_float_equal(sm_rate_model_fps(neg, 2, 2000000), 50, 1e-9);
		/* just below it too: the segment would say slower */
		assert_float_equal(sm_rate_model_fps(neg, 2, 7000000), 50, 1e-9);
	}
	/* no point: 0 */
	assert_true(sm_rate_model_fps(rev + 1, 1, 4000000) == 0);
	assert_true(sm_rate_model_fps(pts, 0, 4000000) == 0);
}

static void test_lateness(SM_UNUSED void **state)
{
	struct sm_hist *early = sm_hist_new(), *late = sm_hist_new();

	/* 999 frames early by 100 ms, one late by 7 ms */
	for (int i = 0; i < 999; i++)
		sm_hist_add(early, 100 * MS);
	assert_int_equal(sm_lateness_percentile(early, late, 99.9), -(int64_t)(100 * MS));
	sm_hist_add(late, 7 * MS);
	assert_int_equal(sm_lateness_percentile(early, late, 99.9), -(int64_t)(100 * MS));
	assert_int_equal(sm_lateness_percentile(early, late, 100), (int64_t)(7 * MS));
	/* the earliest frame is the lowest lateness */
	sm_hist_add(early, 300 * MS);
	assert_int_equal(sm_lateness_percentile(early, late, 0.01), -(int64_t)(300 * MS));
	/* nearest rank over both lists (1001 frames: -300, 999 x -100, +7 ms):
	 * p99.9 is the 1000th, p99.95 the 1001st */
	assert_int_equal(sm_lateness_percentile(early, late, 99.9), -(int64_t)(100 * MS));
	assert_int_equal(sm_lateness_percentile(early, late, 99.95), (int64_t)(7 * MS));
	/* playback: q = 8 at 40 ms, lateness -100 ms -> 220 ms from schedule */
	assert_int_equal(sm_playback_sched_ns(-(int64_t)(100 * MS), 8, 40 * MS), 220 * MS);
	assert_int_equal(sm_playback_sched_ns(-(int64_t)(400 * MS), 8, 40 * MS), 0);
	assert_int_equal(sm_playback_sched_ns(5 * MS, 8, 40 * MS), 325 * MS);
	free(early);
	free(late);
}

static void test_names(SM_UNUSED void **state)
{
	assert_string_equal(sm_verdict_name(SM_VERDICT_REALTIME), "realtime");
	assert_string_equal(sm_verdict_name(SM_VERDICT_MARGINAL), "marginal");
	assert_string_equal(sm_verdict_name(SM_VERDICT_NOT_REALTIME), "not-realtime");
	assert_string_equal(sm_verdict_how_name(SM_HOW_PACED), "paced");
	assert_string_equal(sm_verdict_how_name(SM_HOW_COMPUTED), "computed");
	assert_string_equal(sm_direction_name(SM_DIR_CAPTURE), "capture");
	assert_string_equal(sm_direction_name(SM_DIR_PLAYBACK), "playback");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compute_boundaries),
		cmocka_unit_test(test_near_limit),
		cmocka_unit_test(test_paced_rules),
		cmocka_unit_test(test_confirm_overrides),
		cmocka_unit_test(test_settle),
		cmocka_unit_test(test_rate_model),
		cmocka_unit_test(test_lateness),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
