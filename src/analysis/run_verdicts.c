/* SPDX-License-Identifier: MIT */
/* The run's verdict table: computed cells, the order of paced runs, and
 * what a paced run settles at the other rates of its format. */
#include "analysis/run.h"
#include "analysis/verdict.h"
#include "analysis/frames.h"

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

/* What the points of direction d are made of. */
enum pts_kind {
	PTS_SUSTAINED,   /* what lasts: after a cliff, its sustained rate; no
			  * test above the 2K test's bytes per second (the
			  * sustained write or read the Summary reports) */
	PTS_BURST,       /* every test's own rate (a cliff's burst for the
			  * test that found it) */
	PTS_WORST,       /* each test's slowest whole second, under the same
			  * cap as PTS_SUSTAINED */
};

/* The bytes per second no capture (playback) point may pass: the 2K
 * write's (after a cliff, its sustained rate) or the 2K read's; 0 when
 * that test was not measured. */
static double cap_of(const struct sm_run_result *res, int d)
{
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_frametest *t = &res->sizes[i].t[d];

		if (strcmp(res->sizes[i].preset, SM_RUN_SUSTAINED_PRESET) || !t->measured)
			continue;
		if (d == SM_DIR_CAPTURE && t->cliff.found)
			return t->cliff.sustained_bytes_per_s;
		return t->bytes_per_s;
	}
	return 0;
}

/* The measured points of direction d of kind k. Returns how many; *short_
 * (PTS_WORST) is set when a test had no whole second. */
static unsigned points(const struct sm_run_result *res, int d, enum pts_kind k,
		       struct sm_rate_point *pts, int *short_)
{
	int si = d == SM_DIR_CAPTURE ? sm_run_sustained(res) : -1;
	const struct sm_cliff *c = si >= 0 ? &res->sizes[si].t[SM_DIR_CAPTURE].cliff : NULL;
	double cap;
	unsigned n = 0;

	if (c && !c->found)
		c = NULL;
	/* the burst is its own only after a cliff; without one it is what
	 * lasts */
	cap = (k == PTS_BURST && c) || !res->sustained_basis ? 0 : cap_of(res, d);
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];
		const struct sm_run_frametest *t = &s->t[d];
		double fb = (double)s->frame_bytes;

		if (!t->measured || !s->frame_bytes)
			continue;
		pts[n].frame_bytes = s->frame_bytes;
		pts[n].fps = t->fps;
		if (c && (int)i == si)
			pts[n].fps = (k == PTS_BURST ? c->burst_bytes_per_s : c->sustained_bytes_per_s) / fb;
		if (k == PTS_WORST) {
			double w = sm_frames_worst_second(t->series, t->nseries);

			if (w < 0) {
				*short_ = 1;
				w = 0;
			}
			if (w / fb < pts[n].fps)
				pts[n].fps = w / fb;
		}
		if (cap > 0 && pts[n].fps * fb > cap)
			pts[n].fps = cap / fb;
		n++;
	}
	return n;
}

/* The longest stall of direction d's tests that a buffer of buffer_ns does
 * not ride out (longer than the buffer and than the test's own threshold,
 * which its frames explain), or 0. */
static uint64_t stall_past(const struct sm_run_result *res, int d, uint64_t buffer_ns)
{
	uint64_t worst = 0;

	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_stalls *st = &res->sizes[i].t[d].stalls;

		if (!res->sizes[i].t[d].measured || !st->measured)
			continue;
		if (st->longest_ns > buffer_ns && st->longest_ns > st->threshold_ns &&
		    st->longest_ns > worst)
			worst = st->longest_ns;
	}
	return worst;
}

