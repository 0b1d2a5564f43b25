/* SPDX-License-Identifier: MIT */
/* Tests of the fileio workload: sysbench's request rules (periodic fsync
 * series, rndrw ratio, shared sequential cursor, event limit), offsets
 * reproducible whatever the thread count, validation blocks, the mmap
 * engine, and sysbench's number formats. */
#include "workload/fileio.h"
#include "analysis/fileio.h"
#include "engine/engine.h"
#include "report/sysbench.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static void small_cfg(struct sm_fileio_cfg *c, enum sm_fileio_mode m)
{
	sm_fileio_cfg_defaults(c);
	c->num_files = 4;
	c->total_size = 8 << 20;
	c->file_size = 2 << 20;
	c->mode = m;
	c->seed = 42;
}

/* Draw n events one at a time; counts per op into cnt[op]. */
static void draw(struct sm_fileio_gen *g, struct sm_fileio_req *out, unsigned n, unsigned *got)
{
	*got = 0;
	while (*got < n && sm_fileio_gen_next(g, &out[*got], 1, NULL) == 1)
		(*got)++;
}

static void test_fsync_series(SM_UNUSED void **state)
{
	struct sm_fileio_cfg c;
	struct sm_fileio_req r[300];
	struct sm_fileio_gen *g;
	unsigned n, writes = 0, fsyncs = 0;

	small_cfg(&c, SM_FIO_RNDWR);
	c.max_events = 300;
	g = sm_fileio_gen_new(&c, 1);
	draw(g, r, 300, &n);
	assert_int_equal(n, 300);
	/* requests 0..99, then one fsync of each of the 4 files, ... */
	for (unsigned i = 0; i < 100; i++)
		assert_int_equal(r[i].op, SM_OP_WRITE);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(r[100 + i].op, SM_OP_FSYNC);
		assert_int_equal(r[100 + i].file, i);
	}
	assert_int_equal(r[104].op, SM_OP_WRITE);
	for (unsigned i = 0; i < n; i++) {
		writes += r[i].op == SM_OP_WRITE;
		fsyncs += r[i].op == SM_OP_FSYNC;
		assert_int_equal(r[i].event, i);
	}
	/* sysbench 1.0.20 gives 292 writes and 8 periodic fsyncs here */
	assert_int_equal(writes, 292);
	assert_int_equal(fsyncs, 8);
	/* the event limit holds */
	assert_int_equal(sm_fileio_gen_next(g, r, 1, NULL), 0);
	sm_fileio_gen_free(g);

	/* reads never make the files dirty: no fsync in rndrd */
	small_cfg(&c, SM_FIO_RNDRD);
	g = sm_fileio_gen_new(&c, 1);
	draw(g, r, 300, &n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(r[i].op, SM_OP_READ);
	sm_fileio_gen_free(g);

	/* --file-fsync-freq=0: none */
	small_cfg(&c, SM_FIO_SEQWR);
	c.fsync_freq = 0;
	g = sm_fileio_gen_new(&c, 1);
	draw(g, r, 300, &n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(r[i].op, SM_OP_WRITE);
	sm_fileio_gen_free(g);
}

static void test_rw_ratio(SM_UNUSED void **state)
{
	struct sm_fileio_cfg c;
	struct sm_fileio_req *r = calloc(10000, sizeof(*r));
	struct sm_fileio_gen *g;
	unsigned n, reads = 0, writes = 0;

	small_cfg(&c, SM_FIO_RNDRW);
	c.fsync_freq = 0;
	g = sm_fileio_gen_new(&c, 1);
	draw(g, r, 10000, &n);
	for (unsigned i = 0; i < n; i++) {
		reads += r[i].op == SM_OP_READ;
		writes += r[i].op == SM_OP_WRITE;
		/* the running ratio never strays: (reads+1)/(writes+1) rule */
		if (i > 10)
			assert_true((double)reads / (writes + 1) <= 1.5 + 1e-9);
	}
	assert_int_equal(reads, 6000);
	assert_int_equal(writes, 4000);
	sm_fileio_gen_free(g);
	free(r);
}

static void test_seq_cursor(SM_UNUSED void **state)
{
	struct sm_fileio_cfg c;
	struct sm_fileio_req r[600];
	struct sm_fileio_gen *g;
	unsigned n;

	small_cfg(&c, SM_FIO_SEQRD);
	c.merged = 2;          /* 32 KiB requests: 64 per file */
	g = sm_fileio_gen_new(&c, 1);
	draw(g, r, 600, &n);
	for (unsigned i = 0; i < n; i++) {
		unsigned k = i % 256;          /* wraps after the 4 files */

		assert_int_equal(r[i].file, k / 64);
		assert_int_equal(r[i].off, (uint64_t)(k % 64) * 32768);
		assert_int_equal(r[i].len, 32768);
	}
	sm_fileio_gen_free(g);
}

static void test_random_offsets(SM_UNUSED void **state)
{
	struct sm_fileio_cfg c;
	struct sm_fileio_req *r = calloc(20000, sizeof(*r));
	struct sm_fileio_gen *g;
	unsigned n, per_file[4] = { 0 };

	small_cfg(&c, SM_FIO_RNDRD);
	c.block_size = 4096;
	g = sm_fileio_gen_new(&c, 1);
	draw(g, r, 20000, &n);
	for (unsigned i = 0; i < n; i++) {
		assert_true(r[i].file < 4);
		assert_int_equal(r[i].off % 4096, 0);
		assert_true(r[i].off + r[i].len <= c.file_size);
		per_file[r[i].file]++;
	}
	for (unsigned f = 0; f < 4; f++)   /* uniform: 5000 each, give or take */
		assert_true(per_file[f] > 4500 && per_file[f] < 5500);
	sm_fileio_gen_free(g);
	free(r);
}

struct drawer {
	struct sm_fileio_gen *g;
	struct sm_fileio_req r[4096];
	unsigned n;
};

static void *draw_thread(void *p)
{
	struct drawer *d = p;
	unsigned got;

	while (d->n < 4096 && (got = sm_fileio_gen_next(d->g, &d->r[d->n], 3, NULL)) > 0)
		d->n += got;
	return NULL;
}

static int by_event(const void *a, const void *b)
{
	const struct sm_fileio_req *x = a, *y = b;

	return x->event < y->event ? -1 : x->event > y->event;
}

/* The same seed gives the same event sequence with 1 or 4 threads. */
static void test_reproducible_threads(SM_UNUSED void **state)
{
	struct sm_fileio_cfg c;
	struct sm_fileio_req *one = calloc(4000, sizeof(*one)), *all = calloc(4 * 4096, sizeof(*all));
	struct drawer *d = calloc(4, sizeof(*d));
	pthread_t t[4];
	struct sm_fileio_gen *g;
	unsigned n, total = 0;

	small_cfg(&c, SM_FIO_RNDRW);
	c.max_events = 4000;
	g = sm_fileio_gen_new(&c, 1);
	draw(g, one, 4000, &n);
	assert_int_equal(n, 4000);
	sm_fileio_gen_free(g);

	g = sm_fileio_gen_new(&c, 4);
	for (int i = 0; i < 4; i++) {
		d[i].g = g;
		pthread_create(&t[i], NULL, draw_thread, &d[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		memcpy(all + total, d[i].r, d[i].n * sizeof(*all));
		total += d[i].n;
	}
	assert_int_equal(total, 4000);
	qsort(all, total, sizeof(*all), by_event);
	for (unsigned i = 0; i < total; i++) {
		assert_int_equal(all[i].event, one[i].event);
		assert_int_equal(all[i].op, one[i].op);
		assert_int_equal(all[i].file, one[i].file);
		assert_int_equal(all[i].off, one[i].off);
	}
	sm_fileio_gen_free(g);

	/* another seed, other offsets */
	c.seed = 43;
	g = sm_fileio_gen_new(&c, 1);
	draw(g, all, 100, &n);
	{
		unsigned same = 0;

		for (unsigned i = 0; i < 100; i++)
			same += all[i].off == one[i].off && all[i].file == one[i].file;
		assert_true(same < 20);
	}
	sm_fileio_gen_free(g);
	free(one);
	free(all);
	free(d);
}

/* The run's checks on blocks: a sealed read passes, damage is named at its
 * block, a write the map says happened but the block lacks is a lost write,
 * and --validate leaves blocks without a trailer unchecked (never an alarm)
 * in a file whose blocks carry none, where --verify reports them; in a file
 * of a known set --validate reports them too. */
static void test_vseal_vcheck(SM_UNUSED void **state)
{
	struct sm_fileio_cfg cfg;
	struct sm_fileio_vctx v;
	struct sm_verify_stats st;
	struct sm_verify_problem first;
	uint64_t set[4] = { 11, 11, 11, 11 }, last[4 * 8];
	unsigned char *b = calloc(4, 4096);

	sm_fileio_cfg_defaults(&cfg);
	cfg.block_size = 4096;
	cfg.file_size = 8 * 4096;
	cfg.num_files = 4;
	cfg.verify = 1;
	memset(&v, 0, sizeof(v));
	memset(last, 0, sizeof(last));
	v.cfg = &cfg;
	v.run = 100;
	v.set = set;
	v.last = last;
	v.per_file = 8;
	memset(&st, 0, sizeof(st));
	sm_fileio_vseal(&v, b, 3, 16384, 4 * 4096, 41, &st);
	assert_int_equal(st.sealed, 4);
	assert_int_equal(sm_fileio_vcheck(&v, b, 3, 16384, 4 * 4096, &st, &first), 0);
	assert_int_equal(st.checked, 4);
	/* read back from another place: misplaced, at the first block */
	assert_int_equal(sm_fileio_vcheck(&v, b, 3, 4096, 4 * 4096, &st, &first), 4);
	assert_int_equal(first.kind, SM_VK_MISPLACED);
	assert_int_equal(first.off, 4096);
	assert_int_equal(first.found.off, 16384);
	/* a later write to the third block completed, the block holds the older one */
	sm_fileio_vwritten(&v, 3, 16384 + 2 * 4096, 4096, 57);
	assert_int_equal(sm_fileio_vcheck(&v, b, 3, 16384, 4 * 4096, &st, &first), 1);
	assert_int_equal(first.kind, SM_VK_STALE);
	assert_int_equal(first.off, 16384 + 2 * 4096);
	assert_int_equal(first.expect.seq, 58);
	assert_int_equal(first.found.seq, 42);
	/* one flipped bit in the second block */
	b[4096 + 100] ^= 0x10;
	assert_int_equal(sm_fileio_vcheck(&v, b, 3, 16384, 2 * 4096, &st, &first), 1);
	assert_int_equal(first.kind, SM_VK_CHECKSUM);
	assert_int_equal(first.off, 16384 + 4096);
	/* zeros: --verify reports them, --validate cannot check them */
	memset(b, 0, 4096);
	memset(&st, 0, sizeof(st));
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 0, 4096, &st, &first), 1);
	assert_int_equal(first.kind, SM_VK_ZERO);
	cfg.verify = 0;
	cfg.validate = 1;
	/* --validate in a file of a known set (prepared with --validate):
	 * every block had a trailer, zeros are damage */
	memset(&st, 0, sizeof(st));
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 0, 4096, &st, &first), 1);
	assert_int_equal(first.kind, SM_VK_ZERO);
	assert_int_equal(st.unchecked, 0);
	/* in a file whose blocks carry no trailer (set not known), unchecked */
	set[0] = 0;
	memset(&st, 0, sizeof(st));
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 0, 4096, &st, &first), 0);
	assert_int_equal(st.unchecked, 1);
	assert_int_equal(st.problems, 0);
	/* ...unless this run wrote there: then zeros are a lost write */
	sm_fileio_vwritten(&v, 0, 0, 4096, 3);
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 0, 4096, &st, &first), 1);
	free(b);
}

