/* SPDX-License-Identifier: MIT */
/* Unit tests of cliff detection on synthetic series, both ways: a real
 * cliff (a step, a step in noise, a fall inside an interval, a slow decay)
 * found within 1 s of where it is with its rates; flat noise, isolated
 * stalls, a rising rate and short series not flagged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "analysis/cliff.h"
#include "core/compiler.h"
#include "core/rng.h"

#define S 1000000000ull
#define MIB (1024.0 * 1024.0)

/* A normal draw (Box-Muller) from a seeded stream. */
static double gauss(uint64_t *st)
{
	double u = ((double)(sm_splitmix64(st) >> 11) + 1) / 9007199254740993.0;
	double v = ((double)(sm_splitmix64(st) >> 11) + 1) / 9007199254740993.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* rate[i] = level * (1 + sd x noise), never negative. */
static void noisy(double *r, unsigned n, double sd, uint64_t *st)
{
	for (unsigned i = 0; i < n; i++) {
		r[i] *= 1 + sd * gauss(st);
		if (r[i] < 0)
			r[i] = 0;
	}
}

static void step(double *r, unsigned n, double hi, double lo, double at_s)
{
	for (unsigned i = 0; i < n; i++) {
		double f = at_s - i;   /* share of interval i before the fall */

		f = f < 0 ? 0 : f > 1 ? 1 : f;
		r[i] = f * hi + (1 - f) * lo;
	}
}

static void test_clean_step(SM_UNUSED void **state)
{
	double r[20];
	struct sm_cliff c;

	step(r, 20, 200 * MIB, 40 * MIB, 8);
	sm_cliff_find(r, 20, S, &c);
	assert_true(c.looked);
	assert_true(c.found);
	assert_int_equal(c.samples, 20);
	assert_int_equal(c.at_ns, 8 * S);
	assert_true(fabs(c.burst_bytes_per_s - 200 * MIB) < 1);
	assert_true(fabs(c.sustained_bytes_per_s - 40 * MIB) < 1);
	assert_true(fabs(c.ratio - 0.2) < 1e-9);
	assert_true(fabs((double)c.bytes_at - 8 * 200 * MIB) < 2);
	assert_true(c.t >= 1e6);   /* no noise at all: capped */
}

/* A fall in the middle of an interval is placed inside it. */
static void test_fall_inside_interval(SM_UNUSED void **state)
{
	double r[16];
	struct sm_cliff c;

	for (double at = 4.1; at < 12; at += 0.7) {
		step(r, 16, 300 * MIB, 60 * MIB, at);
		sm_cliff_find(r, 16, S, &c);
		assert_true(c.found);
		assert_true(fabs((double)c.at_ns / S - at) < 0.01);
		assert_true(fabs(c.burst_bytes_per_s - 300 * MIB) < 0.02 * 300 * MIB);
		assert_true(fabs(c.sustained_bytes_per_s - 60 * MIB) < 0.02 * 60 * MIB);
		assert_true(fabs((double)c.bytes_at - at * 300 * MIB) < 0.02 * at * 300 * MIB);
	}
}

/* Steps in 10% noise, at many places and lengths: found within 1 s, the
 * rates within 3.5 standard errors of their level. */
static void test_noisy_step(SM_UNUSED void **state)
{
	uint64_t st = 42;
	unsigned missed = 0, tries = 0;

	for (unsigned n = 12; n <= 120; n += 12)
		for (unsigned k = 4; k + 4 <= n; k += 3) {
			double r[120], at = k + 0.5;
			struct sm_cliff c;

			step(r, n, 1000 * MIB, 250 * MIB, at);
			noisy(r, n, 0.10, &st);
			sm_cliff_find(r, n, S, &c);
			tries++;
			if (!c.found) {
				missed++;
				continue;
			}
			assert_true(fabs((double)c.at_ns / S - at) <= 1.0);
			/* 3.5 standard errors of the mean of each side */
			assert_true(fabs(c.burst_bytes_per_s / (1000 * MIB) - 1) < 0.35 / sqrt(k - 1));
			assert_true(fabs(c.sustained_bytes_per_s / (250 * MIB) - 1) <
				    0.35 / sqrt(n - k - 1));
		}
	/* a 4x fall in 10% noise is not missed */
	assert_int_equal(missed, 0);
	assert_true(tries > 100);
}

/* An SLC cache that fills: fast, then a fall over 2 s to a noisy third. */
static void test_two_second_fall(SM_UNUSED void **state)
{
	uint64_t st = 7;
	double r[60];
	struct sm_cliff c;

	for (unsigned i = 0; i < 60; i++)
		r[i] = i < 20 ? 1500 * MIB : i < 22 ? (1500 - 500 * (i - 19)) * MIB : 500 * MIB;
	noisy(r, 60, 0.05, &st);
	sm_cliff_find(r, 60, S, &c);
	assert_true(c.found);
	assert_true(fabs((double)c.at_ns / S - 21) <= 1.0);
	assert_true(c.ratio > 0.3 && c.ratio < 0.4);
}

/* A slow linear decay from 200 to 40 over 30 s is split near its middle,
 * the rates on either side of it. */
static void test_slow_decay(SM_UNUSED void **state)
{
	double r[30];
	struct sm_cliff c;

	for (unsigned i = 0; i < 30; i++)
		r[i] = (200 - 160 * (i + 0.5) / 30) * MIB;
	sm_cliff_find(r, 30, S, &c);
	assert_true(c.found);
	assert_true(fabs((double)c.at_ns / S - 15) <= 1.0);
	assert_true(c.burst_bytes_per_s > c.sustained_bytes_per_s);
}

/* Flat series in 10%, 20% and 30% noise, many seeds and lengths: never a
 * cliff (the tests' noise is well under the worst the rule was tuned on,
 * docs/cliff.md). */
static void test_flat_noise(SM_UNUSED void **state)
{
	uint64_t st = 1;
	unsigned found = 0, tries = 0;
	static const double sds[] = { 0.1, 0.2, 0.3 };

	for (unsigned s = 0; s < 3; s++)
		for (unsigned n = 8; n <= 200; n = n * 3 / 2)
			for (unsigned rep = 0; rep < 40; rep++) {
				double r[200];
				struct sm_cliff c;

				for (unsigned i = 0; i < n; i++)
					r[i] = 500 * MIB;
				noisy(r, n, sds[s], &st);
				sm_cliff_find(r, n, S, &c);
				assert_true(c.looked);
				found += c.found;
				tries++;
			}
	assert_int_equal(found, 0);
	assert_true(tries >= 900);
}

/* Isolated stalls (a second at zero now and then, a NAS flushing) and one
 * stall near the end: no cliff. */
static void test_stalls(SM_UNUSED void **state)
{
	uint64_t st = 9;
	double r[60];
	struct sm_cliff c;

	for (unsigned i = 0; i < 60; i++)
		r[i] = i % 7 == 3 ? 0 : 400 * MIB;
	noisy(r, 60, 0.05, &st);
	sm_cliff_find(r, 60, S, &c);
	assert_true(c.looked);
	assert_false(c.found);
	/* one stalled second among the last four */
	for (unsigned i = 0; i < 20; i++)
		r[i] = 400 * MIB;
	r[17] = 0;
	sm_cliff_find(r, 20, S, &c);
	assert_false(c.found);
	/* two stalled seconds among the last four */
	r[18] = 0;
	sm_cliff_find(r, 20, S, &c);
	assert_false(c.found);
}

/* A rising rate (a ramp up, a cache that warms) is no cliff, nor a mild
 * fall (to 0.8 of the burst). */
static void test_rising_and_mild(SM_UNUSED void **state)
{
	double r[20];
	struct sm_cliff c;

	step(r, 20, 40 * MIB, 200 * MIB, 8);
	sm_cliff_find(r, 20, S, &c);
	assert_true(c.looked);
	assert_false(c.found);
	assert_true(c.split_ratio >= 1);
	step(r, 20, 200 * MIB, 160 * MIB, 8);
	sm_cliff_find(r, 20, S, &c);
	assert_false(c.found);
	assert_true(c.t >= 1e6);   /* significant, but not a cliff: too mild */
	assert_true(fabs(c.split_ratio - 0.8) < 1e-9);
}

/* Too short to look, or nothing written: looked says so. */
static void test_short_and_empty(SM_UNUSED void **state)
{
	double r[SM_CLIFF_MIN_SAMPLES] = { 0 };
	struct sm_cliff c;

	step(r, SM_CLIFF_MIN_SAMPLES - 1, 200, 40, 3);
	sm_cliff_find(r, SM_CLIFF_MIN_SAMPLES - 1, S, &c);
	assert_false(c.looked);
	assert_false(c.found);
	assert_int_equal(c.samples, SM_CLIFF_MIN_SAMPLES - 1);
	memset(r, 0, sizeof(r));
	sm_cliff_find(r, SM_CLIFF_MIN_SAMPLES, S, &c);
	assert_true(c.looked);
	assert_false(c.found);
	sm_cliff_find(NULL, 0, S, &c);
	assert_false(c.looked);
	/* the shortest series looked at finds a clean step in its middle */
	step(r, SM_CLIFF_MIN_SAMPLES, 200, 40, SM_CLIFF_MIN_SIDE);
	sm_cliff_find(r, SM_CLIFF_MIN_SAMPLES, S, &c);
	assert_true(c.found);
	assert_int_equal(c.at_ns, SM_CLIFF_MIN_SIDE * S);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_step),
		cmocka_unit_test(test_fall_inside_interval),
		cmocka_unit_test(test_noisy_step),
		cmocka_unit_test(test_two_second_fall),
		cmocka_unit_test(test_slow_decay),
		cmocka_unit_test(test_flat_noise),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_rising_and_mild),
		cmocka_unit_test(test_short_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
