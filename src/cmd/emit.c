/* SPDX-License-Identifier: MIT */
/* The one emit step: a command's render table turned into its report, its
 * notices, its JSON, history and HTML files and its exit code, for a live
 * run and for a saved document alike. */
#include "cmd/emit.h"
#include "cmd/cmd.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/dist.h"
#include "core/msg.h"
#include "core/outfile.h"
#include "mpi/job.h"
#include "report/cliff.h"
#include "report/stall.h"
#include "report/dist.h"
#include "result/cliff.h"
#include "result/dist.h"
#include "result/json.h"
#include "result/json_read.h"
#include "result/result.h"
#include "store/history_db.h"

/* the -o FILE stdout was sent to, for the message of a failed write, and
 * the file it is written as (renamed into place by sm_out_finish()) */
static const char *stdout_name;
static struct sm_outfile stdout_file = { .fd = -1 };
/* the first write error on stdout, as sm_out_stdout_failed() was told it */
static int stdout_err;

void sm_out_stdout_failed(int err)
{
	if (!stdout_err && err < 0)
		stdout_err = err;
}

void sm_out_check_stdout(void)
{
	int err = errno;   /* the failed write's, when nothing since has set it */

	if (ferror(stdout))
		sm_out_stdout_failed(err ? -err : -EIO);
}

int sm_out_flush(FILE *f)
{
	int rc;

	errno = 0;
	rc = fflush(f);
	if (rc == EOF && f == stdout)
		sm_out_stdout_failed(errno ? -errno : -EIO);
	return rc;
}

/*
 * Every file the emit step writes besides stdout (--json=FILE, --html
 * FILE) is opened and closed by these two: written under a temporary name
 * and renamed into place when whole (core/outfile.h). Returns the stream,
 * or NULL with -errno in *err.
 */
static FILE *out_open(struct sm_outfile *of, const char *path, int *err)
{
	return sm_outfile_fopen(of, path, err);
}

/* Close f, an out_open() stream; err (a write that failed) keeps the file
 * that was there. Returns err, or 0, or -errno when something written to
 * it was lost. */
static int out_close(struct sm_outfile *of, FILE *f, int err)
{
	return sm_outfile_fclose(of, f, err);
}

const char *sm_out_stdout_name(void)
{
	return stdout_name ? stdout_name : "standard output";
}

int sm_out_redirect(const struct sm_out_opts *o, const struct sm_job *job)
{
	int rc;

	if (!o->output || !strcmp(o->output, "-") || !sm_job_reports(job))
		return 0;   /* an MPI job's report is rank 0's (docs/mpi.md) */
	/* the report is written under a temporary name, renamed over the
	 * file when stdout is closed (sm_out_finish()); a bad path leaves
	 * stdout as it was */
	rc = sm_outfile_open(&stdout_file, o->output);
	if (rc)
		return rc;
	fflush(stdout);
	if (dup2(stdout_file.fd, STDOUT_FILENO) < 0) {
		rc = -errno;
		sm_outfile_close(&stdout_file, rc);
		return rc;
	}
	close(stdout_file.fd);
	stdout_file.fd = -1;
	stdout_name = o->output;
	return 0;
}

int sm_out_finish(const char *prog, int code)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout))
		err = stdout_err ? stdout_err : errno ? -errno : -EIO;
	/* the file under its temporary name reaches the disk before the rename */
	if (!err && stdout_name && stdout_file.tmp[0] && fsync(STDOUT_FILENO))
		err = -errno;
	/* close too: a file system may report a lost write only at close */
	errno = 0;
	if (fclose(stdout) == EOF && !err)
		err = errno ? -errno : -EIO;
	if (err && stdout_err)
		err = stdout_err;   /* the first error, not a later EIO of the same stream */
	if (stdout_name)
		err = sm_outfile_close(&stdout_file, err);
	if (!err)
		return code;
	sm_prog_error(prog, "cannot write the report to %s: %s", sm_out_stdout_name(), strerror(-err));
	return code == SM_EXIT_OK ? SM_EXIT_FAIL : code;
}

/* A saved job's host and rank table, as rank 0 printed it after the
 * report (nothing for a document without "mpi"). Returns 0 or -errno (e
 * says why). */
