/* SPDX-License-Identifier: MIT */
/* A `streams --mix` result's mix: per group whether it held, its drops, its
 * p99.9 from schedule and the rate it moved, then the total, as text,
 * markdown and csv (docs/streams.md, "Mixes"). */
#include "report/streams.h"
#include "analysis/streams.h"
#include "core/units.h"

#include <string.h>

/* "yes", or "no (1 of 2)": how many of its streams held. */
static char *held_words(char *buf, size_t len, const struct sm_streams_group_fig *g, unsigned streams)
{
	if (g->held)
		snprintf(buf, len, "yes");
	else
		snprintf(buf, len, "no (%u of %u)", g->streams_held, streams);
	return buf;
}

/* The text table's columns after the group's name (width nw), MIX_FIGS
 * columns wide. When the name and the figures do not fit 79 columns
 * together, each name stands on a line of its own and its figures go on
 * the next, under the header's (nw is then 0). */
#define MIX_ROW "%-*s  %7s  %-12s  %5s  %-11s  %11s  %11s\n"
#define MIX_FIGS 69

/* The name column's width: the longest name, or 0 when names go on lines
 * of their own. */
static int name_width(int longest)
{
	return longest + MIX_FIGS <= SM_STREAMS_TEXT_WIDTH ? longest : 0;
}

static void row(FILE *f, int md, int nw, const char *name, unsigned streams,
		const struct sm_streams_group_fig *g, double needed)
{
	char n[16], d[24], mv[40], nd[40];

	char held[32], p[32], moved[32], need[32];

	held_words(held, sizeof(held), g, streams);
	sm_fmt_ns(p, sizeof(p), (double)g->worst_p999_ns);
	sm_fmt_bytes(moved, sizeof(moved), g->bytes_per_s);
	sm_fmt_bytes(need, sizeof(need), needed);
	if (md)
		fprintf(f, "| %s | %u | %s | %llu | %s | %s/s | %s/s |\n", name, streams, held,
			(unsigned long long)g->dropped, p, moved, need);
	else {
		snprintf(n, sizeof(n), "%u", streams);
		snprintf(d, sizeof(d), "%llu", (unsigned long long)g->dropped);
		snprintf(mv, sizeof(mv), "%s/s", moved);
		snprintf(nd, sizeof(nd), "%s/s", need);
		if (!nw)
			fprintf(f, "%s\n", name);
		fprintf(f, MIX_ROW, nw, nw ? name : "", n, held, d, p, mv, nd);
	}
}

void sm_streams_mix_report(FILE *f, const struct sm_streams_result *res, int md)
{
	const struct sm_streams_mix *m = &res->mix;
	char name[96], list[600] = "";
	unsigned failed = 0;
	double core, us;
	int nw = (int)strlen("group");   /* the text table's name column */

	if (!m->ngroups)
		return;
	if (md)
		fprintf(f, "### Mix %s: %u stream%s in %u group%s, all started at once\n", m->spec,
			m->nstreams, m->nstreams == 1 ? "" : "s", m->ngroups, m->ngroups == 1 ? "" : "s");
	else
		sm_streams_wrapf(f, 2, "Mix %s: %u stream%s in %u group%s, all started at once", m->spec,
				 m->nstreams, m->nstreams == 1 ? "" : "s", m->ngroups,
				 m->ngroups == 1 ? "" : "s");
	for (unsigned k = 0; k < m->ngroups; k++) {
		sm_streams_group_name(&m->groups[k], name, sizeof(name));
		if (strlen(name) > (size_t)nw)
			nw = (int)strlen(name);
	}
	nw = name_width(nw);
	if (md)
		fputc('\n', f);
	if (!m->ran) {
		if (md)
			fprintf(f, "Not measured: %s\n\n", m->note[0] ? m->note : "it did not run");
		else {
			sm_streams_wrapf(f, 2, "Not measured: %s", m->note[0] ? m->note : "it did not run");
			fputc('\n', f);
		}
		return;
	}
	if (md)
		fputs("| group | streams | held | drops | p99.9 from schedule | moved | needed |\n"
		      "|---|---|---|---|---|---|---|\n", f);
	else {
		if (!nw)
			fputs("group\n", f);
		fprintf(f, MIX_ROW, nw, nw ? "group" : "", "streams", "held", "drops", "p99.9 sched", "moved",
			"needed");
	}
	for (unsigned k = 0; k < m->ngroups; k++) {
		const struct sm_streams_group_fig *g = &m->step.mix_groups[k];

		sm_streams_group_name(&m->groups[k], name, sizeof(name));
		row(f, md, nw, name, m->groups[k].count, g, m->groups[k].needed);
		if (!g->held) {
			size_t used = strlen(list);

			snprintf(list + used, sizeof(list) - used, "%s%s", failed++ ? ", " : "", name);
		}
	}
	row(f, md, nw, "total", m->nstreams, &m->step.mix_total, m->needed);
	if (md)
		fputc('\n', f);
	if (sm_streams_step_cpu(&m->step, m->nstreams, &core, &us))   /* a live result's */
		fprintf(f, "Tool CPU: %.0f%% of one core, %.1f us per stream per second.\n%s", 100.0 * core,
			us, md ? "\n" : "");
	if (m->held)
		fprintf(f, "The mix holds: every group held.\n\n");
	else if (md)
		fprintf(f, "The mix does not hold: %u of %u group%s failed (%s).\n\n", failed, m->ngroups,
			m->ngroups == 1 ? "" : "s", list);
	else {
		sm_streams_wrapf(f, 2, "The mix does not hold: %u of %u group%s failed (%s).", failed,
				 m->ngroups, m->ngroups == 1 ? "" : "s", list);
		fputc('\n', f);
	}
}

