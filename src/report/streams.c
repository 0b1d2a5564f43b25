/* SPDX-License-Identifier: MIT */
/* `stormark streams` as text and markdown. */
#include "report/streams.h"
#include "report/cliff.h"
#include "analysis/share.h"
#include "analysis/streams.h"
#include "analysis/verdict.h"
#include "core/units.h"

#include <stdarg.h>
#include <string.h>

#define WIDTH SM_STREAMS_TEXT_WIDTH
#define wrapf sm_streams_wrapf

void sm_streams_wrapf(FILE *f, unsigned indent, const char *fmt, ...)
{
	char buf[4096];
	const char *p = buf;
	size_t col = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	while (*p) {
		size_t gap = strspn(p, " "), n = strcspn(p + gap, " ");

		if (!n)
			break;   /* no trailing blank */
		/* a figure stays with its unit: "16 s", "2.05 MiB/s" */
		if (p[gap + n - 1] >= '0' && p[gap + n - 1] <= '9' && p[gap + n] == ' ' &&
		    p[gap + n + 1] && p[gap + n + 1] != ' ')
			n += 1 + strcspn(p + gap + n + 1, " ");
		if (col > indent && gap && col + gap + n > WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			p += gap;
			gap = 0;
		}
		fwrite(p, 1, gap + n, f);
		col += gap + n;
		p += gap + n;
	}
	fputc('\n', f);
}

const struct sm_streams_step *sm_streams_step_at(const struct sm_streams_cell *c, unsigned n)
{
	const struct sm_streams_step *s = NULL;

	for (unsigned k = 0; k < c->nsteps; k++)
		if (c->steps[k].n == n)
			s = &c->steps[k];
	return s;
}

char *sm_report_streams_answer(char *buf, size_t len, const struct sm_streams_cell *c)
{
	if (!c->measured)
		snprintf(buf, len, "not measured");
	else if (c->max_high > c->max_raw)   /* it moved between trials: a range */
		snprintf(buf, len, "%u to %u (%u%s)%s", c->max_raw, c->max_high, c->max_headroom,
			 c->lowered ? "!" : "", c->searched ? "" : "?");
	else
		snprintf(buf, len, "%s%u (%s%u%s)%s", c->at_cap ? ">=" : "", c->max_raw,
			 c->at_cap && !c->lowered ? ">=" : "", c->max_headroom, c->lowered ? "!" : "",
			 c->searched ? "" : "?");
	return buf;
}

char *sm_report_streams_trials(char *buf, size_t len, const struct sm_streams_cell *c)
{
	size_t pos = 0;
	int n = 0;

	buf[0] = '\0';
	if (!c->measured || !c->trials_known || (!c->raw_trials && !c->fail_trials))
		return buf;
	if (c->raw_trials)   /* the cell's own trials (a bound lowers the answer, not them) */
		n = snprintf(buf, len, "%u held %u/%u", c->own_raw, c->raw_held, c->raw_trials);
	pos = n > 0 && (size_t)n < len ? (size_t)n : 0;
	if (c->fail_trials)
		snprintf(buf + pos, len - pos, "%s%u failed %u/%u", pos ? "; " : "", c->first_fail,
			 c->fail_trials - c->fail_held, c->fail_trials);
	return buf;
}

char *sm_report_streams_consistency(char *buf, size_t len, const struct sm_streams_cell *c)
{
	buf[0] = '\0';
	if (!c->measured || (!c->bounded && !c->rechecks))
		return buf;
	if (!c->bounded)
		snprintf(buf, len, "run again at the count a lower rate failed at: %u step%s, the last failed",
			 c->rechecks, c->rechecks == 1 ? "" : "s");
	else if (c->rechecks)
		snprintf(buf, len, "at most %u, as at %s fps, which failed %u: %u held again here %u/%u",
			 c->bound_n, c->bound_fps, c->bound_n + 1, c->bound_n + 1, c->rechecks, c->rechecks);
	else
		snprintf(buf, len, "at most %u, as at %s fps, which failed %u (no time was left to run "
			 "%u again here)", c->bound_n, c->bound_fps, c->bound_n + 1, c->bound_n + 1);
	return buf;
}

/* Each stream's drops in a step: "0 0 1 3" (the first 16, then "..."). */
static void drops(FILE *f, const struct sm_streams_step *s)
{
	if (!s) {
		fputs("-", f);
		return;
	}
	for (unsigned i = 0; i < s->n && i < 16; i++)
		fprintf(f, "%s%llu", i ? " " : "", (unsigned long long)s->streams[i].dropped);
	if (s->n > 16)
		fputs(" ...", f);
}

