/* SPDX-License-Identifier: MIT */
/* Engine selection by capability (engine/engine.h, sm_engine_choose and
 * sm_engine_pick): which engine a need gets, the user's --engine NAME,
 * polling flags given to a polling engine only, and the fallback with its
 * reason when io_uring is blocked (a seccomp filter in a child process). */
#include "engine/engine.h"
#include "core/compiler.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

static const struct sm_engine_ops *chosen(const char *name, unsigned caps)
{
	const struct sm_engine_need need = { .name = name, .caps = caps };

	return sm_engine_choose(&need);
}

/* A need without a name gets the first engine of the registry with every
 * capability asked for; a name gets that engine whatever the caps. */
static void test_choose(SM_UNUSED void **state)
{
	const struct sm_engine_ops *c;

	c = chosen(NULL, 0);
	assert_non_null(c);
	assert_int_equal(c->caps, 0);   /* psync: the plain synchronous one */
	assert_string_equal(c->name, "psync");
	c = chosen(NULL, SM_ENGINE_ASYNC);
	assert_non_null(c);
	assert_true(c->caps & SM_ENGINE_ASYNC);
	assert_true(c->caps & SM_ENGINE_POLLING);
	assert_string_equal(c->name, "uring");
	c = chosen(NULL, SM_ENGINE_MAPPED);
	assert_non_null(c);
	assert_string_equal(c->name, "mmap");
	c = chosen(NULL, SM_ENGINE_NO_IO);
	assert_non_null(c);
	assert_string_equal(c->name, "null");
	assert_null(chosen(NULL, SM_ENGINE_ASYNC | SM_ENGINE_MAPPED));   /* no such engine */
	/* the user's --engine NAME wins over what the workload would choose */
	assert_ptr_equal(chosen("psync", SM_ENGINE_ASYNC), sm_engine_find("psync"));
	assert_null(chosen("no-such-engine", 0));
	assert_int_equal(sm_engine_caps(&(struct sm_engine_need){ .name = "no-such-engine" }), 0);
	assert_true(sm_engine_caps(&(struct sm_engine_need){ .caps = SM_ENGINE_ASYNC }) &
		    SM_ENGINE_POLLING);
	assert_true(sm_engine_caps_of("null") & SM_ENGINE_NO_IO);
	assert_int_equal(sm_engine_caps_of("psync"), 0);
	assert_int_equal(sm_engine_caps_of(NULL), 0);
	assert_int_equal(sm_engine_caps_of("no-such-engine"), 0);
}

/* Polling flags (and a submission batch) reach a polling engine only. */
static void test_flags_for(SM_UNUSED void **state)
{
	unsigned f = SM_ENGINE_SQPOLL | SM_ENGINE_BATCH(16);
	struct sm_engine_cfg cfg = { .depth = 2, .flags = SM_ENGINE_SQPOLL };
	const struct sm_engine_need need = { .flags = SM_ENGINE_SQPOLL };
	struct sm_engine e;
	char notice[256];

	assert_int_equal(sm_engine_flags_for(sm_engine_find("uring"), f), f);
	assert_int_equal(sm_engine_flags_for(sm_engine_find("psync"), f), 0);
	assert_int_equal(sm_engine_flags_for(sm_engine_find("null"), f), 0);
	assert_int_equal(sm_engine_flags_for(NULL, f), 0);
	/* by name, the flags go as given and psync refuses them */
	assert_int_equal(sm_engine_open(&e, "psync", &cfg, notice, sizeof(notice)), -EOPNOTSUPP);
	/* by need, the synchronous engine chosen does not get them */
	assert_int_equal(sm_engine_open_need(&e, &need, &cfg, notice, sizeof(notice)), 0);
	assert_string_equal(e.ops->name, "psync");
	assert_int_equal(e.cfg.flags, 0);
	assert_string_equal(notice, "");
	sm_engine_close(&e);
}

/* Where every engine probes well, the pick is the choice, with no notice. */
static void test_pick_usable(SM_UNUSED void **state)
{
	const struct sm_engine_ops *uring = sm_engine_find("uring");
	struct sm_engine_need need = { .caps = 0 };
	char notice[256] = "x";
	int err = 1;

	assert_ptr_equal(sm_engine_pick(&need, notice, sizeof(notice), &err), sm_engine_find("psync"));
	assert_int_equal(err, 0);
	assert_string_equal(notice, "");
	need.name = "no-such-engine";
	assert_null(sm_engine_pick(&need, notice, sizeof(notice), &err));
	assert_int_equal(err, -ENOENT);
	if (uring->probe && uring->probe()) {
		printf("io_uring is not usable here: the blocked case covers the fallback\n");
		skip();
	}
	need = (struct sm_engine_need){ .caps = SM_ENGINE_ASYNC };
	assert_ptr_equal(sm_engine_pick(&need, notice, sizeof(notice), &err), uring);
	assert_int_equal(err, 0);
	assert_string_equal(notice, "");
}

/*
 * In a child whose io_uring_setup() a seccomp filter refuses with EPERM:
 * an async need falls back to psync with the reason; with polling flags it
 * does not (they asked for io_uring itself). Exit codes: 0 ok, 10+ the
 * check that failed, 77 no seccomp here.
 */
static int child_blocked(void)
{
	struct sock_filter filt[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filt) / sizeof(filt[0]), .filter = filt };
	struct sm_engine_need need = { .caps = SM_ENGINE_ASYNC };
	struct sm_engine_cfg cfg = { .depth = 4 };
	const struct sm_engine_ops *got;
	struct sm_engine e;
	char notice[256], want[256];
	int err;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 77;
	err = sm_engine_find("uring")->probe();
	snprintf(want, sizeof(want), "engine 'uring' is not available here (%s): using 'psync'",
		 strerror(-err));
	got = sm_engine_pick(&need, notice, sizeof(notice), &err);
	if (got != sm_engine_find("psync") || err)
		return 10;
	if (strcmp(notice, want))
		return 11;
	need.name = "uring";   /* --engine uring: the same fallback */
	got = sm_engine_pick(&need, notice, sizeof(notice), &err);
	if (got != sm_engine_find("psync") || strcmp(notice, want))
		return 12;
	need.flags = SM_ENGINE_SQPOLL;   /* --sqpoll: no quiet psync */
	got = sm_engine_pick(&need, notice, sizeof(notice), &err);
	if (got || err >= 0 || notice[0])
		return 13;
	if (sm_engine_open_need(&e, &need, &cfg, notice, sizeof(notice)) >= 0)
		return 14;
	need.flags = 0;
	need.name = NULL;
	if (sm_engine_open_need(&e, &need, &cfg, notice, sizeof(notice)))
		return 15;
	if (e.ops != sm_engine_find("psync") || strcmp(notice, want))
		return 16;
	sm_engine_close(&e);
	return 0;
}

static void test_pick_blocked(SM_UNUSED void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_blocked());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		printf("seccomp filters are not allowed here\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_flags_for),
		cmocka_unit_test(test_pick_usable),
		cmocka_unit_test(test_pick_blocked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
