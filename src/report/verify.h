/* SPDX-License-Identifier: MIT */
/* The --validate / --verify part of a report: what was sealed and checked,
 * what the hashing cost, and the problems found, in text and JSON. */
#ifndef SM_REPORT_VERIFY_H
#define SM_REPORT_VERIFY_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "core/verify.h"

/* Names file `file` (test_file.N, a frame) into buf for the problem lines. */
typedef void (*sm_verify_namer)(unsigned file, char *buf, size_t len, const void *arg);

/* What the report says about one verifying run. */
struct sm_verify_view {
	const char *option;        /* "--verify" or "--validate" */
	uint64_t run_id;
	uint64_t block;            /* bytes per block checked */
	uint64_t threads;          /* threads that hashed (for the share of their time) */
	uint64_t duration_ns;      /* of the test, for that share */
	const struct sm_verify_stats *st;
	sm_verify_namer name;
	const void *name_arg;
};

/* The text block: one summary line, one cost line, one line per problem
 * kept ("  problem: 'F' offset O: ..."), and how many more were found. */
void sm_verify_text(FILE *f, const struct sm_verify_view *v);

/* The "verify" object of a --json document (keys in docs/json-schema.md).
 * Returns a tree owned by the caller, or NULL when out of memory. */
cJSON *sm_verify_json(const struct sm_verify_view *v);

#endif
