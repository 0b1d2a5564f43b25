/* SPDX-License-Identifier: MIT */
/* `stormark run` as one MPI job: the profile's hooks (a vote before each
 * test, so all start together and all stop when one fails), the job's
 * verdict table and paced runs, and rank 0's exact merge (docs/mpi.md). */
#include "mpi/job_run.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/dist.h"
#include "analysis/frames.h"
#include "analysis/run.h"
#include "analysis/run_dist.h"
#include "analysis/verdict.h"
#include "core/compiler.h"
#include "core/msg.h"
#include "mpi/job_int.h"
#include "mpi/job_meta.h"
#include "core/clock.h"
#include "report/frametest.h"
#include "report/run_dist.h"
#include "report/run_text.h"
#include "result/json.h"
#include "result/json_read.h"
#include "result/run_dist.h"
#include "workload/profile.h"

/* A rank's vote that stops the job: above any paced run's code. */
#define VOTE_STOP INT_MAX

/* What `run`'s hooks keep on this rank (j->st->run). */
struct sm_job_run {
	struct sm_job *job;
	struct sm_run_hooks hooks;
	struct sm_run_result *res;
	int stopped;                   /* a vote said stop: no more votes */
	uint64_t t_step;               /* the last start barrier's exit */
	uint64_t busy_ns;              /* this rank's unpaced tests' own durations */
	uint64_t bytes, items;         /* what they moved (frames: items) */
	cJSON *steps;                  /* each test this rank ran: its span (and a frame
					* pass's whole result) */
	struct sm_run_row *own;        /* rank 0: its own verdict table */
	struct sm_run_rank_best *best; /* rank 0: [nranks] */
};

/* Every rank's v, the largest back in *out: the start of a test (0), a
 * paced run's code (rank 0), or VOTE_STOP from a rank that failed. Returns
 * 0, or -ECANCELED once the job stops (res->head.error then says why). */
static int vote(struct sm_job *j, int v, int *out, const char *what)
{
	struct sm_job_run *g = j->st->run;
	int rc;

	*out = 0;
	if (g->stopped)
		return -ECANCELED;
	rc = sm_mpi_max(v, out, sm_now_ns() + j->st->wait_ns);
	if (!rc && *out != VOTE_STOP)
		return 0;
	g->stopped = 1;
	j->st->timed_out |= rc != 0;
	if (v != VOTE_STOP && !g->res->error) {
		g->res->error = -ECANCELED;
		snprintf(g->res->head.error, sizeof(g->res->head.error), rc ? "mpi: a rank did not come to the "
			 "start of '%s' within --mpi-wait; the job stopped" : "mpi: another rank failed or "
			 "was stopped before '%s'; the job stopped", what);
	}
	return -ECANCELED;
}

static int h_begin(void *arg, const char *what)
{
	struct sm_job *j = arg;
	int out, rc = vote(j, 0, &out, what);

	j->st->run->t_step = sm_now_ns();
	return rc;
}

/*
 * A test this rank just ran, of its own duration dur_ns (first I/O to last
 * completion), placed on the test's start barrier by this rank's clock: it
 * ended end_ns after the barrier and began dur_ns before that (what came
 * between the barrier and its first I/O, buffers filled and files opened,
 * is no I/O of the job). Rank 0 takes the job's duration of the test from
 * the earliest start to the latest end, as IOR does.
 */
static cJSON *step(struct sm_job_run *g, const char *test, unsigned i, int write, uint64_t dur_ns)
{
	uint64_t end = sm_now_ns() - g->t_step;
	cJSON *o = cJSON_CreateObject();

	if (dur_ns > end)
		dur_ns = end;
	g->busy_ns += dur_ns;
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "test", test);
	cJSON_AddNumberToObject(o, "index", i);
	cJSON_AddBoolToObject(o, "write", write);
	sm_json_add_u64(o, "start_ns", end - dur_ns);
	sm_json_add_u64(o, "end_ns", end);
	cJSON_AddItemToArray(g->steps, o);
	return o;
}

static void h_classic(void *arg, unsigned i, int w, const struct sm_blockio_result *r)
{
	struct sm_job *j = arg;
	struct sm_job_run *g = j->st->run;

	g->bytes += r->op.bytes;
	step(g, "classic", i, w, r->duration_ns);
}

