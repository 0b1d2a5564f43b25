/* SPDX-License-Identifier: MIT */
/* The profile's paced runs: near-limit verdicts checked by a real-time run
 * of the format at the rate, in the order analysis/run.h ranks them, as
 * the time budget allows. */
#include "workload/profile_int.h"
#include "analysis/paced.h"
#include "analysis/run.h"
#include "analysis/verdict.h"
#include "core/fsx.h"
#include "core/worker.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One paced run of row's format at rate in direction d (a playback run
 * writes its frames first); fills *pc (complete = 0 when the run could
 * not decide). Returns 0, -EINTR, or -errno with res->head.error set. */
static int paced_run(struct sm_prof *x, const struct sm_run_row *row, const struct sm_fps *rate,
		     enum sm_direction d, struct sm_paced *pc)
{
	struct sm_run_result *res = x->res;
	struct sm_frames_plan f;
	char dir[PATH_MAX + 64];
	double fps = sm_fps_value(rate);
	uint64_t n = (uint64_t)ceil(fps * (double)res->paced_ns / 1e9);
	const struct sm_run_hooks *h = x->plan->hooks;
	int rc;

	if (n < 2 * x->plan->queue)
		n = 2 * x->plan->queue;
	snprintf(dir, sizeof(dir), "%s/paced-%s", res->data_dir, row->fmt.name);
	if (d == SM_DIR_PLAYBACK) {
		/* frames to play: written unpaced first */
		sm_prof_frames_plan(x, &f, dir, SM_FRAMES_WRITE, row->fmt.frame_bytes);
		f.nframes = n;
		f.time_limit_ns = 4 * res->paced_ns;
		rc = sm_prof_frames_go(x, &f);
		if (rc)
			goto out;
		if (x->fr->frames_done < n) {
			rc = 0;
			pc->complete = 0;
			if (!h)
				goto out;
		}
		/* an MPI job: the paced read starts on every rank at once (a
		 * rank without its frames comes too, and says it could not
		 * decide) */
		if (h && (rc = h->begin(h->arg, "paced read")))
			goto out;
		if (x->fr->frames_done < n)
			goto out;
	}
	sm_prof_frames_plan(x, &f, dir, d == SM_DIR_PLAYBACK ? SM_FRAMES_READ : SM_FRAMES_WRITE,
			    row->fmt.frame_bytes);
	f.nframes = n;
	f.fps = fps;
	f.queue = x->plan->queue;
	f.prebuffer = x->plan->prebuffer;
	f.time_limit_ns = 3 * res->paced_ns;
	rc = sm_prof_frames_go(x, &f);
	if (sm_paced_from_frames(x->fr, pc) == -ERANGE)
		sm_warn(&res->head.warnings, "paced_run_invalid",
			"a paced capture run reported frames completing before they "
			"arrived; its result was not used");
	if (rc)
		pc->complete = 0;
	res->paced_runs++;
out:
	sm_rm_tree(dir);
	return rc;
}

/* An MPI job's rank other than 0: run the paced runs rank 0 names, each
 * judged on this rank's own table as a run alone would, until rank 0 says
 * there are no more. Returns 0, -EINTR or -ECANCELED. */
static int follow(struct sm_prof *x)
{
	const struct sm_run_hooks *h = x->plan->hooks;
	struct sm_run_result *res = x->res;

	for (;;) {
		int code = h->next_paced(h->arg, 0), rc;
		struct sm_run_cand c = { 0 };
		struct sm_paced pc = { 0 };
		char what[96];

		if (code <= 0)
			return code;
		code--;
		c.dir = (enum sm_direction)(code % 2);
		c.rate = (unsigned)(code / 2) % SM_RUN_MAXRATES;
		c.row = (unsigned)(code / 2) / SM_RUN_MAXRATES;
		if (c.row >= res->nrows || c.rate >= res->plan.nrates)
			return sm_prof_fail(x, -EPROTO, "rank 0 named a paced run this rank does not "
					    "have (%s)", "a different format list?");
		snprintf(what, sizeof(what), "paced %s of %s at %s fps", sm_direction_name(c.dir),
			 res->rows[c.row].fmt.name, res->plan.rates[c.rate]->name);
		sm_prof_tell(x, what);
		rc = paced_run(x, &res->rows[c.row], res->plan.rates[c.rate], c.dir, &pc);
		if (rc && rc != -EINTR && rc != -ECANCELED) {
			sm_warn(&res->head.warnings, "paced_run_failed", "a paced run failed: %s",
				res->head.error);
			res->error = 0;
			res->head.error[0] = '\0';
			pc.complete = 0;
			rc = 0;
		}
		if (rc == -ECANCELED)
			return rc;
		if (sm_verdict_cell_confirm(&res->rows[c.row].cell[c.dir][c.rate], &pc))
			sm_run_propagate(res, &c, &pc);
		if (h->paced(h->arg, c.row, c.rate, c.dir, &pc) || rc)
			return rc ? rc : -ECANCELED;
	}
}

