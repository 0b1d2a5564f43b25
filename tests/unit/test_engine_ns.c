/* SPDX-License-Identifier: MIT */
/* The engines' I/O namespace (engine.h, struct sm_ns_ops) as the POSIX
 * engines share it: exclusive creates, no link followed at the last name,
 * data through pread/pwrite with their counts, stat, mkdir/rmdir, unlink
 * and readdir by a directory's handle. */
#include "engine/engine.h"
#include "core/compiler.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "helpers.h"

static struct sm_engine eng;
static const struct sm_ns_ops *ns;
static char dir_path[4096];

static int setup(SM_UNUSED void **state)
{
	const struct sm_engine_cfg cfg = { .depth = 1 };

	if (sm_engine_open(&eng, "psync", &cfg, NULL, 0))
		return -1;
	ns = eng.ops->ns;
	return ns ? 0 : -1;
}

static int teardown(SM_UNUSED void **state)
{
	sm_engine_close(&eng);
	return 0;
}

/* Every POSIX engine of the registry has the shared namespace. */
static void test_every_engine(SM_UNUSED void **state)
{
	for (unsigned i = 0; sm_engines[i]; i++)
		assert_ptr_equal(sm_engines[i]->ns, &sm_ns_posix);
}

struct names {
	char seen[8][64];
	unsigned n;
};

static int take(void *arg, const char *name)
{
	struct names *l = arg;

	if (strcmp(name, ".") && strcmp(name, "..") && l->n < 8)
		snprintf(l->seen[l->n++], sizeof(l->seen[0]), "%s", name);
	return 0;
}

static void test_files(SM_UNUSED void **state)
{
	struct sm_fh dir, fh, fh2;
	struct sm_ns_stat st;
	struct names l = { .n = 0 };
	char buf[64], link_target[4200];
	size_t done = 99;

	t_tmpdir(dir_path, sizeof(dir_path), "ns");
	assert_int_equal(ns->mkdir(&eng, NULL, strcat(dir_path, "/d"), 0700), 0);
	assert_int_equal(ns->mkdir(&eng, NULL, dir_path, 0700), -EEXIST);
	assert_int_equal(ns->open(&eng, NULL, dir_path, SM_NS_DIR, 0, &dir), 0);
	/* a create is exclusive */
	assert_int_equal(ns->open(&eng, &dir, "a", SM_NS_WRITE | SM_NS_CREATE, 0644, &fh), 0);
	assert_int_equal(ns->open(&eng, &dir, "a", SM_NS_WRITE | SM_NS_CREATE, 0644, &fh2), -EEXIST);
	assert_int_equal(fh2.fd, -1);
	assert_int_equal(ns->pwrite(&eng, &fh, "0123456789", 10, 0, &done), 0);
	assert_int_equal(done, 10);
	assert_int_equal(ns->close(&eng, &fh), 0);
	assert_int_equal(fh.fd, -1);
	assert_int_equal(ns->stat(&eng, &dir, "a", &st), 0);
	assert_int_equal(st.type, SM_NS_FILE);
	assert_int_equal(st.size, 10);
	/* a read is short at the end of the file only */
	assert_int_equal(ns->open(&eng, &dir, "a", SM_NS_READ, 0, &fh), 0);
	assert_int_equal(ns->pread(&eng, &fh, buf, sizeof(buf), 4, &done), 0);
	assert_int_equal(done, 6);
	assert_memory_equal(buf, "456789", 6);
	assert_int_equal(ns->close(&eng, &fh), 0);
	/* a link is never followed: not opened, stat says what it is, a create on it fails */
	snprintf(link_target, sizeof(link_target), "%s/a", dir_path);
	assert_int_equal(symlinkat(link_target, dir.fd, "l"), 0);
	assert_int_equal(ns->open(&eng, &dir, "l", SM_NS_READ, 0, &fh), -ELOOP);
	assert_int_equal(ns->open(&eng, &dir, "l", SM_NS_WRITE | SM_NS_CREATE, 0644, &fh), -EEXIST);
	assert_int_equal(ns->stat(&eng, &dir, "l", &st), 0);
	assert_int_equal(st.type, SM_NS_OTHER);
	assert_int_equal(ns->mkdir(&eng, &dir, "sub", 0700), 0);
	assert_int_equal(ns->stat(&eng, &dir, "sub", &st), 0);
	assert_int_equal(st.type, SM_NS_DIRECTORY);
	assert_int_equal(ns->readdir(&eng, &dir, take, &l), 0);
	assert_int_equal(l.n, 3);
	/* unlink removes the link, not its target; rmdir a directory only */
	assert_int_equal(ns->unlink(&eng, &dir, "l"), 0);
	assert_int_equal(ns->stat(&eng, &dir, "a", &st), 0);
	assert_int_equal(ns->rmdir(&eng, &dir, "a"), -ENOTDIR);
	assert_int_equal(ns->unlink(&eng, &dir, "a"), 0);
	assert_int_equal(ns->unlink(&eng, &dir, "a"), -ENOENT);
	assert_int_equal(ns->rmdir(&eng, &dir, "sub"), 0);
	assert_int_equal(ns->close(&eng, &dir), 0);
	assert_int_equal(ns->rmdir(&eng, NULL, dir_path), 0);
	assert_int_equal(ns->open(&eng, NULL, dir_path, SM_NS_DIR, 0, &dir), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_engine),
		cmocka_unit_test(test_files),
	};
	int rc;

	t_scratch("engine_ns");
	rc = cmocka_run_group_tests(tests, setup, teardown);
	if (t_scratch_remove())
		rc = rc ? rc : 1;
	return rc;
}
