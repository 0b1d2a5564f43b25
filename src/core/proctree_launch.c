/* SPDX-License-Identifier: MIT */
/* The launcher (src/launch/, a program held in a memory file): a child of
 * ours started once, which starts each run's command on request, as our
 * child too (CLONE_PARENT). Spawning without it, waiting for the tree and
 * its accounting are core/proctree.c. */
#include "core/proctree.h"
#include "core/proctree_int.h"
#include "core/launchblob.h"
#include "core/tsan.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

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
 * The child that becomes the launcher. Its parent is suspended until it
 * execs (CLONE_VFORK), so they never run at the same time. If the exec
 * fails it leaves the errno in l->exec_errno (our memory) and exits.
 */
static int launch_child(void *argp)
{
	struct sm_proc_launcher *l = argp;

	sm_proc_child_reset_signals();
	/* the launcher's end stays open across the exec */
	if (fcntl(l->sock_fd, F_SETFD, 0) == 0)
		syscall(SYS_execveat, l->file_fd, "", l->argv, environ, AT_EMPTY_PATH);
	l->exec_errno = errno ? errno : EIO;
	_exit(127);
}

/* Tell the launcher to end (its end of file), without waiting for it;
 * at once, not after its lingering second, for a caller that waits. */
void sm_proc_launcher_end(struct sm_proc_launcher *l)
{
	if (l->fd >= 0 && l->quick_end)
		sm_proc_launcher_put(l, 'q');
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
void sm_proc_launcher_stop(struct sm_proc_launcher *l)
{
	int v = 0;

	if (l->fd >= 0 && l->asked) {
		int got = !sm_proc_launcher_get(l, &v);

		if (got && !l->ready) {   /* its pid came first */
			l->ready = 1;
			got = !sm_proc_launcher_get(l, &v);
		}
		if (!got)
			v = 0;
	}
	l->asked = 0;
	sm_proc_launcher_end(l);
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
int sm_proc_children_besides(int fd, pid_t launcher)
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
	rc = l->children_fd < 0 ? l->children_fd : sm_proc_children_besides(l->children_fd, 0);
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
		sm_proc_launcher_stop(l);
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
		sm_proc_launcher_stop(l);   /* reaps the child that did not become it */
		snprintf(l->why, sizeof(l->why), "cannot run the launcher: %s", strerror(-rc));
		return l;
	}
	return l;
fail:
	sm_proc_launcher_stop(l);
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
		sm_proc_launcher_stop(l);
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
	sm_proc_launcher_stop(l);
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
	sm_proc_launcher_end(l);
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
int sm_proc_launcher_get(struct sm_proc_launcher *l, int *v)
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

int sm_proc_launcher_put(struct sm_proc_launcher *l, char c)
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
int sm_proc_spawn_launched(struct sm_proc *p, struct sm_proc_launcher *l)
{
	int v = 0, rc = 0;

	if (!l->ready) {
		rc = sm_proc_launcher_get(l, &v);
		if (!rc)
			l->ready = 1;
	}
	if (!rc && !l->asked)
		rc = sm_proc_launcher_put(l, 's');
	l->asked = 0;
	if (!rc)
		rc = sm_proc_launcher_get(l, &v);
	if (rc) {
		sm_proc_launcher_stop(l);
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
