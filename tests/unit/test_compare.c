/* SPDX-License-Identifier: MIT */
/* Unit tests of the comparison statistics (the regularized incomplete beta
 * function, Student's t, Welch's test) against values derived by hand or
 * computed with mpmath at 30 digits, and of the comparison of saved
 * results: figures, ratio, significance, refusals and notes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <cmocka.h>

#include "analysis/compare.h"
#include "analysis/welch.h"
#include "core/compiler.h"

/* |x - y| within tol, relative when |y| > 1 */
static void near(double x, double y, double tol)
{
	if (!(fabs(x - y) <= tol * (fabs(y) > 1 ? fabs(y) : 1)))
		fail_msg("%.17g is not %.17g (tolerance %g)", x, y, tol);
}

static void test_betainc(SM_UNUSED void **state)
{
	/* I_x(2, 3) = sum_{j=2..4} C(4,j) x^j (1-x)^(4-j): 0.3483 at x = 0.3 */
	near(sm_betainc(2, 3, 0.3), 0.3483, 1e-13);
	/* I_x(1, 1) = x; I_x(a, 1) = x^a */
	near(sm_betainc(1, 1, 0.37), 0.37, 1e-14);
	near(sm_betainc(4.5, 1, 0.8), pow(0.8, 4.5), 1e-13);
	/* the arcsine distribution: I_x(1/2, 1/2) = (2/pi) asin(sqrt(x)) */
	near(sm_betainc(0.5, 0.5, 0.1), 2 / M_PI * asin(sqrt(0.1)), 1e-13);
	near(sm_betainc(0.5, 0.5, 0.1), 0.204832764699133451649, 1e-13);
	/* mpmath betainc(50, 40, 0, 0.55, regularized=True) */
	near(sm_betainc(50, 40, 0.55), 0.454795210863869071822, 1e-12);
	/* symmetry I_x(a, b) = 1 - I_{1-x}(b, a), on both branches */
	for (double x = 0.05; x < 1; x += 0.1)
		near(sm_betainc(3.3, 7.1, x), 1 - sm_betainc(7.1, 3.3, 1 - x), 1e-13);
	assert_true(sm_betainc(2, 3, 0) == 0);
	assert_true(sm_betainc(2, 3, 1) == 1);
	assert_true(isnan(sm_betainc(0, 3, 0.5)));
	assert_true(isnan(sm_betainc(2, 3, 1.5)));
}

static void test_t_dist(SM_UNUSED void **state)
{
	/* df = 1 is Cauchy: F(t) = 1/2 + atan(t)/pi; df = 2: 1/2 + t / (2 sqrt(2 + t^2)) */
	for (double t = -7; t <= 7; t += 0.7) {
		near(sm_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-13);
		near(sm_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-13);
	}
	/* the 97.5% quantile of t with 10 df is 2.228138851986274 (tables) */
	near(sm_t_cdf(2.228138851986274, 10), 0.975, 1e-13);
	near(sm_t_p2(-2.228138851986274, 10), 0.05, 1e-12);
	/* mpmath: 2-sided p of t = 10, df = 3 and of t = 0.5, df = 100 */
	near(sm_t_p2(10, 3), 0.00212839905841415016140, 1e-12);
	near(sm_t_p2(0.5, 100), 0.618173565830886571985, 1e-12);
	assert_true(sm_t_p2(0, 5) == 1);
	assert_true(sm_t_p2(INFINITY, 5) == 0);
	assert_true(isnan(sm_t_cdf(1, 0)));
}

static void test_welch(SM_UNUSED void **state)
{
	struct sm_welch w;

	/* {1,2,3,4,5} vs {2,4,6,8,10}: means 3 and 6, variances 2.5 and 10:
	 * t = 3 / sqrt(2.5) = 1.897366596, df = 6.25 / 1.0625 = 5.882352941;
	 * p (mpmath) = 0.107531194930627 */
	assert_int_equal(sm_welch(3, 2.5, 5, 6, 10, 5, &w), 0);
	near(w.t, 3 / sqrt(2.5), 1e-14);
	near(w.df, 6.25 / 1.0625, 1e-14);
	near(w.p, 0.10753119493062724041, 1e-12);
	/* the sign follows B - A */
	assert_int_equal(sm_welch(6, 10, 5, 3, 2.5, 5, &w), 0);
	assert_true(w.t < 0);
	near(w.p, 0.10753119493062724041, 1e-12);
	assert_int_equal(sm_welch(1, 1, 1, 2, 1, 5, &w), -EDOM);   /* one run */
	assert_int_equal(sm_welch(1, 0, 3, 2, 0, 3, &w), -EDOM);   /* no spread, differ */
	assert_int_equal(sm_welch(4, 0, 3, 4, 0, 3, &w), 0);       /* no spread, same */
	assert_true(w.p == 1 && w.t == 0);
}

