/* SPDX-License-Identifier: MIT */
/* CSV renderings of run, fileio, frames and streams results and of a
 * comparison. */
#include "report/csv.h"
#include "report/streams.h"
#include "report/compare.h"
#include "analysis/paced.h"
#include "analysis/verdict.h"

#include <math.h>
#include <string.h>

/* A number as CSV wants it: integers without a point, others with enough
 * digits to read back. */
static void num(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		fprintf(f, ",%.0f", v);
	else
		fprintf(f, ",%.17g", v);
}

static void empty(FILE *f, int n)
{
	while (n-- > 0)
		fputc(',', f);
}

void sm_csv_run(FILE *f, const struct sm_run_result *res)
{
	fprintf(f, "kind,test,direction,fps,bytes_per_s,iops,p50_ns,p99_ns,p99_9_ns,max_ns,"
		   "needed_bytes_per_s,verdict,how\n");
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		const struct sm_run_classic *c = &res->classic[i];

		for (int w = 0; c->label[0] && w < 2; w++) {
			if (!c->fig[w].valid)
				continue;
			fprintf(f, "classic,%s,%s,", c->label, w ? "write" : "read");
			num(f, c->fig[w].bytes_per_s);
			num(f, c->fig[w].iops);
			empty(f, 1);
			num(f, (double)c->fig[w].p99_ns);
			empty(f, 5);
			fputc('\n', f);
		}
	}
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];

		for (int d = 0; s->preset[0] && d < 2; d++) {
			const struct sm_run_frametest *t = &s->t[d];

			if (!t->measured)
				continue;
			fprintf(f, "frames,%s,%s", s->preset, d ? "read" : "write");
			num(f, t->fps);
			num(f, t->bytes_per_s);
			empty(f, 1);
			num(f, (double)t->p50_ns);
			num(f, (double)t->p99_ns);
			num(f, (double)t->p999_ns);
			num(f, (double)t->max_ns);
			empty(f, 3);
			fputc('\n', f);
		}
	}
	if (!res->derived.verdicts_ready)
		return;
	for (unsigned r = 0; r < res->nrows; r++)
		for (int d = 0; d < 2; d++)
			for (unsigned k = 0; k < res->plan.nrates; k++) {
				const struct sm_verdict_cell *c = &res->rows[r].cell[d][k];

				fprintf(f, "verdict,%s,%s,%s", res->rows[r].fmt.name,
					sm_direction_name((enum sm_direction)d), res->plan.rates[k]->name);
				num(f, c->measured);
				empty(f, 5);
				num(f, c->needed);
				fprintf(f, ",%s,%s\n", sm_verdict_name(c->final), sm_verdict_how_name(c->how));
			}
}

void sm_csv_fileio(FILE *f, const struct sm_fileio_result *r)
{
	static const char *const names[3] = { "read", "write", "fsync" };

	fprintf(f, "op,count,bytes,errors,count_per_s,bytes_per_s,mean_ns,p50_ns,p95_ns,p99_ns,"
		   "p99_9_ns,max_ns\n");
	for (int i = 0; i < 4; i++) {
		const struct sm_hist *h = i < 3 ? &r->ops[i].lat : &r->events_lat;
		uint64_t n = i < 3 ? r->ops[i].count : r->events;
		uint64_t bytes = i < 3 ? r->ops[i].bytes : r->ops[0].bytes + r->ops[1].bytes;

		fprintf(f, "%s,%llu,%llu,%llu", i < 3 ? names[i] : "event", (unsigned long long)n,
			(unsigned long long)bytes, (unsigned long long)(i < 3 ? r->ops[i].errors : 0));
		num(f, r->fig.per_s[i]);
		num(f, r->fig.bytes_per_s[i]);
		if (!h->count) {
			empty(f, 6);
		} else {
			num(f, sm_hist_mean(h));
			num(f, (double)sm_hist_percentile(h, 50));
			num(f, (double)sm_hist_percentile(h, 95));
			num(f, (double)sm_hist_percentile(h, 99));
			num(f, (double)sm_hist_percentile(h, 99.9));
			num(f, (double)h->max);
		}
		fputc('\n', f);
	}
}

