/* SPDX-License-Identifier: MIT */
/* Rank 0's side of a job's results: each rank's part gathered (its
 * "mpi_rank" block), the results of frames, fileio and meta read back and
 * merged as they arrive, the job's figures and its table (docs/mpi.md).
 * The job's life (start, placing, barriers, end) is job.c. */
#include "mpi/job.h"
#include "mpi/job_int.h"
#include "mpi/job_meta.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "analysis/dist.h"
#include "analysis/fileio.h"
#include "analysis/frames.h"
#include "analysis/meta.h"
#include "core/compiler.h"
#include "core/msg.h"
#include "core/clock.h"
#include "core/rng.h"
#include "core/fsx.h"
#include "core/outfile.h"
#include "core/worker.h"
#include "report/dist.h"
#include "report/fileio.h"
#include "report/frametest.h"
#include "result/json.h"
#include "result/json_read.h"

/* This rank's part of the job as the others see it: "mpi_rank" in its
 * result document (doc may be a bare object when nothing was measured). */
void sm_job_add_rank(struct sm_job *j, cJSON *doc, int failed, const char *error)
{
	cJSON *o = cJSON_AddObjectToObject(doc, "mpi_rank");

	if (!o)
		return;
	cJSON_AddNumberToObject(o, "rank", j->rank);
	cJSON_AddStringToObject(o, "host", j->st->me.host);
	sm_json_add_u64(o, "done_ns", j->st->done_ns);
	cJSON_AddBoolToObject(o, "failed", failed);
	cJSON_AddStringToObject(o, "error", error ? error : "");
	cJSON_AddBoolToObject(o, "walled", j->st->walled);
}

/*
 * Send doc (consumed) to rank 0. There, st->docs[r] is each rank's
 * document (NULL when none came) and st->res.rank[r] what its "mpi_rank"
 * says. Returns 0, or an exit code (said on stderr).
 */
int sm_job_gather(struct sm_job *j, cJSON *doc)
{
	struct sm_job_state *st = j->st;
	struct sm_dist_result *d = &st->res;
	char *text = doc ? cJSON_PrintUnformatted(doc) : NULL, **out = NULL;
	size_t *len = NULL;
	unsigned n = (unsigned)j->size;
	int rc;

	st->gathered = 1;
	if (!text) {
		cJSON_Delete(doc);
		text = strdup("{}");   /* rank 0 still hears from this rank */
		doc = NULL;
		if (!text)
			return SM_EXIT_FAIL;
	}
	rc = sm_mpi_gather(text, strlen(text), sm_now_ns() + st->wait_ns + st->done_ns, &out, &len);
	free(text);
	if (j->rank || rc) {
		cJSON_Delete(doc);
		st->timed_out |= rc != 0;
		if (rc)
			sm_error("mpi: rank %d: cannot hand the result to rank 0: %s", j->rank,
				 rc == -ETIMEDOUT ? "rank 0 did not take it within --mpi-wait" : strerror(-rc));
		return rc ? SM_EXIT_FAIL : 0;
	}
	memset(d, 0, sizeof(*d));
	d->nranks = n;
	d->stonewall = j->stonewall;
	d->rank = calloc(n, sizeof(*d->rank));
	st->docs = calloc(n, sizeof(*st->docs));
	if (!d->rank || !st->docs) {
		for (unsigned r = 0; r < n; r++)
			free(out[r]);
		free(out);
		free(len);
		cJSON_Delete(doc);
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	for (unsigned r = 0; r < n; r++) {
		struct sm_dist_rank *k = &d->rank[r];

		if (!out[r])
			st->timed_out = 1;
		/* rank 0's own too: read back as the others' are (a u64 is
		 * written as a raw number that only a parse makes a number) */
		cJSON *x = out[r] ? cJSON_Parse(out[r]) : NULL;
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(x, "mpi_rank");
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(m, "host");
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(m, "error");

		k->rank = (int)r;
		snprintf(k->host, sizeof(k->host), "%s", st->me.hosts[r]);
		free(out[r]);
		if (!m) {
			snprintf(k->error, sizeof(k->error), "no result within %.0f s of rank 0's end (the rank "
				 "died, hung or could not send)", (double)(st->wait_ns + st->done_ns) / 1e9);
			cJSON_Delete(x);
			continue;
		}
		if (cJSON_IsString(h))
			snprintf(k->host, sizeof(k->host), "%s", h->valuestring);
		snprintf(k->error, sizeof(k->error), "%s", cJSON_IsString(e) ? e->valuestring : "");
		k->failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "failed"));
		k->walled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "walled"));
		(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(m, "done_ns"), &k->done_ns);
		cJSON_DeleteItemFromObjectCaseSensitive(x, "mpi_rank");
		/* "reported" once its result is merged */
		st->docs[r] = x;
	}
	cJSON_Delete(doc);
	free(out);
	free(len);
	return 0;
}

