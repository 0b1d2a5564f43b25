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
		snprintf(buf, len, "too short to look for a cliff: %.0f whole seconds of writing, "
			 "%u needed", secs, SM_CLIFF_MIN_SAMPLES);
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
