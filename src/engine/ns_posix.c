/* SPDX-License-Identifier: MIT */
/* The I/O namespace of the POSIX engines (engine.h, struct sm_ns_ops):
 * *at() system calls on descriptors, never following a link at the last
 * name, creates exclusive. psync, uring, mmap and null share it. */
#include "engine/engine.h"
#include "core/compiler.h"
#include "core/fsx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int dirfd_of(const struct sm_fh *dir)
{
	return dir ? dir->fd : AT_FDCWD;
}

static int px_open(SM_UNUSED struct sm_engine *e, const struct sm_fh *dir, const char *name,
		   unsigned flags, unsigned mode, struct sm_fh *out)
{
	int of = O_NOFOLLOW | O_CLOEXEC, fd;

	if (flags & SM_NS_DIR)
		of |= O_RDONLY | O_DIRECTORY;
	else if ((flags & SM_NS_READ) && (flags & SM_NS_WRITE))
		of |= O_RDWR;
	else
		of |= flags & SM_NS_WRITE ? O_WRONLY : O_RDONLY;
	if (flags & SM_NS_CREATE)
		of |= O_CREAT | O_EXCL;
	*out = SM_FH_NONE;
	fd = openat(dirfd_of(dir), name, of, (mode_t)mode);
	if (fd < 0)
		return -errno;
	out->fd = fd;
	return 0;
}

static int px_close(SM_UNUSED struct sm_engine *e, struct sm_fh *fh)
{
	int rc = fh->fd >= 0 && close(fh->fd) ? -errno : 0;

	*fh = SM_FH_NONE;
	return rc;
}

static int px_unlink(SM_UNUSED struct sm_engine *e, const struct sm_fh *dir, const char *name)
{
	return unlinkat(dirfd_of(dir), name, 0) ? -errno : 0;
}

static int px_stat(SM_UNUSED struct sm_engine *e, const struct sm_fh *dir, const char *name,
		   struct sm_ns_stat *out)
{
	struct stat st;

	if (fstatat(dirfd_of(dir), name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	out->type = S_ISREG(st.st_mode) ? SM_NS_FILE : S_ISDIR(st.st_mode) ? SM_NS_DIRECTORY
									 : SM_NS_OTHER;
	out->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	return 0;
}

static int px_mkdir(SM_UNUSED struct sm_engine *e, const struct sm_fh *dir, const char *name,
		    unsigned mode)
{
	return mkdirat(dirfd_of(dir), name, (mode_t)mode) ? -errno : 0;
}

static int px_rmdir(SM_UNUSED struct sm_engine *e, const struct sm_fh *dir, const char *name)
{
	return unlinkat(dirfd_of(dir), name, AT_REMOVEDIR) ? -errno : 0;
}

static int px_readdir(SM_UNUSED struct sm_engine *e, const struct sm_fh *dir,
		      int (*each)(void *arg, const char *name), void *arg)
{
	int fd = openat(dirfd_of(dir), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;
	struct dirent *de;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			rc = -errno;
			break;
		}
		if (each(arg, de->d_name))
			break;
	}
	closedir(d);
	return rc;
}

static int px_pread(SM_UNUSED struct sm_engine *e, const struct sm_fh *fh, void *buf, size_t len,
		    uint64_t off, size_t *done)
{
	size_t at = 0;

	while (at < len) {
		ssize_t n = pread(fh->fd, (char *)buf + at, len - at, (off_t)(off + at));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*done = at;
			return -errno;
		}
		if (n == 0)
			break;   /* end of file */
		at += (size_t)n;
	}
	*done = at;
	return 0;
}

static int px_pwrite(SM_UNUSED struct sm_engine *e, const struct sm_fh *fh, const void *buf,
		     size_t len, uint64_t off, size_t *done)
{
	return sm_write_all(fh->fd, buf, len, (int64_t)off, done);
}

const struct sm_ns_ops sm_ns_posix = {
	.open = px_open,
	.close = px_close,
	.unlink = px_unlink,
	.stat = px_stat,
	.mkdir = px_mkdir,
	.rmdir = px_rmdir,
	.readdir = px_readdir,
	.pread = px_pread,
	.pwrite = px_pwrite,
};
