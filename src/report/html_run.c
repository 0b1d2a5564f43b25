/* SPDX-License-Identifier: MIT */
/* The HTML report of a `run` result (html.h). */
#include "report/html.h"
#include "report/html_page.h"
#include "analysis/verdict.h"
#include "core/units.h"
#include "report/cliff.h"
#include "report/stall.h"
#include "report/run_text.h"
#include "report/verdict_words.h"

#include <string.h>

#define MIB (1024.0 * 1024.0)

static void plan(FILE *f, const struct sm_run_result *res)
{
	char a[32], b[32];

	sm_html_section(f, "parameters", "Parameters");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "directory", "%s", res->plan.dir ? res->plan.dir : "?");
	sm_html_kv(f, "time budget", "%s", sm_fmt_ns(a, sizeof(a), (double)res->plan.time_ns));
	sm_html_kv(f, "block tests", "%s file, %s, engine %s",
		   sm_fmt_bytes(b, sizeof(b), (double)res->file_bytes),
		   res->direct_align > 0 ? "O_DIRECT" : "buffered", res->block_engine[0] ? res->block_engine : "?");
	sm_html_kv(f, "frame tests", "%u threads, %s per size, engine %s", res->plan.threads,
		   sm_fmt_bytes(a, sizeof(a), (double)res->frames_bytes),
		   res->frames_engine[0] ? res->frames_engine : "?");
	sm_html_kv(f, "paced runs", "queue %u, pre-buffer %u, %u made", res->plan.queue, res->plan.prebuffer,
		   res->paced_runs);
	if (res->notice[0])
		sm_html_kv(f, "note", "%s", res->notice);
	sm_html_kv_end(f);
	sm_html_section_end(f);
}

static void classic(FILE *f, const struct sm_run_result *res)
{
	char a[32], id[48], title[96];

	sm_html_section(f, "classic", "Classic figures");
	fputs("<table id=\"classic-table\"><tr><th>test</th><th>read MiB/s</th><th>read IOPS</th>"
	      "<th>read p99</th><th>write MiB/s</th><th>write IOPS</th><th>write p99</th></tr>\n", f);
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		const struct sm_run_classic *c = &res->classic[i];

		if (!c->label[0])
			continue;
		fputs("<tr><td>", f);
		sm_html_text(f, c->label);
		fputs("</td>", f);
		for (int w = 0; w < 2; w++) {
			if (!c->fig[w].valid) {
				fputs("<td>-</td><td>-</td><td>-</td>", f);
				continue;
			}
			fprintf(f, "<td>%.1f</td><td>%.0f</td><td>%s</td>", c->fig[w].bytes_per_s / MIB,
				c->fig[w].iops, sm_fmt_ns(a, sizeof(a), (double)c->fig[w].p99_ns));
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			char words[320];

			if (sm_report_run_classic_stall_line(words, sizeof(words), res, i, w)[0])
				sm_html_note(f, "warn", "%s.", words);
		}
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			const struct sm_run_classic *c = &res->classic[i];

			if (!c->label[0] || !c->measured[w])
				continue;
			snprintf(id, sizeof(id), "chart-lat-classic-%u-%s", i, w ? "write" : "read");
			snprintf(title, sizeof(title), "%s %s latency", c->label, w ? "write" : "read");
			sm_html_chart_hist(f, id, title, &c->res[w].op.lat);
		}
	sm_html_section_end(f);
}

