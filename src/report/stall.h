/* SPDX-License-Identifier: MIT */
/* A test's stalls in words, the same sentence in every layout that says it
 * (docs/methodology.md, "Stalls"), and their spans on a rate chart. */
#ifndef SM_REPORT_STALL_H
#define SM_REPORT_STALL_H

#include <stddef.h>

#include "core/stall.h"

/*
 * One sentence, no trailing newline, into buf: with stalls past the
 * threshold, "completed nothing for 1.50 s at 4.4 s, the longest of 3
 * stalls longer than 391 ms (its buffers)"; without, "no stall longer than
 * 391 ms (the longest gap 20 ms)"; "" when not measured. Returns buf.
 */
char *sm_report_stall_words(char *buf, size_t len, const struct sm_stalls *s);

/* The kept gaps past the threshold as spans in seconds since the start:
 * from[i], to[i] (each array SM_STALL_KEEP long). Returns how many. */
unsigned sm_report_stall_spans(const struct sm_stalls *s, double *from, double *to);

struct sm_run_result;
/* run's classic (block) test i in direction w (1: write) with stalls past
 * its threshold (twice its median request, at least 100 ms), one
 * sentence: "stall: the block test seq 1 MiB QD8 write completed nothing
 * for ..."; "" otherwise. */
char *sm_report_run_classic_stall_line(char *buf, size_t len, const struct sm_run_result *res,
				       unsigned i, int w);

/* run's frame test i (res->sizes[i]) in direction d with its stalls past
 * its threshold, one sentence: "stall: the hd write completed nothing for
 * ..."; "" when it has none (or none was looked for). Returns buf. */
char *sm_report_run_stall_line(char *buf, size_t len, const struct sm_run_result *res,
			       unsigned i, int d);

#endif
