/* SPDX-License-Identifier: MIT */
/* System-call counting of a process tree with perf_event_open on the
 * raw_syscalls:sys_enter tracepoint, inherit=1, enable_on_exec=1. */
#include "core/perfsys.h"
#include "core/tsan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TP_REL "events/raw_syscalls/sys_enter/id"

/*
 * Why a counter is kept: when the last perf event on a tracepoint is
 * closed, the kernel unregisters its probe and waits for an RCU grace
 * period (20-40 ms measured here) while holding the lock every
 * perf_event_open of a tracepoint takes. One event kept open from the
 * first run to the end keeps every per-run close cheap, and its own final
 * close happens in a background process, after the report is out. With
 * `time`'s launcher (src/launch/launch.c) that is the first run's counter,
 * handed to the launcher, which holds it and lingers; without one, it is
 * the anchor below: a disabled event on stormark itself (one more
 * tracepoint lookup, 25-100 us here), closed by a clone of ours that
 * lingers (sm_perfsys_release).
 *
 * Why that process lingers (SM_PERFSYS_LINGER_MS) before it closes: an
 * invocation that started while the previous one's slow close was under
 * way waited for it (back to back, `stormark time` cost 40 ms more than
 * without the counter). While the previous anchor is still open, the next
 * invocation's registration and the previous anchor's close are both
 * cheap (the probe stays registered), so a series of invocations pays the
 * registration once and the slow close once, after the last of them.
 */
#define SM_PERFSYS_LINGER_MS 1000

static int open_counter(int tp_id, pid_t pid, int on_exec);

/* The tracepoint id in path (relative to dirfd, or AT_FDCWD). */
static int read_id_at(int dirfd, const char *path)
{
	char buf[32];
	ssize_t n;
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return atoi(buf) > 0 ? atoi(buf) : -EINVAL;
}

static int read_id(const char *path)
{
	return read_id_at(AT_FDCWD, path);
}

/* The id from any tracefs (or debugfs/tracing) mount in mountinfo. */
static int id_from_mounts(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024], mnt[512], path[640];
	int id = -ENOENT;

	if (!f)
		return -errno;
	while (id < 0 && fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");
		char fstype[32];

		if (!dash || sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1 ||
		    sscanf(dash + 3, "%31s", fstype) != 1)
			continue;
		if (!strcmp(fstype, "tracefs"))
			snprintf(path, sizeof(path), "%s/" TP_REL, mnt);
		else if (!strcmp(fstype, "debugfs"))
			snprintf(path, sizeof(path), "%s/tracing/" TP_REL, mnt);
		else
			continue;
		id = read_id(path);
	}
	fclose(f);
	return id;
}

/* A detached tracefs mount (fsopen, fsmount: Linux 5.2), attached nowhere
 * and gone with its last descriptor, and the id read through it: no mount
 * namespace to copy and tear down (id_from_private_mount below, which
 * cost 0.1-0.2 ms a run on this machine's 30-odd mounts). */
static int id_from_fsmount(void)
{
#if defined(SYS_fsopen) && defined(SYS_fsconfig) && defined(SYS_fsmount)
	int fs, mnt, rc;

	fs = (int)syscall(SYS_fsopen, "tracefs", 1 /* FSOPEN_CLOEXEC */);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, 6 /* FSCONFIG_CMD_CREATE */, NULL, NULL, 0)) {
		rc = -errno;
		close(fs);
		return rc;
	}
	mnt = (int)syscall(SYS_fsmount, fs, 1 /* FSMOUNT_CLOEXEC */, 0);
	rc = mnt < 0 ? -errno : 0;
	close(fs);
	if (mnt < 0)
		return rc;
	rc = read_id_at(mnt, TP_REL);
	close(mnt);
	return rc;
#else
	return -ENOSYS;
#endif
}

struct ns_probe {
	int id;
	char stack[16384] __attribute__((aligned(16)));
};

static int ns_probe_child(void *arg)
{
	struct ns_probe *np = arg;

	np->id = -EPERM;
	if (!unshare(CLONE_NEWNS) &&
	    !mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) &&
	    !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		np->id = read_id("/sys/kernel/tracing/" TP_REL);
	return 0;
}

