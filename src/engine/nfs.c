/* SPDX-License-Identifier: MIT */
/* nfs engine: synchronous requests to an NFS server through libnfs
 * (engine/nfs.h). One libnfs context per instance, so per worker thread. */
#include "engine/nfs.h"
#include "engine/engine.h"
#include "core/clock.h"
#include "core/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>   /* libnfs.h uses struct timeval without including it */
#include <nfsc/libnfs.h>

#ifndef SM_LIBNFS_VERSION
#define SM_LIBNFS_VERSION "?"   /* CMakeLists.txt passes pkg-config's */
#endif

static struct {
	char *url;
	char **names;
	unsigned n;
} bound;

struct nfs_priv {
	struct sm_done_fifo fifo;
	struct nfs_context *nfs;
	struct nfsfh **fh;
	unsigned n;
	uint64_t rmax, wmax;       /* the most one READ or WRITE call carries */
};

int sm_nfs_available(void)
{
	return 1;
}

const char *sm_nfs_version(void)
{
	return SM_LIBNFS_VERSION;
}

int sm_nfs_bind(const char *url, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < bound.n; i++)
		free(bound.names[i]);
	free(bound.names);
	free(bound.url);
	memset(&bound, 0, sizeof(bound));
	if (!url)
		return 0;
	bound.url = strdup(url);
	bound.names = calloc(n ? n : 1, sizeof(*bound.names));
	if (!bound.url || !bound.names) {
		sm_nfs_bind(NULL, NULL, 0);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		bound.names[i] = strdup(names[i]);
		if (!bound.names[i]) {
			bound.n = i;
			sm_nfs_bind(NULL, NULL, 0);
			return -ENOMEM;
		}
	}
	bound.n = n;
	return 0;
}

static int nfs_probe(void)
{
	return bound.url ? 0 : -ENXIO;
}

static void nfs_exit(struct sm_engine *e)
{
	struct nfs_priv *p = e->priv;

	if (!p)
		return;
	for (unsigned i = 0; i < p->n; i++)
		if (p->fh[i])
			nfs_close(p->nfs, p->fh[i]);
	free(p->fh);
	if (p->nfs)
		nfs_destroy_context(p->nfs);
	sm_done_fifo_release(&p->fifo);
	free(p);
	e->priv = NULL;
}

static int nfs_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	struct nfs_priv *p = calloc(1, sizeof(*p));
	struct nfs_url *u = NULL;
	int rc;

	if (!p)
		return -ENOMEM;
	e->priv = p;
	rc = sm_done_fifo_init(&p->fifo, cfg->depth);
	if (rc)
		goto fail;
	p->nfs = nfs_init_context();
	p->fh = calloc(bound.n ? bound.n : 1, sizeof(*p->fh));
	if (!p->nfs || !p->fh) {
		rc = -ENOMEM;
		goto fail;
	}
	u = nfs_parse_url_dir(p->nfs, bound.url);
	if (!u) {
		rc = -EINVAL;
		goto fail;
	}
	rc = nfs_mount(p->nfs, u->server, u->path);
	nfs_destroy_url(u);
	if (rc)
		goto fail;
	p->rmax = nfs_get_readmax(p->nfs);
	p->wmax = nfs_get_writemax(p->nfs);
	if (!p->rmax)
		p->rmax = 65536;
	if (!p->wmax)
		p->wmax = 65536;
	for (; p->n < bound.n; p->n++) {
		/* no O_CREAT: the workload made the files and checked them */
		rc = nfs_open(p->nfs, bound.names[p->n], O_RDWR, &p->fh[p->n]);
		if (rc)
			goto fail;
	}
	return 0;
fail:
	nfs_exit(e);
	return rc < 0 ? rc : -EIO;
}

static void nfs_exec(struct nfs_priv *p, struct sm_io *io)
{
	struct nfsfh *fh = io->fd >= 0 && (unsigned)io->fd < p->n ? p->fh[io->fd] : NULL;
	int n;

	io->t_issue = sm_now_ns();
	io->done = 0;
	if (!fh) {
		io->res = -EBADF;
		goto out;
	}
	switch (io->op) {
	case SM_OP_READ:
	case SM_OP_WRITE:
		while (io->done < io->len) {
			char *b = (char *)io->buf + io->done;
			uint64_t left = io->len - io->done, off = io->off + io->done;

			if (io->op == SM_OP_READ)
				n = nfs_pread(p->nfs, fh, off, left < p->rmax ? left : p->rmax, b);
			else
				n = nfs_pwrite(p->nfs, fh, off, left < p->wmax ? left : p->wmax, b);
			if (n < 0) {
				io->res = n;   /* libnfs gives -errno */
				goto out;
			}
			if (n == 0) {
				if (io->op == SM_OP_WRITE) {   /* no progress: never loop */
					io->res = -EIO;
					goto out;
				}
				break;   /* end of file */
			}
			io->done += (size_t)n;
		}
		io->res = (int64_t)io->done;
		break;
	case SM_OP_FSYNC:
	case SM_OP_FDATASYNC:
		/* NFSv3 COMMIT: the server's stable storage for the file */
		n = nfs_fsync(p->nfs, fh);
		io->res = n < 0 ? n : 0;
		break;
	default:
		io->res = -EOPNOTSUPP;   /* OPEN, CLOSE: the files are the bound ones */
	}
out:
	io->t_done = sm_now_ns();
}

static int nfs_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct nfs_priv *p = e->priv;
	unsigned i;

	for (i = 0; i < n && p->fifo.count < p->fifo.cap; i++) {
		nfs_exec(p, ios[i]);
		sm_done_fifo_push(&p->fifo, ios[i]);
	}
	return (int)i;
}

static int nfs_reap(struct sm_engine *e, struct sm_io **out, SM_UNUSED unsigned min, unsigned max)
{
	struct nfs_priv *p = e->priv;

	return sm_done_fifo_pop(&p->fifo, out, max);
}

static const struct sm_engine_ops sm_engine_nfs = {
	.name = "nfs",
	.help = "an NFS server through libnfs (no kernel mount), one request at a time per thread",
	.caps = 0,
	.probe = nfs_probe,
	.init = nfs_init,
	.submit = nfs_submit,
	.reap = nfs_reap,
	.exit = nfs_exit,
};

const struct sm_engine_ops *sm_nfs_engine_ops(void)
{
	return &sm_engine_nfs;
}
