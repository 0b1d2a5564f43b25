/* SPDX-License-Identifier: MIT */
/* Tests of the `time` building blocks: statistics and trimmed means, the
 * /proc/PID/io and /proc/diskstats parsers, filling a run, hints, the
 * timeit duration format, tree accounting of a real child, and the history
 * database (round trip, refusal of foreign and corrupt files). */
#include "core/diskstats.h"
#include "core/compiler.h"
#include "helpers.h"
#include "core/proctree.h"
#include "store/history_db.h"
#include "result/timefig.h"
#include "analysis/time.h"
#include "workload/time.h"
#include "report/timeit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static void test_median_trimmed(SM_UNUSED void **state)
{
	double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };
	double c[10] = { 100, 1, 2, 3, 4, 5, 6, 7, 8, -50 };
	double d[1] = { 7 };

	assert_true(sm_median(a, 3) == 3);
	assert_true(sm_median(b, 4) == 2.5);
	/* 10 values: drop one from each end (-50 and 100) */
	assert_true(fabs(sm_trimmed_mean(c, 10) - 4.5) < 1e-12);
	assert_true(sm_trimmed_mean(d, 1) == 7);
	assert_true(sm_trimmed_mean(d, 0) == 0);
}

static void test_stats(SM_UNUSED void **state)
{
	struct sm_time_run runs[4];
	struct sm_tf_stat s;

	memset(runs, 0, sizeof(runs));
	runs[0].v[SM_TF_WALL_NS] = 2;
	runs[1].v[SM_TF_WALL_NS] = 4;
	runs[2].v[SM_TF_WALL_NS] = 4;
	runs[3].v[SM_TF_WALL_NS] = 6;
	runs[3].missing = SM_TF_BIT(SM_TF_SYSCALLS);
	runs[0].v[SM_TF_SYSCALLS] = 10;
	runs[1].v[SM_TF_SYSCALLS] = 20;
	runs[2].v[SM_TF_SYSCALLS] = 30;
	sm_tf_stats(runs, 4, SM_TF_WALL_NS, &s);
	assert_int_equal(s.n, 4);
	assert_true(s.mean == 4 && s.median == 4 && s.min == 2 && s.max == 6);
	assert_true(fabs(s.stddev - sqrt(8.0 / 3.0)) < 1e-12);   /* sample stddev */
	sm_tf_stats(runs, 4, SM_TF_SYSCALLS, &s);   /* the missing one is skipped */
	assert_int_equal(s.n, 3);
	assert_true(s.mean == 20 && s.max == 30);
	sm_tf_stats(runs, 1, SM_TF_WALL_NS, &s);
	assert_true(s.stddev == 0);
}

/* Every figure's statistics are derived once into the result, the same
 * as sm_tf_stats() gives for that figure (the reporters read them there). */
static void test_analyse(SM_UNUSED void **state)
{
	struct sm_time_run runs[3];
	struct sm_time_result r;
	struct sm_tf_stat s;

	memset(runs, 0, sizeof(runs));
	memset(&r, 0, sizeof(r));
	for (unsigned i = 0; i < 3; i++) {
		runs[i].v[SM_TF_WALL_NS] = 1e6 * (i + 1);
		runs[i].v[SM_TF_READ_BYTES] = 4096;
	}
	runs[1].missing = SM_TF_BIT(SM_TF_READ_BYTES);
	r.runs = runs;
	r.nruns = 3;
	sm_time_analyse(&r);
	assert_int_equal(r.stat[SM_TF_WALL_NS].n, 3);
	assert_true(r.stat[SM_TF_WALL_NS].mean == 2e6 && r.stat[SM_TF_WALL_NS].max == 3e6);
	assert_int_equal(r.stat[SM_TF_READ_BYTES].n, 2);
	for (unsigned f = 0; f < SM_TF_COUNT; f++) {
		sm_tf_stats(runs, 3, (enum sm_tf)f, &s);
		assert_memory_equal(&s, &r.stat[f], sizeof(s));
	}
}

/* The trimmed mean of a figure over runs inside larger records (the
 * history's rows): the stride walks them, a run without it is left out. */
