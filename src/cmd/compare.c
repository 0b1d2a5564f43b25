/* SPDX-License-Identifier: MIT */
/* stormark compare A B: two saved results (JSON files) or history keys
 * compared figure by figure, with the ratio B/A and, for repeated runs,
 * Welch's t-test (analysis/compare.c); rendered by report/compare.c. */
#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "args/out_opts.h"
#include "args/save.h"
#include "analysis/compare.h"
#include "report/compare.h"
#include "result/json_read.h"
#include "store/history_db.h"
#include "core/opt.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "stormark compare"
#define HINT "stormark compare --help"
#define BUSY_MS 3000u

struct compare_opts {
	struct sm_out_opts out;
	const char *db;       /* --db, NULL: the default database */
	double alpha;
	const char *src[2];   /* A and B as given */
	int is_file[2];
};

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f,
		"usage: stormark compare [options] A B\n\n"
		"Compare B with A figure by figure: throughput, frame rate, IOPS, every\n"
		"latency percentile per operation, verdict cells. A and B are each a saved\n"
		"JSON result (--json FILE) or a history key (--save KEY); a key with several\n"
		"runs is repeated runs, and two sides of 2+ runs get Welch's t-test with its\n"
		"p-value. A name that is an existing file, contains a '/' or ends in .json\n"
		"is a file; anything else is a key. Runs of different commands, or whose\n"
		"parameters make the figures mean different things, are refused; a\n"
		"differing environment (kernel, file system, direct vs buffered) is noted.\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nThe output flags mean the same in every command: docs/options.md.\n"
		"See docs/compare.md.\n");
}

static int file_like(const char *s)
{
	struct stat st;
	size_t n = strlen(s);

	return !stat(s, &st) || strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".json"));
}

/* Parse and check argv into o. Returns -1 to go on, or the exit code. */
static int parse(int argc, char **argv, struct compare_opts *o)
{
	int help = 0, first;
	char fhelp[256];   /* --format's help, from the render table */
	struct sm_opt opts[] = {
		SM_OPT_STR(0, "db", o->db, "PATH",
			   "history database of keys (default $XDG_DATA_HOME/stormark/history.db)"),
		SM_OPT_DOUBLE_RANGE(0, "alpha", o->alpha, 0, 0.5, "P",
				    "significance level of the t-test (default 0.05)"),
		SM_OUT_OPTS(o->out, 'o', 0, sm_render_format_help(&sm_render_compare, fhelp, sizeof(fhelp))),
		SM_OPT_HELP('h', "help", help, "this help"),
		SM_OPT_LIST_OPTIONS(help),
		SM_OPT_END,
	};
	struct sm_out_file in[3] = { { 0 } };
	char dflt[4096];
	char msg[SM_MSG_MAX];
	int rc;

	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	for (struct sm_opt *t = opts; t->kind != SM_OPT_GROUP || t->help; t++)
		if (t->dest == &o->alpha)
			t->flags |= SM_OPT_GT_MIN;
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, &first, usage);
	if (rc >= 0)
		return rc;
	rc = sm_out_resolve(&o->out, PROG, sm_render_layouts(&sm_render_compare, 0),
			    sm_render_compare.dflt, msg, sizeof(msg));
	if (rc)
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (argc - first != 2)
		return sm_usage_error(PROG, HINT, "two results to compare, A and B, not %d",
				      argc - first);
	for (int i = 0; i < 2; i++) {
		const char *s = argv[first + i];

		o->src[i] = s;
		o->is_file[i] = file_like(s);
		if (!o->is_file[i] && !sm_save_key_ok(s))
			return sm_usage_error(PROG, HINT, "invalid key '%s': expected 1 to %d "
					      "characters, no control characters", s, SM_SAVE_KEY_MAX);
		if (o->is_file[i] && sm_path_problem(s))
			return sm_usage_error(PROG, HINT, "file '%s' %s", s, sm_path_problem(s));
		in[i] = (struct sm_out_file){ "the input", o->is_file[i] ? s : NULL, 0, 0 };
	}
	if (!o->is_file[0] || !o->is_file[1])   /* a key is read from the history */
		in[2] = (struct sm_out_file){ "--db", o->db ? o->db : sm_hdb_default_path(dflt, sizeof(dflt))
						     ? NULL : dflt, 0, 0 };
	if (sm_out_apart(&o->out, in, 3, NULL, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	return -1;
}

/* Add doc, a result loaded as name, to side s: first read through its
 * command's reader, so that what `report` refuses is refused here too.
 * Returns 0, -ENOMEM, or -EINVAL with one line in why. */
static int add_doc(struct sm_cmp_side *s, const cJSON *doc, int figures, char *why, size_t len)
{
	struct sm_jerr e = { "" };
	int rc = sm_json_read_result(doc, &e);

	if (rc == -ENOMEM)
		snprintf(why, len, "out of memory");
	else if (rc)
		snprintf(why, len, "not a complete %s result: %s",
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "command")), e.msg);
	return rc ? rc : sm_cmp_side_add_doc(s, doc, figures, why, len);
}

