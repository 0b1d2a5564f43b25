/* SPDX-License-Identifier: MIT */
/* stormark report FILE.json: render a saved result again, in any layout
 * its command has, with no I/O but reading the file. The readers are in
 * result/json_read*.c, the layouts in report/. */
#include "cmd/cmd.h"
#include "cmd/out_opts.h"
#include "analysis/dist.h"
#include "analysis/fileio.h"
#include "analysis/frames.h"
#include "analysis/run.h"
#include "result/json.h"
#include "result/json_read.h"
#include "report/cliff.h"
#include "report/csv.h"
#include "report/dist.h"
#include "report/fileio.h"
#include "report/verify.h"
#include "report/frametest.h"
#include "report/html.h"
#include "report/markdown.h"
#include "report/run_text.h"
#include "report/streams.h"
#include "report/sysbench.h"
#include "report/timeit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "stormark report"
#define HINT "stormark help report"

/* One command's layouts. render returns 0, -EINVAL/-ENOMEM with the
 * reader's reason in e, or -errno of writing the JSON layout. */
struct kind {
	const char *command;
	unsigned layouts;          /* SM_LAYOUT_BIT()s */
	enum sm_layout dflt;       /* what the live command prints by default */
	int (*render)(const cJSON *doc, enum sm_layout l, FILE *f, struct sm_jerr *e);
};

/* The rate chart's mark of a document: the write rate's cliff, when its
 * top-level "cliff" (docs/cliff.md) found one; else none. */
static void doc_mark(const cJSON *doc, struct sm_html_mark *m)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "cliff");
	struct sm_cliff cl;
	struct sm_jerr e = { { 0 } };

	memset(m, 0, sizeof(*m));
	if (cJSON_IsObject(c) && !sm_json_read_cliff(c, &cl, &e))
		sm_html_cliff_mark(m, &cl);
}

/* A many-host job's "mpi" object (docs/mpi.md) into d, its figures
 * derived as the live job did. Returns 1, 0 when doc has none, or -errno
 * (e says why); release d either way (sm_dist_result_release). */
static int doc_dist(const cJSON *doc, struct sm_dist_result *d, struct sm_jerr *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "mpi");
	int rc;

	memset(d, 0, sizeof(*d));
	if (!o)
		return 0;
	rc = sm_dist_from_json(o, d, e);
	if (!rc && sm_dist_analyse(d))
		rc = -ENOMEM;
	return rc ? rc : 1;
}

/* Write d, the document re-rendered from doc, with doc's "mpi" object (a
 * many-host job's hosts, ranks and per-rank figures, kept as saved: it is
 * rank 0's record of the other ranks, not derived from d) at its end, where
 * the live job put it. Returns 0 or -errno. */
static int write_doc(cJSON *d, const cJSON *doc)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(doc, "mpi");
	int rc;

	if (!d)
		return -ENOMEM;
	if (m) {
		cJSON *c = sm_json_dup_saved(m);

		if (!c) {
			cJSON_Delete(d);
			return -ENOMEM;
		}
		cJSON_AddItemToObject(d, "mpi", c);
	}
	rc = sm_json_write(d, "-");
	cJSON_Delete(d);
	return rc;
}

/* After a text report, a job's host and rank table as rank 0 printed it
 * (nothing for a document without "mpi"). Returns 0 or -errno. */
static int text_dist(const cJSON *doc, FILE *f, struct sm_jerr *e)
{
	struct sm_dist_result d;
	int rc = doc_dist(doc, &d, e);

	if (rc > 0)
		sm_dist_text(f, &d);
	sm_dist_result_release(&d);
	return rc < 0 ? rc : 0;
}

static int render_time(const cJSON *doc, enum sm_layout l, FILE *f, struct sm_jerr *e)
{
	struct sm_time_result r;
	int rc = sm_time_from_json(doc, &r, e);

	if (rc)
		goto out;
	if (l == SM_LAYOUT_JSON) {
		cJSON *d = sm_time_json(&r);

		rc = d ? sm_json_write(d, "-") : -ENOMEM;
		cJSON_Delete(d);
	} else if (l == SM_LAYOUT_HTML) {
		sm_html_time(f, &r);
	} else if (l == SM_LAYOUT_TIMEIT) {
		sm_time_print_timeit(f, &r);
	} else if (l == SM_LAYOUT_CSV) {
		sm_time_print_csv(f, &r);
	} else if (l == SM_LAYOUT_MARKDOWN) {
		sm_md_time(f, &r);
	} else {
		sm_time_print_text(f, &r);
	}
out:
	sm_time_result_release(&r);
	return rc;
}

