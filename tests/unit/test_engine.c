/* SPDX-License-Identifier: MIT */
/* Engine contract tests, run against every engine in the registry whose
 * probe passes: results, data, depth, registration, errors, timestamps,
 * signals and the fallback when io_uring is blocked. */
#include "engine/engine.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/fsx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "helpers.h"

#define BLK 4096u
#define MAX_TESTS 64

/* Scratch directory on the real disk (the build tree), made by main(). */
static const char *scratch;   /* t_scratch(): removed at exit */

/* Print why a sub-test is skipped, then skip it. */
#define SKIP_BECAUSE(...) do { print_message("skip: " __VA_ARGS__); print_message("\n"); skip(); } while (0)

static void path_of(char *out, size_t len, const struct sm_engine_ops *ops, const char *what)
{
	snprintf(out, len, "%s/%s-%s.dat", scratch, ops->name, what);
}

/* Open engine ops with cfg; the engine must be the one asked for. */
static void open_engine(struct sm_engine *e, const struct sm_engine_ops *ops,
			const struct sm_engine_cfg *cfg)
{
	char notice[256];

	assert_int_equal(sm_engine_open(e, ops->name, cfg, notice, sizeof(notice)), 0);
	assert_ptr_equal(e->ops, ops);
	assert_string_equal(notice, "");
	assert_int_equal(e->inflight, 0);
}

static struct sm_io mkio(enum sm_op op, int fd, void *buf, size_t len, uint64_t off)
{
	struct sm_io io = { .op = op, .fd = fd, .buf = buf, .len = len, .off = off,
			    .buf_index = -1, .file_index = -1 };

	return io;
}

/* Run one request through submit+reap, checking its timestamps fall within
 * the call and are ordered. Returns res. */
static int64_t run1(struct sm_engine *e, struct sm_io *io)
{
	uint64_t before = sm_now_ns(), after;
	int64_t res;

	io->t_issue = io->t_done = 0;
	res = sm_engine_do(e, io);
	after = sm_now_ns();
	assert_true(io->t_issue >= before);
	assert_true(io->t_issue <= io->t_done);
	assert_true(io->t_done <= after);
	assert_int_equal(e->inflight, 0);
	return res;
}

static int64_t open_file(struct sm_engine *e, const char *path, int flags)
{
	struct sm_io io = mkio(SM_OP_OPEN, AT_FDCWD, NULL, 0, 0);

	io.path = path;
	io.open_flags = flags;
	io.mode = 0644;
	return run1(e, &io);
}

static int64_t simple_op(struct sm_engine *e, enum sm_op op, int fd)
{
	struct sm_io io = mkio(op, fd, NULL, 0, 0);

	return run1(e, &io);
}

/* open, write, fsync, fdatasync, close, open, read back, read past the end,
 * close: res values always, data unless the engine does no I/O. */
