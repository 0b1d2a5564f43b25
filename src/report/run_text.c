/* SPDX-License-Identifier: MIT */
/* `stormark run` terminal report: header, classic figures, frame tests,
 * verdict table and summary, readable at 80 columns. */
#include "report/run_text.h"
#include "analysis/share.h"
#include "report/steady.h"
#include "analysis/verdict.h"
#include "report/cliff.h"
#include "report/stall.h"
#include "report/streams.h"
#include "report/verdict_words.h"
#include "core/units.h"

#include <stdarg.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

void sm_run_text_header(FILE *f, const struct sm_run_result *res)
{
	const struct sm_env *e = &res->head.env;
	char a[32], b[32], c[32], d[512];

	/* a long path or device name wraps at 79 columns, under its value */
	sm_streams_wrapf(f, 2, "stormark run: profiling the storage that holds '%s'", res->plan.dir);
	sm_streams_wrapf(f, 15, "  file system  %s on %s (mounted on %s)", e->fs.fs_type[0] ? e->fs.fs_type : "?",
		e->fs.device[0] ? e->fs.device : "?", e->fs.mount_point[0] ? e->fs.mount_point : "?");
	if (sm_mount_is_share(&e->fs.mount)) {   /* a network or FUSE share: docs/shares.md */
		sm_mount_describe(&e->fs.mount, d, sizeof(d));
		sm_streams_wrapf(f, 15, "  share        %s", d);
	}
	fprintf(f, "  free space   %s of %s\n", sm_fmt_bytes(a, sizeof(a), (double)e->fs.free_bytes),
		sm_fmt_bytes(b, sizeof(b), (double)e->fs.total_bytes));
	fprintf(f, "  free RAM     %s of %s\n",
		sm_fmt_bytes(a, sizeof(a), (double)e->mem_available_bytes),
		sm_fmt_bytes(b, sizeof(b), (double)e->mem_total_bytes));
	if (e->arch[0] || e->cpu_model[0])   /* absent in a result saved before */
		fprintf(f, "  CPU          %u x %s%s%s\n", e->cpus, e->cpu_model[0] ? e->cpu_model : "?",
			e->arch[0] ? ", " : "", e->arch);
	if (res->direct_align > 0)
		fprintf(f, "  direct I/O   works (%d-byte alignment): caches in this machine are "
			   "bypassed\n", res->direct_align);
	else
		sm_streams_wrapf(f, 15, "  direct I/O   does not work here (%s): buffered I/O",
			strerror(-res->direct_align));
	fprintf(f, "  working set  %s file for block tests, %s of frames per size\n",
		sm_fmt_bytes(a, sizeof(a), (double)res->file_bytes_planned),
		sm_fmt_bytes(b, sizeof(b), (double)res->frames_bytes));
	fprintf(f, "  time         about %.0f s: %s per block test, %s per frame test,\n"
		   "               %s per paced run, %s for the sustained 2K write\n",
		(double)res->plan.time_ns / 1e9, sm_fmt_ns(a, sizeof(a), (double)res->classic_ns),
		sm_fmt_ns(b, sizeof(b), (double)res->frame_ns),
		sm_fmt_ns(c, sizeof(c), (double)res->paced_ns),
		sm_fmt_ns(d, sizeof(d), (double)res->sustain_ns));
	sm_streams_wrapf(f, 15, "  test data    %s (%s)", res->data_dir,
		res->plan.keep ? "kept: --keep" : "removed at the end");
}

/* v in at most 8 characters (the null engine's figures are huge). */
static const char *num8(char *buf, double v, int decimals)
{
	if (v < 1e5 && decimals)
		snprintf(buf, 32, "%.1f", v);
	else if (v < 1e8)
		snprintf(buf, 32, "%.0f", v);
	else
		snprintf(buf, 32, "%.1e", v);
	return buf;
}