static void frames(FILE *f, const struct sm_run_result *res)
{
	char a[32], b[32], c[32], d[32];

	sm_html_section(f, "frame-tests", "Frame tests");
	fputs("<table id=\"frames-table\"><tr><th>frame size</th><th>test</th><th>fps</th><th>MiB/s</th>"
	      "<th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", f);
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];

		if (!s->preset[0])
			continue;
		for (int dir = 0; dir < 2; dir++) {
			const struct sm_run_frametest *t = &s->t[dir];

			fputs("<tr><td>", f);
			sm_html_printf(f, "%s %llu KiB", s->preset, (unsigned long long)(s->frame_bytes / 1024));
			fprintf(f, "</td><td>%s</td>", dir ? "read" : "write");
			if (!t->measured) {
				fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td></tr>\n", f);
				continue;
			}
			fprintf(f, "<td>%.1f</td><td>%.1f</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				t->fps, t->bytes_per_s / MIB, sm_fmt_ns(a, sizeof(a), (double)t->p50_ns),
				sm_fmt_ns(b, sizeof(b), (double)t->p99_ns),
				sm_fmt_ns(c, sizeof(c), (double)t->p999_ns),
				sm_fmt_ns(d, sizeof(d), (double)t->max_ns));
		}
	}
	fputs("</table>\n", f);
	sm_html_section_end(f);
}

/* One frame test's data rate per second; the sustained write's with its
 * cliff marked. */
static void rate_chart(FILE *f, const struct sm_run_result *res, unsigned i, int dir, int sustained)
{
	const struct sm_run_size *s = &res->sizes[i];
	const struct sm_run_frametest *t = &s->t[dir];
	struct sm_html_mark mark;
	char id[48], title[160], a[32];

	sm_html_cliff_mark(&mark, &t->cliff);
	snprintf(id, sizeof(id), "chart-rate-%s-%s", s->preset, dir ? "read" : "write");
	snprintf(title, sizeof(title), "%s %s%s (%s frames): data rate per second", s->preset,
		 sustained ? "sustained " : "", dir ? "read" : "write",
		 sm_fmt_bytes(a, sizeof(a), (double)s->frame_bytes));
	sm_html_chart_frames_rate(f, id, title, t->series, t->nseries, 0, sustained ? &mark : NULL,
				  &t->stalls);
}

/* The rate over time of every frame test, the sustained write first: a
 * capture that slows down shows as a fall (and a marked cliff). */
static void rates(FILE *f, const struct sm_run_result *res)
{
	int si = res->derived.sustained_size, any = 0;
	char words[256];

	sm_html_section(f, "rates", "Rate over time");
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++)
			any |= res->sizes[i].t[d].measured && res->sizes[i].t[d].nseries;
	if (!any) {
		sm_html_note(f, "muted", "This result holds no per-second series: %s",
			     res->derived.frames_measured ? "it was saved by a stormark from before they were "
			     "kept; a new run charts them" : "no frame test was measured");
		sm_html_section_end(f);
		return;
	}
	sm_html_note(f, "muted", "Each frame test's data rate, second by second (the last point is the end "
		     "of the test; frames/s = MiB/s / frame size). The 2k write is the sustained write, "
		     "where a cliff is looked for (docs/cliff.md)%s", si >= 0 ? ":" : ".");
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++)
			if (sm_report_run_stall_line(words, sizeof(words), res, i, d)[0])
				sm_html_note(f, "warn", "%s (shaded on its chart).", words);
	if (si >= 0) {
		sm_html_note(f, res->sizes[si].t[SM_DIR_CAPTURE].cliff.found ? "warn" : NULL, "%s",
			     sm_report_cliff_words(words, sizeof(words),
						   &res->sizes[si].t[SM_DIR_CAPTURE].cliff));
		rate_chart(f, res, (unsigned)si, SM_DIR_CAPTURE, 1);
	}
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++)
			if (res->sizes[i].preset[0] && res->sizes[i].t[d].measured &&
			    !((int)i == si && d == SM_DIR_CAPTURE))
				rate_chart(f, res, i, d, 0);
	sm_html_section_end(f);
}

/* What the cell's mark means and how it was reached, in words (its tooltip):
 * the legend's words, the computed figures, and its paced run if any. */
