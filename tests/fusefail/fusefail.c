/* SPDX-License-Identifier: MIT */
/*
 * fusefail: a FUSE file system for stormark's fault tests. It passes every
 * call through to a backing directory, and fails reads, writes or fsyncs
 * once a given number of that kind have succeeded:
 *
 *   fusefail [--fail-read=N] [--fail-write=N] [--fail-fsync=N]
 *            [--errno=eio|enospc] [--only=TEXT] [--direct-io]
 *            BACKING MOUNTPOINT [fuse options]
 *
 * --fail-read=N: the first N read requests succeed, every later one fails
 * (likewise writes and fsyncs; fsync covers fdatasync). The counts are of
 * requests as the kernel sends them, which is not one per application
 * call: page-cache reads, readahead and request splitting change the
 * number. --errno picks the error returned (EIO by default). --only=TEXT
 * counts and fails only requests on files whose path contains TEXT (the
 * others always pass), to aim at one phase of a run. --direct-io
 * opens every file in FUSE's direct_io mode (no page cache, so every read
 * reaches this process; shared writable mmap is then refused by the
 * kernel); without it, a file opened O_DIRECT still gets direct_io, and
 * other opens drop the file's cached pages so reads reach us again.
 *
 * It mounts and then runs in the background, like any FUSE file system;
 * `fusermount3 -u MOUNTPOINT` ends it. Test code, not part of stormark.
 */
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/compiler.h"

enum { K_READ, K_WRITE, K_FSYNC, K__N };

static int backing = -1;                     /* the backing directory */
static char backing_path[PATH_MAX];          /* ... by name, for the xattr calls */
static long long fail_after[K__N] = { -1, -1, -1 };
static atomic_llong seen[K__N];
static int fail_errno = EIO;
static int direct_all;
static const char *only;                     /* --only=TEXT, or NULL */

/* fh: the backing descriptor, and bit 32 when the file is --only's */
#define FH_AIMED (1ULL << 32)
#define FD(fi) ((int)((fi)->fh & 0xffffffffu))

/* 0 when this request may pass, else the error to return. */
static int fault(int kind, const struct fuse_file_info *fi)
{
	long long n;

	if (fail_after[kind] < 0 || (only && !(fi->fh & FH_AIMED)))
		return 0;
	n = atomic_fetch_add(&seen[kind], 1);
	return n >= fail_after[kind] ? fail_errno : 0;
}

/* The backing-relative name of a FUSE path ("/" is "."). */
static const char *rel(const char *path)
{
	return path[1] ? path + 1 : ".";
}

static int ff_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	int rc = fi ? fstat(FD(fi), st) : fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW);

	return rc ? -errno : 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill, SM_UNUSED off_t off,
		      SM_UNUSED struct fuse_file_info *fi, SM_UNUSED enum fuse_readdir_flags flags)
{
	int fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY);
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		struct stat st;

		memset(&st, 0, sizeof(st));
		st.st_ino = e->d_ino;
		st.st_mode = (mode_t)DTTOIF(e->d_type);
		if (fill(buf, e->d_name, &st, 0, 0))
			break;
	}
	closedir(d);
	return 0;
}

static void set_mode(const char *path, struct fuse_file_info *fi)
{
	if (only && strstr(path, only))
		fi->fh |= FH_AIMED;
	if (direct_all || (fi->flags & O_DIRECT))
		fi->direct_io = 1;
	fi->keep_cache = 0;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	/* the kernel enforces O_DIRECT's alignment; the backing file need not */
	int fd = openat(backing, rel(path), fi->flags & ~(O_DIRECT | O_NOFOLLOW));

	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	set_mode(path, fi);
	return 0;
}

static int ff_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int fd = openat(backing, rel(path), (fi->flags & ~O_DIRECT) | O_CREAT, mode);

	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	set_mode(path, fi);
	return 0;
}

