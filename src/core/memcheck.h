/* SPDX-License-Identifier: MIT */
/* How much memory this process can still take: the system's MemAvailable
 * and the memory limit of its own cgroup and of every cgroup above it (v1
 * and v2), so a large buffer request is refused up front instead of being
 * answered by the OOM killer halfway through a run. */
#ifndef SM_MEMCHECK_H
#define SM_MEMCHECK_H

#include <stddef.h>
#include <stdint.h>

/* Kept free beyond what a command counts as its need: the program, its
 * thread stacks, histograms and series, the C library's own arenas. */
#define SM_MEM_RESERVE (32ULL << 20)

struct sm_mem_avail {
	uint64_t avail;          /* what may still be taken: min of the two below */
	uint64_t sys_avail;      /* MemAvailable (UINT64_MAX if unreadable) */
	uint64_t cg_avail;       /* tightest cgroup's limit - usage (UINT64_MAX: none) */
	uint64_t cg_limit;       /* that cgroup's limit (0: no limit found) */
	uint64_t cg_used;        /* its usage less its reclaimable page cache */
	char cg_path[256];       /* that cgroup's directory ("" when none) */
};

/*
 * Probe the memory available to this process. root prefixes every path
 * read (/proc/meminfo, /proc/self/cgroup, /proc/self/mountinfo and the
 * cgroup files), so tests can feed synthetic trees; NULL or "" is the real
 * system. A cgroup's page cache (active and inactive file pages in its
 * memory.stat) counts as free, as the kernel reclaims it before it kills;
 * a limit of "max" or above 2^62 is no limit. Always fills *m; returns 0,
 * or -ENOENT when neither /proc/meminfo nor any cgroup limit could be
 * read (m->avail is then UINT64_MAX: nothing is known, nothing refused).
 */
int sm_mem_probe(const char *root, struct sm_mem_avail *m);

/*
 * Does a need of `need` bytes (plus SM_MEM_RESERVE) fit in *m? Returns 0
 * when it does, or -ENOMEM with one line in msg naming the need, what
 * needs it (`what`, e.g. "I/O buffers of 16 GiB x 1 thread") and the
 * limit that refuses it (MemAvailable or the cgroup, its limit and usage).
 */
int sm_mem_fits(const struct sm_mem_avail *m, uint64_t need, const char *what, char *msg,
		size_t len);

/* sm_mem_probe(NULL) and sm_mem_fits() in one call; SM_MEMCHECK_ROOT in
 * the environment, when set, is the root (for tests). Returns as
 * sm_mem_fits(). */
int sm_mem_check(uint64_t need, const char *what, char *msg, size_t len);

/* a * b, saturating at UINT64_MAX instead of wrapping (needs multiply
 * user-given sizes and counts). */
uint64_t sm_mem_mul(uint64_t a, uint64_t b);

#endif
