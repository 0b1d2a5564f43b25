/* SPDX-License-Identifier: MIT */
/* The HTML report of a `streams` result (html.h): the answers table and,
 * per cell, the search's steps and each stream's drops at N and N + 1. */
#include "report/html.h"
#include "report/html_page.h"
#include "report/streams.h"
#include "report/cliff.h"
#include "analysis/verdict.h"
#include "core/units.h"

#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* The answer as the text report writes it (sm_report_streams_answer). A
 * '!' (the sustained confirmation lowered the answer) and "not measured"
 * say why on hover. */
static void answer(FILE *f, const struct sm_streams_cell *c)
{
	const char *why = c->lowered ? c->confirm_note : !c->measured ? c->note : NULL;
	char buf[64];

	if (why) {
		fputs("<span title=\"", f);
		sm_html_text(f, why);
		fputs("\">", f);
	}
	sm_html_text(f, sm_report_streams_answer(buf, sizeof(buf), c));
	if (why)
		fputs("</span>", f);
}

/* The sustained confirmation of a capture answer (docs/streams.md): its
 * figures, the cliff looked for in its per-second write rate, and why it
 * lowered the answer; nothing when none was due. */
static void confirmation(FILE *f, const struct sm_streams_cell *c)
{
	char cl[400];

	if (c->confirm == SM_CONFIRM_NO_TIME || c->confirm == SM_CONFIRM_FAILED) {
		sm_html_kv(f, "sustained check", "%s", c->confirm_note);
		return;
	}
	if (c->confirm != SM_CONFIRM_RAN)
		return;
	fprintf(f, "<tr><td>sustained check</td><td class=\"%s\" data-cliff=\"%s\">",
		c->lowered ? "v-marginal" : c->confirm_held ? "v-yes" : "v-no",
		c->cliff.found ? "yes" : "no");
	sm_html_printf(f, "%u stream%s for %.0f s %s, %llu frames dropped, %.1f MiB/s delivered; %s",
		       c->confirm_n, c->confirm_n == 1 ? "" : "s", (double)c->confirm_ns / 1e9,
		       c->confirm_held ? "held" : "failed", (unsigned long long)c->confirm_dropped,
		       c->confirm_bytes_per_s / MIB, sm_report_cliff_words(cl, sizeof(cl), &c->cliff));
	if (c->lowered)
		sm_html_printf(f, "; ! %u -> %u with headroom: %s", c->headroom_burst, c->max_headroom,
			       c->confirm_note);
	fputs("</td></tr>\n", f);
}

/* The colour of an answer: streams with headroom, held only without it,
 * not even one stream; none when nothing ran. */
static const char *answer_class(const struct sm_streams_cell *c)
{
	if (!c->measured || !c->nsteps)
		return "";
	return c->max_headroom ? "v-yes" : c->max_raw ? "v-marginal" : "v-no";
}

static void td_cell(FILE *f, const struct sm_streams_cell *c, unsigned idx)
{
	if (!c) {
		fputs("<td>-</td>", f);
		return;
	}
	fprintf(f, "<td class=\"%s\"><a href=\"#cell-%u\">", answer_class(c), idx);
	answer(f, c);
	fputs("</a></td>", f);
}

