/* SPDX-License-Identifier: MIT */
/* --live for a command: the JSON lines (core/live.h) and, when the report
 * is metrics (--format prometheus or openmetrics) going to a file with
 * -o FILE, that file rewritten whole with each line, so that a collector
 * reading it while the run goes on always finds a whole, current file;
 * the report replaces it at the end (docs/options.md, "Watching a run"). */
#ifndef SM_CMD_LIVE_OUT_H
#define SM_CMD_LIVE_OUT_H

#include "args/out_opts.h"
#include "core/live.h"
#include "core/outfile.h"

struct cJSON;

struct sm_live_out {
	struct sm_live live;     /* the lines: what the workload's plan points to */
	struct cJSON *base;      /* the metrics file's document less its line; NULL: no file */
	const char *path;        /* -o FILE */
	int prometheus;          /* the text format 0.0.4, else OpenMetrics */
	int failed;              /* a rewrite failed: said once, no more */
	struct sm_outfile of;
};

/* Open out->live for command (its name in the results: "frames") run
 * with argv over the directory dir, and the metrics file when out's
 * layout and -o ask for one (a FIFO or /dev/null is left to the report).
 * Returns 0 or the -errno of the lines' file. */
int sm_live_out_open(struct sm_live_out *lo, const struct sm_out_opts *out, const char *command,
		     const char *dir, int argc, char **argv);
void sm_live_out_close(struct sm_live_out *lo);

#endif
