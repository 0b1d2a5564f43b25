/* SPDX-License-Identifier: MIT */
/* Unit tests of the block I/O workload: counts, bytes, offsets and depth
 * with a recording no-I/O engine, the null engine, and short real-file runs
 * with every engine usable here. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/fsx.h"
#include "workload/blockio.h"
#include "helpers.h"

/* A recording engine: completes at once (like null), remembers offsets and
 * the most requests ever in flight. */
#define REC_MAX 4096
static struct {
	unsigned max_inflight;
	unsigned n;
	uint64_t off[REC_MAX];
	size_t len[REC_MAX];
	int fixed_ok;        /* every request named a registered buffer/file */
	unsigned reaps;      /* reap calls so far */
	unsigned stall_at;   /* this reap call sleeps stall_us first (0: none) */
	unsigned stall_us;
} rec;

struct rec_priv {
	struct sm_done_fifo f;
};

static int rec_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	struct rec_priv *p = calloc(1, sizeof(*p));

	if (!p || sm_done_fifo_init(&p->f, cfg->depth)) {
		free(p);
		return -ENOMEM;
	}
	e->priv = p;
	return 0;
}

static int rec_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct rec_priv *p = e->priv;
	unsigned i;

	for (i = 0; i < n && p->f.count < p->f.cap; i++) {
		struct sm_io *io = ios[i];

		if (rec.n < REC_MAX) {
			rec.off[rec.n] = io->off;
			rec.len[rec.n] = io->len;
		}
		rec.n++;
		if (io->buf_index < 0 || (unsigned)io->buf_index >= e->cfg.nbufs ||
		    e->cfg.bufs[io->buf_index] != io->buf || io->file_index != 0 ||
		    e->cfg.fds[0] != io->fd)
			rec.fixed_ok = 0;
		io->t_issue = sm_now_ns();
		io->res = (int64_t)io->len;
		io->t_done = io->t_issue + 1000;
		sm_done_fifo_push(&p->f, io);
	}
	if (e->inflight + i > rec.max_inflight)
		rec.max_inflight = e->inflight + i;
	return (int)i;
}

static int rec_reap(struct sm_engine *e, struct sm_io **out, SM_UNUSED unsigned min, unsigned max)
{
	struct rec_priv *p = e->priv;

	if (++rec.reaps == rec.stall_at)
		usleep(rec.stall_us);
	return sm_done_fifo_pop(&p->f, out, max);
}

static void rec_exit(struct sm_engine *e)
{
	struct rec_priv *p = e->priv;

	sm_done_fifo_release(&p->f);
	free(p);
}

static const struct sm_engine_ops rec_ops = {
	.name = "rec", .caps = SM_ENGINE_NO_IO,
	.init = rec_init, .submit = rec_submit, .reap = rec_reap, .exit = rec_exit,
};

static char dir[PATH_MAX];
static char path[PATH_MAX + 8];

static int setup_file(SM_UNUSED void **state)
{
	int fd;

	/* on the real disk (the test's scratch directory), not /tmp */
	t_tmpdir(dir, sizeof(dir), "blockio");
	snprintf(path, sizeof(path), "%s/data", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || ftruncate(fd, 8 << 20))
		return -1;
	close(fd);
	return 0;
}

static int teardown_file(SM_UNUSED void **state)
{
	unlink(path);
	rmdir(dir);
	return 0;
}

static void reset_rec(void)
{
	memset(&rec, 0, sizeof(rec));
	rec.fixed_ok = 1;
}

