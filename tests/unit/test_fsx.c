/* SPDX-License-Identifier: MIT */
/* core/fsx.c's sm_rmdir_settle(): a directory is removed at once when
 * empty or gone, waited for while only a removed file's stand-in name
 * (.fuse_hidden*, .nfs*) is left, and never when something else is in it. */
#include "core/fsx.h"
#include "core/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "helpers.h"

static const char *scratch;

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", scratch, name);
}

static void touch(const char *dir, const char *name)
{
	char p[4200];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void test_empty_or_gone(SM_UNUSED void **state)
{
	char d[4200];
	struct stat st;

	path_of(d, sizeof(d), "empty");
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(sm_rmdir_settle(d), 0);
	assert_int_not_equal(stat(d, &st), 0);
	assert_int_equal(sm_rmdir_settle(d), 0);   /* not there: nothing to do */
}

static void test_someone_elses_file(SM_UNUSED void **state)
{
	char d[4200];
	struct stat st;
	struct timespec a, b;

	path_of(d, sizeof(d), "user");
	assert_int_equal(mkdir(d, 0700), 0);
	touch(d, "keep.txt");
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(sm_rmdir_settle(d), -ENOTEMPTY);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_int_equal(stat(d, &st), 0);
	/* refused at once, not after the 2 s a stand-in name is given */
	assert_true(b.tv_sec - a.tv_sec < 1);
}

struct later {
	char path[4200];
};

static void *remove_later(void *arg)
{
	struct later *l = arg;
	struct timespec nap = { 0, 150 * 1000 * 1000 };

	nanosleep(&nap, NULL);
	unlink(l->path);
	return NULL;
}

/* A stand-in name that goes after 150 ms: the directory goes too. */
static void test_stand_in_goes(SM_UNUSED void **state)
{
	char d[4200];
	struct later l;
	struct stat st;
	pthread_t t;

	path_of(d, sizeof(d), "hidden");
	assert_int_equal(mkdir(d, 0700), 0);
	touch(d, ".fuse_hidden0000000300000001");
	snprintf(l.path, sizeof(l.path), "%s/.fuse_hidden0000000300000001", d);
	assert_int_equal(pthread_create(&t, NULL, remove_later, &l), 0);
	assert_int_equal(sm_rmdir_settle(d), 0);
	pthread_join(t, NULL);
	assert_int_not_equal(stat(d, &st), 0);
}

/* A stand-in name that stays: given up after its time, the directory kept. */
static void test_stand_in_stays(SM_UNUSED void **state)
{
	char d[4200];
	struct stat st;

	path_of(d, sizeof(d), "nfs");
	assert_int_equal(mkdir(d, 0700), 0);
	touch(d, ".nfs000000000123456700000001");
	assert_int_equal(sm_rmdir_settle(d), -ENOTEMPTY);
	assert_int_equal(stat(d, &st), 0);
}

/* The CPU model from /proc/cpuinfo's text, as x86, ARM and POWER kernels
 * write it. */
static void test_cpuinfo_model(SM_UNUSED void **state)
{
	static const char x86[] =
		"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
		"model name\t: AMD EPYC 7763   64-Core Processor\nstepping\t: 1\ncpu MHz\t\t: 2445.406\n\n"
		"processor\t: 1\nmodel name\t: another\n";
	static const char arm64_pi[] =
		"processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
		"CPU part\t: 0xd08\n\nRevision\t: c03111\nSerial\t\t: 100000\n"
		"Model\t\t: Raspberry Pi 4 Model B Rev 1.1\n";
	static const char arm32[] =
		"processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\n\nHardware\t: BCM2835\n";
	static const char arm_old[] = "Processor\t: ARMv7\nHardware\t: Freescale i.MX 6Quad\r\n";
	static const char power[] = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n";
	static const char arm64_bare[] = "processor\t: 0\nCPU part\t: 0xd0c\nCPU revision\t: 1\n";
	char buf[128], small[8];

	sm_cpuinfo_model(x86, buf, sizeof(buf));
	assert_string_equal(buf, "AMD EPYC 7763 64-Core Processor");   /* blanks squeezed */
	sm_cpuinfo_model(arm64_pi, buf, sizeof(buf));
	assert_string_equal(buf, "Raspberry Pi 4 Model B Rev 1.1");
	sm_cpuinfo_model(arm32, buf, sizeof(buf));
	assert_string_equal(buf, "ARMv7 Processor rev 4 (v7l)");       /* model name first */
	sm_cpuinfo_model(arm_old, buf, sizeof(buf));
	assert_string_equal(buf, "Freescale i.MX 6Quad");               /* no \r kept */
	sm_cpuinfo_model(power, buf, sizeof(buf));
	assert_string_equal(buf, "POWER9 (architected), altivec supported");
	sm_cpuinfo_model(arm64_bare, buf, sizeof(buf));
	assert_string_equal(buf, "");                                   /* "CPU part" is no model */
	sm_cpuinfo_model("", buf, sizeof(buf));
	assert_string_equal(buf, "");
	sm_cpuinfo_model("model name:\n", buf, sizeof(buf));
	assert_string_equal(buf, "");
	sm_cpuinfo_model(x86, small, sizeof(small));
	assert_string_equal(small, "AMD EPY");                          /* cut, terminated */
	/* this machine's: whatever it says, one line */
	sm_cpu_model(buf, sizeof(buf));
	assert_null(strchr(buf, '\n'));
	sm_cpu_arch(buf, sizeof(buf));
	assert_true(buf[0] != '\0');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_or_gone),
		cmocka_unit_test(test_someone_elses_file),
		cmocka_unit_test(test_stand_in_goes),
		cmocka_unit_test(test_stand_in_stays),
		cmocka_unit_test(test_cpuinfo_model),
	};

	scratch = t_scratch("fsx");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
