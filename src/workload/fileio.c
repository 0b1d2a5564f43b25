/* SPDX-License-Identifier: MIT */
/* sysbench-fileio workload: plan defaults, the shared request generator,
 * and the prepare / open / cleanup of test_file.N (blocks sealed for
 * --validate and --verify as fileio_verify.c checks them). */
#include "workload/fileio.h"
#include "core/units.h"
#include "core/u128.h"
#include "engine/engine.h"
#include "core/clock.h"
#include "core/rng.h"
#include "core/fsx.h"
#include "core/seal.h"
#include "core/worker.h"
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sm_fileio_path(const struct sm_fileio_cfg *cfg, unsigned i, char *buf, size_t len)
{
	/* Relative names in the current directory, as sysbench prints them. */
	if (!cfg->dir || !strcmp(cfg->dir, "."))
		snprintf(buf, len, "test_file.%u", cfg->first_file + i);
	else
		snprintf(buf, len, "%s/test_file.%u", cfg->dir, cfg->first_file + i);
}

/* ---- generator ----------------------------------------------------------- */

struct sm_fileio_gen {
	pthread_mutex_t mu;
	enum sm_fileio_mode mode;
	unsigned nfiles, freq;
	uint64_t file_size, block, req_size, span, seed, max_events;
	double ratio;
	/* shared state, under mu */
	uint64_t req, events, reads, writes, pos;
	unsigned fsync_file, cur_file;
	int dirty;
	/* --validate/--verify: block held by each slot (key + 1), 0 when free */
	uint64_t *busy;
	unsigned nslots;
};

struct sm_fileio_gen *sm_fileio_gen_new(const struct sm_fileio_cfg *cfg, unsigned slots)
{
	struct sm_fileio_gen *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	pthread_mutex_init(&g->mu, NULL);
	g->mode = cfg->mode;
	g->nfiles = cfg->num_files;
	g->freq = cfg->fsync_all ? 0 : cfg->fsync_freq;
	g->file_size = cfg->file_size;
	g->block = cfg->block_size;
	g->req_size = sm_fileio_request_size(cfg);
	/* sysbench draws over --file-total-size and can pick file N (one past
	 * the end) when the total is not a multiple of the count; stay inside. */
	g->span = cfg->file_size * cfg->num_files;
	g->seed = cfg->seed;
	g->max_events = cfg->max_events;
	g->ratio = cfg->rw_ratio;
	if (sm_fileio_sealing(cfg) && slots) {
		g->busy = calloc(slots, sizeof(*g->busy));
		if (!g->busy) {
			free(g);
			return NULL;
		}
		g->nslots = slots;
	}
	return g;
}

void sm_fileio_gen_free(struct sm_fileio_gen *g)
{
	if (!g)
		return;
	pthread_mutex_destroy(&g->mu);
	free(g->busy);
	free(g);
}

static int block_busy(const struct sm_fileio_gen *g, uint64_t key)
{
	for (unsigned i = 0; i < g->nslots; i++)
		if (g->busy[i] == key)
			return 1;
	return 0;
}

static void gen_random(struct sm_fileio_gen *g, struct sm_fileio_req *r, unsigned slot)
{
	uint64_t n = g->req, salt = 0, pos;

	for (;;) {
		uint64_t h = sm_hash64(g->seed + salt * 0x9e3779b97f4a7c15ULL, n);

		pos = sm_u128_hi(sm_u128_mul(h, g->span));
		pos -= pos % g->block;
		r->file = (unsigned)(pos / g->file_size);
		r->off = pos % g->file_size;
		/* keep two in-flight requests off one block when validating; give
		 * up after many tries (a set smaller than the number of slots) */
		if (!g->busy || salt > 64 || !block_busy(g, ((uint64_t)r->file << 48 | r->off) + 1))
			break;
		salt++;
	}
	r->len = g->file_size - r->off < g->block ? g->file_size - r->off : g->block;
	if (g->busy)
		g->busy[slot] = ((uint64_t)r->file << 48 | r->off) + 1;
}