/* A block this run has not written, checked against the block map: the
 * write the map names passes; an older one (a write an earlier run lost)
 * is stale, with the write expected and the one found; without the map
 * the same block passes, as it used to (the run only knows the set). */
static void test_vcheck_map(SM_UNUSED void **state)
{
	struct sm_fileio_cfg cfg;
	struct sm_fileio_vctx v, w;
	struct sm_verify_stats st;
	struct sm_verify_problem first;
	uint64_t set[1] = { 11 }, last[8], prev[8], runs[2] = { 11, 60 };
	struct sm_fileio_vmap maps[1] = { { .set = 11, .runs = runs, .nruns = 2 } };
	unsigned char *b = calloc(1, 4096);

	sm_fileio_cfg_defaults(&cfg);
	cfg.block_size = 4096;
	cfg.file_size = 8 * 4096;
	cfg.num_files = 1;
	cfg.verify = 1;
	memset(&v, 0, sizeof(v));
	memset(last, 0, sizeof(last));
	for (unsigned k = 0; k < 8; k++)   /* prepare wrote every block (run 11) */
		prev[k] = (uint64_t)1 << SM_VMAP_SEQ_BITS;
	prev[5] = (uint64_t)2 << SM_VMAP_SEQ_BITS | 94;   /* run 60 wrote block 5, its seq 94 */
	v.cfg = &cfg;
	v.run = 100;
	v.set = set;
	v.last = last;
	v.per_file = 8;
	v.prev = prev;
	v.maps = maps;
	w = v;
	w.run = 60;   /* sealing as run 60 would have */
	memset(&st, 0, sizeof(st));
	sm_fileio_vseal(&w, b, 0, 5 * 4096, 4096, 93, &st);
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 5 * 4096, 4096, &st, &first), 0);
	/* the block still holds run 60's seq 16: that run lost its write 94 */
	sm_fileio_vseal(&w, b, 0, 5 * 4096, 4096, 15, &st);
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 5 * 4096, 4096, &st, &first), 1);
	assert_int_equal(first.kind, SM_VK_STALE);
	assert_int_equal(first.off, 5 * 4096);
	assert_int_equal(first.expect.run, 60);
	assert_int_equal(first.expect.seq, 94);
	assert_int_equal(first.found.seq, 16);
	/* it still holds prepare's write: as stale */
	w.run = 11;
	{
		struct sm_vblk_id id = { .set = 11, .run = 11, .off = 5 * 4096, .file = 0 };

		sm_verify_seal_range(b, 4096, 4096, &id);
	}
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 5 * 4096, 4096, &st, &first), 1);
	assert_int_equal(first.kind, SM_VK_STALE);
	assert_int_equal(first.found.run, 11);
	/* no map: the set and the run order are all the run can check */
	v.prev = NULL;
	v.maps = NULL;
	memset(&st, 0, sizeof(st));
	assert_int_equal(sm_fileio_vcheck(&v, b, 0, 5 * 4096, 4096, &st, &first), 0);
	free(b);
}

