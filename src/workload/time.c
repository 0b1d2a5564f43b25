/* SPDX-License-Identifier: MIT */
/* `stormark time`'s loop: the warm-up and measured runs of a command, each
 * timed over its whole process tree, into the time result. */
#include "workload/time.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/time.h"
#include "core/clock.h"
#include "core/diskstats.h"
#include "core/fsx.h"
#include "core/msg.h"   /* the exit codes: time's status is the command's */
#include "core/perfsys.h"
#include "core/proctree.h"
#include "result/result.h"

char *sm_time_cmdline(int argc, char *const *argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* State that lasts across runs. */
struct runner {
	const struct sm_time_plan *p;
	char *msg;                  /* the line to say when a run fails */
	size_t len;
	struct sm_perfsys perf;
	int kept;                   /* a counter stays open to the end (perfsys.c) */
	int perf_ok;
	struct sm_diskdev disk;
	int disk_ok;
	int disk_fd;                /* its sysfs stat file, or -1: /proc/diskstats */
	struct sm_proc_launcher *launch;  /* starts the command (max RSS its own) */
	int signal;                 /* SIGTERM or SIGHUP came between runs: the series stops */
	int no_subreaper;           /* -errno: the system refuses PR_SET_CHILD_SUBREAPER */
};

/* The line the command will say, as the printers take it. */
static void say(struct runner *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct runner *rn, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rn->msg, rn->len, fmt, ap);
	va_end(ap);
}

static int disk_read(const struct runner *rn, struct sm_diskstat *d)
{
	return rn->disk_fd >= 0 ? sm_diskstat_pread(rn->disk_fd, d) : sm_diskstat_read(&rn->disk, d);
}

/* Close the run's counters; first, if none is kept yet (the launcher
 * could not take one), the anchor, so that this close stays cheap. */
static void close_counters(struct runner *rn)
{
	if (rn->perf.fd_all >= 0 && !rn->kept) {
		sm_perfsys_anchor(&rn->perf);
		rn->kept = rn->perf.fd_anchor >= 0;
	}
	sm_perfsys_close(&rn->perf);
}

/* One run of the command; 0 with *run filled, or the exit code to return
 * at once (with the line to say in rn->msg). */