static void gen_seq(struct sm_fileio_gen *g, struct sm_fileio_req *r)
{
	if (g->cur_file == g->nfiles) {
		g->cur_file = 0;
		g->pos = 0;
	}
	r->file = g->cur_file;
	r->off = g->pos;
	r->len = g->file_size - g->pos < g->req_size ? g->file_size - g->pos : g->req_size;
	g->pos += r->len;
	if (g->pos == g->file_size) {
		g->cur_file++;
		g->pos = 0;
	}
}

static int gen_one(struct sm_fileio_gen *g, struct sm_fileio_req *r, unsigned slot)
{
	int write;

	if (g->max_events && g->events >= g->max_events)
		return 0;
	r->event = g->events++;
	if (g->freq && g->dirty && g->req % g->freq == 0) {
		r->op = SM_OP_FSYNC;
		r->file = g->fsync_file++;
		r->off = r->len = 0;
		if (g->fsync_file == g->nfiles) {
			g->fsync_file = 0;
			g->dirty = 0;
		}
		return 1;
	}
	switch (g->mode) {
	case SM_FIO_SEQRD:
	case SM_FIO_RNDRD:
		write = 0;
		break;
	case SM_FIO_RNDRW:
		write = ((double)g->reads + 1.0) / ((double)g->writes + 1.0) >= g->ratio;
		break;
	default:
		write = 1;
	}
	if (g->mode <= SM_FIO_SEQRD)
		gen_seq(g, r);
	else
		gen_random(g, r, slot);
	g->req++;
	if (write) {
		g->writes++;
		g->dirty = 1;
	} else {
		g->reads++;
	}
	r->op = write ? SM_OP_WRITE : SM_OP_READ;
	return 1;
}

unsigned sm_fileio_gen_next(struct sm_fileio_gen *g, struct sm_fileio_req *out, unsigned max,
			    const unsigned *slots)
{
	unsigned n = 0;

	pthread_mutex_lock(&g->mu);
	while (n < max && gen_one(g, &out[n], slots ? slots[n] : 0))
		n++;
	pthread_mutex_unlock(&g->mu);
	return n;
}

void sm_fileio_gen_release(struct sm_fileio_gen *g, unsigned slot)
{
	if (!g->busy)
		return;
	pthread_mutex_lock(&g->mu);
	g->busy[slot] = 0;
	pthread_mutex_unlock(&g->mu);
}

/* ---- prepare ------------------------------------------------------------------- */

static int open_flags(const struct sm_fileio_cfg *cfg)
{
	int f = 0;

	if (cfg->extra_flags & SM_FIO_FLAG_SYNC)
		f |= O_SYNC;
	if (cfg->extra_flags & SM_FIO_FLAG_DSYNC)
		f |= O_DSYNC;
	if (cfg->extra_flags & SM_FIO_FLAG_DIRECT)
		f |= sm_os_direct_oflag();
	return f;
}

/* 1 when the first block of test file i carries a trailer for this block
 * size (the file was prepared with --validate or --verify), else 0. */
static int sealed_file(const struct sm_fileio_cfg *cfg, unsigned i, const char *path)
{
	struct sm_vblk_id id;
	void *buf = malloc(cfg->block_size);
	int fd = open(path, O_RDONLY | O_NOFOLLOW), ok = 0;

	if (fd >= 0 && buf && pread(fd, buf, cfg->block_size, 0) == (ssize_t)cfg->block_size)
		ok = sm_verify_peek(buf, (uint32_t)cfg->block_size, &id) && id.file == cfg->first_file + i;
	if (fd >= 0)
		close(fd);
	free(buf);
	return ok;
}

int sm_fileio_find_short(const struct sm_fileio_cfg *cfg, char *path, size_t len, uint64_t *end)
{
	struct stat st;

	for (unsigned i = 0; i < cfg->num_files; i++) {
		sm_fileio_path(cfg, i, path, len);
		if (!lstat(path, &st) && (uint64_t)st.st_size < cfg->file_size) {
			*end = (uint64_t)st.st_size;
			return 1;
		}
	}
	return 0;
}

int sm_fileio_set_sealed(const struct sm_fileio_cfg *cfg)
{
	char path[4096];

	sm_fileio_path(cfg, 0, path, sizeof(path));
	return sealed_file(cfg, 0, path);
}

