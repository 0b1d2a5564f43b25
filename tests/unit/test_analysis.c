/* SPDX-License-Identifier: MIT */
/* Unit tests of the run analysis (no I/O): a paced frames run as verdict
 * input, candidate ranking, propagation of a paced run to other rates, and
 * the figures the run reporters print. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "helpers.h"

#include "analysis/paced.h"
#include "analysis/run.h"
#include "analysis/verdict.h"
#include "core/compiler.h"

#define MS 1000000ull

static struct sm_frames_result *paced_result(enum sm_frames_kind kind, double fps)
{
	struct sm_frames_result *fr = calloc(1, sizeof(*fr));

	assert_non_null(fr);
	sm_hist_init(&fr->sched_lat);
	sm_hist_init(&fr->early);
	sm_hist_init(&fr->late);
	fr->plan.kind = kind;
	fr->plan.fps = fps;
	fr->plan.queue = 8;
	fr->plan.prebuffer = 5;
	fr->frames_scheduled = 1000;
	fr->frames_done = 1000;
	return fr;
}

static void test_paced_capture(SM_UNUSED void **state)
{
	struct sm_frames_result *fr = paced_result(SM_FRAMES_WRITE, 24);
	struct sm_paced pc;

	/* 1999 frames 10 ms after arrival, one 90 ms */
	for (int i = 0; i < 1999; i++)
		sm_hist_add(&fr->sched_lat, 10 * MS);
	sm_hist_add(&fr->sched_lat, 90 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.scheduled, 1000);
	assert_int_equal(pc.done, 1000);
	assert_int_equal(pc.dropped, 0);
	assert_int_equal(pc.queue, 8);
	/* 1 / 24 s rounded to the ns, not truncated */
	assert_int_equal(pc.interval_ns, 41666667);
	assert_true(pc.complete);
	/* p99.9 of 2000 is the 1998th, within the histogram's 1% */
	assert_true(pc.p999_sched_ns >= 99 * MS / 10 && pc.p999_sched_ns <= 101 * MS / 10);
	assert_int_equal(pc.max_sched_ns, 90 * MS);
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_REALTIME);

	/* drops decide, whatever the times */
	fr->frames_dropped = 3;
	fr->frames_done = 997;
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.dropped, 3);
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_NOT_REALTIME);

	/* a run cut short or failed decides nothing */
	fr->head.interrupted = 1;
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_false(pc.complete);
	assert_int_equal(sm_verdict_paced(&pc), -1);
	fr->head.interrupted = 0;
	snprintf(fr->head.error, sizeof(fr->head.error), "cannot write 'x': No space left on device");
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_false(pc.complete);
	fr->head.error[0] = '\0';

	/* a completion before its arrival wrapped to a huge time: the schedule
	 * went wrong, the run is not used */
	sm_hist_add(&fr->sched_lat, (uint64_t)-5);
	assert_int_equal(sm_paced_from_frames(fr, &pc), -ERANGE);
	assert_false(pc.complete);
	assert_int_equal(sm_verdict_paced(&pc), -1);
	free(fr);
}

static void test_paced_playback(SM_UNUSED void **state)
{
	struct sm_frames_result *fr = paced_result(SM_FRAMES_READ, 25);
	struct sm_paced pc;

	/* q = 8 at 40 ms: a frame's buffer is free 320 ms before it is due.
	 * 999 frames ready 200 ms early (120 ms from schedule), one 7 ms late
	 * (327 ms). No recorded sched_lat (an older result): judged by the
	 * lateness histograms. */
	for (int i = 0; i < 999; i++)
		sm_hist_add(&fr->early, 200 * MS);
	sm_hist_add(&fr->late, 7 * MS);
	fr->frames_dropped = 0;
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.interval_ns, 40 * MS);
	assert_int_equal(pc.p999_sched_ns, 120 * MS);
	assert_int_equal(pc.max_sched_ns, 327 * MS);
	/* 120 ms <= 8 x 40 / 2: real time */
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_REALTIME);

	/* frames ready only 100 ms early: 220 ms from schedule, over half the
	 * queue's span: marginal */
	sm_hist_init(&fr->early);
	for (int i = 0; i < 999; i++)
		sm_hist_add(&fr->early, 100 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.p999_sched_ns, 220 * MS);
	assert_int_equal(sm_verdict_paced(&pc), SM_VERDICT_MARGINAL);

	/* earlier than the queue's span: floored at 0 */
	sm_hist_init(&fr->early);
	sm_hist_init(&fr->late);
	sm_hist_add(&fr->early, 500 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_int_equal(pc.p999_sched_ns, 0);
	assert_int_equal(pc.max_sched_ns, 0);

	/* the workload's per-frame record of it wins over the lateness */
	for (int i = 0; i < 9999; i++)
		sm_hist_add(&fr->sched_lat, 50 * MS);
	sm_hist_add(&fr->sched_lat, 400 * MS);
	assert_int_equal(sm_paced_from_frames(fr, &pc), 0);
	assert_true(pc.p999_sched_ns >= 49 * MS && pc.p999_sched_ns <= 51 * MS);
	assert_int_equal(pc.max_sched_ns, 400 * MS);
	free(fr);
}