/* A number as CSV wants it (as report/csv.c writes them). */
static void num(FILE *f, double v)
{
	if (v == (double)(long long)v && v < 9e15 && v > -9e15)
		fprintf(f, ",%.0f", v);
	else
		fprintf(f, ",%.17g", v);
}

static void csv_fig(FILE *f, const struct sm_streams_group_fig *g, double needed)
{
	fprintf(f, ",%d,%llu,%llu", !!g->held, (unsigned long long)g->dropped,
		(unsigned long long)g->worst_p999_ns);
	num(f, g->bytes_per_s);
	num(f, needed);
	fputs(",\n", f);
}

void sm_csv_streams_mix(FILE *f, const struct sm_streams_result *res)
{
	const struct sm_streams_mix *m = &res->mix;
	char name[96];

	fputs("kind,group,format,fps,direction,streams,held,dropped,p99_9_sched_ns,bytes_per_s,"
	      "needed_bytes_per_s,streams_headroom\n", f);
	for (unsigned k = 0; k < m->ngroups; k++) {
		const struct sm_streams_group *g = &m->groups[k];

		sm_streams_group_name(g, name, sizeof(name));
		fprintf(f, "group,%s,%s,%s,%s,%u", name, g->format, g->fps_name, sm_direction_name(g->dir),
			g->count);
		if (m->ran)
			csv_fig(f, &m->step.mix_groups[k], g->needed);
		else {   /* not measured: empty cells, never 0 */
			fputs(",,,,", f);
			num(f, g->needed);
			fputs(",\n", f);
		}
	}
	/* the mix's name has commas: quoted (it holds no quote) */
	fprintf(f, "total,\"%s\",,,,%u", m->spec, m->nstreams);
	if (m->ran)
		csv_fig(f, &m->step.mix_total, m->needed);
	else {
		fputs(",,,,", f);
		num(f, m->needed);
		fputs(",\n", f);
	}
	/* beside the mix: how many more streams of each format held (the
	 * JSON has the whole search) */
	for (unsigned i = 0; i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];
		const struct sm_streams_step *at = sm_streams_step_at(c, c->max_raw);

		fprintf(f, "more,%s@%s:%s,%s,%s,%s", c->format, c->fps_name,
			c->dir == SM_DIR_CAPTURE ? "capture" : "play", c->format, c->fps_name,
			sm_direction_name(c->dir));
		if (!c->measured) {
			fputs(",,,,,,,\n", f);
			continue;
		}
		fprintf(f, ",%u", c->max_raw);
		if (at && at->held && c->max_raw)
			fprintf(f, ",1,%llu,%llu", (unsigned long long)at->dropped,
				(unsigned long long)at->worst_p999_ns);
		else
			fputs(",,,", f);
		num(f, c->agg_bytes_per_s);
		fprintf(f, ",,%u\n", c->max_headroom);
	}
}