/* Does the regular file at path carry the seal of test file index? 1 yes,
 * 0 no, -errno when it cannot be opened or its attributes read (-ENOTSUP:
 * the file system keeps no user extended attributes). */
static int owned_file(const char *path, unsigned index)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = sm_seal_check(fd, index);
	close(fd);
	return rc;
}

int sm_fileio_prep_scan(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p)
{
	char path[4096];

	memset(p, 0, sizeof(*p));
	p->first_unsealed = -1;
	p->first_file = cfg->first_file;
	p->state = calloc(cfg->num_files, sizeof(*p->state));
	p->old_size = calloc(cfg->num_files, sizeof(*p->old_size));
	p->existed = calloc(cfg->num_files, 1);
	if (!p->state || !p->old_size || !p->existed) {
		sm_fileio_prep_release(p);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < cfg->num_files; i++) {
		struct stat st;

		sm_fileio_path(cfg, i, path, sizeof(path));
		p->err_file = (int)i;
		if (lstat(path, &st)) {
			if (errno != ENOENT)
				return -errno;
			p->state[i] = SM_FIO_CREATE;
			continue;
		}
		if (S_ISLNK(st.st_mode))
			return -ELOOP;
		if (!S_ISREG(st.st_mode))
			return -EEXIST;
		if (cfg->ownership) {
			int rc = owned_file(path, cfg->first_file + i);

			if (rc <= 0)
				return rc < 0 && rc != -ENOTSUP ? rc : -EPERM;
		}
		p->existed[i] = 1;
		p->old_size[i] = (uint64_t)st.st_size;
		p->state[i] = p->old_size[i] >= cfg->file_size ? SM_FIO_REUSE
			      : p->old_size[i] ? SM_FIO_EXTEND : SM_FIO_CREATE;
		if (p->state[i] == SM_FIO_REUSE && sm_fileio_sealing(cfg) && !sealed_file(cfg, i, path)) {
			/* a reused file without trailers: --verify writes it
			 * again; --validate (sysbench's) reuses it and says
			 * that it cannot check it */
			if (cfg->verify) {
				p->state[i] = SM_FIO_EXTEND;
			} else if (!p->unsealed_reused++) {
				p->first_unsealed = (int)i;
			}
		}
	}
	return 0;
}

void sm_fileio_prep_release(struct sm_fileio_prep *p)
{
	free(p->state);
	free(p->old_size);
	free(p->existed);
	p->state = NULL;
	p->old_size = NULL;
	p->existed = NULL;
}

struct prep_ctx {
	const struct sm_fileio_cfg *cfg;
	struct sm_fileio_prep *p;
	atomic_uint next_file;
	atomic_ullong written;
	atomic_ullong sealed, seal_ns;
	atomic_int abort;
	pthread_mutex_t mu;        /* guards p->err* */
	struct sm_start start;
	void (*on_file)(void *arg, unsigned i);   /* one thread, files in order */
	void *on_file_arg;
};

struct prep_arg {
	struct prep_ctx *ctx;
	unsigned id;
};

static void prep_fail(struct prep_ctx *c, unsigned file, int err, int removed, int in_write)
{
	pthread_mutex_lock(&c->mu);
	if (!c->p->err) {
		c->p->err = err;
		c->p->err_in_write = in_write;
		c->p->err_file = (int)file;
		c->p->err_removed = removed;
		c->p->disk_full = err == -ENOSPC || err == -EDQUOT;
	}
	pthread_mutex_unlock(&c->mu);
	atomic_store(&c->abort, 1);
}

/* After a failed prepare of file i, open at fd: leave nothing half-written
 * that could pass for a prepared file. A file we created is removed, but
 * only while its name still leads to the file we wrote (there is no
 * unlink by descriptor); a file we extended is cut back through the
 * descriptor, never by name. Returns 1 (removed), 2 (cut back) or 0. */
static int prep_undo(struct prep_ctx *c, unsigned i, int fd, const char *path)
{
	struct stat mine, named;

	if (c->p->existed[i])
		return ftruncate(fd, (off_t)c->p->old_size[i]) ? 0 : 2;
	if (fstat(fd, &mine) || lstat(path, &named) || mine.st_dev != named.st_dev ||
	    mine.st_ino != named.st_ino)
		return 0;
	return unlink(path) ? 0 : 1;
}

