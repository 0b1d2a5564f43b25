/* SPDX-License-Identifier: MIT */
/* What cmd/history.c uses from history_json.c. */
#ifndef SM_CMD_HISTORY_H
#define SM_CMD_HISTORY_H

struct sm_hdb;

/* --json: the export of the keys (key NULL) or of one key of the database
 * db (opened from path; NULL when there is none yet: no keys) into the
 * file to ("-": stdout). Returns the exit code, after a message on error. */
int sm_cmd_history_export(struct sm_hdb *db, const char *path, const char *key, const char *to);

#endif