/* Rank 0: the job's figures once the results are merged. */
int sm_job_analyse(struct sm_job *j)
{
	const char *rows = getenv("SM_MPI_RANK_ROWS");   /* the rows listed (tests) */

	j->st->res.list_max = rows && atoi(rows) > 0 ? (unsigned)atoi(rows) : 0;
	if (sm_dist_analyse(&j->st->res)) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	return 0;
}

int sm_job_collect(struct sm_job *j, cJSON *doc, int failed, const char *error)
{
	int rc;

	if (doc)
		sm_job_add_rank(j, doc, failed, error);
	rc = sm_job_gather(j, doc);
	return rc ? rc : j->rank ? 1 : 0;
}

/* How rank 0 reads back and merges the results of frames and fileio. */
struct merge_ops {
	size_t size;   /* of the result */
	struct sm_result_head *(*head)(void *res);
	cJSON *(*doc)(const void *res);   /* this rank's document */
	int (*failed)(const void *res);
	int (*read)(const cJSON *doc, void *res, struct sm_jerr *e);
	int (*merge)(void *dst, const void *src);
	void (*release)(void *res);
	void (*counts)(const void *res, uint64_t *bytes, uint64_t *items);   /* the rank table's */
	void (*analyse)(void *res);       /* the figures again from the merged counts */
	int (*code)(const void *res, int rc);   /* the exit code of a rank that reports nothing */
	unsigned (*hists)(void *res, struct sm_hist **h);   /* its histograms, at most MAX_HISTS */
	int strip;   /* 1: a document may go without its histograms (meta's reader
		      * checks each against its operations' count: 0) */
};

#define MAX_HISTS (2 * SM_META_NPHASES)

/* The reduction's operation: n histograms of in merged into inout's. */
static void hist_fold(void *inout, const void *in, unsigned n)
{
	struct sm_hist *d = inout;
	const struct sm_hist *s = in;

	for (unsigned i = 0; i < n; i++)
		sm_hist_merge(&d[i], &s[i]);
}

/* Rank 0 while the ranks' results come one by one (merge_job). */
struct merge_ctx {
	struct sm_job *j;
	const struct merge_ops *ops;
	void *res, *tmp;            /* the job's result; one rank's, read back */
	FILE *detail;               /* --mpi-rank-detail's file, or NULL */
	int err;                    /* a write to it failed */
	int reduced;                /* the histograms came by the reduction: a
				     * document's are left out of the merge */
	int rows;                   /* the rows came by the fixed-size gather */
};

/* Rank 0: a rank's document x read back and merged into the job (its
 * histograms left out when they came by the reduction), its row k
 * marked reported. Returns 0, or -ENOMEM. */
static int merge_doc(struct merge_ctx *c, struct sm_dist_rank *k, const cJSON *x)
{
	struct sm_jerr je = { "" };
	int rc = 0;

	if (!cJSON_GetObjectItemCaseSensitive(x, "command"))
		return 0;
	if (c->ops->read(x, c->tmp, &je)) {
		snprintf(k->error, sizeof(k->error), "its result cannot be read: %s", je.msg);
		k->reported = 0;
	} else {
		if (c->reduced) {
			struct sm_hist *h[MAX_HISTS];
			unsigned nh = c->ops->hists(c->tmp, h);

			for (unsigned i = 0; i < nh; i++)
				sm_hist_init(h[i]);
		}
		k->reported = 1;
		if (!c->rows)
			c->ops->counts(c->tmp, &k->bytes, &k->items);
		rc = c->ops->merge(c->res, c->tmp);
	}
	c->ops->release(c->tmp);
	memset(c->tmp, 0, c->ops->size);
	return rc;
}

/* One rank's document (text, NULL when none came) into the job: its row
 * of the rank table, its result merged into res, its line in the detail
 * file; nothing of it is kept. Returns 0, or -ENOMEM. */