static void matrix(FILE *f, const struct sm_streams_result *res)
{
	const char *fmts[256], *rates[32];
	unsigned nf = sm_streams_distinct(res, 0, fmts, 256), nr = sm_streams_distinct(res, 1, rates, 32);

	fputs("<table id=\"streams-table\"><tr><th rowspan=\"2\">format</th>", f);
	for (unsigned r = 0; r < nr; r++) {
		fputs("<th colspan=\"2\">", f);
		sm_html_printf(f, "%s fps", rates[r]);
		fputs("</th>", f);
	}
	fputs("</tr>\n<tr>", f);
	for (unsigned r = 0; r < nr; r++)
		fputs("<th>capture</th><th>playback</th>", f);
	fputs("</tr>\n", f);
	for (unsigned i = 0; i < nf; i++) {
		fputs("<tr><td>", f);
		sm_html_text(f, fmts[i]);
		fputs("</td>", f);
		for (unsigned r = 0; r < nr; r++) {
			const struct sm_streams_cell *c = sm_streams_find_cell(res, fmts[i], rates[r], SM_DIR_CAPTURE);
			const struct sm_streams_cell *p = sm_streams_find_cell(res, fmts[i], rates[r], SM_DIR_PLAYBACK);

			/* a cell's index (its anchor) is its place in res->cells */
			td_cell(f, c, c ? (unsigned)(c - res->cells) : 0);
			td_cell(f, p, p ? (unsigned)(p - res->cells) : 0);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	sm_html_note(f, "muted", "N (M): N streams held (no dropped frame, p99.9 frame time from "
		     "schedule within the buffers), M of them keep %d%% headroom; '>=N (>=M)' the search "
		     "stopped at --max-streams, both are at least that; '?' it did not finish; 'not "
		     "measured' no step could be judged (a failed read or write, the budget; hover); 'M!' the sustained step "
		     "that confirms a capture answer lowered it (a cliff or drops; hover). Green: streams with headroom; "
		     "yellow: held only without headroom; red: not even one stream.",
		     SM_VERDICT_HEADROOM_PCT);
}

static int by_n(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* Two bars a group; a chart of no group is the sentence empty. */
static void bars(FILE *f, const char *id, const char *title, const char *xlabel, const char *ylabel,
		 unsigned n, const char *const *labels, const double *const *v, const char *const *name,
		 const char *empty)
{
	struct sm_html_bars b = { 0 };

	b.id = id;
	b.title = title;
	b.xlabel = xlabel;
	b.ylabel = ylabel;
	b.n = n;
	b.labels = labels;
	b.nbars = 2;
	b.v[0] = v[0];
	b.v[1] = v[1];
	b.name[0] = name[0];
	b.name[1] = name[1];
	b.empty = empty;
	sm_html_chart_bars_s(f, &b);
}

/* The search: per distinct N (its last step), the aggregate rate the
 * storage delivered and N x the rate a stream needs, labelled held or
 * failed. */
static void steps_chart(FILE *f, const struct sm_streams_cell *c, unsigned idx)
{
	unsigned *ns = calloc(c->nsteps ? c->nsteps : 1, sizeof(*ns)), m = 0;
	double *got = calloc(c->nsteps ? c->nsteps : 1, sizeof(double));
	double *need = calloc(c->nsteps ? c->nsteps : 1, sizeof(double));
	char (*lab)[32] = calloc(c->nsteps ? c->nsteps : 1, sizeof(*lab));
	const char **labels = calloc(c->nsteps ? c->nsteps : 1, sizeof(*labels));
	const double *v[2];
	const char *name[2] = { "delivered", "needed (N x rate)" };
	char id[32], title[160];

	if (!ns || !got || !need || !lab || !labels)
		goto out;
	for (unsigned k = 0; k < c->nsteps; k++) {
		unsigned j = 0;

		while (j < m && ns[j] != c->steps[k].n)
			j++;
		if (j == m)
			ns[m++] = c->steps[k].n;
	}
	qsort(ns, m, sizeof(*ns), by_n);
	for (unsigned j = 0; j < m; j++) {
		const struct sm_streams_step *s = sm_streams_step_at(c, ns[j]);

		got[j] = s->delivered_bytes_per_s / MIB;
		need[j] = ns[j] * c->rate / MIB;
		snprintf(lab[j], sizeof(lab[j]), "%u %s", ns[j], s->held ? "held" : "failed");
		labels[j] = lab[j];
	}
	v[0] = got;
	v[1] = need;
	snprintf(id, sizeof(id), "chart-steps-%u", idx);
	snprintf(title, sizeof(title), "Search: aggregate rate per step (%u step%s)", c->nsteps,
		 c->nsteps == 1 ? "" : "s");
	bars(f, id, title, "streams (N), held or failed", "MiB/s", m, labels, v, name,
	     "No step was run: nothing to chart.");
out:
	free(ns);
	free(got);
	free(need);
	free(lab);
	free(labels);
}

/* Each stream's dropped frames at N (the most held) and at N + 1. */
static void drops_chart(FILE *f, const struct sm_streams_cell *c, unsigned idx)
{
	const struct sm_streams_step *at = c->max_raw ? sm_streams_step_at(c, c->max_raw) : NULL;
	const struct sm_streams_step *over = sm_streams_step_at(c, c->max_raw + 1);
	unsigned n = 0;
	double *a = NULL, *b = NULL;
	char (*lab)[16] = NULL;
	const char **labels = NULL;
	const double *v[2];
	char id[32], title[96], na[32], nb[32];
	const char *name[2] = { na, nb };

	if (at && !at->held)
		at = NULL;
	if (at)
		n = at->n;
	if (over && over->n > n)
		n = over->n;
	snprintf(id, sizeof(id), "chart-drops-%u", idx);
	snprintf(title, sizeof(title), "Dropped frames per stream at %u and %u streams", c->max_raw,
		 c->max_raw + 1);
	a = calloc(n ? n : 1, sizeof(*a));
	b = calloc(n ? n : 1, sizeof(*b));
	lab = calloc(n ? n : 1, sizeof(*lab));
	labels = calloc(n ? n : 1, sizeof(*labels));
	if (!a || !b || !lab || !labels)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		a[i] = at && i < at->n ? (double)at->streams[i].dropped : -1;
		b[i] = over && i < over->n ? (double)over->streams[i].dropped : -1;
		snprintf(lab[i], sizeof(lab[i]), "%u", i + 1);
		labels[i] = lab[i];
	}
	snprintf(na, sizeof(na), "at %u", c->max_raw);
	snprintf(nb, sizeof(nb), "at %u%s", c->max_raw + 1, over ? "" : " (not run)");
	v[0] = a;
	v[1] = b;
	bars(f, id, title, "stream", "frames", n, labels, v, name,
	     "No stream ran at either number: nothing to chart.");
out:
	free(a);
	free(b);
	free(lab);
	free(labels);
}

static void cell(FILE *f, const struct sm_streams_cell *c, unsigned idx)
{
	char a[32], b[32];

	fprintf(f, "<h3 id=\"cell-%u\">", idx);
	sm_html_printf(f, "%s at %s fps, %s", c->format, c->fps_name, sm_direction_name(c->dir));
	fputs("</h3>\n", f);
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "codec", "%s", c->codec);
	if (c->sequence)
		sm_html_kv(f, "kind", "a frame sequence: each stream a directory of one file per frame");
	if (c->base_rate > 0)
		sm_html_kv(f, "beside the mix", "its streams of this direction need %s/s, in every step",
			   sm_fmt_bytes(a, sizeof(a), c->base_rate));
	sm_html_kv(f, "rate per stream", "%s/s", sm_fmt_bytes(a, sizeof(a), c->rate));
	if (c->moved_rate == c->rate)
		sm_html_kv(f, "moved", "as published (a byte schedule of whole 4 KiB blocks)");
	else
		sm_html_kv(f, "moved", "%s/s", sm_fmt_bytes(b, sizeof(b), c->moved_rate));
	sm_html_kv(f, "largest chunk per frame interval", "%s",
		   sm_fmt_bytes(b, sizeof(b), (double)c->chunk_bytes));
	fprintf(f, "<tr><td>streams held</td><td class=\"%s\">", answer_class(c));
	if (!c->measured)
		sm_html_printf(f, "not measured");
	else
		sm_html_printf(f, "%s%u, %s%u with %d%% headroom%s", c->at_cap ? "at least " : "",
			       c->max_raw, c->at_cap && !c->lowered ? "at least " : "", c->max_headroom,
			       SM_VERDICT_HEADROOM_PCT, c->searched ? "" : " (the search did not finish)");
	fputs("</td></tr>\n", f);
	if (c->first_fail)
		sm_html_kv(f, "first failed", "%u streams", c->first_fail);
	if (c->measured) {
		sm_html_kv(f, "aggregate at the answer", "%s/s",
			   sm_fmt_bytes(a, sizeof(a), c->agg_bytes_per_s));
		sm_html_kv(f, "most delivered", "%s/s",
			   sm_fmt_bytes(b, sizeof(b), c->sustained_bytes_per_s));
	}
	confirmation(f, c);
	if (c->note[0])
		sm_html_kv(f, "note", "%s", c->note);
	sm_html_kv_end(f);
	steps_chart(f, c, idx);
	drops_chart(f, c, idx);
}

/* A mix group's (k < ngroups) or the whole mix's (k = ngroups) rate in
 * each whole second of its step, and the rate it needs. */
static void mix_chart(FILE *f, const struct sm_streams_mix *m, unsigned k, const char *name, double needed)
{
	unsigned n = (unsigned)(m->step.schedule_ns / 1000000000ull);
	double *x, *y, *need;
	struct sm_html_xy c = { 0 };
	char id[32], title[160];

	if (n > m->nsec)
		n = m->nsec;
	x = calloc(n ? n : 1, sizeof(*x));
	y = calloc(n ? n : 1, sizeof(*y));
	need = calloc(n ? n : 1, sizeof(*need));
	if (!x || !y || !need)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		x[i] = i + 1;
		y[i] = (double)m->sec_bytes[(size_t)k * m->nsec + i] / MIB;
		need[i] = needed / MIB;
	}
	if (k < m->ngroups)
		snprintf(id, sizeof(id), "chart-mix-%u", k);
	else
		snprintf(id, sizeof(id), "chart-mix-total");
	snprintf(title, sizeof(title), "%s: rate moved in each second of the step", name);
	c.id = id;
	c.title = title;
	c.xlabel = "time since the common start (s)";
	c.ylabel = "MiB/s";
	c.n = n;
	c.x = x;
	c.nlines = 2;
	c.y[0] = y;
	c.name[0] = "moved";
	c.y[1] = need;
	c.name[1] = "needed";
	sm_html_chart_xy(f, &c);
out:
	free(x);
	free(y);
	free(need);
}

