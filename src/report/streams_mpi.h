/* SPDX-License-Identifier: MIT */
/* `stormark streams` as an MPI job: how each answer's streams were spread
 * over the ranks and hosts (text and the JSON "mpi"."streams" array);
 * pure renderings of res->share (analysis/streams_spread.c). */
#ifndef SM_REPORT_STREAMS_MPI_H
#define SM_REPORT_STREAMS_MPI_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "result/streams.h"

/* Nothing when res->share is NULL (not a job). */
void sm_streams_spread_text(FILE *f, const struct sm_streams_result *res);

/* Add "streams" (an array, one entry per cell) to the "mpi" object of
 * doc; nothing when res->share is NULL or doc has no "mpi". */
void sm_streams_spread_json(cJSON *doc, const struct sm_streams_result *res);

#endif