static int saved_table(FILE *f, const cJSON *doc, struct sm_jerr *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "mpi");
	struct sm_dist_result d;
	int rc;

	memset(&d, 0, sizeof(d));
	if (!o)
		return 0;
	rc = sm_dist_from_json(o, &d, e);
	if (!rc && sm_dist_analyse(&d))
		rc = -ENOMEM;
	if (!rc)
		sm_dist_text(f, &d);
	sm_dist_result_release(&d);
	return rc;
}

/* What goes to stderr beside a layout: the warnings, a cliff, the row's
 * own notice. */
static void notices(const struct sm_emit *e, const struct sm_layout_row *row, const void *res)
{
	const struct sm_result_head *h = e->r->head ? e->r->head(res) : NULL;
	const struct sm_cliff *c = e->r->cliff ? e->r->cliff(res) : NULL;
	const struct sm_stalls *st = e->r->stalls ? e->r->stalls(res) : NULL;

	for (unsigned i = 0; h && (row->flags & SM_ROW_WARN) && i < h->warnings.count; i++)
		fprintf(stderr, "%s: warning: %s\n", e->prog, h->warnings.item[i].message);
	if ((row->flags & SM_ROW_CLIFF) && c && c->found) {
		char words[256];

		/* stormark's notice under every name: a peer's layout stays the peer's */
		fprintf(stderr, "stormark: cliff: %s\n", sm_report_cliff_words(words, sizeof(words), c));
	}
	if ((row->flags & SM_ROW_CLIFF) && st && st->measured && st->count) {
		char words[256];

		fprintf(stderr, "stormark: stall: %s\n", sm_report_stall_words(words, sizeof(words), st));
	}
	if (row->note)
		row->note(stderr, res);
}

/* One text layout of res to f: for a saved document first what the live
 * run printed before and while it ran, then the report, then the job's
 * table (live: the job's own; saved: the document's). Returns 0 or
 * -errno (e says why). */
static int render_row(const struct sm_emit *e, const struct sm_layout_row *row, FILE *f, const void *res,
		      const cJSON *saved, struct sm_jerr *je)
{
	int rc = 0;

	if (saved && row->replay)
		rc = row->replay(f, res, saved, je);
	if (!rc)
		rc = row->render(f, res, saved, je);
	if (!rc && (row->flags & SM_ROW_TABLE)) {
		if (!saved)
			sm_job_text(e->job, f, res);
		else if (e->r->saved_table)
			rc = saved_table(f, saved, je);
	}
	return rc;
}

/* The HTML report of live, a result of a table with no reader (compare),
 * to path, rendered from the result itself. Returns 0, or -errno with one
 * line in msg. */
static int html_file_live(const struct sm_render *r, const void *live, const char *path, char *msg,
			  size_t len)
{
	const struct sm_layout_row *row = sm_render_row(r, SM_LAYOUT_HTML);
	struct sm_jerr e = { { 0 } };
	struct sm_outfile of;
	FILE *f;
	int rc, crc;

	f = out_open(&of, path, &rc);
	if (!f) {
		snprintf(msg, len, "cannot write --html '%s': %s", path, strerror(-rc));
		return rc;
	}
	rc = row->render(f, live, NULL, &e);
	if (rc)
		snprintf(msg, len, "cannot render the HTML report: %s", e.msg[0] ? e.msg : strerror(-rc));
	if ((crc = out_close(&of, f, rc)) && !rc) {
		rc = crc;
		snprintf(msg, len, "cannot write --html '%s': %s", path, strerror(-rc));
	}
	return rc;
}

/*
 * The HTML report of doc, a whole document, to path, through the reader
 * and the row `report --format html` uses: a live document is read back
 * as `report` reads a file (its numbers are raw), so the two give the same
 * bytes; a saved one (saved 1: read from a file already) is used as it
 * is, so `report` holds one tree, as its memory check counts. Returns 0,
 * or -errno with one line in msg.
 */
