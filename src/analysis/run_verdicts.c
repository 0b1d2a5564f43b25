/* SPDX-License-Identifier: MIT */
/* The run's verdict table: computed cells, the order of paced runs, and
 * what a paced run settles at the other rates of its format. */
#include "analysis/run.h"
#include "analysis/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sm_run_sustained(const struct sm_run_result *res)
{
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		if (!strcmp(res->sizes[i].preset, SM_RUN_SUSTAINED_PRESET))
			return res->sizes[i].t[SM_DIR_CAPTURE].measured ? (int)i : -1;
	return -1;
}

/* The measured points of direction d: burst = 1, every test's own rate (a
 * cliff's burst for the test that found it); burst = 0, what lasts: after a
 * cliff, its test's sustained rate, and no test above that many bytes per
 * second. Returns how many. */
static unsigned points(const struct sm_run_result *res, int d, int burst,
		       struct sm_rate_point *pts)
{
	int si = d == SM_DIR_CAPTURE ? sm_run_sustained(res) : -1;
	const struct sm_cliff *c = si >= 0 ? &res->sizes[si].t[SM_DIR_CAPTURE].cliff : NULL;
	unsigned n = 0;

	if (c && !c->found)
		c = NULL;
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];
		double fb = (double)s->frame_bytes;

		if (!s->t[d].measured || !s->frame_bytes)
			continue;
		pts[n].frame_bytes = s->frame_bytes;
		pts[n].fps = s->t[d].fps;
		if (c && (int)i == si)
			pts[n].fps = (burst ? c->burst_bytes_per_s : c->sustained_bytes_per_s) / fb;
		else if (c && !burst && pts[n].fps * fb > c->sustained_bytes_per_s)
			pts[n].fps = c->sustained_bytes_per_s / fb;
		n++;
	}
	return n;
}

void sm_run_compute_verdicts(struct sm_run_result *res)
{
	for (int d = 0; d < 2; d++) {
		struct sm_rate_point pts[SM_RUN_NSIZES], bpts[SM_RUN_NSIZES];
		unsigned n = points(res, d, 0, pts), nb = points(res, d, 1, bpts);

		for (unsigned r = 0; r < res->nrows; r++) {
			struct sm_run_row *row = &res->rows[r];
			double fb = (double)row->fmt.frame_bytes;
			double fps = sm_rate_model_fps(pts, n, row->fmt.frame_bytes);
			double bfps = sm_rate_model_fps(bpts, nb, row->fmt.frame_bytes);

			for (unsigned k = 0; k < res->plan.nrates; k++) {
				struct sm_verdict_cell *c = &row->cell[d][k];

				sm_verdict_cell_init(c, fps * fb,
						     sm_format_rate(&row->fmt, res->plan.rates[k]));
				c->burst_measured = bfps * fb;
				c->cliff = sm_verdict_compute(c->burst_measured, c->needed) >
					   c->computed;
			}
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

				if ((!cell->near_limit && !all) || cell->cliff)
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
	int v = sm_verdict_paced(pc);
	unsigned changed = 0;

	/* held-tight (or no outcome) says nothing of the other rates */
	if (v != SM_VERDICT_REALTIME && v != SM_VERDICT_NOT_REALTIME)
		return 0;
	for (unsigned k = 0; k < res->plan.nrates; k++) {
		struct sm_verdict_cell *o = &row->cell[c->dir][k];
		double g = sm_fps_value(res->plan.rates[k]);

		if (k == c->rate || sm_verdict_cell_outcome(o) >= 0 ||
		    (o->cliff && v == SM_VERDICT_REALTIME))
			continue;
		/* a higher rate needs more, a lower one less: only those follow */
		if (!((v == SM_VERDICT_NOT_REALTIME && g > f) ||
		      (v == SM_VERDICT_REALTIME && g < f)))
			continue;
		/* a computed verdict that already says so, far from the limit,
		 * needs no confirming */
		if (o->computed == (enum sm_verdict)v && !o->near_limit)
			continue;
		sm_verdict_cell_confirm(o, pc);
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
				n += res->rows[r].cell[d][k].near_limit && !res->rows[r].cell[d][k].cliff;
	return n;
}