/* One "MiB/s IOPS p99" triple, or dashes when not measured. */
static void classic_cell(FILE *f, const struct sm_run_classic_fig *fig)
{
	char p99[32], mbs[32], iops[32];

	if (!fig->valid) {
		fprintf(f, "  %8s %8s %9s", "-", "-", "-");
		return;
	}
	fprintf(f, "  %8s %8s %9s", num8(mbs, fig->bytes_per_s / MIB, 1),
		num8(iops, fig->iops, 0), sm_fmt_ns(p99, sizeof(p99), (double)fig->p99_ns));
}

/* --steady and --precondition under the classic table (text and markdown):
 * which tests steadied, when, and what the figures cover. */
void sm_run_text_steady(FILE *f, const struct sm_run_result *res, const char *lead)
{
	const struct sm_precond *pc = &res->precond;
	int md = lead[0] == '-';
	char line[512], a[32], b[32];

	if (pc->on) {
		snprintf(line, sizeof(line), "%sprecondition: %s of %s written sequentially in 128 KiB requests "
			 "(twice the file) in %.1f s (%.2f MiB/s)%s", md ? lead : "",
			 sm_fmt_bytes(a, sizeof(a), (double)pc->bytes),
			 sm_fmt_bytes(b, sizeof(b), (double)pc->target_bytes), (double)pc->duration_ns / 1e9,
			 pc->bytes_per_s / MIB, pc->bytes < pc->target_bytes ? " (stopped early)" : "");
		md ? (void)fprintf(f, "%s\n", line) : sm_text_wrap(f, line, 79, (unsigned)strlen(lead));
	}
	if (!res->plan.steady)
		return;
	snprintf(line, sizeof(line), "%ssteady state (SNIA PTS: the last 5 rounds of %.0f s within 20%% of "
		 "their average, best-fit line within 10%%; IOPS for random tests, bandwidth for sequential "
		 "ones); the figures above are those 5 rounds':", md ? lead : "",
		 (double)res->plan.steady_round_ns / 1e9);
	md ? (void)fprintf(f, "%s\n", line) : sm_text_wrap(f, line, 79, (unsigned)strlen(lead));
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			const struct sm_run_classic *c = &res->classic[i];
			char brief[256];
			int n;

			if (!c->label[0] || !c->steady[w].on)
				continue;
			sm_steady_brief(brief, sizeof(brief), &c->steady[w]);
			n = snprintf(line, sizeof(line), "%s%s %s: %s", md ? "  - " : "", c->label,
				     w ? "write" : "read", brief);
			(void)n;
			md ? (void)fprintf(f, "%s\n", line) : sm_text_wrap(f, line, 79, (unsigned)strlen(lead) + 2);
		}
}

void sm_run_text_classic(FILE *f, const struct sm_run_result *res)
{
	char a[32], b[32];

	if (res->plan.steady)   /* the rounds, not the budget's share */
		snprintf(b, sizeof(b), "%.0f s rounds until steady", (double)res->plan.steady_round_ns / 1e9);
	else
		sm_fmt_ns(b, sizeof(b), (double)res->classic_ns);
	fprintf(f, "\nClassic figures (%s file, %s, %s per test)\n",
		sm_fmt_bytes(a, sizeof(a), (double)res->file_bytes),
		res->direct_align > 0 ? "O_DIRECT" : "buffered", b);
	fprintf(f, "  %-16s%29s%29s\n", "", "read", "write");
	fprintf(f, "  %-16s  %8s %8s %9s  %8s %8s %9s\n", "test", "MiB/s", "IOPS", "p99", "MiB/s",
		"IOPS", "p99");
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		const struct sm_run_classic *c = &res->classic[i];

		if (!c->label[0])
			continue;
		fprintf(f, "  %-16s", c->label);
		classic_cell(f, &c->fig[0]);
		classic_cell(f, &c->fig[1]);
		fputc('\n', f);
	}
	if (res->plan.engine)
		fprintf(f, "  engine: %s for every test; writes overwrite the file\n",
			res->plan.engine);
	else if (res->block_engine[0])
		fprintf(f, "  engine: %s for queued tests, psync at QD1; writes overwrite the "
			   "file\n", res->block_engine);
	if (res->derived.queued_fallback)
		fprintf(f, "  note: %s; QD>1 rows ran one I/O at a time\n",
			res->notice[0] ? res->notice : "a synchronous engine was used");
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			char line[320];

			if (sm_report_run_classic_stall_line(line, sizeof(line), res, i, w)[0])
				sm_text_wrap(f, line, 78, 2);
		}
	sm_run_text_steady(f, res, "  ");
}

