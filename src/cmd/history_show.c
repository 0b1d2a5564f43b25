/* SPDX-License-Identifier: MIT */
/* stormark history's tables (history_show.h): the keys saved, a key's runs
 * in the table of its command, two time keys compared figure by figure.
 * The options, the export and the trend page are history.c's. */
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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Trimmed mean of figure f over rows; *ok is 0 when no row measured it. */
static double tmean(const struct sm_hdb_row *rows, unsigned n, enum sm_tf f, int *ok)
{
	return sm_tf_trimmed(n ? &rows[0].run : NULL, sizeof(*rows), n, f, ok);
}

static const char *cell(char *buf, size_t len, const struct sm_hdb_row *rows, unsigned n,
			enum sm_tf f)
{
	int ok;
	double m = tmean(rows, n, f, &ok);

	return ok ? sm_tf_format(buf, len, f, m) : "n/a";
}

/* CSV: a time figure's unit, and its value as a plain number in it
 * (times in seconds, rates in MiB/s, bytes and counts as they are). */
static const char *tf_csv_unit(enum sm_tf f)
{
	switch (sm_tf_desc[f].unit) {
	case SM_TFU_NS: return "s";
	case SM_TFU_PCT: return "%";
	case SM_TFU_BYTES: return "bytes";
	case SM_TFU_BPS: return "MiB/s";
	case SM_TFU_MS: return "ms";
	default: return "";
	}
}

static const char *tf_csv(char *buf, size_t len, enum sm_tf f, double v)
{
	switch (sm_tf_desc[f].unit) {
	case SM_TFU_NS: return sm_history_plain(buf, len, v / 1e9, 9);
	case SM_TFU_BPS: return sm_history_plain(buf, len, v / 1048576.0, 3);
	default: return sm_history_plain(buf, len, v, 3);
	}
}

/* The trimmed mean of f as a CSV cell ("" when no row measured it). */
static const char *cell_csv(char *buf, size_t len, const struct sm_hdb_row *rows, unsigned n,
			    enum sm_tf f)
{
	int ok;
	double m = tmean(rows, n, f, &ok);

	return ok ? tf_csv(buf, len, f, m) : "";
}

/* The figures of a saved JSON text (one run; time's are read from its
 * rows instead). Returns 0 with *runs set (sm_cmp_runs_free), or the exit
 * code after one line naming the result. */
static int result_figs(const struct sm_hdb_result *r, const char *key, const char *path,
		       cJSON **doc, struct sm_cmp_run **runs, unsigned *n)
{
	struct sm_jerr e = { "" };
	char why[256];

	*doc = NULL;
	*runs = NULL;
	*n = 0;
	if (sm_json_parse_text(r->json, key, doc, &e) ||
	    sm_cmp_doc_figures(*doc, runs, n, why, sizeof(why))) {
		sm_error("result %lld under key '%s' in '%s' cannot be read: %s", (long long)r->id, key,
			 path, e.msg[0] ? e.msg : why);
		cJSON_Delete(*doc);
		*doc = NULL;
		return SM_EXIT_FAIL;
	}
	return 0;
}

/* The newest result's headline for the key listing, into buf. */
static void headline(struct sm_hdb *db, const struct sm_hdb_key *k, char *buf, size_t len)
{
	struct sm_hdb_result *res = NULL;
	unsigned n = 0;
	cJSON *doc = NULL;
	char err[256];

	snprintf(buf, len, "-");
	if (!sm_hdb_load_results(db, k->key, &res, &n, err, sizeof(err)) && n &&
	    !sm_json_parse_text(res[n - 1].json, k->key, &doc, &(struct sm_jerr){ "" }))
		sm_history_headline(doc, k->command, buf, len);
	cJSON_Delete(doc);
	sm_hdb_results_free(res, n);
}

/* The key column is as wide as the longest key, at most 16 (a longer key
 * stands on a line of its own above its row: report/table.c). */
static const struct sm_table_col key_cols[] = {
	{ "key", 24, 1, "" }, { "command", 7, 1, " " }, { "runs", 5, 0, " " },
	{ "last saved", 20, 1, "  " }, { "newest run", 0, 1, "  " },
};

