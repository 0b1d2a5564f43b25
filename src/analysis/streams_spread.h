/* SPDX-License-Identifier: MIT */
/* An MPI job's streams: how each answer's streams were spread over the
 * ranks and hosts, and which of them held at the first failure. */
#ifndef SM_ANALYSIS_STREAMS_SPREAD_H
#define SM_ANALYSIS_STREAMS_SPREAD_H

#include "result/streams.h"

/*
 * Fill res->share from the cells' steps (stream i of a step ran on rank
 * i mod res->ranks, a mix's streams first; rank r's host is
 * res->rank_host[r]), and with a mix res->mix_share from the mix run
 * alone. A stream held when sm_stream_holds() says so. Needs res->ranks >
 * 1, rank_host and nhosts set. Returns 0, or -ENOMEM (share or mix_share
 * left NULL).
 */
int sm_streams_spread(struct sm_streams_result *res);

/* The share of rank (j < res->ranks) or host (j = ranks + h) in cell i. */
const struct sm_streams_share *sm_streams_share_of(const struct sm_streams_result *res, unsigned cell,
						   unsigned j);

#endif
