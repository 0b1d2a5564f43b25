/* SPDX-License-Identifier: MIT */
/* stormark report FILE.json: render a saved result again, in any layout
 * its command has, with no I/O but reading the file, through the emit step
 * and the command's render table (report/render.c) a live run uses. */
#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "check/check.h"
#include "args/out_opts.h"
#include "mpi/job.h"
#include "result/json_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "stormark report"
#define HINT "stormark help report"

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f, "usage: stormark report FILE.json [options]\n"
		   "       stormark report --check FILE.json...\n\n"
		   "Print a result saved with --json again, exactly as the run printed it,\n"
		   "or in another layout of the same command ('-' reads stdin). No I/O is\n"
		   "done. Layouts: time: text (default), timeit, csv, markdown, json;\n"
		   "run: text (default), csv, markdown, json; fileio: sysbench (default),\n"
		   "text (stormark's own), csv, markdown, json; frames: frametest\n"
		   "(default), csv, markdown, json; streams and meta: text (default),\n"
		   "csv, markdown, json; and html for every one (a self-contained page\n"
		   "with charts, docs/report.md), openmetrics (OpenMetrics 1.0) and\n"
		   "prometheus (Prometheus' text format 0.0.4, for node_exporter's\n"
		   "textfile collector and Pushgateway; docs/openmetrics.md).\n"
		   "--check renders nothing:\n"
		   "it checks each file's invariants and its layouts against it, one line\n"
		   "per violation.\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nExit status: 0 done, 1 the report could not be written (--check: a\n"
		   "violation found), 2 a usage error or a file that is not a result this\n"
		   "stormark can read (not JSON, cut short, incomplete, or from a newer\n"
		   "stormark). See docs/report.md.\n");
}

int cmd_report_render_all(const cJSON *doc)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "command");
	struct sm_out_opts out;
	struct sm_job job;
	struct sm_emit e = { .prog = PROG, .out = &out, .job = &job, .name = "-" };
	int first = 0;

	memset(&out, 0, sizeof(out));
	sm_job_alone(&job);
	e.r = sm_render_find(cJSON_IsString(c) ? c->valuestring : NULL);
	for (const struct sm_layout_row *row = e.r ? e.r->rows : NULL; row && row->layout; row++) {
		int rc;

		out.layout = row->layout;
		rc = sm_emit_saved(&e, doc);
		if (rc && !first)
			first = rc;
	}
	return first;
}

/* Parse and check argv into out, *check and *first, the index of the
 * first FILE (--help: print the usage). Returns -1 to go on, or the exit
 * code to return. */
static int parse(int argc, char **argv, struct sm_out_opts *out, int *check, int *first,
		 const char **detail)
{
	int help = 0, rc;
	struct sm_opt opts[] = {
		SM_OUT_OPTS(*out, 'o', 0, "report layout: the command's own (default), or "
			    "another of its layouts"),
		SM_OPT_FLAG_SET(0, "check", *check, 1, "check each FILE's invariants and its "
				"layouts against it: one line per violation, exit 1 when any "
				"(docs/report.md)"),
		SM_OPT_STR(0, "mpi-rank-detail", *detail, "FILE", "with --check and an MPI job's "
			   "JSON: its --mpi-rank-detail file, read a line at a time, has a line per rank "
			   "and its results' bytes are the job's (docs/mpi.md)"),
		SM_OPT_HELP('h', "help", help, "this help"),
		SM_OPT_LIST_OPTIONS(help),
		SM_OPT_END,
	};

	memset(out, 0, sizeof(*out));
	*check = 0;
	*detail = NULL;
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, first, usage);
	if (rc >= 0)
		return rc;
	if (*first >= argc)
		return sm_usage_error(PROG, HINT, "which result? give a FILE.json");
	if (*check && (out->json || out->format || out->output || out->html))
		return sm_usage_error(PROG, HINT, "--check prints what it finds; it takes no %s",
				      out->json ? "--json" : out->format ? "--format" :
				      out->output ? "-o/--output" : "--html");
	if (*detail && (!*check || argc - *first != 1))
		return sm_usage_error(PROG, HINT, "--mpi-rank-detail goes with --check and one job's "
				      "FILE.json");
	if (*detail && (!**detail || sm_path_problem(*detail)))
		return sm_usage_error(PROG, HINT, "--mpi-rank-detail='%s' %s", *detail,
				      **detail ? sm_path_problem(*detail) : "gives no file");
	if (!*check && argc - *first > 1)
		return sm_usage_error(PROG, HINT, "one file at most, not also '%s'", argv[*first + 1]);
	for (int i = *first; i < argc; i++)
		if (strcmp(argv[i], "-") && sm_path_problem(argv[i]))
			return sm_usage_error(PROG, HINT, "'%s' %s", argv[i], sm_path_problem(argv[i]));
	/* a device, socket or directory is refused by the reader (sm_json_load) */
	return -1;
}

