/* SPDX-License-Identifier: MIT */
/* File-system facts, direct-I/O probe, cache dropping. */
#include "core/fsx.h"
#include "core/buf.h"
#include "core/compiler.h"
#include "os/os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The whole of a /proc file (its size is not known ahead), NUL-ended;
 * the caller frees it. NULL when it cannot be read. */
static char *read_text(const char *path)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap), *grown;
	FILE *f = fopen(path, "r");

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	for (;;) {
		len += fread(buf + len, 1, cap - len - 1, f);
		if (len < cap - 1)
			break;
		grown = realloc(buf, cap * 2);
		if (!grown) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = grown;
		cap *= 2;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

int sm_fs_info(const char *path, struct sm_fs_info *out)
{
	struct stat st;
	struct statvfs vfs;
	char real[PATH_MAX], *text;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st))
		return -errno;
	out->dev_major = major(st.st_dev);
	out->dev_minor = minor(st.st_dev);
	out->block_size = (unsigned)st.st_blksize;
	if (!statvfs(path, &vfs)) {
		out->free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		out->total_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	}
	if (!realpath(path, real))
		return -errno;
	text = read_text("/proc/self/mountinfo");
	/* The longest mount point that prefixes the path and has the same
	 * device wins (bind mounts and overmounts share prefixes). */
	if (!text || sm_mount_find(text, real, 1, out->dev_major, out->dev_minor, &out->mount,
				   out->fs_type, sizeof(out->fs_type), out->device, sizeof(out->device),
				   out->mount_point, sizeof(out->mount_point))) {
		/* no mountinfo (or no line for it): statfs' magic still names a share */
		unsigned long magic;
		const char *name = sm_os_fs_magic(path, &magic) ? NULL : sm_mount_magic_name(magic);

		if (name) {
			snprintf(out->mount.protocol, sizeof(out->mount.protocol), "%s", name);
			out->mount.kind = !strcmp(name, "fuse") ? SM_MOUNT_FUSE : SM_MOUNT_NETWORK;
		}
	}
	free(text);
	return 0;
}

int sm_direct_probe(const char *dir)
{
	static const unsigned sizes[] = { 512, 1024, 2048, 4096 };
	char path[PATH_MAX];
	void *buf;
	int fd, rc = -EINVAL;

	if (snprintf(path, sizeof(path), "%s/.stormark-probe-XXXXXX", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	close(fd);
	fd = open(path, O_RDWR | sm_os_direct_oflag());
	if (fd < 0) {
		rc = -errno;
		unlink(path);
		return rc;
	}
	/* no direct I/O on this platform: as a file system that refuses it */
	rc = sm_os_direct_fd(fd);
	if (rc) {
		close(fd);
		unlink(path);
		return rc == -ENOTSUP ? -EINVAL : rc;
	}
	rc = -EINVAL;
	buf = sm_buf_alloc(4096, 4096);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	memset(buf, 0, 4096);
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ssize_t n = pwrite(fd, buf, sizes[i], 0);

		if (n == (ssize_t)sizes[i]) {
			rc = (int)sizes[i];
			break;
		}
		if (n < 0 && errno != EINVAL) {
			rc = -errno;
			break;
		}
	}
out:
	free(buf);
	close(fd);
	unlink(path);
	return rc;
}

int sm_direct_probe_read(const char *file)
{
	static const unsigned sizes[] = { 512, 1024, 2048, 4096 };
	void *buf;
	int fd, rc = -EINVAL;

	fd = open(file, O_RDONLY | sm_os_direct_oflag() | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = sm_os_direct_fd(fd);
	if (rc) {
		close(fd);
		return rc == -ENOTSUP ? -EINVAL : rc;
	}
	rc = -EINVAL;
	buf = sm_buf_alloc(4096, 4096);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ssize_t n = pread(fd, buf, sizes[i], 0);

		if (n >= 0) {
			rc = (int)sizes[i];
			break;
		}
		if (errno != EINVAL) {
			rc = -errno;
			break;
		}
	}
	free(buf);
	close(fd);
	return rc;
}

static uint64_t meminfo(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			sscanf(line + klen + 1, "%llu", &kb);
			break;
		}
	}
	fclose(f);
	return (uint64_t)kb * 1024;
}

uint64_t sm_mem_available(void)
{
	return meminfo("MemAvailable");
}

uint64_t sm_mem_total(void)
{
	return meminfo("MemTotal");
}

int sm_drop_caches(void)
{
	int fd, rc = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		rc = -errno;
	close(fd);
	return rc;
}

void sm_kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s %s", u.sysname, u.release);
}

void sm_cpu_arch(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s", u.machine);
}

/* The value of the first line of text whose key (before the ':', blanks
 * trimmed) is key, blanks squeezed, into buf; 1 when found. */
static int cpuinfo_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n'), *colon = strchr(l, ':'), *k = l;
		size_t n = 0;
		int blank = 0;

		if (!end)
			end = l + strlen(l);
		if (!colon || colon > end)
			continue;
		while (colon > k && (colon[-1] == ' ' || colon[-1] == '\t'))
			colon--;
		if ((size_t)(colon - k) != klen || strncmp(k, key, klen))
			continue;
		for (const char *v = strchr(colon, ':') + 1; v < end && len; v++) {
			if (*v == ' ' || *v == '\t' || *v == '\r') {
				blank = n > 0;
				continue;
			}
			if (blank && n + 1 < len)
				buf[n++] = ' ';
			blank = 0;
			if (n + 1 < len)
				buf[n++] = *v;
		}
		if (len)
			buf[n] = '\0';
		return n > 0;
	}
	return 0;
}