/* A block map written and read back word for word, its run table kept to
 * the runs still named; refused when a run left it unfinished, when a
 * byte of it changed, or for another block size or file; never written
 * over, nor removed, when what has its name is not a map. */
static void test_vmap(SM_UNUSED void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	struct sm_fileio_cfg cfg;
	struct sm_fileio_vmap m;
	uint64_t words[16], got[16], runs[3] = { 7, 8, 9 };
	int fd;

	t_tmpdir(dir, sizeof(dir), "vmap");
	sm_fileio_cfg_defaults(&cfg);
	cfg.dir = dir;
	cfg.block_size = 4096;
	cfg.file_size = 16 * 4096;
	cfg.num_files = 2;
	assert_int_equal(sm_fileio_vmap_load(&cfg, 0, &m, got), 0);   /* none yet */
	for (unsigned k = 0; k < 16; k++)   /* runs 7 and 9 named, 8 not */
		words[k] = k % 3 ? (uint64_t)1 << SM_VMAP_SEQ_BITS : (uint64_t)3 << SM_VMAP_SEQ_BITS | (k + 1);
	words[4] = 0;   /* not known */
	assert_int_equal(sm_fileio_vmap_save(&cfg, 0, 7, words, runs, 3), 0);
	assert_int_equal(sm_fileio_vmap_load(&cfg, 0, &m, got), 1);
	assert_int_equal(m.set, 7);
	assert_int_equal(m.nruns, 2);
	assert_int_equal(m.runs[0], 7);
	assert_int_equal(m.runs[1], 9);
	for (unsigned k = 0; k < 16; k++) {
		uint64_t want = k == 4 ? 0 : k % 3 ? (uint64_t)1 << SM_VMAP_SEQ_BITS
						  : (uint64_t)2 << SM_VMAP_SEQ_BITS | (k + 1);

		assert_int_equal(got[k], want);
	}
	free(m.runs);
	/* a run that starts writing marks it: untrusted until saved again */
	assert_int_equal(sm_fileio_vmap_begin(&cfg, 0), 0);
	assert_int_equal(sm_fileio_vmap_load(&cfg, 0, &m, got), -EBUSY);
	assert_int_equal(sm_fileio_vmap_save(&cfg, 0, 7, NULL, runs, 1), 0);   /* as prepare writes it */
	assert_int_equal(sm_fileio_vmap_load(&cfg, 0, &m, got), 1);
	assert_int_equal(m.nruns, 1);
	assert_int_equal(got[15], (uint64_t)1 << SM_VMAP_SEQ_BITS);
	free(m.runs);
	/* one byte changed in the body: the checksum says so */
	snprintf(path, sizeof(path), "%s/test_file.0.verify", dir);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "\x55", 1, 64 + 8 + 3 * 8), 1);
	close(fd);
	assert_int_equal(sm_fileio_vmap_load(&cfg, 0, &m, got), -EBADMSG);
	/* another block size: not this set's map */
	assert_int_equal(sm_fileio_vmap_save(&cfg, 0, 7, NULL, runs, 1), 0);
	cfg.block_size = 8192;
	cfg.file_size = 8 * 8192;
	assert_int_equal(sm_fileio_vmap_load(&cfg, 0, &m, got), -EBADMSG);
	cfg.block_size = 4096;
	cfg.file_size = 16 * 4096;
	/* test_file.1.verify that is no map: not read, written or removed */
	snprintf(path, sizeof(path), "%s/test_file.1.verify", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "mine", 4), 4);
	close(fd);
	assert_int_equal(sm_fileio_vmap_load(&cfg, 1, &m, got), -EPERM);
	assert_int_equal(sm_fileio_vmap_save(&cfg, 1, 7, NULL, runs, 1), -EPERM);
	assert_int_equal(sm_fileio_vmap_remove(&cfg, 1), -EPERM);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sm_fileio_vmap_remove(&cfg, 0), 1);
	assert_int_equal(sm_fileio_vmap_remove(&cfg, 0), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_mmap_engine(SM_UNUSED void **state)
{
	char path[PATH_MAX];
	int fd = t_tmpfile(path, sizeof(path), "mmap");
	uint64_t size = 65536;
	struct sm_engine_cfg ec;
	struct sm_engine e;
	struct sm_io io;
	char notice[128], buf[4096], back[4096];

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	memset(&ec, 0, sizeof(ec));
	ec.depth = 1;
	ec.fds = &fd;
	ec.file_sizes = &size;
	ec.nfds = 1;
	assert_int_equal(sm_engine_open(&e, "mmap", &ec, notice, sizeof(notice)), 0);
	assert_string_equal(e.ops->name, "mmap");
	for (int i = 0; i < 4096; i++)
		buf[i] = (char)(i * 7);
	memset(&io, 0, sizeof(io));
	io.op = SM_OP_WRITE;
	io.fd = fd;
	io.file_index = 0;
	io.buf = buf;
	io.len = sizeof(buf);
	io.off = 8192;
	assert_int_equal(sm_engine_do(&e, &io), 4096);
	assert_true(io.t_done >= io.t_issue);
	io.op = SM_OP_FSYNC;
	assert_int_equal(sm_engine_do(&e, &io), 0);
	/* the write went to the file: pread sees it */
	assert_int_equal(pread(fd, back, sizeof(back), 8192), 4096);
	assert_memory_equal(back, buf, sizeof(buf));
	/* and a read through the mapping sees what pwrite put there */
	memset(back, 0x5a, sizeof(back));
	assert_int_equal(pwrite(fd, back, 100, 0), 100);
	memset(buf, 0, sizeof(buf));
	io.op = SM_OP_READ;
	io.off = 0;
	io.len = 100;
	io.buf = buf;
	assert_int_equal(sm_engine_do(&e, &io), 100);
	assert_memory_equal(buf, back, 100);
	/* short at the end of the mapping, like pread at end of file */
	io.off = size - 10;
	io.len = 100;
	assert_int_equal(sm_engine_do(&e, &io), 10);
	sm_engine_close(&e);
	/* without files to map it refuses */
	ec.nfds = 0;
	assert_int_not_equal(sm_engine_open(&e, "mmap", &ec, notice, sizeof(notice)), 0);
	close(fd);
}

/* An interval of the series shows its rates per second of it; one of no
 * length shows 0 (not inf or nan) in sysbench's line and in the charts'
 * rates alike. */
static void test_tick_rates(SM_UNUSED void **state)
{
	struct sm_fileio_tick t = { .t_ns = 2000000000, .interval_ns = 500000000, .reads = 10, .writes = 5,
				    .fsyncs = 1, .read_bytes = 1048576, .write_bytes = 2 * 1048576 };
	struct sm_fileio_tick_rates rt = sm_fileio_tick_rates(&t);
	struct sm_pct_list pct = { .n = 1, .p = { 95 } };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_true(rt.read_bytes_per_s == 2 * 1048576.0 && rt.write_bytes_per_s == 4 * 1048576.0);
	assert_true(rt.fsyncs_per_s == 2 && rt.ops_per_s == 32);
	t.interval_ns = 0;
	rt = sm_fileio_tick_rates(&t);
	assert_true(rt.read_bytes_per_s == 0 && rt.write_bytes_per_s == 0);
	assert_true(rt.fsyncs_per_s == 0 && rt.ops_per_s == 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	sm_sb_tick(f, &t, &pct);
	fclose(f);
	assert_non_null(strstr(text, "reads: 0.00 MiB/s writes: 0.00 MiB/s fsyncs: 0.00/s"));
	free(text);
}

/* The methodology warnings before a run (the page cache measured, a short
 * run) and after --steady's rounds (steady state not reached). */
static void test_warnings(SM_UNUSED void **state)
{
	struct sm_fileio_cfg cfg = { .file_size = 1 << 20, .num_files = 4, .time_ns = 2 * SM_NS_PER_S };
	struct sm_env env = { .direct_io = 0, .mem_available_bytes = 1ull << 30 };
	static struct sm_fileio_result r;
	struct sm_warnings w = { 0 };

	sm_fileio_plan_warnings(&cfg, &env, &w);
	assert_int_equal(w.count, 2);
	assert_string_equal(w.item[0].code, "page_cache");
	assert_string_equal(w.item[1].code, "short_run");
	memset(&w, 0, sizeof(w));
	env.direct_io = 1;
	cfg.time_ns = 60 * SM_NS_PER_S;
	sm_fileio_plan_warnings(&cfg, &env, &w);
	assert_int_equal(w.count, 0);

	memset(&r, 0, sizeof(r));
	r.steady.on = 1;
	r.steady.nrounds = 25;
	r.steady.win.n = 5;
	assert_int_equal(sm_fileio_steady_warning(&r), 1);
	assert_string_equal(r.head.warnings.item[0].code, "not_steady");
	r.steady.reached_at = 7;   /* steady: nothing to say */
	r.head.warnings.count = 0;
	assert_int_equal(sm_fileio_steady_warning(&r), 0);
}

static void test_sb_size(SM_UNUSED void **state)
{
	char b[32];

	assert_string_equal(sm_sb_size(b, sizeof(b), 16384), "16Ki");
	assert_string_equal(sm_sb_size(b, sizeof(b), 2097152), "2Mi");
	assert_string_equal(sm_sb_size(b, sizeof(b), 1114112), "1.0625Mi");
	assert_string_equal(sm_sb_size(b, sizeof(b), 2147483648.0), "2Gi");
	assert_string_equal(sm_sb_size(b, sizeof(b), 512), "512");
}

/* Rates and thread fairness are derived once, from the counts: sysbench's
 * population stddev, and 0 (not a huge number) when there is no duration. */
static void test_figures(SM_UNUSED void **state)
{
	struct sm_fileio_result r;
	uint64_t ev[2] = { 300, 100 }, busy[2] = { 2000000000, 1000000000 };

	memset(&r, 0, sizeof(r));
	r.head.duration_ns = 2000000000;
	r.ops[0].count = 400, r.ops[0].bytes = 4096 * 400;
	r.ops[1].count = 100, r.ops[1].bytes = 4096 * 100;
	r.ops[2].count = 10;
	r.events = 400;
	r.nthreads = 2, r.thread_events = ev, r.thread_busy_ns = busy;
	sm_fileio_analyse(&r);
	assert_true(r.fig.secs == 2.0);
	assert_true(r.fig.per_s[0] == 200.0 && r.fig.per_s[1] == 50.0 && r.fig.per_s[2] == 5.0);
	assert_true(r.fig.per_s[3] == 200.0);
	assert_true(r.fig.bytes_per_s[3] == 4096.0 * 250);
	assert_true(r.fig.thread_events_mean == 200.0 && r.fig.thread_events_sd == 100.0);
	assert_true(r.fig.thread_busy_mean_s == 1.5 && r.fig.thread_busy_sd_s == 0.5);
	r.head.duration_ns = 0;
	sm_fileio_analyse(&r);
	assert_true(r.fig.per_s[0] == 0 && r.fig.bytes_per_s[3] == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsync_series),
		cmocka_unit_test(test_rw_ratio),
		cmocka_unit_test(test_seq_cursor),
		cmocka_unit_test(test_random_offsets),
		cmocka_unit_test(test_reproducible_threads),
		cmocka_unit_test(test_vseal_vcheck),
		cmocka_unit_test(test_vcheck_map),
		cmocka_unit_test(test_vmap),
		cmocka_unit_test(test_mmap_engine),
		cmocka_unit_test(test_tick_rates),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_sb_size),
		cmocka_unit_test(test_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