int sm_prof_confirm(struct sm_prof *x)
{
	const struct sm_run_hooks *h = x->plan->hooks;
	struct sm_run_result *res = x->res;
	struct sm_run_cand *c = calloc((size_t)res->nrows * SM_RUN_MAXRATES * 2 + 1, sizeof(*c));
	unsigned n, tried = 0;
	int rc = 0;

	if (h && !h->leader) {
		free(c);
		return follow(x);
	}
	if (!c)
		return sm_prof_fail(x, -ENOMEM, "cannot plan paced runs in '%s'",
				    res->data_dir);
	n = sm_run_candidates(res, x->plan->confirm > 1, c);
	for (unsigned i = 0; i < n; i++) {
		struct sm_run_row *row = &res->rows[c[i].row];
		struct sm_verdict_cell *cell = &row->cell[c[i].dir][c[i].rate];
		const struct sm_fps *rate = res->plan.rates[c[i].rate];
		uint64_t need = (uint64_t)(sm_fps_value(rate) * (double)res->paced_ns / 1e9 + 16) *
				row->fmt.frame_bytes;
		struct sm_paced pc = { 0 };
		char what[96];

		if (sm_verdict_cell_outcome(cell) >= 0)
			continue;   /* settled by a paced run at another rate */

		/* stop when the budget is spent (--steady's rounds and
		 * --precondition not counted; a run may overrun it a little;
		 * --confirm-all makes two runs in any case), or the frames would
		 * not fit comfortably */
		if ((tried >= (x->plan->confirm > 1 ? 2u : 0u) &&
		     sm_prof_elapsed(x) - res->steady_ns + res->paced_ns > x->plan->time_ns + res->paced_ns / 2) ||
		    need > res->head.env.fs.free_bytes / 4 || sm_stopped()) {
			res->near_unconfirmed += cell->near_limit;
			continue;
		}
		snprintf(what, sizeof(what), "paced %s of %s at %s fps",
			 sm_direction_name(c[i].dir), row->fmt.name, rate->name);
		sm_prof_tell(x, what);
		tried++;
		if (h && (rc = h->next_paced(h->arg, SM_RUN_PACED_CODE(c[i].row, c[i].rate, c[i].dir))) < 0)
			break;
		rc = paced_run(x, row, rate, c[i].dir, &pc);
		if (rc == -ECANCELED)
			break;
		if (h && rc && rc != -EINTR)
			pc.complete = 0;   /* the others hear it could not decide */
		/* an MPI job: this rank's outcome in, the worst rank's out */
		if (h && h->paced(h->arg, c[i].row, c[i].rate, c[i].dir, &pc) && !rc)
			rc = -ECANCELED;
		if (rc == -EINTR || rc == -ECANCELED)
			break;
		if (rc) {
			/* a failed paced run leaves the computed verdict; say why */
			sm_warn(&res->head.warnings, "paced_run_failed", "a paced run failed: %s",
				res->head.error);
			res->error = 0;
			res->head.error[0] = '\0';
			rc = 0;
			res->near_unconfirmed += cell->near_limit;
			continue;
		}
		if (!sm_verdict_cell_confirm(cell, &pc)) {
			res->near_unconfirmed += cell->near_limit;
			continue;
		}
		sm_run_propagate(res, &c[i], &pc);
	}
	free(c);
	if (h && !rc)   /* no more paced runs: the others stop following */
		rc = h->next_paced(h->arg, 0);
	return rc;
}

