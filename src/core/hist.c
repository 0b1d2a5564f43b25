/* SPDX-License-Identifier: MIT */
/* Log-linear latency histogram. */
#include "core/hist.h"

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

void sm_hist_merge(struct sm_hist *dst, const struct sm_hist *src)
{
	if (!src->count)
		return;
	/* Chan et al.'s pairwise update of mean and squared deviations. */
	if (dst->count) {
		double n1 = (double)dst->count, n2 = (double)src->count, n = n1 + n2;
		double d = src->mean - dst->mean;

		dst->m2 += src->m2 + d * d * n1 * n2 / n;
		dst->mean += d * n2 / n;
	} else {
		dst->mean = src->mean;
		dst->m2 = src->m2;
	}
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
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
	out->mean = (double)out->sum / (double)out->count;
	for (unsigned i = first; i <= last; i++) {
		double mid = ((double)sm_hist_bucket_low(i) + (double)sm_hist_bucket_high(i)) / 2;

		out->m2 += (double)out->buckets[i] * (mid - out->mean) * (mid - out->mean);
	}
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

double sm_hist_stddev(const struct sm_hist *h)
{
	if (h->count < 2 || h->m2 <= 0)
		return 0.0;
	return sqrt(h->m2 / (double)h->count);
}
