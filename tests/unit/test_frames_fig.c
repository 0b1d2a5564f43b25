/* SPDX-License-Identifier: MIT */
/* Unit tests of frames' derived figures (no I/O): the run's rates, the
 * fastest and slowest frame's, the paced data rate, and a stretch's rates,
 * from fixed counts; 0 (not a huge number) where there is no duration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/frames.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "workload/profile.h"

static void test_analyse(SM_UNUSED void **state)
{
	static struct sm_frames_result r;

	memset(&r, 0, sizeof(r));
	r.head.duration_ns = 2000000000;       /* 2 s */
	r.frames_done = 100;
	r.bytes = 100 * 1048576ull + 50;       /* frame size: 1 MiB, the 50 left over */
	r.fastest_ns = 4000000;                /* 4 ms */
	r.slowest_ns = 250000000;              /* 250 ms */
	r.paced_fps = 24;
	sm_frames_analyse(&r);
	assert_true(r.fig.secs == 2.0);
	assert_true(r.fig.frames_per_s == 50.0);
	assert_true(r.fig.bytes_per_s == (100 * 1048576.0 + 50) / 2);
	assert_true(r.fig.frame_bytes == 1048576.0);
	assert_true(r.fig.fastest_bytes_per_s == 1048576.0 * 250);
	assert_true(r.fig.slowest_bytes_per_s == 1048576.0 * 4);
	assert_true(r.fig.paced_bytes_per_s == 1048576.0 * 24);

	/* no duration, no frames: every figure 0 */
	r.head.duration_ns = 0;
	r.frames_done = 0;
	r.fastest_ns = r.slowest_ns = 0;
	r.paced_fps = 0;
	sm_frames_analyse(&r);
	assert_true(r.fig.secs == 0 && r.fig.frames_per_s == 0 && r.fig.bytes_per_s == 0);
	assert_true(r.fig.frame_bytes == 0 && r.fig.fastest_bytes_per_s == 0);
	assert_true(r.fig.slowest_bytes_per_s == 0 && r.fig.paced_bytes_per_s == 0);
}

static void test_snap_rates(SM_UNUSED void **state)
{
	struct sm_frames_snap s = { .t_ns = 500000000, .frames = 12, .bytes = 12 * 4096 };
	struct sm_frames_rates rt;

	rt = sm_frames_snap_rates(&s);
	assert_true(rt.frames_per_s == 24.0);
	assert_true(rt.bytes_per_s == 24.0 * 4096);
	s.t_ns = 0;                            /* a window of no length */
	rt = sm_frames_snap_rates(&s);
	assert_true(rt.frames_per_s == 0 && rt.bytes_per_s == 0);
}

static void test_snap_means(SM_UNUSED void **state)
{
	struct sm_frames_snap s = { .t_ns = 400000000, .frames = 4, .open_ns = 4000,
				    .io_ns = 40000000, .close_ns = 8000 };
	struct sm_frames_rates rt;

	rt = sm_frames_snap_rates(&s);
	assert_true(rt.open_mean_ns == 1000 && rt.io_mean_ns == 10000000);
	assert_true(rt.close_mean_ns == 2000 && rt.wall_per_frame_ns == 100000000);
	s.frames = 0;                          /* no frames: means are 0, not NaN */
	rt = sm_frames_snap_rates(&s);
	assert_true(rt.open_mean_ns == 0 && rt.io_mean_ns == 0 && rt.close_mean_ns == 0);
	assert_true(rt.wall_per_frame_ns == 0);
}

/* run's frame pass takes the frames run's own rates (fig, derived once by
 * sm_frames_analyse), never derives them again. */
static void test_run_pass_takes_fig(SM_UNUSED void **state)
{
	static struct sm_frames_result r;
	struct sm_run_frametest t;

	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	r.head.duration_ns = 2000000000;
	r.frames_done = 100;
	r.bytes = 100 * 1048576ull;
	sm_frames_analyse(&r);
	r.fig.frames_per_s = 49.5;   /* whatever analysis says is what run shows */
	r.fig.bytes_per_s = 1e6;
	sm_run_frametest_from(&r, &t);
	assert_true(t.fps == 49.5);
	assert_true(t.bytes_per_s == 1e6);
	free(t.series);
}

/* The one rate: n over ns, 0 over no time (not inf or nan). */
static void test_per_s(SM_UNUSED void **state)
{
	assert_true(sm_per_s(100, 2000000000) == 50.0);
	assert_true(sm_per_s(7, 0) == 0);
	assert_true(sm_per_s(0, 5) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_analyse),
		cmocka_unit_test(test_run_pass_takes_fig),
		cmocka_unit_test(test_per_s),
		cmocka_unit_test(test_snap_rates),
		cmocka_unit_test(test_snap_means),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
