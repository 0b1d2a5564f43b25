/* SPDX-License-Identifier: MIT */
/* The trend page of one history key (history_trend.h): the key's runs,
 * oldest first, with their figures as compare reads them; the first half
 * against the last half as compare compares two sides; the page. */
#include "cmd/history_trend.h"
#include "cmd/cmd.h"
#include "analysis/compare.h"
#include "analysis/trend.h"
#include "core/outfile.h"
#include "report/history.h"
#include "result/json_read.h"
#include "store/history_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stormark history"
#define BUSY_MS 3000u

int sm_history_trend_key(const char *path, const char *key, char *cmd, size_t len)
{
	struct sm_hdb *db = NULL;
	char err[256];
	int rc = sm_hdb_open(path, 0, BUSY_MS, &db, err, sizeof(err));

	cmd[0] = '\0';
	if (rc == -ENOENT) {
		sm_prog_error(PROG, "no runs saved under key '%s': %s ('%s')", key, err, path);
		return SM_EXIT_USAGE;
	}
	if (rc == -ENOTSUP) {   /* a build without SQLite */
		sm_prog_error(PROG, "%s", err);
		return SM_EXIT_USAGE;
	}
	if (!rc)
		rc = sm_hdb_key_command(db, key, cmd, len, err, sizeof(err));
	sm_hdb_close(db);
	if (rc) {
		sm_error("cannot use history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	if (!cmd[0]) {
		sm_prog_error(PROG, "no runs saved under key '%s' in '%s'", key, path);
		return SM_EXIT_USAGE;
	}
	return 0;
}

/* A key's runs as loaded: its saved results (their documents parsed), and
 * for time its measured runs; per run its figures and what the run table
 * says of it. */
struct key_runs {
	int time;
	struct sm_hdb_result *res;
	unsigned nres;
	cJSON **docs;
	struct sm_hdb_row *rows;       /* time */
	unsigned nrows;
	unsigned n;                    /* runs: nrows for time, else nres */
	struct sm_cmp_run *runs;       /* n, those filled: nruns */
	unsigned nruns;
	struct sm_history_run *meta;   /* n */
	char (*notes)[32];             /* n: time's exit status */
};

static void key_runs_release(struct key_runs *k)
{
	for (unsigned i = 0; k->docs && i < k->nres; i++)
		cJSON_Delete(k->docs[i]);
	free(k->docs);
	sm_cmp_runs_free(k->runs, k->nruns);
	free(k->meta);
	free(k->notes);
	free(k->rows);
	sm_hdb_results_free(k->res, k->nres);
}

/* Result i parsed into k->docs[i] and, but for time (whose figures are
 * its rows'), its figures into k->runs[i]. Returns 0 or the exit code. */
static int load_result(struct key_runs *k, unsigned i, const char *key, const char *path)
{
	struct sm_jerr e = { "" };
	struct sm_cmp_run *one = NULL;
	unsigned nr = 0;
	char why[256] = "";
	int rc = sm_json_parse_text(k->res[i].json, key, &k->docs[i], &e);

	if (!rc && !k->time)
		rc = sm_cmp_doc_figures(k->docs[i], &one, &nr, why, sizeof(why));
	if (rc == -ENOMEM) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	if (rc) {
		sm_error("result %lld under key '%s' in '%s' cannot be read: %s", (long long)k->res[i].id,
			 key, path, e.msg[0] ? e.msg : why);
		return SM_EXIT_FAIL;
	}
	if (k->time)
		return 0;
	/* one run per result: its figures move into runs[i] */
	if (nr)
		k->runs[i] = one[0];
	for (unsigned j = 1; j < nr; j++)
		free(one[j].fig);
	free(one);
	k->nruns = i + 1;
	k->meta[i] = (struct sm_history_run){ (long long)k->res[i].id, k->res[i].saved_at, "" };
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(k->docs[i], "interrupted")))
		k->meta[i].note = "interrupted";
	return 0;
}

/* The runs of key into k (released by the caller either way). Returns 0
 * or the exit code, after one line. */
