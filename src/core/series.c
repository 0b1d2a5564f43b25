/* SPDX-License-Identifier: MIT */
/* Live statistics: per-worker single-writer slots, the sampler's series,
 * windows and interval histograms (the model is described in series.h). */
#include "core/series.h"
#include "core/assert.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_LINE 64

/* Invariants: slots holds cfg.workers slots of `stride` bytes (a multiple
 * of CACHE_LINE), each starting on a line. pts holds npts points of
 * `pt_words` words: t, counters, then count, sum, max per histogram.
 * prev[h] is histogram h summed over workers at the last sample; acc[h]
 * what was added between the last take and the last sample; cur is the
 * sampler's scratch. */
struct sm_series {
	struct sm_series_cfg cfg;
	size_t stride;
	unsigned char *slots;
	uint64_t *pts;
	unsigned npts, cap, pt_words;
	struct sm_hist *prev[SM_SERIES_MAX_HISTS];
	struct sm_hist *acc[SM_SERIES_MAX_HISTS];
	struct sm_hist *cur;
};

struct sm_series *sm_series_new(const struct sm_series_cfg *cfg)
{
	struct sm_series *s;
	size_t size;

	if (!cfg->workers || cfg->counters > SM_SERIES_MAX_COUNTERS ||
	    cfg->hists > SM_SERIES_MAX_HISTS)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	size = sizeof(struct sm_series_slot) + cfg->hists * sizeof(struct sm_series_hist);
	s->stride = (size + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
	s->slots = aligned_alloc(CACHE_LINE, s->stride * cfg->workers);
	s->pt_words = 1 + cfg->counters + 3 * cfg->hists;
	s->cur = sm_hist_new();
	if (!s->slots || !s->cur)
		goto fail;
	memset(s->slots, 0, s->stride * cfg->workers);
	for (unsigned i = 0; i < cfg->workers; i++)
		for (unsigned h = 0; h < cfg->hists; h++)
			atomic_store_explicit(&sm_series_slot(s, i)->hist[h].min, UINT64_MAX,
					      memory_order_relaxed);
	for (unsigned h = 0; h < cfg->hists; h++) {
		s->prev[h] = sm_hist_new();
		s->acc[h] = sm_hist_new();
		if (!s->prev[h] || !s->acc[h])
			goto fail;
	}
	return s;
fail:
	sm_series_free(s);
	return NULL;
}

void sm_series_free(struct sm_series *s)
{
	if (!s)
		return;
	for (unsigned h = 0; h < SM_SERIES_MAX_HISTS; h++) {
		free(s->prev[h]);
		free(s->acc[h]);
	}
	free(s->cur);
	free(s->pts);
	free(s->slots);
	free(s);
}

struct sm_series_slot *sm_series_slot(struct sm_series *s, unsigned i)
{
	return (struct sm_series_slot *)(s->slots + (size_t)i * s->stride);
}

static const struct sm_series_slot *slot_c(const struct sm_series *s, unsigned i)
{
	return (const struct sm_series_slot *)(s->slots + (size_t)i * s->stride);
}

uint64_t sm_series_total(const struct sm_series *s, int i, unsigned c)
{
	uint64_t t = 0;

	if (i >= 0)
		return atomic_load_explicit(&slot_c(s, (unsigned)i)->counter[c], memory_order_relaxed);
	for (unsigned k = 0; k < s->cfg.workers; k++)
		t += atomic_load_explicit(&slot_c(s, k)->counter[c], memory_order_relaxed);
	return t;
}

/* Add one worker's histogram to out (count from the buckets read, so out
 * keeps struct sm_hist's invariants while the worker writes). No scratch
 * memory: several readers may do this at once. */
static void add_one(const struct sm_series_hist *x, struct sm_hist *out)
{
	uint64_t n = 0, lo = UINT64_MAX, hi = 0, mn, mx, sum;
	sm_u128 sq;
	double m2;

	for (unsigned b = 0; b < SM_HIST_BUCKETS; b++) {
		uint64_t v = atomic_load_explicit(&x->buckets[b], memory_order_relaxed);

		if (!v)
			continue;
		out->buckets[b] += v;
		n += v;
		if (lo == UINT64_MAX)
			lo = sm_hist_bucket_low(b);
		hi = sm_hist_bucket_high(b);
	}
	if (!n)
		return;
	mn = atomic_load_explicit(&x->min, memory_order_relaxed);
	mx = atomic_load_explicit(&x->max, memory_order_relaxed);
	m2 = atomic_load_explicit(&x->m2, memory_order_relaxed);
	/* a value whose bucket was read before its min/max store: fall back
	 * to the bounds of the buckets read */
	if (mn > hi)
		mn = lo;
	if (mx < lo || mx < mn)
		mx = hi;
	if (mn < out->min)
		out->min = mn;
	if (mx > out->max)
		out->max = mx;
	/* the worker keeps a running (Welford) mean and m2 in atomics, which
	 * a reader can take one at a time; as a sum of squares they add up */
	sum = atomic_load_explicit(&x->sum, memory_order_relaxed);
	if (sm_hist_sq_from_m2(n, sum, m2, &sq) || sm_u128_add(out->sq, sq, &out->sq))
		out->sq_lost = 1;
	out->sum += sum;
	out->count += n;
}

void sm_series_hist_read(const struct sm_series *s, int i, unsigned h, struct sm_hist *out)
{
	sm_hist_init(out);
	if (i >= 0) {
		add_one(&slot_c(s, (unsigned)i)->hist[h], out);
		return;
	}
	for (unsigned k = 0; k < s->cfg.workers; k++)
		add_one(&slot_c(s, k)->hist[h], out);
	SM_ASSERT(sm_hist_consistent(out));
}

/* Summary statistics of a histogram known only by its buckets: min and max
 * are bucket bounds, mean and m2 use bucket midpoints. */
static void from_buckets(struct sm_hist *h)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	h->count = 0;
	for (unsigned b = 0; b < SM_HIST_BUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		if (lo == UINT64_MAX)
			lo = sm_hist_bucket_low(b);
		hi = sm_hist_bucket_high(b);
		h->count += h->buckets[b];
	}
	h->min = lo;
	h->max = hi;
	sm_hist_set_m2(h, sm_hist_m2_buckets(h));
}

