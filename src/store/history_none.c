/* SPDX-License-Identifier: MIT */
/* The history of a build without SQLite (-DSM_SQLITE=OFF, or SQLite
 * missing when it was configured): opening a database is refused with the
 * reason, so --save and `stormark history` stop before any work with one
 * line (exit 2 where the command checks the history first). */
#include "store/history_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define WHY "this stormark was built without SQLite: it keeps no history (--save, stormark history)"

static int refuse(char *err, size_t len)
{
	if (len)
		snprintf(err, len, "%s", WHY);
	return -ENOTSUP;
}

int sm_hdb_open(const char *path, int create, unsigned busy_ms, struct sm_hdb **out,
		char *err, size_t errlen)
{
	(void)path;
	(void)create;
	(void)busy_ms;
	*out = NULL;
	return refuse(err, errlen);
}

void sm_hdb_close(struct sm_hdb *db)
{
	(void)db;
}

/* No history is ever open here, so there is no wait to set up. */
void sm_hdb_wait_always(struct sm_hdb *h, void (*notice)(void *arg), void *arg)
{
	(void)h; (void)notice; (void)arg;
}

int sm_hdb_save(struct sm_hdb *db, const char *key, const char *command,
		const struct sm_time_run *runs, unsigned n, const char *json,
		char *err, size_t errlen)
{
	(void)db; (void)key; (void)command; (void)runs; (void)n; (void)json;
	return refuse(err, errlen);
}

int sm_hdb_save_result(struct sm_hdb *db, const char *key, const char *command,
		       const char *json, char *err, size_t errlen)
{
	(void)db; (void)key; (void)command; (void)json;
	return refuse(err, errlen);
}

int sm_hdb_key_command(struct sm_hdb *db, const char *key, char *cmd, size_t len,
		       char *err, size_t errlen)
{
	(void)db; (void)key;
	if (len)
		cmd[0] = '\0';
	return refuse(err, errlen);
}

int sm_hdb_load_results(struct sm_hdb *db, const char *key, struct sm_hdb_result **rows,
			unsigned *n, char *err, size_t errlen)
{
	(void)db; (void)key;
	*rows = NULL;
	*n = 0;
	return refuse(err, errlen);
}

void sm_hdb_results_free(struct sm_hdb_result *rows, unsigned n)
{
	for (unsigned i = 0; rows && i < n; i++)
		free(rows[i].json);
	free(rows);
}

int sm_hdb_keys(struct sm_hdb *db, struct sm_hdb_key **keys, unsigned *n,
		char *err, size_t errlen)
{
	(void)db;
	*keys = NULL;
	*n = 0;
	return refuse(err, errlen);
}

int sm_hdb_load(struct sm_hdb *db, const char *key, struct sm_hdb_row **rows,
		unsigned *n, char *err, size_t errlen)
{
	(void)db; (void)key;
	*rows = NULL;
	*n = 0;
	return refuse(err, errlen);
}
