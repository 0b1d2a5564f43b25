/* SPDX-License-Identifier: MIT */
/* A write rate's cliff in words. */
#include "report/cliff.h"
#include "analysis/cliff.h"
#include "core/units.h"

#include <stdio.h>

char *sm_report_cliff_words(char *buf, size_t len, const struct sm_cliff *c)
{
	char a[32], b[32], w[32];
	double secs = (double)c->samples * (double)c->interval_ns / 1e9;

	if (!c->looked) {
		snprintf(buf, len, "too short to look for a cliff: %.0f whole second%s of writing, "
			 "%u needed", secs, secs == 1 ? "" : "s", SM_CLIFF_MIN_SAMPLES);
	} else if (!c->found) {
		snprintf(buf, len, "no cliff in the write rate over %.0f s", secs);
	} else {
		snprintf(buf, len, "the write rate fell from %s/s to %s/s (%.2f of it) at %.1f s, "
			 "after %s written; the whole run's rate mixes the two",
			 sm_fmt_bytes(a, sizeof(a), c->burst_bytes_per_s),
			 sm_fmt_bytes(b, sizeof(b), c->sustained_bytes_per_s), c->ratio,
			 (double)c->at_ns / 1e9, sm_fmt_bytes(w, sizeof(w), (double)c->bytes_at));
	}
	return buf;
}

char *sm_report_run_cliff_note(char *buf, size_t len, const struct sm_run_result *res)
{
	const struct sm_run_derived *dv = &res->derived;
	const struct sm_cliff *c;
	char a[32], b[32], w[32];

	if (dv->sustained_size < 0) {
		snprintf(buf, len, "capture: no sustained write was measured, so no cliff could be "
			 "looked for; capture verdicts may be the burst's");
		return buf;
	}
	c = &res->sizes[dv->sustained_size].t[SM_DIR_CAPTURE].cliff;
	if (c->found)
		snprintf(buf, len, "! = downgraded by a cliff: the sustained 2K write fell from "
			 "%s/s to %s/s at %.1f s (after %s written), so capture verdicts use the "
			 "sustained rate; the burst alone would have rated %u cell%s higher",
			 sm_fmt_bytes(a, sizeof(a), c->burst_bytes_per_s),
			 sm_fmt_bytes(b, sizeof(b), c->sustained_bytes_per_s), (double)c->at_ns / 1e9,
			 sm_fmt_bytes(w, sizeof(w), (double)c->bytes_at), dv->cliff_downgraded,
			 dv->cliff_downgraded == 1 ? "" : "s");
	else if (c->looked)
		snprintf(buf, len, "capture: no cliff in the sustained 2K write's rate over %u s",
			 c->samples);
	else
		snprintf(buf, len, "capture: the sustained 2K write was too short to look for a "
			 "cliff (--time %u s or more)", SM_RUN_CLIFF_MIN_TIME_S);
	return buf;
}
