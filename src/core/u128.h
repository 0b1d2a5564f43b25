/* SPDX-License-Identifier: MIT */
/* An unsigned 128-bit number: a histogram's exact sum of squares, a
 * 64 x 64-bit product. The compiler's own type where it has one (64-bit
 * targets); two 64-bit halves on 32-bit ones (armhf), where GCC has no
 * __int128 (SM_U128_PORTABLE forces these, for tests/unit/test_u128.c).
 * Only the operations stormark needs. */
#ifndef SM_CORE_U128_H
#define SM_CORE_U128_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(SM_U128_PORTABLE)

typedef unsigned __int128 sm_u128;

static inline sm_u128 sm_u128_of(uint64_t v) { return v; }
static inline sm_u128 sm_u128_mul(uint64_t a, uint64_t b) { return (sm_u128)a * b; }
/* a + b into *out; 1 when it overflowed */
static inline int sm_u128_add(sm_u128 a, sm_u128 b, sm_u128 *out) { return __builtin_add_overflow(a, b, out); }
static inline sm_u128 sm_u128_sub(sm_u128 a, sm_u128 b) { return a - b; }
static inline int sm_u128_cmp(sm_u128 a, sm_u128 b) { return a < b ? -1 : a > b; }
static inline uint64_t sm_u128_hi(sm_u128 a) { return (uint64_t)(a >> 64); }
/* a / d, the remainder in *rem; d > 0 */
static inline sm_u128 sm_u128_div(sm_u128 a, uint64_t d, uint64_t *rem)
{
	*rem = (uint64_t)(a % d);
	return a / d;
}
static inline double sm_u128_double(sm_u128 a) { return (double)a; }
/* v rounded toward zero; 0 <= v < 2^128 */
static inline sm_u128 sm_u128_of_double(double v) { return (sm_u128)v; }

#else

typedef struct {
	uint64_t hi, lo;
} sm_u128;

static inline sm_u128 sm_u128_of(uint64_t v)
{
	sm_u128 r = { 0, v };

	return r;
}

static inline sm_u128 sm_u128_mul(uint64_t a, uint64_t b)
{
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	sm_u128 r;

	r.lo = (mid << 32) | (uint32_t)ll;
	r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return r;
}

static inline int sm_u128_add(sm_u128 a, sm_u128 b, sm_u128 *out)
{
	uint64_t lo = a.lo + b.lo, carry = lo < a.lo, hi1 = a.hi + b.hi, hi = hi1 + carry;
	int over = hi1 < a.hi || hi < hi1;

	out->lo = lo;
	out->hi = hi;
	return over;
}

static inline sm_u128 sm_u128_sub(sm_u128 a, sm_u128 b)
{
	sm_u128 r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static inline int sm_u128_cmp(sm_u128 a, sm_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	return a.lo < b.lo ? -1 : a.lo > b.lo;
}

static inline uint64_t sm_u128_hi(sm_u128 a) { return a.hi; }

/* long division, a bit at a time: only results' statistics use it */
static inline sm_u128 sm_u128_div(sm_u128 a, uint64_t d, uint64_t *rem)
{
	sm_u128 q = { 0, 0 };
	uint64_t r = 0;

	for (int i = 127; i >= 0; i--) {
		uint64_t top = r >> 63;
		uint64_t bit = i >= 64 ? (a.hi >> (i - 64)) & 1 : (a.lo >> i) & 1;

		r = (r << 1) | bit;
		if (top || r >= d) {   /* the true remainder is 2^64 + r when top is set */
			r -= d;
			if (i >= 64)
				q.hi |= (uint64_t)1 << (i - 64);
			else
				q.lo |= (uint64_t)1 << i;
		}
	}
	*rem = r;
	return q;
}

static inline double sm_u128_double(sm_u128 a)
{
	return (double)a.hi * 18446744073709551616.0 + (double)a.lo;
}

static inline sm_u128 sm_u128_of_double(double v)
{
	sm_u128 r;

	if (v < 18446744073709551616.0)
		return sm_u128_of((uint64_t)v);
	r.hi = (uint64_t)(v / 18446744073709551616.0);
	r.lo = (uint64_t)(v - (double)r.hi * 18446744073709551616.0);
	return r;
}

#endif

#endif
