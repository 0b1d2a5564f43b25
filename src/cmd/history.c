/* SPDX-License-Identifier: MIT */
/* stormark history: list the keys saved by 'stormark time --save', show a
 * key's runs, or compare two keys figure by figure (trimmed means). */
#include "cmd/cmd.h"
#include "core/fsx.h"
#include "store/history_db.h"
#include "result/timefig.h"
#include "report/timeit.h"
#include "cmd/out_opts.h"
#include "core/opt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stormark history"
#define HINT "stormark history --help"
#define BUSY_MS 3000u

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f,
		"usage: stormark history [--db PATH] [KEY [KEY2]]\n\n"
		"Runs saved with 'stormark time --save KEY'. With no KEY: every key, its\n"
		"number of runs and trimmed means (the fastest and slowest 10%% dropped).\n"
		"With KEY: its runs. With KEY and KEY2: the two compared figure by figure.\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nThe output flags mean the same in every command: docs/options.md.\n");
}

/* Trimmed mean of figure f over rows; *ok is 0 when no row measured it. */
static double tmean(const struct sm_hdb_row *rows, unsigned n, enum sm_tf f, int *ok)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), m;
	unsigned k = 0;

	*ok = 0;
	if (!v)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (!(rows[i].run.missing & SM_TF_BIT(f)))
			v[k++] = rows[i].run.v[f];
	*ok = k > 0;
	m = sm_trimmed_mean(v, k);
	free(v);
	return m;
}

static const char *cell(char *buf, size_t len, const struct sm_hdb_row *rows, unsigned n,
			enum sm_tf f)
{
	int ok;
	double m = tmean(rows, n, f, &ok);

	return ok ? sm_tf_format(buf, len, f, m) : "n/a";
}

static int list_keys(struct sm_hdb *db, const char *path)
{
	struct sm_hdb_key *keys;
	unsigned n;
	char err[256], a[48], b[48], c[48], d[48];
	int rc = sm_hdb_keys(db, &keys, &n, err, sizeof(err));

	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	printf("history: %s\n", path);
	if (!n)
		printf("no runs saved yet\n");
	else
		printf("%-24s %5s  %-20s  %11s %11s %13s %13s\n", "key", "runs", "last saved",
		       "wall", "system CPU", "storage read", "storage write");
	for (unsigned i = 0; i < n; i++) {
		struct sm_hdb_row *rows;
		unsigned m;

		rc = sm_hdb_load(db, keys[i].key, &rows, &m, err, sizeof(err));
		if (rc) {
			sm_error("cannot read history database '%s': %s", path, err);
			free(keys);
			return SM_EXIT_FAIL;
		}
		printf("%-24s %5u  %-20s  %11s %11s %13s %13s\n", keys[i].key, keys[i].runs,
		       keys[i].last, cell(a, sizeof(a), rows, m, SM_TF_WALL_NS),
		       cell(b, sizeof(b), rows, m, SM_TF_SYS_NS),
		       cell(c, sizeof(c), rows, m, SM_TF_STORAGE_READ_BYTES),
		       cell(d, sizeof(d), rows, m, SM_TF_STORAGE_WRITE_BYTES));
		free(rows);
	}
	if (n)
		printf("(trimmed means: the fastest and slowest 10%% of runs dropped)\n");
	free(keys);
	return SM_EXIT_OK;
}

static int load(struct sm_hdb *db, const char *path, const char *key,
		struct sm_hdb_row **rows, unsigned *n)
{
	char err[256];
	int rc = sm_hdb_load(db, key, rows, n, err, sizeof(err));

	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	if (!*n) {
		sm_error("no runs saved under key '%s' in '%s'", key, path);
		free(*rows);
		*rows = NULL;
		return SM_EXIT_FAIL;
	}
	return 0;
}

static void fig(char *buf, size_t len, const struct sm_time_run *run, enum sm_tf f)
{
	if (run->missing & SM_TF_BIT(f))
		snprintf(buf, len, "n/a");
	else
		sm_tf_format(buf, len, f, run->v[f]);
}