/* CSV of the key listing: the newest run's headline split into numbers,
 * each in a column of its unit (frames: frame rate and throughput; fileio:
 * throughput and IOPS; time: the trimmed mean wall time; run: its
 * directory). */
static const struct sm_table_col key_csv_cols[] = {
	{ "key", 0, 1, "" }, { "command", 0, 1, "" }, { "runs", 0, 0, "" }, { "last saved", 0, 1, "" },
	{ "frame rate (frames/s)", 0, 0, "" }, { "throughput (MiB/s)", 0, 0, "" },
	{ "IOPS (/s)", 0, 0, "" }, { "wall trimmed mean (s)", 0, 0, "" }, { "dir", 0, 1, "" },
};

static int list_keys_csv(struct sm_hdb *db, const char *path)
{
	struct sm_hdb_key *keys;
	unsigned n;
	char err[256], runs[16], fr[48], bw[48], io[48], wall[48], tmp[48], dir[4100];
	int rc = sm_hdb_keys(db, &keys, &n, err, sizeof(err));
	struct sm_table t = { stdout, SM_TABLE_CSV, key_csv_cols, 9 };

	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	sm_table_head(&t);   /* an empty table, not an empty file */
	for (unsigned i = 0; i < n; i++) {
		fr[0] = bw[0] = io[0] = wall[0] = dir[0] = '\0';
		if (!strcmp(keys[i].command, "time")) {
			struct sm_hdb_row *rows;
			unsigned m;

			rc = sm_hdb_load(db, keys[i].key, &rows, &m, err, sizeof(err));
			if (rc) {
				sm_error("cannot read history database '%s': %s", path, err);
				free(keys);
				return SM_EXIT_FAIL;
			}
			cell_csv(wall, sizeof(wall), rows, m, SM_TF_WALL_NS);
			free(rows);
		} else {
			struct sm_hdb_result *res = NULL;
			struct sm_cmp_run *runs_ = NULL;
			unsigned nres = 0, nr = 0;
			cJSON *doc = NULL;

			if (!sm_hdb_load_results(db, keys[i].key, &res, &nres, err, sizeof(err)) && nres &&
			    !sm_json_parse_text(res[nres - 1].json, keys[i].key, &doc,
						&(struct sm_jerr){ "" })) {
				if (!strcmp(keys[i].command, "run")) {
					const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
						cJSON_GetObjectItemCaseSensitive(doc, "params"), "dir"));

					snprintf(dir, sizeof(dir), "%s", d ? d : "");
				} else if (!sm_cmp_doc_figures(doc, &runs_, &nr, err, sizeof(err)) && nr) {
					char *rate = !strcmp(keys[i].command, "frames") ? fr
						     : !strcmp(keys[i].command, "fileio") ? io : NULL;

					snprintf(bw, sizeof(bw), "%s", sm_history_csv_cell(tmp, sizeof(tmp),
								&runs_[0], "totals.bytes_per_s"));
					if (rate)
						snprintf(rate, sizeof(fr), "%s", sm_history_csv_cell(tmp,
								sizeof(tmp), &runs_[0],
								rate == io ? "fileio.iops" : "totals.items_per_s"));
				}
			}
			sm_cmp_runs_free(runs_, nr);
			cJSON_Delete(doc);
			sm_hdb_results_free(res, nres);
		}
		snprintf(runs, sizeof(runs), "%u", keys[i].runs);
		sm_table_row(&t, (const char *const[]){ keys[i].key, keys[i].command, runs, keys[i].last,
							fr, bw, io, wall, dir });
	}
	free(keys);
	return SM_EXIT_OK;
}

