/* SPDX-License-Identifier: MIT */
/* Unit tests of the stream formats (core/sformats.c: the published figures,
 * the per-frame rule, chunks, undefined rates) and of the streams analysis
 * (analysis/streams.c: what holds, the headroom rule, the search order). */
#include "analysis/cliff.h"
#include "analysis/streams.h"
#include "core/compiler.h"
#include "core/sformats.h"
#include "workload/streams_mix.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static double mbit_s(const char *name, const char *fps)
{
	struct sm_sformat f;

	assert_int_equal(sm_sformat_find(name, &f), 0);
	return sm_sformat_rate(&f, sm_fps_find(fps)) * 8 / 1e6;
}

static double mib_s(const char *name, const char *fps)
{
	return mbit_s(name, fps) * 1e6 / 8 / 1048576.0;
}

/* Apple's table, Mbit/s at the nominal rates, back out exactly. */
static void test_prores(SM_UNUSED void **state)
{
	assert_true(fabs(mbit_s("prores-hq-hd", "24") - 176) < 1e-9);
	assert_true(fabs(mbit_s("prores-hq-hd", "29.97") - 220 * 1000.0 / 1001) < 1e-9);
	assert_true(fabs(mbit_s("prores-proxy-hd", "25") - 38) < 1e-9);
	assert_true(fabs(mbit_s("PRORES-HQ-UHD", "30") - 884) < 1e-9);
	assert_true(fabs(mbit_s("prores-4444xq-4k-dci", "60") - 4251) < 1e-9);
	assert_true(fabs(mbit_s("prores-4444xq-4k-dci", "59.94") - 4251 * 1000.0 / 1001) < 1e-9);
	assert_true(fabs(mbit_s("prores-422-uhd", "50") - 983) < 1e-9);
}

/* Avid's table: MB/s (2^20 bytes) as published, to its two decimals. */
static void test_dnxhr(SM_UNUSED void **state)
{
	assert_true(fabs(mib_s("dnxhr-hq-uhd", "23.976") - 83.26) < 0.006);
	assert_true(fabs(mib_s("dnxhr-444-4k-dci", "25") - 185.25) < 0.006);
	assert_true(fabs(mib_s("dnxhr-lb-hd", "59.94") - 10.77) < 0.006);
	assert_true(fabs(mib_s("dnxhr-sq-uhd", "29.97") - 68.84) < 0.006);
	assert_true(fabs(mib_s("dnxhr-hqx-4k-dci", "50") - 185.35) < 0.006);
	assert_true(fabs(mib_s("dnxhr-hqx-uhd", "25") - mib_s("dnxhr-hq-uhd", "25")) < 1e-9);
}

/* Sony's record settings: the Mbit/s of the setting as Sony's Help Guides
 * give it, at the NTSC rate and the integer one alike; undefined (0) at
 * every rate no Sony page names (the third-party 24p/30p figures of the
 * first pass are gone). */
static void test_camera(SM_UNUSED void **state)
{
	static const struct {
		const char *name;
		double mbps[8];   /* 23.976 24 25 29.97 30 50 59.94 60; 0: undefined */
	} want[] = {
		{ "xavc-s-100-uhd", { 100, 100, 100, 100, 100, 0, 0, 0 } },
		{ "xavc-s-60-uhd", { 60, 60, 60, 60, 60, 0, 0, 0 } },
		{ "xavc-s-200-uhd", { 0, 0, 0, 0, 0, 200, 200, 200 } },
		{ "xavc-s-150-uhd", { 0, 0, 0, 0, 0, 150, 150, 150 } },
		{ "xavc-s-50-hd", { 50, 50, 50, 50, 50, 50, 50, 50 } },
		{ "xavc-s-25-hd", { 0, 0, 0, 0, 0, 25, 25, 25 } },
		{ "xavc-s-16-hd", { 0, 0, 16, 16, 16, 0, 0, 0 } },
		{ "xavc-hs-200-uhd", { 0, 0, 0, 0, 0, 200, 200, 200 } },
		{ "xavc-hs-150-uhd", { 0, 0, 0, 0, 0, 150, 150, 150 } },
		{ "xavc-hs-100-uhd", { 0, 0, 0, 0, 0, 100, 100, 100 } },
		{ "xavc-hs-75-uhd", { 0, 0, 0, 0, 0, 75, 75, 75 } },
		{ "xavc-hs-45-uhd", { 0, 0, 0, 0, 0, 45, 45, 45 } },
		{ "xavc-s-i-uhd", { 0, 0, 0, 0, 0, 500, 600, 600 } },
		{ "xavc-s-i-hd", { 0, 0, 0, 0, 0, 185, 222, 222 } },
		{ "xavc-s-i-4k-dci", { 0, 0, 0, 0, 0, 500, 600, 600 } },
	};
	static const char *const fps[8] = { "23.976", "24", "25", "29.97", "30", "50", "59.94", "60" };
	struct sm_sformat f;
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		for (unsigned k = 0; k < 8; k++) {
			double got = mbit_s(want[i].name, fps[k]);

			if (fabs(got - want[i].mbps[k]) > 1e-9)
				fail_msg("%s at %s: %g Mbit/s, want %g", want[i].name, fps[k], got,
					 want[i].mbps[k]);
		}
	/* every Sony entry of the table is checked above */
	for (unsigned i = 0; i < sm_sformat_count(); i++) {
		assert_int_equal(sm_sformat_at(i, &f), 0);
		n += !strncmp(f.name, "xavc-", 5);
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	/* the first pass's names, whose rates only a third party gave */
	assert_int_equal(sm_sformat_find("xavc-s-422-uhd", &f), -ENOENT);
	assert_int_equal(sm_sformat_find("xavc-hs-422-uhd", &f), -ENOENT);

	/* AMD's XAVC Intra class 300 UHD 59.94p CBG example: 10,002,432 bits
	 * a frame (599,545 kbit/s); Sony's "60p 600M" frame is within 0.1%. */
	assert_int_equal(sm_sformat_find("xavc-s-i-uhd", &f), 0);
	assert_true(fabs(sm_sformat_frame_bytes(&f, sm_fps_find("59.94")) / (10002432 / 8.0) - 1)
		    < 0.001);
	/* 600e6 / 8 / 59.94 = 1,251,251.3 bytes, moved as 306 x 4 KiB */
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("59.94")), 1253376);
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("25")), 0);
	/* An intra codec's frame is the same size at every rate: Sony's 50p
	 * and 60p settings (500M/600M, 185M/222M) agree to about 0.1% (600M
	 * at 60000/1001 fps is 1001/1000 of 500M at 50: 10.01 vs 10 Mbit). */
	for (unsigned g = 0; g < 3; g++) {
		static const char *const intra[3] = { "xavc-s-i-uhd", "xavc-s-i-hd", "xavc-s-i-4k-dci" };
		double a, b;

		assert_int_equal(sm_sformat_find(intra[g], &f), 0);
		a = sm_sformat_frame_bytes(&f, sm_fps_find("50"));
		b = sm_sformat_frame_bytes(&f, sm_fps_find("59.94"));
		assert_true(a > 0 && fabs(b / a - 1) < 0.0015);
	}
	assert_int_equal(sm_sformat_find("xavc-s-i-4k-dci", &f), 0);
	assert_int_equal(f.width, 4096);
	assert_int_equal(f.height, 2160);
}