static void test_lifecycle(void **state)
{
	const struct sm_engine_ops *ops = *state;
	struct sm_engine_cfg cfg = { .depth = 1 };
	struct sm_engine e;
	char path[PATH_MAX];
	unsigned char *wbuf = sm_buf_alloc(3 * BLK, BLK), *rbuf = sm_buf_alloc(4 * BLK, BLK);
	int no_io = !!(ops->caps & SM_ENGINE_NO_IO);
	int64_t fd;
	struct sm_io io;

	assert_non_null(wbuf);
	assert_non_null(rbuf);
	path_of(path, sizeof(path), ops, "life");
	unlink(path);
	sm_buf_fill(wbuf, 3 * BLK, SM_DATA_RANDOM, 7);
	open_engine(&e, ops, &cfg);

	fd = open_file(&e, path, O_CREAT | O_RDWR | O_TRUNC);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < 3; i++) {
		io = mkio(SM_OP_WRITE, (int)fd, wbuf + i * BLK, BLK, (uint64_t)i * BLK);
		assert_int_equal(run1(&e, &io), BLK);
	}
	assert_int_equal(simple_op(&e, SM_OP_FSYNC, (int)fd), 0);
	assert_int_equal(simple_op(&e, SM_OP_FDATASYNC, (int)fd), 0);
	assert_int_equal(simple_op(&e, SM_OP_CLOSE, (int)fd), 0);
	if (!no_io) {
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 3 * BLK);
	}

	fd = open_file(&e, path, O_RDONLY);
	assert_true(fd >= 0);
	memset(rbuf, 0xa5, 4 * BLK);
	io = mkio(SM_OP_READ, (int)fd, rbuf, 3 * BLK, 0);
	assert_int_equal(run1(&e, &io), 3 * BLK);
	if (!no_io)
		assert_memory_equal(rbuf, wbuf, 3 * BLK);

	/* Across the end: 4 blocks asked from offset 2 blocks, 1 exists. The
	 * engine's resubmission must stop at EOF with the short count. */
	io = mkio(SM_OP_READ, (int)fd, rbuf, 4 * BLK, 2 * BLK);
	assert_int_equal(run1(&e, &io), no_io ? 4 * BLK : BLK);
	if (!no_io)
		assert_memory_equal(rbuf, wbuf + 2 * BLK, BLK);
	io = mkio(SM_OP_READ, (int)fd, rbuf, BLK, 10 * BLK);
	assert_int_equal(run1(&e, &io), no_io ? BLK : 0);
	/* An odd-sized tail: 100 bytes at 3 blocks - 100. */
	io = mkio(SM_OP_READ, (int)fd, rbuf, BLK, 3 * BLK - 100);
	assert_int_equal(run1(&e, &io), no_io ? BLK : 100);
	assert_int_equal(simple_op(&e, SM_OP_CLOSE, (int)fd), 0);

	if (!no_io) {
		/* Opening a missing file fails with -ENOENT in res. */
		char missing[PATH_MAX + 16];

		snprintf(missing, sizeof(missing), "%s/does-not-exist", scratch);
		assert_int_equal(open_file(&e, missing, O_RDONLY), -ENOENT);
	}
	sm_engine_close(&e);
	unlink(path);
	free(wbuf);
	free(rbuf);
}

/* A descriptor that is not open comes back as -EBADF in res, for every
 * kind of operation that takes one. */
static void test_bad_fd(void **state)
{
	const struct sm_engine_ops *ops = *state;
	struct sm_engine_cfg cfg = { .depth = 4 };
	struct sm_engine e;
	unsigned char *buf;
	int bad = 1 << 20;  /* above any real descriptor (RLIMIT_NOFILE) */
	struct sm_io io;

	if (ops->caps & SM_ENGINE_NO_IO)
		SKIP_BECAUSE("engine '%s' does no I/O, so it cannot see a bad descriptor", ops->name);
	buf = sm_buf_alloc(BLK, BLK);
	assert_non_null(buf);
	assert_int_equal(fcntl(bad, F_GETFD), -1);
	open_engine(&e, ops, &cfg);
	io = mkio(SM_OP_READ, bad, buf, BLK, 0);
	assert_int_equal(run1(&e, &io), -EBADF);
	io = mkio(SM_OP_WRITE, bad, buf, BLK, 0);
	assert_int_equal(run1(&e, &io), -EBADF);
	assert_int_equal(simple_op(&e, SM_OP_FSYNC, bad), -EBADF);
	assert_int_equal(simple_op(&e, SM_OP_FDATASYNC, bad), -EBADF);
	assert_int_equal(simple_op(&e, SM_OP_CLOSE, bad), -EBADF);
	sm_engine_close(&e);
	free(buf);
}

/*
 * Submit all of ios (n of them) at depth, reaping in small batches, and
 * check that each completes exactly once with res == want (per request) and
 * ordered timestamps. Accepts partial submits (a full engine).
 */