static void test_counts_sequential(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;

	reset_rec();
	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 1 << 20;
	p.depth = 8;
	p.max_ios = 100;
	p.duration_ns = 60 * SM_NS_PER_S;
	p.ops = &rec_ops;
	p.direct = 0;
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	assert_int_equal(r.op.count, 100);
	assert_int_equal(r.op.errors, 0);
	assert_int_equal(r.op.bytes, 100ull << 20);
	assert_int_equal(r.op.lat.count, 100);
	assert_int_equal(r.op.lat.min, 1000);
	assert_int_equal(rec.n, 100);
	assert_int_equal(rec.max_inflight, 8);
	assert_int_equal(r.depth, 8);
	assert_string_equal(r.engine, "rec");
	assert_true(rec.fixed_ok);
	/* sequential: block k at k MiB, wrapping at the 8 MiB working set */
	for (unsigned i = 0; i < 100; i++) {
		assert_int_equal(rec.off[i], (uint64_t)(i % 8) << 20);
		assert_int_equal(rec.len[i], 1 << 20);
	}
	assert_true(sm_blockio_iops(&r) > 0);
	assert_true(sm_blockio_bytes_per_s(&r) > 0);
}

/* A reap that takes 300 ms: the time nothing completed is a stall, at
 * least as long, found where it was (the test asserts no upper bound: the
 * machine may add its own delay). */
static void test_stall_found(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;

	reset_rec();
	rec.stall_at = 40;
	rec.stall_us = 300000;
	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 1 << 20;
	p.depth = 4;
	p.max_ios = 400;
	p.duration_ns = 60 * SM_NS_PER_S;
	p.ops = &rec_ops;
	p.direct = 0;
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	assert_true(r.stalls.measured);
	assert_true(r.stalls.nkept >= 1);
	assert_true(r.stalls.gaps >= 1);
	assert_true(r.stalls.kept[0].len_ns >= 300000000ull);
	assert_true(r.stalls.longest_ns == r.stalls.kept[0].len_ns);
	assert_true(r.stalls.kept[0].at_ns <= r.duration_ns);
	/* counted against a threshold by the analysis, not the workload */
	assert_int_equal(r.stalls.count, 0);
	sm_stalls_count(&r.stalls, SM_STALL_UNPACED_MIN_NS);
	assert_true(r.stalls.count >= 1);
}

static void test_random_offsets(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;
	unsigned seen[2048] = { 0 }, distinct = 0;

	reset_rec();
	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 4096;
	p.random = 1;
	p.depth = 32;
	p.max_ios = 4000;
	p.duration_ns = 60 * SM_NS_PER_S;
	p.ops = &rec_ops;
	p.seed = 42;
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	assert_int_equal(r.op.count, 4000);
	assert_int_equal(r.op.bytes, 4000ull * 4096);
	assert_int_equal(rec.max_inflight, 32);
	for (unsigned i = 0; i < 4000; i++) {
		assert_int_equal(rec.off[i] % 4096, 0);
		assert_true(rec.off[i] < (8u << 20));
		if (!seen[rec.off[i] / 4096]++)
			distinct++;
	}
	/* 4000 draws over 2048 blocks cover most of them (expected ~1765) */
	assert_true(distinct > 1500);
}

static void test_depth_one_and_duration(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;
	uint64_t t0;

	reset_rec();
	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 4096;
	p.depth = 1;
	p.duration_ns = 50 * SM_NS_PER_MS;
	p.ops = &rec_ops;
	t0 = sm_now_ns();
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	assert_true(sm_now_ns() - t0 < 5 * SM_NS_PER_S);
	assert_int_equal(rec.max_inflight, 1);
	assert_true(r.op.count > 10);
	assert_int_equal(r.op.bytes, r.op.count * 4096);
}

static void test_null_engine(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;

	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 4096;
	p.random = 1;
	p.write = 1;
	p.depth = 16;
	p.max_ios = 10000;
	p.duration_ns = 60 * SM_NS_PER_S;
	p.engine = "null";
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	assert_string_equal(r.engine, "null");
	assert_int_equal(r.depth, 16);
	assert_int_equal(r.op.count, 10000);
	assert_int_equal(r.op.bytes, 10000ull * 4096);
}

/* The progress tick: once a second from the completion loop, with the
 * bytes and I/Os so far growing and the time since the start. */
struct ticks {
	unsigned n;
	uint64_t bytes, ios, elapsed_ns;
	int grew;
};