static void mix_row(FILE *f, const char *name, unsigned streams, const struct sm_streams_group_fig *g,
		    double needed)
{
	char p[32], a[32], b[32];

	fprintf(f, "<tr><td>");
	sm_html_text(f, name);
	fprintf(f, "</td><td>%u</td><td class=\"%s\">", streams, g->held ? "v-yes" : "v-no");
	if (g->held)
		fputs("yes", f);
	else
		fprintf(f, "no (%u of %u)", g->streams_held, streams);
	/* the markup printed as is, only the figures' text escaped (an escaped
	 * format would print its own tags in the held cell) */
	fprintf(f, "</td><td>%llu</td><td>", (unsigned long long)g->dropped);
	sm_html_text(f, sm_fmt_ns(p, sizeof(p), (double)g->worst_p999_ns));
	fputs("</td><td>", f);
	sm_html_printf(f, "%s/s", sm_fmt_bytes(a, sizeof(a), g->bytes_per_s));
	fputs("</td><td>", f);
	sm_html_printf(f, "%s/s", sm_fmt_bytes(b, sizeof(b), needed));
	fputs("</td></tr>\n", f);
}

/* The mix run alone: per group held or not, its drops, p99.9 from
 * schedule and rates, and each group's rate over the step. */
static void mix_section(FILE *f, const struct sm_streams_mix *m)
{
	char name[96];

	sm_html_section(f, "mix", "The mix");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "groups", "%s", m->spec);
	sm_html_kv(f, "streams", "%u, all started at once", m->nstreams);
	if (m->ran)
		fprintf(f, "<tr><td>verdict</td><td class=\"%s\">%s</td></tr>\n", m->held ? "v-yes" : "v-no",
			m->held ? "the mix holds: every group held" : "the mix does not hold");
	else
		sm_html_kv(f, "not measured", "%s", m->note);
	sm_html_kv_end(f);
	if (m->ran && m->step.mix_groups) {
		fputs("<table id=\"mix-table\"><tr><th>group</th><th>streams</th><th>held</th><th>drops</th>"
		      "<th>p99.9 from schedule</th><th>moved</th><th>needed</th></tr>\n", f);
		for (unsigned k = 0; k < m->ngroups; k++) {
			sm_streams_group_name(&m->groups[k], name, sizeof(name));
			mix_row(f, name, m->groups[k].count, &m->step.mix_groups[k], m->groups[k].needed);
		}
		mix_row(f, "total", m->nstreams, &m->step.mix_total, m->needed);
		fputs("</table>\n", f);
		for (unsigned k = 0; k < m->ngroups; k++) {
			sm_streams_group_name(&m->groups[k], name, sizeof(name));
			mix_chart(f, m, k, name, m->groups[k].needed);
		}
		mix_chart(f, m, m->ngroups, "All groups", m->needed);
	}
	sm_html_section_end(f);
}

