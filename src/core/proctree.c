/* SPDX-License-Identifier: MIT */
/* Spawn a command under a subreaper and sum rusage and /proc/PID/io over
 * every process of its tree, each counted exactly once. */
#include "core/proctree.h"
#include "core/clock.h"
#include "core/launchblob.h"
#include "core/tsan.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the handlers of sm_proc_forward_signals() share with the loop (the
 * stop flag): caught_signal is the last signal caught, kept until
 * sm_proc_take_signal() takes it, whether it was forwarded or not;
 * forward_pid the running command's process while sm_proc_wait_tree()
 * waits for it (0: none), which the handler signals itself, so that no
 * signal can fall between a check and the wait; pending_signal a signal
 * caught while forward_pid was 0, forwarded when the wait begins. */
static volatile sig_atomic_t caught_signal, pending_signal, forward_pid;

static void on_forward(int sig)
{
	int saved = errno;

	caught_signal = sig;
	if (forward_pid > 0)
		kill((pid_t)forward_pid, sig);
	else
		pending_signal = sig;
	errno = saved;
}

int sm_proc_forward_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGQUIT, &sa, NULL))
		return -errno;
	sa.sa_handler = on_forward;   /* no SA_RESTART: waitid returns EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGHUP, &sa, NULL))
		return -errno;
	return 0;
}

int sm_proc_take_signal(void)
{
	int sig = caught_signal;

	caught_signal = 0;
	pending_signal = 0;
	return sig;
}

int sm_proc_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) ? -errno : 0;
}

/* In the child, before exec: undo what stormark changed. */
static void child_reset_signals(void)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE };
	sigset_t none;

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* What the spawned child needs; it lives in the parent's memory. */
struct spawn_arg {
	char *const *argv;
	int shell;
	int gate_rd, gate_wr, err_rd, err_wr;
};

/*
 * The child, running on its own stack in the parent's address space until
 * it execs (like posix_spawn): no copy of the page tables, no copy-on-write
 * faults, which matter on a VM where touching memory is slow. Until the
 * gate opens the parent is busy elsewhere; after that the parent sleeps in
 * sm_proc_release() until the exec, so the two never use shared state
 * (errno included) at the same time.
 */