static int ff_read(SM_UNUSED const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	int e = fault(K_READ, fi);
	ssize_t n;

	if (e)
		return -e;
	n = pread(FD(fi), buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int ff_write(SM_UNUSED const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	int e = fault(K_WRITE, fi);
	ssize_t n;

	if (e)
		return -e;
	n = pwrite(FD(fi), buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int ff_fsync(SM_UNUSED const char *path, int datasync, struct fuse_file_info *fi)
{
	int e = fault(K_FSYNC, fi);

	if (e)
		return -e;
	return (datasync ? fdatasync(FD(fi)) : fsync(FD(fi))) ? -errno : 0;
}

static int ff_release(SM_UNUSED const char *path, struct fuse_file_info *fi)
{
	close(FD(fi));
	return 0;
}

static int ff_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, rc;

	if (fi)
		return ftruncate(FD(fi), size) ? -errno : 0;
	fd = openat(backing, rel(path), O_WRONLY);
	if (fd < 0)
		return -errno;
	rc = ftruncate(fd, size) ? -errno : 0;
	close(fd);
	return rc;
}

static int ff_fallocate(SM_UNUSED const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	return fallocate(FD(fi), mode, off, len) ? -errno : 0;
}

static int ff_unlink(const char *path)
{
	return unlinkat(backing, rel(path), 0) ? -errno : 0;
}

static int ff_mkdir(const char *path, mode_t mode)
{
	return mkdirat(backing, rel(path), mode) ? -errno : 0;
}

static int ff_rmdir(const char *path)
{
	return unlinkat(backing, rel(path), AT_REMOVEDIR) ? -errno : 0;
}

static int ff_rename(const char *from, const char *to, unsigned int flags)
{
	return renameat2(backing, rel(from), backing, rel(to), flags) ? -errno : 0;
}

static int ff_symlink(const char *target, const char *path)
{
	return symlinkat(target, backing, rel(path)) ? -errno : 0;
}

static int ff_readlink(const char *path, char *buf, size_t len)
{
	ssize_t n = readlinkat(backing, rel(path), buf, len - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int ff_chmod(const char *path, mode_t mode, SM_UNUSED struct fuse_file_info *fi)
{
	return fchmodat(backing, rel(path), mode, 0) ? -errno : 0;
}

static int ff_utimens(const char *path, const struct timespec tv[2], SM_UNUSED struct fuse_file_info *fi)
{
	return utimensat(backing, rel(path), tv, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

static int ff_statfs(SM_UNUSED const char *path, struct statvfs *sv)
{
	return fstatvfs(backing, sv) ? -errno : 0;
}

/* The backing file of a FUSE path, by name (no xattr call takes a dirfd). */
static int full(const char *path, char *out, size_t len)
{
	return snprintf(out, len, "%s%s", backing_path, path) >= (int)len ? -ENAMETOOLONG : 0;
}

static int ff_setxattr(const char *path, const char *name, const char *val, size_t size, int flags)
{
	char p[PATH_MAX * 2];
	int rc = full(path, p, sizeof(p));

	return rc ? rc : lsetxattr(p, name, val, size, flags) ? -errno : 0;
}

static int ff_getxattr(const char *path, const char *name, char *val, size_t size)
{
	char p[PATH_MAX * 2];
	int rc = full(path, p, sizeof(p));
	ssize_t n;

	if (rc)
		return rc;
	n = lgetxattr(p, name, val, size);
	return n < 0 ? -errno : (int)n;
}

static int ff_listxattr(const char *path, char *list, size_t size)
{
	char p[PATH_MAX * 2];
	int rc = full(path, p, sizeof(p));
	ssize_t n;

	if (rc)
		return rc;
	n = llistxattr(p, list, size);
	return n < 0 ? -errno : (int)n;
}

static int ff_removexattr(const char *path, const char *name)
{
	char p[PATH_MAX * 2];
	int rc = full(path, p, sizeof(p));

	return rc ? rc : lremovexattr(p, name) ? -errno : 0;
}

static void *ff_init(SM_UNUSED struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* the backing file system's inode numbers, no attribute caching: a
	 * test sees sizes as they are */
	cfg->use_ino = 1;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = ff_init,
	.getattr = ff_getattr,
	.readdir = ff_readdir,
	.open = ff_open,
	.create = ff_create,
	.read = ff_read,
	.write = ff_write,
	.fsync = ff_fsync,
	.release = ff_release,
	.truncate = ff_truncate,
	.fallocate = ff_fallocate,
	.unlink = ff_unlink,
	.mkdir = ff_mkdir,
	.rmdir = ff_rmdir,
	.rename = ff_rename,
	.symlink = ff_symlink,
	.readlink = ff_readlink,
	.chmod = ff_chmod,
	.utimens = ff_utimens,
	.statfs = ff_statfs,
	.setxattr = ff_setxattr,
	.getxattr = ff_getxattr,
	.listxattr = ff_listxattr,
	.removexattr = ff_removexattr,
};

static int usage(void)
{
	fprintf(stderr, "usage: fusefail [--fail-read=N] [--fail-write=N] [--fail-fsync=N] "
		"[--errno=eio|enospc] [--only=TEXT] [--direct-io] BACKING MOUNTPOINT [fuse options]\n");
	return 2;
}

static int count_arg(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || end == s || *end || *out < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	char *fargv[64];
	int fargc = 0, i;
	const char *dir = NULL;

	fargv[fargc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--fail-read=", 12)) {
			if (count_arg(a + 12, &fail_after[K_READ]))
				return usage();
		} else if (!strncmp(a, "--fail-write=", 13)) {
			if (count_arg(a + 13, &fail_after[K_WRITE]))
				return usage();
		} else if (!strncmp(a, "--fail-fsync=", 13)) {
			if (count_arg(a + 13, &fail_after[K_FSYNC]))
				return usage();
		} else if (!strcmp(a, "--errno=eio")) {
			fail_errno = EIO;
		} else if (!strcmp(a, "--errno=enospc")) {
			fail_errno = ENOSPC;
		} else if (!strncmp(a, "--only=", 7) && a[7]) {
			only = a + 7;
		} else if (!strcmp(a, "--direct-io")) {
			direct_all = 1;
		} else if (!dir && a[0] != '-') {
			dir = a;
		} else if (fargc < 60) {
			fargv[fargc++] = argv[i];
		} else {
			return usage();
		}
	}
	if (!dir || fargc < 2)
		return usage();
	/* opened before the daemon moves to "/" */
	backing = open(dir, O_RDONLY | O_DIRECTORY);
	if (backing < 0) {
		fprintf(stderr, "fusefail: cannot open '%s': %s\n", dir, strerror(errno));
		return 1;
	}
	if (!realpath(dir, backing_path)) {
		fprintf(stderr, "fusefail: cannot resolve '%s': %s\n", dir, strerror(errno));
		return 1;
	}
	fargv[fargc] = NULL;
	umask(0);
	return fuse_main(fargc, fargv, &ops, NULL);
}