void sm_run_compute_verdicts(struct sm_run_result *res)
{
	for (int d = 0; d < 2; d++) {
		struct sm_rate_point pts[SM_RUN_NSIZES], bpts[SM_RUN_NSIZES], wpts[SM_RUN_NSIZES];
		int no_second = 0, si = sm_run_sustained(res);
		unsigned n = points(res, d, PTS_SUSTAINED, pts, NULL);
		unsigned nb = points(res, d, PTS_BURST, bpts, NULL);
		unsigned nw = points(res, d, PTS_WORST, wpts, &no_second);
		uint64_t largest = 0;
		int looked = si >= 0 && res->sizes[si].t[SM_DIR_CAPTURE].cliff.looked;
		int cliff_found = d == SM_DIR_CAPTURE && si >= 0 &&
				  res->sizes[si].t[SM_DIR_CAPTURE].cliff.found;

		for (unsigned i = 0; i < n; i++)
			if (pts[i].frame_bytes > largest)
				largest = pts[i].frame_bytes;
		for (unsigned r = 0; r < res->nrows; r++) {
			struct sm_run_row *row = &res->rows[r];
			double fb = (double)row->fmt.frame_bytes;
			double fps = sm_rate_model_fps(pts, n, row->fmt.frame_bytes);
			double bfps = sm_rate_model_fps(bpts, nb, row->fmt.frame_bytes);
			double wfps = no_second ? 0 : sm_rate_model_fps(wpts, nw, row->fmt.frame_bytes);

			for (unsigned k = 0; k < res->plan.nrates; k++) {
				struct sm_verdict_cell *c = &row->cell[d][k];
				double rate = sm_fps_value(res->plan.rates[k]);

				sm_verdict_cell_init(c, fps * fb,
						     sm_format_rate(&row->fmt, res->plan.rates[k]));
				c->burst_measured = bfps * fb;
				/* only a cliff found downgrades (the 2K cap is
				 * what the run reports as sustained, not a fall) */
				c->cliff = cliff_found &&
					   sm_verdict_compute(c->burst_measured, c->needed) >
						   c->computed;
				if (!res->sustained_basis)
					continue;   /* a result saved before these rules */
				c->basis_known = 1;
				c->worst_measured = wfps * fb;
				c->buffer_ns = rate > 0 ? (uint64_t)((double)res->plan.queue * 1e9 / rate) : 0;
				c->stall_ns = stall_past(res, d, c->buffer_ns);
				if (c->stall_ns)
					c->basis |= SM_BASIS_STALL;
				if (d == SM_DIR_CAPTURE && !looked)
					c->basis |= SM_BASIS_SHORT;
				if (!(c->worst_measured >= c->needed))
					c->basis |= SM_BASIS_DIP;
				if (row->fmt.frame_bytes > largest)
					c->basis |= SM_BASIS_EXTRAPOLATED;
				sm_verdict_cell_settle(c);
			}
		}
	}
}

unsigned sm_run_cap_to_job(struct sm_run_result *res, const double job[2][SM_RUN_NSIZES],
			   unsigned ranks)
{
	unsigned lowered = 0;

	if (!ranks)
		return 0;
	for (int d = 0; d < 2; d++) {
		struct sm_rate_point pts[SM_RUN_NSIZES];
		unsigned n = 0;

		for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
			if (job[d][i] > 0 && res->sizes[i].frame_bytes) {
				pts[n].frame_bytes = res->sizes[i].frame_bytes;
				pts[n].fps = job[d][i] / ranks / (double)res->sizes[i].frame_bytes;
				n++;
			}
		if (!n)
			continue;
		for (unsigned r = 0; r < res->nrows; r++) {
			double share = sm_rate_model_fps(pts, n, res->rows[r].fmt.frame_bytes) *
				       (double)res->rows[r].fmt.frame_bytes;

			for (unsigned k = 0; k < res->plan.nrates; k++) {
				struct sm_verdict_cell *c = &res->rows[r].cell[d][k];

				if (!(share < c->measured))
					continue;
				c->measured = share;
				c->ratio = c->needed > 0 ? share / c->needed : 0;
				c->computed = sm_verdict_compute(share, c->needed);
				c->near_limit = sm_verdict_near_limit(share, c->needed);
				if (c->worst_measured > share)
					c->worst_measured = share;
				if (c->burst_measured > share)
					c->burst_measured = share;
				c->cliff = sm_verdict_compute(c->burst_measured, c->needed) > c->computed;
				sm_verdict_cell_settle(c);
				lowered++;
			}
		}
	}
	return lowered;
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

				/* a stall already decided it; an unconfirmed cell
				 * waits for one as a near-limit one does */
				if ((!cell->near_limit && !all &&
				     cell->final != SM_VERDICT_UNCONFIRMED) ||
				    cell->cliff || (cell->basis & SM_BASIS_STALL))
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
		if (o->computed == (enum sm_verdict)v && !o->near_limit &&
		    o->final != SM_VERDICT_UNCONFIRMED)
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
				n += res->rows[r].cell[d][k].near_limit && !res->rows[r].cell[d][k].cliff &&
				     !(res->rows[r].cell[d][k].basis & SM_BASIS_STALL);
	return n;
}