static void h_frames(void *arg, unsigned s, int d, const struct sm_frames_result *fr)
{
	struct sm_job *j = arg;
	struct sm_job_run *g = j->st->run;
	struct sm_result_head h = fr->head;
	cJSON *o, *doc;

	g->bytes += fr->bytes;
	g->items += fr->frames_done;
	o = step(g, "frames", s, d == SM_DIR_CAPTURE, fr->head.duration_ns);
	/* the pass's whole result, histograms and seconds, read back by rank 0 */
	snprintf(h.command, sizeof(h.command), "frames");
	snprintf(h.version, sizeof(h.version), "%s", g->res->head.version);
	snprintf(h.started_at, sizeof(h.started_at), "%s", g->res->head.started_at);
	h.argc = 0;
	h.argv = NULL;
	doc = o ? sm_json_doc_new(&h) : NULL;
	if (doc) {
		sm_json_frames(doc, fr);
		cJSON_AddItemToObject(o, "result", doc);
	}
}

/* Which of two paced outcomes is worse for the job: one that cannot
 * decide, then the lower verdict, more drops, a later p99.9. */
static int paced_worse(const struct sm_paced *a, const struct sm_paced *b)
{
	int va = sm_verdict_paced(a), vb = sm_verdict_paced(b);

	if (va != vb)
		return va < vb;
	if (a->dropped != b->dropped)
		return a->dropped > b->dropped;
	return a->p999_sched_ns > b->p999_sched_ns;
}

/* Every rank's cells to rank 0; there each cell of the job's table becomes
 * the worst rank's (the lowest measured rate: the format needs the same
 * everywhere), rank 0's own table kept aside. */
static int h_verdicts(void *arg, struct sm_run_result *res)
{
	/* each rank's cells, then per frame test and direction the bytes it
	 * moved and the time it took (the job's rate together, below) */
	size_t one = sizeof(res->rows[0].cell), nc = res->nrows * one;
	size_t nt = (size_t)SM_RUN_NSIZES * 2 * 2 * sizeof(double), n = nc + nt;
	char *buf = malloc(n ? n : 1), **out = NULL;
	size_t *len = NULL;
	struct sm_job *j = arg;
	struct sm_job_run *g = j->st->run;
	int v, rc = vote(j, 0, &v, "the verdicts");
	double job[2][SM_RUN_NSIZES] = { { 0 } }, span[2][SM_RUN_NSIZES] = { { 0 } };

	if (!buf)
		return rc ? rc : -ENOMEM;
	for (unsigned r = 0; r < res->nrows; r++)
		memcpy(buf + r * one, res->rows[r].cell, one);
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			const struct sm_run_frametest *t = &res->sizes[i].t[d];
			double f[2] = { t->measured ? (double)t->bytes : 0,
					t->measured ? (double)t->duration_ns : 0 };

			memcpy(buf + nc + ((size_t)i * 2 + (size_t)d) * sizeof(f), f, sizeof(f));
		}
	if (!rc)
		rc = sm_mpi_gather(buf, n, sm_now_ns() + j->st->wait_ns, &out, &len);
	free(buf);
	if (rc && rc != -ECANCELED) {
		res->error = rc;
		snprintf(res->head.error, sizeof(res->head.error), "mpi: rank %d: cannot hand its verdict "
			 "table to rank 0: %s", j->rank, strerror(-rc));
	}
	if (rc || j->rank)
		return rc;
	g->own = calloc(res->nrows + 1, sizeof(*g->own));
	if (g->own)
		memcpy(g->own, res->rows, res->nrows * sizeof(*g->own));
	for (int k = 0; k < j->size; k++) {
		/* every rank's bytes over the longest rank's time: all started
		 * each test together (a barrier) */
		for (unsigned i = 0; out[k] && len[k] == n && i < SM_RUN_NSIZES; i++)
			for (int d = 0; d < 2; d++) {
				double f[2];

				memcpy(f, out[k] + nc + ((size_t)i * 2 + (size_t)d) * sizeof(f), sizeof(f));
				job[d][i] += f[0];
				if (f[1] > span[d][i])
					span[d][i] = f[1];
			}
		if (!k)
			continue;
		if (out[k] && len[k] == n) {
			for (unsigned r = 0; r < res->nrows; r++)
				for (int d = 0; d < 2; d++)
					for (unsigned q = 0; q < res->plan.nrates; q++) {
						struct sm_verdict_cell *c = &res->rows[r].cell[d][q], o;

						unsigned basis;
						uint64_t stall;

						memcpy(&o, out[k] + r * one + (d * SM_RUN_MAXRATES + q) * sizeof(o),
						       sizeof(o));
						/* a stall or a lacking basis on any client is the
						 * job's (docs/run.md) */
						basis = c->basis | o.basis;
						stall = c->stall_ns > o.stall_ns ? c->stall_ns : o.stall_ns;
						if (o.measured < c->measured)
							*c = o;
						c->basis = basis;
						c->stall_ns = stall;
						sm_verdict_cell_settle(c);
					}
		} else if (out[k]) {
			sm_warn(&res->head.warnings, "mpi_verdicts", "rank %d sent a verdict table of another "
				"shape (a different stormark or format list?); the job's table leaves it out", k);
		}
		free(out[k]);
	}
	free(out[0]);
	free(out);
	free(len);
	/* no client's verdict above what the job measured together */
	for (int d = 0; d < 2; d++)
		for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
			job[d][i] = span[d][i] > 0 ? job[d][i] * 1e9 / span[d][i] : 0;
	if (sm_run_cap_to_job(res, (const double (*)[SM_RUN_NSIZES])job, (unsigned)j->size))
		sm_warn(&res->head.warnings, "mpi_job_rate", "some clients' verdicts were lowered to "
			"their share of what the job's %d ranks moved together (docs/mpi.md)", j->size);
	return 0;
}

