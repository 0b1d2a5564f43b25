/* SPDX-License-Identifier: MIT */
/* What this build of stormark was built with (io_uring, SQLite, xxHash,
 * cJSON; MPI where built in), for `stormark --version`: one table in
 * cmd/features.c that a new optional feature adds its row to. */
#ifndef SM_CMD_FEATURES_H
#define SM_CMD_FEATURES_H

#include <stddef.h>
#include <stdio.h>

/* One feature of the build. */
struct sm_feature {
	const char *name;          /* the word on --version's first line: "io_uring" */
	const char *gives;         /* what it is used for, a few words */
	/* The library's version and, where it matters, whether this system
	 * can use it ("liburing 2.3; this kernel: usable"), into buf. */
	void (*detail)(char *buf, size_t len);
	int absent;                /* not in this build: left off the first line */
};

/* The features, in --version's order; *n receives their number. */
const struct sm_feature *sm_features(unsigned *n);

/*
 * Print `stormark --version`: the first line, whose form scripts may parse,
 * "stormark VERSION (features: NAME NAME ...)", then with verbose one line
 * per feature ("  io_uring  the uring engine (...) [liburing 2.3; this
 * kernel: usable]"). Returns nothing; a write error shows in ferror(f).
 */
void sm_features_print(FILE *f, int verbose);

#endif
