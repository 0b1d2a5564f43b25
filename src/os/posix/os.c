/* SPDX-License-Identifier: MIT */
/* The platform layer in plain POSIX.1-2008 (os/os.h): what macOS and the
 * BSDs start from. The build's _GNU_SOURCE is taken back here, so a GNU
 * or Linux call does not compile (scripts/check-layers.sh checks it too). */
#undef _GNU_SOURCE
#undef _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

const char *sm_os_name(void)
{
	return "posix";
}

int sm_os_sleep_until_ns(uint64_t deadline_ns)
{
#if defined(_POSIX_CLOCK_SELECTION) && _POSIX_CLOCK_SELECTION > 0
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000ULL),
		.tv_nsec = (long)(deadline_ns % 1000000000ULL),
	};
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	return rc ? -rc : 0;
#else
	/* no absolute sleep (macOS): a relative one to the deadline */
	uint64_t now = sm_os_mono_ns(), left;
	struct timespec ts;

	if (now >= deadline_ns)
		return 0;
	left = deadline_ns - now;
	ts.tv_sec = (time_t)(left / 1000000000ULL);
	ts.tv_nsec = (long)(left % 1000000000ULL);
	return nanosleep(&ts, NULL) ? -errno : 0;
#endif
}

int sm_os_direct_oflag(void)
{
	return 0;   /* POSIX has no open flag for it */
}

int sm_os_direct_fd(int fd)
{
#ifdef F_NOCACHE
	return fcntl(fd, F_NOCACHE, 1) < 0 ? -errno : 0;
#else
	(void)fd;
	return -ENOTSUP;
#endif
}

int sm_os_datasync(int fd)
{
#if defined(_POSIX_SYNCHRONIZED_IO) && _POSIX_SYNCHRONIZED_IO > 0
	return fdatasync(fd) ? -errno : 0;
#else
	return fsync(fd) ? -errno : 0;
#endif
}

int sm_os_fs_magic(const char *path, unsigned long *magic)
{
	(void)path;
	(void)magic;
	return -ENOSYS;   /* statvfs names no file system type */
}