static int h_next(void *arg, int code)
{
	struct sm_job *j = arg;
	int out, rc = vote(j, j->rank ? 0 : code, &out, "a paced run");

	return rc ? rc : out;
}

static int h_paced(void *arg, unsigned row, unsigned rate, enum sm_direction d, struct sm_paced *pc)
{
	struct sm_job *j = arg;
	struct sm_job_run *g = j->st->run;
	struct sm_run_result *res = g->res;
	char **out = NULL;
	size_t *len = NULL;
	int rc;

	rc = sm_mpi_gather(pc, sizeof(*pc), sm_now_ns() + j->st->wait_ns, &out, &len);
	if (rc || j->rank)
		return rc;
	/* rank 0's own table takes its own outcome, as a run alone would */
	if (g->own && sm_verdict_cell_confirm(&g->own[row].cell[d][rate], pc)) {
		struct sm_run_result own = *res;
		struct sm_run_cand c = { .row = row, .rate = rate, .dir = d };

		own.rows = g->own;
		sm_run_propagate(&own, &c, pc);
	}
	for (int k = 1; k < j->size; k++) {
		struct sm_paced o;

		if (!out[k] || len[k] != sizeof(o)) {
			pc->complete = 0;   /* a rank that did not say: nobody can tell */
		} else {
			memcpy(&o, out[k], sizeof(o));
			if (paced_worse(&o, pc))
				*pc = o;
		}
		free(out[k]);
	}
	free(out[0]);
	free(out);
	free(len);
	return 0;
}

void sm_job_run_hooks(struct sm_job *j, struct sm_run_plan *plan, struct sm_run_result *res)
{
	struct sm_job_run *g;

	if (!j->st)
		return;   /* alone: no hooks */
	g = calloc(1, sizeof(*g));
	if (!g)
		return;   /* the first vote cannot come: the job stops at its first test */
	j->st->run = g;
	g->job = j;
	g->res = res;
	g->steps = cJSON_CreateArray();
	g->hooks = (struct sm_run_hooks){
		.arg = j, .leader = j->rank == 0, .begin = h_begin, .classic = h_classic,
		.frames = h_frames, .verdicts = h_verdicts, .next_paced = h_next, .paced = h_paced,
		.meta_peers = sm_job_meta_peers(j, 0),
	};
	plan->hooks = &g->hooks;
}

/* The job's window of one test: the earliest start, the latest end. */
struct window {
	uint64_t start, end;
};

static void widen(struct window *w, const cJSON *st)
{
	uint64_t a = 0, b = 0;

	(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(st, "start_ns"), &a);
	(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(st, "end_ns"), &b);
	if (!w->end || a < w->start)
		w->start = a;
	if (b > w->end)
		w->end = b;
}

/* Rank 0: one rank's document into the job: its classic tests' operations
 * into cop, its frame passes into acc, its tests' times into the job's
 * windows, its own best formats, its metadata line into *meta. Returns 0, or -EINVAL when it cannot be
 * read (k->error says why), -ENOMEM. */
