/* SPDX-License-Identifier: MIT */
/* Test shim (LD_PRELOAD): a write that stops partway. The SM_SHORT_NTH-th
 * write() or pwrite() to a file whose path contains SM_SHORT_FILE moves half
 * of its bytes (SM_SHORT_MODE=half, the default) or none (zero) and returns
 * that count, as a file system does when an I/O error cuts a request
 * short; every later write to such a file fails with EIO. A writer that
 * takes the short count for a full disk says ENOSPC where the cause is
 * EIO. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* pwrite and pwrite64 are both defined here, each with its own offset
 * type (on a 32-bit build, _FILE_OFFSET_BITS=64 would make them one) */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_long seen;

/* 0: pass; 1: cut this write short; 2: fail it with EIO. */
static int fault(int fd)
{
	const char *name = getenv("SM_SHORT_FILE"), *nth = getenv("SM_SHORT_NTH");
	char link[64], path[4096];
	ssize_t n;
	long k;

	if (!name || !nth)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	if (!strstr(path, name))
		return 0;
	k = atomic_fetch_add(&seen, 1) + 1;
	return k < atol(nth) ? 0 : k == atol(nth) ? 1 : 2;
}

static size_t cut(size_t count)
{
	const char *mode = getenv("SM_SHORT_MODE");

	return mode && !strcmp(mode, "zero") ? 0 : count / 2;
}

/* one pwrite through real, the C library's own of that name */
static ssize_t pwrite_via(ssize_t (*real)(int, const void *, size_t, off64_t), int fd, const void *buf,
			  size_t count, off64_t off)
{
	int f = fault(fd);

	if (f == 2) {
		errno = EIO;
		return -1;
	}
	if (f == 1 && count > 1) {
		size_t c = cut(count);

		return c ? real(fd, buf, c, off) : 0;
	}
	return real(fd, buf, count, off);
}

static ssize_t real_pwrite(int fd, const void *buf, size_t count, off64_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	return real(fd, buf, count, (off_t)off);
}

static ssize_t real_pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off64_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
	return real(fd, buf, count, off);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	return pwrite_via(real_pwrite, fd, buf, count, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	return pwrite_via(real_pwrite64, fd, buf, count, off);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	int f = fd > 2 ? fault(fd) : 0;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (f == 2) {
		errno = EIO;
		return -1;
	}
	if (f == 1 && count > 1) {
		size_t c = cut(count);

		return c ? real(fd, buf, c) : 0;
	}
	return real(fd, buf, count);
}
