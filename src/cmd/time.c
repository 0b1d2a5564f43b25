/* SPDX-License-Identifier: MIT */
/* stormark time: run a command (many times if asked) and report its whole
 * process tree's time, memory, system calls and I/O, logical and storage. */
#include "cmd/cmd.h"
#include "core/memcheck.h"
#include "core/clock.h"
#include "core/diskstats.h"
#include "core/fsx.h"
#include "core/perfsys.h"
#include "core/proctree.h"
#include "core/units.h"
#include "store/history_db.h"
#include "result/json.h"
#include "result/timefig.h"
#include "report/markdown.h"
#include "report/timeit.h"
#include "cmd/emit.h"
#include "cmd/out_opts.h"
#include "cmd/save.h"
#include "core/opt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "stormark time"
#define HINT "stormark time --help"
#define MAX_RUNS 100000u

struct time_opts {
	unsigned runs, warmup;
	const char *prepare;
	int drop_caches, shell, no_syscalls, csv, help;
	struct sm_out_opts out;
	struct sm_save_opts save;
	int cmd_argc;
	char **cmd_argv;
};

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f,
		"usage: stormark time [options] [--] COMMAND [ARGS...]\n\n"
		"Run COMMAND and report, for its whole process tree: wall time, CPU,\n"
		"max RSS, page faults, context switches, system calls, read and write\n"
		"calls, logical bytes and bytes that reached storage; and, labelled as\n"
		"system-wide, the counters of the disk under the current directory.\n"
		"The exit status is the command's (128 + signal when it was killed).\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nThe output flags mean the same in every command: docs/options.md.\n"
		"See 'stormark history' and docs/time.md.\n");
}

/* Parse argv into o (--help: print the usage). Returns -1 to go on, or
 * the exit code to return. */
static int parse(int argc, char **argv, struct time_opts *o)
{
	struct sm_opt opts[] = {
		SM_OPT_UINT_RANGE('n', "runs", o->runs, 1, MAX_RUNS, "N",
				  "measure N runs (default 1) and report statistics"),
		SM_OPT_UINT_RANGE(0, "warmup", o->warmup, 0, MAX_RUNS, "N", "run N times first, unmeasured"),
		SM_OPT_STR(0, "prepare", o->prepare, "CMD", "run 'sh -c CMD' before every run (unmeasured)"),
		SM_OPT_FLAG_SET(0, "drop-caches", o->drop_caches, 1, "drop the page cache before every run (root)"),
		SM_OPT_FLAG_SET(0, "shell", o->shell, 1, "run COMMAND with sh -c (one string)"),
		SM_OPT_FLAG_SET(0, "no-syscalls", o->no_syscalls, 1,
				"do not count all system calls (no perf counter)"),
		SM_OUT_OPTS(o->out, 'o', 0, "text (default), timeit, csv, markdown or json"),
		SM_OPT_FLAG_SET(0, "csv", o->csv, 1, "the same as --format csv"),
		SM_SAVE_OPTS(o->save),
		SM_OPT_HELP('h', "help", o->help, "this help"),
		SM_OPT_LIST_OPTIONS(o->help),
		SM_OPT_END,
	};
	char msg[SM_MSG_MAX];
	int first, rc;

	memset(o, 0, sizeof(*o));
	o->runs = 1;
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, SM_OPT_IN_ORDER, &first, usage);
	if (rc >= 0)
		return rc;
	if (o->csv && o->out.format && strcmp(o->out.format, "csv"))
		return sm_usage_error(PROG, HINT, "--csv cannot be combined with --format %s", o->out.format);
	if (o->csv && !o->out.format)
		o->out.format = "csv";
	if (sm_out_resolve(&o->out, PROG, sm_render_layouts(&sm_render_time, 0), sm_render_time.dflt,
			   msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	/* the history is written: check --db as an output path, before the run */
	if (sm_save_check(&o->save, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (first >= argc)
		return sm_usage_error(PROG, HINT, "no command to run");
	o->cmd_argc = argc - first;
	o->cmd_argv = argv + first;
	if (o->shell && o->cmd_argc != 1)
		return sm_usage_error(PROG, HINT, "--shell wants the command as one string");
	return -1;
}

int cmd_time_parse_only(int argc, char **argv)
{
	struct time_opts o;
	int rc = parse(argc, argv, &o);

	return rc >= 0 ? rc : 0;
}

/* The command line as one string, for the history (caller frees). */
static char *join_cmd(const struct time_opts *o)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < o->cmd_argc; i++)
		len += strlen(o->cmd_argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < o->cmd_argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, o->cmd_argv[i]);
	}
	return s;
}