void sm_cpuinfo_model(const char *cpuinfo, char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Model", "Hardware", "cpu" };

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (cpuinfo_field(cpuinfo, keys[i], buf, len))
			return;
	if (len)
		buf[0] = '\0';
}

void sm_cpu_model(char *buf, size_t len)
{
	/* ARM's "Model" and "Hardware" lines come after every CPU's block */
	size_t cap = 1u << 20, n = 0;
	char *text = malloc(cap);
	int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);

	if (len)
		buf[0] = '\0';
	if (fd >= 0 && text) {
		while (n < cap - 1) {
			ssize_t got = read(fd, text + n, cap - 1 - n);

			if (got <= 0)
				break;
			n += (size_t)got;
		}
		text[n] = '\0';
		sm_cpuinfo_model(text, buf, len);
	}
	if (fd >= 0)
		close(fd);
	free(text);
}

int sm_is_dir(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return S_ISDIR(st.st_mode) ? 1 : -ENOTDIR;
}

int sm_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, len + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return sm_is_dir(tmp) == 1 ? 0 : -ENOTDIR;
}

int sm_parent_dir(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return snprintf(out, len, ".") < 0 ? -EINVAL : 0;
	if (slash == path)
		return snprintf(out, len, "/") < 0 ? -EINVAL : 0;
	if ((size_t)(slash - path) >= len)
		return -ENAMETOOLONG;
	memcpy(out, path, (size_t)(slash - path));
	out[slash - path] = '\0';
	return 0;
}

static int rm_one(const char *path, SM_UNUSED const struct stat *st, SM_UNUSED int flag,
		SM_UNUSED struct FTW *ftw)
{
	return remove(path) ? -errno : 0;
}

static int rm_walk(const char *path)
{
	int rc;

	errno = 0;
	rc = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (rc < -1 || rc > 0)          /* rm_one's -errno */
		return rc > 0 ? -rc : rc;
	if (rc == -1)
		return errno == ENOENT ? 0 : -errno;
	return 0;
}

int sm_rm_tree(const char *path)
{
	int rc = rm_walk(path);

	/* FUSE sends a closed file's release after close() has returned;
	 * a file unlinked before it arrives is renamed .fuse_hidden* by
	 * libfuse, and the directory is not empty for a moment. Up to 1 s
	 * for that. */
	for (int i = 0; i < 20 && (rc == -ENOTEMPTY || rc == -EBUSY); i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		rc = rm_walk(path);
	}
	return rc;
}


int sm_fs_root(const char *path)
{
	char parent[PATH_MAX];
	struct stat self, up;
	int n;

	n = snprintf(parent, sizeof(parent), "%s/..", path);
	if (n < 0 || (size_t)n >= sizeof(parent))
		return -ENAMETOOLONG;
	if (stat(path, &self) || stat(parent, &up))
		return -errno;
	return self.st_dev != up.st_dev || self.st_ino == up.st_ino;
}

const char *sm_path_problem(const char *path)
{
	const char *p = path;

	if (!*path)
		return "is empty";
	if (strlen(path) >= PATH_MAX)
		return "is longer than the system allows (PATH_MAX, 4096 bytes)";
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n > NAME_MAX)
			return "has a name longer than the system allows (NAME_MAX, 255 bytes)";
		p += n;
		p += strspn(p, "/");
	}
	return NULL;
}

const char *sm_root_refusal(const char *dir)
{
	static char msg[PATH_MAX + 200];
	char *real;
	int root;

	if (sm_fs_root(dir) <= 0)
		return NULL;
	real = realpath(dir, NULL);
	root = real && !strcmp(real, "/");
	snprintf(msg, sizeof(msg), root
		 ? "'%s' is the root directory; test files there would sit among the system's own: "
		   "choose a directory under it, or add --force"
		 : "'%s' is the root of a file system (a mount point); test files there would sit "
		   "among everything else on it: choose a directory under it, or add --force", dir);
	free(real);
	return msg;
}

/* Does directory path hold only names a file system gives a removed file
 * still open (.fuse_hidden*, .nfs*)? */
static int only_removed_names(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int only = d != NULL;

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (strncmp(de->d_name, ".fuse_hidden", 12) && strncmp(de->d_name, ".nfs", 4)) {
			only = 0;
			break;
		}
	}
	if (d)
		closedir(d);
	return only;
}

int sm_rmdir_settle(const char *path)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 200; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;   /* gone: removed, or never made */
		if (errno != ENOTEMPTY && errno != EEXIST)
			return -errno;
		if (!only_removed_names(path))
			return -ENOTEMPTY;
		nanosleep(&nap, NULL);
	}
	return -ENOTEMPTY;
}

int sm_dir_check_writable(const char *dir)
{
	/* access() also says EROFS for root, who may write anywhere else */
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

int sm_write_all(int fd, const void *buf, size_t len, int64_t off, size_t *done)
{
	size_t at = 0;
	int still = 0, rc = 0;

	while (at < len) {
		const char *p = (const char *)buf + at;
		ssize_t n = off < 0 ? write(fd, p, len - at) : pwrite(fd, p, len - at, (off_t)(off + (int64_t)at));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0) {
			/* nothing moved and nothing said: once more for the
			 * reason, rather than a guess */
			if (still++) {
				rc = -EIO;
				break;
			}
			continue;
		}
		still = 0;
		at += (size_t)n;
	}
	if (done)
		*done = at;
	return rc;
}
