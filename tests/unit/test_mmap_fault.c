/* SPDX-License-Identifier: MIT */
/* The mmap engine and SIGBUS: a copy that touches a page the file no longer
 * has (the file was cut short under its mapping, which faults exactly as a
 * read error or a full disk does) is the request's error, on any thread;
 * a SIGBUS anywhere else goes where it would without the engine (death,
 * or the handler that was there). */
#include "engine/engine.h"
#include "core/buf.h"
#include "core/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "helpers.h"

#define PG 4096u
#define NPG 8u

static const char *scratch;   /* t_scratch(): removed at exit */

/* A file of NPG pages mapped by an mmap engine, then cut to one page. */
struct fixture {
	char path[PATH_MAX];
	int fd;
	uint64_t size;
	unsigned char *buf;
	struct sm_engine e;
};

static void fixture_open(struct fixture *f, const char *name)
{
	struct sm_engine_cfg cfg = { .depth = 1 };
	char notice[128];

	snprintf(f->path, sizeof(f->path), "%s/%s", scratch, name);
	f->fd = open(f->path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	assert_true(f->fd >= 0);
	f->size = (uint64_t)NPG * PG;
	assert_int_equal(ftruncate(f->fd, (off_t)f->size), 0);
	f->buf = sm_buf_alloc(2 * PG, PG);
	assert_non_null(f->buf);
	cfg.fds = &f->fd;
	cfg.file_sizes = &f->size;
	cfg.nfds = 1;
	assert_int_equal(sm_engine_open(&f->e, "mmap", &cfg, notice, sizeof(notice)), 0);
	assert_int_equal(ftruncate(f->fd, PG), 0);
}

static void fixture_close(struct fixture *f)
{
	sm_engine_close(&f->e);
	close(f->fd);
	unlink(f->path);
	free(f->buf);
}

static struct sm_io mkio(enum sm_op op, struct fixture *f, uint64_t off)
{
	struct sm_io io = { .op = op, .fd = f->fd, .buf = f->buf, .len = 2 * PG, .off = off,
			    .buf_index = -1, .file_index = 0 };

	return io;
}

/* Reads and writes past the cut: an error with the faulting offset, and
 * the engine (and the thread) carry on: a request inside the file works. */
static void test_fault_is_error(SM_UNUSED void **state)
{
	struct fixture f;
	struct sm_io io;

	fixture_open(&f, "fault");
	for (int op = SM_OP_READ; op <= SM_OP_WRITE; op++) {
		for (unsigned k = 0; k < 3; k++) {
			io = mkio((enum sm_op)op, &f, (uint64_t)(2 + 2 * k) * PG);
			assert_true(sm_engine_do(&f.e, &io) < 0);
			assert_int_equal(io.sigbus, 1);
			assert_true(io.fault_off >= io.off && io.fault_off < io.off + io.len);
		}
		io = mkio((enum sm_op)op, &f, 0);
		io.len = PG;
		assert_int_equal(sm_engine_do(&f.e, &io), PG);
		assert_int_equal(io.sigbus, 0);
	}
	fixture_close(&f);
}

static void *fault_thread(void *arg)
{
	struct fixture *f = arg;
	long bad = 0;

	for (unsigned k = 0; k < 200; k++) {
		struct sm_io io = mkio(k % 2 ? SM_OP_WRITE : SM_OP_READ, f, (uint64_t)(2 + k % 6) * PG);

		if (sm_engine_do(&f->e, &io) >= 0 || !io.sigbus)
			bad++;
	}
	return (void *)bad;
}

/* Faults on several threads at once: each thread gets its own errors. */
static void test_fault_threads(SM_UNUSED void **state)
{
	struct fixture f[4];
	pthread_t t[4];
	void *bad;

	for (int i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "thread%d", i);
		fixture_open(&f[i], name);
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, fault_thread, &f[i]), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], &bad), 0);
		assert_int_equal((long)bad, 0);
	}
	for (int i = 0; i < 4; i++)
		fixture_close(&f[i]);
}

static void exit_42(SM_UNUSED int sig)
{
	_exit(42);
}

/* In a child: SIGBUS's action set to prev, then the engine's handler
 * installed, then a fault outside any copy of the engine's. */
static pid_t fault_outside(void (*prev)(int))
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct fixture f;
		volatile unsigned char *p;
		char path[PATH_MAX];
		struct rlimit nocore = { 0, 0 };
		int fd;

		setrlimit(RLIMIT_CORE, &nocore);   /* the death is expected */
		signal(SIGBUS, prev);              /* not cmocka's */
		fixture_open(&f, "other");      /* installs the handler */
		snprintf(path, sizeof(path), "%s/other2", scratch);
		fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
		if (fd < 0 || ftruncate(fd, 4 * PG))
			_exit(3);
		p = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
		unlink(path);
		if (p == MAP_FAILED || ftruncate(fd, 0))
			_exit(4);
		(void)p[2 * PG];
		_exit(5);
	}
	return pid;
}

/* A SIGBUS outside the engine's copies is not swallowed: it goes where it
 * went before the engine (the default action: death; a handler: called). */
static void test_other_sigbus_kills(SM_UNUSED void **state)
{
	int status;
	pid_t pid;

	pid = fault_outside(SIG_DFL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGBUS);
	pid = fault_outside(exit_42);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_is_error),
		cmocka_unit_test(test_fault_threads),
		cmocka_unit_test(test_other_sigbus_kills),
	};
	int rc;

	scratch = t_scratch("mmap");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (t_scratch_remove())
		rc = rc ? rc : 1;
	return rc;
}
