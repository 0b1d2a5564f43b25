/* SPDX-License-Identifier: MIT */
/* Reports of `stormark time`: native text, timeit layout, CSV and JSON,
 * all pure functions of struct sm_time_report. */
#ifndef SM_TIMEIT_H
#define SM_TIMEIT_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <cjson/cJSON.h>

#include "core/diskstats.h"
#include "result/result.h"
#include "result/timefig.h"

/* Everything a `time` report shows. */
struct sm_time_report {
	int cmd_argc;
	char **cmd_argv;            /* the timed command, as given */
	int shell;                  /* run through sh -c */
	const char *prepare;        /* --prepare command or NULL */
	unsigned warmup, runs_requested;
	const struct sm_time_run *runs;
	unsigned nruns;             /* measured runs (may be fewer if one failed) */
	char syscalls_why[200];     /* why syscalls are missing, "" if counted */
	char flush_why[200];        /* why flush calls are missing */
	int disk_ok;
	struct sm_diskdev disk;
	char disk_why[160];
	struct sm_env env;
	struct sm_warnings warn;
	time_t exit_time;           /* when the last run ended (timeit's Exit Time) */
	char started_at[32];        /* ISO 8601 UTC, when stormark started */
	uint64_t duration_ns;       /* whole invocation, warm-up included */
};

/* The native report: figures of one run, or a statistics table for many;
 * the system-wide device figures apart and labelled; then hints. */
void sm_time_print_text(FILE *f, const struct sm_time_report *r);

/* timeit's layout and field names (mean values when there are many runs). */
void sm_time_print_timeit(FILE *f, const struct sm_time_report *r);

/* One CSV row per run: run,exit_code,signal,<figure keys>; a figure that
 * was not measured is an empty cell. */
void sm_time_print_csv(FILE *f, const struct sm_time_report *r);

/* The JSON document (see docs/time.md); caller owns it (cJSON_Delete).
 * argc/argv are stormark's own, for the "argv" member. NULL on ENOMEM. */
cJSON *sm_time_json(const struct sm_time_report *r, int argc, char **argv);

/* timeit's duration format, H:MM:SS.mmm ("0:01:38.559"), into buf. */
char *sm_fmt_timeit_duration(char *buf, size_t len, double ns);

/* A figure's value in its unit for people ("1.25 ms", "12.0 MiB"). */
char *sm_tf_format(char *buf, size_t len, enum sm_tf f, double v);

#endif