/* One side from a JSON file. Returns 0 or the exit code (printed). */
static int load_file(const char *path, struct sm_cmp_side *s)
{
	struct sm_jerr e = { "" };
	cJSON *doc = NULL;
	char why[512];
	int rc;

	if (sm_json_load(path, 0, &doc, &e)) {
		sm_prog_error(PROG, "%s", e.msg);
		return SM_EXIT_USAGE;
	}
	rc = add_doc(s, doc, 1, why, sizeof(why));
	cJSON_Delete(doc);
	/* the tree's many small blocks back to the system, so that the
	 * memory check of the next side counts what is really in use */
	malloc_trim(0);
	if (rc == -ENOMEM) {
		sm_prog_error(PROG, "out of memory");
		return SM_EXIT_FAIL;
	}
	if (rc) {
		sm_prog_error(PROG, "cannot compare '%s': %s", path, why);
		return SM_EXIT_USAGE;
	}
	return 0;
}

/* One side from a history key. Returns 0 or the exit code (printed). */
static int load_key(struct sm_hdb *db, const char *path, const char *key, struct sm_cmp_side *s)
{
	struct sm_hdb_result *res = NULL;
	struct sm_hdb_row *rows = NULL;
	unsigned n = 0, nrows = 0;
	char err[256], cmd[32], why[512];
	int rc, code = 0;

	rc = sm_hdb_key_command(db, key, cmd, sizeof(cmd), err, sizeof(err));
	if (!rc)
		rc = sm_hdb_load_results(db, key, &res, &n, err, sizeof(err));
	if (!rc && !strcmp(cmd, "time"))
		rc = sm_hdb_load(db, key, &rows, &nrows, err, sizeof(err));
	if (rc) {
		sm_prog_error(PROG, "cannot read history database '%s': %s", path, err);
		code = SM_EXIT_FAIL;
		goto out;
	}
	if (!cmd[0]) {
		sm_prog_error(PROG, "no runs saved under key '%s' in '%s'", key, path);
		code = SM_EXIT_USAGE;
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		struct sm_jerr e = { "" };
		cJSON *doc = NULL;

		rc = sm_json_parse_text(res[i].json, key, &doc, &e);
		if (rc) {
			sm_prog_error(PROG, "result %lld under key '%s' in '%s' cannot be read: %s",
				      (long long)res[i].id, key, path, e.msg);
			code = rc == -ENOMEM ? SM_EXIT_USAGE : SM_EXIT_FAIL;   /* memory: refused up front */
			goto out;
		}
		/* time: the figures come from the runs' rows (older saves have no JSON) */
		rc = add_doc(s, doc, strcmp(cmd, "time") != 0, why, sizeof(why));
		cJSON_Delete(doc);
		if (rc) {
			sm_prog_error(PROG, "cannot compare key '%s': %s", key, why);
			code = rc == -ENOMEM ? SM_EXIT_FAIL : SM_EXIT_USAGE;
			goto out;
		}
	}
	for (unsigned i = 0; i < nrows; i++)
		if (sm_cmp_side_add_time_run(s, &rows[i].run)) {
			sm_prog_error(PROG, "out of memory");
			code = SM_EXIT_FAIL;
			goto out;
		}
	if (!n && nrows)
		s->ndocs = 1;   /* schema 1 runs: one save, no JSON */
out:
	sm_hdb_results_free(res, n);
	free(rows);
	return code;
}

