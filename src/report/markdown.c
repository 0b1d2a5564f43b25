/* SPDX-License-Identifier: MIT */
/* Markdown renderings of time, run, fileio and frames results. */
#include "report/markdown.h"
#include "report/stall.h"
#include "report/cliff.h"
#include "analysis/paced.h"
#include "report/steady.h"
#include "analysis/verdict.h"
#include "report/run_text.h"
#include "report/timeit.h"
#include "report/verdict_words.h"
#include "core/units.h"

#include <string.h>

#define MIB (1024.0 * 1024.0)

/* A table cell: '|' would end it early. */
static void cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc(' ', f);
}

/* The share under the test, one item, for a network or FUSE mount. */
static void share(FILE *f, const struct sm_env *e)
{
	char line[512];

	if (!sm_mount_is_share(&e->fs.mount))
		return;
	sm_mount_describe(&e->fs.mount, line, sizeof(line));
	fprintf(f, "- share: %s\n", line);
}

static void warnings(FILE *f, const struct sm_warnings *w, const char *title)
{
	if (!w->count)
		return;
	fprintf(f, "\n## %s\n\n", title);
	for (unsigned i = 0; i < w->count; i++)
		fprintf(f, "- `%s`: %s\n", w->item[i].code, w->item[i].message);
}

void sm_md_time(FILE *f, const struct sm_time_result *r)
{
	char a[48];
	int one = r->nruns == 1;

	fprintf(f, "# stormark time: `");
	for (int i = 0; i < r->cmd_argc; i++)
		fprintf(f, "%s%s", i ? " " : "", r->cmd_argv[i]);
	fprintf(f, "`\n\n%u run%s", r->nruns, r->nruns == 1 ? "" : "s");
	if (r->head.interrupted && r->nruns < r->runs_requested)
		fprintf(f, " of %u (interrupted by a signal)", r->runs_requested);
	if (r->warmup)
		fprintf(f, " after %u warm-up run%s", r->warmup, r->warmup == 1 ? "" : "s");
	fprintf(f, ", started %s, kernel %s\n\n", r->head.started_at, r->head.env.kernel);
	fprintf(f, one ? "| figure | value |\n|---|--:|\n"
		       : "| figure | mean | stddev | median | min | max |\n|---|--:|--:|--:|--:|--:|\n");
	for (int i = 0; i < SM_TF_COUNT; i++) {
		struct sm_tf_stat s;

		if (i == SM_TF_DISK_READ_IOS) {
			if (!r->disk_ok) {
				fprintf(f, "\nSystem-wide device figures: not available (%s).\n",
					sm_time_missing_reason(r, i));
				break;
			}
			fprintf(f, "\nSystem-wide, device %s (%u:%u): every process on the system, "
				   "not only this command.\n\n", r->disk.name, r->disk.major, r->disk.minor);
			fprintf(f, one ? "| figure | value |\n|---|--:|\n"
				       : "| figure | mean | stddev | median | min | max |\n"
					 "|---|--:|--:|--:|--:|--:|\n");
		}
		s = r->stat[i];
		cell(f, sm_tf_desc[i].label);
		if (!s.n) {
			char why[256];

			snprintf(why, sizeof(why), "n/a (%s)", sm_time_missing_reason(r, i));
			cell(f, why);
			for (int k = 0; !one && k < 4; k++)
				cell(f, "");
		} else if (one) {
			cell(f, sm_tf_format(a, sizeof(a), i, s.mean));
		} else {
			const double v[5] = { s.mean, s.stddev, s.median, s.min, s.max };

			for (int k = 0; k < 5; k++)
				cell(f, sm_tf_format(a, sizeof(a), i, v[k]));
		}
		fputs("|\n", f);
	}
	warnings(f, &r->head.warnings, "Hints");
}

