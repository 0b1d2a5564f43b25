/* SPDX-License-Identifier: MIT */
/* The history of a build without SQLite (-DSM_SQLITE=OFF, or SQLite
 * missing when it was configured): opening a database is refused with the
 * reason, so --save and `stormark history` stop before any work with one
 * line (exit 2 where the command checks the history first). */
#include "store/history_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/compiler.h"

#define WHY "this stormark was built without SQLite: it keeps no history (--save, stormark history)"

static int refuse(char *err, size_t len)
{
	if (len)
		snprintf(err, len, "%s", WHY);
	return -ENOTSUP;
}

int sm_hdb_open(SM_UNUSED const char *path, SM_UNUSED int create, SM_UNUSED unsigned busy_ms,
		struct sm_hdb **out, char *err, size_t errlen)
{
	*out = NULL;
	return refuse(err, errlen);
}

void sm_hdb_close(SM_UNUSED struct sm_hdb *db)
{
}

/* No history is ever open here, so there is no wait to set up. */
void sm_hdb_wait_always(SM_UNUSED struct sm_hdb *h, SM_UNUSED void (*notice)(void *arg), SM_UNUSED void *arg)
{
}

int sm_hdb_save(SM_UNUSED struct sm_hdb *db, SM_UNUSED const char *key, SM_UNUSED const char *command,
		SM_UNUSED const struct sm_time_run *runs, SM_UNUSED unsigned n, SM_UNUSED const char *json,
		char *err, size_t errlen)
{
	return refuse(err, errlen);
}

int sm_hdb_save_result(SM_UNUSED struct sm_hdb *db, SM_UNUSED const char *key, SM_UNUSED const char *command,
		       SM_UNUSED const char *json, char *err, size_t errlen)
{
	return refuse(err, errlen);
}

int sm_hdb_key_command(SM_UNUSED struct sm_hdb *db, SM_UNUSED const char *key, char *cmd, size_t len,
		       char *err, size_t errlen)
{
	if (len)
		cmd[0] = '\0';
	return refuse(err, errlen);
}

int sm_hdb_each_result(SM_UNUSED struct sm_hdb *db, SM_UNUSED const char *key,
		       SM_UNUSED void (*fn)(const char *json, size_t len, void *arg), SM_UNUSED void *arg,
		       char *err, size_t errlen)
{
	return refuse(err, errlen);
}

int sm_hdb_load_results(SM_UNUSED struct sm_hdb *db, SM_UNUSED const char *key, struct sm_hdb_result **rows,
			unsigned *n, char *err, size_t errlen)
{
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

int sm_hdb_keys(SM_UNUSED struct sm_hdb *db, struct sm_hdb_key **keys, unsigned *n,
		char *err, size_t errlen)
{
	*keys = NULL;
	*n = 0;
	return refuse(err, errlen);
}

int sm_hdb_load(SM_UNUSED struct sm_hdb *db, SM_UNUSED const char *key, struct sm_hdb_row **rows,
		unsigned *n, char *err, size_t errlen)
{
	*rows = NULL;
	*n = 0;
	return refuse(err, errlen);
}
