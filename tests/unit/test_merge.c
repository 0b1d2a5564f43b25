/* SPDX-License-Identifier: MIT */
/* The exact merge of a many-host run's results (result/merge.c) and the
 * job's figures (analysis/dist.c): merged counts are the ranks' sums, a
 * merged histogram is the histogram of all the ranks' values (so its
 * percentiles are those of the pooled values, never an average of the
 * ranks'), series add up, and first/last done, rates and stragglers. */
#include "analysis/dist.h"
#include "core/compiler.h"
#include "core/rng.h"
#include "result/dist.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define NRANKS 3

static const double pcts[] = { 50, 90, 99, 99.9 };

/* A frames result with n frames of times drawn per rank (rank r is r+1
 * times slower, so averaging the ranks' percentiles would be wrong). */
static void fill_frames(struct sm_frames_result *f, unsigned rank, unsigned n, struct sm_hist *all,
			struct sm_rng *rng)
{
	memset(f, 0, sizeof(*f));
	sm_opstat_init(&f->open);
	sm_opstat_init(&f->io);
	sm_opstat_init(&f->close);
	sm_opstat_init(&f->frame);
	sm_hist_init(&f->sched_lat);
	sm_hist_init(&f->early);
	sm_hist_init(&f->late);
	sm_hist_init(&f->frame_window);
	f->series = calloc(rank + 2, sizeof(*f->series));
	assert_non_null(f->series);
	f->nseries = rank + 2;
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = 1000000ull * (rank + 1) + sm_rng_next(rng) % (5000000ull * (rank + 1));

		sm_hist_add(&f->frame.lat, v);
		sm_hist_add(&f->frame_window, v);
		sm_hist_add(all, v);
	}
	f->frame.count = n;
	f->frame.bytes = (uint64_t)n * 12441600;
	f->frames_done = n;
	f->frames_scheduled = n + rank;
	f->bytes = f->frame.bytes;
	f->fastest_ns = f->frame.lat.min;
	f->slowest_ns = f->frame.lat.max;
	for (unsigned i = 0; i < f->nseries; i++) {
		f->series[i].t_ns = (uint64_t)(i + 1) * 1000000000ull;
		f->series[i].frames = (uint64_t)n * (i + 1) / f->nseries;
		f->series[i].bytes = f->series[i].frames * 12441600;
	}
}

