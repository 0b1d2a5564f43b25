/* SPDX-License-Identifier: MIT */
/* Unit tests of a history key's trend (analysis/trend.c): the headline
 * figures per command, in order, a run that lacks one (NAN, not counted),
 * the mean and sample standard deviation, run's throughputs up to the cap,
 * and the halves compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "analysis/trend.h"
#include "core/compiler.h"

/* runs[i] from the JSON text docs[i] */
static struct sm_cmp_run *runs_of(const char *const *docs, unsigned n)
{
	struct sm_cmp_run *runs = calloc(n, sizeof(*runs));
	char why[256];

	assert_non_null(runs);
	for (unsigned i = 0; i < n; i++) {
		cJSON *d = cJSON_Parse(docs[i]);
		struct sm_cmp_run *one;
		unsigned k;

		assert_non_null(d);
		assert_int_equal(sm_cmp_doc_figures(d, &one, &k, why, sizeof(why)), 0);
		assert_int_equal(k, 1);
		runs[i] = one[0];
		free(one);
		cJSON_Delete(d);
	}
	return runs;
}

static void test_time(SM_UNUSED void **state)
{
	struct sm_time_run t[3];
	struct sm_cmp_run runs[3];
	struct sm_trend tr;

	memset(t, 0, sizeof(t));
	memset(runs, 0, sizeof(runs));
	for (unsigned i = 0; i < 3; i++) {
		t[i].missing = ~UINT64_C(0) & ~(SM_TF_BIT(SM_TF_WALL_NS) | SM_TF_BIT(SM_TF_USER_NS));
		t[i].v[SM_TF_WALL_NS] = (i + 1) * 1e9;   /* 1, 2, 3 s */
		t[i].v[SM_TF_USER_NS] = 5e8;
	}
	t[1].missing |= SM_TF_BIT(SM_TF_USER_NS);    /* run 2 did not measure user CPU */
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(sm_cmp_time_figs(&runs[i], &t[i]), 0);
	assert_int_equal(sm_trend_compute("time", runs, 3, &tr), 0);
	assert_int_equal(tr.nruns, 3);
	assert_int_equal(tr.nfigs, 2);               /* system CPU: no run has it */
	assert_string_equal(tr.fig[0].name, "time.wall_ns");
	assert_string_equal(tr.fig[1].name, "time.user_ns");
	assert_int_equal(tr.fig[0].n, 3);
	assert_true(tr.fig[0].mean == 2e9);
	assert_true(fabs(tr.fig[0].sd - 1e9) < 1e-3);
	assert_int_equal(tr.fig[0].unit, SM_CU_NS);
	assert_int_equal(tr.fig[1].n, 2);
	assert_true(isnan(tr.fig[1].v[1]));
	assert_true(tr.fig[1].v[2] == 5e8);
	assert_true(tr.fig[1].mean == 5e8 && tr.fig[1].sd == 0);
	sm_trend_release(&tr);
	for (unsigned i = 0; i < 3; i++)
		free(runs[i].fig);
}

static void test_frames(SM_UNUSED void **state)
{
	static const char *const docs[] = {
		"{\"command\":\"frames\",\"totals\":{\"items_per_s\":100,\"bytes_per_s\":1000},"
		"\"frames\":{\"dropped\":0},\"ops\":{\"frame\":{\"lat_ns\":{\"p99\":4000}}}}",
		"{\"command\":\"frames\",\"totals\":{\"items_per_s\":300,\"bytes_per_s\":3000},"
		"\"frames\":{\"dropped\":2}}",
	};
	struct sm_cmp_run *runs = runs_of(docs, 2);
	struct sm_trend tr;

	assert_int_equal(sm_trend_compute("frames", runs, 2, &tr), 0);
	assert_int_equal(tr.nfigs, 4);
	assert_string_equal(tr.fig[0].label, "frame rate");
	assert_string_equal(tr.fig[1].name, "totals.bytes_per_s");
	assert_string_equal(tr.fig[2].name, "ops.frame.p99");
	assert_string_equal(tr.fig[3].name, "frames.dropped");
	assert_true(tr.fig[0].mean == 200);
	assert_true(fabs(tr.fig[0].sd - sqrt(20000)) < 1e-9);
	assert_int_equal(tr.fig[2].n, 1);            /* the second run has no frame op */
	assert_true(tr.fig[2].v[0] == 4000 && isnan(tr.fig[2].v[1]));
	assert_true(tr.fig[2].sd == 0);
	assert_int_equal(tr.fig[0].better, 1);
	assert_int_equal(tr.fig[2].better, -1);
	sm_trend_release(&tr);
	/* another command has no headline figures */
	assert_int_equal(sm_trend_compute("streams", runs, 2, &tr), 0);
	assert_int_equal(tr.nfigs, 0);
	sm_trend_release(&tr);
	sm_cmp_runs_free(runs, 2);
}

static void test_run(SM_UNUSED void **state)
{
	char doc[4096];
	const char *docs[1] = { doc };
	size_t pos;
	struct sm_cmp_run *runs;
	struct sm_trend tr;

	/* 14 classic tests of one direction each: the first 12 throughputs */
	pos = (size_t)snprintf(doc, sizeof(doc), "{\"command\":\"run\",\"run\":{\"classic\":[");
	for (int i = 0; i < 14; i++)
		pos += (size_t)snprintf(doc + pos, sizeof(doc) - pos, "%s{\"test\":\"t%d\",\"read\":"
					"{\"bytes_per_s\":%d,\"iops\":1}}", i ? "," : "", i, i + 1);
	snprintf(doc + pos, sizeof(doc) - pos, "]}}");
	runs = runs_of(docs, 1);
	assert_int_equal(sm_trend_compute("run", runs, 1, &tr), 0);
	assert_int_equal(tr.nfigs, SM_TREND_MAXFIGS);
	assert_string_equal(tr.fig[0].name, "classic.t0.read.bytes_per_s");
	assert_string_equal(tr.fig[11].name, "classic.t11.read.bytes_per_s");
	assert_true(tr.fig[11].mean == 12 && tr.fig[11].n == 1);
	sm_trend_release(&tr);
	sm_cmp_runs_free(runs, 1);
}

static void test_halves(SM_UNUSED void **state)
{
	assert_int_equal(sm_trend_halves(0), 0);
	assert_int_equal(sm_trend_halves(1), 0);
	assert_int_equal(sm_trend_halves(2), 1);
	assert_int_equal(sm_trend_halves(3), 1);
	assert_int_equal(sm_trend_halves(4), 2);
	assert_int_equal(sm_trend_halves(7), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_halves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
