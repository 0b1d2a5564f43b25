/* SPDX-License-Identifier: MIT */
/* psync engine: one blocking system call per request (pread/pwrite). */
#include "engine/engine.h"
#include "engine/sync_exec.h"
#include "core/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

void sm_sync_exec(struct sm_io *io)
{
	ssize_t n;

	io->t_issue = sm_now_ns();
	io->done = 0;
	switch (io->op) {
	case SM_OP_READ:
	case SM_OP_WRITE:
		while (io->done < io->len) {
			char *p = (char *)io->buf + io->done;
			size_t left = io->len - io->done;
			off_t off = (off_t)(io->off + io->done);

			n = io->op == SM_OP_READ ? pread(io->fd, p, left, off)
						 : pwrite(io->fd, p, left, off);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				/* The request failed, even if part of it was
				 * moved: the error (ENOSPC, EIO) is what the
				 * caller needs to hear. */
				io->res = -errno;
				goto out;
			}
			if (n == 0)
				break;
			io->done += (size_t)n;
		}
		io->res = (int64_t)io->done;
		break;
	case SM_OP_OPEN:
		do {
			n = openat(io->fd, io->path, io->open_flags, io->mode);
		} while (n < 0 && errno == EINTR);
		io->res = n < 0 ? -errno : n;
		break;
	case SM_OP_CLOSE:
		/* close() must not be retried on EINTR: the fd is gone. */
		io->res = close(io->fd) ? -errno : 0;
		break;
	case SM_OP_FSYNC:
		io->res = fsync(io->fd) ? -errno : 0;
		break;
	case SM_OP_FDATASYNC:
		io->res = fdatasync(io->fd) ? -errno : 0;
		break;
	default:
		io->res = -EINVAL;
	}
out:
	io->t_done = sm_now_ns();
}

static int psync_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct sm_done_fifo *f = e->priv;
	unsigned i;

	for (i = 0; i < n && f->count < f->cap; i++) {
		sm_sync_exec(ios[i]);
		sm_done_fifo_push(f, ios[i]);
	}
	return (int)i;
}

const struct sm_engine_ops sm_engine_psync = {
	.name = "psync",
	.help = "blocking pread/pwrite, one request at a time per thread",
	.caps = 0,
	.probe = NULL,
	.init = sm_fifo_engine_init,
	.submit = psync_submit,
	.reap = sm_fifo_engine_reap,
	.exit = sm_fifo_engine_exit,
	.ns = &sm_ns_posix,
};
