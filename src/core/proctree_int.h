/* SPDX-License-Identifier: MIT */
/* Internals shared by core/proctree.c (a command's process and the
 * accounting of its tree) and core/proctree_launch.c (the launcher that
 * starts the command's processes). Not for use outside core/proctree*. */
#ifndef SM_CORE_PROCTREE_INT_H
#define SM_CORE_PROCTREE_INT_H

#include <sys/types.h>

#include "core/proctree.h"

/* the stack a child runs on until it execs */
#define SPAWN_STACK (256 * 1024)

/*
 * The launcher's state. It is our child, started at once (a vfork-like
 * clone, or a fork in a ThreadSanitizer build), and the command's process,
 * which it starts with CLONE_PARENT, is our child too, as are the orphans
 * of the tree (we are their subreaper). Once the command's process is
 * reaped, the tree is done when no child of ours but the launcher is
 * left: the kernel's list of our children (/proc/self/task/TID/children)
 * says so, and while one is left a waitid() waits for its end. (A thread
 * as the launcher's parent, with __WNOTHREAD waits, did the same and cost
 * `time` about 0.1 ms more, most of it while the launcher's exec shared
 * our memory with our running thread.)
 */
struct sm_proc_launcher {
	pid_t pid;              /* the launcher, 0 when there is none */
	int fd;                 /* our end of the socket pair, -1 without */
	int ready;              /* its first int (its pid) has been read */
	int asked;              /* 's' sent, the next child's pid not read */
	int usable;             /* spawn through it (it has not failed) */
	int last;               /* the run under way is the last one */
	int quick_end;          /* our caller waits for its end: no lingering */
	/* for the child that becomes the launcher */
	int file_fd, sock_fd, exec_errno;
	int children_fd;        /* our list of children (children_open) */
	char **argv;            /* launch FD ARGS... */
	int nargs;              /* how many ARGS */
	char fd_s[16];
	char *stack;
	char why[160];
};

/* In the child, before exec: undo what stormark changed (proctree.c). */
void sm_proc_child_reset_signals(void);

/* One byte to the launcher; one int from it. 0 or -errno (-EPIPE: it
 * has gone). */
int sm_proc_launcher_put(struct sm_proc_launcher *l, char c);
int sm_proc_launcher_get(struct sm_proc_launcher *l, int *v);

/* Tell the launcher to end (its end of file), without waiting for it;
 * at once, not after its lingering second, for a caller that waits. */
void sm_proc_launcher_end(struct sm_proc_launcher *l);

/* Stop the launcher and reap it, and the child it started for a run that
 * did not come (it ends at the launcher's end); l->why is kept. */
void sm_proc_launcher_stop(struct sm_proc_launcher *l);

/* Whether the list of children (fd, /proc/self/task/TID/children) names
 * a child other than the launcher: 1 yes, 0 no, -errno. */
int sm_proc_children_besides(int fd, pid_t launcher);

/* Have the launcher start the command's process (held at its gate).
 * Returns 0 with p->pid set; -EAGAIN when the launcher does not run (it
 * is then stopped, and l->why says why); or the -errno of a failed clone. */
int sm_proc_spawn_launched(struct sm_proc *p, struct sm_proc_launcher *l);

#endif
