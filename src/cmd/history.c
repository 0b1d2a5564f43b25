/* SPDX-License-Identifier: MIT */
/* stormark history: list the keys saved by --save (every command), show a
 * key's runs in a table for its command, export them as JSON, or compare
 * two time keys figure by figure (trimmed means). */
#include "cmd/cmd.h"
#include "core/msg.h"
#include "cmd/emit.h"
#include "core/fsx.h"
#include "store/history_db.h"
#include "result/timefig.h"
#include "analysis/time.h"
#include "report/timeit.h"
#include "analysis/compare.h"
#include "result/json.h"
#include "result/json_read.h"
#include "args/out_opts.h"
#include "report/history.h"
#include "report/table.h"
#include "args/save.h"
#include "core/opt.h"
#include "core/units.h"
#include "cmd/history_show.h"
#include "cmd/history_trend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stormark history"
#define HINT "stormark history --help"
#define BUSY_MS 3000u
#define LIST_BUSY_MS 500u   /* --list-keys: a completion waits this long at most */

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f,
		"usage: stormark history [--db PATH] [--json[=FILE]] [KEY [KEY2]]\n"
		"       stormark history [--db PATH] KEY --html FILE\n\n"
		"Runs saved with --save KEY (frames, fileio run, run, time, meta,\n"
		"streams). With no KEY: every key, its command, its number of runs and\n"
		"the newest run's headline (time: the trimmed mean wall time, the\n"
		"fastest and slowest 10%% dropped).\n"
		"With KEY: its runs in a table for its command. With two time keys: the\n"
		"two compared figure by figure ('stormark compare' compares any two keys).\n"
		"--json exports the keys, or a key's runs with every saved result whole.\n"
		"KEY --html FILE also writes KEY's trend page: each headline figure run by\n"
		"run (a point per run, the mean and a +/- sd band), the first half of the\n"
		"runs against the last half by compare's Welch test, and the run table.\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nThe output flags mean the same in every command: docs/options.md.\n");
}

/* history only reads --db, so a read-only one is fine; but an empty name,
 * a directory, or a missing directory is refused before anything opens.
 * Returns 0 or -EINVAL with one line in msg. */
static int check_db(const char *path, char *msg, size_t len)
{
	char dir[4096];

	if (!*path)
		snprintf(msg, len, "--db needs a file name, not an empty one");
	else if (sm_parent_dir(path, dir, sizeof(dir)) || sm_is_dir(dir) != 1)
		snprintf(msg, len, "cannot use --db '%s': %s", path,
			 sm_is_dir(dir) == -ENOTDIR ? "its parent is not a directory"
						   : "its directory does not exist");
	else if (sm_is_dir(path) == 1)
		snprintf(msg, len, "cannot use --db '%s': it is a directory", path);
	else
		return 0;
	return -EINVAL;
}

/* What the command line asks for; strings point into argv. */
struct history_opts {
	struct sm_out_opts out;
	const char *db_arg;   /* --db, NULL: the default database */
	int first;            /* argv index of the first key */
	int list_keys;        /* --list-keys (hidden): the keys, one a line */
};

/* Parse and check argv into o (--help: print the usage). Returns -1 to go
 * on, or the exit code to return. */