/* On a share: what it is, and that the answer is one client's (unless an
 * MPI job spread the streams over its clients). */
static void share_line(FILE *f, const struct sm_streams_result *res, int md)
{
	const struct sm_mount *m = &res->head.env.fs.mount;
	char line[512], one[256] = "";

	if (!sm_mount_is_share(m))
		return;
	sm_mount_describe(m, line, sizeof(line));
	if (res->ranks <= 1)
		sm_share_per_client(m, one, sizeof(one));
	if (md)
		fprintf(f, "Share: %s. %s\n\n", line, one);
	else
		wrapf(f, 0, "Share: %s. %s", line, one);
}

/* The text layout's head: the run, its steps, the rule, and the legend of
 * the table's cells. */
static void head_text(FILE *f, const struct sm_streams_result *res)
{
	const struct sm_env *e = &res->head.env;
	char a[32], b[32], search[160] = "";
	int mix = res->mix.ngroups > 0;

	wrapf(f, 2, "stormark streams: %s (%s on %s), %s, engine %s",
	      res->plan.dir ? res->plan.dir : e->fs.mount_point, e->fs.fs_type, e->fs.device,
	      e->direct_io ? "direct I/O" : "buffered I/O", e->engine);
	share_line(f, res, 0);
	if (res->ncells)
		snprintf(search, sizeof(search), "; search up to %u stream%s%s within %s", res->max_streams,
			 res->max_streams == 1 ? "" : "s", mix ? " more" : "",
			 sm_fmt_ns(b, sizeof(b), (double)res->time_ns));
	wrapf(f, 0, "Steps of %s, all streams started at once; %u buffers per stream (playback shows "
	      "frame 0 after %u), %u request%s in flight per stream%s.",
	      sm_fmt_ns(a, sizeof(a), (double)res->step_ns), res->queue, res->prebuffer, res->depth,
	      res->depth == 1 ? "" : "s", search);
	wrapf(f, 0, "A stream holds with no dropped frame and a p99.9 frame time from schedule within "
	      "its buffers.%s", res->ncells ? " Each capture answer is then run as one sustained step "
	      "and its write rate looked at for a cliff." : "");
	if (res->ncells) {
		fputs("\nA cell of the table, per format and frame rate, is 'capture / playback':\n", f);
		wrapf(f, 13, "  C / P      the answer when the streams write (capture, a camera) / when "
		      "they read (playback)");
		wrapf(f, 13, "  N (M)      N streams held%s, M of them with %d%% headroom%s",
		      mix ? " beside the mix (which runs in every step)" : "", SM_VERDICT_HEADROOM_PCT,
		      mix ? " (the mix's rate of that direction counted in the demand)" : "");
		wrapf(f, 13, "  >=N (>=M)  the search held --max-streams: both are at least that");
		wrapf(f, 13, "  M!         the sustained step lowered the capture answer (its "
		      "'sustained' line says why)");
		wrapf(f, 13, "  ?          the search did not end (the time budget, a signal or an error): "
		      "what held so far (its 'note' line says why)");
		wrapf(f, 13, "  -          that direction was not tested at that rate");
	}
	fputc('\n', f);
}

static void head(FILE *f, const struct sm_streams_result *res, int md)
{
	const struct sm_env *e = &res->head.env;
	char a[32], b[32];

	if (!md) {
		head_text(f, res);
		return;
	}

	fprintf(f, "%sstormark streams: %s (%s on %s), %s, engine %s\n", md ? "## " : "",
		res->plan.dir ? res->plan.dir : e->fs.mount_point, e->fs.fs_type, e->fs.device,
		e->direct_io ? "direct I/O" : "buffered I/O", e->engine);
	if (md)
		fputc('\n', f);
	share_line(f, res, 1);
	fprintf(f, "Steps of %s, all streams started at once; %u buffers per stream "
		"(playback shows frame 0 after %u), %u request%s in flight per stream",
		sm_fmt_ns(a, sizeof(a), (double)res->step_ns), res->queue, res->prebuffer, res->depth,
		res->depth == 1 ? "" : "s");
	if (res->ncells)
		fprintf(f, "; search up to %u stream%s%s within %s", res->max_streams,
			res->max_streams == 1 ? "" : "s", res->mix.ngroups ? " more" : "",
			sm_fmt_ns(b, sizeof(b), (double)res->time_ns));
	fprintf(f, ".\nA stream holds with no dropped frame and a p99.9 frame time from schedule "
		"within its buffers");
	if (res->ncells)
		fprintf(f, "; 'N (M)': N streams held%s, M of them keep %d%% headroom%s; "
			"'>=N (>=M)': the search held --max-streams, both are at least that.\n"
			"Each capture answer M is then run as one sustained step and its write rate "
			"looked at for a cliff; 'M!': that step lowered it (its 'sustained' line says why)",
			res->mix.ngroups ? " beside the mix (which runs in every step)" : "",
			SM_VERDICT_HEADROOM_PCT, res->mix.ngroups ? " (the mix's rate of that direction "
			"counted in the demand)" : "");
	fputs(".\n\n", f);
}