static void test_paced_unpaced(SM_UNUSED void **state)
{
	struct sm_frames_result *fr = paced_result(SM_FRAMES_READ, 0);
	struct sm_paced pc;

	memset(&pc, 0xff, sizeof(pc));
	assert_int_equal(sm_paced_from_frames(fr, &pc), -EINVAL);
	assert_int_equal(pc.scheduled, 0);
	assert_int_equal(pc.queue, 0);
	assert_int_equal(sm_verdict_paced(&pc), -1);
	free(fr);
}

/* A run result with nrows dpx-2k rows, the given rates, and every cell
 * computed from the ratio ratio[row][dir][rate] (needed = 100 MB/s). */
#define NEED 100e6
static struct sm_run_result *table(unsigned nrows, const char *const *rates, unsigned nrates)
{
	struct sm_run_result *res = calloc(1, sizeof(*res));

	assert_non_null(res);
	res->rows = calloc(nrows, sizeof(*res->rows));
	assert_non_null(res->rows);
	res->nrows = nrows;
	for (unsigned r = 0; r < nrows; r++)
		assert_int_equal(sm_format_find("dpx-2k", &res->rows[r].fmt), 0);
	for (unsigned k = 0; k < nrates; k++)
		assert_non_null(res->plan.rates[res->plan.nrates++] = sm_fps_find(rates[k]));
	for (unsigned r = 0; r < nrows; r++)
		for (int d = 0; d < 2; d++)
			for (unsigned k = 0; k < nrates; k++)
				sm_verdict_cell_init(&res->rows[r].cell[d][k], 3.0 * NEED, NEED);
	return res;
}

static void set_ratio(struct sm_run_result *res, unsigned r, int d, unsigned k, double ratio)
{
	sm_verdict_cell_init(&res->rows[r].cell[d][k], ratio * NEED, NEED);
}

static void free_table(struct sm_run_result *res)
{
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++)
			free(res->sizes[i].t[d].series);
	free(res->rows);
	free(res);
}

