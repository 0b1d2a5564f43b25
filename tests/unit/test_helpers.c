/* SPDX-License-Identifier: MIT */
/* The unit tests' own helpers: the scratch directory and its removal,
 * which must never follow a link out of it, and the fresh names made in
 * it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helpers.h"

#include "core/compiler.h"

static const char *scratch;

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

/* A tree with a link to a file and to a directory outside it: the tree
 * goes, what the links point at stays. */
static void test_rm_rf_no_follow(SM_UNUSED void **state)
{
	char tree[PATH_MAX], p[PATH_MAX], keep[PATH_MAX], keepdir[PATH_MAX];
	struct stat st;

	snprintf(tree, sizeof(tree), "%s/tree", scratch);
	snprintf(keep, sizeof(keep), "%s/keep", scratch);
	snprintf(keepdir, sizeof(keepdir), "%s/keepdir", scratch);
	assert_int_equal(mkdir(tree, 0755), 0);
	assert_int_equal(mkdir(keepdir, 0755), 0);
	touch(keep);
	snprintf(p, sizeof(p), "%s/keepdir/inside", scratch);
	touch(p);
	snprintf(p, sizeof(p), "%s/a", tree);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/b", tree);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/b/file", tree);
	touch(p);
	snprintf(p, sizeof(p), "%s/a/to-file", tree);
	assert_int_equal(symlink(keep, p), 0);
	snprintf(p, sizeof(p), "%s/a/to-dir", tree);
	assert_int_equal(symlink(keepdir, p), 0);
	assert_int_equal(t_rm_rf(tree), 0);
	assert_int_equal(lstat(tree, &st), -1);
	assert_int_equal(stat(keep, &st), 0);
	snprintf(p, sizeof(p), "%s/keepdir/inside", scratch);
	assert_int_equal(stat(p, &st), 0);
	/* a path that is not there is not an error */
	assert_int_equal(t_rm_rf(tree), 0);
}

/* t_tmpdir and t_tmpfile: fresh names inside the program's scratch
 * directory (never /tmp), and a path that does not fit is refused. */
static void test_tmp_in_scratch(SM_UNUSED void **state)
{
	char a[PATH_MAX], b[PATH_MAX], f[PATH_MAX], prefix[PATH_MAX], small[8];
	struct stat st;
	int fd, status;
	pid_t pid;

	snprintf(prefix, sizeof(prefix), "%s/sub-", scratch);
	assert_ptr_equal(t_tmpdir(a, sizeof(a), "sub"), a);
	t_tmpdir(b, sizeof(b), "sub");
	assert_int_equal(strncmp(a, prefix, strlen(prefix)), 0);
	assert_int_equal(strncmp(b, prefix, strlen(prefix)), 0);
	assert_string_not_equal(a, b);
	assert_int_equal(stat(a, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	fd = t_tmpfile(f, sizeof(f), "file");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	snprintf(prefix, sizeof(prefix), "%s/file-", scratch);
	assert_int_equal(strncmp(f, prefix, strlen(prefix)), 0);
	assert_int_equal(stat(f, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size == 1);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(2);
		t_tmpdir(small, sizeof(small), "sub");
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
}

static void test_scratch_removed(SM_UNUSED void **state)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/left", scratch);
	touch(p);
	snprintf(p, sizeof(p), "%s", scratch);
	assert_int_equal(t_scratch_remove(), 0);
	assert_int_equal(stat(p, &st), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rm_rf_no_follow),
		cmocka_unit_test(test_tmp_in_scratch),
		cmocka_unit_test(test_scratch_removed),
	};

	scratch = t_scratch("helpers");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