static int render_run(const cJSON *doc, enum sm_layout l, FILE *f, struct sm_jerr *e)
{
	struct sm_run_result *res = calloc(1, sizeof(*res));
	int rc = res ? sm_run_from_json(doc, res, e) : -ENOMEM;

	if (rc)
		goto out;
	/* what the reporters print beyond the measurements, as the live run
	 * derived it */
	sm_run_analyse(res);
	if (l == SM_LAYOUT_JSON) {
		cJSON *d = sm_json_doc_new(&res->head);

		if (d)
			sm_json_run(d, res);
		rc = write_doc(d, doc);
	} else if (l == SM_LAYOUT_HTML) {
		sm_html_run(f, res);
	} else if (l == SM_LAYOUT_CSV) {
		sm_csv_run(f, res);
	} else if (l == SM_LAYOUT_MARKDOWN) {
		sm_md_run(f, res);
	} else {
		sm_run_text(f, res, 0);
	}
out:
	if (res)
		sm_run_from_json_release(res);
	free(res);
	return rc;
}

static int render_fileio(const cJSON *doc, enum sm_layout l, FILE *f, struct sm_jerr *e)
{
	struct sm_fileio_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_fileio_from_json(doc, r, e) : -ENOMEM;

	if (rc)
		goto out;
	sm_fileio_analyse(r);     /* rates and fairness, as the live run derived them */
	if (l == SM_LAYOUT_JSON) {
		rc = write_doc(sm_fileio_json(r), doc);
	} else if (l == SM_LAYOUT_HTML) {
		struct sm_html_mark m;
		struct sm_dist_result d;

		doc_mark(doc, &m);
		rc = doc_dist(doc, &d, e);
		if (rc >= 0)
			sm_html_fileio(f, r, &m, rc ? &d : NULL);
		rc = rc < 0 ? rc : 0;
		sm_dist_result_release(&d);
	} else if (l == SM_LAYOUT_SYSBENCH) {
		sm_sb_render(f, r);
		if (r->cliff.found) {   /* as the live run said it, on stderr */
			char words[256];

			fprintf(stderr, "stormark: cliff: %s\n",
				sm_report_cliff_words(words, sizeof(words), &r->cliff));
		}
	} else if (l == SM_LAYOUT_CSV) {
		sm_csv_fileio(f, r);
	} else if (l == SM_LAYOUT_MARKDOWN) {
		sm_md_fileio(f, r);
	} else {
		sm_fileio_render(f, r);
	}
	/* as the run printed it: --verify always, --validate when it found something */
	if (l != SM_LAYOUT_JSON && l != SM_LAYOUT_HTML && r->verify_run && (r->cfg.verify || r->verify.problems))
		sm_fileio_verify_text(f, r);
	if (l != SM_LAYOUT_JSON && l != SM_LAYOUT_HTML && l != SM_LAYOUT_CSV)
		rc = text_dist(doc, f, e);   /* as the job's rank 0 printed it */
out:
	if (r)
		sm_fileio_from_json_release(r);
	free(r);
	return rc;
}

