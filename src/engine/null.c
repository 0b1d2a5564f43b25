/* SPDX-License-Identifier: MIT */
/* null engine: completes every request at once without doing I/O, so a
 * run measures stormark's own cost per request. */
#include "engine/engine.h"
#include "core/clock.h"

#include <errno.h>
#include <stdlib.h>

/* Descriptors the null engine hands out for OPEN: far above real ones so a
 * stray close() by mistake would fail with EBADF rather than hit a file. */
#define NULL_FD_BASE 1000000

static int null_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct sm_done_fifo *f = e->priv;
	/* Nothing happens between issue and completion, so both are one
	 * instant, read once for the batch, as the uring engine reads the
	 * clock once per submitted batch: a second read per request would
	 * only measure the clock. */
	uint64_t now = sm_now_ns();
	unsigned i;

	for (i = 0; i < n && f->count < f->cap; i++) {
		struct sm_io *io = ios[i];

		io->t_issue = now;
		switch (io->op) {
		case SM_OP_READ:
		case SM_OP_WRITE:
			io->res = (int64_t)io->len;
			break;
		case SM_OP_OPEN:
			io->res = NULL_FD_BASE;
			break;
		default:
			io->res = 0;
		}
		io->t_done = now;
		sm_done_fifo_push(f, io);
	}
	return (int)i;
}

const struct sm_engine_ops sm_engine_null = {
	.name = "null",
	.help = "no I/O: measures stormark's own cost per request",
	.caps = SM_ENGINE_NO_IO,
	.probe = NULL,
	.init = sm_fifo_engine_init,
	.submit = null_submit,
	.reap = sm_fifo_engine_reap,
	.exit = sm_fifo_engine_exit,
	.ns = &sm_ns_posix,
};
