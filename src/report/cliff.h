/* SPDX-License-Identifier: MIT */
/* A write rate's cliff in words, the same sentence in every layout that
 * says it (docs/cliff.md). */
#ifndef SM_REPORT_CLIFF_H
#define SM_REPORT_CLIFF_H

#include <stddef.h>

#include "result/cliff.h"
#include "result/run.h"

/*
 * One sentence, no trailing newline, into buf (truncated to len): found,
 * "the write rate fell from 200.0 MiB/s to 40.0 MiB/s (0.20 of it) at
 * 4.1 s, after 820.0 MiB written; the whole run's rate mixes the two";
 * looked and not found, "no cliff in the write rate over 12 s"; not
 * looked, "too short to look for a cliff: 5 whole seconds of writing, 8
 * needed". Returns buf.
 */
char *sm_report_cliff_words(char *buf, size_t len, const struct sm_cliff *c);

/*
 * The verdict table's footnote on what lasts, one sentence into buf: a
 * cliff in run's sustained write and how many capture cells it downgraded
 * ("! = downgraded by a cliff: ..."), no cliff over N s, or plainly that
 * the write was too short to look (with the --time that would be long
 * enough). Needs res->derived (sm_run_analyse()). Returns buf.
 */
char *sm_report_run_cliff_note(char *buf, size_t len, const struct sm_run_result *res);

#endif
