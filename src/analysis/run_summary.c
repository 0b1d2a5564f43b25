/* SPDX-License-Identifier: MIT */
/* The figures the run reporters print beyond the measurements: classic
 * rates and p99, the best format per direction, and what the summary
 * remarks on. */
#include "analysis/run.h"
#include "analysis/verdict.h"

#include <string.h>

int sm_run_best(const struct sm_run_result *res, enum sm_direction dir, unsigned *row,
		unsigned *rate)
{
	double best = -1;

	for (unsigned r = 0; r < res->nrows; r++)
		for (unsigned k = 0; k < res->plan.nrates; k++) {
			const struct sm_verdict_cell *c = &res->rows[r].cell[dir][k];

			if (c->final == SM_VERDICT_REALTIME && c->needed > best) {
				best = c->needed;
				*row = r;
				*rate = k;
			}
		}
	return best < 0 ? -1 : 0;
}

/* The highest-need marginal cell of dir needing more than `above` bytes/s. */
static int best_marginal(const struct sm_run_result *res, enum sm_direction dir, double above,
			 unsigned *row, unsigned *rate)
{
	double best = above;
	int found = -1;

	for (unsigned r = 0; r < res->nrows; r++)
		for (unsigned k = 0; k < res->plan.nrates; k++) {
			const struct sm_verdict_cell *c = &res->rows[r].cell[dir][k];

			if (c->final == SM_VERDICT_MARGINAL && c->needed > best) {
				best = c->needed;
				*row = r;
				*rate = k;
				found = 0;
			}
		}
	return found;
}

/* Settle every cell again from what it holds (a saved result's too) and
 * gather its paced runs' lengths. */
static void settle_cells(struct sm_run_result *res, struct sm_run_derived *d)
{
	for (unsigned r = 0; r < res->nrows; r++)
		for (int dir = 0; dir < 2; dir++)
			for (unsigned k = 0; k < res->plan.nrates; k++) {
				struct sm_verdict_cell *c = &res->rows[r].cell[dir][k];
				const struct sm_paced *p = &c->paced;
				int v = sm_verdict_cell_outcome(c);

				sm_verdict_cell_settle(c);
				d->unconfirmed += c->final == SM_VERDICT_UNCONFIRMED;
				if (c->basis & SM_BASIS_STALL) {
					d->stall_cells[dir]++;
					if (c->stall_ns > d->stall_ns[dir])
						d->stall_ns[dir] = c->stall_ns;
				}
				if (v < 0)
					continue;
				if (!d->paced_cells++ || p->length_ns < d->paced_min_ns)
					d->paced_min_ns = p->length_ns;
				if (p->length_ns > d->paced_max_ns)
					d->paced_max_ns = p->length_ns;
				if (d->paced_cells == 1 || p->scheduled < d->paced_min_frames)
					d->paced_min_frames = p->scheduled;
				if (p->scheduled > d->paced_max_frames)
					d->paced_max_frames = p->scheduled;
				d->held_below_need += v != SM_VERDICT_NOT_REALTIME &&
						      c->computed == SM_VERDICT_NOT_REALTIME;
			}
	d->paced_short = d->paced_cells && d->paced_max_ns < SM_RUN_PACED_LONG_NS;
}

void sm_run_classic_figures(struct sm_run_classic *c, int w)
{
	const struct sm_blockio_result *r = &c->res[w];
	struct sm_run_classic_fig *f = &c->fig[w];

	memset(f, 0, sizeof(*f));
	if (!c->measured[w])
		return;
	f->valid = r->op.lat.count > 0;
	f->bytes_per_s = sm_blockio_bytes_per_s(r);
	f->iops = sm_blockio_iops(r);
	f->p99_ns = sm_hist_percentile(&r->op.lat, 99);
	if (r->stalls.measured) {
		/* a gap its own requests do not explain (as fileio's: twice
		 * the median request, at least 100 ms) */
		uint64_t th = 2 * sm_hist_percentile(&r->op.lat, 50);

		sm_stalls_count(&c->res[w].stalls, th > SM_STALL_UNPACED_MIN_NS ? th : SM_STALL_UNPACED_MIN_NS);
	}
}

void sm_run_analyse(struct sm_run_result *res)
{
	struct sm_run_derived *d = &res->derived;

	memset(d, 0, sizeof(*d));
	settle_cells(res, d);
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		struct sm_run_classic *c = &res->classic[i];

		if (!c->label[0])
			continue;
		for (int w = 0; w < 2; w++)
			if (c->measured[w] && c->res[w].depth < c->depth)
				d->queued_fallback = 1;
	}
	d->ref_size = -1;
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];

		d->frames_measured |= s->t[0].measured || s->t[1].measured;
		if (!strcmp(s->preset, "2k"))
			d->ref_size = s->t[0].measured && s->t[1].measured ? (int)i : -1;
	}
	d->verdicts_ready = d->frames_measured && res->reached >= SM_PHASE_VERDICTS;
	for (int dir = 0; dir < 2; dir++) {
		struct sm_run_best *b = &d->best[dir], *m = &d->marginal[dir];

		b->found = d->verdicts_ready &&
			sm_run_best(res, (enum sm_direction)dir, &b->row, &b->rate) == 0;
		m->found = d->verdicts_ready &&
			best_marginal(res, (enum sm_direction)dir,
				      b->found ? res->rows[b->row].cell[dir][b->rate].needed : 0,
				      &m->row, &m->rate) == 0;
	}
	for (unsigned i = 0; i < res->head.warnings.count; i++)
		if (!strcmp(res->head.warnings.item[i].code, "small_working_set"))
			d->small_working_set = 1;
		else if (!strcmp(res->head.warnings.item[i].code, "frame_test_skipped"))
			d->frames_skipped = 1;
	d->short_run = res->plan.time_ns < SM_RUN_ROUGH_NS;
	d->sustained_size = sm_run_sustained(res);
	if (d->sustained_size >= 0) {
		const struct sm_cliff *c = &res->sizes[d->sustained_size].t[SM_DIR_CAPTURE].cliff;

		d->cliff_found = c->found;
		d->cliff_unlooked = !c->looked;
	}
	for (unsigned r = 0; d->verdicts_ready && r < res->nrows; r++)
		for (unsigned k = 0; k < res->plan.nrates; k++)
			d->cliff_downgraded += res->rows[r].cell[SM_DIR_CAPTURE][k].cliff != 0;
}
