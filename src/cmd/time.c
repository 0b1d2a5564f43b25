/* SPDX-License-Identifier: MIT */
/* stormark time: run a command (many times if asked) and report its whole
 * process tree's time, memory, system calls and I/O, logical and storage.
 * Options here; the loop is workload/time.c, the statistics
 * analysis/time.c, the reports report/timeit.c and its render table. */
#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "args/out_opts.h"
#include "args/save.h"
#include "core/compiler.h"
#include "core/memcheck.h"
#include "core/opt.h"
#include "core/proctree.h"
#include "store/history_db.h"
#include "workload/time.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "stormark time"
#define HINT "stormark time --help"
#define MAX_RUNS 100000u
#define TINY_NEED (64u << 10)

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
		"The exit status is the command's (128 + signal when it was killed).\n"
		"SIGTERM or SIGHUP ends a series (-n): the runs measured are reported and\n"
		"saved, marked interrupted, exit 130.\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nThe output flags mean the same in every command: docs/options.md.\n"
		"See 'stormark history' and docs/time.md.\n");
}

/* Parse argv into o (--help: print the usage). Returns -1 to go on, or
 * the exit code to return. */
static int parse(int argc, char **argv, struct time_opts *o)
{
	char fhelp[256];   /* --format's help, from the render table */
	struct sm_opt opts[] = {
		SM_OPT_UINT_RANGE('n', "runs", o->runs, 1, MAX_RUNS, "N",
				  "measure N runs (default 1) and report statistics"),
		SM_OPT_UINT_RANGE(0, "warmup", o->warmup, 0, MAX_RUNS, "N", "run N times first, unmeasured"),
		SM_OPT_STR(0, "prepare", o->prepare, "CMD", "run 'sh -c CMD' before every run (unmeasured)"),
		SM_OPT_FLAG_SET(0, "drop-caches", o->drop_caches, 1, "drop the page cache before every run (root)"),
		SM_OPT_FLAG_SET(0, "shell", o->shell, 1, "run COMMAND with sh -c (one string)"),
		SM_OPT_FLAG_SET(0, "no-syscalls", o->no_syscalls, 1,
				"do not count all system calls (no perf counter)"),
		SM_OUT_OPTS(o->out, 'o', 1, sm_render_format_help(&sm_render_time, fhelp, sizeof(fhelp))),
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
	if (sm_save_check(&o->save, msg, sizeof(msg)) ||
	    sm_save_apart(&o->save, &o->out, NULL, 0, NULL, msg, sizeof(msg)))
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

/* --save: the runs and the whole result under key (sm_hdb_save), when a
 * run was measured. */
static int store(struct sm_hdb *db, const char *key, const void *res, const char *json, char *err,
		 size_t len)
{
	const struct sm_time_result *r = res;
	char *cmdline;
	int rc;

	if (!r->nruns)
		return 0;
	cmdline = sm_time_cmdline(r->cmd_argc, r->cmd_argv);
	rc = cmdline ? sm_hdb_save(db, key, cmdline, r->runs, r->nruns, json, err, len) : -ENOMEM;
	free(cmdline);
	return rc;
}

/* How the series ended, said after its report. */
struct ending {
	int status;          /* the exit code (sm_time_measure()'s *status) */
	const char *msg;     /* the line to say after the report, "" none */
};

/* The exit status is the command's (128 + signal when it was killed), or
 * SM_EXIT_INTERRUPTED when a signal stopped the series; an interrupted
 * series says so after its report. */
static int end(struct sm_emit *e, SM_UNUSED void *res, SM_UNUSED int rc)
{
	const struct ending *how = e->arg;

	if (how->msg[0]) {
		sm_out_flush(stdout);   /* the report before what stderr says of it */
		sm_error("%s", how->msg);
	}
	return how->status;
}

int cmd_time(int argc, char **argv, struct sm_job *job)
{
	struct time_opts o;
	struct sm_time_plan plan;
	struct sm_time_result *r = NULL;
	struct sm_time_run *runs = NULL;
	struct sm_progress pc = { 0 };
	struct sm_emit e = { .r = &sm_render_time, .prog = PROG, .job = job, .store = store, .end = end };
	char msg[SM_MSG_MAX];
	int rc, code = SM_EXIT_OK, status;
	struct sm_proc_launcher *launcher;
	uint64_t need;

	/* the launcher starts first, with our arguments, while they are
	 * parsed and checked (its start is the longest part of time's own
	 * cost, and it touches no file); it is told which of them is the
	 * command once they are parsed, and ended by a refusal. It ends
	 * during the report, and is dropped, not waited for: the process ends
	 * right after */
	launcher = sm_proc_launcher_start(argv);
	rc = parse(argc, argv, &o);
	if (rc >= 0) {
		sm_proc_launcher_drop(launcher);
		return rc;
	}
	if (o.drop_caches && geteuid() != 0) {
		sm_proc_launcher_drop(launcher);
		sm_error("--drop-caches needs root (it writes /proc/sys/vm/drop_caches)");
		return SM_EXIT_FAIL;
	}
	if (sm_proc_launcher_command(launcher, o.cmd_argv, o.shell) == -EINVAL) {
		/* the command is not the tail of our arguments: this one ends
		 * (and is reaped: a child of ours must not end during a run) */
		sm_proc_launcher_free(launcher);
		launcher = sm_proc_launcher_new(o.cmd_argv, o.shell);
	}
	/* the record of every run is kept for the statistics (up to MAX_RUNS);
	 * a need under TINY_NEED (-n up to about 200) is not checked: stormark's
	 * own start took more than that, and the check's reads of /proc and the
	 * cgroup files were a fifth of `time`'s own cost */
	need = sm_mem_mul(o.runs + 1, sizeof(*runs)) + sizeof(*r);
	code = need < TINY_NEED ? 0 : sm_check_memory(PROG, need, "the records of --runs");
	if (code) {
		sm_proc_launcher_drop(launcher);
		return code;
	}
	/* the history is opened before running, so a bad database fails fast */
	e.out = &o.out;
	e.save = &o.save;
	code = sm_emit_open(&e);
	if (code) {
		sm_proc_launcher_drop(launcher);
		return code;
	}
	r = calloc(1, sizeof(*r));
	runs = calloc(o.runs, sizeof(*runs));
	if (!r || !runs) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
		goto out;
	}
	plan = (struct sm_time_plan){
		.cmd_argc = o.cmd_argc, .cmd_argv = o.cmd_argv, .shell = o.shell, .prepare = o.prepare,
		.warmup = o.warmup, .runs = o.runs, .drop_caches = o.drop_caches,
		.no_syscalls = o.no_syscalls, .env = sm_emit_wants_doc(&e), .launcher = launcher,
	};
	/* run i of N on a terminal, redrawn as the runs go (cmd.h) */
	pc.on = !o.out.quiet && isatty(STDERR_FILENO);
	if (pc.on) {
		plan.progress = sm_progress_line;
		plan.progress_arg = &pc;
	}
	sm_result_head_begin(&r->head, "time", argc, argv);
	code = sm_time_measure(&plan, r, runs, &status, msg, sizeof(msg));
	sm_progress_clear(&pc);
	if (msg[0] && !(code < 0 && r->head.interrupted))
		sm_error("%s", msg);
	if (code < 0) {
		/* the command's exit status is time's */
		struct ending how = { status, r->head.interrupted ? msg : "" };

		e.arg = &how;
		code = sm_emit(&e, r, 0);
	}
out:
	sm_emit_close(&e);
	sm_proc_launcher_drop(launcher);
	free(runs);
	free(r);
	return code;
}
