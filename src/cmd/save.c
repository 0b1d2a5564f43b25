/* SPDX-License-Identifier: MIT */
/* --save KEY and --db PATH of frames, fileio, run and time: checked before
 * the work, the database opened before it (cmd/emit.c stores the result). */
#include "cmd/save.h"
#include "cmd/cmd.h"
#include "cmd/out_opts.h"
#include "store/history_db.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUSY_MS 3000u

int sm_save_key_ok(const char *key)
{
	size_t n = strlen(key);

	for (const char *c = key; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return 0;
	return n > 0 && n <= SM_SAVE_KEY_MAX;
}

int sm_save_key_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	if (!sm_save_key_ok(arg)) {
		snprintf(exp, len, "a key of 1 to %d characters, no control characters",
			 SM_SAVE_KEY_MAX);
		return -EINVAL;
	}
	*(const char **)opt->dest = arg;
	return 0;
}

int sm_save_check(const struct sm_save_opts *s, char *msg, size_t len)
{
	if (s->db && !s->key) {
		snprintf(msg, len, "--db without --save: the history is written only with --save KEY "
			 "('stormark history --db' reads it)");
		return -EINVAL;
	}
	if (s->db && sm_out_check_path("--db", s->db, msg, len))
		return -EINVAL;
	return 0;
}

int sm_save_open(const struct sm_save_opts *s, const char *prog, const char *command,
		 struct sm_hdb **db, char *path, size_t len)
{
	char err[256], have[32];
	int rc;

	*db = NULL;
	if (!s->key)
		return 0;
	if (s->db)
		snprintf(path, len, "%s", s->db);
	else if (sm_hdb_default_path(path, len)) {
		sm_prog_error(prog, "cannot find a place for the history: set XDG_DATA_HOME or HOME, "
			      "or use --db");
		return SM_EXIT_FAIL;
	}
	rc = sm_hdb_open(path, 1, BUSY_MS, db, err, sizeof(err));
	if (!rc)
		rc = sm_hdb_key_command(*db, s->key, have, sizeof(have), err, sizeof(err));
	if (rc) {
		sm_prog_error(prog, "cannot use history database '%s': %s", path, err);
		goto fail;
	}
	if (have[0] && strcmp(have, command)) {
		sm_prog_error(prog, "--save %s: the key holds %s runs in '%s', not %s ones; choose "
			      "another key", s->key, have, path, command);
		sm_hdb_close(*db);
		*db = NULL;
		return SM_EXIT_USAGE;
	}
	return 0;
fail:
	sm_hdb_close(*db);
	*db = NULL;
	return SM_EXIT_FAIL;
}

char *sm_save_text(const struct cJSON *doc)
{
	return cJSON_PrintUnformatted(doc);
}
