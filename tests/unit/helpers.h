/* SPDX-License-Identifier: MIT */
/* What the unit tests share: a scratch directory on the build tree's disk
 * (O_DIRECT works there; /tmp may be tmpfs), its removal, and the skip
 * status CTest knows (77). */
#ifndef SM_TEST_HELPERS_H
#define SM_TEST_HELPERS_H

#include <stddef.h>

/* The exit status CTest counts as skipped (SKIP_RETURN_CODE). */
#define T_SKIP 77

/* Make a fresh directory "unit-NAME-XXXXXX" under $SM_BUILD_DIR (the
 * current directory when unset) and return its path (static storage);
 * exits 1 with one line when it cannot. It is removed, with what is in
 * it, when the process that made it exits (a forked child's exit leaves
 * it); t_scratch_remove() does it earlier. */
const char *t_scratch(const char *name);

/* A fresh directory "NAME-XXXXXX" (t_tmpdir) or an empty file (t_tmpfile,
 * opened read-write: its descriptor is returned) inside this program's
 * scratch directory, which the first call makes (t_scratch() with the
 * program's name) unless t_scratch() did: the test's own temporary root,
 * never /tmp. Its path goes into buf (len bytes); exits 1 with one line
 * when it cannot, or when the path does not fit. */
char *t_tmpdir(char *buf, size_t len, const char *name);
int t_tmpfile(char *buf, size_t len, const char *name);

/* Remove the scratch directory of t_scratch() and everything under it,
 * never following a symbolic link. Returns 0, or -errno of the first
 * entry that could not be removed (said on stderr). */
int t_scratch_remove(void);

/* Remove path and, when it is a directory, everything under it, never
 * following a symbolic link. Returns 0 or -errno. */
int t_rm_rf(const char *path);

/* Say why on stdout and exit with T_SKIP. */
void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Give a run's frame test a sustained basis (docs/run.md, "What a verdict
 * rests on"): a series of secs whole seconds at bytes_per_s in frames of
 * frame_bytes (allocated into t, freed with the result), stalls looked for
 * and none found. */
struct sm_run_frametest;
void t_run_steady(struct sm_run_frametest *t, double bytes_per_s, unsigned long long frame_bytes,
		  unsigned secs);

#endif
