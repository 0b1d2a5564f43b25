/* SPDX-License-Identifier: MIT */
/* The subcommands. Each cmd_<name>() gets its own argv (argv[0] is the
 * command or program name) and the job it runs as (mpi/job.h: the null job
 * alone, a rank under mpirun or srun), prints, and returns the process
 * exit code: 0 ok, 1 run failed, 2 usage error, 130 interrupted. */
#ifndef SM_CMD_H
#define SM_CMD_H

#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "core/fsx.h"   /* sm_path_problem(), sm_root_refusal() */
#include "core/msg.h"   /* the exit codes and the one-line messages */

struct sm_job;
int cmd_frames(int argc, char **argv, struct sm_job *job);     /* also the `frametest` name */
int cmd_fileio(int argc, char **argv, struct sm_job *job);
int cmd_sysbench(int argc, char **argv, struct sm_job *job);   /* the `sysbench` name */
int cmd_time(int argc, char **argv, struct sm_job *job);
int cmd_history(int argc, char **argv, struct sm_job *job);
int cmd_run(int argc, char **argv, struct sm_job *job);
int cmd_report(int argc, char **argv, struct sm_job *job);
int cmd_streams(int argc, char **argv, struct sm_job *job);
int cmd_compare(int argc, char **argv, struct sm_job *job);
int cmd_meta(int argc, char **argv, struct sm_job *job);

/*
 * The command line of run, time, history, report or compare parsed and checked as
 * the command does it, with nothing run, opened for writing or created, and
 * what parsing allocated freed: the seam of the fuzz targets (fuzz/).
 * Returns 0 where the command would go on; else the code the command
 * returns, after printing what it prints (the usage on stdout for --help,
 * one line on stderr for a usage error).
 */
int cmd_run_parse_only(int argc, char **argv);
int cmd_time_parse_only(int argc, char **argv);
int cmd_history_parse_only(int argc, char **argv);
int cmd_report_parse_only(int argc, char **argv);
int cmd_compare_parse_only(int argc, char **argv);

/* A result loaded by sm_json_load() or sm_json_parse_text() rendered on
 * stdout in every layout `stormark report` has for its command, as that
 * command renders it (the fuzz target of the JSON reader drives the
 * readers, analysis and reporters through it). Returns 0, or the first
 * failure of a reader or renderer (-EINVAL, -ENOMEM, -errno). */
struct cJSON;
int cmd_report_render_all(const struct cJSON *doc);

/* Check the result doc (loaded by sm_json_load() or sm_json_parse_text()):
 * its invariants (sm_check_doc()), then each text layout of its command,
 * rendered as `stormark report --format` renders it, against it
 * (sm_check_layout()); violations go into c. Returns 0, or -EINVAL with
 * one line in msg (len bytes) when a layout cannot be rendered (the
 * reader's reason: not a complete result), or -ENOMEM. */
struct sm_check;
int cmd_report_check(const struct cJSON *doc, struct sm_check *c, char *msg, size_t len);

/* Parse argv against opts (sm_opt_parse with flags) and end the command
 * at once where the options say so: the hidden --list-options prints the
 * table, --help prints usage(stdout, opts), a bad option prints
 * sm_usage_error's line. Returns -1 to go on (*first set to the first
 * operand), else the exit code to return (SM_EXIT_OK or SM_EXIT_USAGE). */
struct sm_opt;
int sm_cmd_parse(const char *prog, const char *help_hint, const struct sm_opt *opts, int argc,
		 char **argv, unsigned flags, int *first,
		 void (*usage)(FILE *f, const struct sm_opt *opts));

/* Refuse a run whose buffers (`need` bytes, described by `what`) do not fit
 * in the memory available to this process (core/memcheck.h: MemAvailable
 * and the cgroup limits, less a reserve): prints "<prog>: <why>" on one
 * line and returns SM_EXIT_USAGE; returns 0 when they fit or nothing is
 * known. */
int sm_check_memory(const char *prog, uint64_t need, const char *what);

/* The live progress line of run, streams and time on stderr:
 * "[ 12/60 s] what: 4 s in, 48 s left", redrawn in place; nothing when on
 * is 0 (--quiet, not a terminal, a rank that does not report).
 * sm_progress_line() is the workload's callback (arg: the struct
 * sm_progress), called when a phase starts: it draws the line and starts a
 * ticker thread that redraws it twice a second from the figures it was
 * given and the clock, so a long phase keeps counting while the measuring
 * threads never wait on it (it reads no counter of theirs and takes no lock
 * they take). sm_progress_clear() stops the ticker and wipes the line.
 * Zero-initialise the struct, then set on. */
struct sm_progress {
	int on;
	int ticking;                /* the ticker thread runs */
	int stop;
	uint64_t base_ns;           /* sm_now_ns() less the elapsed time last told */
	uint64_t phase_ns;          /* sm_now_ns() when the phase began */
	uint64_t budget_ns;         /* 0: none */
	char what[160];
	char figures[96];           /* the test's own figures so far, or "" */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};
void sm_progress_line(const char *what, uint64_t elapsed_ns, uint64_t budget_ns, void *arg);
/* run's callback (workload/profile.h): as sm_progress_line() when what is
 * set; what NULL: the test goes on, the line now ends with figures (taken
 * only when the line is free at once: the caller, a sampler thread, never
 * waits). */
void sm_progress_run(const char *what, const char *figures, uint64_t elapsed_ns,
		     uint64_t budget_ns, void *arg);
void sm_progress_clear(struct sm_progress *p);

#endif