/* Mount tracefs in a private mount namespace of a short-lived helper and
 * read the (system-wide) id there; the caller's mounts are untouched. The
 * helper shares our memory and we sleep until it exits (vfork-like), so it
 * costs no copy of the page tables. */
static int id_from_private_mount(void)
{
	struct ns_probe *np = calloc(1, sizeof(*np));
	int id, status;
	pid_t pid;

	if (!np)
		return -ENOMEM;
	np->id = -ENOENT;
#if SM_TSAN_BUILD
	{
		/* a forked child (core/tsan.h): its answer comes back by a pipe */
		int fd[2];

		if (pipe2(fd, O_CLOEXEC)) {
			free(np);
			return -errno;
		}
		pid = fork();
		if (pid == 0) {
			ns_probe_child(np);
			_exit(write(fd[1], &np->id, sizeof(np->id)) == sizeof(np->id) ? 0 : 1);
		}
		close(fd[1]);
		if (pid > 0 && read(fd[0], &id, sizeof(id)) == sizeof(id))
			np->id = id;
		close(fd[0]);
	}
#else
	pid = clone(ns_probe_child, np->stack + sizeof(np->stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, np);
#endif
	if (pid < 0) {
		free(np);
		return -errno;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	id = np->id;
	free(np);
	return id;
}

int sm_perfsys_probe(struct sm_perfsys *ps)
{
	int id;

	ps->fd_all = ps->fd_flush = ps->fd_anchor = -1;
	ps->why[0] = '\0';
	/* the usual places first: reading mountinfo costs more than a miss */
	id = read_id("/sys/kernel/tracing/" TP_REL);
	if (id < 0)
		id = read_id("/sys/kernel/debug/tracing/" TP_REL);
	if (id < 0 && geteuid() == 0)
		id = id_from_fsmount();   /* cheaper than reading mountinfo */
	if (id < 0)
		id = id_from_mounts();
	if (id < 0 && geteuid() == 0)
		id = id_from_private_mount();   /* a kernel before 5.2 */
	if (id < 0) {
		ps->tp_id = -1;
		snprintf(ps->why, sizeof(ps->why),
			 "tracefs is not mounted or has no raw_syscalls:sys_enter event (%s)",
			 strerror(-id));
		return id;
	}
	ps->tp_id = id;
	return 0;
}

void sm_perfsys_anchor(struct sm_perfsys *ps)
{
	if (ps->tp_id >= 0 && ps->fd_anchor < 0)
		ps->fd_anchor = open_counter(ps->tp_id, 0, 0);
}

static int open_counter(int tp_id, pid_t pid, int on_exec)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = (uint64_t)tp_id;
	a.disabled = 1;
	a.enable_on_exec = on_exec;
	a.inherit = on_exec;
	a.exclude_kernel = 0;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int paranoid_level(void)
{
	char buf[16] = "";
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 99;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : 99;
}

int sm_perfsys_attach(struct sm_perfsys *ps, pid_t pid)
{
	char filter[200];

	ps->fd_all = ps->fd_flush = -1;
	if (ps->tp_id < 0)
		return -ENOENT;
	ps->fd_all = open_counter(ps->tp_id, pid, 1);
	if (ps->fd_all < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			snprintf(ps->why, sizeof(ps->why),
				 "perf_event_open refused (perf_event_paranoid is %d; needs <= 1 or CAP_PERFMON)",
				 paranoid_level());
		else
			snprintf(ps->why, sizeof(ps->why), "perf_event_open failed: %s",
				 strerror(e));
		return -e;
	}
	ps->fd_flush = open_counter(ps->tp_id, pid, 1);
#ifndef SYS_sync_file_range
	/* 32-bit ARM has only sync_file_range2 (its arguments reordered) */
#define SYS_sync_file_range SYS_sync_file_range2
#endif
	snprintf(filter, sizeof(filter),
		 "id == %d || id == %d || id == %d || id == %d || id == %d || id == %d",
		 (int)SYS_fsync, (int)SYS_fdatasync, (int)SYS_sync, (int)SYS_syncfs,
		 (int)SYS_sync_file_range, (int)SYS_msync);
	if (ps->fd_flush >= 0 && ioctl(ps->fd_flush, PERF_EVENT_IOC_SET_FILTER, filter)) {
		close(ps->fd_flush);
		ps->fd_flush = -1;
	}
	return 0;
}

static int read_one(int fd, uint64_t *v)
{
	uint64_t buf[3];   /* value, time enabled, time running */

	if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return -EIO;
	/* a tracepoint counter is never multiplexed; scale defensively */
	if (buf[2] && buf[2] < buf[1])
		buf[0] = (uint64_t)((double)buf[0] * (double)buf[1] / (double)buf[2]);
	*v = buf[0];
	return 0;
}

int sm_perfsys_read(struct sm_perfsys *ps, uint64_t *all, uint64_t *flush)
{
	int rc = 0;

	*flush = UINT64_MAX;
	if (ps->fd_all < 0)
		return -ENOENT;
	rc = read_one(ps->fd_all, all);
	if (ps->fd_flush >= 0 && read_one(ps->fd_flush, flush))
		*flush = UINT64_MAX;
	if (rc)
		snprintf(ps->why, sizeof(ps->why), "reading the perf counter failed");
	return rc;
}

void sm_perfsys_close(struct sm_perfsys *ps)
{
	if (ps->fd_all >= 0)
		close(ps->fd_all);
	if (ps->fd_flush >= 0)
		close(ps->fd_flush);
	ps->fd_all = ps->fd_flush = -1;
}

struct closer {
	int anchor, gate;   /* gate: read end of a pipe we close when done */
};

static int closer_child(void *arg)
{
	const struct closer *c = arg;
	int lo = c->anchor < c->gate ? c->anchor : c->gate;
	int hi = c->anchor < c->gate ? c->gate : c->anchor;
	char b;

	/* keep only the anchor and the gate, so no pipe of the caller stays
	 * open; then wait until the parent has dropped its copy of the
	 * anchor (EOF on the gate), so that ours is the last, slow close */
	if (lo > 0)
		syscall(SYS_close_range, 0u, (unsigned)lo - 1, 0u);
	if (hi > lo + 1)
		syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0u);
	syscall(SYS_close_range, (unsigned)hi + 1, ~0u, 0u);
	for (int i = 0; i < 100 && read(c->gate, &b, 1) < 0; i++)
		;   /* only EINTR can fail here; errno is not ours to look at */
	/* hold no directory (a file system under it could not be unmounted),
	 * then keep the probe registered a little for the next invocation */
	if (chdir("/"))
		return 0;
	{
		/* clock_nanosleep returns its error: it leaves errno (the
		 * parent's, with CLONE_VM) alone */
		struct timespec ts = { SM_PERFSYS_LINGER_MS / 1000,
				       (SM_PERFSYS_LINGER_MS % 1000) * 1000000L };

		for (int i = 0; i < 100 && clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR; i++)
			;
	}
	return 0;
}

void sm_perfsys_release(struct sm_perfsys *ps)
{
	/* static: the child runs on this stack and reads this struct after
	 * we have returned (it shares our memory, not our fd table) */
#if !SM_TSAN_BUILD
	static char stack[16384] __attribute__((aligned(16)));
#endif
	static struct closer c;
	int gate[2];

	sm_perfsys_close(ps);
	if (ps->fd_anchor < 0)
		return;
	if (pipe2(gate, O_CLOEXEC)) {
		close(ps->fd_anchor);   /* slow, but correct */
		ps->fd_anchor = -1;
		return;
	}
	c.anchor = ps->fd_anchor;
	c.gate = gate[0];
#if SM_TSAN_BUILD
	if (fork() == 0)   /* the same child on a copy of our memory (core/tsan.h) */
		_exit(closer_child(&c));
#else
	clone(closer_child, stack + sizeof(stack), CLONE_VM | SIGCHLD, &c);
#endif
	close(gate[0]);
	close(ps->fd_anchor);   /* cheap while the child still holds it */
	ps->fd_anchor = -1;
	close(gate[1]);         /* now the child may close its copy and exit */
}
