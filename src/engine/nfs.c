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
#include <sys/stat.h>
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
	if (u && (!u->server || !u->path)) {   /* nfs://SERVER/NAME: libnfs leaves one NULL */
		nfs_destroy_url(u);
		u = NULL;
	}
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

/* ---- the namespace: names on the server, by path from the export's root
 * (NFS has no *at calls: a directory's handle is its path) */

struct nfs_h {
	struct nfsfh *fh;          /* a file's; NULL for a directory */
	char path[];               /* a directory's path (a file's, for the record) */
};

/* dir's path and name joined into a new string, or NULL (no memory). */
static char *nfs_join(const struct sm_fh *dir, const char *name)
{
	const struct nfs_h *d = dir ? dir->obj : NULL;
	size_t dl = d ? strlen(d->path) : 0, nl = strlen(name);
	char *s = malloc(dl + nl + 2);

	if (!s)
		return NULL;
	if (d)
		snprintf(s, dl + nl + 2, "%s/%s", d->path, name);
	else
		memcpy(s, name, nl + 1);
	return s;
}

static int nfs_ns_open(struct sm_engine *e, const struct sm_fh *dir, const char *name, unsigned flags,
		       unsigned mode, struct sm_fh *out)
{
	struct nfs_priv *p = e->priv;
	char *path = nfs_join(dir, name);
	struct nfs_h *h = path ? malloc(sizeof(*h) + strlen(path) + 1) : NULL;
	struct nfs_stat_64 st;
	int rc, of;

	*out = SM_FH_NONE;
	if (!h) {
		free(path);
		return -ENOMEM;
	}
	strcpy(h->path, path);
	h->fh = NULL;
	if (flags & SM_NS_DIR) {
		rc = nfs_lstat64(p->nfs, path, &st);
		if (!rc && (st.nfs_mode & S_IFMT) != S_IFDIR)
			rc = -ENOTDIR;
	} else {
		of = (flags & SM_NS_READ) && (flags & SM_NS_WRITE) ? O_RDWR
		     : flags & SM_NS_WRITE ? O_WRONLY : O_RDONLY;
		if (flags & SM_NS_CREATE)   /* exclusive: an EXCLUSIVE create on the wire */
			rc = nfs_create(p->nfs, path, of | O_EXCL | O_NOFOLLOW, (int)mode, &h->fh);
		else
			rc = nfs_open(p->nfs, path, of | O_NOFOLLOW, &h->fh);
	}
	free(path);
	if (rc) {
		free(h);
		return rc < 0 ? rc : -EIO;
	}
	out->obj = h;
	return 0;
}

static int nfs_ns_close(struct sm_engine *e, struct sm_fh *fh)
{
	struct nfs_priv *p = e->priv;
	struct nfs_h *h = fh->obj;
	int rc = 0;

	if (h && h->fh)
		rc = nfs_close(p->nfs, h->fh);
	free(h);
	*fh = SM_FH_NONE;
	return rc < 0 ? rc : 0;
}

/* One libnfs call on dir/name: which 0 unlink, 1 rmdir, 2 mkdir. */
static int nfs_ns_path(struct sm_engine *e, const struct sm_fh *dir, const char *name, int which,
		       unsigned mode)
{
	struct nfs_priv *p = e->priv;
	char *path = nfs_join(dir, name);
	int rc;

	if (!path)
		return -ENOMEM;
	rc = which == 0 ? nfs_unlink(p->nfs, path) : which == 1 ? nfs_rmdir(p->nfs, path)
							 : nfs_mkdir2(p->nfs, path, (int)mode);
	free(path);
	return rc < 0 ? rc : 0;
}

static int nfs_ns_unlink(struct sm_engine *e, const struct sm_fh *dir, const char *name)
{
	return nfs_ns_path(e, dir, name, 0, 0);
}

static int nfs_ns_rmdir(struct sm_engine *e, const struct sm_fh *dir, const char *name)
{
	return nfs_ns_path(e, dir, name, 1, 0);
}

static int nfs_ns_mkdir(struct sm_engine *e, const struct sm_fh *dir, const char *name, unsigned mode)
{
	return nfs_ns_path(e, dir, name, 2, mode);
}

