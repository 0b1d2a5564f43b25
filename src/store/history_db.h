/* SPDX-License-Identifier: MIT */
/* The history of `--save KEY` in a SQLite database: every saved result
 * whole (its JSON), and for `time` one row per run and per measured figure.
 * A key holds the runs of one command. */
#ifndef SM_HISTORY_DB_H
#define SM_HISTORY_DB_H

#include <stddef.h>
#include <stdint.h>

#include "result/timefig.h"

/* 1: time's runs and figures; 2: + results (whole JSON of any command),
 * runs.result_id. A schema 1 file is read as it is and migrated by the
 * first save (sm_hdb_open with create), its rows kept. */
#define SM_HDB_SCHEMA 2

struct sm_hdb;   /* an open database (opaque) */

/* One saved run. */
struct sm_hdb_row {
	int64_t id;
	char saved_at[32];          /* ISO 8601 UTC */
	char command[512];
	struct sm_time_run run;     /* figures not stored are marked missing */
};

/* One saved result: the JSON the command's --json writes. */
struct sm_hdb_result {
	int64_t id;
	char saved_at[32];          /* ISO 8601 UTC */
	char command[16];           /* frames, fileio, run, time */
	char *json;                 /* owned (sm_hdb_results_free) */
};

/* A key with its command, its number of runs (time: measured runs; the
 * others: saved results) and the last time one was saved. */
struct sm_hdb_key {
	char key[128];
	char command[16];
	unsigned runs;
	char last[32];
};

/* $XDG_DATA_HOME/stormark/history.db, or ~/.local/share/stormark/history.db
 * when XDG_DATA_HOME is unset or not absolute. Returns 0, or -ENOENT when
 * neither XDG_DATA_HOME nor HOME is usable. */
int sm_hdb_default_path(char *buf, size_t len);

/*
 * Open the database at path. With create, a missing file is checked to be
 * creatable (its nearest existing directory writable) but created, with
 * its missing parent directories, only by the first save, so a command
 * that saves nothing leaves no empty database behind; without create, a
 * missing file is -ENOENT. The schema is
 * checked (created when empty) inside a transaction; a file that is not a
 * stormark history database is refused, never rewritten. Waits up to
 * busy_ms for a lock. Returns 0 with *out set, or a negative code with a
 * one-line reason in err.
 */
int sm_hdb_open(const char *path, int create, unsigned busy_ms, struct sm_hdb **out,
		char *err, size_t errlen);

/*
 * From now on, wait for a lock on h as long as it takes (a result to store
 * is never given up): notice(arg) is called once, from the waiting
 * thread, when a wait has lasted a second. notice NULL: no call.
 */
void sm_hdb_wait_always(struct sm_hdb *h, void (*notice)(void *arg), void *arg);

/* Close the database (NULL is fine). */
void sm_hdb_close(struct sm_hdb *db);

/* Save time's runs[0..n) under key in one transaction, with the whole
 * result's json (NULL: none): either all are stored or none (earlier runs
 * are never touched). command is the timed command line. Returns 0, or
 * negative with err: -EEXIST when key holds another command's runs. */
int sm_hdb_save(struct sm_hdb *db, const char *key, const char *command,
		const struct sm_time_run *runs, unsigned n, const char *json,
		char *err, size_t errlen);

/* Save one result of command ("frames", "fileio", "run") under key, as
 * sm_hdb_save() does. Returns 0, or negative with err (-EEXIST: key holds
 * another command's runs). */
int sm_hdb_save_result(struct sm_hdb *db, const char *key, const char *command,
		       const char *json, char *err, size_t errlen);

/* The command whose runs key holds into cmd ("" for an unknown key).
 * Returns 0 or negative with err. */
int sm_hdb_key_command(struct sm_hdb *db, const char *key, char *cmd, size_t len,
		       char *err, size_t errlen);

/* Each result saved under key, oldest first, handed to fn as its JSON
 * text (len bytes, valid during the call only), one at a time, so that
 * what loading them all would take can be counted first. Returns 0 or
 * negative with err. */
int sm_hdb_each_result(struct sm_hdb *db, const char *key,
		       void (*fn)(const char *json, size_t len, void *arg), void *arg,
		       char *err, size_t errlen);

/* The whole results saved under key, oldest first, into a new array
 * (sm_hdb_results_free; *n is 0 for an unknown key and for time runs saved
 * by schema 1). Returns 0 or negative with err. */
int sm_hdb_load_results(struct sm_hdb *db, const char *key, struct sm_hdb_result **rows,
			unsigned *n, char *err, size_t errlen);
void sm_hdb_results_free(struct sm_hdb_result *rows, unsigned n);

/* All keys, sorted by name, into a new array (caller frees).
 * Returns 0 or negative with err. */
int sm_hdb_keys(struct sm_hdb *db, struct sm_hdb_key **keys, unsigned *n,
		char *err, size_t errlen);

/* The time runs saved under key, oldest first, into a new array (caller frees;
 * *n is 0 for an unknown key). Returns 0 or negative with err. */
int sm_hdb_load(struct sm_hdb *db, const char *key, struct sm_hdb_row **rows,
		unsigned *n, char *err, size_t errlen);

/*
 * The history as one JSON document (docs/history.md; history_json.c): the
 * keys of db (NULL: a database not made yet, no keys), or with key that
 * key's saved results whole and, for time, its runs with their figures;
 * path is the database's name in it. Returns the document (caller frees),
 * or NULL with *rc: the database's failure (its reason in err), a saved
 * result that is not JSON (-EBADMSG, err names the run), else -ENOENT
 * (nothing saved under key) or -ENOMEM (err left empty).
 */
struct cJSON;
struct cJSON *sm_hdb_export(struct sm_hdb *db, const char *path, const char *key, int *rc, char *err,
			    size_t len);

#endif