static int show_key(struct sm_hdb *db, const char *path, const char *key)
{
	struct sm_hdb_row *rows;
	unsigned n;
	char a[48], b[48], c[48], d[48], e[48], g[48];
	int rc = load(db, path, key, &rows, &n);

	if (rc)
		return rc;
	printf("history: %s, key '%s', %u run%s of: %s\n", path, key, n, n == 1 ? "" : "s",
	       rows[n - 1].command);
	printf("%6s  %-20s %4s %11s %11s %11s %10s %12s %12s\n", "run", "saved", "exit",
	       "wall", "user CPU", "system CPU", "syscalls", "storage read", "storage write");
	for (unsigned i = 0; i < n; i++) {
		const struct sm_time_run *r = &rows[i].run;

		fig(a, sizeof(a), r, SM_TF_WALL_NS);
		fig(b, sizeof(b), r, SM_TF_USER_NS);
		fig(c, sizeof(c), r, SM_TF_SYS_NS);
		fig(d, sizeof(d), r, SM_TF_SYSCALLS);
		fig(e, sizeof(e), r, SM_TF_STORAGE_READ_BYTES);
		fig(g, sizeof(g), r, SM_TF_STORAGE_WRITE_BYTES);
		printf("%6lld  %-20s %4d %11s %11s %11s %10s %12s %12s\n", (long long)rows[i].id,
		       rows[i].saved_at, r->exit_code, a, b, c, d, e, g);
	}
	printf("%6s  %-20s %4s %11s %11s %11s %10s %12s %12s\n", "", "trimmed mean", "",
	       cell(a, sizeof(a), rows, n, SM_TF_WALL_NS), cell(b, sizeof(b), rows, n, SM_TF_USER_NS),
	       cell(c, sizeof(c), rows, n, SM_TF_SYS_NS), cell(d, sizeof(d), rows, n, SM_TF_SYSCALLS),
	       cell(e, sizeof(e), rows, n, SM_TF_STORAGE_READ_BYTES),
	       cell(g, sizeof(g), rows, n, SM_TF_STORAGE_WRITE_BYTES));
	free(rows);
	return SM_EXIT_OK;
}

static int compare(struct sm_hdb *db, const char *path, const char *k1, const char *k2)
{
	struct sm_hdb_row *r1 = NULL, *r2 = NULL;
	unsigned n1, n2;
	char a[48], b[48];
	int rc = load(db, path, k1, &r1, &n1);

	if (!rc)
		rc = load(db, path, k2, &r2, &n2);
	if (rc)
		goto out;
	printf("history: %s; trimmed means of '%s' (%u runs) and '%s' (%u runs)\n", path, k1,
	       n1, k2, n2);
	printf("%-26s %14s %14s %9s\n", "figure", k1, k2, "change");
	for (int f = 0; f < SM_TF_COUNT; f++) {
		int ok1, ok2;
		double m1 = tmean(r1, n1, f, &ok1), m2 = tmean(r2, n2, f, &ok2);

		if (!ok1 && !ok2)
			continue;
		printf("%-26s %14s %14s ", sm_tf_desc[f].label,
		       ok1 ? sm_tf_format(a, sizeof(a), f, m1) : "n/a",
		       ok2 ? sm_tf_format(b, sizeof(b), f, m2) : "n/a");
		if (ok1 && ok2 && m1 != 0)
			printf("%+8.1f%%\n", 100.0 * (m2 - m1) / m1);
		else
			printf("%9s\n", ok1 && ok2 && m2 == m1 ? "=" : "-");
	}
	printf("(change is %s relative to %s; trimmed means drop the fastest and slowest 10%%)\n",
	       k2, k1);
out:
	free(r1);
	free(r2);
	return rc;
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
};

/* Parse and check argv into o (--help: print the usage). Returns -1 to go
 * on, or the exit code to return. */