static int render_frames(const cJSON *doc, enum sm_layout l, FILE *f, struct sm_jerr *e)
{
	struct sm_frames_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_frames_from_json(doc, r, e) : -ENOMEM;

	if (rc)
		goto out;
	sm_frames_analyse(r);     /* rates, as the live run derived them */
	if (l == SM_LAYOUT_JSON) {
		cJSON *d = sm_json_doc_new(&r->head);

		if (d)
			sm_json_frames(d, r);
		if (d && r->plan.verify) {
			struct sm_verify_view vv;

			sm_cmd_frames_verify_view(r, &vv);
			cJSON_AddItemToObject(d, "verify", sm_verify_json(&vv));
		}
		rc = write_doc(d, doc);
	} else if (l == SM_LAYOUT_MARKDOWN) {
		sm_md_frames(f, r);
	} else if (l == SM_LAYOUT_CSV) {
		sm_csv_frames(f, r);
	} else if (l == SM_LAYOUT_HTML) {
		struct sm_html_mark m;
		struct sm_dist_result d;

		doc_mark(doc, &m);
		rc = doc_dist(doc, &d, e);
		if (rc >= 0)
			sm_html_frames(f, r, &m, rc ? &d : NULL);
		rc = rc < 0 ? rc : 0;
		sm_dist_result_release(&d);
	} else {
		sm_report_frametest_all(f, r);
		if (r->cliff.found) {   /* as the live run said it, on stderr */
			char words[256];

			fprintf(stderr, "stormark: cliff: %s\n",
				sm_report_cliff_words(words, sizeof(words), &r->cliff));
		}
		if (r->plan.verify) {
			struct sm_verify_view vv;

			sm_cmd_frames_verify_view(r, &vv);
			sm_verify_text(f, &vv);
		}
		rc = text_dist(doc, f, e);   /* as the job's rank 0 printed it */
	}
out:
	if (r)
		sm_frames_from_json_release(r);
	free(r);
	return rc;
}

static int render_streams(const cJSON *doc, enum sm_layout l, FILE *f, struct sm_jerr *e)
{
	struct sm_streams_result *res = calloc(1, sizeof(*res));
	int rc = res ? sm_streams_from_json(doc, res, e) : -ENOMEM;

	if (rc)
		goto out;
	if (l == SM_LAYOUT_JSON) {
		cJSON *d = sm_json_doc_new(&res->head);

		if (d)
			sm_json_streams(d, res);
		rc = write_doc(d, doc);
	} else if (l == SM_LAYOUT_MARKDOWN) {
		sm_md_streams(f, res);
	} else if (l == SM_LAYOUT_CSV) {
		sm_csv_streams(f, res);
	} else if (l == SM_LAYOUT_HTML) {
		sm_html_streams(f, res);
	} else {
		sm_streams_text(f, res);
	}
out:
	if (res)
		sm_streams_from_json_release(res);
	free(res);
	return rc;
}

static const struct kind kinds[] = {
	{ "time", SM_LAYOUT_BIT(SM_LAYOUT_TEXT) | SM_LAYOUT_BIT(SM_LAYOUT_TIMEIT) |
		  SM_LAYOUT_BIT(SM_LAYOUT_CSV) | SM_LAYOUT_BIT(SM_LAYOUT_MARKDOWN) |
		  SM_LAYOUT_BIT(SM_LAYOUT_JSON) | SM_LAYOUT_BIT(SM_LAYOUT_HTML),
	  SM_LAYOUT_TEXT, render_time },
	{ "run", SM_LAYOUT_BIT(SM_LAYOUT_TEXT) | SM_LAYOUT_BIT(SM_LAYOUT_CSV) |
		 SM_LAYOUT_BIT(SM_LAYOUT_MARKDOWN) | SM_LAYOUT_BIT(SM_LAYOUT_JSON) |
		 SM_LAYOUT_BIT(SM_LAYOUT_HTML),
	  SM_LAYOUT_TEXT, render_run },
	{ "frames", SM_LAYOUT_BIT(SM_LAYOUT_FRAMETEST) | SM_LAYOUT_BIT(SM_LAYOUT_CSV) |
		    SM_LAYOUT_BIT(SM_LAYOUT_MARKDOWN) | SM_LAYOUT_BIT(SM_LAYOUT_JSON) |
		    SM_LAYOUT_BIT(SM_LAYOUT_HTML),
	  SM_LAYOUT_FRAMETEST, render_frames },
	{ "fileio", SM_LAYOUT_BIT(SM_LAYOUT_SYSBENCH) | SM_LAYOUT_BIT(SM_LAYOUT_TEXT) |
		    SM_LAYOUT_BIT(SM_LAYOUT_CSV) | SM_LAYOUT_BIT(SM_LAYOUT_MARKDOWN) |
		    SM_LAYOUT_BIT(SM_LAYOUT_JSON) | SM_LAYOUT_BIT(SM_LAYOUT_HTML),
	  SM_LAYOUT_SYSBENCH, render_fileio },
	{ "streams", SM_LAYOUT_BIT(SM_LAYOUT_TEXT) | SM_LAYOUT_BIT(SM_LAYOUT_CSV) |
		     SM_LAYOUT_BIT(SM_LAYOUT_MARKDOWN) | SM_LAYOUT_BIT(SM_LAYOUT_JSON) |
		     SM_LAYOUT_BIT(SM_LAYOUT_HTML),
	  SM_LAYOUT_TEXT, render_streams },
};

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f, "usage: stormark report FILE.json [options]\n\n"
		   "Print a result saved with --json again, exactly as the run printed it,\n"
		   "or in another layout of the same command ('-' reads stdin). No I/O is\n"
		   "done. Layouts: time: text (default), timeit, csv, markdown, json;\n"
		   "run: text (default), csv, markdown, json; fileio: sysbench (default),\n"
		   "text (stormark's own), csv, markdown, json; frames: frametest\n"
		   "(default), csv, markdown, json; streams: text (default), csv,\n"
		   "markdown, json; and html for every one (a self-contained page\n"
		   "with charts, docs/report.md).\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nExit status: 0 done, 1 the report could not be written, 2 a usage error\n"
		   "or a file that is not a result this stormark can read (not JSON, cut\n"
		   "short, incomplete, or from a newer stormark). See docs/report.md.\n");
}