int cmd_compare_parse_only(int argc, char **argv)
{
	struct compare_opts o;
	int rc = parse(argc, argv, &o);

	return rc >= 0 ? rc : 0;
}

/* The command with the line as typed in given (what the HTML page shows)
 * and argv a copy of it that the parser may reorder. */
static int compare(int argc, char **argv, char **given, struct sm_job *job)
{
	struct compare_opts o;
	struct sm_cmp_side side[2];
	struct sm_cmp_result cmp = { .argc = argc, .argv = given };
	struct sm_emit e = { .r = &sm_render_compare, .prog = PROG, .out = &o.out, .job = job };
	struct sm_hdb *db = NULL;
	char path[4096], err[256], why[512];
	int rc, code = SM_EXIT_OK;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	for (int i = 0; i < 2; i++) {
		cmp.names.name[i] = o.src[i];
		cmp.names.is_key[i] = !o.is_file[i];
	}
	memset(side, 0, sizeof(side));
	if (!o.is_file[0] || !o.is_file[1]) {
		if (o.db)
			snprintf(path, sizeof(path), "%s", o.db);
		else if (sm_hdb_default_path(path, sizeof(path))) {
			sm_prog_error(PROG, "cannot find the history: set XDG_DATA_HOME or HOME, or use --db");
			return SM_EXIT_FAIL;
		}
		rc = sm_hdb_open(path, 0, BUSY_MS, &db, err, sizeof(err));
		if (rc == -ENOENT) {
			sm_prog_error(PROG, "no runs saved under key '%s': %s ('%s')",
				      o.src[o.is_file[0] ? 1 : 0], err, path);
			return SM_EXIT_USAGE;
		}
		if (rc) {
			sm_prog_error(PROG, "cannot use history database '%s': %s", path, err);
			return SM_EXIT_FAIL;
		}
	}
	for (int i = 0; i < 2 && code == SM_EXIT_OK; i++) {
		snprintf(side[i].name, sizeof(side[i].name), "%s", o.src[i]);
		code = o.is_file[i] ? load_file(o.src[i], &side[i])
				    : load_key(db, path, o.src[i], &side[i]);
	}
	if (code)
		goto out;
	rc = sm_cmp_compute(&side[0], &side[1], o.alpha, &cmp.c, why, sizeof(why));
	if (rc) {
		sm_prog_error(PROG, "%s", why);
		code = rc == -ENOMEM ? SM_EXIT_FAIL : SM_EXIT_USAGE;
		goto out;
	}
	/* -o FILE, then the layout, --json=FILE and --html FILE: the emit
	 * step, through compare's render table */
	code = sm_emit_redirect(&e);
	if (!code)
		code = sm_emit(&e, &cmp, SM_EXIT_OK);
out:
	sm_cmp_release(&cmp.c);
	sm_cmp_side_release(&side[0]);
	sm_cmp_side_release(&side[1]);
	sm_hdb_close(db);
	return code;
}

int cmd_compare(int argc, char **argv, struct sm_job *job)
{
	char **copy = malloc(((size_t)argc + 1) * sizeof(*copy));
	int rc;

	if (!copy) {
		sm_prog_error(PROG, "out of memory");
		return SM_EXIT_FAIL;
	}
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	copy[argc] = NULL;
	rc = compare(argc, copy, argv, job);
	free(copy);
	return rc;
}
