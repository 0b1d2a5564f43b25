/* SPDX-License-Identifier: MIT */
/* Log-linear latency histogram: nanosecond values over the whole uint64
 * range, relative error under 1%, mergeable by adding counts. */
#ifndef SM_HIST_H
#define SM_HIST_H

#include <stdint.h>

#include "core/u128.h"

/*
 * Layout (HdrHistogram-like): values below 2^SM_HIST_SUB_BITS each have a
 * bucket of their own; above that every power of two [2^k, 2^(k+1)) is split
 * into 2^(SM_HIST_SUB_BITS-1) equal buckets. A bucket's width is at most
 * 1/2^(SM_HIST_SUB_BITS-1) of its lower bound, so reporting the midpoint is
 * within 1/2^SM_HIST_SUB_BITS (0.39% with 8 bits) of any value in it.
 * Nothing is clamped: UINT64_MAX has a bucket.
 *
 * Invariants: count == sum of buckets[]; min <= max when count > 0;
 * sum is the exact sum of added values (it wraps only past 584 years);
 * sq is the exact sum of their squares unless sq_lost (it would have
 * passed 2^128: a million values of 5 hours each), so the spread is
 * m2 = sq - sum^2 / count, exact in integers: no cancellation, no
 * division per value (Welford's running update costs one per value, as
 * much as the rest of a null-engine request), and merging or subtracting
 * two histograms is exact.
 */
#define SM_HIST_SUB_BITS 8
#define SM_HIST_HALF (1u << (SM_HIST_SUB_BITS - 1))
#define SM_HIST_BUCKETS ((64 - SM_HIST_SUB_BITS + 2) * SM_HIST_HALF)

struct sm_hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum;
	sm_u128 sq;              /* sum of squares, exact (core/u128.h) */
	int sq_lost;             /* sq overflowed: the spread comes from the buckets */
	uint64_t buckets[SM_HIST_BUCKETS];
};

/* 1 when h keeps the invariants above that a look can check: count is the
 * sum of the buckets, and min <= max when count > 0. */
int sm_hist_consistent(const struct sm_hist *h);

/* Bucket index of value v. */
static inline unsigned sm_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * SM_HIST_HALF)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - (SM_HIST_SUB_BITS - 1);
	return shift * SM_HIST_HALF + (unsigned)(v >> shift);
}

/* Record one value. O(1), no allocation, no locking: one writer per hist. */
static inline void sm_hist_add(struct sm_hist *h, uint64_t v)
{
	h->buckets[sm_hist_index(v)]++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	if (sm_u128_add(h->sq, sm_u128_mul(v, v), &h->sq))
		h->sq_lost = 1;
}

/* Reset h to empty (h is caller-owned storage). */
void sm_hist_init(struct sm_hist *h);

/* Allocate an empty histogram; NULL when out of memory. Free with free(). */
struct sm_hist *sm_hist_new(void);

/* Add every value recorded in src to dst. */
void sm_hist_merge(struct sm_hist *dst, const struct sm_hist *src);

/*
 * *out = the values in a that are not in b, where b is an earlier state of
 * a (a cumulative histogram read at two instants). Buckets and count are
 * exact; sum is a.sum - b.sum and sq a.sq - b.sq (exact unless either lost
 * it: then the stddev is from bucket midpoints); min and max are the bounds
 * of the outermost non-empty buckets (kept within a's).
 */
void sm_hist_diff(struct sm_hist *out, const struct sm_hist *a, const struct sm_hist *b);

/* Smallest and largest value that fall in bucket i. */
uint64_t sm_hist_bucket_low(unsigned i);
uint64_t sm_hist_bucket_high(unsigned i);

/* The middle of bucket i, (low + high) / 2, what a value known only by its
 * bucket counts as (the spread from buckets, the charts' bars). */
double sm_hist_bucket_mid(unsigned i);

/* The nearest rank of percentile p (0..100) among n values: the smallest
 * k >= 1 with k >= p/100 x n, computed so that floating-point noise does
 * not push an exact product up a rank (99.9% of 1000 is rank 999, where a
 * plain ceil() gives 1000, the maximum). 0 when n is 0. */
uint64_t sm_hist_rank(double p, uint64_t n);

/* The value at percentile p (0..100) by the nearest-rank rule, as the
 * midpoint of its bucket clamped to [min, max]; 0 when h is empty. */
uint64_t sm_hist_percentile(const struct sm_hist *h, double p);

/* Number of values <= v (approximately: whole buckets below v's bucket plus
 * all of v's bucket). */
uint64_t sm_hist_count_le(const struct sm_hist *h, uint64_t v);

double sm_hist_mean(const struct sm_hist *h);
double sm_hist_stddev(const struct sm_hist *h);   /* population stddev */

/* The sum of squared deviations from the mean (stddev^2 x count): exact
 * from sq, or from bucket midpoints when sq was lost; 0 below 2 values. */
double sm_hist_m2(const struct sm_hist *h);

/* The same from bucket midpoints alone (count must match the buckets). */
double sm_hist_m2_buckets(const struct sm_hist *h);

/* The sum of squares of count values that add up to sum and whose squared
 * deviations from their mean add up to m2: sum^2 / count + m2, rounded,
 * into *sq. Returns 0, or -1 when it would pass 2^128. */
int sm_hist_sq_from_m2(uint64_t count, uint64_t sum, double m2, sm_u128 *sq);

/* Set h's sum of squares from m2 (a stored result read back, a spread
 * known another way), given h's count and sum. */
void sm_hist_set_m2(struct sm_hist *h, double m2);

#endif