static void how(char *buf, size_t len, const struct sm_verdict_cell *c)
{
	char paced[300];

	sm_report_paced_words(paced, sizeof(paced), c);
	snprintf(buf, len, "%s. Computed: sustained %.1f MiB/s vs %.1f MiB/s needed (x%.2f)%s%s%s%s",
		 sm_report_verdict_meaning(c), c->measured / MIB, c->needed / MIB, c->ratio,
		 c->near_limit ? ", near the limit" : "",
		 c->cliff ? "; the write rate fell off a cliff: the burst alone would have rated "
		 "it higher" : "", paced[0] ? ". Then " : "", paced);
}

static void verdicts(FILE *f, const struct sm_run_result *res)
{
	unsigned nr = res->plan.nrates;
	char buf[1024];

	sm_html_section(f, "verdicts", "Real-time verdicts");
	if (!res->derived.verdicts_ready) {
		sm_html_note(f, "warn", "None: %s", res->derived.frames_skipped && !res->derived.frames_measured
			     ? "no frame test fitted in the free space" : "the frame tests did not finish");
		sm_html_section_end(f);
		return;
	}
	sm_html_note(f, NULL, "%s Each cell says how it was decided: computed from the measured "
		     "sustained rate, or by a paced run.", sm_report_verdict_legend(buf, sizeof(buf), res));
	fputs("<table id=\"verdict-table\"><tr><th>format</th><th>MiB/frame</th>", f);
	for (int d = 0; d < 2; d++)
		for (unsigned k = 0; k < nr; k++)
			fprintf(f, "<th>%s %s</th>", d ? "playback" : "capture", res->plan.rates[k]->name);
	fputs("</tr>\n", f);
	for (unsigned r = 0; r < res->nrows; r++) {
		const struct sm_run_row *row = &res->rows[r];

		fputs("<tr><td>", f);
		sm_html_text(f, row->fmt.name);
		fprintf(f, "</td><td>%.1f</td>", (double)row->fmt.frame_bytes / MIB);
		for (int d = 0; d < 2; d++)
			for (unsigned k = 0; k < nr; k++) {
				const struct sm_verdict_cell *c = &row->cell[d][k];
				const char *w = c->final == SM_VERDICT_REALTIME ? "yes" :
						c->final == SM_VERDICT_MARGINAL ? "marginal" : "no";
				char m[16];

				how(buf, sizeof(buf), c);
				fprintf(f, "<td class=\"v-%s\" title=\"", w);
				sm_html_text(f, buf);
				fputs("\">", f);
				sm_html_text(f, sm_report_verdict_mark(m, sizeof(m), c));
				fprintf(f, "<br><small>%s</small></td>",
					c->how == SM_HOW_PACED ? "paced" : "computed");
			}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	sm_report_paced_note(buf, sizeof(buf), res);
	sm_html_note(f, "muted", "! = the sustained write fell off a cliff and the rate after the fall "
		     "decided the cell (docs/cliff.md). %s%sHover a cell for its figures.", buf,
		     buf[0] ? ". " : "");
	sm_html_section_end(f);
}

/* The metadata line of run (a few thousand files), in the text's words. */
static void meta(FILE *f, const struct sm_run_result *res)
{
	char line[400];

	if (!res->meta.measured)
		return;
	sm_run_meta_words(line, sizeof(line), res);
	line[0] = 'M';
	sm_html_section(f, "metadata", "Metadata");
	fputs("<p>", f);
	sm_html_text(f, line);
	fputs(".</p>\n", f);
	sm_html_section_end(f);
}

void sm_html_run(FILE *f, const struct sm_run_result *res)
{
	char summary[2048];

	sm_html_begin(f, &res->head, res->plan.dir ? res->plan.dir : "?");
	plan(f, res);
	if (res->reached >= SM_PHASE_CLASSIC)
		classic(f, res);
	if (res->reached >= SM_PHASE_FRAMES) {
		frames(f, res);
		rates(f, res);
		meta(f, res);
		verdicts(f, res);
	}
	sm_run_summary(res, summary, sizeof(summary));
	sm_html_section(f, "verdict-summary", "Summary");
	fputs("<pre>", f);
	sm_html_text(f, summary);
	fputs("</pre>\n", f);
	sm_html_section_end(f);
	sm_html_end(f);
}
