/* SPDX-License-Identifier: MIT */
/* The platform layer on Linux (os/os.h): today's calls, moved here. */
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

_Static_assert(SM_OS_MAGIC_CGROUP1 == CGROUP_SUPER_MAGIC, "cgroup v1's number");
_Static_assert(SM_OS_MAGIC_CGROUP2 == CGROUP2_SUPER_MAGIC, "cgroup v2's number");

const char *sm_os_name(void)
{
	return "linux";
}

int sm_os_sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000ULL),
		.tv_nsec = (long)(deadline_ns % 1000000000ULL),
	};
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	return rc ? -rc : 0;
}

int sm_os_direct_oflag(void)
{
	return O_DIRECT;
}

int sm_os_direct_fd(int fd)
{
	(void)fd;   /* O_DIRECT was given to open */
	return 0;
}

int sm_os_datasync(int fd)
{
	return fdatasync(fd) ? -errno : 0;
}

int sm_os_fs_magic(const char *path, unsigned long *magic)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return -errno;
	*magic = (unsigned long)sf.f_type;
	return 0;
}
