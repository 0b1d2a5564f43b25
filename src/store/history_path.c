/* SPDX-License-Identifier: MIT */
/* Where the history is kept by default: with SQLite or without it (the
 * path is said either way). */
#include "store/history_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int sm_hdb_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/stormark/history.db", xdg);
	else if (home && home[0])
		snprintf(buf, len, "%s/.local/share/stormark/history.db", home);
	else
		return -ENOENT;
	return 0;
}