static int take_rank(const cJSON *doc, struct sm_dist_rank *k, struct sm_run_rank_best *b, double *rate,
		     struct sm_opstat cop[][2], struct window cwin[][2],
		     struct sm_frames_result *acc[][2], struct window fwin[][2], struct sm_run_meta *meta)
{
	struct sm_run_result *tmp = calloc(1, sizeof(*tmp));
	struct sm_frames_result *fr = calloc(1, sizeof(*fr));
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(doc, "mpi_run"), *st;
	struct sm_jerr e = { "" };
	int rc = 0;

	if (!tmp || !fr) {
		rc = -ENOMEM;
		goto out;
	}
	if (!m || sm_run_from_json(doc, tmp, &e)) {
		snprintf(k->error, sizeof(k->error), "its result cannot be read: %s", m ? e.msg : "no mpi_run");
		rc = -EINVAL;
		goto out;
	}
	(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(m, "busy_ns"), &k->done_ns);
	(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(m, "bytes"), &k->bytes);
	(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(m, "items"), &k->items);
	k->reported = 1;
	*meta = tmp->meta;
	b->reported = tmp->reached >= SM_PHASE_VERDICTS;
	for (int d = 0; d < 2; d++) {
		unsigned row, ri;   /* the best cell's row and rate index */

		b->found[d] = sm_run_best(tmp, (enum sm_direction)d, &row, &ri) == 0;
		if (b->found[d]) {
			snprintf(b->format[d], sizeof(b->format[d]), "%s", tmp->rows[row].fmt.name);
			snprintf(b->fps[d], sizeof(b->fps[d]), "%s", tmp->plan.rates[ri]->name);
		}
	}
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++)
			if (tmp->classic[i].measured[w]) {
				sm_opstat_merge(&cop[i][w], &tmp->classic[i].res[w].op);
				rate[i * 2 + w] = tmp->classic[i].fig[w].bytes_per_s;
			}
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++)   /* write, then read */
			if (tmp->sizes[i].t[d].measured)
				rate[2 * SM_RUN_NCLASSIC + i * 2 + (d == SM_DIR_CAPTURE ? 0 : 1)] =
					tmp->sizes[i].t[d].bytes_per_s;
	cJSON_ArrayForEach(st, cJSON_GetObjectItemCaseSensitive(m, "steps")) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(st, "test");
		const cJSON *ix = cJSON_GetObjectItemCaseSensitive(st, "index");
		int w = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "write"));
		int d = w ? SM_DIR_CAPTURE : SM_DIR_PLAYBACK;
		unsigned i;

		if (!cJSON_IsString(t) || !cJSON_IsNumber(ix) || ix->valuedouble < 0)
			continue;
		i = (unsigned)ix->valuedouble;
		if (!strcmp(t->valuestring, "classic") && i < SM_RUN_NCLASSIC) {
			widen(&cwin[i][w], st);
		} else if (!strcmp(t->valuestring, "frames") && i < SM_RUN_NSIZES) {
			if (sm_frames_from_json(cJSON_GetObjectItemCaseSensitive(st, "result"), fr, &e)) {
				sm_frames_from_json_release(fr);
				continue;
			}
			widen(&fwin[i][d], st);
			if (!acc[i][d]) {
				acc[i][d] = fr;
				fr = calloc(1, sizeof(*fr));
				if (!fr) {
					rc = -ENOMEM;
					goto out;
				}
				continue;
			}
			rc = sm_frames_merge(acc[i][d], fr);
			sm_frames_from_json_release(fr);
			memset(fr, 0, sizeof(*fr));
			if (rc)
				goto out;
		}
	}
out:
	if (tmp)
		sm_run_from_json_release(tmp);
	free(tmp);
	free(fr);
	return rc;
}

/* Rank 0: the job's metadata line, the slowest rank's (the longest time to
 * stat and probe a sequence) of those that measured it; the ranks ran it at
 * once, each in its own directory, so one rank's figures are those of a
 * client beside the others. Not measured when no rank measured it. */
