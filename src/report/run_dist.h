/* SPDX-License-Identifier: MIT */
/* The part of `stormark run`'s report that an MPI job adds: what the
 * verdict table means across ranks, and each rank's own best formats. */
#ifndef SM_REPORT_RUN_DIST_H
#define SM_REPORT_RUN_DIST_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/run_dist.h"

/* The note under the verdict table of a job of nranks ranks, then one
 * line per rank (b[nranks]) with its own best capture and playback. */
void sm_run_dist_text(FILE *f, unsigned nranks, const struct sm_run_rank_best *b);

/* The same as the "run_ranks" array of the "mpi" object: per rank its
 * own best capture and playback ({format, fps} or null) and the tests it
 * fell behind in (docs/json-schema.md). */
cJSON *sm_run_dist_json(unsigned nranks, const struct sm_run_rank_best *b);

#endif
