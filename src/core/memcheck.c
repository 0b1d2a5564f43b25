/* SPDX-License-Identifier: MIT */
/* Memory available to this process: MemAvailable and the cgroup limits
 * (v1 memory controller or v2) from its own cgroup up to the hierarchy's
 * root. */
#include "core/memcheck.h"
#include "core/units.h"
#include "os/os.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NO_LIMIT (1ULL << 62)   /* v1 reports "unlimited" as ~2^63 */

/* root + path into buf; 0 or -ENAMETOOLONG. */
static int rooted(char *buf, size_t len, const char *root, const char *path)
{
	int n = snprintf(buf, len, "%s%s", root, path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The first line of a small file into buf, newline cut. 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = -ENODATA;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return rc;
}

/* A file holding one number, or "max" (v2: no limit, UINT64_MAX). */
static int read_u64(const char *dir, const char *name, uint64_t *out)
{
	char path[1024], line[64], *end;
	unsigned long long v;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (read_line(path, line, sizeof(line)))
		return -ENOENT;
	if (!strcmp(line, "max")) {
		*out = UINT64_MAX;
		return 0;
	}
	errno = 0;
	v = strtoull(line, &end, 10);
	if (errno || end == line)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Sum of the values of keys k1 and k2 in a "key value" file (memory.stat,
 * /proc/meminfo with its "key:" spelling); 0 for keys not found. */
static uint64_t keyed_sum(const char *path, const char *k1, const char *k2, int *found)
{
	char line[256], key[128];
	unsigned long long v;
	uint64_t sum = 0;
	FILE *f = fopen(path, "r");

	*found = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127[^: ]%*[: ]%llu", key, &v) != 2)
			continue;
		if (!strcmp(key, k1) || (k2 && !strcmp(key, k2))) {
			sum += v;
			(*found)++;
			if (!k2 || *found == 2)
				break;   /* (MemAvailable is the third of /proc/meminfo's 50-odd lines) */
		}
	}
	fclose(f);
	return sum;
}

/* The usual mount point of the memory hierarchy (v1: /sys/fs/cgroup/memory,
 * v2: /sys/fs/cgroup) when it is a cgroup file system holding cg, this
 * process's directory; 1 with mnt and rel filled, else 0 (then mountinfo
 * says where it is: a subtree's mount in a container, another place). */
static int known_mount(int ver, const char *cg, char *mnt, size_t mlen, char *rel, size_t rlen)
{
	const char *m = ver == 1 ? "/sys/fs/cgroup/memory" : "/sys/fs/cgroup";
	char dir[1100];
	unsigned long magic;
	struct stat st;

	if (sm_os_fs_magic(m, &magic) || magic != (ver == 1 ? SM_OS_MAGIC_CGROUP1 : SM_OS_MAGIC_CGROUP2))
		return 0;
	if (snprintf(dir, sizeof(dir), "%s%s/%s", m, cg, ver == 1 ? "memory.usage_in_bytes" : "cgroup.procs") >=
	    (int)sizeof(dir) || stat(dir, &st))
		return 0;
	return (size_t)snprintf(mnt, mlen, "%s", m) < mlen && (size_t)snprintf(rel, rlen, "%s", cg) < rlen;
}

/* Find the memory cgroup: its hierarchy's mount point into mnt and this
 * process's directory below it into rel. v1 wins when its memory
 * controller is mounted (v2 then has none). Returns 1 for v1, 2 for v2, 0
 * when there is no memory cgroup to read. */
static int find_cgroup(const char *root, char *mnt, size_t mlen, char *rel, size_t rlen)
{
	char path[1024], line[1024], v1[512] = "", v2[512] = "";
	int have_v1 = 0, have_v2 = 0, ver = 0;
	FILE *f;

	if (rooted(path, sizeof(path), root, "/proc/self/cgroup") || !(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		*c2 = '\0';
		if (c2 == c1 + 1) {              /* "0::/path": the v2 hierarchy */
			snprintf(v2, sizeof(v2), "%s", c2 + 1);
			have_v2 = 1;
			continue;
		}
		for (char *sp, *tok = strtok_r(c1 + 1, ",", &sp); tok; tok = strtok_r(NULL, ",", &sp))
			if (!strcmp(tok, "memory")) {
				snprintf(v1, sizeof(v1), "%s", c2 + 1);
				have_v1 = 1;
			}
	}
	fclose(f);
	if (!have_v1 && !have_v2)
		return 0;
	/* where systemd and the container runtimes mount it, when the
	 * process's own directory is there: no mountinfo to read (its kernel
	 * text was a third of the check's time) */
	if (!root[0] && known_mount(have_v1 ? 1 : 2, have_v1 ? v1 : v2, mnt, mlen, rel, rlen))
		return have_v1 ? 1 : 2;
	if (rooted(path, sizeof(path), root, "/proc/self/mountinfo") || !(f = fopen(path, "r")))
		return 0;
	while (!ver && fgets(line, sizeof(line), f)) {
		char mroot[512], mpoint[512], fstype[64], sopts[512], *dash = strstr(line, " - ");
		const char *cg, *r;

		if (!dash || sscanf(line, "%*s %*s %*s %511s %511s", mroot, mpoint) != 2 ||
		    sscanf(dash + 3, "%63s %*s %511s", fstype, sopts) != 2)
			continue;
		if (have_v1 && !strcmp(fstype, "cgroup")) {
			int mem = 0;

			for (char *sp, *tok = strtok_r(sopts, ",", &sp); tok; tok = strtok_r(NULL, ",", &sp))
				mem |= !strcmp(tok, "memory");
			if (!mem)
				continue;
			ver = 1;
			cg = v1;
		} else if (have_v2 && !have_v1 && !strcmp(fstype, "cgroup2")) {
			ver = 2;
			cg = v2;
		} else {
			continue;
		}
		/* a mount of a subtree (a container's) shows paths below its
		 * own root: strip that root from the process's path */
		r = cg;
		if (strcmp(mroot, "/") && !strncmp(cg, mroot, strlen(mroot)) &&
		    (cg[strlen(mroot)] == '/' || !cg[strlen(mroot)]))
			r = cg + strlen(mroot);
		if (rooted(mnt, mlen, root, mpoint) || (size_t)snprintf(rel, rlen, "%s", r) >= rlen)
			ver = 0;
	}
	fclose(f);
	return ver;
}

/* Walk from mnt+rel up to mnt, keeping the cgroup with the least room. */
static void walk_cgroups(int ver, const char *mnt, char *rel, struct sm_mem_avail *m)
{
	const char *limit_f = ver == 1 ? "memory.limit_in_bytes" : "memory.max";
	const char *usage_f = ver == 1 ? "memory.usage_in_bytes" : "memory.current";
	const char *k1 = ver == 1 ? "total_inactive_file" : "inactive_file";
	const char *k2 = ver == 1 ? "total_active_file" : "active_file";

	for (;;) {
		char dir[1024], stat[1100], *slash;
		uint64_t limit, used, cache;
		size_t n = strlen(rel);
		int found;

		while (n > 1 && rel[n - 1] == '/')
			rel[--n] = '\0';
		if (snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(rel, "/") ? rel : "") < (int)sizeof(dir) &&
		    !read_u64(dir, limit_f, &limit) && limit < NO_LIMIT &&
		    !read_u64(dir, usage_f, &used)) {
			snprintf(stat, sizeof(stat), "%s/memory.stat", dir);
			cache = keyed_sum(stat, k1, k2, &found);
			used = cache < used ? used - cache : 0;
			if ((limit > used ? limit - used : 0) < m->cg_avail) {
				m->cg_avail = limit > used ? limit - used : 0;
				m->cg_limit = limit;
				m->cg_used = used;
				snprintf(m->cg_path, sizeof(m->cg_path), "%s", dir);
			}
		}
		if (!strcmp(rel, "/") || !rel[0])
			break;
		slash = strrchr(rel, '/');
		if (!slash)
			break;
		slash[slash == rel ? 1 : 0] = '\0';
	}
}

int sm_mem_probe(const char *root, struct sm_mem_avail *m)
{
	char path[1024], mnt[1024], rel[1024];
	int found, ver;
	uint64_t kb;

	if (!root)
		root = "";
	memset(m, 0, sizeof(*m));
	m->sys_avail = m->cg_avail = UINT64_MAX;
	if (!rooted(path, sizeof(path), root, "/proc/meminfo")) {
		kb = keyed_sum(path, "MemAvailable", NULL, &found);
		if (found)
			m->sys_avail = kb * 1024;
	}
	ver = find_cgroup(root, mnt, sizeof(mnt), rel, sizeof(rel));
	if (ver) {
		if (rel[0] != '/') {
			memmove(rel + 1, rel, strnlen(rel, sizeof(rel) - 2) + 1);
			rel[0] = '/';
		}
		walk_cgroups(ver, mnt, rel, m);
	}
	m->avail = m->sys_avail < m->cg_avail ? m->sys_avail : m->cg_avail;
	return m->avail == UINT64_MAX ? -ENOENT : 0;
}

int sm_mem_fits(const struct sm_mem_avail *m, uint64_t need, const char *what, char *msg,
		size_t len)
{
	char a[32], b[32], c[32], d[32], e[32];
	uint64_t want = need > UINT64_MAX - SM_MEM_RESERVE ? UINT64_MAX : need + SM_MEM_RESERVE;

	if (want <= m->avail)
		return 0;
	sm_fmt_bytes(a, sizeof(a), (double)need);
	sm_fmt_bytes(b, sizeof(b), (double)m->avail);
	sm_fmt_bytes(d, sizeof(d), (double)SM_MEM_RESERVE);
	if (m->cg_avail < m->sys_avail) {
		sm_fmt_bytes(c, sizeof(c), (double)m->cg_limit);
		snprintf(msg, len, "%s need %s of memory, but only %s is free under the memory limit of "
			 "cgroup '%s' (%s, %s in use; %s kept in reserve)", what, a, b, m->cg_path, c,
			 sm_fmt_bytes(e, sizeof(e), (double)m->cg_used), d);
	} else {
		snprintf(msg, len, "%s need %s of memory, but only %s is available (MemAvailable in "
			 "/proc/meminfo; %s kept in reserve)", what, a, b, d);
	}
	return -ENOMEM;
}

int sm_mem_check(uint64_t need, const char *what, char *msg, size_t len)
{
	struct sm_mem_avail m;

	sm_mem_probe(getenv("SM_MEMCHECK_ROOT"), &m);
	return sm_mem_fits(&m, need, what, msg, len);
}

uint64_t sm_mem_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}
