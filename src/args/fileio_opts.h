/* SPDX-License-Identifier: MIT */
/* stormark fileio's command line: sysbench 1.0.20's options (and its
 * deprecated aliases) plus stormark's, parsed into a plan. */
#ifndef SM_ARGS_FILEIO_OPTS_H
#define SM_ARGS_FILEIO_OPTS_H

#include <stdio.h>

#include "args/out_opts.h"
#include "args/uring_opts.h"
#include "args/save.h"
#include "report/sysbench.h"
#include "workload/fileio.h"
#include "workload/fileio_steady.h"

struct sm_sb_args;

struct sm_fileio_opts {
	struct sm_fileio_cfg cfg;
	const char *prog;          /* "stormark fileio" or "sysbench" */
	const char *command;       /* prepare | run | cleanup | help */
	char format_help[256];    /* --format's help, from the render table */
	struct sm_pct_list pct;
	int histogram;
	int seed_given;
	int verbosity;
	struct sm_out_opts out;    /* --format, -o/--output, --json, --quiet; resolved */
	struct sm_save_opts save;  /* --save KEY, --db PATH (run only) */
	int help, version;
	int list_options;          /* --list-options (hidden): SM_OPT_LIST_CODE when given */
	int force;                 /* --force: the directory may be a file system's root */
	const char *deprecated[4]; /* deprecated names used, in the order of the help */
	unsigned ndeprecated;
	int depr_seen[4];
	int fsync_freq_set;           /* --file-fsync-freq given */
	int time_set;              /* --time given */
	int steady_round_set, steady_rounds_set;
	struct sm_fileio_steady_plan steady;   /* --steady, --steady-round(s), --precondition */
	struct sm_uring_opts uring;   /* --sqpoll, --iopoll (run, async mode) */
	const char *ignored;       /* values of options accepted and ignored */
	int ignored_bool;
	const char *nfs_base;      /* --nfs under MPI: the URL given; cfg.nfs is then */
	char nfs_sub[24];          /*   its subdirectory nfs_sub ("rank.N"), in nfs_url */
	char nfs_url[4200];
	const struct sm_sb_args *sb; /* under the sysbench name: what its command line
				      * reading left (verbosity, banner, SIGINT); else NULL */
};

/* Print the help to f, from the option table sm_fileio_parse() reads. */
void sm_fileio_usage(FILE *f);

/* Print the options of that table to f, one a line (sm_opt_list()), for
 * shell completion: `stormark fileio --list-options`. */
void sm_fileio_list_options(FILE *f);

/* Parse argv (options anywhere, the command as the one positional) into
 * *o, starting from sysbench's defaults; resolve the output flags (o->out).
 * Returns 0, or the exit code of a usage error already reported on
 * stderr. */
int sm_fileio_parse(struct sm_fileio_opts *o, int argc, char **argv);

/* The name stormark's own lines begin with: o->prog, or "stormark" under
 * the sysbench name (a refusal there is stormark's, not sysbench's:
 * docs/compat.md). */
const char *sm_fileio_msg_prog(const struct sm_fileio_opts *o);

/* Report a usage error (one line on stderr, beginning with
 * sm_fileio_msg_prog()); returns 2. */
int sm_fileio_bad(const struct sm_fileio_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The option that replaces a deprecated one ("num-threads" -> "threads"). */
const char *sm_fileio_depr_new(const char *old);

#endif
