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
	uint64_t maxrss_kib;            /* max over the reaped processes (their
					 * own only when the launcher started
					 * the command: sm_proc.own_rss) */
	uint64_t minflt, majflt, nvcsw, nivcsw;
	uint64_t inblock, oublock;      /* 512-byte units, as GNU time */
	uint64_t rchar, wchar, syscr, syscw;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	int maxrss_not_own;             /* 1: the command was started directly,
					 * so maxrss_kib includes stormark's own
					 * peak and is not a figure of the tree */
	unsigned reaped;                /* processes stormark reaped itself */
	unsigned io_missing;            /* reaped ones whose io could not be read */
	int io_from_self;               /* io sums came from our own children
					 * accounting (see sm_proc_children_io) */
};

/* The I/O counters of /proc/PID/io. */
struct sm_proc_io {
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes, cancelled;
};

/*
 * The launcher (src/launch/launch.c): a process of a few pages that lives
 * for one invocation and starts every run of one command. A command
 * started by it has had no memory but its own, so its rusage peak RSS is
 * its own; started directly, it would include stormark's (the kernel
 * counts the memory a process had before its exec). It is our child; a
 * run's tree is told from it by the kernel's list of our children
 * (core/proctree.c says how).
 */
struct sm_proc_launcher;

/*
 * Start the launcher for argv and shell (as sm_proc_spawn() takes them),
 * without waiting for it. Returns it (caller frees with
 * sm_proc_launcher_free()), or NULL when out of memory. When it cannot be
 * started (no launcher for this processor, no memfd...), or later turns
 * out not to run, sm_proc_spawn() starts commands directly and
 * sm_proc_launcher_why() says why.
 */
struct sm_proc_launcher *sm_proc_launcher_new(char *const argv[], int shell);

/*
 * The same in two steps, so that the launcher starts before the command
 * is known: sm_proc_launcher_start() with the caller's arguments (args,
 * NULL-terminated, left unchanged until the launcher is freed), and once
 * they are parsed, sm_proc_launcher_command() with the command, which
 * must be the last elements of args themselves (the same pointers), and
 * the shell flag. Until then nothing can be spawned through it. command
 * returns 0; -EINVAL when cmd is not the tail of args (the caller then
 * drops this launcher and takes sm_proc_launcher_new()); or another
 * -errno (the launcher then does not run; why says why when it never
 * started).
 */
struct sm_proc_launcher *sm_proc_launcher_start(char *const args[]);
int sm_proc_launcher_command(struct sm_proc_launcher *l, char *const cmd[], int shell);

/* Give the launcher a descriptor to keep (a copy; the caller may close
 * its own at once) until LINGER_S after its end, when the caller drops it
 * (src/launch/launch.c). Returns 0, or -errno when it cannot take it. */
int sm_proc_launcher_hold(struct sm_proc_launcher *l, int fd);

/* Why the launcher is not used ("" while it is); l may be NULL. */
const char *sm_proc_launcher_why(const struct sm_proc_launcher *l);

/* Tell the launcher to exit at once and reap it; NULL is fine. */
void sm_proc_launcher_free(struct sm_proc_launcher *l);

/* The same for a caller about to exit, without waiting: the launcher
 * exits at its end of file (a second later when it holds a counter,
 * sm_proc_launcher_hold()), given to init. Not for a caller that goes on:
 * it would be left unreaped, or, reaped during a later wait, add its own
 * I/O to the process's sums for its reaped children. */
void sm_proc_launcher_drop(struct sm_proc_launcher *l);

/* The next run is the last: when its tree is done, the launcher is told
 * to end (not to start another child), so that it ends while the caller
 * reports. */
void sm_proc_launcher_last(struct sm_proc_launcher *l);


/* A spawned command held at a gate until sm_proc_release(). */
struct sm_proc {
	pid_t pid;
	int own_rss;    /* 1: started by the launcher, its peak RSS is its own */
	struct sm_proc_launcher *launcher;   /* the one that started it, or NULL */
	int gate_fd;    /* write end: closing it lets the child exec (-1 when
			 * the launcher started it) */
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
 * Start a child that waits at a gate, then runs argv as execvp does (or
 * "sh -c argv[0]" when shell is set) with default signal handling.
 * Standard streams and every other descriptor not close-on-exec are
 * inherited untouched. With a launcher l (started for the same argv and
 * shell) the child is the launcher's (p->own_rss = 1); when l is NULL or
 * has none, or the launcher turns out not to run (then l->pid becomes 0
 * and l->why says why), the child is started directly, sharing our memory
 * until it execs, like posix_spawn (p->own_rss = 0). Returns 0 with *p
 * filled, or -errno when a clone, a pipe or the stack allocation failed.
 * Always finish with sm_proc_release() and sm_proc_wait_tree().
 */
int sm_proc_spawn(struct sm_proc *p, struct sm_proc_launcher *l, char *const argv[], int shell);

/* Open the gate and wait for the exec. Returns 0 when the command started,
 * or -errno of the failed exec (the child then exits 127 or 126 and must
 * still be reaped with sm_proc_wait_tree). */
int sm_proc_release(struct sm_proc *p);

/*
 * Reap every descendant until none is left, reading /proc/PID/io of each
 * before it is reaped, and add them into *t. main_status gets the wait
 * status of p->pid; *end_ns the monotonic time the last one was reaped.
 * Signals caught by sm_proc_forward_signals() are passed on to p->pid until
 * it ends (one caught since the spawn, when the wait begins). Frees what
 * sm_proc_spawn() kept for the child. Returns 0 or -errno.
 */
int sm_proc_wait_tree(struct sm_proc *p, struct sm_proc_totals *t,
		      int *main_status, uint64_t *end_ns);

/* Ignore SIGINT and SIGQUIT (the terminal delivers them to the command),
 * and catch SIGTERM and SIGHUP to forward them to the running command:
 * the handler signals the command sm_proc_wait_tree() waits for, and one
 * caught before that wait begins is forwarded when it does.
 * Returns 0 or -errno. */
int sm_proc_forward_signals(void);

/* The last signal the handlers of sm_proc_forward_signals() caught since
 * the previous call, forwarded to a command or not (0 if none); clears it,
 * and drops one still waiting to be forwarded. A caller running commands
 * one after another asks after each, so that no signal goes unseen. */
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
