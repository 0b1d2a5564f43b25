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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* The signal caught while the command runs, to forward (the stop flag). */
static volatile sig_atomic_t pending_signal;

static void on_forward(int sig)
{
	pending_signal = sig;
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
	int sig = pending_signal;

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
 * The launcher's state. Its parent is a thread of ours that does nothing
 * else: the command's process, which the launcher starts with
 * CLONE_PARENT, is that thread's child too, while the orphans of the tree
 * are handed to the main thread (the kernel gives them to the first live
 * thread of a subreaper). So once the command's process is reaped, a
 * waitid() with __WNOTHREAD sees the rest of the tree and not the
 * launcher, and says ECHILD when the tree is done.
 */
struct sm_proc_launcher {
	pid_t pid;              /* the launcher, 0 when there is none */
	int fd;                 /* our end of the socket pair, -1 without */
	int ready;              /* its first int (its pid) has been read */
	int asked;              /* 's' sent, the next child's pid not read */
	int thread_on;          /* thr runs and must be joined */
	int usable;             /* spawn through it (it has not failed) */
	int last;               /* the run under way is the last one */
	pthread_t thr;
	int stop_wr;            /* closing it ends thr */
	/* for thr and the child it starts */
	int file_fd, sock_fd, stop_rd, exec_errno;
	char **argv;            /* launch FD SHELL COMMAND... */
	char fd_s[16], shell_s[2];
	char *stack;
	char why[160];
};

/*
 * The child that becomes the launcher. Its parent thread is suspended
 * until it execs (CLONE_VFORK), so they never run at the same time. If the
 * exec fails it leaves the errno in l->exec_errno (our memory) and exits.
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

/* The launcher's parent thread: starts it, then waits for the end of the
 * invocation and reaps it. Every signal is blocked here. */
static void *launcher_thread(void *arg)
{
	struct sm_proc_launcher *l = arg;
	pid_t pid;
	char c;

#if SM_TSAN_BUILD
	/* a copy of our memory (core/tsan.h says why); a failed exec is
	 * then only seen as the launcher's end of file. fork(), which the
	 * sanitizer intercepts, not a raw clone: the sanitizer takes its own
	 * locks around it, while a raw clone could copy one held by another
	 * thread at that moment, and the child then spun on it for ever (a
	 * TSan pass hung so once the launcher began while the main thread
	 * still checked the outputs) */
	pid = fork();
	if (pid == 0)
		launch_child(l);
#else
	pid = clone(launch_child, l->stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, l);
#endif
	if (pid < 0)
		l->exec_errno = errno;
	/* the child has its copy; without the launcher, the reader sees EOF */
	close(l->sock_fd);
	l->sock_fd = -1;
	if (pid > 0) {
		while (read(l->stop_rd, &c, 1) < 0 && errno == EINTR)
			;
		/* the launcher (or the child that failed to become it) and the
		 * child it had started for a run that did not come, which ends
		 * at the launcher's end of file */
		while (waitpid(-1, NULL, __WNOTHREAD) > 0 || errno == EINTR)
			;
	}
	return NULL;
}

static int launcher_put(struct sm_proc_launcher *l, char c);

/* Tell the launcher and its thread to end, without waiting for them. */
static void launcher_end(struct sm_proc_launcher *l)
{
	if (l->fd >= 0)
		close(l->fd);   /* end of file: the launcher exits */
	if (l->stop_wr >= 0)
		close(l->stop_wr);   /* the thread reaps it and ends */
	l->fd = l->stop_wr = -1;
	l->usable = 0;
}

/* Stop the launcher and its thread; l->why is kept. */
static void launcher_stop(struct sm_proc_launcher *l)
{
	launcher_end(l);
	if (l->thread_on)
		pthread_join(l->thr, NULL);
	l->thread_on = 0;
	l->usable = 0;
	l->pid = 0;
	if (l->sock_fd >= 0)
		close(l->sock_fd);
	if (l->stop_rd >= 0)
		close(l->stop_rd);
	if (l->file_fd >= 0)
		close(l->file_fd);
	l->sock_fd = l->stop_rd = l->file_fd = -1;
	if (l->stack && l->stack != MAP_FAILED)
		munmap(l->stack, SPAWN_STACK);
	l->stack = NULL;
	free(l->argv);
	l->argv = NULL;
}

struct sm_proc_launcher *sm_proc_launcher_new(char *const argv[], int shell)
{
	struct sm_proc_launcher *l = calloc(1, sizeof(*l));
	int sv[2] = { -1, -1 }, stop[2] = { -1, -1 }, argc = 0, rc;
	sigset_t all, old;

	if (!l)
		return NULL;
	l->fd = l->file_fd = l->sock_fd = l->stop_rd = l->stop_wr = -1;
	if (!sm_launch_elf_size) {
		snprintf(l->why, sizeof(l->why), "stormark was built without its launcher for "
			 "this processor");
		return l;
	}
	while (argv[argc])
		argc++;
	l->argv = calloc((size_t)argc + 4, sizeof(*l->argv));
	l->stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
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
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) || pipe2(stop, O_CLOEXEC)) {
		rc = -errno;
		for (int i = 0; i < 2; i++) {
			if (sv[i] >= 0)
				close(sv[i]);
			if (stop[i] >= 0)
				close(stop[i]);
		}
		goto fail;
	}
	snprintf(l->fd_s, sizeof(l->fd_s), "%d", sv[1]);
	l->shell_s[0] = shell ? '1' : '0';
	l->argv[0] = "stormark-launch";
	l->argv[1] = l->fd_s;
	l->argv[2] = l->shell_s;
	for (int i = 0; i < argc; i++)
		l->argv[3 + i] = argv[i];
	l->fd = sv[0];
	l->sock_fd = sv[1];
	l->stop_rd = stop[0];
	l->stop_wr = stop[1];
	/* the thread (and so the launcher) starts with every signal blocked;
	 * the child unblocks them before its exec */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&l->thr, NULL, launcher_thread, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		goto fail;
	l->thread_on = 1;
	l->usable = 1;
	/* The child for the first run, asked for now so that it is ready when
	 * the run comes (the next one is asked for when a run ends); the first
	 * spawn reads the launcher's pid, or EOF if it did not start. */
	l->asked = !launcher_put(l, 's');
	return l;
