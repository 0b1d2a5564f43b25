/* SPDX-License-Identifier: MIT */
/* Spawn a command under a subreaper and sum rusage and /proc/PID/io over
 * every process of its tree, each counted exactly once. */
#include "core/proctree.h"
#include "core/proctree_int.h"
#include "core/clock.h"
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

/* In the child, before exec: undo what stormark changed (also the
 * launcher's child, proctree_launch.c). */
void sm_proc_child_reset_signals(void)
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
	sm_proc_child_reset_signals();
	if (a->shell)
		execl("/bin/sh", "sh", "-c", a->argv[0], (char *)NULL);
	else
		execvp(a->argv[0], a->argv);
	e = errno;
	if (write(a->err_wr, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(e == ENOENT ? 127 : 126);
}


/* Start the command's process ourselves, on its own stack in our memory
 * (spawn_child), held at its gate. Returns 0 with p->pid set, or -errno. */
static int spawn_direct(struct sm_proc *p, char *const argv[], int shell)
{
	int gate[2] = { -1, -1 }, err[2] = { -1, -1 }, rc = 0;
	struct spawn_arg *a = NULL;
	char *stack = MAP_FAILED;
	pid_t pid;

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

int sm_proc_spawn(struct sm_proc *p, struct sm_proc_launcher *l, char *const argv[], int shell)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->gate_fd = p->err_fd = -1;
	/* the sums the kernel keeps for our reaped children, before this run:
	 * read before the launcher is waited for (nothing is reaped until the
	 * run), and outside the caller's timed window */
	if (l && !l->usable && l->pid) {
		/* one that cannot serve must not end during the run (a child
		 * of ours, it would count as the command's) */
		sm_proc_launcher_stop(l);
	}
	p->io_start_ok = !sm_proc_children_io(&p->io_start);
	if (l && l->usable) {
		rc = sm_proc_spawn_launched(p, l);
		if (!rc)
			return 0;
		if (rc != -EAGAIN)
			return rc;
		/* the launcher does not run here (stopped and reaped, which
		 * moved the sums): start the command directly */
		p->io_start_ok = !sm_proc_children_io(&p->io_start);
	}
	return spawn_direct(p, argv, shell);
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
		rc = sm_proc_launcher_put(p->launcher, 'g');
		if (!rc)
			rc = sm_proc_launcher_get(p->launcher, &e);
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

/* A zombie's io file was not readable (not root): take the sum the kernel
 * kept for our reaped children since the run began instead; it covers the
 * same processes. */
static void io_from_self(const struct sm_proc *p, struct sm_proc_totals *t)
{
	struct sm_proc_io end;

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
			int more = sm_proc_children_besides(p->launcher->children_fd, lp);

			if (!more)
				break;
			if (more < 0) {
				/* the list is unreadable: end the launcher, whose
				 * end the wait below then sees */
				sm_proc_launcher_end(p->launcher);
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
			sm_proc_launcher_end(p->launcher);
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
	if (t->io_missing && p->io_start_ok)
		io_from_self(p, t);
	/* the tree is done: the launcher may start the next run's child; after
	 * the last run it is told to end instead (its end of file). After the
	 * sums above: once it has ended, the launcher is reaped during the next
	 * wait, which would add its own I/O to the kernel's sums for our
	 * children */
	if (p->launcher && p->launcher->usable && !p->launcher->asked) {
		if (p->launcher->last)
			sm_proc_launcher_end(p->launcher);
		else
			p->launcher->asked = !sm_proc_launcher_put(p->launcher, 's');
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
		sm_proc_child_reset_signals();
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