static void test_candidates(SM_UNUSED void **state)
{
	static const char *const rates[] = { "24", "25", "30", "50", "60" };
	struct sm_run_result *res = table(2, rates, 5);
	struct sm_run_cand c[2 * 5 * 2];
	unsigned n;

	set_ratio(res, 0, SM_DIR_CAPTURE, 0, 2.0);
	set_ratio(res, 0, SM_DIR_CAPTURE, 1, 1.1);     /* key 0 */
	set_ratio(res, 0, SM_DIR_CAPTURE, 2, 0.95);    /* key 0.147 */
	set_ratio(res, 0, SM_DIR_CAPTURE, 3, 1.3);     /* key 0.167 */
	set_ratio(res, 0, SM_DIR_CAPTURE, 4, 0.5);
	set_ratio(res, 1, SM_DIR_PLAYBACK, 0, 1.1);    /* key 0, later row */
	set_ratio(res, 1, SM_DIR_PLAYBACK, 4, 0);      /* nothing measured */
	set_ratio(res, 1, SM_DIR_CAPTURE, 2, 1.49);    /* near, key 0.303 */
	set_ratio(res, 1, SM_DIR_CAPTURE, 3, 1.5);     /* not near: 1.5 is out */
	set_ratio(res, 1, SM_DIR_CAPTURE, 4, 0.9);     /* near: 0.9 is in, key 0.2007 */
	n = sm_run_candidates(res, 0, c);
	assert_int_equal(n, 6);
	assert_true(c[0].row == 0 && c[0].dir == SM_DIR_CAPTURE && c[0].rate == 1);
	assert_true(c[1].row == 1 && c[1].dir == SM_DIR_PLAYBACK && c[1].rate == 0);
	assert_true(c[2].row == 0 && c[2].dir == SM_DIR_CAPTURE && c[2].rate == 2);
	assert_true(c[3].row == 0 && c[3].dir == SM_DIR_CAPTURE && c[3].rate == 3);
	assert_true(c[4].row == 1 && c[4].dir == SM_DIR_CAPTURE && c[4].rate == 4);
	assert_true(c[5].row == 1 && c[5].dir == SM_DIR_CAPTURE && c[5].rate == 2);
	for (unsigned i = 1; i < n; i++)
		assert_true(c[i - 1].key <= c[i].key);
	assert_int_equal(sm_run_count_near(res), 6);

	/* every cell with all: the same six first, nothing measured last */
	n = sm_run_candidates(res, 1, c);
	assert_int_equal(n, 20);
	assert_true(c[0].row == 0 && c[0].rate == 1 && c[5].row == 1 && c[5].rate == 2);
	assert_true(c[19].row == 1 && c[19].dir == SM_DIR_PLAYBACK && c[19].rate == 4);
	for (unsigned i = 1; i < n; i++)
		assert_true(c[i - 1].key <= c[i].key);
	free_table(res);
}

