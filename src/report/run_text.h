/* SPDX-License-Identifier: MIT */
/* Reporters of a `stormark run` result: the terminal text (80 columns,
 * section by section as the run goes), the plain-words summary, JSON.
 * They format what the result holds, including res->derived and the
 * classic tests' fig[] (filled by analysis/run.h: sm_run_analyse() and
 * sm_run_classic_figures()). */
#ifndef SM_REPORT_RUN_TEXT_H
#define SM_REPORT_RUN_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/run.h"

/* What is measured: file system, device, free space and RAM, direct I/O,
 * working set, time budget. */
void sm_run_text_header(FILE *f, const struct sm_run_result *res);

/* The classic figures table (rows measured so far). */
void sm_run_text_classic(FILE *f, const struct sm_run_result *res);

/* --steady and --precondition in words (each line begins with lead): what
 * the preconditioning wrote, and for each classic test whether and when it
 * steadied; nothing when neither was asked for. */
void sm_run_text_steady(FILE *f, const struct sm_run_result *res, const char *lead);

/* The frame tests table (sizes measured so far). */
void sm_run_text_frames(FILE *f, const struct sm_run_result *res);

/* run's metadata line into buf ("metadata (N files of B bytes, one
 * thread): stat .../s, ...: a sequence of F frames is listed in ..."), the
 * same words in every layout; "" when the run did not measure it. */
void sm_run_meta_words(char *buf, size_t len, const struct sm_run_result *res);

/* The verdict table; colour: 1 to colour the verdicts (terminal only). */
void sm_run_text_verdicts(FILE *f, const struct sm_run_result *res, int colour);

/* The sections the run reached from phase `from` on (enum sm_run_phase:
 * the live run prints the earlier ones as it goes), the warnings, the
 * summary and where kept test data is. */
void sm_run_text_rest(FILE *f, const struct sm_run_result *res, int colour, int from);

/* The whole report, as a live run prints it on its output. */
void sm_run_text(FILE *f, const struct sm_run_result *res, int colour);

/* The one-paragraph summary in plain words into buf (unwrapped). */
void sm_run_summary(const struct sm_run_result *res, char *buf, size_t len);

/* Print text wrapped at width columns, each line indented by indent. */
void sm_text_wrap(FILE *f, const char *text, unsigned width, unsigned indent);

/* "params", the "run" part and the end of the head ("warnings", "errors")
 * added to doc, a document from sm_json_doc_new(&res->head). */
void sm_json_run(cJSON *doc, const struct sm_run_result *res);

#endif