static void run_batch(struct sm_engine *e, struct sm_io *ios, unsigned n, size_t want)
{
	struct sm_io **ptr = calloc(n, sizeof(*ptr)), *out[8];
	unsigned *seen = calloc(n, sizeof(*seen));
	unsigned next = 0, done = 0;

	assert_non_null(ptr);
	assert_non_null(seen);
	for (unsigned i = 0; i < n; i++) {
		ios[i].user = &seen[i];
		ptr[i] = &ios[i];
	}
	while (done < n) {
		if (next < n) {
			int rc = sm_engine_submit(e, ptr + next, n - next);

			assert_true(rc >= 0);
			assert_true(e->inflight <= e->cfg.depth);
			next += (unsigned)rc;
		}
		int got = sm_engine_reap(e, out, 1, 8);

		assert_true(got >= 1 && got <= 8);
		for (int i = 0; i < got; i++) {
			unsigned *s = out[i]->user;

			assert_true(s >= seen && s < seen + n);
			(*s)++;
			assert_int_equal(out[i]->res, (int64_t)want);
			assert_true(out[i]->t_issue <= out[i]->t_done);
			assert_true(out[i]->t_issue > 0);
		}
		done += (unsigned)got;
	}
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(e->inflight, 0);
	/* Nothing left: a poll returns 0 at once. */
	assert_int_equal(sm_engine_reap(e, out, 0, 8), 0);
	free(ptr);
	free(seen);
}

/* Many requests at depth 8 with O_DIRECT and aligned buffers: written,
 * flushed, read back in another order, every completion exactly once. */
static void test_direct_depth(void **state)
{
	const struct sm_engine_ops *ops = *state;
	enum { N = 48 };
	struct sm_engine_cfg cfg = { .depth = 8 };
	struct sm_engine e;
	struct sm_io ios[N];
	char path[PATH_MAX];
	unsigned char *wbuf = sm_buf_alloc(N * BLK, BLK), *rbuf = sm_buf_alloc(N * BLK, BLK);
	int no_io = !!(ops->caps & SM_ENGINE_NO_IO), rc;
	int64_t fd;

	rc = sm_direct_probe(scratch);
	if (rc < 0)
		SKIP_BECAUSE("O_DIRECT does not work in '%s' (%s)", scratch, strerror(-rc));
	assert_non_null(wbuf);
	assert_non_null(rbuf);
	sm_buf_fill(wbuf, N * BLK, SM_DATA_RANDOM, 11);
	sm_buf_stamp(wbuf, N * BLK, SM_DATA_RANDOM, 1, 2);
	memset(rbuf, 0, N * BLK);
	path_of(path, sizeof(path), ops, "direct");
	unlink(path);
	open_engine(&e, ops, &cfg);

	fd = open_file(&e, path, O_CREAT | O_WRONLY | O_TRUNC | O_DIRECT);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < N; i++)
		ios[i] = mkio(SM_OP_WRITE, (int)fd, wbuf + i * BLK, BLK, (uint64_t)i * BLK);
	run_batch(&e, ios, N, BLK);
	assert_int_equal(simple_op(&e, SM_OP_FSYNC, (int)fd), 0);
	assert_int_equal(simple_op(&e, SM_OP_CLOSE, (int)fd), 0);

	fd = open_file(&e, path, O_RDONLY | O_DIRECT);
	assert_true(fd >= 0);
	/* Read in a scrambled order (i * 5 mod 48 is a permutation). */
	for (unsigned i = 0; i < N; i++) {
		unsigned b = (i * 5) % N;

		ios[i] = mkio(SM_OP_READ, (int)fd, rbuf + b * BLK, BLK, (uint64_t)b * BLK);
	}
	run_batch(&e, ios, N, BLK);
	if (!no_io)
		assert_memory_equal(rbuf, wbuf, N * BLK);
	assert_int_equal(simple_op(&e, SM_OP_CLOSE, (int)fd), 0);
	sm_engine_close(&e);
	unlink(path);
	free(wbuf);
	free(rbuf);
}

/* submit() accepts no more than depth; reap(max) returns no more than max
 * and reap(min = 0) never blocks. */
