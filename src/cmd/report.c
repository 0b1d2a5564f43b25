/* SPDX-License-Identifier: MIT */
/* stormark report FILE.json: render a saved result again, in any layout
 * its command has, with no I/O but reading the file. The readers are in
 * result/json_read*.c, the layouts in report/. */
#include "cmd/cmd.h"
#include "result/json.h"
#include "result/json_read.h"
#include "report/run_text.h"
#include "report/timeit.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "stormark report"
#define HINT "stormark help report"

static const char usage_text[] =
	"usage: stormark report FILE.json [--format LAYOUT] [-o FILE]\n"
	"\n"
	"Render a result saved with --json again, exactly as the run printed it,\n"
	"or in another layout of the same command ('-' reads stdin). No I/O is done.\n"
	"\n"
	"Options:\n"
	"  --format LAYOUT  the layout (default: the command's own text):\n"
	"                     time: text, timeit, csv, json\n"
	"                     run:  text, json\n"
	"  -o, --output FILE  write to FILE instead of stdout\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit status: 0 done, 1 the output could not be written, 2 usage error or a\n"
	"file that is not a result this stormark can read (bad, truncated, newer).\n";

/* One command's layouts; render returns 0 or -errno (of writing). */
struct kind {
	const char *command;
	const char *layouts;       /* "text timeit csv json": the first is the default */
	int (*render)(const cJSON *doc, const char *layout, FILE *out, struct sm_jerr *e);
};

static int write_doc(cJSON *doc, FILE *out)
{
	char *text = doc ? cJSON_Print(doc) : NULL;
	int rc = 0;

	if (!text)
		return -ENOMEM;
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF)
		rc = -EIO;
	free(text);
	return rc;
}

static int render_time(const cJSON *doc, const char *layout, FILE *out, struct sm_jerr *e)
{
	struct sm_time_result r;
	int rc = sm_time_from_json(doc, &r, e);

	if (rc)
		goto out;
	if (!strcmp(layout, "json")) {
		cJSON *d = sm_time_json(&r);

		rc = write_doc(d, out);
		cJSON_Delete(d);
	} else if (!strcmp(layout, "timeit")) {
		sm_time_print_timeit(out, &r);
	} else if (!strcmp(layout, "csv")) {
		sm_time_print_csv(out, &r);
	} else {
		sm_time_print_text(out, &r);
	}
	rc = rc ? rc : 1;   /* 1: rendered */
out:
	sm_time_result_release(&r);
	return rc;
}

static int render_run(const cJSON *doc, const char *layout, FILE *out, struct sm_jerr *e)
{
	struct sm_run_result *res = calloc(1, sizeof(*res));
	int rc = res ? sm_run_from_json(doc, res, e) : -ENOMEM;

	if (rc)
		goto out;
	if (!strcmp(layout, "json")) {
		cJSON *d = sm_json_doc_new(&res->head);

		if (d)
			sm_json_run(d, res);
		rc = write_doc(d, out);
		cJSON_Delete(d);
	} else {
		sm_run_text(out, res, 0);
	}
	rc = rc ? rc : 1;
out:
	if (res)
		sm_run_from_json_release(res);
	free(res);
	return rc;
}

static const struct kind kinds[] = {
	{ "time", "text timeit csv json", render_time },
	{ "run", "text json", render_run },
};

/* 1 when word is one of the blank-separated words of list. */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p; ) {
		size_t len = strcspn(p, " ");

		if (len == n && !strncmp(p, word, n))
			return 1;
		p += len;
		p += *p == ' ';
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *layout = NULL, *output = NULL, *path;
	const struct kind *k = NULL;
	struct sm_jerr e = { { 0 } };
	char cmdname[16], deflt[16];
	cJSON *doc = NULL;
	FILE *out = stdout;
	int c, rc, code = SM_EXIT_OK;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			layout = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return SM_EXIT_OK;
		case ':':
			return sm_usage_error(PROG, HINT, "'%s' needs a value", argv[optind - 1]);
		default:
			return sm_usage_error(PROG, HINT, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return sm_usage_error(PROG, HINT, "which result? give a FILE.json");
	if (argc - optind > 1)
		return sm_usage_error(PROG, HINT, "one file at most, not also '%s'", argv[optind + 1]);
	path = argv[optind];
	rc = sm_json_load(path, &doc, &e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", PROG, e.msg);
		return SM_EXIT_USAGE;
	}
	snprintf(cmdname, sizeof(cmdname), "%s",
		 cJSON_GetObjectItemCaseSensitive(doc, "command")->valuestring);
	for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].command, cmdname))
			k = &kinds[i];
	if (!k) {
		fprintf(stderr, "%s: '%s' holds a '%s' result, which cannot be rendered again yet\n",
			PROG, path, cmdname);
		code = SM_EXIT_USAGE;
		goto out;
	}
	snprintf(deflt, sizeof(deflt), "%.*s", (int)strcspn(k->layouts, " "), k->layouts);
	if (!layout)
		layout = deflt;
	if (!in_list(k->layouts, layout)) {
		code = sm_usage_error(PROG, HINT, "a %s result has no layout '%s' (%s)", cmdname,
				      layout, k->layouts);
		goto out;
	}
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			sm_error("cannot write '%s': %s", output, strerror(errno));
			code = SM_EXIT_FAIL;
			goto out;
		}
	}
	rc = k->render(doc, layout, out, &e);
	if (rc == -EINVAL || (rc < 0 && e.msg[0])) {
		fprintf(stderr, "%s: '%s' is not a complete %s result: %s\n", PROG, path, cmdname,
			e.msg[0] ? e.msg : "bad value");
		code = SM_EXIT_USAGE;
	} else if (rc < 0) {
		sm_error("cannot write the report: %s", strerror(-rc));
		code = SM_EXIT_FAIL;
	}
	if (out != stdout && fclose(out) && code == SM_EXIT_OK) {
		sm_error("cannot write '%s': %s", output, strerror(errno));
		code = SM_EXIT_FAIL;
	}
out:
	cJSON_Delete(doc);
	return code;
}
