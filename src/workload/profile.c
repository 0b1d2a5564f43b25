/* SPDX-License-Identifier: MIT */
/* stormark run's storage profile: the phases in order, each in its own
 * context, and the test directory they share (created first, removed
 * last). The phases are in profile_classic.c, profile_frames.c and
 * profile_paced.c; the plan and budget in profile_plan.c. */
#include "workload/profile_int.h"
#include "engine/engine.h"
#include "analysis/run.h"
#include "analysis/share.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/msg.h"
#include "core/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t sm_prof_elapsed(const struct sm_prof *x)
{
	return sm_now_ns() - x->t0;
}

void sm_prof_tell(struct sm_prof *x, const char *what)
{
	snprintf(x->phase, sizeof(x->phase), "%s", what);
	x->live_bytes = x->live_ios = x->live_ns = 0;
	if (x->progress)
		x->progress(what, NULL, sm_prof_elapsed(x), x->plan->time_ns, x->arg);
}

int sm_prof_fail(struct sm_prof *x, int rc, const char *fmt, ...)
{
	va_list ap;

	x->res->error = rc;
	va_start(ap, fmt);
	sm_msg_verrno(x->res->head.error, sizeof(x->res->head.error), rc, fmt, ap);
	va_end(ap);
	return rc;
}

/* Collect the environment, create the test directory, probe direct I/O
 * and size the run. */
static int setup(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	int rc;

	sm_env_collect(&res->head.env, x->plan->dir);
	snprintf(res->data_dir, sizeof(res->data_dir), "%s/.stormark-run-XXXXXX", x->plan->dir);
	if (!mkdtemp(res->data_dir)) {
		rc = -errno;
		res->data_dir[0] = '\0';
		return sm_prof_fail(x, rc, "cannot create a test directory in '%s'",
				    x->plan->dir);
	}
	res->direct_align = sm_direct_probe(res->data_dir);
	res->head.env.direct_io = res->direct_align > 0;
	res->head.env.mem_available_bytes = sm_mem_available();
	sm_prof_budget(x);
	if (res->direct_align <= 0) {
		sm_warn(&res->head.warnings, "buffered_io",
			"direct I/O does not work here (%s): figures include the page cache",
			strerror(-res->direct_align));
		if (res->frames_bytes < res->head.env.mem_available_bytes)
			sm_warn(&res->head.warnings, "cached_working_set",
				"the working set (%llu MiB) is smaller than the free RAM (%llu MiB): "
				"reads may come from memory",
				(unsigned long long)(res->frames_bytes >> 20),
				(unsigned long long)(res->head.env.mem_available_bytes >> 20));
	}
	/* run's metadata line is timed too (profile_meta.c), unless the null
	 * engine moves nothing at all */
	if (!(sm_engine_caps_of(x->plan->engine) & SM_ENGINE_NO_IO))
		sm_share_warn(&res->head.warnings, &res->head.env.fs.mount, SM_SHARE_DATA | SM_SHARE_META,
			      res->head.env.direct_io);
	if (res->head.env.fs.free_bytes && res->head.env.fs.free_bytes < 1 * GIB)
		sm_warn(&res->head.warnings, "small_working_set",
			"only %llu MiB free: the working set is small",
			(unsigned long long)(res->head.env.fs.free_bytes >> 20));
	return 0;
}

/* Set up the context of one phase. */
static int prof_init(struct sm_prof *x, struct sm_run_result *res, sm_run_progress_fn progress,
		     void *arg)
{
	memset(x, 0, sizeof(*x));
	x->plan = &res->plan;
	x->res = res;
	x->progress = progress;
	x->arg = arg;
	x->t0 = res->t0_ns;
	x->fr = calloc(1, sizeof(*x->fr));
	if (!x->fr)
		return sm_prof_fail(x, -ENOMEM, "cannot allocate a frame result in '%s'",
			    res->data_dir);
	return 0;
}

/* End a phase: free the scratch result, turn a signal into -EINTR, derive
 * what the reporters print. */
