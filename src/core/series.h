/* SPDX-License-Identifier: MIT */
/* Live statistics: per-worker counters and histograms that one reader can
 * sample while the workers run, the per-second series built from those
 * samples, rolling windows over it and per-interval histograms. */
#ifndef SM_SERIES_H
#define SM_SERIES_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"

#define SM_SERIES_MAX_COUNTERS 16
#define SM_SERIES_MAX_HISTS 4

/*
 * The model. A workload declares how many counters (events, bytes, summed
 * nanoseconds, ...) and histograms each worker keeps. Worker i gets its own
 * slot (sm_series_slot()) and is the only thread that ever writes it: an
 * update is a relaxed atomic load and store of its own value, no
 * read-modify-write, no lock, no fence. Slots start on their own cache
 * lines and are padded to whole lines, so two workers never share one.
 *
 * Readers load the same fields with relaxed atomics, so a reader never
 * races a worker and never sees a torn value. A reading taken while the
 * workers run is not one instant: a histogram's buckets may be a value
 * ahead of its sum or of another counter. Readings are exact once the
 * workers have been joined.
 *
 * One reader, the sampler, calls sm_series_sample() at a steady period
 * (normally each second). Each sample appends a point (the time, every
 * counter summed over workers, each histogram's count, sum and the largest
 * value of that period) and adds the period's histogram to an interval
 * accumulator that sm_series_take_interval() hands out and empties. The
 * points are all the memory that grows with the run:
 * (1 + counters + 3 x histograms) x 8 bytes per sample. Windows over the
 * last N seconds are differences of two points. sm_series_sample(),
 * sm_series_take_interval(), sm_series_window() and the point accessors
 * belong to that one reader (or to the owner after the workers ended);
 * sm_series_total() and sm_series_hist_read() may be called by anyone.
 */

/* A histogram with one writer and atomic fields (see struct sm_hist for
 * the layout and the invariants, which hold once the writer stopped). */
struct sm_series_hist {
	_Atomic uint64_t count, min, max, sum;
	_Atomic double mean, m2;
	_Atomic uint64_t buckets[SM_HIST_BUCKETS];
};

/* One worker's statistics; written by that worker only. */
struct sm_series_slot {
	_Atomic uint64_t counter[SM_SERIES_MAX_COUNTERS];
	struct sm_series_hist hist[];   /* the series' nhists histograms */
};

struct sm_series_cfg {
	unsigned workers;          /* >= 1 */
	unsigned counters;         /* <= SM_SERIES_MAX_COUNTERS */
	unsigned hists;            /* <= SM_SERIES_MAX_HISTS */
};

/* One sample: cumulative values since the start, summed over workers. */
struct sm_series_point {
	uint64_t t_ns;                               /* as given to sm_series_sample */
	uint64_t counter[SM_SERIES_MAX_COUNTERS];
	uint64_t hist_count[SM_SERIES_MAX_HISTS];
	uint64_t hist_sum[SM_SERIES_MAX_HISTS];
	uint64_t hist_max[SM_SERIES_MAX_HISTS];      /* largest value of this period
						      * (bucket precision); 0 if none */
};

struct sm_series;

/* Allocate a series for cfg with every slot zeroed. Returns NULL when out
 * of memory or when cfg asks for more than the limits above. Free with
 * sm_series_free(). */
struct sm_series *sm_series_new(const struct sm_series_cfg *cfg);
void sm_series_free(struct sm_series *s);

/* Worker i's slot (i < cfg.workers); owned by the series. */
struct sm_series_slot *sm_series_slot(struct sm_series *s, unsigned i);

/* ---- writer side: the slot's own worker only ------------------------------- */

static inline void sm_series_add(struct sm_series_slot *w, unsigned c, uint64_t v)
{
	uint64_t x = atomic_load_explicit(&w->counter[c], memory_order_relaxed);

	atomic_store_explicit(&w->counter[c], x + v, memory_order_relaxed);
}

/* Record value v in histogram h of slot w: O(1), as sm_hist_add(). */
static inline void sm_series_record(struct sm_series_slot *w, unsigned h, uint64_t v)
{
	struct sm_series_hist *x = &w->hist[h];
	unsigned i = sm_hist_index(v);
	uint64_t n = atomic_load_explicit(&x->count, memory_order_relaxed) + 1;
	double mean = atomic_load_explicit(&x->mean, memory_order_relaxed);
	double d = (double)v - mean;

	atomic_store_explicit(&x->buckets[i],
			      atomic_load_explicit(&x->buckets[i], memory_order_relaxed) + 1,
			      memory_order_relaxed);
	if (v < atomic_load_explicit(&x->min, memory_order_relaxed))
		atomic_store_explicit(&x->min, v, memory_order_relaxed);
	if (v > atomic_load_explicit(&x->max, memory_order_relaxed))
		atomic_store_explicit(&x->max, v, memory_order_relaxed);
	atomic_store_explicit(&x->sum, atomic_load_explicit(&x->sum, memory_order_relaxed) + v,
			      memory_order_relaxed);
	atomic_store_explicit(&x->count, n, memory_order_relaxed);
	mean += d / (double)n;
	atomic_store_explicit(&x->mean, mean, memory_order_relaxed);
	atomic_store_explicit(&x->m2,
			      atomic_load_explicit(&x->m2, memory_order_relaxed) +
				      d * ((double)v - mean),
			      memory_order_relaxed);
}

/* ---- readers ------------------------------------------------------------ */

/* Counter c of worker i, or summed over all workers when i < 0. */
uint64_t sm_series_total(const struct sm_series *s, int i, unsigned c);

/* Histogram h of worker i, or merged over all workers when i < 0, into
 * *out (overwritten). count is the sum of the buckets read, so out keeps
 * struct sm_hist's invariants even while workers write. */
void sm_series_hist_read(const struct sm_series *s, int i, unsigned h, struct sm_hist *out);

/* ---- the sampler ---------------------------------------------------------- */

/* Take a sample at t_ns (a time since the start chosen by the caller;
 * increasing): append a point and add this period's histograms to the
 * interval accumulators. Returns 0, or -ENOMEM when the point array could
 * not grow (the interval accumulators are still updated). */
int sm_series_sample(struct sm_series *s, uint64_t t_ns);

/* Number of points so far, and a copy of point i (i < that number). */
unsigned sm_series_points(const struct sm_series *s);
void sm_series_point(const struct sm_series *s, unsigned i, struct sm_series_point *out);

/* Histogram h of the values recorded since the previous take (or the start)
 * up to the last sample, into *out; then starts a new interval. min, max,
 * mean and stddev come from the buckets (within their width); count and the
 * buckets are exact. */
void sm_series_take_interval(struct sm_series *s, unsigned h, struct sm_hist *out);

/* The last span_ns of the series: *out = last point - the latest point at
 * least span_ns older (t_ns is then the true length of the window, and
 * hist_max the largest of the periods in it). Returns 0, or -ENODATA when
 * the series is shorter than span_ns (out then covers all of it, from the
 * start, which is a zero point at t 0). */
int sm_series_window(const struct sm_series *s, uint64_t span_ns, struct sm_series_point *out);

#endif
