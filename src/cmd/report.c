/* SPDX-License-Identifier: MIT */
/* stormark report FILE.json: render a saved result again, in any layout
 * its command has, with no I/O but reading the file, through the emit step
 * and the command's render table (report/render.c) a live run uses. */
#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "cmd/out_opts.h"
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
	struct sm_emit e = { .prog = PROG, .out = &out, .job = job };
	struct sm_jerr je = { { 0 } };
	char msg[SM_MSG_MAX], what[64];
	const char *cmdname;
	cJSON *doc = NULL;
	int rc, code;

	rc = parse(argc, argv, &out, &e.name);
	if (rc >= 0)
		return rc;
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
	if (sm_out_resolve(&out, what, sm_render_layouts(e.r, 1), e.r->dflt, msg, sizeof(msg))) {
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
