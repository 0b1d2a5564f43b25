/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s layouts: text, markdown, CSV and HTML, pure functions
 * of its result (rates from analysis/meta.c). docs/meta.md. */
#ifndef SM_REPORT_META_H
#define SM_REPORT_META_H

#include <stdio.h>

#include "result/meta.h"

/* The frames of the sequence the reports' estimate speaks of. */
#define SM_META_SEQUENCE_FRAMES 100000u

/* A line per phase: count, errors, ops/s, duration, p50, p99, p99.9,
 * max; then the sequence estimate, the outcome and the cleanup. */
void sm_meta_text(FILE *f, const struct sm_meta_result *r);

/* The same as a Markdown table with a heading. */
void sm_md_meta(FILE *f, const struct sm_meta_result *r);

/* phase,count,errors,bytes,duration_ns,per_s,mean_ns,p50_ns,p99_ns,
 * p99_9_ns,max_ns: a row per phase that ran. */
void sm_csv_meta(FILE *f, const struct sm_meta_result *r);

/* A page with the phases' table and a bar chart of their ops/s. */
void sm_html_meta(FILE *f, const struct sm_meta_result *r);

#endif
