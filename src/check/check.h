/* SPDX-License-Identifier: MIT */
/* The consistency checker of one saved result: invariants that every
 * result of every command must keep within itself (series add up to the
 * totals, every rate is its count over its own duration, no share above
 * the whole, every verdict agrees with its ratio, its `how` and the
 * legend, merged MPI totals are the ranks' sums), and the figures each
 * text layout prints agree with the document's after their rounding.
 * Pure functions of the parsed JSON document and of rendered text: no I/O.
 * `stormark report --check` runs them (docs/report.md). */
#ifndef SM_CHECK_CHECK_H
#define SM_CHECK_CHECK_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* One invariant: a stable id ("fileio.series-sum") and what it says. */
struct sm_check_inv {
	const char *id;
	const char *what;
};

/* Every invariant the checker knows, in the order docs/report.md lists
 * them; sm_check_ninv of them. */
extern const struct sm_check_inv sm_check_invs[];
extern const unsigned sm_check_ninv;

/* The invariant with this id, or NULL. */
const struct sm_check_inv *sm_check_inv_find(const char *id);

/* One violation: the invariant's id and one line saying which figures
 * disagree and their values. */
#define SM_CHECK_MSG 320
struct sm_check_item {
	const char *id;
	char msg[SM_CHECK_MSG];
};

/* What a check found. Invariant: n <= SM_CHECK_MAX; past it only dropped
 * counts (a document that breaks everything says so once, not a million
 * times). */
#define SM_CHECK_MAX 200
struct sm_check {
	unsigned n;
	unsigned dropped;          /* violations past SM_CHECK_MAX, not kept */
	unsigned evaluated;        /* comparisons made (a figure against another) */
	char prefix[64];           /* put before each message (an MPI rank's own
				    * result: "rank 1's own result: "); "" by default */
	struct sm_check_item item[SM_CHECK_MAX];
};

/* Record a violation of invariant id (one of sm_check_invs; an unknown id
 * is recorded as "check.unknown-id" naming it). The message is one line:
 * control characters are replaced. Never fails. */
void sm_check_fail(struct sm_check *c, const char *id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Check the invariants of doc, a loaded result (sm_json_load()), within
 * the document itself: its command's figures, its latency objects, its
 * `verify`, and an MPI job's `mpi` against the ranks. A figure that is
 * missing or not a number is not compared (the reader and the JSON schema
 * judge completeness), so anything the reader accepts is checked without
 * failing. Adds what it finds to c; returns how many it added.
 */
unsigned sm_check_doc(const cJSON *doc, struct sm_check *c);

/*
 * Check text, doc rendered in layout ("frametest", "sysbench", "timeit",
 * "text", "markdown", "csv"), against doc: specific lines of each layout
 * are found by their labels and their figures compared with the
 * document's after the rounding they are printed with (a figure printed
 * with d decimals agrees when it is within half a unit of its last digit).
 * A line a layout does not print for this result is not looked for; one
 * it should print and does not is a violation. Adds what it finds to c;
 * returns how many it added.
 */
unsigned sm_check_layout(const cJSON *doc, const char *layout, const char *text,
			 struct sm_check *c);

/*
 * An MPI job's document against its --mpi-rank-detail file, read a line at
 * a time by the caller (invariant mpi.detail): start with the job's
 * document (-1 when it is no job's or out of memory), give each line's
 * parsed document, end once. Keeps sums and one bit per rank.
 */
struct sm_check_detail {
	unsigned ranks, lines, results;
	double bytes;
	unsigned char *seen;
};
int sm_check_detail_start(struct sm_check_detail *a, const cJSON *job);
void sm_check_detail_line(struct sm_check_detail *a, const cJSON *line, struct sm_check *c);
void sm_check_detail_end(struct sm_check_detail *a, const cJSON *job, struct sm_check *c);

#endif
