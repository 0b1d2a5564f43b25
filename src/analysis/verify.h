/* SPDX-License-Identifier: MIT */
/* The figures derived from a verifying run's counters (hashing rates, the
 * share of thread time spent hashing, the read-back pass rate), computed
 * in one place for every layout. */
#ifndef SM_ANALYSIS_VERIFY_H
#define SM_ANALYSIS_VERIFY_H

#include <stdint.h>

#include "core/verify.h"

struct sm_verify_fig {
	double seal_bytes_per_s;   /* bytes sealed over the time spent sealing; 0 if none */
	double check_bytes_per_s;  /* bytes checked over the time spent checking; 0 if none */
	double hash_share;         /* (seal + check time) / (duration x threads + the
				    * read-back pass's time), 0..1 */
	double pass_bytes_per_s;   /* the separate read-back pass; 0 when there was none */
};

/* Fill *out from st, the block size, the threads that hashed (0 counts as
 * 1) and the test's duration. Never fails; a zero time gives a zero rate. */
void sm_verify_figures(const struct sm_verify_stats *st, uint64_t block, uint64_t threads,
		       uint64_t duration_ns, struct sm_verify_fig *out);

#endif