/* A cell of the matrix: "C / P". */
static char *matrix_cell(char *buf, size_t len, const struct sm_streams_result *res, const char *fmt,
			 const char *rate)
{
	const struct sm_streams_cell *c = sm_streams_find_cell(res, fmt, rate, SM_DIR_CAPTURE);
	const struct sm_streams_cell *p = sm_streams_find_cell(res, fmt, rate, SM_DIR_PLAYBACK);
	char x[32] = "-", y[32] = "-";

	if (c)
		sm_report_streams_answer(x, sizeof(x), c);
	if (p)
		sm_report_streams_answer(y, sizeof(y), p);
	snprintf(buf, len, "%s / %s", x, y);
	return buf;
}

/* The text matrix: a column per rate ("25 fps"), as wide as its widest
 * cell; as many rates side by side as fit WIDTH, the next ones in a
 * table of their own below (each format's row again); no trailing blank. */
static void matrix_text(FILE *f, const struct sm_streams_result *res)
{
	const char *fmts[256], *rates[32];
	unsigned nf = sm_streams_distinct(res, 0, fmts, 256), nr = sm_streams_distinct(res, 1, rates, 32);
	size_t fw = strlen("format"), cw[32];
	char cell[80], h[48];

	for (unsigned i = 0; i < nf; i++)
		if (strlen(fmts[i]) > fw)
			fw = strlen(fmts[i]);
	for (unsigned r = 0; r < nr; r++) {
		cw[r] = (size_t)snprintf(h, sizeof(h), "%s fps", rates[r]);
		for (unsigned i = 0; i < nf; i++) {
			size_t n = strlen(matrix_cell(cell, sizeof(cell), res, fmts[i], rates[r]));

			if (n > cw[r])
				cw[r] = n;
		}
	}
	for (unsigned r0 = 0; r0 < nr; ) {
		unsigned r1 = r0 + 1;
		size_t w = fw + 2 + cw[r0];

		while (r1 < nr && w + 2 + cw[r1] <= WIDTH)
			w += 2 + cw[r1++];
		if (r0)
			fputc('\n', f);
		fprintf(f, "%-*s", (int)fw, "format");
		for (unsigned r = r0; r < r1; r++) {
			snprintf(h, sizeof(h), "%s fps", rates[r]);
			fprintf(f, "  %-*s", r + 1 < r1 ? (int)cw[r] : 0, h);
		}
		fputc('\n', f);
		for (unsigned i = 0; i < nf; i++) {
			fprintf(f, "%-*s", (int)fw, fmts[i]);
			for (unsigned r = r0; r < r1; r++)
				fprintf(f, "  %-*s", r + 1 < r1 ? (int)cw[r] : 0,
					matrix_cell(cell, sizeof(cell), res, fmts[i], rates[r]));
			fputc('\n', f);
		}
		r0 = r1;
	}
	fputc('\n', f);
}

