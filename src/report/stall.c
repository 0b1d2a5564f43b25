/* SPDX-License-Identifier: MIT */
/* Stalls in words and as chart spans. */
#include "report/stall.h"
#include "core/units.h"
#include "result/run.h"

#include <stdio.h>

char *sm_report_stall_words(char *buf, size_t len, const struct sm_stalls *s)
{
	char th[32], lg[32];

	buf[0] = '\0';
	if (!s->measured)
		return buf;
	sm_fmt_ns(th, sizeof(th), (double)s->threshold_ns);
	if (!s->count) {
		snprintf(buf, len, "no stall longer than %s (the longest gap %s)", th,
			 sm_fmt_ns(lg, sizeof(lg), (double)s->longest_ns));
		return buf;
	}
	snprintf(buf, len, "completed nothing for %.2f s at %.1f s, the longest of %s%llu stall%s "
		 "longer than %s", (double)s->longest_ns / 1e9,
		 s->nkept ? (double)s->kept[0].at_ns / 1e9 : 0.0, s->count_capped ? "at least " : "",
		 (unsigned long long)s->count, s->count == 1 && !s->count_capped ? "" : "s", th);
	return buf;
}

unsigned sm_report_stall_spans(const struct sm_stalls *s, double *from, double *to)
{
	unsigned n = 0;

	for (unsigned i = 0; s->measured && i < s->nkept; i++)
		if (s->kept[i].len_ns > s->threshold_ns) {
			from[n] = (double)s->kept[i].at_ns / 1e9;
			to[n] = (double)(s->kept[i].at_ns + s->kept[i].len_ns) / 1e9;
			n++;
		}
	return n;
}

char *sm_report_run_classic_stall_line(char *buf, size_t len, const struct sm_run_result *res,
				       unsigned i, int w)
{
	const struct sm_run_classic *c = &res->classic[i];
	char words[256];

	buf[0] = '\0';
	if (!c->label[0] || !c->measured[w] || !c->res[w].stalls.measured || !c->res[w].stalls.count)
		return buf;
	snprintf(buf, len, "stall: the block test %s %s %s", c->label, w ? "write" : "read",
		 sm_report_stall_words(words, sizeof(words), &c->res[w].stalls));
	return buf;
}

char *sm_report_run_stall_line(char *buf, size_t len, const struct sm_run_result *res,
			       unsigned i, int d)
{
	const struct sm_run_frametest *t = &res->sizes[i].t[d];
	char words[256];

	buf[0] = '\0';
	if (!t->measured || !t->stalls.measured || !t->stalls.count)
		return buf;
	snprintf(buf, len, "stall: the %s %s %s", res->sizes[i].preset, d ? "read" : "write",
		 sm_report_stall_words(words, sizeof(words), &t->stalls));
	return buf;
}