int cmd_report_render_all(const cJSON *doc)
{
	const char *cmdname = cJSON_GetObjectItemCaseSensitive(doc, "command")->valuestring;
	int first = 0;

	for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(kinds[i].command, cmdname))
			continue;
		for (int l = SM_LAYOUT_FRAMETEST; l <= SM_LAYOUT_HTML; l++) {
			struct sm_jerr e = { { 0 } };
			int rc;

			if (!(kinds[i].layouts & SM_LAYOUT_BIT(l)))
				continue;
			rc = kinds[i].render(doc, (enum sm_layout)l, stdout, &e);
			if (rc && !first)
				first = rc;
		}
	}
	return first;
}

/* The HTML report of doc, a result as read from a file, to path. Returns
 * as sm_cmd_html_write(). */
static int html_write(const cJSON *doc, const char *path, char *msg, size_t len)
{
	struct sm_jerr e = { { 0 } };
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "command");
	FILE *f = NULL;
	int rc = -EINVAL;

	msg[0] = '\0';
	for (unsigned i = 0; cJSON_IsString(c) && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(kinds[i].command, c->valuestring))
			continue;
		f = fopen(path, "w");
		if (!f) {
			rc = -errno;
			snprintf(msg, len, "cannot write --html '%s': %s", path, strerror(-rc));
			return rc;
		}
		rc = kinds[i].render(doc, SM_LAYOUT_HTML, f, &e);
		if (rc)
			snprintf(msg, len, "cannot render the HTML report: %s",
				 e.msg[0] ? e.msg : strerror(-rc));
		if ((ferror(f) | fclose(f)) && !rc) {
			rc = -EIO;
			snprintf(msg, len, "cannot write --html '%s': %s", path, strerror(EIO));
		}
		return rc;
	}
	snprintf(msg, len, "cannot render the HTML report: not a result of a known command");
	return rc;
}

int sm_cmd_html_write(const cJSON *live, const char *path, char *msg, size_t len)
{
	struct sm_jerr e = { { 0 } };
	char *text = cJSON_PrintUnformatted(live);
	cJSON *doc = NULL;
	int rc = -ENOMEM;

	/* The live document holds raw numbers; read it back as `report` reads
	 * a file, so --html and report --format html give the same bytes. */
	if (!text || (rc = sm_json_parse_text(text, "the result", &doc, &e)))
		snprintf(msg, len, "cannot render the HTML report: %s", e.msg[0] ? e.msg : strerror(-rc));
	else
		rc = html_write(doc, path, msg, len);
	cJSON_Delete(doc);
	free(text);
	return rc;
}