static int list_keys(struct sm_hdb *db, const char *path, enum sm_table_style st)
{
	struct sm_hdb_key *keys;
	unsigned n;
	char err[256], head[160], title[4200], runs[16];
	int rc = sm_hdb_keys(db, &keys, &n, err, sizeof(err)), times = 0;
	struct sm_table_col kc[5];
	struct sm_table t = { stdout, st, kc, 5 };

	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	memcpy(kc, key_cols, sizeof(kc));
	kc[0].width = 3;
	for (unsigned i = 0; i < n; i++)
		if (strlen(keys[i].key) > (size_t)kc[0].width)
			kc[0].width = strlen(keys[i].key) > 16 ? 16 : (int)strlen(keys[i].key);
	snprintf(title, sizeof(title), "history: %s", path);
	sm_table_title(&t, title);
	if (n || st == SM_TABLE_CSV)
		sm_table_head(&t);   /* csv: an empty table, not an empty file */
	if (!n)
		sm_table_note(&t, "no runs saved yet");
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(keys[i].command, "time")) {
			struct sm_hdb_row *rows;
			unsigned m;

			rc = sm_hdb_load(db, keys[i].key, &rows, &m, err, sizeof(err));
			if (rc) {
				sm_error("cannot read history database '%s': %s", path, err);
				free(keys);
				return SM_EXIT_FAIL;
			}
			snprintf(head, sizeof(head), "wall %s", cell(err, sizeof(err), rows, m,
								      SM_TF_WALL_NS));
			free(rows);
			times = 1;
		} else {
			headline(db, &keys[i], head, sizeof(head));
		}
		snprintf(runs, sizeof(runs), "%u", keys[i].runs);
		sm_table_row(&t, (const char *const[]){ keys[i].key, keys[i].command, runs, keys[i].last,
							head });
	}
	if (times)
		sm_table_note(&t, "(trimmed means: a time key's newest run column is the mean wall time of "
			      "its runs, the fastest and slowest 10% of them dropped)");
	free(keys);
	return SM_EXIT_OK;
}

/* The columns of a key's table for a command other than time: figure names
 * (analysis/compare.c) and headings. */
struct column {
	const char *name, *head, *csv_head;   /* csv_head: with the unit of its numbers */
};
static const struct column frames_cols[] = {
	{ "totals.items_per_s", "frame rate", "frame rate (frames/s)" },
	{ "totals.bytes_per_s", "throughput", "throughput (MiB/s)" },
	{ "frames.dropped", "dropped", "dropped (frames)" },
	{ "ops.frame.p50", "frame p50", "frame p50 (ms)" },
	{ "ops.frame.p99", "frame p99", "frame p99 (ms)" },
	{ "ops.frame.max", "frame max", "frame max (ms)" }, { NULL, NULL, NULL },
};
static const struct column fileio_cols[] = {
	{ "totals.bytes_per_s", "throughput", "throughput (MiB/s)" },
	{ "fileio.iops", "IOPS", "IOPS (/s)" },   /* reads and writes, no fsync */
	{ "fileio.reads_per_s", "reads/s", "reads (/s)" },
	{ "fileio.writes_per_s", "writes/s", "writes (/s)" },
	{ "fileio.event.p95", "event p95", "event p95 (ms)" },
	{ "fileio.event.p99", "event p99", "event p99 (ms)" }, { NULL, NULL, NULL },
};

/* One table of a key's results: the run, its time saved (with_saved),
 * the figures cols[first, last) (none: a run key's summary), the note. */
static int results_table(const struct sm_hdb_result *res, unsigned n, const char *key, const char *path,
			 const struct column *cols, unsigned first, unsigned last, int with_saved,
			 enum sm_table_style st)
{
	struct sm_table_col tc[12] = { { "run", 6, 0, "" } };
	struct sm_table t = { stdout, st, tc, 1 };
	const char *cells[12];
	char cbuf[10][48], buf[48];
	int code = SM_EXIT_OK;

