/* SPDX-License-Identifier: MIT */
/* run's phases on the null engine (workload/profile*.c): setup, the
 * classic block tests, the frame tests, the verdicts and their paced runs,
 * and the end's removal of the test data; then the same run as one rank
 * of a job (the hooks an MPI job sets, called in the run's order), and a
 * run stopped by a signal. The null engine moves no bytes, so the phases'
 * own logic runs here under ASan and TSan in seconds; the figures on real
 * storage are the end-to-end tests' (tests/cli/run*.sh). */
#include "workload/profile.h"
#include "analysis/run.h"
#include "core/compiler.h"
#include "core/formats.h"
#include "core/worker.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "helpers.h"

static const char *scratch;

/* A plan of one format at one rate, every cell confirmed by a paced run. */
static void small_plan(struct sm_run_plan *p, struct sm_format *fmt, uint64_t secs)
{
	sm_run_plan_defaults(p);
	p->dir = scratch;
	p->time_ns = secs * 1000000000ull;
	p->engine = "null";
	p->threads = 2;
	p->confirm = 2;
	assert_int_equal(sm_format_find("dpx-hd", fmt), 0);
	p->formats = fmt;
	p->nformats = 1;
	p->rates[0] = sm_fps_find("24");
	assert_non_null(p->rates[0]);
	p->nrates = 1;
}

static int dir_is_empty(const char *path)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", path);
	return system(cmd) == 0;
}

static void run_all(struct sm_run_result *res, int *rc_classic, int *rc_frames, int *rc_verdicts)
{
	*rc_classic = sm_run_classic(res, NULL, NULL);
	*rc_frames = *rc_classic ? *rc_classic : sm_run_frames(res, NULL, NULL);
	*rc_verdicts = *rc_frames ? *rc_frames : sm_run_verdicts(res, NULL, NULL);
}

