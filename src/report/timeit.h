/* SPDX-License-Identifier: MIT */
/* Reports of `stormark time`: native text, timeit layout, CSV and JSON,
 * all pure functions of struct sm_time_result (result/timefig.h). */
#ifndef SM_TIMEIT_H
#define SM_TIMEIT_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "core/diskstats.h"
#include "result/result.h"
#include "result/timefig.h"

/* The native report: figures of one run, or a statistics table for many;
 * the system-wide device figures apart and labelled; then hints. */
void sm_time_print_text(FILE *f, const struct sm_time_result *r);

/* timeit's layout and field names (mean values when there are many runs):
 * the block holds only timeit's fields, each with a figure that was
 * measured (a field that was not is left out); after a blank line,
 * stormark's section, every line starting with '#': the fields left out
 * and why, the number of runs, the hints. */
void sm_time_print_timeit(FILE *f, const struct sm_time_result *r);

/* One CSV row per run: run,exit_code,signal,<figure keys>; a figure that
 * was not measured is an empty cell. */
void sm_time_print_csv(FILE *f, const struct sm_time_result *r);

/* The JSON document: the common head (r->head), "params" and "time" (see
 * docs/time.md); caller owns it (cJSON_Delete). NULL on ENOMEM. */
cJSON *sm_time_json(const struct sm_time_result *r);

/* Why figure f was not measured, in words ("disabled with --no-syscalls"). */
const char *sm_time_missing_reason(const struct sm_time_result *r, enum sm_tf f);

/* timeit's duration format, H:MM:SS.mmm ("0:01:38.559"), into buf. */
char *sm_fmt_timeit_duration(char *buf, size_t len, double ns);

/* A figure's value in its unit for people ("1.25 ms", "12.0 MiB"). */
char *sm_tf_format(char *buf, size_t len, enum sm_tf f, double v);

#endif