static void merge_meta(struct sm_run_meta *out, const struct sm_run_meta *meta, unsigned n)
{
	unsigned slow = n, count = 0;

	for (unsigned r = 0; r < n; r++) {
		if (!meta[r].measured)
			continue;
		count++;
		if (slow == n || meta[r].seq_probe_ns > meta[slow].seq_probe_ns)
			slow = r;
	}
	memset(out, 0, sizeof(*out));
	if (slow == n)
		return;
	*out = meta[slow];
	out->rank = slow;
	out->ranks = count;
}

/* Rank 0: res becomes the job's from every rank's document. */
static int merge(struct sm_job *j, struct sm_run_result *res)
{
	struct sm_job_run *g = j->st->run;
	struct sm_dist_result *d = &j->st->res;
	struct sm_opstat cop[SM_RUN_NCLASSIC][2];
	struct sm_frames_result *acc[SM_RUN_NSIZES][2] = { { NULL } };
	struct window cwin[SM_RUN_NCLASSIC][2], fwin[SM_RUN_NSIZES][2];
	char names[SM_RUN_DIST_TESTS][24];
	struct sm_run_meta *meta;
	double *rate;
	int rc = 0;

	memset(cwin, 0, sizeof(cwin));
	memset(fwin, 0, sizeof(fwin));
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++)
			sm_opstat_init(&cop[i][w]);
	g->best = calloc(d->nranks, sizeof(*g->best));
	rate = calloc((size_t)d->nranks * SM_RUN_DIST_TESTS, sizeof(*rate));
	meta = calloc(d->nranks, sizeof(*meta));
	if (!g->best || !rate || !meta) {
		free(rate);
		free(meta);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++)
			snprintf(names[i * 2 + w], sizeof(names[0]), "%s %s", res->classic[i].label,
				 w ? "write" : "read");
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int w = 0; w < 2; w++)
			snprintf(names[2 * SM_RUN_NCLASSIC + i * 2 + w], sizeof(names[0]), "%s frames %s",
				 res->sizes[i].preset, w ? "read" : "write");
	for (unsigned r = 0; r < d->nranks && rc != -ENOMEM; r++) {
		g->best[r].rank = (int)r;
		snprintf(g->best[r].host, sizeof(g->best[r].host), "%s", d->rank[r].host);
		if (!j->st->docs[r] || !cJSON_GetObjectItemCaseSensitive(j->st->docs[r], "command"))
			continue;
		rc = take_rank(j->st->docs[r], &d->rank[r], &g->best[r], rate + (size_t)r * SM_RUN_DIST_TESTS,
			       cop, cwin, acc, fwin, &meta[r]);
	}
	sm_run_dist_slow(g->best, d->nranks, rate, names);
	free(rate);
	merge_meta(&res->meta, meta, d->nranks);
	free(meta);
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			struct sm_run_classic *c = &res->classic[i];

			c->measured[w] = cop[i][w].count > 0;
			c->res[w].op = cop[i][w];
			c->res[w].duration_ns = cwin[i][w].end - cwin[i][w].start;
			/* each rank's stalls are in its own document: none is
			 * the job's (its ranks' clocks do not line up to 10 ms) */
			memset(&c->res[w].stalls, 0, sizeof(c->res[w].stalls));
			sm_run_classic_figures(c, w);
		}
	for (unsigned s = 0; s < SM_RUN_NSIZES; s++)
		for (int dir = 0; dir < 2; dir++) {
			struct sm_run_frametest *t = &res->sizes[s].t[dir];

			free(t->series);
			memset(t, 0, sizeof(*t));
			if (!acc[s][dir])
				continue;
			acc[s][dir]->head.duration_ns = fwin[s][dir].end - fwin[s][dir].start;
			sm_frames_analyse(acc[s][dir]);
			sm_run_frametest_from(acc[s][dir], t);
			sm_frames_from_json_release(acc[s][dir]);
			free(acc[s][dir]);
		}
	res->mpi_ranks = d->nranks;
	sm_run_analyse(res);
	/* the ranks' own results stay in the JSON; their frame passes, merged
	 * above, would only make it long */
	for (unsigned r = 0; r < d->nranks; r++)
		cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(j->st->docs[r], "mpi_run"),
							"steps");
	if (!rc || rc == -EINVAL)
		rc = sm_dist_analyse(d);
	return rc == -EINVAL ? 0 : rc;
}

/* After sm_run_end(): the closing vote (failed: this rank's run failed, the
 * others stop at their next test), this rank's result to rank 0 and,
 * there, res made the job's (merge()). Returns 1 on the other ranks, 0 on
 * rank 0, or an exit code on failure (said on stderr). */
