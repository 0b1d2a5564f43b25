/* SPDX-License-Identifier: MIT */
/* Renderings of a comparison (analysis/compare.h): a text table, a
 * markdown table and JSON. Pure functions of the comparison. */
#ifndef SM_REPORT_COMPARE_H
#define SM_REPORT_COMPARE_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "analysis/compare.h"

/* What the two sides are: a file's path or a history key, as given. */
struct sm_cmp_names {
	const char *name[2];   /* A, B */
	int is_key[2];         /* 1: a history key, 0: a JSON file */
};

/* v in unit u for people ("1.25 ms", "212 MiB/s", "24.0/s"); returns buf. */
char *sm_cmp_fmt(char *buf, size_t len, enum sm_cmp_unit u, double v);

/* The unit's JSON name: ns, bytes_per_s, per_s, count, bytes, pct, ms, verdict. */
const char *sm_cmp_unit_name(enum sm_cmp_unit u);

/* A comparison row's cells as every layout of compare shows them (the
 * trend page of `history KEY --html` too): a side's mean (with "+- sd"
 * over several runs when sd is 1; its verdict for a verdict cell; "-"
 * when the side lacks the figure), B/A ("-": none; same or changed for a
 * verdict cell), Welch's p ("-": not tested, "no spread"), and the
 * judgement: better, worse, differs, n.s., or "" when not tested. */
const char *sm_cmp_side_cell(char *buf, size_t len, const struct sm_cmp_row *r, int b, int sd);
const char *sm_cmp_ratio_cell(char *buf, size_t len, const struct sm_cmp_row *r);
const char *sm_cmp_p_cell(char *buf, size_t len, const struct sm_cmp_row *r);
const char *sm_cmp_judge_cell(const struct sm_cmp_row *r);

void sm_cmp_print_text(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n);
void sm_cmp_print_md(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n);

/* The comparison as one self-contained HTML page (report/html_page.c's
 * style and charts): the two sides, the notes, A and B as two bars on the
 * same charts (throughput, rates, latency p50/p99/p99.9), the verdict
 * cells coloured, and the whole table. argv[0..argc) is compare's command
 * line as given (argv[0] "compare"), shown on the page. */
void sm_cmp_print_html(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n, int argc,
		       char **argv);

/* The comparison as a JSON document (docs/compare.md), or NULL without memory. */
cJSON *sm_cmp_json(const struct sm_cmp *c, const struct sm_cmp_names *n);

/* What compare hands to the emit step (cmd/emit.h), the result of its
 * render table sm_render_compare (report/render.h): the comparison, what
 * its sides are, and compare's command line as given (the HTML page shows
 * it; argv[0] "compare"). */
struct sm_cmp_result {
	struct sm_cmp c;
	struct sm_cmp_names names;
	int argc;
	char **argv;
};

#endif