static void test_depth_limits(void **state)
{
	const struct sm_engine_ops *ops = *state;
	enum { D = 4, N = 10 };
	struct sm_engine_cfg cfg = { .depth = D };
	struct sm_engine e;
	struct sm_io ios[N], *ptr[N], *out[N];
	char path[PATH_MAX];
	unsigned char *buf = sm_buf_alloc(N * BLK, BLK);
	int64_t fd;
	int rc, total = 0;

	assert_non_null(buf);
	sm_buf_fill(buf, N * BLK, SM_DATA_RANDOM, 3);
	path_of(path, sizeof(path), ops, "depth");
	open_engine(&e, ops, &cfg);
	fd = open_file(&e, path, O_CREAT | O_RDWR | O_TRUNC);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < N; i++) {
		ios[i] = mkio(SM_OP_WRITE, (int)fd, buf + i * BLK, BLK, (uint64_t)i * BLK);
		ptr[i] = &ios[i];
	}
	rc = sm_engine_submit(&e, ptr, N);
	assert_int_equal(rc, D);
	assert_int_equal(e.inflight, D);
	/* Full: nothing more is accepted until something is reaped. */
	assert_int_equal(sm_engine_submit(&e, ptr + D, N - D), 0);
	rc = sm_engine_reap(&e, out, 1, 1);
	assert_int_equal(rc, 1);
	total += rc;
	rc = sm_engine_reap(&e, out + total, D - 1, N);
	assert_int_equal(rc, D - 1);
	total += rc;
	assert_int_equal(e.inflight, 0);
	assert_int_equal(sm_engine_reap(&e, out, 0, N), 0);
	for (int i = 0; i < total; i++)
		assert_int_equal(out[i]->res, BLK);
	assert_int_equal(simple_op(&e, SM_OP_CLOSE, (int)fd), 0);
	sm_engine_close(&e);
	unlink(path);
	free(buf);
}

/* uring: registered buffers and files. Requests naming a buffer (also at an
 * offset inside it) and a file index go through READ_FIXED/WRITE_FIXED and
 * IOSQE_FIXED_FILE; requests that do not match their index fall back to
 * plain ones. Data must round-trip either way. */
