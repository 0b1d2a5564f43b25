/* SPDX-License-Identifier: MIT */
/* A write rate's cliff, as the result model holds it: whether a write was
 * long enough to look for one, and when found the burst rate, the sustained
 * rate after it, when it fell and how much had been written. Data only;
 * found by sm_cliff_find() (analysis/cliff.h), the rule in docs/cliff.md. */
#ifndef SM_RESULT_CLIFF_H
#define SM_RESULT_CLIFF_H

#include <stdint.h>

/*
 * Invariants: found implies looked; the rates, at_ns, bytes_at and ratio
 * are meaningful only when found (0 otherwise); t and split_ratio describe
 * the best split whenever looked, found or not, so a reader can see how
 * close a run came.
 */
struct sm_cliff {
	int looked;                  /* the series had SM_CLIFF_MIN_SAMPLES whole intervals */
	int found;                   /* a cliff by every test of the rule */
	unsigned samples;            /* whole intervals looked at */
	uint64_t interval_ns;        /* the length of one */
	double burst_bytes_per_s;    /* mean rate before the fall */
	double sustained_bytes_per_s;  /* mean rate after it */
	double ratio;                /* sustained / burst */
	uint64_t at_ns;              /* when the rate fell, since the series began */
	uint64_t bytes_at;           /* bytes written by then */
	double t;                    /* the best split's t statistic (capped at 1e6) */
	double split_ratio;          /* the best split's after / before mean */
};

#endif
