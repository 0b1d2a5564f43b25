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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_or_gone),
		cmocka_unit_test(test_someone_elses_file),
		cmocka_unit_test(test_stand_in_goes),
		cmocka_unit_test(test_stand_in_stays),
	};

	scratch = t_scratch("fsx");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