/* A cell of a count, or an empty one for a negative value. */
static void count_cell(FILE *f, int64_t v)
{
	if (v >= 0)
		fprintf(f, ",%lld", (long long)v);
	else
		empty(f, 1);
}

/* A frames row from op to max_ns: bytes, errors or dropped < 0 leave that
 * cell empty, per_s < 0 both rates. */
static void frames_row(FILE *f, const char *op, uint64_t n, int64_t bytes, int64_t errors,
		       int64_t dropped, double per_s, double bytes_per_s, const struct sm_hist *h)
{
	fprintf(f, "%s,%llu", op, (unsigned long long)n);
	count_cell(f, bytes);
	count_cell(f, errors);
	count_cell(f, dropped);
	if (per_s >= 0) {
		num(f, per_s);
		num(f, bytes_per_s);
	} else {
		empty(f, 2);
	}
	if (!h->count) {
		empty(f, 6);
	} else {
		num(f, sm_hist_mean(h));
		num(f, (double)sm_hist_percentile(h, 50));
		num(f, (double)sm_hist_percentile(h, 95));
		num(f, (double)sm_hist_percentile(h, 99));
		num(f, (double)sm_hist_percentile(h, 99.9));
		num(f, (double)h->max);
	}
}

void sm_csv_frames(FILE *f, const struct sm_frames_result *r)
{
	const struct sm_frames_plan *p = &r->plan;
	int rd = p->kind == SM_FRAMES_READ;

	fprintf(f, "op,count,bytes,errors,dropped,count_per_s,bytes_per_s,mean_ns,p50_ns,p95_ns,"
		   "p99_ns,p99_9_ns,max_ns,verdict\n");
	frames_row(f, rd ? "open" : "create", r->open.count, (int64_t)r->open.bytes,
		   (int64_t)r->open.errors, -1, -1, 0, &r->open.lat);
	fputs(",\n", f);
	if (p->kind != SM_FRAMES_EMPTY) {
		frames_row(f, rd ? "read" : "write", r->io.count, (int64_t)r->io.bytes,
			   (int64_t)r->io.errors, -1, -1, 0, &r->io.lat);
		fputs(",\n", f);
	}
	frames_row(f, "close", r->close.count, (int64_t)r->close.bytes, (int64_t)r->close.errors, -1, -1,
		   0, &r->close.lat);
	fputs(",\n", f);
	frames_row(f, "frame", r->frames_done, (int64_t)r->bytes, (int64_t)r->frame.errors, -1,
		   r->fig.frames_per_s,
		   r->fig.bytes_per_s, &r->frame.lat);
	fputs(",\n", f);
	if (!(p->fps > 0))
		return;
	frames_row(f, "schedule", r->paced_frames, -1, -1, (int64_t)r->frames_dropped, r->paced_fps,
		   r->fig.paced_bytes_per_s, &r->sched_lat);
	if (r->video_format[0]) {
		struct sm_paced pc;
		int v;

		sm_paced_from_frames(r, &pc);
		v = sm_verdict_paced(&pc);
		fprintf(f, ",%s\n", v < 0 ? "undecided" : sm_verdict_name((enum sm_verdict)v));
	} else {
		fputs(",\n", f);
	}
	if (!rd)
		return;
	frames_row(f, "late", r->late.count, -1, -1, -1, -1, 0, &r->late);
	fputs(",\n", f);
	frames_row(f, "early", r->early.count, -1, -1, -1, -1, 0, &r->early);
	fputs(",\n", f);
}

/* A text field: quoted when it holds a comma (a sequence format's kind of
 * file: "OpenEXR half RGB, uncompressed"); the tables' names hold no
 * quote or line break. */
static void str(FILE *f, const char *s)
{
	fprintf(f, strchr(s, ',') ? ",\"%s\"" : ",%s", s);
}

