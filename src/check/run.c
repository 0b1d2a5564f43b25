/* SPDX-License-Identifier: MIT */
/* The invariants of a `run` result (docs/run.md): the classic and frame
 * tests' rates are their counts over their own durations, a frame test's
 * series adds up to it, and every verdict cell agrees with its ratio, its
 * `how`, its paced run and the legend (yes = at least 20% headroom by the
 * sustained rate, ~ = under 20%, no = below the need; a paced run can
 * confirm a cell or lower it, never raise its class). */
#include "check/body.h"
#include "analysis/run.h"
#include "analysis/verdict.h"
#include "result/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ck_classic(const cJSON *doc, struct sm_check *c)
{
	const cJSON *cl = ck_at(doc, "run.classic"), *t;
	int i = 0;

	cJSON_ArrayForEach(t, cl) {
		static const char *const dir[] = { "read", "write" };

		for (int w = 0; w < 2; w++) {
			const cJSON *o = ck_at(t, dir[w]);
			double d, n, r;
			char an[96];

			if (!cJSON_IsObject(o) || !ck_num(o, "duration_ns", &d))
				continue;
			snprintf(an, sizeof(an), "run.classic[%d].%s.bytes_per_s", i, dir[w]);
			if (ck_num(o, "bytes_per_s", &r) && ck_num(o, "op.bytes", &n))
				ck_rate(c, "run.rate", an, r, "its op.bytes", n, "its duration_ns", d);
			snprintf(an, sizeof(an), "run.classic[%d].%s.iops", i, dir[w]);
			if (ck_num(o, "iops", &r) && ck_num(o, "op.count", &n))
				ck_rate(c, "run.rate", an, r, "its op.count", n, "its duration_ns", d);
		}
		i++;
	}
}

static void ck_frame_tests(const cJSON *doc, struct sm_check *c)
{
	const cJSON *fr = ck_at(doc, "run.frames"), *t;
	int i = 0;

	cJSON_ArrayForEach(t, fr) {
		static const char *const dir[] = { "write", "read" };
		double fb = 0;

		ck_num(t, "frame_bytes", &fb);
		for (int w = 0; w < 2; w++) {
			const cJSON *o = ck_at(t, dir[w]), *se = ck_at(o, "series");
			double d, n, b, r, s;
			unsigned k;
			char an[96], pre[48];

			if (!cJSON_IsObject(o) || !ck_num(o, "duration_ns", &d) || !ck_num(o, "frames", &n) ||
			    !ck_num(o, "bytes", &b))
				continue;
			snprintf(pre, sizeof(pre), "run.frames[%d].%s", i, dir[w]);
			snprintf(an, sizeof(an), "%s.fps", pre);
			if (ck_num(o, "fps", &r))
				ck_rate(c, "run.rate", an, r, "its frames", n, "its duration_ns", d);
			snprintf(an, sizeof(an), "%s.bytes_per_s", pre);
			if (ck_num(o, "bytes_per_s", &r))
				ck_rate(c, "run.rate", an, r, "its bytes", b, "its duration_ns", d);
			snprintf(an, sizeof(an), "%s.bytes", pre);
			if (fb > 0)
				ck_eq(c, "run.frames", an, b, "its frames x the test's frame_bytes", n * fb);
			if (!cJSON_IsObject(se))
				continue;
			snprintf(an, sizeof(an), "%s.series' items", pre);
			if (ck_sum(ck_at(se, "items"), &s, &k))
				ck_eq(c, "run.frames", an, s, "its frames", n);
			snprintf(an, sizeof(an), "%s.series' bytes", pre);
			if (ck_sum(ck_at(se, "bytes"), &s, &k))
				ck_eq(c, "run.frames", an, s, "its bytes", b);
		}
		i++;
	}
}

/* A verdict name's rank (enum sm_verdict: not-realtime 0 ... realtime 3), or -1. */
static int vrank(const char *s)
{
	for (int v = 0; s && v < SM_VERDICT_COUNT; v++)
		if (!strcmp(s, sm_verdict_name((enum sm_verdict)v)))
			return v;
	return -1;
}

static const char *const legend[SM_VERDICT_COUNT] = {
	"no: below the need", "?: unconfirmed", "~: under 20% headroom",
	"yes: at least 20% headroom" };

