/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s text, markdown, CSV and HTML layouts (report/meta.h). */
#include "report/meta.h"

#include <string.h>

#include "analysis/meta.h"
#include "core/units.h"
#include "report/html_page.h"
#include "report/streams.h"

/* What the header line says of the run. */
static void subject(char *buf, size_t len, const struct sm_meta_result *r)
{
	char sz[32];

	/* the engine: meta's system calls, one at a time (psync) */
	snprintf(buf, len, "%llu files of %s, %u thread%s, in '%s' (%s)%s%s",
		 (unsigned long long)r->plan.files,
		 r->plan.size ? sm_fmt_bytes(sz, sizeof(sz), (double)r->plan.size) : "0 B",
		 r->plan.threads, r->plan.threads == 1 ? "" : "s", r->plan.dir ? r->plan.dir : "",
		 r->head.env.fs.fs_type[0] ? r->head.env.fs.fs_type : "?",
		 r->head.env.engine[0] ? ", engine " : "", r->head.env.engine);
}

/* The phase's figures formatted for people: ops/s, span, p50, p99, p99.9, max. */
struct shown {
	char rate[32], dur[32], p50[32], p99[32], p999[32], max[32];
};

static void show(const struct sm_meta_phase_fig *f, struct shown *s)
{
	const struct sm_hist *h = &f->op.lat;

	snprintf(s->rate, sizeof(s->rate), "%.1f", f->per_s);
	sm_fmt_ns(s->dur, sizeof(s->dur), (double)f->duration_ns);
	sm_fmt_ns(s->p50, sizeof(s->p50), (double)sm_hist_percentile(h, 50));
	sm_fmt_ns(s->p99, sizeof(s->p99), (double)sm_hist_percentile(h, 99));
	sm_fmt_ns(s->p999, sizeof(s->p999), (double)sm_hist_percentile(h, 99.9));
	sm_fmt_ns(s->max, sizeof(s->max), (double)(h->count ? h->max : 0));
}

/* Why a phase has no figures. */
static const char *why_not(const struct sm_meta_result *r, int p)
{
	if (p == SM_META_PROBE && !r->plan.size)
		return "skipped: the files are empty (--size 0)";
	return "not run: the run stopped before it";
}

/* The sequence estimate's sentence into buf; 0 when not known. */
static int sequence(char *buf, size_t len, const struct sm_meta_result *r)
{
	double list_ns, probe_ns;
	char a[32], b[32];

	if (!sm_meta_sequence_ns(r, SM_META_SEQUENCE_FRAMES, &list_ns, &probe_ns))
		return 0;
	snprintf(buf, len, "a sequence of %u frames here: listed in %s, every frame stat'ed and "
		 "its header read in %s", SM_META_SEQUENCE_FRAMES,
		 sm_fmt_ns(a, sizeof(a), list_ns), sm_fmt_ns(b, sizeof(b), probe_ns));
	return 1;
}

/* An MPI job's line above its rates. */
static void job_words(char *buf, size_t len, const struct sm_meta_result *r)
{
	snprintf(buf, len, "MPI job of %u ranks, %s, every phase started on all at once: ops/s is "
		 "last-done (every rank's operations over the span to the last rank's end), "
		 "first-done/s what all ranks had done when the first finished, over its span",
		 r->ranks, r->shared ? "all in one directory" : "each in DIR/rank.N");
}

/* An MPI job's first-done figures of phase ph, formatted. */
static void first_done(const struct sm_meta_phase_fig *ph, char *rate, size_t rlen, char *at, size_t alen)
{
	snprintf(rate, rlen, "%.1f", ph->first_done_per_s);
	sm_fmt_ns(at, alen, (double)ph->first_done_ns);
}

/* What the caches held for the reading phases, one sentence: "" for a
 * result saved before it was said. Returns buf. */
static char *caches_words(char *buf, size_t len, const struct sm_meta_result *r)
{
	int dropped = 0, warm = 0;

	for (int p = 0; p < SM_META_NPHASES; p++) {
		dropped += r->ph[p].caches == SM_META_CACHES_DROPPED;
		warm += r->ph[p].caches == SM_META_CACHES_WARM;
	}
	buf[0] = '\0';
	if (dropped && !warm)
		snprintf(buf, len, "caches: dropped (page, dentry, inode) before stat, probe and "
			 "list: a first browse's figures, cold");
	else if (warm && !dropped)
		snprintf(buf, len, "caches: warm for stat, probe and list: a second browse's "
			 "figures (a first one, cold, is slower)");
	else if (warm)
		snprintf(buf, len, "caches: dropped before some reading phases, warm for others "
			 "(the run was stopping)");
	return buf;
}