static int take_rank(void *arg, int rank, const char *text, SM_UNUSED size_t len)
{
	struct merge_ctx *c = arg;
	struct sm_job_state *st = c->j->st;
	struct sm_dist_rank *k = &st->res.rank[rank];
	cJSON *x = text ? cJSON_Parse(text) : NULL;
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(x, "mpi_rank");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(m, "host");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(m, "error");
	int rc = 0;

	if (c->rows && text) {
		/* its row came with the fixed-size records: merge only */
		if (c->detail && m && fprintf(c->detail, "%s\n", text) < 0)
			c->err = 1;
		rc = m ? merge_doc(c, k, x) : 0;
		cJSON_Delete(x);
		return rc;
	}
	k->rank = rank;
	snprintf(k->host, sizeof(k->host), "%s", st->me.hosts[rank]);
	if (!m) {
		st->timed_out |= !text;
		snprintf(k->error, sizeof(k->error), "no result within %.0f s of rank 0's end (the rank "
			 "died, hung or could not send)", (double)(st->wait_ns + st->done_ns) / 1e9);
		if (c->detail) {
			/* its line all the same: one per rank */
			cJSON *o = cJSON_CreateObject(), *r = cJSON_AddObjectToObject(o, "mpi_rank");
			char *t;

			cJSON_AddNumberToObject(r, "rank", rank);
			cJSON_AddStringToObject(r, "host", k->host);
			cJSON_AddBoolToObject(r, "failed", 0);
			cJSON_AddStringToObject(r, "error", k->error);
			t = cJSON_PrintUnformatted(o);
			if (!t || fprintf(c->detail, "%s\n", t) < 0)
				c->err = 1;
			free(t);
			cJSON_Delete(o);
		}
		cJSON_Delete(x);
		return 0;
	}
	if (c->detail && fprintf(c->detail, "%s\n", text) < 0)
		c->err = 1;
	if (cJSON_IsString(h))
		snprintf(k->host, sizeof(k->host), "%s", h->valuestring);
	snprintf(k->error, sizeof(k->error), "%s", cJSON_IsString(e) ? e->valuestring : "");
	k->failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "failed"));
	k->walled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "walled"));
	(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(m, "done_ns"), &k->done_ns);
	rc = merge_doc(c, k, x);
	cJSON_Delete(x);
	return rc;
}

/*
 * The parts of a result that the MPI library combines (every rank, before
 * its document goes): its histograms reduced bucket by bucket into rank
 * 0's hb by a tree (sm_mpi_reduce with hist_fold), and its row of the
 * rank table gathered as a fixed-size record into rank 0's sums (n
 * records). A rank whose histograms were reduced, and that writes no
 * --mpi-rank-detail line, empties them in res when its kind allows
 * (ops->strip): its document then carries none. Sets c->reduced and
 * c->rows on rank 0 when each came whole.
 * Returns 1 when a request is still under way (a rank missing): the MPI
 * library may still read me and write hb and sums, which must then stay
 * allocated (the job ends with MPI_Abort), else 0.
 */
static int combine(struct merge_ctx *c, void *res, struct sm_hist *hb,
		   struct sm_job_row *me, struct sm_job_row *sums, uint64_t deadline)
{
	struct sm_job *j = c->j;
	struct sm_job_state *st = j->st;
	struct sm_result_head *head = c->ops->head(res);
	struct sm_hist *h[MAX_HISTS];
	unsigned nh = c->ops->hists(res, h);
	uint64_t bytes, items;
	int rc_h = -ENOMEM, rc_s;

	if (hb) {
		for (unsigned i = 0; i < nh; i++)
			hb[i] = *h[i];
		rc_h = sm_mpi_reduce(hb, sizeof(*hb), nh, hist_fold, deadline);
	}
	c->ops->counts(res, &bytes, &items);
	sm_job_row_fill(j, me, bytes, items, c->ops->failed(res), head->error);
	rc_s = sm_mpi_gather_fixed(me, sizeof(*me), sums, deadline);
	st->timed_out |= rc_h == -ETIMEDOUT || rc_s == -ETIMEDOUT;
	if (j->rank) {
		if (!rc_h && !st->detail && c->ops->strip)
			for (unsigned i = 0; i < nh; i++)
				sm_hist_init(h[i]);
		return rc_h == -ETIMEDOUT || rc_s == -ETIMEDOUT;
	}
	c->reduced = !rc_h;
	c->rows = !rc_s && sums;
	if (rc_h && hb)
		sm_warn(&head->warnings, "mpi_hist_partial", "the ranks' histograms could not be reduced (%s): "
			"the job's percentiles are of the ranks whose documents carried theirs", strerror(-rc_h));
	if (c->rows) {
		sm_job_row_take(j, sums);
		for (unsigned r = 1; r < st->res.nranks; r++)
			st->res.rank[r].reported = 0;   /* once merged */
	}
	return rc_h == -ETIMEDOUT || rc_s == -ETIMEDOUT;
}