static void test_chunks(SM_UNUSED void **state)
{
	struct sm_sformat f;

	assert_int_equal(sm_sformat_find("prores-hq-hd", &f), 0);
	/* 176e6 / 8 / 24 = 916,666.7 bytes, moved as 224 x 4 KiB */
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("24")), 917504);
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("23.976")), 917504);
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("48")), 0);
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("120")), 0);
	assert_true(sm_sformat_rate(&f, sm_fps_find("48")) == 0);
	assert_int_equal(sm_sformat_find("dnxhr-hq-uhd", &f), 0);
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("50")), 3641344);
	assert_int_equal(sm_sformat_find("prores-hq", &f), -ENOENT);
	assert_int_equal(sm_sformat_custom(25, &f), 0);
	assert_string_equal(f.name, "custom-25mib");
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("25")), 1048576);
	assert_int_equal(sm_sformat_custom(0, &f), -EINVAL);
	assert_int_equal(sm_sformat_custom(NAN, &f), -EINVAL);
	/* Every entry is defined at one of the NTSC or PAL rates at least,
	 * and wherever it is defined its chunk is whole 4 KiB blocks. */
	for (unsigned i = 0; i < sm_sformat_count(); i++) {
		static const char *const rates[] = { "23.976", "24", "25", "29.97",
						     "30", "50", "59.94", "60" };
		unsigned defined = 0;

		assert_int_equal(sm_sformat_at(i, &f), 0);
		for (unsigned k = 0; k < 8; k++) {
			uint64_t c = sm_sformat_chunk(&f, sm_fps_find(rates[k]));

			assert_true(c % 4096 == 0);
			assert_true((c > 0) == (sm_sformat_rate(&f, sm_fps_find(rates[k])) > 0));
			defined += c > 0;
		}
		assert_true(defined > 0);
		assert_true(sm_sformat_chunk(&f, sm_fps_find("120")) == 0 || f.rule == SM_SFMT_CUSTOM);
	}
	assert_int_equal(sm_sformat_at(sm_sformat_count(), &f), -ERANGE);
}

/* Every format of the table, at every rate it is defined at, moves its
 * published rate within 1% over a step of 1, 5 or 16 s (the search's
 * shortest, default and the sustained step), in requests of whole 4 KiB
 * blocks at 4 KiB offsets no longer than its chunk. Rounding each frame up
 * to 4 KiB moved 4.86% more for xavc-s-25-hd at 50 fps. */
static void test_byte_schedule(SM_UNUSED void **state)
{
	static const double secs[] = { 1, 5, 16 };
	struct sm_sformat f;
	unsigned pairs = 0;
	double worst = 0;

	for (unsigned i = 0; i < sm_sformat_count(); i++) {
		assert_int_equal(sm_sformat_at(i, &f), 0);
		for (unsigned r = 0; r < sm_nframe_rates; r++) {
			const struct sm_fps *fr = &sm_frame_rates[r];
			double fb = sm_sformat_frame_bytes(&f, fr), fps = sm_fps_value(fr);
			uint64_t chunk = sm_sformat_chunk(&f, fr);

			if (!(fb > 0))
				continue;
			pairs++;
			assert_true(fb >= 4096);
			assert_true(sm_sformat_moved_rate(&f, fr) == sm_sformat_rate(&f, fr));
			for (unsigned s = 0; s < 3; s++) {
				uint64_t k = (uint64_t)ceil(secs[s] * fps), moved = sm_sformat_offset(fb, k);
				double want = (double)k * fb, dev = ((double)moved - want) / want;

				/* the schedule rounds down: within one block below */
				assert_true((double)moved <= want && want - (double)moved < 4096);
				assert_true(fabs(dev) < 0.01);
				if (fabs(dev) > worst)
					worst = fabs(dev);
				for (uint64_t j = 0; s == 1 && j < k; j++) {
					uint64_t off = sm_sformat_offset(fb, j);
					uint64_t len = sm_sformat_offset(fb, j + 1) - off;

					assert_true(off % 4096 == 0 && len % 4096 == 0);
					assert_true(len > 0 && len <= chunk);
				}
			}
		}
	}
	print_message("byte schedule: %u format/rate pairs, worst %.4f%% below the published rate\n",
		      pairs, 100 * worst);
	assert_true(pairs > 100);
	/* a frame under 4 KiB moves one block: the rate moved says so */
	assert_int_equal(sm_sformat_custom(0.05, &f), 0);
	assert_int_equal(sm_sformat_offset(sm_sformat_frame_bytes(&f, sm_fps_find("25")), 3), 3 * 4096);
	assert_true(fabs(sm_sformat_moved_rate(&f, sm_fps_find("25")) - 4096.0 * 25) < 1e-6);
	/* whole chunks: the schedule of a frame of exactly N blocks */
	assert_int_equal(sm_sformat_offset(1048576, 7), 7 * 1048576ull);
}