static void test_fixed(void **state)
{
	const struct sm_engine_ops *ops = *state;
	enum { NB = 4, BL = 4 * BLK };
	struct sm_engine_cfg cfg = { .depth = 8, .nbufs = NB, .buf_len = BL, .nfds = 1 };
	struct sm_engine e;
	struct sm_io ios[8];
	void *bufs[NB];
	unsigned char *ref, *plain;
	char path[PATH_MAX];
	int fd, n = 0;

	if (!(ops->caps & SM_ENGINE_FIXED))
		SKIP_BECAUSE("engine '%s' does not use registered buffers or files", ops->name);
	ref = sm_buf_alloc(NB * BL, BLK);
	plain = sm_buf_alloc(BL, BLK);
	assert_non_null(ref);
	assert_non_null(plain);
	path_of(path, sizeof(path), ops, "fixed");
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < NB; i++) {
		bufs[i] = sm_buf_alloc(BL, BLK);
		assert_non_null(bufs[i]);
	}
	sm_buf_fill(ref, NB * BL, SM_DATA_RANDOM, 99);
	for (unsigned i = 0; i < NB; i++)
		memcpy(bufs[i], ref + i * BL, BL);
	/* The arrays in cfg are the caller's: the engine must not need them
	 * after init (a workload may build them on its stack). */
	{
		void **barr = malloc(sizeof(bufs));
		int *farr = malloc(sizeof(fd));

		assert_non_null(barr);
		assert_non_null(farr);
		memcpy(barr, bufs, sizeof(bufs));
		*farr = fd;
		cfg.bufs = barr;
		cfg.fds = farr;
		open_engine(&e, ops, &cfg);
		free(barr);
		free(farr);
	}

	/* Whole registered buffers, fixed file. */
	for (unsigned i = 0; i < NB; i++) {
		ios[n] = mkio(SM_OP_WRITE, fd, bufs[i], BL, (uint64_t)i * BL);
		ios[n].buf_index = (int)i;
		ios[n++].file_index = 0;
	}
	run_batch(&e, ios, (unsigned)n, BL);
	{
		struct sm_io fs = mkio(SM_OP_FSYNC, fd, NULL, 0, 0);

		fs.file_index = 0;
		assert_int_equal(run1(&e, &fs), 0);
	}

	/* Read back: one into the second half of buffer 1 (offset inside a
	 * registered buffer), one into buffer 2 with a wrong index (must not
	 * use the registration), one into an unregistered buffer, one with a
	 * file index whose fd does not match (plain fd). */
	for (unsigned i = 0; i < NB; i++)
		memset(bufs[i], 0, BL);
	n = 0;
	ios[n] = mkio(SM_OP_READ, fd, (char *)bufs[1] + 2 * BLK, 2 * BLK, 2 * BLK);
	ios[n].buf_index = 1;
	ios[n++].file_index = 0;
	ios[n] = mkio(SM_OP_READ, fd, bufs[2], 2 * BLK, 0);
	ios[n].buf_index = 0;
	ios[n++].file_index = 0;
	ios[n] = mkio(SM_OP_READ, fd, plain, 2 * BLK, 3 * BL);
	ios[n].buf_index = 3;
	ios[n++].file_index = 0;
	ios[n] = mkio(SM_OP_READ, fd, bufs[3], 2 * BLK, BL);
	ios[n].buf_index = 3;
	ios[n++].file_index = 5;
	run_batch(&e, ios, (unsigned)n, 2 * BLK);
	assert_memory_equal((char *)bufs[1] + 2 * BLK, ref + 2 * BLK, 2 * BLK);
	assert_memory_equal(bufs[2], ref, 2 * BLK);
	assert_memory_equal(plain, ref + 3 * BL, 2 * BLK);
	assert_memory_equal(bufs[3], ref + BL, 2 * BLK);

	/* A fixed read past the end of the file is short, too. */
	ios[0] = mkio(SM_OP_READ, fd, bufs[0], BL, (NB - 1) * BL + BLK);
	ios[0].buf_index = 0;
	ios[0].file_index = 0;
	assert_int_equal(run1(&e, &ios[0]), BL - BLK);
	assert_memory_equal(bufs[0], ref + (NB - 1) * BL + BLK, BL - BLK);

	sm_engine_close(&e);
	close(fd);
	unlink(path);
	for (unsigned i = 0; i < NB; i++)
		free(bufs[i]);
	free(ref);
	free(plain);
}

static void on_alarm(SM_UNUSED int sig)
{
}

/* An async engine: reap(min = 0) does not wait for a request that cannot
 * finish yet (a read from an empty pipe), a signal interrupts a blocking
 * reap with -EINTR and loses nothing, a partial read is continued by the
 * engine, and the request then completes in full. */
static void test_async_wait(void **state)
{
	const struct sm_engine_ops *ops = *state;
	struct sm_engine_cfg cfg = { .depth = 2 };
	struct sm_engine e;
	struct sm_io io, *ptr = &io, *out[2];
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	char buf[16] = { 0 };
	int p[2], rc;

	if (!(ops->caps & SM_ENGINE_ASYNC))
		SKIP_BECAUSE("engine '%s' is synchronous", ops->name);
	assert_int_equal(pipe(p), 0);
	open_engine(&e, ops, &cfg);
	io = mkio(SM_OP_READ, p[0], buf, sizeof(buf), 0);
	io.off = (uint64_t)-1;  /* pipes have no offset: "current position" */
	assert_int_equal(sm_engine_submit(&e, &ptr, 1), 1);
	assert_int_equal(sm_engine_reap(&e, out, 0, 2), 0);
	assert_int_equal(e.inflight, 1);

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);  /* no SA_RESTART */
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	rc = sm_engine_reap(&e, out, 1, 2);
	assert_int_equal(rc, -EINTR);
	assert_int_equal(e.inflight, 1);
	sigaction(SIGALRM, &old, NULL);

	/* Half the data: the ring sees a partial read, which the engine must
	 * resubmit itself rather than return short. */
	assert_int_equal(write(p[1], "01234567", 8), 8);
	usleep(20000);
	assert_int_equal(sm_engine_reap(&e, out, 0, 2), 0);
	assert_int_equal(e.inflight, 1);
	assert_int_equal(write(p[1], "89abcdef", 8), 8);
	rc = sm_engine_reap(&e, out, 1, 2);
	assert_int_equal(rc, 1);
	assert_ptr_equal(out[0], &io);
	assert_int_equal(io.res, 16);
	assert_memory_equal(buf, "0123456789abcdef", 16);
	assert_true(io.t_issue <= io.t_done);

	/* Closing the engine with a read still pending cancels it: it does
	 * not hang, and the read does not later steal data from the pipe. */
	assert_int_equal(sm_engine_submit(&e, &ptr, 1), 1);
	sm_engine_close(&e);
	assert_int_equal(write(p[1], "after", 5), 5);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(read(p[0], buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "after", 5);
	close(p[0]);
	close(p[1]);
}