/*
 * Send res's document to rank 0; there, merge every other rank's result
 * into res as it comes, one at a time, keeping of each nothing (and
 * writing its line to --mpi-rank-detail's file), then derive the job's
 * figures. The histograms and the rank table's rows come first, combined
 * by the MPI library (combine()); when they cannot (a rank died), rank 0
 * takes them from the documents that come. Returns -1 on rank 0, else
 * this rank's exit code (a failure said on stderr).
 */
static int merge_job(struct sm_job *j, void *res, int rc_run, const struct merge_ops *ops)
{
	struct sm_job_state *st = j->st;
	struct sm_dist_result *d = &st->res;
	struct sm_result_head *h = ops->head(res);
	cJSON *doc;
	char *text;
	struct sm_outfile of;
	struct merge_ctx c = { j, ops, res, NULL, NULL, 0, 0, 0 };
	struct sm_hist *hb = calloc(MAX_HISTS, sizeof(*hb));
	struct sm_job_row *sums = NULL, *me = malloc(sizeof(*me));
	uint64_t deadline = sm_now_ns() + st->wait_ns + st->done_ns;
	int rc, err = 0, pending;

	st->gathered = 1;
	if (!j->rank && !sm_job_res_begin(j, &sums))
		c.tmp = calloc(1, ops->size);
	if (!hb || !me || (!j->rank && (!d->rank || !sums || !c.tmp))) {
		/* (the other ranks' collectives then wait for this one's end) */
		free(hb);
		free(me);
		free(sums);
		free(c.tmp);
		sm_error("out of memory");
		return ops->code(res, rc_run);
	}
	pending = combine(&c, res, hb, me, sums, deadline);
	if (!pending) {
		free(sums);
		free(me);
	}
	doc = ops->doc(res);
	if (doc)
		sm_job_add_rank(j, doc, ops->failed(res), h->error);
	text = doc ? cJSON_PrintUnformatted(doc) : NULL;
	cJSON_Delete(doc);
	if (st->timed_out)   /* a rank is missing: a fresh wait for the documents that come */
		deadline = sm_now_ns() + st->wait_ns;
	if (j->rank) {
		if (!pending)
			free(hb);
		/* rank 0 takes documents only once its own reduce and gather
		 * are over, which with a rank missing is at its deadline (up to
		 * --mpi-wait past its end, and its end may be later than this
		 * one's), and then --mpi-wait more: this rank's document stays
		 * offered past both. A job that ends sooner ends this rank too. */
		deadline += 2 * st->wait_ns + st->done_ns;
		rc = sm_mpi_gather_each(text ? text : "{}", text ? strlen(text) : 2, deadline, NULL, NULL);
		free(text);
		st->timed_out |= rc != 0;
		if (rc)
			sm_error("mpi: rank %d: cannot hand the result to rank 0: %s", j->rank,
				 rc == -ETIMEDOUT ? "rank 0 did not take it within --mpi-wait" : strerror(-rc));
		return ops->code(res, rc_run);
	}
	if (st->detail) {
		c.detail = sm_outfile_fopen(&of, st->detail, &err);
		if (!c.detail)
			sm_error("mpi: --mpi-rank-detail=%s: %s", st->detail, strerror(-err));
	}
	if (!c.rows) {
		/* rank 0's own row, from its own result before anything is merged */
		d->rank[0].rank = 0;
		snprintf(d->rank[0].host, sizeof(d->rank[0].host), "%s", st->me.host);
		snprintf(d->rank[0].error, sizeof(d->rank[0].error), "%s", h->error);
		d->rank[0].failed = ops->failed(res);
		d->rank[0].walled = st->walled;
		d->rank[0].done_ns = st->done_ns;
		d->rank[0].reported = text != NULL;
		ops->counts(res, &d->rank[0].bytes, &d->rank[0].items);
	}
	if (c.detail && text && fprintf(c.detail, "%s\n", text) < 0)
		c.err = 1;
	free(text);
	rc = sm_mpi_gather_each(NULL, 0, deadline, take_rank, &c);
	free(c.tmp);
	if (c.detail) {
		err = sm_outfile_fclose(&of, c.detail, c.err ? -EIO : 0);
		if (err)
			sm_error("mpi: --mpi-rank-detail=%s: %s", st->detail, strerror(-err));
	}
	st->detail_lost = err != 0;
	st->hists = c.reduced ? "reduced" : "documents";
	if (c.reduced) {
		/* the job's histograms: every rank's, reduced by the library */
		struct sm_hist *hp[MAX_HISTS];
		unsigned nh = ops->hists(res, hp);

		for (unsigned i = 0; i < nh; i++)
			*hp[i] = hb[i];
	}
	if (!pending)
		free(hb);
	if (rc) {
		st->timed_out = 1;
		sm_error("mpi: the ranks' results could not be taken: %s", strerror(-rc));
		return ops->code(res, rc_run);
	}
	if (sm_job_analyse(j))
		return ops->code(res, rc_run);
	/* the job's span; the figures again from the merged counts */
	h->duration_ns = d->last_done_ns;
	ops->analyse(res);
	return -1;
}

