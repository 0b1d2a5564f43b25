/* SPDX-License-Identifier: MIT */
/* `stormark streams` reports: text, markdown and the JSON body. Pure
 * functions of a result judged by analysis/streams.c. */
#ifndef SM_REPORT_STREAMS_H
#define SM_REPORT_STREAMS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "result/streams.h"

/* What was run, the table formats x frame rates -> streams held (capture
 * and playback), then each cell's detail: rate per stream, chunk, raw and
 * headroom answers, aggregate rate, each stream's drops at N and at N+1. */
void sm_streams_text(FILE *f, const struct sm_streams_result *res);

/* The same as GitHub-flavoured markdown tables. */
void sm_md_streams(FILE *f, const struct sm_streams_result *res);

/* Add "params", "streams" (the body) and the end of the head to a
 * document begun with sm_json_doc_new(); docs/json-schema.md. */
void sm_json_streams(cJSON *doc, const struct sm_streams_result *res);

/* The mix of a `streams --mix` result (nothing without one): per group
 * held or not, drops, p99.9 from schedule, the rate moved and needed,
 * then the total and whether the mix holds; as a markdown table (md 1)
 * or text. */
void sm_streams_mix_report(FILE *f, const struct sm_streams_result *res, int md);

/* The csv of a result with a mix (sm_csv_streams gives it): kind (group,
 * total, more), group, format, fps, direction, streams, held, dropped,
 * p99_9_sched_ns, bytes_per_s, needed_bytes_per_s, streams_headroom; a
 * "more" row per searched format: how many more streams held beside the
 * mix (streams) and with headroom, the step at that answer's figures. */
void sm_csv_streams_mix(FILE *f, const struct sm_streams_result *res);

/* A cell's answer as every layout writes it (no trailing newline): "4 (3)",
 * ">=64 (>=53)" (the search held at --max-streams: both are lower bounds),
 * ">=64 (12!)" and "4 (2!)" (the sustained confirmation lowered it: the
 * headroom answer is then what lasted), "2 (1)?" (the search did not
 * finish), "0 (0)", "not measured" (no step judged: a fault, the budget, no
 * room; the cell's note says why). Returns buf. */
char *sm_report_streams_answer(char *buf, size_t len, const struct sm_streams_cell *c);
/* ... and "2 to 3 (2)" when the answer moved between trials (max_high).
 * The trials of the boundary (docs/streams.md, "Trials"): "2 held 3/3; 3
 * failed 3/3"; "" for a cell without an answer. Returns buf. */
char *sm_report_streams_trials(char *buf, size_t len, const struct sm_streams_cell *c);

/* How a contradiction with a lower rate was settled (docs/streams.md,
 * "Consistent answers"), one sentence: "at most 2, as at 25 fps, which
 * failed 3: 3 held again here 3/3"; "" when there was none. Returns buf. */
char *sm_report_streams_consistency(char *buf, size_t len, const struct sm_streams_cell *c);

/* The step of n streams in cell c (the last one run with that n), or NULL. */
const struct sm_streams_step *sm_streams_step_at(const struct sm_streams_cell *c, unsigned n);

/* The text layout's width: every line of it fits a window of 80 columns. */
#define SM_STREAMS_TEXT_WIDTH 79

/* Write the text of fmt as one paragraph wrapped at word ends to
 * SM_STREAMS_TEXT_WIDTH columns, continuation lines indented by indent
 * blanks, and a newline. The blanks between words are kept where no line
 * breaks (a legend's columns); a figure is kept with the word after it (its
 * unit) and a word longer than a line stays whole. */
void sm_streams_wrapf(FILE *f, unsigned indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