static int html_file(const struct sm_render *r, const cJSON *live, int saved, const char *path,
		     char *msg, size_t len)
{
	const struct sm_layout_row *row = sm_render_row(r, SM_LAYOUT_HTML);
	struct sm_jerr e = { { 0 } };
	char *text = saved ? NULL : cJSON_PrintUnformatted(live);
	cJSON *doc = NULL;
	void *res = calloc(1, r->size);
	struct sm_outfile of;
	FILE *f;
	int rc = -ENOMEM, crc;

	if (!res || (!saved && (!text || (rc = sm_json_parse_text(text, "the result", &doc, &e)))) ||
	    (rc = r->read(saved ? live : doc, res, &e))) {
		snprintf(msg, len, "cannot render the HTML report: %s", e.msg[0] ? e.msg : strerror(-rc));
		goto out;
	}
	f = out_open(&of, path, &rc);
	if (!f) {
		snprintf(msg, len, "cannot write --html '%s': %s", path, strerror(-rc));
		goto out;
	}
	rc = row->render(f, res, saved ? live : doc, &e);
	if (rc)
		snprintf(msg, len, "cannot render the HTML report: %s", e.msg[0] ? e.msg : strerror(-rc));
	/* a report that could not be rendered whole does not replace the file */
	if ((crc = out_close(&of, f, rc)) && !rc) {
		rc = crc;
		snprintf(msg, len, "cannot write --html '%s': %s", path, strerror(-rc));
	}
out:
	if (res)
		r->release(res);
	free(res);
	cJSON_Delete(doc);
	free(text);
	return rc;
}

int sm_emit_wants_doc(const struct sm_emit *e)
{
	const struct sm_layout_row *row = e->r ? sm_render_row(e->r, e->out->layout) : NULL;

	return e->out->layout == SM_LAYOUT_JSON || e->out->json_file || e->db ||
	       (e->out->html && e->r->read) || (row && (row->flags & SM_ROW_DOC));
}

/* A layout of the document alone (SM_ROW_DOC) of a live result: doc read
 * back as `report` reads a file (its numbers are raw text until then), so
 * the two print the same bytes. Returns 0 or -errno (je says why). */
static int render_doc(const struct sm_emit *e, const struct sm_layout_row *row, const void *res,
		      const cJSON *live, struct sm_jerr *je)
{
	char *text = live ? cJSON_PrintUnformatted(live) : NULL;
	cJSON *doc = NULL;
	int rc = text ? sm_json_parse_text(text, "the result", &doc, je) : -ENOMEM;

	if (!rc) {
		errno = 0;
		rc = render_row(e, row, stdout, res, doc, je);
		sm_out_check_stdout();   /* before the frees below touch errno */
	}
	cJSON_Delete(doc);
	free(text);
	return rc;
}

/* sm_hdb_wait_always()'s notice: the result is kept while the history is
 * locked */
static void wait_notice(void *arg)
{
	const struct sm_emit *e = arg;

	sm_prog_error(e->prog, "note: the history database '%s' is locked by another process; waiting "
		       "for it to store this result", e->db_path);
}

/* --save: the document in the history, waiting for a lock as long as it
 * takes (the measurement is never lost to a busy history). Returns 0, or
 * SM_EXIT_FAIL after one line. */
static int save_doc(const struct sm_emit *e, const void *res, const cJSON *doc)
{
	char err[256], *text = cJSON_PrintUnformatted(doc);   /* as the history keeps it */
	int rc = -ENOMEM;

	sm_hdb_wait_always(e->db, wait_notice, (void *)e);
	if (text)
		rc = e->store ? e->store(e->db, e->save->key, res, text, err, sizeof(err))
				: sm_hdb_save_result(e->db, e->save->key, e->r->command, text, err, sizeof(err));
	free(text);
	if (!rc)
		return 0;
	sm_error("cannot save to history database '%s': %s", e->db_path, rc == -ENOMEM ? "out of memory" : err);
	return SM_EXIT_FAIL;
}

/* The result's files: --json=FILE, the history, --html FILE (from the
 * document, or from res itself for a table with no reader). Returns 0, or
 * SM_EXIT_FAIL when one could not be written (said on stderr). */
static int files(const struct sm_emit *e, const void *res, const cJSON *doc)
{
	char msg[SM_MSG_MAX];
	int failed = 0, rc;

	if (!doc && sm_emit_wants_doc(e))
		failed = 1;   /* out of memory, said */
	if (doc && e->out->json_file && (rc = sm_json_write(doc, e->out->json_file))) {
		sm_prog_error(e->prog, "cannot write JSON to '%s': %s", e->out->json_file, strerror(-rc));
		failed = 1;
	}
	if (doc && e->db && save_doc(e, res, doc))
		failed = 1;
	if (e->out->html && (e->r->read ? doc && html_file(e->r, doc, 0, e->out->html, msg, sizeof(msg))
			     : html_file_live(e->r, res, e->out->html, msg, sizeof(msg)))) {
		sm_prog_error(e->prog, "%s", msg);
		failed = 1;
	}
	return failed ? SM_EXIT_FAIL : 0;
}

