/* SPDX-License-Identifier: MIT */
/* The uring engine's own setup: the thread-bound flags the kernel grants
 * are used and reported, a reap with min = 0 sees completions the kernel
 * defers to the driving thread, rings are bound to that thread (another
 * gets -EXDEV, and what it left in flight is drained when it ends), and
 * SQPOLL and IOPOLL are honoured or refused. */
#include "engine/engine.h"
#include "core/buf.h"
#include "core/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helpers.h"

#define BLK 4096u
#define TMPFS_MAGIC_NR 0x01021994

#define SKIP_BECAUSE(...) do { print_message("skip: " __VA_ARGS__); print_message("\n"); skip(); } while (0)

static const char *scratch;   /* t_scratch(): removed at exit */

/* Whether this kernel takes setup flags f, asked directly (not through the
 * engine): what the engine must then have used. */
static int kernel_takes(unsigned f)
{
	struct io_uring r;

	if (io_uring_queue_init(2, &r, f) < 0)
		return 0;
	io_uring_queue_exit(&r);
	return 1;
}

static int has(const struct sm_engine_setup *s, enum sm_esetup_bit b)
{
	return !!(s->flags & (1u << b));
}

static struct sm_io mkio(enum sm_op op, int fd, void *buf, size_t len, uint64_t off)
{
	struct sm_io io = { .op = op, .fd = fd, .buf = buf, .len = len, .off = off,
			    .buf_index = -1, .file_index = -1 };

	return io;
}

static void open_uring(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	char notice[256];

	assert_int_equal(sm_engine_open(e, "uring", cfg, notice, sizeof(notice)), 0);
	assert_string_equal(e->ops->name, "uring");
	assert_string_equal(notice, "");
}

/* A file of n blocks of known bytes in the scratch directory. */
static int scratch_file(const char *name, unsigned n, char *path, size_t len)
{
	char *b = sm_buf_alloc(BLK, BLK);
	int fd;

	assert_non_null(b);
	snprintf(path, len, "%s/%s", scratch, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < n; i++) {
		memset(b, 'a' + (int)i, BLK);
		assert_int_equal(pwrite(fd, b, BLK, (off_t)i * BLK), BLK);
	}
	free(b);
	return fd;
}

/* A large submit goes to the kernel in chunks of the submit batch
 * (cfg.flags SM_ENGINE_BATCH(n); 4 by default): every request is accepted
 * in one call, each chunk's t_issue is one clock read taken before its
 * chunk goes, so issue times never go backwards, every read returns its
 * own block, and the batch used (capped at the depth) is reported. */
static void test_submit_batch(SM_UNUSED void **state)
{
	static const unsigned batches[] = { 0, 1, 3, 4, 16, 1024 };
	char path[PATH_MAX];
	int fd = scratch_file("batch.dat", 16, path, sizeof(path));

	for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		struct sm_engine_cfg cfg = { .depth = 16, .flags = SM_ENGINE_BATCH(batches[b]) };
		unsigned want = batches[b] ? batches[b] : 4, got = 0;
		struct sm_io io[16], *ios[16], *out[16];
		struct sm_engine_setup s;
		struct sm_engine e;
		char *buf = sm_buf_alloc(16 * BLK, BLK);

		assert_non_null(buf);
		open_uring(&e, &cfg);
		for (unsigned i = 0; i < 16; i++) {
			io[i] = mkio(SM_OP_READ, fd, buf + i * BLK, BLK, (uint64_t)(15 - i) * BLK);
			io[i].user = &io[i];
			ios[i] = &io[i];
		}
		assert_int_equal(sm_engine_submit(&e, ios, 16), 16);
		while (got < 16) {
			int n = sm_engine_reap(&e, out + got, 1, 16 - got);

			assert_true(n > 0);
			got += (unsigned)n;
		}
		for (unsigned i = 0; i < 16; i++) {
			assert_int_equal(io[i].res, BLK);
			assert_int_equal(buf[i * BLK], 'a' + (int)(15 - i));
			assert_int_equal(buf[i * BLK + BLK - 1], 'a' + (int)(15 - i));
			assert_true(io[i].t_issue != 0);
			assert_true(io[i].t_done >= io[i].t_issue);
			if (i)
				assert_true(io[i].t_issue >= io[i - 1].t_issue);
			/* one clock read per chunk: same chunk, same instant */
			if (i % want)
				assert_true(io[i].t_issue == io[i - 1].t_issue);
		}
		sm_engine_describe(&e, &s);
		assert_int_equal(s.submit_batch, want < 16 ? want : 16);
		sm_engine_close(&e);
		free(buf);
	}
	close(fd);
	unlink(path);
}