/* The host and rank table after a text report, and as the "mpi" object. */
void sm_job_table(struct sm_job *j, FILE *f, cJSON *doc)
{
	if (j->rank || !j->st->res.rank)
		return;
	if (f)
		sm_dist_text(f, &j->st->res);
	if (doc) {
		cJSON *o = sm_dist_json(&j->st->res, j->st->docs);

		if (o) {
			cJSON_AddStringToObject(o, "files", j->shared ? "shared" : "own");
			if (j->st->hists)
				cJSON_AddStringToObject(o, "histograms", j->st->hists);
			cJSON_AddItemToObject(doc, "mpi", o);
		}
	}
}

static void table_text(struct sm_job *j, FILE *f, SM_UNUSED const void *res)
{
	sm_job_table(j, f, NULL);
}

static void table_json(struct sm_job *j, cJSON *doc, SM_UNUSED const void *res)
{
	sm_job_table(j, NULL, doc);
}

static struct sm_result_head *frames_head(void *res)
{
	return &((struct sm_frames_result *)res)->head;
}

static cJSON *frames_doc(const void *res)
{
	const struct sm_frames_result *r = res;
	cJSON *doc = sm_json_doc_new(&r->head);

	if (doc)
		sm_json_frames(doc, r);
	return doc;
}

static int frames_failed(const void *res)
{
	const struct sm_frames_result *r = res;

	return r->error != 0 || r->head.error[0];
}

static int frames_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	return sm_frames_from_json(doc, res, e);
}

static int frames_merge(void *dst, const void *src)
{
	return sm_frames_merge(dst, src);
}

static void frames_release(void *res)
{
	sm_frames_from_json_release(res);
}

static void frames_counts(const void *res, uint64_t *bytes, uint64_t *items)
{
	const struct sm_frames_result *f = res;

	*bytes = f->bytes;
	*items = f->frames_done;
}

static void frames_analyse(void *res)
{
	sm_frames_analyse(res);
}

static int frames_code(SM_UNUSED const void *res, int rc)
{
	return sm_exit_code(rc && rc != -EINTR, rc == -EINTR);
}

static unsigned frames_hists(void *res, struct sm_hist **h)
{
	struct sm_frames_result *f = res;

	h[0] = &f->open.lat;
	h[1] = &f->io.lat;
	h[2] = &f->close.lat;
	h[3] = &f->frame.lat;
	h[4] = &f->sched_lat;
	h[5] = &f->early;
	h[6] = &f->late;
	h[7] = &f->frame_window;
	return 8;
}

static int frames_job(struct sm_job *j, void *res, int *rc)
{
	static const struct merge_ops ops = {
		sizeof(struct sm_frames_result), frames_head, frames_doc, frames_failed, frames_read,
		frames_merge, frames_release, frames_counts, frames_analyse, frames_code, frames_hists, 1,
	};

	return merge_job(j, res, *rc, &ops);
}

const struct sm_job_kind sm_job_frames = { frames_job, table_text, table_json };

static struct sm_result_head *fileio_head(void *res)
{
	return &((struct sm_fileio_result *)res)->head;
}

static cJSON *fileio_doc(const void *res)
{
	return sm_fileio_json(res);
}

static int fileio_failed(const void *res)
{
	const struct sm_fileio_result *r = res;

	return r->failed || r->head.error[0];
}

static int fileio_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	return sm_fileio_from_json(doc, res, e);
}

