/* SPDX-License-Identifier: MIT */
/* Self-contained HTML reports (docs/report.md): one file with inline CSS
 * and inline SVG charts, no script and no external file, that opens
 * offline in any browser. Pure functions of an analysed result. */
#ifndef SM_REPORT_HTML_H
#define SM_REPORT_HTML_H

#include <stdio.h>

#include "result/fileio.h"
#include "result/frames.h"
#include "result/run.h"
#include "result/streams.h"
#include "result/timefig.h"

/* A mark on the rate chart of a frames or fileio report: the moment the
 * rate fell off a cliff (issue 13), when the result has one. */
struct sm_html_mark {
	int set;
	double t_s;                 /* seconds since the start of the timed run */
	char label[96];
};

/* The mark of cliff c (docs/cliff.md) on a rate chart, "cliff at 4.0 s:
 * 200 -> 40 MiB/s"; unset (m->set 0) when c found none. */
struct sm_cliff;
void sm_html_cliff_mark(struct sm_html_mark *m, const struct sm_cliff *c);

/* `frames` (r analysed: sm_frames_analyse): parameters, summary, the
 * per-second data and frame rates, the per-frame chart (frame time, and in
 * paced runs the time from schedule with dropped frames), the latency
 * histograms of open, read/write, close and frame, then for a many-host
 * job (dist analysed, else NULL) its hosts and ranks. mark may be NULL. */
struct sm_dist_result;
void sm_html_frames(FILE *f, const struct sm_frames_result *r, const struct sm_html_mark *mark,
		    const struct sm_dist_result *dist);

/* `fileio` (r analysed: sm_fileio_analyse): parameters, the operations
 * table, the per-interval rates (with --report-interval), the latency
 * histograms of read, write, fsync and event, then the hosts and ranks of
 * a many-host job (dist, or NULL). mark may be NULL. */
void sm_html_fileio(FILE *f, const struct sm_fileio_result *r, const struct sm_html_mark *mark,
		    const struct sm_dist_result *dist);

/* A many-host job's section (id "mpi"): the job line, first and last
 * done, aggregate and stonewall rates, a table per host and per rank
 * (tables "mpi-hosts" and "mpi-ranks") with stragglers and failures. */
void sm_html_dist(FILE *f, const struct sm_dist_result *d);

/* `run` (res analysed: sm_run_analyse): plan, classic figures with their
 * latency histograms, frame tests, each frame test's data rate per second
 * (the sustained 2K write first, its cliff marked), the verdict table
 * coloured yes / marginal / no with how each cell was decided, the
 * summary. */
void sm_html_run(FILE *f, const struct sm_run_result *res);

/* `time`: the command, each run's wall time and storage bytes (table and
 * charts), the statistics of the main figures. */
void sm_html_time(FILE *f, const struct sm_time_result *r);

/* `streams` (res as read or judged: analysis/streams.c): parameters, the
 * table formats x rates -> most streams held in capture and playback,
 * coloured by the answer, then per cell its figures, a chart of the search
 * (N streams: the aggregate rate the storage delivered against N x the
 * rate a stream needs, each step marked held or failed) and a chart of
 * each stream's drops at N (the most held) and N + 1. */
void sm_html_streams(FILE *f, const struct sm_streams_result *res);

#endif
