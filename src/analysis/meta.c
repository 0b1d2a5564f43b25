/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s rates and the sequence estimate (analysis/meta.h). */
#include "analysis/meta.h"

#include "core/clock.h"

void sm_meta_analyse(struct sm_meta_result *r)
{
	for (int p = 0; p < SM_META_NPHASES; p++) {
		struct sm_meta_phase_fig *f = &r->ph[p];

		f->per_s = f->ran ? sm_per_s((double)f->op.count, f->duration_ns) : 0;
	}
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

	*list_ns = over(&r->ph[SM_META_LIST], frames);
	*probe_ns = st > 0 && pr > 0 ? st + pr : 0;
	return *list_ns > 0 && *probe_ns > 0;
}