static int parse(int argc, char **argv, struct history_opts *o)
{
	int help = 0;
	struct sm_opt opts[] = {
		SM_OPT_STR(0, "db", o->db_arg, "PATH",
			   "history database (default $XDG_DATA_HOME/stormark/history.db)"),
		SM_OUT_OPTS(o->out, 'o', 0, "report layout: text (default), markdown, csv (the same rows, figures as "
			    "numbers, units in the header) or json (the keys, or a key's runs with every "
			    "saved result whole: docs/history.md)"),
		SM_OPT_HELP('h', "help", help, "this help"),
		/* for shell completion (scripts/stormark.bash-completion): every
		 * key, one a line, nothing else; not in the help */
		{ .kind = SM_OPT_FLAG, .long_name = "list-keys", .dest = &o->list_keys, .ival = 1,
		  .flags = SM_OPT_HIDDEN, .help = "" },
		SM_OPT_LIST_OPTIONS(help),
		SM_OPT_END,
	};
	struct sm_out_file db;
	char dflt[4096];
	char msg[SM_MSG_MAX];
	int rc;

	memset(o, 0, sizeof(*o));
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, &o->first, usage);
	if (rc >= 0)
		return rc;
	rc = sm_out_resolve(&o->out, PROG, SM_LAYOUT_BIT(SM_LAYOUT_TEXT) |
				    SM_LAYOUT_BIT(SM_LAYOUT_CSV) | SM_LAYOUT_BIT(SM_LAYOUT_MARKDOWN) |
				    SM_LAYOUT_BIT(SM_LAYOUT_JSON) | SM_OUT_HTML_FILE, SM_LAYOUT_TEXT, msg,
			    sizeof(msg));
	if (rc)
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (o->out.html && argc - o->first != 1)
		return sm_usage_error(PROG, HINT, "--html draws the trend of one key: stormark history "
				      "KEY --html FILE (%s)", argc == o->first ? "no KEY given"
				      : "two keys given; 'stormark compare --html' compares two");
	if (argc - o->first > 2)
		return sm_usage_error(PROG, HINT, "at most two keys, got %d", argc - o->first);
	if (o->list_keys && (argc > o->first || o->out.json || o->out.format))
		return sm_usage_error(PROG, HINT, "--list-keys prints every key, one a line: it takes "
				      "no KEY, --json or --format");
	for (int i = o->first; i < argc; i++)
		if (!sm_save_key_ok(argv[i]))
			return sm_usage_error(PROG, HINT, "invalid key '%s': expected 1 to %d characters, "
					      "no control characters, as --save takes", argv[i],
					      SM_SAVE_KEY_MAX);
	if (o->out.layout == SM_LAYOUT_JSON || o->out.json_file) {
		if (argc - o->first > 1)
			return sm_usage_error(PROG, HINT, "--json exports the keys or one key's runs; "
					      "'stormark compare --json' compares two");
	}
	if (o->db_arg && check_db(o->db_arg, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	db = (struct sm_out_file){ "--db", o->db_arg ? o->db_arg : sm_hdb_default_path(dflt, sizeof(dflt))
					   ? NULL : dflt, 0, 0 };
	if (sm_out_apart(&o->out, &db, 1, NULL, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	return -1;
}

int cmd_history_parse_only(int argc, char **argv)
{
	struct history_opts o;
	int rc = parse(argc, argv, &o);

	return rc >= 0 ? rc : 0;
}

/* KEY KEY2: time keys compared by trimmed means (history_show.c). */
static int compare_keys(struct sm_hdb *db, const char *path, const char *k1, const char *k2,
			enum sm_table_style st)
{
	char err[256], c1[32], c2[32];

	if (sm_hdb_key_command(db, k1, c1, sizeof(c1), err, sizeof(err)) ||
	    sm_hdb_key_command(db, k2, c2, sizeof(c2), err, sizeof(err))) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	if ((c1[0] && strcmp(c1, "time")) || (c2[0] && strcmp(c2, "time")))
		return sm_usage_error(PROG, "stormark compare --help", "history compares two time keys; "
				      "'stormark compare %s %s' compares %s runs", k1, k2,
				      strcmp(c1, "time") ? c1 : c2);
	return sm_history_compare(db, path, k1, k2, st);
}

/* --json: the export of the keys (key NULL) or of one key of db (NULL
 * when there is none yet: no keys) into the file to ("-": stdout).
 * Returns the exit code, after a message on error. */
static int export(struct sm_hdb *db, const char *path, const char *key, const char *to)
{
	char err[256] = "";
	int rc;
	cJSON *doc = sm_hdb_export(db, path, key, &rc, err, sizeof(err));

	if (!doc && err[0])
		sm_error("cannot read history database '%s': %s", path, err);
	else if (!doc && rc == -ENOENT)
		sm_error("no runs saved under key '%s' in '%s'", key, path);
	else if (!doc)
		sm_error("out of memory");
	if (!doc)
		return SM_EXIT_FAIL;
	rc = sm_json_write(doc, to);
	if (rc && !strcmp(to, "-") && rc != -ENOMEM)
		sm_out_stdout_failed(rc);   /* said once, by sm_out_finish() */
	else if (rc)
		sm_error("cannot write '%s': %s", strcmp(to, "-") ? to : "standard output", strerror(-rc));
	cJSON_Delete(doc);
	return rc ? SM_EXIT_FAIL : SM_EXIT_OK;
}

/* --list-keys: every key of the database at path, one a line, for shell
 * completion: no database yet is no key (exit 0); a database held by a
 * writer is waited for a short time only (a completion must not hang).
 * Returns the exit code. */
static int print_keys(const char *path)
{
	struct sm_hdb *db = NULL;
	struct sm_hdb_key *keys = NULL;
	unsigned n = 0;
	char err[256];
	int rc = sm_hdb_open(path, 0, LIST_BUSY_MS, &db, err, sizeof(err));

	if (rc == -ENOENT)
		return SM_EXIT_OK;
	if (!rc)
		rc = sm_hdb_keys(db, &keys, &n, err, sizeof(err));
	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		sm_hdb_close(db);
		return SM_EXIT_FAIL;
	}
	for (unsigned i = 0; i < n; i++)
		printf("%s\n", keys[i].key);
	free(keys);
	sm_hdb_close(db);
	return SM_EXIT_OK;
}

/* What a key's results take once loaded, counted from their texts. */
struct key_tally {
	uint64_t text, tree, out;
	unsigned n;
};

static void tally_one(const char *json, size_t len, void *arg)
{
	struct key_tally *t = arg;
	struct sm_json_shape s;

	sm_json_shape_of(json, len, &s);
	t->text += len + 1;
	t->tree += s.tree_bytes;
	t->out += s.out_bytes;
	t->n++;
}

/* What one measured run of a time key takes beside the results: its row,
 * and in the --json document its object and printed text, or for the
 * trend page its figures as compare and the trend hold them. Measured
 * (max RSS of 800-run keys, docs/history.md): about 8 and 16 KiB. */
#define ROW_JSON_BYTES (10u << 10)
#define ROW_HTML_BYTES (20u << 10)

/* key's measured runs (time), 0 when they cannot be counted */
static unsigned key_rows(struct sm_hdb *db, const char *key)
{
	struct sm_hdb_key *keys = NULL;
	unsigned n = 0, runs = 0;
	char err[256];

	if (sm_hdb_keys(db, &keys, &n, err, sizeof(err)))
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(keys[i].key, key) && !strcmp(keys[i].command, "time"))
			runs = keys[i].runs;
	free(keys);
	return runs;
}

/*
 * Before key's results are loaded whole (--json KEY: every result parsed
 * into one document and printed; KEY --html: every result parsed, its
 * figures taken): the memory that takes, counted from the stored texts one
 * at a time, against the memory available. Each result's text is held
 * beside its tree; the printed document is built in a buffer grown by
 * doubling (twice its size); the trend page holds what compare reads from
 * each tree (half a tree more, measured); a time key's measured runs add
 * ROW_JSON_BYTES or ROW_HTML_BYTES each. No database, or no SQLite, is
 * left to the steps after to say. Returns 0 or the exit code after one
 * line (a database locked or damaged: SM_EXIT_FAIL).
 */
static int key_memory(const char *path, const char *key, int json, int html)
{
	struct key_tally t = { 0 };
	struct sm_hdb *db = NULL;
	char err[256], what[4400], a[32];
	uint64_t need = 0, rows;
	int rc;

	rc = sm_hdb_open(path, 0, BUSY_MS, &db, err, sizeof(err));
	if (rc == -ENOENT || rc == -ENOTSUP)
		return 0;   /* said by the steps after */
	if (!rc)
		rc = sm_hdb_each_result(db, key, tally_one, &t, err, sizeof(err));
	if (rc) {
		/* locked past the busy wait, damaged: as the steps after say it */
		sm_hdb_close(db);
		sm_error("cannot use history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	rows = key_rows(db, key);
	sm_hdb_close(db);
	if (json)
		need = t.text + t.tree + 2 * t.out + rows * ROW_JSON_BYTES;
	if (html && t.text + t.tree + t.tree / 2 + rows * ROW_HTML_BYTES > need)
		need = t.text + t.tree + t.tree / 2 + rows * ROW_HTML_BYTES;
	snprintf(what, sizeof(what), "reading key '%s' of '%s' (%u result%s, %s of JSON) %s", key, path,
		 t.n, t.n == 1 ? "" : "s", sm_fmt_bytes(a, sizeof(a), (double)t.text),
		 json ? "to write it as JSON" : "to draw its trend page");
	return sm_check_memory(PROG, need, what);
}

/* The command with the line as typed in given (what the trend page shows)
 * and argv a copy of it that the parser may reorder. */
static int history(int argc, char **argv, char **given, struct sm_job *job)
{
	struct history_opts o;
	char path[4096], err[256], cmd[32] = "";
	struct sm_hdb *db = NULL;
	enum sm_table_style st;
	int rc, first, json;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	first = o.first;
	st = o.out.layout == SM_LAYOUT_MARKDOWN ? SM_TABLE_MARKDOWN
	     : o.out.layout == SM_LAYOUT_CSV ? SM_TABLE_CSV : SM_TABLE_TEXT;
	if (o.db_arg)
		snprintf(path, sizeof(path), "%s", o.db_arg);
	else if (sm_hdb_default_path(path, sizeof(path))) {
		sm_error("cannot find the history: set XDG_DATA_HOME or HOME, or use --db");
		return SM_EXIT_FAIL;
	}
	if (o.list_keys)
		return print_keys(path);
	if (o.out.html && (rc = sm_history_trend_key(path, argv[first], cmd, sizeof(cmd))))
		return rc;
	/* a key's results loaded whole: their memory checked before -o
	 * creates its file */
	json = o.out.json_file || o.out.layout == SM_LAYOUT_JSON;
	if (first < argc && (json || o.out.html) &&
	    (rc = key_memory(path, argv[first], json, o.out.html != NULL)))
		return rc;
	rc = sm_out_redirect(&o.out, job);
	if (rc) {
		sm_error("cannot create '%s': %s", o.out.output, strerror(-rc));
		return SM_EXIT_FAIL;
	}
	rc = sm_hdb_open(path, 0, BUSY_MS, &db, err, sizeof(err));
	if (rc == -ENOENT && first == argc) {
		rc = SM_EXIT_OK;
		if (o.out.json_file || o.out.layout == SM_LAYOUT_JSON)
			rc = export(NULL, path, NULL, o.out.json_file ? o.out.json_file : "-");
		if (!rc && o.out.layout != SM_LAYOUT_JSON)
			sm_history_no_keys(path, st);
		return rc;
	}
	if (rc) {
		sm_error("cannot use history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	rc = SM_EXIT_OK;
	if (o.out.json_file || o.out.layout == SM_LAYOUT_JSON)
		rc = export(db, path, first < argc ? argv[first] : NULL,
				 o.out.json_file ? o.out.json_file : "-");
	if (!rc && o.out.html)
		rc = sm_history_trend(db, path, argv[first], cmd, o.out.html, argc, given);
	if (!rc && o.out.layout != SM_LAYOUT_JSON) {
		if (first == argc)
			rc = sm_history_keys(db, path, st);
		else if (argc - first == 1)
			rc = sm_history_show(db, path, argv[first], st);
		else
			rc = compare_keys(db, path, argv[first], argv[first + 1], st);
	}
	sm_hdb_close(db);
	return rc;
}

int cmd_history(int argc, char **argv, struct sm_job *job)
{
	char **copy = malloc(((size_t)argc + 1) * sizeof(*copy));
	int rc;

	if (!copy) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	copy[argc] = NULL;
	rc = history(argc, copy, argv, job);
	free(copy);
	return rc;
}
