/* SPDX-License-Identifier: MIT */
/* The platform layer (os/os.h), in whichever implementation this build
 * has (sm_os_name): the monotonic clock and the sleep to a deadline, data
 * sync and its error, direct I/O as each implementation spells it (Linux:
 * O_DIRECT in the open flags; plain POSIX here: no flag, and no F_NOCACHE
 * on Linux, so "not available", which the direct-I/O probe reports as a
 * refusal), and the file system's type number (Linux: statfs' magic; POSIX
 * has none). */
#include "os/os.h"
#include "core/fsx.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <cmocka.h>

#include "helpers.h"

static int is_linux(void)
{
	return !strcmp(sm_os_name(), "linux");
}

static void test_name(void **state)
{
	(void)state;
	assert_true(is_linux() || !strcmp(sm_os_name(), "posix"));
}

static void test_clock(void **state)
{
	uint64_t prev = sm_os_mono_ns(), now, deadline;

	(void)state;
	assert_true(prev > 0);
	for (int i = 0; i < 10000; i++) {
		now = sm_os_mono_ns();
		assert_true(now >= prev);
		prev = now;
	}
	/* a deadline passed: at once, 0 */
	assert_int_equal(sm_os_sleep_until_ns(prev - 1), 0);
	deadline = sm_os_mono_ns() + 2000000;
	assert_int_equal(sm_os_sleep_until_ns(deadline), 0);
	assert_true(sm_os_mono_ns() >= deadline);
}

static void test_datasync(void **state)
{
	char path[4096];
	int fd = t_tmpfile(path, sizeof(path), "sync");

	(void)state;
	assert_int_equal(write(fd, "stormark", 8), 8);
	assert_int_equal(sm_os_datasync(fd), 0);
	close(fd);
	assert_int_equal(sm_os_datasync(fd), -EBADF);
}

static void test_direct(void **state)
{
	char path[4096], dir[4096];
	int fd = t_tmpfile(path, sizeof(path), "direct");

	(void)state;
	if (is_linux()) {
		assert_int_equal(sm_os_direct_oflag(), O_DIRECT);
		assert_int_equal(sm_os_direct_fd(fd), 0);
	} else {
		/* POSIX has no open flag for it; Linux has no F_NOCACHE */
		assert_int_equal(sm_os_direct_oflag(), 0);
		assert_int_equal(sm_os_direct_fd(fd), -ENOTSUP);
		/* the probe: direct I/O refused, as by a file system */
		assert_int_equal(sm_direct_probe(t_tmpdir(dir, sizeof(dir), "probe")), -EINVAL);
		assert_int_equal(sm_direct_probe_read(path), -EINVAL);
	}
	close(fd);
}

static void test_fs_magic(void **state)
{
	char dir[4096];
	unsigned long magic = 0;
	struct statfs sf;

	(void)state;
	t_tmpdir(dir, sizeof(dir), "magic");
	if (is_linux()) {
		assert_int_equal(sm_os_fs_magic(dir, &magic), 0);
		assert_int_equal(statfs(dir, &sf), 0);
		assert_true(magic == (unsigned long)sf.f_type);
		assert_int_equal(sm_os_fs_magic("/nonexistent/stormark", &magic), -ENOENT);
	} else {
		assert_int_equal(sm_os_fs_magic(dir, &magic), -ENOSYS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_datasync),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_fs_magic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
