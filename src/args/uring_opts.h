/* SPDX-License-Identifier: MIT */
/* --sqpoll, --iopoll and --submit-batch, one meaning in every command that runs the uring
 * engine (fileio, frames, run, streams): the option entries and the check
 * before any work. */
#ifndef SM_ARGS_URING_OPTS_H
#define SM_ARGS_URING_OPTS_H

#include "core/opt.h"
#include "engine/engine.h"

struct sm_uring_opts {
	int sqpoll;                /* --sqpoll */
	int iopoll;                /* --iopoll */
	unsigned submit_batch;     /* --submit-batch N; 0: the engine's default */
};

/* Option-table entries over u (a struct sm_uring_opts lvalue). */
#define SM_URING_OPTS(u) \
	SM_OPT_FLAG_SET(0, "sqpoll", (u).sqpoll, 1, \
			"uring: a kernel thread per ring polls the submission queue (no system " \
			"call per batch while it is awake; checked before the run)"), \
	SM_OPT_FLAG_SET(0, "iopoll", (u).iopoll, 1, \
			"uring: poll the device for completions (direct I/O on a device with " \
			"poll queues; refused before the run where a polled read fails)"), \
	SM_OPT_UINT_RANGE(0, "submit-batch", (u).submit_batch, 1, SM_ENGINE_BATCH_MAX, "N", \
			  "uring: at most N requests per submission system call (default 4; " \
			  "a larger batch waits in the block layer until the call ends)")

/* The engine flags (SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL | SM_ENGINE_BATCH(n))
 * u asks for. */
unsigned sm_uring_opts_flags(const struct sm_uring_opts *u);

/*
 * Before any work, when u asks for anything: refuse it when the run does
 * not use the uring engine (uring 0; not_uring says what to give instead,
 * e.g. "-a N or --engine uring"), --iopoll without direct I/O (direct 0;
 * no_direct says how to get it, e.g. "leave out --buffered"), then one real read
 * through such a ring on the storage holding path (sm_uring_poll_check).
 * Returns 0, or SM_EXIT_USAGE after one line "<prog>: <reason>" on stderr.
 */
int sm_uring_opts_check(const char *prog, const struct sm_uring_opts *u, int uring,
			const char *not_uring, int direct, const char *no_direct, const char *path);

#endif