static void test_propagate(SM_UNUSED void **state)
{
	/* rates out of order: propagation goes by frame rate, not position */
	static const char *const rates[] = { "60", "24", "30", "50", "25" };
	struct sm_run_result *res = table(1, rates, 5);
	struct sm_paced drop = { 100, 90, 10, 0, 0, 33366667, 8, 1, 100 * 33366667ull };
	struct sm_paced clean = { 100, 100, 0, 1 * MS, 2 * MS, 40 * MS, 8, 1, 100 * 40 * MS };
	struct sm_verdict_cell *cap = res->rows[0].cell[SM_DIR_CAPTURE];
	struct sm_run_cand c = { .row = 0, .dir = SM_DIR_CAPTURE };

	set_ratio(res, 0, SM_DIR_CAPTURE, 1, 1.6);    /* 24: realtime, far */
	set_ratio(res, 0, SM_DIR_CAPTURE, 4, 1.1);    /* 25: marginal, near */
	set_ratio(res, 0, SM_DIR_CAPTURE, 2, 1.25);   /* 30: realtime, near */
	set_ratio(res, 0, SM_DIR_CAPTURE, 3, 0.95);   /* 50: not realtime, near */
	set_ratio(res, 0, SM_DIR_CAPTURE, 0, 0.5);    /* 60: not realtime, far */

	/* 30 fps dropped frames: 50 (near) follows, 60 already says so far
	 * from the limit and keeps its computed verdict; lower rates stay */
	c.rate = 2;
	assert_int_equal(sm_verdict_cell_confirm(&cap[2], &drop), 1);
	assert_int_equal(cap[2].final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(sm_run_propagate(res, &c, &drop), 1);
	assert_int_equal(cap[3].final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(cap[3].how, SM_HOW_PACED);
	assert_int_equal(cap[3].paced.interval_ns, 33366667);
	assert_int_equal(cap[0].how, SM_HOW_COMPUTED);
	assert_int_equal(cap[1].how, SM_HOW_COMPUTED);
	assert_int_equal(cap[4].how, SM_HOW_COMPUTED);
	assert_int_equal(cap[4].final, SM_VERDICT_MARGINAL);
	/* the other direction is another question */
	for (unsigned k = 0; k < 5; k++)
		assert_int_equal(res->rows[0].cell[SM_DIR_PLAYBACK][k].how, SM_HOW_COMPUTED);

	/* 25 fps (marginal, 1.1x) held: it stays marginal, held with little
	 * headroom (~*), never raised to realtime; 24 is already realtime far
	 * from the limit (kept); a cell below near the limit takes the run at
	 * its own computed class (make 24 marginal to see it) */
	set_ratio(res, 0, SM_DIR_CAPTURE, 1, 1.05);
	c.rate = 4;
	assert_int_equal(sm_verdict_cell_confirm(&cap[4], &clean), 1);
	assert_int_equal(cap[4].final, SM_VERDICT_MARGINAL);
	assert_int_equal(cap[4].how, SM_HOW_PACED);
	assert_int_equal(sm_run_propagate(res, &c, &clean), 1);
	assert_int_equal(cap[1].final, SM_VERDICT_MARGINAL);
	assert_int_equal(cap[1].how, SM_HOW_PACED);
	assert_int_equal(cap[1].paced.interval_ns, 40 * MS);
	/* near-limit realtime below: confirmed as realtime */
	set_ratio(res, 0, SM_DIR_CAPTURE, 1, 1.25);
	assert_int_equal(sm_run_propagate(res, &c, &clean), 1);
	assert_int_equal(cap[1].final, SM_VERDICT_REALTIME);
	assert_int_equal(cap[1].how, SM_HOW_PACED);
	/* the cells decided by their own paced run are left alone */
	assert_int_equal(cap[2].final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(cap[3].paced.interval_ns, 33366667);

	/* a marginal outcome settles nothing else */
	set_ratio(res, 0, SM_DIR_PLAYBACK, 2, 1.1);
	set_ratio(res, 0, SM_DIR_PLAYBACK, 1, 1.1);
	set_ratio(res, 0, SM_DIR_PLAYBACK, 3, 1.1);
	c.dir = SM_DIR_PLAYBACK;
	c.rate = 2;
	clean.p999_sched_ns = 300 * MS;       /* over 8 x 40 / 2 */
	assert_int_equal(sm_verdict_cell_confirm(&res->rows[0].cell[SM_DIR_PLAYBACK][2], &clean), 1);
	assert_int_equal(res->rows[0].cell[SM_DIR_PLAYBACK][2].final, SM_VERDICT_MARGINAL);
	assert_int_equal(sm_run_propagate(res, &c, &clean), 0);
	assert_int_equal(res->rows[0].cell[SM_DIR_PLAYBACK][1].how, SM_HOW_COMPUTED);
	assert_int_equal(res->rows[0].cell[SM_DIR_PLAYBACK][3].how, SM_HOW_COMPUTED);
	free_table(res);
}

static void test_compute_verdicts(SM_UNUSED void **state)
{
	static const char *const rates[] = { "24", "48" };
	struct sm_run_result *res = table(1, rates, 2);
	const struct sm_verdict_cell *c;

	/* one measured size, the row's own: 20 fps write, 50 fps read, each
	 * steady over 15 s, the write looked for a cliff */
	snprintf(res->sizes[0].preset, sizeof(res->sizes[0].preset), "2k");
	res->sizes[0].frame_bytes = res->rows[0].fmt.frame_bytes;
	res->sizes[0].t[SM_DIR_CAPTURE].measured = 1;
	res->sizes[0].t[SM_DIR_CAPTURE].fps = 20;
	res->sizes[0].t[SM_DIR_CAPTURE].cliff.looked = 1;
	t_run_steady(&res->sizes[0].t[SM_DIR_CAPTURE], 20.0 * (double)res->sizes[0].frame_bytes,
		     res->sizes[0].frame_bytes, 15);
	res->sizes[0].t[SM_DIR_PLAYBACK].measured = 1;
	res->sizes[0].t[SM_DIR_PLAYBACK].fps = 50;
	t_run_steady(&res->sizes[0].t[SM_DIR_PLAYBACK], 50.0 * (double)res->sizes[0].frame_bytes,
		     res->sizes[0].frame_bytes, 15);
	res->rows[0].cell[SM_DIR_CAPTURE][0].how = SM_HOW_PACED;   /* reset by the computation */
	sm_run_compute_verdicts(res);
	c = &res->rows[0].cell[SM_DIR_CAPTURE][0];
	assert_float_equal(c->ratio, 20.0 / 24, 1e-12);
	assert_int_equal(c->final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(c->how, SM_HOW_COMPUTED);
	assert_false(c->near_limit);            /* 0.83 < 0.9 */
	c = &res->rows[0].cell[SM_DIR_PLAYBACK][0];
	assert_float_equal(c->ratio, 50.0 / 24, 1e-12);
	assert_int_equal(c->final, SM_VERDICT_REALTIME);
	c = &res->rows[0].cell[SM_DIR_PLAYBACK][1];
	assert_float_equal(c->ratio, 50.0 / 48, 1e-12);
	assert_int_equal(c->final, SM_VERDICT_MARGINAL);
	assert_true(c->near_limit);
	assert_float_equal(c->needed, 48.0 * (double)res->rows[0].fmt.frame_bytes, 1e-3);
	free_table(res);
}

/* Verdicts from what lasts: a 2K write whose rate fell from 600 to 120
 * MiB/s rates a dpx-2k capture at 24 fps (292 MiB/s needed) on the
 * sustained rate (not real time) where the burst alone said real time;
 * the cell is marked, no paced run is offered for it, and a real-time
 * paced run at a higher rate does not raise it; at 60 fps (730 MiB/s)
 * the burst fails too, so that cell is not marked. */
static void test_verdicts_cliff(SM_UNUSED void **state)
{
	static const char *const rates[] = { "24", "60" };
	struct sm_run_result *res = table(1, rates, 2);
	struct sm_run_cand cand[8];
	struct sm_verdict_cell *c;
	struct sm_run_size *two = &res->sizes[1], *four = &res->sizes[2];
	struct sm_cliff *cl = &two->t[SM_DIR_CAPTURE].cliff;
	double fb = (double)res->rows[0].fmt.frame_bytes, mib = 1048576.0;
	struct sm_paced pc = { .scheduled = 10, .done = 10, .interval_ns = 16666667, .queue = 8,
			       .complete = 1 };

	res->reached = SM_PHASE_VERDICTS;
	snprintf(two->preset, sizeof(two->preset), "2k");
	two->frame_bytes = (uint64_t)fb;
	two->t[SM_DIR_CAPTURE].measured = 1;
	two->t[SM_DIR_CAPTURE].fps = 270 * mib / fb;   /* the whole write's mix */
	two->t[SM_DIR_PLAYBACK].measured = 1;
	two->t[SM_DIR_PLAYBACK].fps = 900 * mib / fb;
	snprintf(four->preset, sizeof(four->preset), "4k");
	four->frame_bytes = 4 * (uint64_t)fb;
	four->t[SM_DIR_CAPTURE].measured = 1;
	four->t[SM_DIR_CAPTURE].fps = 450 * mib / (4 * fb);   /* measured before the fall */
	cl->looked = cl->found = 1;
	cl->samples = 14;
	cl->interval_ns = 1000000000;
	cl->burst_bytes_per_s = 600 * mib;
	cl->sustained_bytes_per_s = 120 * mib;
	cl->ratio = 0.2;
	cl->at_ns = 4000000000ull;
	sm_run_compute_verdicts(res);
	sm_run_analyse(res);
	c = &res->rows[0].cell[SM_DIR_CAPTURE][0];
	assert_float_equal(c->measured, 120 * mib, 1);
	assert_float_equal(c->burst_measured, 600 * mib, 1);
	assert_int_equal(c->final, SM_VERDICT_NOT_REALTIME);
	assert_int_equal(sm_verdict_compute(c->burst_measured, c->needed), SM_VERDICT_REALTIME);
	assert_true(c->cliff);
	c = &res->rows[0].cell[SM_DIR_CAPTURE][1];
	assert_int_equal(c->final, SM_VERDICT_NOT_REALTIME);
	assert_false(c->cliff);
	/* playback is not touched by a write's cliff */
	c = &res->rows[0].cell[SM_DIR_PLAYBACK][0];
	assert_float_equal(c->measured, 900 * mib, 1);
	assert_false(c->cliff);
	assert_int_equal(res->derived.sustained_size, 1);
	assert_true(res->derived.cliff_found);
	assert_int_equal(res->derived.cliff_downgraded, 1);
	/* no paced run is offered for the downgraded cell, even with all */
	for (unsigned i = 0, n = sm_run_candidates(res, 1, cand); i < n; i++)
		assert_false(cand[i].dir == SM_DIR_CAPTURE && cand[i].rate == 0);
	/* a real-time paced run at 60 fps would settle 24 fps, but not a cell
	 * a cliff downgraded */
	{
		struct sm_run_cand at = { .row = 0, .rate = 1, .dir = SM_DIR_CAPTURE };

		res->rows[0].cell[SM_DIR_CAPTURE][1].final = SM_VERDICT_REALTIME;
		assert_int_equal(sm_run_propagate(res, &at, &pc), 0);
		assert_int_equal(res->rows[0].cell[SM_DIR_CAPTURE][0].final,
				 SM_VERDICT_NOT_REALTIME);
		assert_int_equal(res->rows[0].cell[SM_DIR_CAPTURE][0].how, SM_HOW_COMPUTED);
		/* the same run without the mark would have settled it (at its
		 * own computed class: a held run never raises a cell) */
		res->rows[0].cell[SM_DIR_CAPTURE][0].cliff = 0;
		res->rows[0].cell[SM_DIR_CAPTURE][0].near_limit = 1;
		assert_int_equal(sm_run_propagate(res, &at, &pc), 1);
		assert_int_equal(res->rows[0].cell[SM_DIR_CAPTURE][0].final,
				 SM_VERDICT_NOT_REALTIME);
		assert_int_equal(res->rows[0].cell[SM_DIR_CAPTURE][0].how, SM_HOW_COMPUTED);
	}
	/* without the cliff the whole write's rate counts */
	cl->found = 0;
	sm_run_compute_verdicts(res);
	c = &res->rows[0].cell[SM_DIR_CAPTURE][0];
	assert_float_equal(c->measured, 270 * mib, 1);
	assert_false(c->cliff);
	free_table(res);
}

static void test_analyse(SM_UNUSED void **state)
{
	static const char *const rates[] = { "24", "30" };
	struct sm_run_result *res = table(2, rates, 2);
	struct sm_run_classic *c = &res->classic[0];
	const struct sm_run_derived *d = &res->derived;

	/* a QD8 test that ran at QD1: 1000 reads of 1 MiB in 2 s */
	snprintf(c->label, sizeof(c->label), "seq 1 MiB QD8");
	c->depth = 8;
	c->measured[0] = 1;
	sm_opstat_init(&c->res[0].op);
	for (int i = 0; i < 1000; i++)
		sm_hist_add(&c->res[0].op.lat, i < 990 ? 1 * MS : 50 * MS);
	c->res[0].op.count = 1000;
	c->res[0].op.errors = 10;
	c->res[0].op.bytes = 1000ull << 20;
	c->res[0].duration_ns = 2000 * MS;
	c->res[0].depth = 1;
	res->plan.time_ns = 20000 * MS;
	res->reached = SM_PHASE_FRAMES;
	snprintf(res->sizes[1].preset, sizeof(res->sizes[1].preset), "2k");
	res->sizes[1].t[0].measured = 1;
	sm_warn(&res->head.warnings, "small_working_set", "only %d MiB free", 300);
	sm_warn(&res->head.warnings, "small_working_set", "the fill stopped at %d MiB", 40);
	/* capture: realtime only row 0 at 24 fps (100 MB/s needed, 1.3x) and
	 * row 1 at 30 fps (200 MB/s needed, exactly 1.2x) */
	set_ratio(res, 0, SM_DIR_CAPTURE, 1, 0.5);
	set_ratio(res, 1, SM_DIR_CAPTURE, 0, 1.1);
	set_ratio(res, 0, SM_DIR_CAPTURE, 0, 1.3);
	sm_verdict_cell_init(&res->rows[1].cell[SM_DIR_CAPTURE][1], 240e6, 200e6);

	sm_run_analyse(res);
	/* the figures are the workload's to fill, test by test */
	assert_false(c->fig[0].valid);
	sm_run_classic_figures(c, 0);
	sm_run_classic_figures(c, 1);
	assert_true(c->fig[0].valid);
	assert_false(c->fig[1].valid);
	assert_float_equal(c->fig[0].bytes_per_s, 500.0 * 1048576, 1e-3);
	assert_float_equal(c->fig[0].iops, 495, 1e-9);
	assert_true(c->fig[0].p99_ns >= 99 * MS / 100 && c->fig[0].p99_ns <= 101 * MS / 100);
	assert_true(d->queued_fallback);
	assert_true(d->frames_measured);
	/* the verdict phase not reached: no table, no best format */
	assert_false(d->verdicts_ready);
	assert_false(d->best[SM_DIR_CAPTURE].found);
	/* 2K measured one way only: no reference test */
	assert_int_equal(d->ref_size, -1);
	assert_true(d->small_working_set);
	assert_true(d->short_run);

	res->reached = SM_PHASE_DONE;
	res->sizes[1].t[1].measured = 1;
	res->plan.time_ns = SM_RUN_ROUGH_NS;
	c->res[0].depth = 8;
	res->head.warnings.count = 0;
	sm_run_analyse(res);
	assert_true(d->verdicts_ready);
	assert_int_equal(d->ref_size, 1);
	assert_false(d->queued_fallback);
	assert_false(d->small_working_set);
	assert_false(d->short_run);
	/* the best capture: the largest need among realtime cells */
	assert_true(d->best[SM_DIR_CAPTURE].found);
	assert_int_equal(d->best[SM_DIR_CAPTURE].row, 1);
	assert_int_equal(d->best[SM_DIR_CAPTURE].rate, 1);
	assert_true(d->best[SM_DIR_PLAYBACK].found);
	for (unsigned r = 0; r < 2; r++)
		for (unsigned k = 0; k < 2; k++)
			set_ratio(res, r, SM_DIR_PLAYBACK, k, 0.5);
	sm_run_analyse(res);
	assert_false(d->best[SM_DIR_PLAYBACK].found);
	free_table(res);
}


/* What a verdict rests on (docs/run.md): one 2K size at 25x what dpx-2k at
 * 24 fps needs, steady, the write looked for a cliff: real time. Then one
 * change at a time: a 1 s stall in the write rules capture out ("#") and
 * leaves playback; a write too short to look for a cliff, a second under
 * the need, or a frame larger than any measured leave the cell
 * unconfirmed ("?") until a paced run with those buffers holds; no cell
 * claims more than the 2K test's bytes per second. */
static void test_verdict_basis(SM_UNUSED void **state)
{
	static const char *const rates[] = { "24", "60" };
	struct sm_run_result *res = table(2, rates, 2);
	struct sm_run_size *two = &res->sizes[0];
	double fb, bw;
	struct sm_paced held = { .scheduled = 240, .done = 240, .interval_ns = 41666667,
				 .queue = 8, .complete = 1, .p999_sched_ns = 50000000 };
	const struct sm_verdict_cell *c;

	assert_int_equal(sm_format_find("dpx-8k-uhd", &res->rows[1].fmt), 0);
	res->plan.queue = 8;
	res->sustained_basis = 1;
	fb = (double)res->rows[0].fmt.frame_bytes;
	bw = 25 * 24 * fb;
	snprintf(two->preset, sizeof(two->preset), "2k");
	two->frame_bytes = (uint64_t)fb;
	for (int d = 0; d < 2; d++) {
		two->t[d].measured = 1;
		two->t[d].fps = bw / fb;
		two->t[d].bytes_per_s = bw;
		t_run_steady(&two->t[d], bw, two->frame_bytes, 15);
	}
	two->t[SM_DIR_CAPTURE].cliff.looked = 1;
	sm_run_compute_verdicts(res);
	c = &res->rows[0].cell[SM_DIR_CAPTURE][0];
	assert_int_equal(c->final, SM_VERDICT_REALTIME);
	assert_int_equal(c->basis, 0);
	assert_int_equal(c->buffer_ns, 333333333);
	/* dpx-8k-uhd is larger than any frame measured */
	c = &res->rows[1].cell[SM_DIR_PLAYBACK][0];
	assert_true(c->basis & SM_BASIS_EXTRAPOLATED);
	assert_true(c->computed == SM_VERDICT_NOT_REALTIME || c->final == SM_VERDICT_UNCONFIRMED);

	/* a one-second stall in the write: capture is not real time at any
	 * rate, however fast; playback is untouched */
	sm_stalls_add(&two->t[SM_DIR_CAPTURE].stalls, 5000000000ull, 1000000000ull);
	sm_run_compute_verdicts(res);
	for (unsigned k = 0; k < 2; k++) {
		c = &res->rows[0].cell[SM_DIR_CAPTURE][k];
		assert_true(c->ratio > 9);
		assert_int_equal(c->final, SM_VERDICT_NOT_REALTIME);
		assert_true(c->basis & SM_BASIS_STALL);
		assert_int_equal(c->stall_ns, 1000000000ull);
		/* and a paced run that held does not bring it back */
		assert_int_equal(sm_verdict_cell_confirm(&res->rows[0].cell[SM_DIR_CAPTURE][k], &held), 1);
		assert_int_equal(c->final, SM_VERDICT_NOT_REALTIME);
	}
	assert_int_equal(res->rows[0].cell[SM_DIR_PLAYBACK][0].final, SM_VERDICT_REALTIME);
	/* no candidate for a cell a stall decided */
	{
		struct sm_run_cand cand[8];

		for (unsigned i = 0, n = sm_run_candidates(res, 1, cand); i < n; i++)
			assert_false(cand[i].row == 0 && cand[i].dir == SM_DIR_CAPTURE);
	}
	memset(&two->t[SM_DIR_CAPTURE].stalls, 0, sizeof(two->t[SM_DIR_CAPTURE].stalls));

	/* too short to look for a cliff: unconfirmed, until a paced run holds */
	two->t[SM_DIR_CAPTURE].cliff.looked = 0;
	sm_run_compute_verdicts(res);
	c = &res->rows[0].cell[SM_DIR_CAPTURE][0];
	assert_int_equal(c->computed, SM_VERDICT_REALTIME);
	assert_int_equal(c->final, SM_VERDICT_UNCONFIRMED);
	assert_int_equal(c->basis, SM_BASIS_SHORT);
	assert_int_equal(res->rows[0].cell[SM_DIR_PLAYBACK][0].final, SM_VERDICT_REALTIME);
	assert_int_equal(sm_verdict_cell_confirm(&res->rows[0].cell[SM_DIR_CAPTURE][0], &held), 1);
	assert_int_equal(c->final, SM_VERDICT_REALTIME);
	assert_int_equal(c->how, SM_HOW_PACED);
	two->t[SM_DIR_CAPTURE].cliff.looked = 1;

	/* one second of the read under what 60 fps needs */
	two->t[SM_DIR_PLAYBACK].series[7].bytes -= (uint64_t)(bw * 0.99);
	for (unsigned i = 8; i < 15; i++)
		two->t[SM_DIR_PLAYBACK].series[i].bytes -= (uint64_t)(bw * 0.99);
	sm_run_compute_verdicts(res);
	c = &res->rows[0].cell[SM_DIR_PLAYBACK][1];
	assert_true(c->worst_measured < c->needed);
	assert_int_equal(c->final, SM_VERDICT_UNCONFIRMED);
	assert_int_equal(c->basis, SM_BASIS_DIP);

	/* the 2K test's rate caps every point: a faster HD test does not let
	 * a capture cell claim more than it */
	snprintf(res->sizes[1].preset, sizeof(res->sizes[1].preset), "hd");
	res->sizes[1].frame_bytes = (uint64_t)(fb / 2);
	res->sizes[1].t[SM_DIR_CAPTURE].measured = 1;
	res->sizes[1].t[SM_DIR_CAPTURE].fps = 4 * bw / (fb / 2);
	res->sizes[1].t[SM_DIR_CAPTURE].bytes_per_s = 4 * bw;
	t_run_steady(&res->sizes[1].t[SM_DIR_CAPTURE], 4 * bw, res->sizes[1].frame_bytes, 15);
	sm_run_compute_verdicts(res);
	for (unsigned r = 0; r < res->nrows; r++)
		for (unsigned k = 0; k < 2; k++)
			assert_true(res->rows[r].cell[SM_DIR_CAPTURE][k].measured <= bw * (1 + 1e-9));
	free_table(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paced_capture),
		cmocka_unit_test(test_paced_playback),
		cmocka_unit_test(test_paced_unpaced),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_propagate),
		cmocka_unit_test(test_compute_verdicts),
		cmocka_unit_test(test_verdicts_cliff),
		cmocka_unit_test(test_verdict_basis),
		cmocka_unit_test(test_analyse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
