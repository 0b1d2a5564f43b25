/* SPDX-License-Identifier: MIT */
/* The words of run's verdict table, one set for every layout: each cell's
 * mark, what each mark means (the legend, the HTML's tooltips and the
 * Summary use the same words for the same class), and the note on the
 * paced runs under the table (docs/run.md). */
#ifndef SM_REPORT_VERDICT_WORDS_H
#define SM_REPORT_VERDICT_WORDS_H

#include <stddef.h>

#include "result/run.h"
#include "result/verdict.h"

/* A cell's mark: "yes", "~" or "no" (its final class), then "*" when a
 * paced run decided it (how = paced) and "!" when a cliff downgraded it:
 * "~*", "no*!". Returns buf. */
char *sm_report_verdict_mark(char *buf, size_t len, const struct sm_verdict_cell *c);

/* What a cell's mark means, in the legend's words: "real time with at
 * least 20% headroom", "held with little headroom", ... (a static
 * string). */
const char *sm_report_verdict_meaning(const struct sm_verdict_cell *c);

/* The legend of res's table, one paragraph without a trailing newline:
 * the "?" and "#" marks only when the table has such cells (needs
 * res->derived). */
char *sm_report_verdict_legend(char *buf, size_t len, const struct sm_run_result *res);

/*
 * The note on the paced runs under the table, one paragraph: how many
 * runs and cells, their length in seconds and frames ("too short to say
 * much" when the longest is under SM_RUN_PACED_LONG_NS), the cells a run
 * held that stay "no", and the near-limit verdicts left as computed.
 * Empty ("") when no run was made and none was due. Needs res->derived.
 * Returns buf.
 */
char *sm_report_paced_note(char *buf, size_t len, const struct sm_run_result *res);

/* A cell's paced run in words for the HTML's tooltip and the markdown:
 * "a paced run of 2.1 s (51 frames at 24 fps): 51 of 51 frames moved, 0
 * dropped, p99.9 from schedule 12.0 ms (held)"; "" when it has none.
 * Returns buf. */
char *sm_report_paced_words(char *buf, size_t len, const struct sm_verdict_cell *c);

#endif