/* Write blocks from the file's current end until it reaches file_size (whole
 * blocks, as sysbench does). Returns 0 or -errno; on failure *removed says
 * what prep_undo() did with the file. */
static int prep_file(struct prep_ctx *c, unsigned i, unsigned char *buf, uint64_t chunk,
		     int *removed, int *in_write)
{
	const struct sm_fileio_cfg *cfg = c->cfg;
	char path[4096];
	/* --verify writes a file it extends from the start: a block from
	 * before has another set (or none), which a run would report */
	uint64_t off = cfg->verify ? 0 : c->p->old_size[i], n = 0;
	int fd, rc = 0;

	sm_fileio_path(cfg, i, path, sizeof(path));
	/* O_NOFOLLOW: a symlink put here after the scan is refused (ELOOP),
	 * never followed to extend a file outside the directory */
	/* Under stormark's name a file that was not there is created with
	 * O_EXCL, so one that appears meanwhile is left alone; one that was
	 * there passed the ownership check in sm_fileio_prep_scan(). */
	fd = open(path, O_WRONLY | O_NOFOLLOW | open_flags(cfg) |
		  (cfg->ownership && !c->p->existed[i] ? O_CREAT | O_EXCL : O_CREAT), 0600);
	if (fd < 0)
		return -errno;
	/* the ownership seal, under either name, so that `stormark fileio`
	 * may use a set `sysbench` prepared; under sysbench's name a file system without
	 * user extended attributes is no reason to fail */
	rc = sm_seal_set(fd, cfg->first_file + i, cfg->file_size);
	if (rc == -ENOTSUP && !cfg->ownership)
		rc = 0;
	if (rc)
		goto out;
	while (off < cfg->file_size && !atomic_load(&c->abort)) {
		if (sm_stopped()) {
			rc = -EINTR;      /* SIGINT: stop, and clean up this file */
			goto out;
		}
		uint64_t left = cfg->file_size - off;
		uint64_t blocks = (left + cfg->block_size - 1) / cfg->block_size;
		uint64_t len = blocks * cfg->block_size < chunk ? blocks * cfg->block_size : chunk;
		size_t done = 0;

		sm_buf_stamp(buf, len, cfg->data, cfg->seed, (uint64_t)i << 32 | n++);
		if (sm_fileio_sealing(cfg)) {
			struct sm_vblk_id id = { .set = c->p->set_id, .run = c->p->set_id, .off = off,
						 .file = cfg->first_file + i };
			uint64_t t0 = sm_now_ns();

			atomic_fetch_add(&c->sealed, sm_verify_seal_range(buf, len, cfg->block_size, &id));
			atomic_fetch_add(&c->seal_ns, sm_now_ns() - t0);
		}
		rc = sm_write_all(fd, buf, (size_t)len, (int64_t)off, &done);
		if (rc) {
			*in_write = 1;
			atomic_fetch_add(&c->written, done);
			goto out;
		}
		atomic_fetch_add(&c->written, len);
		off += len;
	}
	if (!atomic_load(&c->abort) && fsync(fd))
		rc = -errno;
	if (atomic_load(&c->abort) && off < cfg->file_size)
		rc = -ECANCELED;
	/* --verify: the file's block map says every block holds this
	 * prepare's write; without a map of its own (a file that is not a map
	 * has the name) a run checks the file by its set only, as it says */
	if (!rc && cfg->verify) {
		uint64_t set = c->p->set_id;

		if (sm_fileio_vmap_save(cfg, i, set, NULL, &set, 1))
			sm_fileio_vmap_remove(cfg, i);
	}
out:
	if (rc)
		*removed = prep_undo(c, i, fd, path);
	close(fd);
	return rc;
}