static void test_holds(SM_UNUSED void **state)
{
	struct sm_stream_fig s = { .scheduled = 100, .done = 100, .p999_sched_ns = 320000000 };
	struct sm_stream_fig v[2];
	struct sm_streams_step st = { .n = 2, .complete = 1, .streams = v,
				      .bytes = 200 << 20, .schedule_ns = 4000000000ull };

	assert_int_equal(sm_stream_holds(&s, 40000000, 8), 1);   /* exactly the allowance */
	s.p999_sched_ns++;
	assert_int_equal(sm_stream_holds(&s, 40000000, 8), 0);
	s.p999_sched_ns = 0;
	s.dropped = 1;
	assert_int_equal(sm_stream_holds(&s, 40000000, 8), 0);
	s.dropped = 0;
	s.done = 99;
	assert_int_equal(sm_stream_holds(&s, 40000000, 8), 0);
	s.done = 100;
	s.error = -EIO;
	assert_int_equal(sm_stream_holds(&s, 40000000, 8), 0);
	s.error = 0;
	v[0] = s;
	v[1] = s;
	v[1].p999_sched_ns = 5000;
	sm_streams_step_judge(&st, 40000000, 8);
	assert_int_equal(st.held, 1);
	assert_int_equal(st.worst_p999_ns, 5000);
	st.duration_ns = 2000000000ull;
	sm_streams_step_judge(&st, 40000000, 8);
	assert_true(fabs(st.delivered_bytes_per_s - 100.0 * 1048576) < 1e-6);
	assert_true(fabs(st.bytes_per_s - 50.0 * 1048576) < 1e-6);
	v[1].dropped = 3;
	sm_streams_step_judge(&st, 40000000, 8);
	assert_int_equal(st.held, 0);
	assert_int_equal(st.dropped, 3);
	v[1].dropped = 0;
	st.complete = 0;   /* stopped: decides nothing */
	sm_streams_step_judge(&st, 40000000, 8);
	assert_int_equal(st.held, 0);
}

/* run's rule: ratio >= 1.2, i.e. 6n <= 5 raw. */
static void test_headroom(SM_UNUSED void **state)
{
	assert_int_equal(sm_streams_headroom(0, 0, 0), 0);
	assert_int_equal(sm_streams_headroom(1, 0, 25), 0);
	assert_int_equal(sm_streams_headroom(2, 0, 25), 1);
	assert_int_equal(sm_streams_headroom(4, 0, 25), 3);
	assert_int_equal(sm_streams_headroom(5, 0, 25), 4);
	assert_int_equal(sm_streams_headroom(6, 0, 25), 5);
	assert_int_equal(sm_streams_headroom(64, 0, 25), 53);
	/* a 100 MiB/s limit, 25 MiB/s streams: 3 held (4 sat at the limit) */
	assert_int_equal(sm_streams_headroom(3, 99.0, 25), 3);
	assert_int_equal(sm_streams_headroom(4, 100.0, 25), 3);
	assert_int_equal(sm_streams_headroom(3, 89.9, 25), 2);
	/* never more than held, whatever was delivered */
	assert_int_equal(sm_streams_headroom(2, 1000.0, 25), 2);
}

/* Simulate the search against a storage that holds exactly `cap_real`. */
static unsigned search_g(unsigned cap_real, unsigned cap, unsigned guess, unsigned *steps)
{
	unsigned lo = 0, hi = 0, n;
	int any = 0;

	*steps = 0;
	while ((n = sm_streams_next(lo, hi, cap, any, guess))) {
		sm_streams_update(n, n <= cap_real, &lo, &hi);
		any = 1;
		(*steps)++;
	}
	return lo;
}

static unsigned search(unsigned cap_real, unsigned cap, unsigned *steps)
{
	return search_g(cap_real, cap, 1, steps);
}

static void test_search(SM_UNUSED void **state)
{
	unsigned steps;

	assert_int_equal(sm_streams_next(0, 0, 64, 0, 0), 1);
	assert_int_equal(sm_streams_next(1, 0, 64, 1, 1), 2);
	assert_int_equal(sm_streams_next(32, 0, 64, 1, 1), 64);
	assert_int_equal(sm_streams_next(32, 0, 40, 1, 1), 40);
	assert_int_equal(sm_streams_next(64, 0, 64, 1, 1), 0);
	assert_int_equal(sm_streams_next(4, 8, 64, 1, 1), 6);
	assert_int_equal(sm_streams_next(4, 5, 64, 1, 1), 0);
	assert_int_equal(sm_streams_next(0, 1, 64, 1, 1), 0);
	for (unsigned real = 0; real <= 70; real++) {
		unsigned got = search(real, 64, &steps);

		assert_int_equal(got, real < 64 ? real : 64);
		assert_true(steps <= 13);
	}
	assert_int_equal(search(4, 64, &steps), 4);
	assert_int_equal(steps, 6);   /* 1 2 4, 8 fails, 6 fails, 5 fails */
	/* with a guess: right in two steps, wrong still right */
	assert_int_equal(search_g(10, 64, 10, &steps), 10);
	assert_int_equal(steps, 2);   /* 10 holds, 11 fails */
	assert_int_equal(search_g(9, 64, 10, &steps), 9);
	assert_int_equal(steps, 2);   /* 10 fails, 9 holds */
	for (unsigned g = 1; g <= 70; g += 3)
		for (unsigned real = 0; real <= 70; real++) {
			assert_int_equal(search_g(real, 64, g, &steps), real < 64 ? real : 64);
			assert_true(steps <= 16);
		}
	assert_int_equal(sm_streams_guess(0, 25, 64), 1);
	assert_int_equal(sm_streams_guess(100, 25, 64), 4);
	assert_int_equal(sm_streams_guess(99, 25, 64), 3);
	assert_int_equal(sm_streams_guess(10, 25, 64), 1);
	assert_int_equal(sm_streams_guess(1e12, 25, 64), 64);
}