static void md_classic(FILE *f, const struct sm_run_result *res)
{
	char a[32], b[32];

	if (res->plan.steady)   /* the rounds, not the budget's share */
		snprintf(b, sizeof(b), "%.0f s rounds until steady", (double)res->plan.steady_round_ns / 1e9);
	else
		sm_fmt_ns(b, sizeof(b), (double)res->classic_ns);
	fprintf(f, "\n## Classic figures\n\n%s file, %s, %s per test.\n\n",
		sm_fmt_bytes(a, sizeof(a), (double)res->file_bytes),
		res->direct_align > 0 ? "O_DIRECT" : "buffered", b);
	fprintf(f, "| test | read MiB/s | read IOPS | read p99 | write MiB/s | write IOPS | write p99 |\n"
		   "|---|--:|--:|--:|--:|--:|--:|\n");
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		const struct sm_run_classic *c = &res->classic[i];

		if (!c->label[0])
			continue;
		fprintf(f, "| %s ", c->label);
		for (int w = 0; w < 2; w++) {
			if (!c->fig[w].valid) {
				fprintf(f, "| - | - | - ");
				continue;
			}
			fprintf(f, "| %.1f | %.0f | %s ", c->fig[w].bytes_per_s / MIB, c->fig[w].iops,
				sm_fmt_ns(a, sizeof(a), (double)c->fig[w].p99_ns));
		}
		fputs("|\n", f);
	}
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			char line[320];

			if (sm_report_run_classic_stall_line(line, sizeof(line), res, i, w)[0])
				fprintf(f, "\n%c%s.\n", 'S', line + 1);
		}
	if (res->plan.steady || res->precond.on) {
		fputc('\n', f);
		sm_run_text_steady(f, res, "- ");
	}
}

static void md_frames(FILE *f, const struct sm_run_result *res)
{
	char a[32], b[32], c[32], d[32];

	fprintf(f, "\n## Frame tests\n\nOne file per frame, %u threads, %s, %s per test; "
		   "fps: highest sustained frame rate; p50..max: time per frame file.\n\n",
		res->plan.threads, res->direct_align > 0 ? "O_DIRECT" : "buffered",
		sm_fmt_ns(a, sizeof(a), (double)res->frame_ns));
	fprintf(f, "| frame size | test | fps | MiB/s | p50 | p99 | p99.9 | max |\n"
		   "|---|---|--:|--:|--:|--:|--:|--:|\n");
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];

		if (!s->preset[0])
			continue;
		for (int dir = 0; dir < 2; dir++) {
			const struct sm_run_frametest *t = &s->t[dir];

			fprintf(f, "| %s %llu KiB | %s ", s->preset,
				(unsigned long long)(s->frame_bytes / 1024), dir ? "read" : "write");
			if (!t->measured) {
				fprintf(f, "| - | - | - | - | - | - |\n");
				continue;
			}
			fprintf(f, "| %.1f | %.1f | %s | %s | %s | %s |\n", t->fps, t->bytes_per_s / MIB,
				sm_fmt_ns(a, sizeof(a), (double)t->p50_ns),
				sm_fmt_ns(b, sizeof(b), (double)t->p99_ns),
				sm_fmt_ns(c, sizeof(c), (double)t->p999_ns),
				sm_fmt_ns(d, sizeof(d), (double)t->max_ns));
		}
	}
	if (res->derived.sustained_size >= 0) {
		char words[256];

		fprintf(f, "\nThe 2K write (%s, the sustained write): %s.\n",
			sm_fmt_ns(a, sizeof(a), (double)res->sustain_ns),
			sm_report_cliff_words(words, sizeof(words),
					      &res->sizes[res->derived.sustained_size].t[0].cliff));
	}
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int dd = 0; dd < 2; dd++) {
			char line[320];

			if (sm_report_run_stall_line(line, sizeof(line), res, i, dd)[0])
				fprintf(f, "\n%c%s.\n", 'S', line + 1);
		}
}

/* Text with its '*' escaped (markdown would read emphasis): the marks. */
static void md_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '*')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void md_verdicts(FILE *f, const struct sm_run_result *res)
{
	unsigned nr = res->plan.nrates;
	char note[2048];

	fprintf(f, "\n## Real-time verdicts\n\n");
	if (!res->derived.verdicts_ready) {
		fprintf(f, res->derived.frames_skipped && !res->derived.frames_measured &&
				   res->reached >= SM_PHASE_VERDICTS
			   ? "None: no frame test fitted in the free space (see Warnings).\n"
			   : "None: the frame tests did not finish.\n");
		return;
	}
	md_escaped(f, sm_report_verdict_legend(note, sizeof(note), res));
	fprintf(f, "\n\n| format | MiB/frame |");
	for (int d = 0; d < 2; d++)
		for (unsigned k = 0; k < nr; k++)
			fprintf(f, " %s %s |", d ? "playback" : "capture", res->plan.rates[k]->name);
	fprintf(f, "\n|---|--:|");
	for (unsigned k = 0; k < 2 * nr; k++)
		fprintf(f, ":-:|");
	fputc('\n', f);
	for (unsigned r = 0; r < res->nrows; r++) {
		const struct sm_run_row *row = &res->rows[r];

		fprintf(f, "| %s | %.1f |", row->fmt.name, (double)row->fmt.frame_bytes / MIB);
		for (int d = 0; d < 2; d++)
			for (unsigned k = 0; k < nr; k++) {
				char m[16];

				fputc(' ', f);
				md_escaped(f, sm_report_verdict_mark(m, sizeof(m), &row->cell[d][k]));
				fputs(" |", f);
			}
		fputc('\n', f);
	}
	if (sm_report_paced_note(note, sizeof(note), res)[0])
		fprintf(f, "\n%s.\n", note);
	if (res->mpi_ranks)
		fprintf(f, "\nMPI job of %u ranks: each cell is the worst rank's; yes = every rank held it "
			"with all %u at once (%u streams, one per client).\n", res->mpi_ranks, res->mpi_ranks,
			res->mpi_ranks);
	fprintf(f, "\n%s.\n", sm_report_run_cliff_note(note, sizeof(note), res));
}