static void test_trimmed_rows(SM_UNUSED void **state)
{
	struct row {
		long id;
		struct sm_time_run run;
		char note[8];
	} rows[3];
	int ok;

	memset(rows, 0, sizeof(rows));
	rows[0].run.v[SM_TF_WALL_NS] = 10;
	rows[1].run.v[SM_TF_WALL_NS] = 30;
	rows[2].run.missing = SM_TF_BIT(SM_TF_WALL_NS);
	assert_true(sm_tf_trimmed(&rows[0].run, sizeof(rows[0]), 3, SM_TF_WALL_NS, &ok) == 20);
	assert_int_equal(ok, 1);
	assert_true(sm_tf_trimmed(&rows[2].run, sizeof(rows[0]), 1, SM_TF_WALL_NS, &ok) == 0);
	assert_int_equal(ok, 0);
}

/* The loop: a warm-up and two measured runs of `true` fill the result
 * with their records and statistics; a command that fails stops it, and
 * its status is time's. */
static void test_measure(SM_UNUSED void **state)
{
	static char *ok_argv[] = { "true", NULL }, *bad_argv[] = { "sh", "-c", "exit 3", NULL };
	struct sm_time_plan p = { .cmd_argc = 1, .cmd_argv = ok_argv, .warmup = 1, .runs = 2,
				  .no_syscalls = 1 };
	struct sm_time_run runs[2];
	struct sm_time_result r;
	char msg[256];
	int status = -1;

	memset(&r, 0, sizeof(r));
	assert_int_equal(sm_time_measure(&p, &r, runs, &status, msg, sizeof(msg)), -1);
	assert_int_equal(status, 0);
	assert_string_equal(msg, "");
	assert_int_equal(r.nruns, 2);
	assert_int_equal(r.stat[SM_TF_WALL_NS].n, 2);
	assert_true(r.stat[SM_TF_WALL_NS].min > 0);
	assert_string_equal(r.syscalls_why, "disabled with --no-syscalls");
	sm_result_head_release(&r.head);

	memset(&r, 0, sizeof(r));
	p.cmd_argc = 3;
	p.cmd_argv = bad_argv;
	p.warmup = 0;
	assert_int_equal(sm_time_measure(&p, &r, runs, &status, msg, sizeof(msg)), -1);
	assert_int_equal(status, 3);
	assert_int_equal(r.nruns, 1);   /* stopped at the first failed run */
	assert_non_null(strstr(msg, "run 1 of 'sh' ended with status 3; stopping"));
	sm_result_head_release(&r.head);

	memset(&r, 0, sizeof(r));
	p.warmup = 1;   /* a failed warm-up: nothing to report, its status */
	assert_int_equal(sm_time_measure(&p, &r, runs, &status, msg, sizeof(msg)), 3);
	assert_non_null(strstr(msg, "warm-up run of 'sh' failed with exit status 3"));
	sm_result_head_release(&r.head);
}

static void test_parse_io(SM_UNUSED void **state)
{
	const char text[] = "rchar: 1000\nwchar: 2000\nsyscr: 3\nsyscw: 4\n"
			    "read_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 512\n";
	struct sm_proc_totals t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(sm_proc_parse_io(text, &t), 0);
	assert_int_equal(sm_proc_parse_io(text, &t), 0);   /* adds up */
	assert_int_equal(t.rchar, 2000);
	assert_int_equal(t.wchar, 4000);
	assert_int_equal(t.syscr, 6);
	assert_int_equal(t.syscw, 8);
	assert_int_equal(t.read_bytes, 8192);
	assert_int_equal(t.write_bytes, 16384);   /* not confused with cancelled_ */
	assert_int_equal(t.cancelled_write_bytes, 1024);
	assert_int_equal(sm_proc_parse_io("rchar: 1\n", &t), -EINVAL);
}

