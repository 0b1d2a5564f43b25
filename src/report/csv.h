/* SPDX-License-Identifier: MIT */
/* CSV renderings of results (one header line, then one row per figure
 * group; raw units: bytes, ns, per second), for spreadsheets and scripts.
 * `time` has its own (sm_time_print_csv, one row per run). */
#ifndef SM_REPORT_CSV_H
#define SM_REPORT_CSV_H

#include <stdio.h>

#include "result/fileio.h"
#include "result/run.h"

/* `stormark run`: kind,test,direction,fps,bytes_per_s,iops,p50_ns,p99_ns,
 * p99_9_ns,max_ns,needed_bytes_per_s,verdict,how; a row per classic test
 * and direction, per frame test, and per verdict cell. Empty cells where a
 * kind has no such figure. */
void sm_csv_run(FILE *f, const struct sm_run_result *res);

/* `stormark fileio run`: op,count,bytes,errors,count_per_s,bytes_per_s,
 * mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns,max_ns; a row per operation kind
 * and one for events. */
void sm_csv_fileio(FILE *f, const struct sm_fileio_result *r);

#endif
