/* SPDX-License-Identifier: MIT */
/* What `stormark history` prints of a saved result: a figure's cell and a
 * key's headline (docs/history.md). */
#ifndef SM_REPORT_HISTORY_H
#define SM_REPORT_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare.h"   /* enum sm_cmp_unit */

struct cJSON;

/* The figure name of run (analysis/compare.h) as text into buf, its
 * verdict's word for a verdict; "-" when run is NULL or lacks it. Returns
 * buf or a constant. */
const char *sm_history_cell(char *buf, size_t len, const struct sm_cmp_run *run, const char *name);

/* CSV cells are numbers, their unit in the column's header (docs/history.md):
 * a figure of unit u is given in the unit sm_history_csv_unit(u) names
 * ("MiB/s", "/s", "ms", "bytes", "%", "" for a count), by
 * sm_history_csv_num(). */
const char *sm_history_csv_unit(enum sm_cmp_unit u);

/* v (in u's own unit: ns, bytes per second, ...) as a plain decimal in the
 * CSV's unit, into buf: no unit, no thousands separator, no exponent, the
 * trailing zeros of its fraction dropped (755.2, 12, 0.0415). Returns buf. */
char *sm_history_csv_num(char *buf, size_t len, enum sm_cmp_unit u, double v);

/* The figure name of run as a CSV cell: its number (sm_history_csv_num),
 * its verdict's word for a verdict, "" when run is NULL or lacks it. */
const char *sm_history_csv_cell(char *buf, size_t len, const struct sm_cmp_run *run,
				const char *name);

/* A plain decimal of v with at most decimals digits after the point, the
 * trailing zeros dropped, into buf. Returns buf. */
char *sm_history_plain(char *buf, size_t len, double v, int decimals);

/* The headline of doc, a saved result of command, into buf: frames' frame
 * and data rates, fileio's data rate and IOPS, run's directory; "-" when
 * its figures cannot be read. */
void sm_history_headline(const struct cJSON *doc, const char *command, char *buf, size_t len);

/* The trend page of one history key (`history KEY --html FILE`,
 * report/history_html.c): the key, each headline figure run by run (a
 * point per run, the mean and a +/- sd band), the first runs against the
 * last by compare's Welch test, and the run table. */
struct sm_trend;
struct sm_cmp;
struct sm_history_run {
	long long id;           /* the database's run or result id */
	const char *saved_at;   /* ISO 8601 UTC */
	const char *note;       /* "" or what the run table says of it: "interrupted", "exit 1" */
};
struct sm_history_trend {
	const char *db, *key;
	const char *timed;      /* time: the newest run's timed command; NULL otherwise */
	const struct sm_trend *t;
	const struct sm_history_run *runs;   /* t->nruns, oldest first */
	unsigned k;             /* runs a side compared: the first k and the last k */
	const struct sm_cmp *cmp;   /* NULL: no comparison; why says why */
	const char *why;
	int argc;               /* the command line as given (argv[0] "history") */
	char **argv;
};
void sm_history_print_trend(FILE *f, const struct sm_history_trend *p);

#endif