static void test_diskstat_parse(SM_UNUSED void **state)
{
	const char text[] =
		"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		" 254       0 vda 29007 6203 2378834 8774 4892 5781 514952 1618 0 6056 12486 4108 52 105328 1890 882 202\n"
		" 254       1 vda1 10 0 80 1 2 0 16 1 0 3 4\n";
	struct sm_diskdev vda = { "vda", 254, 0 }, vda1 = { "vda1", 254, 1 }, none = { "x", 8, 0 };
	struct sm_diskstat s, a, d;

	assert_int_equal(sm_diskstat_parse(text, &vda, &s), 0);
	assert_int_equal(s.rd_ios, 29007);
	assert_int_equal(s.rd_bytes, 2378834ULL * 512);
	assert_int_equal(s.wr_ios, 4892);
	assert_int_equal(s.wr_bytes, 514952ULL * 512);
	assert_int_equal(s.io_ticks_ms, 6056);
	assert_int_equal(s.flush_ios, 882);
	assert_int_equal(sm_diskstat_parse(text, &vda1, &s), 0);   /* old 11-field format */
	assert_int_equal(s.flush_ios, 0);
	assert_int_equal(s.wr_bytes, 16 * 512);
	assert_int_equal(sm_diskstat_parse(text, &none, &s), -ENODEV);
	/* the sysfs stat file: the same counters without major, minor, name */
	assert_int_equal(sm_diskstat_parse_stat("   29007     6203  2378834     8774     4892     5781   514952"
						"     1618        0     6056    12486     4108       52   105328"
						"     1890      882      202\n", &d), 0);
	assert_int_equal(d.rd_ios, 29007);
	assert_int_equal(d.rd_bytes, 2378834ULL * 512);
	assert_int_equal(d.wr_ios, 4892);
	assert_int_equal(d.wr_bytes, 514952ULL * 512);
	assert_int_equal(d.io_ticks_ms, 6056);
	assert_int_equal(d.flush_ios, 882);
	assert_int_equal(sm_diskstat_parse_stat("10 0 80 1 2 0 16 1 0 3 4\n", &d), 0);
	assert_int_equal(d.flush_ios, 0);
	assert_int_equal(d.wr_bytes, 16 * 512);
	assert_int_equal(sm_diskstat_parse_stat("10 0 80\n", &d), -EINVAL);
	memset(&a, 0, sizeof(a));
	a.wr_bytes = 100;
	a.rd_ios = 99999;   /* went backwards: clamps to 0 */
	sm_diskstat_parse(text, &vda1, &s);
	sm_diskstat_delta(&a, &s, &d);
	assert_int_equal(d.wr_bytes, 16 * 512 - 100);
	assert_int_equal(d.rd_ios, 0);
}

/* The device under the build tree resolves to a whole disk listed in
 * /proc/diskstats (skipped on tmpfs and other device-less file systems). */
static void test_diskdev_resolve(SM_UNUSED void **state)
{
	struct sm_diskdev dev;
	struct sm_diskstat a, b;
	struct stat st;
	char path[160];
	int rc;

	assert_int_equal(stat(".", &st), 0);
	rc = sm_diskdev_resolve(major(st.st_dev), minor(st.st_dev), &dev);
	if (rc == -ENODEV)
		skip();
	assert_int_equal(rc, 0);
	assert_true(dev.name[0] != '\0');
	snprintf(path, sizeof(path), "/sys/block/%s", dev.name);   /* whole disks only */
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(sm_diskstat_read(&dev, &a), 0);
	assert_int_equal(sm_diskstat_read(&dev, &b), 0);
	assert_true(b.rd_ios >= a.rd_ios && b.wr_bytes >= a.wr_bytes);
	assert_int_equal(sm_diskdev_resolve(0, 42, &dev), -ENODEV);
}

static void test_timeit_duration(SM_UNUSED void **state)
{
	char buf[32];

	assert_string_equal(sm_fmt_timeit_duration(buf, sizeof(buf), 98559e6), "0:01:38.559");
	assert_string_equal(sm_fmt_timeit_duration(buf, sizeof(buf), 0), "0:00:00.000");
	assert_string_equal(sm_fmt_timeit_duration(buf, sizeof(buf), 928944e6), "0:15:28.944");
	assert_string_equal(sm_fmt_timeit_duration(buf, sizeof(buf), 3723004e6), "1:02:03.004");
}

