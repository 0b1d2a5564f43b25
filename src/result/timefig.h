/* SPDX-License-Identifier: MIT */
/* The result model of `stormark time`: one run's figures, and the result
 * of many runs with their statistics (derived by analysis/time.c). */
#ifndef SM_TIMEFIG_H
#define SM_TIMEFIG_H

#include <stdint.h>
#include <time.h>

#include "core/diskstats.h"
#include "core/proctree.h"
#include "result/result.h"

/* Every figure of a run; the order is the order of reports. */
enum sm_tf {
	SM_TF_WALL_NS,
	SM_TF_USER_NS,
	SM_TF_SYS_NS,
	SM_TF_CPU_PCT,
	SM_TF_MAX_RSS_BYTES,
	SM_TF_MINOR_FAULTS,
	SM_TF_MAJOR_FAULTS,
	SM_TF_VOL_CTXSW,
	SM_TF_INVOL_CTXSW,
	SM_TF_SYSCALLS,
	SM_TF_FLUSH_CALLS,
	SM_TF_READ_CALLS,
	SM_TF_WRITE_CALLS,
	SM_TF_READ_BYTES,
	SM_TF_WRITE_BYTES,
	SM_TF_READ_BYTES_PER_CALL,
	SM_TF_WRITE_BYTES_PER_CALL,
	SM_TF_STORAGE_READ_BYTES,
	SM_TF_STORAGE_WRITE_BYTES,
	SM_TF_CANCELLED_WRITE_BYTES,
	SM_TF_STORAGE_READ_BPS,
	SM_TF_STORAGE_WRITE_BPS,
	SM_TF_PROCESSES,
	SM_TF_DISK_READ_IOS,       /* system-wide from here on */
	SM_TF_DISK_READ_BYTES,
	SM_TF_DISK_WRITE_IOS,
	SM_TF_DISK_WRITE_BYTES,
	SM_TF_DISK_FLUSHES,
	SM_TF_DISK_BUSY_MS,
	SM_TF_COUNT
};

/* How a figure is shown. */
enum sm_tf_unit { SM_TFU_NS, SM_TFU_PCT, SM_TFU_BYTES, SM_TFU_COUNT, SM_TFU_BPS, SM_TFU_MS };

struct sm_tf_desc {
	const char *key;        /* JSON, CSV and database name */
	const char *label;      /* text report */
	enum sm_tf_unit unit;
	int system_wide;        /* 1 for the /proc/diskstats figures */
	const char *brief;      /* the label in the table of several runs,
				 * at most 22 columns; NULL: label is */
};

/* The descriptor table, SM_TF_COUNT entries indexed by enum sm_tf. */
extern const struct sm_tf_desc sm_tf_desc[SM_TF_COUNT];

/* The label of figure f in the table of several runs (its brief, or its
 * label when that is short enough). */
const char *sm_tf_brief(int f);

/* Index of the figure named key, or -1. */
int sm_tf_find(const char *key);

/* One measured run. Invariant: a figure whose bit is set in missing was
 * not measured, and its value is 0 and must not be shown as a number. */
struct sm_time_run {
	double v[SM_TF_COUNT];
	uint64_t missing;          /* bit (1 << enum sm_tf) */
	int exit_code;             /* the command's status, 128 + signal if killed */
	int term_signal;           /* 0 unless killed by a signal */
};

#define SM_TF_BIT(f) (UINT64_C(1) << (f))
#define SM_NO_COUNT UINT64_MAX

/*
 * Fill run from the tree totals, the wall time, the perf counts (SM_NO_COUNT
 * when not counted) and the system-wide disk delta (NULL when there is no
 * block device). wait_status is the main command's wait status.
 */
void sm_time_run_fill(struct sm_time_run *run, const struct sm_proc_totals *t,
		      uint64_t wall_ns, uint64_t syscalls, uint64_t flush_calls,
		      const struct sm_diskstat *disk, int wait_status);

/* Summary of one figure over the runs where it was measured (n of them). */
struct sm_tf_stat {
	unsigned n;
	double mean, stddev, median, min, max;
};

/* Everything a `time` report shows. Filled by workload/time.c from its
 * runs, or by the JSON reader (then owned is 1 and sm_time_result_release() frees
 * cmd_argv, prepare and runs). */
struct sm_time_result {
	struct sm_result_head head; /* duration_ns: the whole invocation, warm-up
				     * included; started_at: when stormark started */
	int cmd_argc;
	char **cmd_argv;            /* the timed command, as given */
	int shell;                  /* run through sh -c */
	const char *prepare;        /* --prepare command or NULL */
	unsigned warmup, runs_requested;
	const struct sm_time_run *runs;
	unsigned nruns;             /* measured runs (may be fewer if one failed) */
	char syscalls_why[200];     /* why syscalls are missing, "" if counted */
	char flush_why[200];        /* why flush calls are missing */
	char rss_why[200];          /* why max RSS is missing (no launcher) */
	int disk_ok;
	struct sm_diskdev disk;
	char disk_why[160];
	time_t exit_time;           /* when the last run ended (timeit's Exit Time) */
	int owned;                  /* 1: cmd_argv, prepare, runs are allocated here */
	/* derived (sm_time_analyse, analysis/time.h), once, for every report:
	 * each figure over the runs that measured it */
	struct sm_tf_stat stat[SM_TF_COUNT];
};

/* Free what r owns when it was read back (owned); the head's argv too. */
void sm_time_result_release(struct sm_time_result *r);

#endif
