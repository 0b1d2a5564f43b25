/* SPDX-License-Identifier: MIT */
/* The checks of each result body, one file each (frames.c, fileio.c,
 * time.c, run.c, streams.c, meta.c, mpi.c; head.c for what every result
 * carries) and of its text layouts (frames_layout.c, ...): what check.c
 * dispatches to by command. A body's checks use util.h and may use a
 * body's file below them (run.c the summary reader of run_layout.c), never
 * check.c. Not for use outside src/check/. */
#ifndef SM_CHECK_BODY_H
#define SM_CHECK_BODY_H

#include "check/util.h"

/* ---- a document's own figures ---- */

/* Every result: each latency object (min, mean, max, stddev, percentiles:
 * its histogram's) and operation entry, recursively but not into embedded
 * rank results; totals' rates; the `verify` object (head.c). */
void ck_head(const cJSON *doc, struct sm_check *c);
void ck_frames(const cJSON *doc, struct sm_check *c);
void ck_fileio(const cJSON *doc, struct sm_check *c);
void ck_time(const cJSON *doc, struct sm_check *c);
void ck_run(const cJSON *doc, struct sm_check *c);
void ck_streams(const cJSON *doc, struct sm_check *c);
void ck_meta(const cJSON *doc, struct sm_check *c);
void ck_run_meta(const cJSON *doc, struct sm_check *c);
void ck_mpi(const cJSON *doc, struct sm_check *c);

/* ---- a layout's text against its document ---- */

/* The words of a run summary (text, as printed or in run.summary) against
 * the verdict cells they name; where says whose (run_layout.c). */
void ck_run_summary(const cJSON *doc, const char *where, const char *text, struct sm_check *c);

void ck_lay_frames(struct ck_lay *L);
void ck_lay_fileio(struct ck_lay *L);
void ck_lay_time(struct ck_lay *L);
void ck_lay_run(struct ck_lay *L);
void ck_lay_streams(struct ck_lay *L);
void ck_lay_meta(struct ck_lay *L);
/* The host and rank table an MPI job's text layouts end with. */
void ck_lay_mpi(struct ck_lay *L);

#endif