	if (with_saved)
		tc[t.ncols++] = (struct sm_table_col){ "saved", 20, 1, "  " };
	for (unsigned j = first; cols && j < last; j++)
		tc[t.ncols++] = (struct sm_table_col){ st == SM_TABLE_CSV ? cols[j].csv_head : cols[j].head,
						       12, 0, " " };
	if (!cols)
		tc[t.ncols++] = (struct sm_table_col){ "summary", 0, 1, "  " };
	tc[t.ncols++] = (struct sm_table_col){ st == SM_TABLE_TEXT ? "" : "note", 0, 1, "  " };
	/* ^ (interrupted) */
	sm_table_head(&t);
	for (unsigned i = 0; i < n && code == SM_EXIT_OK; i++) {
		struct sm_cmp_run *runs;
		unsigned nr, k = 0;
		cJSON *doc;

		code = result_figs(&res[i], key, path, &doc, &runs, &nr);
		if (code)
			break;
		snprintf(cbuf[0], sizeof(cbuf[0]), "%lld", (long long)res[i].id);
		cells[k++] = cbuf[0];
		if (with_saved)
			cells[k++] = res[i].saved_at;
		for (unsigned j = first; cols && j < last; j++, k++)
			cells[k] = strcpy(cbuf[k], st == SM_TABLE_CSV
					  ? sm_history_csv_cell(buf, sizeof(buf), nr ? &runs[0] : NULL, cols[j].name)
					  : sm_history_cell(buf, sizeof(buf), nr ? &runs[0] : NULL, cols[j].name));
		if (!cols) {
			const char *sum = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(doc, "run"), "summary"));

			cells[k++] = sum ? sum : "-";
		}
		cells[k] = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")) ?
			   "(interrupted)" : "";
		sm_table_row(&t, cells);
		sm_cmp_runs_free(runs, nr);
		cJSON_Delete(doc);
	}
	return code;
}

/* A key of frames, fileio or run: one row per saved result. The text
 * fits 80 columns: its six figures in two tables of three (the second
 * by run number alone), a run key's summary wrapped under its column. */
static int show_results(struct sm_hdb *db, const char *path, const char *key, const char *cmd,
			enum sm_table_style st)
{
	const struct column *cols = !strcmp(cmd, "frames") ? frames_cols
				    : !strcmp(cmd, "fileio") ? fileio_cols : NULL;
	struct sm_hdb_result *res;
	unsigned n, ncols = 0;
	char err[256], title[4400];
	int rc = sm_hdb_load_results(db, key, &res, &n, err, sizeof(err)), code;