void sm_md_run(FILE *f, const struct sm_run_result *res)
{
	const struct sm_env *e = &res->head.env;
	char a[32], b[32], summary[2048];

	fprintf(f, "# stormark run: `%s`\n\n", res->plan.dir);
	fprintf(f, "- started: %s, %.1f s\n", res->head.started_at,
		(double)res->head.duration_ns / 1e9);
	fprintf(f, "- file system: %s on %s (mounted on %s), %s free of %s\n",
		e->fs.fs_type[0] ? e->fs.fs_type : "?", e->fs.device[0] ? e->fs.device : "?",
		e->fs.mount_point[0] ? e->fs.mount_point : "?",
		sm_fmt_bytes(a, sizeof(a), (double)e->fs.free_bytes),
		sm_fmt_bytes(b, sizeof(b), (double)e->fs.total_bytes));
	share(f, e);
	if (res->direct_align > 0)
		fprintf(f, "- direct I/O: works (%d-byte alignment)\n", res->direct_align);
	else
		fprintf(f, "- direct I/O: does not work here (%s): buffered I/O\n",
			strerror(-res->direct_align));
	fprintf(f, "- kernel: %s, %u CPUs%s%s%s%s%s, stormark %s\n", e->kernel, e->cpus,
		e->arch[0] || e->cpu_model[0] ? " (" : "", e->arch, e->arch[0] && e->cpu_model[0] ? ", " : "",
		e->cpu_model, e->arch[0] || e->cpu_model[0] ? ")" : "", res->head.version);
	if (res->mpi_ranks)
		fprintf(f, "- MPI job of %u ranks (rank 0's directory and plan above): every test started on all "
			"at once; the figures are the ranks' merge, each verdict the worst rank's (docs/mpi.md)\n",
			res->mpi_ranks);
	if (res->reached >= SM_PHASE_CLASSIC)
		md_classic(f, res);
	if (res->reached >= SM_PHASE_FRAMES) {
		md_frames(f, res);
		if (res->meta.measured) {
			char line[400];

			sm_run_meta_words(line, sizeof(line), res);
			line[0] = 'M';
			fprintf(f, "\n%s.\n", line);
		}
		md_verdicts(f, res);
	}
	warnings(f, &res->head.warnings, "Warnings");
	sm_run_summary(res, summary, sizeof(summary));
	fprintf(f, "\n## Summary\n\n%s\n", summary);
}

