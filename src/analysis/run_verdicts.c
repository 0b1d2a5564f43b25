/* SPDX-License-Identifier: MIT */
/* The run's verdict table: computed cells, the order of paced runs, and
 * what a paced run settles at the other rates of its format. */
#include "analysis/run.h"
#include "analysis/verdict.h"

#include <math.h>
#include <stdlib.h>

void sm_run_compute_verdicts(struct sm_run_result *res)
{
	for (int d = 0; d < 2; d++) {
		struct sm_rate_point pts[SM_RUN_NSIZES];
		unsigned n = 0;

		for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
			if (!res->sizes[i].t[d].measured)
				continue;
			pts[n].frame_bytes = res->sizes[i].frame_bytes;
			pts[n].fps = res->sizes[i].t[d].fps;
			n++;
		}
		for (unsigned r = 0; r < res->nrows; r++) {
			struct sm_run_row *row = &res->rows[r];
			double fps = sm_rate_model_fps(pts, n, row->fmt.frame_bytes);

			for (unsigned k = 0; k < res->plan.nrates; k++)
				sm_verdict_cell_init(&row->cell[d][k],
						     fps * (double)row->fmt.frame_bytes,
						     sm_format_rate(&row->fmt, res->plan.rates[k]));
		}
	}
}

static int cand_cmp(const void *a, const void *b)
{
	const struct sm_run_cand *p = a, *q = b;

	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	if (p->row != q->row)
		return p->row < q->row ? -1 : 1;
	if (p->dir != q->dir)
		return p->dir < q->dir ? -1 : 1;
	return p->rate < q->rate ? -1 : p->rate > q->rate;
}

unsigned sm_run_candidates(const struct sm_run_result *res, int all, struct sm_run_cand *out)
{
	unsigned n = 0;

	for (unsigned r = 0; r < res->nrows; r++)
		for (int d = 0; d < 2; d++)
			for (unsigned k = 0; k < res->plan.nrates; k++) {
				const struct sm_verdict_cell *cell = &res->rows[r].cell[d][k];

				if (!cell->near_limit && !all)
					continue;
				out[n].row = r;
				out[n].rate = k;
				out[n].dir = (enum sm_direction)d;
				/* nothing measured: log(0) is -inf, so last */
				out[n].key = fabs(log(cell->measured / cell->needed / 1.1));
				n++;
			}
	qsort(out, n, sizeof(*out), cand_cmp);
	return n;
}

unsigned sm_run_propagate(struct sm_run_result *res, const struct sm_run_cand *c,
			  const struct sm_paced *pc)
{
	struct sm_run_row *row = &res->rows[c->row];
	double f = sm_fps_value(res->plan.rates[c->rate]);
	enum sm_verdict v = row->cell[c->dir][c->rate].final;
	unsigned changed = 0;

	if (v == SM_VERDICT_MARGINAL)
		return 0;
	for (unsigned k = 0; k < res->plan.nrates; k++) {
		struct sm_verdict_cell *o = &row->cell[c->dir][k];
		double g = sm_fps_value(res->plan.rates[k]);

		if (k == c->rate || o->how == SM_HOW_PACED)
			continue;
		/* a higher rate needs more, a lower one less: only those follow */
		if (!((v == SM_VERDICT_NOT_REALTIME && g > f) ||
		      (v == SM_VERDICT_REALTIME && g < f)))
			continue;
		/* a computed verdict that already says so, far from the limit,
		 * needs no confirming */
		if (o->final == v && !o->near_limit)
			continue;
		o->final = v;
		o->how = SM_HOW_PACED;
		o->paced = *pc;
		changed++;
	}
	return changed;
}

unsigned sm_run_count_near(const struct sm_run_result *res)
{
	unsigned n = 0;

	for (unsigned r = 0; r < res->nrows; r++)
		for (int d = 0; d < 2; d++)
			for (unsigned k = 0; k < res->plan.nrates; k++)
				n += res->rows[r].cell[d][k].near_limit != 0;
	return n;
}
