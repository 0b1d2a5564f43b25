/* SPDX-License-Identifier: MIT */
/* Markdown renderings of results (GitHub-flavoured tables), for pasting a
 * run into a ticket or a wiki page. Pure functions of the result; they
 * compute no figure the text layouts do not. */
#ifndef SM_REPORT_MARKDOWN_H
#define SM_REPORT_MARKDOWN_H

#include <stdio.h>

#include "result/fileio.h"
#include "result/frames.h"
#include "result/run.h"
#include "result/timefig.h"

/* `stormark time`: the command, one run's figures or the statistics table,
 * the system-wide device figures apart, the hints. */
void sm_md_time(FILE *f, const struct sm_time_result *r);

/* `stormark run`: what was measured, the classic and frame tables, the
 * verdict table, warnings and the summary (res analysed: sm_run_analyse). */
void sm_md_run(FILE *f, const struct sm_run_result *res);

/* `stormark fileio run`: the plan, the per-operation table, warnings. */
void sm_md_fileio(FILE *f, const struct sm_fileio_result *r);

/* `stormark frames`: what was run and where, the totals, the per-operation
 * table (open, read/write, close, frame; paced: frame time from schedule,
 * late and early frames), the verdict of --video-format (judged by
 * analysis/paced.h, as the frametest layout's verdict line), the --verify
 * counts, warnings and the error that ended the run (r analysed:
 * sm_frames_analyse). */
void sm_md_frames(FILE *f, const struct sm_frames_result *r);

#endif
