/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s rates and the sequence estimate (analysis/meta.h). */
#include "analysis/meta.h"

#include "core/clock.h"

void sm_meta_analyse(struct sm_meta_result *r)
{
	for (int p = 0; p < SM_META_NPHASES; p++) {
		struct sm_meta_phase_fig *f = &r->ph[p];

		f->per_s = f->ran ? sm_per_s((double)f->op.count, f->duration_ns) : 0;
		if (!r->ranks || !f->ran)
			continue;
		/* an MPI job: what all ranks had done when the first was done */
		f->first_done_count = sm_hist_count_le(&f->done_at, f->first_done_ns);
		if (f->first_done_count > f->op.count)
			f->first_done_count = f->op.count;
		f->first_done_per_s = sm_per_s((double)f->first_done_count, f->first_done_ns);
	}
}

int sm_meta_merge(struct sm_meta_result *dst, const struct sm_meta_result *src)
{
	for (int p = 0; p < SM_META_NPHASES; p++) {
		struct sm_meta_phase_fig *d = &dst->ph[p];
		const struct sm_meta_phase_fig *s = &src->ph[p];

		if (!s->ran)
			continue;
		if (!d->ran) {
			*d = *s;
			continue;
		}
		sm_opstat_merge(&d->op, &s->op);
		sm_hist_merge(&d->done_at, &s->done_at);
		if (s->duration_ns > d->duration_ns)
			d->duration_ns = s->duration_ns;
		if (s->first_done_ns < d->first_done_ns)
			d->first_done_ns = s->first_done_ns;
	}
	dst->created += src->created;
	dst->cleaned &= src->cleaned;   /* (each rank's failure is its row of the rank table) */
	return 0;
}

/* frames over a phase's rate, in ns; 0 when it has none. */
static double over(const struct sm_meta_phase_fig *f, uint64_t frames)
{
	return f->ran && f->per_s > 0 && !f->op.errors ? (double)frames / f->per_s * 1e9 : 0;
}

int sm_meta_sequence_ns(const struct sm_meta_result *r, uint64_t frames, double *list_ns,
			double *probe_ns)
{
	double st = over(&r->ph[SM_META_STAT], frames), pr = over(&r->ph[SM_META_PROBE], frames);

	if (r->ranks) {   /* an MPI job's rates are all ranks' together, not one client's */
		*list_ns = *probe_ns = 0;
		return 0;
	}

	*list_ns = over(&r->ph[SM_META_LIST], frames);
	*probe_ns = st > 0 && pr > 0 ? st + pr : 0;
	return *list_ns > 0 && *probe_ns > 0;
}
