/* SPDX-License-Identifier: MIT */
/* Log-linear latency histogram. */
#include "core/hist.h"
#include "core/assert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sm_hist_init(struct sm_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

struct sm_hist *sm_hist_new(void)
{
	struct sm_hist *h = malloc(sizeof(*h));

	if (h)
		sm_hist_init(h);
	return h;
}

int sm_hist_consistent(const struct sm_hist *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++)
		n += h->buckets[i];
	return n == h->count && (!h->count || h->min <= h->max);
}

void sm_hist_merge(struct sm_hist *dst, const struct sm_hist *src)
{
	if (!src->count)
		return;
	if (src->sq_lost || sm_u128_add(dst->sq, src->sq, &dst->sq))
		dst->sq_lost = 1;
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	SM_ASSERT(sm_hist_consistent(dst));
}

void sm_hist_diff(struct sm_hist *out, const struct sm_hist *a, const struct sm_hist *b)
{
	unsigned first = SM_HIST_BUCKETS, last = 0;

	sm_hist_init(out);
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		out->buckets[i] = a->buckets[i] - b->buckets[i];
		out->count += out->buckets[i];
		if (out->buckets[i]) {
			if (first == SM_HIST_BUCKETS)
				first = i;
			last = i;
		}
	}
	if (!out->count)
		return;
	out->sum = a->sum - b->sum;
	out->min = sm_hist_bucket_low(first) > a->min ? sm_hist_bucket_low(first) : a->min;
	out->max = sm_hist_bucket_high(last) < a->max ? sm_hist_bucket_high(last) : a->max;
	out->sq = sm_u128_sub(a->sq, b->sq);
	out->sq_lost = a->sq_lost || b->sq_lost || sm_u128_cmp(b->sq, a->sq) > 0;
}

uint64_t sm_hist_bucket_low(unsigned i)
{
	unsigned shift;

	if (i < 2 * SM_HIST_HALF)
		return i;
	shift = i / SM_HIST_HALF - 1;
	return (uint64_t)(i - shift * SM_HIST_HALF) << shift;
}

uint64_t sm_hist_bucket_high(unsigned i)
{
	unsigned shift;

	if (i < 2 * SM_HIST_HALF)
		return i;
	shift = i / SM_HIST_HALF - 1;
	return sm_hist_bucket_low(i) + ((1ULL << shift) - 1);
}

double sm_hist_bucket_mid(unsigned i)
{
	return ((double)sm_hist_bucket_low(i) + (double)sm_hist_bucket_high(i)) / 2;
}

uint64_t sm_hist_rank(double p, uint64_t n)
{
	double x = p / 100.0 * (double)n;
	uint64_t rank;

	if (!n)
		return 0;
	/* the product carries a relative error of a few ulps: drop it before
	 * rounding up */
	rank = (uint64_t)ceil(x - x * 1e-12);
	if (rank < 1)
		rank = 1;
	return rank > n ? n : rank;
}

uint64_t sm_hist_percentile(const struct sm_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = sm_hist_rank(p, h->count);
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen < rank)
			continue;
		lo = sm_hist_bucket_low(i);
		hi = sm_hist_bucket_high(i);
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

uint64_t sm_hist_count_le(const struct sm_hist *h, uint64_t v)
{
	unsigned last = sm_hist_index(v);
	uint64_t n = 0;

	for (unsigned i = 0; i <= last; i++)
		n += h->buckets[i];
	return n;
}

double sm_hist_mean(const struct sm_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double sm_hist_m2(const struct sm_hist *h)
{
	if (h->count < 2)
		return 0.0;
	if (!h->sq_lost) {
		/* sum^2 fits: sum < 2^64; sq >= sum^2 / count (Cauchy-Schwarz).
		 * m2 = sq - q - r / count with q, r the quotient and remainder. */
		uint64_t rem;
		sm_u128 q = sm_u128_div(sm_u128_mul(h->sum, h->sum), h->count, &rem);
		double r = (double)rem / (double)h->count;

		return sm_u128_cmp(h->sq, q) > 0 ? sm_u128_double(sm_u128_sub(h->sq, q)) - r : 0.0;
	}
	/* from the buckets alone: values this large may have wrapped sum too */
	return sm_hist_m2_buckets(h);
}

double sm_hist_m2_buckets(const struct sm_hist *h)
{
	double mean = 0, m2 = 0;

	if (h->count < 2)
		return 0.0;
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++)
		if (h->buckets[i])
			mean += (double)h->buckets[i] / (double)h->count * sm_hist_bucket_mid(i);
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		double mid;

		if (!h->buckets[i])
			continue;
		mid = sm_hist_bucket_mid(i);
		m2 += (double)h->buckets[i] * (mid - mean) * (mid - mean);
	}
	return m2;
}

int sm_hist_sq_from_m2(uint64_t count, uint64_t sum, double m2, sm_u128 *sq)
{
	uint64_t rem = 0;
	double r;

	*sq = count ? sm_u128_div(sm_u128_mul(sum, sum), count, &rem) : sm_u128_of(0);
	if (!count || !(m2 > 0))
		return 0;
	/* the inverse of sm_hist_m2(): sq - q = m2 + r / count, a whole number */
	r = (double)rem / (double)count;
	/* 2^127 as a double: a larger m2 cannot be held */
	if (m2 >= 1.7014118346046923e38)
		return -1;
	/* m2 + r is rounded too (one unit at 2^52 and up), so rounding it
	 * back can land one off: pick the whole number d near it that
	 * sm_hist_m2() maps to this very m2, so that a result read back
	 * prints the m2 and the spread it was written with. */
	sm_u128 d = sm_u128_of_double(m2 + r + 0.5), best = d, zero = sm_u128_of(0);

	for (int k = -2; k <= 2; k++) {
		sm_u128 c;

		if (k < 0 && sm_u128_cmp(d, sm_u128_of((uint64_t)-k)) < 0)
			continue;
		if (k < 0)
			c = sm_u128_sub(d, sm_u128_of((uint64_t)-k));
		else
			(void)sm_u128_add(d, sm_u128_of((uint64_t)k), &c);   /* d < 2^127 */
		if (!sm_u128_cmp(c, zero))
			continue;
		if (sm_u128_double(c) - r == m2) {
			best = c;
			break;
		}
	}
	if (sm_u128_add(*sq, best, sq))
		return -1;
	return 0;
}

void sm_hist_set_m2(struct sm_hist *h, double m2)
{
	h->sq_lost = sm_hist_sq_from_m2(h->count, h->sum, m2, &h->sq) != 0;
}

double sm_hist_stddev(const struct sm_hist *h)
{
	double m2 = sm_hist_m2(h);

	if (h->count < 2 || m2 <= 0)
		return 0.0;
	return sqrt(m2 / (double)h->count);
}
