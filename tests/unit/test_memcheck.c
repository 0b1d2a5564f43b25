/* SPDX-License-Identifier: MIT */
/* Tests of the memory probe on synthetic /proc and cgroup trees: v1 and v2,
 * limits up the hierarchy, page cache counted as free, no limit, nothing
 * readable; and the message a refusal prints. */
#include "core/memcheck.h"

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

#define MIB (1ULL << 20)

static char root[PATH_MAX];

/* Write text to root/rel, creating the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(SM_UNUSED void **state)
{
	t_tmpdir(root, sizeof(root), "memcheck");
	return 0;
}

static int teardown(SM_UNUSED void **state)
{
	return t_rm_rf(root) ? -1 : 0;
}

static void meminfo(unsigned long long avail_kib)
{
	char text[256];

	snprintf(text, sizeof(text), "MemTotal:       24683584 kB\nMemFree:        1000 kB\n"
		 "MemAvailable:   %llu kB\nBuffers:        1 kB\n", avail_kib);
	put("proc/meminfo", text);
}

/* A v1 host: memory controller mounted at /sys/fs/cgroup/memory, this
 * process in /a/b. */
static void v1_host(void)
{
	put("proc/self/cgroup", "9:name=systemd:/\n5:cpu,cpuacct:/\n4:memory:/a/b\n0::/\n");
	put("proc/self/mountinfo",
	    "24 18 0:22 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
	    "30 24 0:27 / /sys/fs/cgroup/cpu rw shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
	    "33 24 0:30 / /sys/fs/cgroup/memory rw shared:12 - cgroup cgroup rw,memory\n"
	    "40 24 0:35 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/memory.usage_in_bytes", "5000000000\n");
	put("sys/fs/cgroup/memory/a/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/a/memory.usage_in_bytes", "100\n");
}