/* The outcome: an error, an interruption, and the cleanup. */
static void outcome(FILE *f, const struct sm_meta_result *r, const char *pre)
{
	/* the text's lines wrap at 79 columns; markdown's items stay whole */
	if (r->head.interrupted)
		fprintf(f, "%sinterrupted: the figures are partial\n", pre);
	if (r->head.error[0])
		*pre ? (void)fprintf(f, "%serror: %s\n", pre, r->head.error) :
		       sm_streams_wrapf(f, 2, "error: %s", r->head.error);
	fprintf(f, "%s%llu files created, %s\n", pre, (unsigned long long)r->created,
		r->cleaned ? "all removed with the run's directory" :
		r->data_dir[0] ? "the run's directory was left" : "no directory was made");
	for (unsigned i = 0; i < r->head.warnings.count; i++)
		*pre ? (void)fprintf(f, "%swarning: %s\n", pre, r->head.warnings.item[i].message) :
		       sm_streams_wrapf(f, 2, "warning: %s", r->head.warnings.item[i].message);
}

void sm_meta_text(FILE *f, const struct sm_meta_result *r)
{
	char buf[4400];

	subject(buf, sizeof(buf), r);
	sm_streams_wrapf(f, 2, "stormark meta: %s", buf);
	if (sm_mount_is_share(&r->head.env.fs.mount)) {
		sm_mount_describe(&r->head.env.fs.mount, buf, sizeof(buf));
		sm_streams_wrapf(f, 7, "share: %s", buf);
	}
	/* two tables, so each fits 80 columns: counts, rates and spans, then
	 * the latency figures */
	fprintf(f, "\n%-8s %10s %7s %12s %10s\n", "phase", "count", "errors", "ops/s", "time");
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *ph = &r->ph[p];
		struct shown s;

		if (!ph->ran) {
			fprintf(f, "%-8s %s\n", sm_meta_phase_name((enum sm_meta_phase)p), why_not(r, p));
			continue;
		}
		show(ph, &s);
		fprintf(f, "%-8s %10llu %7llu %12s %10s\n", sm_meta_phase_name((enum sm_meta_phase)p),
			(unsigned long long)ph->op.count, (unsigned long long)ph->op.errors, s.rate, s.dur);
	}
	fprintf(f, "\n%-8s %10s %10s %10s %10s\n", "latency", "p50", "p99", "p99.9", "max");
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *ph = &r->ph[p];
		struct shown s;

		if (!ph->ran)
			continue;
		show(ph, &s);
		fprintf(f, "%-8s %10s %10s %10s %10s\n", sm_meta_phase_name((enum sm_meta_phase)p), s.p50,
			s.p99, s.p999, s.max);
	}
	fputc('\n', f);
	if (r->ranks) {
		job_words(buf, sizeof(buf), r);
		sm_streams_wrapf(f, 0, "%s", buf);
		fprintf(f, "\n%-8s %12s %14s %16s\n", "phase", "ops/s", "first-done/s", "first rank done");
		for (int p = 0; p < SM_META_NPHASES; p++) {
			const struct sm_meta_phase_fig *ph = &r->ph[p];
			char rate[32], at[32];

			if (!ph->ran)
				continue;
			first_done(ph, rate, sizeof(rate), at, sizeof(at));
			fprintf(f, "%-8s %12.1f %14s %16s\n", sm_meta_phase_name((enum sm_meta_phase)p),
				ph->per_s, rate, at);
		}
		fputc('\n', f);
	}
	if (sequence(buf, sizeof(buf), r))
		sm_streams_wrapf(f, 2, "%s", buf);
	if (caches_words(buf, sizeof(buf), r)[0])
		sm_streams_wrapf(f, 2, "%s", buf);
	outcome(f, r, "");
}

void sm_md_meta(FILE *f, const struct sm_meta_result *r)
{
	char buf[4400];

	subject(buf, sizeof(buf), r);
	fprintf(f, "# stormark meta\n\n%s\n\n", buf);
	if (sm_mount_is_share(&r->head.env.fs.mount)) {
		sm_mount_describe(&r->head.env.fs.mount, buf, sizeof(buf));
		fprintf(f, "Share: %s\n\n", buf);
	}
	fputs("| phase | count | errors | ops/s | time | p50 | p99 | p99.9 | max |\n"
	      "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *ph = &r->ph[p];
		struct shown s;

		if (!ph->ran) {
			fprintf(f, "| %s | %s | | | | | | | |\n", sm_meta_phase_name((enum sm_meta_phase)p),
				why_not(r, p));
			continue;
		}
		show(ph, &s);
		fprintf(f, "| %s | %llu | %llu | %s | %s | %s | %s | %s | %s |\n",
			sm_meta_phase_name((enum sm_meta_phase)p), (unsigned long long)ph->op.count,
			(unsigned long long)ph->op.errors, s.rate, s.dur, s.p50, s.p99, s.p999, s.max);
	}
	fputc('\n', f);
	if (r->ranks) {
		job_words(buf, sizeof(buf), r);
		fprintf(f, "%s.\n\n| phase | ops/s | first-done/s | first rank done |\n|---|---:|---:|---:|\n", buf);
		for (int p = 0; p < SM_META_NPHASES; p++) {
			const struct sm_meta_phase_fig *ph = &r->ph[p];
			char rate[32], at[32];

			if (!ph->ran)
				continue;
			first_done(ph, rate, sizeof(rate), at, sizeof(at));
			fprintf(f, "| %s | %.1f | %s | %s |\n", sm_meta_phase_name((enum sm_meta_phase)p),
				ph->per_s, rate, at);
		}
		fputc('\n', f);
	}
	if (sequence(buf, sizeof(buf), r))
		fprintf(f, "%s\n\n", buf);   /* no period: it would stick to the unit */
	if (caches_words(buf, sizeof(buf), r)[0])
		fprintf(f, "%s.\n\n", buf);
	outcome(f, r, "- ");
}

