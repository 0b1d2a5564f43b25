/* SPDX-License-Identifier: MIT */
/* The comparison as an HTML page: both sides on the same bar charts, the
 * verdict cells coloured, the whole table; a pure function of struct
 * sm_cmp (analysis/compare.c), drawn with report/html_page.c. */
#include "report/compare.h"
#include "report/html_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BARS 24

/* Does figure r belong on the chart of unit u (latency: p50, p99, p99.9)? */
static int on_chart(const struct sm_cmp_row *r, enum sm_cmp_unit u)
{
	size_t n = strlen(r->name);

	if (r->unit != u || !r->na || !r->nb)
		return 0;
	if (u != SM_CU_NS)
		return 1;
	return (n > 4 && !strcmp(r->name + n - 4, ".p50")) || (n > 4 && !strcmp(r->name + n - 4, ".p99")) ||
	       (n > 6 && !strcmp(r->name + n - 6, ".p99_9"));
}

/* One bar chart of A and B for the figures of unit u, in the unit's scale
 * (MiB/s, per second, ms or us); nothing when no figure has both sides. */
static void bars(FILE *f, const struct sm_cmp *c, enum sm_cmp_unit u, const char *id,
		 const char *title)
{
	const char *labels[MAX_BARS], *names[2] = { "A", "B" }, *ylabel;
	double va[MAX_BARS], vb[MAX_BARS], sa[MAX_BARS], sb[MAX_BARS], max = 0, scale = 1;
	struct sm_html_bars ch = { 0 };
	size_t n = 0;

	for (unsigned i = 0; i < c->nrows && n < MAX_BARS; i++)
		if (on_chart(&c->rows[i], u)) {
			labels[n] = c->rows[i].label;
			va[n] = c->rows[i].mean_a;
			vb[n] = c->rows[i].mean_b;
			sa[n] = c->rows[i].sd_a;
			sb[n] = c->rows[i].sd_b;
			max = fmax(max, fmax(va[n], vb[n]));
			n++;
		}
	if (!n)
		return;
	if (u == SM_CU_BPS) {
		scale = 1048576.0;
		ylabel = "MiB/s";
	} else if (u == SM_CU_NS) {
		scale = max >= 1e6 ? 1e6 : 1e3;
		ylabel = max >= 1e6 ? "ms" : "us";
	} else {
		ylabel = "per second";
	}
	for (size_t i = 0; i < n; i++) {
		va[i] /= scale;
		vb[i] /= scale;
		sa[i] /= scale;
		sb[i] /= scale;
	}
	ch.id = id;
	ch.title = title;
	ch.xlabel = "figure";
	ch.ylabel = ylabel;
	ch.n = n;
	ch.labels = labels;
	ch.nbars = 2;
	ch.v[0] = va;
	ch.v[1] = vb;
	ch.spread[0] = sa;
	ch.spread[1] = sb;
	ch.name[0] = names[0];
	ch.name[1] = names[1];
	ch.spread_words = "+/- sd ";
	/* each side's spread over its runs: a side of one run has none */
	ch.note = c->nruns_a > 1 || c->nruns_b > 1 ? "whiskers: mean +/- sd over the side's runs" :
		  "one run a side: no spread to draw";
	sm_html_chart_bars_s(f, &ch);
}

static const char *verdict_class(const char *v)
{
	return !strcmp(v, "realtime") ? "v-yes" : !strcmp(v, "marginal") ? "v-marginal"
	       : !strcmp(v, "not-realtime") ? "v-no" : "";
}

