/* SPDX-License-Identifier: MIT */
/* Unit tests of the stall detector: gaps between samples whose completion
 * count did not move, found with their start and length to within the
 * period; the first request's own time and short gaps left out; the
 * longest kept in order; the count against a threshold exact, or marked a
 * lower bound when more gaps passed it than are kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/compiler.h"
#include "core/stall.h"

#define MS 1000000ull
#define P SM_STALL_PERIOD_NS

/* Samples every period from `from` to `to` (exclusive), the count rising by
 * one per sample except inside [q0, q1), where it stays. */
static uint64_t feed(struct sm_stall_det *d, uint64_t from, uint64_t to, uint64_t q0,
		     uint64_t q1, uint64_t count)
{
	for (uint64_t t = from; t < to; t += P) {
		if (t < q0 || t >= q1)
			count++;
		sm_stall_det_feed(d, t, count);
	}
	return count;
}

static void test_one_gap(SM_UNUSED void **state)
{
	struct sm_stall_det d;
	struct sm_stalls s;

	sm_stall_det_init(&d);
	/* nothing completes from 1000 ms to 2000 ms */
	feed(&d, P, 3000 * MS, 1000 * MS, 2000 * MS, 0);
	sm_stall_det_end(&d, 3000 * MS, &s);
	assert_true(s.measured);
	assert_int_equal(s.gaps, 1);
	assert_int_equal(s.nkept, 1);
	/* the sample at 990 ms saw the last change; the one at 2000 ms the next */
	assert_int_equal(s.kept[0].at_ns, 990 * MS);
	assert_true(s.kept[0].len_ns >= 1000 * MS - P && s.kept[0].len_ns <= 1000 * MS + P);
	assert_int_equal(s.longest_ns, s.kept[0].len_ns);
	sm_stalls_count(&s, 333 * MS);
	assert_int_equal(s.count, 1);
	assert_false(s.count_capped);
	sm_stalls_count(&s, 2000 * MS);
	assert_int_equal(s.count, 0);
}

static void test_start_and_end(SM_UNUSED void **state)
{
	struct sm_stall_det d;
	struct sm_stalls s;

	sm_stall_det_init(&d);
	/* the first completion comes at 700 ms: not a stall */
	for (uint64_t t = P; t < 700 * MS; t += P)
		sm_stall_det_feed(&d, t, 0);
	feed(&d, 700 * MS, 1500 * MS, 0, 0, 0);
	/* then nothing until the test ends at 2500 ms: a stall at the end */
	for (uint64_t t = 1500 * MS; t < 2500 * MS; t += P)
		sm_stall_det_feed(&d, t, 80);
	sm_stall_det_end(&d, 2500 * MS, &s);
	assert_int_equal(s.gaps, 1);
	assert_true(s.longest_ns >= 1000 * MS - P && s.longest_ns <= 1000 * MS + P);
	assert_true(s.kept[0].at_ns >= 1490 * MS - P && s.kept[0].at_ns <= 1500 * MS);
	sm_stalls_shift(&s, 700 * MS);
	assert_true(s.kept[0].at_ns <= 800 * MS && s.kept[0].at_ns >= 780 * MS);
}

static void test_short_gaps_and_nothing(SM_UNUSED void **state)
{
	struct sm_stall_det d;
	struct sm_stalls s;

	sm_stall_det_init(&d);
	/* gaps of 30 ms, under the floor: the longest is known, none kept */
	feed(&d, P, 1000 * MS, 400 * MS, 430 * MS, 0);
	sm_stall_det_end(&d, 1000 * MS, &s);
	assert_int_equal(s.gaps, 0);
	assert_int_equal(s.nkept, 0);
	assert_true(s.longest_ns >= 20 * MS && s.longest_ns < SM_STALL_FLOOR_NS);
	/* nothing ever completed: no gap (the test's errors say why) */
	sm_stall_det_init(&d);
	for (uint64_t t = P; t < 500 * MS; t += P)
		sm_stall_det_feed(&d, t, 0);
	sm_stall_det_end(&d, 500 * MS, &s);
	assert_true(s.measured);
	assert_int_equal(s.longest_ns, 0);
}

/* Two rounds' stalls back to back: the second's moved by the first's
 * length, every gap counted, the longest kept, an unmeasured one ignored. */
static void test_merge(SM_UNUSED void **state)
{
	struct sm_stalls a, b, none, dst;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&none, 0, sizeof(none));
	memset(&dst, 0, sizeof(dst));
	a.measured = b.measured = 1;
	sm_stalls_add(&a, 100000000ull, 200000000ull);
	sm_stalls_add(&a, 900000000ull, 60000000ull);
	sm_stalls_add(&b, 50000000ull, 700000000ull);
	for (int i = 0; i < SM_STALL_KEEP + 3; i++)   /* 19 gaps, 16 kept */
		sm_stalls_add(&b, 2000000000ull + (uint64_t)i * 100000000ull, 51000000ull);
	assert_int_equal(b.gaps, SM_STALL_KEEP + 4);
	assert_int_equal(b.nkept, SM_STALL_KEEP);
	sm_stalls_merge(&dst, &none, 0);
	assert_false(dst.measured);
	sm_stalls_merge(&dst, &a, 0);
	sm_stalls_merge(&dst, &b, 5000000000ull);
	assert_true(dst.measured);
	assert_int_equal(dst.gaps, 2 + SM_STALL_KEEP + 4);
	assert_int_equal(dst.nkept, SM_STALL_KEEP);
	assert_int_equal(dst.longest_ns, 700000000ull);
	assert_int_equal(dst.kept[0].len_ns, 700000000ull);
	assert_int_equal(dst.kept[0].at_ns, 5050000000ull);
	assert_int_equal(dst.kept[1].len_ns, 200000000ull);
	assert_int_equal(dst.kept[1].at_ns, 100000000ull);
	assert_int_equal(dst.kept[2].len_ns, 60000000ull);
	sm_stalls_count(&dst, 150000000ull);
	assert_int_equal(dst.count, 2);
}

static void test_kept_and_capped(SM_UNUSED void **state)
{
	struct sm_stalls s = { 0 };

	/* 40 gaps of 100..490 ms: the 16 longest kept, longest first */
	for (unsigned i = 0; i < 40; i++)
		sm_stalls_add(&s, i * 1000 * MS, (100 + 10 * ((i * 7) % 40)) * MS);
	assert_int_equal(s.gaps, 40);
	assert_int_equal(s.nkept, SM_STALL_KEEP);
	assert_int_equal(s.longest_ns, 490 * MS);
	for (unsigned i = 1; i < s.nkept; i++)
		assert_true(s.kept[i - 1].len_ns >= s.kept[i].len_ns);
	assert_int_equal(s.kept[SM_STALL_KEEP - 1].len_ns, 340 * MS);
	/* 10 gaps above 395 ms: exact, all kept */
	sm_stalls_count(&s, 395 * MS);
	assert_int_equal(s.count, 10);
	assert_false(s.count_capped);
	/* 39 above 100 ms, 16 kept: a lower bound, said so */
	sm_stalls_count(&s, 100 * MS);
	assert_int_equal(s.count, SM_STALL_KEEP);
	assert_true(s.count_capped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_gap),
		cmocka_unit_test(test_start_and_end),
		cmocka_unit_test(test_short_gaps_and_nothing),
		cmocka_unit_test(test_kept_and_capped),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