/* A cell's answer from its steps: the throttle case (4 streams failed,
 * saturated at 100 MiB/s) and a search that reached the cap. */
static void test_cell(SM_UNUSED void **state)
{
	struct sm_streams_step steps[4] = {
		{ .n = 1, .held = 1, .complete = 1, .bytes_per_s = 25 },
		{ .n = 2, .held = 1, .complete = 1, .bytes_per_s = 50 },
		{ .n = 4, .held = 0, .complete = 1, .bytes_per_s = 90, .delivered_bytes_per_s = 99 },
		{ .n = 3, .held = 1, .complete = 1, .bytes_per_s = 75 },
	};
	struct sm_streams_cell c = { .rate = 25, .nsteps = 4, .steps = steps };

	sm_streams_cell_finish(&c, 64);
	assert_int_equal(c.max_raw, 3);
	assert_int_equal(c.first_fail, 4);
	assert_int_equal(c.at_cap, 0);
	assert_true(c.agg_bytes_per_s == 75);
	assert_true(c.sustained_bytes_per_s == 99);
	assert_int_equal(c.max_headroom, 3);
	/* what a failing step delivered counts up to its own demand only */
	steps[2].delivered_bytes_per_s = 130;   /* read-ahead burst */
	sm_streams_cell_finish(&c, 64);
	assert_true(c.sustained_bytes_per_s == 100);
	assert_int_equal(c.max_headroom, 3);
	/* a failure further up than held + 1 (a search cut short) does not count */
	steps[2].n = 5;
	sm_streams_cell_finish(&c, 64);
	assert_int_equal(c.first_fail, 5);
	assert_true(c.sustained_bytes_per_s == 75);
	assert_int_equal(c.max_headroom, 2);
	steps[2].n = 4;
	/* a failing step cut short (a signal) says nothing of the limit */
	steps[2].complete = 0;
	sm_streams_cell_finish(&c, 64);
	assert_true(c.sustained_bytes_per_s == 75);
	assert_int_equal(c.max_headroom, 2);
	/* every step held up to the cap */
	c.nsteps = 2;
	sm_streams_cell_finish(&c, 2);
	assert_int_equal(c.max_raw, 2);
	assert_int_equal(c.at_cap, 1);
	assert_int_equal(c.first_fail, 0);
	assert_int_equal(c.max_headroom, 1);
}

/* The capture answer again from the sustained confirmation: the cliff
 * found by sm_cliff_find in a synthetic per-second series lowers it to
 * what the rate after the fall keeps with headroom; a flat series leaves
 * it; dropped frames without a cliff lower it to what the step delivered;
 * a cliff that leaves enough does not lower it. MiB/s in units of 1. */
static void test_confirm(SM_UNUSED void **state)
{
	struct sm_streams_cell base = { .rate = 25, .max_raw = 4, .max_headroom = 3,
					.sustained_bytes_per_s = 100 };
	struct sm_streams_cell c;
	struct sm_streams_step st = { .n = 3, .held = 0, .complete = 1, .dropped = 50,
				      .delivered_bytes_per_s = 50 };
	struct sm_cliff cl;
	double r[16];

	/* 75 for 5 s (the demand of 3 streams), then 40 */
	for (unsigned i = 0; i < 16; i++)
		r[i] = i < 5 ? 75 + (i % 2) : 40 + (i % 3) * 0.5;
	sm_cliff_find(r, 16, 1000000000ull, &cl);
	assert_true(cl.found);
	c = base;
	sm_streams_confirm_judge(&c, &st, 16000000000ull, &cl);
	assert_int_equal(c.confirm, SM_CONFIRM_RAN);
	assert_int_equal(c.headroom_burst, 3);
	assert_int_equal(c.max_headroom, 1);   /* 40 keeps one 25 with 20% headroom */
	assert_int_equal(c.max_raw, 4);        /* the 5 s steps' answer stays */
	assert_true(c.lowered);
	assert_true(c.cliff.found);
	assert_non_null(strstr(c.confirm_note, "cliff"));
	assert_non_null(strstr(c.confirm_note, "1 with headroom, not 3"));

	/* flat and held: no cliff, the answer stands */
	for (unsigned i = 0; i < 16; i++)
		r[i] = 75 + (i % 3);
	sm_cliff_find(r, 16, 1000000000ull, &cl);
	assert_true(cl.looked);
	assert_false(cl.found);
	st.held = 1;
	st.dropped = 0;
	st.delivered_bytes_per_s = 76;
	c = base;
	sm_streams_confirm_judge(&c, &st, 16000000000ull, &cl);
	assert_int_equal(c.max_headroom, 3);
	assert_false(c.lowered);
	assert_string_equal(c.confirm_note, "");

	/* no cliff but frames dropped: what it delivered (62) keeps 2 */
	st.held = 0;
	st.dropped = 9;
	st.delivered_bytes_per_s = 62;
	c = base;
	sm_streams_confirm_judge(&c, &st, 16000000000ull, &cl);
	assert_int_equal(c.max_headroom, 2);
	assert_true(c.lowered);
	assert_non_null(strstr(c.confirm_note, "dropped 9 frames"));

	/* a cliff from 300 to 150 of storage far above the demand: the
	 * search's 100 still rules (3), nothing lowered */
	for (unsigned i = 0; i < 16; i++)
		r[i] = i < 6 ? 300 : 150;
	sm_cliff_find(r, 16, 1000000000ull, &cl);
	assert_true(cl.found);
	st.held = 1;
	st.dropped = 0;
	c = base;
	sm_streams_confirm_judge(&c, &st, 16000000000ull, &cl);
	assert_int_equal(c.max_headroom, 3);
	assert_false(c.lowered);
}