void sm_run_text_frames(FILE *f, const struct sm_run_result *res)
{
	char a[32];

	fprintf(f, "\nFrame tests (one file per frame, %u threads, %s, %s per test)\n",
		res->plan.threads, res->direct_align > 0 ? "O_DIRECT" : "buffered",
		sm_fmt_ns(a, sizeof(a), (double)res->frame_ns));
	fprintf(f, "  %-13s %-5s %7s %8s %9s %9s %9s %9s\n", "frame size", "test", "fps", "MiB/s",
		"p50", "p99", "p99.9", "max");
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];

		if (!s->preset[0])
			continue;
		for (int d = 0; d < 2; d++) {
			const struct sm_run_frametest *t = &s->t[d];
			char label[32], p50[16], p99[16], p999[16], mx[16], fps[32], mbs[32];

			if (d == 0)
				snprintf(label, sizeof(label), "%s %llu KiB", s->preset,
					 (unsigned long long)(s->frame_bytes / 1024));
			else
				label[0] = '\0';
			if (!t->measured) {
				fprintf(f, "  %-13s %-5s %7s\n", label, d ? "read" : "write", "-");
				continue;
			}
			fprintf(f, "  %-13s %-5s %7s %8s %9s %9s %9s %9s\n", label,
				d ? "read" : "write", num8(fps, t->fps, 1),
				num8(mbs, t->bytes_per_s / MIB, 1),
				sm_fmt_ns(p50, sizeof(p50), (double)t->p50_ns),
				sm_fmt_ns(p99, sizeof(p99), (double)t->p99_ns),
				sm_fmt_ns(p999, sizeof(p999), (double)t->p999_ns),
				sm_fmt_ns(mx, sizeof(mx), (double)t->max_ns));
		}
	}
	fprintf(f, "  fps: highest sustained frame rate; p50..max: time per frame file\n"
		   "  (open + I/O + close)\n");
	if (res->derived.sustained_size >= 0) {
		char words[256], line[320];

		snprintf(line, sizeof(line), "the 2K write (%s, the sustained write): %s",
			 sm_fmt_ns(a, sizeof(a), (double)res->sustain_ns),
			 sm_report_cliff_words(words, sizeof(words),
					       &res->sizes[res->derived.sustained_size].t[0].cliff));
		sm_text_wrap(f, line, 78, 2);
	}
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			char line[320];

			if (sm_report_run_stall_line(line, sizeof(line), res, i, d)[0])
				sm_text_wrap(f, line, 78, 2);
		}
	if (res->meta.measured) {
		char line[400];

		sm_run_meta_words(line, sizeof(line), res);
		sm_text_wrap(f, line, 78, 2);
	}
}

void sm_run_meta_words(char *buf, size_t len, const struct sm_run_result *res)
{
	const struct sm_run_meta *m = &res->meta;
	char b[32], c[32], who[96] = "";

	if (!m->measured) {
		if (len)
			buf[0] = '\0';
		return;
	}
	if (m->ranks)   /* an MPI job: every rank ran it at once; the slowest rank's line */
		snprintf(who, sizeof(who), "rank %u's, the slowest of %u ranks running it at once; ",
			 m->rank, m->ranks);
	snprintf(buf, len, "metadata (%s%llu files of %llu bytes, one thread%s): stat %.0f/s, header "
		 "probe %.0f/s, listing %.0f entries/s: a sequence of %llu frames is listed in %s, "
		 "every frame stat'ed and its header read in %s", who,
		 (unsigned long long)m->files, (unsigned long long)m->size_bytes,
		 m->caches == SM_META_CACHES_DROPPED ? ", caches dropped" :
		 m->caches == SM_META_CACHES_WARM ? ", warm caches" : "",
		 m->stat_per_s,
		 m->probe_per_s, m->list_per_s, (unsigned long long)m->seq_frames,
		 sm_fmt_ns(b, sizeof(b), m->seq_list_ns), sm_fmt_ns(c, sizeof(c), m->seq_probe_ns));
}

