/* SPDX-License-Identifier: MIT */
/* Test shim (LD_PRELOAD): a lost write. The SM_DROP_NTH-th pwrite() to a
 * file whose path ends in SM_DROP_FILE reports success without writing,
 * and says on stderr which offset it dropped, so a test can check that
 * --verify names that block. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* pwrite and pwrite64 are both defined here, each with its own offset
 * type (on a 32-bit build, _FILE_OFFSET_BITS=64 would make them one) */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_long seen;

static int drop_this(int fd, off64_t off)
{
	const char *name = getenv("SM_DROP_FILE"), *nth = getenv("SM_DROP_NTH");
	char link[64], path[4096];
	ssize_t n;
	size_t nl;

	if (!name || !nth)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	nl = strlen(name);
	if ((size_t)n < nl || strcmp(path + n - nl, name))
		return 0;
	if (atomic_fetch_add(&seen, 1) + 1 != atol(nth))
		return 0;
	fprintf(stderr, "dropwrite: dropped the write at offset %lld of %s\n", (long long)off, path);
	return 1;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	if (drop_this(fd, off))
		return (ssize_t)count;
	return real(fd, buf, count, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off64_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
	if (drop_this(fd, off))
		return (ssize_t)count;
	return real(fd, buf, count, off);
}
