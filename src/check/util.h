/* SPDX-License-Identifier: MIT */
/* The checker's shared helpers (util.c), which every body's checks use and
 * which call nothing of check/ but the registry (inv.c): tolerant readers
 * of a document's figures (a missing or non-numeric figure is "not there",
 * never a failure), comparisons that count themselves and record a
 * violation with both figures, the printed-number reader of the layout
 * checks and their helpers. Not for use outside src/check/. */
#ifndef SM_CHECK_UTIL_H
#define SM_CHECK_UTIL_H

#include <stdint.h>

#include "check/check.h"

/* ---- reading the document ---- */

/* The member at a dotted path ("ops.read.count"; a component that is a
 * number indexes an array: "streams.0.steps"), or NULL. */
const cJSON *ck_at(const cJSON *o, const char *path);
/* 1 with *v when the member at path is a number, else 0. */
int ck_num(const cJSON *o, const char *path, double *v);
/* 1 with *v (0 or 1) when the member at path is a boolean, else 0. */
int ck_bool(const cJSON *o, const char *path, int *v);
/* The string at path, or NULL. */
const char *ck_str(const cJSON *o, const char *path);
/* x as a whole number from 0 to below 2^64 in *v: 1, else 0 (no cast
 * of a double out of range). */
int ck_u64(double x, uint64_t *v);
/* The sum of the numbers of array a (non-numbers count as 0) into *sum
 * and how many there are; 0 when a is not an array. */
int ck_sum(const cJSON *a, double *sum, unsigned *n);

/* ---- comparisons: each counts one evaluation and, when it fails,
 * records "A is a, B is b" under id (names are the figures' paths) ---- */

/* a == b, exactly (counts, bytes, nanoseconds). Returns 1 when they agree. */
int ck_eq(struct sm_check *c, const char *id, const char *an, double a, const char *bn, double b);
/* a <= b. */
int ck_le(struct sm_check *c, const char *id, const char *an, double a, const char *bn, double b);
/* a and b within a relative rel of each other (or both within 1e-9). */
int ck_near(struct sm_check *c, const char *id, const char *an, double a, const char *bn,
	    double b, double rel);
/* A rate: got is n per second over ns nanoseconds (0 when ns is 0), as
 * n / (ns / 1e9) within a relative 1e-9 (rates are computed in doubles,
 * in any order). */
int ck_rate(struct sm_check *c, const char *id, const char *gn, double got, const char *nn,
	    double n, const char *dn, double ns);

/* n per second over ns (0 over no time), as every rate of the project. */
double ck_per_s(double n, double ns);
/* A number for a message: the shortest form that reads back the same. */
const char *ck_fmt(char *buf, size_t len, double v);

/* ---- printed figures ---- */

/* A figure as a layout printed it: its value in the base unit (ns,
 * bytes, bytes/s, or as printed without a unit) and half a unit of its
 * last printed digit in that base unit (how far rounding may have moved
 * it). */
struct ck_shown {
	double v;
	double half;
	int absent;               /* printed as "-" or "n/a": no figure */
	int unit;                 /* a unit was read with it */
	char text[48];            /* as printed, for messages */
};

/* The figures of one line (up to its newline), in order, into s[0..max):
 * a number (sign, digits, point: no exponent) with an optional unit
 * attached or after one blank (ns, us, ms, s, secs, B, KiB, MiB, GiB,
 * TiB, KB, MB, the same per second, bytes, bytes/s, fps, %, /s) scaled to
 * the base unit; "-" and "n/a" give an absent entry. Words (labels, "4k",
 * "p99.9", dates) are skipped; tokens are split at blanks and | ( ) , ; =
 * [ ] * !, a row of dots is skipped. Returns how many. */
unsigned ck_numbers(const char *line, struct ck_shown *s, unsigned max);

/* ck_numbers over line and the lines after it that begin with a blank
 * (a sentence wrapped at 79 columns, its continuation lines indented). */
unsigned ck_numbers_wrapped(const char *line, struct ck_shown *s, unsigned max);

/* The start of the first line of text, from `from` on (text when NULL; a
 * from inside a line starts at the next), that begins with label after
 * blanks and a markdown `|`; the returned pointer is just after the label.
 * NULL when there is none. */
const char *ck_line(const char *text, const char *from, const char *label);

/* The CSV line of text whose first nkeys fields are keys[], or NULL. */
const char *ck_csv_row(const char *text, const char *const *keys, unsigned nkeys);
/* The field of row under header text's first line column col into *s:
 * 1, 0 when the field is empty, -1 when there is no such column or the
 * field is no number. */
int ck_csv_get(const char *text, const char *row, const char *col, struct ck_shown *s);

/* The text of that field into buf (len bytes): 1, or 0 when there is no
 * such row or column. */
int ck_csv_str(const char *text, const char *row, const char *col, char *buf, size_t len);

/* A printed figure agrees with exact when |shown - exact| is within half
 * a unit of its last digit (plus a relative 1e-9: the reporter may compute
 * it in another order). Records "WHERE shows X, JN is EXACT" on failure.
 * Returns 1 when it agrees. */
int ck_shown_eq(struct sm_check *c, const char *id, const char *where, const struct ck_shown *s,
		const char *jn, double exact);

/* ---- the layout checks' helpers ---- */

/* One layout being checked. */
struct ck_lay {
	const cJSON *doc;
	const char *text;
	const char *layout;       /* its name, for messages */
	const char *id;           /* the invariant its figures break */
	struct sm_check *c;
};

/* The figures of the line labelled label (searched from `from`, the
 * whole text when NULL) into s[0..max); *at (when not NULL) the label's
 * place. Returns how many, or -1 when there is no such line: with must
 * set, that is a "layout.line" violation naming it. */
int ck_lay_nums(struct ck_lay *L, const char *from, const char *label, int must,
		struct ck_shown *s, unsigned max, const char **at);
/* s against the document's number at path times scale; nothing when s is
 * absent or the path holds no number. */
void ck_lay_path(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *path,
		 double scale);
/* s against v (what: how the document gives it). */
void ck_lay_val(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *what,
		double v);
/* Two printed figures that are one value agree within both roundings. */
void ck_lay_same(struct ck_lay *L, const char *id, const char *an, const struct ck_shown *a,
		 const char *bn, const struct ck_shown *b);

/* Six printed latency figures (mean, p50, p95, p99, p99.9, max) against
 * the latency object at lat. */
void ck_lay_latrow(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *lat);

#endif
