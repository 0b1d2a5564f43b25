/* SPDX-License-Identifier: MIT */
/* `stormark history KEY --html FILE`: the key's trend page (docs/history.md),
 * loaded from the history here, computed by analysis/trend.c and
 * analysis/compare.c, drawn by report/history_html.c. */
#ifndef SM_CMD_HISTORY_TREND_H
#define SM_CMD_HISTORY_TREND_H

#include <stddef.h>

struct sm_hdb;

/* Before any output: the history at path holds key, whose command goes
 * into cmd. Returns 0, or the exit code after one line: 2 for a missing
 * history, an unknown key or a build without SQLite, 1 for a history that
 * cannot be read. */
int sm_history_trend_key(const char *path, const char *key, char *cmd, size_t len);

/* Write the trend page of key (its command cmd) of db (named path) to
 * html through core/outfile.c; argv[0..argc) is the command line as given
 * (argv[0] "history"), shown on the page. Returns the exit code, after
 * one line on error. */
int sm_history_trend(struct sm_hdb *db, const char *path, const char *key, const char *cmd,
		     const char *html, int argc, char **argv);

#endif