static void frames_merge_is_exact(SM_UNUSED void **state)
{
	struct sm_frames_result *f = calloc(NRANKS, sizeof(*f));
	struct sm_hist *all = sm_hist_new();
	struct sm_rng rng;
	uint64_t frames = 0, bytes = 0, sched = 0, last_frames = 0;

	assert_non_null(f);
	assert_non_null(all);
	sm_rng_seed(&rng, 42);
	for (unsigned r = 0; r < NRANKS; r++) {
		fill_frames(&f[r], r, 1000 + 700 * r, all, &rng);
		frames += f[r].frames_done;
		bytes += f[r].bytes;
		sched += f[r].frames_scheduled;
		last_frames += f[r].series[f[r].nseries - 1].frames;
	}
	for (unsigned r = 1; r < NRANKS; r++)
		assert_int_equal(sm_frames_merge(&f[0], &f[r]), 0);
	assert_int_equal(f[0].frames_done, frames);
	assert_int_equal(f[0].bytes, bytes);
	assert_int_equal(f[0].frames_scheduled, sched);
	assert_int_equal(f[0].frame.count, frames);
	assert_int_equal(f[0].frame.lat.count, all->count);
	assert_int_equal(f[0].frame.lat.min, all->min);
	assert_int_equal(f[0].frame.lat.max, all->max);
	assert_int_equal(f[0].frame.lat.sum, all->sum);
	assert_memory_equal(f[0].frame.lat.buckets, all->buckets, sizeof(all->buckets));
	for (unsigned i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		assert_int_equal(sm_hist_percentile(&f[0].frame.lat, pcts[i]), sm_hist_percentile(all, pcts[i]));
	assert_int_equal(f[0].fastest_ns, all->min);
	assert_int_equal(f[0].slowest_ns, all->max);
	/* the longest series, each rank's last state carried on */
	assert_int_equal(f[0].nseries, NRANKS + 1);
	assert_int_equal(f[0].series[NRANKS].frames, last_frames);
	for (unsigned r = 0; r < NRANKS; r++)
		sm_frames_result_release(&f[r]);
	free(f);
	free(all);
}

static void fileio_merge_is_exact(SM_UNUSED void **state)
{
	struct sm_fileio_result a, b;
	uint64_t ev_a[2] = { 10, 20 }, busy_a[2] = { 5, 6 }, ev_b[3] = { 30, 40, 50 }, busy_b[3] = { 7, 8, 9 };
	struct sm_hist *all = sm_hist_new();

	assert_non_null(all);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < 3; i++) {
		sm_opstat_init(&a.ops[i]);
		sm_opstat_init(&b.ops[i]);
	}
	sm_hist_init(&a.events_lat);
	sm_hist_init(&b.events_lat);
	a.thread_events = malloc(sizeof(ev_a));
	a.thread_busy_ns = malloc(sizeof(busy_a));
	assert_non_null(a.thread_events);
	assert_non_null(a.thread_busy_ns);
	memcpy(a.thread_events, ev_a, sizeof(ev_a));
	memcpy(a.thread_busy_ns, busy_a, sizeof(busy_a));
	a.nthreads = 2;
	b.thread_events = ev_b;
	b.thread_busy_ns = busy_b;
	b.nthreads = 3;
	for (uint64_t v = 1; v <= 3000; v++) {
		struct sm_fileio_result *x = v % 3 ? &a : &b;

		sm_hist_add(&x->events_lat, v * 997);
		sm_hist_add(all, v * 997);
		x->events++;
		x->ops[v % 2].count++;
		x->ops[v % 2].bytes += 4096;
	}
	a.series = calloc(2, sizeof(*a.series));
	assert_non_null(a.series);
	a.nseries = a.series_cap = 2;
	a.series[0].events = 5;
	a.series[0].lat_pct_ns = 100;
	b.series = calloc(3, sizeof(*b.series));
	assert_non_null(b.series);
	b.nseries = b.series_cap = 3;
	b.series[0].events = 7;
	b.series[0].lat_pct_ns = 300;
	b.series[2].events = 9;
	assert_int_equal(sm_fileio_merge(&a, &b), 0);
	assert_int_equal(a.events, 3000);
	assert_int_equal(a.ops[0].count + a.ops[1].count, 3000);
	assert_int_equal(a.ops[0].bytes + a.ops[1].bytes, 3000 * 4096ull);
	assert_memory_equal(a.events_lat.buckets, all->buckets, sizeof(all->buckets));
	for (unsigned i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		assert_int_equal(sm_hist_percentile(&a.events_lat, pcts[i]), sm_hist_percentile(all, pcts[i]));
	assert_int_equal(a.nthreads, 5);
	assert_int_equal(a.thread_events[4], 50);
	assert_int_equal(a.thread_busy_ns[2], 7);
	assert_int_equal(a.nseries, 3);
	assert_int_equal(a.series[0].events, 12);
	assert_int_equal(a.series[0].lat_pct_ns, 300);   /* the higher: an upper bound */
	assert_int_equal(a.series[2].events, 9);
	free(a.thread_events);
	free(a.thread_busy_ns);
	free(a.series);
	free(b.series);
	free(all);
}

static void job_figures(SM_UNUSED void **state)
{
	struct sm_dist_rank rank[4] = {
		{ .rank = 0, .host = "a", .reported = 1, .done_ns = 2000000000ull, .bytes = 200 << 20 },
		{ .rank = 1, .host = "a", .reported = 1, .done_ns = 2100000000ull, .bytes = 210 << 20 },
		{ .rank = 2, .host = "b", .reported = 1, .done_ns = 4000000000ull, .bytes = 200 << 20 },
		{ .rank = 3, .host = "b", .reported = 0 },
	};
	struct sm_dist_result d = { .nranks = 4, .rank = rank };

	assert_int_equal(sm_dist_analyse(&d), 0);
	assert_int_equal(d.nreported, 3);
	assert_int_equal(d.first_rank, 0);
	assert_int_equal(d.first_done_ns, 2000000000ull);
	assert_int_equal(d.last_done_ns, 4000000000ull);
	assert_int_equal(d.bytes, 610u << 20);
	assert_int_equal(d.min_bytes, 200u << 20);
	assert_true(d.bytes_per_s > 610.0 * (1 << 20) / 4 - 1 && d.bytes_per_s < 610.0 * (1 << 20) / 4 + 1);
	assert_true(d.stonewall_bytes_per_s > 300.0 * (1 << 20) - 1 &&
		    d.stonewall_bytes_per_s < 300.0 * (1 << 20) + 1);
	/* rank 2 runs at half the median rate: the one straggler */
	assert_int_equal(d.stragglers, 1);
	assert_true(rank[2].straggler);
	assert_false(rank[0].straggler || rank[1].straggler || rank[3].straggler);
	assert_int_equal(d.nhosts, 2);
	assert_string_equal(d.host[1].host, "b");
	assert_int_equal(d.host[1].ranks, 2);
	assert_int_equal(d.host[1].reported, 1);
	assert_true(d.host[1].straggler);
	assert_false(d.host[0].straggler);
	free(d.host);
}

/* A rank the stonewall stopped a few ms "before" the rank that stopped it
 * (its clock started a little later at the barrier) is not the first done. */
static void first_done_is_not_walled(SM_UNUSED void **state)
{
	struct sm_dist_rank rank[3] = {
		{ .rank = 0, .host = "a", .reported = 1, .done_ns = 200000000ull, .bytes = 10 },
		{ .rank = 1, .host = "a", .reported = 1, .walled = 1, .done_ns = 199000000ull, .bytes = 10 },
		{ .rank = 2, .host = "a", .reported = 1, .walled = 1, .done_ns = 203000000ull, .bytes = 10 },
	};
	struct sm_dist_result d = { .nranks = 3, .rank = rank, .stonewall = 1 };

	assert_int_equal(sm_dist_analyse(&d), 0);
	assert_int_equal(d.first_rank, 0);
	assert_int_equal(d.first_done_ns, 200000000ull);
	assert_int_equal(d.last_done_ns, 203000000ull);
	rank[0].walled = 1;   /* all stopped: the earliest */
	assert_int_equal(sm_dist_analyse(&d), 0);
	assert_int_equal(d.first_rank, 1);
	free(d.host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frames_merge_is_exact),
		cmocka_unit_test(fileio_merge_is_exact),
		cmocka_unit_test(job_figures),
		cmocka_unit_test(first_done_is_not_walled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
