/* SPDX-License-Identifier: MIT */
/* --sqpoll, --iopoll and --submit-batch: engine flags and the check before
 * a run. */
#include "args/uring_opts.h"
#include "core/msg.h"
#include "engine/engine.h"
#include "engine/uring.h"

unsigned sm_uring_opts_flags(const struct sm_uring_opts *u)
{
	return (u->sqpoll ? SM_ENGINE_SQPOLL : 0) | (u->iopoll ? SM_ENGINE_IOPOLL : 0) |
	       SM_ENGINE_BATCH(u->submit_batch);
}

int sm_uring_opts_check(const char *prog, const struct sm_uring_opts *u, int uring,
			const char *not_uring, int direct, const char *no_direct, const char *path)
{
	const char *opt = u->sqpoll && u->iopoll ? "--sqpoll and --iopoll"
			  : u->sqpoll ? "--sqpoll" : "--iopoll";
	char why[600];

	if (u->submit_batch && !uring) {
		sm_prog_error(prog, "--submit-batch needs the uring engine: give %s", not_uring);
		return SM_EXIT_USAGE;
	}
	if (!u->sqpoll && !u->iopoll)
		return 0;
	if (!uring) {
		sm_prog_error(prog, "%s %s the uring engine: give %s", opt,
			      u->sqpoll && u->iopoll ? "need" : "needs", not_uring);
		return SM_EXIT_USAGE;
	}
	if (u->iopoll && !direct) {
		sm_prog_error(prog, "--iopoll polls direct I/O only: %s", no_direct);
		return SM_EXIT_USAGE;
	}
	if (sm_uring_poll_check(path, sm_uring_opts_flags(u), why, sizeof(why))) {
		sm_prog_error(prog, "%s", why);
		return SM_EXIT_USAGE;
	}
	return 0;
}