void sm_csv_meta(FILE *f, const struct sm_meta_result *r)
{
	fprintf(f, "phase,count,errors,bytes,duration_ns,per_s,mean_ns,p50_ns,p99_ns,p99_9_ns,max_ns%s\n",
		r->ranks ? ",first_done_ns,first_done_count,first_done_per_s" : "");
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *ph = &r->ph[p];
		const struct sm_hist *h = &ph->op.lat;

		if (!ph->ran)
			continue;
		fprintf(f, "%s,%llu,%llu,%llu,%llu,%.17g,%.17g,%llu,%llu,%llu,%llu",
			sm_meta_phase_name((enum sm_meta_phase)p), (unsigned long long)ph->op.count,
			(unsigned long long)ph->op.errors, (unsigned long long)ph->op.bytes,
			(unsigned long long)ph->duration_ns, ph->per_s, sm_hist_mean(h),
			(unsigned long long)sm_hist_percentile(h, 50),
			(unsigned long long)sm_hist_percentile(h, 99),
			(unsigned long long)sm_hist_percentile(h, 99.9),
			(unsigned long long)(h->count ? h->max : 0));
		if (r->ranks)   /* an MPI job: its first-done figures (docs/meta.md) */
			fprintf(f, ",%llu,%llu,%.17g", (unsigned long long)ph->first_done_ns,
				(unsigned long long)ph->first_done_count, ph->first_done_per_s);
		fputc('\n', f);
	}
}

void sm_html_meta(FILE *f, const struct sm_meta_result *r)
{
	const char *labels[SM_META_NPHASES];
	double rate[SM_META_NPHASES];
	const double *v[1] = { rate };
	const char *name[1] = { "ops/s" };
	char buf[4400];
	size_t n = 0;

	subject(buf, sizeof(buf), r);
	sm_html_begin(f, &r->head, buf);
	sm_html_section(f, "phases", "Phases");
	fputs("<table id=\"phases-table\"><tr><th>phase</th><th>count</th><th>errors</th>"
	      "<th>ops/s</th><th>time</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", f);
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *ph = &r->ph[p];
		struct shown s;

		fprintf(f, "<tr><td>%s</td>", sm_meta_phase_name((enum sm_meta_phase)p));
		if (!ph->ran) {
			fputs("<td colspan=\"8\">", f);
			sm_html_text(f, why_not(r, p));
			fputs("</td></tr>\n", f);
			continue;
		}
		show(ph, &s);
		fprintf(f, "<td>%llu</td><td>%llu</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
			"<td>%s</td><td>%s</td></tr>\n", (unsigned long long)ph->op.count,
			(unsigned long long)ph->op.errors, s.rate, s.dur, s.p50, s.p99, s.p999, s.max);
		labels[n] = sm_meta_phase_name((enum sm_meta_phase)p);
		rate[n++] = ph->per_s;
	}
	fputs("</table>\n", f);
	if (sequence(buf, sizeof(buf), r))
		sm_html_note(f, "note", "%s.", buf);
	if (caches_words(buf, sizeof(buf), r)[0])
		sm_html_note(f, "note", "%s.", buf);
	sm_html_section_end(f);
	if (r->ranks) {
		job_words(buf, sizeof(buf), r);
		sm_html_section(f, "job", "MPI job");
		fputs("<p>", f);
		sm_html_text(f, buf);
		fputs(".</p>\n<table id=\"job-table\"><tr><th>phase</th><th>ops/s</th><th>first-done/s</th>"
		      "<th>first rank done</th></tr>\n", f);
		for (int p = 0; p < SM_META_NPHASES; p++) {
			const struct sm_meta_phase_fig *ph = &r->ph[p];
			char rt[32], at[32];

			if (!ph->ran)
				continue;
			first_done(ph, rt, sizeof(rt), at, sizeof(at));
			fprintf(f, "<tr><td>%s</td><td>%.1f</td><td>%s</td><td>%s</td></tr>\n",
				sm_meta_phase_name((enum sm_meta_phase)p), ph->per_s, rt, at);
		}
		fputs("</table>\n", f);
		sm_html_section_end(f);
	}
	sm_html_section(f, "rates", "Operations per second");
	sm_html_chart_bars_x(f, "meta-rates", "Operations per second, per phase", "phase", "ops/s", n,
			     labels, 1, v, name);
	sm_html_section_end(f);
	sm_html_end(f);
}