/* Every frame-sequence format of frames --list-formats is a stream format:
 * one file per frame, its frame at every rate of the table. */
static void test_sequences(SM_UNUSED void **state)
{
	struct sm_sformat f, g;
	struct sm_format fmt;

	assert_int_equal(sm_sformat_find("dpx-sd-pal", &f), 0);
	assert_true(sm_sformat_is_sequence(&f));
	assert_string_equal(f.codec, "DPX 10-bit RGB");
	/* 720 x 576 x 4 + 2048, rounded up to 4 KiB (docs/formats.md) */
	assert_true(sm_sformat_frame_bytes(&f, sm_fps_find("24")) == 1662976.0);
	assert_int_equal(sm_sformat_chunk(&f, sm_fps_find("24")), 1662976);
	assert_true(fabs(sm_sformat_rate(&f, sm_fps_find("24")) / 1048576.0 - 38.0625) < 1e-3);
	/* every rate, 48 and 120 too (the compressed tables have neither) */
	for (unsigned k = 0; k < sm_nframe_rates; k++)
		assert_int_equal(sm_sformat_chunk(&f, &sm_frame_rates[k]), 1662976);
	assert_true(sm_sformat_moved_rate(&f, sm_fps_find("25")) == sm_sformat_rate(&f, sm_fps_find("25")));
	/* the byte schedule of a whole-block frame is whole frames */
	assert_int_equal(sm_sformat_offset(f.bytes_per_frame, 7), 7ull * 1662976);
	/* all of them, by their frames' names, case-insensitive */
	for (unsigned i = 0; i < sm_format_count(); i++) {
		assert_int_equal(sm_format_at(i, &fmt), 0);
		assert_int_equal(sm_sformat_find(fmt.name, &g), 0);
		assert_true(sm_sformat_is_sequence(&g));
		assert_int_equal(g.bytes_per_frame, fmt.frame_bytes);
	}
	assert_int_equal(sm_sformat_find("EXR-HALF-UHD", &g), 0);
	assert_true(sm_sformat_is_sequence(&g));
	/* a compressed format stays one */
	assert_int_equal(sm_sformat_find("prores-hq-hd", &g), 0);
	assert_false(sm_sformat_is_sequence(&g));
	assert_int_equal(sm_sformat_find("dpx-9k", &g), -ENOENT);
}

static int parse_err(const char *text, int file, char *err, unsigned *line)
{
	struct sm_streams_mix m;
	int rc = sm_streams_mix_parse(text, file, &m, err, 400, line);

	assert_int_equal(m.ngroups, 0);
	assert_null(m.groups);
	return rc;
}