static int nfs_ns_stat(struct sm_engine *e, const struct sm_fh *dir, const char *name,
		       struct sm_ns_stat *out)
{
	struct nfs_priv *p = e->priv;
	char *path = nfs_join(dir, name);
	struct nfs_stat_64 st;
	int rc;

	if (!path)
		return -ENOMEM;
	rc = nfs_lstat64(p->nfs, path, &st);   /* the name itself, never a link's target */
	free(path);
	if (rc)
		return rc < 0 ? rc : -EIO;
	out->type = (st.nfs_mode & S_IFMT) == S_IFREG ? SM_NS_FILE
		    : (st.nfs_mode & S_IFMT) == S_IFDIR ? SM_NS_DIRECTORY : SM_NS_OTHER;
	out->size = st.nfs_size;
	return 0;
}

/* libnfs reads the whole directory in nfs_opendir() (READDIRPLUS), so the
 * entries then come from memory. */
static int nfs_ns_readdir(struct sm_engine *e, const struct sm_fh *dir,
			  int (*each)(void *arg, const char *name), void *arg)
{
	struct nfs_priv *p = e->priv;
	const struct nfs_h *d = dir ? dir->obj : NULL;
	struct nfsdirent *de;
	struct nfsdir *nd;
	int rc = nfs_opendir(p->nfs, d ? d->path : "/", &nd);

	if (rc)
		return rc < 0 ? rc : -EIO;
	while ((de = nfs_readdir(p->nfs, nd)) != NULL)
		if (each(arg, de->name))
			break;
	nfs_closedir(p->nfs, nd);
	return 0;
}

static int nfs_ns_rw(struct sm_engine *e, const struct sm_fh *fh, void *buf, size_t len, uint64_t off,
		     size_t *done, int wr)
{
	struct nfs_priv *p = e->priv;
	const struct nfs_h *h = fh->obj;
	size_t at = 0;
	int n = 0;

	if (!h || !h->fh) {
		*done = 0;
		return -EBADF;
	}
	while (at < len) {
		uint64_t left = len - at, max = wr ? p->wmax : p->rmax;

		n = wr ? nfs_pwrite(p->nfs, h->fh, off + at, left < max ? left : max, (char *)buf + at)
		       : nfs_pread(p->nfs, h->fh, off + at, left < max ? left : max, (char *)buf + at);
		if (n < 0)
			break;   /* libnfs gives -errno */
		if (n == 0) {
			n = wr ? -EIO : 0;   /* a write that moves nothing never loops */
			break;
		}
		at += (size_t)n;
		n = 0;
	}
	*done = at;
	return n < 0 ? n : 0;
}

static int nfs_ns_pread(struct sm_engine *e, const struct sm_fh *fh, void *buf, size_t len,
			uint64_t off, size_t *done)
{
	return nfs_ns_rw(e, fh, buf, len, off, done, 0);
}

static int nfs_ns_pwrite(struct sm_engine *e, const struct sm_fh *fh, const void *buf, size_t len,
			 uint64_t off, size_t *done)
{
	return nfs_ns_rw(e, fh, (void *)buf, len, off, done, 1);
}

static const struct sm_ns_ops nfs_ns = {
	.open = nfs_ns_open,
	.close = nfs_ns_close,
	.unlink = nfs_ns_unlink,
	.stat = nfs_ns_stat,
	.mkdir = nfs_ns_mkdir,
	.rmdir = nfs_ns_rmdir,
	.readdir = nfs_ns_readdir,
	.pread = nfs_ns_pread,
	.pwrite = nfs_ns_pwrite,
};

static const struct sm_engine_ops sm_engine_nfs = {
	.name = "nfs",
	.help = "an NFS server through libnfs (no kernel mount), one request at a time per thread",
	.caps = 0,
	.probe = nfs_probe,
	.init = nfs_init,
	.submit = nfs_submit,
	.reap = nfs_reap,
	.exit = nfs_exit,
	.ns = &nfs_ns,
};

const struct sm_engine_ops *sm_nfs_engine_ops(void)
{
	return &sm_engine_nfs;
}
