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
			goto out;
		}
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

int sm_prof_confirm(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_run_cand *c = calloc((size_t)res->nrows * SM_RUN_MAXRATES * 2 + 1, sizeof(*c));
	unsigned n, tried = 0;
	int rc = 0;

	if (!c)
		return sm_prof_fail(x, -ENOMEM, "cannot plan paced runs in '%s': %s",
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

		if (cell->how == SM_HOW_PACED)
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
		rc = paced_run(x, row, rate, c[i].dir, &pc);
		if (rc == -EINTR)
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
	return rc;
}