static void *prep_worker(void *argp)
{
	struct prep_arg *a = argp;
	struct prep_ctx *c = a->ctx;
	const struct sm_fileio_cfg *cfg = c->cfg;
	uint64_t chunk = cfg->block_size;
	unsigned char *buf;

	if (sm_start_wait(&c->start))
		return NULL;
	/* Write up to ~1 MiB per call: whole blocks, fewer system calls. */
	if (chunk < (1u << 20))
		chunk *= (1u << 20) / chunk;
	buf = sm_buf_alloc(chunk, SM_BUF_ALIGN);
	if (!buf) {
		prep_fail(c, 0, -ENOMEM, 0, 0);
		return NULL;
	}
	sm_buf_fill(buf, chunk, cfg->data, cfg->seed ^ (a->id + 1));
	for (;;) {
		unsigned i = atomic_fetch_add(&c->next_file, 1);
		int removed = 0, in_write = 0, rc;

		if (i >= cfg->num_files || atomic_load(&c->abort))
			break;
		if (c->on_file)
			c->on_file(c->on_file_arg, i);
		if (c->p->state[i] == SM_FIO_REUSE)
			continue;
		/* a file that could not be opened (one that appeared
		 * under a new file's name: -EEXIST) is left as it is */
		rc = prep_file(c, i, buf, chunk, &removed, &in_write);
		if (rc && rc != -ECANCELED)
			prep_fail(c, i, rc, removed, in_write);
	}
	free(buf);
	return NULL;
}

int sm_fileio_prepare(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p,
		      void (*on_file)(void *arg, unsigned i), void *arg)
{
	struct prep_ctx c;
	struct prep_arg *args;
	unsigned n = cfg->threads && !on_file ? cfg->threads : 1;
	uint64_t t0;
	int rc;

	if (n > cfg->num_files)
		n = cfg->num_files;
	memset(&c, 0, sizeof(c));
	c.cfg = cfg;
	c.p = p;
	c.on_file = on_file;
	c.on_file_arg = arg;
	pthread_mutex_init(&c.mu, NULL);
	sm_start_init(&c.start);
	args = calloc(n, sizeof(*args));
	if (!args)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		args[i].ctx = &c;
		args[i].id = i;
	}
	if (sm_fileio_sealing(cfg))
		p->set_id = sm_verify_new_id();
	t0 = sm_now_ns();
	rc = sm_threads_run(n, prep_worker, args, sizeof(*args), &c.start);
	p->duration_ns = sm_now_ns() - t0;
	p->written = atomic_load(&c.written);
	p->sealed = atomic_load(&c.sealed);
	p->seal_ns = atomic_load(&c.seal_ns);
	free(args);
	pthread_mutex_destroy(&c.mu);
	if (rc)
		return rc;
	return p->err;
}

int sm_fileio_cleanup(const struct sm_fileio_cfg *cfg, unsigned *bad)
{
	char path[4096];
	int removed = 0;

	/* A symlink under a test file's name is not ours: refuse before
	 * removing anything (unlink would only drop the link, but the user
	 * put it there). */
	for (unsigned i = 0; i < cfg->num_files; i++) {
		struct stat st;
		int rc;

		sm_fileio_path(cfg, i, path, sizeof(path));
		if (lstat(path, &st))
			continue;
		*bad = i;
		if (S_ISLNK(st.st_mode))
			return -ELOOP;
		/* stormark's name: only the files its prepare sealed */
		if (cfg->ownership && (!S_ISREG(st.st_mode) || (rc = owned_file(path, cfg->first_file + i)) <= 0))
			return !S_ISREG(st.st_mode) || !rc || rc == -ENOTSUP ? -EPERM : rc;
	}
	for (unsigned i = 0; i < cfg->num_files; i++) {
		if (sm_stopped()) {   /* between two files: the set is left whole or shorter */
			*bad = i;
			return -EINTR;
		}
		sm_fileio_path(cfg, i, path, sizeof(path));
		sm_fileio_vmap_remove(cfg, i);   /* its --verify block map, when it is one */
		if (unlink(path)) {
			if (errno != ENOENT)
				return -errno;
			continue;
		}
		removed++;
	}
	return removed;
}