void sm_cmp_print_html(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n, int argc,
		       char **argv)
{
	char title[64], a[64], b[64];
	int verdicts = 0;

	snprintf(title, sizeof(title), "compare: %s runs", c->command);
	sm_html_begin_plain(f, title);
	sm_html_section(f, "sides", "Compared");
	sm_html_kv_begin(f, NULL);
	fputs("<tr><td>command</td><td><code id=\"command-line\">stormark", f);
	for (int i = 0; i < argc; i++) {
		fputc(' ', f);
		sm_html_text(f, argv[i]);
	}
	fputs("</code></td></tr>\n", f);
	sm_html_kv(f, "tool", "stormark %s", SM_VERSION);
	for (int i = 0; i < 2; i++)
		sm_html_kv(f, i ? "B" : "A", "%s '%s': %u result%s, %u run%s",
			   n->is_key[i] ? "key" : "file", n->name[i], i ? c->ndocs_b : c->ndocs_a,
			   (i ? c->ndocs_b : c->ndocs_a) == 1 ? "" : "s", i ? c->nruns_b : c->nruns_a,
			   (i ? c->nruns_b : c->nruns_a) == 1 ? "" : "s");
	sm_html_kv_end(f);
	sm_html_section_end(f);
	if (c->nnotes) {
		sm_html_section(f, "notes", "Differences to keep in mind");
		for (unsigned i = 0; i < c->nnotes; i++)
			sm_html_note(f, "warn", "%s", c->notes[i]);
		sm_html_section_end(f);
	}
	sm_html_section(f, "charts", "A and B on the same charts");
	bars(f, c, SM_CU_BPS, "chart-throughput", "Throughput (means)");
	bars(f, c, SM_CU_RATE, "chart-rates", "Rates (means)");
	bars(f, c, SM_CU_NS, "chart-latency", "Latency p50, p99, p99.9 (means)");
	sm_html_section_end(f);
	for (unsigned i = 0; i < c->nrows; i++)
		verdicts += c->rows[i].unit == SM_CU_VERDICT;
	if (verdicts) {
		sm_html_section(f, "verdicts", "Verdict cells");
		fputs("<table id=\"verdict-table\"><tr><th>cell</th><th>A</th><th>B</th><th></th></tr>\n", f);
		for (unsigned i = 0; i < c->nrows; i++) {
			const struct sm_cmp_row *r = &c->rows[i];

			if (r->unit != SM_CU_VERDICT)
				continue;
			fputs("<tr><td>", f);
			sm_html_text(f, r->label);
			fprintf(f, "</td><td class=\"%s\">", verdict_class(r->verdict_a));
			sm_html_text(f, r->na ? r->verdict_a : "-");
			fprintf(f, "</td><td class=\"%s\">", verdict_class(r->verdict_b));
			sm_html_text(f, r->nb ? r->verdict_b : "-");
			fputs("</td><td>", f);
			sm_html_text(f, !r->na || !r->nb ? "-" : strcmp(r->verdict_a, r->verdict_b)
				     ? "changed" : "same");
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		sm_html_section_end(f);
	}
	sm_html_section(f, "figures", "Every figure");
	fputs("<table id=\"figure-table\"><tr><th>figure</th><th>A</th><th>B</th><th>B/A</th>"
	      "<th>p</th><th></th></tr>\n", f);
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct sm_cmp_row *r = &c->rows[i];

		if (r->unit == SM_CU_VERDICT)
			continue;
		fputs("<tr><td>", f);
		sm_html_text(f, r->label);
		fputs("</td><td>", f);
		sm_html_text(f, r->na ? sm_cmp_fmt(a, sizeof(a), r->unit, r->mean_a) : "-");
		fputs("</td><td>", f);
		sm_html_text(f, r->nb ? sm_cmp_fmt(b, sizeof(b), r->unit, r->mean_b) : "-");
		if (isnan(r->ratio))
			fputs("</td><td>-", f);
		else
			fprintf(f, "</td><td>%.3f", r->ratio);
		if (!r->tested)
			fputs("</td><td>-</td><td>", f);
		else if (isnan(r->w.p))
			fputs("</td><td>no spread</td><td>", f);
		else
			fprintf(f, "</td><td>%.4f</td><td>", r->w.p);
		sm_html_text(f, !r->tested ? "" : !r->significant ? "n.s." : r->change > 0 ? "better"
			     : r->change < 0 ? "worse" : "differs");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	sm_html_note(f, "muted", "A and B are means over each side's runs; B/A their ratio; p is "
		     "Welch's two-sided t-test (both sides with 2 or more runs), significant at "
		     "p < %g. See docs/compare.md.", c->alpha);
	sm_html_section_end(f);
	sm_html_end(f);
}
