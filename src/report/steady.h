/* SPDX-License-Identifier: MIT */
/* The --steady and --precondition parts of a report, in words (text and
 * markdown) and as JSON; pure functions of the result. */
#ifndef SM_REPORT_STEADY_H
#define SM_REPORT_STEADY_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/steady.h"

/* Lines saying what --precondition wrote and whether and when steady
 * state was reached, the window reported and each round's figure; nothing
 * when neither is on. md: markdown (a section) instead of plain text. */
void sm_steady_text(FILE *f, const struct sm_steady *s, const struct sm_precond *p, int md);

/* A short account of s into buf: "steady at round 7 (rounds 3-7: 41.02
 * MiB/s, range 3.1%, excursion 1.2%)" or "NOT steady in 25 rounds (the
 * last 5: ...)"; "" when s->on is 0. */
void sm_steady_brief(char *buf, size_t len, const struct sm_steady *s);

/* The progress line of round n (1-based) of s as it ends, "stormark:
 * steady round 3/25: 812.4 IOPS; last 5: range ..." with its newline. */
void sm_steady_round_line(FILE *f, unsigned n, const struct sm_steady *s);

/* The --precondition line alone ("precondition: ..."), md: as a list
 * item; nothing when p->on is 0. */
void sm_precond_text(FILE *f, const struct sm_precond *p, int md);

/* {"metric","round_ns","max_rounds","rule":{...},"rounds":[{"figure",
 * "duration_ns"}...],"reached","reached_at_round","window":{...}} and
 * {"block_bytes","target_bytes","bytes","duration_ns","bytes_per_s"}
 * (docs/json-schema.md). Owned by the caller; NULL when out of memory. */
cJSON *sm_steady_json(const struct sm_steady *s);
cJSON *sm_precond_json(const struct sm_precond *p);

#endif
