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

/*
 * The other processes of an MPI job (mpi/job_meta.c), NULL alone. Every
 * phase starts at a vote of all of them (vote: v 1 from a process that
 * failed or was stopped; *any the largest; 0, or -errno when the others
 * are lost), and with shared the processes work in one directory: rank
 * 0 makes it, and its name reaches the others by bcast (rank 0's buf to
 * every process's, n bytes; 0 or -errno). Each process's files are
 * plan->first on (its own numbers); it lists every file of the set.
 */
struct sm_meta_peers {
	unsigned rank, ranks;
	int shared;
	int (*vote)(void *arg, int v, int *any);
	int (*bcast)(void *arg, void *buf, size_t n);
	void *arg;
};

/* The name of file i in the run's directory ("frame000042.tst"). */
void sm_meta_file_name(char *buf, size_t len, uint64_t i);

/*
 * Run plan into res (head begun by the caller; the rest cleared here):
 * make the run's own directory in plan->dir, or on plan->nfs's server
 * (a new name, an exclusive mkdir, mode 0700: no one else puts a file in
 * it), all through the engine's namespace ops, then the phases in order, each one's threads
 * released together and timed from then to the last one done; then
 * remove every file the run created and its directory, and nothing else.
 * A failed create (ENOSPC, EIO...) or a stop signal ends the measuring
 * there: the phases measured so far are kept (the one under way partial,
 * res->head.interrupted for a signal), res->head.error says what failed,
 * and what was created is still removed. An error of a stat, probe or
 * list counts in its phase and the first is said in res->head.error,
 * the phases going on. A file or directory left behind (something not
 * the run's in its directory) is a warning, cleaned 0.
 * With plan->peers every phase starts when every process has come to it
 * (a vote: one that failed or was stopped stops all at the next phase,
 * -ECANCELED on the others, res->head.error saying so), each operation's
 * end is kept in its phase's done_at, and with shared rank 0 makes the
 * directory and removes it once every process has removed its files.
 * Returns 0 when every phase ran without error; -EINTR when stopped;
 * else the first failure (-errno). Allocates only before the phases;
 * prints nothing.
 */
int sm_meta_run(const struct sm_meta_plan *plan, struct sm_meta_result *res);

#endif
