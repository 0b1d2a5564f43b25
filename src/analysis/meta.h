/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s figures: each phase's rate, and what the measured
 * rates say of a whole sequence (docs/meta.md). */
#ifndef SM_ANALYSIS_META_H
#define SM_ANALYSIS_META_H

#include <stdint.h>

#include "result/meta.h"

/* Each phase's per_s: its operations over its duration (sm_per_s); in an
 * MPI job's merge (r->ranks) also first_done_count and first_done_per_s
 * from done_at and first_done_ns. Never fails. */
void sm_meta_analyse(struct sm_meta_result *r);

/* An MPI job's merge (rank 0): src, another rank's result, into dst; each
 * phase's operations and done_at summed, its duration the longer (the
 * last rank done), first_done_ns the shorter; created summed, cleaned 1
 * only when both are. The rates derived again by sm_meta_analyse() with
 * dst->ranks set. Returns 0. */
int sm_meta_merge(struct sm_meta_result *dst, const struct sm_meta_result *src);

/* What the rates of r say of a sequence of `frames` frames here: the time
 * to list its directory (frames over the list rate) and to stat and probe
 * every frame (frames over the stat rate plus frames over the probe
 * rate), in ns. A figure whose phase did not run or has no rate is 0, and
 * both are in an MPI job's merge (its rates are all clients' together).
 * Returns 1 when both are known, else 0. */
int sm_meta_sequence_ns(const struct sm_meta_result *r, uint64_t frames, double *list_ns,
			double *probe_ns);

#endif