static void v1_limit_own_cgroup(SM_UNUSED void **state)
{
	struct sm_mem_avail m;

	meminfo(8ULL << 20);   /* 8 GiB */
	v1_host();
	put("sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", "268435456\n");
	put("sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "104857600\n");
	put("sys/fs/cgroup/memory/a/b/memory.stat", "cache 0\ntotal_inactive_file 20971520\n"
	    "total_active_file 10485760\ninactive_file 1\n");
	assert_int_equal(sm_mem_probe(root, &m), 0);
	assert_int_equal(m.sys_avail, 8ULL << 30);
	assert_int_equal(m.cg_limit, 256 * MIB);
	/* 100 MiB used, 30 MiB of it page cache (total_*): 70 MiB counted */
	assert_int_equal(m.cg_used, 70 * MIB);
	assert_int_equal(m.cg_avail, 186 * MIB);
	assert_int_equal(m.avail, 186 * MIB);
	assert_non_null(strstr(m.cg_path, "/sys/fs/cgroup/memory/a/b"));
}

static void v1_limit_of_parent(SM_UNUSED void **state)
{
	struct sm_mem_avail m;

	meminfo(8ULL << 20);
	v1_host();
	put("sys/fs/cgroup/memory/a/memory.limit_in_bytes", "134217728\n");
	put("sys/fs/cgroup/memory/a/memory.usage_in_bytes", "33554432\n");
	put("sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", "268435456\n");
	put("sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "1048576\n");
	assert_int_equal(sm_mem_probe(root, &m), 0);
	assert_int_equal(m.avail, 96 * MIB);
	assert_int_equal(m.cg_limit, 128 * MIB);
	assert_non_null(strstr(m.cg_path, "/memory/a"));
	assert_null(strstr(m.cg_path, "/a/b"));
}

static void v1_no_limit(SM_UNUSED void **state)
{
	struct sm_mem_avail m;

	meminfo(1ULL << 20);   /* 1 GiB */
	v1_host();
	put("sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "1048576\n");
	assert_int_equal(sm_mem_probe(root, &m), 0);
	assert_int_equal(m.cg_avail, UINT64_MAX);
	assert_int_equal(m.cg_limit, 0);
	assert_int_equal(m.avail, 1ULL << 30);
}

static void v2_limits(SM_UNUSED void **state)
{
	struct sm_mem_avail m;

	meminfo(8ULL << 20);
	put("proc/self/cgroup", "0::/user.slice/job\n");
	put("proc/self/mountinfo", "35 24 0:30 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
	put("sys/fs/cgroup/memory.current", "999999999999\n");   /* the root has no memory.max */
	put("sys/fs/cgroup/user.slice/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/memory.current", "10\n");
	put("sys/fs/cgroup/user.slice/job/memory.max", "67108864\n");
	put("sys/fs/cgroup/user.slice/job/memory.current", "75497472\n");
	put("sys/fs/cgroup/user.slice/job/memory.stat", "anon 1\nfile 1\nactive_file 16777216\n"
	    "inactive_file 8388608\n");
	assert_int_equal(sm_mem_probe(root, &m), 0);
	/* 72 MiB used less 24 MiB of page cache: 48 of 64 MiB */
	assert_int_equal(m.cg_limit, 64 * MIB);
	assert_int_equal(m.cg_used, 48 * MIB);
	assert_int_equal(m.avail, 16 * MIB);
}

static void v2_usage_over_limit(SM_UNUSED void **state)
{
	struct sm_mem_avail m;

	meminfo(8ULL << 20);
	put("proc/self/cgroup", "0::/job\n");
	put("proc/self/mountinfo", "35 24 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/job/memory.max", "1048576\n");
	put("sys/fs/cgroup/job/memory.current", "2097152\n");
	assert_int_equal(sm_mem_probe(root, &m), 0);
	assert_int_equal(m.avail, 0);
}

/* A container: the cgroup file system is mounted from a subtree whose
 * root /proc/self/cgroup repeats. */
static void v2_container_subtree(SM_UNUSED void **state)
{
	struct sm_mem_avail m;

	meminfo(8ULL << 20);
	put("proc/self/cgroup", "0::/kubepods/pod1/ctr\n");
	put("proc/self/mountinfo", "35 24 0:30 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/ctr/memory.max", "536870912\n");
	put("sys/fs/cgroup/ctr/memory.current", "0\n");
	assert_int_equal(sm_mem_probe(root, &m), 0);
	assert_int_equal(m.avail, 512 * MIB);
}

static void nothing_readable(SM_UNUSED void **state)
{
	struct sm_mem_avail m;
	char msg[300];

	assert_int_equal(sm_mem_probe(root, &m), -ENOENT);
	assert_int_equal(m.avail, UINT64_MAX);
	assert_int_equal(sm_mem_fits(&m, 1ULL << 40, "buffers", msg, sizeof(msg)), 0);
}

static void fits_and_messages(SM_UNUSED void **state)
{
	struct sm_mem_avail m;
	char msg[400];

	memset(&m, 0, sizeof(m));
	m.sys_avail = m.avail = 1ULL << 30;
	m.cg_avail = UINT64_MAX;
	assert_int_equal(sm_mem_fits(&m, 100 * MIB, "I/O buffers", msg, sizeof(msg)), 0);
	/* the reserve counts: 1 GiB less 16 MiB does not fit */
	assert_int_equal(sm_mem_fits(&m, (1ULL << 30) - 16 * MIB, "I/O buffers", msg, sizeof(msg)),
			 -ENOMEM);
	assert_int_equal(sm_mem_fits(&m, 16ULL << 30, "I/O buffers", msg, sizeof(msg)), -ENOMEM);
	assert_string_equal(msg, "I/O buffers need 16.0 GiB of memory, but only 1.00 GiB is available "
			    "(MemAvailable in /proc/meminfo; 32.0 MiB kept in reserve)");
	assert_null(strchr(msg, '\n'));
	m.cg_avail = m.avail = 200 * MIB;
	m.cg_limit = 256 * MIB;
	m.cg_used = 56 * MIB;
	snprintf(m.cg_path, sizeof(m.cg_path), "/sys/fs/cgroup/memory/x");
	assert_int_equal(sm_mem_fits(&m, UINT64_MAX, "I/O buffers", msg, sizeof(msg)), -ENOMEM);
	assert_string_equal(msg, "I/O buffers need 16384 PiB of memory, but only 200 MiB is free under "
			    "the memory limit of cgroup '/sys/fs/cgroup/memory/x' (256 MiB, 56.0 MiB "
			    "in use; 32.0 MiB kept in reserve)");
}

static void mul_saturates(SM_UNUSED void **state)
{
	assert_int_equal(sm_mem_mul(3, 5), 15);
	assert_int_equal(sm_mem_mul(0, UINT64_MAX), 0);
	assert_int_equal(sm_mem_mul(1ULL << 40, 1ULL << 30), UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(v1_limit_own_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(v1_limit_of_parent, setup, teardown),
		cmocka_unit_test_setup_teardown(v1_no_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(v2_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(v2_usage_over_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(v2_container_subtree, setup, teardown),
		cmocka_unit_test_setup_teardown(nothing_readable, setup, teardown),
		cmocka_unit_test(fits_and_messages),
		cmocka_unit_test(mul_saturates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