static int spawn_child(void *argp)
{
	const struct spawn_arg *a = argp;
	char go;
	int e;

	close(a->gate_wr);
	close(a->err_rd);
	if (read(a->gate_rd, &go, 1) != 1)
		_exit(125);   /* stormark went away before the start */
	child_reset_signals();
	if (a->shell)
		execl("/bin/sh", "sh", "-c", a->argv[0], (char *)NULL);
	else
		execvp(a->argv[0], a->argv);
	e = errno;
	if (write(a->err_wr, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(e == ENOENT ? 127 : 126);
}

#define SPAWN_STACK (256 * 1024)

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U      /* Linux 6.3: exec allowed under vm.memfd_noexec=1 */
#endif

/* A memory file holding the launcher program. Returns the fd or -errno. */
static int launcher_file(void)
{
	size_t off = 0;
	int fd, rc;

	fd = memfd_create("stormark-launch", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	if (fd < 0 && errno == EINVAL)   /* a kernel before 6.3 */
		fd = memfd_create("stormark-launch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	while (off < sm_launch_elf_size) {
		ssize_t n = write(fd, sm_launch_elf + off, sm_launch_elf_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			close(fd);
			return rc;
		}
		off += (size_t)n;
	}
	/* nothing may change the program from now on */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	return fd;
}

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

/*
 * The child that becomes the launcher. Its parent is suspended until it
 * execs (CLONE_VFORK), so they never run at the same time. If the exec
 * fails it leaves the errno in l->exec_errno (our memory) and exits.
 */
static int launch_child(void *argp)
{
	struct sm_proc_launcher *l = argp;

	child_reset_signals();
	/* the launcher's end stays open across the exec */
	if (fcntl(l->sock_fd, F_SETFD, 0) == 0)
		syscall(SYS_execveat, l->file_fd, "", l->argv, environ, AT_EMPTY_PATH);
	l->exec_errno = errno ? errno : EIO;
	_exit(127);
}

static int launcher_put(struct sm_proc_launcher *l, char c);
static int launcher_get(struct sm_proc_launcher *l, int *v);

/* Tell the launcher to end (its end of file), without waiting for it;
 * at once, not after its lingering second, for a caller that waits. */
static void launcher_end(struct sm_proc_launcher *l)
{
	if (l->fd >= 0 && l->quick_end)
		launcher_put(l, 'q');
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->usable = 0;
}

/* What the launcher's start used. */
static void launcher_release(struct sm_proc_launcher *l)
{
	if (l->sock_fd >= 0)
		close(l->sock_fd);
	if (l->file_fd >= 0)
		close(l->file_fd);
	if (l->children_fd >= 0)
		close(l->children_fd);
	l->sock_fd = l->file_fd = l->children_fd = -1;
	if (l->stack && l->stack != MAP_FAILED)
		munmap(l->stack, SPAWN_STACK);
	l->stack = NULL;
	free(l->argv);
	l->argv = NULL;
}

static void reap(pid_t pid)
{
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Stop the launcher and reap it, and the child it started for a run that
 * did not come (it ends at the launcher's end); l->why is kept. */
static void launcher_stop(struct sm_proc_launcher *l)
{
	int v = 0;

	if (l->fd >= 0 && l->asked) {
		int got = !launcher_get(l, &v);

		if (got && !l->ready) {   /* its pid came first */
			l->ready = 1;
			got = !launcher_get(l, &v);
		}
		if (!got)
			v = 0;
	}
	l->asked = 0;
	launcher_end(l);
	reap(l->pid);
	reap(v);   /* the unused child's pid, or 0 */
	l->pid = 0;
	launcher_release(l);
}

/* The kernel's list of the calling thread's children, opened once (the
 * path's lookup in /proc costs more than a read) and read from its start
 * each time: it is made anew at every read. Returns the fd or -errno. */
static int children_open(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/children", (long)syscall(SYS_gettid));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Whether the list (children_open) names a child other than the
 * launcher: 1 yes, 0 no, -errno. */
static int children_besides(int fd, pid_t launcher)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	for (char *p = buf, *end; *p; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v != (long)launcher)
			return 1;
	}
	return n == (ssize_t)sizeof(buf) - 1;   /* more than we read: not only it */
}

struct sm_proc_launcher *sm_proc_launcher_start(char *const argv[])
{
	struct sm_proc_launcher *l = calloc(1, sizeof(*l));
	int sv[2] = { -1, -1 }, argc = 0, rc;
	pid_t pid;

	if (!l)
		return NULL;
	l->fd = l->file_fd = l->sock_fd = l->children_fd = -1;
	if (!sm_launch_elf_size) {
		snprintf(l->why, sizeof(l->why), "stormark was built without its launcher for "
			 "this processor");
		return l;
	}
	/* the tree's end is read from this list (the struct says why) */
	l->children_fd = children_open();
	rc = l->children_fd < 0 ? l->children_fd : children_besides(l->children_fd, 0);
	if (rc < 0) {
		snprintf(l->why, sizeof(l->why), "cannot read the list of our children "
			 "(/proc/self/task/TID/children): %s", strerror(-rc));
		if (l->children_fd >= 0)
			close(l->children_fd);
		l->children_fd = -1;
		return l;
	}
	while (argv[argc])
		argc++;
	l->argv = calloc((size_t)argc + 3, sizeof(*l->argv));
#if !SM_TSAN_BUILD
	l->stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
#endif
	if (!l->argv || l->stack == MAP_FAILED) {
		rc = -ENOMEM;
		goto fail;
	}
	l->file_fd = launcher_file();
	if (l->file_fd < 0) {
		rc = l->file_fd;
		l->file_fd = -1;
		launcher_stop(l);
		snprintf(l->why, sizeof(l->why), "cannot make the launcher's memory file: %s",
			 strerror(-rc));
		return l;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		rc = -errno;
		goto fail;
	}
	snprintf(l->fd_s, sizeof(l->fd_s), "%d", sv[1]);
	l->argv[0] = "stormark-launch";
	l->argv[1] = l->fd_s;
	for (int i = 0; i < argc; i++)
		l->argv[2 + i] = argv[i];
	l->nargs = argc;
	l->fd = sv[0];
	l->sock_fd = sv[1];
#if SM_TSAN_BUILD
	/* a copy of our memory (core/tsan.h says why); a failed exec is
	 * then only seen as the launcher's end of file */
	pid = fork();
	if (pid == 0)
		launch_child(l);
#else
	/* we are suspended until it has exec'd (about 0.1 ms) */
	pid = clone(launch_child, l->stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, l);
#endif
	rc = pid < 0 ? -errno : 0;
	close(l->sock_fd);   /* the launcher has its copy */
	l->sock_fd = -1;
	if (rc)
		goto fail;
	l->pid = pid;
	if (l->exec_errno) {
		rc = -l->exec_errno;
		launcher_stop(l);   /* reaps the child that did not become it */
		snprintf(l->why, sizeof(l->why), "cannot run the launcher: %s", strerror(-rc));
		return l;
	}
	return l;
fail:
	launcher_stop(l);
	snprintf(l->why, sizeof(l->why), "cannot start the launcher: %s", strerror(-rc));
	return l;
}

int sm_proc_launcher_command(struct sm_proc_launcher *l, char *const cmd[], int shell)
{
	char msg[7];
	int32_t at = -1;
	ssize_t n;

	if (!l || l->fd < 0)
		return -ENOENT;   /* l->why says why */
	/* where cmd is among the arguments the launcher was given: the same
	 * strings, to their end */
	for (int i = 0; i < l->nargs && at < 0; i++) {
		int k = 0;

		while (i + k < l->nargs && cmd[k] && cmd[k] == l->argv[2 + i + k])
			k++;
		if (k > 0 && !cmd[k] && i + k == l->nargs)
			at = i;
	}
	if (at < 0)
		return -EINVAL;
	/* 'c' with the index and the shell flag, then 's': the child for the
	 * first run, asked for now so that it is ready when the run comes
	 * (the next one is asked for when a run ends); the first spawn reads
	 * the launcher's pid, or EOF if it did not start */
	msg[0] = 'c';
	memcpy(msg + 1, &at, sizeof(at));
	msg[5] = shell ? '1' : '0';
	msg[6] = 's';
	do {
		n = send(l->fd, msg, sizeof(msg), MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(msg))
		return n < 0 ? -errno : -EIO;
	l->usable = 1;
	l->asked = 1;
	return 0;
}

struct sm_proc_launcher *sm_proc_launcher_new(char *const argv[], int shell)
{
	struct sm_proc_launcher *l = sm_proc_launcher_start(argv);
	int rc;

	if (l)
		l->quick_end = 1;   /* freed with sm_proc_launcher_free() */
	rc = sm_proc_launcher_command(l, argv, shell);

	if (rc && rc != -ENOENT) {
		launcher_stop(l);
		snprintf(l->why, sizeof(l->why), "cannot start the launcher: %s", strerror(-rc));
	}
	return l;
}

void sm_proc_launcher_free(struct sm_proc_launcher *l)
{
	if (!l)
		return;
	/* we wait for its end: it must not wait a second for a counter it
	 * holds (launch.c) */
	l->quick_end = 1;
	launcher_stop(l);
	free(l);
}

/*
 * Not waited for: the launcher has been told to end (end of file), while
 * we go on to exit (waiting for it took about 70 us of `time`'s own
 * cost). At our exit it may still run (a second longer when it holds a
 * counter); given to init, it exits at its end of file all the same, as
 * does a child it started for a run that did not come.
 */
void sm_proc_launcher_drop(struct sm_proc_launcher *l)
{
	if (!l)
		return;
	launcher_end(l);
	launcher_release(l);
	free(l);
}

int sm_proc_launcher_hold(struct sm_proc_launcher *l, int fd)
{
	char c = 'h';
	struct iovec iov = { &c, 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	ssize_t n;

	if (!l || !l->usable || l->fd < 0 || fd < 0)
		return -ENOENT;
	memset(u.buf, 0, sizeof(u.buf));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	do {
		n = sendmsg(l->fd, &mh, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : n < 0 ? -errno : -EIO;
}

void sm_proc_launcher_last(struct sm_proc_launcher *l)
{
	if (l)
		l->last = 1;
}


const char *sm_proc_launcher_why(const struct sm_proc_launcher *l)
{
	return l ? l->why : "cannot start the launcher: out of memory";
}

/* Read one int from the launcher. Returns 0 or -errno (-EPIPE at EOF). */
static int launcher_get(struct sm_proc_launcher *l, int *v)
{
	size_t got = 0;

	while (got < sizeof(*v)) {
		ssize_t n = read(l->fd, (char *)v + got, sizeof(*v) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		got += (size_t)n;
	}
	return 0;
}

static int launcher_put(struct sm_proc_launcher *l, char c)
{
	ssize_t n;

	do {
		n = send(l->fd, &c, 1, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : n < 0 ? -errno : -EIO;
}

/*
 * Have the launcher start the command's process (held at its gate).
 * Returns 0 with p->pid set; -EAGAIN when the launcher does not run (it
 * is then stopped, and l->why says why); or the -errno of a failed clone.
 */
static int spawn_launched(struct sm_proc *p, struct sm_proc_launcher *l)
{
	int v = 0, rc = 0;

	if (!l->ready) {
		rc = launcher_get(l, &v);
		if (!rc)
			l->ready = 1;
	}
	if (!rc && !l->asked)
		rc = launcher_put(l, 's');
	l->asked = 0;
	if (!rc)
		rc = launcher_get(l, &v);
	if (rc) {
		launcher_stop(l);
		snprintf(l->why, sizeof(l->why), "the launcher stopped: %s",
			 strerror(rc == -EPIPE ? EPIPE : -rc));
		return -EAGAIN;
	}
	if (v <= 0)
		return v < 0 ? v : -EIO;
	p->pid = v;
	p->own_rss = 1;
	p->launcher = l;
	return 0;
}

int sm_proc_spawn(struct sm_proc *p, struct sm_proc_launcher *l, char *const argv[], int shell)
{
	int gate[2] = { -1, -1 }, err[2] = { -1, -1 }, rc = 0;
	struct spawn_arg *a = NULL;
	char *stack = MAP_FAILED;
	pid_t pid;

	memset(p, 0, sizeof(*p));
	p->gate_fd = p->err_fd = -1;
	/* the sums the kernel keeps for our reaped children, before this run:
	 * read before the launcher is waited for (nothing is reaped until the
	 * run), and outside the caller's timed window */
	if (l && !l->usable && l->pid) {
		/* one that cannot serve must not end during the run (a child
		 * of ours, it would count as the command's) */
		launcher_stop(l);
	}
	p->io_start_ok = !sm_proc_children_io(&p->io_start);
	if (l && l->usable) {
		rc = spawn_launched(p, l);
		if (!rc)
			return 0;
		if (rc != -EAGAIN)
			return rc;
		/* the launcher does not run here (stopped and reaped, which
		 * moved the sums): start the command directly */
		rc = 0;
		p->io_start_ok = !sm_proc_children_io(&p->io_start);
	}
	if (pipe2(gate, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		rc = -errno;
		goto out;
	}
	/* the stack and the argument block stay mapped until we release */
	stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	a = calloc(1, sizeof(*a));
	if (stack == MAP_FAILED || !a) {
		rc = -ENOMEM;
		goto out;
	}
	a->argv = argv;
	a->shell = shell;
	a->gate_rd = gate[0];
	a->gate_wr = gate[1];
	a->err_rd = err[0];
	a->err_wr = err[1];
#if SM_TSAN_BUILD
	/* the same child on a copy of our memory (core/tsan.h says why) */
	pid = fork();
	if (pid == 0)
		_exit(spawn_child(a));
#else
	pid = clone(spawn_child, stack + SPAWN_STACK, CLONE_VM | SIGCHLD, a);
	if (pid < 0 && errno == EINVAL) {
		/* qemu-user takes CLONE_VM only with a thread's flags: the
		 * same child on a copy of our memory, as under TSan */
		pid = fork();
		if (pid == 0)
			_exit(spawn_child(a));
	}
#endif
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	close(gate[0]);
	close(err[1]);
	p->pid = pid;
	p->gate_fd = gate[1];
	p->err_fd = err[0];
	p->stack = stack;
	p->arg = a;
	return 0;
out:
	for (int i = 0; i < 2; i++) {
		if (gate[i] >= 0)
			close(gate[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	if (stack != MAP_FAILED)
		munmap(stack, SPAWN_STACK);
	free(a);
	return rc;
}

static void spawn_free(struct sm_proc *p)
{
	if (p->stack)
		munmap(p->stack, SPAWN_STACK);
	free(p->arg);
	p->stack = NULL;
	p->arg = NULL;
}

int sm_proc_release(struct sm_proc *p)
{
	int e = 0, rc = 0;
	ssize_t n;

	if (p->launcher) {
		/* the launcher answers once the child has exec'd or failed to */
		rc = launcher_put(p->launcher, 'g');
		if (!rc)
			rc = launcher_get(p->launcher, &e);
		if (rc == -EPIPE)
			return 0;   /* it died, after the child had taken 'g' */
		return rc ? rc : -e;
	}
	if (write(p->gate_fd, "g", 1) != 1)
		rc = -errno;
	close(p->gate_fd);
	p->gate_fd = -1;
	do {
		n = read(p->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e))
		rc = -e;
	close(p->err_fd);
	p->err_fd = -1;
	/* EOF: the exec replaced the child's memory, ours is free again. After
	 * a failed exec the child still runs on our stack until it exits, so
	 * that case is freed when it has been reaped. */
	if (n == 0)
		spawn_free(p);
	return rc;
}

static int field(const char *text, const char *name, uint64_t *v)
{
	const char *s = strstr(text, name);
	char *end;

	if (!s)
		return -EINVAL;
	s += strlen(name);
	errno = 0;
	*v = strtoull(s, &end, 10);
	return (end == s || errno) ? -EINVAL : 0;
}

int sm_proc_parse_io(const char *text, struct sm_proc_totals *t)
{
	uint64_t v[7];
	static const char *names[7] = {
		"rchar: ", "wchar: ", "syscr: ", "syscw: ", "\nread_bytes: ",
		"\nwrite_bytes: ", "cancelled_write_bytes: ",
	};

	for (unsigned i = 0; i < 7; i++)
		if (field(text, names[i], &v[i]))
			return -EINVAL;
	t->rchar += v[0];
	t->wchar += v[1];
	t->syscr += v[2];
	t->syscw += v[3];
	t->read_bytes += v[4];
	t->write_bytes += v[5];
	t->cancelled_write_bytes += v[6];
	return 0;
}

/* Read /proc/PID/io of a zombie not yet reaped into t. */
static int read_io(pid_t pid, struct sm_proc_totals *t)
{
	char path[64], buf[512];
	ssize_t n;
	int fd, rc;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return rc;
	buf[n] = '\0';
	return sm_proc_parse_io(buf, t);
}

/* One read() of a small proc file: the accounting of the read itself is
 * added after the content was made, so it is not in what we read. */
static ssize_t read_once(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static void totals_to_io(const struct sm_proc_totals *t, struct sm_proc_io *io)
{
	io->rchar = t->rchar;
	io->wchar = t->wchar;
	io->syscr = t->syscr;
	io->syscw = t->syscw;
	io->read_bytes = t->read_bytes;
	io->write_bytes = t->write_bytes;
	io->cancelled = t->cancelled_write_bytes;
}

int sm_proc_children_io(struct sm_proc_io *out)
{
	struct sm_proc_totals w, th;
	struct sm_proc_io a, b;
	char buf[512];
	ssize_t nw, nt;

	memset(&w, 0, sizeof(w));
	memset(&th, 0, sizeof(th));
	nw = read_once("/proc/self/io", buf, sizeof(buf));
	if (nw < 0)
		return (int)nw;
	if (sm_proc_parse_io(buf, &w))
		return -EINVAL;
	nt = read_once("/proc/thread-self/io", buf, sizeof(buf));
	if (nt < 0)
		return (int)nt;
	if (sm_proc_parse_io(buf, &th))
		return -EINVAL;
	totals_to_io(&w, &a);
	totals_to_io(&th, &b);
	/* whole = thread_before + children; thread = thread_before + the
	 * first read (one call, nw bytes) */
	out->rchar = a.rchar - (b.rchar - (uint64_t)nw);
	out->syscr = a.syscr - (b.syscr - 1);
	out->wchar = a.wchar - b.wchar;
	out->syscw = a.syscw - b.syscw;
	out->read_bytes = a.read_bytes - b.read_bytes;
	out->write_bytes = a.write_bytes - b.write_bytes;
	out->cancelled = a.cancelled - b.cancelled;
	return 0;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * SM_NS_PER_S + (uint64_t)tv->tv_usec * 1000u;
}

static void add_rusage(struct sm_proc_totals *t, const struct rusage *ru)
{
	t->user_ns += tv_ns(&ru->ru_utime);
	t->sys_ns += tv_ns(&ru->ru_stime);
	if ((uint64_t)ru->ru_maxrss > t->maxrss_kib)
		t->maxrss_kib = (uint64_t)ru->ru_maxrss;
	t->minflt += (uint64_t)ru->ru_minflt;
	t->majflt += (uint64_t)ru->ru_majflt;
	t->nvcsw += (uint64_t)ru->ru_nvcsw;
	t->nivcsw += (uint64_t)ru->ru_nivcsw;
	t->inblock += (uint64_t)ru->ru_inblock;
	t->oublock += (uint64_t)ru->ru_oublock;
}

int sm_proc_wait_tree(struct sm_proc *p, struct sm_proc_totals *t,
		      int *main_status, uint64_t *end_ns)
{
	pid_t lp = p->launcher ? p->launcher->pid : 0;
	int main_done = 0;

	/* from here the handler forwards; a signal caught before, since the
	 * command was started, is forwarded now */
	forward_pid = p->pid;
	if (pending_signal) {
		kill(p->pid, pending_signal);
		pending_signal = 0;
	}
	for (;;) {
		siginfo_t si;
		struct rusage ru;
		int status;
		pid_t got;

		/* Once the command's process is reaped, the tree is done when
		 * no child but the launcher (which never ends while it serves
		 * us) is left; without a launcher, ECHILD says so. */
		if (main_done && lp) {
			int more = children_besides(p->launcher->children_fd, lp);

			if (!more)
				break;
			if (more < 0) {
				/* the list is unreadable: end the launcher, whose
				 * end the wait below then sees */
				launcher_end(p->launcher);
			}
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;   /* the handler forwarded the signal */
			if (errno == ECHILD)
				break;
			forward_pid = 0;
			return -errno;
		}
		if (si.si_pid == p->pid)
			forward_pid = 0;   /* a zombie until reaped below: the pid is still its */
		if (lp && si.si_pid == lp) {
			/* the launcher died (killed, or ended above): not part
			 * of the tree; no more runs through it */
			while (waitpid(lp, &status, 0) < 0 && errno == EINTR)
				;
			snprintf(p->launcher->why, sizeof(p->launcher->why),
				 "the launcher ended during a run");
			launcher_end(p->launcher);
			p->launcher->pid = 0;
			lp = 0;
			continue;
		}
		/* A zombie keeps its io file until it is reaped: read it now. */
		if (read_io(si.si_pid, t))
			t->io_missing++;
		do {
			got = wait4(si.si_pid, &status, 0, &ru);
		} while (got < 0 && errno == EINTR);
		if (got < 0) {
			forward_pid = 0;
			return -errno;
		}
		add_rusage(t, &ru);
		t->reaped++;
		if (got == p->pid) {
			*main_status = status;
			main_done = 1;
			spawn_free(p);
		}
	}
	forward_pid = 0;   /* ECHILD: no command left to forward to */
	*end_ns = sm_now_ns();
	t->maxrss_not_own = !p->own_rss;
	if (t->io_missing && p->io_start_ok) {
		struct sm_proc_io end;

		/* a zombie's io file was not readable (not root): take the sum
		 * the kernel kept for us instead; it covers the same processes */
		if (!sm_proc_children_io(&end)) {
			t->rchar = end.rchar - p->io_start.rchar;
			t->wchar = end.wchar - p->io_start.wchar;
			t->syscr = end.syscr - p->io_start.syscr;
			t->syscw = end.syscw - p->io_start.syscw;
			t->read_bytes = end.read_bytes - p->io_start.read_bytes;
			t->write_bytes = end.write_bytes - p->io_start.write_bytes;
			t->cancelled_write_bytes = end.cancelled - p->io_start.cancelled;
			t->io_missing = 0;
			t->io_from_self = 1;
		}
	}
	/* the tree is done: the launcher may start the next run's child; after
	 * the last run it is told to end instead (its end of file). After the
	 * sums above: once it has ended, the launcher is reaped during the next
	 * wait, which would add its own I/O to the kernel's sums for our
	 * children */
	if (p->launcher && p->launcher->usable && !p->launcher->asked) {
		if (p->launcher->last)
			launcher_end(p->launcher);
		else
			p->launcher->asked = !launcher_put(p->launcher, 's');
	}
	return main_done ? 0 : -ECHILD;
}

int sm_proc_run_shell(const char *cmd)
{
	pid_t pid = fork(), got;
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		child_reset_signals();
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	do {
		got = waitpid(pid, &status, 0);
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	/* orphans of the hook that already ended were re-parented to us */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return status;
}