static int one_run(struct runner *rn, struct sm_time_run *run)
{
	struct sm_proc p;
	struct sm_proc_totals t;
	struct sm_diskstat d0, d1, dd;
	uint64_t t0, t1, sc = SM_NO_COUNT, fl = SM_NO_COUNT;
	int rc, status = 0, exec_err, have_d = 0;

	memset(&t, 0, sizeof(t));
	if (rn->p->drop_caches) {
		rc = sm_drop_caches();
		if (rc) {
			say(rn, "cannot drop caches: %s", strerror(-rc));
			return SM_EXIT_FAIL;
		}
	}
	if (rn->p->prepare) {
		rc = sm_proc_run_shell(rn->p->prepare);
		if (rc < 0 || rc != 0) {
			say(rn, "--prepare command '%s' failed (%s %d)", rn->p->prepare,
				 rc < 0 ? "error" : WIFSIGNALED(rc) ? "signal" : "exit status",
				 rc < 0 ? -rc : WIFSIGNALED(rc) ? WTERMSIG(rc) : WEXITSTATUS(rc));
			return SM_EXIT_FAIL;
		}
	}
	rc = sm_proc_take_signal();
	if (rc) {
		/* SIGTERM or SIGHUP came between runs (or during a warm-up run
		 * that still ended well): nobody to forward it to */
		rn->signal = rc;
		say(rn, "stopped by signal %d (%s)", rc, strsignal(rc));
		return 128 + rc;
	}
	/* the disk's counters before the command: read while the launcher
	 * makes the run's process, not after (system-wide counters) */
	if (rn->disk_ok)
		have_d = !disk_read(rn, &d0);
	rc = sm_proc_spawn(&p, rn->launch, rn->p->cmd_argv, rn->p->shell);
	if (rc) {
		say(rn, "cannot start '%s': %s", rn->p->cmd_argv[0], strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (rn->perf_ok && sm_perfsys_attach(&rn->perf, p.pid))
		rn->perf_ok = 0;   /* the reason is in rn->perf.why */
	t0 = sm_now_ns();
	exec_err = sm_proc_release(&p);
	/* the first counter goes to the launcher, which keeps it to the end
	 * (core/perfsys.c says why); sent while the command runs */
	if (rn->perf_ok && !rn->kept && !sm_proc_launcher_hold(rn->launch, rn->perf.fd_all))
		rn->kept = 1;
	rc = sm_proc_wait_tree(&p, &t, &status, &t1);
	if (exec_err) {
		close_counters(rn);
		say(rn, "cannot run '%s': %s", rn->p->cmd_argv[0], strerror(-exec_err));
		return exec_err == -ENOENT ? 127 : 126;
	}
	if (rc) {
		close_counters(rn);
		say(rn, "waiting for '%s' failed: %s", rn->p->cmd_argv[0], strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (rn->perf_ok && sm_perfsys_read(&rn->perf, &sc, &fl))
		rn->perf_ok = 0;
	close_counters(rn);
	if (have_d && !disk_read(rn, &d1))
		sm_diskstat_delta(&d0, &d1, &dd);
	else
		have_d = 0;
	sm_time_run_fill(run, &t, t1 - t0, sc, fl, have_d ? &dd : NULL, status);
	return 0;
}

/* The counters that last across runs: the system-call counter and the
 * disk under the current directory (why not, in r, when there is none). */
static void setup(struct runner *rn, struct sm_time_result *r)
{
	struct sm_fs_info fs;
	struct stat st;
	int rc;

	/* when it cannot run, runs are started directly and max RSS is not
	 * measured (sm_proc_launcher_why says why) */
	rn->launch = rn->p->launcher ? rn->p->launcher
				     : sm_proc_launcher_new(rn->p->cmd_argv, rn->p->shell);
	if (rn->p->no_syscalls)
		snprintf(rn->perf.why, sizeof(rn->perf.why), "disabled with --no-syscalls");
	else if (sm_perfsys_probe(&rn->perf) == 0)
		rn->perf_ok = 1;
	/* without the launcher, the anchor keeps the counter's probe in place
	 * (core/perfsys.c); opened now, outside every run */
	if (rn->perf_ok && sm_proc_launcher_why(rn->launch)[0]) {
		sm_perfsys_anchor(&rn->perf);
		rn->kept = rn->perf.fd_anchor >= 0;
	}
	/* st_dev is what sm_fs_info reports as the device number; stat is
	 * enough on the fast path, sm_fs_info names the file system when
	 * there is no block device */
	rc = stat(".", &st) ? -errno : 0;
	if (!rc)
		rc = sm_diskdev_resolve(major(st.st_dev), minor(st.st_dev), &rn->disk);
	if (!rc) {
		rn->disk_ok = 1;
		rn->disk_fd = sm_diskstat_open(&rn->disk);
	} else if (rc == -ENODEV) {
		memset(&fs, 0, sizeof(fs));
		sm_fs_info(".", &fs);
		snprintf(r->disk_why, sizeof(r->disk_why),
			 "the current directory is on %s, not on a block device",
			 fs.fs_type[0] ? fs.fs_type : "a file system");
	} else {
		snprintf(r->disk_why, sizeof(r->disk_why), "cannot find the device: %s",
			 strerror(-rc));
	}
	r->disk_ok = rn->disk_ok;
	r->disk = rn->disk;
}

/* The result's fields once the runs are over, its hints and statistics. */
static void finish(const struct runner *rn, struct sm_time_result *r, struct sm_time_run *runs,
		   uint64_t start)
{
	const struct sm_time_plan *p = rn->p;

	r->exit_time = time(NULL);
	r->head.duration_ns = sm_now_ns() - start;
	r->cmd_argc = p->cmd_argc;
	r->cmd_argv = p->cmd_argv;
	r->shell = p->shell;
	r->prepare = p->prepare;
	r->warmup = p->warmup;
	r->runs_requested = p->runs;
	r->runs = runs;
	if (!rn->perf_ok)
		snprintf(r->syscalls_why, sizeof(r->syscalls_why), "%s", rn->perf.why);
	else if (r->nruns && (runs[0].missing & SM_TF_BIT(SM_TF_FLUSH_CALLS)))
		snprintf(r->flush_why, sizeof(r->flush_why), "the tracepoint filter was refused");
	for (unsigned i = 0; i < r->nruns; i++)
		if (runs[i].missing & SM_TF_BIT(SM_TF_MAX_RSS_BYTES))
			snprintf(r->rss_why, sizeof(r->rss_why), "%s", sm_proc_launcher_why(rn->launch));
	if (r->syscalls_why[0])
		sm_warn(&r->head.warnings, "syscalls_missing", "all system calls were not counted: %s; "
			"read and write calls are shown instead", r->syscalls_why);
	sm_time_hints(runs, r->nruns, p->drop_caches, &r->head.warnings);
	sm_time_analyse(r);
}

/* Tell the plan's progress callback that run i (from 0) of n begins. */
static void tell(const struct sm_time_plan *p, const char *kind, unsigned i, unsigned n, uint64_t t0)
{
	char what[64];

	if (!p->progress)
		return;
	snprintf(what, sizeof(what), "%s %u of %u", kind, i + 1, n);
	p->progress(what, sm_now_ns() - t0, 0, p->progress_arg);
}

/* The series stopped by signal sig after r's runs: they are reported,
 * marked interrupted, and the exit code is 130 (interrupted). Returns
 * -1 (report). */
static int interrupted(struct runner *rn, struct sm_time_result *r, int sig, int *status)
{
	r->head.interrupted = 1;
	*status = sm_exit_code(0, 1);   /* 130 */
	say(rn, "interrupted by signal %d (%s) after %u of %u runs: the report covers those", sig,
	    strsignal(sig), r->nruns, rn->p->runs);
	return -1;
}

/* The warm-up runs, then the measured ones. Returns -1 to report, or the
 * exit code (rn->msg says why). */
static int loop(struct runner *rn, struct sm_time_result *r, struct sm_time_run *runs, int *status)
{
	const struct sm_time_plan *p = rn->p;
	uint64_t t0 = sm_now_ns();
	int code;

	for (unsigned i = 0; i < p->warmup; i++) {
		struct sm_time_run scratch;

		tell(p, "warm-up run", i, p->warmup, t0);
		code = one_run(rn, &scratch);
		if (code)
			return code;
		if (scratch.exit_code) {
			say(rn, "warm-up run of '%s' failed with exit status %d", p->cmd_argv[0],
			    scratch.exit_code);
			return scratch.exit_code;
		}
	}
	for (unsigned i = 0; i < p->runs; i++) {
		int sig;

		tell(p, "run", i, p->runs, t0);
		if (i + 1 == p->runs)
			sm_proc_launcher_last(rn->launch);
		code = one_run(rn, &runs[r->nruns]);
		if (code && rn->signal && r->nruns)
			return interrupted(rn, r, rn->signal, status);
		if (code)
			return code;
		r->nruns++;
		/* a signal during the run was forwarded to it; whether or not
		 * the command died of it, the series ends here */
		sig = sm_proc_take_signal();
		if (runs[r->nruns - 1].exit_code) {
			*status = runs[r->nruns - 1].exit_code;
			r->head.interrupted = sig != 0;
			if (sig)
				say(rn, "interrupted by signal %d (%s) during run %u of %u, which was "
				    "forwarded to the command", sig, strsignal(sig), i + 1, p->runs);
			else if (i + 1 < p->runs)
				say(rn, "run %u of '%s' ended with status %d; stopping", i + 1,
				    p->cmd_argv[0], *status);
			break;
		}
		if (sig)
			return interrupted(rn, r, sig, status);
	}
	return -1;
}

int sm_time_measure(const struct sm_time_plan *plan, struct sm_time_result *r, struct sm_time_run *runs,
		    int *status, char *msg, size_t len)
{
	struct runner rn = { .p = plan, .msg = msg, .len = len, .disk_fd = -1 };
	uint64_t start = sm_now_ns();
	int rc;

	msg[0] = '\0';
	*status = 0;
	rn.perf.fd_all = rn.perf.fd_flush = rn.perf.fd_anchor = -1;
	rc = sm_proc_subreaper();
	/* qemu-user refuses it (EINVAL), a kernel before 3.4 has none: the
	 * command and what it waits for are measured, not its orphans */
	if (rc == -EINVAL || rc == -ENOSYS) {
		rn.no_subreaper = rc;
		rc = 0;
	}
	if (!rc)
		rc = sm_proc_forward_signals();
	if (rc) {
		say(&rn, "cannot set up the process tree: %s", strerror(-rc));
		return 1;
	}
	setup(&rn, r);
	if (rn.no_subreaper)
		sm_warn(&r->head.warnings, "tree_unfollowed", "a process the command leaves running is not "
			"followed: this system refuses PR_SET_CHILD_SUBREAPER (%s; qemu-user does), so a "
			"descendant that outlives its parent is neither waited for nor counted",
			strerror(-rn.no_subreaper));
	/* the environment costs several /proc reads: only JSON (and the
	 * history, which stores the JSON) carries it, and the HTML report */
	if (plan->env)
		sm_env_collect(&r->head.env, ".");
	else
		sm_kernel_release(r->head.env.kernel, sizeof(r->head.env.kernel));
	/* stormark moves no data here: the timed command does its own I/O */
	snprintf(r->head.env.engine, sizeof(r->head.env.engine), "none");
	rc = loop(&rn, r, runs, status);
	if (rc < 0)
		finish(&rn, r, runs, start);
	if (!plan->launcher)
		sm_proc_launcher_free(rn.launch);
	sm_perfsys_release(&rn.perf);
	if (rn.disk_fd >= 0)
		close(rn.disk_fd);
	return rc;
}