/* --mix: the groups, their figures, and one line naming a bad group. */
static void test_mix_parse(SM_UNUSED void **state)
{
	struct sm_streams_mix m;
	char err[400], big[4096];
	unsigned line;

	assert_int_equal(sm_streams_mix_parse("2xprores-hq-hd@25:play, 1xdpx-sd-pal@24:capture", 0, &m,
					      err, sizeof(err), &line), 0);
	assert_int_equal(m.ngroups, 2);
	assert_int_equal(m.nstreams, 3);
	assert_string_equal(m.spec, "2xprores-hq-hd@25:play,1xdpx-sd-pal@24:capture");
	assert_int_equal(m.groups[0].count, 2);
	assert_int_equal(m.groups[0].dir, SM_DIR_PLAYBACK);
	assert_false(m.groups[0].sequence);
	assert_true(m.groups[0].rate == 23000000.0);   /* 184 Mbit/s */
	assert_true(m.groups[0].needed == 46000000.0);
	assert_int_equal(m.groups[1].dir, SM_DIR_CAPTURE);
	assert_true(m.groups[1].sequence);
	assert_int_equal(m.groups[1].chunk_bytes, 1662976);
	assert_int_equal(m.groups[1].interval_ns, 41666667);
	/* the figures: 43.9 + 38.1 MiB/s */
	assert_true(fabs(sm_streams_mix_rate(&m, SM_DIR_PLAYBACK) / 1048576.0 - 43.87) < 0.01);
	assert_true(fabs(sm_streams_mix_rate(&m, SM_DIR_CAPTURE) / 1048576.0 - 38.06) < 0.01);
	assert_true(m.needed == 46000000.0 + 39911424.0);
	sm_streams_mix_release(&m);
	/* "playback" is "play"; case; an x in the format's name (xavc) */
	assert_int_equal(sm_streams_mix_parse("1XXAVC-S-100-UHD@25:Playback", 0, &m, err, sizeof(err), &line), 0);
	assert_string_equal(m.spec, "1xxavc-s-100-uhd@25:play");
	sm_streams_mix_release(&m);
	/* a group given twice (same format, rate and direction; "playback"
	 * is "play") is one group of both counts, in the place of its first:
	 * one row and one series per group name in every layout */
	assert_int_equal(sm_streams_mix_parse("2xprores-hq-hd@25:play,1xdpx-sd-pal@24:capture,"
					      "3xprores-hq-hd@25:playback,1xprores-hq-hd@25:capture",
					      0, &m, err, sizeof(err), &line), 0);
	assert_int_equal(m.ngroups, 3);
	assert_int_equal(m.nstreams, 7);
	assert_string_equal(m.spec, "5xprores-hq-hd@25:play,1xdpx-sd-pal@24:capture,1xprores-hq-hd@25:capture");
	assert_int_equal(m.groups[0].count, 5);
	assert_true(m.groups[0].needed == 5 * 23000000.0);
	assert_true(m.needed == 6 * 23000000.0 + 39911424.0);
	sm_streams_mix_release(&m);
	/* a file: a group a line, comments and empty lines */
	assert_int_equal(sm_streams_mix_parse("# editors\n4xprores-hq-uhd@25:play\n\n2xdpx-2k@24:capture  # ingest\n",
					      1, &m, err, sizeof(err), &line), 0);
	assert_int_equal(m.ngroups, 2);
	assert_int_equal(m.nstreams, 6);
	sm_streams_mix_release(&m);

	assert_int_equal(parse_err("2xfoo@25:play", 0, err, &line), -EINVAL);
	assert_string_equal(err, "'2xfoo@25:play': no stream format 'foo' (stormark streams --list)");
	assert_int_equal(parse_err("2xprores-hq-hd@25:play,0xdpx-2k@24:play", 0, err, &line), -EINVAL);
	assert_string_equal(err, "'0xdpx-2k@24:play': the count is not 1 to 1024");
	assert_int_equal(parse_err("prores-hq-hd@25:play", 0, err, &line), -EINVAL);
	assert_string_equal(err, "'prores-hq-hd@25:play': expected COUNTxFORMAT@FPS:play|capture");
	assert_int_equal(parse_err("2xprores-hq-hd@26:play", 0, err, &line), -EINVAL);
	assert_non_null(strstr(err, "no frame rate '26'"));
	assert_int_equal(parse_err("2xprores-hq-hd@25:record", 0, err, &line), -EINVAL);
	assert_string_equal(err, "'2xprores-hq-hd@25:record': 'record' is neither play nor capture");
	assert_int_equal(parse_err("1xxavc-s-i-uhd@25:play", 0, err, &line), -EINVAL);
	assert_non_null(strstr(err, "'xavc-s-i-uhd' has no published rate at 25 fps"));
	assert_int_equal(parse_err("2xprores-hq-hd@25:play,", 0, err, &line), -EINVAL);
	assert_non_null(strstr(err, "an empty group"));
	assert_int_equal(parse_err("", 0, err, &line), -EINVAL);
	assert_int_equal(parse_err("1000xprores-proxy-hd@25:play,25xprores-proxy-hd@25:play", 0, err, &line),
			 -EINVAL);
	assert_string_equal(err, "'25xprores-proxy-hd@25:play': the mix would have 1025 streams, at most 1024");
	/* in a file, the bad group's line */
	assert_int_equal(parse_err("1xdpx-2k@24:play\n# two\n1xdpx-2k@24:jump\n", 1, err, &line), -EINVAL);
	assert_int_equal(line, 3);
	assert_string_equal(err, "'1xdpx-2k@24:jump': 'jump' is neither play nor capture");
	/* 33 groups, each of its own (the same one 33 times is one group) */
	big[0] = '\0';
	for (int i = 0; i < 33; i++) {
		static const char *const fmt[] = { "dpx-hd", "dpx-2k", "dpx-uhd", "dpx-sd-pal" };
		static const char *const fps[] = { "24", "25", "30", "50", "60" };

		snprintf(big + strlen(big), sizeof(big) - strlen(big), "1x%s@%s:%s,", fmt[i / 10],
			 fps[i / 2 % 5], i % 2 ? "capture" : "play");
	}
	big[strlen(big) - 1] = '\0';
	assert_int_equal(parse_err(big, 0, err, &line), -EINVAL);
	assert_non_null(strstr(err, "more than 32 groups"));
}

/* A step's mix: each group judged at its own interval, the mix's bytes
 * of the searched direction added to the step's. */
static void test_mix_judge(SM_UNUSED void **state)
{
	struct sm_streams_mix m;
	struct sm_stream_fig mine[1], mix[3];
	struct sm_streams_step st = { .n = 1, .complete = 1, .streams = mine, .nmix = 3, .mix_streams = mix,
				      .schedule_ns = 2000000000ull, .duration_ns = 2000000000ull };
	char err[400];
	unsigned line;

	assert_int_equal(sm_streams_mix_parse("2xprores-hq-hd@25:play,1xdpx-sd-pal@24:capture", 0, &m, err,
					      sizeof(err), &line), 0);
	for (int i = 0; i < 3; i++)
		mix[i] = (struct sm_stream_fig){ .scheduled = 50, .done = 50, .bytes = 1000 * (i + 1),
						 .p999_sched_ns = 300000000 };
	mine[0] = mix[0];
	mine[0].bytes = 7;
	sm_streams_step_judge(&st, 40000000, 8);
	assert_int_equal(st.bytes, 0);   /* the runner's sum is not the judge's */
	st.bytes = 7;
	assert_int_equal(sm_streams_mix_judge(&st, m.groups, m.ngroups, 8, SM_DIR_PLAYBACK), 0);
	/* 300 ms: within 8 x 40 ms and 8 x 41.7 ms */
	assert_true(st.held && st.mix_total.held && st.mix_groups[0].held && st.mix_groups[1].held);
	assert_int_equal(st.mix_groups[0].bytes, 3000);
	assert_int_equal(st.mix_groups[1].bytes, 3000);
	assert_int_equal(st.mix_total.streams_held, 3);
	assert_int_equal(st.bytes, 7 + 3000);   /* the playback groups' only */
	assert_true(fabs(st.bytes_per_s - 3007 / 2.0) < 1e-9);
	/* 330 ms: over the playback group's 320 ms, not the capture's 333 */
	mix[1].p999_sched_ns = 330000000;
	mix[2].p999_sched_ns = 330000000;
	st.bytes = 7;
	st.held = 1;
	assert_int_equal(sm_streams_mix_judge(&st, m.groups, m.ngroups, 8, SM_DIR_PLAYBACK), 0);
	assert_false(st.mix_groups[0].held);
	assert_int_equal(st.mix_groups[0].streams_held, 1);
	assert_true(st.mix_groups[1].held);
	assert_false(st.mix_total.held);
	assert_false(st.held);   /* the searched stream held, the mix did not */
	/* the mix alone: it is the step */
	st.n = 0;
	st.held = 0;
	mix[1].p999_sched_ns = 0;
	assert_int_equal(sm_streams_mix_judge(&st, m.groups, m.ngroups, 8, -1), 0);
	assert_true(st.held);
	assert_int_equal(st.bytes, 6000);
	free(st.mix_groups);
	sm_streams_mix_release(&m);
}