/* Parse and check argv into out and *path (--help: print the usage).
 * Returns -1 to go on, or the exit code to return. */
static int parse(int argc, char **argv, struct sm_out_opts *out, const char **path)
{
	int help = 0;
	struct sm_opt opts[] = {
		SM_OUT_OPTS(*out, 'o', 0, "the command's own (default), or "
			    "another of its layouts"),
		SM_OPT_HELP('h', "help", help, "this help"),
		SM_OPT_LIST_OPTIONS(help),
		SM_OPT_END,
	};
	int first, rc;

	memset(out, 0, sizeof(*out));
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, &first, usage);
	if (rc >= 0)
		return rc;
	if (first >= argc)
		return sm_usage_error(PROG, HINT, "which result? give a FILE.json");
	if (argc - first > 1)
		return sm_usage_error(PROG, HINT, "one file at most, not also '%s'", argv[first + 1]);
	*path = argv[first];
	if (strcmp(*path, "-") && sm_path_problem(*path))
		return sm_usage_error(PROG, HINT, "'%s' %s", *path, sm_path_problem(*path));
	/* a device, socket or directory is refused by the reader (sm_json_load) */
	return -1;
}

int cmd_report_parse_only(int argc, char **argv)
{
	struct sm_out_opts out;
	const char *path;
	int rc = parse(argc, argv, &out, &path);

	return rc >= 0 ? rc : 0;
}

int cmd_report(int argc, char **argv, struct sm_job *job)
{
	struct sm_out_opts out;
	const struct kind *k = NULL;
	struct sm_jerr e = { { 0 } };
	char msg[SM_MSG_MAX], prog[64];
	const char *path, *cmdname;
	cJSON *doc = NULL;
	int rc, code = SM_EXIT_OK;

	rc = parse(argc, argv, &out, &path);
	if (rc >= 0)
		return rc;
	/* --format json builds the document again: its memory is checked too */
	if (sm_json_load(path, (out.format && sm_layout_find(out.format) == SM_LAYOUT_JSON) ||
			 (out.json && (!*out.json || !strcmp(out.json, "-"))), &doc, &e)) {
		sm_prog_error(PROG, "%s", e.msg);
		return SM_EXIT_USAGE;
	}
	cmdname = cJSON_GetObjectItemCaseSensitive(doc, "command")->valuestring;
	for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].command, cmdname))
			k = &kinds[i];
	if (!k) {
		sm_prog_error(PROG, "'%s' holds a '%s' result, which cannot be rendered again yet", path,
			      cmdname);
		code = SM_EXIT_USAGE;
		goto out;
	}
	snprintf(prog, sizeof(prog), "a %s result", cmdname);
	if (sm_out_resolve(&out, prog, k->layouts, k->dflt, msg, sizeof(msg))) {
		code = sm_usage_error(PROG, HINT, "%s", msg);
		goto out;
	}
	if (out.json_file) {
		code = sm_usage_error(PROG, HINT, "--json=FILE: the file is already JSON (use "
				      "--format json -o FILE)");
		goto out;
	}
	rc = sm_out_redirect(&out, job);
	if (rc) {
		sm_error("cannot write '%s': %s", out.output, strerror(-rc));
		code = SM_EXIT_FAIL;
		goto out;
	}
	if (out.html && html_write(doc, out.html, msg, sizeof(msg))) {
		sm_prog_error(PROG, "%s", msg);
		code = SM_EXIT_FAIL;
		goto out;
	}
	rc = k->render(doc, out.layout, stdout, &e);
	if (rc && e.msg[0]) {
		sm_prog_error(PROG, "'%s' is not a complete %s result: %s", path, cmdname, e.msg);
		code = SM_EXIT_USAGE;
	} else if (rc == -ENOMEM) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
	}
	if (fflush(stdout) || ferror(stdout) || (rc && !e.msg[0] && rc != -ENOMEM)) {
		sm_error("cannot write the report: %s", strerror(rc ? -rc : EIO));
		code = SM_EXIT_FAIL;
	}
out:
	cJSON_Delete(doc);
	return code;
}