void sm_run_text_rest(FILE *f, const struct sm_run_result *res, int colour, int from)
{
	char summary[2048];

	if (from <= SM_PHASE_CLASSIC && res->reached >= SM_PHASE_CLASSIC)
		sm_run_text_classic(f, res);
	if (from <= SM_PHASE_FRAMES && res->reached >= SM_PHASE_FRAMES)
		sm_run_text_frames(f, res);
	if (from <= SM_PHASE_VERDICTS && res->reached >= SM_PHASE_FRAMES)
		sm_run_text_verdicts(f, res, colour);
	if (res->head.warnings.count) {
		fprintf(f, "\nWarnings\n");
		for (unsigned i = 0; i < res->head.warnings.count; i++)
			sm_text_wrap(f, res->head.warnings.item[i].message, 78, 2);
	}
	sm_run_summary(res, summary, sizeof(summary));
	fprintf(f, "\nSummary\n");
	sm_text_wrap(f, summary, 78, 2);
	if (res->plan.keep)
		fprintf(f, "\nTest data kept in %s\n", res->data_dir);
	fflush(f);
}

void sm_run_text(FILE *f, const struct sm_run_result *res, int colour)
{
	sm_run_text_header(f, res);
	sm_run_text_rest(f, res, colour, SM_PHASE_SETUP);
}

static void print_cell(FILE *f, const struct sm_verdict_cell *c, int colour, int last)
{
	static const char *const col[] = { "\033[31m", "\033[33m", "\033[32m" };
	char word[8];

	sm_report_verdict_mark(word, sizeof(word), c);
	/* no trailing blanks after the last cell */
	if (colour)
		fprintf(f, last ? " %s%s\033[0m" : " %s%-4s\033[0m", col[c->final], word);
	else
		fprintf(f, last ? " %s" : " %-4s", word);
}

/* The table's footnote on what lasts (sm_report_run_cliff_note()). */
static void verdicts_cliff_note(FILE *f, const struct sm_run_result *res)
{
	char line[512];

	sm_text_wrap(f, sm_report_run_cliff_note(line, sizeof(line), res), 78, 2);
}

