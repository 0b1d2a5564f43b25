/* SPDX-License-Identifier: MIT */
/* Tests of output files (core/outfile.c): the kinds refused, the write
 * under a temporary name renamed when complete, the old file kept when the
 * write fails, the mode of a replaced file. */
#include "core/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"
#include "helpers.h"

static char dir[PATH_MAX];

static int setup(SM_UNUSED void **state)
{
	t_tmpdir(dir, sizeof(dir), "outfile");
	return 0;
}

static int teardown(SM_UNUSED void **state)
{
	return t_rm_rf(dir) ? -1 : 0;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* the number of entries in dir besides . and .. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_kinds(SM_UNUSED void **state)
{
	char p[PATH_MAX + 32];

	assert_null(sm_outfile_kind_problem("/dev/null"));
	assert_string_equal(sm_outfile_kind_problem("/dev/zero"), "it is a character device");
	assert_string_equal(sm_outfile_kind_problem(dir), "it is a directory");
	snprintf(p, sizeof(p), "%s/absent", dir);
	assert_null(sm_outfile_kind_problem(p));
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_null(sm_outfile_kind_problem(p));
	unlink(p);
	snprintf(p, sizeof(p), "%s/dangling", dir);
	assert_int_equal(symlink("nowhere", p), 0);
	assert_string_equal(sm_outfile_kind_problem(p), "it is a symbolic link that leads to no file");
	unlink(p);
	assert_int_equal(symlink("/dev/zero", p), 0);
	assert_string_equal(sm_outfile_kind_problem(p), "it is a character device");
	unlink(p);
}

static void test_replace(SM_UNUSED void **state)
{
	struct sm_outfile o;
	char p[PATH_MAX + 32], buf[64];
	struct stat st;
	FILE *f;
	int err;

	snprintf(p, sizeof(p), "%s/r.txt", dir);
	put(p, "old");
	assert_int_equal(chmod(p, 0640), 0);
	f = sm_outfile_fopen(&o, p, &err);
	assert_non_null(f);
	fputs("new", f);
	fflush(f);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "old");       /* untouched until complete */
	assert_int_equal(entries(), 2);        /* and the temporary file beside it */
	assert_int_equal(sm_outfile_fclose(&o, f, 0), 0);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "new");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 1);

	/* a failed write: the old file stays, the temporary one goes */
	f = sm_outfile_fopen(&o, p, &err);
	assert_non_null(f);
	fputs("half", f);
	assert_int_equal(sm_outfile_fclose(&o, f, -ENOSPC), -ENOSPC);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "new");
	assert_int_equal(entries(), 1);

	/* a kind refused creates nothing */
	assert_int_equal(sm_outfile_open(&o, "/dev/zero"), -EINVAL);
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_replace),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
