/* SPDX-License-Identifier: MIT */
/* Unit tests of the run analysis (no I/O): a paced frames run as verdict
 * input, candidate ranking, propagation of a paced run to other rates, and
 * the figures the run reporters print. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/paced.h"
#include "analysis/verdict.h"

#define MS 1000000ull

static struct sm_frames_result *paced_result(enum sm_frames_kind kind, double fps)
{
	struct sm_frames_result *fr = calloc(1, sizeof(*fr));

	assert_non_null(fr);
	sm_hist_init(&fr->sched_lat);
	sm_hist_init(&fr->early);
	sm_hist_init(&fr->late);
	fr->plan.kind = kind;
	fr->plan.fps = fps;
	fr->plan.queue = 8;
	fr->plan.prebuffer = 5;
	fr->frames_scheduled = 1000;
	fr->frames_done = 1000;
	return fr;
}

static void test_paced_capture(void **state)
{
	struct sm_frames_result *fr = paced_result(SM_FRAMES_WRITE, 24);
	struct sm_paced pc;

	/* 1999 frames 10 ms after arrival, one 90 ms */
	for (int i = 0; i < 1999; i++)
		sm_hist_add(&fr->sched_lat, 10 * MS);
	sm_hist_add(&fr->sched_lat, 90 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.scheduled, 1000);
	assert_int_equal(pc.done, 1000);
	assert_int_equal(pc.dropped, 0);
	assert_int_equal(pc.queue, 8);
	/* 1 / 24 s rounded to the ns, not truncated */
	assert_int_equal(pc.interval_ns, 41666667);
	assert_true(pc.complete);
	/* p99.9 of 2000 is the 1998th, within the histogram's 1% */
	assert_true(pc.p999_sched_ns >= 99 * MS / 10 && pc.p999_sched_ns <= 101 * MS / 10);
	assert_int_equal(pc.max_sched_ns, 90 * MS);
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_REALTIME);

	/* drops decide, whatever the times */
	fr->frames_dropped = 3;
	fr->frames_done = 997;
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.dropped, 3);
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_NOT_REALTIME);

	/* a run cut short or failed decides nothing */
	fr->head.interrupted = 1;
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_false(pc.complete);
	assert_int_equal(sm_verdict_paced(&pc), -1);
	fr->head.interrupted = 0;
	snprintf(fr->head.error, sizeof(fr->head.error), "cannot write 'x': No space left on device");
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_false(pc.complete);
	fr->head.error[0] = '\0';

	/* a completion before its arrival wrapped to a huge time: the schedule
	 * went wrong, the run is not used */
	sm_hist_add(&fr->sched_lat, (uint64_t)-5);
	assert_int_equal(sm_paced_from_frames(fr, &pc), -ERANGE);
	assert_false(pc.complete);
	assert_int_equal(sm_verdict_paced(&pc), -1);
	free(fr);
}

static void test_paced_playback(void **state)
{
	struct sm_frames_result *fr = paced_result(SM_FRAMES_READ, 25);
	struct sm_paced pc;

	/* q = 8 at 40 ms: a frame's buffer is free 320 ms before it is due.
	 * 999 frames ready 200 ms early (120 ms from schedule), one 7 ms late
	 * (327 ms). sched_lat is not what playback is judged by here. */
	for (int i = 0; i < 999; i++)
		sm_hist_add(&fr->early, 200 * MS);
	sm_hist_add(&fr->late, 7 * MS);
	sm_hist_add(&fr->sched_lat, 5000 * MS);
	fr->frames_dropped = 0;
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.interval_ns, 40 * MS);
	assert_int_equal(pc.p999_sched_ns, 120 * MS);
	assert_int_equal(pc.max_sched_ns, 327 * MS);
	/* 120 ms <= 8 x 40 / 2: real time */
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_REALTIME);

	/* frames ready only 100 ms early: 220 ms from schedule, over half the
	 * queue's span: marginal */
	sm_hist_init(&fr->early);
	for (int i = 0; i < 999; i++)
		sm_hist_add(&fr->early, 100 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.p999_sched_ns, 220 * MS);
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_MARGINAL);

	/* earlier than the queue's span: floored at 0 */
	sm_hist_init(&fr->early);
	sm_hist_init(&fr->late);
	sm_hist_add(&fr->early, 500 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.p999_sched_ns, 0);
	assert_int_equal(pc.max_sched_ns, 0);
	free(fr);
}

static void test_paced_unpaced(void **state)
{
	struct sm_frames_result *fr = paced_result(SM_FRAMES_READ, 0);
	struct sm_paced pc;

	memset(&pc, 0xff, sizeof(pc));
	assert_int_equal(sm_paced_from_frames(fr, &pc), -EINVAL);
	assert_int_equal(pc.scheduled, 0);
	assert_int_equal(pc.queue, 0);
	assert_int_equal(sm_verdict_paced(&pc), -1);
	free(fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paced_capture),
		cmocka_unit_test(test_paced_playback),
		cmocka_unit_test(test_paced_unpaced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