static void on_tick(void *arg, uint64_t bytes, uint64_t ios, uint64_t elapsed_ns)
{
	struct ticks *t = arg;

	t->grew += t->n == 0 || (bytes > t->bytes && ios > t->ios && elapsed_ns > t->elapsed_ns);
	t->n++;
	t->bytes = bytes;
	t->ios = ios;
	t->elapsed_ns = elapsed_ns;
}

static void test_tick(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;
	struct ticks t = { 0 };

	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 4096;
	p.depth = 4;
	p.duration_ns = 2500 * SM_NS_PER_MS;
	p.engine = "null";
	p.tick = on_tick;
	p.tick_arg = &t;
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	/* 2.5 s: due at 1 s and 2 s (a loaded machine may run late, never early) */
	assert_true(t.n >= 1 && t.n <= 2);
	assert_int_equal(t.grew, (int)t.n);
	assert_true(t.elapsed_ns >= SM_NS_PER_S);
	assert_true(t.bytes <= r.op.bytes && t.ios <= r.op.count);
	assert_true(t.bytes == t.ios * 4096);
}

static void test_bad_plans(SM_UNUSED void **state)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;

	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 4096;   /* smaller than one 1 MiB block */
	assert_int_equal(sm_blockio_run(&p, &r), -EINVAL);
	p.file_bytes = 8 << 20;
	p.depth = 0;
	assert_int_equal(sm_blockio_run(&p, &r), -EINVAL);
	p.depth = 1;
	p.path = "blockio-test-does-not-exist/x";
	assert_int_equal(sm_blockio_run(&p, &r), -ENOENT);
	p.path = path;
	p.engine = "no-such-engine";
	assert_int_equal(sm_blockio_run(&p, &r), -ENOENT);
}

/* Write then read the real file with each engine; data must land. */
static void real_file(const char *engine, unsigned depth)
{
	struct sm_blockio_plan p;
	struct sm_blockio_result r;
	int direct = sm_direct_probe(dir) > 0;
	char *buf = sm_buf_alloc(1 << 20, 4096);
	int fd, rc;

	sm_blockio_plan_defaults(&p);
	p.path = path;
	p.file_bytes = 8 << 20;
	p.block = 1 << 20;
	p.write = 1;
	p.depth = depth;
	p.max_ios = 8;
	p.duration_ns = 30 * SM_NS_PER_S;
	p.direct = direct;
	p.engine = engine;
	rc = sm_blockio_run(&p, &r);
	assert_int_equal(rc, 0);
	assert_int_equal(r.op.count, 8);
	assert_int_equal(r.op.errors, 0);
	assert_int_equal(r.op.bytes, 8 << 20);
	/* every 4 KiB block of the file now carries a stamp */
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	for (unsigned off = 0; off < (8u << 20); off += 1 << 20) {
		assert_int_equal(pread(fd, buf, 1 << 20, off), 1 << 20);
		for (unsigned b = 0; b < (1u << 20); b += 4096)
			assert_true(sm_buf_has_stamp(buf + b, 4096));
	}
	close(fd);

	p.write = 0;
	p.block = 4096;
	p.random = 1;
	p.max_ios = 2000;
	assert_int_equal(sm_blockio_run(&p, &r), 0);
	assert_int_equal(r.op.count, 2000);
	assert_int_equal(r.op.bytes, 2000ull * 4096);
	assert_int_equal(r.op.lat.count, 2000);
	assert_true(r.op.lat.min > 0);
	free(buf);
}

static void test_real_psync(SM_UNUSED void **state)
{
	real_file("psync", 1);
}

static void test_real_uring(SM_UNUSED void **state)
{
	const struct sm_engine_ops *u = sm_engine_find("uring");

	if (!u || (u->probe && u->probe()))
		skip();
	real_file("uring", 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_sequential),
		cmocka_unit_test(test_stall_found),
		cmocka_unit_test(test_random_offsets),
		cmocka_unit_test(test_depth_one_and_duration),
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_bad_plans),
		cmocka_unit_test(test_real_psync),
		cmocka_unit_test(test_real_uring),
	};

	return cmocka_run_group_tests(tests, setup_file, teardown_file);
}
