/* SPDX-License-Identifier: MIT */
/* SM_ASSERT (core/assert.h): a failed one names its condition on stderr
 * and aborts; the library's assertions of stated invariants (a histogram's
 * count is its buckets' sum, a series' times increase) fire on a broken
 * value in a build that checks them (debug, sanitizers) and are compiled
 * out of a release build. Each failure runs in a forked child. */
#undef NDEBUG   /* this file's own SM_ASSERT checks, whatever the build */
#include "core/assert.h"
#include "core/compiler.h"
#include "core/hist.h"
#include "core/series.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* Run fn in a child with stderr into a pipe: its wait status, and what it
 * wrote (up to len - 1 bytes) in buf. */
static int in_child(void (*fn)(void), char *buf, size_t len)
{
	int fds[2], st = 0;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		dup2(fds[1], 2);
		signal(SIGABRT, SIG_DFL);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while (got < (ssize_t)len - 1 && (n = read(fds[0], buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void false_assert(void)
{
	int two = 2;

	SM_ASSERT(two + two == 5);
}

static void true_assert(void)
{
	int two = 2;

	SM_ASSERT(two + two == 4);
}

static void test_macro(SM_UNUSED void **state)
{
	char out[512];
	int st;

	st = in_child(false_assert, out, sizeof(out));
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	assert_non_null(strstr(out, "stormark: assertion failed: two + two == 5 ("));
	assert_non_null(strstr(out, "test_assert.c:"));
	assert_non_null(strstr(out, "false_assert)\n"));
	st = in_child(true_assert, out, sizeof(out));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(out, "");
}

/* A histogram whose count is not its buckets' sum, merged. */
static void merge_broken(void)
{
	struct sm_hist *a = sm_hist_new(), *b = sm_hist_new();

	if (!a || !b)
		_exit(3);
	sm_hist_add(b, 1000);
	sm_hist_add(b, 2000);
	b->count = 3;
	sm_hist_merge(a, b);
}

static void merge_sound(void)
{
	struct sm_hist *a = sm_hist_new(), *b = sm_hist_new();

	if (!a || !b)
		_exit(3);
	sm_hist_add(a, 10);
	sm_hist_add(b, 1000);
	sm_hist_add(b, 2000);
	sm_hist_merge(a, b);
	if (!sm_hist_consistent(a) || a->count != 3)
		_exit(4);
}

/* A series sampled at 2 s, then at 1 s. */
static void series_backwards(void)
{
	struct sm_series_cfg cfg = { .workers = 1, .counters = 1, .hists = 1 };
	struct sm_series *s = sm_series_new(&cfg);

	if (!s)
		_exit(3);
	sm_series_sample(s, 2000000000);
	sm_series_sample(s, 2000000000);   /* the same time again is no step back */
	sm_series_sample(s, 1000000000);
}

static void test_library(SM_UNUSED void **state)
{
	struct sm_hist *h = sm_hist_new();
	char out[512];
	int st;

	assert_non_null(h);
	assert_true(sm_hist_consistent(h));
	h->count = 1;
	assert_false(sm_hist_consistent(h));
	free(h);
	st = in_child(merge_sound, out, sizeof(out));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!sm_asserts_built()) {
		/* a release build: compiled out, the broken values pass */
		st = in_child(merge_broken, out, sizeof(out));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		st = in_child(series_backwards, out, sizeof(out));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		return;
	}
	st = in_child(merge_broken, out, sizeof(out));
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	assert_non_null(strstr(out, "assertion failed: sm_hist_consistent(dst)"));
	st = in_child(series_backwards, out, sizeof(out));
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	assert_non_null(strstr(out, "assertion failed: !s->npts || t_ns >="));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_macro),
		cmocka_unit_test(test_library),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
