/* SPDX-License-Identifier: MIT */
/* Run a command as a child of a subreaper and account for its whole
 * process tree: rusage and /proc/PID/io of every descendant, each once. */
#ifndef SM_PROCTREE_H
#define SM_PROCTREE_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Figures summed over every process of a tree. Invariant: each process is
 * counted exactly once, either by itself when stormark reaps it or inside
 * the figures of the in-tree parent that waited for it (rusage and
 * /proc/PID/io both fold waited-for children into the parent).
 */
struct sm_proc_totals {
	uint64_t user_ns, sys_ns;
	uint64_t maxrss_kib;            /* max over the reaped processes */
	uint64_t minflt, majflt, nvcsw, nivcsw;
	uint64_t inblock, oublock;      /* 512-byte units, as GNU time */
	uint64_t rchar, wchar, syscr, syscw;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	unsigned reaped;                /* processes stormark reaped itself */
	unsigned io_missing;            /* reaped ones whose io could not be read */
	int io_from_self;               /* io sums came from our own children
					 * accounting (see sm_proc_children_io) */
};

/* The I/O counters of /proc/PID/io. */
struct sm_proc_io {
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes, cancelled;
};

/* A spawned command held at a gate until sm_proc_release(). */
struct sm_proc {
	pid_t pid;
	int gate_fd;    /* write end: closing it lets the child exec */
	int err_fd;     /* read end: the child's exec errno, EOF on success */
	void *stack;    /* the child's stack until it execs (owned here) */
	void *arg;
	struct sm_proc_io io_start;   /* sm_proc_children_io() at spawn */
	int io_start_ok;
};

/* Make the caller a child subreaper (orphaned descendants are re-parented
 * to it). Returns 0 or -errno. */
int sm_proc_subreaper(void);

/*
 * Start a child (sharing our memory until it execs, like posix_spawn) that
 * waits at a gate, then restores default signal handling and runs argv
 * with execvp (or "sh -c argv[0]" when shell is set). Standard streams are
 * inherited untouched. Returns 0 with *p filled, or -errno when the clone,
 * a pipe or the stack allocation failed. Always finish with
 * sm_proc_release() and sm_proc_wait_tree().
 */
int sm_proc_spawn(struct sm_proc *p, char *const argv[], int shell);

/* Open the gate and wait for the exec. Returns 0 when the command started,
 * or -errno of the failed exec (the child then exits 127 or 126 and must
 * still be reaped with sm_proc_wait_tree). */
int sm_proc_release(struct sm_proc *p);

/*
 * Reap every descendant until none is left, reading /proc/PID/io of each
 * before it is reaped, and add them into *t. main_status gets the wait
 * status of p->pid; *end_ns the monotonic time the last one was reaped.
 * Signals caught by sm_proc_forward_signals() are passed on to p->pid.
 * Frees what sm_proc_spawn() kept for the child. Returns 0 or -errno.
 */
int sm_proc_wait_tree(struct sm_proc *p, struct sm_proc_totals *t,
		      int *main_status, uint64_t *end_ns);

/* Ignore SIGINT and SIGQUIT (the terminal delivers them to the command),
 * and catch SIGTERM and SIGHUP to forward them to the running command.
 * Returns 0 or -errno. */
int sm_proc_forward_signals(void);

/* The signal caught by the handlers of sm_proc_forward_signals() while no
 * command was running to take it (0 if none); clears it. */
int sm_proc_take_signal(void);

/* Run "sh -c cmd" to completion (used for --prepare), reaping whatever it
 * leaves behind that has already exited. Returns its wait status or -errno. */
int sm_proc_run_shell(const char *cmd);

/*
 * The I/O of every child this (single-threaded) process has reaped so far,
 * as the kernel folds it into our signal accounting: /proc/self/io minus
 * /proc/thread-self/io, corrected for the one read of the first file.
 * Readable without privileges, unlike a zombie's /proc/PID/io (owned by
 * root once its memory is gone). Returns 0 or -errno.
 */
int sm_proc_children_io(struct sm_proc_io *out);

/* Parse the text of /proc/PID/io into t (adds to the io fields).
 * Returns 0, or -EINVAL when a field is missing. */
int sm_proc_parse_io(const char *text, struct sm_proc_totals *t);

#endif
