/* SPDX-License-Identifier: MIT */
/* The command line of `stormark frames` and `frametest`: parsed, checked
 * and resolved into a frames plan, and echoed as frametest's "Test
 * parameters" line. Kept apart from the command so it can be unit-tested. */
#ifndef SM_ARGS_FRAMES_OPTS_H
#define SM_ARGS_FRAMES_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "args/out_opts.h"
#include "args/uring_opts.h"
#include "args/save.h"
#include "workload/frames.h"

/* The largest frame accepted, in bytes (frametest's own limit is about
 * 64 MiB; 8K 16-bit formats need 200 MiB, so stormark allows more). */
#define SM_FRAMES_MAX_FRAME_BYTES (1ULL << 30)

/* sm_frames_opts_parse() results besides 0 and SM_EXIT_USAGE. */
#define SM_FRAMES_OPTS_HELP (-1)   /* print the usage, exit 0 */
#define SM_FRAMES_OPTS_LIST (-2)   /* --list-formats: print them, exit 0 */
#define SM_FRAMES_OPTS_OPTIONS (-3)   /* --list-options: sm_frames_opts_list(), exit 0 */

/* The head of frametest's help, and the note on the paced check that ends
 * the help of `stormark frames`; the option lines between come from the
 * option table (sm_frames_opts_usage()). */
extern const char sm_frames_ft_usage[];
extern const char sm_frames_long_usage[];

/* Options as given, and the plan they resolve into. prog and hint point
 * to static strings; plan.path, plan.csv_path, plan.engine, json, format,
 * notice and the strings of out point into argv or static storage (argv
 * must outlive the struct). */
struct sm_frames_opts {
	const char *prog;         /* "frametest" or "stormark frames" */
	const char *hint;         /* where help is, for usage errors */
	char format_help[256];    /* --format's help, from the render table */
	struct sm_frames_plan plan;
	int w_set, e_set, r_set;  /* -w / -e / -r given (one test at most) */
	int v_set, m_set;         /* -v / -m given (one order at most) */
	uint64_t w_kib, z_kib;    /* -w and -z in KiB (0: not given) */
	int n_set, q_set;         /* -n / -q given */
	int b_set, c_set;         /* -b / -c given */
	const char *json;         /* --json FILE ("-": stdout), NULL: none */
	const char *format;       /* the video format: --video-format NAME (or the old
				   * --format NAME), NULL: none */
	struct sm_out_opts out;   /* --format LAYOUT, --output, --quiet; resolved */
	struct sm_save_opts save; /* --save KEY, --db PATH */
	const char *notice;       /* for stderr: the old --format spelling was used */
	int capture, play;
	int force;                /* --force: a file system's root may be the target */
	struct sm_uring_opts uring;   /* --sqpoll, --iopoll */
	int help;                 /* --help / --list-formats seen (parse stops there) */
	char params[512];         /* "Test parameters", see sm_frames_opts_params() */
};

/*
 * Reset *o and parse argv (argv[0] is the program name) into it: frametest's
 * short options only when compat is set, the long ones too otherwise; then
 * resolve the plan (preset sizes, --video-format, paced defaults) and the
 * output flags. Can be called again in the same process. Returns 0 (with
 * o->notice set when the caller should print it);
 * SM_EXIT_USAGE after printing one error line to stderr;
 * SM_FRAMES_OPTS_HELP for --help (or frametest with no arguments);
 * SM_FRAMES_OPTS_LIST for --list-formats. Prints nothing else.
 */
int sm_frames_opts_parse(int argc, char **argv, int compat, struct sm_frames_opts *o);

/*
 * Print the help to f: frametest's (short options only) when compat is
 * set, else that of `stormark frames`; the option lines come from the same
 * table sm_frames_opts_parse() reads.
 */
void sm_frames_opts_usage(FILE *f, int compat);

/* The options of that table, one a line (sm_opt_list()), for shell
 * completion (--list-options); the same under the frametest name, which
 * takes every long option too. */
void sm_frames_opts_list(FILE *f);

/*
 * Checks that need no test files: the engine name and the CSV file's
 * directory (the buffers' memory is checked by cmd/frames.c with
 * sm_check_memory()). Call after sm_frames_check(), which finds a read
 * test's frame size. Returns 0, or SM_EXIT_USAGE after printing one
 * error line to stderr.
 */
int sm_frames_opts_validate(struct sm_frames_opts *o);

/*
 * Fill o->params with frametest's "Test parameters" text: the options in
 * attached form and a fixed order, presets resolved to KiB, the display
 * options (-u -h -x) left out, e.g. "-w12512 -n9000 -t4".
 */
void sm_frames_opts_params(struct sm_frames_opts *o);

#endif
