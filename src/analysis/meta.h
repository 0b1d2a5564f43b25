/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s figures: each phase's rate, and what the measured
 * rates say of a whole sequence (docs/meta.md). */
#ifndef SM_ANALYSIS_META_H
#define SM_ANALYSIS_META_H

#include <stdint.h>

#include "result/meta.h"

/* Each phase's per_s: its operations over its duration (sm_per_s). Never
 * fails. */
void sm_meta_analyse(struct sm_meta_result *r);

/* What the rates of r say of a sequence of `frames` frames here: the time
 * to list its directory (frames over the list rate) and to stat and probe
 * every frame (frames over the stat rate plus frames over the probe
 * rate), in ns. A figure whose phase did not run or has no rate is 0.
 * Returns 1 when both are known, else 0. */
int sm_meta_sequence_ns(const struct sm_meta_result *r, uint64_t frames, double *list_ns,
			double *probe_ns);

#endif