static void test_phases_null(SM_UNUSED void **state)
{
	struct sm_run_plan plan;
	struct sm_run_result res;
	struct sm_format fmt;
	struct stat st;
	int a, b, c;
	unsigned measured = 0;

	memset(&res, 0, sizeof(res));
	small_plan(&plan, &fmt, 4);
	if (sm_run_begin(&plan, &res))
		fail_msg("sm_run_begin: %s", res.head.error);
	assert_true(res.data_dir[0] != '\0');
	assert_int_equal(stat(res.data_dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(strncmp(res.data_dir, scratch, strlen(scratch)), 0);

	run_all(&res, &a, &b, &c);
	assert_string_equal(res.block_engine, "null");
	assert_int_equal(a, 0);
	assert_int_equal(b, 0);
	assert_int_equal(c, 0);
	assert_int_equal(res.reached, SM_PHASE_DONE);

	/* every classic test ran both ways, and each has its figures */
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++)
			if (res.classic[i].measured[w]) {
				measured++;
				assert_true(res.classic[i].fig[w].valid);
				assert_true(res.classic[i].fig[w].iops > 0);
			}
	assert_int_equal(measured, 2 * SM_RUN_NCLASSIC);
	/* the frame tests: each size written and read, with frames moved */
	for (unsigned s = 0; s < SM_RUN_NSIZES; s++)
		for (int d = 0; d < 2; d++) {
			assert_true(res.sizes[s].t[d].measured);
			assert_true(res.sizes[s].t[d].frames > 0);
			assert_true(res.sizes[s].t[d].fps > 0);
		}
	/* one row, both directions judged; --confirm-all: paced runs made */
	assert_int_equal(res.nrows, 1);
	assert_true(res.paced_runs >= 1);
	sm_run_analyse(&res);
	assert_true(res.derived.frames_measured);
	assert_true(res.derived.verdicts_ready);
	assert_true(res.derived.paced_cells >= 1);
	assert_true(res.derived.paced_min_ns > 0);
	assert_true(res.derived.paced_short);   /* a 4 s run's paced runs are short */

	assert_int_equal(sm_run_end(&res), 0);
	assert_int_not_equal(stat(res.data_dir, &st), 0);   /* the test data is gone */
	assert_true(dir_is_empty(scratch));
	sm_run_result_release(&res);
}

/* The hooks an MPI job sets, counted; one rank alone, the leader. */
struct counts {
	unsigned begin, classic, frames, verdicts, next_paced, paced;
	int last_code;
	char first[64];
};

static int h_begin(void *arg, const char *what)
{
	struct counts *c = arg;

	if (!c->begin++)
		snprintf(c->first, sizeof(c->first), "%s", what);
	return 0;
}

static void h_classic(void *arg, unsigned i, int w, SM_UNUSED const struct sm_blockio_result *r)
{
	struct counts *c = arg;

	assert_true(i < SM_RUN_NCLASSIC);
	assert_true(w == 0 || w == 1);
	c->classic++;
}

static void h_frames(void *arg, unsigned s, SM_UNUSED int d, const struct sm_frames_result *fr)
{
	struct counts *c = arg;

	assert_true(s < SM_RUN_NSIZES);
	assert_non_null(fr);
	c->frames++;
}

static int h_verdicts(void *arg, struct sm_run_result *res)
{
	struct counts *c = arg;

	assert_int_equal(res->nrows, 1);
	c->verdicts++;
	return 0;
}

static int h_next_paced(void *arg, int code)
{
	struct counts *c = arg;

	c->next_paced++;
	c->last_code = code;
	return code;   /* one rank: the leader's code is the job's */
}

static int h_paced(void *arg, unsigned row, unsigned rate, SM_UNUSED enum sm_direction d,
		SM_UNUSED struct sm_paced *pc)
{
	struct counts *c = arg;

	assert_int_equal(row, 0);
	assert_int_equal(rate, 0);
	c->paced++;
	return 0;
}

static void test_phases_hooks(SM_UNUSED void **state)
{
	struct counts c = { 0 };
	const struct sm_run_hooks hooks = {
		.arg = &c, .leader = 1, .begin = h_begin, .classic = h_classic, .frames = h_frames,
		.verdicts = h_verdicts, .next_paced = h_next_paced, .paced = h_paced,
	};
	struct sm_run_plan plan;
	struct sm_run_result res;
	struct sm_format fmt;
	int a, b, v;

	memset(&res, 0, sizeof(res));
	small_plan(&plan, &fmt, 4);
	plan.hooks = &hooks;
	assert_int_equal(sm_run_begin(&plan, &res), 0);
	run_all(&res, &a, &b, &v);
	assert_int_equal(a, 0);
	assert_int_equal(b, 0);
	assert_int_equal(v, 0);
	/* each classic test and frame pass was announced and reported, in
	 * both directions; the verdicts were handed over once */
	assert_int_equal(c.classic, 2 * SM_RUN_NCLASSIC);
	assert_int_equal(c.frames, 2 * SM_RUN_NSIZES);
	assert_true(c.begin >= c.classic + c.frames);
	assert_int_equal(c.verdicts, 1);
	/* every paced run was agreed on first, and the list ended with 0 */
	assert_int_equal(c.paced, res.paced_runs);
	assert_int_equal(c.next_paced, res.paced_runs + 1);
	assert_int_equal(c.last_code, 0);
	assert_int_equal(sm_run_end(&res), 0);
	assert_true(dir_is_empty(scratch));
	sm_run_result_release(&res);
}

/* A stop request before the classic tests: the phase returns -EINTR with
 * what it has, and the end still removes the test data. */
static void test_phases_stopped(SM_UNUSED void **state)
{
	struct sm_run_plan plan;
	struct sm_run_result res;
	struct sm_format fmt;

	memset(&res, 0, sizeof(res));
	small_plan(&plan, &fmt, 4);
	assert_int_equal(sm_run_begin(&plan, &res), 0);
	atomic_store(&sm_stop_signal, SIGINT);
	assert_int_equal(sm_run_classic(&res, NULL, NULL), -EINTR);
	atomic_store(&sm_stop_signal, 0);
	assert_true(res.reached < SM_PHASE_DONE);
	assert_int_equal(sm_run_end(&res), 0);
	assert_true(dir_is_empty(scratch));
	sm_run_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases_null),
		cmocka_unit_test(test_phases_hooks),
		cmocka_unit_test(test_phases_stopped),
	};

	scratch = t_scratch("run-phases");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