/* An async engine really overlaps requests: with reads pending on two
 * pipes, the one whose data comes first completes first. */
static void test_async_order(void **state)
{
	const struct sm_engine_ops *ops = *state;
	struct sm_engine_cfg cfg = { .depth = 4 };
	struct sm_engine e;
	struct sm_io io[2], *ptr[2] = { &io[0], &io[1] }, *out[2];
	char buf[2][4];
	int p[2][2];

	if (!(ops->caps & SM_ENGINE_ASYNC))
		SKIP_BECAUSE("engine '%s' is synchronous", ops->name);
	assert_int_equal(pipe(p[0]), 0);
	assert_int_equal(pipe(p[1]), 0);
	open_engine(&e, ops, &cfg);
	for (int i = 0; i < 2; i++) {
		io[i] = mkio(SM_OP_READ, p[i][0], buf[i], 4, 0);
		io[i].off = (uint64_t)-1;
	}
	assert_int_equal(sm_engine_submit(&e, ptr, 2), 2);
	assert_int_equal(write(p[1][1], "bbbb", 4), 4);
	assert_int_equal(sm_engine_reap(&e, out, 1, 1), 1);
	assert_ptr_equal(out[0], &io[1]);
	assert_int_equal(io[1].res, 4);
	assert_int_equal(e.inflight, 1);
	assert_int_equal(write(p[0][1], "aaaa", 4), 4);
	assert_int_equal(sm_engine_reap(&e, out, 1, 2), 1);
	assert_ptr_equal(out[0], &io[0]);
	assert_memory_equal(buf[0], "aaaa", 4);
	assert_memory_equal(buf[1], "bbbb", 4);
	assert_true(io[1].t_done <= io[0].t_done);
	sm_engine_close(&e);
	for (int i = 0; i < 2; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

/* The registry and selection: names resolve, unknown names fail, psync is
 * the synchronous fallback with no probe, and an available async engine is
 * used as asked without a notice. */
static void test_registry(SM_UNUSED void **state)
{
	struct sm_engine_cfg cfg = { .depth = 2 };
	struct sm_engine e;
	char notice[256];
	const struct sm_engine_ops *psync = sm_engine_find("psync");

	assert_non_null(psync);
	assert_null(psync->probe);
	assert_int_equal(psync->caps & SM_ENGINE_ASYNC, 0);
	assert_null(sm_engine_find("no-such-engine"));
	assert_int_equal(sm_engine_open(&e, "no-such-engine", &cfg, notice, sizeof(notice)),
			 -ENOENT);
	for (unsigned i = 0; sm_engines[i]; i++) {
		const struct sm_engine_ops *ops = sm_engines[i];
		int probe = ops->probe ? ops->probe() : 0;

		assert_ptr_equal(sm_engine_find(ops->name), ops);
		assert_non_null(ops->help);
		if (probe || (ops->caps & SM_ENGINE_MAPPED))
			continue;
		assert_int_equal(sm_engine_open(&e, ops->name, &cfg, notice, sizeof(notice)), 0);
		assert_ptr_equal(e.ops, ops);
		assert_string_equal(notice, "");
		sm_engine_close(&e);
	}
}

/*
 * In a child process, block io_uring_setup() with a seccomp filter (as a
 * container's policy does), then open 'uring': the probe must fail and
 * sm_engine_open() must hand back psync with a one-line notice (the same
 * without liburing, where the probe is the stub's). Exit codes:
 * 0 ok, 10+ which check failed, 77 no seccomp here.
 */
static int child_blocked_uring(void)
{
	struct sock_filter filt[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filt) / sizeof(filt[0]), .filter = filt };
	const struct sm_engine_ops *uring = sm_engine_find("uring");
	struct sm_engine_cfg cfg = { .depth = 4 };
	struct sm_engine e;
	char notice[256];
	struct sm_io io;
	char buf[8];

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 77;
#ifdef SM_HAVE_URING
	if (!uring || uring->probe() != -EPERM)
		return 10;
#else
	/* built without liburing: the stub's probe fails as it always does */
	if (!uring || uring->probe() != -ENOSYS)
		return 10;
#endif
	if (sm_engine_open(&e, "uring", &cfg, notice, sizeof(notice)))
		return 11;
	if (e.ops != sm_engine_find("psync"))
		return 12;
	if (!strstr(notice, "'uring'") || !strstr(notice, "'psync'") || strchr(notice, '\n'))
		return 13;
	/* The fallback engine works. */
	io = mkio(SM_OP_READ, 1 << 20, buf, sizeof(buf), 0);
	if (sm_engine_do(&e, &io) != -EBADF)
		return 14;
	sm_engine_close(&e);
	return 0;
}

static void test_fallback_blocked(SM_UNUSED void **state)
{
	int status;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_blocked_uring());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		SKIP_BECAUSE("seccomp filters are not allowed here");
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	static struct CMUnitTest tests[MAX_TESTS];
	static char names[MAX_TESTS][64];
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} per_engine[] = {
		{ "lifecycle", test_lifecycle },
		{ "bad_fd", test_bad_fd },
		{ "direct_depth", test_direct_depth },
		{ "depth_limits", test_depth_limits },
		{ "fixed", test_fixed },
		{ "async_wait", test_async_wait },
		{ "async_order", test_async_order },
	};
	unsigned n = 0;
	int rc;

	scratch = t_scratch("engine");
	for (unsigned i = 0; sm_engines[i]; i++) {
		const struct sm_engine_ops *ops = sm_engines[i];
		int probe = ops->probe ? ops->probe() : 0;

		if (probe) {
			printf("[ SKIPPED  ] engine '%s': probe failed (%s)\n", ops->name,
			       strerror(-probe));
			continue;
		}
		if (ops->caps & SM_ENGINE_MAPPED) {
			/* Needs files opened in advance; its owner tests it. */
			printf("[ SKIPPED  ] engine '%s': mapped engines need cfg.fds\n", ops->name);
			continue;
		}
		for (unsigned t = 0; t < sizeof(per_engine) / sizeof(per_engine[0]); t++) {
			if (n + 3 > MAX_TESTS)
				break;
			snprintf(names[n], sizeof(names[n]), "%s:%s", ops->name, per_engine[t].name);
			tests[n] = (struct CMUnitTest){ names[n], per_engine[t].fn, NULL, NULL,
							(void *)ops };
			n++;
		}
	}
	tests[n++] = (struct CMUnitTest){ "registry", test_registry, NULL, NULL, NULL };
	tests[n++] = (struct CMUnitTest){ "fallback_blocked", test_fallback_blocked, NULL, NULL,
					  NULL };
	rc = _cmocka_run_group_tests("engine", tests, n, NULL, NULL);
	if (t_scratch_remove())
		rc = rc ? rc : 1;   /* a test left what cannot be removed */
	return rc;
}