void sm_md_fileio(FILE *f, const struct sm_fileio_result *r)
{
	static const char *const names[3] = { "read", "write", "fsync" };
	const struct sm_fileio_cfg *c = &r->cfg;
	const struct sm_fileio_figures *g = &r->fig;
	char a[32], b[32];

	fprintf(f, "# stormark fileio: %s, %u thread%s, %s I/O\n\n", sm_fileio_mode_name(c->mode),
		c->threads, c->threads == 1 ? "" : "s",
		c->io_mode == SM_FIO_IO_ASYNC ? "async" : c->io_mode == SM_FIO_IO_MMAP ? "mmap" : "sync");
	fprintf(f, "- files: %u x %s in `%s` (%s on %s), %s\n", c->num_files,
		sm_fmt_bytes(a, sizeof(a), (double)c->file_size), c->dir,
		r->head.env.fs.fs_type[0] ? r->head.env.fs.fs_type : "?",
		r->head.env.fs.device[0] ? r->head.env.fs.device : "?",
		r->head.env.direct_io ? "direct I/O" : "buffered (page cache)");
	share(f, &r->head.env);
	fprintf(f, "- requests: %s blocks, engine %s, seed %llu\n",
		sm_fmt_bytes(b, sizeof(b), (double)c->block_size), r->engine,
		(unsigned long long)c->seed);
	fprintf(f, "- started: %s, %.3f s, %llu events%s\n\n", r->head.started_at, g->secs,
		(unsigned long long)r->events,
		r->failed ? " (failed: partial)" : r->head.interrupted ? " (interrupted)" : "");
	fprintf(f, "| op | count | per s | MiB/s | mean | p50 | p95 | p99 | p99.9 | max |\n"
		   "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	for (int i = 0; i < 4; i++) {
		const struct sm_hist *h = i < 3 ? &r->ops[i].lat : &r->events_lat;
		uint64_t n = i < 3 ? r->ops[i].count : r->events;
		const double v[] = { sm_hist_mean(h), (double)sm_hist_percentile(h, 50),
				     (double)sm_hist_percentile(h, 95), (double)sm_hist_percentile(h, 99),
				     (double)sm_hist_percentile(h, 99.9), (double)h->max };

		fprintf(f, "| %s | %llu | %.1f | %.2f |", i < 3 ? names[i] : "event",
			(unsigned long long)n, g->per_s[i], g->bytes_per_s[i] / MIB);
		for (int k = 0; k < 6; k++)
			fprintf(f, " %s |", h->count ? sm_fmt_ns(a, sizeof(a), v[k]) : "-");
		fputc('\n', f);
	}
	fprintf(f, "\nread/write/fsync: each request from issue to completion; event: its "
		   "thread's time on it, as sysbench counts it.\n");
	sm_steady_text(f, &r->steady, &r->precond, 1);
	if (sm_fileio_mode_writes(r->cfg.mode) && !r->steady.on) {
		char words[256];

		fprintf(f, "\nCliff: %s (docs/cliff.md).\n",
			sm_report_cliff_words(words, sizeof(words), &r->cliff));
	}
	warnings(f, &r->head.warnings, "Warnings");
}

/* One row of the frames operation table: count, errors (< 0: "-"), then
 * the latencies of h ("-" where it has none). */
static void md_lat_row(FILE *f, const char *name, uint64_t n, int64_t errors, const struct sm_hist *h)
{
	const double v[] = { sm_hist_mean(h), (double)sm_hist_percentile(h, 50),
			     (double)sm_hist_percentile(h, 95), (double)sm_hist_percentile(h, 99),
			     (double)sm_hist_percentile(h, 99.9), (double)h->max };
	char a[32];

	fprintf(f, "| %s | %llu |", name, (unsigned long long)n);
	if (errors < 0)
		fputs(" - |", f);
	else
		fprintf(f, " %lld |", (long long)errors);
	for (int k = 0; k < 6; k++)
		fprintf(f, " %s |", h->count ? sm_fmt_ns(a, sizeof(a), v[k]) : "-");
	fputc('\n', f);
}

static void md_frames_paced(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	struct sm_paced pc;
	int v = -1;

	fprintf(f, "| frames dropped | %llu of %llu (longest run %llu) |\n",
		(unsigned long long)r->frames_dropped, (unsigned long long)r->frames_scheduled,
		(unsigned long long)r->longest_drop_run);
	fprintf(f, "| paced frame rate | %.2f fps (%llu frames %s) |\n", r->paced_fps,
		(unsigned long long)r->paced_frames, p->kind == SM_FRAMES_READ ? "shown on time" : "written");
	fprintf(f, "| buffers used at most | %llu of %u |\n", (unsigned long long)r->max_queue, p->queue);
	if (!r->video_format[0])
		return;
	sm_paced_from_frames(r, &pc);
	v = sm_verdict_paced(&pc);
	fprintf(f, "\n## Verdict\n\n%s %s at %g fps: **%s** (%llu of %llu frames dropped, p99.9 "
		   "from schedule %.2f ms, frame interval %.2f ms, %u buffers)\n",
		r->video_format, r->video_capture ? "capture" : "playback", p->fps,
		v < 0 ? "undecided" : sm_verdict_name((enum sm_verdict)v),
		(unsigned long long)pc.dropped, (unsigned long long)pc.scheduled,
		(double)pc.p999_sched_ns / 1e6, (double)pc.interval_ns / 1e6, pc.queue);
}

static void md_frames_verify(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_verify_stats *st = &r->verify;
	char what[512];

	fprintf(f, "\n## Verification (--verify)\n\n%llu blocks sealed, %llu checked, %llu "
		   "problem%s\n", (unsigned long long)st->sealed, (unsigned long long)st->checked,
		(unsigned long long)st->problems, st->problems == 1 ? "" : "s");
	for (unsigned i = 0; i < st->nkept; i++) {
		sm_verify_describe(what, sizeof(what), &st->kept[i]);
		fprintf(f, "- frame %u, %s\n", st->kept[i].file, what);
	}
}