static void matrix(FILE *f, const struct sm_streams_result *res, int md)
{
	const char *fmts[256], *rates[32];
	unsigned nf, nr;

	if (!md) {
		matrix_text(f, res);
		return;
	}
	nf = sm_streams_distinct(res, 0, fmts, 256);
	nr = sm_streams_distinct(res, 1, rates, 32);

	fprintf(f, md ? "| format |" : "%-20s", md ? "" : "format");
	for (unsigned r = 0; r < nr; r++)
		fprintf(f, md ? " %s fps capture / playback |" : "  %-24s", rates[r]);
	fputc('\n', f);
	if (md) {
		fputs("|---|", f);
		for (unsigned r = 0; r < nr; r++)
			fputs("---|", f);
		fputc('\n', f);
	}
	for (unsigned i = 0; i < nf; i++) {
		fprintf(f, md ? "| %s |" : "%-20s", fmts[i]);
		for (unsigned r = 0; r < nr; r++) {
			const struct sm_streams_cell *c = sm_streams_find_cell(res, fmts[i], rates[r], SM_DIR_CAPTURE);
			const struct sm_streams_cell *p = sm_streams_find_cell(res, fmts[i], rates[r], SM_DIR_PLAYBACK);
			char x[32] = "-", y[32] = "-", cell[80];

			if (c)
				sm_report_streams_answer(x, sizeof(x), c);
			if (p)
				sm_report_streams_answer(y, sizeof(y), p);
			snprintf(cell, sizeof(cell), "%s / %s", x, y);
			fprintf(f, md ? " %s |" : "  %-24s", cell);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* The confirmation of a capture cell in words: "" when none was due. */
/* The tool's own CPU at the largest step that ran (a live result; saved
 * ones from before it was measured have none): where the tool, not the
 * storage, would become the limit (docs/streams.md). */
static void tool_cpu(FILE *f, const struct sm_streams_cell *c)
{
	const struct sm_streams_step *big = NULL;
	double core, us;

	for (unsigned k = 0; k < c->nsteps; k++)
		if (c->steps[k].cpu_ns && (!big || c->steps[k].n > big->n))
			big = &c->steps[k];
	if (!big || !sm_streams_step_cpu(big, big->n, &core, &us))
		return;
	wrapf(f, 4, "  tool CPU at %u stream%s: %.0f%% of one core, %.1f us per stream per second",
	      big->n, big->n == 1 ? "" : "s", 100.0 * core, us);
}

static char *confirm_words(char *buf, size_t len, const struct sm_streams_cell *c)
{
	char cl[400];

	buf[0] = '\0';
	if (c->confirm == SM_CONFIRM_NO_TIME || c->confirm == SM_CONFIRM_FAILED)
		snprintf(buf, len, "%s", c->confirm_note);
	else if (c->confirm == SM_CONFIRM_RAN)
		snprintf(buf, len, "%u stream%s sustained for %.0f s %s, %llu frames dropped; %s%s%s",
			 c->confirm_n, c->confirm_n == 1 ? "" : "s", (double)c->confirm_ns / 1e9, c->confirm_held ? "held" : "failed",
			 (unsigned long long)c->confirm_dropped,
			 sm_report_cliff_words(cl, sizeof(cl), &c->cliff),
			 c->lowered ? "; ! " : "", c->lowered ? c->confirm_note : "");
	return buf;
}

/* "as published", or the rate the schedule moves when it is not (a frame
 * under 4 KiB moves a whole block; an older result rounded every frame). */
static char *moved_words(char *buf, size_t len, const struct sm_streams_cell *c)
{
	char m[32];

	if (c->moved_rate == c->rate)
		snprintf(buf, len, "moved as published");
	else
		snprintf(buf, len, "moved: %s/s", sm_fmt_bytes(m, sizeof(m), c->moved_rate));
	return buf;
}

static void detail(FILE *f, const struct sm_streams_result *res, int md)
{
	if (md)
		fputs("| format | fps | direction | rate per stream | largest chunk | held | with headroom "
		      "| aggregate | drops at N | drops at N+1 | sustained check | note |\n"
		      "|---|---|---|---|---|---|---|---|---|---|---|---|\n", f);
	for (unsigned i = 0; i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];
		const struct sm_streams_step *at = sm_streams_step_at(c, c->max_raw);
		const struct sm_streams_step *over = sm_streams_step_at(c, c->max_raw + 1);
		char rate[32], chunk[32], agg[32], conf[800], moved[64], held[24], hr[24];

		if (c->max_raw && (!at || !at->held))
			at = NULL;
		sm_fmt_bytes(rate, sizeof(rate), c->rate);
		sm_fmt_bytes(chunk, sizeof(chunk), (double)c->chunk_bytes);
		sm_fmt_bytes(agg, sizeof(agg), c->agg_bytes_per_s);
		moved_words(moved, sizeof(moved), c);
		/* not measured: no figure (the note says why), never 0 */
		snprintf(held, sizeof(held), "%s%u", c->at_cap ? ">=" : "", c->max_raw);
		snprintf(hr, sizeof(hr), "%s%u%s", c->at_cap && !c->lowered ? ">=" : "", c->max_headroom,
			 c->lowered ? "!" : "");
		if (!c->measured) {
			snprintf(held, sizeof(held), "not measured");
			snprintf(hr, sizeof(hr), "-");
			snprintf(agg, sizeof(agg), "-");
		}
		if (md) {
			fprintf(f, "| %s | %s | %s | %s/s (%s) | %s | %s | %s | %s%s | ", c->format,
				c->fps_name, sm_direction_name(c->dir), rate, moved, chunk, held, hr, agg,
				c->measured ? "/s" : "");
			if (!c->measured) {
				fprintf(f, "- | - | %s | %s |\n", confirm_words(conf, sizeof(conf), c), c->note);
				continue;
			}
			drops(f, at);
			fputs(" | ", f);
			drops(f, over);
			{
				char cw[200];

				sm_report_streams_consistency(cw, sizeof(cw), c);
				fprintf(f, " | %s | %s%s%s |\n", confirm_words(conf, sizeof(conf), c), c->note,
					c->note[0] && cw[0] ? "; " : "", cw);
			}
			continue;
		}
		/* the cell's name on a line, its rate and chunk on the next */
		if (c->sequence)
			wrapf(f, 4, "%s at %s fps, %s (%s, a sequence: one file per frame):", c->format,
			      c->fps_name, sm_direction_name(c->dir), c->codec);
		else
			wrapf(f, 4, "%s at %s fps, %s (%s):", c->format, c->fps_name,
			      sm_direction_name(c->dir), c->codec);
		if (c->sequence)
			wrapf(f, 4, "  %s/s per stream (%s), %s per frame file", rate, moved, chunk);
		else
			wrapf(f, 4, "  %s/s per stream (%s), up to %s per frame interval", rate, moved, chunk);
		if (!c->measured) {
			wrapf(f, 4, "  not measured: %s", c->note[0] ? c->note : "no step ran");
			continue;
		}
		/* at the cap, both answers are lower bounds (unless the
		 * sustained check lowered the one with headroom) */
		fprintf(f, "  held %s%u stream%s, %s%u%s with %d%% headroom; aggregate %s/s\n",
			c->at_cap ? "at least " : "", c->max_raw, c->max_raw == 1 ? "" : "s",
			c->at_cap && !c->lowered ? "at least " : "", c->max_headroom,
			c->lowered ? "!" : "", SM_VERDICT_HEADROOM_PCT, agg);
		{
			char tw[200];

			if (sm_report_streams_trials(tw, sizeof(tw), c)[0])
				wrapf(f, 4, "  trials: %s%s", tw, c->max_high > c->own_raw ?
				      " (the answer moved between trials: a range)" : "");
			if (sm_report_streams_consistency(tw, sizeof(tw), c)[0])
				wrapf(f, 4, "  consistent: %s", tw);
		}
		fprintf(f, "  drops per stream at %u: ", c->max_raw);
		drops(f, at);
		fprintf(f, "; at %u: ", c->max_raw + 1);
		drops(f, over);
		fputc('\n', f);
		{
			char steps[3000] = "";
			size_t used = 0;

			for (unsigned k = 0; k < c->nsteps && used < sizeof(steps); k++) {
				char p[32];

				used += (size_t)snprintf(steps + used, sizeof(steps) - used, " %u %s (p99.9 %s%s)%s",
							 c->steps[k].n, c->steps[k].held ? "held" : "failed",
							 sm_fmt_ns(p, sizeof(p), (double)c->steps[k].worst_p999_ns),
							 c->steps[k].nmix && !c->steps[k].mix_total.held
							 ? "; the mix failed" : "", k + 1 < c->nsteps ? "," : "");
			}
			wrapf(f, 4, "  steps:%s", steps);
		}
		tool_cpu(f, c);
		if (c->confirm != SM_CONFIRM_NONE)
			wrapf(f, 4, "  sustained: %s", confirm_words(conf, sizeof(conf), c));
		if (c->note[0])
			wrapf(f, 4, "  note: %s", c->note);
	}
}

static void warnings(FILE *f, const struct sm_streams_result *res, int md)
{
	for (unsigned i = 0; i < res->head.warnings.count; i++)
		if (md)
			fprintf(f, "\n> Warning: %s\n", res->head.warnings.item[i].message);
		else
			wrapf(f, 2, "Warning: %s", res->head.warnings.item[i].message);
}

void sm_streams_text(FILE *f, const struct sm_streams_result *res)
{
	head(f, res, 0);
	sm_streams_mix_report(f, res, 0);
	if (res->ncells || !res->mix.ngroups) {
		if (res->mix.ngroups)
			fputs("Beside the mix:\n", f);
		matrix(f, res, 0);
		detail(f, res, 0);
	}
	warnings(f, res, 0);
}

void sm_md_streams(FILE *f, const struct sm_streams_result *res)
{
	head(f, res, 1);
	sm_streams_mix_report(f, res, 1);
	if (res->ncells || !res->mix.ngroups) {
		if (res->mix.ngroups)
			fputs("### Beside the mix\n\n", f);
		matrix(f, res, 1);
		detail(f, res, 1);
	}
	warnings(f, res, 1);
}