void sm_csv_streams(FILE *f, const struct sm_streams_result *res)
{
	if (res->mix.ngroups) {   /* the mix's own table */
		sm_csv_streams_mix(f, res);
		return;
	}
	fprintf(f, "format,codec,fps,direction,stream_bytes_per_s,chunk_bytes,streams,streams_headroom,"
		   "first_failed,at_cap,searched,aggregate_bytes_per_s,sustained_bytes_per_s,"
		   "confirmation,confirmation_streams,confirmation_held,streams_headroom_before,"
		   "cliff_looked,cliff_found,cliff_at_s,cliff_burst_bytes_per_s,"
		   "cliff_sustained_bytes_per_s,moved_bytes_per_s,kind\n");
	for (unsigned i = 0; i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];

		fputs(c->format, f);
		str(f, c->codec);
		fprintf(f, ",%s,%s", c->fps_name, sm_direction_name(c->dir));
		num(f, c->rate);
		fprintf(f, ",%llu", (unsigned long long)c->chunk_bytes);
		if (c->measured)   /* not measured: empty cells, never 0 */
			fprintf(f, ",%u,%u", c->max_raw, c->max_headroom);
		else
			empty(f, 2);
		if (c->first_fail)
			fprintf(f, ",%u", c->first_fail);
		else
			empty(f, 1);
		fprintf(f, ",%d,%d", !!c->at_cap, !!c->searched);
		if (c->measured) {
			num(f, c->agg_bytes_per_s);
			num(f, c->sustained_bytes_per_s);
		} else {
			empty(f, 2);
		}
		if (c->confirm == SM_CONFIRM_NONE) {   /* playback, no answer */
			fputs(",,,,,,,,,", f);
			num(f, c->moved_rate);
			fprintf(f, ",%s\n", sm_streams_kind_name(c->sequence));
			continue;
		}
		fprintf(f, ",%s,%u,%d,%u,%d,%d", sm_streams_confirm_name(c->confirm),
			c->confirm_n, !!c->confirm_held, c->headroom_burst, !!c->cliff.looked,
			!!c->cliff.found);
		if (c->cliff.found) {
			num(f, (double)c->cliff.at_ns / 1e9);
			num(f, c->cliff.burst_bytes_per_s);
			num(f, c->cliff.sustained_bytes_per_s);
		} else {
			empty(f, 3);
		}
		num(f, c->moved_rate);
		fprintf(f, ",%s\n", sm_streams_kind_name(c->sequence));
	}
}

/* A number, or an empty cell when it is not one (NAN, absent). */
static void num_or_empty(FILE *f, int have, double v)
{
	if (have && isfinite(v))
		num(f, v);
	else
		empty(f, 1);
}

void sm_csv_compare(FILE *f, const struct sm_cmp *c)
{
	fprintf(f, "figure,label,unit,runs_a,runs_b,mean_a,mean_b,sd_a,sd_b,ratio,t,df,p,significant,"
		   "change,verdict_a,verdict_b\n");
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct sm_cmp_row *r = &c->rows[i];
		int verdict = r->unit == SM_CU_VERDICT;

		/* figure names and labels are the project's own: no comma or quote */
		fprintf(f, "%s,%s,%s,%u,%u", r->name, r->label, sm_cmp_unit_name(r->unit), r->na, r->nb);
		num_or_empty(f, r->na && !verdict, r->mean_a);
		num_or_empty(f, r->nb && !verdict, r->mean_b);
		num_or_empty(f, r->na && !verdict, r->sd_a);
		num_or_empty(f, r->nb && !verdict, r->sd_b);
		num_or_empty(f, !verdict, r->ratio);
		num_or_empty(f, r->tested, r->w.t);
		num_or_empty(f, r->tested, r->w.df);
		num_or_empty(f, r->tested, r->w.p);
		fprintf(f, ",%d,%d,%s,%s\n", r->significant, r->change, r->verdict_a, r->verdict_b);
	}
}
