/* SPDX-License-Identifier: MIT */
/* SQLite storage of saved results (every command's --save). Every change
 * is one transaction and a database that fails its checks is reported,
 * never repaired or replaced; a schema 1 file (time's runs only) is
 * migrated in place by the first save, inside that transaction. */
#include "store/history_db.h"
#include "core/clock.h"
#include "core/fsx.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct sm_hdb {
	sqlite3 *db;   /* NULL while a database opened to create is not created yet */
	char *path;    /* that database's path, until its first write creates it */
	unsigned busy_ms;
	int version;   /* the file's schema: 1 (read as it is) or 2 */
	/* sm_hdb_wait_always(): said once after a second of one wait */
	void (*notice)(void *arg);
	void *notice_arg;
	unsigned waited;   /* naps of the current wait */
	int noticed;
	int forever;       /* sm_hdb_wait_always() was called */
};

/* Schema 1 (stormark time only, kept as it was): runs and figures. */
static const char schema1_sql[] =
	"CREATE TABLE IF NOT EXISTS runs("
	"  id INTEGER PRIMARY KEY,"
	"  key TEXT NOT NULL,"
	"  saved_at TEXT NOT NULL,"
	"  command TEXT NOT NULL,"
	"  exit_code INTEGER NOT NULL,"
	"  signal INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS runs_by_key ON runs(key, id);"
	"CREATE TABLE IF NOT EXISTS figures("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  name TEXT NOT NULL,"
	"  value REAL NOT NULL,"
	"  PRIMARY KEY(run_id, name));";

/* Schema 2 adds to schema 1, so the same SQL migrates a schema 1 file:
 * results (one whole JSON result per save, any command) and, for time's
 * runs, the result they came from (NULL for runs saved by schema 1). */
static const char schema2_sql[] =
	"CREATE TABLE IF NOT EXISTS results("
	"  id INTEGER PRIMARY KEY,"
	"  key TEXT NOT NULL,"
	"  command TEXT NOT NULL,"
	"  saved_at TEXT NOT NULL,"
	"  json TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS results_by_key ON results(key, id);"
	"ALTER TABLE runs ADD COLUMN result_id INTEGER REFERENCES results(id);"
	"PRAGMA user_version = 2;";

