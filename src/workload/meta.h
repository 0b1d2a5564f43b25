/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s workload: in a directory of its own, N files named
 * like frames created, stat'ed, probed (their first 4 KiB read), listed
 * and deleted, phase after phase, each phase's files split between the
 * threads (docs/meta.md). */
#ifndef SM_WORKLOAD_META_H
#define SM_WORKLOAD_META_H

#include <stddef.h>

#include "result/meta.h"

/* The most threads and files one run takes (the command's limits). */
#define SM_META_MAX_THREADS 64u
#define SM_META_MAX_FILES 10000000ull

/* The name of file i in the run's directory ("frame000042.tst"). */
void sm_meta_file_name(char *buf, size_t len, uint64_t i);

/*
 * Run plan into res (head begun by the caller; the rest cleared here):
 * make the run's own directory in plan->dir (mkdtemp, mode 0700: no one
 * else puts a file in it), then the phases in order, each one's threads
 * released together and timed from then to the last one done; then
 * remove every file the run created and its directory, and nothing else.
 * A failed create (ENOSPC, EIO...) or a stop signal ends the measuring
 * there: the phases measured so far are kept (the one under way partial,
 * res->head.interrupted for a signal), res->head.error says what failed,
 * and what was created is still removed. An error of a stat, probe or
 * list counts in its phase and the first is said in res->head.error,
 * the phases going on. A file or directory left behind (something not
 * the run's in its directory) is a warning, cleaned 0.
 * Returns 0 when every phase ran without error; -EINTR when stopped;
 * else the first failure (-errno). Allocates only before the phases;
 * prints nothing.
 */
int sm_meta_run(const struct sm_meta_plan *plan, struct sm_meta_result *res);

#endif