static int parse(int argc, char **argv, struct history_opts *o)
{
	int help = 0;
	struct sm_opt opts[] = {
		SM_OPT_STR(0, "db", o->db_arg, "PATH",
			   "history database (default $XDG_DATA_HOME/stormark/history.db)"),
		/* the four output flags of SM_OUT_OPTS, but --json's help says what
		 * history does with it: sm_out_resolve() refuses it */
		{ .kind = SM_OPT_STRING, .long_name = "json", .arg = SM_OPT_OPTIONAL,
		  .dest = &o->out.json, .dflt = "-", .flags = SM_OPT_EMPTY_OK, .argh = "FILE",
		  .help = "refused: history has no JSON layout yet (docs/options.md)" },
		SM_OPT_STR(0, "format", o->out.format, "LAYOUT", "report layout: text (the only one so far)"),
		SM_OPT_STR('o', "output", o->out.output, "FILE", "write the report to FILE, not stdout"),
		SM_OPT_FLAG_SET(0, "quiet", o->out.quiet, 1, "accepted; history shows no progress"),
		SM_OPT_HELP('h', "help", help, "this help"),
		SM_OPT_LIST_OPTIONS(help),
		SM_OPT_END,
	};
	char msg[SM_MSG_MAX];
	int rc;

	memset(o, 0, sizeof(*o));
	rc = sm_opt_parse(opts, argc, argv, 0, &o->first, msg, sizeof(msg));
	if (rc == SM_OPT_LIST_CODE) {
		sm_opt_list(stdout, opts, 0);
		return SM_EXIT_OK;
	}
	if (rc > 0) {
		usage(stdout, opts);
		return SM_EXIT_OK;
	}
	if (!rc)
		rc = sm_out_resolve(&o->out, PROG, SM_LAYOUT_BIT(SM_LAYOUT_TEXT), SM_LAYOUT_TEXT, msg,
				    sizeof(msg));
	if (rc)
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (argc - o->first > 2)
		return sm_usage_error(PROG, HINT, "at most two keys, got %d", argc - o->first);
	for (int i = o->first; i < argc; i++) {
		int ctl = 0;

		for (const char *c = argv[i]; *c; c++)
			ctl |= (unsigned char)*c < 0x20 || *c == 0x7f;
		if (!argv[i][0] || strlen(argv[i]) > 120 || ctl)
			return sm_usage_error(PROG, HINT, "invalid key '%s': expected 1 to 120 characters, "
					      "no control characters, as 'time --save' takes", argv[i]);
	}
	if (o->db_arg && check_db(o->db_arg, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	return -1;
}

int cmd_history_parse_only(int argc, char **argv)
{
	struct history_opts o;
	int rc = parse(argc, argv, &o);

	return rc >= 0 ? rc : 0;
}

int cmd_history(int argc, char **argv)
{
	struct history_opts o;
	char path[4096], err[256];
	struct sm_hdb *db = NULL;
	int rc, first;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	first = o.first;
	rc = sm_out_redirect(&o.out);
	if (rc) {
		sm_error("cannot create '%s': %s", o.out.output, strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (o.db_arg)
		snprintf(path, sizeof(path), "%s", o.db_arg);
	else if (sm_hdb_default_path(path, sizeof(path))) {
		sm_error("cannot find the history: set XDG_DATA_HOME or HOME, or use --db");
		return SM_EXIT_FAIL;
	}
	rc = sm_hdb_open(path, 0, BUSY_MS, &db, err, sizeof(err));
	if (rc == -ENOENT && first == argc) {
		printf("history: %s\nno runs saved yet\n", path);
		return SM_EXIT_OK;
	}
	if (rc) {
		sm_error("cannot use history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	if (first == argc)
		rc = list_keys(db, path);
	else if (argc - first == 1)
		rc = show_key(db, path, argv[first]);
	else
		rc = compare(db, path, argv[first], argv[first + 1]);
	sm_hdb_close(db);
	return rc;
}