int sm_fileio_open(const struct sm_fileio_cfg *cfg, int **fds_out, char *msg, size_t msglen,
		   int *missing)
{
	int *fds = malloc(cfg->num_files * sizeof(*fds));
	char path[4096];
	unsigned i;
	int rc = 0;

	*missing = 0;
	if (!fds)
		return -ENOMEM;
	for (i = 0; i < cfg->num_files; i++)
		fds[i] = -1;
	/* A symlink (or, sealed, a file without its seal) under any test
	 * file's name is refused before seqwr empties a single file (the open
	 * below uses O_NOFOLLOW as well). */
	for (i = 0; i < cfg->num_files; i++) {
		struct stat st;

		sm_fileio_path(cfg, i, path, sizeof(path));
		if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
			snprintf(msg, msglen, "'%s' is a symbolic link; not following it", path);
			free(fds);
			return -ELOOP;
		}
		/* stormark's name: a file without its ownership seal is
		 * neither rewritten nor (seqwr) removed; all are checked before
		 * any is touched */
		if (cfg->ownership && !lstat(path, &st) && (rc = owned_file(path, cfg->first_file + i)) <= 0) {
			snprintf(msg, msglen, rc == -ENOTSUP
				 ? "'%s' carries no seal: this file system keeps no user extended attributes; not touching it"
				 : "'%s' was not prepared by stormark fileio; not touching it", path);
			free(fds);
			return -EPERM;
		}
	}
	for (i = 0; i < cfg->num_files; i++) {
		struct stat st;

		sm_fileio_path(cfg, i, path, sizeof(path));
		if (cfg->mode == SM_FIO_SEQWR) {
			/* the creation test starts from empty files */
			int fd;

			unlink(path);
			fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
			if (fd < 0) {
				rc = -errno;
				snprintf(msg, msglen, "Cannot create file '%s'", path);
				goto fail;
			}
			rc = sm_seal_set(fd, cfg->first_file + i, cfg->file_size);
			if (rc && (rc != -ENOTSUP || cfg->ownership)) {
				close(fd);
				snprintf(msg, msglen, "cannot seal '%s': %s", path, strerror(-rc));
				goto fail;
			}
			close(fd);
			rc = 0;
		}
		/* O_NOFOLLOW: a symlink put here after the check is refused too */
		fds[i] = open(path, O_RDWR | O_NOFOLLOW | open_flags(cfg), 0600);
		if (fds[i] < 0) {
			rc = -errno;
			*missing = rc == -ENOENT;
			if (rc == -ELOOP)
				snprintf(msg, msglen, "'%s' is a symbolic link; not following it", path);
			else
				snprintf(msg, msglen, "Cannot open file '%s' errno = %d (%s)", path, -rc,
					 strerror(-rc));
			goto fail;
		}
		/* where direct I/O is set on the open file (F_NOCACHE) */
		if ((cfg->extra_flags & SM_FIO_FLAG_DIRECT) && (rc = sm_os_direct_fd(fds[i]))) {
			snprintf(msg, msglen, "cannot ask for direct I/O on '%s': %s", path, strerror(-rc));
			goto fail;
		}
		if (cfg->mode == SM_FIO_SEQWR)
			continue;
		if (fstat(fds[i], &st)) {
			rc = -errno;
			snprintf(msg, msglen, "fstat() failed on file '%s'", path);
			goto fail;
		}
		if ((uint64_t)st.st_size < cfg->file_size) {
			char a[32], b[32];

			sm_fmt_size_g5(a, sizeof(a), (double)st.st_size);
			sm_fmt_size_g5(b, sizeof(b), (double)cfg->file_size);
			snprintf(msg, msglen, "Size of file '%s' is %sB, but at least %sB is expected.",
				 path, a, b);
			rc = -EFBIG;
			goto fail;
		}
	}
	if (cfg->io_mode == SM_FIO_IO_MMAP && cfg->mode == SM_FIO_SEQWR) {
		/* mappings need the whole length (sysbench extends too) */
		for (i = 0; i < cfg->num_files; i++)
			if (ftruncate(fds[i], (off_t)cfg->file_size)) {
				rc = -errno;
				snprintf(msg, msglen, "ftruncate() failed on file %u", i);
				goto fail;
			}
	}
	*fds_out = fds;
	return 0;
fail:
	sm_fileio_close(cfg, fds);
	return rc;
}

void sm_fileio_close(const struct sm_fileio_cfg *cfg, int *fds)
{
	if (cfg->nfs) {
		sm_fileio_nfs_close(fds);
		return;
	}
	if (!fds)
		return;
	for (unsigned i = 0; i < cfg->num_files; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}
