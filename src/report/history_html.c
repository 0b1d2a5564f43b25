/* SPDX-License-Identifier: MIT */
/* The trend page of one history key (report/history.h): a pure function
 * of the key's trend (analysis/trend.c) and of compare's comparison of
 * its first and last runs (analysis/compare.c, shown with compare's own
 * cells), drawn with report/html_page.c. */
#include "report/history.h"
#include "report/compare.h"
#include "report/html_page.h"
#include "analysis/trend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The chart's unit for a figure whose largest value is max: the divisor and
 * the y title. */
static double unit_scale(enum sm_cmp_unit u, double max, const char **ylabel)
{
	switch (u) {
	case SM_CU_BPS:
		*ylabel = "MiB/s";
		return 1048576.0;
	case SM_CU_NS:
		*ylabel = max >= 1e9 ? "seconds" : max >= 1e6 ? "ms" : "us";
		return max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : 1e3;
	case SM_CU_BYTES:
		*ylabel = "MiB";
		return 1048576.0;
	case SM_CU_RATE:
		*ylabel = "per second";
		return 1;
	case SM_CU_PCT:
		*ylabel = "percent";
		return 1;
	case SM_CU_MS:
		*ylabel = "ms";
		return 1;
	default:
		*ylabel = "count";
		return 1;
	}
}

static void chart(FILE *f, const struct sm_history_trend *p, unsigned i)
{
	const struct sm_trend_fig *g = &p->t->fig[i];
	unsigned n = p->t->nruns;
	double *y = malloc((n ? n : 1) * sizeof(*y)), max = 0, scale;
	char **tip = calloc(n ? n : 1, sizeof(*tip));
	char id[120], note[160], m[48], s[48], v[48];
	const char *ylabel;
	struct sm_html_trend c = { 0 };

	snprintf(id, sizeof(id), "chart-%s", g->name);
	for (char *q = id; *q; q++)   /* "classic.seq 1 MiB QD8.read": an id of [A-Za-z0-9_-] */
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *q))
			*q = '-';
	if (!y || !tip) {
		sm_html_note(f, "err", "%s: out of memory, not drawn", g->label);
		goto out;
	}
	for (unsigned r = 0; r < n; r++)
		if (!isnan(g->v[r]))
			max = fmax(max, g->v[r]);
	scale = unit_scale(g->unit, fmax(max, g->mean + g->sd), &ylabel);
	for (unsigned r = 0; r < n; r++) {
		y[r] = isnan(g->v[r]) ? NAN : g->v[r] / scale;
		if (!isnan(g->v[r]) && (tip[r] = malloc(160)))
			snprintf(tip[r], 160, "run %u (saved %s): %s", r + 1, p->runs[r].saved_at,
				 sm_cmp_fmt(v, sizeof(v), g->unit, g->v[r]));
	}
	sm_cmp_fmt(m, sizeof(m), g->unit, g->mean);
	if (g->n > 1 && g->sd == 0)
		snprintf(note, sizeof(note), "dashed: mean %s; every run the same, so no band", m);
	else if (g->n > 1)
		snprintf(note, sizeof(note), "dashed: mean %s; band: +/- sd %s", m,
			 sm_cmp_fmt(s, sizeof(s), g->unit, g->sd));
	else
		snprintf(note, sizeof(note), "one run: no spread, so no band (dashed: %s)", m);
	c.id = id;
	c.title = g->label;
	c.xlabel = "run, oldest first (the run table gives each one's time)";
	c.ylabel = ylabel;
	c.n = n;
	c.y = y;
	c.tip = (const char *const *)tip;
	c.mean = g->mean / scale;
	c.sd = g->sd / scale;
	c.band = g->n > 1;
	c.note = note;
	sm_html_chart_trend(f, &c);
	if (g->n < n)
		sm_html_note(f, "muted", "%u of the %u runs measured %s; the others have no point.", g->n, n,
			     g->label);
out:
	for (unsigned r = 0; tip && r < n; r++)
		free(tip[r]);
	free(tip);
	free(y);
}