/* The cell's paced run as read: 1 when every figure is there. */
static int paced_of(const cJSON *p, struct sm_paced *pc)
{
	static const char *const k[] = { "scheduled", "done", "dropped", "p99_9_sched_ns",
					 "max_sched_ns", "interval_ns", "queue" };
	uint64_t v[7];

	for (unsigned i = 0; i < 7; i++) {
		double x;

		if (!ck_num(p, k[i], &x) || !ck_u64(x, &v[i]))
			return 0;
	}
	if (v[6] > 0xffffffffu)
		return 0;
	memset(pc, 0, sizeof(*pc));
	pc->scheduled = v[0], pc->done = v[1], pc->dropped = v[2], pc->p999_sched_ns = v[3];
	pc->max_sched_ns = v[4], pc->interval_ns = v[5], pc->queue = (unsigned)v[6];
	pc->complete = 1;
	return 1;
}

/* The enum sm_verdict_basis bits a cell's "basis" names (0 without one). */
static unsigned basis_of(const cJSON *cell)
{
	const cJSON *b;
	unsigned bits = 0;

	cJSON_ArrayForEach(b, ck_at(cell, "basis"))
		for (unsigned bit = 1; bit <= SM_BASIS_ALL; bit <<= 1)
			if (cJSON_IsString(b) && !strcmp(b->valuestring, sm_verdict_basis_name(bit)))
				bits |= bit;
	return bits;
}

/* The verdict and how a cell's computed class and paced run give
 * (sm_verdict_cell_settle(), docs/run.md: a paced run confirms a class or
 * lowers it, a hold does not decide a computed no), and the paced run's
 * own words: its outcome, its length. */
static void ck_how(const cJSON *cell, const char *name, int fin, int comp, const char *how,
		   struct sm_check *c)
{
	const cJSON *po = ck_at(cell, "paced");
	struct sm_verdict_cell vc;
	struct sm_paced pc;
	const char *outcome = ck_str(po, "outcome");
	double len;
	int pv = -1;

	memset(&vc, 0, sizeof(vc));
	vc.computed = (enum sm_verdict)comp;
	vc.basis = basis_of(cell);
	c->evaluated++;
	if (po && !paced_of(po, &pc)) {
		sm_check_fail(c, "verdict.how", "%s: its paced object lacks the run's figures", name);
		return;
	}
	if (po) {
		vc.paced = pc;
		pv = sm_verdict_paced(&pc);
	}
	sm_verdict_cell_settle(&vc);
	if ((int)vc.final != fin || strcmp(how, sm_verdict_how_name(vc.how)))
		sm_check_fail(c, "verdict.how", "%s: verdict %s, how %s; computed %s with %s make it "
			      "%s, how %s", name, ck_str(cell, "verdict"), how, ck_str(cell, "computed"),
			      pv < 0 ? "no paced run" : sm_paced_outcome_name((enum sm_verdict)pv),
			      sm_verdict_name(vc.final), sm_verdict_how_name(vc.how));
	if (pv < 0)
		return;
	/* what the paced object says of its run is the run's */
	c->evaluated++;
	if (outcome && strcmp(outcome, sm_paced_outcome_name((enum sm_verdict)pv)))
		sm_check_fail(c, "verdict.how", "%s: paced.outcome is %s, its figures (%llu of %llu "
			      "dropped, p99.9 %.3f ms, %u x %.3f ms buffers) make it %s", name, outcome,
			      (unsigned long long)pc.dropped, (unsigned long long)pc.scheduled,
			      (double)pc.p999_sched_ns / 1e6, pc.queue, (double)pc.interval_ns / 1e6,
			      sm_paced_outcome_name((enum sm_verdict)pv));
	if (ck_num(po, "length_ns", &len)) {
		char an[200];

		snprintf(an, sizeof(an), "%s paced.length_ns", name);
		ck_eq(c, "verdict.how", an, len, "its scheduled x interval_ns",
		      (double)pc.scheduled * (double)pc.interval_ns);
	}
}

