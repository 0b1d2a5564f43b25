/* SPDX-License-Identifier: MIT */
/* The two-halves sm_u128 (core/u128.h, what a 32-bit build uses) against
 * the compiler's 128-bit type, on edge values and a million random ones:
 * products, sums and their overflow, differences, order, division with
 * its remainder, and conversion to and from double. On a 32-bit target
 * (no __int128) the same operations are checked against identities. */
#define SM_U128_PORTABLE 1
#include "core/u128.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/compiler.h"

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	/* splitmix64; a quarter of the values small or near the top, where
	 * carries and borrows happen */
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	switch (z & 7) {
	case 0: return z >> 60;
	case 1: return UINT64_MAX - (z >> 60);
	default: return z;
	}
}

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 native;

static native as_native(sm_u128 a) { return ((native)a.hi << 64) | a.lo; }

static void test_against_native(SM_UNUSED void **state_)
{
	for (int i = 0; i < 1000000; i++) {
		uint64_t a = next(), b = next(), c = next(), d = next(), m = next() | 1, rem;
		sm_u128 x = sm_u128_mul(a, b), y = sm_u128_mul(c, d), s, q;
		native nx = (native)a * b, ny = (native)c * d, ns;
		int over = __builtin_add_overflow(nx, ny, &ns);

		assert_true(as_native(x) == nx);
		assert_int_equal(sm_u128_add(x, y, &s), over);
		assert_true(as_native(s) == ns);
		assert_true(as_native(sm_u128_sub(x, y)) == nx - ny);
		assert_int_equal(sm_u128_cmp(x, y), nx < ny ? -1 : nx > ny);
		assert_true(sm_u128_hi(x) == (uint64_t)(nx >> 64));
		q = sm_u128_div(x, m, &rem);
		assert_true(as_native(q) == nx / m);
		assert_true(rem == (uint64_t)(nx % m));
		/* two roundings at most: within a unit of the last place */
		assert_true(sm_u128_double(x) <= (double)nx * (1 + 0x1p-52) && sm_u128_double(x) >= (double)nx * (1 - 0x1p-52));
		assert_true(as_native(sm_u128_of_double((double)nx)) == (native)(double)nx);
	}
}
#else
static void test_against_native(SM_UNUSED void **state_)
{
	/* identities: (a*b)/b == a with no remainder; x + y - y == x */
	for (int i = 0; i < 200000; i++) {
		uint64_t a = next(), b = next() | 1, c = next(), d = next(), rem;
		sm_u128 x = sm_u128_mul(a, b), y = sm_u128_mul(c, d), s, q = sm_u128_div(x, b, &rem);

		assert_int_equal(sm_u128_cmp(q, sm_u128_of(a)), 0);
		assert_true(rem == 0);
		if (!sm_u128_add(x, y, &s))
			assert_int_equal(sm_u128_cmp(sm_u128_sub(s, y), x), 0);
	}
}
#endif

static void test_edges(SM_UNUSED void **state_)
{
	sm_u128 max = sm_u128_mul(UINT64_MAX, UINT64_MAX), s;
	uint64_t rem;

	/* (2^64-1)^2 = 2^128 - 2^65 + 1 */
	assert_true(sm_u128_hi(max) == UINT64_MAX - 1);
	assert_int_equal(sm_u128_add(max, sm_u128_mul(2, UINT64_MAX), &s), 0);   /* 2^128 - 1 */
	assert_int_equal(sm_u128_add(s, sm_u128_of(1), &s), 1);                  /* wraps */
	assert_int_equal(sm_u128_cmp(s, sm_u128_of(0)), 0);
	assert_int_equal(sm_u128_cmp(sm_u128_div(max, UINT64_MAX, &rem), sm_u128_of(UINT64_MAX)), 0);
	assert_true(rem == 0);
	assert_true(sm_u128_double(sm_u128_mul(1ULL << 63, 4)) == 0x1p65);
	assert_int_equal(sm_u128_cmp(sm_u128_of_double(0x1p100), sm_u128_mul(1ULL << 50, 1ULL << 50)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_native),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