/* Beside a mix: the headroom rule's demand is the mix's rate of the
 * direction and n streams'; the ground truth, prores-hq-hd at 25
 * fps (23 MB/s) beside two of them, under 100 MiB/s: 2 more raw, 1 more
 * with headroom (1.2 x 4 x 23 MB/s = 110 MB/s > 104.9 MB/s). */
/* The tool's CPU in a step: 0.5 s of CPU over a 2 s step of 100 streams
 * is a quarter of one core, 2500 us per stream per second; none without
 * a figure. */
static void test_step_cpu(SM_UNUSED void **state)
{
	struct sm_streams_step st = { .n = 100, .duration_ns = 2000000000, .cpu_ns = 500000000 };
	double core, us;

	assert_int_equal(sm_streams_step_cpu(&st, st.n, &core, &us), 1);
	assert_true(core == 0.25 && us == 2500);
	st.cpu_ns = 0;
	assert_int_equal(sm_streams_step_cpu(&st, st.n, &core, &us), 0);
	assert_true(core == 0 && us == 0);
}

static void test_headroom_beside(SM_UNUSED void **state)
{
	double mib = 1048576.0;

	assert_int_equal(sm_streams_headroom_beside(2, 100 * mib, 23e6, 46e6), 1);
	assert_int_equal(sm_streams_headroom_beside(2, 110.5 * mib, 23e6, 46e6), 2);
	assert_int_equal(sm_streams_headroom_beside(3, 100 * mib, 23e6, 0), 3);
	assert_int_equal(sm_streams_headroom_beside(3, 100 * mib, 23e6, 0),
			 sm_streams_headroom(3, 100 * mib, 23e6));
	/* nothing measured: the demand of the raw answer, 50 + 4 x 25 = 150
	 * (1.2 x (50 + 3 x 25) = 150) */
	assert_int_equal(sm_streams_headroom_beside(4, 0, 25, 50), 3);
	/* a mix that alone takes more than the storage gives: none */
	assert_int_equal(sm_streams_headroom_beside(2, 40e6, 23e6, 46e6), 0);
}

/* The boundary's trials: the answer is the largest n whose every trial,
 * and every trial below it, held; a trial that fails at the answer moves it
 * down and makes the cell a range (max_high); the next trial the search
 * needs fills the gap, then brings the answer and its failure to --trials
 * each; "0" only from a failed step of one stream. */
static void test_trials(SM_UNUSED void **state)
{
	unsigned n[] = { 1, 2, 4, 3, 3, 4, 3, 4 };
	int held[] = { 1, 1, 0, 1, 1, 0, 1, 0 };
	struct sm_streams_trials t;
	struct sm_streams_step steps[8];
	struct sm_streams_cell c = { .rate = 25, .steps = steps };

	/* the search alone: 3 held once, 4 failed once */
	sm_streams_trials(n, held, 4, &t);
	assert_int_equal(t.lo, 3);
	assert_int_equal(t.first_fail, 4);
	assert_int_equal(t.high, 3);
	assert_int_equal(t.lo_trials, 1);
	assert_int_equal(sm_streams_next_trial(&t, 3), 3);
	/* 3 held 2/2: its third trial, then the failure's */
	sm_streams_trials(n, held, 5, &t);
	assert_int_equal(t.lo_held, 2);
	assert_int_equal(sm_streams_next_trial(&t, 3), 3);
	sm_streams_trials(n, held, 7, &t);   /* 3 held 3/3, 4 failed 2/2 */
	assert_int_equal(t.lo_trials, 3);
	assert_int_equal(sm_streams_next_trial(&t, 3), 4);
	/* all of them: 3 held 3/3, 4 failed 3/3: settled */
	sm_streams_trials(n, held, 8, &t);
	assert_int_equal(t.lo, 3);
	assert_int_equal(t.lo_held, 3);
	assert_int_equal(t.lo_trials, 3);
	assert_int_equal(t.fail_held, 0);
	assert_int_equal(t.fail_trials, 3);
	assert_int_equal(sm_streams_next_trial(&t, 3), 0);
	assert_int_equal(sm_streams_next_trial(&t, 4), 3);
	/* one trial at 3 failed: the answer moves down to 2 (held 1/1) with
	 * 3 its failure, held 2/3: a range 2 to 3, and 2 needs its trials */
	held[4] = 0;
	sm_streams_trials(n, held, 8, &t);
	assert_int_equal(t.lo, 2);
	assert_int_equal(t.first_fail, 3);
	assert_int_equal(t.high, 3);
	assert_int_equal(t.fail_held, 2);
	assert_int_equal(t.fail_trials, 3);
	assert_int_equal(sm_streams_next_trial(&t, 3), 2);
	/* a failure two above the answer leaves a gap to test first */
	{
		unsigned n2[] = { 1, 2, 4 };
		int h2[] = { 1, 1, 0 };

		sm_streams_trials(n2, h2, 3, &t);
		assert_int_equal(t.lo, 2);
		assert_int_equal(t.first_fail, 4);
		assert_int_equal(sm_streams_next_trial(&t, 3), 3);
	}
	/* the cell's answer from the same rule, the aggregate the least of
	 * the held trials at the answer */
	for (unsigned i = 0; i < 8; i++) {
		memset(&steps[i], 0, sizeof(steps[i]));
		steps[i].n = n[i];
		steps[i].held = held[i];
		steps[i].complete = 1;
		steps[i].bytes_per_s = 25.0 * n[i] - i;
		steps[i].delivered_bytes_per_s = 25.0 * n[i] - i;
	}
	c.nsteps = 8;
	sm_streams_cell_finish(&c, 64);
	assert_int_equal(c.max_raw, 2);
	assert_int_equal(c.max_high, 3);
	assert_int_equal(c.raw_held, 1);
	assert_int_equal(c.raw_trials, 1);
	assert_int_equal(c.first_fail, 3);
	assert_int_equal(c.fail_held, 2);
	assert_true(c.measured);
	assert_true(c.agg_bytes_per_s == 49);
	/* failing trials at 3 delivered 75 - 4 = 71 at least: the least */
	assert_true(c.sustained_bytes_per_s == 71);
	/* no step held and none of one stream ran: not measured, never "0" */
	c.nsteps = 1;
	steps[0].n = 4;
	steps[0].held = 0;
	sm_streams_cell_finish(&c, 64);
	assert_false(c.measured);
	/* a step of one stream that failed: "0" is the answer */
	steps[0].n = 1;
	sm_streams_cell_finish(&c, 64);
	assert_true(c.measured);
	assert_int_equal(c.max_raw, 0);
	assert_int_equal(c.first_fail, 1);
}