void sm_md_frames(FILE *f, const struct sm_frames_result *r)
{
	static const char *const kinds[] = { "write", "read", "empty frames" };
	const struct sm_frames_plan *p = &r->plan;
	const struct sm_frames_figures *g = &r->fig;
	int rd = p->kind == SM_FRAMES_READ;
	char a[32], b[32];

	fprintf(f, "# stormark frames: %s, %llu frame%s of %s, %u thread%s\n\n", kinds[p->kind],
		(unsigned long long)r->frames_scheduled, r->frames_scheduled == 1 ? "" : "s",
		sm_fmt_bytes(a, sizeof(a), (double)p->frame_bytes), p->threads, p->threads == 1 ? "" : "s");
	fprintf(f, "- %s: `%s` (%s on %s), %s, engine %s\n", p->stream ? "stream" : "frames in",
		p->path ? p->path : "?", r->head.env.fs.fs_type[0] ? r->head.env.fs.fs_type : "?",
		r->head.env.fs.device[0] ? r->head.env.fs.device : "?",
		p->direct ? "O_DIRECT" : "buffered", p->engine ? p->engine : "?");
	share(f, &r->head.env);
	if (r->test_params[0])
		fprintf(f, "- test parameters: `%s`\n", r->test_params);
	if (p->fps > 0)
		fprintf(f, "- paced: %g fps, %u buffers, %u pre-buffered\n", p->fps, p->queue, p->prebuffer);
	fprintf(f, "- started: %s, %.3f s%s\n\n", r->head.started_at, g->secs,
		r->head.error[0] ? " (failed: partial)" : r->head.interrupted ? " (interrupted)" : "");
	fprintf(f, "| figure | value |\n|---|--:|\n");
	fprintf(f, "| frames transferred | %llu of %llu |\n", (unsigned long long)r->frames_done,
		(unsigned long long)r->frames_scheduled);
	fprintf(f, "| data | %s |\n", sm_fmt_bytes(a, sizeof(a), (double)r->bytes));
	fprintf(f, "| frame rate | %.2f fps |\n", g->frames_per_s);
	fprintf(f, "| data rate | %.2f MiB/s |\n", g->bytes_per_s / MIB);
	if (r->frames_done)
		fprintf(f, "| fastest frame | %s (%.2f MiB/s) |\n| slowest frame | %s (%.2f MiB/s) |\n",
			sm_fmt_ns(a, sizeof(a), (double)r->fastest_ns), g->fastest_bytes_per_s / MIB,
			sm_fmt_ns(b, sizeof(b), (double)r->slowest_ns), g->slowest_bytes_per_s / MIB);
	if (p->fps > 0)
		md_frames_paced(f, r);
	if (p->kind == SM_FRAMES_WRITE) {
		char words[256];

		fprintf(f, "\nCliff: %s (docs/cliff.md).\n",
			sm_report_cliff_words(words, sizeof(words), &r->cliff));
	}
	if (r->stalls.measured) {
		char words[256];

		fprintf(f, "\nStalls: %s (docs/methodology.md).\n",
			sm_report_stall_words(words, sizeof(words), &r->stalls));
	}
	fprintf(f, "\n## Times\n\n| op | count | errors | mean | p50 | p95 | p99 | p99.9 | max |\n"
		   "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	md_lat_row(f, rd ? "open" : "create", r->open.count, (int64_t)r->open.errors, &r->open.lat);
	if (p->kind != SM_FRAMES_EMPTY)
		md_lat_row(f, rd ? "read" : "write", r->io.count, (int64_t)r->io.errors, &r->io.lat);
	md_lat_row(f, "close", r->close.count, (int64_t)r->close.errors, &r->close.lat);
	md_lat_row(f, "frame", r->frame.count, (int64_t)r->frame.errors, &r->frame.lat);
	if (p->fps > 0)
		md_lat_row(f, "from schedule", r->sched_lat.count, -1, &r->sched_lat);
	if (p->fps > 0 && rd) {
		md_lat_row(f, "late by", r->late.count, -1, &r->late);
		md_lat_row(f, "early by", r->early.count, -1, &r->early);
	}
	fprintf(f, "\nframe: open + %s + close of one frame file; ", rd ? "read" : "write");
	if (p->fps > 0)
		fprintf(f, "from schedule: completion against the frame's %s (docs/pacing.md); ",
			rd ? "buffer's free time" : "arrival");
	fprintf(f, "times per request from issue to completion.\n");
	if (p->verify)
		md_frames_verify(f, r);
	warnings(f, &r->head.warnings, "Warnings");
	if (r->head.error[0])
		fprintf(f, "\n## Error\n\n%s\n", r->head.error);
}
