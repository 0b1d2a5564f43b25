/* SPDX-License-Identifier: MIT */
/* The --sqpoll/--iopoll check: one real read through a ring set up that
 * way on the storage a run will use (engine/uring.h). */
#include "engine/uring.h"
#include "engine/engine.h"
#include "core/buf.h"
#include "core/diskstats.h"
#include "core/fsx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PROBE_LEN 4096u

/* The whole disk under st_dev, its poll-queue switch: 1, 0, or -1 unknown. */
static int io_poll_of(dev_t dev, char *name, size_t len)
{
	struct sm_diskdev d;
	char path[160], v[8] = "";
	FILE *f;

	name[0] = '\0';
	if (sm_diskdev_resolve(major(dev), minor(dev), &d))
		return -1;
	snprintf(name, len, "%s", d.name);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/io_poll", d.name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(v, sizeof(v), f))
		v[0] = '\0';
	fclose(f);
	return v[0] == '1' ? 1 : v[0] == '0' ? 0 : -1;
}

/* A regular file of PROBE_LEN bytes or more among the first entries of
 * directory dir (a read test's frames), opened with oflags; or -1. */
static int file_in(const char *dir, int oflags)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int fd = -1, looked = 0;

	if (!d)
		return -1;
	while (fd < 0 && looked++ < 64 && (de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_size < PROBE_LEN)
			continue;
		fd = openat(dirfd(d), de->d_name, oflags);
	}
	closedir(d);
	return fd;
}

/* The file to read: path itself, a file in it (a directory), or a scratch
 * file of PROBE_LEN bytes in the directory (path, or its parent), unlinked
 * at once. */
static int probe_file(const char *path, int direct, char *why, size_t len)
{
	int oflags = O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0);
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
	struct stat st;
	char *buf;
	int have = stat(path, &st) == 0, fd, rc;

	if (have && (S_ISBLK(st.st_mode) ||
				     (S_ISREG(st.st_mode) && st.st_size >= PROBE_LEN))) {
		fd = open(path, oflags);
		if (fd < 0) {
			rc = -errno;
			snprintf(why, len, "cannot open '%s'%s: %s", path, direct ? " with O_DIRECT" : "",
				 strerror(-rc));
			return rc;
		}
		return fd;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (have && S_ISDIR(st.st_mode) && (fd = file_in(dir, oflags)) >= 0)
		return fd;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(dir, '/');

		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
	}
	snprintf(tmp, sizeof(tmp), "%s/.stormark-poll-XXXXXX", dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(why, len, "cannot create a probe file in '%s': %s", dir, strerror(-rc));
		return rc;
	}
	unlink(tmp);
	buf = sm_buf_alloc(PROBE_LEN, PROBE_LEN);
	rc = buf ? 0 : -ENOMEM;
	if (buf) {
		memset(buf, 0x5a, PROBE_LEN);
		errno = 0;
		if (pwrite(fd, buf, PROBE_LEN, 0) != PROBE_LEN || fdatasync(fd))
			rc = errno ? -errno : -EIO;
		free(buf);
	}
	if (!rc && direct && fcntl(fd, F_SETFL, O_DIRECT))
		rc = -errno;
	if (rc) {
		snprintf(why, len, "%s in '%s': %s",
			 rc == -EINVAL && direct ? "O_DIRECT does not work (polled I/O needs it)"
						 : "cannot write a probe file",
			 dir, strerror(-rc));
		close(fd);
		return rc;
	}
	return fd;
}

int sm_uring_poll_check(const char *path, unsigned flags, char *why, size_t len)
{
	unsigned setup = (flags & SM_ENGINE_SQPOLL ? IORING_SETUP_SQPOLL : 0) |
			 (flags & SM_ENGINE_IOPOLL ? IORING_SETUP_IOPOLL : 0);
	const char *what = flags & SM_ENGINE_IOPOLL ? (flags & SM_ENGINE_SQPOLL ? "--sqpoll --iopoll"
										 : "--iopoll")
						   : "--sqpoll";
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct sm_fs_info fs;
	struct stat st;
	char *buf = NULL, disk[64], reason[400];
	int fd, rc, res, poll;

	why[0] = '\0';
	rc = io_uring_queue_init(2, &ring, setup);
	if (rc < 0) {
		snprintf(why, len, "%s: the kernel refuses an io_uring with %s: %s%s", what,
			 setup & IORING_SETUP_SQPOLL ? "a polling thread (IORING_SETUP_SQPOLL)"
						     : "polled completions (IORING_SETUP_IOPOLL)",
			 strerror(-rc),
			 rc == -EPERM ? " (unprivileged SQPOLL needs Linux 5.11)" : "");
		return rc;
	}
	fd = probe_file(path, !!(flags & SM_ENGINE_IOPOLL), reason, sizeof(reason));
	if (fd < 0) {
		snprintf(why, len, "%s: %s", what, reason);
		rc = fd;
		goto out;
	}
	buf = sm_buf_alloc(PROBE_LEN, PROBE_LEN);
	sqe = buf ? io_uring_get_sqe(&ring) : NULL;
	if (!sqe) {
		rc = -ENOMEM;
		snprintf(why, len, "%s: out of memory", what);
		goto out_fd;
	}
	io_uring_prep_read(sqe, fd, buf, PROBE_LEN, 0);
	rc = io_uring_submit_and_wait(&ring, 1);
	if (rc >= 0)
		rc = io_uring_wait_cqe(&ring, &cqe);
	if (rc < 0) {
		snprintf(why, len, "%s: a probe read could not be submitted: %s", what, strerror(-rc));
		goto out_fd;
	}
	res = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	if (res >= 0) {
		rc = 0;
		goto out_fd;
	}
	rc = res;
	memset(&fs, 0, sizeof(fs));
	sm_fs_info(path, &fs);
	poll = fstat(fd, &st) ? -1 : io_poll_of(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, disk,
					       sizeof(disk));
	if (rc == -EOPNOTSUPP && (flags & SM_ENGINE_IOPOLL) && poll == 0)
		snprintf(why, len, "%s: the device %s has no poll queues (/sys/block/%s/queue/io_poll "
			 "is 0): a polled read on %s fails with %s", what, disk, disk,
			 fs.mount_point[0] ? fs.mount_point : path, strerror(-rc));
	else if (rc == -EOPNOTSUPP && (flags & SM_ENGINE_IOPOLL))
		snprintf(why, len, "%s: %s%s%s does not do polled I/O: a polled read fails with %s",
			 what, fs.fs_type[0] ? fs.fs_type : "this file system", disk[0] ? " on " : "",
			 disk, strerror(-rc));
	else
		snprintf(why, len, "%s: a probe read on '%s' failed: %s", what, path, strerror(-rc));
out_fd:
	close(fd);
out:
	free(buf);
	io_uring_queue_exit(&ring);
	return rc;
}