void sm_run_text_verdicts(FILE *f, const struct sm_run_result *res, int colour)
{
	unsigned nr = res->plan.nrates;
	char note[2048];

	fprintf(f, "\nReal-time verdicts\n");
	if (!res->derived.verdicts_ready) {
		fprintf(f, res->derived.frames_skipped && !res->derived.frames_measured &&
				   res->reached >= SM_PHASE_VERDICTS
			   ? "  none: no frame test fitted in the free space (see Warnings)\n"
			   : "  none: the frame tests did not finish\n");
		return;
	}
	sm_text_wrap(f, sm_report_verdict_legend(note, sizeof(note), res), 78, 2);
	fprintf(f, "  %-16s %6s  %-*s %s\n", "", "MiB/", (int)(nr * 5), "capture at fps",
		"playback at fps");
	fprintf(f, "  %-16s %6s ", "format", "frame");
	for (int d = 0; d < 2; d++) {
		for (unsigned k = 0; k < nr; k++)
			fprintf(f, d && k == nr - 1 ? " %s" : " %-4s", res->plan.rates[k]->name);
		if (!d)
			fputc(' ', f);
	}
	fputc('\n', f);
	for (unsigned r = 0; r < res->nrows; r++) {
		const struct sm_run_row *row = &res->rows[r];

		fprintf(f, "  %-16s %6.1f ", row->fmt.name, (double)row->fmt.frame_bytes / MIB);
		for (int d = 0; d < 2; d++) {
			for (unsigned k = 0; k < nr; k++)
				print_cell(f, &row->cell[d][k], colour, d && k == nr - 1);
			if (!d)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
	if (sm_report_paced_note(note, sizeof(note), res)[0])
		sm_text_wrap(f, note, 78, 2);
	if (res->mpi_ranks) {
		snprintf(note, sizeof(note), "MPI job of %u ranks: each cell is the worst rank's; yes = every "
			 "rank held it with all %u at once (%u streams, one per client)", res->mpi_ranks,
			 res->mpi_ranks, res->mpi_ranks);
		sm_text_wrap(f, note, 78, 2);
	}
	verdicts_cliff_note(f, res);
}

/* Append printf output to buf at *pos. */
static void add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n < len - *pos ? (size_t)n : len - *pos - 1;
}

static void summary_best(const struct sm_run_result *res, char *buf, size_t len, size_t *pos,
			 int d)
{
	const char *verb = d == SM_DIR_CAPTURE ? "capture" : "play back";
	const struct sm_run_best *b = &res->derived.best[d], *m = &res->derived.marginal[d];
	struct sm_verdict_cell yes = { .final = SM_VERDICT_REALTIME };
	char who[64] = "It", what[64];

	if (res->mpi_ranks)   /* the table is per client, all at once */
		snprintf(who, sizeof(who), "Each of %u clients at once", res->mpi_ranks);
	/* the legend's words for the class (report/verdict_words.c) */
	if (!b->found)
		add(buf, len, pos, "%s cannot %s any of the %u tested formats in %s. ", who, verb,
		    res->nrows, sm_report_verdict_meaning(&yes));
	else
		add(buf, len, pos, "%s can %s up to %s at %s fps in %s (%.0f MiB/s needed). ", who,
		    verb, res->rows[b->row].fmt.name, res->plan.rates[b->rate]->name,
		    sm_report_verdict_meaning(&yes), res->rows[b->row].cell[d][b->rate].needed / MIB);
	if (!m->found)
		return;
	snprintf(what, sizeof(what), "%s%s", res->mpi_ranks ? "Each client's " : "",
		 res->mpi_ranks ? (d == SM_DIR_CAPTURE ? "capture" : "playback")
				: (d == SM_DIR_CAPTURE ? "Capture" : "Playback"));
	add(buf, len, pos, "%s of %s at %s fps is %s (%.0f MiB/s needed). ", what,
	    res->rows[m->row].fmt.name, res->plan.rates[m->rate]->name,
	    sm_report_verdict_meaning(&res->rows[m->row].cell[d][m->rate]),
	    res->rows[m->row].cell[d][m->rate].needed / MIB);
}

void sm_run_summary(const struct sm_run_result *res, char *buf, size_t len)
{
	const struct sm_run_derived *dv = &res->derived;
	size_t pos = 0;

	buf[0] = '\0';
	add(buf, len, &pos, "This storage (%s on %s) ", res->head.env.fs.fs_type[0] ?
	    res->head.env.fs.fs_type : "?", res->head.env.fs.device[0] ? res->head.env.fs.device : "?");
	if (dv->ref_size >= 0) {
		const struct sm_run_size *two = &res->sizes[dv->ref_size];

		add(buf, len, &pos, "wrote 2K frames at %.0f fps (%.0f MiB/s) and read them at "
		    "%.0f fps (%.0f MiB/s). ", two->t[0].fps, two->t[0].bytes_per_s / MIB,
		    two->t[1].fps, two->t[1].bytes_per_s / MIB);
	} else {
		add(buf, len, &pos, "was profiled only in part. ");
	}
	if (dv->verdicts_ready && res->nrows) {
		summary_best(res, buf, len, &pos, SM_DIR_CAPTURE);
		summary_best(res, buf, len, &pos, SM_DIR_PLAYBACK);
	}
	if (!res->mpi_ranks) {   /* a job's answer is its clients' already */
		char one[256];

		sm_share_per_client(&res->head.env.fs.mount, one, sizeof(one));
		add(buf, len, &pos, "%s", one);
	}
	if (res->head.interrupted)
		add(buf, len, &pos, "The run was interrupted, so these figures are partial. ");
	if (res->direct_align <= 0)
		add(buf, len, &pos, "Direct I/O did not work, so the page cache may have served "
			"part of the data and the figures can be too high. ");
	if (dv->small_working_set)
		add(buf, len, &pos, "The free space allowed only a small working set. ");
	if (res->notice[0])
		add(buf, len, &pos, "io_uring was not available, so the queued block tests "
			"ran one I/O at a time. ");
	for (int d = 0; dv->verdicts_ready && d < 2; d++)
		if (dv->stall_cells[d])
			add(buf, len, &pos, "A %s test completed nothing for %.2f s, longer than %u "
			    "frames of buffers last at %u of the table's %s cells (#), so those are not "
			    "real time whatever the mean rate. ", d == SM_DIR_CAPTURE ? "write" : "read",
			    (double)dv->stall_ns[d] / 1e9, res->plan.queue, dv->stall_cells[d],
			    d == SM_DIR_CAPTURE ? "capture" : "playback");
	if (dv->verdicts_ready && dv->unconfirmed)
		add(buf, len, &pos, "%u verdict%s %s unconfirmed (?): the rates say %s up, but the "
		    "run's evidence (a burst, a second under the need, a write too short to look for "
		    "a cliff, or frames larger than any measured) does not bear %s out and no paced "
		    "run confirmed %s. ", dv->unconfirmed, dv->unconfirmed == 1 ? "" : "s",
		    dv->unconfirmed == 1 ? "is" : "are", dv->unconfirmed == 1 ? "it keeps" : "they keep",
		    dv->unconfirmed == 1 ? "it" : "them", dv->unconfirmed == 1 ? "it" : "them");
	if (res->near_unconfirmed)
		add(buf, len, &pos, "%u near-limit verdict%s could not be checked by a paced run "
			"in the time given (try a longer --time). ", res->near_unconfirmed,
		    res->near_unconfirmed == 1 ? "" : "s");
	if (dv->short_run)
		add(buf, len, &pos, "A run this short gives rough figures. ");
	if (dv->verdicts_ready && dv->cliff_found)
		add(buf, len, &pos, "Its write rate fell during the sustained write (a cliff), so "
			"capture verdicts use the rate after the fall%s. ", dv->cliff_downgraded ?
			"; the burst alone would have promised more" : "");
	else if (dv->verdicts_ready && dv->sustained_size >= 0 && dv->cliff_unlooked)
		add(buf, len, &pos, "The sustained write was too short to look for a cliff "
			"(--time %u s or more), so a write rate that falls later is not in the "
			"capture verdicts. ", SM_RUN_CLIFF_MIN_TIME_S);
	if (res->direct_align > 0)
		add(buf, len, &pos, "I/O bypassed this machine's page cache; caches below it (a "
			"RAID controller, a virtual disk's host) may still flatter the figures.");
}

void sm_text_wrap(FILE *f, const char *text, unsigned width, unsigned indent)
{
	const char *p = text;

	while (*p) {
		const char *line = p, *brk = NULL;
		unsigned col = indent;

		while (*p == ' ')
			p++;
		line = p;
		while (*p && col < width) {
			if (*p == ' ')
				brk = p;
			p++;
			col++;
		}
		if (*p && brk && *p != ' ')
			p = brk;
		fprintf(f, "%*s%.*s\n", (int)indent, "", (int)(p - line), line);
		while (*p == ' ')
			p++;
	}
}
