/* SPDX-License-Identifier: MIT */
/* stormark's own renderings of a fileio result: the native text report
 * (--format stormark) and the JSON document (--json). */
#ifndef SM_REPORT_FILEIO_H
#define SM_REPORT_FILEIO_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "report/sysbench.h"
#include "result/fileio.h"

/* Native text report: plan, per-operation table (count, rate, MiB/s,
 * mean, p50, p95, p99, p99.9, max), extra percentiles, fairness, warnings. */
void sm_fileio_text(FILE *f, const struct sm_fileio_result *r);

/* The --validate / --verify block (report/verify.h) of a run that
 * checked blocks; nothing otherwise. Every layout prints it after its own
 * report. */
void sm_fileio_verify_text(FILE *f, const struct sm_fileio_result *r);

/* The whole --json document for a run: the common head (r->head), "params"
 * (r->cfg and what the text shows of the command line), "totals", "ops"
 * and "fileio" (latencies with their histograms), "series" (every field of
 * each interval), "verify" after a --validate or --verify run, then "warnings" and "errors". Returns a cJSON tree owned by the
 * caller, or NULL when out of memory. */
cJSON *sm_fileio_json(const struct sm_fileio_result *r);

#endif