/* State that lasts across runs. */
struct runner {
	const struct time_opts *o;
	struct sm_perfsys perf;
	int perf_ok;
	struct sm_diskdev disk;
	int disk_ok;
	struct sm_proc_launcher *launch;  /* starts the command (max RSS its own) */
};

/* One run of the command; 0 with *run filled, or the exit code to return
 * at once (after an error message). */
static int one_run(struct runner *rn, struct sm_time_run *run)
{
	struct sm_proc p;
	struct sm_proc_totals t;
	struct sm_diskstat d0, d1, dd;
	uint64_t t0, t1, sc = SM_NO_COUNT, fl = SM_NO_COUNT;
	int rc, status = 0, exec_err, have_d = 0;

	memset(&t, 0, sizeof(t));
	if (rn->o->drop_caches) {
		rc = sm_drop_caches();
		if (rc) {
			sm_error("cannot drop caches: %s", strerror(-rc));
			return SM_EXIT_FAIL;
		}
	}
	if (rn->o->prepare) {
		rc = sm_proc_run_shell(rn->o->prepare);
		if (rc < 0 || rc != 0) {
			sm_error("--prepare command '%s' failed (%s %d)", rn->o->prepare,
				 rc < 0 ? "error" : WIFSIGNALED(rc) ? "signal" : "exit status",
				 rc < 0 ? -rc : WIFSIGNALED(rc) ? WTERMSIG(rc) : WEXITSTATUS(rc));
			return SM_EXIT_FAIL;
		}
	}
	rc = sm_proc_take_signal();
	if (rc) {
		/* SIGTERM or SIGHUP came between runs: nobody to forward it to */
		sm_error("stopped by signal %d (%s)", rc, strsignal(rc));
		return 128 + rc;
	}
	rc = sm_proc_spawn(&p, rn->launch, rn->o->cmd_argv, rn->o->shell);
	if (rc) {
		sm_error("cannot start '%s': %s", rn->o->cmd_argv[0], strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (rn->perf_ok && sm_perfsys_attach(&rn->perf, p.pid))
		rn->perf_ok = 0;   /* the reason is in rn->perf.why */
	if (rn->disk_ok)
		have_d = !sm_diskstat_read(&rn->disk, &d0);
	t0 = sm_now_ns();
	exec_err = sm_proc_release(&p);
	rc = sm_proc_wait_tree(&p, &t, &status, &t1);
	if (exec_err) {
		sm_perfsys_close(&rn->perf);
		sm_error("cannot run '%s': %s", rn->o->cmd_argv[0], strerror(-exec_err));
		return exec_err == -ENOENT ? 127 : 126;
	}
	if (rc) {
		sm_perfsys_close(&rn->perf);
		sm_error("waiting for '%s' failed: %s", rn->o->cmd_argv[0], strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (rn->perf_ok && sm_perfsys_read(&rn->perf, &sc, &fl))
		rn->perf_ok = 0;
	if (have_d && !sm_diskstat_read(&rn->disk, &d1))
		sm_diskstat_delta(&d0, &d1, &dd);
	else
		have_d = 0;
	sm_time_run_fill(run, &t, t1 - t0, sc, fl, have_d ? &dd : NULL, status);
	return 0;
}

static void setup(struct runner *rn, struct sm_time_result *r)
{
	struct sm_fs_info fs;
	struct stat st;
	int rc;

	/* when it cannot run, runs are started directly and max RSS is not
	 * measured (sm_proc_launcher_why says why) */
	rn->launch = sm_proc_launcher_new(rn->o->cmd_argv, rn->o->shell);
	if (rn->o->no_syscalls)
		snprintf(rn->perf.why, sizeof(rn->perf.why), "disabled with --no-syscalls");
	else if (sm_perfsys_probe(&rn->perf) == 0)
		rn->perf_ok = 1;
	/* st_dev is what sm_fs_info reports as the device number; stat is
	 * enough on the fast path, sm_fs_info names the file system when
	 * there is no block device */
	rc = stat(".", &st) ? -errno : 0;
	if (!rc)
		rc = sm_diskdev_resolve(major(st.st_dev), minor(st.st_dev), &rn->disk);
	if (!rc) {
		rn->disk_ok = 1;
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

/* --save: the runs and the whole result under key (sm_hdb_save), when a
 * run was measured. */
static int store(struct sm_hdb *db, const char *key, const void *res, const char *json, char *err,
		 size_t len)
{
	const struct sm_time_result *r = res;
	struct time_opts o = { .cmd_argc = r->cmd_argc, .cmd_argv = r->cmd_argv };
	char *cmdline;
	int rc;

	if (!r->nruns)
		return 0;
	cmdline = join_cmd(&o);
	rc = cmdline ? sm_hdb_save(db, key, cmdline, r->runs, r->nruns, json, err, len) : -ENOMEM;
	free(cmdline);
	return rc;
}

/* The exit status is the command's (128 + signal when it was killed). */
static int end(struct sm_emit *e, void *res, int rc)
{
	return *(const int *)e->arg;
}

int cmd_time(int argc, char **argv, struct sm_job *job)
{
	struct time_opts o;
	struct runner rn;
	struct sm_time_result *r = NULL;
	struct sm_time_run *runs = NULL;
	struct sm_emit e = { .r = &sm_render_time, .prog = PROG, .job = job, .store = store, .end = end };
	uint64_t start;
	int rc, code = SM_EXIT_OK;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.drop_caches && geteuid() != 0) {
		sm_error("--drop-caches needs root (it writes /proc/sys/vm/drop_caches)");
		return SM_EXIT_FAIL;
	}
	/* the record of every run is kept for the statistics (up to MAX_RUNS) */
	code = sm_check_memory(PROG, sm_mem_mul(o.runs + 1, sizeof(*runs)) + sizeof(*r),
			       "the records of --runs");
	if (code)
		return code;
	/* the history is opened before running, so a bad database fails fast */
	e.out = &o.out;
	e.save = &o.save;
	code = sm_emit_open(&e);
	if (code)
		return code;
	memset(&rn, 0, sizeof(rn));
	rn.o = &o;
	rn.perf.fd_all = rn.perf.fd_flush = rn.perf.fd_anchor = -1;
	r = calloc(1, sizeof(*r));
	runs = calloc(o.runs, sizeof(*runs));
	if (!r || !runs) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
		goto out;
	}
	start = sm_now_ns();
	sm_result_head_begin(&r->head, "time", argc, argv);
	rc = sm_proc_subreaper();
	if (!rc)
		rc = sm_proc_forward_signals();
	if (rc) {
		sm_error("cannot set up the process tree: %s", strerror(-rc));
		code = SM_EXIT_FAIL;
		goto out;
	}
	setup(&rn, r);
	/* the environment costs several /proc reads: only JSON (and the
	 * history, which stores the JSON) carries it, and the HTML report */
	if (sm_emit_wants_doc(&e))
		sm_env_collect(&r->head.env, ".");
	else
		sm_kernel_release(r->head.env.kernel, sizeof(r->head.env.kernel));
	for (unsigned i = 0; i < o.warmup; i++) {
		struct sm_time_run scratch;

		code = one_run(&rn, &scratch);
		if (code)
			goto out;
		if (scratch.exit_code) {
			sm_error("warm-up run of '%s' failed with exit status %d", o.cmd_argv[0],
				 scratch.exit_code);
			code = scratch.exit_code;
			goto out;
		}
	}
	for (unsigned i = 0; i < o.runs; i++) {
		code = one_run(&rn, &runs[r->nruns]);
		if (code)
			goto out;
		r->nruns++;
		if (runs[r->nruns - 1].exit_code) {
			code = runs[r->nruns - 1].exit_code;
			if (i + 1 < o.runs)
				sm_error("run %u of '%s' ended with status %d; stopping", i + 1,
					 o.cmd_argv[0], code);
			break;
		}
	}
	r->exit_time = time(NULL);
	r->head.duration_ns = sm_now_ns() - start;
	r->cmd_argc = o.cmd_argc;
	r->cmd_argv = o.cmd_argv;
	r->shell = o.shell;
	r->prepare = o.prepare;
	r->warmup = o.warmup;
	r->runs_requested = o.runs;
	r->runs = runs;
	if (!rn.perf_ok)
		snprintf(r->syscalls_why, sizeof(r->syscalls_why), "%s", rn.perf.why);
	else if (r->nruns && (runs[0].missing & SM_TF_BIT(SM_TF_FLUSH_CALLS)))
		snprintf(r->flush_why, sizeof(r->flush_why), "the tracepoint filter was refused");
	for (unsigned i = 0; i < r->nruns; i++)
		if (runs[i].missing & SM_TF_BIT(SM_TF_MAX_RSS_BYTES))
			snprintf(r->rss_why, sizeof(r->rss_why), "%s", sm_proc_launcher_why(rn.launch));
	if (r->syscalls_why[0])
		sm_warn(&r->head.warnings, "syscalls_missing", "all system calls were not counted: %s; "
			"read and write calls are shown instead", r->syscalls_why);
	sm_time_hints(runs, r->nruns, o.drop_caches, &r->head.warnings);
	e.arg = &code;   /* the command's exit status is time's */
	code = sm_emit(&e, r, 0);
out:
	sm_proc_launcher_free(rn.launch);
	sm_perfsys_release(&rn.perf);
	sm_emit_close(&e);
	free(runs);
	free(r);
	return code;
}