static int load(struct sm_hdb *db, const char *path, const char *key, int time, struct key_runs *k)
{
	char err[256];
	int rc, code;

	memset(k, 0, sizeof(*k));
	k->time = time;
	rc = sm_hdb_load_results(db, key, &k->res, &k->nres, err, sizeof(err));
	if (!rc && time)
		rc = sm_hdb_load(db, key, &k->rows, &k->nrows, err, sizeof(err));
	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	k->n = time ? k->nrows : k->nres;
	k->docs = calloc(k->nres ? k->nres : 1, sizeof(*k->docs));
	k->runs = calloc(k->n ? k->n : 1, sizeof(*k->runs));
	k->meta = calloc(k->n ? k->n : 1, sizeof(*k->meta));
	k->notes = calloc(k->n ? k->n : 1, sizeof(*k->notes));
	if (!k->docs || !k->runs || !k->meta || !k->notes)
		goto nomem;
	for (unsigned i = 0; i < k->nres; i++)
		if ((code = load_result(k, i, key, path)))
			return code;
	for (unsigned i = 0; time && i < k->nrows; i++) {
		const struct sm_time_run *r = &k->rows[i].run;

		k->nruns = i + 1;
		if (sm_cmp_time_figs(&k->runs[i], r))
			goto nomem;
		if (r->term_signal)
			snprintf(k->notes[i], sizeof(k->notes[i]), "killed by signal %d", r->term_signal);
		else if (r->exit_code)
			snprintf(k->notes[i], sizeof(k->notes[i]), "exit %d", r->exit_code);
		k->meta[i] = (struct sm_history_run){ (long long)k->rows[i].id, k->rows[i].saved_at,
						      k->notes[i] };
	}
	return 0;
nomem:
	sm_error("out of memory");
	return SM_EXIT_FAIL;
}

/* A saved result read as `report` reads it (as compare does), then added
 * to side s (figures: its run's figures too). Returns 0, -ENOMEM, or
 * -EINVAL with why. */
static int side_doc(struct sm_cmp_side *s, const cJSON *doc, int figures, char *why, size_t len)
{
	struct sm_jerr e = { "" };
	int rc = sm_json_read_result(doc, &e);

	if (rc == -EINVAL)
		snprintf(why, len, "a result is not complete: %s", e.msg);
	return rc ? rc : sm_cmp_side_add_doc(s, doc, figures, why, len);
}

/* The first m runs of k against its last m, as compare compares two sides
 * (its Welch test): c filled and 0, or -EINVAL with why (no verdict; the
 * page says why), or -ENOMEM. */
static int halves(const struct key_runs *k, unsigned m, struct sm_cmp_side side[2],
		  struct sm_cmp *c, char *why, size_t len)
{
	int rc = 0;

	for (int sd = 0; sd < 2 && !rc; sd++) {
		unsigned from = sd ? k->n - m : 0, to = sd ? k->n : m;

		snprintf(side[sd].name, sizeof(side[sd].name), "%s", sd ? "last" : "first");
		if (!k->time) {
			for (unsigned i = from; i < to && !rc; i++)
				rc = side_doc(&side[sd], k->docs[i], 1, why, len);
			continue;
		}
		/* time: the figures from the runs' rows, the parameters and
		 * environment from the first and the newest result */
		if (k->nres)
			rc = side_doc(&side[sd], k->docs[sd ? k->nres - 1 : 0], 0, why, len);
		else
			side[sd].ndocs = 1;   /* schema 1 runs: no JSON */
		for (unsigned i = from; i < to && !rc; i++)
			rc = sm_cmp_side_add_time_run(&side[sd], &k->rows[i].run);
	}
	return rc ? rc : sm_cmp_compute(&side[0], &side[1], 0.05, c, why, len);
}

int sm_history_trend(struct sm_hdb *db, const char *path, const char *key, const char *cmd,
		     const char *html, int argc, char **argv)
{
	struct key_runs k;
	struct sm_cmp_side side[2];
	struct sm_cmp c;
	struct sm_trend t;
	struct sm_outfile of;
	char why[512] = "";
	unsigned m;
	int rc, code;
	FILE *h;

	memset(side, 0, sizeof(side));
	memset(&c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	code = load(db, path, key, !strcmp(cmd, "time"), &k);
	if (code)
		goto out;
	m = sm_trend_halves(k.n);
	rc = m ? halves(&k, m, side, &c, why, sizeof(why)) : 0;
	if (rc == -ENOMEM || sm_trend_compute(cmd, k.runs, k.n, &t)) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
		goto out;
	}
	h = sm_outfile_fopen(&of, html, &code);
	if (h) {
		struct sm_history_trend p = {
			.db = path, .key = key, .timed = k.time && k.n ? k.rows[k.n - 1].command : NULL,
			.t = &t, .runs = k.meta, .k = m, .cmp = m && !rc ? &c : NULL, .why = why,
			.argc = argc, .argv = argv,
		};

		sm_history_print_trend(h, &p);
		code = sm_outfile_fclose(&of, h, 0);
	}
	if (code) {
		sm_error("cannot write --html '%s': %s", html, strerror(-code));
		code = SM_EXIT_FAIL;
	}
out:
	sm_trend_release(&t);
	sm_cmp_release(&c);
	sm_cmp_side_release(&side[0]);
	sm_cmp_side_release(&side[1]);
	key_runs_release(&k);
	return code;
}