static void ck_cell(const cJSON *cell, const char *name, double frame_bytes, struct sm_check *c)
{
	double fps, need, meas, ratio, burst;
	int near, cliff, fin = vrank(ck_str(cell, "verdict")), comp = vrank(ck_str(cell, "computed"));
	const char *how = ck_str(cell, "how");
	char an[160];

	if (!ck_num(cell, "needed_bytes_per_s", &need) || !ck_num(cell, "measured_bytes_per_s", &meas))
		return;
	snprintf(an, sizeof(an), "%s needed_bytes_per_s", name);
	if (ck_num(cell, "fps_value", &fps) && frame_bytes > 0)
		ck_near(c, "verdict.ratio", an, need, "frame_bytes x fps_value", frame_bytes * fps, 1e-12);
	snprintf(an, sizeof(an), "%s ratio", name);
	if (ck_num(cell, "ratio", &ratio))
		ck_near(c, "verdict.ratio", an, ratio, "measured_bytes_per_s / needed_bytes_per_s",
			need > 0 ? meas / need : 0, 1e-12);
	snprintf(an, sizeof(an), "%s computed", name);
	c->evaluated++;
	if (comp >= 0 && comp != (int)sm_verdict_compute(meas, need))
		sm_check_fail(c, "verdict.computed", "%s is %s, its ratio %.4f makes it %s", an,
			      ck_str(cell, "computed"), need > 0 ? meas / need : 0,
			      sm_verdict_name(sm_verdict_compute(meas, need)));
	snprintf(an, sizeof(an), "%s near_limit", name);
	if (ck_bool(cell, "near_limit", &near))
		ck_eq(c, "verdict.computed", an, near, "0.9 <= ratio < 1.5",
		      sm_verdict_near_limit(meas, need));
	/* the burst's own rate would have computed better: the "!" */
	if (ck_bool(cell, "cliff", &cliff) && ck_num(cell, "burst_measured_bytes_per_s", &burst) &&
	    comp >= 0) {
		snprintf(an, sizeof(an), "%s cliff", name);
		ck_eq(c, "verdict.cliff", an, cliff,
		      "the burst rate's verdict above the computed one",
		      (int)sm_verdict_compute(burst, need) > comp);
	}
	if (fin < 0 || comp < 0 || !how)
		return;
	/* a stall past the buffers: not real time, whatever the rate */
	if (basis_of(cell) & SM_BASIS_STALL) {
		double st = 0, buf = 0;

		c->evaluated++;
		ck_num(cell, "stall_ns", &st);
		ck_num(cell, "buffer_ns", &buf);
		if (fin != SM_VERDICT_NOT_REALTIME || !(st > buf))
			sm_check_fail(c, "verdict.stall", "%s: a stall of %.0f ms against %.0f ms of "
				      "buffers, yet verdict %s", name, st / 1e6, buf / 1e6,
				      ck_str(cell, "verdict"));
	}
	ck_how(cell, name, fin, comp, how, c);
	/* the legend: a cell's class is what its sustained rate gives; a paced
	 * run confirms it or lowers it */
	c->evaluated++;
	if (fin > comp)
		sm_check_fail(c, "verdict.legend", "%s: verdict %s (%s) but its ratio is %.4f "
			      "(computed %s); how %s", name, ck_str(cell, "verdict"), legend[fin],
			      need > 0 ? meas / need : 0, ck_str(cell, "computed"), how);
}

static void ck_verdicts(const cJSON *doc, struct sm_check *c)
{
	const cJSON *rows = ck_at(doc, "run.verdicts"), *row;
	double near = 0, unconf;

	cJSON_ArrayForEach(row, rows) {
		static const char *const dir[] = { "capture", "playback" };
		const char *fmt = ck_str(row, "format");
		double fb = 0;

		ck_num(row, "frame_bytes", &fb);
		for (int d = 0; d < 2; d++) {
			const cJSON *cell;

			cJSON_ArrayForEach(cell, ck_at(row, dir[d])) {
				const char *fps = ck_str(cell, "fps");
				int nl = 0, cl = 0;
				char name[128];

				snprintf(name, sizeof(name), "%s %s at %s fps", fmt ? fmt : "?", dir[d],
					 fps ? fps : "?");
				ck_cell(cell, name, fb, c);
				if (ck_bool(cell, "near_limit", &nl) && nl && !(ck_bool(cell, "cliff", &cl) && cl))
					near++;
			}
		}
	}
	if (ck_num(doc, "run.near_limit_unconfirmed", &unconf))
		ck_le(c, "verdict.share", "run.near_limit_unconfirmed", unconf,
		      "the near-limit cells no cliff downgraded", near);
}

/* Each cell's sustained rate is the rate model's over the frame tests
 * (docs/run.md): restore the run, compute the verdicts again, compare.
 * Not for an MPI job's table, whose cells are the worst rank's. */