/* The flags the kernel takes are the ones the engine reports, newest
 * first; buffers and files given are registered; the ring fd is
 * registered by the thread that drives a single-issuer ring. */
static void test_setup_reported(SM_UNUSED void **state)
{
	char path[PATH_MAX], *buf = sm_buf_alloc(BLK, BLK);
	void *bufs[1] = { buf };
	int fd = scratch_file("setup.dat", 1, path, sizeof(path));
	struct sm_engine_cfg cfg = { .depth = 4, .bufs = bufs, .nbufs = 1, .buf_len = BLK,
				     .fds = &fd, .nfds = 1 };
	struct sm_engine e;
	struct sm_engine_setup s;
	struct sm_io io = mkio(SM_OP_READ, fd, buf, BLK, 0);
	int si = kernel_takes(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED);
	int defer = kernel_takes(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
				 IORING_SETUP_R_DISABLED);

	open_uring(&e, &cfg);
	io.buf_index = 0;
	io.file_index = 0;
	assert_int_equal(sm_engine_do(&e, &io), BLK);
	assert_int_equal(buf[0], 'a');
	sm_engine_describe(&e, &s);
	print_message("kernel: single_issuer %d defer_taskrun %d; engine flags 0x%x\n", si, defer,
		      s.flags);
	assert_int_equal(s.reported, 1);
	assert_int_equal(s.rings, 1);
	assert_int_equal(s.sq_entries, 4);
	assert_int_equal(has(&s, SM_ESETUP_SINGLE_ISSUER), si);
	assert_int_equal(has(&s, SM_ESETUP_DEFER_TASKRUN), defer);
	assert_false(has(&s, SM_ESETUP_SQPOLL));
	assert_false(has(&s, SM_ESETUP_IOPOLL));
	if (!defer)  /* then COOP_TASKRUN where the kernel has it */
		assert_int_equal(has(&s, SM_ESETUP_COOP_TASKRUN),
				 kernel_takes(IORING_SETUP_COOP_TASKRUN));
	assert_true(s.registered_buffers);
	assert_true(s.registered_files);
	if (si)
		assert_true(s.registered_ring_fd);
	sm_engine_close(&e);

	/* engines without the report */
	assert_int_equal(sm_engine_open(&e, "psync", &cfg, path, sizeof(path)), 0);
	sm_engine_describe(&e, &s);
	assert_int_equal(s.reported, 0);
	sm_engine_close(&e);
	close(fd);
	free(buf);
}

/* A request completed while the thread was not in the kernel: with
 * DEFER_TASKRUN its completion is posted only when this thread asks for
 * events, so a reap with min = 0 must ask. One call, no waiting: the
 * pipe's data arrived before it. */
static void test_reap_min0_deferred(SM_UNUSED void **state)
{
	struct sm_engine_cfg cfg = { .depth = 2 };
	struct sm_engine e;
	struct sm_engine_setup s;
	struct sm_io io, *ptr = &io, *out[2];
	char buf[8] = { 0 };
	int p[2];

	assert_int_equal(pipe(p), 0);
	open_uring(&e, &cfg);
	io = mkio(SM_OP_READ, p[0], buf, 4, 0);
	io.off = (uint64_t)-1;
	assert_int_equal(sm_engine_submit(&e, &ptr, 1), 1);
	assert_int_equal(sm_engine_reap(&e, out, 0, 2), 0);   /* nothing yet */
	sm_engine_describe(&e, &s);
	print_message("defer_taskrun %d coop_taskrun %d\n", has(&s, SM_ESETUP_DEFER_TASKRUN),
		      has(&s, SM_ESETUP_COOP_TASKRUN));
	assert_int_equal(write(p[1], "wxyz", 4), 4);
	assert_int_equal(sm_engine_reap(&e, out, 0, 2), 1);
	assert_ptr_equal(out[0], &io);
	assert_int_equal(io.res, 4);
	assert_memory_equal(buf, "wxyz", 4);
	assert_int_equal(e.inflight, 0);

	/* twice in a row, then both in one reap(min = 0) */
	for (int k = 0; k < 2; k++) {
		io = mkio(SM_OP_READ, p[0], buf, 4, 0);
		io.off = (uint64_t)-1;
		assert_int_equal(sm_engine_submit(&e, &ptr, 1), 1);
		assert_int_equal(write(p[1], "abcd", 4), 4);
		assert_int_equal(sm_engine_reap(&e, out, 0, 2), 1);
		assert_int_equal(io.res, 4);
	}
	sm_engine_close(&e);
	close(p[0]);
	close(p[1]);
}

