/* SPDX-License-Identifier: MIT */
/* The hosts and ranks section of a many-host job's HTML report (html.h):
 * the figures of the text table (report/dist.c), as tables. */
#include "report/html.h"
#include "report/html_page.h"
#include "analysis/dist.h"

#define MIB (1024.0 * 1024.0)

static void hosts(FILE *f, const struct sm_dist_result *d)
{
	fputs("<table id=\"mpi-hosts\"><tr><th>host</th><th>ranks</th><th>done s</th><th>bytes</th>"
	      "<th>MiB/s</th><th>status</th></tr>\n", f);
	for (unsigned i = 0; i < d->nhosts; i++) {
		const struct sm_dist_host *h = &d->host[i];

		fputs("<tr><td>", f);
		sm_html_text(f, h->host);
		fprintf(f, "</td><td>%u</td><td>%.3f</td><td>%llu</td><td>%.2f</td><td>%s", h->ranks,
			(double)h->done_ns / 1e9, (unsigned long long)h->bytes, h->bytes_per_s / MIB,
			h->straggler ? "STRAGGLER" : h->reported == h->ranks ? "ok" : "");
		if (h->reported != h->ranks)
			fprintf(f, "%s%u of %u ranks missing", h->straggler ? ", " : "", h->ranks - h->reported,
				h->ranks);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void ranks(FILE *f, const struct sm_dist_result *d)
{
	fputs("<table id=\"mpi-ranks\"><tr><th>rank</th><th>host</th><th>done s</th><th>bytes</th>"
	      "<th>items</th><th>MiB/s</th><th>status</th></tr>\n", f);
	for (unsigned i = 0; i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];

		if (!r->listed)
			continue;
		fprintf(f, "<tr><td>%d</td><td>", r->rank);
		sm_html_text(f, r->host);
		if (!r->reported) {
			fputs("</td><td>-</td><td>-</td><td>-</td><td>-</td><td>no result: ", f);
		} else {
			fprintf(f, "</td><td>%.3f</td><td>%llu</td><td>%llu</td><td>%.2f</td><td>%s%s",
				(double)r->done_ns / 1e9, (unsigned long long)r->bytes, (unsigned long long)r->items,
				r->bytes_per_s / MIB, r->failed ? "failed" : r->straggler ? "STRAGGLER" :
				r->walled ? "stopped by the stonewall" : "ok", r->failed ? ": " : "");
		}
		if (!r->reported || r->failed)
			sm_html_text(f, r->error);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (d->nlisted < sm_dist_size(d))
		sm_html_note(f, NULL, "%u of %u ranks listed: the first failed or silent, the slowest stragglers, "
			     "the slowest and the fastest; %u failed, %u sent nothing, %u stragglers.", d->nlisted,
			     sm_dist_size(d), d->nfailed, d->nsilent, d->stragglers);
}

void sm_html_dist(FILE *f, const struct sm_dist_result *d)
{
	sm_html_section(f, "mpi", "Hosts and ranks (MPI job)");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "job", "%u rank%s on %u host%s, %u reported%s", sm_dist_size(d), sm_dist_size(d) == 1 ? "" : "s",
		   d->nhosts, d->nhosts == 1 ? "" : "s", d->nreported,
		   d->stonewall ? "; stonewall: all stopped when the first was done" : "");
	if (d->nreported) {
		sm_html_kv(f, "first done", "rank %d at %.3f s (from the start barrier)", d->first_rank,
			   (double)d->first_done_ns / 1e9);
		sm_html_kv(f, "last done", "%.3f s", (double)d->last_done_ns / 1e9);
		sm_html_kv(f, "aggregate", "%.2f MiB/s (all ranks' data over the last done)", d->bytes_per_s / MIB);
		sm_html_kv(f, "stonewall", "%.2f MiB/s (the least a rank moved x %u ranks, over the first done)",
			   d->stonewall_bytes_per_s / MIB, d->nreported);
	}
	sm_html_kv_end(f);
	hosts(f, d);
	ranks(f, d);
	if (d->stragglers)
		sm_html_note(f, NULL, "STRAGGLER: a rate below %.0f%% of the median rank's (%.2f MiB/s).",
			     SM_DIST_STRAGGLER * 100, d->median_bytes_per_s / MIB);
	sm_html_section_end(f);
}
