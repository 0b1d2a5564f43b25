/* SPDX-License-Identifier: MIT */
/* mmap engine: every file of cfg.fds is mapped shared for its whole
 * cfg.file_sizes length; reads and writes are memcpy to and from the
 * mapping, fsync and fdatasync are msync(MS_SYNC) of the file's mapping.
 * Synchronous: requests complete in submit(). Requests on descriptors that
 * are not in cfg.fds (and open/close) run as plain system calls. */
#include "engine/engine.h"
#include "engine/sync_exec.h"
#include "core/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Invariant: map[i] covers len[i] bytes of cfg.fds[i] (NULL when len is 0). */
struct mmap_state {
	struct sm_done_fifo done;
	unsigned n;
	unsigned char **map;
	uint64_t *len;
	int *fd;
};

static void mmap_exit(struct sm_engine *e)
{
	struct mmap_state *m = e->priv;

	if (!m)
		return;
	for (unsigned i = 0; i < m->n; i++)
		if (m->map && m->map[i])
			munmap(m->map[i], m->len[i]);
	free(m->map);
	free(m->len);
	free(m->fd);
	sm_done_fifo_release(&m->done);
	free(m);
	e->priv = NULL;
}

static int mmap_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	struct mmap_state *m = calloc(1, sizeof(*m));
	int rc = 0;

	if (!m)
		return -ENOMEM;
	e->priv = m;
	if (!cfg->fds || !cfg->file_sizes || !cfg->nfds) {
		rc = -EINVAL;               /* nothing to map: the engine needs files */
		goto out;
	}
	if (sm_done_fifo_init(&m->done, cfg->depth)) {
		rc = -ENOMEM;
		goto out;
	}
	m->map = calloc(cfg->nfds, sizeof(*m->map));
	m->len = calloc(cfg->nfds, sizeof(*m->len));
	m->fd = calloc(cfg->nfds, sizeof(*m->fd));
	if (!m->map || !m->len || !m->fd) {
		rc = -ENOMEM;
		goto out;
	}
	m->n = cfg->nfds;
	for (unsigned i = 0; i < cfg->nfds; i++) {
		void *p;

		m->fd[i] = cfg->fds[i];
		if (!cfg->file_sizes[i])
			continue;
		p = mmap(NULL, cfg->file_sizes[i], PROT_READ | PROT_WRITE, MAP_SHARED, cfg->fds[i], 0);
		if (p == MAP_FAILED) {
			rc = -errno;
			goto out;
		}
		m->map[i] = p;
		m->len[i] = cfg->file_sizes[i];
	}
out:
	if (rc)
		mmap_exit(e);
	return rc;
}

/* The mapping index of io, or -1 when io's file is not mapped. */
static int map_of(const struct mmap_state *m, const struct sm_io *io)
{
	if (io->file_index >= 0 && (unsigned)io->file_index < m->n &&
	    m->fd[io->file_index] == io->fd && m->map[io->file_index])
		return io->file_index;
	for (unsigned i = 0; i < m->n; i++)
		if (m->fd[i] == io->fd && m->map[i])
			return (int)i;
	return -1;
}

static void mmap_exec(struct mmap_state *m, struct sm_io *io)
{
	int i = map_of(m, io);
	uint64_t avail;

	if (i < 0 || io->op == SM_OP_OPEN || io->op == SM_OP_CLOSE) {
		sm_sync_exec(io);
		return;
	}
	io->done = 0;
	io->t_issue = sm_now_ns();
	switch (io->op) {
	case SM_OP_READ:
	case SM_OP_WRITE:
		/* like pread at end of file: short, never past the mapping */
		avail = io->off < m->len[i] ? m->len[i] - io->off : 0;
		io->done = io->len < avail ? io->len : (size_t)avail;
		if (io->op == SM_OP_READ)
			memcpy(io->buf, m->map[i] + io->off, io->done);
		else
			memcpy(m->map[i] + io->off, io->buf, io->done);
		io->res = (int64_t)io->done;
		break;
	case SM_OP_FSYNC:
	case SM_OP_FDATASYNC:
		io->res = msync(m->map[i], m->len[i], MS_SYNC) ? -errno : 0;
		break;
	default:
		io->res = -EINVAL;
	}
	io->t_done = sm_now_ns();
}

static int mmap_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct mmap_state *m = e->priv;
	unsigned i;

	for (i = 0; i < n && m->done.count < m->done.cap; i++) {
		mmap_exec(m, ios[i]);
		sm_done_fifo_push(&m->done, ios[i]);
	}
	return (int)i;
}

static int mmap_reap(struct sm_engine *e, struct sm_io **out, unsigned min, unsigned max)
{
	struct mmap_state *m = e->priv;

	return sm_done_fifo_pop(&m->done, out, max);
}

const struct sm_engine_ops sm_engine_mmap = {
	.name = "mmap",
	.help = "memcpy to and from shared mappings of the files; fsync is msync",
	.caps = SM_ENGINE_MAPPED,
	.probe = NULL,
	.init = mmap_init,
	.submit = mmap_submit,
	.reap = mmap_reap,
	.exit = mmap_exit,
};