struct drive {
	struct sm_engine *e;
	int fd;
	char buf[8];
	struct sm_io io;
	int submitted;
	int rc;
};

/* Submit one pipe read and leave it in flight: the thread ends with it. */
static void *drive_and_leave(void *arg)
{
	struct drive *d = arg;
	struct sm_io *ptr = &d->io;

	d->io = mkio(SM_OP_READ, d->fd, d->buf, 4, 0);
	d->io.off = (uint64_t)-1;
	d->submitted = sm_engine_submit(d->e, &ptr, 1);
	return NULL;
}

/* Try to use an engine another thread drives. */
static void *intrude(void *arg)
{
	struct drive *d = arg;
	struct sm_io *out[1];

	d->rc = sm_engine_reap(d->e, out, 0, 1);
	return NULL;
}

/* Set up on this thread, driven by another: the driving thread binds the
 * ring, a third thread is refused, and what the driver left in flight when
 * it ended is cancelled then (closing here neither hangs nor leaves a read
 * that steals later data from the pipe). */
static void test_thread_bound(SM_UNUSED void **state)
{
	struct sm_engine_cfg cfg = { .depth = 2 };
	struct sm_engine e;
	struct sm_engine_setup s;
	struct drive d = { .e = &e };
	pthread_t t;
	char got[8] = { 0 };
	int p[2];

	assert_int_equal(pipe(p), 0);
	d.fd = p[0];
	open_uring(&e, &cfg);
	assert_int_equal(pthread_create(&t, NULL, drive_and_leave, &d), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(d.submitted, 1);
	d.rc = 12345;
	assert_int_equal(pthread_create(&t, NULL, intrude, &d), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(d.rc, -EXDEV);
	sm_engine_describe(&e, &s);
	assert_int_equal(s.reported, 1);
	sm_engine_close(&e);
	assert_int_equal(write(p[1], "late", 4), 4);
	assert_int_equal(read(p[0], got, sizeof(got)), 4);
	assert_memory_equal(got, "late", 4);
	close(p[0]);
	close(p[1]);
}

/* Polling options are for uring only: psync and null refuse them, and
 * sm_engine_open does not quietly fall back. */
static void test_flags_refused(SM_UNUSED void **state)
{
	struct sm_engine_cfg cfg = { .depth = 2, .flags = SM_ENGINE_SQPOLL };
	struct sm_engine e;
	char notice[256];

	assert_int_equal(sm_engine_open(&e, "psync", &cfg, notice, sizeof(notice)), -EOPNOTSUPP);
	assert_int_equal(sm_engine_open(&e, "null", &cfg, notice, sizeof(notice)), -EOPNOTSUPP);
	cfg.flags = SM_ENGINE_IOPOLL;
	assert_int_equal(sm_engine_open(&e, "psync", &cfg, notice, sizeof(notice)), -EOPNOTSUPP);
	/* a submit batch is not a mode: other engines ignore it */
	cfg.flags = SM_ENGINE_BATCH(8);
	assert_int_equal(sm_engine_open(&e, "psync", &cfg, notice, sizeof(notice)), 0);
	sm_engine_close(&e);
}

/* --sqpoll: a kernel thread takes the submissions; O_DIRECT writes and
 * reads on tmpfs (/dev/shm) go through it and come back whole. */
static void test_sqpoll_tmpfs(SM_UNUSED void **state)
{
	struct sm_engine_cfg cfg = { .depth = 4, .flags = SM_ENGINE_SQPOLL };
	struct sm_engine e;
	struct sm_engine_setup s;
	struct statfs sf;
	char path[] = "/dev/shm/stormark-test-uring-XXXXXX";
	char *w = sm_buf_alloc(4 * BLK, BLK), *r = sm_buf_alloc(4 * BLK, BLK);
	struct sm_io io[4], *ptr[4], *out[4];
	int fd, got = 0;

	if (statfs("/dev/shm", &sf) || sf.f_type != TMPFS_MAGIC_NR)
		SKIP_BECAUSE("/dev/shm is not tmpfs here");
	fd = mkostemp(path, O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		SKIP_BECAUSE("tmpfs takes no O_DIRECT on this kernel (6.6+)");
	assert_true(fd >= 0);
	unlink(path);
	open_uring(&e, &cfg);
	for (unsigned i = 0; i < 4; i++) {
		memset(w + i * BLK, 'A' + (int)i, BLK);
		io[i] = mkio(SM_OP_WRITE, fd, w + i * BLK, BLK, (uint64_t)i * BLK);
		ptr[i] = &io[i];
	}
	assert_int_equal(sm_engine_submit(&e, ptr, 4), 4);
	while (got < 4) {
		int n = sm_engine_reap(&e, out, 1, 4);

		assert_true(n > 0);
		got += n;
	}
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(io[i].res, BLK);
		io[i] = mkio(SM_OP_READ, fd, r + i * BLK, BLK, (uint64_t)i * BLK);
	}
	for (got = 0; got < 4;) {
		int n = sm_engine_submit(&e, ptr + got, 4 - (unsigned)got);

		assert_true(n > 0);
		got += n;
	}
	for (got = 0; got < 4;) {
		int n = sm_engine_reap(&e, out, 1, 4);

		assert_true(n > 0);
		got += n;
	}
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(io[i].res, BLK);
	assert_memory_equal(w, r, 4 * BLK);
	sm_engine_describe(&e, &s);
	assert_true(has(&s, SM_ESETUP_SQPOLL));
	assert_false(has(&s, SM_ESETUP_DEFER_TASKRUN));   /* SQPOLL excludes it */
	sm_engine_close(&e);
	close(fd);
	free(w);
	free(r);
}

/* --iopoll on the build tree's disk: an O_DIRECT read either completes by
 * polling, or fails with EOPNOTSUPP (no poll queues), never hangs or
 * succeeds silently unpolled; open and fsync run outside the ring. */
static void test_iopoll_disk(SM_UNUSED void **state)
{
	struct sm_engine_cfg cfg = { .depth = 2, .flags = SM_ENGINE_IOPOLL };
	struct sm_engine e;
	struct sm_engine_setup s;
	char path[PATH_MAX], *b = sm_buf_alloc(BLK, BLK);
	struct sm_io io;
	int fd = scratch_file("iopoll.dat", 2, path, sizeof(path)), dfd;
	int64_t res;

	assert_int_equal(fsync(fd), 0);
	dfd = open(path, O_RDONLY | O_DIRECT);
	if (dfd < 0)
		SKIP_BECAUSE("no O_DIRECT on the build tree's file system");
	open_uring(&e, &cfg);
	io = mkio(SM_OP_READ, dfd, b, BLK, BLK);
	res = sm_engine_do(&e, &io);
	print_message("polled O_DIRECT read on the build tree: %lld (%s)\n", (long long)res,
		      res < 0 ? strerror((int)-res) : "ok");
	assert_true(res == BLK || res == -EOPNOTSUPP);
	if (res == BLK)
		assert_int_equal(b[0], 'b');
	io = mkio(SM_OP_FSYNC, fd, NULL, 0, 0);
	assert_int_equal(sm_engine_do(&e, &io), 0);
	sm_engine_describe(&e, &s);
	assert_true(has(&s, SM_ESETUP_IOPOLL));
	sm_engine_close(&e);
	close(dfd);
	close(fd);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_reported),
		cmocka_unit_test(test_submit_batch),
		cmocka_unit_test(test_reap_min0_deferred),
		cmocka_unit_test(test_thread_bound),
		cmocka_unit_test(test_flags_refused),
		cmocka_unit_test(test_sqpoll_tmpfs),
		cmocka_unit_test(test_iopoll_disk),
	};
	const struct sm_engine_ops *u = sm_engine_find("uring");
	int probe = u && u->probe ? u->probe() : -ENOSYS;
	int rc;

	if (probe)
		t_skip("test_uring: io_uring is not available here (%s)", strerror(-probe));
	scratch = t_scratch("uring");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (t_scratch_remove())
		rc = rc ? rc : 1;
	return rc;
}
