/* SPDX-License-Identifier: MIT */
/* The sysbench 1.0.20 fileio text layout, line for line, so that scripts
 * written for sysbench parse stormark's output unchanged. Pure functions of
 * the plan and the result; they write to the FILE they are given. */
#ifndef SM_REPORT_SYSBENCH_H
#define SM_REPORT_SYSBENCH_H

#include <stdio.h>

#include "result/fileio.h"

/* The banner and the blank line after it. */
void sm_sb_banner(FILE *f);

/* sysbench 1.0.20's "fileio options:" list (what its `run` without
 * --file-test-mode shows) and the blank line after it. */
void sm_sb_fileio_options(FILE *f);

/* "4 files, 2048Kb each, 8Mb total" ... "Extra file open flags: (none)". */
void sm_sb_prepare_head(FILE *f, const struct sm_fileio_cfg *cfg);

/* "Creating file test_file.N" / "Extending existing ..." / "Reusing ...". */
void sm_sb_prepare_file(FILE *f, enum sm_fileio_fstate st, unsigned i);

/* "N bytes written in S seconds (R MiB/sec)." or "No bytes written.". */
void sm_sb_prepare_done(FILE *f, uint64_t written, uint64_t ns);

/* "Running the test with following options:" .. "Doing ... test"
 * (seed_given: the user chose --rand-seed). */
void sm_sb_run_head(FILE *f, const struct sm_fileio_cfg *cfg, int seed_given,
		    uint64_t seed_shown);

/* "Initializing worker threads..." .. "Threads started!" and a blank. */
void sm_sb_run_started(FILE *f);

/* One --report-interval line. */
void sm_sb_tick(FILE *f, const struct sm_fileio_tick *t, const struct sm_pct_list *pct);

/* "Latency histogram (values are in milliseconds)" and sysbench's table:
 * the event latencies re-binned into its 1024 log buckets (1 us .. 100 s). */
void sm_sb_histogram(FILE *f, const struct sm_hist *h);

/* The final report, "File operations:" .. "Threads fairness:". */
void sm_sb_report(FILE *f, const struct sm_fileio_result *r, const struct sm_pct_list *pct);

/* The notice beside the report of an async run (r->cfg.io_mode), one line
 * for stderr: sysbench 1.0.20 times each event's submission there (its
 * Latency block is that, 0.02 ms where the reads took 11.9 ms), so the
 * requests' own times are said beside it, at the first asked percentile
 * (95 without one). Nothing for another I/O mode. */
void sm_sb_async_note(FILE *f, const struct sm_fileio_result *r, const struct sm_pct_list *pct);

/* sysbench's size format ("1.0625Mi", "16Ki", "512") into buf. */
char *sm_sb_size(char *buf, size_t len, double v);

#endif
