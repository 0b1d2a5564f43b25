/* SPDX-License-Identifier: MIT */
/* The one emit step of every command and of `stormark report`. A command
 * declares its layouts once, in its render table; sm_emit() does the rest
 * once the run is over: the job's merge, the report in its layout, the
 * notices on stderr, the JSON (the report itself, or --json=FILE), --save,
 * --html and the exit code; sm_emit_saved() renders a saved document
 * through the same rows, so `stormark report` prints what the live run
 * printed. Every file the step writes (-o, --json=FILE, --html) is
 * opened here (docs/options.md). */
#ifndef SM_CMD_EMIT_H
#define SM_CMD_EMIT_H

#include <stddef.h>
#include <stdio.h>

#include "args/out_opts.h"
#include "args/save.h"
#include "report/render.h"

struct cJSON;
struct sm_hdb;
struct sm_job;
struct sm_job_kind;


/* One emit: what a command fills before its run. */
struct sm_emit {
	const struct sm_render *r;        /* the command's render table (report/render.h) */
	const struct sm_job_kind *kind;   /* how an MPI job merges the result; NULL: not a job's */
	const char *prog;                 /* the name the messages carry */
	struct sm_out_opts *out;          /* resolved (sm_out_resolve()) */
	const struct sm_save_opts *save;  /* NULL: the command has no --save */
	struct sm_job *job;
	int quiet;                        /* no report in a text layout (fileio's --verbosity) */
	int printed;                      /* the command printed its text layout as it ran (run) */
	/* Live lines after the job's merge, before the report (sysbench's
	 * closing lines). Returns 0, or an exit code: then no report and no
	 * end, the files are still written. NULL: none. */
	int (*before)(struct sm_emit *e, void *res, int rc);
	/* How the run ended (rc its outcome), said on stderr; returns the
	 * exit code it makes. NULL: 0. */
	int (*end)(struct sm_emit *e, void *res, int rc);
	/* --save: store json (res's document) under key; NULL stores it as one
	 * result of r->command (time keeps its runs too). Returns 0, or
	 * negative with err. */
	int (*store)(struct sm_hdb *db, const char *key, const void *res, const char *json, char *err,
		     size_t len);
	void *arg;                        /* the command's, for before and end */
	const char *name;                 /* report: the file the document came from */
	int redirected;                   /* sm_emit_redirect() was called */
	/* filled by sm_emit_open() */
	struct sm_hdb *db;                /* --save: the history, open */
	char db_path[4096];
};

/*
 * Before the work: with --save, open the history (a damaged, locked or
 * unusable one stops the command before anything runs; a key of another
 * command is refused). Returns 0, or the exit code after one line.
 */
int sm_emit_open(struct sm_emit *e);

/* -o FILE: send stdout there (not on a rank that does not report), so a
 * report the command prints while it runs lands in the file too. Returns
 * 0, or SM_EXIT_FAIL after one line. */
int sm_emit_redirect(struct sm_emit *e);

/*
 * After the run (rc its outcome): the job's merge (a rank that does not
 * report returns its exit code there); e->before; the report in
 * e->out->layout on stdout (-o FILE: redirected there first, when
 * sm_emit_redirect() was not called) with the job's table and the
 * layout's notices on stderr; the document to --json=FILE, the history
 * and --html FILE; e->end. Returns the exit code: end's, else
 * SM_EXIT_FAIL when something could not be written (said on stderr), else
 * SM_EXIT_OK.
 */
int sm_emit(struct sm_emit *e, void *res, int rc);

/*
 * `stormark report`: --html FILE, then the result read from doc (e->r->read)
 * in e->out->layout on stdout (the live run's lines before and while it
 * ran too, and a saved job's table) with the layout's notices. Returns 0,
 * SM_EXIT_FAIL (a file that cannot be written, no memory) or
 * SM_EXIT_USAGE (a part of doc that cannot be read: e->name is named),
 * said on stderr.
 */
int sm_emit_saved(struct sm_emit *e, const struct cJSON *doc);

/* The saved document doc in r's text layout l to f, as sm_emit_saved()
 * prints it on stdout (what the live run printed before and while it ran,
 * the report, a saved job's table), without the notices on stderr (the
 * result checker's, `report --check`). Returns 0, or -errno with the
 * reason in je (a part of doc that cannot be read); -EINVAL for a layout
 * r has no text of (json, html). */
int sm_emit_saved_text(const struct sm_render *r, enum sm_layout l, const struct cJSON *doc,
		       FILE *f, struct sm_jerr *je);

/* Close what sm_emit_open() opened. */
void sm_emit_close(struct sm_emit *e);

/* 1 when the emit needs the result's document: JSON is the report or goes
 * to a file, --save, --html. */
int sm_emit_wants_doc(const struct sm_emit *e);

/* Send stdout to o->output (when set and not "-"), so that the report,
 * whatever prints it, lands in the file; not on a rank of job that does
 * not report (an MPI job's report is rank 0's, docs/mpi.md). Returns 0, or
 * -errno when the file cannot be created (stdout is then unchanged). */
int sm_out_redirect(const struct sm_out_opts *o, const struct sm_job *job);

/* A write on stdout failed with err (-errno): sm_out_finish() says so,
 * once, with the first such err. */
void sm_out_stdout_failed(int err);

/* Right after writing a report on stdout: when the stream failed, its
 * error (errno, which the failed write set) kept for sm_out_finish(). */
void sm_out_check_stdout(void);

/* fflush(f), and when f is stdout and the write fails, its error kept for
 * sm_out_finish() (the stream forgets it). Returns fflush()'s value. */
int sm_out_flush(FILE *f);

/* The name of what stdout is: the -o FILE sm_out_redirect() sent it to, or
 * "standard output". */
const char *sm_out_stdout_name(void);

/* Flush and close stdout once a command is done (main() calls it for every
 * command), so a report lost to a write error (a full disk, /dev/full) is
 * not passed off as a success. Returns code, or SM_EXIT_FAIL instead of
 * SM_EXIT_OK after printing one line, "<prog>: cannot write the report
 * ...", when the write failed (prog: "stormark", or "frametest" under that
 * name, as its other messages). */
int sm_out_finish(const char *prog, int code);

#endif