/* Answers across rates: a higher rate of the same format and direction
 * that held more streams than a lower one that failed above its answer is
 * bounded by it; other formats, directions, a lower rate without a failure
 * (its answer only a lower bound) do not bound it; the lowest of several
 * lower answers does. */
static void test_consistent(SM_UNUSED void **state)
{
	struct sm_streams_step s25[2] = {
		{ .n = 2, .held = 1, .complete = 1, .bytes_per_s = 50, .delivered_bytes_per_s = 50 },
		{ .n = 3, .held = 0, .complete = 1, .bytes_per_s = 60, .delivered_bytes_per_s = 60 },
	};
	struct sm_streams_step s50[2] = {
		{ .n = 3, .held = 1, .complete = 1, .bytes_per_s = 150, .delivered_bytes_per_s = 150 },
		{ .n = 4, .held = 0, .complete = 1, .bytes_per_s = 160, .delivered_bytes_per_s = 160 },
	};
	struct sm_streams_step s24[1] = {
		{ .n = 1, .held = 1, .complete = 1, .bytes_per_s = 24, .delivered_bytes_per_s = 24 },
	};
	struct sm_streams_cell c[4] = {
		{ .format = "f", .fps = 25, .rate = 25, .nsteps = 2, .steps = s25 },
		{ .format = "f", .fps = 50, .rate = 50, .nsteps = 2, .steps = s50 },
		{ .format = "g", .fps = 24, .rate = 24, .nsteps = 1, .steps = s24 },
		{ .format = "f", .fps = 24, .rate = 24, .nsteps = 1, .steps = s24,
		  .dir = SM_DIR_CAPTURE },
	};

	for (unsigned i = 0; i < 4; i++)
		sm_streams_cell_finish(&c[i], 64);
	assert_int_equal(c[0].max_raw, 2);
	assert_int_equal(c[1].max_raw, 3);
	assert_int_equal(c[1].own_raw, 3);
	assert_int_equal(sm_streams_lower_bound(c, 4, 1), 0);
	assert_int_equal(sm_streams_lower_bound(c, 4, 0), -1);   /* a higher rate never bounds */
	assert_int_equal(sm_streams_lower_bound(c, 4, 2), -1);   /* another format */
	assert_int_equal(sm_streams_lower_bound(c, 4, 3), -1);   /* another direction */
	c[1].bounded = 1;
	c[1].bound_n = 2;
	sm_streams_cell_finish(&c[1], 64);
	assert_int_equal(c[1].max_raw, 2);
	assert_int_equal(c[1].own_raw, 3);
	assert_int_equal(c[1].max_high, 3);      /* shown as a range: 2 to 3 */
	assert_true(c[1].agg_bytes_per_s == 150);   /* its own trials' measure */
	assert_int_equal(c[1].max_headroom, 2);   /* 160 >= 1.2 x 2 x 50 */
	assert_true(c[1].max_raw <= c[0].max_raw);   /* settled */
	/* a lower rate whose search found no failure bounds nothing */
	c[1].bounded = 0;
	sm_streams_cell_finish(&c[1], 64);
	c[0].nsteps = 1;
	sm_streams_cell_finish(&c[0], 64);
	assert_int_equal(sm_streams_lower_bound(c, 4, 1), -1);
	/* of two lower rates, the fewer streams */
	c[0].nsteps = 2;
	sm_streams_cell_finish(&c[0], 64);
	c[2].format[0] = 'f';
	s24[0].held = 0;
	sm_streams_cell_finish(&c[2], 64);   /* f at 24: 1 stream failed, "0" */
	assert_int_equal(c[2].max_raw, 0);
	assert_int_equal(sm_streams_lower_bound(c, 4, 1), 2);
	assert_int_equal(sm_streams_lower_bound(c, 4, 0), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prores),   cmocka_unit_test(test_dnxhr),
		cmocka_unit_test(test_camera),
		cmocka_unit_test(test_chunks),   cmocka_unit_test(test_byte_schedule),
		cmocka_unit_test(test_holds),
		cmocka_unit_test(test_headroom), cmocka_unit_test(test_search),
		cmocka_unit_test(test_cell),     cmocka_unit_test(test_confirm),
		cmocka_unit_test(test_sequences), cmocka_unit_test(test_mix_parse),
		cmocka_unit_test(test_mix_judge), cmocka_unit_test(test_headroom_beside),
		cmocka_unit_test(test_step_cpu), cmocka_unit_test(test_trials),
		cmocka_unit_test(test_consistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