int cmd_report_parse_only(int argc, char **argv)
{
	struct sm_out_opts out;
	int check, first;
	const char *detail;
	int rc = parse(argc, argv, &out, &check, &first, &detail);

	return rc >= 0 ? rc : 0;
}

int cmd_report_check(const cJSON *doc, struct sm_check *c, char *msg, size_t len)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(doc, "command");
	const struct sm_render *r = sm_render_find(cJSON_IsString(cmd) ? cmd->valuestring : NULL);
	int rc = 0;

	msg[0] = '\0';
	if (!r) {
		snprintf(msg, len, "it holds a '%s' result, which cannot be rendered",
			 cJSON_IsString(cmd) ? cmd->valuestring : "?");
		return -EINVAL;
	}
	sm_check_doc(doc, c);
	/* every text layout of the command, as `report --format` prints it */
	for (const struct sm_layout_row *row = r->rows; row->layout && !rc; row++) {
		struct sm_jerr e = { { 0 } };
		char *text = NULL;
		size_t size = 0;
		FILE *f;

		if (row->layout == SM_LAYOUT_JSON || row->layout == SM_LAYOUT_HTML)
			continue;
		f = open_memstream(&text, &size);
		if (!f)
			return -ENOMEM;
		rc = sm_emit_saved_text(r, row->layout, doc, f, &e);
		if ((ferror(f) | fclose(f)) && !rc)
			rc = -ENOMEM;
		if (rc)
			snprintf(msg, len, "it is not a complete %s result: %s", r->command,
				 e.msg[0] ? e.msg : strerror(-rc));
		else
			sm_check_layout(doc, sm_layout_name(row->layout), text, c);
		free(text);
	}
	return rc;
}

/* The job's document doc against its --mpi-rank-detail file name, read a
 * line at a time (one line held, whatever the job's size). Returns 0, or
 * -errno (the file cannot be read, or doc is no MPI job's: -EINVAL). */
static int check_detail(const cJSON *doc, const char *name, struct sm_check *c)
{
	struct sm_check_detail a;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err;

	if (sm_check_detail_start(&a, doc))
		return -EINVAL;
	f = fopen(name, "r");
	if (!f) {
		err = -errno;
		free(a.seen);
		return err;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		cJSON *x = cJSON_ParseWithLength(line, (size_t)n);

		if (!x) {
			sm_check_fail(c, "mpi.detail", "line %u of the detail file is not JSON", a.lines + 1);
			a.lines++;
			continue;
		}
		sm_check_detail_line(&a, x, c);
		cJSON_Delete(x);
	}
	err = ferror(f) ? -EIO : 0;
	free(line);
	fclose(f);
	if (err) {
		free(a.seen);
		return err;
	}
	sm_check_detail_end(&a, doc, c);
	return 0;
}

/* report --check FILE...: each file's violations on stdout, one a line.
 * Returns the exit code: 2 when a file could not be read as a result
 * (one line on stderr, the others still checked), else 1 when any
 * violation was found, else 0. */
static int check_detail(const cJSON *doc, const char *name, struct sm_check *c);

