/* SPDX-License-Identifier: MIT */
/* `stormark time`'s loop: run a command (warm-up runs first, unmeasured)
 * and measure each run's whole process tree, its system calls and the
 * disk under the current directory, into the time result. */
#ifndef SM_WORKLOAD_TIME_H
#define SM_WORKLOAD_TIME_H

#include <stddef.h>

#include "result/timefig.h"

/* What to run, as the options gave it (strings point into argv). */
struct sm_time_plan {
	int cmd_argc;
	char **cmd_argv;            /* the command and its arguments */
	int shell;                  /* run cmd_argv[0] with sh -c */
	const char *prepare;        /* sh -c CMD before every run, unmeasured; NULL: none */
	unsigned warmup, runs;      /* unmeasured runs first, then measured ones */
	int drop_caches;            /* drop the page cache before every run */
	/* called before each run starts (not timed): what is "warm-up run i of
	 * N" or "run i of N", elapsed_ns the time since the first began,
	 * budget_ns 0 (none); NULL: not called */
	void (*progress)(const char *what, uint64_t elapsed_ns, uint64_t budget_ns, void *arg);
	void *progress_arg;
	int no_syscalls;            /* count no system calls (no perf counter) */
	int env;                    /* collect the whole environment (else the kernel only) */
	/* the launcher of the runs (core/proctree.h), started by the caller
	 * as soon as the command is known so that its start overlaps the
	 * checks before the run, and freed by the caller after the report so
	 * that its end overlaps the report; NULL: started and freed here */
	struct sm_proc_launcher *launcher;
};

/* The command line as one string (the history's name of it), or NULL
 * without memory; caller frees. */
char *sm_time_cmdline(int argc, char *const *argv);

/*
 * Run plan->warmup times, then up to plan->runs times into runs[] (the
 * caller's, plan->runs records), stopping at the first measured run that
 * ends with a non-zero status, and fill r (its head begun by the caller)
 * with them, its hints and its statistics (analysis/time.h). Prints
 * nothing: msg gets the line to say (or ""). Returns -1 when r is to be
 * reported, with *status the command's exit status (0, or the status of
 * the run that stopped it); else the exit code to return at once, nothing
 * to report (the process tree could not be set up, a run could not start
 * or be waited for, --prepare or a warm-up run failed, a signal came
 * before the first measured run). A SIGTERM or SIGHUP later stops the
 * series: the runs measured are reported with r->head.interrupted set and
 * *status 130, or the status of the run the forwarded signal ended.
 */
int sm_time_measure(const struct sm_time_plan *plan, struct sm_time_result *r, struct sm_time_run *runs,
		    int *status, char *msg, size_t len);

#endif