static int fileio_merge(void *dst, const void *src)
{
	return sm_fileio_merge(dst, src);
}

static void fileio_release(void *res)
{
	sm_fileio_from_json_release(res);
}

static void fileio_counts(const void *res, uint64_t *bytes, uint64_t *items)
{
	const struct sm_fileio_result *f = res;

	*bytes = f->ops[0].bytes + f->ops[1].bytes;
	*items = f->events;
}

static void fileio_analyse(void *res)
{
	sm_fileio_analyse(res);
}

static int fileio_code(const void *res, SM_UNUSED int rc)
{
	const struct sm_fileio_result *r = res;

	return sm_exit_code(r->failed, r->head.interrupted);
}

static unsigned fileio_hists(void *res, struct sm_hist **h)
{
	struct sm_fileio_result *f = res;

	for (int i = 0; i < 3; i++)
		h[i] = &f->ops[i].lat;
	h[3] = &f->events_lat;
	return 4;
}

static int fileio_job(struct sm_job *j, void *res, int *rc)
{
	static const struct merge_ops ops = {
		sizeof(struct sm_fileio_result), fileio_head, fileio_doc, fileio_failed, fileio_read,
		fileio_merge, fileio_release, fileio_counts, fileio_analyse, fileio_code, fileio_hists, 1,
	};

	return merge_job(j, res, *rc, &ops);
}

const struct sm_job_kind sm_job_fileio = { fileio_job, table_text, table_json };

static struct sm_result_head *meta_head(void *res)
{
	return &((struct sm_meta_result *)res)->head;
}

static cJSON *meta_doc(const void *res)
{
	return sm_meta_json(res);
}

static int meta_failed(const void *res)
{
	return ((const struct sm_meta_result *)res)->head.error[0] != '\0';
}

static int meta_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	return sm_meta_from_json(doc, res, e);
}

static int meta_merge(void *dst, const void *src)
{
	return sm_meta_merge(dst, src);
}

static void meta_release(void *res)
{
	sm_meta_from_json_release(res);
}

static void meta_counts(const void *res, uint64_t *bytes, uint64_t *items)
{
	const struct sm_meta_result *m = res;

	*bytes = *items = 0;
	for (int p = 0; p < SM_META_NPHASES; p++) {
		*bytes += m->ph[p].op.bytes;
		*items += m->ph[p].op.count;
	}
}

static void meta_analyse(void *res)
{
	sm_meta_analyse(res);
}

static unsigned meta_hists(void *res, struct sm_hist **h)
{
	struct sm_meta_result *m = res;

	for (int p = 0; p < SM_META_NPHASES; p++) {
		h[2 * p] = &m->ph[p].op.lat;
		h[2 * p + 1] = &m->ph[p].done_at;
	}
	return 2 * SM_META_NPHASES;
}

static int meta_job(struct sm_job *j, void *res, int *rc)
{
	static const struct merge_ops ops = {
		sizeof(struct sm_meta_result), meta_head, meta_doc, meta_failed, meta_read,
		meta_merge, meta_release, meta_counts, meta_analyse, frames_code, meta_hists, 0,
	};
	struct sm_meta_result *m = res;
	int code = merge_job(j, res, *rc, &ops);

	if (code != -1 || !j->st)
		return code;
	/* rank 0: the job's first-done rates, from the ranks merged */
	m->ranks = 0;
	for (unsigned r = 0; r < j->st->res.nranks; r++)
		m->ranks += j->st->res.rank[r].reported != 0;
	sm_meta_analyse(m);
	return -1;
}

const struct sm_job_kind sm_job_meta = { meta_job, table_text, table_json };

static int meta_vote(void *arg, int v, int *any)
{
	struct sm_job *j = arg;

	return sm_mpi_max(v, any, sm_now_ns() + j->st->wait_ns);
}

static int meta_bcast(void *arg, void *buf, size_t n)
{
	struct sm_job *j = arg;

	return sm_mpi_bcast(buf, n, sm_now_ns() + j->st->wait_ns);
}

const struct sm_meta_peers *sm_job_meta_peers(struct sm_job *j, int shared)
{
	struct sm_meta_peers *p;

	if (!j->st)
		return NULL;   /* alone: no peers */
	p = &j->st->meta_peers;
	p->rank = (unsigned)j->rank;
	p->ranks = (unsigned)j->size;
	p->shared = shared;
	p->vote = meta_vote;
	p->bcast = meta_bcast;
	p->arg = j;
	return p;
}