/* A frames document with the figures given. */
static cJSON *frames_doc(double fps, unsigned threads, unsigned frame_bytes, double p99,
			 const char *fs)
{
	char text[1024];
	cJSON *d;

	snprintf(text, sizeof(text),
		 "{\"command\":\"frames\",\"interrupted\":false,"
		 "\"params\":{\"test\":\"write\",\"frame_bytes\":%u,\"fps\":0,\"stream\":false,"
		 "\"threads\":%u},"
		 "\"environment\":{\"kernel\":\"Linux 6\",\"fs_type\":\"%s\",\"device\":\"/dev/x\","
		 "\"direct_io\":true,\"engine\":\"psync\",\"cpus\":2,\"mem_total_bytes\":100},"
		 "\"totals\":{\"items_per_s\":%g,\"bytes_per_s\":%g},"
		 "\"ops\":{\"frame\":{\"lat_ns\":{\"p50\":5,\"p99\":%g}}},"
		 "\"frames\":{\"dropped\":0}}",
		 frame_bytes, threads, fs, fps, fps * frame_bytes, p99);
	d = cJSON_Parse(text);
	assert_non_null(d);
	return d;
}

static const struct sm_cmp_row *row(const struct sm_cmp *c, const char *name)
{
	for (unsigned i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

static void add(struct sm_cmp_side *s, cJSON *doc, int expect)
{
	char why[256];

	assert_int_equal(sm_cmp_side_add_doc(s, doc, 1, why, sizeof(why)), expect);
	cJSON_Delete(doc);
}

static void test_compare_frames(SM_UNUSED void **state)
{
	struct sm_cmp_side a, b;
	struct sm_cmp c;
	const struct sm_cmp_row *r;
	char why[256];

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < 3; i++) {
		add(&a, frames_doc(10 + i, 1, 100, 9, "ext4"), 0);
		add(&b, frames_doc(20 + i, 2, 100, 12 + i, "xfs"), 0);
	}
	/* a repeat of another frame size is not a repeat */
	add(&a, frames_doc(10, 1, 200, 9, "ext4"), -EINVAL);
	assert_int_equal(a.nruns, 3);
	assert_int_equal(sm_cmp_compute(&a, &b, 0.05, &c, why, sizeof(why)), 0);
	assert_string_equal(c.command, "frames");
	r = row(&c, "totals.items_per_s");
	assert_non_null(r);
	assert_int_equal(r->na, 3);
	near(r->mean_a, 11, 1e-15);
	near(r->mean_b, 21, 1e-15);
	near(r->sd_a, 1, 1e-15);
	near(r->ratio, 21.0 / 11, 1e-15);
	assert_true(r->tested);
	/* variances 1 and 1, n 3 and 3: t = 10 / sqrt(2/3), df = 4; mpmath p */
	near(r->w.t, 10 / sqrt(2.0 / 3), 1e-13);
	near(r->w.df, 4, 1e-13);
	near(r->w.p, 0.000255216749441926741, 1e-10);
	assert_true(r->significant);
	assert_int_equal(r->change, 1);   /* a higher frame rate is better */
	r = row(&c, "ops.frame.p99");
	assert_non_null(r);
	assert_true(r->significant);
	assert_int_equal(r->change, -1);  /* a longer p99 is worse */
	r = row(&c, "ops.frame.p50");     /* 5 everywhere: no spread, equal */
	assert_true(r->tested && r->w.p == 1 && !r->significant && r->change == 0);
	/* notes: the file system and the thread count differ */
	{
		int fs = 0, thr = 0;

		for (unsigned i = 0; i < c.nnotes; i++) {
			fs |= strstr(c.notes[i], "file system differs: ext4 vs xfs") != NULL;
			thr |= strstr(c.notes[i], "parameter threads differs: 1 vs 2") != NULL;
		}
		assert_true(fs && thr);
	}
	sm_cmp_release(&c);
	sm_cmp_side_release(&b);

	/* one run a side: a ratio, no test */
	memset(&b, 0, sizeof(b));
	add(&b, frames_doc(22, 1, 100, 9, "ext4"), 0);
	assert_int_equal(sm_cmp_compute(&a, &b, 0.05, &c, why, sizeof(why)), 0);
	r = row(&c, "totals.items_per_s");
	assert_false(r->tested);
	near(r->ratio, 2, 1e-15);
	assert_int_equal(c.nnotes, 0);
	sm_cmp_release(&c);
	sm_cmp_side_release(&b);

	/* another frame size: refused, naming the parameter */
	memset(&b, 0, sizeof(b));
	add(&b, frames_doc(22, 1, 4096, 9, "ext4"), 0);
	assert_int_equal(sm_cmp_compute(&a, &b, 0.05, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "frame_bytes"));
	sm_cmp_side_release(&b);

	/* another command: refused */
	memset(&b, 0, sizeof(b));
	{
		struct sm_time_run t;

		memset(&t, 0, sizeof(t));
		t.v[SM_TF_WALL_NS] = 5;
		t.missing = ~SM_TF_BIT(SM_TF_WALL_NS);
		assert_int_equal(sm_cmp_side_add_time_run(&b, &t), 0);
	}
	assert_int_equal(sm_cmp_compute(&a, &b, 0.05, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "frames runs and B time runs"));
	sm_cmp_side_release(&b);
	sm_cmp_side_release(&a);
}

static cJSON *run_doc(const char *v24, const char *v30)
{
	char text[1024];
	cJSON *d;

	snprintf(text, sizeof(text),
		 "{\"command\":\"run\",\"params\":{\"formats\":[\"dpx-hd\"],\"fps\":[\"24\",\"30\"]},"
		 "\"run\":{\"classic\":[{\"test\":\"seq 1 MiB QD8\",\"read\":{\"bytes_per_s\":100,"
		 "\"iops\":1,\"op\":{\"lat_ns\":{\"p99\":7}}}}],"
		 "\"verdicts\":[{\"format\":\"dpx-hd\",\"capture\":[{\"fps\":\"24\",\"verdict\":\"%s\"},"
		 "{\"fps\":\"30\",\"verdict\":\"%s\"}],\"playback\":[]}]}}", v24, v30);
	d = cJSON_Parse(text);
	assert_non_null(d);
	return d;
}

static void test_compare_verdicts(SM_UNUSED void **state)
{
	struct sm_cmp_side a, b;
	struct sm_cmp c;
	const struct sm_cmp_row *r;
	char why[256];

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	add(&a, run_doc("realtime", "marginal"), 0);
	add(&b, run_doc("realtime", "not-realtime"), 0);
	add(&b, run_doc("realtime", "marginal"), 0);
	assert_int_equal(sm_cmp_compute(&a, &b, 0.05, &c, why, sizeof(why)), 0);
	r = row(&c, "verdicts.dpx-hd.capture.24");
	assert_non_null(r);
	assert_int_equal(r->unit, SM_CU_VERDICT);
	assert_string_equal(r->verdict_a, "realtime");
	assert_string_equal(r->verdict_b, "realtime");
	r = row(&c, "verdicts.dpx-hd.capture.30");
	assert_string_equal(r->verdict_a, "marginal");
	assert_string_equal(r->verdict_b, "mixed");
	assert_false(r->tested);
	r = row(&c, "classic.seq 1 MiB QD8.read.bytes_per_s");
	assert_non_null(r);
	near(r->ratio, 1, 1e-15);
	assert_non_null(row(&c, "classic.seq 1 MiB QD8.read.p99"));
	sm_cmp_release(&c);
	sm_cmp_side_release(&a);
	sm_cmp_side_release(&b);
}

static void test_cliff(SM_UNUSED void **state)
{
	struct sm_cmp_run *runs;
	unsigned n;
	char why[128];
	cJSON *doc = cJSON_Parse("{\"command\":\"frames\",\"cliff\":{\"found\":true,"
				 "\"burst_bytes_per_s\":200,\"sustained_bytes_per_s\":40}}");
	const struct sm_cmp_fig *f;

	assert_int_equal(sm_cmp_doc_figures(doc, &runs, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 1);
	f = sm_cmp_find(&runs[0], "cliff.sustained_bytes_per_s");
	assert_non_null(f);
	assert_true(f->v == 40 && f->better == 1 && f->unit == SM_CU_BPS);
	assert_non_null(sm_cmp_find(&runs[0], "cliff.burst_bytes_per_s"));
	sm_cmp_runs_free(runs, n);
	cJSON_Delete(doc);
	/* no cliff found: its rates are null and left out */
	doc = cJSON_Parse("{\"command\":\"fileio\",\"cliff\":{\"found\":false,"
			  "\"burst_bytes_per_s\":null,\"sustained_bytes_per_s\":null}}");
	assert_int_equal(sm_cmp_doc_figures(doc, &runs, &n, why, sizeof(why)), 0);
	assert_null(sm_cmp_find(&runs[0], "cliff.burst_bytes_per_s"));
	sm_cmp_runs_free(runs, n);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_betainc),
		cmocka_unit_test(test_t_dist),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_compare_frames),
		cmocka_unit_test(test_compare_verdicts),
		cmocka_unit_test(test_cliff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
