/* SPDX-License-Identifier: MIT */
/* stormark history's tables, to stdout in style st (history_show.c). Each
 * returns the exit code, after a message on error. */
#ifndef SM_CMD_HISTORY_SHOW_H
#define SM_CMD_HISTORY_SHOW_H

#include "report/table.h"

struct sm_hdb;

/* No KEY: every key, its command, its runs and its newest headline. */
int sm_history_keys(struct sm_hdb *db, const char *path, enum sm_table_style st);

/* No KEY and no database yet: the empty list, with its note. */
void sm_history_no_keys(const char *path, enum sm_table_style st);

/* KEY: its runs in the table of its command. */
int sm_history_show(struct sm_hdb *db, const char *path, const char *key, enum sm_table_style st);

/* KEY KEY2, two time keys: compared figure by figure (trimmed means). */
int sm_history_compare(struct sm_hdb *db, const char *path, const char *k1, const char *k2,
		       enum sm_table_style st);

#endif
