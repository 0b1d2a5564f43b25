/* SPDX-License-Identifier: MIT */
/* What `stormark history` prints of a saved result: a figure's cell and a
 * key's headline (docs/history.md). */
#ifndef SM_REPORT_HISTORY_H
#define SM_REPORT_HISTORY_H

#include <stddef.h>

struct cJSON;
struct sm_cmp_run;

/* The figure name of run (analysis/compare.h) as text into buf, its
 * verdict's word for a verdict; "-" when run is NULL or lacks it. Returns
 * buf or a constant. */
const char *sm_history_cell(char *buf, size_t len, const struct sm_cmp_run *run, const char *name);

/* The headline of doc, a saved result of command, into buf: frames' frame
 * and data rates, fileio's data rate and IOPS, run's directory; "-" when
 * its figures cannot be read. */
void sm_history_headline(const struct cJSON *doc, const char *command, char *buf, size_t len);

#endif