/* "runs 1-2 (saved A to B)" or "run 1 (saved A)" */
static void span(char *buf, size_t len, const struct sm_history_trend *p, unsigned from, unsigned to)
{
	if (from + 1 == to)
		snprintf(buf, len, "run %u (saved %s)", to, p->runs[from].saved_at);
	else
		snprintf(buf, len, "runs %u-%u (saved %s to %s)", from + 1, to, p->runs[from].saved_at,
			 p->runs[to - 1].saved_at);
}

static const struct sm_cmp_row *row_of(const struct sm_cmp *c, const char *name)
{
	for (unsigned i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

static void verdict(FILE *f, const struct sm_history_trend *p)
{
	const struct sm_trend *t = p->t;
	const struct sm_cmp *c = p->cmp;
	unsigned better = 0, worse = 0, differs = 0, ns = 0, untested = 0, n = t->nruns;
	char a[200], b[200], x[64], y[64], r[32], q[32];

	sm_html_section(f, "verdict", "First runs against last runs");
	if (!p->k) {
		sm_html_note(f, "muted", "One run only: nothing to compare it with. Save more runs under "
			     "this key for a verdict.");
		sm_html_section_end(f);
		return;
	}
	span(a, sizeof(a), p, 0, p->k);
	span(b, sizeof(b), p, n - p->k, n);
	sm_html_note(f, NULL, "First: %s. Last: %s. Compared as stormark compare compares two "
		     "sets of runs: the means, last/first, and Welch's two-sided t-test when both "
		     "sides have 2 or more runs.", a, b);
	if (!c) {
		sm_html_note(f, "warn", "No verdict (A the first runs, B the last): %s.",
			     p->why && p->why[0] ? p->why : "the runs cannot be compared");
		sm_html_section_end(f);
		return;
	}
	for (unsigned i = 0; i < c->nnotes; i++)
		sm_html_note(f, "warn", "%s", c->notes[i]);
	fputs("<table id=\"verdict-table\"><tr><th>figure</th><th>first</th><th>last</th>"
	      "<th>last/first</th><th>p</th><th>verdict</th></tr>\n", f);
	for (unsigned i = 0; i < t->nfigs; i++) {
		const struct sm_cmp_row *w = row_of(c, t->fig[i].name);
		const char *j = w ? sm_cmp_judge_cell(w) : "";

		if (!w || !w->na || !w->nb) {
			fputs("<tr><td>", f);
			sm_html_text(f, t->fig[i].label);
			fputs("</td><td>-</td><td>-</td><td>-</td><td>-</td><td>not measured on both sides"
			      "</td></tr>\n", f);
			untested++;
			continue;
		}
		better += !strcmp(j, "better");
		worse += !strcmp(j, "worse");
		differs += !strcmp(j, "differs");
		ns += !strcmp(j, "n.s.");
		untested += !j[0];
		fputs("<tr><td>", f);
		sm_html_text(f, w->label);
		fputs("</td><td>", f);
		sm_html_text(f, sm_cmp_side_cell(x, sizeof(x), w, 0, 1));
		fputs("</td><td>", f);
		sm_html_text(f, sm_cmp_side_cell(y, sizeof(y), w, 1, 1));
		fputs("</td><td>", f);
		sm_html_text(f, sm_cmp_ratio_cell(r, sizeof(r), w));
		fputs("</td><td>", f);
		sm_html_text(f, sm_cmp_p_cell(q, sizeof(q), w));
		fprintf(f, "</td><td class=\"%s\">", !strcmp(j, "better") ? "v-yes" : !strcmp(j, "worse")
			? "v-no" : "");
		sm_html_text(f, j[0] ? j : "no test: one run a side");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (!t->nfigs)
		sm_html_note(f, "muted", "No headline figure to compare.");
	else if (untested == t->nfigs)
		sm_html_note(f, NULL, "Verdict: no test, one run a side; the ratio alone says nothing "
			     "about noise (save at least 4 runs for 2 a side).");
	else
		fprintf(f, "<p id=\"verdict-summary\">Verdict at p &lt; %g: %u better, %u worse, "
			"%u differ, %u not significant (n.s.)%s.</p>\n", c->alpha, better, worse,
			differs, ns, untested ? ", the rest untested" : "");
	sm_html_section_end(f);
}

static void run_table(FILE *f, const struct sm_history_trend *p)
{
	const struct sm_trend *t = p->t;
	char v[48];

	sm_html_section(f, "runs", "Runs");
	fputs("<table id=\"run-table\"><tr><th>run</th><th>id</th><th>saved (UTC)</th>", f);
	for (unsigned i = 0; i < t->nfigs; i++) {
		fputs("<th>", f);
		sm_html_text(f, t->fig[i].label);
		fputs("</th>", f);
	}
	fputs("<th>note</th></tr>\n", f);
	for (unsigned r = 0; r < t->nruns; r++) {
		fprintf(f, "<tr><td>%u</td><td>%lld</td><td>", r + 1, p->runs[r].id);
		sm_html_text(f, p->runs[r].saved_at);
		fputs("</td>", f);
		for (unsigned i = 0; i < t->nfigs; i++) {
			fputs("<td>", f);
			sm_html_text(f, isnan(t->fig[i].v[r]) ? "-" : sm_cmp_fmt(v, sizeof(v), t->fig[i].unit,
										  t->fig[i].v[r]));
			fputs("</td>", f);
		}
		fputs("<td>", f);
		sm_html_text(f, p->runs[r].note);
		fputs("</td></tr>\n", f);
	}
	if (t->nruns > 1) {
		fputs("<tr><td>mean</td><td></td><td>+/- sd</td>", f);
		for (unsigned i = 0; i < t->nfigs; i++) {
			char s[48];

			fputs("<td>", f);
			sm_html_printf(f, "%s +/- %s", sm_cmp_fmt(v, sizeof(v), t->fig[i].unit, t->fig[i].mean),
				       sm_cmp_fmt(s, sizeof(s), t->fig[i].unit, t->fig[i].sd));
			fputs("</td>", f);
		}
		fputs("<td></td></tr>\n", f);
	}
	fputs("</table>\n", f);
	sm_html_section_end(f);
}

void sm_history_print_trend(FILE *f, const struct sm_history_trend *p)
{
	const struct sm_trend *t = p->t;
	char title[200];

	snprintf(title, sizeof(title), "history: the trend of key '%s'", p->key);
	sm_html_begin_plain(f, title);
	sm_html_section(f, "key", "The key");
	sm_html_kv_begin(f, NULL);
	fputs("<tr><td>command</td><td><code id=\"command-line\">stormark", f);
	for (int i = 0; i < p->argc; i++) {
		fputc(' ', f);
		sm_html_text(f, p->argv[i]);
	}
	fputs("</code></td></tr>\n", f);
	sm_html_kv(f, "tool", "stormark %s", SM_VERSION);
	sm_html_kv(f, "history", "%s", p->db);
	sm_html_kv(f, "key", "%s: %u %s run%s", p->key, t->nruns, t->command, t->nruns == 1 ? "" : "s");
	if (p->timed)
		sm_html_kv(f, "timed command", "%s", p->timed);
	if (t->nruns)
		sm_html_kv(f, "saved", "%s to %s (UTC)", p->runs[0].saved_at, p->runs[t->nruns - 1].saved_at);
	sm_html_kv_end(f);
	sm_html_section_end(f);
	sm_html_section(f, "charts", "Headline figures run by run");
	if (!t->nfigs)
		sm_html_note(f, "muted empty", "The runs of this key hold no headline figure to chart "
			     "(docs/history.md lists them per command).");
	else if (t->nruns == 1)
		sm_html_note(f, "muted", "One run: each chart has its one point and no band.");
	for (unsigned i = 0; i < t->nfigs; i++)
		chart(f, p, i);
	sm_html_section_end(f);
	verdict(f, p);
	run_table(f, p);
	sm_html_end(f);
}