fail:
	launcher_stop(l);
	snprintf(l->why, sizeof(l->why), "cannot start the launcher: %s", strerror(-rc));
	return l;
}

void sm_proc_launcher_free(struct sm_proc_launcher *l)
{
	if (!l)
		return;
	launcher_stop(l);
	free(l);
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
		if (!rc) {
			l->pid = v;
			l->ready = 1;
		}
	}
	if (!rc && !l->asked)
		rc = launcher_put(l, 's');
	l->asked = 0;
	if (!rc)
		rc = launcher_get(l, &v);
	if (rc) {
		int ready = l->ready;

		launcher_stop(l);   /* joins the thread: exec_errno is final */
		if (!ready && l->exec_errno)
			snprintf(l->why, sizeof(l->why), "cannot run the launcher: %s",
				 strerror(l->exec_errno));
		else
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
	if (l && l->usable) {
		rc = spawn_launched(p, l);
		if (!rc)
			goto started;
		if (rc != -EAGAIN)
			return rc;
		/* the launcher does not run here: start the command directly */
		rc = 0;
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
started:
	/* before the gate opens, and outside the caller's timed window */
	p->io_start_ok = !sm_proc_children_io(&p->io_start);
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

	for (;;) {
		siginfo_t si;
		struct rusage ru;
		int status;
		pid_t got;

		/* Until the command's process is reaped, wait for the children
		 * of every thread (it may be the launcher thread's); then only
		 * for the main thread's, which every orphan of the tree is
		 * handed to, and not for the launcher, which never ends while
		 * it serves us: ECHILD then says that the tree is done. */
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT | (main_done ? __WNOTHREAD : 0)) < 0) {
			if (errno == EINTR) {
				int sig = pending_signal;

				pending_signal = 0;
				if (sig && !main_done)
					kill(p->pid, sig);
				continue;
			}
			if (errno == ECHILD)
				break;
			return -errno;
		}
		if (lp && si.si_pid == lp) {
			/* the launcher died (killed): not part of the tree; no
			 * more runs through it (its thread, which may be the
			 * parent of this run's command, is joined at the end) */
			while (waitpid(lp, &status, 0) < 0 && errno == EINTR)
				;
			close(p->launcher->fd);
			p->launcher->fd = -1;
			p->launcher->usable = 0;
			p->launcher->pid = 0;
			snprintf(p->launcher->why, sizeof(p->launcher->why),
				 "the launcher ended during a run");
			lp = 0;
			continue;
		}
		/* A zombie keeps its io file until it is reaped: read it now. */
		if (read_io(si.si_pid, t))
			t->io_missing++;
		do {
			got = wait4(si.si_pid, &status, 0, &ru);
		} while (got < 0 && errno == EINTR);
		if (got < 0)
			return -errno;
		add_rusage(t, &ru);
		t->reaped++;
		if (got == p->pid) {
			*main_status = status;
			main_done = 1;
			spawn_free(p);
		}
	}
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
	 * the last run it is told to end instead (its end of file), so that it
	 * and its thread end while the report is made, not after it. After the
	 * sums above: the thread's last read and the launcher, once reaped,
	 * would count in them */
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