static void ck_model(const cJSON *doc, struct sm_check *c)
{
	struct sm_run_result *res;
	struct sm_jerr e = { { 0 } };
	double *was;
	size_t n;

	if (ck_at(doc, "mpi") || ck_at(doc, "run.mpi_ranks") || !cJSON_GetArraySize(ck_at(doc, "run.verdicts")))
		return;
	res = calloc(1, sizeof(*res));
	if (!res)
		return;
	if (sm_run_from_json(doc, res, &e) || !res->nrows) {
		sm_run_from_json_release(res);
		free(res);
		return;
	}
	n = (size_t)res->nrows * 2 * res->plan.nrates;
	was = malloc(2 * n * sizeof(*was));
	if (was) {
		size_t i = 0;

		unsigned *basis = calloc(n, sizeof(*basis));
		uint64_t *stall = calloc(n, sizeof(*stall));

		if (!basis || !stall) {
			free(basis);
			free(stall);
			free(was);
			sm_run_from_json_release(res);
			free(res);
			return;
		}
		for (unsigned r = 0; r < res->nrows; r++)
			for (int d = 0; d < 2; d++)
				for (unsigned k = 0; k < res->plan.nrates; k++, i++) {
					was[i] = res->rows[r].cell[d][k].measured;
					was[n + i] = res->rows[r].cell[d][k].burst_measured;
					basis[i] = res->rows[r].cell[d][k].basis;
					stall[i] = res->rows[r].cell[d][k].stall_ns;
				}
		sm_run_compute_verdicts(res);
		i = 0;
		for (unsigned r = 0; r < res->nrows; r++)
			for (int d = 0; d < 2; d++)
				for (unsigned k = 0; k < res->plan.nrates; k++, i++) {
					const struct sm_verdict_cell *cell = &res->rows[r].cell[d][k];
					char an[160];

					snprintf(an, sizeof(an), "%s %s at %s fps measured_bytes_per_s",
						 res->rows[r].fmt.name, sm_direction_name((enum sm_direction)d),
						 res->plan.rates[k]->name);
					ck_near(c, "verdict.model", an, was[i],
						"the rate model's over the frame tests", cell->measured, 1e-9);
					snprintf(an, sizeof(an), "%s %s at %s fps burst_measured_bytes_per_s",
						 res->rows[r].fmt.name, sm_direction_name((enum sm_direction)d),
						 res->plan.rates[k]->name);
					ck_near(c, "verdict.model", an, was[n + i],
						"the rate model's over the burst rates", cell->burst_measured,
						1e-9);
					if (!res->sustained_basis)
						continue;
					/* what the verdict rests on: the stalls and series of
					 * the frame tests give the same basis */
					snprintf(an, sizeof(an), "%s %s at %s fps basis",
						 res->rows[r].fmt.name, sm_direction_name((enum sm_direction)d),
						 res->plan.rates[k]->name);
					ck_eq(c, "verdict.basis", an, basis[i],
					      "the basis the frame tests' stalls and seconds give",
					      cell->basis);
					snprintf(an, sizeof(an), "%s %s at %s fps stall_ns",
						 res->rows[r].fmt.name, sm_direction_name((enum sm_direction)d),
						 res->plan.rates[k]->name);
					ck_eq(c, "verdict.stall", an, (double)stall[i],
					      "the longest stall of its direction past its buffer",
					      (double)cell->stall_ns);
				}
		/* the Summary's claims: no kept-up cell needs more than the
		 * sustained 2K test of its direction reports */
		for (unsigned r = 0; res->sustained_basis && r < res->nrows; r++)
			for (int d = 0; d < 2; d++)
				for (unsigned si = 0; si < SM_RUN_NSIZES; si++) {
					const struct sm_run_frametest *t = &res->sizes[si].t[d];

					if (strcmp(res->sizes[si].preset, SM_RUN_SUSTAINED_PRESET) || !t->measured)
						continue;
					for (unsigned k = 0; k < res->plan.nrates; k++) {
						const struct sm_verdict_cell *cell = &res->rows[r].cell[d][k];
						char an[160];

						if (cell->final < SM_VERDICT_MARGINAL)
							continue;
						snprintf(an, sizeof(an), "%s %s at %s fps needed_bytes_per_s",
							 res->rows[r].fmt.name,
							 sm_direction_name((enum sm_direction)d),
							 res->plan.rates[k]->name);
						ck_le(c, "verdict.sustained", an, cell->needed,
						      "the sustained 2K test's bytes_per_s",
						      t->cliff.found && d == SM_DIR_CAPTURE
						      ? t->cliff.sustained_bytes_per_s : t->bytes_per_s);
					}
				}
		free(basis);
		free(stall);
		free(was);
	}
	sm_run_from_json_release(res);
	free(res);
}

void ck_run(const cJSON *doc, struct sm_check *c)
{
	ck_classic(doc, c);
	ck_frame_tests(doc, c);
	ck_verdicts(doc, c);
	ck_model(doc, c);
	/* the summary the live run wrote says of the cells what they are */
	ck_run_summary(doc, "run.summary", ck_str(doc, "run.summary"), c);
}