/* The busy wait on a locked history, in ms. */
#define BUSY_MS 3000u

int sm_emit_open(struct sm_emit *e)
{
	const struct sm_save_opts *s = e->save;
	const char *prog = e->prog, *command = e->r->command;
	struct sm_hdb **db = &e->db;
	char *path = e->db_path;
	size_t len = sizeof(e->db_path);
	char err[256], have[32];
	int rc;

	*db = NULL;
	if (!s || !s->key)
		return 0;
	if (s->db)
		snprintf(path, len, "%s", s->db);
	else if (sm_hdb_default_path(path, len)) {
		sm_prog_error(prog, "cannot find a place for the history: set XDG_DATA_HOME or HOME, "
			      "or use --db");
		return SM_EXIT_FAIL;
	}
	rc = sm_hdb_open(path, 1, BUSY_MS, db, err, sizeof(err));
	if (!rc)
		rc = sm_hdb_key_command(*db, s->key, have, sizeof(have), err, sizeof(err));
	if (rc) {
		sm_prog_error(prog, "cannot use history database '%s': %s", path, err);
		if (rc == -ENOTSUP)   /* a build without SQLite: --save cannot apply */
			return SM_EXIT_USAGE;
		goto fail;
	}
	if (have[0] && strcmp(have, command)) {
		sm_prog_error(prog, "--save %s: the key holds %s runs in '%s', not %s ones; choose "
			      "another key", s->key, have, path, command);
		sm_hdb_close(*db);
		*db = NULL;
		return SM_EXIT_USAGE;
	}
	return 0;
fail:
	sm_hdb_close(*db);
	*db = NULL;
	return SM_EXIT_FAIL;
}

int sm_emit_redirect(struct sm_emit *e)
{
	int rc = sm_out_redirect(e->out, e->job);

	e->redirected = 1;
	if (!rc)
		return 0;
	sm_prog_error(e->prog, "cannot create '%s': %s", e->out->output, strerror(-rc));
	return SM_EXIT_FAIL;
}

void sm_emit_close(struct sm_emit *e)
{
	sm_hdb_close(e->db);
	e->db = NULL;
}

/* The report on stdout: the JSON document, or a text layout (not when the
 * command printed it as it ran), then the layout's notices on stderr.
 * Returns 0, or SM_EXIT_FAIL after one line. */
static int report(const struct sm_emit *e, const struct sm_layout_row *row, const void *res, const cJSON *doc)
{
	struct sm_jerr je = { { 0 } };
	int rc;

	if (row->layout == SM_LAYOUT_JSON) {
		rc = doc ? sm_json_write(doc, "-") : -ENOMEM;
		if (rc && doc)   /* no memory was said already; a write error is sm_out_finish()'s */
			sm_out_stdout_failed(rc);
		notices(e, row, res);
		return rc ? SM_EXIT_FAIL : 0;
	}
	if (e->quiet)
		return 0;
	if (!e->printed && (row->flags & SM_ROW_DOC)) {
		errno = 0;
		rc = render_doc(e, row, res, doc, &je);
		sm_out_check_stdout();
		if (rc) {
			sm_prog_error(e->prog, "cannot render the %s report: %s", sm_layout_name(row->layout),
				      je.msg[0] ? je.msg : strerror(-rc));
			return SM_EXIT_FAIL;
		}
	} else if (!e->printed) {
		errno = 0;
		(void)render_row(e, row, stdout, res, NULL, &je);   /* a live result reads no document */
		sm_out_check_stdout();
	}
	notices(e, row, res);
	return 0;
}

