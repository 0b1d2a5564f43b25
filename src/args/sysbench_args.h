/* SPDX-License-Identifier: MIT */
/* The `sysbench` program name's command line, read the way sysbench
 * 1.0.20 reads it: the same options, the same forms accepted and refused,
 * the same messages (FATAL and WARNING lines on stdout, parse errors on
 * stderr) in the same order, and exit 1. What passes becomes an argument
 * vector in stormark fileio's own forms. */
#ifndef SM_ARGS_SYSBENCH_ARGS_H
#define SM_ARGS_SYSBENCH_ARGS_H

#define SM_SB_MAX_ARGS 128

/* What sm_sb_args() leaves for the fileio command. */
struct sm_sb_args {
	int argc;                      /* argv[0] is "sysbench", the command last */
	char *argv[SM_SB_MAX_ARGS + 1];
	char store[SM_SB_MAX_ARGS][64];  /* the rewritten --name=value words */
	int verbosity;                 /* 0-5, as --verbosity / --debug set it */
	int banner_done;               /* the banner is already on stdout */
	int sigint_ignored;            /* SIGINT was ignored when we started */
};

/*
 * Read sysbench's command line (argv[0] is the program name). Prints what
 * sysbench 1.0.20 prints before the test starts: deprecation and endless-run
 * warnings, the banner (at --verbosity 3 and above), and every refusal.
 * Returns -1 when the fileio command should run with out->argv, or the
 * exit code (0 after --help or --version, 1 after a refusal) when it is
 * done. Nothing on disk is touched.
 */
int sm_sb_args(int argc, char **argv, struct sm_sb_args *out);

#endif
