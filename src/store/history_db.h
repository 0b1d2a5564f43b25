/* SPDX-License-Identifier: MIT */
/* The history of `stormark time --save KEY` runs in a SQLite database:
 * one row per run, one row per measured figure. */
#ifndef SM_HISTORY_DB_H
#define SM_HISTORY_DB_H

#include <stddef.h>
#include <stdint.h>

#include "result/timefig.h"

#define SM_HDB_SCHEMA 1

struct sm_hdb;   /* an open database (opaque) */

/* One saved run. */
struct sm_hdb_row {
	int64_t id;
	char saved_at[32];          /* ISO 8601 UTC */
	char command[512];
	struct sm_time_run run;     /* figures not stored are marked missing */
};

/* A key with its number of runs and the last time one was saved. */
struct sm_hdb_key {
	char key[128];
	unsigned runs;
	char last[32];
};

/* $XDG_DATA_HOME/stormark/history.db, or ~/.local/share/stormark/history.db
 * when XDG_DATA_HOME is unset or not absolute. Returns 0, or -ENOENT when
 * neither XDG_DATA_HOME nor HOME is usable. */
int sm_hdb_default_path(char *buf, size_t len);

/*
 * Open the database at path. With create, missing parent directories and
 * the file are created; without, a missing file is -ENOENT. The schema is
 * checked (created when empty) inside a transaction; a file that is not a
 * stormark history database is refused, never rewritten. Waits up to
 * busy_ms for a lock. Returns 0 with *out set, or a negative code with a
 * one-line reason in err.
 */
int sm_hdb_open(const char *path, int create, unsigned busy_ms, struct sm_hdb **out,
		char *err, size_t errlen);

/* Close the database (NULL is fine). */
void sm_hdb_close(struct sm_hdb *db);

/* Save runs[0..n) under key in one transaction: either all are stored or
 * none (earlier runs are never touched). Returns 0 or negative with err. */
int sm_hdb_save(struct sm_hdb *db, const char *key, const char *command,
		const struct sm_time_run *runs, unsigned n, char *err, size_t errlen);

/* All keys, sorted by name, into a new array (caller frees).
 * Returns 0 or negative with err. */
int sm_hdb_keys(struct sm_hdb *db, struct sm_hdb_key **keys, unsigned *n,
		char *err, size_t errlen);

/* The runs saved under key, oldest first, into a new array (caller frees;
 * *n is 0 for an unknown key). Returns 0 or negative with err. */
int sm_hdb_load(struct sm_hdb *db, const char *key, struct sm_hdb_row **rows,
		unsigned *n, char *err, size_t errlen);

#endif