static int run_end(struct sm_job *j, struct sm_run_result *res, int failed)
{
	struct sm_job_run *g = j->st->run;
	struct sm_run_row *job = NULL;
	cJSON *doc, *m;
	int out, rc;

	/* the closing vote: a failed rank stops the others at their next test */
	(void)vote(j, failed ? VOTE_STOP : 0, &out, "the end");
	j->st->done_ns = g->busy_ns;
	if (g->own) {   /* rank 0's own table in its own document, its summary its own */
		job = res->rows;
		res->rows = g->own;
		sm_run_analyse(res);
	}
	doc = sm_json_doc_new(&res->head);
	if (doc) {
		sm_json_run(doc, res);
		m = cJSON_AddObjectToObject(doc, "mpi_run");
		sm_json_add_u64(m, "busy_ns", g->busy_ns);
		sm_json_add_u64(m, "bytes", g->bytes);
		sm_json_add_u64(m, "items", g->items);
		cJSON_AddItemToObject(m, "steps", g->steps ? g->steps : cJSON_CreateArray());
		g->steps = NULL;
	}
	if (job) {
		res->rows = job;
		sm_run_analyse(res);
	}
	cJSON_Delete(g->steps);
	g->steps = NULL;
	rc = sm_job_collect(j, doc, failed, res->head.error);
	if (rc)
		return rc;
	rc = merge(j, res);
	if (rc) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	return 0;
}

void sm_job_run_stop(struct sm_job *j, struct sm_run_result *res)
{
	if (j->st && j->st->run)   /* the others hear it at their first test */
		(void)run_end(j, res, 1);
}

/* The run's outcome *rc settled for the job: a stop by another rank
 * (-ECANCELED) is said here and is no failure of rank 0's report (its exit
 * code comes from the rank table). */
static int run_job(struct sm_job *j, void *arg, int *rc)
{
	struct sm_run_result *res = arg;
	int failed = (*rc && *rc != -ECANCELED) || (res->error && res->error != -ECANCELED), d;

	if (!j->st->run) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	if (*rc == -EINTR && !res->head.error[0])
		snprintf(res->head.error, sizeof(res->head.error), "interrupted by a signal");
	d = run_end(j, res, failed);
	if (*rc == -ECANCELED || res->error == -ECANCELED)
		sm_error("%s", res->head.error);
	if (d) {   /* rank 0 reports the job's merged result, the others nothing */
		if (failed && *rc != -EINTR)
			sm_error("%s", res->head.error[0] ? res->head.error : strerror(-*rc));
		return sm_exit_code(failed && *rc != -EINTR, *rc == -EINTR);
	}
	if (*rc == -ECANCELED)
		*rc = 0;   /* said above; rank 0's exit code comes from the rank table */
	if (res->error == -ECANCELED)
		res->error = 0;
	return -1;
}

/* Rank 0, after the run's text report: what the verdicts mean across the
 * ranks and each rank's own best formats, then the host and rank table. */
static void run_text(struct sm_job *j, FILE *f, SM_UNUSED const void *res)
{
	if (!j->st->run || !j->st->run->best)
		return;
	sm_run_dist_text(f, j->st->res.nranks, j->st->run->best);
	sm_job_table(j, f, NULL);
}

/* Rank 0: the "mpi" object (with the ranks' own results, "verdicts":
 * "worst_rank" and each rank's best formats) added to doc. */
static void run_json(struct sm_job *j, cJSON *doc, SM_UNUSED const void *res)
{
	cJSON *m;

	sm_job_table(j, NULL, doc);
	m = cJSON_GetObjectItemCaseSensitive(doc, "mpi");
	if (m) {
		cJSON_AddStringToObject(m, "verdicts", "worst_rank");
		if (j->st->run && j->st->run->best)
			cJSON_AddItemToObject(m, "run_ranks", sm_run_dist_json(j->st->res.nranks, j->st->run->best));
	}
}

const struct sm_job_kind sm_job_run = { run_job, run_text, run_json };

void sm_job_run_release(struct sm_job *j)
{
	struct sm_job_run *g = j->st ? j->st->run : NULL;

	if (!g)
		return;
	free(g->own);
	free(g->best);
	cJSON_Delete(g->steps);
	free(g);
	j->st->run = NULL;
}