/* Map a SQLite result to -errno and put its message in err. */
static int fail(sqlite3 *db, int rc, const char *what, char *err, size_t errlen)
{
	int code = rc & 0xff;

	snprintf(err, errlen, "%s: %s", what,
		 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return -EBUSY;
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return -EBADMSG;
	if (code == SQLITE_CANTOPEN)
		return -ENOENT;
	if (code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_AUTH)
		return -EACCES;
	if (code == SQLITE_FULL)
		return -ENOSPC;
	return -EIO;
}

static int user_version(sqlite3 *db, int *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Make sure the schema is there (creating it in an empty file). */
static int check_schema(sqlite3 *db, int create, int *version, char *err, size_t errlen)
{
	int rc, v = 0;

	/* a writer locks first so two first saves cannot both create the
	 * schema; a reader only needs a consistent snapshot */
	rc = sqlite3_exec(db, create ? "BEGIN IMMEDIATE" : "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return fail(db, rc, create ? "cannot lock" : "cannot read", err, errlen);
	rc = user_version(db, &v);
	if (rc != SQLITE_OK) {
		rc = fail(db, rc, "cannot read", err, errlen);
		goto out;
	}
	if (v > SM_HDB_SCHEMA) {
		snprintf(err, errlen, "schema version %d is newer than this stormark (%d)",
			 v, SM_HDB_SCHEMA);
		rc = -EPROTO;
		goto out;
	}
	if (v == 0 || (v == 1 && create)) {
		sqlite3_stmt *st;
		int tables = 0;

		/* an empty file gets the schema; someone else's database does not */
		rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
		if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			tables = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (rc != SQLITE_OK) {
			rc = fail(db, rc, "cannot read", err, errlen);
			goto out;
		}
		if (tables && v == 0) {
			snprintf(err, errlen, "not a stormark history database (it has other tables)");
			rc = -EBADMSG;
			goto out;
		}
		if (!create) {
			snprintf(err, errlen, "no runs saved yet");
			rc = -ENOENT;
			goto out;
		}
		/* a schema 1 file gets schema 2's additions: its rows are kept */
		rc = v == 0 ? sqlite3_exec(db, schema1_sql, NULL, NULL, NULL) : SQLITE_OK;
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(db, schema2_sql, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			rc = fail(db, rc, v ? "cannot migrate the schema" : "cannot create the schema",
				  err, errlen);
			goto out;
		}
		v = SM_HDB_SCHEMA;
	}
	*version = v;
	rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : fail(db, rc, "cannot commit", err, errlen);
out:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* sm_hdb_wait_always()'s busy handler: 10 ms naps, the notice after 1 s. */
static int busy_forever(void *arg, int count)
{
	struct sm_hdb *h = arg;
	struct timespec nap = { 0, 10 * 1000 * 1000 };

	if (count == 0)
		h->waited = 0;
	nanosleep(&nap, NULL);
	if (++h->waited == 100 && h->notice && !h->noticed) {
		h->noticed = 1;
		h->notice(h->notice_arg);
	}
	return 1;
}

void sm_hdb_wait_always(struct sm_hdb *h, void (*notice)(void *arg), void *arg)
{
	if (!h)
		return;
	h->notice = notice;
	h->notice_arg = arg;
	h->forever = 1;
	if (h->db)
		sqlite3_busy_handler(h->db, busy_forever, h);
}

/* 0 when the missing file path could be created: its nearest existing
 * ancestor is a directory this process can write into; else -errno with
 * err set. Nothing is created. */
static int can_create(const char *path, char *err, size_t errlen)
{
	char dir[4096], *slash;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash) {
			snprintf(dir, sizeof(dir), ".");
			break;
		}
		if (slash == dir) {
			dir[1] = '\0';   /* "/" */
			break;
		}
		*slash = '\0';
		if (!stat(dir, &st))
			break;
		if (errno != ENOENT)
			break;   /* answered by the check below */
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot create it: '%s' is not a directory", dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		int e = errno;

		snprintf(err, errlen, "cannot create it in '%s': %s", dir, strerror(e));
		return -e;
	}
	return 0;
}

/* Open h->path's SQLite file (creating it with missing parent directories
 * when make is set), its busy wait and schema (check_schema()'s create).
 * 0, or -errno with err. */
static int open_file(struct sm_hdb *h, int make, int create, char *err, size_t errlen)
{
	int rc, flags = SQLITE_OPEN_READWRITE;

	if (make) {
		/* create missing parent directories (the default path often has none) */
		char dir[4096], *slash;

		snprintf(dir, sizeof(dir), "%s", h->path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0';
			rc = sm_mkdir_p(dir);
			if (rc) {
				snprintf(err, errlen, "cannot create directory '%s': %s", dir,
					 strerror(-rc));
				return rc;
			}
		}
		flags |= SQLITE_OPEN_CREATE;
	}
	rc = sqlite3_open_v2(h->path, &h->db, flags, NULL);
	if (rc != SQLITE_OK)
		return fail(h->db, rc, "cannot open", err, errlen);
	sqlite3_busy_timeout(h->db, (int)h->busy_ms);
	if (h->forever)
		sqlite3_busy_handler(h->db, busy_forever, h);
	sqlite3_exec(h->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return check_schema(h->db, create, &h->version, err, errlen);
}

/* A database opened to create: created now, by its first write. 0, or
 * -errno with err. */
static int created(struct sm_hdb *h, char *err, size_t errlen)
{
	int rc;

	if (h->db)
		return 0;
	rc = open_file(h, 1, 1, err, errlen);
	if (rc) {
		sqlite3_close(h->db);
		h->db = NULL;
	}
	return rc;
}

int sm_hdb_open(const char *path, int create, unsigned busy_ms, struct sm_hdb **out,
		char *err, size_t errlen)
{
	struct sm_hdb *h;
	struct stat st;
	int rc, missing = 0;

	*out = NULL;
	if (stat(path, &st)) {
		if (!create) {
			snprintf(err, errlen, "no history yet (the file does not exist)");
			return -ENOENT;
		}
		rc = can_create(path, err, errlen);
		if (rc)
			return rc;
		missing = 1;
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		return -EINVAL;
	}
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	h->busy_ms = busy_ms;
	if (missing) {
		/* created by the first write: a command that stores nothing
		 * leaves no empty database (and no directories) behind */
		h->version = SM_HDB_SCHEMA;
		*out = h;
		return 0;
	}
	rc = open_file(h, 0, create, err, errlen);
	if (rc)
		goto out;
	*out = h;
	return 0;
out:
	sm_hdb_close(h);
	return rc;
}

void sm_hdb_close(struct sm_hdb *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

/* The command of key's runs into cmd ("" when key has none). SQLite codes. */
static int key_command_sql(struct sm_hdb *h, const char *key, char *cmd, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, h->version >= 2 ?
				    "SELECT 'time' FROM runs WHERE key = ?1 UNION ALL"
				    " SELECT command FROM results WHERE key = ?1 LIMIT 1" :
				    "SELECT 'time' FROM runs WHERE key = ?1 LIMIT 1", -1, &st, NULL);

	cmd[0] = '\0';
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(cmd, len, "%s", (const char *)sqlite3_column_text(st, 0));
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int sm_hdb_key_command(struct sm_hdb *h, const char *key, char *cmd, size_t len,
		       char *err, size_t errlen)
{
	int rc;

	if (!h->db) {   /* not created yet: no key holds anything */
		cmd[0] = '\0';
		return 0;
	}
	rc = key_command_sql(h, key, cmd, len);

	return rc == SQLITE_OK ? 0 : fail(h->db, rc, "cannot read", err, errlen);
}

/* Inside a write transaction: refuse key when it holds another command's
 * runs, and insert the result row (json may be NULL: none, *id = 0).
 * Returns a SQLite code, or SQLITE_MISMATCH with err set. */
static int put_result(struct sm_hdb *h, const char *key, const char *command, const char *when,
		      const char *json, sqlite3_int64 *id, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char have[32];
	int rc = key_command_sql(h, key, have, sizeof(have));

	*id = 0;
	if (rc != SQLITE_OK)
		return rc;
	if (have[0] && strcmp(have, command)) {
		snprintf(err, errlen, "key '%s' holds %s runs, not %s ones: choose another key",
			 key, have, command);
		return SQLITE_MISMATCH;
	}
	if (!json)
		return SQLITE_OK;
	rc = sqlite3_prepare_v2(h->db, "INSERT INTO results(key, command, saved_at, json)"
				" VALUES(?, ?, ?, ?)", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, command, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, json, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	*id = sqlite3_last_insert_rowid(h->db);
	return SQLITE_OK;
}

/* Open a write transaction stamped with the time into when[32]: 0, or
 * -errno with err set (a schema 1 database is read-only, a locked one
 * busy). */
static int write_begin(struct sm_hdb *h, char *when, char *err, size_t errlen)
{
	int rc = created(h, err, errlen);

	if (rc)
		return rc;
	if (h->version < 2) {
		snprintf(err, errlen, "the database was opened read-only (schema 1)");
		return -EROFS;
	}
	sm_utc_iso8601(when, 32);
	rc = sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : fail(h->db, rc, "cannot lock", err, errlen);
}

/* Close the write transaction opened by write_begin(): commit when rc is
 * SQLITE_OK, else roll back. Returns 0, -EEXIST (SQLITE_MISMATCH: the key
 * holds another command's runs, err already set) or -errno with err set. */
static int write_end(struct sm_hdb *h, int rc, char *err, size_t errlen)
{
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return 0;
	rc = rc == SQLITE_MISMATCH ? -EEXIST : fail(h->db, rc, "cannot save", err, errlen);
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int sm_hdb_save_result(struct sm_hdb *h, const char *key, const char *command, const char *json,
		       char *err, size_t errlen)
{
	sqlite3_int64 id;
	char when[32];
	int rc = write_begin(h, when, err, errlen);

	if (rc)
		return rc;
	rc = put_result(h, key, command, when, json, &id, err, errlen);
	return write_end(h, rc, err, errlen);
}

int sm_hdb_save(struct sm_hdb *h, const char *key, const char *command,
		const struct sm_time_run *runs, unsigned n, const char *json,
		char *err, size_t errlen)
{
	sqlite3_stmt *run_st = NULL, *fig_st = NULL;
	sqlite3_int64 result_id = 0;
	char when[32];
	int rc = write_begin(h, when, err, errlen);

	if (rc)
		return rc;
	rc = put_result(h, key, "time", when, json, &result_id, err, errlen);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, "INSERT INTO runs(key, saved_at, command, exit_code,"
					" signal, result_id) VALUES(?, ?, ?, ?, ?, ?)", -1, &run_st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, "INSERT INTO figures(run_id, name, value)"
					" VALUES(?, ?, ?)", -1, &fig_st, NULL);
	for (unsigned k = 0; rc == SQLITE_OK && k < n; k++) {
		sqlite3_int64 id;

		sqlite3_reset(run_st);
		sqlite3_bind_text(run_st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(run_st, 2, when, -1, SQLITE_STATIC);
		sqlite3_bind_text(run_st, 3, command, -1, SQLITE_STATIC);
		sqlite3_bind_int(run_st, 4, runs[k].exit_code);
		sqlite3_bind_int(run_st, 5, runs[k].term_signal);
		if (result_id)
			sqlite3_bind_int64(run_st, 6, result_id);
		else
			sqlite3_bind_null(run_st, 6);
		rc = sqlite3_step(run_st);
		if (rc != SQLITE_DONE)
			break;
		rc = SQLITE_OK;
		id = sqlite3_last_insert_rowid(h->db);
		for (int f = 0; rc == SQLITE_OK && f < SM_TF_COUNT; f++) {
			if (runs[k].missing & SM_TF_BIT(f))
				continue;
			sqlite3_reset(fig_st);
			sqlite3_bind_int64(fig_st, 1, id);
			sqlite3_bind_text(fig_st, 2, sm_tf_desc[f].key, -1, SQLITE_STATIC);
			sqlite3_bind_double(fig_st, 3, runs[k].v[f]);
			rc = sqlite3_step(fig_st);
			rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		}
	}
	sqlite3_finalize(run_st);
	sqlite3_finalize(fig_st);
	return write_end(h, rc, err, errlen);
}

/* Double the array *a of *cap elements of size bytes (16 at first).
 * Returns 0, or -ENOMEM with *a unchanged. */
static int grow(void **a, unsigned *cap, size_t size)
{
	unsigned ncap = *cap ? *cap * 2 : 16;
	void *b = realloc(*a, ncap * size);

	if (!b)
		return -ENOMEM;
	*a = b;
	*cap = ncap;
	return 0;
}

int sm_hdb_keys(struct sm_hdb *h, struct sm_hdb_key **keys, unsigned *n,
		char *err, size_t errlen)
{
	sqlite3_stmt *st;
	struct sm_hdb_key *a = NULL;
	unsigned cap = 0;
	int rc;

	*keys = NULL;
	*n = 0;
	rc = sqlite3_prepare_v2(h->db, h->version >= 2 ?
				"SELECT key, 'time', count(*), max(saved_at) FROM runs GROUP BY key"
				" UNION ALL SELECT key, command, count(*), max(saved_at) FROM results"
				" WHERE command <> 'time' GROUP BY key, command ORDER BY 1, 2" :
				"SELECT key, 'time', count(*), max(saved_at) FROM runs"
				" GROUP BY key ORDER BY key", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fail(h->db, rc, "cannot read", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap && grow((void **)&a, &cap, sizeof(*a))) {
			rc = SQLITE_NOMEM;
			break;
		}
		snprintf(a[*n].key, sizeof(a[0].key), "%s", sqlite3_column_text(st, 0));
		snprintf(a[*n].command, sizeof(a[0].command), "%s", sqlite3_column_text(st, 1));
		a[*n].runs = (unsigned)sqlite3_column_int(st, 2);
		snprintf(a[*n].last, sizeof(a[0].last), "%s", sqlite3_column_text(st, 3));
		(*n)++;
	}
	if (rc != SQLITE_DONE) {
		rc = fail(h->db, rc, "cannot read", err, errlen);
		free(a);
		a = NULL;
		*n = 0;
	} else {
		rc = 0;
	}
	sqlite3_finalize(st);
	*keys = a;
	return rc;
}

int sm_hdb_load(struct sm_hdb *h, const char *key, struct sm_hdb_row **rows,
		unsigned *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL, *fs = NULL;
	struct sm_hdb_row *a = NULL;
	unsigned cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	rc = sqlite3_prepare_v2(h->db, "SELECT id, saved_at, command, exit_code, signal FROM runs"
				" WHERE key = ? ORDER BY id", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, "SELECT name, value FROM figures WHERE run_id = ?",
					-1, &fs, NULL);
	if (rc != SQLITE_OK)
		goto out;
	sqlite3_exec(h->db, "BEGIN", NULL, NULL, NULL);   /* one consistent snapshot */
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sm_hdb_row *r;

		if (*n == cap && grow((void **)&a, &cap, sizeof(*a))) {
			rc = SQLITE_NOMEM;
			break;
		}
		r = &a[*n];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		snprintf(r->saved_at, sizeof(r->saved_at), "%s", sqlite3_column_text(st, 1));
		snprintf(r->command, sizeof(r->command), "%s", sqlite3_column_text(st, 2));
		r->run.exit_code = sqlite3_column_int(st, 3);
		r->run.term_signal = sqlite3_column_int(st, 4);
		r->run.missing = ~UINT64_C(0);
		sqlite3_reset(fs);
		sqlite3_bind_int64(fs, 1, r->id);
		while ((rc = sqlite3_step(fs)) == SQLITE_ROW) {
			int f = sm_tf_find((const char *)sqlite3_column_text(fs, 0));

			if (f < 0)
				continue;   /* a figure from a newer stormark */
			r->run.v[f] = sqlite3_column_double(fs, 1);
			r->run.missing &= ~SM_TF_BIT(f);
		}
		if (rc != SQLITE_DONE)
			break;
		(*n)++;
	}
	sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
out:
	if (rc != SQLITE_DONE) {
		rc = fail(h->db, rc, "cannot read", err, errlen);
		free(a);
		a = NULL;
		*n = 0;
	} else {
		rc = 0;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(fs);
	*rows = a;
	return rc;
}

void sm_hdb_results_free(struct sm_hdb_result *rows, unsigned n)
{
	for (unsigned i = 0; rows && i < n; i++)
		free(rows[i].json);
	free(rows);
}

int sm_hdb_each_result(struct sm_hdb *h, const char *key,
		       void (*fn)(const char *json, size_t len, void *arg), void *arg,
		       char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!h->db || h->version < 2)
		return 0;   /* none yet; schema 1 kept no whole results */
	rc = sqlite3_prepare_v2(h->db, "SELECT json FROM results WHERE key = ? ORDER BY id", -1, &st,
				NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *json = (const char *)sqlite3_column_text(st, 0);

			fn(json ? json : "", json ? (size_t)sqlite3_column_bytes(st, 0) : 0, arg);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(h->db, rc, "cannot read", err, errlen);
}

int sm_hdb_load_results(struct sm_hdb *h, const char *key, struct sm_hdb_result **rows,
			unsigned *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	struct sm_hdb_result *a = NULL;
	unsigned cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	if (h->version < 2)
		return 0;   /* schema 1 kept no whole results */
	rc = sqlite3_prepare_v2(h->db, "SELECT id, saved_at, command, json FROM results"
				" WHERE key = ? ORDER BY id", -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sm_hdb_result *r;
		const char *json = (const char *)sqlite3_column_text(st, 3);

		if (*n == cap && grow((void **)&a, &cap, sizeof(*a))) {
			rc = SQLITE_NOMEM;
			break;
		}
		r = &a[*n];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		snprintf(r->saved_at, sizeof(r->saved_at), "%s", sqlite3_column_text(st, 1));
		snprintf(r->command, sizeof(r->command), "%s", sqlite3_column_text(st, 2));
		r->json = strdup(json ? json : "");
		if (!r->json) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*n)++;
	}
out:
	if (rc != SQLITE_DONE) {
		rc = fail(h->db, rc, "cannot read", err, errlen);
		sm_hdb_results_free(a, *n);
		a = NULL;
		*n = 0;
	} else {
		rc = 0;
	}
	sqlite3_finalize(st);
	*rows = a;
	return rc;
}
