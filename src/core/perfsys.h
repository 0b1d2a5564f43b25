/* SPDX-License-Identifier: MIT */
/* Count every system call of a process tree with a perf counter on the
 * raw_syscalls:sys_enter tracepoint (inherited by all descendants). */
#ifndef SM_PERFSYS_H
#define SM_PERFSYS_H

#include <stdint.h>
#include <sys/types.h>

/* Counter state for one run. fd_all counts every call; fd_flush only the
 * flush family (fsync, fdatasync, sync, syncfs, sync_file_range, msync). */
struct sm_perfsys {
	int tp_id;          /* tracepoint id, or -1 when unknown */
	int fd_all, fd_flush;
	int fd_anchor;      /* held for the whole invocation, see perfsys.c */
	char why[200];      /* why a counter is unavailable ("" when it works) */
};

/* Find the tracepoint id (tracefs, or, for root with tracefs unmounted, a
 * private mount namespace in a helper process, so nothing changes for
 * anyone else). Returns 0, or -errno with ps->why set. */
int sm_perfsys_probe(struct sm_perfsys *ps);

/* Open the anchor (perfsys.c says why), once the probe has found the
 * tracepoint, when no other holder keeps a counter open: before the
 * first sm_perfsys_close() of a run. */
void sm_perfsys_anchor(struct sm_perfsys *ps);

/* Attach counters to pid, disabled until it calls exec, inherited by every
 * descendant it creates. The flush counter is optional (its failure leaves
 * fd_flush at -1). Returns 0, or -errno with ps->why set. */
int sm_perfsys_attach(struct sm_perfsys *ps, pid_t pid);

/* Read the counters (after the tree has ended); sm_perfsys_close() closes
 * them. *flush is UINT64_MAX when that counter was not available. Returns
 * 0 or -errno. */
int sm_perfsys_read(struct sm_perfsys *ps, uint64_t *all, uint64_t *flush);

/* Close the per-run counters, if open. */
void sm_perfsys_close(struct sm_perfsys *ps);

/* Close everything, the anchor in a short-lived background process so that
 * the caller does not wait for the kernel's tracepoint unregistration. */
void sm_perfsys_release(struct sm_perfsys *ps);

#endif