int sm_series_sample(struct sm_series *s, uint64_t t_ns)
{
	uint64_t *p = NULL;

	/* the points' times increase (series.h) */
	SM_ASSERT(!s->npts || t_ns >= s->pts[(size_t)(s->npts - 1) * s->pt_words]);
	if (s->npts == s->cap) {
		unsigned ncap = s->cap ? s->cap * 2 : 64;
		uint64_t *n = realloc(s->pts, (size_t)ncap * s->pt_words * sizeof(*n));

		if (n) {
			s->pts = n;
			s->cap = ncap;
		}
	}
	if (s->npts < s->cap) {
		p = s->pts + (size_t)s->npts * s->pt_words;
		p[0] = t_ns;
		for (unsigned c = 0; c < s->cfg.counters; c++)
			p[1 + c] = sm_series_total(s, -1, c);
	}
	for (unsigned h = 0; h < s->cfg.hists; h++) {
		struct sm_hist *cur = s->cur, *prev = s->prev[h], *acc = s->acc[h];
		uint64_t pmax = 0, d, sum = 0;

		/* cur = all workers now; the period = cur - prev, bucket by bucket */
		sm_hist_init(cur);
		for (unsigned k = 0; k < s->cfg.workers; k++)
			for (unsigned b = 0; b < SM_HIST_BUCKETS; b++)
				cur->buckets[b] += atomic_load_explicit(&slot_c(s, k)->hist[h].buckets[b],
									memory_order_relaxed);
		for (unsigned k = 0; k < s->cfg.workers; k++)
			sum += atomic_load_explicit(&slot_c(s, k)->hist[h].sum, memory_order_relaxed);
		for (unsigned b = 0; b < SM_HIST_BUCKETS; b++) {
			d = cur->buckets[b] - prev->buckets[b];
			cur->count += cur->buckets[b];
			if (d) {
				acc->buckets[b] += d;
				pmax = sm_hist_bucket_high(b);
			}
		}
		cur->sum = sum;
		if (p) {
			p[1 + s->cfg.counters + 3 * h] = cur->count;
			p[1 + s->cfg.counters + 3 * h + 1] = sum;
			p[1 + s->cfg.counters + 3 * h + 2] = pmax;
		}
		s->cur = prev;
		s->prev[h] = cur;
	}
	if (!p)
		return -ENOMEM;
	s->npts++;
	return 0;
}

unsigned sm_series_points(const struct sm_series *s)
{
	return s->npts;
}

static void point_at(const struct sm_series *s, const uint64_t *p, struct sm_series_point *out)
{
	memset(out, 0, sizeof(*out));
	if (!p)
		return;
	out->t_ns = p[0];
	for (unsigned c = 0; c < s->cfg.counters; c++)
		out->counter[c] = p[1 + c];
	for (unsigned h = 0; h < s->cfg.hists; h++) {
		out->hist_count[h] = p[1 + s->cfg.counters + 3 * h];
		out->hist_sum[h] = p[1 + s->cfg.counters + 3 * h + 1];
		out->hist_max[h] = p[1 + s->cfg.counters + 3 * h + 2];
	}
}

void sm_series_point(const struct sm_series *s, unsigned i, struct sm_series_point *out)
{
	point_at(s, i < s->npts ? s->pts + (size_t)i * s->pt_words : NULL, out);
}

void sm_series_take_interval(struct sm_series *s, unsigned h, struct sm_hist *out)
{
	memcpy(out, s->acc[h], sizeof(*out));
	from_buckets(out);
	memset(s->acc[h]->buckets, 0, sizeof(s->acc[h]->buckets));
}

int sm_series_window(const struct sm_series *s, uint64_t span_ns, struct sm_series_point *out)
{
	struct sm_series_point last, first, p;
	unsigned start = 0;   /* first period in the window: points start.. */
	int rc = -ENODATA;

	memset(out, 0, sizeof(*out));
	if (!s->npts)
		return rc;
	sm_series_point(s, s->npts - 1, &last);
	/* the latest point at least span_ns before the last; the start of the
	 * run is a zero point at t 0 */
	memset(&first, 0, sizeof(first));
	for (unsigned i = s->npts - 1; i > 0; i--) {
		sm_series_point(s, i - 1, &p);
		if (last.t_ns - p.t_ns >= span_ns) {
			first = p;
			start = i;
			rc = 0;
			break;
		}
	}
	if (rc && last.t_ns >= span_ns)
		rc = 0;
	out->t_ns = last.t_ns - first.t_ns;
	for (unsigned c = 0; c < s->cfg.counters; c++)
		out->counter[c] = last.counter[c] - first.counter[c];
	for (unsigned h = 0; h < s->cfg.hists; h++) {
		out->hist_count[h] = last.hist_count[h] - first.hist_count[h];
		out->hist_sum[h] = last.hist_sum[h] - first.hist_sum[h];
	}
	for (unsigned k = start; k < s->npts; k++) {
		sm_series_point(s, k, &p);
		for (unsigned h = 0; h < s->cfg.hists; h++)
			if (p.hist_max[h] > out->hist_max[h])
				out->hist_max[h] = p.hist_max[h];
	}
	return rc;
}