int sm_emit(struct sm_emit *e, void *res, int rc)
{
	const struct sm_layout_row *row = sm_render_row(e->r, e->out->layout);
	cJSON *doc = NULL;
	int code = e->kind ? sm_job_merge(e->job, e->kind, res, &rc) : -1, failed = 0;

	if (code >= 0)
		return code;   /* a rank that does not report */
	if (!e->redirected && sm_emit_redirect(e))
		failed = 1;
	code = e->before ? e->before(e, res, rc) : 0;
	if (sm_emit_wants_doc(e)) {
		doc = e->r->json(res);
		if (doc) {
			sm_job_json(e->job, doc, res);   /* an MPI job's hosts and ranks */
			if (e->r->json_tail)
				e->r->json_tail(doc, res);
		} else {
			sm_prog_error(e->prog, "out of memory");
		}
	}
	if (!code && !failed && row && report(e, row, res, doc))
		failed = 1;
	if (files(e, res, doc))
		failed = 1;
	cJSON_Delete(doc);
	if (code)
		return code;
	code = e->end ? e->end(e, res, rc) : 0;
	return code ? code : failed ? SM_EXIT_FAIL : SM_EXIT_OK;
}

int sm_emit_saved_text(const struct sm_render *r, enum sm_layout l, const cJSON *doc, FILE *f,
		       struct sm_jerr *je)
{
	const struct sm_layout_row *row = sm_render_row(r, l);
	const struct sm_emit e = { .r = r };   /* a saved document needs no job */
	cJSON *esc = NULL;
	void *res;
	int rc;

	if (!row || !row->render || l == SM_LAYOUT_JSON || l == SM_LAYOUT_HTML)
		return -EINVAL;
	if (sm_json_escaped_copy(doc, &esc))
		return -ENOMEM;
	if (esc)
		doc = esc;   /* its strings printed escaped */
	res = calloc(1, r->size);
	rc = res ? r->read(doc, res, je) : -ENOMEM;
	if (!rc)
		rc = render_row(&e, row, f, res, doc, je);
	if (res)
		r->release(res);
	free(res);
	cJSON_Delete(esc);
	return rc;
}

int sm_emit_saved(struct sm_emit *e, const cJSON *doc)
{
	const struct sm_layout_row *row = sm_render_row(e->r, e->out->layout);
	struct sm_jerr je = { { 0 } };
	char msg[SM_MSG_MAX];
	cJSON *esc = NULL;
	void *res;
	int rc;

	if (e->out->html && html_file(e->r, doc, 1, e->out->html, msg, sizeof(msg))) {
		sm_prog_error(e->prog, "%s", msg);
		return SM_EXIT_FAIL;
	}
	/* a text layout prints the document's strings with their control
	 * characters escaped; the JSON layout gives them back as saved */
	if (row->layout != SM_LAYOUT_JSON && sm_json_escaped_copy(doc, &esc)) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	if (esc)
		doc = esc;
	res = calloc(1, e->r->size);
	rc = res ? e->r->read(doc, res, &je) : -ENOMEM;
	if (rc) {
		/* nothing */
	} else if (row->layout == SM_LAYOUT_JSON) {
		/* the document of res, with the saved "mpi" object (rank 0's record
		 * of the other ranks, kept as saved: not derived from res) where the
		 * live job put it */
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(doc, "mpi");
		cJSON *d = e->r->json(res), *c = NULL;

		if (d && m && (c = sm_json_dup_saved(m)))
			cJSON_AddItemToObject(d, "mpi", c);
		if (d && (!m || c) && e->r->json_tail)
			e->r->json_tail(d, res);
		rc = d && (!m || c) ? sm_json_write(d, "-") : -ENOMEM;
		cJSON_Delete(d);
	} else {
		errno = 0;
		rc = render_row(e, row, stdout, res, doc, &je);
		sm_out_check_stdout();
	}
	if (!rc && row->layout != SM_LAYOUT_JSON)   /* a saved document gives back itself alone */
		notices(e, row, res);
	if (res)
		e->r->release(res);
	free(res);
	cJSON_Delete(esc);
	if (rc && je.msg[0]) {
		sm_prog_error(e->prog, "'%s' is not a complete %s result: %s", e->name, e->r->command, je.msg);
		return SM_EXIT_USAGE;
	}
	if (rc == -ENOMEM) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		/* said once, by sm_out_finish(), with the error that stopped it */
		sm_out_stdout_failed(rc ? rc : errno ? -errno : -EIO);
		return SM_EXIT_FAIL;
	}
	if (rc) {
		sm_error("cannot write the report: %s", strerror(-rc));
		return SM_EXIT_FAIL;
	}
	return 0;
}