void sm_html_streams(FILE *f, const struct sm_streams_result *res)
{
	char a[32], b[32];

	/* the directory tested (DIR, params.dir), not the file system's mount point */
	sm_html_begin(f, &res->head, res->plan.dir && res->plan.dir[0] ? res->plan.dir :
		      res->data_dir[0] ? res->data_dir : "?");
	sm_html_section(f, "parameters", "Parameters");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "step", "%s", sm_fmt_ns(a, sizeof(a), (double)res->step_ns));
	sm_html_kv(f, "search budget", "%s", sm_fmt_ns(b, sizeof(b), (double)res->time_ns));
	sm_html_kv(f, "max streams", "%u", res->max_streams);
	sm_html_kv(f, "buffers per stream", "%u (playback shows frame 0 after %u)", res->queue,
		   res->prebuffer);
	sm_html_kv(f, "requests in flight per stream", "%u", res->depth);
	sm_html_kv_end(f);
	sm_html_section_end(f);
	if (res->mix.ngroups)
		mix_section(f, &res->mix);
	if (res->ncells || !res->mix.ngroups) {
		sm_html_section(f, "answers", res->mix.ngroups ? "Most concurrent streams beside the mix" :
				"Most concurrent streams");
		matrix(f, res);
		sm_html_section_end(f);
		sm_html_section(f, "cells", "Each search");
		for (unsigned i = 0; i < res->ncells; i++)
			cell(f, &res->cells[i], i);
		if (!res->ncells)
			sm_html_note(f, "muted", "no format was searched");
		sm_html_section_end(f);
	}
	sm_html_end(f);
}
