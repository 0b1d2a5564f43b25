/* SPDX-License-Identifier: MIT */
/* The platform layer, below core/: the calls whose spelling differs from
 * one operating system to another. One implementation is built, chosen by
 * CMake's SM_OS: os/linux/ (the default on Linux: today's calls) or
 * os/posix/ (POSIX.1-2008 only, where macOS and the BSDs start from).
 * docs/platforms.md maps each function to what each platform calls, and
 * scripts/check-layers.sh fails a moved call made outside os/. */
#ifndef SM_OS_H
#define SM_OS_H

#include <stdint.h>
#include <time.h>

/* "linux" or "posix": the implementation built */
const char *sm_os_name(void);

/* ---- clocks ---- */

/* Nanoseconds on the monotonic clock (CLOCK_MONOTONIC: POSIX, and a vDSO
 * call on Linux); never goes backwards. Inline: it is on every I/O's path. */
static inline uint64_t sm_os_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Sleep until sm_os_mono_ns() >= deadline_ns (at once when it has passed).
 * 0, or -EINTR when a signal ends the sleep early. */
int sm_os_sleep_until_ns(uint64_t deadline_ns);

/* ---- files opened for benchmark I/O ---- */

/* The open(2) flag that asks for direct I/O (past the page cache) here:
 * O_DIRECT on Linux; 0 where direct I/O is set on an open file instead, or
 * not at all (then sm_os_direct_fd says which). */
int sm_os_direct_oflag(void);

/* What direct I/O needs once fd is open with sm_os_direct_oflag(): nothing
 * on Linux (0); fcntl F_NOCACHE where the platform defines it (0, or
 * -errno); -ENOTSUP where it has no direct I/O at all, which the caller
 * reports as a refusal or a fallback with a warning, never silently. */
int sm_os_direct_fd(int fd);

/* Flush fd's data (and the metadata needed to read it back): fdatasync
 * where the platform has it, fsync otherwise. 0 or -errno. */
int sm_os_datasync(int fd);

/* ---- file systems ---- */

/* The file system's type number at path (Linux: statfs' f_type magic).
 * 0, or -errno; -ENOSYS where the platform has no such number (POSIX:
 * statvfs names no type). */
int sm_os_fs_magic(const char *path, unsigned long *magic);

/* Linux's numbers for the cgroup file systems (v1, v2), which a memory
 * limit is read from (core/memcheck.c) */
#define SM_OS_MAGIC_CGROUP1 0x27e0ebUL
#define SM_OS_MAGIC_CGROUP2 0x63677270UL

#endif