static int prof_done(struct sm_prof *x, int rc)
{
	sm_frames_result_release(x->fr);
	free(x->fr);
	x->fr = NULL;
	if (rc == -EINTR || sm_stopped()) {
		x->res->head.interrupted = 1;
		rc = -EINTR;
	}
	x->res->head.duration_ns = sm_prof_elapsed(x);
	sm_run_analyse(x->res);
	return rc;
}

int sm_run_begin(const struct sm_run_plan *plan, struct sm_run_result *res)
{
	struct sm_prof x = { .plan = plan, .res = res };
	struct sm_result_head head;
	int rc;

	head = res->head;
	memset(res, 0, sizeof(*res));
	sm_result_head_keep(&res->head, &head);
	res->plan = *plan;
	res->t0_ns = x.t0 = sm_now_ns();
	res->nrows = plan->nformats;
	res->rows = calloc(plan->nformats + 1, sizeof(*res->rows));
	if (!res->rows)
		return sm_prof_fail(&x, -ENOMEM, "cannot allocate the verdict table for '%s'",
			    plan->dir);
	for (unsigned i = 0; i < plan->nformats; i++)
		res->rows[i].fmt = plan->formats[i];
	res->reached = SM_PHASE_SETUP;
	rc = setup(&x);
	res->head.duration_ns = sm_prof_elapsed(&x);
	return rc;
}

int sm_run_classic(struct sm_run_result *res, sm_run_progress_fn progress, void *arg)
{
	struct sm_prof x;
	int rc = prof_init(&x, res, progress, arg);

	res->reached = SM_PHASE_CLASSIC;
	if (!rc)
		rc = sm_prof_classic(&x);
	return prof_done(&x, rc);
}

int sm_run_frames(struct sm_run_result *res, sm_run_progress_fn progress, void *arg)
{
	struct sm_prof x;
	int rc = prof_init(&x, res, progress, arg);

	res->reached = SM_PHASE_FRAMES;
	if (!rc)
		rc = sm_prof_frames(&x);
	if (!rc && !sm_stopped())
		rc = sm_prof_meta(&x);
	return prof_done(&x, rc);
}

int sm_run_verdicts(struct sm_run_result *res, sm_run_progress_fn progress, void *arg)
{
	struct sm_prof x;
	int rc = prof_init(&x, res, progress, arg);

	res->reached = SM_PHASE_VERDICTS;
	res->sustained_basis = 1;
	sm_run_compute_verdicts(res);
	if (!rc && res->plan.hooks)   /* an MPI job: rank 0's table becomes the job's */
		rc = res->plan.hooks->verdicts(res->plan.hooks->arg, res);
	if (rc)
		return prof_done(&x, rc);
	res->reached = SM_PHASE_CONFIRM;
	if (res->plan.confirm && (!sm_stopped() || res->plan.hooks)) {
		rc = sm_prof_confirm(&x);
	} else {
		res->near_unconfirmed = sm_run_count_near(res);
	}
	if (!rc)
		res->reached = SM_PHASE_DONE;
	return prof_done(&x, rc);
}

int sm_run_end(struct sm_run_result *res)
{
	int rc = 0;

	if (res->data_dir[0] && !res->plan.keep) {
		rc = sm_rm_tree(res->data_dir);
		if (rc && !res->error) {
			res->error = rc;
			snprintf(res->head.error, sizeof(res->head.error),
				 "cannot remove the test directory '%s': %s", res->data_dir,
				 strerror(-rc));
		} else if (rc) {
			/* the first error stays first; the leftover is said too */
			size_t n = strlen(res->head.error);

			snprintf(res->head.error + n, sizeof(res->head.error) - n,
				 "; the test directory '%s' was not removed: %s", res->data_dir,
				 strerror(-rc));
		}
	}
	res->head.duration_ns = sm_now_ns() - res->t0_ns;
	sm_run_analyse(res);
	return rc;
}

void sm_run_result_release(struct sm_run_result *res)
{
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			free(res->sizes[i].t[d].series);
			res->sizes[i].t[d].series = NULL;
			res->sizes[i].t[d].nseries = 0;
		}
	free(res->rows);
	res->rows = NULL;
	res->nrows = 0;
}