static void test_run_fill(SM_UNUSED void **state)
{
	struct sm_proc_totals t;
	struct sm_diskstat d = { 1, 4096, 2, 8192, 1, 5 };
	struct sm_time_run r;

	memset(&t, 0, sizeof(t));
	t.user_ns = 300000000;
	t.sys_ns = 200000000;
	t.maxrss_kib = 2048;
	t.rchar = 8192;
	t.syscr = 2;
	t.write_bytes = 1 << 20;
	t.reaped = 3;
	sm_time_run_fill(&r, &t, 1000000000, 77, SM_NO_COUNT, &d, 3 << 8);
	assert_int_equal(r.exit_code, 3);
	assert_int_equal(r.term_signal, 0);
	assert_true(r.v[SM_TF_CPU_PCT] == 50);
	assert_true(r.v[SM_TF_MAX_RSS_BYTES] == 2048.0 * 1024);
	assert_true(r.v[SM_TF_READ_BYTES_PER_CALL] == 4096);
	assert_true(r.missing & SM_TF_BIT(SM_TF_WRITE_BYTES_PER_CALL));   /* no write calls */
	assert_true(r.missing & SM_TF_BIT(SM_TF_FLUSH_CALLS));
	assert_false(r.missing & SM_TF_BIT(SM_TF_SYSCALLS));
	assert_true(r.v[SM_TF_SYSCALLS] == 77);
	assert_true(r.v[SM_TF_STORAGE_WRITE_BPS] == 1 << 20);
	assert_true(r.v[SM_TF_DISK_WRITE_BYTES] == 8192);
	assert_true(r.v[SM_TF_PROCESSES] == 3);
	sm_time_run_fill(&r, &t, 1000000000, SM_NO_COUNT, SM_NO_COUNT, NULL, 9);   /* SIGKILL */
	assert_int_equal(r.exit_code, 137);
	assert_int_equal(r.term_signal, 9);
	assert_true(r.missing & SM_TF_BIT(SM_TF_SYSCALLS));
	assert_true(r.missing & SM_TF_BIT(SM_TF_DISK_BUSY_MS));
	t.io_missing = 1;   /* an unreadable io file: no I/O sums at all */
	sm_time_run_fill(&r, &t, 1000000000, 1, 0, NULL, 0);
	assert_true(r.missing & SM_TF_BIT(SM_TF_READ_BYTES));
	assert_true(r.missing & SM_TF_BIT(SM_TF_STORAGE_WRITE_BYTES));
	assert_false(r.missing & SM_TF_BIT(SM_TF_USER_NS));
}

static int has(const struct sm_warnings *w, const char *code)
{
	for (unsigned i = 0; i < w->count; i++)
		if (!strcmp(w->item[i].code, code))
			return 1;
	return 0;
}

static const char *text(const struct sm_warnings *w, const char *code)
{
	for (unsigned i = 0; i < w->count; i++)
		if (!strcmp(w->item[i].code, code))
			return w->item[i].message;
	return "";
}