static int check_files(int n, char **files, const char *detail)
{
	struct sm_check *c = malloc(sizeof(*c));
	int code = SM_EXIT_OK;

	if (!c) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		struct sm_jerr e = { { 0 } };
		char msg[SM_MSG_MAX];
		cJSON *doc = NULL;
		int rc;

		memset(c, 0, sizeof(*c));
		if (sm_json_load(files[i], 0, &doc, &e)) {
			sm_prog_error(PROG, "%s", e.msg);
			code = SM_EXIT_USAGE;
			continue;
		}
		rc = cmd_report_check(doc, c, msg, sizeof(msg));
		if (!rc && detail && (rc = check_detail(doc, detail, c)))
			snprintf(msg, sizeof(msg), "--mpi-rank-detail=%s: %s", detail,
				 rc == -EINVAL ? "goes with an MPI job's JSON (no mpi.ranks_total)" : strerror(-rc));
		cJSON_Delete(doc);
		if (rc) {
			sm_prog_error(PROG, "'%s': %s", files[i], msg[0] ? msg : strerror(-rc));
			code = rc == -ENOMEM ? SM_EXIT_FAIL : SM_EXIT_USAGE;
			continue;
		}
		for (unsigned j = 0; j < c->n; j++)
			printf("%s: %s: %s\n", files[i], c->item[j].id, c->item[j].msg);
		if (c->dropped)
			printf("%s: and %u more violations\n", files[i], c->dropped);
		if (c->n && code == SM_EXIT_OK)
			code = SM_EXIT_FAIL;
	}
	free(c);
	if (fflush(stdout) || ferror(stdout)) {
		sm_error("cannot write the report: %s", strerror(EIO));
		code = code == SM_EXIT_USAGE ? code : SM_EXIT_FAIL;
	}
	return code;
}

int cmd_report(int argc, char **argv, struct sm_job *job)
{
	struct sm_out_opts out;
	struct sm_emit e = { .prog = PROG, .out = &out, .job = job };
	struct sm_jerr je = { { 0 } };
	char msg[SM_MSG_MAX], what[64];
	const char *cmdname;
	struct sm_out_file input;
	cJSON *doc = NULL;
	const char *detail;
	int rc, code, check, first;

	rc = parse(argc, argv, &out, &check, &first, &detail);
	if (rc >= 0)
		return rc;
	if (check)
		return check_files(argc - first, argv + first, detail);
	e.name = argv[first];
	/* --format json builds the document again: its memory is checked too */
	if (sm_json_load(e.name, (out.format && sm_layout_find(out.format) == SM_LAYOUT_JSON) ||
			 (out.json && (!*out.json || !strcmp(out.json, "-"))), &doc, &je)) {
		sm_prog_error(PROG, "%s", je.msg);
		return SM_EXIT_USAGE;
	}
	cmdname = cJSON_GetObjectItemCaseSensitive(doc, "command")->valuestring;
	e.r = sm_render_find(cmdname);
	if (!e.r) {
		sm_prog_error(PROG, "'%s' holds a '%s' result, which cannot be rendered again yet", e.name,
			      cmdname);
		code = SM_EXIT_USAGE;
		goto out;
	}
	snprintf(what, sizeof(what), "a %s result", cmdname);
	input = (struct sm_out_file){ "the input", e.name, 0, !strcmp(e.name, "-") };
	if (sm_out_resolve(&out, what, sm_render_layouts(e.r, 1), e.r->dflt, msg, sizeof(msg)) ||
	    sm_out_apart(&out, &input, 1, NULL, msg, sizeof(msg))) {
		code = sm_usage_error(PROG, HINT, "%s", msg);
		goto out;
	}
	if (out.json_file) {
		code = sm_usage_error(PROG, HINT, "--json=FILE: the file is already JSON (use "
				      "--format json -o FILE)");
		goto out;
	}
	code = sm_emit_redirect(&e);
	if (!code)
		code = sm_emit_saved(&e, doc);
out:
	cJSON_Delete(doc);
	return code;
}
