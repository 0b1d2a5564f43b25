/* SPDX-License-Identifier: MIT */
/* --save KEY and --db PATH of frames, fileio, run and time: checked before
 * the work (cmd/emit.c opens the database before it and stores the result). */
#include "args/save.h"
#include "args/out_opts.h"
#include "store/history_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int sm_save_apart(const struct sm_save_opts *s, const struct sm_out_opts *o, const struct sm_out_file *more,
		  unsigned n, const struct sm_out_area *area, char *msg, size_t len)
{
	struct sm_out_file files[8];
	char dflt[4096];
	unsigned k = 0;

	for (unsigned i = 0; i < n && k + 1 < sizeof(files) / sizeof(files[0]); i++)
		files[k++] = more[i];
	if (s->key && (s->db || !sm_hdb_default_path(dflt, sizeof(dflt))))
		files[k++] = (struct sm_out_file){ "--db", s->db ? s->db : dflt, 1, 0 };
	return sm_out_apart(o, files, k, area, msg, len);
}
