/* SPDX-License-Identifier: MIT */
/* What an I/O engine was granted on this system (the io_uring setup flags
 * the kernel accepted, registrations), as the result's environment reports
 * it: the engine fills it, the result stores it, reporters print it. */
#ifndef SM_ENGSETUP_H
#define SM_ENGSETUP_H

/* Setup choices, one bit each, in the order their names are listed. */
enum sm_esetup_bit {
	SM_ESETUP_SQPOLL = 0,          /* a kernel thread polls the submission queue */
	SM_ESETUP_IOPOLL,              /* completions polled from the device */
	SM_ESETUP_SINGLE_ISSUER,       /* one thread submits (6.0) */
	SM_ESETUP_DEFER_TASKRUN,       /* completion work runs when that thread asks (6.1) */
	SM_ESETUP_COOP_TASKRUN,        /* ... or at its next kernel entry, no IPI (5.19) */
	SM_ESETUP_TASKRUN_FLAG,        /* the ring flags pending completion work */
	SM_ESETUP_SUBMIT_ALL,          /* a bad request does not stop the batch (5.18) */
	SM_ESETUP__COUNT
};

/*
 * reported is 0 for an engine that has nothing to report (psync, mmap,
 * null). Merged over several instances (one ring per thread): rings is
 * their number, flags and the booleans what every one of them got.
 */
struct sm_engine_setup {
	int reported;
	unsigned rings;
	unsigned flags;                /* 1u << enum sm_esetup_bit */
	unsigned sq_entries;           /* of the first ring */
	unsigned submit_batch;         /* most requests per submission call (0: not
					* reported, a result from before it) */
	int registered_buffers;        /* the workload's buffers, fixed */
	int registered_files;          /* its open files, fixed */
	int registered_ring_fd;        /* the ring's own fd, on its thread */
};

/* The JSON name of bit ("single_issuer", ...), or NULL past the last. */
const char *sm_esetup_name(unsigned bit);

/* The bit named name, or -1. */
int sm_esetup_bit(const char *name);

/* Fold src (one instance) into dst (several): rings add up, flags and
 * registrations are kept only when both have them. An unreported src
 * changes nothing; into an unreported dst it is copied. */
void sm_esetup_merge(struct sm_engine_setup *dst, const struct sm_engine_setup *src);

#endif