	if (rc) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	while (cols && cols[ncols].name && ncols < 8)
		ncols++;
	/* results, not runs: a `run` key had "1 run run" */
	snprintf(title, sizeof(title), "history: %s, key '%s', %u %s result%s", path, key, n, cmd,
		 n == 1 ? "" : "s");
	sm_table_title(&(struct sm_table){ stdout, st, NULL, 0 }, title);
	if (st == SM_TABLE_TEXT && ncols > 3) {
		code = results_table(res, n, key, path, cols, 0, 3, 1, st);
		if (!code) {
			fputc('\n', stdout);
			code = results_table(res, n, key, path, cols, 3, ncols, 0, st);
		}
	} else {
		code = results_table(res, n, key, path, cols, 0, ncols, 1, st);
	}
	sm_hdb_results_free(res, n);
	return code;
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

static void fig(char *buf, size_t len, const struct sm_time_run *run, enum sm_tf f, int csv)
{
	if (run->missing & SM_TF_BIT(f))
		snprintf(buf, len, "%s", csv ? "" : "n/a");
	else if (csv)
		tf_csv(buf, len, f, run->v[f]);
	else
		sm_tf_format(buf, len, f, run->v[f]);
}

/* The trimmed mean's cell in st's way. */
static const char *mean_cell(char *buf, size_t len, const struct sm_hdb_row *rows, unsigned n,
			     enum sm_tf f, enum sm_table_style st)
{
	return st == SM_TABLE_CSV ? cell_csv(buf, len, rows, n, f) : cell(buf, len, rows, n, f);
}

static const struct sm_table_col time_cols[] = {
	{ "run", 6, 0, "" }, { "saved", 20, 1, "  " }, { "exit", 4, 0, " " }, { "wall", 11, 0, " " },
	{ "user CPU", 11, 0, " " }, { "system CPU", 11, 0, " " }, { "syscalls", 10, 0, " " },
	{ "storage read", 12, 0, " " }, { "storage write", 12, 0, " " },
};

static const struct sm_table_col time_csv_cols[] = {
	{ "run", 0, 0, "" }, { "saved", 0, 1, "" }, { "exit", 0, 0, "" }, { "wall (s)", 0, 0, "" },
	{ "user CPU (s)", 0, 0, "" }, { "system CPU (s)", 0, 0, "" }, { "syscalls", 0, 0, "" },
	{ "storage read (bytes)", 0, 0, "" }, { "storage write (bytes)", 0, 0, "" },
};

/* The rows of a time key's table: its columns sel[0..nsel) of time_cols
 * (or time_csv_cols), each run then the trimmed mean. */
static void time_table(const struct sm_hdb_row *rows, unsigned n, enum sm_table_style st,
		       const unsigned *sel, unsigned nsel)
{
	static const enum sm_tf figs[] = { SM_TF_WALL_NS, SM_TF_USER_NS, SM_TF_SYS_NS, SM_TF_SYSCALLS,
					   SM_TF_STORAGE_READ_BYTES, SM_TF_STORAGE_WRITE_BYTES };
	int csv = st == SM_TABLE_CSV;
	struct sm_table_col tc[9];
	struct sm_table t = { stdout, st, tc, nsel };
	char buf[9][48];
	const char *cells[9];

	for (unsigned k = 0; k < nsel; k++)
		tc[k] = (csv ? time_csv_cols : time_cols)[sel[k]];
	tc[0].sep = "";
	sm_table_head(&t);
	for (unsigned i = 0; i <= n; i++) {   /* i == n: the trimmed mean */
		for (unsigned k = 0; k < nsel; k++) {
			unsigned c = sel[k];

			cells[k] = buf[k];
			buf[k][0] = '\0';
			if (c == 0 && i < n)
				snprintf(buf[k], sizeof(buf[k]), "%lld", (long long)rows[i].id);
			else if (c == 0 && nsel > 1 && sel[1] != 1)   /* no "saved" column to say it */
				cells[k] = "mean";
			else if (c == 1)
				cells[k] = i < n ? rows[i].saved_at : "trimmed mean";
			else if (c == 2 && i < n)
				snprintf(buf[k], sizeof(buf[k]), "%d", rows[i].run.exit_code);
			else if (c >= 3 && i < n)
				fig(buf[k], sizeof(buf[k]), &rows[i].run, figs[c - 3], csv);
			else if (c >= 3)
				mean_cell(buf[k], sizeof(buf[k]), rows, n, figs[c - 3], st);
		}
		sm_table_row(&t, cells);
	}
}

/* A time key: one row per run. The text fits 80 columns: the times in a
 * first table, the calls and storage bytes in a second (by run number,
 * the trimmed mean last in each). */
static int show_key(struct sm_hdb *db, const char *path, const char *key, enum sm_table_style st)
{
	static const unsigned all[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, times[] = { 0, 1, 2, 3, 4, 5 },
			      io[] = { 0, 6, 7, 8 };
	struct sm_hdb_row *rows;
	unsigned n;
	char title[8400], cmdline[4 * 512 + 1];
	int rc = load(db, path, key, &rows, &n);

	if (rc)
		return rc;
	/* the saved command line with its control characters escaped */
	(void)sm_escape_ctl(cmdline, sizeof(cmdline), rows[n - 1].command);
	snprintf(title, sizeof(title), "history: %s, key '%s', %u run%s of: %s", path, key, n,
		 n == 1 ? "" : "s", cmdline);
	sm_table_title(&(struct sm_table){ stdout, st, NULL, 0 }, title);
	if (st == SM_TABLE_TEXT) {
		time_table(rows, n, st, times, 6);
		fputc('\n', stdout);
		time_table(rows, n, st, io, 4);
	} else {
		time_table(rows, n, st, all, 9);
	}
	free(rows);
	return SM_EXIT_OK;
}

int sm_history_compare(struct sm_hdb *db, const char *path, const char *k1, const char *k2,
		       enum sm_table_style st)
{
	struct sm_hdb_row *r1 = NULL, *r2 = NULL;
	unsigned n1, n2;
	char a[48], b[48], ch[24], title[4400], note[400];
	const struct sm_table_col cols[] = {
		{ "figure", 26, 1, "" }, { k1, 14, 0, " " }, { k2, 14, 0, " " }, { "change", 9, 0, " " },
	};
	/* CSV: numbers, the unit of a row's in its own column */
	const struct sm_table_col csv_cols[] = {
		{ "figure", 0, 1, "" }, { "unit", 0, 1, "" }, { k1, 0, 0, "" }, { k2, 0, 0, "" },
		{ "change (%)", 0, 0, "" },
	};
	int csv = st == SM_TABLE_CSV;
	struct sm_table t = { stdout, st, csv ? csv_cols : cols, csv ? 5 : 4 };
	int rc = load(db, path, k1, &r1, &n1);

	if (!rc)
		rc = load(db, path, k2, &r2, &n2);
	if (rc)
		goto out;
	snprintf(title, sizeof(title), "history: %s; trimmed means of '%s' (%u runs) and '%s' (%u runs)",
		 path, k1, n1, k2, n2);
	sm_table_title(&t, title);
	sm_table_head(&t);
	for (int f = 0; f < SM_TF_COUNT; f++) {
		int ok1, ok2;
		double m1 = tmean(r1, n1, f, &ok1), m2 = tmean(r2, n2, f, &ok2);

		if (!ok1 && !ok2)
			continue;
		if (csv) {
			if (ok1 && ok2 && m1 != 0)
				sm_history_plain(ch, sizeof(ch), 100.0 * (m2 - m1) / m1, 3);
			else
				snprintf(ch, sizeof(ch), "%s", ok1 && ok2 && m2 == m1 ? "0" : "");
			sm_table_row(&t, (const char *const[]){ sm_tf_desc[f].label, tf_csv_unit(f),
				     ok1 ? tf_csv(a, sizeof(a), f, m1) : "",
				     ok2 ? tf_csv(b, sizeof(b), f, m2) : "", ch });
			continue;
		}
		if (ok1 && ok2 && m1 != 0)
			snprintf(ch, sizeof(ch), "%+8.1f%%", 100.0 * (m2 - m1) / m1);
		else
			snprintf(ch, sizeof(ch), "%s", ok1 && ok2 && m2 == m1 ? "=" : "-");
		sm_table_row(&t, (const char *const[]){ sm_tf_desc[f].label,
			     ok1 ? sm_tf_format(a, sizeof(a), f, m1) : "n/a",
			     ok2 ? sm_tf_format(b, sizeof(b), f, m2) : "n/a", ch });
	}
	snprintf(note, sizeof(note), "(change is %s relative to %s; trimmed means drop the fastest and "
		 "slowest 10%%)", k2, k1);
	sm_table_note(&t, note);
out:
	free(r1);
	free(r2);
	return rc;
}

/* KEY: its runs in the table of its command. */
int sm_history_show(struct sm_hdb *db, const char *path, const char *key, enum sm_table_style st)
{
	char err[256], cmd[32];

	if (sm_hdb_key_command(db, key, cmd, sizeof(cmd), err, sizeof(err))) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
	if (!cmd[0]) {
		sm_error("no runs saved under key '%s' in '%s'", key, path);
		return SM_EXIT_FAIL;
	}
	return !strcmp(cmd, "time") ? show_key(db, path, key, st) : show_results(db, path, key, cmd, st);
}

int sm_history_keys(struct sm_hdb *db, const char *path, enum sm_table_style st)
{
	return st == SM_TABLE_CSV ? list_keys_csv(db, path) : list_keys(db, path, st);
}

void sm_history_no_keys(const char *path, enum sm_table_style st)
{
	char title[4200];
	struct sm_table t = { stdout, st, st == SM_TABLE_CSV ? key_csv_cols : key_cols,
			      st == SM_TABLE_CSV ? 9 : 5 };

	snprintf(title, sizeof(title), "history: %s", path);
	sm_table_title(&t, title);
	if (st == SM_TABLE_CSV)
		sm_table_head(&t);   /* an empty table, not an empty file */
	sm_table_note(&t, "no runs saved yet");
}