static void test_hints(SM_UNUSED void **state)
{
	struct sm_time_run r[6];
	struct sm_warnings w;

	/* the seed's `type`: many tiny reads, all from the cache */
	memset(r, 0, sizeof(r));
	memset(&w, 0, sizeof(w));
	r[0].v[SM_TF_READ_CALLS] = 100000;
	r[0].v[SM_TF_READ_BYTES] = 100000 * 512.0;
	r[0].v[SM_TF_WALL_NS] = 1e9;
	sm_time_hints(r, 1, 0, &w);
	assert_true(has(&w, "call_bound_read"));
	assert_true(has(&w, "served_from_cache"));
	assert_false(has(&w, "call_bound_write"));
	assert_false(has(&w, "not_flushed"));

	/* big writes, counted flush calls: none */
	memset(r, 0, sizeof(r));
	memset(&w, 0, sizeof(w));
	r[0].v[SM_TF_WRITE_CALLS] = 64;
	r[0].v[SM_TF_WRITE_BYTES] = 64.0 * 1048576;
	r[0].v[SM_TF_STORAGE_WRITE_BYTES] = 64.0 * 1048576;
	r[0].v[SM_TF_READ_CALLS] = 1;
	sm_time_hints(r, 1, 0, &w);
	assert_true(has(&w, "not_flushed"));
	assert_false(has(&w, "call_bound_write"));
	memset(&w, 0, sizeof(w));
	r[0].v[SM_TF_FLUSH_CALLS] = 1;
	sm_time_hints(r, 1, 0, &w);
	assert_false(has(&w, "not_flushed"));
	/* flush calls not countable: fall back on the device's flushes */
	memset(&w, 0, sizeof(w));
	r[0].missing = SM_TF_BIT(SM_TF_FLUSH_CALLS);
	sm_time_hints(r, 1, 0, &w);
	assert_true(has(&w, "not_flushed"));

	/* where unflushed data may wait: direct writes (the device took them
	 * during the run) are no page cache's; buffered ones (the device took
	 * few) may be; without device figures either */
	memset(r, 0, sizeof(r));
	r[0].v[SM_TF_WRITE_CALLS] = 64;
	r[0].v[SM_TF_WRITE_BYTES] = 64.0 * 1048576;
	r[0].v[SM_TF_STORAGE_WRITE_BYTES] = 64.0 * 1048576;
	r[0].v[SM_TF_READ_CALLS] = 1;
	r[0].v[SM_TF_DISK_WRITE_BYTES] = 65.0 * 1048576;
	memset(&w, 0, sizeof(w));
	sm_time_hints(r, 1, 0, &w);
	assert_true(has(&w, "not_flushed"));
	assert_null(strstr(text(&w, "not_flushed"), "page cache"));
	assert_non_null(strstr(text(&w, "not_flushed"), "device's write cache"));
	assert_non_null(strstr(text(&w, "not_flushed"), "65.0 MiB of writes"));
	r[0].v[SM_TF_DISK_WRITE_BYTES] = 1048576;
	memset(&w, 0, sizeof(w));
	sm_time_hints(r, 1, 0, &w);
	assert_non_null(strstr(text(&w, "not_flushed"), "may still be in the page cache"));
	r[0].missing = SM_TF_BIT(SM_TF_DISK_WRITE_BYTES);
	memset(&w, 0, sizeof(w));
	sm_time_hints(r, 1, 0, &w);
	assert_non_null(strstr(text(&w, "not_flushed"), "buffered writes may still be in the page cache"));
	assert_non_null(strstr(text(&w, "not_flushed"), "(direct I/O too)"));

	/* first run slow, then an outlier among six runs */
	memset(r, 0, sizeof(r));
	memset(&w, 0, sizeof(w));
	for (int i = 0; i < 6; i++)
		r[i].v[SM_TF_WALL_NS] = 100 + i;
	r[0].v[SM_TF_WALL_NS] = 1000;
	sm_time_hints(r, 6, 0, &w);
	assert_true(has(&w, "first_run"));
	assert_true(has(&w, "outliers"));
	assert_false(has(&w, "first_run_cold"));
	assert_non_null(strstr(text(&w, "first_run"), "caches warming?"));
	/* every run began with dropped caches: no cache to warm */
	memset(&w, 0, sizeof(w));
	sm_time_hints(r, 6, 1, &w);
	assert_true(has(&w, "first_run"));
	assert_null(strstr(text(&w, "first_run"), "warming"));
	assert_non_null(strstr(text(&w, "first_run"), "--drop-caches"));
	memset(&w, 0, sizeof(w));
	r[0].v[SM_TF_WALL_NS] = 101;
	sm_time_hints(r, 6, 0, &w);
	assert_false(has(&w, "first_run"));
	assert_false(has(&w, "outliers"));
	/* the first run read from storage, the rest from the cache */
	memset(&w, 0, sizeof(w));
	r[0].v[SM_TF_STORAGE_READ_BYTES] = 50.0 * 1048576;
	r[3].v[SM_TF_STORAGE_READ_BYTES] = 4096;
	sm_time_hints(r, 6, 0, &w);
	assert_true(has(&w, "first_run_cold"));
}

/* Become the subreaper, or skip the test where the system refuses it
 * (qemu-user: EINVAL), which workload/time.c then warns of. */
static void subreaper_or_skip(void)
{
	int rc = sm_proc_subreaper();

	if (rc == -EINVAL || rc == -ENOSYS) {
		print_message("skipped: this system refuses PR_SET_CHILD_SUBREAPER (%s)\n", strerror(-rc));
		skip();
	}
	assert_int_equal(rc, 0);
}

