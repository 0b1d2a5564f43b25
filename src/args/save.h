/* SPDX-License-Identifier: MIT */
/* --save KEY and --db PATH, the same in frames, fileio, run and time: the
 * options and their checks before any work (the emit step, cmd/emit.c,
 * opens the database before the work and stores the result). */
#ifndef SM_ARGS_SAVE_H
#define SM_ARGS_SAVE_H

#include <stddef.h>

#include "core/opt.h"
#include "args/out_opts.h"

/* As given; strings point into argv. */
struct sm_save_opts {
	const char *key;   /* --save KEY, NULL: not saved */
	const char *db;    /* --db PATH, NULL: the default database */
};

/* The longest key --save takes (bytes), as `stormark history` checks it. */
#define SM_SAVE_KEY_MAX 120

/* Option callback of --save: a key of 1 to SM_SAVE_KEY_MAX bytes without
 * control characters (a newline would split history's lines). */
int sm_save_key_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len);

/* 1 when key is a key --save takes. */
int sm_save_key_ok(const char *key);

/* Option-table entries for s (a struct sm_save_opts lvalue). */
#define SM_SAVE_OPTS(s) \
	SM_OPT_CALL(0, "save", SM_OPT_REQUIRED, sm_save_key_cb, &(s).key, "KEY", \
		    "store the whole result in the history under KEY (docs/history.md)"), \
	SM_OPT_STR(0, "db", (s).db, "PATH", \
		   "history database (default $XDG_DATA_HOME/stormark/history.db)")

/* After parsing, before any work: --db without --save is refused, --db is
 * checked as a file to write (sm_out_check_path). Returns 0, or -EINVAL
 * with one line in msg. */
int sm_save_check(const struct sm_save_opts *s, char *msg, size_t len);

/*
 * sm_out_apart() for a command that writes results: o's outputs, more[]
 * (-x, ...) and, with --save, the history (--db PATH, or the default
 * database) are one file each, none of area's names. Returns 0, or -EINVAL
 * with one line in msg.
 */
int sm_save_apart(const struct sm_save_opts *s, const struct sm_out_opts *o, const struct sm_out_file *more,
		  unsigned n, const struct sm_out_area *area, char *msg, size_t len);

#endif