/* A real tree: the shell double-forks a writer that outlives it. */
static void test_tree(SM_UNUSED void **state)
{
	char *argv[] = { "( (sleep 0.2; head -c 300000 /dev/zero > /dev/null) & ); exit 5", NULL };
	struct sm_proc p;
	struct sm_proc_totals t;
	uint64_t end;
	int status = -1;

	struct sm_proc_io a, b;

	memset(&t, 0, sizeof(t));
	subreaper_or_skip();
	assert_int_equal(sm_proc_children_io(&a), 0);
	assert_int_equal(sm_proc_spawn(&p, NULL, argv, 1), 0);
	assert_int_equal(sm_proc_release(&p), 0);
	assert_int_equal(sm_proc_wait_tree(&p, &t, &status, &end), 0);
	assert_int_equal(sm_proc_children_io(&b), 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	assert_true(t.reaped >= 2);            /* the shell and the orphan */
	assert_true(t.wchar >= 300000);        /* head's writes reached us */
	assert_true(t.rchar >= 300000);
	if (!t.io_from_self) {
		/* per-zombie sums and the kernel's sums for us agree exactly */
		assert_int_equal(t.io_missing, 0);
		assert_int_equal(t.rchar, b.rchar - a.rchar);
		assert_int_equal(t.wchar, b.wchar - a.wchar);
		assert_int_equal(t.syscr, b.syscr - a.syscr);
		assert_int_equal(t.syscw, b.syscw - a.syscw);
		assert_int_equal(t.read_bytes, b.read_bytes - a.read_bytes);
		assert_int_equal(t.write_bytes, b.write_bytes - a.write_bytes);
	}

	/* exec failure is reported, and the child still reaped */
	char *bad[] = { "/nonexistent/stormark-test", NULL };

	memset(&t, 0, sizeof(t));
	assert_int_equal(sm_proc_spawn(&p, NULL, bad, 0), 0);
	assert_int_equal(sm_proc_release(&p), -ENOENT);
	assert_int_equal(sm_proc_wait_tree(&p, &t, &status, &end), 0);
	assert_int_equal(WEXITSTATUS(status), 127);
}

/* The same tree through the launcher, twice (the second child was made
 * while nothing ran), then a command that cannot be found: the figures,
 * the status and the end of the tree are as without it, and the peak RSS
 * is the command's own (far below stormark's, which holds this test). */
static void test_tree_launched(SM_UNUSED void **state)
{
	char *argv[] = { "( (sleep 0.2; head -c 300000 /dev/zero > /dev/null) & ); exit 5", NULL };
	char *bad[] = { "/nonexistent/stormark-test", NULL };
	struct sm_proc_launcher *l;
	struct sm_proc p;
	struct sm_proc_totals t;
	uint64_t end;
	int status = -1;

	subreaper_or_skip();
	l = sm_proc_launcher_new(argv, 1);
	assert_non_null(l);
	if (sm_proc_launcher_why(l)[0]) {
		sm_proc_launcher_free(l);
		skip();
	}
	for (int i = 0; i < 2; i++) {
		memset(&t, 0, sizeof(t));
		assert_int_equal(sm_proc_spawn(&p, l, argv, 1), 0);
		if (!p.own_rss) {
			print_message("launcher not used: %s\n", sm_proc_launcher_why(l));
			fail();
		}
		assert_int_equal(sm_proc_release(&p), 0);
		assert_int_equal(sm_proc_wait_tree(&p, &t, &status, &end), 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 5);
		assert_true(t.reaped >= 2);
		assert_true(t.wchar >= 300000);
		assert_int_equal(t.maxrss_not_own, 0);
		assert_true(t.maxrss_kib > 0);
	}
	sm_proc_launcher_free(l);

	l = sm_proc_launcher_new(bad, 0);
	assert_non_null(l);
	memset(&t, 0, sizeof(t));
	assert_int_equal(sm_proc_spawn(&p, l, bad, 0), 0);
	assert_int_equal(sm_proc_release(&p), -ENOENT);
	assert_int_equal(sm_proc_wait_tree(&p, &t, &status, &end), 0);
	assert_int_equal(WEXITSTATUS(status), 127);
	sm_proc_launcher_free(l);
}

static void test_history(SM_UNUSED void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], err[256];
	struct sm_hdb *db;
	struct sm_time_run runs[3];
	struct sm_hdb_row *rows;
	struct sm_hdb_key *keys;
	unsigned n;
	int fd;

	t_tmpdir(dir, sizeof(dir), "hdb");
	snprintf(path, sizeof(path), "%s/sub/h.db", dir);
#ifndef SM_HAVE_SQLITE
	/* built without SQLite (store/history_none.c): every open is refused
	 * with the reason, and creates nothing */
	for (int create = 0; create < 2; create++) {
		db = (struct sm_hdb *)dir;
		assert_int_equal(sm_hdb_open(path, create, 100, &db, err, sizeof(err)), -ENOTSUP);
		assert_null(db);
		assert_non_null(strstr(err, "without SQLite"));
		assert_int_equal(access(path, F_OK), -1);
	}
	assert_int_equal(rmdir(dir), 0);
	return;
#endif
	/* reading a missing database is -ENOENT, and creates nothing */
	assert_int_equal(sm_hdb_open(path, 0, 100, &db, err, sizeof(err)), -ENOENT);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(sm_hdb_open(path, 1, 100, &db, err, sizeof(err)), 0);
	memset(runs, 0, sizeof(runs));
	for (int i = 0; i < 3; i++) {
		runs[i].v[SM_TF_WALL_NS] = 1000 * (i + 1);
		runs[i].missing = SM_TF_BIT(SM_TF_SYSCALLS);
	}
	runs[2].exit_code = 130;
	runs[2].term_signal = 2;
	assert_int_equal(sm_hdb_save(db, "k1", "cmd a", runs, 3, NULL, err, sizeof(err)), 0);
	assert_int_equal(sm_hdb_save(db, "k0", "cmd b", runs, 1, "{\"command\":\"time\"}", err,
					 sizeof(err)), 0);
	/* whole results of the other commands; a key holds one command's runs */
	assert_int_equal(sm_hdb_save_result(db, "f", "frames", "{\"n\":1}", err, sizeof(err)), 0);
	assert_int_equal(sm_hdb_save_result(db, "f", "frames", "{\"n\":2}", err, sizeof(err)), 0);
	assert_int_equal(sm_hdb_save_result(db, "k1", "fileio", "{}", err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "holds time runs"));
	assert_int_equal(sm_hdb_save(db, "f", "cmd", runs, 1, NULL, err, sizeof(err)), -EEXIST);
	sm_hdb_close(db);

	assert_int_equal(sm_hdb_open(path, 0, 100, &db, err, sizeof(err)), 0);
	assert_int_equal(sm_hdb_keys(db, &keys, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(keys[0].key, "f");
	assert_string_equal(keys[0].command, "frames");
	assert_int_equal(keys[0].runs, 2);
	assert_string_equal(keys[1].key, "k0");
	assert_string_equal(keys[1].command, "time");
	assert_int_equal(keys[2].runs, 3);
	free(keys);
	{
		struct sm_hdb_result *res;
		char cmd[16];

		assert_int_equal(sm_hdb_load_results(db, "f", &res, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 2);
		assert_string_equal(res[1].json, "{\"n\":2}");
		assert_string_equal(res[0].command, "frames");
		sm_hdb_results_free(res, n);
		assert_int_equal(sm_hdb_load_results(db, "k0", &res, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 1);
		assert_string_equal(res[0].command, "time");
		sm_hdb_results_free(res, n);
		assert_int_equal(sm_hdb_key_command(db, "k1", cmd, sizeof(cmd), err, sizeof(err)), 0);
		assert_string_equal(cmd, "time");
		assert_int_equal(sm_hdb_key_command(db, "zz", cmd, sizeof(cmd), err, sizeof(err)), 0);
		assert_string_equal(cmd, "");
	}
	assert_int_equal(sm_hdb_load(db, "k1", &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_true(rows[1].run.v[SM_TF_WALL_NS] == 2000);
	assert_true(rows[0].run.missing & SM_TF_BIT(SM_TF_SYSCALLS));   /* kept missing */
	assert_false(rows[0].run.missing & SM_TF_BIT(SM_TF_WALL_NS));
	assert_int_equal(rows[2].run.exit_code, 130);
	assert_int_equal(rows[2].run.term_signal, 2);
	assert_string_equal(rows[0].command, "cmd a");
	free(rows);
	assert_int_equal(sm_hdb_load(db, "nope", &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	sm_hdb_close(db);

	/* a file that is not a database is refused and left as it was */
	snprintf(path, sizeof(path), "%s/junk.db", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	for (int i = 0; i < 512; i++)
		assert_int_equal(write(fd, "garbage!", 8), 8);
	close(fd);
	assert_int_equal(sm_hdb_open(path, 1, 100, &db, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "not a database"));
	{
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 4096);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub/h.db", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_trimmed),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_analyse),
		cmocka_unit_test(test_trimmed_rows),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_parse_io),
		cmocka_unit_test(test_diskstat_parse),
		cmocka_unit_test(test_diskdev_resolve),
		cmocka_unit_test(test_timeit_duration),
		cmocka_unit_test(test_run_fill),
		cmocka_unit_test(test_hints),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_tree_launched),
		cmocka_unit_test(test_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
